"""Integer programs written by hand, for lesson 12 (``graphs_12_best_game_1_*.ipynb``).

:class:`IntegerProgram` is a small modelling helper over HiGHS, the solver the lesson's
research model uses: named variables, a linear objective to maximise, linear
constraints, and a solve that can relax integrality (the LP relaxation) or fix some
variables (is this choice allowed?). The lesson's primer and exercise 12a use it; the
big model of the USA board is :func:`ttr_nb.algorithms.prize_forest.max_prize_forest`.

:func:`check_board_mip` checks exercise 12a: a student's model of the best game on a
board of five places. It does not trust the model's optimum alone; it asks the model
about every set of routes (each one a game, or not) and compares with a count by brute
force, so that a missing or too strong constraint is named with a game that shows it.

>>> lp = IntegerProgram()
>>> lp.variable("x", objective=4, upper=3, integer=False)
'x'
>>> lp.variable("y", objective=3, upper=None, integer=False)
'y'
>>> lp.constraint({"x": 1, "y": 1}, at_most=4)
>>> lp.constraint({"x": 1, "y": 3}, at_most=6)
>>> best = lp.solve()
>>> best.value, best.values
(15.0, {'x': 3.0, 'y': 1.0})
"""

from __future__ import annotations

import itertools
import math
import os
import sys
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from .checking import CheckResult, _call, _run, _Wrong

__all__ = [
    "FIVE_BUDGET",
    "FIVE_ROUTES",
    "FIVE_TICKETS",
    "IntegerProgram",
    "Solution",
    "brute_force_best",
    "check_board_mip",
]

Route = tuple[str, str, str, int, int]
"""A route as ``(key, place, place, length, points)``."""
Ticket = tuple[str, str, str, int]
"""A ticket as ``(key, place, place, points)``."""

# The board of exercise 12a: five places, a double route (B=E), three tickets.
FIVE_ROUTES: tuple[Route, ...] = (
    ("AB", "A", "B", 2, 2),
    ("BC", "B", "C", 3, 4),
    ("CD", "C", "D", 1, 1),
    ("AD", "A", "D", 4, 7),
    ("DE", "D", "E", 2, 2),
    ("BE1", "B", "E", 3, 4),
    ("BE2", "B", "E", 3, 4),
    ("CE", "C", "E", 2, 2),
)
FIVE_TICKETS: tuple[Ticket, ...] = (
    ("A-C", "A", "C", 6),
    ("B-D", "B", "D", 5),
    ("A-E", "A", "E", 8),
)
FIVE_BUDGET = 7


@dataclass(frozen=True)
class Solution:
    """An optimum: the objective's value and each variable's value."""

    value: float
    values: dict[Hashable, float] = field(repr=False)


