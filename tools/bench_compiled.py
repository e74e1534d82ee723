"""The engine compiled (``make build-fast``) against the same engine in pure Python.

    python tools/bench_compiled.py --compiled build/fast                # 300 games a row
    python tools/bench_compiled.py --compiled build/fast --games 60     # a taste

Each engine runs in a process of its own (one cannot import both): the pure one from the
editable install, the compiled one with ``PYTHONPATH`` set to the unpacked compiled wheel.
The parent hands both the same seeded games in chunks, alternating, so that a busy spell
of a shared machine falls on both, and compares what they played (a digest of every
game's moves and final state: the compiled engine must play the very same games).

Rows, in games per CPU second of the process that played them (``time.process_time``):

* ``public API``: random 2-player USA games as a user's script plays them (``new_game``,
  ``legal_actions``, ``apply`` with a seeded ``random.Random``), what the goal against
  bingsoup/ticket-to-ride-ai is stated in;
* ``bots' loop``: ``ttr_nb.bench.random_games`` (random bots, ``play_out``), what
  ``tools/bench_peer.py`` times;
* ``greedy``: greedy-against-greedy 2-player USA games, as ``ttr-nb tournament`` plays
  them (the goal: 10,000 games in 2 minutes on 2 cores).

Both engines first play ``WARM_SEEDS`` (the fast path's memos fill up, as in any long run).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

KINDS = ("public API", "bots' loop", "greedy")


# ------------------------------------------------------------------ the child's side
def compiled_modules() -> list[str]:
    """The ``ttr_nb`` modules imported from compiled files (not ``.py``)."""
    return sorted(
        name
        for name, module in list(sys.modules.items())
        if name.startswith("ttr_nb")
        and not str(getattr(module, "__file__", "")).endswith(".py")
        and getattr(module, "__file__", None)
    )


def play(kind: str, seeds: range) -> dict[str, Any]:
    """Play ``seeds`` of one kind; CPU seconds, actions and a digest of the games."""
    import random

    from ttr_nb import new_game
    from ttr_nb.bots import GreedyBot, RandomBot, play_out

    games = []
    start = time.process_time()
    for seed in seeds:
        game = new_game("usa", players=2, seed=seed)
        if kind == "public API":
            rng = random.Random(seed)
            while not game.is_over:
                game.apply(rng.choice(game.legal_actions()))
        elif kind == "bots' loop":  # as ttr_nb.bench.random_games
            play_out(game, [RandomBot(seed * 10 + i) for i in range(2)])
        else:  # as ttr_nb.bench.greedy_throughput's CPU figure
            play_out(game, [GreedyBot(16 * seed), GreedyBot(16 * seed + 1)])
        games.append(game)
    cpu = time.process_time() - start
    digest = hashlib.sha256()
    for game in games:  # outside the timed part
        digest.update(game.snapshot().encode())
    return {
        "cpu_s": cpu,
        "actions": sum(len(g.history) for g in games),
        "turns": sum(g.state.turn for g in games),
        "digest": digest.hexdigest(),
    }


def serve() -> None:
    """Answer the parent: one JSON request a line (``kind``, ``first``, ``last``)."""
    from ttr_nb.bench import WARM_SEEDS, random_games

    random_games("usa", 2, WARM_SEEDS, reference=False)
    print(json.dumps({"compiled": compiled_modules()}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        seeds = range(request["first"], request["last"])
        print(json.dumps(play(request["kind"], seeds)), flush=True)


# ----------------------------------------------------------------- the parent's side
class EngineProcess:
    """A ttr-nb engine in a child process: pure (``path=None``) or from ``path``."""

    def __init__(self, name: str, path: Path | None) -> None:
        self.name = name
        env = dict(os.environ)
        env.pop("PYTHONPATH", None)
        if path is not None:
            env["PYTHONPATH"] = str(path.resolve())
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        self.compiled: list[str] = self._answer()["compiled"]
        if path is not None and "ttr_nb.rules.fastpath" not in self.compiled:
            self.close()
            raise SystemExit(f"{path} holds no compiled engine: run `make build-fast` first")

    def _answer(self) -> dict[str, Any]:
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"the {self.name} engine's process stopped")
        return json.loads(line)

    def play(self, kind: str, seeds: range) -> dict[str, Any]:
        """CPU seconds, actions and digest of ``seeds`` played in the child."""
        request = {"kind": kind, "first": seeds.start, "last": seeds.stop}
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        return self._answer()

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=60)


def compare(compiled: Path, games: int, chunk: int, greedy: int) -> dict[str, Any]:
    """Both engines on the same games, alternating every ``chunk`` games."""
    pure, fast = EngineProcess("pure", None), EngineProcess("compiled", compiled)
    figures: dict[str, Any] = {
        "games": games,
        "greedy_games": greedy,
        "chunk": chunk,
        "compiled_modules": len(fast.compiled),
        "pure_compiled_modules": len(pure.compiled),
    }
    try:
        for kind in KINDS:
            count = greedy if kind == "greedy" else games
            totals = {"pure": 0.0, "compiled": 0.0}
            for first in range(0, count, chunk):
                seeds = range(first, min(first + chunk, count))
                a, b = pure.play(kind, seeds), fast.play(kind, seeds)
                if (a["digest"], a["actions"]) != (b["digest"], b["actions"]):
                    raise SystemExit(f"{kind}: the compiled engine played other games {seeds}")
                totals["pure"] += a["cpu_s"]
                totals["compiled"] += b["cpu_s"]
            figures[kind] = {
                "pure_games_per_s": count / totals["pure"],
                "compiled_games_per_s": count / totals["compiled"],
                "speedup": totals["pure"] / totals["compiled"],
            }
    finally:
        pure.close()
        fast.close()
    return figures


def report(figures: dict[str, Any]) -> list[str]:
    """The figures as lines of text."""
    lines = [
        f"Compiled engine (Cython, {figures['compiled_modules']} modules) against pure Python, "
        f"2-player USA games, CPU time, alternating every {figures['chunk']} games, "
        "the same games (digests compared):"
    ]
    for kind in KINDS:
        row = figures[kind]
        count = figures["greedy_games" if kind == "greedy" else "games"]
        lines.append(
            f"  {kind:<11} ({count} games): pure {row['pure_games_per_s']:7.1f} games/s, "
            f"compiled {row['compiled_games_per_s']:7.1f} games/s: {row['speedup']:.2f}x"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--compiled", type=Path, default=Path("build/fast"))
    parser.add_argument("--games", type=int, default=300, help="random games per row")
    parser.add_argument("--greedy", type=int, default=100, help="greedy games")
    parser.add_argument("--chunk", type=int, default=20, help="games per turn of each engine")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    if args.serve:
        serve()
        return 0
    figures = compare(args.compiled, args.games, args.chunk, args.greedy)
    figures["command"] = " ".join(["python", "tools/bench_compiled.py", *(argv or sys.argv[1:])])
    print("\n".join(report(figures)))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
