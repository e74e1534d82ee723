"""Engine speed figures for ``ttr-nb bench``: the fast path against the reference path,
the cost of a clone and of a determinised world, the ticket planner against
``plan_ticket``, and the search bot's play-outs per second.

Every figure is measured in this process on this machine, side by side in one run
(figures on a shared machine vary by a third from run to run, ratios much less).

The fastest Python peer (bingsoup/ticket-to-ride-ai) is not shipped with ttr-nb:
``tools/bench_peer.py --peer CHECKOUT`` (``make bench PEER=CHECKOUT``) plays random games
on both engines side by side, given a clone of it.
"""

from __future__ import annotations

import copy
import random
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from .algorithms import TicketPlanner, TicketUnreachableError, plan_ticket
from .bots import GreedyBot, RandomBot, play_out
from .bots.determinise import Knowledge
from .game import Game, new_game

__all__ = [
    "PEER_NOTE",
    "Played",
    "clone_costs",
    "coach_end_speed",
    "coach_speed",
    "engine_build",
    "engine_speed",
    "greedy_throughput",
    "listing_speed",
    "planner_speedup",
    "playout_rate",
    "random_games",
]

PEER_NOTE = (
    "Peer engine (bingsoup/ticket-to-ride-ai): not shipped; with a clone of it, "
    "`make bench PEER=CHECKOUT` (tools/bench_peer.py) adds the side-by-side figures."
)


class Played(NamedTuple):
    """What :func:`random_games` measured: CPU seconds, and the games' actions and turns."""

    cpu_s: float
    actions: int
    turns: int


def random_games(map_name: str, players: int, seeds: range, reference: bool) -> Played:
    """Seeded random-bot games (bots seeded ``10 * seed + seat``), listed the reference or
    the fast way: their CPU time, actions and turns (``state.turn`` at the end)."""
    actions = turns = 0
    start = time.process_time()
    for g in seeds:
        game = new_game(map_name, players=players, seed=g)
        bots = [RandomBot(g * 10 + i) for i in range(players)]
        if reference:
            with game.rules.reference_mode():
                play_out(game, bots)
        else:
            play_out(game, bots)
        actions += len(game.history)
        turns += game.state.turn
    return Played(time.process_time() - start, actions, turns)


WARM_SEEDS = range(10**6, 10**6 + 50)  # games that fill the fast path's memos first


def engine_speed(
    map_name: str = "usa", players: int = 2, games: int = 300, chunk: int = 10
) -> dict[str, float]:
    """Random-bot games per second (CPU time) on the reference and the fast path: the
    same ``games`` new games, played once each way, alternating every ``chunk`` games
    (reference first), so that a busy spell of a shared machine falls on both.

    The reference path (:meth:`Rules.reference_mode`) lists every open route with every
    payment and builds each log line, as the engine did before the fast path; both play
    exactly the same games (the tests check it). The fast path remembers work per hand
    of cards; its memos are first filled by other games (:data:`WARM_SEEDS`, a tenth of
    them for World), as in any long run, so that a hand met again is not counted as new.
    """
    warm = WARM_SEEDS if map_name != "world" else WARM_SEEDS[:5]
    random_games(map_name, players, warm, reference=False)
    ref_s = fast_s = 0.0
    actions = 0
    for first in range(0, games, chunk):
        seeds = range(first, min(first + chunk, games))
        ref_chunk, ref_actions, _ = random_games(map_name, players, seeds, reference=True)
        fast_chunk, fast_actions, _ = random_games(map_name, players, seeds, reference=False)
        if fast_actions != ref_actions:
            raise AssertionError("the fast path played other games than the reference path")
        ref_s += ref_chunk
        fast_s += fast_chunk
        actions += ref_actions
    return {
        "reference_games_per_s": games / ref_s,
        "fast_games_per_s": games / fast_s,
        "speedup": ref_s / fast_s,
        "actions_per_game": actions / games,
        "games": games,
    }


def listing_speed(map_name: str = "usa", games: int = 20) -> dict[str, float]:
    """Microseconds per ``legal_actions`` call on positions met before (as a search meets
    them: the same positions again and again), reference and fast path.

    The positions are the start-of-turn positions of seeded random 2-player games; each
    is listed three times each way.
    """
    positions = []
    for g in range(games):
        game = new_game(map_name, players=2, seed=g)
        bots = [RandomBot(g), RandomBot(g + 1)]
        while not game.is_over:
            if game.state.pending is None and game.phase == "play":
                positions.append(game.clone())
            game.apply(bots[game.current_player].choose(game))
    rules = positions[0].rules

    def run(reference: bool) -> float:
        start = time.process_time()
        for _ in range(3):
            for position in positions:
                rules.reference = reference
                rules.legal_actions(position)
        rules.reference = False
        return (time.process_time() - start) / (3 * len(positions))

    run(False)  # the memos meet these positions once
    ref, fast = run(True), run(False)
    return {"reference_us": 1e6 * ref, "fast_us": 1e6 * fast, "speedup": ref / fast}


