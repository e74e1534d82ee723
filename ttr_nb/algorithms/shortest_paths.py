"""Shortest paths for ticket planning: how many spaces a ticket still needs.

A player plans a ticket on the whole board.  Each route costs its length in
spaces.  Routes the player already owns cost nothing.  Routes that are
claimed by others or locked are left out.  Parallel routes collapse to the
cheapest usable one.  Dead ends (country border spaces) may end a path but
are never passed through.  The search itself is `networkx.dijkstra_path`,
or `networkx.astar_path` when a heuristic is given.

A bot asks the same board many questions (every ticket, every turn): a
`TicketPlanner` builds the board's adjacency once and answers each question
with a plain Dijkstra search over it, giving exactly the plans of
`plan_ticket` (ties included) without building a graph each time.
"""

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from heapq import heappop, heappush
from itertools import count, pairwise

import networkx as nx

from .connectivity import Places, _as_places
from .longest_trail import NegativeRouteLengthError

__all__ = [
    "TicketPlan",
    "TicketPlanner",
    "TicketUnreachableError",
    "plan_ticket",
    "spaces_to_connect",
]


class TicketUnreachableError(nx.NetworkXNoPath):
    """No usable routes join the two ends of a ticket."""


@dataclass(frozen=True)
class TicketPlan:
    """The cheapest way to join the two ends of a ticket.

    Attributes
    ----------
    spaces : int
        Spaces still to claim: the total length of the routes on the path
        that the player does not own yet.
    route_ids : tuple
        Ids of the routes on the path, in order from the `a` end.
    places : tuple of str
        The places visited, in order, with both ends included.
    """

    spaces: int
    route_ids: tuple
    places: tuple


# Virtual endpoints: zero-cost arcs join them to every alternative of an end.
_SOURCE, _TARGET = object(), object()


def _describe(places: Places) -> str:
    if isinstance(places, str):
        return repr(places)
    return "any of " + ", ".join(map(repr, sorted(places)))


