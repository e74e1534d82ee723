"""Every fault of the table store gets a sentence, and nothing hangs (issues 39 and 49);
exports hold no secret and no formula; names that look alike, or like a bot's, are refused.
Real SQLite files, real PostgreSQL servers (one stopped with SIGSTOP), and the real table
service over HTTP.
"""

from __future__ import annotations

import contextlib
import signal
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest
import sqlalchemy as sa
from tables_fixtures import client, empty, http_client, http_service, pg_server, postgres_url, store

from ttr_nb.errors import (
    CorruptMoveError,
    SeatError,
    StoreFullError,
    StoreReadOnlyError,
    StoreUnavailableError,
)
from ttr_nb.tables import TableStore
from ttr_nb.tables.faults import store_fault
from ttr_nb.tables.referee import Referee
from ttr_nb.tables.remote import SeatClient
from ttr_nb.tables.results import SECRET, class_results, results_csv
from ttr_nb.tables.schema import moves_t, tables_t

UNREACHABLE = "the table store cannot be reached; your moves are safe; retrying"


def within(seconds: float, fn: Any, *args: Any) -> tuple[Any, float]:
    """``fn(*args)`` on a thread; (its result or exception, seconds it took). Fails the test
    instead of hanging when it takes longer than ``seconds``."""
    box: list[Any] = []
    started = time.monotonic()

    def run() -> None:
        try:
            box.append(fn(*args))
        except Exception as exc:  # noqa: BLE001 - handed to the test
            box.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still waiting after {seconds} s: it hangs"
    return box[0], time.monotonic() - started


@contextlib.contextmanager
def stopped(url: str) -> Iterator[None]:
    """The PostgreSQL server of ``url`` stopped (SIGSTOP: postmaster and every backend)."""
    folder = Path(url.split("host=", 1)[1].split("&", 1)[0])
    pid = int((folder / "data" / "postmaster.pid").read_text().split()[0])
    postmaster = psutil.Process(pid)
    procs = [postmaster, *postmaster.children(recursive=True)]
    for proc in procs:
        proc.send_signal(signal.SIGSTOP)
    try:
        yield
    finally:
        for proc in procs:
            with contextlib.suppress(psutil.NoSuchProcess):
                proc.send_signal(signal.SIGCONT)


# ------------------------------------------------------------------ nothing hangs
def test_a_stopped_postgresql_says_so_within_seconds_and_play_goes_on():
    """A page's click and poll during a SIGSTOP of the database, through the real table
    service: the sentence within the service's deadline, at once for the next calls, and
    play goes on after SIGCONT."""
    pytest.importorskip("ipycanvas")
    from test_widgets_tables import open_table

    from ttr_nb.widgets import GameApp

    with pg_server().temporary_postgres() as url, http_service(url, timeout_s=1.5) as service:
        ann = GameApp(
            map_name="usa",
            players=2,
            seed=3,
            auto_bots=False,
            service_factory=lambda page: http_client(service, page, timeout=10),
        )
        open_table(ann, ["human", "greedy"])
        panel = ann.tables
        seat = panel.client
        with stopped(url):
            _result, first = within(30, panel.on_tick, True)
            assert UNREACHABLE in panel.table_note.text.lower()
            assert first < 1.5 + 1.0, first
            refused, second = within(30, panel.play, seat.game.legal_actions()[0])
            assert UNREACHABLE in refused.lower() and second < 0.5
        deadline = time.monotonic() + 30
        while "answers again" not in panel.table_note.text:
            assert time.monotonic() < deadline, panel.table_note.text
            time.sleep(0.2)
            panel.on_tick()
        assert panel.play(seat.game.legal_actions()[0]) is None  # Ann keeps her tickets
        deadline = time.monotonic() + 60
        while len(TableStore(url).moves(seat.table_id)) < 2:  # and the service's bot moves
            assert time.monotonic() < deadline
            time.sleep(0.1)