class IntegerProgram:
    """Maximise a linear objective over named variables subject to linear constraints.

    Each variable lies between 0 and its ``upper`` bound (None: no bound) and is a
    whole number unless ``integer=False``; with the default upper bound 1 an integer
    variable is a yes/no choice.
    """

    def __init__(self) -> None:
        self.objective: dict[Hashable, float] = {}
        self.upper: dict[Hashable, float | None] = {}
        self.integer: dict[Hashable, bool] = {}
        self.rows: list[tuple[dict[Hashable, float], float, float]] = []

    @property
    def variables(self) -> tuple[Hashable, ...]:
        """The variables' names, in the order they were added."""
        return tuple(self.objective)

    def variable(
        self,
        name: Hashable,
        objective: float = 0.0,
        *,
        upper: float | None = 1.0,
        integer: bool = True,
    ) -> Hashable:
        """Add a variable worth ``objective`` per unit; return its name."""
        if name in self.objective:
            raise ValueError(f"there is a variable {name!r} already: give each one its own name")
        self.objective[name] = float(objective)
        self.upper[name] = upper
        self.integer[name] = integer
        return name

    def constraint(
        self,
        terms: Mapping[Hashable, float],
        *,
        at_most: float | None = None,
        at_least: float | None = None,
    ) -> None:
        """Add ``at_least <= sum(coefficient * variable) <= at_most`` (give one or both;
        the same number twice makes an equation)."""
        if at_most is None and at_least is None:
            raise ValueError("a constraint needs at_most=..., at_least=... or both")
        for name in terms:
            if name not in self.objective:
                raise ValueError(f"no variable {name!r}: add it with variable({name!r}) first")
        lo = -math.inf if at_least is None else float(at_least)
        hi = math.inf if at_most is None else float(at_most)
        self.rows.append(({k: float(v) for k, v in terms.items() if v}, lo, hi))

    def holds(self, values: Mapping[Hashable, float]) -> bool:
        """Whether values for every variable meet every bound and constraint."""
        for name in self.objective:
            v, top = values[name], self.upper[name]
            if v < -1e-9 or (top is not None and v > top + 1e-9):
                return False
        for terms, lo, hi in self.rows:
            total = sum(c * values[k] for k, c in terms.items())
            if total < lo - 1e-9 or total > hi + 1e-9:
                return False
        return True

    def solve(
        self, *, relax: bool = False, fixed: Mapping[Hashable, float] | None = None
    ) -> Solution | None:
        """The optimum, or None when no values meet the constraints.

        ``relax=True`` drops integrality (the LP relaxation); ``fixed`` holds some
        variables at given values.
        """
        fixed = dict(fixed or {})
        names = list(self.objective)
        if not names:
            return Solution(0.0, {})
        if len(fixed) == len(names):  # nothing left to choose: just check
            values = {k: float(fixed[k]) for k in names}
            if not self.holds(values):
                return None
            return Solution(sum(self.objective[k] * values[k] for k in names), values)
        import highspy
        import numpy as np

        h = _quiet(highspy.Highs)
        h.setOptionValue("output_flag", False)
        h.setOptionValue("threads", 1)
        inf = highspy.kHighsInf
        lp = highspy.HighsLp()
        lp.num_col_ = len(names)
        lp.num_row_ = len(self.rows)
        lp.col_cost_ = np.array([self.objective[k] for k in names])
        lower, upper = [], []
        for k in names:
            top = self.upper[k]
            lower.append(float(fixed.get(k, 0.0)))
            upper.append(float(fixed[k]) if k in fixed else inf if top is None else float(top))
        lp.col_lower_ = np.array(lower)
        lp.col_upper_ = np.array(upper)
        lp.row_lower_ = np.array([-inf if lo == -math.inf else lo for _, lo, _ in self.rows])
        lp.row_upper_ = np.array([inf if hi == math.inf else hi for _, _, hi in self.rows])
        lp.sense_ = highspy.ObjSense.kMaximize
        column = {k: i for i, k in enumerate(names)}
        starts, index, value = [0], [], []
        for terms, _, _ in self.rows:
            index.extend(column[k] for k in terms)
            value.extend(terms.values())
            starts.append(len(index))
        lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
        lp.a_matrix_.start_ = np.array(starts, dtype=np.int32)
        lp.a_matrix_.index_ = np.array(index, dtype=np.int32)
        lp.a_matrix_.value_ = np.array(value, dtype=float)
        if not relax:
            kind = highspy.HighsVarType
            lp.integrality_ = [
                kind.kInteger if self.integer[k] else kind.kContinuous for k in names
            ]
        h.passModel(lp)
        h.run()
        status = h.getModelStatus()
        if status == highspy.HighsModelStatus.kInfeasible:
            return None
        if status != highspy.HighsModelStatus.kOptimal:
            raise ValueError(
                f"the solver stopped without an optimum: {h.modelStatusToString(status)}"
            )
        solution = h.getSolution().col_value
        values = {k: round(float(solution[i]), 9) + 0.0 for i, k in enumerate(names)}
        return Solution(round(float(h.getInfo().objective_function_value), 9), values)


def _quiet(make: Callable[[], Any]) -> Any:
    """``make()`` with the banner HiGHS prints at its first start kept off the output
    (a lesson's recorded output must not depend on which cell started HiGHS first)."""
    sys.stdout.flush()
    try:
        saved = os.dup(1)
    except OSError:
        return make()
    try:
        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), 1)
            return make()
    finally:
        os.dup2(saved, 1)
        os.close(saved)


# ------------------------------------------------------------ brute force
def _joined(routes: Sequence[Route], a: str, b: str) -> bool:
    """Whether ``routes`` join ``a`` and ``b`` (networkx's search: a computation of its own,
    independent of the model it checks)."""
    graph = nx.Graph()
    graph.add_nodes_from((a, b))
    graph.add_edges_from((u, v) for _, u, v, _, _ in routes)
    return nx.has_path(graph, a, b)


def _legal(routes: Sequence[Route], chosen: Sequence[Route], budget: int) -> str | None:
    """Why a set of routes is no game (over budget, both tracks of a double), or None."""
    used = sum(r[3] for r in chosen)
    if used > budget:
        return f"uses {used} trains, more than {budget}"
    pairs = [frozenset(r[1:3]) for r in chosen]
    for pair in set(pairs):
        if pairs.count(pair) > 1:
            a, b = sorted(pair)
            return f"holds both tracks of the double route {a}={b}"
    return None


def brute_force_best(routes: Sequence[Route], tickets: Sequence[Ticket], budget: int) -> int:
    """The best score by trying every set of routes: route points plus the tickets joined.

    >>> brute_force_best(FIVE_ROUTES, FIVE_TICKETS, FIVE_BUDGET)
    24
    """
    best = 0
    for n in range(len(routes) + 1):
        for chosen in itertools.combinations(routes, n):
            if _legal(routes, chosen, budget) is None:
                score = sum(r[4] for r in chosen)
                score += sum(t[3] for t in tickets if _joined(chosen, t[1], t[2]))
                best = max(best, score)
    return best


