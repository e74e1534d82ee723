"""Europe's tunnels as a probability question: how many extra cards will the three cards
turned up ask for, given the cards a player has seen?

A player does not know the order of the deck, but knows the cards out of it that they
can see: their own hand, the face-up row and the discard pile. Every other card (in
the deck or in an opponent's hand) is equally likely to be any of the *unseen* ones,
so the three cards turned up are, as far as the player can tell, three cards drawn
without replacement from the unseen cards. The number that ask for more (the colour
played, or a locomotive) then follows a hypergeometric distribution: with ``m``
matching cards among ``N`` unseen ones and ``k`` cards turned up,
``P(X = j) = C(m, j) C(N - m, k - j) / C(N, k)`` and ``E[X] = k m / N``.
"""

from __future__ import annotations

from collections import Counter
from math import comb
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game_view import GameView as Game  # the game imports the rules, not the reverse

__all__ = ["extra_card_odds", "expected_extra", "matching_unseen", "unseen_cards"]


def extra_card_odds(matching: int, unseen: int, turned: int = 3) -> list[float]:
    """``P(exactly j extra cards)`` for j = 0 .. ``turned``: ``matching`` of the ``unseen``
    cards ask for more, and ``turned`` of them are turned up (fewer when fewer are left).

    Examples
    --------
    12 red cards and 14 locomotives the player has not seen, among 90 unseen cards:

    >>> [round(p, 3) for p in extra_card_odds(26, 90)]
    [0.355, 0.446, 0.177, 0.022]
    >>> extra_card_odds(0, 50), extra_card_odds(5, 5, 3)
    ([1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0])
    """
    if not 0 <= matching <= unseen:
        raise ValueError(f"{matching} matching cards cannot be among {unseen} unseen ones")
    drawn = min(turned, unseen)
    total = comb(unseen, drawn)
    odds = [
        comb(matching, j) * comb(unseen - matching, drawn - j) / total for j in range(drawn + 1)
    ]
    return odds + [0.0] * (turned - drawn)


def expected_extra(matching: int, unseen: int, turned: int = 3) -> float:
    """The expected number of extra cards: ``min(turned, unseen) * matching / unseen``.

    >>> round(expected_extra(26, 90), 3)
    0.867
    """
    if unseen == 0:
        return 0.0
    return min(turned, unseen) * matching / unseen


def unseen_cards(game: Game, seat: int) -> Counter[str]:
    """Cards ``seat`` cannot see (in the deck or in another player's hand), by kind."""
    state = game.state
    out = Counter({c.id: c.count for c in game.map.card_types})
    out.subtract({c: n for c, n in state.players[seat].hand.items() if n})
    out.subtract(c for c in state.face_up if c is not None)
    out.subtract(state.discard)
    return +out


def matching_unseen(game: Game, seat: int, colour: str | None) -> tuple[int, int]:
    """``(matching, unseen)`` for a tunnel paid in ``colour`` (None: locomotives alone):
    the unseen cards that would ask for more, and all unseen cards."""
    unseen = unseen_cards(game, seat)
    wild = {c.id for c in game.map.card_types if c.wild}
    matching = sum(n for c, n in unseen.items() if c in wild or c == colour)
    return matching, sum(unseen.values())
