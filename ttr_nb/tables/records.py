"""What the table store hands out: tables, seats and moves as plain records (no secrets).

Also the checks on what a page sends about them: bot kinds and players' names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import PlayerNameError, SeatError, TableError
from ..game import checked_names
from .schema import MAX_KIND_CHARS

AWAY_AFTER_S = 180.0  # a seat not seen for 3 minutes shows as away


@dataclass(frozen=True)
class SeatInfo:
    """One seat as every player at the table may see it."""

    seat: int
    kind: str  # "human" or a bot kind
    name: str | None  # None: a human seat nobody has taken yet (or one that was freed)
    away: bool = False  # a human not seen for AWAY_AFTER_S
    stand_in: str | None = None  # the bot kind playing for an absent human
    held_for: str | None = None  # a freed seat kept for this player (only its seat code takes it)

    @property
    def free(self) -> bool:
        """Whether a player may still take this seat (a human seat nobody holds)."""
        return self.kind == "human" and self.name is None

    @property
    def played_by_bot(self) -> str | None:
        """The bot kind that moves for this seat, or None when its human does."""
        return self.stand_in or (None if self.kind == "human" else self.kind)


@dataclass(frozen=True)
class TableInfo:
    """A table's public settings and seats (no secrets; the seed stays in the server)."""

    table_id: int
    code: str
    map: str
    status: str
    coach: bool
    moves: int
    version: int
    created: float
    updated: float
    seats: tuple[SeatInfo, ...]
    seed: int = field(repr=False, default=0)  # for the server's own replay; never shown

    @property
    def names(self) -> list[str]:
        """The seats' names (``Seat N`` for a seat nobody has taken)."""
        return [s.name or f"Seat {s.seat + 1}" for s in self.seats]


@dataclass(frozen=True)
class Move:
    number: int
    seat: int
    action: dict[str, Any]
    at: float
    why: dict[str, Any] | None = None  # a bot's move: what the bot recorded about it
    made_by: str | None = None  # "player" or the bot kind that moved; None: not recorded


@dataclass(frozen=True)
class Seated:
    """A page's place at a table: which seat, and the secrets to come back with."""

    table_id: int
    code: str
    seat: int | None  # None: the creator watches without a seat
    token: str | None = None  # keep in the browser; None when re-entering without a new one
    seat_code: str | None = None  # to type on another device
    creator_token: str | None = None  # only for the table's creator


def not_playing(status: str) -> str:
    """Why a table in ``status`` takes no move, in a player's words."""
    return {
        "open": "the game has not started: some seats are still free",
        "over": "the game at this table is over",
        "closed": "this table was closed",
    }.get(status, f"the table is {status}")


def check_bot(kind: Any) -> None:
    """Refuse a bot kind that is not one of the project's bots."""
    from ..bots import bot_name_problem  # the bots import the whole engine: only when needed

    problem = bot_name_problem(kind)
    if problem is None and len(kind) > MAX_KIND_CHARS:
        problem = f"a bot's name has at most {MAX_KIND_CHARS} characters"
    if problem is not None:
        raise TableError(problem)


def bot_name(kind: str, seat: int) -> str:
    """The name a bot's seat shows: ``Bot 2 (greedy)``."""
    return f"Bot {seat + 1} ({kind})"


def checked_name(name: Any) -> str:
    """A person's name for a seat, cleaned (:func:`~ttr_nb.tables.names.clean_name`);
    refused when empty, too long, unprintable, without a visible character, or when it
    reads as a bot's (:func:`~ttr_nb.tables.names.is_bot_name`)."""
    try:
        checked_names([name, "x"])
    except PlayerNameError as exc:
        raise SeatError(f"your name {exc.reason}") from None
    except ValueError as exc:
        raise SeatError(str(exc)) from None
    from .names import clean_name, is_bot_name, name_problem

    problem = name_problem(name)
    if problem is not None:
        raise SeatError(f"your name {problem}")
    if is_bot_name(name):
        raise SeatError(
            f"{clean_name(name)} reads as a bot's name (bots' seats are called Bot 2 and the "
            "like): choose another name"
        )
    return clean_name(name)
