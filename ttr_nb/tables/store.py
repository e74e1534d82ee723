"""Shared tables in a database: a table is its settings plus an append-only, numbered move log.

Map, seed and moves decide a game, so that is all a table stores; every page that shows the
table rebuilds the game from them (:class:`~ttr_nb.tables.client.TableClient`). A move is
stored only if it is the next number: two clicks that race for the same number cannot both
land, the loser is told the table moved on (:class:`~ttr_nb.errors.StaleMoveError`), and
nothing is applied twice.

The database is reached through SQLAlchemy Core, by URL: one SQLite file on the server
(the default, :func:`default_url`) or PostgreSQL (``postgresql+psycopg://...``) when the
pages of one class run on several machines. Pages learn of changes by a cheap poll of one
row (:meth:`TableStore.version`).

Secrets (seat tokens, seat codes, the creator's token) are stored as SHA-256 digests only;
the seed never leaves the store while a game runs except to rebuild it inside the server.

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
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ..errors import (
    SeatElsewhereError,
    SeatError,
    SeatTokenError,
    StaleMoveError,
    TableClosedError,
    TableError,
    TooManyAttemptsError,
    UnknownTableError,
)
from ..game import MAX_SAVE_MOVES, PlayerNameError, checked_names
from .codes import digest, new_code, new_token, normal_code
from .schema import (
    MAX_KIND_CHARS,
    attempts_t,
    create_schema,
    make_engine,
    moves_t,
    seats_t,
    tables_t,
)

URL_ENV = "TTR_TABLES_URL"
AWAY_AFTER_S = 180.0  # a seat not seen for 3 minutes shows as away
MAX_OPEN_TABLES = 500  # tables not closed and active in the last day, over the whole server
MAX_ACTION_CHARS = 2_000  # one action as JSON; real ones are under 200
MAX_WHY_CHARS = 8_000  # a bot's record of one move; real ones are under 2,000
WRONG_CODES_PER_PAGE = 8  # wrong join or seat codes one page may type per minute
WRONG_CODES_PER_SERVER = 200  # ... and all pages together (many tabs cannot guess faster)


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


def open_store(factory: Callable[[], TableStore] | None = None) -> TableStore:
    """The table store from ``factory`` (tests, a teacher's own), else the server's."""
    return factory() if factory is not None else TableStore()


@dataclass(frozen=True)
class SeatInfo:
    """One seat as every player at the table may see it."""

    seat: int
    kind: str  # "human" or a bot kind
    name: str | None  # None: a human seat nobody has taken yet
    away: bool = False  # a human not seen for AWAY_AFTER_S
    stand_in: str | None = None  # the bot kind playing for an absent human

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


@dataclass(frozen=True)
class Seated:
    """A page's place at a table: which seat, and the secrets to come back with."""

    table_id: int
    code: str
    seat: int | None  # None: the creator watches without a seat
    token: str | None = None  # keep in the browser; None when re-entering without a new one
    seat_code: str | None = None  # to type on another device
    creator_token: str | None = None  # only for the table's creator


class TableStore:
    """Tables, seats and move logs in a database (SQLite file or PostgreSQL, by URL).

    Every method runs in its own transaction and either does all it says or raises a
    :class:`~ttr_nb.errors.TableError` and changes nothing.

    Parameters
    ----------
    url : str
        An SQLAlchemy URL: ``sqlite:///path/tables.sqlite``, ``sqlite://`` (in memory, one
        process), ``postgresql+psycopg://user@host/db`` (or ``?host=/socket/dir``).
    clock : callable
        Seconds since the epoch (tests pass their own).
    """

    def __init__(self, url: str | None = None, clock: Callable[[], float] = time.time) -> None:
        self.url = url or default_url()
        self.clock = clock
        self.engine = make_engine(self.url)
        create_schema(self.engine)

    def dispose(self) -> None:
        """Close the store's database connections."""
        self.engine.dispose()

    @contextmanager
    def _tx(self) -> Iterator[Connection]:
        """A transaction that may write (SQLite: it takes the write lock at its start)."""
        with self.engine.connect().execution_options(ttr_write=True) as conn, conn.begin():
            yield conn

    # ---------------------------------------------------------------- making tables
    def create_table(
        self,
        map_id: str,
        seats: list[str],
        creator_name: str | None,
        session: str,
        coach: bool = True,
        seed: int | None = None,
    ) -> Seated:
        """Open a table; its creator takes the first human seat (when ``creator_name`` is
        given) and gets the creator's token (give seats to bots, start, close).

        ``seats`` lists each seat's kind: ``"human"`` (a player who joins) or a bot kind.
        When every human seat is taken the game starts.
        """
        from ..rules import playable_maps  # the rules import the maps at start-up

        if map_id not in playable_maps():
            raise TableError(f"{map_id!r} is not a map that can be played here")
        if not 2 <= len(seats) <= 5:
            raise TableError(f"a table has 2 to 5 seats, not {len(seats)}")
        for kind in seats:
            if kind != "human":
                _check_bot(kind)
        if creator_name is not None:
            if "human" not in seats:
                raise SeatError("there is no seat for a player at this table")
            _checked_name(creator_name)
        now = self.clock()
        creator_token = new_token()
        with self._tx() as conn:
            active = conn.execute(
                sa.select(sa.func.count())
                .select_from(tables_t)
                .where(tables_t.c.status.in_(("open", "playing")), tables_t.c.updated > now - 86400)
            ).scalar_one()
            if active >= MAX_OPEN_TABLES:
                raise TableError(
                    f"this server already has {MAX_OPEN_TABLES} open tables; ask the teacher to "
                    "close finished ones"
                )
            code = self._unused_code(conn)
            table_id = conn.execute(
                tables_t.insert().values(
                    code=code,
                    map=map_id,
                    seed=seed if seed is not None else random.SystemRandom().randrange(10**9),
                    coach=bool(coach),
                    status="open",
                    creator=digest(creator_token),
                    moves=0,
                    version=0,
                    created=now,
                    updated=now,
                )
            ).inserted_primary_key[0]
            conn.execute(
                seats_t.insert(),
                [
                    {
                        "table_id": table_id,
                        "seat": i,
                        "kind": kind,
                        "name": None if kind == "human" else _bot_name(kind, i),
                    }
                    for i, kind in enumerate(seats)
                ],
            )
            seated = Seated(table_id, code, None, creator_token=creator_token)
            if creator_name is not None:
                joined = self._take_seat(
                    conn, table_id, seats.index("human"), creator_name, session
                )
                seated = Seated(
                    table_id, code, joined.seat, joined.token, joined.seat_code, creator_token
                )
            self._start_if_full(conn, table_id)
        return seated

    def _unused_code(self, conn: Connection) -> str:
        for _ in range(20):
            code = new_code()
            taken = conn.execute(sa.select(tables_t.c.id).where(tables_t.c.code == code)).first()
            if taken is None:
                return code
        raise TableError("could not find a free table code; try again")

    # ---------------------------------------------------------------- joining
    def table(self, code: str, page: str | None = None) -> TableInfo:
        """The table with join code ``code`` (typed in any case, with or without the space).

        A wrong code counts against ``page`` (and the whole server): past
        ``WRONG_CODES_PER_PAGE`` a minute, :class:`TooManyAttemptsError`.
        """
        with self._tx() as conn:
            self._check_attempts(conn, page)
            normal = normal_code(code)
            row = None
            if normal is not None:
                row = conn.execute(sa.select(tables_t).where(tables_t.c.code == normal)).first()
            if row is not None:
                return self._info(conn, row)
        self._wrong_code(page)
        raise UnknownTableError(
            "no table has this code: check it with the table's creator (codes have six "
            "letters and digits, like K7Q X4M)"
        )

    def table_by_id(self, table_id: int) -> TableInfo:
        """The table with this id (UnknownTableError when it is gone)."""
        with self._tx() as conn:
            row = conn.execute(sa.select(tables_t).where(tables_t.c.id == table_id)).first()
            if row is None:
                raise UnknownTableError("this table does not exist any more")
            return self._info(conn, row)

    def join(self, code: str, name: str, seat: int, session: str) -> Seated:
        """Take free human seat ``seat`` (0-based) at the table with join code ``code``."""
        _checked_name(name)
        info = self.table(code, page=session)
        if info.status == "closed":
            raise TableClosedError("this table was closed")
        if info.status == "over":
            raise TableClosedError("the game at this table is over")
        with self._tx() as conn:
            seated = self._take_seat(conn, info.table_id, seat, name, session)
            self._start_if_full(conn, info.table_id)
        return Seated(info.table_id, info.code, seated.seat, seated.token, seated.seat_code)

    def _take_seat(
        self, conn: Connection, table_id: int, seat: int, name: str, session: str
    ) -> Seated:
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
        taken = {r.name.casefold() for r in rows if r.name}
        if name.strip().casefold() in taken:
            raise SeatError(f"someone at this table is already called {name.strip()}")
        token, seat_code = new_token(), new_code()
        done = conn.execute(
            seats_t.update()
            .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat, seats_t.c.name.is_(None))
            .values(
                name=name.strip(),
                token=digest(token),
                seat_code=digest(seat_code),
                session=session,
                last_seen=self.clock(),
            )
        ).rowcount
        if done != 1:  # another page took it between our read and write
            raise SeatError(f"seat {seat + 1} was just taken by someone else")
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

    def rejoin(self, token: str, session: str) -> Seated:
        """Come back to a seat with the token the browser kept (this page now holds it)."""
        if not isinstance(token, str) or not 10 <= len(token) <= 100:
            raise SeatTokenError("this seat token is not one this server gave out")
        with self._tx() as conn:
            row = conn.execute(sa.select(seats_t).where(seats_t.c.token == digest(token))).first()
            if row is None:
                raise SeatTokenError(
                    "this browser's seat is no longer valid (the seat was opened on another "
                    "device with its seat code, or given to someone else): type your seat code "
                    "to come back"
                )
            return self._enter(conn, row, session, token=None)

    def rejoin_by_code(self, code: str, seat_code: str, session: str) -> Seated:
        """Come back to a seat by typing the table's code and the seat code (another device).

        The seat gets a new token for this browser; the old browser's token stops working.
        """
        info = self.table(code, page=session)
        with self._tx() as conn:
            self._check_attempts(conn, session)
            normal = normal_code(seat_code)
            row = None
            if normal is not None:
                row = conn.execute(
                    sa.select(seats_t).where(
                        seats_t.c.table_id == info.table_id,
                        seats_t.c.seat_code == digest(normal),
                    )
                ).first()
            if row is not None:
                token = new_token()
                conn.execute(
                    seats_t.update()
                    .where(seats_t.c.table_id == row.table_id, seats_t.c.seat == row.seat)
                    .values(token=digest(token))
                )
                return self._enter(conn, row, session, token=token)
        self._wrong_code(session)
        raise SeatTokenError("no seat at this table has this seat code")

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

    def heartbeat(self, table_id: int, seat: int, session: str) -> None:
        """The page holding ``seat`` is still open. Raises :class:`SeatElsewhereError` when
        another page took the seat over (a second tab, another device)."""
        with self._tx() as conn:
            row = conn.execute(
                sa.select(seats_t.c.session, seats_t.c.last_seen).where(
                    seats_t.c.table_id == table_id, seats_t.c.seat == seat
                )
            ).first()
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

    # ---------------------------------------------------------------- the creator
    def _creator_table(self, conn: Connection, table_id: int, creator_token: str) -> Any:
        row = conn.execute(sa.select(tables_t).where(tables_t.c.id == table_id)).first()
        if row is None:
            raise UnknownTableError("this table does not exist any more")
        if not isinstance(creator_token, str) or digest(creator_token) != row.creator:
            raise SeatTokenError("only the table's creator can do this")
        return row

    def start_now(self, table_id: int, creator_token: str, bot: str = "greedy") -> None:
        """The creator starts without waiting: bots of kind ``bot`` take the free seats."""
        _check_bot(bot)
        with self._tx() as conn:
            table = self._creator_table(conn, table_id, creator_token)
            if table.status != "open":
                raise TableClosedError(
                    "the game has already started"
                    if table.status == "playing"
                    else _not_playing(table.status)
                )
            free = conn.execute(
                sa.select(seats_t.c.seat).where(
                    seats_t.c.table_id == table_id,
                    seats_t.c.kind == "human",
                    seats_t.c.name.is_(None),
                )
            ).scalars()
            for seat in list(free):
                conn.execute(
                    seats_t.update()
                    .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                    .values(kind=bot, name=_bot_name(bot, seat))
                )
            self._start_if_full(conn, table_id)
            self._touch(conn, table_id)

    def give_to_bot(self, table_id: int, creator_token: str, seat: int, kind: str) -> None:
        """The creator lets bot ``kind`` play a player's ``seat`` (its player is away) until
        :meth:`take_back`; the player keeps the seat and sees the bot's moves."""
        _check_bot(kind)
        with self._tx() as conn:
            self._creator_table(conn, table_id, creator_token)
            done = conn.execute(
                seats_t.update()
                .where(
                    seats_t.c.table_id == table_id,
                    seats_t.c.seat == seat,
                    seats_t.c.kind == "human",
                    seats_t.c.name.is_not(None),
                )
                .values(stand_in=kind)
            ).rowcount
            if done != 1:
                raise SeatError(f"seat {seat + 1} has no player to stand in for")
            self._touch(conn, table_id)

    def take_back(self, table_id: int, creator_token: str, seat: int) -> None:
        """The seat's human plays it again (the bot that stood in stops)."""
        with self._tx() as conn:
            self._creator_table(conn, table_id, creator_token)
            conn.execute(
                seats_t.update()
                .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                .values(stand_in=None)
            )
            self._touch(conn, table_id)

    def close_table(
        self, table_id: int, creator_token: str | None = None, teacher: bool = False
    ) -> None:
        """Close a table (its creator, or the teacher's page): pages show it closed."""
        with self._tx() as conn:
            if not teacher:
                self._creator_table(conn, table_id, creator_token or "")
            conn.execute(
                tables_t.update()
                .where(tables_t.c.id == table_id, tables_t.c.status != "over")
                .values(status="closed")
            )
            self._touch(conn, table_id)

    def set_coach(
        self, table_id: int, on: bool, creator_token: str | None = None, teacher: bool = False
    ) -> None:
        """Let the table's players open the coach, or not (a graded game): its creator, or
        the teacher's page. Every page follows at its next look."""
        with self._tx() as conn:
            if not teacher:
                self._creator_table(conn, table_id, creator_token or "")
            conn.execute(tables_t.update().where(tables_t.c.id == table_id).values(coach=bool(on)))
            self._touch(conn, table_id)

    # ---------------------------------------------------------------- moves
    def version(self, table_id: int) -> int:
        """A number that changes whenever anything at the table does (the cheap poll)."""
        with self.engine.connect() as conn:
            value = conn.execute(
                sa.select(tables_t.c.version).where(tables_t.c.id == table_id)
            ).scalar()
        if value is None:
            raise UnknownTableError("this table does not exist any more")
        return value

    def moves(self, table_id: int, after: int = 0) -> list[Move]:
        """The moves numbered above ``after``, in order."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(moves_t)
                .where(moves_t.c.table_id == table_id, moves_t.c.number > after)
                .order_by(moves_t.c.number)
            ).all()
        return [Move(r.number, r.seat, json.loads(r.action), r.at, _why(r.why)) for r in rows]

    def append(
        self,
        table_id: int,
        number: int,
        seat: int,
        action: dict[str, Any],
        *,
        token: str | None = None,
        session: str | None = None,
        lease: str | None = None,
        over: bool = False,
        why: dict[str, Any] | None = None,
    ) -> int:
        """Store move ``number`` (the next one) for ``seat``; returns the table's version
        number after it (see :meth:`version`).

        A human's move carries the seat's ``token`` and the ``session`` of the page that
        holds the seat; a bot's move carries the ``lease`` of the page that moves the bots
        (:meth:`claim_bot_turn`). ``over`` marks the move that ended the game. A bot's
        move may carry ``why``, what the bot recorded about it (kept only if it is small).

        Raises
        ------
        StaleMoveError
            When move ``number`` is already stored (another move came first).
        """
        text = json.dumps(action, separators=(",", ":"), ensure_ascii=False)
        if len(text) > MAX_ACTION_CHARS:
            raise TableError("this move is too long to be a move of this game")
        why_text = None
        if why is not None and lease is not None:
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
                raise TableClosedError(_not_playing(table.status))
            row = conn.execute(
                sa.select(seats_t).where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
            ).first()
            if row is None:
                raise SeatError(f"this table has no seat {seat + 1}")
            bot_seat = row.stand_in or (row.kind if row.kind != "human" else None)
            if bot_seat:
                if lease is None or table.bot_lease != lease:
                    raise SeatError(f"seat {seat + 1} is played by a bot now")
            else:
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
                    bot_lease=None,
                    bot_lease_until=None,
                )
                .returning(tables_t.c.version)
            ).scalar()
            if version is None:
                raise StaleMoveError("the table moved on: another move was made first")
            conn.execute(
                moves_t.insert().values(
                    table_id=table_id, number=number, seat=seat, action=text, at=now, why=why_text
                )
            )
            if not bot_seat:
                conn.execute(
                    seats_t.update()
                    .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                    .values(last_seen=now)
                )
        return version

    def claim_bot_turn(self, table_id: int, number: int, holder: str, seconds: float) -> bool:
        """Ask to compute the bots' move ``number``; True for exactly one page at a time.

        The lease lasts ``seconds`` (the bot's thinking time and some): if that page goes
        away, another page may take the turn after it.
        """
        now = self.clock()
        with self._tx() as conn:
            done = conn.execute(
                tables_t.update()
                .where(
                    tables_t.c.id == table_id,
                    tables_t.c.moves == number - 1,
                    tables_t.c.status == "playing",
                    sa.or_(
                        tables_t.c.bot_lease.is_(None),
                        tables_t.c.bot_lease_until < now,
                        tables_t.c.bot_lease == holder,
                    ),
                )
                .values(bot_lease=holder, bot_lease_until=now + seconds)
            ).rowcount
        return done == 1

    # ---------------------------------------------------------------- the teacher
    def list_tables(self, limit: int = 200) -> list[TableInfo]:
        """The most recently active tables first (at most ``limit``)."""
        with self._tx() as conn:
            rows = conn.execute(
                sa.select(tables_t).order_by(tables_t.c.updated.desc()).limit(limit)
            ).all()
            return [self._info(conn, row) for row in rows]

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
                )
                for s in seats
            ),
            seed=row.seed,
        )

    def _touch(self, conn: Connection, table_id: int) -> None:
        conn.execute(
            tables_t.update()
            .where(tables_t.c.id == table_id)
            .values(version=tables_t.c.version + 1, updated=self.clock())
        )

    def _check_attempts(self, conn: Connection, page: str | None) -> None:
        now = self.clock()
        conn.execute(attempts_t.delete().where(attempts_t.c.at < now - 60))
        recent = conn.execute(
            sa.select(sa.func.count()).select_from(attempts_t).where(attempts_t.c.at >= now - 60)
        ).scalar_one()
        mine = 0
        if page is not None:
            mine = conn.execute(
                sa.select(sa.func.count())
                .select_from(attempts_t)
                .where(attempts_t.c.page == page, attempts_t.c.at >= now - 60)
            ).scalar_one()
        if mine >= WRONG_CODES_PER_PAGE or recent >= WRONG_CODES_PER_SERVER:
            raise TooManyAttemptsError(
                "too many wrong codes were typed in the last minute: wait a minute, then check "
                "the code with the table's creator"
            )

    def _wrong_code(self, page: str | None) -> None:
        """Count a wrong code (in a transaction of its own: the refusal that follows must
        not roll it back)."""
        with self._tx() as conn:
            conn.execute(attempts_t.insert().values(page=page or "?", at=self.clock()))


def _why(text: str | None) -> dict[str, Any] | None:
    try:
        data = json.loads(text) if text else None
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _not_playing(status: str) -> str:
    return {
        "open": "the game has not started: some seats are still free",
        "over": "the game at this table is over",
        "closed": "this table was closed",
    }.get(status, f"the table is {status}")


def _check_bot(kind: Any) -> None:
    from ..bots import bot_name_problem  # the bots import the whole engine: only when needed

    problem = bot_name_problem(kind)
    if problem is None and len(kind) > MAX_KIND_CHARS:
        problem = f"a bot's name has at most {MAX_KIND_CHARS} characters"
    if problem is not None:
        raise TableError(problem)


def _bot_name(kind: str, seat: int) -> str:
    return f"Bot {seat + 1} ({kind})"


def _checked_name(name: Any) -> None:
    try:
        checked_names([name, "x"])
    except PlayerNameError as exc:
        raise SeatError(f"your name {exc.reason}") from None
    except ValueError as exc:
        raise SeatError(str(exc)) from None
