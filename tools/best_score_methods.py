"""Measure the ways of solving the best-score MIP and store the figures (lesson 12).

    python tools/best_score_methods.py --out results/best_score/methods.json

For a few budgets on the USA board: the one-network model (rooted flows), the forest
model (a root per network), the undirected flow model and the cut loop, with HiGHS
through ``highspy``; the same one-network model through ``scipy.optimize.milp`` (HiGHS
too, another interface); and the linear relaxations. Wall-clock seconds, on whatever
else the machine is doing: the file says when and how long.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from ttr_nb.algorithms import prize_forest as pf
from ttr_nb.analysis.best_score import _instance
from ttr_nb.maps import load_map


def scipy_solve(model, relax, time_limit):
    """The same model through scipy.optimize.milp (for the measurement only)."""
    import numpy as np
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import csr_matrix

    rows, cols, vals, lo, hi = [], [], [], [], []
    for i, (low, high, cs, vs) in enumerate(model.rows):
        rows += [i] * len(cs)
        cols += cs
        vals += vs
        lo.append(low if low > -1e300 else -np.inf)
        hi.append(high if high < 1e300 else np.inf)
    a = csr_matrix((vals, (rows, cols)), shape=(len(model.rows), len(model.cost)))
    options = {"mip_rel_gap": 0.0}
    if time_limit:
        options["time_limit"] = time_limit
    res = milp(
        -np.array(model.cost),
        constraints=LinearConstraint(a, lo, hi),
        integrality=None if relax else np.array(model.integer, dtype=int),
        bounds=Bounds(np.array(model.col_lo), np.array(model.col_hi)),
        options=options,
    )
    bound = -getattr(res, "mip_dual_bound", res.fun) if not relax else -res.fun
    return list(res.x), -res.fun, bound


def run(e, d, g, budget, method, trees, time_limit, solver="highspy"):
    saved = pf._Model.solve
    if solver == "scipy":
        pf._Model.solve = lambda self, relax, tl: scipy_solve(self, relax, tl)
    try:
        start = time.perf_counter()
        r = pf.max_prize_forest(
            e, d, budget, groups=g, method=method, trees=trees, time_limit=time_limit
        )
        seconds = time.perf_counter() - start
    finally:
        pf._Model.solve = saved
    return {
        "budget": budget,
        "method": method,
        "trees": trees,
        "solver": solver,
        "value": r.value,
        "bound": r.bound,
        "gap": r.gap,
        "rounds": r.rounds,
        "cuts": r.cuts,
        "seconds": round(seconds, 2),
        "time_limit": time_limit,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--time-limit", type=float, default=300.0)
    args = parser.parse_args()
    usa = load_map("usa")
    e, d, g, _ = _instance(usa, 45)
    # (budget, method, trees, solver, time limit): the relaxations, then every model on a
    # small budget, then the two interfaces on 45 trains and the weaker models for a minute.
    plan = [
        (45, "undirected-lp", None, "highspy", None),
        (45, "lp", None, "highspy", None),
        (45, "lp", 1, "highspy", None),
        (8, "flow", 1, "highspy", args.time_limit),
        (8, "flow", 1, "scipy", args.time_limit),
        (8, "flow", None, "highspy", args.time_limit),
        (8, "undirected", None, "highspy", args.time_limit),
        (8, "cuts", None, "highspy", 60.0),
        (45, "flow", 1, "highspy", args.time_limit),
        (45, "flow", 1, "scipy", args.time_limit),
        (45, "flow", None, "highspy", 60.0),
        (45, "undirected", None, "highspy", 60.0),
    ]
    rows = []
    if args.out.exists():
        rows = json.loads(args.out.read_text())["runs"]
    done = {(r["budget"], r["method"], r["trees"], r["solver"]) for r in rows}
    for budget, method, trees, solver, limit in plan:
        if (budget, method, trees, solver) in done:
            continue
        rows.append(run(e, d, g, budget, method, trees, limit, solver))
        print(rows[-1], flush=True)
        args.out.write_text(
            json.dumps({"map": "usa", "when": time.strftime("%Y-%m-%d"), "runs": rows}, indent=1)
            + "\n"
        )


if __name__ == "__main__":
    main()
