"""Shared tables in a database: a table is its settings plus an append-only, numbered move log.

Map, seed and moves decide a game, so that is all a table stores; the table service's referee
rebuilds the game from them (:class:`~ttr_nb.tables.referee.Referee`). A move is
stored only if it is the next number: two clicks that race for the same number cannot both
land, the loser is told the table moved on (:class:`~ttr_nb.errors.StaleMoveError`), and
nothing is applied twice.

The database is reached through SQLAlchemy Core, by URL: one SQLite file on the server
(the default, :func:`default_url`) or PostgreSQL (``postgresql+psycopg://...``) when the
pages of one class run on several machines. Pages learn of changes by a cheap poll of one
row (:meth:`TableStore.version`). Reading never needs a write transaction, so a read-only
store still shows its tables.

Secrets (seat tokens, seat codes, the creator's token) are stored as SHA-256 digests only.
Only the table service opens the store (:mod:`.service`): the seed never leaves it while a
game runs.

What one visitor may do is limited per page and per client address (:mod:`.limits`); old
tables go after a retention period, and the store's size is bounded (:mod:`.retention`); a
database fault is a sentence, never a traceback (:mod:`.faults`); the creator's and the
teacher's requests are in :mod:`.admin`.

Examples
--------
>>> store = TableStore("sqlite://")
>>> made = store.create_table("usa", ["human", "greedy"], "Ann", session="page-1")
>>> made.seat, store.table(made.code).status
(0, 'playing')
>>> version = store.append(made.table_id, 1, 0, {"type": "DrawBlind"}, token=made.token,
...                        session="page-1")
>>> version == store.version(made.table_id)
True
>>> [m.number for m in store.moves(made.table_id)]
[1]
"""

from __future__ import annotations

import json
import os
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ..errors import (
    CorruptMoveError,
    SeatElsewhereError,
    SeatError,
    SeatTokenError,
    StaleMoveError,
    StoreFullError,
    TableClosedError,
    TableError,
    UnknownTableError,
)
from ..game import MAX_SAVE_MOVES
from . import limits, retention
from .admin import TableAdmin
from .codes import digest, new_code, new_token, normal_code
from .faults import store_call, store_fault
from .limits import Limits, Visitor, address_bucket
from .records import (
    AWAY_AFTER_S,
    Move,
    Seated,
    SeatInfo,
    TableInfo,
    bot_name,
    check_bot,
    checked_name,
    not_playing,
)
from .schema import (
    PLAYER_MADE,
    STATEMENT_TIMEOUT_S,
    create_schema,
    make_engine,
    moves_t,
    seats_t,
    tables_t,
)

__all__ = [
    "AWAY_AFTER_S",
    "URL_ENV",
    "Move",
    "SeatInfo",
    "Seated",
    "TableInfo",
    "TableStore",
    "default_url",
    "open_store",
]

URL_ENV = "TTR_TABLES_URL"
MAX_OPEN_TABLES = Limits().open_tables
WAITING_COUNTS_S = 3600.0  # a table waiting for players counts as open this long
PLAYING_COUNTS_S = 86400.0  # ... a table playing, this long after its last move
MAX_ACTION_CHARS = 2_000  # one action as JSON; real ones are under 200
MAX_WHY_CHARS = 8_000  # a bot's record of one move; real ones are under 2,000
WRONG_CODES_PER_PAGE = Limits().wrong_codes_per_page_minute


SEED_BITS = 128  # a deal's seed: far beyond any search through seeds (issue 49's was 30 bits)


def new_seed() -> int:
    """A fresh deal's seed: :data:`SEED_BITS` random bits from :mod:`secrets`."""
    return secrets.randbits(SEED_BITS)


def default_url() -> str:
    """The store the app uses: ``$TTR_TABLES_URL`` (the server sets it from ``voila.json``),
    else one SQLite file in the Jupyter data folder of the user running the server."""
    url = os.environ.get(URL_ENV)
    if url:
        return url
    from jupyter_core.paths import jupyter_data_dir

    folder = Path(jupyter_data_dir()) / "ttr-nb"
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'tables.sqlite'}"


