"""A page's side of the table service: its connection, and its seat's game.

A page at a shared table holds a :class:`TablesClient` (every request a page makes about
tables: open one, find one by its code, sit, come back, the creator's and the teacher's
requests) and, once seated, a :class:`SeatClient`, which follows the table through the
service's views of the page's own seat (:class:`~.seat_game.SeatGame`). Neither ever holds
the database, the seed or another seat's cards: the service (:mod:`.service`) keeps them.

How a page reaches the service (:func:`connect`):

* over HTTP (:class:`HttpTransport`) at ``$TTR_TABLE_SERVICE_URL``, with the page pass its
  Voilà server gave it (:mod:`.visitor`), or behind JupyterHub with the hub's token of the
  user's own server (``$JUPYTERHUB_API_TOKEN``), which the hub lets reach the service;
* in the same process (:class:`LocalTransport`): tests, and a notebook run by itself. The
  requests and answers still travel as JSON text, so a page sees exactly what it would
  see over HTTP.

Every request waits ``$TTR_TABLES_TIMEOUT_S`` seconds at most (4 by default); a service
that does not answer in time, or cannot be reached, raises
:class:`~ttr_nb.errors.StoreUnavailableError`, whose sentence the page shows ("your moves
are safe; retrying").
"""

from __future__ import annotations

import http.client
import json
import logging
import os
import secrets
import threading
import time
import urllib.parse
from collections.abc import Callable
from typing import Any

from ..actions import action_to_dict
from ..errors import StoreUnavailableError, TableError
from ..game import Game
from ..maps import load_map
from .bounded import default_deadline
from .records import Seated, SeatInfo, TableInfo
from .seat_game import SeatGame
from .wire import MAX_BODY, error_data, error_from

log = logging.getLogger(__name__)

SERVICE_URL_ENV = "TTR_TABLE_SERVICE_URL"
HUB_TOKEN_ENV = "JUPYTERHUB_API_TOKEN"
UNREACHABLE = (
    "the table service cannot be reached just now; your moves are safe; retrying (if this "
    "lasts, tell the teacher)"
)
NO_SERVICE = (
    "shared tables need the class's server (make app, or JupyterHub with the table "
    "service): this page was not started by one"
)


# ---------------------------------------------------------------------- transports
class LocalTransport:
    """Requests to a :class:`~.service.TableService` in this process, as JSON text."""

    def __init__(self, service: Any, caller: Any) -> None:
        self.service = service
        self.caller = caller

    def call(self, op: str, args: dict[str, Any]) -> Any:
        """Run ``op`` with ``args`` (through JSON, both ways)."""
        text = json.dumps(args)
        if len(text) > MAX_BODY:  # as the HTTP service refuses it
            raise TableError("this request is too long for the table service")
        args = json.loads(text)
        try:
            result = self.service.call(self.caller, op, args)
        except (TableError, ValueError) as exc:
            raise error_from(json.loads(json.dumps(error_data(exc)))) from None
        return json.loads(json.dumps(result))


class HttpTransport:
    """Requests to the table service over HTTP, one kept-alive connection per page.

    Parameters
    ----------
    url : str
        The service's address (``http://127.0.0.1:PORT/`` or a hub service's URL).
    authorization : str
        The ``Authorization`` header: ``ttr-page <pass>`` or ``token <hub token>``.
    page : str
        This page's id (behind the hub, it tells one page of a user from another).
    timeout : float
        Seconds a request may take.
    """

    def __init__(self, url: str, authorization: str, page: str, timeout: float) -> None:
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"the table service's address is not an http(s) URL: {url!r}")
        self.scheme = parts.scheme
        self.host = parts.hostname
        self.port = parts.port
        self.base = parts.path.rstrip("/")
        self.headers = {
            "Authorization": authorization,
            "X-TTR-Page": page,
            "Content-Type": "application/json",
        }
        self.timeout = timeout
        self._connection: http.client.HTTPConnection | None = None
        self._lock = threading.Lock()

    def _connect(self) -> http.client.HTTPConnection:
        if self._connection is None:
            kind = (
                http.client.HTTPSConnection
                if self.scheme == "https"
                else http.client.HTTPConnection
            )
            self._connection = kind(self.host, self.port, timeout=self.timeout)
        return self._connection

    def call(self, op: str, args: dict[str, Any]) -> Any:
        """Run ``op`` with ``args`` at the service."""
        body = json.dumps(args, separators=(",", ":")).encode("utf-8")
        if len(body) > MAX_BODY:
            raise TableError("this request is too long for the table service")
        with self._lock:
            for attempt in (1, 2):  # a kept-alive connection the service closed: once more
                connection = self._connect()
                try:
                    connection.request("POST", f"{self.base}/api/{op}", body, self.headers)
                    answer = connection.getresponse()
                    text = answer.read()
                    status = answer.status
                    break
                except (OSError, http.client.HTTPException) as exc:
                    connection.close()
                    self._connection = None
                    if attempt == 2 or isinstance(exc, TimeoutError):
                        log.info("table service unreachable: %s", exc)
                        raise StoreUnavailableError(UNREACHABLE) from None
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if status == 200 and isinstance(data, dict) and "ok" in data:
            return data["ok"]
        if isinstance(data, dict) and "error" in data:
            raise error_from(data["error"])
        log.warning("table service answered %s to %s", status, op)
        if status in (502, 503, 504):
            raise StoreUnavailableError(UNREACHABLE)
        raise TableError("the table service refused this request")


