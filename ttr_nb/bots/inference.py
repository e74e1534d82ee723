"""Guessing an opponent's tickets from their claims, for the worlds a search imagines.

A determinised world (:mod:`~ttr_nb.bots.determinise`) deals an opponent's hidden
tickets at random among those they could hold. Their claims say more: a player who
follows their tickets claims routes on the tickets' paths, so a ticket whose path
their network already covers is likelier to be theirs than one far away. The search
uses that as a likelihood and weights its worlds by it (sampling-importance
resampling, :meth:`~ttr_nb.bots.determinise.Knowledge.sample`).

The weight of ticket ``t`` for a player is ``exp(FIT_WEIGHT * covered)``, where
``covered`` is the share of ``t``'s spaces on the empty board that the player's own
routes already save: ``(alone - now) / alone`` with ``now`` the spaces still to claim
along a shortest path, their routes free and the routes closed to them left out (the
measure the coach's "heading" hint uses). A ticket their network does not touch
keeps weight 1; a finished one has ``exp(FIT_WEIGHT)``. A player with no route yet
gives every ticket weight 1, so early worlds are dealt as before.
"""

from __future__ import annotations

import math
from functools import cache
from typing import TYPE_CHECKING

from ..algorithms import TicketUnreachableError
from .greedy import plan_ticket_legs, unavailable_routes

if TYPE_CHECKING:
    from ..game import Game
    from ..maps import Map

__all__ = ["FIT_WEIGHT", "covered_share", "ticket_weights"]

FIT_WEIGHT = 6.0  # a fully covered ticket is e**6 (about 400) times likelier than an untouched one


@cache
def _alone(game_map: Map, ticket_id: int) -> int | None:
    """Spaces a ticket needs on the empty board (None: it cannot be done at all)."""
    return _spaces(game_map, ticket_id, frozenset(), frozenset())


def _spaces(game_map: Map, ticket_id: int, owned: frozenset, closed: frozenset) -> int | None:
    try:
        return plan_ticket_legs(game_map, ticket_id, owned, closed)[0]
    except TicketUnreachableError:
        return None


def covered_share(
    game_map: Map, ticket_id: int, owned: frozenset, closed: frozenset
) -> float | None:
    """The share of a ticket's spaces on the empty board that ``owned`` routes save
    (1: done), with the ``closed`` routes left out; None when it cannot be done.

    >>> from ttr_nb.maps import load_map
    >>> usa = load_map("usa")
    >>> ticket = usa.tickets[0]
    >>> covered_share(usa, ticket.id, frozenset(), frozenset())
    0.0
    """
    alone = _alone(game_map, ticket_id)
    now = _spaces(game_map, ticket_id, owned, closed)
    if not alone or now is None:
        return None
    return max(0.0, (alone - now) / alone)


def ticket_weights(
    game: Game,
    player: int,
    tickets: list[int] | None = None,
    closed: frozenset[int] | None = None,
) -> dict[int, float] | None:
    """How well each ticket fits ``player``'s claimed routes (see the module text).

    Parameters
    ----------
    game : Game
        The position (only public facts are read: the board and the claims).
    player : int
        The player (0-based seat) whose tickets are guessed.
    tickets : list of int, optional
        The ticket ids to weigh (default: every ticket of the map).
    closed : frozenset of int, optional
        The routes closed to ``player`` (default: computed with
        :func:`~ttr_nb.bots.greedy.unavailable_routes`); a caller that already has
        them passes them to save a pass over the routes.

    Returns
    -------
    dict or None
        Ticket id -> weight (at least 1); None when the player has no route yet, so
        that every ticket is as likely as any other.

    Notes
    -----
    One shortest-path plan per ticket (:func:`~ttr_nb.bots.greedy.plan_ticket_legs`):
    O(T (R + P log P)) for T tickets on a board of P places and R routes; a few
    milliseconds a player on the real maps.

    Examples
    --------
    >>> from ttr_nb import new_game
    >>> game = new_game("usa", 2, seed=1)
    >>> ticket_weights(game, 1) is None  # no claim yet
    True
    """
    state = game.state
    owned = frozenset(state.players[player].routes)
    if not owned:
        return None
    game_map = game.map
    if closed is None:
        closed = frozenset(unavailable_routes(game, player))
    ids = [t.id for t in game_map.tickets] if tickets is None else tickets
    weights = {}
    for ticket_id in ids:
        covered = covered_share(game_map, ticket_id, owned, closed)
        weights[ticket_id] = math.exp(FIT_WEIGHT * (covered or 0.0))
    return weights
