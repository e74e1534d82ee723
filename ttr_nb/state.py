"""Plain game state: dataclasses of lists, dicts, strings and ints.

Everything here converts to JSON-ready dicts; a save stores ``to_dict()`` with
the action history, and loading replays the history and compares the result.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class PlayerState:
    """One player's private and public holdings."""

    name: str
    hand: dict[str, int]
    pieces: dict[str, int]
    tickets: list[int] = field(default_factory=list)
    offer: list[int] = field(default_factory=list)  # drawn tickets awaiting a keep decision
    routes: list[int] = field(default_factory=list)
    route_score: int = 0  # points scored during play (routes, and variant in-play points)
    extras: dict[str, Any] = field(default_factory=dict)  # variant holdings (meeples, harbors)

    @property
    def hand_size(self) -> int:
        return sum(self.hand.values())


@dataclass
class GameState:
    """Everything needed to continue a game, except the map and the random generator."""

    map: str
    seed: int
    players: list[PlayerState]
    deck: list[str]  # top of the deck is the end of the list
    discard: list[str]
    face_up: list[str | None]
    ticket_decks: dict[str, list[int]]  # top is index 0; returned tickets go to the end
    owner: dict[int, int] = field(default_factory=dict)  # route id -> player index
    phase: str = "setup"  # setup, play, over
    current: int = 0
    pending: str | None = None  # None, "second_card", "keep_tickets"
    turn: int = 0
    final_turns_left: int | None = None
    last_round_by: int | None = None
    passes_in_row: int = 0
    ended_by: str | None = None  # why the game ended: "last_round" or "no_moves"
    extras: dict[str, Any] = field(default_factory=dict)  # variant board state

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["owner"] = {str(k): v for k, v in sorted(self.owner.items())}
        return data