def _mid_game(map_name: str, players: int, moves: int, seed: int = 1) -> Game:
    game = new_game(map_name, players=players, seed=seed)
    bots = [GreedyBot(seed + i) for i in range(players)]
    for _ in range(moves):
        if game.is_over:
            break
        game.apply(bots[game.current_player].choose(game))
    return game


def _per_call(fn: Callable[[], Any], repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat


def clone_costs(map_name: str = "usa", players: int = 2, moves: int = 60) -> dict[str, float]:
    """Seconds per ``Game.clone()``, per ``copy.deepcopy(game)`` (the same thing), per
    clone with a fresh generator (what the search uses), per gathering of a seat's
    :class:`~ttr_nb.bots.determinise.Knowledge` and per sampled world, mid-game."""
    game = _mid_game(map_name, players, moves)
    knowledge = Knowledge.of(game, game.current_player)
    rng = random.Random(0)
    return {
        "clone": _per_call(game.clone, 2000),
        "deepcopy": _per_call(lambda: copy.deepcopy(game), 2000),
        "clone_fresh_rng": _per_call(lambda: game.clone(rng=rng), 2000),
        "knowledge": _per_call(lambda: Knowledge.of(game, game.current_player), 50),
        "sample": _per_call(lambda: knowledge.sample(rng), 2000),
        "moves": len(game.history),
    }


def planner_speedup(map_name: str = "usa", positions: int = 30) -> dict[str, float]:
    """Seconds per plan with ``plan_ticket`` (networkx, a graph built per call) and with a
    :class:`~ttr_nb.algorithms.TicketPlanner` (cached adjacency), on the same random
    positions; the plans are compared too."""
    from .maps import load_map

    game_map = load_map(map_name)
    board = [(r.id, r.a, r.b, r.length) for r in game_map.routes]
    planner = TicketPlanner(board)
    rng = random.Random(map_name)
    ids = [r.id for r in game_map.routes]
    queries = []
    for _ in range(positions):
        crowd = rng.random()
        owned = {rid for rid in ids if rng.random() < crowd * 0.2}
        unavailable = {rid for rid in ids if rng.random() < crowd * 0.5}
        for ticket in rng.sample(game_map.tickets, min(8, len(game_map.tickets))):
            a, b = ticket.cities[0], ticket.cities[1]
            queries.append((game_map.targets(a), game_map.targets(b), owned, unavailable))

    def run(plan: Callable[..., Any], *first: Any) -> tuple[float, list[Any]]:
        out = []
        start = time.perf_counter()
        for a, b, owned, unavailable in queries:
            try:
                out.append(
                    plan(
                        *first,
                        a,
                        b,
                        owned=owned,
                        unavailable=unavailable,
                        dead_ends=game_map.dead_ends,
                    )
                )
            except TicketUnreachableError:
                out.append(None)
        return time.perf_counter() - start, out

    slow, slow_plans = run(plan_ticket, board)
    fast, fast_plans = run(planner.plan)
    if slow_plans != fast_plans:
        raise AssertionError("the planner's plans differ from plan_ticket's")
    return {
        "plan_ticket_ms": 1e3 * slow / len(queries),
        "planner_ms": 1e3 * fast / len(queries),
        "speedup": slow / fast,
        "plans": len(queries),
    }


def playout_rate(map_name: str = "usa", players: int = 2, playouts: int = 20) -> float:
    """Play-outs per second of the search bot's rollout policy from a sampled world."""
    from .bots.rollout import PlanFollower

    game = _mid_game(map_name, players, 20)
    knowledge = Knowledge.of(game, game.current_player)
    rng = random.Random(1)
    policy = PlanFollower(1)
    worlds = [knowledge.sample(rng) for _ in range(playouts)]
    for world in worlds:
        world.quiet = True  # as the search plays them: no log lines
    start = time.perf_counter()
    for world in worlds:
        policy.reset()
        policy.play_out(world)
    return playouts / (time.perf_counter() - start)


GREEDY_GOAL_GAMES, GREEDY_GOAL_S = 10_000, 300.0  # issue 43: 10,000 games in 5 minutes


def greedy_throughput(games: int = 1000, workers: int = 2, seed: int = 0) -> dict[str, float]:
    """Greedy-against-greedy 2-player USA games over `workers` processes (a tournament,
    as the simulation lab plays them): wall-clock games per second and the time that
    ``GREEDY_GOAL_GAMES`` games would take at that rate."""
    from .tournament import run_tournament

    start = time.perf_counter()
    result = run_tournament(
        ["greedy", "greedy"], "usa", games, seed=seed, workers=workers, progress=False
    )
    seconds = time.perf_counter() - start
    rate = result.games / seconds
    # The same games' cost in CPU time, in this process (a shared machine's wall clock
    # depends on the other jobs; CPU seconds much less): the time 10,000 games take on
    # `workers` cores that are free.
    sample = max(20, games // 20)
    cpu = time.process_time()
    for g in range(seed, seed + sample):
        play_out(new_game("usa", players=2, seed=g), [GreedyBot(16 * g), GreedyBot(16 * g + 1)])
    cpu_rate = sample / (time.process_time() - cpu)
    return {
        "games": float(result.games),
        "workers": float(workers),
        "seconds": seconds,
        "games_per_s": rate,
        "goal_games_s": GREEDY_GOAL_GAMES / rate,
        "cpu_games_per_s": cpu_rate,
        "goal_games_free_s": GREEDY_GOAL_GAMES / (cpu_rate * workers),
    }


def report(games: int = 100, maps: list[str] | None = None) -> list[str]:
    """The engine figures of ``ttr-nb bench`` as lines of text."""
    from .rules import playable_maps

    lines = [
        f"Engine: {engine_build()}",
        "Engine fast path (random 2-player games, CPU time; reference = every payment "
        "listed, every log line built):",
    ]
    for map_name in maps or playable_maps():
        count = 3 * games if map_name != "world" else max(1, 3 * games // 5)
        speed = engine_speed(map_name, 2, count)
        lines.append(
            f"  {map_name}: reference {speed['reference_games_per_s']:.1f} games/s, fast "
            f"{speed['fast_games_per_s']:.1f} games/s: {speed['speedup']:.2f}× faster "
            f"({speed['games']:.0f} games, {speed['actions_per_game']:.0f} actions per game)"
        )
    listing = listing_speed()
    lines.append(
        f"  positions met again (a search's case), USA: reference {listing['reference_us']:.0f}"
        f" µs, fast {listing['fast_us']:.0f} µs per legal_actions: "
        f"{listing['speedup']:.2f}× faster"
    )
    costs = clone_costs()
    lines.append(f"Copies, USA 2 players after {costs['moves']} moves:")
    lines.append(
        f"  Game.clone() {1e6 * costs['clone']:.1f} µs, copy.deepcopy {1e6 * costs['deepcopy']:.1f}"
        f" µs, clone with a fresh generator {1e6 * costs['clone_fresh_rng']:.1f} µs"
    )
    lines.append(
        f"  determinisation: knowledge {1e3 * costs['knowledge']:.2f} ms per decision "
        f"(replays the history), {1e6 * costs['sample']:.1f} µs per sampled world"
    )
    plan = planner_speedup()
    lines.append(
        f"Ticket planner, USA ({plan['plans']} plans, same results): plan_ticket "
        f"{plan['plan_ticket_ms']:.3f} ms, TicketPlanner {plan['planner_ms']:.3f} ms: "
        f"{plan['speedup']:.1f}× faster"
    )
    rates = ", ".join(f"{m} {playout_rate(m):.0f}/s" for m in maps or playable_maps())
    lines.append(f"Search bot play-outs (2 players, from move 20): {rates}")
    full = games >= 20
    lines.append(
        f"Coach hints (every seat, every {COACH_STRIDE}th move and every ticket choice of "
        + ("greedy and random games, 2 to 5 players" if full else "a greedy 2-player game")
        + f"; all hints of a position; goal {1e3 * COACH_GOAL_S:.0f} ms):"
    )
    for map_name in maps or playable_maps():
        times = coach_speed(map_name, (2, 3, 4, 5) if full else (2,), full)
        lines.append(
            f"  {map_name}: {times['positions']:.0f} positions, CPU median "
            f"{1e3 * times['cpu_median']:.0f} ms, p95 {1e3 * times['cpu_p95']:.0f} ms, "
            f"worst {1e3 * times['cpu_max']:.0f} ms; wall worst {1e3 * times['wall_max']:.0f} ms; "
            f"{times['over_goal']:.0f} over {1e3 * COACH_GOAL_S:.0f} ms by the wall clock"
        )
    through = greedy_throughput(10 * games)
    lines.append(
        f"Greedy 2-player USA games, {through['workers']:.0f} processes: "
        f"{through['games']:.0f} games in {through['seconds']:.0f} s, "
        f"{through['games_per_s']:.1f} games/s: {GREEDY_GOAL_GAMES:,} games in "
        f"{through['goal_games_s']:.0f} s (goal {GREEDY_GOAL_S:.0f} s); "
        f"{through['cpu_games_per_s']:.1f} games per CPU second: {GREEDY_GOAL_GAMES:,} games in "
        f"{through['goal_games_free_s']:.0f} s on {through['workers']:.0f} free cores"
    )
    lines.append(
        "Coach at the end of a game (every seat of "
        + ("greedy and random games, 2 to 5 players" if full else "a greedy 2-player game")
        + ": the end-of-game review and Why that move, the greedy bot's reading of the last "
        f"move as `ttr-nb hint` gives it; goal {1e3 * COACH_GOAL_S:.0f} ms):"
    )
    for map_name in maps or playable_maps():
        times = coach_end_speed(map_name, (2, 3, 4, 5) if full else (2,), full)
        lines.append(
            f"  {map_name}: {times['positions']:.0f} seats, CPU median "
            f"{1e3 * times['cpu_median']:.0f} ms, p95 {1e3 * times['cpu_p95']:.0f} ms, "
            f"worst {1e3 * times['cpu_max']:.0f} ms; wall worst {1e3 * times['wall_max']:.0f} ms"
        )
    lines.append(PEER_NOTE)
    return lines


def engine_build() -> str:
    """Which build of the engine runs here: its ``.py`` files, or the compiled build
    (``make build-fast``: Cython, from the same files; ``PYTHONPATH=build/fast``).

    >>> engine_build().startswith(("pure Python", "compiled"))
    True
    """
    import sys

    compiled = sorted(
        name
        for name, module in list(sys.modules.items())
        if name.startswith("ttr_nb.")
        and getattr(module, "__file__", None)
        and not module.__file__.endswith(".py")
    )
    if not compiled:
        return "pure Python (the .py files)"
    return f"compiled by Cython from the same source ({len(compiled)} modules loaded compiled)"


COACH_STRIDE = 10
COACH_GOAL_S = 0.2


def coach_speed(map_name: str, players: tuple[int, ...] = (2, 3, 4, 5), random_too: bool = True):
    """Time :func:`ttr_nb.coach.coach` for every seat at every ``COACH_STRIDE``-th move (the
    deal included), and for every seat choosing tickets, of one seeded greedy game (and one
    random game, whose bots keep many tickets) per player count: CPU and wall seconds
    (median, 95th percentile, worst) and how many positions took longer than
    ``COACH_GOAL_S`` by the wall clock."""
    import statistics

    from .coach import coach

    cpu, wall = [], []
    for n in players:
        for kind in (GreedyBot, RandomBot) if random_too else (GreedyBot,):
            game = new_game(map_name, n, seed=n)
            bots = [kind(10 * n + i) for i in range(n)]
            while not game.is_over:
                # Every seat every COACH_STRIDE moves, and a seat choosing tickets (its
                # Tickets on offer hint plans once per offered ticket) at every such move.
                stride = len(game.history) % COACH_STRIDE == 0
                for seat in range(n):
                    if stride or game.state.players[seat].offer:
                        start_wall, start_cpu = time.perf_counter(), time.process_time()
                        coach(game, seat)
                        cpu.append(time.process_time() - start_cpu)
                        wall.append(time.perf_counter() - start_wall)
                game.apply(bots[game.current_player].choose(game))
    cpu.sort()
    return {
        "positions": len(cpu),
        "cpu_median": statistics.median(cpu),
        "cpu_p95": cpu[int(0.95 * (len(cpu) - 1))],
        "cpu_max": cpu[-1],
        "wall_max": max(wall),
        "over_goal": sum(w > COACH_GOAL_S for w in wall),
    }


def coach_end_speed(
    map_name: str, players: tuple[int, ...] = (2, 3, 4, 5), random_too: bool = True
) -> dict[str, float]:
    """Time the coach at the end of one seeded greedy game (and one random game, whose
    bots keep many tickets) per player count, for every seat: the end-of-game review and
    *Why that move* (the greedy bot's reading of the last move, which replays the game,
    as ``ttr-nb hint`` gives it). Nothing is kept from one seat to the next. CPU and wall
    seconds: median, 95th percentile and worst, as :func:`coach_speed`."""
    import statistics

    from .coach import coach, why_from_replay

    cpu, wall = [], []
    for n in players:
        for kind in (GreedyBot, RandomBot) if random_too else (GreedyBot,):
            game = play_out(new_game(map_name, n, seed=n), [kind(10 * n + i) for i in range(n)])
            for seat in range(n):
                start_wall, start_cpu = time.perf_counter(), time.process_time()
                coach(game, seat, why_from_replay(game))
                cpu.append(time.process_time() - start_cpu)
                wall.append(time.perf_counter() - start_wall)
    cpu.sort()
    return {
        "positions": len(cpu),
        "cpu_median": statistics.median(cpu),
        "cpu_p95": cpu[int(0.95 * (len(cpu) - 1))],
        "cpu_max": cpu[-1],
        "wall_max": max(wall),
    }
