"""Euler trails: one trail through every route, found with Hierholzer's algorithm.

Euler (1736) saw that a trail passing through a place uses two of its routes,
so only a trail's two ends can have an odd number of routes.  Hierholzer
(1873) proved the converse and gave the algorithm: a network whose routes are
all in one piece and which has no odd place (or exactly two) can be walked in
one trail using every route once, closed (or running from one odd place to
the other).

For the longest-path bonus this is the easy case: such a network's longest
trail is all of it (see :mod:`ttr_nb.algorithms.longest_trail`).

Routes are tuples ``(place_a, place_b, *extra)``; extra items (a length, a
route id) come back unchanged.  Parallel routes are separate routes.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from .union_find import UnionFind

__all__ = [
    "HierholzerStep",
    "NotEulerianError",
    "euler_trail",
    "has_euler_trail",
    "hierholzer_steps",
    "odd_places",
]


class NotEulerianError(ValueError):
    """No trail uses every route: more than two odd places, routes in several pieces, or a
    start that cannot begin such a trail."""


@dataclass(frozen=True)
class HierholzerStep:
    """One move of Hierholzer's algorithm.

    Attributes
    ----------
    kind : {"walk", "back"}
        ``walk``: a new route is taken from the place on top of the stack.
        ``back``: the place on top has no unused route left, so the route that
        led there is final: it joins the finished trail (which grows from its
        end backwards).
    place : hashable
        The place the move starts from.
    route : tuple or None
        The route walked, or the route handed to the trail (None for the
        very last move, at the start).
    walk : tuple of tuple
        The routes on the stack: the current, unfinished walk.
    trail : tuple of tuple
        The finished part of the trail, in walking order (it is the *end* of
        the final trail).
    """

    kind: str
    place: Hashable
    route: tuple | None
    walk: tuple[tuple, ...]
    trail: tuple[tuple, ...]


def _routes(routes: Iterable[Sequence]) -> list[tuple]:
    out = []
    for route in routes:
        if isinstance(route, str) or len(route) < 2:
            raise ValueError(f"a route is a tuple (place_a, place_b, ...), got {route!r}")
        out.append(tuple(route))
    return out


def odd_places(routes: Iterable[Sequence]) -> list[Hashable]:
    """Places with an odd number of routes, in the order they first appear.

    There is always an even number of them: the degrees add up to twice the
    number of routes (the handshake lemma).

    Examples
    --------
    >>> odd_places([("A", "B"), ("B", "C"), ("C", "A"), ("C", "D")])
    ['C', 'D']
    """
    degree: dict[Hashable, int] = {}
    for route in _routes(routes):
        for place in route[:2]:
            degree[place] = degree.get(place, 0) + 1
    return [p for p, d in degree.items() if d % 2]


def _problem(routes: list[tuple], start: Hashable | None) -> str | None:
    """Why no trail through every route starts at `start` (or anywhere), or None."""
    if not routes:
        return None
    pieces = UnionFind()
    for route in routes:
        pieces.union(route[0], route[1])
    roots = {pieces.find(route[0]) for route in routes}
    if len(roots) > 1:
        return f"the routes are in {len(roots)} separate pieces"
    odd = odd_places(routes)
    if len(odd) > 2:
        shown = ", ".join(map(str, odd[:6])) + (", ..." if len(odd) > 6 else "")
        return f"{len(odd)} places have an odd number of routes ({shown}); at most 2 may"
    if start is not None:
        if start not in pieces:
            return f"{start!r} lies on no route"
        if odd and start not in odd:
            return f"with odd places {odd[0]!r} and {odd[1]!r} the trail must start at one of them"
    return None


def has_euler_trail(routes: Iterable[Sequence]) -> bool:
    """Tell whether one trail can use every route exactly once.

    True when the routes form one piece with zero or two odd places (and for
    no routes at all).  O(R α(R)) for R routes.

    Examples
    --------
    >>> has_euler_trail([("A", "B"), ("B", "C"), ("C", "A"), ("C", "D")])
    True
    >>> has_euler_trail([("X", "A"), ("X", "B"), ("X", "C")])
    False
    """
    return _problem(_routes(routes), None) is None


def hierholzer_steps(
    routes: Iterable[Sequence], start: Hashable | None = None
) -> Iterator[HierholzerStep]:
    """Yield every move of Hierholzer's algorithm (stack form).

    Parameters
    ----------
    routes : iterable of tuple
        ``(place_a, place_b, *extra)``; all in one piece, with zero or two
        odd places.
    start : hashable, optional
        Where the trail starts.  By default the first odd place, or with none
        the first end of the first route.

    Yields
    ------
    HierholzerStep
        ``walk`` and ``back`` moves; the last one's ``trail`` is the whole
        Euler trail.  Routes at a place are tried in the order given.

    Raises
    ------
    NotEulerianError
        If no trail through every route starts at `start`.

    Notes
    -----
    Walk from the start along unused routes, keeping the walk on a stack.
    When the place on top has no unused route left, pop it: the route that
    led there is final and goes in front of the finished trail.  Then carry
    on walking from the new top, which splices a detour into the trail right
    there.  Each route is pushed and popped once, so the time is O(R) for R
    routes (plus O(R α(R)) for the piece check).

    Examples
    --------
    >>> bowtie = [("A", "B"), ("B", "C"), ("C", "A"), ("C", "D"), ("D", "E"), ("E", "C")]
    >>> steps = list(hierholzer_steps(bowtie, "A"))
    >>> [s.kind for s in steps][:5]
    ['walk', 'walk', 'walk', 'back', 'walk']
    >>> [r[:2] for r in steps[-1].trail]
    [('A', 'B'), ('B', 'C'), ('C', 'D'), ('D', 'E'), ('E', 'C'), ('C', 'A')]
    """
    routes = _routes(routes)
    why = _problem(routes, start)
    if why:
        raise NotEulerianError(f"no trail uses every route: {why}")
    if not routes:
        return
    if start is None:
        odd = odd_places(routes)
        start = odd[0] if odd else routes[0][0]
    exits: dict[Hashable, list[int]] = {}
    for i, route in enumerate(routes):
        exits.setdefault(route[0], []).append(i)
        exits.setdefault(route[1], []).append(i)
    next_exit = dict.fromkeys(exits, 0)
    used = [False] * len(routes)
    stack: list[tuple[Hashable, tuple | None]] = [(start, None)]
    trail: list[tuple] = []  # finished routes, last one first
    while stack:
        place, arrived_by = stack[-1]
        options = exits[place]
        while next_exit[place] < len(options) and used[options[next_exit[place]]]:
            next_exit[place] += 1
        if next_exit[place] < len(options):
            i = options[next_exit[place]]
            used[i] = True
            route = routes[i]
            ahead = route[1] if route[0] == place else route[0]
            oriented = (place, ahead, *route[2:])
            stack.append((ahead, oriented))
            yield HierholzerStep(
                "walk", place, oriented, tuple(r for _, r in stack[1:]), tuple(trail[::-1])
            )
        else:
            stack.pop()
            if arrived_by is not None:
                trail.append(arrived_by)
            yield HierholzerStep(
                "back", place, arrived_by, tuple(r for _, r in stack[1:]), tuple(trail[::-1])
            )


def euler_trail(routes: Iterable[Sequence], start: Hashable | None = None) -> list[tuple]:
    """Return a trail that uses every route exactly once (Hierholzer's algorithm).

    Parameters
    ----------
    routes : iterable of tuple
        ``(place_a, place_b, *extra)``.
    start : hashable, optional
        Where to start; see :func:`hierholzer_steps`.

    Returns
    -------
    list of tuple
        The routes in walking order, each turned to read in the walking
        direction: ``(from, to, *extra)``.  Closed when there is no odd place,
        from one odd place to the other otherwise.  Empty for no routes.

    Raises
    ------
    NotEulerianError
        If no such trail exists (more than two odd places, several pieces) or
        none starts at `start`.

    See Also
    --------
    networkx.eulerian_path, networkx.eulerian_circuit : the same on a graph.
    ttr_nb.algorithms.longest_trail : when some routes must be left out.

    Notes
    -----
    O(R) time for R routes, after an O(R α(R)) check.

    Examples
    --------
    >>> euler_trail([("A", "B", 2), ("B", "C", 3), ("C", "A", 1), ("C", "D", 4)])
    [('C', 'B', 3), ('B', 'A', 2), ('A', 'C', 1), ('C', 'D', 4)]
    >>> euler_trail([("X", "A"), ("X", "B"), ("X", "C")])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    ttr_nb.algorithms.euler.NotEulerianError: no trail uses every route: 4 places have an ...
    """
    last = deque(hierholzer_steps(routes, start), maxlen=1)  # only the final step matters
    return list(last[0].trail) if last else []
