"""Prize-collecting Steiner forests: the most valuable set of routes within a budget.

Claim routes (each with a cost in pieces and a prize in points) within a budget;
collect a ticket's prize when the claimed routes connect its places. Choosing
which tickets are worth their routes is the *prize-collecting* part; joining each
collected ticket's places is the *Steiner forest* part. The problem is NP-hard,
and it is small enough on a game board to solve to a proven optimum as a
mixed-integer program (MIP), after E. J. Schaefer and A. J. Schaefer,
"Maximizing the Score in 'Ticket to Ride'" (arXiv 2511.08441, 2025).

The model, with binary ``x[e]`` (claim route e) and ``y[t]`` (collect ticket t)::

    maximise   sum_e prize[e] x[e] + sum_t prize[t] y[t]
    subject to sum_e cost[e] x[e] <= budget
               sum_{e in G} x[e] <= 1              each group G of parallel tracks
               t's places connected by chosen routes, for every t with y[t] = 1

Connectivity is written in one of three ways (``method``):

``"flow"`` (rooted flows)
    The chosen routes contain a forest of arborescences: each place has at most
    one parent or is a root. Each collected ticket picks a root no later than
    its places in a fixed order, and each of its places receives one unit of
    flow from that root along tree arcs. With ``trees=1`` every collected ticket
    lies in one network, and the flow goes to each place a ticket names: the
    tightest relaxation here, and the one :mod:`ttr_nb.analysis.best_score`
    solves by default.
``"undirected"``
    One unit of flow per collected ticket leg between its places, both ways
    along chosen routes. Simple, but its relaxation lets half-chosen cycles carry
    a whole unit: a weak bound.
``"cuts"``
    No flow at all at first: solve, look for a collected ticket whose places the
    chosen routes do not join, add the cut "some route leaving the part of the
    board reachable from the first place must be chosen", and solve again, until
    every collected ticket is joined. Each round's optimum is an upper bound;
    the last one is feasible, hence optimal.

``"lp"`` and ``"undirected-lp"`` solve the linear relaxations of the first two.
Both are solved by HiGHS (through ``highspy``), an open-source
branch-and-cut solver; the result carries the solver's bound and gap.

Dead ends (country spaces) end a connection but never lie inside one: flow
may enter a dead end only where it is the ticket's target and leave it only
where it is the ticket's source.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from .union_find import UnionFind

# HiGHS's share of time for primal heuristics (its default is 0.05): a good game found
# early prunes most of the search (measured in tools/best_score_methods.py).
HEURISTIC_EFFORT = 0.3

METHODS = ("flow", "lp", "undirected", "undirected-lp", "cuts")

__all__ = ["METHODS", "Demand", "PrizeForest", "PrizeForestError", "max_prize_forest"]


class PrizeForestError(ValueError):
    """A budget, route or ticket the model cannot take."""


@dataclass(frozen=True)
class Demand:
    """A ticket: its places in order (each a set of nodes, "any of these") and its prize.

    Every consecutive pair of places must be joined for the prize.
    """

    places: tuple[frozenset, ...]
    prize: float


@dataclass(frozen=True)
class PrizeForest:
    """The best routes and tickets within a budget, and the proof.

    Attributes
    ----------
    edges : tuple
        Keys of the chosen routes, sorted.
    demands : tuple
        Keys of the tickets the chosen routes complete, sorted (every ticket they
        complete, also one the solver did not count because it adds nothing).
    value : float
        Prize of the chosen routes plus the prize of `demands`.
    bound : float
        No choice within the budget is worth more (the solver's dual bound).
    gap : float
        ``(bound - value) / value``: 0 means `value` is proven optimal.
    cost : int
        Pieces the chosen routes use.
    seconds : float
        Wall-clock time of the solve (every round for ``"cuts"``).
    method : str
        One of :data:`METHODS`; for a relaxation (``"lp"``, ``"undirected-lp"``)
        `value` is the relaxation's optimum, possibly with fractional routes, and
        `edges` lists the routes at least half chosen.
    rounds : int
        Number of solves (``"cuts"``: one per round of added cuts).
    cuts : int
        Cuts added (``"cuts"`` only).
    levels : tuple of (key, float)
        A relaxation only (``"lp"``, ``"undirected-lp"``): every route with a
        positive value, and that value (1 chosen, 0.5 half chosen...).
    """

    edges: tuple
    demands: tuple
    value: float
    bound: float
    gap: float
    cost: int
    seconds: float
    method: str
    rounds: int = 1
    cuts: int = 0
    levels: tuple = ()


class _Model:
    """Columns and sparse rows for HiGHS: maximise c.x subject to lo <= A x <= hi."""

    def __init__(self) -> None:
        self.cost: list[float] = []
        self.col_lo: list[float] = []
        self.col_hi: list[float] = []
        self.integer: list[bool] = []
        self.rows: list[tuple[float, float, list[int], list[float]]] = []

    def column(self, cost: float, hi: float = 1.0, integer: bool = True) -> int:
        self.cost.append(cost)
        self.col_lo.append(0.0)
        self.col_hi.append(hi)
        self.integer.append(integer)
        return len(self.cost) - 1

    def row(self, lo: float, hi: float, terms: Iterable[tuple[int, float]]) -> None:
        cols, vals = [], []
        for c, v in terms:
            cols.append(c)
            vals.append(v)
        self.rows.append((lo, hi, cols, vals))

    def solve(self, relax: bool, time_limit: float | None) -> tuple[list[float], float, float]:
        if not self.cost:
            return [], 0.0, 0.0  # nothing fits the budget: HiGHS calls an empty model an error
        import highspy  # imported here: only the MIP lessons and ``best-score`` need it
        import numpy as np

        h = _quiet(highspy.Highs)
        h.setOptionValue("output_flag", False)
        h.setOptionValue("threads", 1)
        h.setOptionValue("mip_rel_gap", 0.0)
        h.setOptionValue("mip_abs_gap", 1e-6)
        h.setOptionValue("mip_heuristic_effort", HEURISTIC_EFFORT)
        if time_limit is not None:
            h.setOptionValue("time_limit", float(time_limit))
        inf = highspy.kHighsInf
        lp = highspy.HighsLp()
        n = len(self.cost)
        lp.num_col_ = n
        lp.num_row_ = len(self.rows)
        lp.col_cost_ = np.array(self.cost, dtype=float)
        lp.col_lower_ = np.array(self.col_lo, dtype=float)
        lp.col_upper_ = np.array(self.col_hi, dtype=float)
        lp.row_lower_ = np.array([lo if lo > -1e300 else -inf for lo, _, _, _ in self.rows])
        lp.row_upper_ = np.array([hi if hi < 1e300 else inf for _, hi, _, _ in self.rows])
        lp.sense_ = highspy.ObjSense.kMaximize
        starts, index, value = [0], [], []
        for _, _, cols, vals in self.rows:
            index.extend(cols)
            value.extend(vals)
            starts.append(len(index))
        lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
        lp.a_matrix_.start_ = np.array(starts, dtype=np.int32)
        lp.a_matrix_.index_ = np.array(index, dtype=np.int32)
        lp.a_matrix_.value_ = np.array(value, dtype=float)
        if not relax:
            kind = highspy.HighsVarType
            lp.integrality_ = [kind.kInteger if i else kind.kContinuous for i in self.integer]
        h.passModel(lp)
        h.run()
        status = h.getModelStatus()
        if status not in (highspy.HighsModelStatus.kOptimal, highspy.HighsModelStatus.kTimeLimit):
            raise PrizeForestError(f"the solver stopped without a solution ({status})")
        info = h.getInfo()
        values = list(h.getSolution().col_value)
        objective = info.objective_function_value
        bound = objective if relax else info.mip_dual_bound
        return values, objective, bound


def _quiet(make):
    """``make()`` with the C++ banner HiGHS prints on creation kept off standard output
    (``best-score --json`` prints one JSON object and nothing else)."""
    import os
    import sys

    sys.stdout.flush()
    try:
        saved = os.dup(1)
    except OSError:  # no file descriptor 1 (some embedded interpreters)
        return make()
    try:
        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), 1)
            return make()
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def _check(
    edges: Mapping[Hashable, tuple[Hashable, Hashable, int, float]],
    demands: Mapping[Hashable, Demand],
    budget: int,
) -> None:
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 0:
        raise PrizeForestError(f"the budget must be a whole number of pieces >= 0, not {budget!r}")
    for key, (_, _, cost, _) in edges.items():
        if cost <= 0:
            raise PrizeForestError(f"route {key!r} costs {cost}: every route costs at least 1")
    for key, demand in demands.items():
        if len(demand.places) < 2 or any(not p for p in demand.places):
            raise PrizeForestError(f"ticket {key!r} needs two or more non-empty places")


def max_prize_forest(
    edges: Mapping[Hashable, tuple[Hashable, Hashable, int, float]],
    demands: Mapping[Hashable, Demand],
    budget: int,
    *,
    groups: Iterable[Iterable[Hashable]] = (),
    caps: Iterable[tuple[Iterable[Hashable], int]] = (),
    dead_ends: Iterable[Hashable] = (),
    method: str = "flow",
    trees: int | None = None,
    time_limit: float | None = None,
) -> PrizeForest:
    """The routes within `budget` worth the most, counting the tickets they complete.

    Parameters
    ----------
    edges : mapping
        Route key -> ``(u, v, cost, prize)``: the places it joins, the pieces it
        uses (at least 1) and the points it scores.
    demands : mapping
        Ticket key -> :class:`Demand`.
    budget : int
        Pieces available.
    groups : iterable of iterables of route keys, optional
        Parallel tracks of which at most one may be chosen.
    caps : iterable of (route keys, int), optional
        Further budgets on subsets of the routes (for instance at most 25 pieces
        on train routes).
    dead_ends : iterable of nodes, optional
        Places a connection may end at but never pass through.
    method : {"flow", "undirected", "cuts", "lp", "undirected-lp"}
        How connectivity is written (see the module text); the ``lp`` methods
        solve a model's linear relaxation, a bound on every integer solution.
    trees : int, optional
        With ``"flow"``/``"lp"``: 1 puts every collected ticket in one network
        (a stronger model that excludes games with tickets in separate networks);
        None allows any forest.
    time_limit : float, optional
        Seconds after which the solver stops with its best solution and bound
        (the gap then says how far from proven it is).

    Returns
    -------
    PrizeForest

    Raises
    ------
    PrizeForestError
        For a negative budget, a route of cost below 1 or a ticket of fewer than
        two places.

    Examples
    --------
    A path a-b-c and a long direct route a-c. With 2 pieces, the path completes
    the ticket (5 points) and scores 2; the direct route would score 2 but needs
    3 pieces:

    >>> edges = {"ab": ("a", "b", 1, 1), "bc": ("b", "c", 1, 1), "ac": ("a", "c", 3, 4)}
    >>> tickets = {"t": Demand((frozenset("a"), frozenset("c")), 5)}
    >>> best = max_prize_forest(edges, tickets, 2)
    >>> best.edges, best.demands, best.value, best.gap
    (('ab', 'bc'), ('t',), 7.0, 0.0)
    >>> max_prize_forest(edges, tickets, 3, method="cuts").value
    9.0

    Notes
    -----
    The flow model has one binary per route and per ticket and ``2 m k``
    continuous flows for ``m`` links and ``k`` ticket legs; the MIP's worst case
    is exponential, but on a board of about 100 routes and 30 tickets the
    linear relaxation is tight enough that HiGHS proves the optimum in seconds.
    The cut loop solves a smaller MIP per round, as often as cuts are needed.
    """
    _check(edges, demands, budget)
    if method not in METHODS:
        raise PrizeForestError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
    dead = frozenset(dead_ends)
    groups = [sorted(g, key=repr) for g in groups]
    # Interchangeable tracks of one group (same places, cost and prize) are one choice:
    # keeping only the first spares the solver branching over symmetric copies.
    twins = set()
    for group in groups:
        seen = set()
        for k in group:
            u, v, cost, prize = edges[k]
            sig = (frozenset((u, v)), cost, prize)
            if sig in seen:
                twins.add(k)
            seen.add(sig)
    keys = sorted((k for k in edges if k not in twins), key=repr)
    model = _Model()
    # A ticket whose places lie farther apart than the budget is out of reach, and a
    # route longer than the budget cannot be claimed: fixing them to 0 stops the linear
    # relaxation from buying a fraction of a network too big to afford.
    keys = [k for k in keys if edges[k][2] <= budget]
    far = _distances(edges, keys, demands, dead)
    tickets = sorted((t for t in demands if far[t] <= budget), key=repr)
    x = {k: model.column(float(edges[k][3])) for k in keys}
    y = {t: model.column(float(demands[t].prize)) for t in tickets}
    model.row(-1e301, budget, ((x[k], edges[k][2]) for k in keys))
    for group in groups:
        members = [x[k] for k in group if k in x]
        if len(members) > 1:
            model.row(-1e301, 1, ((c, 1.0) for c in members))
    for subset, limit in caps:
        model.row(-1e301, limit, ((x[k], edges[k][2]) for k in subset if k in x))
    links: dict[frozenset, list[Hashable]] = {}
    for k in keys:
        u, v = edges[k][0], edges[k][1]
        links.setdefault(frozenset((u, v)), []).append(k)
    start = time.perf_counter()
    if method in ("flow", "lp") and trees == 1:
        _add_tree_flows(model, edges, demands, tickets, x, y, links, dead)
        values, objective, bound = model.solve(method == "lp", time_limit)
        rounds, cuts = 1, 0
    elif method in ("flow", "lp"):
        _add_rooted_flows(model, edges, demands, tickets, x, y, links, dead, trees)
        values, objective, bound = model.solve(method == "lp", time_limit)
        rounds, cuts = 1, 0
    elif method in ("undirected", "undirected-lp"):
        _add_flows(model, edges, demands, tickets, x, y, links, dead)
        values, objective, bound = model.solve(method.endswith("lp"), time_limit)
        rounds, cuts = 1, 0
    else:
        values, objective, bound, rounds, cuts = _cut_loop(
            model, edges, demands, tickets, x, y, dead, time_limit
        )
    seconds = time.perf_counter() - start
    chosen = tuple(k for k in keys if values[x[k]] > 0.5)
    if method.endswith("lp"):
        done = tuple(t for t in tickets if values[y[t]] > 0.5)
        value = objective
    else:
        done = _collected(edges, chosen, demands, tickets, dead, one_network=trees == 1)
        value = sum(edges[k][3] for k in chosen) + sum(demands[t].prize for t in done)
    bound = max(bound, value)
    gap = 0.0 if value and bound - value < 1e-6 else (bound - value) / max(abs(value), 1e-9)
    return PrizeForest(
        edges=chosen,
        demands=done,
        value=float(value),
        bound=float(round(bound, 6)),
        gap=float(gap),
        cost=sum(edges[k][2] for k in chosen),
        seconds=seconds,
        method=method,
        rounds=rounds,
        cuts=cuts,
        levels=tuple((k, round(values[x[k]], 6)) for k in keys if values[x[k]] > 1e-6)
        if method.endswith("lp")
        else (),
    )


def _add_flows(model, edges, demands, tickets, x, y, links, dead) -> None:
    """One unit of flow per collected ticket leg, only along chosen links."""
    for t in tickets:
        for sources, targets in zip(demands[t].places, demands[t].places[1:], strict=False):
            flows: dict[tuple, int] = {}
            by_link: dict[frozenset, list[int]] = {}
            for link in links:
                if len(link) < 2:
                    continue  # a route from a place to itself joins nothing
                u0, v0 = tuple(link)
                for u, v in ((u0, v0), (v0, u0)):
                    # A dead end is left only as a source and entered only as a target;
                    # flow never returns to a source nor leaves a target.
                    if (u in dead and u not in sources) or (v in dead and v not in targets):
                        continue
                    if v in sources or u in targets:
                        continue
                    flows[(u, v)] = column = model.column(0.0, hi=1.0, integer=False)
                    by_link.setdefault(link, []).append(column)
            balance: dict[Hashable, list[tuple[int, float]]] = {}
            for (u, v), c in flows.items():
                balance.setdefault(u, []).append((c, -1.0))
                balance.setdefault(v, []).append((c, 1.0))
            for n, terms in balance.items():
                if n not in sources and n not in targets:
                    model.row(0.0, 0.0, terms)
            out = [(c, 1.0) for (u, _), c in flows.items() if u in sources]
            into = [(c, 1.0) for (_, v), c in flows.items() if v in targets]
            model.row(0.0, 0.0, out + [(y[t], -1.0)])
            model.row(0.0, 0.0, into + [(y[t], -1.0)])
            for link, arcs in by_link.items():
                terms = [(c, 1.0) for c in arcs] + [(x[k], -1.0) for k in links[link]]
                model.row(-1e301, 0.0, terms)


def _tree_arcs(model, x, links, dead, rootable=None):
    """The arcs and roots of a forest of arborescences over the chosen routes: an arc each
    way of every link (none leaving a dead end), used only where one of the link's routes
    is chosen, and a root column per place (per place of `rootable`, when given). Returns
    ``(nodes, arc, root, rank)``, ``rank`` being each place's position in the fixed order
    that picks a tree's root."""
    nodes = sorted({n for link in links for n in link}, key=repr)
    arc = {}
    for link, members in links.items():
        if len(link) < 2:
            continue
        u0, v0 = tuple(link)
        pair = []
        for u, v in ((u0, v0), (v0, u0)):
            if u in dead:
                continue  # a dead end is a leaf: no tree arc leaves it
            arc[(u, v)] = model.column(0.0, hi=1.0, integer=False)
            pair.append(arc[(u, v)])
        model.row(-1e301, 0.0, [(c, 1.0) for c in pair] + [(x[k], -1.0) for k in members])
    root = {
        n: model.column(0.0, hi=1.0, integer=False)
        for n in nodes
        if n not in dead and (rootable is None or n in rootable)
    }
    rank = {n: i for i, n in enumerate(nodes)}
    return nodes, arc, root, rank


def _add_rooted_flows(model, edges, demands, tickets, x, y, links, dead, trees=None) -> None:
    """Directed, rooted flows: the chosen routes hold a forest of arborescences (every
    place has at most one parent, or is a root); each collected ticket picks a root and
    receives one unit of flow from it at each of its places, along tree arcs only."""
    nodes, arc, root, rank = _tree_arcs(model, x, links, dead)
    if trees is not None:
        model.row(-1e301, float(trees), [(c, 1.0) for c in root.values()])
    for n in nodes:
        terms = [(c, 1.0) for (u, v), c in arc.items() if v == n]
        if n in root:
            terms.append((root[n], 1.0))
        model.row(-1e301, 1.0, terms)
    for t in tickets:
        places = demands[t].places
        # Each tree's root can be taken as its first place in `nodes` order, so a
        # ticket's root comes no later than any of its places: this is what stops a
        # half-chosen cycle from carrying a whole unit both ways (the undirected
        # model's weakness).
        latest = min(
            max(rank[n] for n in place if n in root) for place in places if place & root.keys()
        )
        share = {n: model.column(0.0, hi=1.0, integer=False) for n in root if rank[n] <= latest}
        model.row(0.0, 0.0, [(c, 1.0) for c in share.values()] + [(y[t], -1.0)])
        for n, c in share.items():
            model.row(-1e301, 0.0, [(c, 1.0), (root[n], -1.0)])
        for place in places:
            flow = {a: model.column(0.0, hi=1.0, integer=False) for a in arc if a[0] not in place}
            start = {n: model.column(0.0, hi=1.0, integer=False) for n in share}
            for n, c in start.items():
                model.row(-1e301, 0.0, [(c, 1.0), (share[n], -1.0)])
            for a, c in flow.items():
                model.row(-1e301, 0.0, [(c, 1.0), (arc[a], -1.0)])
            balance: dict[Hashable, list[tuple[int, float]]] = {}
            for (u, v), c in flow.items():
                balance.setdefault(u, []).append((c, -1.0))
                balance.setdefault(v, []).append((c, 1.0))
            for n, c in start.items():
                balance.setdefault(n, []).append((c, 1.0))
            into = []
            for n, terms in balance.items():
                if n in place:
                    into.extend(terms)
                else:
                    model.row(0.0, 0.0, terms)
            model.row(0.0, 0.0, into + [(y[t], -1.0)])


def _add_tree_flows(model, edges, demands, tickets, x, y, links, dead) -> None:
    """One tree holds every collected ticket: the chosen routes contain an arborescence
    from one root, and each place a collected ticket names receives a unit of flow
    from the root along its arcs.

    The root is the tree's first *named* place (one a ticket names, not a dead end) in
    `nodes` order: any tree holding a ticket can be hung from that place, so nothing is
    lost, and each tree has one way to be hung (rows ``in(m) <= sum of the roots before
    m``: a named place after the root is entered by an arc). A place's flow starts at a
    root no later than the place itself. (When a ticket joins two dead ends only, a tree
    may hold no named place but dead ends: then every place may be the root.)"""
    named = sorted({n for t in tickets for place in demands[t].places for n in place}, key=repr)
    only_dead = any(all(place <= dead for place in demands[t].places) for t in tickets)
    rootable = None if only_dead else set(named)
    nodes, arc, root, rank = _tree_arcs(model, x, links, dead, rootable)
    model.row(-1e301, 1.0, [(c, 1.0) for c in root.values()])
    into: dict[Hashable, list[int]] = {n: [] for n in nodes}
    for (_, v), c in arc.items():
        into[v].append(c)
    for n in nodes:
        terms = [(c, 1.0) for c in into[n]]
        if n in root:
            terms.append((root[n], 1.0))
        model.row(-1e301, 1.0, terms)
    earlier: list[tuple[int, float]] = []  # the roots ranked before m, negated
    for m in sorted(root, key=rank.__getitem__):
        if into[m]:
            model.row(-1e301, 0.0, [(c, 1.0) for c in into[m]] + earlier)
        earlier = [*earlier, (root[m], -1.0)]
    reached = {}
    for target in named:
        if target not in rank:
            continue
        reached[target] = got = model.column(0.0, hi=1.0, integer=False)
        starts = {
            n: model.column(0.0, hi=1.0, integer=False)
            for n in root
            if rank[n] <= rank[target] or target in dead
        }
        for n, c in starts.items():
            model.row(-1e301, 0.0, [(c, 1.0), (root[n], -1.0)])
        flow = {a: model.column(0.0, hi=1.0, integer=False) for a in arc if a[0] != target}
        for a, c in flow.items():
            model.row(-1e301, 0.0, [(c, 1.0), (arc[a], -1.0)])
        balance: dict[Hashable, list[tuple[int, float]]] = {}
        for (u, v), c in flow.items():
            balance.setdefault(u, []).append((c, -1.0))
            balance.setdefault(v, []).append((c, 1.0))
        for n, c in starts.items():
            balance.setdefault(n, []).append((c, 1.0))
        for n, terms in balance.items():
            if n == target:
                model.row(0.0, 0.0, terms + [(got, -1.0)])
            else:
                model.row(0.0, 0.0, terms)
    for t in tickets:
        for place in demands[t].places:
            model.row(
                -1e301, 0.0, [(y[t], 1.0)] + [(reached[n], -1.0) for n in place if n in reached]
            )


def _distances(edges, keys, demands, dead) -> dict:
    """Per ticket: the most pieces any one of its legs needs (Dijkstra; dead ends are
    never passed through), or infinity when a leg cannot be joined."""
    import heapq
    import math

    adjacency: dict[Hashable, list] = {}
    for k in keys:
        u, v, cost, _ = edges[k]
        adjacency.setdefault(u, []).append((v, cost))
        adjacency.setdefault(v, []).append((u, cost))

    def leg(sources: frozenset, targets: frozenset) -> float:
        best = {n: 0 for n in sources}
        heap = [(0, i, n) for i, n in enumerate(sources)]
        count = len(heap)
        while heap:
            d, _, n = heapq.heappop(heap)
            if n in targets:
                return d
            if d > best.get(n, math.inf) or (n in dead and n not in sources):
                continue
            for m, cost in adjacency.get(n, ()):
                if d + cost < best.get(m, math.inf):
                    best[m] = d + cost
                    count += 1
                    heapq.heappush(heap, (d + cost, count, m))
        return math.inf

    return {
        t: max(leg(a, b) for a, b in zip(d.places, d.places[1:], strict=False))
        for t, d in demands.items()
    }


def _reach(edges, chosen, sources, dead) -> set:
    """Places reachable from `sources` by chosen routes, never through a dead end."""
    adjacency: dict[Hashable, list] = {}
    for k in chosen:
        u, v = edges[k][0], edges[k][1]
        adjacency.setdefault(u, []).append(v)
        adjacency.setdefault(v, []).append(u)
    seen = set(sources)
    stack = list(sources)
    while stack:
        n = stack.pop()
        if n in dead and n not in sources:
            continue
        for m in adjacency.get(n, ()):
            if m not in seen:
                seen.add(m)
                stack.append(m)
    return seen


def _networks(edges, chosen, dead) -> list[tuple]:
    """The chosen routes split into networks: routes that share a place that is not a dead
    end are one network (a dead end joins nothing: it is a leaf of the model's trees)."""
    networks = UnionFind(chosen)
    at_place: dict[Hashable, Hashable] = {}
    for k in chosen:
        for place in edges[k][:2]:
            if place not in dead:
                networks.union(at_place.setdefault(place, k), k)
    return [tuple(sorted(part, key=repr)) for part in networks.sets()]


def _collected(edges, chosen, demands, tickets, dead, one_network: bool) -> tuple:
    """The tickets the chosen routes complete, as the models count them: every leg of a
    ticket inside one network; with ``one_network``, only the best network's tickets."""
    per_network = [
        [t for t in tickets if _joined(edges, part, demands[t], dead)]
        for part in _networks(edges, chosen, dead)
    ]
    if one_network:
        best = max(per_network, key=lambda ts: sum(demands[t].prize for t in ts), default=[])
        return tuple(t for t in tickets if t in best)
    return tuple(t for t in tickets if any(t in ts for ts in per_network))


def _joined(edges, chosen, demand: Demand, dead) -> bool:
    return all(
        _reach(edges, chosen, a, dead) & b
        for a, b in zip(demand.places, demand.places[1:], strict=False)
    )


def _cut_loop(model, edges, demands, tickets, x, y, dead, time_limit):
    """Solve, add a violated cut for every collected ticket not joined, solve again."""
    rounds = cuts = 0
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    while True:
        left = None if deadline is None else max(deadline - time.perf_counter(), 0.1)
        values, objective, bound = model.solve(False, left)
        rounds += 1
        chosen = [k for k in x if values[x[k]] > 0.5]
        added = 0
        for t in tickets:
            if values[y[t]] < 0.5:
                continue
            for a, b in zip(demands[t].places, demands[t].places[1:], strict=False):
                reach = _reach(edges, chosen, a, dead)
                if reach & b:
                    continue
                inside = {n for n in reach if n not in dead or n in a}
                leaving = [
                    k
                    for k in x
                    if (edges[k][0] in inside and edges[k][1] not in reach)
                    or (edges[k][1] in inside and edges[k][0] not in reach)
                ]
                model.row(0.0, 1e301, [(x[k], 1.0) for k in leaving] + [(y[t], -1.0)])
                added += 1
        cuts += added
        if not added or (deadline is not None and time.perf_counter() > deadline):
            return values, objective, bound, rounds, cuts


def demands_from(
    tickets: Iterable[tuple[Hashable, Sequence[Iterable[Hashable]], float]],
) -> dict[Hashable, Demand]:
    """Demands from ``(key, places, prize)`` triples (each place an iterable of nodes)."""
    return {k: Demand(tuple(frozenset(p) for p in places), prize) for k, places, prize in tickets}
