"""The actions only Rails & Sails World has: choosing a supply, building a harbor,
exchanging pieces.

Like every action they are frozen dataclasses that check their own field types
(:meth:`field_problem`), so a malformed value from a save, a widget or a script
is refused with a typed error naming the field, never a crash.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..actions import (
    MAX_CARD_COUNT,
    BuildInCity,
    _frozen,
    register_action,
    short,
    whole_number,
    word_problem,
)

__all__ = ["BuildHarbor", "ChooseSupply", "ExchangePieces"]


def _count_problem(value: Any, what: str) -> str | None:
    if not whole_number(value):
        return f"{what} must be a whole number, not {short(value)}"
    if not -MAX_CARD_COUNT <= value <= MAX_CARD_COUNT:
        return f"{what} must be between {-MAX_CARD_COUNT} and {MAX_CARD_COUNT}, not {short(value)}"
    return None


@register_action
@dataclass(frozen=True)
class ChooseSupply:
    """At setup, keep ``trains`` trains and ``ships`` ships (60 in all); the rest go back
    to the box. Chosen secretly: the others see the choice only once everyone has chosen."""

    trains: int
    ships: int

    malformed_words = ("choose", "a supply of pieces")

    def __post_init__(self) -> None:
        object.__setattr__(self, "trains", _frozen(self.trains))
        object.__setattr__(self, "ships", _frozen(self.ships))

    def field_problem(self) -> tuple[str, str] | None:
        """``(field, reason)`` for the first malformed field, or None when all are well formed."""
        for name in ("trains", "ships"):
            problem = _count_problem(getattr(self, name), f"the number of {name}")
            if problem:
                return name, problem
        return None

    def __str__(self) -> str:
        return f"keep {short(self.trains)} trains and {short(self.ships)} ships"


@register_action
@dataclass(frozen=True)
class BuildHarbor(BuildInCity):
    """Build one of the player's harbors in port ``city``, paying with ``cards``
    (2 Train + 2 Ship cards of one colour with the harbor symbol; Wilds replace any)."""

    malformed_words = ("build", "a harbor")
    building = "harbor"


@register_action
@dataclass(frozen=True)
class ExchangePieces:
    """Take ``count`` pieces of kind ``take`` (``"train"`` or ``"ship"``) from the box and
    put as many pieces of the other kind from the supply back; −1 point per piece."""

    take: str
    count: int

    malformed_words = ("exchange", "pieces")

    def __post_init__(self) -> None:
        object.__setattr__(self, "take", _frozen(self.take))
        object.__setattr__(self, "count", _frozen(self.count))

    def field_problem(self) -> tuple[str, str] | None:
        """``(field, reason)`` for the first malformed field, or None when all are well formed."""
        problem = word_problem(self.take, "the kind of piece taken")
        if problem:
            return "take", problem
        problem = _count_problem(self.count, "the number of pieces exchanged")
        return ("count", problem) if problem else None

    def __str__(self) -> str:
        return f"take {short(self.count)} {short(self.take)} pieces from the box"