def open_store(factory: Callable[[], Any] | None = None) -> Any:
    """Open a page's table store, every call bounded in time.

    The store holds the shared tables, their seats and move logs. Each call runs on a
    worker thread and waits at most its deadline
    (:class:`~ttr_nb.tables.bounded.BoundedStore`), so a stuck database never freezes a
    page; the page's client address (:mod:`.visitor`) is counted by the limits.

    Parameters
    ----------
    factory : callable, optional
        Makes the store (tests and a teacher's own store pass one); by default the
        server's: :class:`TableStore` at ``$TTR_TABLES_URL`` (:func:`default_url`).

    Returns
    -------
    BoundedStore
        The store's methods (:class:`TableStore`), each bounded in time.

    Raises
    ------
    StoreFaultError
        When the store cannot be opened (:class:`~ttr_nb.errors.StoreFaultError`).

    Examples
    --------
    A table in a store held in memory: Ann takes the first seat, a greedy bot the other,
    and the game starts:

    >>> store = open_store(lambda: TableStore("sqlite://"))
    >>> seated = store.create_table("usa", ["human", "greedy"], "Ann", session="page-1")
    >>> table = store.table(seated.code)
    >>> table.map, table.status, [seat.name for seat in table.seats]
    ('usa', 'playing', ['Ann', 'Bot 2 (greedy)'])
    >>> store.dispose()
    """
    from .bounded import BoundedStore

    bounded = BoundedStore(None)
    bounded.store = bounded.call(factory or TableStore)
    return bounded


