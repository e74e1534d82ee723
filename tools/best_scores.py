"""Solve the best-score MIP for a range of budgets and store each result as a JSON line.

    python tools/best_scores.py --map usa --budgets 1-50 --out results/best_score/usa.jsonl

Each line is ``BestScore.as_json()`` plus the model (``trees``: 1 for one network holding
every ticket, null for any forest) and the time limit. A budget already in the file
with the same model is skipped, so a long run can be resumed.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ttr_nb.analysis.best_score import best_score


def _budgets(text: str) -> list[int]:
    out = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--map", default="usa")
    parser.add_argument("--budgets", default="45")
    parser.add_argument("--trees", default="1", help="1 (one network) or 'any'")
    parser.add_argument("--time-limit", type=float, default=600.0)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    trees = None if args.trees == "any" else int(args.trees)
    done = set()
    if args.out.exists():
        for line in args.out.read_text().splitlines():
            row = json.loads(line)
            done.add((row["trains"], row["trees"]))
    for budget in _budgets(args.budgets):
        if (budget, trees) in done:
            continue
        best = best_score(args.map, budget, trees=trees, time_limit=args.time_limit)
        row = best.as_json() | {"trees": trees, "time_limit": args.time_limit}
        with args.out.open("a") as f:
            f.write(json.dumps(row) + "\n")
        print(budget, best.score, best.bound, f"{best.seconds:.1f}s", flush=True)


if __name__ == "__main__":
    main()
