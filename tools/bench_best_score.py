"""How long ``ttr-nb best-score`` takes to prove the best game alone: figures, not a test.

    python tools/bench_best_score.py --cases world:60,usa:45 --label after \\
        --out results/bench/best-score.json

Each case is solved ``--rounds`` times in a fresh process (HiGHS with one thread, as
``best-score`` runs it); the script prints, per case, the score, the bound, whether it
was proven, the wall-clock and CPU seconds (the CPU figure moves less with the machine's
load), HiGHS's simplex iterations and branch-and-bound nodes (its work, which the load does
not change) and the load average before and after. ``--out`` appends one record (the command,
the commit, the machine, every run) to a JSON file, so runs of two versions of the code
sit side by side: run it from a checkout of each (``PYTHONPATH=old-checkout``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path


def _count_work() -> dict:
    """Count HiGHS's simplex iterations and branch-and-bound nodes over every solve of this
    process: the solver's work, which the machine's load does not change (its seconds it
    does)."""
    import highspy

    work = {"lp_iterations": 0, "nodes": 0, "solves": 0}
    run = highspy.Highs.run

    def counted(highs):
        status = run(highs)
        info = highs.getInfo()
        work["lp_iterations"] += max(info.simplex_iteration_count, 0)
        work["nodes"] += max(info.mip_node_count, 0)
        work["solves"] += 1
        return status

    highspy.Highs.run = counted
    return work


def _solve(case: tuple[str, int, float]) -> dict:
    """One solve in this (fresh) process: the figures of one run."""
    from ttr_nb.analysis.best_score import best_score

    map_name, trains, time_limit = case
    work = _count_work()
    load = os.getloadavg()[0]
    wall, cpu = time.perf_counter(), time.process_time()
    best = best_score(map_name, trains, time_limit=time_limit)
    return {
        "map": map_name,
        "trains": trains,
        "score": best.score,
        "bound": best.bound,
        "proven": best.gap == 0,
        "wall_s": round(time.perf_counter() - wall, 2),
        "cpu_s": round(time.process_time() - cpu, 2),
        "load_before": round(load, 2),
        "load_after": round(os.getloadavg()[0], 2),
        **work,
    }


def _cases(text: str) -> list[tuple[str, int]]:
    out = []
    for part in text.split(","):
        name, _, trains = part.partition(":")
        out.append((name, int(trains)))
    return out


def _commit(code: Path) -> str:
    """The commit of the checkout whose ``ttr_nb`` is measured."""
    done = subprocess.run(
        ["git", "-C", str(code), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return done.stdout.strip() or "not a git checkout (see the label)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default="world:60,usa:45", help="map:trains, comma-separated")
    parser.add_argument("--rounds", type=int, default=1, help="solves of each case")
    parser.add_argument("--time-limit", type=float, default=600.0)
    parser.add_argument("--label", default="", help="a name for this version of the code")
    parser.add_argument("--out", type=Path, help="append the record to this JSON file")
    args = parser.parse_args()
    import ttr_nb

    code = Path(ttr_nb.__file__).resolve().parent.parent
    runs = []
    for name, trains in _cases(args.cases):
        for _ in range(args.rounds):
            # a fresh process per solve: nothing cached from the one before
            with ProcessPoolExecutor(1) as pool:
                run = pool.submit(_solve, (name, trains, args.time_limit)).result()
            runs.append(run)
            print(
                f"{name} {trains}: score {run['score']}, bound {run['bound']:g}"
                f"{' (proven)' if run['proven'] else ''}; {run['wall_s']:.1f} s wall, "
                f"{run['cpu_s']:.1f} s CPU; {run['lp_iterations']} simplex iterations, "
                f"{run['nodes']} nodes; load {run['load_before']:.1f} -> {run['load_after']:.1f}",
                flush=True,
            )
    for name, trains in _cases(args.cases):
        mine = [r for r in runs if (r["map"], r["trains"]) == (name, trains)]
        print(
            f"{name} {trains}, {len(mine)} runs: median "
            f"{statistics.median(r['wall_s'] for r in mine):.1f} s wall, "
            f"{statistics.median(r['cpu_s'] for r in mine):.1f} s CPU, "
            f"{statistics.median(r['lp_iterations'] for r in mine):.0f} simplex iterations"
        )
    if args.out:
        record = {
            "command": (
                f"PYTHONPATH={os.environ['PYTHONPATH']} " if "PYTHONPATH" in os.environ else ""
            )
            + shlex.join(["python", "tools/bench_best_score.py", *sys.argv[1:]]),
            "label": args.label,
            "commit": _commit(code),
            "when": time.strftime("%Y-%m-%d %H:%M"),
            "machine": {
                "cores": os.cpu_count(),
                "python": platform.python_version(),
                "highspy": _version("highspy"),
            },
            "runs": runs,
        }
        records = json.loads(args.out.read_text()) if args.out.exists() else []
        records.append(record)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(records, indent=1, ensure_ascii=False) + "\n")
        print(f"appended to {args.out}")


def _version(package: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return "not installed"


if __name__ == "__main__":
    main()