class TableStore(TableAdmin):
    """Tables, seats and move logs in a database (SQLite file or PostgreSQL, by URL).

    Every method runs in its own transaction and either does all it says or raises a
    :class:`~ttr_nb.errors.TableError` and changes nothing (a wrong code is counted all
    the same). A database fault raises a :class:`~ttr_nb.errors.StoreFaultError`.

    Parameters
    ----------
    url : str
        An SQLAlchemy URL: ``sqlite:///path/tables.sqlite``, ``sqlite://`` (in memory, one
        process), ``postgresql+psycopg://user@host/db`` (or ``?host=/socket/dir``).
    clock : callable
        Seconds since the epoch (tests pass their own).
    limits : Limits, optional
        What one page and one address may do (default: :class:`~.limits.Limits`).
    address : str, optional
        The client address of the page using this store (default: the one the server
        noted, :func:`~ttr_nb.tables.visitor.client_address`); a method's own ``address``
        wins.
    retention_days, max_mb : float, optional
        How long tables are kept and how big the data may grow (default: the server's
        settings, :mod:`.retention`).
    timeout_s : float
        The longest the database may make a call wait (locks, connecting, a statement).
    """

    def __init__(
        self,
        url: str | None = None,
        clock: Callable[[], float] = time.time,
        limits: Limits | None = None,
        address: str | None = None,
        retention_days: float | None = None,
        max_mb: float | None = None,
        timeout_s: float = STATEMENT_TIMEOUT_S,
    ) -> None:
        self.url = url or default_url()
        self.clock = clock
        self.limits = limits or Limits()
        self.address = address
        days = retention_days if retention_days is not None else retention.retention_days()
        self.retention_s = days * 86400.0
        megabytes = max_mb if max_mb is not None else retention.max_mb()
        self.max_bytes = int(megabytes * 1e6)
        self._last_purge = float("-inf")
        self.engine = make_engine(self.url, timeout_s)
        try:
            create_schema(self.engine)
        except (sa.exc.DBAPIError, sa.exc.TimeoutError) as exc:
            self.engine.dispose()
            raise store_fault(exc) from exc

    def dispose(self) -> None:
        """Close the store's database connections."""
        self.engine.dispose()

    @contextmanager
    def _tx(self) -> Iterator[Connection]:
        """A transaction that may write (SQLite: it takes the write lock at its start)."""
        with self.engine.connect().execution_options(ttr_write=True) as conn, conn.begin():
            yield conn

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        """A transaction that only reads (it works on a read-only store too)."""
        with self.engine.connect() as conn, conn.begin():
            yield conn

    def _visitor(self, page: str | None, address: str | None) -> Visitor:
        if address is None:
            address = self.address
        if address is None:
            from .visitor import client_address

            address = client_address()
        return Visitor(page or "?", address_bucket(address))

    # ---------------------------------------------------------------- making tables
    @store_call
    def create_table(
        self,
        map_id: str,
        seats: list[str],
        creator_name: str | None,
        session: str,
        coach: bool = True,
        seed: int | None = None,
        address: str | None = None,
        teacher: bool = False,
    ) -> Seated:
        """Open a table; its creator takes the first human seat (when ``creator_name`` is
        given) and gets the creator's token (give seats to bots, start, free a seat, close).

        ``seats`` lists each seat's kind: ``"human"`` (a player who joins) or a bot kind.
        When every human seat is taken the game starts. One page and one address may open
        only so many tables an hour, closed ones included, and keep only so many waiting
        for players at once (:class:`~.limits.Limits`); these bite long before the
        server's own cap on open tables, past which only the ``teacher`` may still open
        a few.
        """
        from ..rules import playable_maps  # the rules import the maps at start-up

        if map_id not in playable_maps():
            raise TableError(f"{map_id!r} is not a map that can be played here")
        if not isinstance(seats, list | tuple) or not 2 <= len(seats) <= 5:
            raise TableError(f"a table has 2 to 5 seats, not {len(seats)}")
        for kind in seats:
            if kind != "human":
                check_bot(kind)
        if creator_name is not None:
            if "human" not in seats:
                raise SeatError("there is no seat for a player at this table")
            creator_name = checked_name(creator_name)
        who = self._visitor(session, address)
        now = self.clock()
        self._purge_now_and_then(now)
        creator_token = new_token()
        with self._tx() as conn:
            limits.lock(conn)
            if not teacher:
                self._check_waiting(conn, who, now)
                limits.check_new(conn, self.limits, "table", who, now)
            self._check_open_tables(conn, now, teacher)
            if creator_name is not None and not teacher:
                limits.check_new(conn, self.limits, "seat", who, now)
            self._check_size(conn, now)
            code = self._unused_code(conn)
            table_id = conn.execute(
                tables_t.insert().values(
                    code=code,
                    map=map_id,
                    seed=0,
                    deal=str(seed if seed is not None else new_seed()),
                    coach=bool(coach),
                    status="open",
                    creator=digest(creator_token),
                    moves=0,
                    version=0,
                    created=now,
                    updated=now,
                    creator_page=who.page[:64],
                    creator_address=who.address,
                    by_teacher=bool(teacher),
                )
            ).inserted_primary_key[0]
            limits.record(conn, "table", who, now)
            conn.execute(
                seats_t.insert(),
                [
                    {
                        "table_id": table_id,
                        "seat": i,
                        "kind": kind,
                        "name": None if kind == "human" else bot_name(kind, i),
                    }
                    for i, kind in enumerate(seats)
                ],
            )
            seated = Seated(table_id, code, None, creator_token=creator_token)
            if creator_name is not None:
                joined = self._take_seat(conn, table_id, seats.index("human"), creator_name, who)
                seated = Seated(
                    table_id, code, joined.seat, joined.token, joined.seat_code, creator_token
                )
            self._start_if_full(conn, table_id)
        return seated

    def _check_open_tables(self, conn: Connection, now: float, teacher: bool) -> None:
        most = self.limits.open_tables
        if most <= 0:
            return
        active = conn.execute(
            sa.select(sa.func.count()).select_from(tables_t).where(self._open_now(now))
        ).scalar_one()
        if teacher and active < most + self.limits.teacher_room:
            return
        if active >= most:
            raise TableError(
                f"this server already has {most} open tables; ask the teacher to close "
                "finished ones"
            )

    @staticmethod
    def _open_now(now: float) -> Any:
        """The tables that count as open: waiting for players lately, or played lately."""
        return sa.or_(
            sa.and_(tables_t.c.status == "open", tables_t.c.updated > now - WAITING_COUNTS_S),
            sa.and_(tables_t.c.status == "playing", tables_t.c.updated > now - PLAYING_COUNTS_S),
        )

    def _check_waiting(self, conn: Connection, who: Visitor, now: float) -> None:
        """One page, and one address, keep only so many tables waiting for players."""
        for column, value, most, place in (
            (tables_t.c.creator_page, who.page[:64], self.limits.waiting_tables_per_page, "page"),
            (
                tables_t.c.creator_address,
                who.address,
                self.limits.waiting_tables_per_address,
                "network address",
            ),
        ):
            if most <= 0:
                continue
            waiting = conn.execute(
                sa.select(sa.func.count())
                .select_from(tables_t)
                .where(
                    column == value,
                    tables_t.c.status == "open",
                    tables_t.c.updated > now - WAITING_COUNTS_S,
                )
            ).scalar_one()
            if waiting >= most:
                raise TableError(
                    f"this {place} already has {waiting} tables waiting for players: start "
                    "or close one of them first"
                )

    def _check_size(self, conn: Connection, now: float) -> None:
        """Past the size bound, the oldest finished, closed or idle tables go; if that is
        not enough, no new table."""
        size, _tables, _moves = retention.data_bytes(conn)
        if size < self.max_bytes:
            return
        # Free a tenth of the bound more than needed, so that not every new table purges.
        excess = size - self.max_bytes + self.max_bytes // 10
        if retention.delete_tables(conn, retention.to_free(conn, now, excess)):
            size, _tables, _moves = retention.data_bytes(conn)
            if size < self.max_bytes:
                return
        raise StoreFullError(
            f"the table store is full (its data reached the {self.max_bytes / 1e6:,.0f} MB "
            "this server allows): no new table can be opened until the games being played "
            "end or the teacher closes some"
        )

    def _unused_code(self, conn: Connection) -> str:
        for _ in range(20):
            code = new_code()
            taken = conn.execute(sa.select(tables_t.c.id).where(tables_t.c.code == code)).first()
            if taken is None:
                return code
        raise TableError("could not find a free table code; try again")

    # ---------------------------------------------------------------- joining
    @store_call
    def table(self, code: str, page: str | None = None, address: str | None = None) -> TableInfo:
        """The table with join code ``code`` (typed in any case, with or without the space).

        A wrong code counts against ``page`` and its client ``address``: past the limits
        (:class:`~.limits.Limits`), :class:`TooManyAttemptsError`, even for a right code.
        """
        who = self._visitor(page, address)
        normal = normal_code(code)
        now = self.clock()
        with self._tx() as conn:
            limits.lock(conn)
            limits.check_codes(conn, self.limits, who, now)
            row = None
            if normal is not None:
                row = conn.execute(sa.select(tables_t).where(tables_t.c.code == normal)).first()
            if row is not None:
                return self._info(conn, row)
            limits.record(conn, "code", who, now)  # committed: the refusal below keeps it
        raise UnknownTableError(
            "no table has this code: check it with the table's creator (codes have six "
            "letters and digits, like K7Q X4M)"
        )

    @store_call
    def table_by_id(self, table_id: int) -> TableInfo:
        """The table ``table_id`` (a page that is at it already)."""
        with self._read() as conn:
            row = conn.execute(sa.select(tables_t).where(tables_t.c.id == table_id)).first()
            if row is None:
                raise UnknownTableError("this table does not exist any more")
            return self._info(conn, row)

    @store_call
    def join(
        self, code: str, name: str, seat: int, session: str, address: str | None = None
    ) -> Seated:
        """Take free human seat ``seat`` (0-based) at the table with join code ``code``."""
        name = checked_name(name)
        info = self.table(code, page=session, address=address)
        if info.status == "closed":
            raise TableClosedError("this table was closed")
        if info.status == "over":
            raise TableClosedError("the game at this table is over")
        who = self._visitor(session, address)
        now = self.clock()
        with self._tx() as conn:
            limits.lock(conn)
            limits.check_new(conn, self.limits, "seat", who, now)
            seated = self._take_seat(conn, info.table_id, seat, name, who)
            self._start_if_full(conn, info.table_id)
        return Seated(info.table_id, info.code, seated.seat, seated.token, seated.seat_code)

    def _take_seat(
        self,
        conn: Connection,
        table_id: int,
        seat: int,
        name: str,
        who: Visitor,
        seat_code: str | None = None,
    ) -> Seated:
        from .names import look_alike_key

        rows = conn.execute(
            sa.select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat)
        ).all()
        if not isinstance(seat, int) or not 0 <= seat < len(rows):
            raise SeatError(f"this table has seats 1 to {len(rows)}")
        row = rows[seat]
        if row.kind != "human":
            raise SeatError(f"seat {seat + 1} is played by a bot")
        if row.name is not None:
            raise SeatError(f"seat {seat + 1} is taken (by {row.name})")
        if row.held_for is not None:
            raise SeatError(
                f"seat {seat + 1} is kept for {row.held_for}: they take it with its seat code "
                "(Back to my seat)"
            )
        mine = [r.seat for r in rows if r.name is not None and r.session == who.page]
        if mine:
            raise SeatError(f"this page already plays seat {mine[0] + 1} at this table")
        key = look_alike_key(name)
        for other in rows:
            if other.name is not None and look_alike_key(other.name) == key:
                same = other.name.casefold() == name.casefold()
                raise SeatError(
                    f"someone at this table is already called {name}"
                    if same
                    else f"{name} looks too much like {other.name}, who sits at this table: "
                    "choose a name the others can tell apart"
                )
        token, seat_code = new_token(), seat_code or new_code()
        now = self.clock()
        done = conn.execute(
            seats_t.update()
            .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat, seats_t.c.name.is_(None))
            .values(
                name=name,
                token=digest(token),
                seat_code=digest(seat_code),
                session=who.page,
                last_seen=now,
            )
        ).rowcount
        if done != 1:  # another page took it between our read and write
            raise SeatError(f"seat {seat + 1} was just taken by someone else")
        limits.record(conn, "seat", who, now)
        self._touch(conn, table_id)
        code = conn.execute(sa.select(tables_t.c.code).where(tables_t.c.id == table_id)).scalar()
        return Seated(table_id, code, seat, token, seat_code)

    def _start_if_full(self, conn: Connection, table_id: int) -> None:
        free = conn.execute(
            sa.select(sa.func.count())
            .select_from(seats_t)
            .where(
                seats_t.c.table_id == table_id, seats_t.c.kind == "human", seats_t.c.name.is_(None)
            )
        ).scalar_one()
        if free == 0:
            conn.execute(
                tables_t.update()
                .where(tables_t.c.id == table_id, tables_t.c.status == "open")
                .values(status="playing")
            )

    @store_call
    def rejoin(self, token: str, session: str) -> Seated:
        """Come back to a seat with the token the browser kept (this page now holds it)."""
        if not isinstance(token, str) or not 10 <= len(token) <= 100:
            raise SeatTokenError("this seat token is not one this server gave out")
        with self._read() as conn:  # looking the seat up reads only
            row = conn.execute(sa.select(seats_t).where(seats_t.c.token == digest(token))).first()
        if row is None:
            raise SeatTokenError(
                "this browser's seat is no longer valid (the seat was opened on another "
                "device with its seat code, given to someone else, or freed): type your seat "
                "code to come back"
            )
        with self._tx() as conn:
            return self._enter(conn, row, session, token=None)

    @store_call
    def rejoin_by_code(
        self,
        code: str,
        seat_code: str,
        session: str,
        address: str | None = None,
        name: str | None = None,
    ) -> Seated:
        """Come back to a seat by typing the table's code and the seat code (another device),
        or take a seat the creator kept for you (:meth:`free_seat` with ``hold_for``; the
        seat gets the kept name, or ``name``).

        The seat gets a new token for this browser; the old browser's token stops working.
        Wrong codes count as in :meth:`table`.
        """
        info = self.table(code, page=session, address=address)
        who = self._visitor(session, address)
        now = self.clock()
        with self._tx() as conn:
            limits.lock(conn)
            limits.check_codes(conn, self.limits, who, now)
            normal = normal_code(seat_code)
            row = None
            if normal is not None:
                row = conn.execute(
                    sa.select(seats_t).where(
                        seats_t.c.table_id == info.table_id,
                        seats_t.c.seat_code == digest(normal),
                    )
                ).first()
            if row is not None and row.name is None and row.held_for is not None:
                return self._take_held(conn, row, name or row.held_for, who, normal or "")
            if row is not None:
                token = new_token()
                conn.execute(
                    seats_t.update()
                    .where(seats_t.c.table_id == row.table_id, seats_t.c.seat == row.seat)
                    .values(token=digest(token))
                )
                return self._enter(conn, row, session, token=token)
            limits.record(conn, "code", who, now)  # committed: the refusal below keeps it
        raise SeatTokenError("no seat at this table has this seat code")

    def _take_held(
        self, conn: Connection, row: Any, name: str, who: Visitor, seat_code: str
    ) -> Seated:
        """The player a freed seat was kept for takes it with its seat code."""
        name = checked_name(name)
        conn.execute(
            seats_t.update()
            .where(seats_t.c.table_id == row.table_id, seats_t.c.seat == row.seat)
            .values(held_for=None)
        )
        seated = self._take_seat(conn, row.table_id, row.seat, name, who, seat_code=seat_code)
        self._start_if_full(conn, row.table_id)
        return seated

    def _enter(self, conn: Connection, row: Any, session: str, token: str | None) -> Seated:
        table = conn.execute(sa.select(tables_t).where(tables_t.c.id == row.table_id)).one()
        if table.status == "closed":
            raise TableClosedError("this table was closed")
        conn.execute(
            seats_t.update()
            .where(seats_t.c.table_id == row.table_id, seats_t.c.seat == row.seat)
            .values(session=session, last_seen=self.clock())
        )
        self._touch(conn, row.table_id)
        return Seated(row.table_id, table.code, row.seat, token)

    @store_call
    def heartbeat(self, table_id: int, seat: int, session: str) -> None:
        """The page holding ``seat`` is still open. Raises :class:`SeatElsewhereError` when
        another page took the seat over (a second tab, another device), and
        :class:`SeatTokenError` when the creator or the teacher freed it."""
        with self._tx() as conn:
            row = conn.execute(
                sa.select(seats_t.c.session, seats_t.c.last_seen, seats_t.c.name).where(
                    seats_t.c.table_id == table_id, seats_t.c.seat == seat
                )
            ).first()
            if row is not None and row.name is None:
                raise SeatTokenError(
                    "your seat was freed by the table's creator or the teacher: this page "
                    "only watches now"
                )
            if row is None or row.session != session:
                raise SeatElsewhereError(
                    "your seat is now open in another tab or on another device"
                )
            now = self.clock()
            was_away = row.last_seen is None or now - row.last_seen > AWAY_AFTER_S
            conn.execute(
                seats_t.update()
                .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                .values(last_seen=now)
            )
            if was_away:  # the others' pages show them back
                self._touch(conn, table_id)

    @store_call
    def seat_of(self, table_id: int, token: str) -> int | None:
        """The seat of ``table_id`` that ``token`` holds now, or None (a forged token, a
        seat freed or opened on another device since)."""
        if not isinstance(token, str) or not 10 <= len(token) <= 100:
            return None
        with self._read() as conn:
            return conn.execute(
                sa.select(seats_t.c.seat).where(
                    seats_t.c.table_id == table_id, seats_t.c.token == digest(token)
                )
            ).scalar()

    @store_call
    def is_creator(self, table_id: int, creator_token: str) -> bool:
        """Whether ``creator_token`` is the creator's token of ``table_id``."""
        if not isinstance(creator_token, str) or not 10 <= len(creator_token) <= 100:
            return False
        with self._read() as conn:
            creator = conn.execute(
                sa.select(tables_t.c.creator).where(tables_t.c.id == table_id)
            ).scalar()
        return creator is not None and creator == digest(creator_token)

    # ---------------------------------------------------------------- moves
    @store_call
    def version(self, table_id: int) -> int:
        """A number that changes whenever anything at the table does (the cheap poll)."""
        with self._read() as conn:
            value = conn.execute(
                sa.select(tables_t.c.version).where(tables_t.c.id == table_id)
            ).scalar()
        if value is None:
            raise UnknownTableError("this table does not exist any more")
        return value

    @store_call
    def moves(self, table_id: int, after: int = 0) -> list[Move]:
        """The moves numbered above ``after``, in order.

        Raises :class:`~ttr_nb.errors.CorruptMoveError` at the first move whose record
        cannot be read (the moves before it are not returned either: ask again with
        ``after`` set to the last good one to have them).
        """
        with self._read() as conn:
            rows = conn.execute(
                sa.select(moves_t)
                .where(moves_t.c.table_id == table_id, moves_t.c.number > after)
                .order_by(moves_t.c.number)
            ).all()
            code = None
            out = []
            for r in rows:
                try:
                    action = json.loads(r.action)
                except ValueError:
                    action = None
                if not isinstance(action, dict):
                    if code is None:
                        code = conn.execute(
                            sa.select(tables_t.c.code).where(tables_t.c.id == table_id)
                        ).scalar()
                    raise CorruptMoveError(
                        table_id, r.number, "its record is not a readable move", code
                    )
                out.append(Move(r.number, r.seat, action, r.at, _why(r.why), r.made_by))
        return out

    @store_call
    def append(
        self,
        table_id: int,
        number: int,
        seat: int,
        action: dict[str, Any],
        *,
        token: str | None = None,
        session: str | None = None,
        bot: str | None = None,
        over: bool = False,
        why: dict[str, Any] | None = None,
    ) -> int:
        """Store move ``number`` (the next one) for ``seat``; returns the table's version
        number after it (see :meth:`version`).

        A human's move carries the seat's ``token`` and the ``session`` of the page that
        holds the seat; a bot's move names the ``bot`` kind that made it (only the table
        service, which runs the bots, stores those). ``over`` marks the move that ended the
        game. A bot's move may carry ``why``, what the bot recorded about it (kept only if
        it is small).

        Raises
        ------
        StaleMoveError
            When move ``number`` is already stored (another move came first).
        """
        text = json.dumps(action, separators=(",", ":"), ensure_ascii=False)
        if len(text) > MAX_ACTION_CHARS:
            raise TableError("this move is too long to be a move of this game")
        why_text = None
        if why is not None and bot is not None:
            why_text = json.dumps(why, separators=(",", ":"), ensure_ascii=False)
            if len(why_text) > MAX_WHY_CHARS:
                why_text = None  # the move matters, its explanation does not
        if number > MAX_SAVE_MOVES:
            raise TableClosedError("this table's game has reached the most moves a game may have")
        now = self.clock()
        with self._tx() as conn:
            table = conn.execute(sa.select(tables_t).where(tables_t.c.id == table_id)).first()
            if table is None:
                raise UnknownTableError("this table does not exist any more")
            if table.status != "playing":
                raise TableClosedError(not_playing(table.status))
            row = conn.execute(
                sa.select(seats_t).where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
            ).first()
            if row is None:
                raise SeatError(f"this table has no seat {seat + 1}")
            bot_seat = row.stand_in or (row.kind if row.kind != "human" else None)
            if bot_seat:
                if bot != bot_seat:
                    raise SeatError(f"seat {seat + 1} is played by a bot now")
            else:
                if bot is not None:
                    raise SeatError(f"seat {seat + 1} is played by its player now")
                if row.name is None:
                    raise SeatError(f"seat {seat + 1} is free: nobody plays it now")
                if token is None or row.token != digest(token):
                    raise SeatTokenError("this page does not hold this seat")
                if row.session != session:
                    raise SeatElsewhereError(
                        "your seat is now open in another tab or on another device"
                    )
            # The compare-and-set that makes the log append-only: only the next number.
            version = conn.execute(
                tables_t.update()
                .where(tables_t.c.id == table_id, tables_t.c.moves == number - 1)
                .values(
                    moves=number,
                    version=tables_t.c.version + 1,
                    updated=now,
                    status="over" if over else "playing",
                )
                .returning(tables_t.c.version)
            ).scalar()
            if version is None:
                raise StaleMoveError("the table moved on: another move was made first")
            conn.execute(
                moves_t.insert().values(
                    table_id=table_id,
                    number=number,
                    seat=seat,
                    action=text,
                    at=now,
                    why=why_text,
                    made_by=bot_seat or PLAYER_MADE,  # the seat as checked above: no guess
                )
            )
            if not bot_seat:
                conn.execute(
                    seats_t.update()
                    .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                    .values(last_seen=now)
                )
        return version

    # ---------------------------------------------------------------- retention
    def _purge_now_and_then(self, now: float) -> None:
        if now - self._last_purge >= retention.PURGE_EVERY_S:
            self._last_purge = now
            self.purge(now)

    # ---------------------------------------------------------------- helpers
    def _info(self, conn: Connection, row: Any) -> TableInfo:
        now = self.clock()
        seats = conn.execute(
            sa.select(seats_t).where(seats_t.c.table_id == row.id).order_by(seats_t.c.seat)
        ).all()
        return TableInfo(
            table_id=row.id,
            code=row.code,
            map=row.map,
            status=row.status,
            coach=row.coach,
            moves=row.moves,
            version=row.version,
            created=row.created,
            updated=row.updated,
            seats=tuple(
                SeatInfo(
                    seat=s.seat,
                    kind=s.kind,
                    name=s.name,
                    away=bool(
                        s.kind == "human"
                        and s.name is not None
                        and s.token is not None
                        and (s.last_seen is None or now - s.last_seen > AWAY_AFTER_S)
                    ),
                    stand_in=s.stand_in,
                    held_for=s.held_for,
                )
                for s in seats
            ),
            seed=int(row.deal) if row.deal else row.seed,
        )

    def _touch(self, conn: Connection, table_id: int) -> None:
        conn.execute(
            tables_t.update()
            .where(tables_t.c.id == table_id)
            .values(version=tables_t.c.version + 1, updated=self.clock())
        )


def _why(text: str | None) -> dict[str, Any] | None:
    try:
        data = json.loads(text) if text else None
    except ValueError:
        return None
    return data if isinstance(data, dict) else None
