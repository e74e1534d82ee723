"""Which places and routes matter: betweenness over the tickets' shortest paths.

The betweenness of a place (Freeman, 1977) adds up, over pairs of places,
the share of their shortest paths that pass through it.  On a Ticket to Ride
board not every pair matters: players plan the pairs printed on tickets.
*Ticket betweenness* keeps only those pairs, so a place or route scores high
when many tickets' cheapest plans run through it, and it is where a player
expects competition for routes.

For one ticket from s to t, with d the distance and σ the number of
shortest paths, a place v lies on σ(s, v)·σ(v, t) of the σ(s, t) shortest
paths when d(s, v) + d(v, t) = d(s, t), and on none otherwise; a route u–v of
length w carries σ(s, u)·σ(v, t) of them when d(s, u) + w + d(v, t) = d(s, t)
(in either direction).  Two Dijkstra runs with path counts per ticket give
every share (the counting idea of Brandes, 2001).
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable, Iterable, Sequence

import networkx as nx

__all__ = ["ticket_betweenness", "ticket_route_betweenness"]


def _counts(graph: nx.Graph, source: Hashable, weight: str) -> tuple[dict, dict]:
    """Distances and numbers of shortest paths from `source` (Dijkstra with counting)."""
    dist = {source: 0}
    sigma = dict.fromkeys(graph, 0)
    sigma[source] = 1
    done: set[Hashable] = set()
    heap = [(0, 0, source)]
    tie = 1
    while heap:
        d, _, u = heapq.heappop(heap)
        if u in done:
            continue
        done.add(u)
        for v, data in graph[u].items():
            new = d + data.get(weight, 1)
            if v not in dist or new < dist[v]:
                dist[v], sigma[v] = new, sigma[u]
                heapq.heappush(heap, (new, tie, v))
                tie += 1
            elif new == dist[v] and v not in done:
                sigma[v] += sigma[u]
    return dist, sigma


def _tickets(tickets: Iterable[Sequence]) -> list[tuple[Hashable, Hashable, float]]:
    out = []
    for ticket in tickets:
        if len(ticket) not in (2, 3):
            raise ValueError(f"a ticket is (a, b) or (a, b, weight), got {ticket!r}")
        out.append((ticket[0], ticket[1], ticket[2] if len(ticket) == 3 else 1))
    return out


def _shares(graph: nx.Graph, tickets: Iterable[Sequence], weight: str):
    if graph.is_multigraph() or graph.is_directed():
        raise nx.NetworkXNotImplemented("use a simple undirected graph (collapse parallel routes)")
    cache: dict[Hashable, tuple[dict, dict]] = {}
    for s, t, value in _tickets(tickets):
        for end in (s, t):
            if end not in graph:
                raise nx.NodeNotFound(f"ticket end {end!r} is not in the graph")
            if end not in cache:
                cache[end] = _counts(graph, end, weight)
        (ds, ss), (dt, st) = cache[s], cache[t]
        if t not in ds:
            continue  # no path: the ticket adds nothing
        yield s, t, value, ds, ss, dt, st


def ticket_betweenness(
    graph: nx.Graph,
    tickets: Iterable[Sequence],
    weight: str = "weight",
    endpoints: bool = False,
) -> dict[Hashable, float]:
    """Betweenness of every place over the tickets' shortest paths.

    Parameters
    ----------
    graph : networkx.Graph
        A simple undirected graph (collapse parallel routes to the cheapest
        first) with positive lengths (a route of length 0 could hide equally
        short paths from the counting).
    tickets : iterable of tuple
        ``(a, b)`` or ``(a, b, value)``: each ticket adds ``value`` (default 1)
        times the share of its shortest paths that pass through a place.
    weight : str, default "weight"
        Edge attribute with the length (1 where missing).
    endpoints : bool, default False
        Count a ticket's own ends too (each gets the full value).

    Returns
    -------
    dict
        Place -> sum over tickets of value × share of shortest paths through it.

    Raises
    ------
    networkx.NodeNotFound
        If a ticket's end is not a place of the graph.
    networkx.NetworkXNotImplemented
        For a multigraph or a directed graph.
    ValueError
        For a malformed ticket.

    See Also
    --------
    ticket_route_betweenness : the same for routes.
    networkx.betweenness_centrality_subset : over all pairs of two sets; on an
        undirected graph it counts each pair half (once per direction), so
        for one ticket its values are half of these.

    Notes
    -----
    Two Dijkstra runs with path counting per distinct ticket end, then O(P)
    per ticket: O(E (R + P log P) + T P) for E ends, T tickets, P places and R
    routes.  Path counts can grow exponentially with the graph, but Python's
    integers are exact.

    Examples
    --------
    Two equally short ways from S to T, one through A and one through B:

    >>> g = nx.Graph([("S", "A"), ("A", "T"), ("S", "B"), ("B", "T"), ("T", "C")])
    >>> ticket_betweenness(g, [("S", "T")])
    {'S': 0, 'A': 0.5, 'T': 0, 'B': 0.5, 'C': 0}
    >>> ticket_betweenness(g, [("S", "C", 10)])["T"]
    10.0
    """
    score: dict[Hashable, float] = dict.fromkeys(graph, 0)
    for s, t, value, ds, ss, dt, st in _shares(graph, tickets, weight):
        total = ds[t]
        for v in graph:
            if v in ds and v in dt and ds[v] + dt[v] == total:
                if v in (s, t):
                    if endpoints:
                        score[v] += value
                    continue
                score[v] += value * ss[v] * st[v] / ss[t]
    return score


def ticket_route_betweenness(
    graph: nx.Graph, tickets: Iterable[Sequence], weight: str = "weight"
) -> dict[tuple[Hashable, Hashable], float]:
    """Betweenness of every route (edge) over the tickets' shortest paths.

    Parameters and errors as for :func:`ticket_betweenness`.

    Returns
    -------
    dict
        ``(u, v)`` (as the graph lists the edge) -> sum over tickets of value ×
        share of shortest paths that use the route.

    Examples
    --------
    >>> g = nx.Graph([("S", "A"), ("A", "T"), ("S", "B"), ("B", "T")])
    >>> ticket_route_betweenness(g, [("S", "T")])
    {('S', 'A'): 0.5, ('S', 'B'): 0.5, ('A', 'T'): 0.5, ('T', 'B'): 0.5}
    """
    score: dict[tuple[Hashable, Hashable], float] = dict.fromkeys(graph.edges, 0)
    for _s, t, value, ds, ss, dt, st in _shares(graph, tickets, weight):
        total = ds[t]
        for u, v, data in graph.edges(data=True):
            w = data.get(weight, 1)
            for x, y in ((u, v), (v, u)):
                if x in ds and y in dt and ds[x] + w + dt[y] == total:
                    score[(u, v)] += value * ss[x] * st[y] / ss[t]
    return score
