"""Shared helpers for scripted positions."""

from __future__ import annotations

import pytest

from ttr_nb import KeepTickets, new_game
from ttr_nb.game import Game


def start(players: int = 2, seed: int = 1, map_name: str = "usa") -> Game:
    """A game past setup: every player kept all three starting tickets."""
    game = new_game(map_name, players=players, seed=seed)
    while game.phase == "setup":
        offer = game.state.players[game.current_player].offer
        game.apply(KeepTickets(tuple(offer)))
    return game


def set_hand(game: Game, player: int, **cards: int) -> None:
    """Give a player exactly these cards, moving the difference to/from the deck."""
    hand = game.state.players[player].hand
    for card in hand:
        want = cards.get(card, 0)
        while hand[card] > want:
            hand[card] -= 1
            game.state.deck.insert(0, card)
        while hand[card] < want:
            game.state.deck.remove(card)
            hand[card] += 1


def set_face_up(game: Game, cards: list[str]) -> None:
    """Put these cards face up, returning the old row to the deck bottom."""
    state = game.state
    for card in state.face_up:
        if card is not None:
            state.deck.insert(0, card)
    for card in cards:
        state.deck.remove(card)
    state.face_up = list(cards)


def stack_deck(game: Game, top: list[str]) -> None:
    """Make ``top`` the next cards drawn (first item drawn first)."""
    for card in top:
        game.state.deck.remove(card)
    game.state.deck.extend(reversed(top))


def hoard_all_cards(game: Game, holder: int) -> None:
    """Move every card (deck, discards, face-up row, other hands) into one player's hand."""
    state = game.state
    hand = state.players[holder].hand
    for card in state.deck + state.discard + [c for c in state.face_up if c]:
        hand[card] += 1
    state.deck, state.discard, state.face_up = [], [], [None] * len(state.face_up)
    for i, player in enumerate(state.players):
        if i != holder:
            for card, n in player.hand.items():
                hand[card] += n
                player.hand[card] = 0


def route_between(game: Game, a: str, b: str, color: str | None = None):
    """The route(s) joining two place ids."""
    found = [
        r for r in game.map.routes if {r.a, r.b} == {a, b} and (color is None or r.color == color)
    ]
    assert found, f"no route {a}–{b} {color or ''}"
    return found[0]


@pytest.fixture
def game2() -> Game:
    return start(2)
