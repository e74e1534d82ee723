"""Steiner forests: the fewest spaces that complete several tickets at once.

A player holding several tickets wants the cheapest set of routes that joins
the places of *each* ticket; different tickets may share routes, or lie in
separate parts of the board.  That set is a minimum *Steiner forest*: one or
more trees, each ticket inside one of them.  Routes the player owns cost
nothing, routes claimed by others (or closed to the player) are left out.

Two methods, and the result says which one answered:

* **Exact** (Dreyfus and Wagner, 1971): a dynamic program over the subsets of
  the tickets' ends finds the cheapest tree for every subset of ends; the best
  forest is then the best way to split the tickets into groups, one tree per
  group.  Its cost grows like 3^t for t distinct ends, so it is used while that
  is small (``max_exact_work``).
* **Approximate** (greedy): repeatedly join the unfinished ticket whose ends are
  cheapest to join, with the routes chosen so far costing nothing (a ticket of
  more than two places joins its nearest missing place each time, as in
  Takahashi and Matsuyama's heuristic for trees), then drop every chosen route
  the tickets do not need; the same with the dearest ticket first, and the
  cheaper forest is kept.  Beyond ``MAX_ROUND_DEMANDS`` tickets, each round would
  cost a search per ticket, so the tickets are joined once each, dearest first.
  Gupta and Kumar (2015) proved a constant factor for a close relative of this
  greedy method; ours has no proven guarantee, so the result carries a lower
  bound as well.

Ends may be groups of places ("any of these", a country's spaces), and dead
ends (country spaces) are never passed through: each route into a dead end
reaches its own copy of it, a leaf.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from heapq import heapify, heappop, heappush
from operator import add

from .connectivity import Places, _as_places
from .longest_trail import NegativeRouteLengthError
from .union_find import UnionFind

__all__ = ["MAX_EXACT_WORK", "SteinerForest", "steiner_forest"]

MAX_EXACT_WORK = 400_000  # 3^ends x places: about 40 ms of Python on a laptop
MAX_EXACT_DEMANDS = 10  # the split of the tickets into groups costs 3^demands
MAX_ROUND_DEMANDS = 12  # more demands: the greedy joins them in a fixed order (k searches)
_INF = math.inf


@dataclass(frozen=True)
class SteinerForest:
    """The cheapest routes still to claim that complete a set of tickets.

    Attributes
    ----------
    spaces : int
        Spaces still to claim: the total length of `route_ids`.
    route_ids : tuple
        The routes to claim, in board order (owned routes are not listed).
    exact : bool
        True when `spaces` is the minimum (Dreyfus–Wagner); False for the
        greedy approximation.
    method : str
        ``"dreyfus-wagner"`` or ``"greedy"``.
    groups : tuple of tuple of int
        The demands (by index) joined by each tree of the forest.
    demand_routes : dict
        Demand index -> the routes (to claim) of the tree that serves it.
    needs : dict
        Demand index -> the routes (to claim) on its own paths through that tree: a
        route no other demand needs is saved when the demand is given up.
    completed : tuple of int
        Demands the owned routes complete already.
    unreachable : tuple of int
        Demands no usable routes can complete (left out of the forest).
    lower_bound : int
        No forest needs fewer spaces (equal to `spaces` when exact).
    subset_spaces : dict
        Exact method only: for every subset of the demands that can still be
        completed (a frozenset of indices), the spaces of its best forest.
        Empty for the approximation.
    """

    spaces: int
    route_ids: tuple
    exact: bool
    method: str
    groups: tuple[tuple[int, ...], ...]
    demand_routes: Mapping[int, tuple]
    needs: Mapping[int, tuple]
    completed: tuple[int, ...]
    unreachable: tuple[int, ...]
    lower_bound: int
    subset_spaces: Mapping[frozenset, int] = field(default_factory=dict)


class _Board:
    """The usable board as a small weighted graph: owned routes contracted into single
    nodes, parallel routes collapsed to the cheapest, dead ends split into one leaf per
    route."""

    def __init__(
        self,
        board: Iterable[tuple[Hashable, str, str, int]],
        owned: set,
        unavailable: set,
        dead_ends: frozenset,
    ) -> None:
        usable = []
        pieces = UnionFind()  # owned routes join their ends into one node
        self.order: dict[Hashable, int] = {}
        self.length: dict[Hashable, int] = {}
        keys_of: dict[str, list[Hashable]] = {}
        for position, (rid, a, b, length) in enumerate(board):
            if length < 0:
                raise NegativeRouteLengthError(f"route {rid!r} has a negative length")
            mine = rid in owned
            if rid in unavailable and not mine:
                continue
            ends = []
            for place in (a, b):
                key = (place, rid) if place in dead_ends else place
                keys_of.setdefault(place, []).append(key)
                pieces.find(key)
                ends.append(key)
            self.order[rid] = position
            self.length[rid] = length
            if mine:
                pieces.union(ends[0], ends[1])
            else:
                usable.append((rid, ends[0], ends[1], length))
        index: dict[Hashable, int] = {}
        for key in pieces:
            index.setdefault(pieces.find(key), len(index))
        self.n = len(index)
        self.place_nodes = {
            place: frozenset(index[pieces.find(k)] for k in keys) for place, keys in keys_of.items()
        }
        best: dict[tuple[int, int], tuple[int, Hashable]] = {}
        for rid, ka, kb, length in usable:
            u, v = index[pieces.find(ka)], index[pieces.find(kb)]
            if u == v:
                continue
            pair = (u, v) if u < v else (v, u)
            if pair not in best or length < best[pair][0]:
                best[pair] = (length, rid)
        self.adj: list[list[tuple[int, int, Hashable]]] = [[] for _ in range(self.n)]
        for (u, v), (length, rid) in best.items():
            self.adj[u].append((v, length, rid))
            self.adj[v].append((u, length, rid))
        self.ends_of: dict[Hashable, tuple[int, int]] = {
            rid: (u, v) for (u, v), (_, rid) in best.items()
        }

    def nodes(self, places: Places, what: str) -> frozenset[int]:
        """The graph nodes of an end (empty when no usable route touches it)."""
        out: set[int] = set()
        for place in _as_places(places, what):
            out |= self.place_nodes.get(place, frozenset())
        return frozenset(out)

    def dijkstra(
        self, seeds: Mapping[int, float], free: frozenset | set = frozenset()
    ) -> tuple[list[float], list[tuple[int, Hashable] | None]]:
        """Distances from seeded nodes (node -> starting cost) and the last step to each
        node (None where the seed's own cost stands); routes in ``free`` cost nothing."""
        dist = [_INF] * self.n
        pred: list[tuple[int, Hashable] | None] = [None] * self.n
        heap = []
        for node, cost in seeds.items():
            if cost < dist[node]:
                dist[node] = cost
                heap.append((cost, node))
        heap.sort()
        done = [False] * self.n
        adj = self.adj
        while heap:
            d, u = heappop(heap)
            if done[u]:
                continue
            done[u] = True
            for v, length, rid in adj[u]:
                nd = d + (0 if rid in free else length)
                if nd < dist[v]:
                    dist[v] = nd
                    pred[v] = (u, rid)
                    heappush(heap, (nd, v))
        return dist, pred


def _components(graph: _Board, free: Iterable[Hashable] | None = None) -> list[int]:
    """Component label of each node, joined by the routes in ``free`` (None: every route)."""
    pieces = UnionFind(range(graph.n))
    for rid in graph.ends_of if free is None else free:
        pieces.union(*graph.ends_of[rid])
    return [pieces.find(x) for x in range(graph.n)]


def _satisfied(ends: Sequence[frozenset[int]], comp: list[int]) -> bool:
    """Does one component meet every end?"""
    common = {comp[v] for v in ends[0]}
    for end in ends[1:]:
        common &= {comp[v] for v in end}
        if not common:
            return False
    return bool(common)


def steiner_forest(
    board: Iterable[tuple[Hashable, str, str, int]],
    demands: Sequence[Sequence[Places]],
    *,
    owned: Iterable[Hashable] = (),
    unavailable: Iterable[Hashable] = (),
    dead_ends: Iterable[str] = (),
    max_exact_work: int = MAX_EXACT_WORK,
) -> SteinerForest:
    """Find the fewest spaces still to claim that complete every demand.

    Parameters
    ----------
    board : iterable of tuple
        ``(route_id, place_a, place_b, length)`` for every route on the map.
    demands : sequence of sequence
        One entry per ticket: the places it must join (two for a ticket, more
        for a tour).  Each place is a place id, or a non-``str`` collection of
        place ids meaning "any of these" (a country's spaces).
    owned : iterable, optional
        Route ids the player owns: they cost nothing.
    unavailable : iterable, optional
        Route ids the player cannot use (claimed by others, or a double route's
        track closed to the player).  An id also in `owned` counts as owned.
    dead_ends : iterable of str, optional
        Places a line may end at but never pass through.
    max_exact_work : int, optional
        The exact method runs while 3^ends x places stays within this; above
        it, the greedy approximation.  0 always approximates.

    Returns
    -------
    SteinerForest

    Raises
    ------
    NegativeRouteLengthError
        If a route has a negative length.
    ValueError
        If a demand names fewer than two places, or an end is an empty
        collection.

    See Also
    --------
    ttr_nb.algorithms.plan_ticket : one ticket alone (a shortest path).
    networkx.algorithms.approximation.steiner_tree : one tree, approximately.

    Notes
    -----
    Dreyfus–Wagner takes O(3^t n + 2^t m log n) time for t distinct ends, n
    places and m routes; splitting k demands into groups takes O(3^k).  The
    greedy method runs O(k^2) Dijkstra searches, O(k^2 m log n) time.  A group
    end (any of several places) starts the program from all its places at once,
    which keeps it exact for group Steiner trees.

    Examples
    --------
    Two tickets along one line share its middle route:

    >>> board = [(1, "A", "B", 2), (2, "B", "C", 3), (3, "C", "D", 2), (4, "A", "D", 9)]
    >>> forest = steiner_forest(board, [("A", "C"), ("B", "D")])
    >>> forest.spaces, forest.route_ids, forest.exact
    (7, (1, 2, 3), True)

    Owned routes cost nothing, and a claimed route is left out:

    >>> steiner_forest(board, [("A", "C")], owned=[1]).spaces
    3
    >>> forest = steiner_forest(board, [("A", "C"), ("B", "D")], unavailable=[2])
    >>> forest.spaces, forest.route_ids
    (13, (1, 3, 4))

    The best forest for every subset of the tickets comes with the exact answer:

    >>> forest.subset_spaces[frozenset({0})], forest.subset_spaces[frozenset({1})]
    (11, 11)

    A ticket that cannot be completed is reported and left out:

    >>> forest = steiner_forest(board + [(5, "E", "F", 1)], [("A", "E"), ("E", "F")])
    >>> forest.unreachable, forest.route_ids
    ((0,), (5,))
    """
    graph = _Board(board, set(owned), set(unavailable), frozenset(dead_ends))
    ends_of: list[list[frozenset[int]]] = []
    for i, demand in enumerate(demands):
        if isinstance(demand, str) or len(demand) < 2:
            raise ValueError(f"demand {i} must name at least two places, not {demand!r}")
        ends_of.append([graph.nodes(end, f"demand {i}") for end in demand])
    reach = _components(graph)
    completed, unreachable, open_demands = [], [], []
    for i, ends in enumerate(ends_of):
        if any(not end for end in ends) or not _satisfied(ends, reach):
            unreachable.append(i)
        elif _single_node(ends):
            completed.append(i)
        else:
            open_demands.append(i)
    terminals = sorted({end for i in open_demands for end in ends_of[i]}, key=sorted)
    work = 3 ** len(terminals) * max(graph.n, 1)
    if work <= max_exact_work and len(open_demands) <= MAX_EXACT_DEMANDS:
        result = _exact(graph, ends_of, open_demands, terminals)
    else:
        result = _greedy(graph, ends_of, open_demands, reach)
    chosen, groups, demand_routes, exact, lower, subsets = result
    ordered = tuple(sorted(chosen, key=graph.order.__getitem__))
    return SteinerForest(
        spaces=sum(graph.length[r] for r in ordered),
        route_ids=ordered,
        exact=exact,
        method="dreyfus-wagner" if exact else "greedy",
        groups=groups,
        demand_routes=demand_routes,
        needs=_needs(graph, set(chosen), ends_of, open_demands),
        completed=tuple(completed),
        unreachable=tuple(unreachable),
        lower_bound=lower,
        subset_spaces=subsets,
    )


def _single_node(ends: Sequence[frozenset[int]]) -> bool:
    """Do all ends share one node (already joined by owned routes, contracted)?"""
    common = set(ends[0])
    for end in ends[1:]:
        common &= end
    return bool(common)


# ------------------------------------------------------------------ exact
def _pruned(graph: _Board, keep: set[int]) -> tuple[list[list[tuple[int, int]]], dict, dict]:
    """The board without its dangling parts (places other than ``keep`` that lead nowhere,
    such as country spaces no ticket names): adjacency (node, length) over local indices,
    the route of each local arc, and the local index of each kept node."""
    n = graph.n
    degree = [len(graph.adj[u]) for u in range(n)]
    alive = [True] * n
    stack = [u for u in range(n) if degree[u] <= 1 and u not in keep]
    while stack:
        u = stack.pop()
        if not alive[u]:
            continue
        alive[u] = False
        for v, _, _ in graph.adj[u]:
            if alive[v]:
                degree[v] -= 1
                if degree[v] <= 1 and v not in keep:
                    stack.append(v)
    local = {u: i for i, u in enumerate(u for u in range(n) if alive[u])}
    adj = [[(local[v], w) for v, w, _ in graph.adj[u] if alive[v]] for u in local]
    route = {(local[u], local[v]): rid for u in local for v, _, rid in graph.adj[u] if alive[v]}
    return adj, route, local


def _extend(seed: list[float], adj: list[list[tuple[int, int]]]) -> tuple[list[float], list[int]]:
    """Dijkstra from every node at once, each starting at its ``seed`` cost: the cheapest
    seed-plus-path cost of each node, and its predecessor (-1 where its seed stands)."""
    dist = list(seed)
    pred = [-1] * len(seed)
    heap = [(d, u) for u, d in enumerate(seed) if d < _INF]
    heapify(heap)
    while heap:
        d, u = heappop(heap)
        if d > dist[u]:
            continue
        for v, w in adj[u]:
            nd = d + w
            if nd < dist[v]:
                dist[v] = nd
                pred[v] = u
                heappush(heap, (nd, v))
    return dist, pred


def _exact(
    graph: _Board,
    ends_of: list[list[frozenset[int]]],
    open_demands: list[int],
    terminals: list[frozenset[int]],
):
    t = len(terminals)
    term_index = {end: i for i, end in enumerate(terminals)}
    adj, route_of, local = _pruned(graph, {v for end in terminals for v in end})
    n = len(adj)
    cost: list[list[float]] = [[]] * (1 << t)
    pred: list[list[int]] = [[]] * (1 << t)
    for i, end in enumerate(terminals):
        seed = [_INF] * n
        for v in end:
            seed[local[v]] = 0
        cost[1 << i], pred[1 << i] = _extend(seed, adj)
    for mask in range(1, 1 << t):
        if mask & (mask - 1) == 0:
            continue
        low = mask & -mask
        rest = mask ^ low
        best = [_INF] * n
        sub = rest
        while True:
            part = low | sub
            if part != mask:
                best = list(map(min, best, map(add, cost[part], cost[mask ^ part])))
            if sub == 0:
                break
            sub = (sub - 1) & rest
        cost[mask], pred[mask] = _extend(best, adj)

    def tree_routes(mask: int, v: int, out: set) -> None:
        while True:
            u = pred[mask][v]
            if u < 0:
                break
            out.add(route_of[(u, v)])
            v = u
        if mask & (mask - 1) == 0:
            return
        low = mask & -mask
        rest = mask ^ low
        sub = rest
        while True:
            part = low | sub
            if part != mask and cost[part][v] + cost[mask ^ part][v] == cost[mask][v]:
                tree_routes(part, v, out)
                tree_routes(mask ^ part, v, out)
                return
            if sub == 0:
                raise AssertionError("Dreyfus-Wagner: no split reproduces a cost")
            sub = (sub - 1) & rest

    k = len(open_demands)
    masks = []
    for i in open_demands:
        m = 0
        for end in ends_of[i]:
            m |= 1 << term_index[end]
        masks.append(m)
    forest: list[float] = [0.0] * (1 << k)
    split: list[int] = [0] * (1 << k)
    for s in range(1, 1 << k):
        m = 0
        for j in range(k):
            if s >> j & 1:
                m |= masks[j]
        best_cost = min(cost[m])
        best_split = 0
        low = s & -s
        rest = s ^ low
        sub = rest
        while sub:
            part = low | sub
            if part != s:
                c = forest[part] + forest[s ^ part]
                if c < best_cost:
                    best_cost, best_split = c, part
            sub = (sub - 1) & rest
        part = low
        if part != s:
            c = forest[part] + forest[s ^ part]
            if c < best_cost:
                best_cost, best_split = c, part
        forest[s], split[s] = best_cost, best_split

    groups: list[tuple[int, ...]] = []
    chosen: set = set()
    demand_routes: dict[int, tuple] = {}

    def unfold(s: int) -> None:
        if s == 0:
            return
        if split[s]:
            unfold(split[s])
            unfold(s ^ split[s])
            return
        m = 0
        members = []
        for j in range(k):
            if s >> j & 1:
                m |= masks[j]
                members.append(open_demands[j])
        root = min(range(n), key=cost[m].__getitem__)
        routes: set = set()
        tree_routes(m, root, routes)
        chosen.update(routes)
        groups.append(tuple(members))
        ordered = tuple(sorted(routes, key=graph.order.__getitem__))
        for d in members:
            demand_routes[d] = ordered

    full = (1 << k) - 1
    unfold(full)
    subsets = {
        frozenset(open_demands[j] for j in range(k) if s >> j & 1): int(forest[s])
        for s in range(1 << k)
    }
    spaces = int(forest[full])
    return chosen, tuple(groups), demand_routes, True, spaces, subsets


# ----------------------------------------------------------------- greedy
def _join_step(
    graph: _Board, ends: Sequence[frozenset[int]], chosen: set, comp: list[int], reach: list[int]
) -> tuple[float, list[Hashable]]:
    """The cheapest path that joins one more end of a demand to the rest (routes in
    ``chosen`` cost nothing): its cost and its new routes."""
    if len(ends) == 2:
        sources, targets = ends[0], ends[1]
    else:
        # Grow, inside a part of the board that meets every end, the piece of the first
        # end that meets most ends already; join the nearest end it misses.
        anchor, most = -1, -1
        for v in ends[0]:
            if all(any(reach[w] == reach[v] for w in end) for end in ends):
                met = sum(any(comp[w] == comp[v] for w in end) for end in ends)
                if met > most:
                    anchor, most = v, met
        label = comp[anchor]
        sources = frozenset(v for v in range(graph.n) if comp[v] == label)
        missing = [end for end in ends if not any(comp[w] == label for w in end)]
        targets = frozenset(w for end in missing for w in end if reach[w] == reach[anchor])
    dist, pred = graph.dijkstra(dict.fromkeys(sources, 0), chosen)
    target = min(targets, key=dist.__getitem__)
    if dist[target] == _INF:
        raise AssertionError("a reachable demand found no path")
    path = []
    v = target
    while pred[v] is not None:
        v, rid = pred[v]
        if rid not in chosen:
            path.append(rid)
    return dist[target], path


def _greedy_run(
    graph: _Board,
    ends_of: list[list[frozenset[int]]],
    open_demands: list[int],
    reach: list[int],
    order: str,
    first_costs: dict[int, float],
) -> set:
    """One greedy forest. ``order``: ``cheapest`` (join the cheapest unfinished demand
    each round), ``dearest`` (the dearest), or ``fixed`` (the demands one after another,
    dearest alone first: k searches instead of k^2, for many demands)."""
    chosen: set = set()
    queue = sorted(open_demands, key=lambda d: (-first_costs[d], d))
    while True:
        comp = _components(graph, chosen)
        todo = [d for d in open_demands if not _satisfied(ends_of[d], comp)]
        if not todo:
            break
        if order == "fixed":
            pick = next(d for d in queue if d in todo)
            chosen.update(_join_step(graph, ends_of[pick], chosen, comp, reach)[1])
            continue
        steps = {d: _join_step(graph, ends_of[d], chosen, comp, reach) for d in todo}
        pick = (min if order == "cheapest" else max)(todo, key=lambda d: (steps[d][0], d))
        chosen.update(steps[pick][1])
    _prune(graph, ends_of, open_demands, chosen)
    return chosen


def _prune(graph: _Board, ends_of, open_demands: list[int], chosen: set) -> None:
    """Drop chosen routes (longest first) that no demand needs."""
    for rid in sorted(chosen, key=lambda r: (-graph.length[r], graph.order[r])):
        trial = chosen - {rid}
        comp = _components(graph, trial)
        if all(_satisfied(ends_of[d], comp) for d in open_demands):
            chosen.discard(rid)


def _greedy(
    graph: _Board,
    ends_of: list[list[frozenset[int]]],
    open_demands: list[int],
    reach: list[int],
):
    comp = _components(graph, ())
    # Each demand's first join alone on the board: the fixed order, and a lower bound
    # (no forest is cheaper than its dearest demand's first join).
    first_costs = {d: _join_step(graph, ends_of[d], set(), comp, reach)[0] for d in open_demands}
    orders = ("cheapest", "dearest") if len(open_demands) <= MAX_ROUND_DEMANDS else ("fixed",)
    runs = [
        _greedy_run(graph, ends_of, open_demands, reach, order, first_costs) for order in orders
    ]
    chosen = min(runs, key=lambda run: sum(graph.length[r] for r in run))
    lower = max(first_costs.values(), default=0)
    comp = _components(graph, chosen)
    by_label: dict[int, list[int]] = {}
    for d in open_demands:
        by_label.setdefault(_meeting_label(ends_of[d], comp), []).append(d)
    demand_routes: dict[int, tuple] = {}
    groups = []
    for label, members in sorted(by_label.items()):
        routes = tuple(
            sorted(
                (r for r in chosen if comp[graph.ends_of[r][0]] == label),
                key=graph.order.__getitem__,
            )
        )
        groups.append(tuple(members))
        for d in members:
            demand_routes[d] = routes
    return chosen, tuple(groups), demand_routes, False, int(lower), {}


def _meeting_label(ends: Sequence[frozenset[int]], comp: list[int]) -> int:
    """The (smallest) component label that meets every end."""
    labels = {comp[v] for v in ends[0]}
    for end in ends[1:]:
        labels &= {comp[v] for v in end}
    return min(labels)


def _needs(
    graph: _Board, chosen: set, ends_of: list[list[frozenset[int]]], open_demands: list[int]
) -> dict[int, tuple]:
    """The chosen routes each demand needs itself: its paths through the forest (from
    its first end to each other end)."""
    comp = _components(graph, chosen)
    adj: dict[int, list[tuple[int, Hashable]]] = {}
    for rid in chosen:
        u, v = graph.ends_of[rid]
        adj.setdefault(u, []).append((v, rid))
        adj.setdefault(v, []).append((u, rid))
    out = {}
    for d in open_demands:
        ends = ends_of[d]
        label = _meeting_label(ends, comp)
        root = min(v for v in ends[0] if comp[v] == label)
        parent: dict[int, tuple[int, Hashable] | None] = {root: None}
        depth = {root: 0}
        frontier = [root]
        while frontier:
            nxt = []
            for u in frontier:
                for v, rid in adj.get(u, ()):
                    if v not in parent:
                        parent[v] = (u, rid)
                        depth[v] = depth[u] + 1
                        nxt.append(v)
            frontier = nxt
        used: set = set()
        for end in ends[1:]:
            v = min((w for w in end if w in depth), key=lambda w: (depth[w], w))
            while parent[v] is not None:
                v, rid = parent[v]
                used.add(rid)
        out[d] = tuple(sorted(used, key=graph.order.__getitem__))
    return out