def connect(
    page: str | None = None,
    local: Any = None,
    timeout: float | None = None,
    address: str | None = None,
    teacher: bool = False,
) -> TablesClient:
    """This page's client of the table service.

    ``local`` (a :class:`~.service.TableService`) serves the page in this process (tests),
    as a page from ``address`` (a teacher's page: ``teacher``); otherwise the service at
    ``$TTR_TABLE_SERVICE_URL`` is asked, with this kernel's page pass
    (:func:`~.visitor.page_pass`) or its JupyterHub token.

    Raises
    ------
    TableError
        When this kernel has no way to the service (started outside the class's server).
    """
    from .service import Caller
    from .visitor import client_address, page_pass

    page = page or secrets.token_hex(12)
    if local is not None:
        from .limits import address_bucket

        where = address_bucket(address or client_address())
        return TablesClient(LocalTransport(local, Caller(page, where, teacher=teacher)))
    url = os.environ.get(SERVICE_URL_ENV)
    granted = page_pass()
    hub_token = os.environ.get(HUB_TOKEN_ENV)
    if not url or not (granted or hub_token):
        raise TableError(NO_SERVICE)
    authorization = f"ttr-page {granted}" if granted else f"token {hub_token}"
    transport = HttpTransport(url, authorization, page, timeout or default_deadline())
    return TablesClient(transport)


# ---------------------------------------------------------------------- records
def info_from(data: dict[str, Any]) -> TableInfo:
    """A table's public settings from the service's JSON (no seed: pages never have it)."""
    return TableInfo(
        table_id=int(data["table_id"]),
        code=str(data["code"]),
        map=str(data["map"]),
        status=str(data["status"]),
        coach=bool(data["coach"]),
        moves=int(data["moves"]),
        version=int(data["version"]),
        created=float(data["created"]),
        updated=float(data["updated"]),
        seats=tuple(
            SeatInfo(
                seat=int(s["seat"]),
                kind=str(s["kind"]),
                name=s["name"],
                away=bool(s["away"]),
                stand_in=s["stand_in"],
                held_for=s.get("held_for"),
            )
            for s in data["seats"]
        ),
    )


def seated_from(data: dict[str, Any]) -> Seated:
    """A page's place at a table from the service's JSON."""
    return Seated(
        int(data["table_id"]),
        str(data["code"]),
        data["seat"],
        data.get("token"),
        data.get("seat_code"),
        data.get("creator_token"),
    )


