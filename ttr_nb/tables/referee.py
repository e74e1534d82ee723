"""The referee of the shared tables: the only holder of a table's whole game.

A table is its settings plus an append-only, numbered move log (:mod:`.store`); map, seed
and moves decide its game. The referee runs in the table service (:mod:`.service`), never in
a page: it rebuilds each table's game from the log (keeping it between calls, and reading
only the new moves), checks every move against the rules before it stores it, and answers
each seat with that seat's **view** (:func:`ttr_nb.rules.seat_view.seat_view_state`): the
public board and counts, the seat's own hand, tickets and offers, the public log, and what
the table's bots recorded about their moves, without their tickets until the end. The seed
and the deal never leave it while the game runs; once the game is over, the whole game
(a save) is part of every view.

Examples
--------
>>> from ttr_nb.tables.store import TableStore
>>> store = TableStore("sqlite://")
>>> made = store.create_table("usa", ["human", "greedy"], "Ann", session="p1", seed=4)
>>> referee = Referee(store)
>>> view = referee.view(made.table_id, viewer=0)
>>> view["viewer"], view["state"]["seed"], len(view["state"]["players"][1]["tickets"])
(0, 0, 0)
>>> keep = view["legal"][0]
>>> referee.play(made.table_id, 0, keep, token=made.token, session="p1")["moves"]
1
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from typing import Any

from ..actions import action_from_dict, action_to_dict
from ..errors import CorruptMoveError, IllegalActionError, StaleMoveError, TableError
from ..game import Game, new_game
from ..maps import load_map
from ..rules.seat_view import hidden_numbers, seat_view_state, secret_to
from .records import Move, TableInfo, not_playing
from .store import TableStore

log = logging.getLogger(__name__)

CACHED_GAMES = 256  # tables whose game the referee keeps between calls (LRU)


def started(info: TableInfo) -> bool:
    """Whether the table's game ever started: it plays or is over, or it was closed after
    starting (every seat taken, or a move made). A table closed while it waited for
    players has no game to show.
    """
    if info.status in ("playing", "over"):
        return True
    return info.status == "closed" and (info.moves > 0 or not any(s.free for s in info.seats))


def public_info(info: TableInfo) -> dict[str, Any]:
    """A table's public settings and seats as JSON data: everything but its seed."""
    return {
        "table_id": info.table_id,
        "code": info.code,
        "map": info.map,
        "status": info.status,
        "coach": info.coach,
        "moves": info.moves,
        "version": info.version,
        "created": info.created,
        "updated": info.updated,
        "seats": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "name": s.name,
                "away": s.away,
                "stand_in": s.stand_in,
                "held_for": s.held_for,
            }
            for s in info.seats
        ],
    }


def public_why(why: dict[str, Any] | None, over: bool) -> dict[str, Any] | None:
    """What a bot recorded about its move, as the seats may read it: during the game its
    tickets become placeholders (how many, not which) and the routes planned for them are
    left out (they would tell its tickets)."""
    if why is None or over:
        return why
    reason = why.get("reason")
    if not isinstance(reason, dict):
        return why
    tickets = reason.get("tickets")
    hidden = hidden_numbers(len(tickets)) if isinstance(tickets, list) else []
    return {**why, "reason": {**reason, "tickets": hidden, "routes": []}}


class _Table:
    """One table's game as the referee keeps it."""

    __slots__ = ("game", "info", "moves")

    def __init__(self, info: TableInfo) -> None:
        self.info = info
        self.game: Game | None = None
        self.moves: list[Move] = []  # the log as read (numbers 1..n)


