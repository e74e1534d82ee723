"""Europe's train stations at the end of the game: which routes a station may borrow, and
which choice completes the most ticket points.

A station in a city lets its owner count, for their tickets only, one route that
another player claimed into or out of that city. Each of a player's stations borrows
one route (several players' stations may borrow the same one); a station never adds
to the longest path. Choosing the borrowed routes is a small optimisation over the
ticket graph: a station chooses among the other players' routes into its city, so
stations in cities of ``d1, d2, ...`` tracks have at most ``d1 * d2 * ...`` choices.
On the Europe board Paris has the most tracks, 10, then Frankfurt 8, Berlin and
Pamplona 7: at most 10 * 8 * 7 = 560 choices for 3 stations with 4 or 5 players
(with 2 or 3, one track of each double route stays closed: at most 7 * 6 * 6 = 252),
few enough to try them all, each checked with a union-find.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import product

from ..algorithms import UnionFind

__all__ = [
    "Borrowing",
    "StationPath",
    "TicketEnds",
    "best_borrowing",
    "borrow_options",
    "station_path",
    "ticket_points",
]

TicketEnds = tuple[str, str, int]
"""A ticket as ``(city, city, points)``."""


@dataclass(frozen=True)
class Borrowing:
    """One choice of borrowed routes and what it is worth.

    Attributes
    ----------
    routes : tuple of (str, int)
        ``(station city, route id)`` for each station with a route to borrow, by city.
    points : int
        Ticket points with these routes: each ticket completed adds its value, each
        one not completed subtracts it.
    completed : tuple of bool
        Per ticket (in the order given), whether it is completed.
    """

    routes: tuple[tuple[str, int], ...]
    points: int
    completed: tuple[bool, ...]


def borrow_options(
    stations: Mapping[str, int],
    owner: Mapping[int, int],
    route_ends: Mapping[int, tuple[str, str]],
    seat: int,
) -> dict[str, tuple[int, ...]]:
    """The routes each of ``seat``'s stations may borrow: city -> other players' routes
    into it (in route order); cities where no other player claimed a route are left out.

    Examples
    --------
    >>> ends = {1: ("wien", "budapest"), 2: ("wien", "muenchen"), 3: ("roma", "venezia")}
    >>> borrow_options({"wien": 0, "roma": 0, "venezia": 1}, {1: 1, 2: 0, 3: 1}, ends, 0)
    {'roma': (3,), 'wien': (1,)}
    """
    out = {}
    for city in sorted(c for c, s in stations.items() if s == seat):
        found = tuple(
            rid for rid in sorted(owner) if owner[rid] != seat and city in route_ends[rid]
        )
        if found:
            out[city] = found
    return out


def _components(edges: Iterable[tuple[str, str]]) -> UnionFind:
    """The pieces the routes ``edges`` join, as a union-find."""
    parts = UnionFind()
    for a, b in edges:
        parts.union(a, b)
    return parts


def ticket_points(
    own: Iterable[tuple[str, str]], tickets: Sequence[TicketEnds]
) -> tuple[int, tuple[bool, ...]]:
    """Ticket points and completions of a player whose routes join the pairs in ``own``.

    >>> ticket_points([("a", "b"), ("b", "c")], [("a", "c", 5), ("a", "d", 4)])
    (1, (True, False))
    """
    parts = _components(own)
    done = tuple(parts.find(a) == parts.find(b) for a, b, _ in tickets)
    return sum(p if ok else -p for (_, _, p), ok in zip(tickets, done, strict=True)), done


def best_borrowing(
    own: Iterable[tuple[str, str]],
    tickets: Sequence[TicketEnds],
    options: Mapping[str, Sequence[int]],
    route_ends: Mapping[int, tuple[str, str]],
) -> Borrowing:
    """The choice of borrowed routes that scores the most ticket points.

    Every combination is tried (see the module text); ties go to the first in
    ``options`` order, so the result does not depend on anything else.

    Parameters
    ----------
    own : iterable of (str, str)
        The ends of the player's own routes.
    tickets : sequence of (str, str, int)
        The player's tickets.
    options : mapping
        Station city -> the routes it may borrow (:func:`borrow_options`).
    route_ends : mapping
        Route id -> its two cities.

    Returns
    -------
    Borrowing

    Notes
    -----
    O(prod(len(o) for o in options) x (stations + tickets) x alpha) time: every
    combination adds at most 3 routes to a copy of the player's union-find.

    Examples
    --------
    A ticket from a to d, a player with a-b and c-d, a station in b that may borrow
    b-x or b-c (route 8):

    >>> ends = {7: ("b", "x"), 8: ("b", "c")}
    >>> best = best_borrowing([("a", "b"), ("c", "d")], [("a", "d", 9)], {"b": (7, 8)}, ends)
    >>> best.routes, best.points
    ((('b', 8),), 9)
    """
    base = _components(own)
    cities = sorted(options)
    best: Borrowing | None = None
    for combo in product(*(options[c] for c in cities)):
        parts = base.copy()
        for rid in combo:
            parts.union(*route_ends[rid])
        done = tuple(parts.find(a) == parts.find(b) for a, b, _ in tickets)
        points = sum(p if ok else -p for (_, _, p), ok in zip(tickets, done, strict=True))
        if best is None or points > best.points:
            best = Borrowing(tuple(zip(cities, combo, strict=True)), points, done)
    assert best is not None  # product() of no options is one empty choice
    return best


@dataclass(frozen=True)
class StationPath:
    """The cheapest way to join two cities using at most one route borrowed by a station.

    Attributes
    ----------
    spaces : int
        Spaces still to claim (the player's own routes and the borrowed one are free).
    claims : tuple of int
        The routes still to claim, in path order.
    borrowed : int or None
        The other player's route a station must borrow (None: none is needed).
    cities : tuple of str
        The cities of the path, in order.
    """

    spaces: int
    claims: tuple[int, ...]
    borrowed: int | None
    cities: tuple[str, ...]


def station_path(
    routes: Iterable[tuple[int, str, str, int]],
    a: str,
    b: str,
    own: Iterable[int] = (),
    others: Iterable[int] = (),
    closed: Iterable[int] = (),
) -> StationPath | None:
    """The fewest spaces to claim that join ``a`` and ``b``, free over the player's ``own``
    routes and over at most one of the ``others`` (a route a station would borrow).

    Dijkstra's algorithm on a layered graph: each city twice, before and after the one
    borrowed route; an open route costs its length in either layer, an own route
    nothing, and another player's route nothing but leads from the first layer to the
    second. ``closed`` routes (closed double tracks, or too long for the pieces left) are
    not used. Ties go to the path found first, so the result is reproducible.

    Parameters
    ----------
    routes : iterable of (int, str, str, int)
        ``(route id, city, city, length)`` of every route of the board.
    a, b : str
        The cities to join.
    own, others, closed : iterable of int
        Routes of the player, routes of the other players, routes nobody may claim.

    Returns
    -------
    StationPath or None
        None when even a borrowed route cannot join them.

    Notes
    -----
    O((C + R) log C) for C cities and R routes (twice each, one per layer).

    Examples
    --------
    A ticket from a to d; the player owns a-b, another player owns b-c, and c-d is open:

    >>> board = [(1, "a", "b", 2), (2, "b", "c", 3), (3, "c", "d", 1), (4, "a", "d", 9)]
    >>> path = station_path(board, "a", "d", own=[1], others=[2])
    >>> path.spaces, path.claims, path.borrowed, path.cities
    (1, (3,), 2, ('a', 'b', 'c', 'd'))
    """
    own_set, other_set, closed_set = set(own), set(others), set(closed)
    arcs: dict[str, list[tuple[str, int, int]]] = {}
    for rid, x, y, length in routes:
        if rid in closed_set:
            continue
        arcs.setdefault(x, []).append((y, rid, length))
        arcs.setdefault(y, []).append((x, rid, length))
    start = (a, 0)
    best: dict[tuple[str, int], int] = {start: 0}
    back: dict[tuple[str, int], tuple[tuple[str, int], int]] = {}
    heap: list[tuple[int, int, str, int]] = [(0, 0, a, 0)]
    order = 0
    done: set[tuple[str, int]] = set()
    while heap:
        cost, _, city, layer = heapq.heappop(heap)
        node = (city, layer)
        if node in done:
            continue
        done.add(node)
        if city == b:
            claims, cities, borrowed = [], [city], None
            while node != start:
                node, rid = back[node]
                cities.append(node[0])
                if rid in other_set:
                    borrowed = rid
                elif rid not in own_set:
                    claims.append(rid)
            return StationPath(cost, tuple(reversed(claims)), borrowed, tuple(reversed(cities)))
        for other, rid, length in arcs.get(city, ()):
            if rid in other_set:
                if layer:
                    continue
                step, nxt = 0, (other, 1)
            else:
                step, nxt = (0 if rid in own_set else length), (other, layer)
            new = cost + step
            if new < best.get(nxt, new + 1):
                best[nxt] = new
                back[nxt] = (node, rid)
                order += 1
                heapq.heappush(heap, (new, order, *nxt))
    return None