# ---------------------------------------------------------------------- the page's client
class TablesClient:
    """Every request a page makes about tables (see the module); the service decides."""

    def __init__(self, transport: Any) -> None:
        self.transport = transport

    def call(self, op: str, **args: Any) -> Any:
        """Send request ``op`` (the service's operation names, :mod:`.service`)."""
        return self.transport.call(op, {k: v for k, v in args.items() if v is not None})

    # -------------------------------------------------------------- everyone
    def create_table(
        self, map_id: str, seats: list[str], creator_name: str | None, coach: bool = True, **_: Any
    ) -> Seated:
        """Open a table (see :meth:`~.store.TableStore.create_table`)."""
        return seated_from(
            self.call("create", map=map_id, seats=list(seats), name=creator_name, coach=coach)
        )

    def table(self, code: str, **_: Any) -> TableInfo:
        """The table with join code ``code`` (wrong codes are counted)."""
        return info_from(self.call("find", code=code))

    def join(self, code: str, name: str, seat: int, **_: Any) -> Seated:
        """Take free seat ``seat`` at table ``code``."""
        return seated_from(self.call("join", code=code, name=name, seat=seat))

    def rejoin(self, token: str, **_: Any) -> Seated:
        """Come back to a seat with the token the browser kept."""
        return seated_from(self.call("rejoin", token=token))

    def rejoin_by_code(
        self, code: str, seat_code: str, name: str | None = None, **_: Any
    ) -> Seated:
        """Come back to a seat (or take a seat kept for you) with its seat code."""
        return seated_from(self.call("rejoin_by_code", code=code, seat_code=seat_code, name=name))

    # -------------------------------------------------------------- the creator
    def start_now(self, table_id: int, creator_token: str, bot: str = "greedy") -> None:
        """Bots take the free seats and the game starts."""
        self.call("start_now", table_id=table_id, creator_token=creator_token, bot=bot)

    def give_to_bot(self, table_id: int, creator_token: str, seat: int, kind: str) -> None:
        """A bot plays a player's seat until it is given back."""
        self.call(
            "give_to_bot", table_id=table_id, creator_token=creator_token, seat=seat, kind=kind
        )

    def take_back(self, table_id: int, creator_token: str, seat: int) -> None:
        """The seat's player plays it again."""
        self.call("take_back", table_id=table_id, creator_token=creator_token, seat=seat)

    def free_seat(
        self,
        table_id: int,
        seat: int,
        creator_token: str | None = None,
        teacher: bool = False,
        hold_for: str | None = None,
    ) -> str | None:
        """Free a seat whose player never moved; with ``hold_for``, keep it for that player
        (returns the seat code they sit down with)."""
        answer = self.call(
            "free_seat",
            table_id=table_id,
            seat=seat,
            creator_token=creator_token,
            hold_for=hold_for,
        )
        return answer.get("seat_code")

    def set_coach(
        self, table_id: int, on: bool, creator_token: str | None = None, teacher: bool = False
    ) -> None:
        """Let the table's players open the coach, or not."""
        self.call("set_coach", table_id=table_id, on=bool(on), creator_token=creator_token)

    def close_table(
        self, table_id: int, creator_token: str | None = None, teacher: bool = False
    ) -> None:
        """Close the table."""
        self.call("close", table_id=table_id, creator_token=creator_token)

    # -------------------------------------------------------------- the teacher
    def list_tables(self, limit: int = 200) -> list[TableInfo]:
        """Every table, the most recently active first (the teacher's)."""
        return [info_from(row) for row in self.list_rows(limit)]

    def list_rows(self, limit: int = 200) -> list[dict[str, Any]]:
        """The teacher's list with running scores and whose turn (JSON rows)."""
        return self.call("list_tables", limit=limit)

    def table_by_id(self, table_id: int, token: str | None = None) -> TableInfo:
        """A table's public settings (the teacher's, or a seat's with its ``token``)."""
        return info_from(self.call("view", table_id=table_id, token=token)["info"])

    def close_many(self, which: str, address: str | None = None) -> int:
        """Close tables in bulk: ``waiting``, ``idle``, or from an ``address``."""
        return int(self.call("close_many", which=which, address=address)["closed"])

    def results(self) -> dict[str, Any]:
        """The class's results (rows, CSV text, damaged tables)."""
        return self.call("results")

    def store_size(self) -> dict[str, Any]:
        """The store's size, in a line for the teacher's page."""
        return self.call("store_size")

    def purge(self) -> int:
        """Delete tables idle past the retention period."""
        return int(self.call("purge")["deleted"])