def test_sqlite_waits_for_another_writer_seconds_not_half_a_minute(tmp_path):
    path = tmp_path / "t.sqlite"
    store = TableStore(f"sqlite:///{path}")
    made = store.create_table("usa", ["human", "greedy"], "Ann", session="a")
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process holds the write lock and hangs
    try:
        error, took = within(20, store.append, made.table_id, 1, 0, {"type": "DrawBlind"})
        assert isinstance(error, StoreUnavailableError) and took < 5, (error, took)
        assert store.table_by_id(made.table_id).moves == 0  # reading never waits
    finally:
        other.execute("ROLLBACK")
        other.close()
        store.dispose()


def test_postgresql_waits_for_a_locked_row_seconds_not_for_ever(postgres_url):
    store = TableStore(postgres_url)
    made = store.create_table("usa", ["human", "greedy"], "Ann", session="a")
    holder = store.engine.connect()
    transaction = holder.begin()
    holder.execute(sa.select(tables_t).where(tables_t.c.id == made.table_id).with_for_update())
    try:
        error, took = within(20, store.close_table, made.table_id, made.creator_token)
        assert isinstance(error, StoreUnavailableError) and took < 6, (error, took)
    finally:
        transaction.rollback()
        holder.close()
        empty(store)
        store.dispose()


# ------------------------------------------------------------------ damaged, read-only, full
def played_table(store: TableStore, moves: int, page: str = "p") -> Any:
    """A table of Ann and a greedy bot, played (by the service, as pages do) to ``moves``
    moves or a little more."""
    tables = client(store, page)
    made = tables.create_table("usa", ["human", "greedy"], "Ann")
    ann = SeatClient(tables, made.table_id, seat=0, token=made.token)
    while len(store.moves(made.table_id)) < moves:
        legal = ann.game.legal_actions()
        ann.play(next((a for a in legal if type(a).__name__ == "DrawBlind"), legal[0]))
    return made


def damage(store: TableStore, table_id: int, number: int, text: str) -> None:
    with store.engine.begin() as conn:
        conn.execute(
            moves_t.update()
            .where(moves_t.c.table_id == table_id, moves_t.c.number == number)
            .values(action=text)
        )


def test_a_damaged_move_is_named_and_the_other_results_still_export(store):
    good = played_table(store, 12, "p1")
    bad_json = played_table(store, 12, "p2")
    bad_route = played_table(store, 12, "p3")
    damage(store, bad_json.table_id, 7, '{"type": "ClaimRoute", "rou')
    damage(store, bad_route.table_id, 9, '{"type":"ClaimRoute","route":99999,"cards":[["red",1]]}')
    with pytest.raises(CorruptMoveError) as caught:
        Referee(store).table(bad_json.table_id)
    assert (caught.value.table_id, caught.value.number) == (bad_json.table_id, 7)
    assert f"move 7 of table {bad_json.code[:3]} {bad_json.code[3:]}" in str(caught.value)
    with pytest.raises(CorruptMoveError, match="move 9 of table .*the rules refuse it"):
        Referee(store).table(bad_route.table_id)
    store.test_service = None  # a service started after the damage (this one keeps its games)
    with pytest.raises(CorruptMoveError, match="move 9 of table"):  # a page is told too
        SeatClient(client(store, "p3"), bad_route.table_id, seat=0, token=bad_route.token)
    problems: list[Any] = []
    rows = class_results(store, problems=problems)
    assert {r["table"] for r in rows} == {f"{good.code[:3]} {good.code[3:]}"} and len(rows) == 2
    assert sorted((p.table_id, p.number) for p in problems) == sorted(
        [(bad_json.table_id, 7), (bad_route.table_id, 9)]
    )


