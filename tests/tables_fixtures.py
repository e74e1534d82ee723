"""Fixtures of the table tests: a real PostgreSQL server and a store on each database.

Test modules import them (``from tables_fixtures import postgres_url, store``): every test
that takes ``store`` runs twice, on one SQLite file (the embedded default) and on a
PostgreSQL server that the test session starts from Debian's package (``tools/pg_server.py``).
"""

from __future__ import annotations

import contextlib
import importlib.util
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ttr_nb.tables import TableStore

REPO = Path(__file__).resolve().parent.parent


def pg_server() -> Any:
    """``tools/pg_server.py`` as a module."""
    spec = importlib.util.spec_from_file_location("pg_server", REPO / "tools" / "pg_server.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    pg = pg_server()
    if pg.postgres_bin() is None:
        pytest.fail("PostgreSQL is not installed: `make test` installs it (make db-deps)")
    with pg.temporary_postgres() as url:
        yield url


class Clock:
    """A clock the tests move by hand (away detection, leases, rate limits, retention)."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def empty(store: TableStore) -> None:
    """Delete every row of the store (the PostgreSQL server serves the whole session)."""
    import sqlalchemy as sa

    from ttr_nb.tables.schema import metadata

    with store.engine.begin() as conn:
        for table in reversed(metadata.sorted_tables):
            conn.execute(sa.delete(table))


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TableStore]:
    clock = Clock()
    if request.param == "sqlite":
        made = TableStore(f"sqlite:///{tmp_path / 'tables.sqlite'}", clock=clock)
    else:
        made = TableStore(request.getfixturevalue("postgres_url"), clock=clock)
    made.test_clock = clock  # type: ignore[attr-defined]
    yield made
    if request.param == "postgresql":
        empty(made)
    made.dispose()


# ---------------------------------------------------------------------- the table service
def service_for(store: TableStore) -> Any:
    """The table service over ``store`` (one per store; bots move at once, in the caller's
    thread), as the real service runs it behind HTTP."""
    from ttr_nb.tables.service import TableService

    service = getattr(store, "test_service", None)
    if service is None:
        service = TableService(store)
        store.test_service = service  # type: ignore[attr-defined]
    return service


def client(store: TableStore, page: str, address: str = "192.0.2.1", teacher: bool = False) -> Any:
    """Page ``page``'s client of the table service over ``store`` (requests and answers
    travel as JSON text, as over HTTP)."""
    from ttr_nb.tables.remote import connect

    return connect(page, local=service_for(store), address=address, teacher=teacher)


def pages(store: TableStore, address: str = "192.0.2.1", teacher: bool = False) -> Any:
    """A ``service_factory`` for GameApp and TeacherPage: each page its own client (a
    teacher's page: the teacher's server vouches for it)."""
    return lambda page: client(store, page, address, teacher=teacher)


@contextlib.contextmanager
def http_service(url: str, timeout_s: float = 4.0) -> Iterator[Any]:
    """The real table service over the store at ``url``: a process of its own, over HTTP on
    127.0.0.1, as ``make app`` starts it (:class:`ttr_nb.table_service.ServiceProcess`)."""
    from ttr_nb.table_service import ServiceProcess

    service = ServiceProcess(url, timeout_s=timeout_s)
    service.ensure()
    try:
        yield service
    finally:
        service.stop()
        with contextlib.suppress(OSError):
            from ttr_nb.table_service import runtime_file

            runtime_file(url).unlink()


def http_client(
    service: Any, page: str, address: str = "192.0.2.1", teacher: bool = False, timeout=4.0
) -> Any:
    """Page ``page``'s client of the service over HTTP, with the pass its server would give."""
    from ttr_nb.tables.remote import HttpTransport, TablesClient

    granted = service.mint(page, address, teacher=teacher)
    return TablesClient(HttpTransport(service.url, f"ttr-page {granted}", page, timeout))


def public(game: Any) -> Any:
    """What every seat sees alike: the board, the face-up cards, the log, counts."""
    state = game.state
    return (
        dict(state.owner),
        list(state.face_up),
        list(game.log),
        [m.player for m in game.history],
        [(p.name, p.hand_size, len(p.tickets), dict(p.pieces)) for p in state.players],
        len(state.deck),
        state.current,
    )


def whole_game(store: TableStore, table_id: int) -> Any:
    """The table's whole game, as only the service holds it (the tests' oracle)."""
    from ttr_nb.tables.referee import Referee

    return Referee(store).full_game(table_id)[1]
