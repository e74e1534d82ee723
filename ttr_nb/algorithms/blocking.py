"""Blocking a ticket: the fewest claims that cut it, by max-flow / min-cut.

An opponent who wants to stop your ticket must claim routes until no usable
line joins its two ends.  The smallest such set of routes is a *minimum cut*.
By the max-flow min-cut theorem (Ford and Fulkerson, 1956; for counting
routes it is Menger's theorem, 1927) its size equals the largest number of
ways between the two ends that share no route, and networkx finds both with
a maximum-flow algorithm.

Game rules shape the network the cut is taken in:

* routes the ticket's holder owns cannot be taken away: they cannot be cut;
* routes claimed by others are gone already;
* a double route is one *link* between two places.  With 2 or 3 players one
  claim closes both tracks, so it costs a blocker one claim; with 4 or 5
  players every open track needs a claim of its own, and no player may take
  two tracks of one link, so it takes several opponents;
* dead ends (country spaces) may end a line but never lie inside one.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from dataclasses import dataclass

import networkx as nx

from .connectivity import Places, _as_places

__all__ = ["TicketCut", "ticket_cut"]

_SOURCE, _TARGET = "\0source", "\0target"


@dataclass(frozen=True)
class TicketCut:
    """A smallest set of claims that disconnects a ticket.

    Attributes
    ----------
    size : float
        Claims (or spaces, with ``weight="spaces"``) the blockers need: 0 when
        the ticket cannot be completed already, ``math.inf`` when it cannot be
        cut (the holder's own routes join it, or every way uses an uncuttable
        link).
    links : tuple of tuple of route ids
        The cut: for each link to take, the ids of its open tracks (one to
        claim with 2–3 players, all of them with 4–5).
    side : frozenset
        The places still reachable from the ticket's first end after the cut.
    """

    size: float
    links: tuple[tuple[Hashable, ...], ...]
    side: frozenset

    @property
    def route_ids(self) -> tuple[Hashable, ...]:
        """Every open track of every link in the cut."""
        return tuple(rid for link in self.links for rid in link)


def ticket_cut(
    board: Iterable[tuple[Hashable, str, str, int]],
    a: Places,
    b: Places,
    *,
    owned: Iterable[Hashable] = (),
    unavailable: Iterable[Hashable] = (),
    players: int = 2,
    weight: str = "claims",
    dead_ends: Iterable[str] = (),
) -> TicketCut:
    """Find the fewest claims that stop a ticket from ever being completed.

    Parameters
    ----------
    board : iterable of tuple
        ``(route_id, place_a, place_b, length)`` for every route on the map.
        Routes joining the same two places are the tracks of one link.
    a, b : str or collection of str
        The ticket's ends: a place, or a non-``str`` collection meaning "any
        of these" (a country's spaces).
    owned : iterable, optional
        Route ids the ticket's holder owns (they cannot be cut).
    unavailable : iterable, optional
        Route ids claimed by others.  With 2 or 3 players that also closes the
        other tracks of the link.
    players : int, default 2
        2 or 3: one claim closes a whole link.  4 or 5: each open track needs
        its own claim.
    weight : {"claims", "spaces"}
        Count claims (the number of routes to take), or spaces (the trains a
        blocker must spend; each claim costs its route's length).
    dead_ends : iterable of str, optional
        Places never passed through (they may be ends of the ticket).

    Returns
    -------
    TicketCut

    Raises
    ------
    ValueError
        For an unknown `weight`, or a number of players other than 2 to 5.

    See Also
    --------
    networkx.minimum_cut : the flow algorithm underneath.
    networkx.edge_disjoint_paths : the ways the cut must cross (Menger).
    ttr_nb.algorithms.plan_ticket : the cheapest way to complete a ticket.

    Notes
    -----
    Each link becomes a pair of opposite arcs with the link's cost as their
    capacity (no capacity, meaning infinite, for a link the holder owns a
    track of); an extra source feeds every place of `a` and an extra sink
    drains every place of `b`.  A minimum s-t cut of that network is a
    cheapest set of links meeting every way from `a` to `b`.  networkx's
    default flow algorithm (preflow-push) takes O(P² √L) time for P places
    and L links: well under a millisecond on a board.

    Examples
    --------
    Two ways from A to C, one through B and a direct route:

    >>> board = [(1, "A", "B", 2), (2, "B", "C", 2), (3, "A", "C", 5)]
    >>> cut = ticket_cut(board, "A", "C")
    >>> cut.size, sorted(cut.route_ids)
    (2, [2, 3])
    >>> ticket_cut(board, "A", "C", weight="spaces").size  # B-C and A-C: 2 + 5 spaces
    7
    >>> ticket_cut(board, "A", "C", owned=[3]).size  # the holder owns a whole way
    inf
    >>> ticket_cut(board, "A", "C", unavailable=[1, 3]).size  # already cut
    0

    A double route costs one claim with 2 or 3 players, two with 4 or 5:

    >>> double = [(1, "A", "B", 3), (2, "A", "B", 3)]
    >>> ticket_cut(double, "A", "B", players=3).size, ticket_cut(double, "A", "B", players=4).size
    (1, 2)
    """
    if weight not in ("claims", "spaces"):
        raise ValueError(f"unknown weight {weight!r}; choose 'claims' or 'spaces'")
    if not 2 <= players <= 5:
        raise ValueError(f"a game has 2 to 5 players, not {players}")
    starts, goals = _as_places(a, "a"), _as_places(b, "b")
    owned, unavailable = set(owned), set(unavailable)
    dead = set(dead_ends) - starts - goals
    closes_together = players <= 3

    links: dict[frozenset, list[tuple[Hashable, str, str, int]]] = {}
    for route in board:
        rid, u, v, _length = route
        if u in dead or v in dead or u == v:
            continue  # a line can never pass through a dead end
        links.setdefault(frozenset((u, v)), []).append(route)

    network = nx.DiGraph()
    tracks: dict[tuple[str, str], tuple[Hashable, ...]] = {}
    for ends, routes in links.items():
        ids = {r[0] for r in routes}
        open_routes = [r for r in routes if r[0] not in unavailable and r[0] not in owned]
        mine = bool(ids & owned)
        if not mine and (not open_routes or (closes_together and ids & unavailable)):
            continue  # the link is gone for this player
        u, v = sorted(ends)
        attributes = {}
        if not mine:
            if closes_together:
                cost = 1 if weight == "claims" else min(r[3] for r in open_routes)
            else:
                cost = len(open_routes) if weight == "claims" else sum(r[3] for r in open_routes)
            attributes["capacity"] = cost
        network.add_edge(u, v, **attributes)
        network.add_edge(v, u, **attributes)
        tracks[(u, v)] = tracks[(v, u)] = tuple(sorted(r[0] for r in open_routes))
    if starts & goals:
        return TicketCut(math.inf, (), frozenset(starts))
    network.add_node(_SOURCE)
    network.add_node(_TARGET)
    for place in starts:
        network.add_edge(_SOURCE, place)  # no capacity: infinite
    for place in goals:
        network.add_edge(place, _TARGET)
    try:
        size, (side, _) = nx.minimum_cut(network, _SOURCE, _TARGET)
    except nx.NetworkXUnbounded:  # a way made of uncuttable links only
        return TicketCut(math.inf, (), frozenset())
    cut = sorted(
        {tracks[(u, v)] for u in side for v in network[u] if v not in side and (u, v) in tracks}
    )
    side = frozenset(side) - {_SOURCE}
    return TicketCut(size if size % 1 else int(size), tuple(cut), side)
