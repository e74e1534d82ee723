"""The tables' database: its schema, and an engine for SQLite or PostgreSQL by URL.

:mod:`.store` reads and writes through these; nothing else touches the database.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from ..game import MAX_NAME_CHARS

MAX_KIND_CHARS = 16

metadata = sa.MetaData()

tables_t = sa.Table(
    "ttr_tables",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("code", sa.String(12), nullable=False, unique=True),
    sa.Column("map", sa.String(64), nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("coach", sa.Boolean, nullable=False, default=True),
    sa.Column("status", sa.String(12), nullable=False),  # open, playing, over, closed
    sa.Column("creator", sa.String(64), nullable=False),  # digest of the creator's token
    sa.Column("moves", sa.Integer, nullable=False, default=0),
    sa.Column("version", sa.Integer, nullable=False, default=0),  # bumped by every change
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
    sa.Column("bot_lease", sa.String(64)),
    sa.Column("bot_lease_until", sa.Float),
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
)

attempts_t = sa.Table(
    "ttr_wrong_codes",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("page", sa.String(64), nullable=False, index=True),
    sa.Column("at", sa.Float, nullable=False, index=True),
)


def create_schema(engine: Engine) -> None:
    """Make the tables that are missing, and add the columns later versions added to a
    database made by an earlier one (the move log's ``why``)."""
    metadata.create_all(engine)
    present = {c["name"] for c in sa.inspect(engine).get_columns("ttr_moves")}
    if "why" not in present:
        with engine.begin() as conn:
            conn.exec_driver_sql("ALTER TABLE ttr_moves ADD COLUMN why TEXT")


def make_engine(url: str) -> Engine:
    """An engine for ``url``: SQLite set for many processes, or a small PostgreSQL pool."""
    if url.startswith("sqlite"):
        engine = sa.create_engine(
            url,
            connect_args={"timeout": 30},
            # One file, many processes: each statement waits for the writer before it.
            poolclass=sa.pool.StaticPool if url in ("sqlite://", "sqlite:///:memory:") else None,
        )

        @sa.event.listens_for(engine, "connect")
        def _sqlite_settings(dbapi_conn: Any, _record: Any) -> None:
            dbapi_conn.isolation_level = None  # SQLAlchemy's BEGIN below, not the driver's
            cursor = dbapi_conn.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA busy_timeout=30000")
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
    return sa.create_engine(url, pool_pre_ping=True, pool_size=1, max_overflow=1)
