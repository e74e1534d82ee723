"""The table service over HTTP (issue 49): who may ask, what a seat's page receives, and
nothing lost when the service is killed.

The service runs as ``make app`` runs it: a process of its own on 127.0.0.1
(:class:`ttr_nb.table_service.ServiceProcess`), over a real SQLite file. Pages are
:class:`~ttr_nb.tables.remote.TablesClient` objects with the pass a Voilà server signs for
its visitors. The audit behind the issue recovered a deal from one seat's own cards (a
30-bit seed, replayed in every page's kernel); these tests read the raw answers a page gets.
"""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import psutil
import pytest
from tables_fixtures import http_client, http_service, whole_game

from ttr_nb.errors import SeatTokenError, StoreUnavailableError, TableError
from ttr_nb.table_service import ServiceProcess
from ttr_nb.tables import TableStore
from ttr_nb.tables.remote import SeatClient
from ttr_nb.tables.wire import mint_pass


@pytest.fixture
def service(tmp_path: Path) -> Any:
    with http_service(f"sqlite:///{tmp_path / 'tables.sqlite'}") as running:
        yield running


def post(service: ServiceProcess, op: str, body: dict, authorization: str | None) -> tuple:
    """A raw request, as any program on the machine could send it: (status, JSON, bytes)."""
    headers = {"Content-Type": "application/json"}
    if authorization is not None:
        headers["Authorization"] = authorization
    request = urllib.request.Request(
        f"{service.url}api/{op}", data=json.dumps(body).encode(), headers=headers, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            raw = answer.read()
            return answer.status, json.loads(raw), raw
    except urllib.error.HTTPError as exc:
        raw = exc.read()
        return exc.code, json.loads(raw), raw


def test_only_a_pass_signed_by_the_server_is_heard(service):
    status, answer, _raw = post(service, "whoami", {}, None)
    assert status == 403 and "does not know this page" in answer["error"]["message"]
    forged = mint_pass(b"not the service's key".ljust(32, b"x"), "p", "192.0.2.1", teacher=True)
    for authorization in (f"ttr-page {forged}", "ttr-page junk", "token abc", "ttr-page "):
        assert post(service, "whoami", {}, authorization)[0] == 403
    good = f"ttr-page {service.mint('p', '192.0.2.1')}"
    assert post(service, "whoami", {}, good)[1] == {"ok": {"teacher": False, "user": None}}
    # A student's page asks for the teacher's requests: refused by the service itself.
    status, answer, _raw = post(service, "list_tables", {}, good)
    assert status == 409 and answer["error"]["type"] == "SeatTokenError"
    status, answer, _raw = post(service, "no_such_thing", {}, good)
    assert status == 409 and "no such request" in answer["error"]["message"]


def test_a_pages_address_is_the_one_its_server_signed(service):
    """Wrong codes count against the address in the pass; a forged header changes nothing."""
    guesser = f"ttr-page {service.mint('guesser', '203.0.113.7')}"
    refused = 0
    for n in range(30):
        request = urllib.request.Request(
            f"{service.url}api/find",
            data=json.dumps({"code": "AAAAAA"}).encode(),
            headers={"Authorization": guesser, "X-Forwarded-For": f"198.51.100.{n}"},
            method="POST",
        )
        try:
            urllib.request.urlopen(request, timeout=10)
        except urllib.error.HTTPError as exc:
            refused += json.loads(exc.read())["error"]["type"] == "TooManyAttemptsError"
    assert refused >= 20  # the page's own 8 a minute, whatever address it claims
    other = http_client(service, "another-page", "203.0.113.7")
    with pytest.raises(TableError, match="no table has this code"):
        other.table("BBBBBB")  # the same address: still below its own per-address limit


def test_a_seats_answers_hold_no_seed_and_no_other_seats_cards(service, tmp_path):
    ann_tables = http_client(service, "ann", "192.0.2.1")
    ben_tables = http_client(service, "ben", "192.0.2.2")
    made = ann_tables.create_table("usa", ["human", "human"], "Ann")
    ben = ben_tables.join(made.code, "Ben", 1)
    ann = SeatClient(ann_tables, made.table_id, seat=0, token=made.token)
    ann.play(ann.game.legal_actions()[0])  # Ann keeps her tickets: secret from Ben
    store = TableStore(f"sqlite:///{tmp_path / 'tables.sqlite'}")
    game = whole_game(store, made.table_id)
    seed = store.table_by_id(made.table_id).seed
    assert seed.bit_length() > 64
    auth = f"ttr-page {service.mint('ben', '192.0.2.2')}"
    status, answer, raw = post(
        service, "view", {"table_id": made.table_id, "token": ben.token}, auth
    )
    assert status == 200
    view = answer["ok"]
    text = raw.decode()
    assert str(seed) not in text and str(seed)[:12] not in text
    state = view["state"]
    assert state["seed"] == 0 and set(state["deck"]) == {"?"}
    assert len(state["deck"]) == len(game.state.deck)
    anns = state["players"][0]
    assert set(anns["hand"].values()) - {0} == {4} and anns["hand"]["?"] == 4
    assert anns["tickets"] == [-1 - i for i in range(len(game.state.players[0].tickets))]
    assert all(t < 0 for deck in state["ticket_decks"].values() for t in deck)
    assert view["history"][0] == [0, None]  # Ann kept tickets: which, Ben never learns
    assert state["players"][1]["offer"] == game.state.players[1].offer  # his own, whole
    # Ben asks for Ann's seat with his own token, or with none: nothing of hers.
    for body in ({"table_id": made.table_id}, {"table_id": made.table_id, "token": "x" * 32}):
        status, answer, _raw = post(service, "view", body, auth)
        assert status == 409 and answer["error"]["type"] == "SeatTokenError"
    store.dispose()


def test_killing_the_service_loses_no_acknowledged_move(service, tmp_path):
    """kill -9 of the service mid-game: pages say it cannot be reached, the server starts
    it again on the same address and key, and every move a page was told is stored is."""
    tables = http_client(service, "ann", "192.0.2.1", timeout=3)
    made = tables.create_table("usa", ["human", "greedy"], "Ann")
    ann = SeatClient(tables, made.table_id, seat=0, token=made.token)
    acknowledged = 0
    for round_ in range(3):
        for _ in range(6):
            ann.sync()
            if ann.my_turn:
                legal = ann.game.legal_actions()
                ann.play(next((a for a in legal if type(a).__name__ == "DrawBlind"), legal[0]))
                acknowledged = max(acknowledged, len(ann.game.history))
            else:
                time.sleep(0.2)
        workers = psutil.Process(service.proc.pid).children(recursive=True)
        assert workers, "the service runs its bots in worker processes"
        os.kill(service.proc.pid, signal.SIGKILL)
        service.proc.wait(10)
        # Its bot workers leave with it (they waited for work for ever, 72 MB each).
        _gone, alive = psutil.wait_procs(workers, timeout=10)
        assert alive == [], f"bot workers outlived the killed service: {alive}"
        with pytest.raises(StoreUnavailableError, match="cannot be reached"):
            ann.sync(force=True)
        port, key = service.port, service.key
        service.check()  # what the Voilà server does every few seconds
        assert (service.port, service.key) == (port, key) and service.restarts == round_ + 1
        deadline = time.monotonic() + 30
        while True:
            try:
                ann.sync(force=True)
                break
            except StoreUnavailableError:
                assert time.monotonic() < deadline
                time.sleep(0.2)
        store = TableStore(f"sqlite:///{tmp_path / 'tables.sqlite'}")
        assert store.table_by_id(made.table_id).moves >= acknowledged
        store.dispose()
    # The restarted service moves the table's bots again: the game goes on.
    deadline = time.monotonic() + 30
    while not ann.my_turn:
        assert time.monotonic() < deadline
        time.sleep(0.2)
        ann.sync()


def test_a_freed_seats_token_sees_nothing_more(service):
    ann_tables = http_client(service, "ann")
    made = ann_tables.create_table("usa", ["human", "human"], "Ann")
    dan = http_client(service, "dan", "192.0.2.9").join(made.code, "Dan", 1)
    ann_tables.free_seat(made.table_id, 1, creator_token=made.creator_token)
    http_client(service, "fay", "192.0.2.10").join(made.code, "Fay", 1)
    dans = http_client(service, "dan", "192.0.2.9")
    with pytest.raises(SeatTokenError, match="does not hold a seat"):
        SeatClient(dans, made.table_id, seat=1, token=dan.token)


def test_the_voila_server_starts_the_service_and_keeps_the_database_from_kernels(tmp_path):
    """The kernels get the service's address and a pass, never the database's URL."""
    from test_serving import execute, manager, run, until

    url = f"sqlite:///{tmp_path / 'tables.sqlite'}"
    os.environ["TTR_TABLES_URL"] = url  # as an operator would start make app

    async def test() -> None:
        km = manager(warm_kernels=1, max_starting=1, warm_code="pass", table_service=True)
        try:
            assert "TTR_TABLES_URL" not in os.environ
            assert os.environ["TTR_TABLE_SERVICE_URL"] == km.tables_service.url
            await until(lambda: len(km._warm) == 1, timeout=60)
            kernel_id = await km.start_kernel(kernel_name="python3")
            reply = await execute(
                km,
                kernel_id,
                "import os\n"
                "assert 'TTR_TABLES_URL' not in os.environ, 'the kernel has the database'\n"
                "assert not any('sqlite' in v or 'postgres' in v for v in os.environ.values())\n"
                "assert os.environ['TTR_TABLE_SERVICE_URL'].startswith('http://127.0.0.1:')",
            )
            assert reply["content"]["status"] == "ok", reply["content"]
            deadline = time.monotonic() + 60
            while not km.tables_service.alive():
                assert time.monotonic() < deadline
                time.sleep(0.2)
        finally:
            await km.shutdown_all(now=True)
            os.environ.pop("TTR_TABLE_SERVICE_URL", None)

    try:
        run(test)
    finally:
        os.environ.pop("TTR_TABLES_URL", None)


def test_killing_the_voila_server_stops_its_service_and_the_next_one_takes_over(tmp_path):
    """kill -9 of the Voilà server: its table service stops by itself within seconds; the
    server started again runs the service on the same address with the same key, so a
    page's pass still works and every acknowledged move is there."""
    import subprocess
    import sys

    url = f"sqlite:///{tmp_path / 'tables.sqlite'}"
    starter = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import time\nfrom ttr_nb.table_service import ServiceProcess\n"
            f"s = ServiceProcess({url!r})\ns.ensure()\nprint('UP', flush=True)\ntime.sleep(600)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert starter.stdout.readline().strip() == "UP"
        first = ServiceProcess(url)
        first.ensure()  # finds the running service through its record: the same key
        assert first.proc is None and first.alive()
        tables = http_client(first, "ann")
        made = tables.create_table("usa", ["human", "greedy"], "Ann")
        ann = SeatClient(tables, made.table_id, seat=0, token=made.token)
        ann.play(ann.game.legal_actions()[0])
        acknowledged = len(ann.game.history)
        starter.kill()  # kill -9 of the server that started the service
        starter.wait(10)
        deadline = time.monotonic() + 10
        while first.alive():
            assert time.monotonic() < deadline, "the service outlived its server"
            time.sleep(0.2)
        again = ServiceProcess(url)
        again.ensure()  # the server started again
        try:
            assert (again.port, again.key) == (first.port, first.key)
            ann.sync(force=True)  # the page's old pass, the old address: it just works
            assert len(ann.game.history) >= acknowledged == 1
        finally:
            again.stop()
    finally:
        starter.kill()