def plan_ticket(
    board: Iterable[tuple[Hashable, str, str, int]],
    a: Places,
    b: Places,
    *,
    owned: Iterable[Hashable] = (),
    unavailable: Iterable[Hashable] = (),
    dead_ends: Iterable[str] = (),
    heuristic: Callable[[str, str], float] | None = None,
) -> TicketPlan:
    """Find the fewest spaces a player still has to claim to join `a` and `b`.

    Parameters
    ----------
    board : iterable of tuple
        ``(route_id, place_a, place_b, length)`` for every route on the map.
        Parallel routes have different ids.
    a, b : str or collection of str
        The two ends of the ticket: a place id, or a non-``str`` collection of
        place ids meaning "any of these" (a country's border spaces).
    owned : iterable, optional
        Ids of the routes the player owns.  They cost 0 spaces.
    unavailable : iterable, optional
        Ids of routes the player cannot use (claimed by others, or locked).
        They are left out.  An id that is also in `owned` counts as owned.
    dead_ends : iterable of str, optional
        Places a path may start or end at but never pass through.
    heuristic : callable, optional
        ``heuristic(place, goal)`` estimates the spaces from `place` to one
        goal place of `b`.  When given, A* search is used instead of
        Dijkstra's algorithm.  The result stays optimal only if the estimate
        never exceeds the true cost (an admissible heuristic).

    Returns
    -------
    TicketPlan
        The spaces still to claim, the route ids on the path and the places
        visited.  Between parallel routes the path takes an owned one first,
        then the first usable one in `board`.

    Raises
    ------
    TicketUnreachableError
        If no usable routes join `a` and `b`.  It is a subclass of
        `networkx.NetworkXNoPath`.
    NegativeRouteLengthError
        If a route has a negative length.
    ValueError
        If `a` or `b` is an empty collection.

    Notes
    -----
    Building the graph takes O(R) time for R routes.  Dijkstra's algorithm
    then takes O((P + R) log P) time for P places.  A* takes no more than
    that, and with a good heuristic it takes much less.

    Examples
    --------
    >>> board = [(1, "Paris", "Bruxelles", 2), (2, "Paris", "Bruxelles", 2),
    ...          (3, "Bruxelles", "Amsterdam", 1), (4, "Paris", "Dieppe", 1)]
    >>> plan_ticket(board, "Paris", "Amsterdam", owned={2})
    TicketPlan(spaces=1, route_ids=(2, 3), places=('Paris', 'Bruxelles', 'Amsterdam'))
    >>> try:
    ...     plan_ticket(board, "Paris", "Amsterdam", unavailable={3})
    ... except TicketUnreachableError as err:
    ...     print(err)
    no usable routes join 'Paris' and 'Amsterdam'
    """
    sources, targets = _as_places(a, "a"), _as_places(b, "b")
    owned, unavailable, dead_ends = set(owned), set(unavailable), frozenset(dead_ends)

    # A directed graph, because a dead end may be left only where a path
    # starts and entered only where it ends.
    graph = nx.DiGraph()
    for route_id, place_a, place_b, length in board:
        if length < 0:
            raise NegativeRouteLengthError(f"route {route_id!r} has a negative length")
        mine = route_id in owned
        if route_id in unavailable and not mine:
            continue
        cost = 0 if mine else length
        rank = (cost, not mine)  # cheapest first, owned first on a tie
        for u, v in ((place_a, place_b), (place_b, place_a)):
            if (u in dead_ends and u not in sources) or (v in dead_ends and v not in targets):
                continue
            old = graph.get_edge_data(u, v)
            if old is None or rank < old["rank"]:
                graph.add_edge(u, v, weight=cost, route_id=route_id, rank=rank)
    # Sorted: a set of names iterates in an order that changes between processes
    # (hash randomisation), and among equally short paths the first found is kept.
    graph.add_edges_from(((_SOURCE, p) for p in sorted(sources)), weight=0)
    graph.add_edges_from(((p, _TARGET) for p in sorted(targets)), weight=0)

    try:
        if heuristic is None:
            path = nx.dijkstra_path(graph, _SOURCE, _TARGET, weight="weight")
        else:

            def estimate(place: object, _goal: object) -> float:
                if place is _SOURCE or place is _TARGET:
                    return 0
                return min(heuristic(place, goal) for goal in targets)

            path = nx.astar_path(graph, _SOURCE, _TARGET, heuristic=estimate, weight="weight")
    except nx.NetworkXNoPath:
        raise TicketUnreachableError(
            f"no usable routes join {_describe(a)} and {_describe(b)}"
        ) from None

    places = tuple(path[1:-1])
    arcs = [graph.edges[u, v] for u, v in pairwise(places)]
    return TicketPlan(
        spaces=sum(arc["weight"] for arc in arcs),
        route_ids=tuple(arc["route_id"] for arc in arcs),
        places=places,
    )


def spaces_to_connect(
    board: Iterable[tuple[Hashable, str, str, int]],
    a: Places,
    b: Places,
    *,
    owned: Iterable[Hashable] = (),
    unavailable: Iterable[Hashable] = (),
    dead_ends: Iterable[str] = (),
    heuristic: Callable[[str, str], float] | None = None,
) -> int:
    """Return the fewest spaces a player still has to claim to join `a` and `b`.

    Parameters
    ----------
    board, a, b, owned, unavailable, dead_ends, heuristic
        As for `plan_ticket`.

    Returns
    -------
    int
        ``plan_ticket(...).spaces``: 0 when the ticket is already complete.

    Raises
    ------
    TicketUnreachableError
        If no usable routes join `a` and `b`.
    NegativeRouteLengthError
        If a route has a negative length.
    ValueError
        If `a` or `b` is an empty collection.

    Notes
    -----
    Same time complexity as `plan_ticket`: O((P + R) log P) with Dijkstra.

    Examples
    --------
    >>> board = [(1, "Wien", "Budapest", 1), (2, "Budapest", "Zagreb", 2)]
    >>> spaces_to_connect(board, "Wien", "Zagreb")
    3
    >>> spaces_to_connect(board, "Wien", "Zagreb", owned=[1, 2])
    0
    """
    return plan_ticket(
        board,
        a,
        b,
        owned=owned,
        unavailable=unavailable,
        dead_ends=dead_ends,
        heuristic=heuristic,
    ).spaces


