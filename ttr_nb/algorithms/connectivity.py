"""Which places a player's claimed routes join, and whether a ticket is complete.

A ticket joins two places.  On maps with neighbouring countries one end of a
ticket may be a whole country, reached through any of its separate border
spaces.  Border spaces are *dead ends*: a connection may end there but never
passes through, so two routes into two spaces of the same country (or even two
routes meeting at one space) never join the cities behind them.
"""

from collections.abc import Collection, Hashable, Iterable, Sequence

import networkx as nx

__all__ = ["connected_places", "route_graph", "ticket_completed"]

#: A place id, or a non-``str`` collection of place ids meaning "any of these".
Places = str | Collection[str]


def _as_places(places: Places, what: str) -> frozenset[str]:
    """Return `places` as a set of alternatives; a ``str`` is one place."""
    alternatives = frozenset((places,) if isinstance(places, str) else places)
    if not alternatives:
        raise ValueError(f"{what} names no place")
    return alternatives


def _adjacency(routes: Iterable[Sequence]) -> dict[Hashable, set[Hashable]]:
    """Neighbour sets; parallel routes collapse because only reachability matters."""
    adj: dict[Hashable, set[Hashable]] = {}
    for route in routes:
        a, b = route[0], route[1]
        adj.setdefault(a, set()).add(b)
        adj.setdefault(b, set()).add(a)
    return adj


def route_graph(routes: Iterable[Sequence]) -> nx.MultiGraph:
    """Build a multigraph of routes, keeping parallel routes as separate edges.

    Parameters
    ----------
    routes : iterable of tuple
        Tuples ``(place_a, place_b, ...)``.  The first two items are the places
        joined; a third item, when present, is stored as the ``length`` edge
        attribute.

    Returns
    -------
    networkx.MultiGraph
        One node per place and one edge per route.  The edge key is the
        route's position in `routes`, so parallel routes never overwrite each
        other.

    Notes
    -----
    Time complexity is O(R) for R routes.

    Examples
    --------
    >>> g = route_graph([("Paris", "Bruxelles", 2), ("Paris", "Bruxelles", 2)])
    >>> g.number_of_edges("Paris", "Bruxelles")
    2
    >>> g.edges[("Paris", "Bruxelles", 1)]["length"]
    2
    """
    graph = nx.MultiGraph()
    for key, route in enumerate(routes):
        attrs = {"length": route[2]} if len(route) > 2 else {}
        graph.add_edge(route[0], route[1], key=key, **attrs)
    return graph


def _reach(
    adj: dict[Hashable, set[Hashable]], starts: frozenset[str], dead_ends: frozenset[str]
) -> set[Hashable]:
    # Hand BFS rather than nx.node_connected_component: dead ends are reached
    # but not expanded.  Starting places are always expanded (a ticket may start
    # at a dead end).  Expanding every start at once reaches exactly the union of
    # what each start reaches alone: cut any walk at the last start it visits.
    reached: set[Hashable] = set(starts)
    frontier = [p for p in starts if p in adj]
    while frontier:
        place = frontier.pop()
        for nxt in adj[place]:
            if nxt not in reached:
                reached.add(nxt)
                if nxt not in dead_ends:
                    frontier.append(nxt)
    return reached


def connected_places(
    routes: Iterable[Sequence], start: Places, *, dead_ends: Iterable[str] = ()
) -> set[str]:
    """Return every place that `start` reaches over `routes`.

    Parameters
    ----------
    routes : iterable of tuple
        Claimed routes ``(place_a, place_b, ...)``; only the first two items
        are read.  Parallel duplicates are allowed.
    start : str or collection of str
        A place id, or a non-``str`` collection of place ids (reach from any).
    dead_ends : iterable of str, optional
        Places that may end a connection but are never passed through, such as
        a neighbouring country's border spaces.  A start is always left.

    Returns
    -------
    set of str
        The places reached, including `start` itself.

    Raises
    ------
    ValueError
        If `start` is an empty collection.

    Notes
    -----
    Breadth-first search: time complexity is O(P + R) for P places and R
    routes.

    Examples
    --------
    Border spaces of a country are dead ends, so Zürich is not reached:

    >>> routes = [("München", "AT1"), ("AT1", "Zürich"), ("München", "Berlin")]
    >>> sorted(connected_places(routes, "München", dead_ends={"AT1"}))
    ['AT1', 'Berlin', 'München']
    >>> sorted(connected_places(routes, "München"))
    ['AT1', 'Berlin', 'München', 'Zürich']
    """
    return _reach(_adjacency(routes), _as_places(start, "start"), frozenset(dead_ends))


def ticket_completed(
    routes: Iterable[Sequence], a: Places, b: Places, *, dead_ends: Iterable[str] = ()
) -> bool:
    """Tell whether a player's routes join the two ends of a ticket.

    Parameters
    ----------
    routes : iterable of tuple
        The player's claimed routes ``(place_a, place_b, ...)``; only the first
        two items are read.  Parallel duplicates are allowed.
    a, b : str or collection of str
        Each end of the ticket: a place id, or a non-``str`` collection of
        place ids meaning "any of these" (a country's border spaces).
    dead_ends : iterable of str, optional
        Places that may end a connection but are never passed through.  A
        ticket whose end is itself a dead end still works.

    Returns
    -------
    bool
        True when some place of `a` is joined to some place of `b`.

    Raises
    ------
    ValueError
        If `a` or `b` is an empty collection.

    Notes
    -----
    One breadth-first search: time complexity is O(P + R) for P places and
    R routes.

    Examples
    --------
    >>> routes = [("Berlin", "DK1"), ("DK2", "Hamburg")]
    >>> denmark = {"DK1", "DK2"}
    >>> ticket_completed(routes, "Berlin", denmark, dead_ends=denmark)
    True

    Two routes into two spaces of one country do not join the cities:

    >>> ticket_completed(routes, "Berlin", "Hamburg", dead_ends=denmark)
    False
    """
    targets = _as_places(b, "b")
    reached = _reach(_adjacency(routes), _as_places(a, "a"), frozenset(dead_ends))
    return not targets.isdisjoint(reached)
