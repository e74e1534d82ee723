"""What one seat may know: a copy of the game with everything else blanked out.

The coach must never use another player's cards or tickets, the order of the decks,
or a secret choice: a hint computed from them would tell the learner something the
table does not show. :func:`seat_view` gives the coach a game whose hidden parts are
empty, so no hint can depend on them (the tests change the hidden parts and check
that the hints stay the same).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping
from functools import cache

from ..game import Game
from ..maps import Map
from ..state import copy_plain

__all__ = ["board_of", "closed_to", "demand_of", "seat_view", "unavailable_to"]


def seat_view(game: Game, seat: int) -> Game:
    """A copy of ``game`` holding only what ``seat`` may see.

    Kept: the board (who owns which route), everyone's pieces, scores, routes and
    public holdings (passengers, harbors, tokens), the face-up cards, and the seat's
    own hand, tickets and ticket offer. Emptied: the other players' hands, tickets
    and offers, the decks and discard piles, the ticket decks, the history (it holds
    the other players' ticket choices) and a variant's secrets
    (:meth:`Rules.public_extras`). The copy cannot be saved or replayed.

    Raises
    ------
    ValueError
        For a seat that is not at the table.
    """
    if not 0 <= seat < game.num_players:
        raise ValueError(f"there is no seat {seat + 1} at a table of {game.num_players}")
    view = game.clone(random.Random(0))
    state = view.state
    for i, player in enumerate(state.players):
        if i != seat:
            player.hand = dict.fromkeys(player.hand, 0)
            player.tickets = []
            player.offer = []
    state.deck = []
    state.discard = []
    state.ticket_decks = {deck: [] for deck in state.ticket_decks}
    state.extras = copy_plain(game.rules.public_extras(game.state, seat))
    view.history = []
    view.log = []
    view.sampled_for = seat  # refuses to be saved or replayed
    return view


@cache
def board_of(game_map: Map) -> tuple[tuple[int, str, str, int], ...]:
    """``(route id, a, b, length)`` of every route: the board as the algorithms take it."""
    return tuple((r.id, r.a, r.b, r.length) for r in game_map.routes)


def demand_of(game_map: Map, ticket_id: int) -> tuple[frozenset[str], ...]:
    """The places a ticket must join, each as the set of board places that satisfy it
    (a country: its spaces); a tour lists all its cities."""
    return tuple(game_map.targets(c) for c in game_map.ticket_by_id[ticket_id].cities)


def unavailable_to(game: Game, seat: int) -> frozenset[Hashable]:
    """Routes ``seat`` can never use: claimed by someone else, or a track of a double
    route closed to the seat (the other track taken, with few players; or owned by the
    seat itself, which may not take two tracks of one route)."""
    state = game.state
    closes = len(state.players) <= game.rules.closed_parallel_max_players
    parallel = game.rules.parallel
    return frozenset(
        route.id
        for route in game.map.routes
        if closed_to(route.id, state.owner, seat, parallel, closes)
    )


def closed_to(
    route_id: int,
    owner: Mapping[int, int],
    seat: int,
    parallel: Mapping[int, tuple[int, ...]],
    closes: bool,
) -> bool:
    """Can ``seat`` never use the route, given who owns which route (``owner``)? True when
    someone else owns it, or when it is free but one of its other tracks is taken (by
    anyone when ``closes``, a game of few players; by the seat itself otherwise)."""
    holder = owner.get(route_id)
    if holder is not None:
        return holder != seat
    for other in parallel[route_id]:
        held = owner.get(other)
        if held is not None and (closes or held == seat):
            return True
    return False
