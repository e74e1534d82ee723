"""How the bots play: hand sizes, tickets, and each variant's own scoring rules.

For each map, seeded 2-player games of one bot kind against itself (or two kinds,
seats alternating), and per player-game:

* the largest hand held at any moment (median and largest over the games), and the
  hand at the end;
* tickets kept and completed;
* Germany: passengers collected, colours led at the end (majority points);
* Märklin: passengers placed, journeys made, merchandise points;
* Rails & Sails World: harbors built and their points, tours completed in order and
  only joined, pieces exchanged;
* Europe: tunnels built and given up, stations built, routes borrowed.

Usage::

    python tools/bot_habits.py                           # greedy, 12 games per map
    python tools/bot_habits.py --bots beginner --games 20
    python tools/bot_habits.py --bots search-cpu:0.1,greedy --games 4 --maps germany
    python tools/bot_habits.py --journal results/strength/issue-23/world-1s.jsonl

``--journal`` reads the games a strength run journaled (``tools/strength.py``) instead of
playing: per bot, the mean of each score part and how often a variant rule scored
(Märklin: merchandise from journeys; World: a harbor built, pieces exchanged).

Figures, not a test: docs/bots.md quotes a run of it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ttr_nb import new_game  # noqa: E402
from ttr_nb.bots import make_bot  # noqa: E402
from ttr_nb.rules import playable_maps  # noqa: E402


def variant_counts(game, seat: int) -> dict[str, float]:
    """What a player did with the variant's own scoring rules, at the end of ``game``."""
    rules = game.rules
    state = game.state
    player = state.players[seat]
    row = game.scores()[seat]
    out: dict[str, float] = {}
    if rules.name == "germany":
        out["passengers"] = sum(player.extras.get("passengers", {}).values())
        out["majority points"] = row.get("passengers", 0)
    elif rules.name == "maerklin":
        from ttr_nb.rules.maerklin import LEFT_KEY, MOVED_KEY

        moved = player.extras[MOVED_KEY]
        out["passengers placed"] = rules.passengers_each - player.extras[LEFT_KEY]
        out["journeys"] = moved
        out["merchandise points"] = row.get("merchandise", 0)
    elif rules.name == "world":
        built = [c for c, owner in state.extras["harbors"].items() if owner == seat]
        out["harbors built"] = len(built)
        out["harbor points"] = row.get("harbors", 0)
        in_order = joined = tours = 0
        for t in player.tickets:
            if t in rules.tours:
                tours += 1
                points = rules.tour_points(player, t)
                values = rules.tours[t]
                in_order += points == values["in_order"]
                joined += points == values["any_order"]
        out["tours held"] = tours
        out["tours in order"] = in_order
        out["tours joined only"] = joined
        out["pieces exchanged"] = player.extras["exchanged"]
    elif rules.name == "europe":
        tunnels = [r for r in player.routes if game.map.route_by_id[r].tunnel]
        moves = [type(m.action).__name__ for m in game.history if m.player == seat]
        out["tunnels built"] = len(tunnels)
        out["tunnels given up"] = moves.count("GiveUpTunnel")
        out["stations built"] = rules.stations_each - player.extras["stations_left"]
        out["routes borrowed"] = len(rules.borrowed_routes(state, seat))
    return out


def play(map_name: str, kinds: list[str], seed: int) -> list[dict[str, float]]:
    """One game; per seat: largest hand, final hand, tickets, variant counts, bot kind."""
    game = new_game(map_name, 2, seed=seed)
    bots = [make_bot(kind, seed * 10 + i) for i, kind in enumerate(kinds)]
    largest = [0, 0]
    while not game.is_over:
        game.apply(bots[game.current_player].choose(game))
        for seat, player in enumerate(game.state.players):
            largest[seat] = max(largest[seat], player.hand_size)
    rows = []
    for seat, player in enumerate(game.state.players):
        status = game.ticket_status(seat)
        row = {
            "largest hand": largest[seat],
            "hand at the end": player.hand_size,
            "tickets kept": len(status),
            "tickets completed": sum(done for _, done in status),
            "score": game.scores()[seat]["total"],
        }
        row.update(variant_counts(game, seat))
        rows.append(row)
    return rows


def journal_summary(path: Path) -> None:
    """Score parts per bot from a strength journal (see the module text)."""
    import json

    parts: dict[str, list[dict[str, int]]] = defaultdict(list)
    for line in path.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        bots = entry["row"]  # "map@budget"
        for seat in entry["record"]["seats"]:
            kind = f"search ({bots})" if seat["entrant"] == 0 else "greedy"
            parts[kind].append(seat["score"])
    for kind, scores in parts.items():
        keys = [k for k in scores[0] if k != "total"]
        means = ", ".join(f"{k} {statistics.mean(s[k] for s in scores):.1f}" for k in keys)
        line = f"{kind}, {len(scores)} games: {means}"
        if "merchandise" in keys:
            line += f"; merchandise scored in {sum(s['merchandise'] > 0 for s in scores)}"
        if "harbors" in keys:
            built = sum(s["harbors"] > -12 for s in scores)
            swaps = sum(s["exchange"] < 0 for s in scores)
            line += f"; a harbor built in {built}, pieces exchanged in {swaps}"
        print(line)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="greedy", help="one kind, or two (seats alternate)")
    parser.add_argument("--games", type=int, default=12, help="games per map")
    parser.add_argument("--maps", default="all")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--journal", type=Path, help="summarise a strength journal instead")
    args = parser.parse_args()
    if args.journal:
        journal_summary(args.journal)
        return 0
    kinds = args.bots.split(",")
    if len(kinds) == 1:
        kinds *= 2
    maps = playable_maps() if args.maps == "all" else args.maps.split(",")
    print(f"{args.games} two-player games per map: {' vs '.join(kinds)} (seats alternate)")
    for map_name in maps:
        by_kind: dict[str, list[dict[str, float]]] = defaultdict(list)
        for g in range(args.games):
            order = kinds if g % 2 == 0 else kinds[::-1]
            for kind, row in zip(order, play(map_name, order, args.seed + g), strict=True):
                by_kind[kind].append(row)
        for kind, rows in by_kind.items():
            hands = [r["largest hand"] for r in rows]
            print(
                f"{map_name} · {kind}: largest hand median {statistics.median(hands):g}, "
                f"largest {max(hands):g}; hand at the end median "
                f"{statistics.median(r['hand at the end'] for r in rows):g}"
            )
            keys = [k for k in rows[0] if k not in ("largest hand", "hand at the end")]
            means = ", ".join(f"{k} {statistics.mean(r[k] for r in rows):.1f}" for k in keys)
            print(f"    per player-game: {means}")
            if map_name == "world":
                harbors = sum(r["harbors built"] > 0 for r in rows)
                tours = sum(r["tours held"] for r in rows)
                done = sum(r["tours in order"] + r["tours joined only"] for r in rows)
                swaps = sum(r["pieces exchanged"] > 0 for r in rows)
                print(
                    f"    built a harbor in {harbors} of {len(rows)} player-games; completed "
                    f"{done} of {tours} tours held; exchanged pieces in {swaps}"
                )
            if map_name == "europe":
                stations = sum(r["stations built"] > 0 for r in rows)
                borrowed = sum(r["routes borrowed"] > 0 for r in rows)
                print(
                    f"    built a station in {stations} of {len(rows)} player-games, borrowed a "
                    f"route in {borrowed}"
                )
            if map_name == "maerklin":
                moved = sum(r["journeys"] > 0 for r in rows)
                print(f"    moved a passenger in {moved} of {len(rows)} player-games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
