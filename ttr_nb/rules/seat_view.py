"""What one seat may know of a game: its state with every secret replaced by a placeholder.

A shared table's referee (:mod:`ttr_nb.tables.service`) holds the whole game and sends each
seat only this view: the board, the face-up cards, the discard piles, every player's pieces,
routes and public holdings, the seat's own hand, tickets and offer, and the *sizes* of what
it may not see. Secrets keep their size, so a view answers every question a seat may ask
(how many cards Ben holds, whether the deck can be drawn from, which moves are legal for
this seat) and no other:

* other players' hands become ``{"?": n}`` (with their card kinds at 0);
* other players' tickets and offers become distinct negative numbers;
* the draw piles become ``"?"`` cards, the ticket decks negative numbers;
* the seed becomes 0;
* a variant hides its own secrets (:meth:`Rules.seat_view_extras`: World's ship deck and
  the supplies chosen before the reveal);
* a move whose content only its player sees (:attr:`Rules.secret_actions`: keeping
  tickets, World's supply) is shown to the others without its content
  (:func:`secret_to`).

A watcher (``viewer=None``, the teacher's page during a game) sees every seat as "another".

Examples
--------
>>> from ttr_nb.game import new_game
>>> game = new_game("usa", ["Ann", "Ben"], seed=5)
>>> view = seat_view_state(game.rules, game.state, viewer=0)
>>> view.players[0].hand == game.state.players[0].hand
True
>>> view.players[1].hand["?"], view.players[1].hand_size == game.state.players[1].hand_size
(4, True)
>>> len(view.deck) == len(game.state.deck), set(view.deck), view.seed
(True, {'?'}, 0)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..state import GameState, copy_plain

if TYPE_CHECKING:
    from .base import Rules

__all__ = ["HIDDEN_CARD", "hidden_numbers", "seat_view_state", "secret_to"]

HIDDEN_CARD = "?"  # a card whose kind the viewer may not know


def hidden_numbers(n: int) -> list[int]:
    """``n`` distinct placeholders for tickets the viewer may not know: -1, -2, ..."""
    return [-1 - i for i in range(n)]


def seat_view_state(rules: Rules, state: GameState, viewer: int | None) -> GameState:
    """A copy of ``state`` holding only what ``viewer`` may see (see the module).

    Parameters
    ----------
    rules : Rules
        The game's rules (for the variant's own secrets).
    state : GameState
        The whole state (left untouched).
    viewer : int or None
        The seat whose view this is; None for a watcher, who sees no seat's secrets.

    Returns
    -------
    GameState
        A state of the same shape: every count, size and public fact as in ``state``.
    """
    view = state.copy()
    view.seed = 0
    for seat, player in enumerate(view.players):
        if seat == viewer:
            continue
        held = player.hand_size
        player.hand = dict.fromkeys(rules.cards, 0)  # every kind, so the keys tell nothing
        player.hand[HIDDEN_CARD] = held
        player.tickets = hidden_numbers(len(player.tickets))
        player.offer = hidden_numbers(len(player.offer))
    view.deck = [HIDDEN_CARD] * len(state.deck)
    view.ticket_decks = {k: hidden_numbers(len(v)) for k, v in state.ticket_decks.items()}
    view.extras = copy_plain(rules.seat_view_extras(state, viewer))
    return view


def secret_to(rules: Rules, action: Any, actor: int, viewer: int | None) -> bool:
    """Whether ``viewer`` may not see the content of ``actor``'s ``action``.

    >>> from ttr_nb.game import new_game
    >>> from ttr_nb.actions import KeepTickets, DrawBlind
    >>> rules = new_game("usa", 2, seed=1).rules
    >>> secret_to(rules, KeepTickets((3, 4)), actor=1, viewer=0)
    True
    >>> secret_to(rules, KeepTickets((3, 4)), actor=0, viewer=0)
    False
    >>> secret_to(rules, DrawBlind(), actor=1, viewer=0)
    False
    """
    return actor != viewer and isinstance(action, rules.secret_actions)
