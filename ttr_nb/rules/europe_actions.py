"""The actions only Europe has: paying for a tunnel or giving it up, building a train
station, and choosing the routes the stations borrow at the end.

Like every action they are frozen dataclasses that check their own field types
(:meth:`field_problem`), so a malformed value from a save, a widget or a script is
refused with a typed error naming the field, never a crash.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..actions import (
    MAX_LIST_ITEMS,
    BuildInCity,
    Payment,
    _frozen,
    _payment_problem,
    describe_cards,
    is_normal_payment,
    normal_payment,
    register_action,
    short,
    whole_number,
    word_problem,
)

__all__ = ["BorrowRoutes", "BuildStation", "GiveUpTunnel", "PayTunnel"]


@register_action
@dataclass(frozen=True)
class PayTunnel:
    """Pay ``cards``, the extra cards the tunnel's turned-up cards ask for, and build it."""

    cards: Payment

    malformed_words = ("pay", "the tunnel's extra cards")

    def __post_init__(self) -> None:
        normal = normal_payment(self.cards)
        object.__setattr__(self, "cards", _frozen(self.cards) if normal is None else normal)

    @classmethod
    def trusted(cls, cards: Payment) -> PayTunnel:
        """Build from an already sorted payment (the engine's own lists); a payment not
        in normal form is normalised as the plain constructor would."""
        if not is_normal_payment(cards):
            return cls(cards)
        action = object.__new__(cls)
        object.__setattr__(action, "cards", cards)
        return action

    def field_problem(self) -> tuple[str, str] | None:
        """The malformed field and why (None when every field has the right shape)."""
        if normal_payment(self.cards) is None:
            return "cards", _payment_problem(self.cards)
        return None

    def __str__(self) -> str:
        return f"pay {describe_cards(self.cards)} more for the tunnel"


@register_action
@dataclass(frozen=True)
class GiveUpTunnel:
    """Do not pay the tunnel's extra cards: take the cards laid down back; the turn ends."""

    def __str__(self) -> str:
        return "give up the tunnel"


@register_action
@dataclass(frozen=True)
class BuildStation(BuildInCity):
    """Build the player's next train station in ``city``, paying with ``cards`` (1, 2
    then 3 cards of one colour; locomotives stand in for any colour)."""

    malformed_words = ("build", "a train station")
    building = "station"


@register_action
@dataclass(frozen=True)
class BorrowRoutes:
    """At the end, the route each of the player's stations borrows: ``(city, route)`` pairs,
    one for every station with an opponent's route into its city (sorted by city)."""

    routes: tuple[tuple[str, int], ...]

    malformed_words = ("choose", "the routes their stations borrow")

    def __post_init__(self) -> None:
        routes = _frozen(self.routes)
        if _borrow_problem(routes) is None:
            routes = tuple(sorted(routes))
        object.__setattr__(self, "routes", routes)

    def field_problem(self) -> tuple[str, str] | None:
        """The malformed field and why (None when every field has the right shape)."""
        problem = _borrow_problem(self.routes)
        return ("routes", problem) if problem else None

    def __str__(self) -> str:
        pairs = ", ".join(f"{short(c)}: route {short(r)}" for c, r in self.routes) or "none"
        return f"borrow {pairs}"


def _borrow_problem(routes: object) -> str | None:
    """Why ``routes`` is not a short list of ``[city, route]`` pairs, or None."""
    if not isinstance(routes, tuple):
        return f"the borrowed routes must be a list of [city, route] pairs, not {short(routes)}"
    if len(routes) > MAX_LIST_ITEMS:
        return f"{len(routes)} borrowed routes listed; at most {MAX_LIST_ITEMS}"
    for pair in routes:
        if not (isinstance(pair, tuple) and len(pair) == 2):
            return f"each borrowed route must be a [city, route] pair, not {short(pair)}"
        problem = word_problem(pair[0], "a station's city")
        if problem:
            return problem
        if not whole_number(pair[1]):
            return f"a borrowed route must be a route number, not {short(pair[1])}"
    return None