class TicketPlanner:
    """Answer many `plan_ticket` questions on one board, fast.

    The adjacency of the board (the routes out of each place, in board order)
    is built once; each question is then a plain Dijkstra search that decides
    which routes are usable as it reaches each place.  The plans are exactly
    those of `plan_ticket` without a heuristic: the same arcs are tried in the
    same order and ties are broken the same way (the tests compare both on
    many positions of every map).

    Parameters
    ----------
    board : iterable of tuple
        ``(route_id, place_a, place_b, length)`` for every route on the map.

    Raises
    ------
    NegativeRouteLengthError
        If a route has a negative length.

    Notes
    -----
    Building takes O(R) time for R routes.  Each plan takes
    O((P + R) log P) time for P places, like `plan_ticket`, but without the
    O(R) graph building and the networkx overhead per question.  Parallel
    routes are grouped once, at building, and the routes to a place already
    settled are not looked at.

    Examples
    --------
    >>> board = [(1, "Paris", "Bruxelles", 2), (2, "Paris", "Bruxelles", 2),
    ...          (3, "Bruxelles", "Amsterdam", 1), (4, "Paris", "Dieppe", 1)]
    >>> planner = TicketPlanner(board)
    >>> planner.plan("Paris", "Amsterdam", owned={2})
    TicketPlan(spaces=1, route_ids=(2, 3), places=('Paris', 'Bruxelles', 'Amsterdam'))
    >>> planner.plan("Paris", "Amsterdam", owned={2}) == plan_ticket(
    ...     board, "Paris", "Amsterdam", owned={2})
    True
    """

    def __init__(self, board: Iterable[tuple[Hashable, str, str, int]]) -> None:
        self.arcs: dict[str, list[tuple[str, Hashable, int]]] = {}
        for route_id, place_a, place_b, length in board:
            if length < 0:
                raise NegativeRouteLengthError(f"route {route_id!r} has a negative length")
            self.arcs.setdefault(place_a, []).append((place_b, route_id, length))
            self.arcs.setdefault(place_b, []).append((place_a, route_id, length))
        # The arcs out of each place grouped by neighbour (parallel routes together), when
        # each neighbour's arcs are consecutive, so that a group keeps the neighbour's place
        # in networkx's order whichever of its routes is usable. Places where they are not
        # (no map has one) are searched arc by arc, as networkx would.
        self.groups: dict[str, list[tuple[str, tuple[tuple[Hashable, int], ...]]]] = {}
        for place, arcs in self.arcs.items():
            runs: list[tuple[str, list[tuple[Hashable, int]]]] = []
            for other, route_id, length in arcs:
                if runs and runs[-1][0] == other:
                    runs[-1][1].append((route_id, length))
                else:
                    runs.append((other, [(route_id, length)]))
            if len({other for other, _ in runs}) == len(runs):
                self.groups[place] = [(other, tuple(group)) for other, group in runs]

    def plan(
        self,
        a: Places,
        b: Places,
        *,
        owned: Iterable[Hashable] = (),
        unavailable: Iterable[Hashable] = (),
        dead_ends: Iterable[str] = (),
    ) -> TicketPlan:
        """The plan `plan_ticket` gives for the same question (without a heuristic).

        Parameters
        ----------
        a, b, owned, unavailable, dead_ends
            As for `plan_ticket`.

        Raises
        ------
        TicketUnreachableError
            If no usable routes join `a` and `b`.
        ValueError
            If `a` or `b` is an empty collection.
        """
        sources, targets = _as_places(a, "a"), _as_places(b, "b")
        owned = owned if isinstance(owned, set | frozenset) else set(owned)
        if not isinstance(unavailable, set | frozenset):
            unavailable = set(unavailable)
        if not isinstance(dead_ends, set | frozenset):
            dead_ends = frozenset(dead_ends)
        groups = self.groups

        # networkx's Dijkstra: a heap of (distance, insertion count, node); the first
        # path found to a node is kept unless a strictly shorter one turns up. Arcs are
        # relaxed in the order networkx's DiGraph would hold them; of parallel routes the
        # one networkx would keep counts (owned first, then the shortest, then the first).
        dist: dict[object, int] = {}
        seen: dict[object, int] = {_SOURCE: 0}
        pred: dict[object, tuple[object, int, Hashable]] = {}  # node -> (from, cost, route)
        counter = count()
        fringe: list[tuple[int, int, object]] = [(0, next(counter), _SOURCE)]
        while fringe:
            d, _, u = heappop(fringe)
            if u in dist:
                continue
            dist[u] = d
            if u is _TARGET:
                break
            if u is _SOURCE:
                steps: Iterable[tuple[object, int, Hashable]] = [
                    (p, 0, None) for p in sorted(sources)
                ]
            elif u in dead_ends and u not in sources:
                steps = []
            elif u in groups:  # type: ignore[operator]
                steps = []
                for v, group in groups[u]:  # type: ignore[index]
                    if v in dist or (v in dead_ends and v not in targets):
                        continue  # settled, or a dead end that is not this ticket's end
                    best = None
                    for route_id, length in group:
                        if route_id in owned:
                            best = (v, 0, route_id)
                            break  # an owned route is free: nothing beats it
                        if route_id in unavailable:
                            continue
                        if best is None or length < best[1]:
                            best = (v, length, route_id)
                    if best is not None:
                        steps.append(best)
            else:
                steps = self._arc_steps(u, owned, unavailable, dead_ends, targets)  # type: ignore[arg-type]
            if u in targets:
                steps.append((_TARGET, 0, None))  # type: ignore[attr-defined]
            for v, cost, route_id in steps:
                vu = d + cost
                if v in dist:
                    continue
                if v not in seen or vu < seen[v]:
                    seen[v] = vu
                    heappush(fringe, (vu, next(counter), v))
                    pred[v] = (u, cost, route_id)
        if _TARGET not in dist:
            raise TicketUnreachableError(f"no usable routes join {_describe(a)} and {_describe(b)}")
        places: list = []
        route_ids: list = []
        spaces = 0
        node = pred[_TARGET][0]  # the last place
        while node is not _SOURCE:
            places.append(node)
            previous, cost, route_id = pred[node]
            if previous is not _SOURCE:
                route_ids.append(route_id)
                spaces += cost
            node = previous
        return TicketPlan(
            spaces=spaces,
            route_ids=tuple(reversed(route_ids)),
            places=tuple(reversed(places)),
        )

    def _arc_steps(
        self,
        u: str,
        owned: set | frozenset,
        unavailable: set | frozenset,
        dead_ends: set | frozenset,
        targets: frozenset,
    ) -> list[tuple[object, int, Hashable]]:
        """The arcs networkx's DiGraph would hold out of ``u``, in its order, as
        (place, cost, route): for a place whose parallel routes are not listed together."""
        succ: dict[str, tuple[int, Hashable, tuple[int, bool]]] = {}
        for v, route_id, length in self.arcs.get(u, ()):
            mine = route_id in owned
            if route_id in unavailable and not mine:
                continue
            if v in dead_ends and v not in targets:
                continue
            cost = 0 if mine else length
            rank = (cost, not mine)
            old = succ.get(v)
            if old is None or rank < old[2]:
                succ[v] = (cost, route_id, rank)
        return [(v, cost, route_id) for v, (cost, route_id, _) in succ.items()]