def test_a_page_at_a_table_with_a_damaged_move_says_which_move(tmp_path):
    pytest.importorskip("ipycanvas")
    from tables_fixtures import pages
    from test_widgets_tables import open_table

    from ttr_nb.widgets import GameApp

    store = TableStore(f"sqlite:///{tmp_path / 't.sqlite'}")
    ann = GameApp(map_name="usa", players=2, seed=3, auto_bots=False, service_factory=pages(store))
    code = open_table(ann, ["human", "greedy"])
    panel = ann.tables
    assert panel.play(panel.client.game.legal_actions()[0]) is None  # the bot keeps too
    table_id = panel.client.table_id
    with store.engine.begin() as conn:  # move 3 (Ann's, from elsewhere) arrives damaged
        conn.execute(
            moves_t.insert().values(table_id=table_id, number=3, seat=0, action="[", at=0.0)
        )
        conn.execute(
            tables_t.update()
            .where(tables_t.c.id == table_id)
            .values(moves=3, version=tables_t.c.version + 1)
        )
    panel.on_tick()
    said = panel.table_note.text
    assert f"Move 3 of table {code[:3]} {code[3:]} is damaged" in said
    assert "tell the teacher" in said
    panel.on_tick()  # the next look says it again (it does not go quiet)
    assert "is damaged" in panel.table_note.text


def test_a_read_only_store_shows_its_tables_and_says_why_nothing_saves(store, tmp_path):
    made = store.create_table("usa", ["human", "greedy"], "Ann", session="ann")
    if store.url.startswith("sqlite"):
        path = sa.engine.make_url(store.url).database
        url = f"sqlite:///file:{path}?mode=ro&uri=true"
    else:
        url = f"{store.url}&options=-c%20default_transaction_read_only%3Don"
    ro = TableStore(url)
    try:
        assert ro.table_by_id(made.table_id).seats[0].name == "Ann"  # a lookup only reads
        assert [t.table_id for t in ro.list_tables()] == [made.table_id]
        assert ro.version(made.table_id) >= 0 and ro.moves(made.table_id) == []
        with pytest.raises(StoreReadOnlyError, match="read-only"):
            ro.rejoin(made.token, session="ann-reloaded")  # a returning player is told
        with pytest.raises(StoreReadOnlyError, match="your seat and your moves so far are kept"):
            ro.append(made.table_id, 1, 0, {"type": "DrawBlind"}, token=made.token, session="ann")
    finally:
        ro.dispose()


