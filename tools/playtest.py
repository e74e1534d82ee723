"""Play the simulation lab's games and store them compactly (one JSON line per game).

    python tools/playtest.py --map usa --games 10000 --bots greedy,route --workers 2 \
        --out results/playtest/usa-greedy-route.jsonl.gz

Each line is ``[seed, entrants, winners, routes per seat, scores]``; the first line is a
header with the map, the bots and the run's time. ``ttr_nb.analysis.playtest`` turns the
lines into the figures.
"""

from __future__ import annotations

import argparse
import gzip
import json
import time
from pathlib import Path

from ttr_nb.analysis.playtest import compact
from ttr_nb.tournament import run_tournament


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--map", default="usa")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--bots", default="greedy,route")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    start = time.perf_counter()
    result = run_tournament(
        args.bots.split(","),
        map=args.map,
        games=args.games,
        seed=args.seed,
        workers=args.workers,
        progress=False,
    )
    seconds = time.perf_counter() - start
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(args.out, "wt", encoding="utf-8") as out:
        header = {"map": args.map, "bots": result.names, "games": result.games}
        header |= {"seed": args.seed, "workers": args.workers, "seconds": round(seconds, 1)}
        out.write(json.dumps(header) + "\n")
        for record in result.records:
            g = compact(record)
            row = [g.seed, g.entrants, g.winners, g.routes, g.scores]
            out.write(json.dumps(row, separators=(",", ":")) + "\n")
    print(f"{result.games} games in {seconds:.0f} s -> {args.out}")


if __name__ == "__main__":
    main()
