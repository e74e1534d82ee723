"""Engine speed side by side with the fastest Python peer, bingsoup/ticket-to-ride-ai.

    python tools/bench_peer.py --peer PATH/TO/ticket-to-ride-ai            # 200 games each
    python tools/bench_peer.py --peer PATH/TO/ticket-to-ride-ai --games 50 # a taste

The peer is NOT shipped with ttr-nb and this file holds none of its code: it only calls
into the peer's own API. Clone https://github.com/bingsoup/ticket-to-ride-ai yourself and
pass the folder with ``--peer``; it is imported from there alone. Its ``console.py``
imports ``rich`` (``pip install rich``, or put a folder holding it on ``PYTHONPATH``);
``pygame`` is not needed (its ``game.py`` imports the GUI inside ``try``/``except``).

In one process, alternating every ``--chunk`` games so that a busy spell of a shared
machine falls on every row, it plays ``--games`` random-bot 2-player USA games on:

* ttr-nb, fast path: ``ttr_nb.bench.random_games``, what ``make bench`` times, after
  the same warm-up (``WARM_SEEDS``) that fills the fast path's memos;
* ttr-nb, reference path: the same games listed the reference way;
* the peer as its ``game.py`` ``main()`` plays "Random AI" seats: per turn, clear its
  route cache, choose the first tickets on a seat's first turn, ``RandomHeuristic``,
  ``apply_action_final`` (which prints a report of the turn), next player; then the
  final scoring. Seeded with ``random.seed`` (the peer uses the global generator); its
  printing goes to ``os.devnull`` so that printing is not what is measured;
* the peer's engine core alone: the same loop with ``apply_action`` (what its MCTS
  uses), so without the per-turn report.

With ``--compiled build/fast`` (``make build-fast``: the engine compiled by Cython from
the same source, unpacked), three rows more, each in a child process of its own (the
compiled and the pure engine cannot share one) on the same games: the pure engine
through the public API (``new_game``, ``legal_actions``, ``apply`` with a seeded
``random.Random``, as a user's script plays), and the compiled engine in the bots' loop
and through the public API (``tools/bench_compiled.py`` says how).

Figures are games per CPU second (``time.process_time``). A turn is one player's turn
in both engines: one pass of the peer's loop, one step of ttr-nb's ``state.turn``
(ticket choice at setup is not a turn). ttr-nb also counts actions: drawing two cards
is two actions, drawing tickets and keeping some is two, and each seat's setup keep is
one. The peer's games end at once when a seat is down to 2 trains (no last round), so
turn counts are close but not identical; they are printed to show how close. The
peer's seeded games also depend on Python's string hashing (the order of a set of
cities), so they repeat only with a fixed ``PYTHONHASHSEED``.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import random
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(1, str(Path(__file__).resolve().parent))

from bench_compiled import EngineProcess  # noqa: E402

from ttr_nb.bench import WARM_SEEDS, random_games  # noqa: E402

PEER_URL = "https://github.com/bingsoup/ticket-to-ride-ai"
PEER_MODULES = ("game", "helper_classes", "heuristic_agents")
MAX_PEER_TURNS = 2000  # the peer's loop has no end of its own when no seat can act
PEER_WARM_SEEDS = range(10**6, 10**6 + 3)


@dataclass
class Peer:
    """The peer's modules, imported from its checkout."""

    game: ModuleType
    helper_classes: ModuleType
    heuristic_agents: ModuleType


@dataclass
class Row:
    """Totals of one engine over the games played so far."""

    name: str
    cpu_s: float = 0.0
    games: int = 0
    turns: int = 0
    actions: int = 0
    unfinished: int = 0

    @property
    def games_per_s(self) -> float:
        return self.games / self.cpu_s if self.cpu_s else float("nan")


@contextlib.contextmanager
def _silenced() -> Iterator[None]:
    """Send stdout to os.devnull: the peer prints several lines per turn."""
    with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
        yield


