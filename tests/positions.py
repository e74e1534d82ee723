"""Scripted positions shared by the rule tests (imported as ``positions``)."""

from __future__ import annotations

from ttr_nb import KeepTickets, new_game
from ttr_nb.game import Game
from ttr_nb.teaching.scenarios import give_routes, set_face_up, set_hand, stack_deck

__all__ = ["give_routes", "set_face_up", "set_hand", "stack_deck"]


def start(players: int = 2, seed: int = 1, map_name: str = "usa") -> Game:
    """A game past its ticket choice: every player kept all the starting tickets."""
    game = new_game(map_name, players=players, seed=seed)
    while game.state.pending == "keep_tickets" and game.phase == "setup":
        offer = game.state.players[game.current_player].offer
        game.apply(KeepTickets(tuple(offer)))
    return game


def start_world(players: int = 2, seed: int = 1, supply: tuple[int, int] = (20, 40)) -> Game:
    """A World game past setup: every player kept all five tickets and chose ``supply``
    (trains, ships)."""
    from ttr_nb.rules.world import ChooseSupply

    game = start(players, seed, "world")
    while game.phase == "setup":
        game.apply(ChooseSupply(*supply))
    return game


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