class Referee:
    """Rebuilds tables' games from their logs, checks moves, and gives each seat its view.

    Thread-safe: the table service calls it from a pool of worker threads (one lock per
    table; games of different tables are rebuilt at the same time).

    Parameters
    ----------
    store : TableStore
        Where the tables are.
    """

    def __init__(self, store: TableStore) -> None:
        self.store = store
        self._tables: OrderedDict[int, _Table] = OrderedDict()
        self._locks: dict[int, threading.Lock] = {}
        self._guard = threading.Lock()

    # ------------------------------------------------------------------ the games
    def _lock(self, table_id: int) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(table_id, threading.Lock())

    def table(self, table_id: int) -> tuple[TableInfo, Game | None, list[Move]]:
        """The table's settings, its game as the log makes it (None before it starts) and
        its moves. Reads only what changed since the last call.

        Raises
        ------
        CorruptMoveError
            When a move of the log cannot be read or the rules refuse it.
        """
        with self._lock(table_id):
            return self._sync(table_id)

    def _sync(self, table_id: int) -> tuple[TableInfo, Game | None, list[Move]]:
        info = self.store.table_by_id(table_id)
        with self._guard:
            kept = self._tables.get(table_id)
            if kept is not None:
                self._tables.move_to_end(table_id)
        if kept is None:
            kept = _Table(info)
        kept.info = info
        if not started(info):
            kept.game = None
            kept.moves = []
            return info, None, []
        game = kept.game
        if game is not None and (list(game.names) != info.names or len(game.history) > info.moves):
            # A seat changed hands (freed, joined): the same moves under the new names.
            game, kept.moves = None, []
        if game is None:
            game = new_game(load_map(info.map), info.names, info.seed)
            kept.moves = []
        if len(game.history) < info.moves:
            new = self.store.moves(table_id, after=len(game.history))
            try:
                self._apply(info, game, new)
            except CorruptMoveError:
                kept.game = None
                raise
            kept.moves.extend(new)
        kept.game = game
        with self._guard:
            self._tables[table_id] = kept
            while len(self._tables) > CACHED_GAMES:
                self._tables.popitem(last=False)
        return info, game, kept.moves

    @staticmethod
    def _apply(info: TableInfo, game: Game, moves: list[Move]) -> None:
        for move in moves:
            expected = len(game.history) + 1
            if move.number != expected:
                raise CorruptMoveError(
                    info.table_id,
                    expected,
                    f"the table's log skips to move {move.number}",
                    info.code,
                )
            try:
                action = action_from_dict(move.action, f"move {move.number}", "the table")
                game.apply(action)
            except IllegalActionError as exc:
                raise CorruptMoveError(
                    info.table_id, move.number, f"the rules refuse it: {exc.rule}", info.code
                ) from None
            except (ValueError, KeyError, TypeError) as exc:
                raise CorruptMoveError(
                    info.table_id, move.number, f"it is not a move of this game: {exc}", info.code
                ) from None

    # ------------------------------------------------------------------ views
    def view(
        self, table_id: int, viewer: int | None, after: int = 0, at: int | None = None
    ) -> dict[str, Any]:
        """What ``viewer`` (a seat; None: a watcher) may see of the table now, or after move
        ``at`` (an earlier position, for stepping back): JSON data.

        ``after`` is how many moves the asking page has already: the history, the log and
        the bots' records of the moves after it are sent, the rest of the view whole.
        """
        info, game, moves = self.table(table_id)
        return self._view(info, game, moves, viewer, after, at)

    def _view(
        self,
        info: TableInfo,
        game: Game | None,
        moves: list[Move],
        viewer: int | None,
        after: int,
        at: int | None,
    ) -> dict[str, Any]:
        out: dict[str, Any] = {
            "version": info.version,
            "info": public_info(info),
            "viewer": viewer,
            "started": game is not None,
        }
        if game is None:
            return out
        if at is not None:
            at = max(0, min(int(at), len(game.history)))
            if at < len(game.history):
                game = game.replay(at)
        over = game.is_over
        total = len(game.history)
        after = max(0, min(int(after), total))
        rules = game.rules
        out["moves"] = total
        out["after"] = after
        out["state"] = seat_view_state(rules, game.state, None if over else viewer).to_dict()
        out["history"] = [
            [
                m.player,
                None
                if not over and secret_to(rules, m.action, m.player, viewer)
                else action_to_dict(m.action),
            ]
            for m in game.history[after:]
        ]
        out["log"] = game.log[after:]
        out["whys"] = {
            str(m.number): public_why(m.why, over) for m in moves[after:total] if m.why is not None
        }
        acting = (
            not over
            and viewer is not None
            and at is None
            and game.current_player == viewer
            and info.status == "playing"
        )
        out["legal"] = [action_to_dict(a) for a in game.legal_actions()] if acting else []
        if over:
            out["game"] = game.to_dict()  # the whole game, as a save: nothing is secret now
        return out

    # ------------------------------------------------------------------ moves
    def play(
        self,
        table_id: int,
        seat: int,
        action: Any,
        *,
        token: str | None = None,
        session: str | None = None,
        number: int | None = None,
        made_by_bot: str | None = None,
        why: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Check ``action`` (an action or its JSON form) for ``seat`` against the rules and
        store it as the table's next move; returns the seat's new view.

        A player's move carries the seat's ``token`` and the ``session`` of the page that
        holds the seat (the store checks both); ``number``, when given, is the move the
        page meant (a page that had not seen the last move is told the table moved on).
        The table service moves the bots with ``made_by_bot`` (the store checks that the
        seat is a bot's).

        Raises
        ------
        IllegalActionError
            When it is not this seat's turn or the rules refuse the action (nothing stored).
        StaleMoveError
            When another move reached the table first.
        """
        with self._lock(table_id):
            info, game, moves = self._sync(table_id)
            who = info.names[seat] if 0 <= seat < len(info.names) else "A watcher"
            if game is None:
                raise IllegalActionError(who, "move", "the game has not started yet")
            if not isinstance(action, dict):
                action = action_to_dict(action)
            try:
                parsed = action_from_dict(action, "the move", "the page")
            except (ValueError, KeyError, TypeError) as exc:
                log.info("table %s: a page sent something that is not a move: %s", table_id, exc)
                raise IllegalActionError(who, "move", "that is not a move of this game") from None
            expected = len(game.history) + 1
            if number is not None and number != expected:
                raise StaleMoveError("the table moved on: another move was made first")
            if info.status != "playing":
                raise IllegalActionError(who, game.describe(parsed), not_playing(info.status))
            if game.is_over or game.current_player != seat:
                whose = game.state.players[game.current_player].name
                rule = "the game is over" if game.is_over else f"it is {whose}'s turn"
                raise IllegalActionError(who, game.describe(parsed), rule)
            problem = game.problem(parsed)
            if problem is not None:
                raise IllegalActionError(
                    who, game.rules.describe(game, parsed, imperative=True), problem
                )
            after = game.clone()
            after.apply(parsed)
            self.store.append(
                table_id,
                expected,
                seat,
                action_to_dict(parsed),
                token=token,
                session=session,
                bot=made_by_bot,
                over=after.is_over,
                why=why,
            )
            game.apply(parsed)
            moves.append(Move(expected, seat, action_to_dict(parsed), time.time(), why))
            info, game, moves = self._sync(table_id)
            viewer = None if made_by_bot else seat
            return self._view(info, game, moves, viewer, expected - 1, None)

    def bot_to_move(self, table_id: int) -> tuple[str, int, Game] | None:
        """``(bot kind, seat, a copy of the game)`` when a bot is to move at the table, else
        None (the table service then computes the bot's move, :mod:`.bots`)."""
        with self._lock(table_id):
            info, game, _moves = self._sync(table_id)
            if game is None or game.is_over or info.status != "playing":
                return None
            seat = game.current_player
            kind = info.seats[seat].played_by_bot
            if kind is None:
                return None
            return kind, seat, game.clone()

    def forget(self, table_id: int) -> None:
        """Drop the kept game of a table (a deleted table, a damaged log)."""
        with self._guard:
            self._tables.pop(table_id, None)

    def full_game(self, table_id: int) -> tuple[TableInfo, Game | None]:
        """The table's whole game: for the service's own uses (results, the teacher's
        export), never for a page while the game runs."""
        info, game, _moves = self.table(table_id)
        return info, game


def check_table_error(exc: Exception) -> bool:
    """Whether ``exc`` is one of the table's own refusals (said to the player as it is)."""
    return isinstance(exc, TableError | IllegalActionError)
