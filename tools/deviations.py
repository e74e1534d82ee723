"""Are the search bot's departures from greedy's move real gains? Judge them again.

The search (1 s of CPU a move, as in the strength runs) plays a game against the greedy
bot. Whenever it plays a move other than the one greedy would have played, both moves
are judged again from that position with many fresh worlds (``--worlds``, 150 by
default): each is played in the same sampled worlds with the same seeds, and the rest of
the game is played by the rollout policy for every player (a flat Monte Carlo
comparison, without the search's tree). It prints, per departure, the lead the search
saw (its paired margin over greedy's move, and the noise of that margin) beside the
lead the fresh worlds give, and counts the departures that are better, worse, or not
told apart (within two standard errors)::

    python tools/deviations.py --map germany --seed 4 --departures 20

What it shows (docs/bots.md, "The search bot"): the lead the search sees is inflated. The
winner of a race among many candidates is the luckiest, so a lead of one standard
error is mostly luck, and with fresh worlds most departures are worth about nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ttr_nb import new_game  # noqa: E402
from ttr_nb.bots import make_bot  # noqa: E402
from ttr_nb.bots.determinise import Knowledge  # noqa: E402
from ttr_nb.bots.rollout import PlanFollower  # noqa: E402
from ttr_nb.bots.search import paired_margin, reward  # noqa: E402
from ttr_nb.game import Game  # noqa: E402


def judge(game: Game, moves: list, worlds: int, rng: random.Random) -> list[dict[int, float]]:
    """Each move's result in ``worlds`` sampled worlds (the same worlds and seeds for all)."""
    seat = game.current_player
    knowledge = Knowledge.of(game, seat)
    policy = PlanFollower(0)
    results: list[dict[int, float]] = [{} for _ in moves]
    for w in range(worlds):
        world = knowledge.sample(rng)
        world.quiet = True
        seed = rng.getrandbits(32)
        for i, move in enumerate(moves):
            copy = world.clone()
            policy.reset()
            policy.rng.seed(seed)
            copy.apply(move)
            policy.play_out(copy)
            results[i][w] = reward([row["total"] for row in copy.scores()], seat)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--map", default="germany")
    parser.add_argument("--seed", type=int, default=4, help="the game's seed")
    parser.add_argument("--worlds", type=int, default=150, help="fresh worlds per departure")
    parser.add_argument("--departures", type=int, default=20, help="stop after this many")
    parser.add_argument("--budget", type=float, default=1.0, help="search CPU seconds a move")
    args = parser.parse_args()
    game = new_game(args.map, 2, seed=args.seed)
    search = make_bot(f"search-cpu:{args.budget:g}", args.seed)
    greedy = make_bot("greedy", args.seed)
    bots = [search, greedy] if args.seed % 2 == 0 else [greedy, search]
    rng = random.Random(7)
    verdicts = {"better": 0, "worse": 0, "not told apart": 0}
    seen = 0
    seen_leads: list[float] = []
    fresh_leads: list[float] = []
    while not game.is_over and seen < args.departures:
        bot = bots[game.current_player]
        if bot is search:
            theirs = search.greedy.choose(game)
            mine = search.choose(game)
            if mine != theirs:
                seen += 1
                results = judge(game, [mine, theirs], args.worlds, rng)
                lead, noise = paired_margin(results[0], results[1])
                verdict = (
                    "better"
                    if lead > 2 * noise
                    else "worse"
                    if lead < -2 * noise
                    else "not told apart"
                )
                verdicts[verdict] += 1
                seen_leads.append(search.last.margin)
                fresh_leads.append(lead)
                print(
                    f"move {len(game.history)}: {game.describe(mine)} instead of "
                    f"{game.describe(theirs)}\n    the search saw {search.last.margin:+.3f} "
                    f"± {search.last.noise:.3f}; {args.worlds} fresh worlds give "
                    f"{lead:+.3f} ± {noise:.3f}: {verdict}",
                    flush=True,
                )
        else:
            mine = bot.choose(game)
        game.apply(mine)
    counts = ", ".join(f"{n} {name}" for name, n in verdicts.items())
    print(
        f"{seen} departures from greedy's move (a lead counts beyond 2 standard errors): {counts}"
    )
    if seen:
        print(
            f"mean lead: {statistics.mean(seen_leads):+.3f} as the search saw it, "
            f"{statistics.mean(fresh_leads):+.3f} in fresh worlds"
        )


if __name__ == "__main__":
    main()
