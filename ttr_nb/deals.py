"""Scripted deals: a game's plain state edited so that a situation occurs on the next move.

The rules lessons and the app's tutorial show one rule at a time on a real position: a
game dealt from a seed, then its face-up row, the top of its deck, the hands, the tickets
and the claimed routes placed by editing ``game.state`` (plain data). Every card and ticket
is moved, never made up: the counts the rules conserve stay whole.

A scripted position is not the result of legal play: its history does not rebuild it, so
:meth:`~ttr_nb.game.Game.replay` and saves start again from the seed. That is fine for
teaching, not for saving.
"""

from __future__ import annotations

from collections.abc import Iterable

from .game import Game
from .maps import Map

__all__ = [
    "give_routes",
    "route_id",
    "set_face_up",
    "set_hand",
    "set_tickets",
    "set_trains",
    "stack_deck",
    "stack_tickets",
    "ticket_id",
]


def route_id(game: Game | Map, a: str, b: str, color: str | None = None) -> int:
    """Id of the route joining places ``a`` and ``b`` (of ``color``, for a double route).

    >>> from ttr_nb import load_map
    >>> route_id(load_map("usa"), "denver", "kansas-city", "orange")
    32
    """
    game_map = game.map if isinstance(game, Game) else game
    for route in game_map.routes:
        if {route.a, route.b} == {a, b} and color in (None, route.color):
            return route.id
    raise ValueError(f"no route {a}–{b}" + (f" ({color})" if color else ""))


def ticket_id(game: Game | Map, a: str, b: str) -> int:
    """Id of the destination ticket between places ``a`` and ``b``."""
    game_map = game.map if isinstance(game, Game) else game
    for ticket in game_map.tickets:
        if set(ticket.cities) == {a, b}:
            return ticket.id
    raise ValueError(f"no ticket {a}–{b}")


def _piles(game: Game, card: str) -> tuple[list[str], list[str]]:
    """The draw and discard piles of ``card``'s own deck (World has a train and a ship deck)."""
    return game.rules.piles(game.state, game.rules.cards[card].deck)


def _take_card(game: Game, card: str) -> None:
    """Remove one ``card`` from its deck (else the discards) to hand it to someone."""
    for pile in _piles(game, card):
        if card in pile:
            pile.remove(card)
            return
    raise ValueError(f"no {card} card left in the deck or the discards")


def set_hand(game: Game, player: int, **cards: int) -> None:
    """Give ``player`` exactly these cards (others to zero).

    Cards move between the hand and the bottom of the deck, so the 110 cards
    are all still there.
    """
    hand = game.state.players[player].hand
    unknown = set(cards) - set(hand)
    if unknown:
        raise ValueError(f"no such card type: {', '.join(sorted(unknown))}")
    for card in hand:
        want = cards.get(card, 0)
        while hand[card] > want:
            hand[card] -= 1
            _piles(game, card)[0].insert(0, card)
        while hand[card] < want:
            _take_card(game, card)
            hand[card] += 1


def set_face_up(game: Game, cards: list[str]) -> None:
    """Lay out this face-up row (slot 0 first); the old row goes under the deck."""
    state = game.state
    if len(cards) != len(state.face_up):
        raise ValueError(f"the row has {len(state.face_up)} slots, not {len(cards)}")
    for card in state.face_up:
        if card is not None:
            _piles(game, card)[0].insert(0, card)
    state.face_up = [None] * len(cards)
    for i, card in enumerate(cards):
        _take_card(game, card)
        state.face_up[i] = card


def stack_deck(game: Game, top: list[str]) -> None:
    """Make ``top`` the next cards drawn from their deck, first item first."""
    for card in top:
        _take_card(game, card)
    for card in reversed(top):
        _piles(game, card)[0].append(card)  # the top of a deck is the end of its list


def give_routes(game: Game, player: int, routes: Iterable[int]) -> None:
    """Place ``player``'s trains on these routes, as if claimed earlier (points included)."""
    state = game.state
    p = state.players[player]
    for rid in routes:
        route = game.map.route_by_id[rid]
        if rid in state.owner:
            raise ValueError(f"{game.map.route_label(route)} is already claimed")
        state.owner[rid] = player
        p.routes.append(rid)
        p.pieces[route.kind] -= route.length
        p.route_score += game.map.route_points(route.length)


def set_tickets(game: Game, player: int, tickets: Iterable[int]) -> None:
    """Give ``player`` exactly these destination tickets.

    Tickets given up go under their own deck; tickets taken come from their deck or
    are moved from another player's hand.
    """
    state = game.state
    wanted = list(tickets)
    holder = state.players[player]
    for t in holder.tickets:
        if t not in wanted:
            state.ticket_decks[game.map.ticket_by_id[t].deck].append(t)
    for t in wanted:
        _take_ticket(game, t, keep=holder)
    holder.tickets = wanted


def stack_tickets(game: Game, top: list[int]) -> None:
    """Make ``top`` the next tickets drawn from their deck, first item first (taken from
    the deck or from the players; a map with two decks stacks each on its own)."""
    state = game.state
    for t in top:
        _take_ticket(game, t)
    for t in reversed(top):
        state.ticket_decks[game.map.ticket_by_id[t].deck].insert(0, t)


def _take_ticket(game: Game, ticket: int, keep: object = None) -> None:
    """Take ``ticket`` out of its deck and out of every hand but ``keep``'s."""
    state = game.state
    for deck in state.ticket_decks.values():
        if ticket in deck:
            deck.remove(ticket)
    for p in state.players:
        if p is not keep and ticket in p.tickets:
            p.tickets.remove(ticket)


def set_trains(game: Game, player: int, trains: int) -> None:
    """Set how many trains ``player`` has left (a shortcut to the end of the game)."""
    game.state.players[player].pieces["train"] = trains