def load_peer(folder: Path) -> Peer:
    """Import the peer's modules from ``folder`` (and from nowhere else)."""
    folder = folder.resolve()
    if not (folder / "game.py").is_file():
        raise SystemExit(f"{folder} has no game.py: clone {PEER_URL} and pass its folder")
    taken = [m for m in PEER_MODULES if m in sys.modules]
    if taken:  # a module of that name from elsewhere would shadow the peer's
        raise SystemExit(f"modules already imported under the peer's names: {taken}")
    sys.path.insert(0, str(folder))
    with _silenced():  # game.py prints a notice when it finds no GUI
        modules = {name: importlib.import_module(name) for name in PEER_MODULES}
    for name, module in modules.items():
        if Path(module.__file__ or "").resolve().parent != folder:
            raise SystemExit(f"peer module {name} was imported from {module.__file__}")
    return Peer(**modules)


def peer_game(peer: Peer, seed: int, core_only: bool = False) -> tuple[int, bool]:
    """Play one seeded 2-player USA game between the peer's random agents; return
    (turns, whether it ended by the peer's own rule). Mirrors the peer's ``main()``
    loop for "Random AI" seats; ``core_only`` applies actions with ``apply_action``
    instead of ``apply_action_final`` (the same move, without the printed report)."""
    game_mod, helpers = peer.game, peer.helper_classes
    random.seed(seed)
    players = []
    for i in range(2):  # as main() builds and then resets its players
        player = helpers.Player(
            name=f"Player {i + 1}",
            remaining_trains=45,
            train_cards={colour: 0 for colour in helpers.Colour},
            destinations=[],
            claimed_connections=[],
            points=0,
            turn=1,
            winner=False,
            wins=0,
        )
        player.claimed_cities = set()
        players.append(player)
    game = game_mod.GameEngine()
    game.map_type = "USA"
    game.init(players)
    apply = game.apply_action if core_only else game.apply_action_final
    turns = 0
    while not game.is_end() and turns < MAX_PEER_TURNS:
        # main() clears the claim-list cache every turn: card draws do not invalidate it
        game.routes_cache_valid = {p.name: False for p in game.players}
        current = game.players[game.current_player_idx]
        if current.turn == 1:
            keep = game.select_initial_destinations(current)
            game.remove_destination_tickets(current, keep)
        action = peer.heuristic_agents.RandomHeuristic(game).choose_action()
        if action is None and current.remaining_trains == 3:
            current.remaining_trains -= 1  # main()'s way out for a seat with no move
        apply(action)
        game.update_player_turn()
        current.turn += 1
        turns += 1
    ended = game.is_end()
    if core_only:
        game.game_result(seed)  # the final scoring, without printing
    else:
        game.game_result_final(seed)
    return turns, ended


def _peer_chunk(peer: Peer, seeds: range, row: Row, core_only: bool) -> None:
    with _silenced():
        start = time.process_time()
        results = [peer_game(peer, seed, core_only) for seed in seeds]
        row.cpu_s += time.process_time() - start
    row.games += len(results)
    row.turns += sum(turns for turns, _ in results)
    row.unfinished += sum(not ended for _, ended in results)


def _ours_chunk(seeds: range, row: Row, reference: bool) -> None:
    played = random_games("usa", 2, seeds, reference=reference)
    row.cpu_s += played.cpu_s
    row.games += len(seeds)
    row.actions += played.actions
    row.turns += played.turns


def _child_chunk(engine: EngineProcess, kind: str, seeds: range, row: Row) -> None:
    played = engine.play(kind, seeds)
    row.cpu_s += played["cpu_s"]
    row.games += len(seeds)
    row.actions += played["actions"]
    row.turns += played["turns"]


