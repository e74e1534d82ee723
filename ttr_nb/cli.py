"""Command line: ``ttr-nb play``, ``simulate``, ``tournament``, ``hint``, ``bench``,
``best-score``."""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence

from .bots import make_bot, play_out
from .game import Game, new_game
from .maps import available_maps


def _bots_for(kinds: str, players: int, seed: int) -> list:
    names = kinds.split(",")
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise SystemExit(f"--bots needs 1 or {players} names, got {len(names)}")
    return [make_bot(kind, seed * 101 + i) for i, kind in enumerate(names)]


def final_report(game: Game) -> str:
    """Final scores, breakdown and winner as text."""
    result = game.result()
    assert result is not None
    lines = ["", "Final scores:"]
    for i, row in enumerate(result["scores"]):
        parts = ", ".join(f"{k} {v:+d}" for k, v in row.items() if k != "total")
        done = sum(ok for _, ok in game.ticket_status(i))
        lines.append(
            f"  {game.names[i]:<10} {row['total']:>4}  ({parts}; "
            f"tickets {done}/{len(game.state.players[i].tickets)} completed)"
        )
    winners = " and ".join(game.names[i] for i in result["winners"])
    lines.append(f"Winner: {winners} (decided by {result['decided_by']})")
    return "\n".join(lines)


def cmd_play(args: argparse.Namespace) -> int:
    """``ttr-nb play``: bots play one game; print its turn log and scores. Returns the exit
    status."""
    game = new_game(args.map, players=args.players, seed=args.seed)
    bots = _bots_for(args.bots, args.players, args.seed)
    print(f"{game.map.name}, {args.players} players, seed {args.seed}")
    turn = None
    while not game.is_over:
        if game.state.turn != turn:
            turn = game.state.turn
            if game.phase == "play":
                print(f"-- turn {turn}: {game.names[game.current_player]}")
        game.apply(bots[game.current_player].choose(game))
        print("   " + game.log[-1])
    print(final_report(game))
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    """``ttr-nb simulate``: play many games and print their averages. Returns the exit status."""
    from tqdm import tqdm

    scores, turns, tickets, completed = [], [], 0, 0
    start = time.perf_counter()
    for g in tqdm(range(args.games), desc="games", unit="game", disable=args.quiet):
        seed = args.seed + g
        game = play_out(
            new_game(args.map, players=args.players, seed=seed),
            _bots_for(args.bots, args.players, seed),
        )
        scores.extend(row["total"] for row in game.scores())
        turns.append(game.state.turn)
        for i in range(args.players):
            status = game.ticket_status(i)
            tickets += len(status)
            completed += sum(ok for _, ok in status)
    elapsed = time.perf_counter() - start
    print(f"{args.games} games on {args.map}, {args.players} players, bots {args.bots}")
    print(f"  mean score            {statistics.mean(scores):8.1f}")
    print(f"  mean turns            {statistics.mean(turns):8.1f}")
    print(f"  tickets completed     {100 * completed / max(1, tickets):7.1f} %")
    print(f"  games per second      {args.games / elapsed:8.1f}")
    return 0