# ------------------------------------------------------------------ check
def _cases() -> list[tuple[str, tuple[Route, ...], tuple[Ticket, ...], int]]:
    cases = [("the five-place board of the lesson", FIVE_ROUTES, FIVE_TICKETS, FIVE_BUDGET)]
    cases.append(("the same board with 10 trains", FIVE_ROUTES, FIVE_TICKETS, 10))
    cases.append(("the same board with 4 trains", FIVE_ROUTES, FIVE_TICKETS, 4))
    # A ticket worth more than any route, two ways round a square, a route to nowhere.
    square = (
        ("PQ", "P", "Q", 1, 1),
        ("QR", "Q", "R", 1, 1),
        ("RS", "R", "S", 1, 1),
        ("SP", "S", "P", 1, 1),
        ("PT", "P", "T", 3, 4),
    )
    tickets = (("P-R", "P", "R", 9), ("Q-T", "Q", "T", 3))
    cases.append(("a square P-Q-R-S with a tail to T, 3 trains", square, tickets, 3))
    cases.append(("the square with 5 trains", square, tickets, 5))
    return cases


def _names(chosen: Sequence[Route]) -> str:
    return "the routes {" + ", ".join(r[0] for r in chosen) + "}" if chosen else "no route"


def check_board_mip(
    board_mip: Callable[[list[Route], list[Ticket], int], IntegerProgram],
) -> CheckResult:
    """Check ``board_mip(routes, tickets, budget)``: an :class:`IntegerProgram` with a
    variable ``("x", key)`` per route and ``("y", key)`` per ticket whose optimum is the
    best game. The model is asked about every set of routes: a game must be allowed, with
    every ticket it joins collected; a set over budget or holding both tracks of a double
    route must not be; and no ticket may count whose places the routes do not join."""

    def check(fn: Callable) -> int:
        cases = 0
        for about, routes, tickets, budget in _cases():
            label = f"On {about}"
            model = _call(fn, list(routes), list(tickets), budget, case=label)
            if not isinstance(model, IntegerProgram):
                raise _Wrong(f"{label}: return the model (an IntegerProgram), got {model!r}.")
            xs = {r[0]: ("x", r[0]) for r in routes}
            ys = {t[0]: ("y", t[0]) for t in tickets}
            for name in [*xs.values(), *ys.values()]:
                if name not in model.objective:
                    raise _Wrong(f"{label}: the model has no variable {name!r}.")
            for r in routes:
                if model.objective[xs[r[0]]] != r[4]:
                    raise _Wrong(
                        f"{label}: route {r[0]} scores {r[4]} points, but its variable is "
                        f"worth {model.objective[xs[r[0]]]:g} in the objective."
                    )
            for t in tickets:
                if model.objective[ys[t[0]]] != t[3]:
                    raise _Wrong(
                        f"{label}: ticket {t[0]} is worth {t[3]} points, but its variable is "
                        f"worth {model.objective[ys[t[0]]]:g} in the objective."
                    )
            _ask_every_game(model, routes, tickets, budget, xs, ys, label)
            best = model.solve()
            want = brute_force_best(routes, tickets, budget)
            if best is None or abs(best.value - want) > 1e-6:
                got = "no solution" if best is None else f"{best.value:g}"
                raise _Wrong(f"{label}: the best game scores {want}, your model's optimum {got}.")
            cases += 1
        return cases

    return _run(check, board_mip, "models the best game as an integer program")


def _ask_every_game(model, routes, tickets, budget, xs, ys, label) -> None:
    for n in range(len(routes) + 1):
        for chosen in itertools.combinations(routes, n):
            x = {xs[r[0]]: float(r in chosen) for r in routes}
            why_not = _legal(routes, chosen, budget)
            joined = {t[0] for t in tickets if _joined(chosen, t[1], t[2])}
            if why_not:
                if model.solve(fixed={**x, **{y: 0.0 for y in ys.values()}}) is not None:
                    raise _Wrong(
                        f"{label}: your model allows {_names(chosen)}, which "
                        f"{why_not}: a constraint is missing."
                    )
                continue
            y = {ys[t[0]]: float(t[0] in joined) for t in tickets}
            if model.solve(fixed={**x, **y}) is None:
                collected = ", ".join(sorted(joined)) or "no ticket"
                raise _Wrong(
                    f"{label}: your model forbids a real game, {_names(chosen)} "
                    f"collecting {collected}: a constraint is too strong."
                )
            for t in tickets:
                if t[0] in joined:
                    continue
                cheat = {**x, **{ys[s[0]]: float(s[0] in joined) for s in tickets}}
                cheat[ys[t[0]]] = 1.0
                if model.solve(fixed=cheat) is not None:
                    raise _Wrong(
                        f"{label}: your model lets ticket {t[0]} count with {_names(chosen)}, "
                        f"which do not join {t[1]} to {t[2]}: the "
                        "connectivity constraints are missing or too weak."
                    )
