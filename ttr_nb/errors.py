"""Typed errors: every refusal names who, what and which rule or field."""

from __future__ import annotations

from typing import Any


class IllegalActionError(ValueError):
    """An action the rules do not allow; the game state is left unchanged.

    Its message names the player, the action and the rule, in a player's words.

    Parameters
    ----------
    player : str
        Name of the player who tried the action.
    action : Any
        The refused action, in words (the imperative: "claim Atlanta–Miami").
    rule : str
        The rule that forbids it, in plain words.

    Attributes
    ----------
    player : str
        As given.
    action : Any
        As given.
    rule : str
        As given.

    Examples
    --------
    >>> from ttr_nb import KeepTickets, new_game
    >>> game = new_game("usa", players=["Ann", "Ben"], seed=7)
    >>> try:
    ...     game.apply(KeepTickets((1, 2)))
    ... except IllegalActionError as error:
    ...     print(error.player, "|", error.rule)
    Ann | they can only keep tickets they have just drawn
    """

    def __init__(self, player: str, action: Any, rule: str) -> None:
        self.player = player
        self.action = action
        self.rule = rule
        super().__init__(f"{player} cannot {action}: {rule}")


class FileFormatError(ValueError):
    """A file that does not have the expected shape.

    Attributes
    ----------
    file : str
        The file (or a label for in-memory text).
    field : str
        JSON path of the offending field (``$`` for the whole document).
    reason : str
        What is wrong with it.
    """

    kind = "file"

    def __init__(self, file: str, field: str, reason: str) -> None:
        self.file = file
        self.field = field
        self.reason = reason
        super().__init__(f"{self.kind} {file}: field {field}: {reason}")


class MapFormatError(FileFormatError):
    """A malformed map file.

    Parameters
    ----------
    file : str
        The map file.
    field : str
        JSON path of the offending field (``$`` for the whole document).
    reason : str
        What is wrong with it.

    Examples
    --------
    >>> from ttr_nb import load_map
    >>> try:
    ...     load_map("atlantis")
    ... except MapFormatError as error:
    ...     print(error.field, "|", error.reason)
    $ | cannot be read (No such file or directory)
    """

    kind = "map file"


class SaveFormatError(FileFormatError):
    """A malformed or inconsistent saved game.

    Parameters
    ----------
    file : str
        The save (or a label for text held in memory).
    field : str
        JSON path of the offending field (``$`` for the whole document).
    reason : str
        What is wrong with it.

    Examples
    --------
    >>> from ttr_nb import Game
    >>> try:
    ...     Game.from_json("[]", source="game.json")
    ... except SaveFormatError as error:
    ...     print(error)
    saved game game.json: field $: must be object
    """

    kind = "saved game"


class PlayerNameError(ValueError):
    """A player name that is empty, too long or not printable text.

    Attributes
    ----------
    seat : int
        0-based seat of the offending name.
    reason : str
        What is wrong with it.
    """

    def __init__(self, seat: int, reason: str) -> None:
        self.seat = seat
        self.reason = reason
        super().__init__(f"the name of player {seat + 1} {reason}")


class UnknownVariantError(ValueError):
    """A map names a rules variant that is not implemented (yet).

    Examples
    --------
    >>> import dataclasses
    >>> from ttr_nb import load_map, new_game
    >>> moon = dataclasses.replace(load_map("usa"), rules="moon")
    >>> try:
    ...     new_game(moon)
    ... except UnknownVariantError as error:
    ...     print(error)  # doctest: +NORMALIZE_WHITESPACE
    the USA map needs the 'moon' rules, which are not implemented yet
    (playable rules: europe, germany, maerklin, usa, world)
    """


class TableError(ValueError):
    """A request about a shared table that cannot be carried out; nothing was changed.

    The message is written for the player who asked (it is shown as it is).
    Subclasses say which case it is, so a page can react (e.g. catch up after
    :class:`StaleMoveError`).
    """


class UnknownTableError(TableError):
    """No open table has this code (or the code cannot be one)."""


class TableClosedError(TableError):
    """The table was closed (by its creator or the teacher) or its game is over."""


class SeatError(TableError):
    """The seat asked for cannot be taken: it is taken, it is a bot's, or the table is full."""


class SeatTokenError(TableError):
    """A seat token or seat code that matches no seat (forged, mistyped, or replaced since)."""


class StaleMoveError(TableError):
    """A move made on a position the table has already left: another move came first."""


class TooManyAttemptsError(TableError):
    """Too many wrong codes in a short time: the page must wait before trying again."""


class SeatElsewhereError(TableError):
    """The seat is now open in another tab or on another device."""


class CorruptMoveError(TableError):
    """A stored move of a table cannot be read or replayed (damaged in the database).

    Attributes
    ----------
    table_id : int
        The table's id in the store.
    code : str or None
        The table's join code, when known.
    number : int
        The damaged move's number (the game stops after move ``number - 1``).
    reason : str
        What is wrong with it, in plain words.
    """

    def __init__(self, table_id: int, number: int, reason: str, code: str | None = None) -> None:
        self.table_id = table_id
        self.code = code
        self.number = number
        self.reason = reason
        where = f"table {code[:3]} {code[3:]}" if code else f"table {table_id}"
        super().__init__(
            f"move {number} of {where} is damaged in the table store ({reason}): the game "
            f"cannot go on past move {number - 1}; tell the teacher"
        )


class StoreFaultError(TableError):
    """The table store itself failed (unreachable, read-only, full); nothing was changed.

    Unlike the other table errors this says nothing about the request: the same request may
    work once the store is back. A page keeps its seat (its browser's token) on these.
    """


class StoreUnavailableError(StoreFaultError):
    """The table store did not answer in time (stopped, overloaded, network down)."""


class StoreReadOnlyError(StoreFaultError):
    """The table store accepts reads but no writes (a read-only file, disk or database)."""


class StoreFullError(StoreFaultError):
    """The table store's disk, or the size bound the server sets for it, is full."""
