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
        """The number of cards in the hand."""
        return sum(self.hand.values())

    def copy(self) -> PlayerState:
        """An independent copy (nothing shared but immutable values)."""
        twin = object.__new__(PlayerState)
        twin.__dict__.update(_copied_fields(self))
        return twin


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

    def copy(self) -> GameState:
        """An independent copy, much cheaper than :func:`copy.deepcopy` (the state is
        plain data: lists, dicts, strings and numbers, and the players)."""
        twin = object.__new__(GameState)
        twin.__dict__.update(_copied_fields(self))
        twin.players = [p.copy() for p in self.players]
        return twin

    def to_dict(self) -> dict[str, Any]:
        """The state as plain JSON data (route owners keyed by text, in order)."""
        data = asdict(self)
        data["owner"] = {str(k): v for k, v in sorted(self.owner.items())}
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        """The state :meth:`to_dict` wrote (a shared table's seat view travels this way).

        >>> state = GameState("usa", 1, [PlayerState("Ann", {"red": 2}, {"train": 45})],
        ...                   [], [], [None] * 5, {"main": [3, 4]}, owner={7: 0})
        >>> GameState.from_dict(state.to_dict()) == state
        True
        """
        fields = dict(data)
        fields["players"] = [PlayerState(**copy_plain(p)) for p in data["players"]]
        fields["owner"] = {int(k): v for k, v in data["owner"].items()}
        return cls(**{k: copy_plain(v) if k != "players" else v for k, v in fields.items()})


def copy_plain(value: Any) -> Any:
    """A deep copy of plain data: dicts and lists are copied, anything else (strings,
    numbers, None, tuples of those) is immutable and shared.

    >>> board = {"berlin": {"red": 2}, "seen": [1, 2]}
    >>> twin = copy_plain(board)
    >>> twin == board, twin["berlin"] is board["berlin"]
    (True, False)
    """
    kind = type(value)
    if kind is dict:
        return {k: copy_plain(v) if type(v) in _CONTAINERS else v for k, v in value.items()}
    if kind is list:
        return [copy_plain(v) if type(v) in _CONTAINERS else v for v in value]
    return value


_CONTAINERS = (dict, list)


def _copied_fields(obj: Any) -> dict[str, Any]:
    """An object's attributes, with dicts and lists copied deeply (every field, so that a
    field added later is copied too)."""
    return {k: copy_plain(v) if type(v) in _CONTAINERS else v for k, v in obj.__dict__.items()}
