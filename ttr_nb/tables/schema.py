"""The tables' database: its schema, and an engine for SQLite or PostgreSQL by URL.

:mod:`.store` reads and writes through these; nothing else touches the database.
"""

from __future__ import annotations

import contextlib
import sqlite3
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from ..game import MAX_NAME_CHARS

MAX_KIND_CHARS = 16
STATEMENT_TIMEOUT_S = 3.0  # the longest the store waits for a lock, a connection, a statement
SQLITE_SYNCHRONOUS = "FULL"  # see make_engine

metadata = sa.MetaData()

tables_t = sa.Table(
    "ttr_tables",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("code", sa.String(12), nullable=False, unique=True),
    sa.Column("map", sa.String(64), nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),  # tables made before "deal": their seed
    # The deal's seed, as decimal text: 128 random bits from `secrets`, more than the 64-bit
    # column above holds (a table made before this column has its seed there, and NULL here).
    sa.Column("deal", sa.Text),
    sa.Column("coach", sa.Boolean, nullable=False, default=True),
    sa.Column("status", sa.String(12), nullable=False),  # open, playing, over, closed
    sa.Column("creator", sa.String(64), nullable=False),  # digest of the creator's token
    sa.Column("moves", sa.Integer, nullable=False, default=0),
    sa.Column("version", sa.Integer, nullable=False, default=0),  # bumped by every change
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("updated", sa.Float, nullable=False, index=True),  # retention, the teacher's list
    sa.Column("bot_lease", sa.String(64)),  # unused since the table service moves the bots
    sa.Column("bot_lease_until", sa.Float),
    # Who opened the table (the teacher's bulk close by address; the caps on waiting tables).
    sa.Column("creator_page", sa.String(64)),
    sa.Column("creator_address", sa.String(64)),
    sa.Column("by_teacher", sa.Boolean),
    # Never give a deleted table's id to a new one (SQLite would reuse the highest): a page
    # still showing the old table must not find another there.
    sqlite_autoincrement=True,
)

seats_t = sa.Table(
    "ttr_seats",
    metadata,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("ttr_tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(MAX_KIND_CHARS), nullable=False),  # "human" or a bot kind
    sa.Column("name", sa.String(4 * MAX_NAME_CHARS)),
    sa.Column("token", sa.String(64), index=True),  # digest; None: a free human seat
    sa.Column("seat_code", sa.String(64)),  # digest
    sa.Column("session", sa.String(64)),  # the page that holds the seat now
    sa.Column("last_seen", sa.Float),
    sa.Column("stand_in", sa.String(MAX_KIND_CHARS)),  # a bot kind playing the seat for its human
    # A freed seat kept for a named player: only its (new) seat code takes it.
    sa.Column("held_for", sa.String(4 * MAX_NAME_CHARS)),
)

moves_t = sa.Table(
    "ttr_moves",
    metadata,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("ttr_tables.id"), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),  # 1, 2, 3 ... with no gaps
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    # A bot's move: what the bot recorded about it (JSON, for the coach's "Why that move";
    # its tickets are shown to the seats only once the game is over).
    sa.Column("why", sa.Text),
    # Who made the move, as the store saw the seat when it stored it: "player" (the seat's
    # human) or the kind of bot that moved (the seat's own bot, or one standing in for its
    # player). NULL: stored before this column existed (not recorded).
    sa.Column("made_by", sa.String(MAX_KIND_CHARS)),
)
PLAYER_MADE = "player"

