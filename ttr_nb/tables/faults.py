"""When the table store itself fails: one sentence per fault, the details for the server log.

A database error never reaches a page as it is (it may name server paths or SQL). Every
public method of :class:`~ttr_nb.tables.store.TableStore` goes through :func:`store_call`,
which turns SQLite's and PostgreSQL's errors into a typed
:class:`~ttr_nb.errors.StoreFaultError` whose message is written for the player:

- the store did not answer in time, or cannot be reached: :class:`StoreUnavailableError`;
- the store accepts no writes (a read-only file, disk, database or standby):
  :class:`StoreReadOnlyError`;
- the disk is full: :class:`StoreFullError`.

Examples
--------
>>> import sqlite3, sqlalchemy as sa
>>> full = sqlite3.OperationalError("database or disk is full")
>>> error = sa.exc.OperationalError("INSERT", {}, full)
>>> type(store_fault(error)).__name__
'StoreFullError'
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any, TypeVar

import sqlalchemy as sa

from ..errors import (
    StoreFaultError,
    StoreFullError,
    StoreReadOnlyError,
    StoreUnavailableError,
)

log = logging.getLogger(__name__)

F = TypeVar("F", bound=Callable[..., Any])

UNAVAILABLE = "the table store cannot be reached; your moves are safe; retrying"
READ_ONLY = (
    "the table store is read-only just now, so nothing can be saved at a table (no move, "
    "no seat, no new table); your seat and your moves so far are kept: tell the teacher"
)
DISK_FULL = (
    "the table store's disk is full, so this was not saved (your moves so far are safe); "
    "tell the teacher: the server needs free space"
)
FAILED = (
    "the table store failed just now (the server's log has the details); your moves are "
    "safe: try again in a moment"
)

# SQLite's result codes (Python 3.11's sqlite3 errors carry their names).
_SQLITE_READ_ONLY = {"SQLITE_READONLY", "SQLITE_READONLY_DBMOVED", "SQLITE_READONLY_DIRECTORY"}
_SQLITE_FULL = {"SQLITE_FULL"}
# PostgreSQL's SQLSTATE classes: 25006 read_only_sql_transaction, 53100 disk_full, 53 the
# rest of "insufficient resources", 57014 query_canceled (statement_timeout), 55P03 lock not
# available (lock_timeout), 08 connection exceptions, 57P0x the server shutting down.
_PG_READ_ONLY = {"25006"}
_PG_FULL = {"53100"}
_PG_UNAVAILABLE_PREFIXES = ("08", "53", "57P", "57014", "55P03", "40001", "40P01")


def store_fault(exc: BaseException) -> StoreFaultError:
    """The :class:`~ttr_nb.errors.StoreFaultError` that ``exc`` (a database error) means."""
    orig = getattr(exc, "orig", None) or exc
    name = getattr(orig, "sqlite_errorname", None)
    state = getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)
    text = str(orig).lower()
    if name in _SQLITE_READ_ONLY or state in _PG_READ_ONLY or "readonly database" in text:
        return StoreReadOnlyError(READ_ONLY)
    if name in _SQLITE_FULL or state in _PG_FULL or "disk is full" in text:
        return StoreFullError(DISK_FULL)
    if (
        isinstance(exc, sa.exc.TimeoutError)
        or (name or "").startswith(("SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_CANTOPEN"))
        or (state or "").startswith(_PG_UNAVAILABLE_PREFIXES)
        or getattr(exc, "connection_invalidated", False)
        or (isinstance(exc, sa.exc.OperationalError) and state is None and name is None)
    ):
        return StoreUnavailableError(UNAVAILABLE)
    return StoreFaultError(FAILED)


def store_call(method: F) -> F:
    """Decorate a store method: a database error becomes a typed fault with a sentence
    (and is logged, with its details, for the server's log)."""

    @functools.wraps(method)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return method(*args, **kwargs)
        except (sa.exc.DBAPIError, sa.exc.TimeoutError) as exc:
            fault = store_fault(exc)
            log.warning(
                "table store: %s failed (%s): %s",
                method.__name__,
                type(fault).__name__,
                exc,
                exc_info=not isinstance(fault, StoreUnavailableError | StoreReadOnlyError),
            )
            raise fault from exc

    return call  # type: ignore[return-value]
