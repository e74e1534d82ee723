"""How long tables are kept, and how big the store may grow.

**Retention.** A table whose last activity (a move, a seat taken, a close ...) is older than
``retention_days`` is deleted with its seats and moves, whatever its state: finished,
closed, or abandoned (nobody moved for that long). The server sets the period in
``voila.json`` (``ClassroomKernelManager.tables_retention_days``), which reaches the store as
``$TTR_TABLES_RETENTION_DAYS``; the store purges at most once every few minutes, when a
table is opened, and the teacher's page may ask for it (:meth:`TableStore.purge`).

**A size bound.** The store's data (the move log, what bots recorded, the tables and seats)
may take ``max_mb`` megabytes (``tables_max_mb``, ``$TTR_TABLES_MAX_MB``). Past it, opening a
table first deletes the oldest tables that are over, closed or idle for a day, and if the
data is still too big the new table is refused with a sentence. Games already running go
on (a game is bounded: at most ``MAX_SAVE_MOVES`` moves of a few hundred bytes).

:func:`store_size` reports the size for the teacher's page: the bytes of data (counted the
same way on SQLite and PostgreSQL) and the space the database takes on disk.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from .schema import moves_t, seats_t, tables_t

RETENTION_ENV = "TTR_TABLES_RETENTION_DAYS"
MAX_MB_ENV = "TTR_TABLES_MAX_MB"
RETENTION_DAYS = 30.0
MAX_MB = 500.0
PURGE_EVERY_S = 300.0  # a store purges at most this often by itself
PURGE_BATCH = 200  # tables deleted per transaction (a purge never holds the store long)
IDLE_S = 86400.0  # a table that nobody touched for a day may go first when the store is full
ROW_BYTES = 64  # what a row costs besides its text, in the size estimate


def _setting(env: str, default: float) -> float:
    try:
        value = float(os.environ.get(env, ""))
    except ValueError:
        return default
    return value if value > 0 else default


def retention_days() -> float:
    """``$TTR_TABLES_RETENTION_DAYS`` (set by the server from ``voila.json``), else 30."""
    return _setting(RETENTION_ENV, RETENTION_DAYS)


def max_mb() -> float:
    """``$TTR_TABLES_MAX_MB`` (set by the server from ``voila.json``), else 500."""
    return _setting(MAX_MB_ENV, MAX_MB)


@dataclass(frozen=True)
class StoreSize:
    """How big the table store is (for the teacher's page).

    Attributes
    ----------
    data_bytes : int
        The tables' data: move texts, bots' records, names, plus a fixed cost per row.
        The size bound (``limit_bytes``) applies to it.
    disk_bytes : int
        What the database takes on disk (SQLite: the file and its write-ahead log;
        PostgreSQL: the database). Freed space is reused before the file grows.
    tables, moves : int
        How many tables and stored moves the store holds.
    limit_bytes : int
        The bound on ``data_bytes``.
    """

    data_bytes: int
    disk_bytes: int
    tables: int
    moves: int
    limit_bytes: int

    @property
    def full(self) -> bool:
        """Whether the store holds as much as its bound allows."""
        return self.data_bytes >= self.limit_bytes

    def describe(self) -> str:
        """One line for the teacher: "1.2 MB of 500 MB (3 tables, 240 moves; 4.1 MB on disk)"."""
        return (
            f"{_mb(self.data_bytes)} of {_mb(self.limit_bytes)} ({self.tables:,} tables, "
            f"{self.moves:,} moves; {_mb(self.disk_bytes)} on disk)"
        )


def _mb(n: int) -> str:
    return f"{n / 1e6:,.1f} MB"


def data_bytes(conn: Connection) -> tuple[int, int, int]:
    """(bytes of data, tables, moves), counted alike on SQLite and PostgreSQL."""
    moves, move_bytes = conn.execute(
        sa.select(
            sa.func.count(),
            sa.func.coalesce(
                sa.func.sum(
                    sa.func.length(moves_t.c.action)
                    + sa.func.coalesce(sa.func.length(moves_t.c.why), 0)
                ),
                0,
            ),
        ).select_from(moves_t)
    ).one()
    tables = conn.execute(sa.select(sa.func.count()).select_from(tables_t)).scalar_one()
    seats = conn.execute(sa.select(sa.func.count()).select_from(seats_t)).scalar_one()
    total = int(move_bytes) + ROW_BYTES * (moves + seats) + 4 * ROW_BYTES * tables
    return total, tables, moves


def disk_bytes(conn: Connection, url: str) -> int:
    """What the database takes on disk."""
    if conn.dialect.name == "postgresql":
        return int(conn.execute(sa.text("SELECT pg_database_size(current_database())")).scalar())
    page_count = conn.exec_driver_sql("PRAGMA page_count").scalar() or 0
    page_size = conn.exec_driver_sql("PRAGMA page_size").scalar() or 0
    total = int(page_count) * int(page_size)
    database = sa.engine.make_url(url).database
    if database and database != ":memory:":
        wal = Path(f"{database}-wal")
        if wal.exists():
            total = max(total, Path(database).stat().st_size) + wal.stat().st_size
    return total


def store_size(conn: Connection, url: str, limit_bytes: int) -> StoreSize:
    """The store's :class:`StoreSize`."""
    data, tables, moves = data_bytes(conn)
    return StoreSize(data, disk_bytes(conn, url), tables, moves, limit_bytes)


def delete_tables(conn: Connection, ids: list[int]) -> int:
    """Delete the tables ``ids`` with their seats and moves."""
    if not ids:
        return 0
    conn.execute(moves_t.delete().where(moves_t.c.table_id.in_(ids)))
    conn.execute(seats_t.delete().where(seats_t.c.table_id.in_(ids)))
    conn.execute(tables_t.delete().where(tables_t.c.id.in_(ids)))
    return len(ids)


def expired(conn: Connection, now: float, keep_s: float) -> list[int]:
    """Up to :data:`PURGE_BATCH` tables whose last activity is older than ``keep_s``."""
    return list(
        conn.execute(
            sa.select(tables_t.c.id)
            .where(tables_t.c.updated < now - keep_s)
            .order_by(tables_t.c.updated)
            .limit(PURGE_BATCH)
        ).scalars()
    )


def to_free(conn: Connection, now: float, excess: int) -> list[int]:
    """The least recently active tables that are over, closed or idle for a day (what goes
    first when the store is full), as few as free ``excess`` bytes of data (or all)."""
    size = sa.func.coalesce(
        sa.func.sum(
            sa.func.length(moves_t.c.action)
            + sa.func.coalesce(sa.func.length(moves_t.c.why), 0)
            + ROW_BYTES
        ),
        0,
    )
    rows = conn.execute(
        sa.select(tables_t.c.id, size)
        .select_from(tables_t.outerjoin(moves_t, moves_t.c.table_id == tables_t.c.id))
        .where(
            sa.or_(
                tables_t.c.status.in_(("over", "closed")),
                tables_t.c.updated < now - IDLE_S,
            )
        )
        .group_by(tables_t.c.id, tables_t.c.updated)
        .order_by(tables_t.c.updated)
        .limit(10 * PURGE_BATCH)
    ).all()
    chosen, freed = [], 0
    for table_id, moves_bytes in rows:
        if freed >= excess:
            break
        chosen.append(table_id)
        freed += int(moves_bytes) + 8 * ROW_BYTES  # the table and its seats
    return chosen