# What the limits count (:mod:`.limits`): wrong codes, tables opened, seats taken, each with
# the page and the client address it came from. Rows older than the longest window go.
events_t = sa.Table(
    "ttr_limit_events",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("kind", sa.String(12), nullable=False),  # "code", "table", "seat"
    sa.Column("page", sa.String(64), nullable=False),
    sa.Column("address", sa.String(64), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("ttr_limit_events_page", "kind", "page", "at"),
    sa.Index("ttr_limit_events_address", "kind", "address", "at"),
    sa.Index("ttr_limit_events_at", "at"),
)


def create_schema(engine: Engine) -> None:
    """Make the tables that are missing, and bring a database made by an earlier version up
    to date (the move log's ``why`` and ``made_by``, the index on ``updated``; the old
    wrong-code table goes: :data:`events_t` counts wrong codes now)."""
    # Only what is missing is written: a read-only store opens (and shows its tables) too.
    inspector = sa.inspect(engine)
    existing = set(inspector.get_table_names())
    if not {t.name for t in metadata.sorted_tables} <= existing:
        metadata.create_all(engine)
    present = {c["name"] for c in inspector.get_columns("ttr_moves")}
    table_columns = {c["name"] for c in inspector.get_columns("ttr_tables")}
    indexes = {i["name"] for i in inspector.get_indexes("ttr_tables")}
    changes = []
    if "why" not in present:
        changes.append("ALTER TABLE ttr_moves ADD COLUMN why TEXT")
    if "made_by" not in present:
        changes.append(f"ALTER TABLE ttr_moves ADD COLUMN made_by VARCHAR({MAX_KIND_CHARS})")
    if "deal" not in table_columns:
        changes.append("ALTER TABLE ttr_tables ADD COLUMN deal TEXT")
    for column, kind in (
        ("creator_page", "VARCHAR(64)"),
        ("creator_address", "VARCHAR(64)"),
        ("by_teacher", "BOOLEAN"),
    ):
        if column not in table_columns:
            changes.append(f"ALTER TABLE ttr_tables ADD COLUMN {column} {kind}")
    seat_columns = {c["name"] for c in inspector.get_columns("ttr_seats")}
    if "held_for" not in seat_columns:
        changes.append(f"ALTER TABLE ttr_seats ADD COLUMN held_for VARCHAR({4 * MAX_NAME_CHARS})")
    if "ix_ttr_tables_updated" not in indexes:
        changes.append("CREATE INDEX IF NOT EXISTS ix_ttr_tables_updated ON ttr_tables (updated)")
    if "ttr_wrong_codes" in existing:
        changes.append("DROP TABLE ttr_wrong_codes")
    if changes:
        with engine.begin() as conn:
            for change in changes:
                conn.exec_driver_sql(change)


def make_engine(url: str, timeout_s: float = STATEMENT_TIMEOUT_S) -> Engine:
    """An engine for ``url``: SQLite set for many processes, or a small PostgreSQL pool.

    Both wait at most ``timeout_s`` for anything: SQLite for another writer's lock
    (``busy_timeout``), PostgreSQL to connect (``connect_timeout``), for a statement
    (``statement_timeout``) and for a row lock (``lock_timeout``). A server that stops
    answering altogether is bounded by the page's own deadline (:mod:`.bounded`).
    """
    if url.startswith("sqlite"):
        memory = url in ("sqlite://", "sqlite:///:memory:")
        connect_args: dict[str, Any] = {"timeout": timeout_s}
        if memory:  # one connection, used by the page's worker thread too (see .bounded)
            connect_args["check_same_thread"] = False
        engine = sa.create_engine(
            url, connect_args=connect_args, poolclass=sa.pool.StaticPool if memory else None
        )

        @sa.event.listens_for(engine, "connect")
        def _sqlite_settings(dbapi_conn: Any, _record: Any) -> None:
            dbapi_conn.isolation_level = None  # SQLAlchemy's BEGIN below, not the driver's
            cursor = dbapi_conn.cursor()
            with contextlib.suppress(sqlite3.OperationalError):  # a read-only file keeps its mode
                cursor.execute("PRAGMA journal_mode=WAL")
            # FULL: a commit is on the disk before the move is acknowledged, so a power
            # loss cannot take back a move a page was told is stored (NORMAL could lose
            # the last ones). The cost: one more fsync per commit (docs/tables.md).
            cursor.execute(f"PRAGMA synchronous={SQLITE_SYNCHRONOUS}")
            cursor.execute(f"PRAGMA busy_timeout={int(timeout_s * 1000)}")
            cursor.close()

        @sa.event.listens_for(engine, "begin")
        def _begin(conn: Any) -> None:
            # A transaction that may write takes the write lock at its start: two writers
            # never deadlock upgrading a read lock, they queue (busy_timeout) and the second
            # sees the first's commit. Reads never wait (WAL).
            write = conn.get_execution_options().get("ttr_write")
            conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

        return engine
    # One page does one thing at a time: one connection each (two at a burst), so a class of
    # 60 pages needs about 60 of PostgreSQL's max_connections (100 by default).
    ms = int(timeout_s * 1000)
    connect_args: dict[str, Any] = {
        "connect_timeout": max(2, round(timeout_s)),  # libpq counts whole seconds, 2 at least
        "options": f"-c statement_timeout={ms} -c lock_timeout={ms} "
        f"-c idle_in_transaction_session_timeout={10 * ms}",
    }
    query = sa.engine.make_url(url).query
    for key in list(connect_args):
        if key in query:  # the operator's own setting in the URL wins
            del connect_args[key]
    return sa.create_engine(
        url, pool_pre_ping=True, pool_size=1, max_overflow=1, connect_args=connect_args
    )