def run(peer: Peer, games: int, chunk: int, compiled: Path | None = None) -> list[Row]:
    """Time every engine on ``games`` games, alternating every ``chunk`` games.

    With ``compiled`` (the unpacked compiled build, ``make build-fast``), its engine plays
    the same games in a child process, in the bots' loop and through the public API
    (``new_game``, ``legal_actions``, ``apply``), and so does the pure engine's public API
    (the rows go after the four others)."""
    fast, ref = Row("ttr-nb fast path"), Row("ttr-nb reference path")
    loop, core = Row("peer, its game loop"), Row("peer, apply_action only")
    extra: list[tuple[EngineProcess, str, Row]] = []
    if compiled is not None:
        pure_child = EngineProcess("pure", None)
        compiled_child = EngineProcess("compiled", compiled)
        extra = [
            (pure_child, "public API", Row("ttr-nb pure, public API")),
            (compiled_child, "bots' loop", Row("ttr-nb compiled")),
            (compiled_child, "public API", Row("ttr-nb compiled, public API")),
        ]
    random_games("usa", 2, WARM_SEEDS, reference=False)  # as engine_speed() warms up
    with _silenced():
        for seed in PEER_WARM_SEEDS:  # the peer has no memos; this only evens first calls
            peer_game(peer, seed)
    try:
        for first in range(0, games, chunk):
            seeds = range(first, min(first + chunk, games))
            _ours_chunk(seeds, ref, reference=True)
            _ours_chunk(seeds, fast, reference=False)
            _peer_chunk(peer, seeds, loop, core_only=False)
            _peer_chunk(peer, seeds, core, core_only=True)
            for engine, kind, row in extra:
                _child_chunk(engine, kind, seeds, row)
    finally:
        for engine in {id(e): e for e, _, _ in extra}.values():
            engine.close()
    return [fast, ref, loop, core, *(row for _, _, row in extra)]


def report(rows: list[Row], chunk: int) -> list[str]:
    """The table and the ratios as lines of text."""
    fast, ref, loop, core, *more = rows
    lines = [
        f"Random-bot games, USA, 2 players, CPU time, {fast.games} games per row "
        f"(alternating every {chunk} games; peer stdout to os.devnull):"
    ]
    for row in rows:
        extra = f", {row.actions / row.games:.1f} actions" if row.actions else ""
        if row.unfinished:
            extra += f", {row.unfinished} games cut at {MAX_PEER_TURNS} turns"
        lines.append(
            f"  {row.name:<28} {row.games_per_s:8.2f} games/s  "
            f"{row.turns / row.games:6.1f} turns per game{extra}"
        )
    for ours in (fast, ref, *more):
        lines.append(
            f"  {ours.name} / peer: {ours.games_per_s / loop.games_per_s:.1f}x its game loop, "
            f"{ours.games_per_s / core.games_per_s:.1f}x apply_action only"
        )
    return lines


def _commit(folder: Path) -> str | None:
    """The peer checkout's commit (None when it is not a git checkout)."""
    import subprocess

    done = subprocess.run(
        ["git", "-C", str(folder), "rev-parse", "HEAD"], capture_output=True, text=True
    )
    return done.stdout.strip() or None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", type=Path, required=True, help=f"a checkout of {PEER_URL}")
    parser.add_argument("--games", type=int, default=200, help="games per engine")
    parser.add_argument("--chunk", type=int, default=10, help="games per turn of each engine")
    parser.add_argument(
        "--compiled", type=Path, help="the compiled build (make build-fast: build/fast) too"
    )
    parser.add_argument("--json", type=Path, help="also write the rows to this JSON file")
    args = parser.parse_args(argv)
    peer = load_peer(args.peer)
    rows = run(peer, args.games, args.chunk, args.compiled)
    print("\n".join(report(rows, args.chunk)))
    if args.json:
        command = " ".join(["python", "tools/bench_peer.py", *(argv or sys.argv[1:])])
        data = {
            "command": command,
            "peer_commit": _commit(args.peer),
            "rows": [{**row.__dict__, "games_per_s": row.games_per_s} for row in rows],
        }
        args.json.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
