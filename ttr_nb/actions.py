"""Actions a player can take, as small frozen dataclasses.

Each action serialises to a plain dict (``{"type": "ClaimRoute", ...}``) for
saves and history; :func:`action_from_dict` reverses it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from .errors import SaveFormatError

Payment = tuple[tuple[str, int], ...]
"""Cards spent, as sorted ``(card_type_id, count)`` pairs."""


def payment(**counts: int) -> Payment:
    """Build a :data:`Payment` from keyword counts, e.g. ``payment(red=2, locomotive=1)``."""
    return tuple(sorted((k, v) for k, v in counts.items() if v))


@dataclass(frozen=True)
class DrawFaceUp:
    """Take the face-up card in ``slot`` (0-based)."""

    slot: int

    def __str__(self) -> str:
        return f"take face-up card {self.slot + 1}"


@dataclass(frozen=True)
class DrawBlind:
    """Take the top card of a travel-card deck (``"train"`` or ``"ship"``)."""

    deck: str = "train"

    def __str__(self) -> str:
        return "draw from the deck" if self.deck == "train" else f"draw from the {self.deck} deck"


@dataclass(frozen=True)
class ClaimRoute:
    """Claim route ``route`` paying with ``cards``."""

    route: int
    cards: Payment

    def __post_init__(self) -> None:
        # Normalise so that equal payments compare equal whatever order they came in.
        object.__setattr__(self, "cards", tuple(sorted((str(k), int(v)) for k, v in self.cards)))

    @classmethod
    def trusted(cls, route: int, cards: Payment) -> ClaimRoute:
        """Build from an already sorted payment, skipping normalisation (the engine's hot path)."""
        action = object.__new__(cls)
        object.__setattr__(action, "route", route)
        object.__setattr__(action, "cards", cards)
        return action

    def __str__(self) -> str:
        return f"claim route {self.route} with {describe_cards(self.cards)}"


@dataclass(frozen=True)
class DrawTickets:
    """Draw destination tickets; ``long`` says how many come from a long deck (Germany)."""

    long: int = 0

    def __str__(self) -> str:
        return "draw tickets" if not self.long else f"draw tickets ({self.long} long)"


@dataclass(frozen=True)
class KeepTickets:
    """Keep these tickets from the ones just drawn; the rest go under their deck."""

    tickets: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "tickets", tuple(sorted(int(t) for t in self.tickets)))

    def __str__(self) -> str:
        return f"keep tickets {', '.join(map(str, self.tickets)) or 'none'}"


@dataclass(frozen=True)
class Pass:
    """Do nothing: only allowed when no other action is legal (a house rule)."""

    def __str__(self) -> str:
        return "pass"


Action = DrawFaceUp | DrawBlind | ClaimRoute | DrawTickets | KeepTickets | Pass
ACTION_TYPES: dict[str, type] = {
    cls.__name__: cls for cls in (DrawFaceUp, DrawBlind, ClaimRoute, DrawTickets, KeepTickets, Pass)
}


def register_action(cls: type) -> type:
    """Class decorator for variant actions, so saves can name them."""
    ACTION_TYPES[cls.__name__] = cls
    return cls


def describe_cards(cards: Payment) -> str:
    """``2 red + 1 locomotive`` style text for a payment."""
    return " + ".join(f"{n} {card}" for card, n in cards) or "no cards"


def action_to_dict(action: Any) -> dict[str, Any]:
    """Plain JSON-ready form of an action."""
    out: dict[str, Any] = {"type": type(action).__name__}
    for f in fields(action):
        value = getattr(action, f.name)
        out[f.name] = (
            [list(v) if isinstance(v, tuple) else v for v in value]
            if isinstance(value, tuple)
            else value
        )
    return out


def action_from_dict(data: Any, where: str = "action") -> Any:
    """Rebuild an action from :func:`action_to_dict` output.

    Raises
    ------
    SaveFormatError
        If the dict names no known action or has wrong fields.
    """
    if not isinstance(data, dict) or data.get("type") not in ACTION_TYPES:
        raise SaveFormatError("<save>", where, f"not a known action: {data!r}")
    cls = ACTION_TYPES[data["type"]]
    kwargs = {k: v for k, v in data.items() if k != "type"}
    try:
        for f in fields(cls):
            if isinstance(kwargs.get(f.name), list):
                kwargs[f.name] = tuple(
                    tuple(v) if isinstance(v, list) else v for v in kwargs[f.name]
                )
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise SaveFormatError("<save>", where, f"bad fields for {cls.__name__}: {exc}") from None