class SeatClient:
    """A seat's (or a watcher's) live copy of a shared table's game: its view.

    Parameters
    ----------
    tables : TablesClient
        The page's connection to the service.
    table_id : int
        Which table.
    seat : int, optional
        The seat this page plays (None: it watches, as the table's creator without a seat
        or the teacher).
    token : str, optional
        The seat's token (a seat), or the creator's token (a creator who watches).
    creator_token : str, optional
        The creator's token, when this page opened the table.
    """

    def __init__(
        self,
        tables: TablesClient,
        table_id: int,
        seat: int | None = None,
        token: str | None = None,
        creator_token: str | None = None,
    ) -> None:
        self.tables = tables
        self.table_id = table_id
        self.seat = seat
        self.token = token
        self.creator_token = creator_token
        self.game: Game | None = None
        self.info: TableInfo | None = None
        self.seen_version = -1
        self.seen_at: dict[int, float] = {}  # move number -> when this page first had it
        self.whys: dict[int, dict[str, Any]] = {}  # move number -> what its bot recorded
        self._pasts: dict[int, Game] = {}
        self.sync(force=True)

    def _who(self) -> dict[str, Any]:
        if self.seat is not None:
            return {"token": self.token}
        return {"creator_token": self.creator_token}

    # ------------------------------------------------------------------ reading
    @property
    def my_turn(self) -> bool:
        """Whether this page's seat is to move in a game still running."""
        game, info = self.game, self.info
        return (
            game is not None
            and info is not None
            and not game.is_over
            and info.status == "playing"
            and self.seat is not None
            and game.current_player == self.seat
            and info.seats[self.seat].played_by_bot is None
        )

    def sync(self, force: bool = False) -> list[int]:
        """Catch up with the table: returns the numbers of the moves new to this page."""
        known = None if force else self.seen_version
        have = len(self.game.history) if self.game is not None else 0
        data = self.tables.call(
            "view", table_id=self.table_id, after=have, known_version=known, **self._who()
        )
        if data.get("same"):
            return []
        return self._follow(data, have)

    def _follow(self, data: dict[str, Any], have: int) -> list[int]:
        info = info_from(data["info"])
        renamed = self.info is not None and self.info.names != info.names
        self.info = info
        if not data["started"]:
            self.game = None
            self.seen_version = int(data["version"])
            return []
        if renamed and self.game is not None and have:
            # A seat changed hands: the log's lines name the new player; read it all again.
            data = self.tables.call("view", table_id=self.table_id, after=0, **self._who())
            self.game.history.clear()
            self.game.log.clear()
            have = 0
        self._pasts.clear()
        if self.game is None:
            self.game = SeatGame.from_view(load_map(info.map), data, self._past)
        elif isinstance(self.game, SeatGame):
            self.game = self.game.update(data)
        now = time.time()
        new = list(range(have + 1, len(self.game.history) + 1))
        for number in new:
            self.seen_at.setdefault(number, now)
        for number, why in data.get("whys", {}).items():
            self.whys[int(number)] = why
        self.seen_version = int(data["version"])
        return new

    def _past(self, at: int) -> Game:
        kept = self._pasts.get(at)
        if kept is None:
            data = self.tables.call("view", table_id=self.table_id, after=0, at=at, **self._who())
            kept = SeatGame.from_view(load_map(data["info"]["map"]), data, self._past)
            if len(self._pasts) > 8:
                self._pasts.clear()
            self._pasts[at] = kept
        return kept

    # ------------------------------------------------------------------ acting
    def play(self, action: Any) -> None:
        """Send this seat's move; the table checks it, stores it, and this page follows.

        Raises
        ------
        IllegalActionError
            When it is not this seat's turn or the rules refuse the action (nothing stored).
        StaleMoveError
            When another move reached the table first (this page has caught up).
        """
        have = len(self.game.history) if self.game is not None else 0
        try:
            data = self.tables.call(
                "play",
                table_id=self.table_id,
                token=self.token,
                number=have + 1,
                action=action_to_dict(action),
            )
        except TableError:
            self.sync(force=True)
            raise
        if int(data.get("after", -1)) != have:
            self.sync(force=True)
            return
        self._follow(data, have)

    def heartbeat(self) -> None:
        """Tell the table this seat's page is open (see :meth:`TableStore.heartbeat`)."""
        if self.seat is not None:
            self.tables.call("heartbeat", table_id=self.table_id, token=self.token)


def local_service(url: str = "sqlite://") -> Callable[[str], TablesClient]:
    """A table service in this process over a new store at ``url`` (tests, a notebook run
    by itself): returns a function that gives each page its client."""
    from .service import TableService
    from .store import TableStore

    service = TableService(TableStore(url))
    return lambda page: connect(page, local=service)
