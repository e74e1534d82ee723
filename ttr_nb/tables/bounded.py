"""A page's table store with a deadline: no click, poll or refresh waits on a hung database.

The database's own timeouts (:func:`~ttr_nb.tables.schema.make_engine`) fire only in a
database that runs: a PostgreSQL server that is stopped (``SIGSTOP``), or a network that
drops packets, answers nothing at all, and a call into it would wait for ever. So a page's
store calls run on one worker thread of the page's own, and the page waits for each at most
``deadline_s`` seconds. Past it the call raises
:class:`~ttr_nb.errors.StoreUnavailableError` ("the table store cannot be reached; your
moves are safe; retrying"); while that call is still stuck, every later call says the same
at once instead of queueing behind it. When the stuck call returns (the store is back),
the next call goes through, and play goes on.

A move whose call timed out may still be stored when the store comes back: the page then
finds it in the table's log at its next look, as every page finds every move.

Examples
--------
>>> from ttr_nb.tables.store import TableStore
>>> store = BoundedStore(TableStore("sqlite://"), deadline_s=5)
>>> made = store.create_table("usa", ["human", "greedy"], "Ann", session="p")
>>> store.table(made.code).status
'playing'
"""

from __future__ import annotations

import concurrent.futures
import logging
import os
import threading
from collections.abc import Callable
from typing import Any

from ..errors import StoreUnavailableError
from .faults import UNAVAILABLE

log = logging.getLogger(__name__)

DEADLINE_ENV = "TTR_TABLES_TIMEOUT_S"
DEADLINE_S = 4.0  # a store call that takes longer makes the page say the store is unreachable


def default_deadline() -> float:
    """``$TTR_TABLES_TIMEOUT_S`` (the server sets it from ``voila.json``), else 4 s."""
    try:
        value = float(os.environ.get(DEADLINE_ENV, ""))
    except ValueError:
        return DEADLINE_S
    return value if value > 0 else DEADLINE_S


class BoundedStore:
    """Forwards every call to ``store`` on a worker thread; waits ``deadline_s`` at most.

    Attributes that are not methods (``url``, ``engine`` ...) are read from ``store`` as
    they are. ``stuck`` tells whether a call is still waiting on the store.
    """

    def __init__(self, store: Any, deadline_s: float | None = None) -> None:
        self.store = store
        self.deadline_s = deadline_s if deadline_s is not None else default_deadline()
        self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="ttr-store")
        self._stuck: concurrent.futures.Future[Any] | None = None
        self._lock = threading.Lock()

    @property
    def stuck(self) -> bool:
        """True while a call that ran past its deadline has not returned yet."""
        return self._stuck is not None and not self._stuck.done()

    def __getattr__(self, name: str) -> Any:
        value = getattr(self.store, name)
        if name.startswith("_") or not callable(value):
            return value

        def bounded(*args: Any, **kwargs: Any) -> Any:
            return self.call(value, *args, **kwargs)

        bounded.__name__ = name
        bounded.__doc__ = value.__doc__
        return bounded

    def call(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``fn(*args, **kwargs)`` on the worker thread, within the deadline."""
        with self._lock:
            if self.stuck:
                raise StoreUnavailableError(UNAVAILABLE)
            future = self._pool.submit(fn, *args, **kwargs)
        try:
            return future.result(timeout=self.deadline_s)
        except concurrent.futures.TimeoutError:
            with self._lock:
                self._stuck = future
            future.add_done_callback(_log_late)
            log.warning(
                "table store: %s took longer than %g s; the page says the store cannot be "
                "reached until it returns",
                getattr(fn, "__name__", fn),
                self.deadline_s,
            )
            raise StoreUnavailableError(UNAVAILABLE) from None

    def dispose(self) -> None:
        """Close the store's connections and the worker (without waiting for a stuck call)."""
        self._pool.shutdown(wait=False, cancel_futures=True)
        if not self.stuck:
            self.store.dispose()


def _log_late(future: concurrent.futures.Future[Any]) -> None:
    error = future.exception()
    if error is None:
        log.info("table store: a late call returned; the store answers again")
    else:
        log.info("table store: a late call ended with %s", type(error).__name__)
