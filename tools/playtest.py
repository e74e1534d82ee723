"""Play the simulation lab's games and store them compactly (one JSON line per game).

The games lesson 13 reads were made by::

    python tools/playtest.py --map usa --games 10000 --pairings route-route --workers 2
    python tools/playtest.py --map usa --games 10000 --pairings greedy-route,long-route-route
    python tools/playtest.py --map usa --games 1000 --pairings random-random

(USA: the study's own set-up, Route Focus against itself; two more pairings of our
stand-ins for its agents; random players for the rules gaps). The files
``<map>-greedy-long-route.jsonl.gz`` (10,000 USA games, 500 on Germany, Märklin and World)
come from this tool's first version, ``--bots greedy,route`` before that bot was renamed
``long-route``: the same games, without the watched fields.

Each pairing goes to ``results/playtest/<map>-<a>-<b>.jsonl.gz``. Each line is
``[seed, entrants, winners, routes per seat, scores, ended_by, dry, wild_only]``
(:func:`ttr_nb.analysis.playtest.play_watched`); the first line is a header with the map,
the bots, the seed and the run's time. Game ``i`` is game ``i`` of
``run_tournament(bots, map, seed=seed)``: same seeds, seats and moves.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import gzip
import json
import time
from functools import partial
from pathlib import Path

from ttr_nb.analysis.playtest import play_watched

PAIR_NAMES = ("long-route", "route", "greedy", "random", "beginner")


def split_pairing(text: str) -> list[str]:
    """``greedy-long-route`` -> ``["greedy", "long-route"]`` (bot names hold hyphens)."""
    for first in PAIR_NAMES:
        if text.startswith(first + "-") and text[len(first) + 1 :] in PAIR_NAMES:
            return [first, text[len(first) + 1 :]]
    raise SystemExit(f"not a pairing of {PAIR_NAMES}: {text!r}")


def _chunk(bots: list[str], map_name: str, seed: int, numbers: range) -> list[list]:
    return [play_watched(bots, map_name, n, seed).row() for n in numbers]


def play_pairing(bots, map_name, games, seed, workers, out: Path) -> float:
    """Play and store one pairing; the wall-clock seconds it took."""
    start = time.perf_counter()
    size = 250
    chunks = [range(i, min(i + size, games)) for i in range(0, games, size)]
    work = partial(_chunk, bots, map_name, seed)
    if workers > 1:
        with cf.ProcessPoolExecutor(workers) as pool:
            rows = [row for part in pool.map(work, chunks) for row in part]
    else:
        rows = [row for part in map(work, chunks) for row in part]
    seconds = time.perf_counter() - start
    out.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(out, "wt", encoding="utf-8") as f:
        header = {"map": map_name, "bots": bots, "games": games, "seed": seed}
        header |= {"workers": workers, "seconds": round(seconds, 1)}
        f.write(json.dumps(header) + "\n")
        for row in rows:
            f.write(json.dumps(row, separators=(",", ":")) + "\n")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--map", default="usa")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--pairings", default="route-route")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out-dir", type=Path, default=Path("results") / "playtest")
    args = parser.parse_args()
    for text in args.pairings.split(","):
        bots = split_pairing(text)
        out = args.out_dir / f"{args.map}-{bots[0]}-{bots[1]}.jsonl.gz"
        seconds = play_pairing(bots, args.map, args.games, args.seed, args.workers, out)
        print(f"{' v '.join(bots)}: {args.games} games in {seconds:.0f} s -> {out}")


if __name__ == "__main__":
    main()