def cmd_tournament(args: argparse.Namespace) -> int:
    """``ttr-nb tournament``: bots against each other, seats rotated. Returns the exit status."""
    from .tournament import run_tournament

    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    try:
        result = run_tournament(
            bots,
            args.map,
            args.games,
            players=args.players,
            seed=args.seed,
            workers=args.workers,
            progress=not args.quiet,
        )
    except ValueError as exc:
        raise SystemExit(f"ttr-nb tournament: {exc}") from None
    print(result.to_text())
    print(f"\n{result.seconds:.1f} s, {result.games / max(result.seconds, 1e-9):.1f} games/s")
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")  # no display needed
        result.plot().savefig(args.plot, dpi=120, bbox_inches="tight")
        print(f"plot written to {args.plot}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            out.write(result.to_json())
        print(f"every game written to {args.json}")
    return 0


def _hint_error(message: str) -> int:
    print(f"ttr-nb hint: {message}", file=sys.stderr)
    return 2


def cmd_hint(args: argparse.Namespace) -> int:
    """The coach's hints for one seat of a saved game (exit status 2 for a bad save or
    seat, with the reason)."""
    import json

    from .coach import coach, review, why_from_replay
    from .errors import SaveFormatError
    from .game import MAX_SAVE_CHARS

    try:
        with open(args.save, encoding="utf-8") as file:
            text = file.read(MAX_SAVE_CHARS + 1)
    except OSError as exc:
        return _hint_error(f"cannot read {args.save}: {exc.strerror or exc}")
    except UnicodeDecodeError:
        return _hint_error(f"{args.save} is not a text file (a save is JSON text)")
    try:
        game = Game.from_json(text, source=args.save)
    except SaveFormatError as exc:
        return _hint_error(str(exc))
    if not 1 <= args.seat <= game.num_players:
        names = ", ".join(f"{i + 1} {name}" for i, name in enumerate(game.names))
        return _hint_error(
            f"--seat {args.seat}: this game has seats 1 to {game.num_players} ({names})"
        )
    advice = coach(game, args.seat - 1, why_from_replay(game))
    if args.json:
        data = advice.to_dict()
        data["review"] = [row.to_dict() for row in review(game)] if game.is_over else None
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    print(advice.text())  # after the last move: the end-of-game review
    return 0


PER_ACTION_GOAL = 2.0  # a variant's cost per action, at most this many times USA's
JOURNEY_GOAL_MS = 5.0  # Märklin: a turn's legal actions, journeys included


def _timed_legal_actions(game: Game) -> float:
    """Seconds to list the legal actions, best of 5 (a busy machine only adds time)."""
    times = []
    for _ in range(5):
        start = time.perf_counter()
        game.legal_actions()
        times.append(time.perf_counter() - start)
    return min(times)


def _worst_legal_actions(map_name: str, count: int) -> tuple[float, str]:
    """The slowest legal-actions listing over every turn of greedy and random 5-player games."""
    from .bots import GreedyBot, RandomBot

    worst, where = 0.0, ""
    for g in range(count):
        for kind in (GreedyBot, RandomBot):
            game = new_game(map_name, players=5, seed=g)
            bots = [kind(g * 10 + i) for i in range(5)]
            while not game.is_over:
                took = _timed_legal_actions(game)
                if took > worst:
                    worst = took
                    where = f"{kind.name} game {g}, turn {game.state.turn}"
                game.apply(bots[game.current_player].choose(game))
    return worst, where


def _worst_journey_listing(count: int) -> tuple[float, str]:
    """Märklin's hardest case: each player of finished greedy games (2 to 5 players), with
    3 passengers on the best-connected cities of their network and a Passenger card."""
    from .bots import GreedyBot
    from .rules.maerklin import BOARD_KEY, MaerklinRules

    worst, where = 0.0, ""
    for players in (2, 3, 4, 5):
        for g in range(count):
            game = play_out(
                new_game("maerklin", players=players, seed=g),
                [GreedyBot(g * 10 + i) for i in range(players)],
            )
            rules = game.rules
            assert isinstance(rules, MaerklinRules)
            state = game.state
            state.phase, state.pending, state.final_turns_left = "play", None, None
            for seat, player in enumerate(state.players):
                degree: dict[str, int] = {}
                for rid in player.routes:
                    for end in game.map.route_by_id[rid].ends:
                        if end in rules.stops:
                            degree[end] = degree.get(end, 0) + 1
                hubs = sorted(degree, key=lambda c: (-degree[c], c))[:3]
                state.extras[BOARD_KEY] = dict.fromkeys(hubs, seat)
                player.hand[rules.passenger_card] = max(1, player.hand[rules.passenger_card])
                state.current = seat
                took = _timed_legal_actions(game)
                if took > worst:
                    routes = len(player.routes)
                    worst = took
                    where = f"{players} players, game {g}, seat {seat + 1}: {routes} routes"
    return worst, where


def cmd_bench(args: argparse.Namespace) -> int:
    """``ttr-nb bench``: print the engine's speed figures. Returns the exit status."""
    from .algorithms import longest_trail_length
    from .bench import report
    from .bots import GreedyBot, RandomBot
    from .rules import playable_maps

    maps = playable_maps() if args.map == "all" else [args.map]
    for line in report(args.games, maps):
        print(line, flush=True)
    networks = []
    per_action: dict[str, float] = {}  # seconds per action, random 2-player games
    for map_name in maps:
        print(f"Random-bot games, {map_name}, full rules (one core):")
        for players in (2, 4):
            count = args.games
            actions = 0
            start = time.perf_counter()
            for g in range(count):
                game = play_out(
                    new_game(map_name, players=players, seed=g),
                    [RandomBot(g * 10 + i) for i in range(players)],
                )
                actions += len(game.history)
                for p in game.state.players:
                    routes = [game.map.route_by_id[r] for r in p.routes]
                    networks.append([(r.a, r.b, r.length) for r in routes])
            elapsed = time.perf_counter() - start
            if players == 2:
                per_action[map_name] = elapsed / actions
            print(
                f"  {players} players: {count / elapsed:8.1f} games/s ({count} games, "
                f"{actions / count:.0f} actions per game, {1e3 * elapsed / actions:.3f} ms per "
                "action)"
            )
        count = max(1, args.games // 10)
        start = time.perf_counter()
        for g in range(count):
            play_out(
                new_game(map_name, players=4, seed=g), [GreedyBot(g * 10 + i) for i in range(4)]
            )
        elapsed = time.perf_counter() - start
        print(f"  greedy bots, 4 players: {count / elapsed:8.1f} games/s ({count} games)")
        worst, where = _worst_legal_actions(map_name, count)
        print(f"  legal actions, worst turn: {worst * 1e3:.2f} ms ({where})")
        if map_name == "maerklin":
            worst, where = _worst_journey_listing(count)
            print(
                f"  legal actions on end-of-game networks, 3 passengers and a Passenger card "
                f"each: worst {worst * 1e3:.2f} ms ({where}; goal {JOURNEY_GOAL_MS:g} ms)"
            )
    if "usa" in per_action and len(per_action) > 1:
        print("Cost per action against USA (random 2-player games):")
        for map_name, cost in per_action.items():
            if map_name != "usa":
                ratio = cost / per_action["usa"]
                verdict = "within" if ratio <= PER_ACTION_GOAL else "OVER"
                print(f"  {map_name}: {ratio:.2f}× USA ({verdict} the {PER_ACTION_GOAL:g}× goal)")
    times = []
    for routes in networks:
        reps = 20
        start = time.perf_counter()
        for _ in range(reps):
            longest_trail_length(routes)
        times.append((time.perf_counter() - start) / reps)
    sizes = [len(r) for r in networks]
    print(
        f"longest_trail_length on {len(networks)} end-of-game networks "
        f"({min(sizes)}–{max(sizes)} routes):"
    )
    print(f"  mean {statistics.mean(times) * 1e3:.4f} ms, worst {max(times) * 1e3:.4f} ms")
    return 0


def _seconds(text: str) -> float:
    """``--time-limit``: a number of seconds above 0 (argparse reports the reason)."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if value != value:  # not a number
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds")
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(
            f"{text} seconds: the solver needs a time above 0 to find a game and prove it"
        )
    return value


def _pieces(text: str) -> int:
    """``--trains``: a whole number of pieces, 0 or more (the board's limit is checked
    once the map is known)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of pieces") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value}: a player cannot have fewer than 0 pieces")
    return value


def _best_score_map(args: argparse.Namespace, parser: argparse.ArgumentParser) -> str:
    """The map of ``best-score``: ``--map``, or the positional map of earlier releases (with a
    note on standard error), ``usa`` by default."""
    if args.old_map is None:
        return args.map or "usa"
    if args.map is not None and args.map != args.old_map:
        parser.error(f"two maps named: {args.old_map} and --map {args.map}")
    print(
        f"ttr-nb best-score: naming the map without --map is deprecated and will stop "
        f"working; write: ttr-nb best-score --map {args.old_map}",
        file=sys.stderr,
    )
    return args.old_map


def cmd_best_score(args: argparse.Namespace) -> int:
    """The highest score one player can reach alone, and what the solver proved (exit
    status 2 for a bad map, budget or time limit, with the reason)."""
    import json
    from pathlib import Path

    from .analysis.best_score import (
        any_shape,
        best_score,
        board_pieces,
        one_network_bounds,
        stored_table,
        ticket_value,
    )
    from .errors import FileFormatError
    from .maps import available_maps, load_map

    parser = args.parser
    name = _best_score_map(args, parser)
    maps = available_maps()
    if name not in maps and not Path(name).is_file():
        parser.error(f"no map named {name!r} (maps: {', '.join(maps)}, or a map file)")
    try:
        game_map = load_map(name)
    except FileFormatError as error:
        parser.error(str(error))
    most = board_pieces(game_map)
    if args.trains is not None and args.trains > most:
        kinds = sorted({r.kind for r in game_map.routes})
        pieces = game_map.components.get("pieces", {})
        caps = [f"{pieces[k]} {k}s" for k in kinds if len(kinds) > 1 and k in pieces]
        within = f", at most {' and '.join(caps)}" if caps else ""
        parser.error(
            f"--trains {args.trains}: the {game_map.name} board takes at most {most} pieces "
            f"(every route, one track of each double route{within}); more pieces play the "
            "same game"
        )
    try:
        rows, source = stored_table(game_map.id, args.bounds)
    except (OSError, ValueError) as error:
        parser.error(f"--bounds {args.bounds}: cannot read it ({type(error).__name__})")
    best = best_score(game_map, args.trains, time_limit=args.time_limit)
    shape = any_shape(best, one_network_bounds(rows, game_map.id) if rows else None, source)
    if args.json:
        print(json.dumps(best.as_json() | {"any_shape": shape.as_json()}))
        return 0
    print(f"{game_map.name}: the best game alone with {best.trains} pieces")
    print(f"Routes ({len(best.routes)}, {best.pieces} pieces, {best.route_points} points):")
    for r in best.routes:
        print(f"  {game_map.route_label(game_map.route_by_id[r])}")
    print(f"Tickets completed ({len(best.tickets)}, {best.ticket_points} points):")
    for t in best.tickets:
        ticket = game_map.ticket_by_id[t]
        places = " → ".join(game_map.place_name(p) for p in ticket.cities)
        counted = ticket_value(ticket)
        tour = " as a tour in any order" if ticket.tour_values else ""
        print(f"  {places} ({counted}{tour})")
    parts = f"{best.route_points} route points + {best.ticket_points} ticket points"
    if best.station_points:
        stations = int(game_map.components.get("stations_per_player", 0))
        parts += (
            f" + {best.station_points} for the {stations} stations never built (alone, a "
            "station has no opponent's route to borrow)"
        )
    print(f"Score {best.score} = {parts}.")
    model = (
        "games whose completed tickets lie in one network"
        if best.trees == 1
        else "games of any number of networks"
    )
    if best.proven:
        print(
            f"Proven best among {model}: the solver's bound is {best.bound:g} "
            f"({best.seconds:.1f} s)."
        )
    else:
        print(
            f"Not proven: the solver stopped after {best.seconds:.1f} s; among {model}, "
            f"one may score up to {best.bound:g} (gap {best.gap:.1%})."
        )
    if best.trees == 1:
        print(f"Best of any shape, tickets in several networks too: {shape.reason}.")
    if best.left_out:
        print(f"Left out: {best.left_out}.")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The ``ttr-nb`` command line: its subcommands and their options."""
    parser = argparse.ArgumentParser(prog="ttr-nb", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    def common(p: argparse.ArgumentParser, players: int, bots: str) -> None:
        p.add_argument("--map", default="usa", help="map name or map file (default usa)")
        p.add_argument("--players", type=int, default=players, choices=range(2, 6))
        p.add_argument("--seed", type=int, default=1)
        p.add_argument(
            "--bots",
            default=bots,
            help="bot kind, or one per seat: greedy,random; levels beginner, greedy, hard (the "
            "search bot; search:0.3 or hard:0.3 names the seconds per move)",
        )

    play = sub.add_parser("play", help="bots play one game; print the turn log and final scores")
    common(play, 3, "greedy")
    play.set_defaults(func=cmd_play)
    sim = sub.add_parser("simulate", help="many bot games with a summary")
    common(sim, 2, "random")
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.set_defaults(func=cmd_simulate)
    tour = sub.add_parser(
        "tournament",
        help="bots play many games, seats rotated, in parallel; table and plot",
        description="Bots play many games with rotating seats, over several processes. "
        "Prints wins and mean scores with 95% intervals, per bot and per seat.",
    )
    tour.add_argument(
        "--bots",
        default="greedy,random",
        help="one bot per seat: greedy,random; search:0.3 thinks 0.3 s a move (wall clock), "
        "search-cpu:0.3 0.3 s of its own CPU time",
    )
    tour.add_argument("--map", default="usa", help="map name or map file (default usa)")
    tour.add_argument("--games", type=int, default=100)
    tour.add_argument(
        "--players", type=int, choices=range(2, 6), help="seats, when --bots names one bot"
    )
    tour.add_argument("--seed", type=int, default=0, help="game g uses seed SEED + g")
    tour.add_argument("--workers", type=int, help="processes (default: one per core; 1: none)")
    tour.add_argument("--plot", metavar="FILE", help="save the plot (PNG, SVG or PDF)")
    tour.add_argument("--json", metavar="FILE", help="save every game's record as JSON")
    tour.add_argument("--quiet", action="store_true", help="no progress bar")
    tour.set_defaults(func=cmd_tournament)
    hint = sub.add_parser(
        "hint",
        help="the coach on a saved game: plan, weak spots, why the last move",
        description="The coach's hints for one seat of a saved game, using only what that "
        "seat may know: the cheapest plan for its tickets (a Steiner forest), its weak spots, "
        "where the others seem to be heading, the variant's own hints, and the greedy bot's "
        "reading of the last move; after the last move, the end-of-game review.",
    )
    hint.add_argument("save", metavar="SAVE.json", help="a game saved by the app or Game.to_json")
    hint.add_argument("--seat", type=int, required=True, help="the seat to coach, from 1")
    hint.add_argument("--json", action="store_true", help="print one JSON object")
    hint.set_defaults(func=cmd_hint)
    bench = sub.add_parser(
        "bench",
        help="speed figures: fast vs reference engine path, clone, planner, games per second",
    )
    bench.add_argument("--map", default="all", help="a map name, or all (every playable map)")
    bench.add_argument("--games", type=int, default=100, help="random games per player count")
    bench.set_defaults(func=cmd_bench)
    best = sub.add_parser(
        "best-score",
        help="the highest score one player can reach alone, proven by a MIP solver",
        description="Routes and tickets of the best game one player can play alone within "
        "a budget of pieces (a prize-collecting Steiner forest solved by HiGHS), with what "
        "the solver proved: the best among games whose completed tickets lie in one network, "
        "and, where a stored table of smaller budgets allows it, the best of any shape. "
        "Exit status 2 for a bad map, budget or time limit.",
    )
    maps = ", ".join(available_maps())
    best.add_argument("--map", default=None, help=f"map name ({maps}) or a map file (default usa)")
    best.add_argument(
        "old_map", nargs="?", metavar="MAP", help="deprecated: the map, as --map names it"
    )
    best.add_argument(
        "--trains",
        type=_pieces,
        help="the budget of pieces, 0 up to the board's routes (default: a full set)",
    )
    best.add_argument("--json", action="store_true", help="print one JSON object")
    best.add_argument(
        "--time-limit",
        type=_seconds,
        default=600.0,
        help="seconds (above 0) before the solver stops with a bound (default 600)",
    )
    best.add_argument(
        "--bounds",
        metavar="FILE",
        help="one-network runs of smaller budgets (tools/best_scores.py), for the proof "
        "of any shape (default: results/best_score/MAP.jsonl of the repository)",
    )
    best.set_defaults(func=cmd_best_score, parser=best)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``ttr-nb`` command with ``argv`` (the process's arguments by default); returns the
    exit status."""
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