def test_a_full_disk_says_so_not_save_and_reload(tmp_path):
    store = TableStore(f"sqlite:///{tmp_path / 'full.sqlite'}")
    made = store.create_table("usa", ["random", "greedy"], None, session="s")
    with store.engine.connect() as conn:
        pages = conn.exec_driver_sql("PRAGMA page_count").scalar()
    store.engine.dispose()

    @sa.event.listens_for(store.engine, "connect")
    def _disk_is_full(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.execute(f"PRAGMA max_page_count={pages}")

    with pytest.raises(StoreFullError) as caught:
        for number in range(1, 401):
            kind = ["random", "greedy"][(number - 1) % 2]
            store.append(
                made.table_id,
                number,
                (number - 1) % 2,
                {"type": "DrawBlind"},
                bot=kind,
                why={"filler": "x" * 1500},
            )
    assert "disk is full" in str(caught.value) and "reload" not in str(caught.value)
    store.dispose()


def test_a_full_postgresql_disk_and_a_read_only_standby_are_named():
    import psycopg

    for error, kind in [
        (psycopg.errors.DiskFull("could not extend file"), StoreFullError),
        (psycopg.errors.ReadOnlySqlTransaction("read-only transaction"), StoreReadOnlyError),
        (psycopg.errors.QueryCanceled("statement timeout"), StoreUnavailableError),
        (psycopg.OperationalError("connection timeout expired"), StoreUnavailableError),
    ]:
        wrapped = sa.exc.OperationalError("SELECT 1", {}, error)
        assert type(store_fault(wrapped)) is kind, error


def test_sqlite_puts_every_acknowledged_move_on_the_disk(tmp_path):
    store = TableStore(f"sqlite:///{tmp_path / 't.sqlite'}")
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    store.dispose()


# ------------------------------------------------------------------ exports
def test_a_running_games_export_keeps_every_ticket_secret(store):
    tables = client(store, "t")
    made = tables.create_table("usa", ["human", "greedy"], "Ann")
    ann = SeatClient(tables, made.table_id, seat=0, token=made.token)
    referee = Referee(store)
    while True:
        _info, game = referee.full_game(made.table_id)
        if any(ok for seat in (0, 1) for _t, ok in game.ticket_status(seat)):
            break
        legal = ann.game.legal_actions()
        ann.play(next((a for a in legal if type(a).__name__ == "DrawBlind"), legal[0]))
        assert not ann.game.is_over
    rows = client(store, "teacher", teacher=True).results()["rows"]
    text = results_csv(rows)
    for seat in (0, 1):
        for ticket_id, ok in game.ticket_status(seat):
            if ok:
                ticket = game.map.ticket_by_id[ticket_id]
                assert game.map.place_name(ticket.cities[0]) not in text
    assert {r["tickets done"] for r in rows} == {SECRET} and "tickets" not in rows[0]


def test_csv_cells_never_start_a_formula(store):
    made = store.create_table("usa", ["human", "human"], "=HYPERLINK(1)", session="a")
    store.join(made.code, "+cmd|' /C calc'!A0", 1, session="b")
    text = results_csv(class_results(store))
    lines = text.splitlines()[1:]
    assert [line.split(",")[4] for line in lines] == ["'=HYPERLINK(1)", "'+cmd|' /C calc'!A0"]
    for line in lines:
        assert not any(cell.startswith(("=", "+", "@", "\t", "\r")) for cell in line.split(","))


# ------------------------------------------------------------------ names
@pytest.mark.parametrize(
    ("first", "second"),
    [("Ann", "\u0410nn"), ("Ann", "\u0391NN"), ("Al", "AI"), ("Al", "A1"), ("Bob", "B0b")],
)
def test_names_that_look_alike_are_refused_at_one_table(store, first, second):
    made = store.create_table("usa", ["human", "human", "human"], first, session="a")
    with pytest.raises(SeatError, match="looks too much like|already called"):
        store.join(made.code, second, 1, session="b")
    assert store.join(made.code, "Anna", 1, session="c").seat == 1


@pytest.mark.parametrize("name", ["Bot 2 (greedy)", "bot 3", "B0T", "Bot-2", "Bot"])
def test_bot_names_are_kept_for_bots(store, name):
    made = store.create_table("usa", ["human", "human"], "Ann", session="a")
    with pytest.raises(SeatError, match="reads as a bot's name"):
        store.join(made.code, name, 1, session="b")
    with pytest.raises(SeatError, match="reads as a bot's name"):
        store.create_table("usa", ["human", "human"], name, session="c")
    assert store.join(made.code, "Botond", 1, session="d").seat == 1


# ------------------------------------------------------------------ the visitor's address
def test_the_server_tells_each_visitors_kernel_its_address():
    """Voilà's prelaunch hook puts a first cell into the visitor's notebook; the kernel that
    runs it knows the address, and code run later cannot change it."""
    import nbformat
    from test_serving import execute, manager, run, until

    from ttr_nb import serving

    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")])
    handler = type("H", (), {"request": type("R", (), {"remote_ip": "203.0.113.9"})()})()
    served = serving.note_client(handler, notebook=notebook)
    assert len(served.cells) == 2 and len(notebook.cells) == 1
    forged = type("H", (), {"request": type("R", (), {"remote_ip": "x'); import os; ('"})()})()
    assert serving.note_client(forged, notebook=notebook) is None

    async def test() -> None:
        km = manager(warm_kernels=1, max_starting=1, warm_code="pass")
        try:
            await until(lambda: len(km._warm) == 1)
            kernel_id = await km.start_kernel(kernel_name="python3")
            for cell in served.cells:
                await execute(km, kernel_id, cell.source)
            await execute(
                km, kernel_id, "import ttr_nb.tables.visitor as v; v.note_address('10.6.6.6')"
            )
            reply = await execute(
                km,
                kernel_id,
                "from ttr_nb.tables.store import TableStore\n"
                "s = TableStore('sqlite://')\n"
                "assert s._visitor('p', None).address == '203.0.113.9', s._visitor('p', None)",
            )
            assert reply["content"]["status"] == "ok", reply["content"]
        finally:
            await km.shutdown_all(now=True)

    run(test)


def test_killing_postgresql_loses_no_acknowledged_move():
    """kill -9 of PostgreSQL (the postmaster and every backend) under a game through the real
    service: the page is told the store cannot be reached; once PostgreSQL is started again,
    play goes on and every move a page was told is stored is there."""
    with pg_server().temporary_postgres() as url, http_service(url, timeout_s=2) as service:
        tables = http_client(service, "ann", timeout=5)
        made = tables.create_table("usa", ["human", "greedy"], "Ann")
        ann = SeatClient(tables, made.table_id, seat=0, token=made.token)
        acknowledged = 0
        while acknowledged < 8:
            ann.sync()
            if ann.my_turn:
                legal = ann.game.legal_actions()
                ann.play(next((a for a in legal if type(a).__name__ == "DrawBlind"), legal[0]))
                acknowledged = len(ann.game.history)
            else:
                time.sleep(0.1)
        folder = Path(url.split("host=", 1)[1].split("&", 1)[0])
        postmaster = psutil.Process(
            int((folder / "data" / "postmaster.pid").read_text().split()[0])
        )
        for proc in [postmaster, *postmaster.children(recursive=True)]:
            with contextlib.suppress(psutil.NoSuchProcess):
                proc.send_signal(signal.SIGKILL)
        time.sleep(1)
        with pytest.raises(StoreUnavailableError):
            ann.sync(force=True)
        pg_server().start_again(url)
        deadline = time.monotonic() + 30
        while True:
            try:
                ann.sync(force=True)
                break
            except StoreUnavailableError:
                assert time.monotonic() < deadline
                time.sleep(0.3)
        assert len(TableStore(url).moves(made.table_id)) >= acknowledged
        while not ann.my_turn:  # the service's bot moves again
            assert time.monotonic() < deadline + 30
            time.sleep(0.2)
            ann.sync()
        ann.play(ann.game.legal_actions()[0])


def test_a_bot_whose_move_the_store_refused_moves_later_unasked(tmp_path, monkeypatch):
    """The store is down for a moment just as a bot moves (PostgreSQL restarting): once it is
    back, the bot moves by itself. The waiting page only asks for views, which move no bot,
    so before, that bot never moved again and the table stood still."""
    import ttr_nb.tables.bot_runner as bot_runner
    from ttr_nb.tables.service import Caller, TableService

    monkeypatch.setattr(bot_runner, "STORE_RETRY_S", 0.2)
    store = TableStore(f"sqlite:///{tmp_path / 't.db'}")
    service = TableService(store, bots="pool", bot_workers=1)
    try:
        ann = Caller("page-ann", "192.0.2.1")
        made = service.call(
            ann, "create", {"map": "usa", "seats": ["greedy", "human"], "name": "Ann"}
        )
        refused = []
        down_until = time.monotonic() + 1.0
        real_play, real_turn = service.referee.play, service.referee.bot_to_move

        def unless_down(real: Any) -> Any:
            def call(*args: Any, **kwargs: Any) -> Any:
                if time.monotonic() < down_until:
                    refused.append(real.__name__)
                    raise StoreUnavailableError("the table store cannot be reached")
                return real(*args, **kwargs)

            return call

        monkeypatch.setattr(service.referee, "play", unless_down(real_play))
        monkeypatch.setattr(service.referee, "bot_to_move", unless_down(real_turn))
        service.bots.kick(made["table_id"])
        deadline = time.monotonic() + 30
        while not store.moves(made["table_id"]):
            assert time.monotonic() < deadline, "the bot never moved once the store was back"
            time.sleep(0.1)
        assert refused, "the store never refused the bot"
    finally:
        service.close()
