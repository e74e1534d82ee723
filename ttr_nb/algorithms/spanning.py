"""Minimum spanning trees, one decision at a time: Kruskal's and Prim's algorithms.

A *spanning tree* of a connected network joins all its places with no cycle;
a *minimum* one has the least total length.  (If the network falls apart into
pieces, the same algorithms give a minimum spanning *forest*: one tree per
piece.)  networkx computes them with ``nx.minimum_spanning_tree``; the
generators here yield every decision an algorithm makes, so a lesson can show
and animate them, and they are checked against networkx in the tests.

Routes are tuples ``(place_a, place_b, length, *extra)``, as elsewhere in
:mod:`ttr_nb.algorithms`; extra items (a route id) come back unchanged.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from .union_find import UnionFind

__all__ = ["SpanningStep", "kruskal_steps", "minimum_spanning_routes", "prim_steps"]


@dataclass(frozen=True)
class SpanningStep:
    """One decision of a spanning-tree algorithm.

    Attributes
    ----------
    route : tuple
        The route looked at, as given.
    accepted : bool
        Whether it joins the tree.
    reason : str
        Why, in words: which pieces it joins, or that both ends are already in
        one piece (it would close a cycle).
    total : float
        Total length of the routes accepted so far (this one included).
    pieces : int
        Kruskal: connected pieces left among all places; Prim: places not yet
        in the tree.
    """

    route: tuple
    accepted: bool
    reason: str
    total: float
    pieces: int


def _check(routes: Iterable[Sequence]) -> list[tuple]:
    out = []
    for route in routes:
        if isinstance(route, str) or len(route) < 3:
            raise ValueError(f"a route is a tuple (place_a, place_b, length, ...), got {route!r}")
        if route[2] < 0:
            raise ValueError(f"route {route!r} has a negative length")
        out.append(tuple(route))
    return out


def kruskal_steps(routes: Iterable[Sequence]) -> Iterator[SpanningStep]:
    """Yield Kruskal's decisions: routes from shortest to longest, kept if they join two pieces.

    Parameters
    ----------
    routes : iterable of tuple
        ``(place_a, place_b, length, *extra)``.  Ties in length are broken by
        the order given, so the steps are reproducible.

    Yields
    ------
    SpanningStep
        One per route looked at, until the places are all in one piece (or
        every route has been looked at, for a network in several pieces).

    Raises
    ------
    ValueError
        If a route is not a tuple of at least three items or has a negative
        length.

    See Also
    --------
    prim_steps : the other classic greedy algorithm.
    networkx.minimum_spanning_edges : the same, without the explanations.

    Notes
    -----
    A union-find (:class:`~ttr_nb.algorithms.union_find.UnionFind`) tells in
    almost constant time whether the two ends of a route already lie in one piece.
    Sorting dominates: O(R log R) for R routes.

    Why it is right (the *cut property*): when Kruskal keeps a route, it is
    the shortest route between the piece of one of its ends and the rest of
    the network, and some minimum spanning tree contains such a route.

    Examples
    --------
    >>> square = [("A", "B", 1), ("B", "C", 2), ("C", "D", 1), ("D", "A", 3), ("A", "C", 2)]
    >>> [(s.route[:2], s.accepted) for s in kruskal_steps(square)]
    [(('A', 'B'), True), (('C', 'D'), True), (('B', 'C'), True)]
    >>> list(kruskal_steps(square))[-1].total
    4
    """
    routes = _check(routes)
    places = {p for r in routes for p in r[:2]}
    pieces = len(places)
    forest = UnionFind(places)
    total = 0
    for route in sorted(routes, key=lambda r: r[2]):  # stable: ties keep the given order
        if pieces == 1:
            return
        a, b, length = route[0], route[1], route[2]
        if forest.connected(a, b):
            reason = f"{a} and {b} are already in one piece: it would close a cycle"
            yield SpanningStep(route, False, reason, total, pieces)
            continue
        forest.union(a, b)
        total += length
        pieces -= 1
        yield SpanningStep(route, True, f"joins the pieces of {a} and {b}", total, pieces)


def prim_steps(routes: Iterable[Sequence], start: Hashable | None = None) -> Iterator[SpanningStep]:
    """Yield Prim's decisions: grow one tree from `start`, always by the shortest route out.

    Parameters
    ----------
    routes : iterable of tuple
        ``(place_a, place_b, length, *extra)``.
    start : hashable, optional
        The place the tree grows from; by default the first end of the first
        route.

    Yields
    ------
    SpanningStep
        One per route taken from the priority queue: accepted when it leads
        to a new place, rejected when both its ends are in the tree by then.
        Only the piece of the network containing `start` is spanned.

    Raises
    ------
    ValueError
        If a route is malformed, or `start` lies on no route.

    See Also
    --------
    kruskal_steps

    Notes
    -----
    A binary heap holds the routes leaving the tree, shortest first; a route
    whose far end has joined the tree meanwhile is thrown away when it comes
    out.  O(R log R) time for R routes.  Every accepted route is the
    shortest one leaving the tree, so the cut property applies as for
    Kruskal.

    Examples
    --------
    >>> square = [("A", "B", 1), ("B", "C", 2), ("C", "D", 1), ("D", "A", 3), ("A", "C", 2)]
    >>> [(s.route[:2], s.accepted) for s in prim_steps(square, "A")]
    [(('A', 'B'), True), (('B', 'C'), True), (('C', 'D'), True)]
    >>> detour = [("A", "B", 1), ("A", "C", 2), ("B", "C", 1), ("C", "D", 5)]
    >>> [(s.route[:2], s.accepted) for s in prim_steps(detour, "A")]
    [(('A', 'B'), True), (('B', 'C'), True), (('A', 'C'), False), (('C', 'D'), True)]
    """
    routes = _check(routes)
    if not routes:
        return
    neighbours: dict[Hashable, list[tuple[int, tuple]]] = {}
    for i, route in enumerate(routes):
        neighbours.setdefault(route[0], []).append((i, route))
        neighbours.setdefault(route[1], []).append((i, route))
    start = routes[0][0] if start is None else start
    if start not in neighbours:
        raise ValueError(f"{start!r} lies on no route")
    tree = {start}
    heap = [(route[2], i, start) for i, route in neighbours[start]]
    heapq.heapify(heap)
    total = 0
    outside = len(neighbours) - 1
    while heap and outside:
        length, i, near = heapq.heappop(heap)
        route = routes[i]
        far = route[1] if route[0] == near else route[0]
        if far in tree:
            reason = f"{far} joined the tree meanwhile: it would close a cycle"
            yield SpanningStep(route, False, reason, total, outside)
            continue
        tree.add(far)
        total += length
        outside -= 1
        yield SpanningStep(
            route, True, f"the shortest route out of the tree, to {far}", total, outside
        )
        for j, other in neighbours[far]:
            if (other[1] if other[0] == far else other[0]) not in tree:
                heapq.heappush(heap, (other[2], j, far))


def minimum_spanning_routes(routes: Iterable[Sequence], algorithm: str = "kruskal") -> list[tuple]:
    """Return the routes of a minimum spanning tree (a forest if the network is in pieces).

    Parameters
    ----------
    routes : iterable of tuple
        ``(place_a, place_b, length, *extra)``.
    algorithm : {"kruskal", "prim"}
        Prim spans every piece in turn, starting each from its first place.

    Returns
    -------
    list of tuple
        The chosen routes, as given, in the order chosen.

    Raises
    ------
    ValueError
        For an unknown algorithm or a malformed route.

    Examples
    --------
    >>> triangle = [("A", "B", 2), ("B", "C", 2), ("C", "A", 3), ("D", "E", 1)]
    >>> minimum_spanning_routes(triangle)
    [('D', 'E', 1), ('A', 'B', 2), ('B', 'C', 2)]
    >>> sum(r[2] for r in minimum_spanning_routes(triangle, "prim"))
    5
    """
    routes = _check(routes)
    if algorithm == "kruskal":
        return [s.route for s in kruskal_steps(routes) if s.accepted]
    if algorithm != "prim":
        raise ValueError(f"unknown algorithm {algorithm!r}; choose 'kruskal' or 'prim'")
    chosen: list[tuple] = []
    spanned: set[Hashable] = set()
    for route in routes:
        for place in route[:2]:
            if place in spanned:
                continue
            steps = [s.route for s in prim_steps(routes, place) if s.accepted]
            chosen += steps
            spanned |= {place} | {p for r in steps for p in r[:2]}
    return chosen
