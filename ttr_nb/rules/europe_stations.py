"""Europe's train stations at the end of the game: which routes a station may borrow, and
which choice completes the most ticket points.

A station in a city lets its owner count, for their tickets only, one route that
another player claimed into or out of that city. Each of a player's stations borrows
one route (several players' stations may borrow the same one); a station never adds
to the longest path. Choosing the borrowed routes is a small optimisation over the
ticket graph: with ``s`` stations and at most ``d`` routes into each city there are at
most ``d**s`` choices (Paris has the most routes, 7: at most 343 choices for 3
stations), few enough to try them all, each checked with a union-find.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import product

__all__ = ["Borrowing", "TicketEnds", "best_borrowing", "borrow_options", "ticket_points"]

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


class _Components:
    """Union-find over places (path halving), for a handful of unions per choice."""

    def __init__(self, edges: Iterable[tuple[str, str]]) -> None:
        self.parent: dict[str, str] = {}
        for a, b in edges:
            self.union(a, b)

    def find(self, x: str) -> str:
        parent = self.parent
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[ra] = rb

    def copy(self) -> _Components:
        twin = object.__new__(_Components)
        twin.parent = dict(self.parent)
        return twin


def ticket_points(
    own: Iterable[tuple[str, str]], tickets: Sequence[TicketEnds]
) -> tuple[int, tuple[bool, ...]]:
    """Ticket points and completions of a player whose routes join the pairs in ``own``.

    >>> ticket_points([("a", "b"), ("b", "c")], [("a", "c", 5), ("a", "d", 4)])
    (1, (True, False))
    """
    parts = _Components(own)
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
    base = _Components(own)
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
