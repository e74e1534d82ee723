"""The table service: the one place that holds the tables' secrets and referees their games.

Every page at a shared table asks this service, never the database: the service alone holds
the store (and its credentials), the seeds and the deal, runs the referee
(:mod:`.referee`) and the bots (:mod:`.bot_runner`), and answers each page with only what
its seat may see, as the masters of multiplayer game servers do (boardgame.io's
``playerView``). A page's kernel holds its seat's view and never the whole game, so
nothing a student's code can read in it tells another seat's cards.

:class:`TableService` is the service's core, a plain object: :meth:`TableService.call`
runs one request (an operation's name and its JSON arguments) for a :class:`Caller`, whom
the transport has identified (:mod:`ttr_nb.table_service` over HTTP: a page pass signed by
the Voilà server, or the JupyterHub token of a user; tests call it in the same process).
Answers are JSON data; a refusal is a :class:`~ttr_nb.errors.TableError` (or an
:class:`~ttr_nb.errors.IllegalActionError`) whose message is written for the player.

Who may do what:

* anyone identified: open a table, look a code up (counted against the page and its
  address, :mod:`.limits`), take a free seat, come back to a seat with its token or code;
* a seat's holder (its token): its seat's view, its moves, its heartbeat;
* a table's creator (the creator's token): start now, give a seat to a bot and take it
  back, free a seat (and keep it for a named player), the coach switch, close; the
  creator's view is a watcher's (no seat's secrets);
* a teacher (the server's login, or the hub group ``teachers``): list every table, watch
  any (a watcher's view), free seats, the coach switch, close one table or many, the
  class's results, the store's size.

Examples
--------
>>> service = TableService(TableStore("sqlite://"))
>>> ann, ben = Caller("page-ann", "192.0.2.1"), Caller("page-ben", "192.0.2.2")
>>> made = service.call(ann, "create", {"map": "usa", "seats": ["human", "human"],
...                                      "name": "Ann"})
>>> sat = service.call(ben, "join", {"code": made["code"], "name": "Ben", "seat": 1})
>>> view = service.call(ben, "view", {"table_id": sat["table_id"], "token": sat["token"]})
>>> view["viewer"], view["state"]["players"][0]["hand"]["?"]
(1, 4)
>>> service.call(ben, "view", {"table_id": sat["table_id"], "token": "forged" * 4})
... # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ttr_nb.errors.SeatTokenError: this page does not hold a seat at this table (any more: ...)
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import CorruptMoveError, SeatTokenError, TableError
from .bot_runner import BotRunner
from .codes import show_code
from .records import Seated, TableInfo
from .referee import Referee, public_info
from .store import TableStore

log = logging.getLogger(__name__)

MAX_LIST = 500  # the most tables one teacher's list shows
SEAT_GONE = (
    "this page does not hold a seat at this table (any more: a seat is freed by the table's "
    "creator or the teacher, or moves to another device with its seat code)"
)


@dataclass(frozen=True)
class Caller:
    """Who asks the service, as its transport identified them (never as the page said).

    Parameters
    ----------
    page : str
        The page (one kernel) asking: a seat is held by one page at a time, and the limits
        count per page.
    address : str
        What the limits count as the visitor's address: the client address the Voilà
        server saw, or ``hub:<user>`` behind JupyterHub.
    teacher : bool
        A teacher, identified by the server (the teacher's login, or the hub group).
    user : str, optional
        The JupyterHub user name, when behind a hub.
    """

    page: str
    address: str
    teacher: bool = False
    user: str | None = None


def _seated(seated: Seated) -> dict[str, Any]:
    return {
        "table_id": seated.table_id,
        "code": seated.code,
        "seat": seated.seat,
        "token": seated.token,
        "seat_code": seated.seat_code,
        "creator_token": seated.creator_token,
    }


def _text(value: Any, what: str, most: int = 200) -> str:
    if not isinstance(value, str) or len(value) > most:
        raise TableError(f"{what} must be a text of at most {most} characters")
    return value


def _number(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TableError(f"{what} must be a whole number")
    return value


def _optional_text(value: Any, what: str) -> str | None:
    return None if value is None else _text(value, what)


class TableService:
    """The table service's core (see the module): requests in, JSON views out.

    Parameters
    ----------
    store : TableStore
        The tables' database (only the service holds it).
    bots : {"inline", "pool"}
        How the tables' bots are moved (:class:`~.bot_runner.BotRunner`).
    bot_workers : int, optional
        Bot moves computed at once in ``pool`` mode.
    """

    def __init__(
        self, store: TableStore, bots: str = "inline", bot_workers: int | None = None
    ) -> None:
        self.store = store
        self.referee = Referee(store)
        self.bots = BotRunner(self.referee, bots, bot_workers)
        self._ops: dict[str, Callable[[Caller, dict[str, Any]], Any]] = {
            "create": self._create,
            "find": self._find,
            "join": self._join,
            "rejoin": self._rejoin,
            "rejoin_by_code": self._rejoin_by_code,
            "heartbeat": self._heartbeat,
            "view": self._view,
            "play": self._play,
            "start_now": self._start_now,
            "give_to_bot": self._give_to_bot,
            "take_back": self._take_back,
            "free_seat": self._free_seat,
            "set_coach": self._set_coach,
            "close": self._close,
            "list_tables": self._list_tables,
            "close_many": self._close_many,
            "results": self._results,
            "store_size": self._store_size,
            "purge": self._purge,
            "whoami": self._whoami,
        }

    @property
    def operations(self) -> frozenset[str]:
        """The names :meth:`call` takes."""
        return frozenset(self._ops)

    def call(self, caller: Caller, op: str, args: dict[str, Any] | None = None) -> Any:
        """Run operation ``op`` with JSON arguments ``args`` for ``caller``.

        Raises
        ------
        TableError
            For an unknown operation, malformed arguments, or a refusal (written for the
            player); nothing is changed then.
        IllegalActionError
            For a move the rules refuse.
        """
        handler = self._ops.get(op) if isinstance(op, str) else None
        if handler is None:
            raise TableError("the table service has no such request")
        if args is None:
            args = {}
        if not isinstance(args, dict):
            raise TableError("a request's arguments must be an object")
        return handler(caller, args)

    def start_bots(self) -> int:
        """Kick every table where a bot is to move (the service just started); returns how
        many tables were looked at."""
        tables = [i for i in self.store.list_tables(MAX_LIST) if i.status == "playing"]
        for info in tables:
            self.bots.kick(info.table_id)
        return len(tables)

    def close(self) -> None:
        """Stop the bots and close the store."""
        self.bots.close()
        self.store.dispose()

    # ------------------------------------------------------------------ who may see
    def _viewer(self, caller: Caller, table_id: int, args: dict[str, Any]) -> int | None:
        """The seat whose view ``caller`` may have (None: a watcher's view), or refused."""
        token = _optional_text(args.get("token"), "a seat token")
        if token is not None:
            seat = self.store.seat_of(table_id, token)
            if seat is None:
                raise SeatTokenError(SEAT_GONE)
            return seat
        creator = _optional_text(args.get("creator_token"), "a creator's token")
        if creator is not None and self.store.is_creator(table_id, creator):
            return None
        if caller.teacher:
            return None
        raise SeatTokenError(SEAT_GONE)

    def _creator(self, caller: Caller, args: dict[str, Any]) -> tuple[str | None, bool]:
        """(the creator's token, teacher) for a request only those two may make."""
        token = _optional_text(args.get("creator_token"), "a creator's token")
        if token is None and not caller.teacher:
            raise SeatTokenError("only the table's creator or the teacher can do this")
        return token, caller.teacher and token is None

    def _teacher(self, caller: Caller) -> None:
        if not caller.teacher:
            raise SeatTokenError("only the teacher can do this")

    # ------------------------------------------------------------------ everyone
    def _create(self, caller: Caller, args: dict[str, Any]) -> dict[str, Any]:
        seats = args.get("seats")
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise TableError("a table's seats must be a list of kinds")
        name = _optional_text(args.get("name"), "a name")
        made = self.store.create_table(
            _text(args.get("map"), "a map", 64),
            seats,
            name,
            session=caller.page,
            coach=bool(args.get("coach", True)),
            address=caller.address,
            teacher=caller.teacher,
        )
        self.bots.kick(made.table_id)
        return _seated(made)

    def _find(self, caller: Caller, args: dict[str, Any]) -> dict[str, Any]:
        code = _text(args.get("code"), "a table code", 40)
        return public_info(self.store.table(code, page=caller.page, address=caller.address))

    def _join(self, caller: Caller, args: dict[str, Any]) -> dict[str, Any]:
        seated = self.store.join(
            _text(args.get("code"), "a table code", 40),
            _text(args.get("name"), "a name"),
            _number(args.get("seat"), "a seat"),
            session=caller.page,
            address=caller.address,
        )
        self.bots.kick(seated.table_id)
        return _seated(seated)

    def _rejoin(self, caller: Caller, args: dict[str, Any]) -> dict[str, Any]:
        token = _text(args.get("token"), "a seat token")
        return _seated(self.store.rejoin(token, session=caller.page))

    def _rejoin_by_code(self, caller: Caller, args: dict[str, Any]) -> dict[str, Any]:
        seated = self.store.rejoin_by_code(
            _text(args.get("code"), "a table code", 40),
            _text(args.get("seat_code"), "a seat code", 40),
            session=caller.page,
            address=caller.address,
            name=_optional_text(args.get("name"), "a name"),
        )
        self.bots.kick(seated.table_id)
        return _seated(seated)

    # ------------------------------------------------------------------ a seat
    def _heartbeat(self, caller: Caller, args: dict[str, Any]) -> None:
        table_id = _number(args.get("table_id"), "a table")
        token = _text(args.get("token"), "a seat token")
        seat = self.store.seat_of(table_id, token)
        if seat is None:
            raise SeatTokenError(SEAT_GONE)
        self.store.heartbeat(table_id, seat, caller.page)

    def _view(self, caller: Caller, args: dict[str, Any]) -> dict[str, Any]:
        table_id = _number(args.get("table_id"), "a table")
        viewer = self._viewer(caller, table_id, args)
        known = args.get("known_version")
        if isinstance(known, int) and not isinstance(known, bool):
            version = self.store.version(table_id)
            if version == known:
                return {"version": version, "same": True}
        at = args.get("at")
        return self.referee.view(
            table_id,
            viewer,
            after=_number(args.get("after", 0), "a move number"),
            at=None if at is None else _number(at, "a move number"),
        )

    def _play(self, caller: Caller, args: dict[str, Any]) -> dict[str, Any]:
        table_id = _number(args.get("table_id"), "a table")
        token = _text(args.get("token"), "a seat token")
        seat = self.store.seat_of(table_id, token)
        if seat is None:
            raise SeatTokenError(SEAT_GONE)
        action = args.get("action")
        if not isinstance(action, dict):
            raise TableError("a move must be an object")
        number = args.get("number")
        view = self.referee.play(
            table_id,
            seat,
            action,
            token=token,
            session=caller.page,
            number=None if number is None else _number(number, "a move number"),
        )
        self.bots.kick(table_id)
        if self.bots.mode == "inline":  # the bots have moved: show their moves too
            return self.referee.view(table_id, seat, after=view["after"])
        return view

    def _whoami(self, caller: Caller, args: dict[str, Any]) -> dict[str, Any]:
        return {"teacher": caller.teacher, "user": caller.user}

    # ------------------------------------------------------------------ the creator
    def _start_now(self, caller: Caller, args: dict[str, Any]) -> None:
        table_id = _number(args.get("table_id"), "a table")
        token = _text(args.get("creator_token"), "a creator's token")
        self.store.start_now(table_id, token, _text(args.get("bot", "greedy"), "a bot", 16))
        self.bots.kick(table_id)

    def _give_to_bot(self, caller: Caller, args: dict[str, Any]) -> None:
        table_id = _number(args.get("table_id"), "a table")
        token = _text(args.get("creator_token"), "a creator's token")
        self.store.give_to_bot(
            table_id, token, _number(args.get("seat"), "a seat"), _text(args.get("kind"), "a bot")
        )
        self.bots.kick(table_id)

    def _take_back(self, caller: Caller, args: dict[str, Any]) -> None:
        table_id = _number(args.get("table_id"), "a table")
        token = _text(args.get("creator_token"), "a creator's token")
        self.store.take_back(table_id, token, _number(args.get("seat"), "a seat"))

    def _free_seat(self, caller: Caller, args: dict[str, Any]) -> dict[str, Any]:
        table_id = _number(args.get("table_id"), "a table")
        token, teacher = self._creator(caller, args)
        seat_code = self.store.free_seat(
            table_id,
            _number(args.get("seat"), "a seat"),
            creator_token=token,
            teacher=teacher,
            hold_for=_optional_text(args.get("hold_for"), "a name"),
        )
        self.referee.forget(table_id)
        return {"seat_code": seat_code}

    def _set_coach(self, caller: Caller, args: dict[str, Any]) -> None:
        table_id = _number(args.get("table_id"), "a table")
        token, teacher = self._creator(caller, args)
        self.store.set_coach(table_id, bool(args.get("on")), creator_token=token, teacher=teacher)

    def _close(self, caller: Caller, args: dict[str, Any]) -> None:
        table_id = _number(args.get("table_id"), "a table")
        token, teacher = self._creator(caller, args)
        self.store.close_table(table_id, creator_token=token, teacher=teacher)

    # ------------------------------------------------------------------ the teacher
    def _list_tables(self, caller: Caller, args: dict[str, Any]) -> list[dict[str, Any]]:
        self._teacher(caller)
        limit = min(max(1, _number(args.get("limit", 200), "a number of tables")), MAX_LIST)
        tables = self.store.list_tables(limit)
        origins = self.store.origins([info.table_id for info in tables])
        rows = [self._listed(info) for info in tables]
        for row in rows:
            row["creator_address"] = origins.get(row["table_id"])
        return rows

    def _listed(self, info: TableInfo) -> dict[str, Any]:
        """A row of the teacher's list: the public info, and the running scores."""
        row = public_info(info)
        row["scores"] = None
        row["turn"] = None
        row["problem"] = None
        try:
            _info, game = self.referee.full_game(info.table_id)
        except CorruptMoveError as exc:
            row["problem"] = (
                f"Move {exc.number} is damaged in the table store ({exc.reason}): this game "
                f"stops after move {exc.number - 1}."
            )
            return row
        except TableError as exc:
            row["problem"] = str(exc)
            return row
        if game is not None:
            row["scores"] = [s["total"] for s in game.scores()]
            row["turn"] = None if game.is_over else game.current_player
        return row

    def _close_many(self, caller: Caller, args: dict[str, Any]) -> dict[str, Any]:
        self._teacher(caller)
        which = _text(args.get("which"), "which tables", 16)
        closed = self.store.close_many(
            which, address=_optional_text(args.get("address"), "an address")
        )
        return {"closed": closed}

    def _results(self, caller: Caller, args: dict[str, Any]) -> dict[str, Any]:
        self._teacher(caller)
        from .results import class_results, results_csv

        problems: list[TableError] = []
        rows = class_results(self.store, self.referee, problems=problems)
        return {
            "rows": rows,
            "csv": results_csv(rows),
            "problems": [str(p) for p in problems],
        }

    def _store_size(self, caller: Caller, args: dict[str, Any]) -> dict[str, Any]:
        self._teacher(caller)
        size = self.store.store_size()
        return {"text": size.describe(), "full": size.full}

    def _purge(self, caller: Caller, args: dict[str, Any]) -> dict[str, Any]:
        self._teacher(caller)
        return {"deleted": self.store.purge()}


def describe_caller(caller: Caller) -> str:
    """The caller in the server log's words (no secrets)."""
    who = f"hub user {caller.user}" if caller.user else f"page {caller.page[:8]}…"
    return f"{who} from {caller.address}{' (teacher)' if caller.teacher else ''}"


__all__ = ["Caller", "TableService", "describe_caller", "show_code"]
