"""The classroom kernel manager (ttr_nb.serving): warm kernels, the capacity gate, the line,
no kernel for a page that never connects, a limit per client address.

Real kernels are started (a few, small); no browser. The last tests run the real server
(``voila`` serving the app with ``voila.json``) and talk to it as bare HTTP clients and as a
page without a browser does (``tools/bench_load_ws.py``). What the visitor sees of all this
is checked in ``test_serving_browser.py``.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import psutil
import pytest
from load_tools import load_tool as _load_tool
from load_tools import run_load_tool

serving = pytest.importorskip("ttr_nb.serving")

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = REPO / "test-artifacts"


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(test(), 120))


async def until(condition: Callable[[], bool], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        await asyncio.sleep(0.1)


async def execute(km: Any, kernel_id: str, code: str) -> dict[str, Any]:
    client = km.get_kernel(kernel_id).client()
    client.start_channels()
    try:
        await client.wait_for_ready(timeout=60)
        return await client.execute(code, reply=True, timeout=60, user_expressions={"x": "x"})
    finally:
        client.stop_channels()


def manager(**options: Any) -> Any:
    options.setdefault("warm_nice", 0)
    options.setdefault("min_available_mb", 0)
    options.setdefault("table_service", False)  # test_table_service.py starts one
    return serving.ClassroomKernelManager(**options)


def test_a_visitor_gets_a_warm_kernel_and_the_pool_refills() -> None:
    async def test() -> None:
        km = manager(warm_kernels=2, max_starting=2, warm_code="x = 41 + 1")
        try:
            await until(lambda: len(km._warm) == 2)
            warm = set(km._warm)
            kernel_id = await km.start_kernel(kernel_name="python3")
            assert kernel_id in warm
            reply = await execute(km, kernel_id, "pass")
            # The warm-up code ran before the visitor came.
            assert reply["content"]["user_expressions"]["x"]["data"]["text/plain"] == "42"
            await until(lambda: len(km._warm) == 2)  # one more started for the next visitor
            assert kernel_id not in km._warm and len(km) == 3
        finally:
            await km.shutdown_all(now=True)

    run(test)


@pytest.mark.skipif(os.geteuid() != 0, reason="only root may lower a niceness")
def test_a_visitors_kernel_runs_at_full_priority_every_thread() -> None:
    """Warm kernels start at a low priority; the one a visitor gets runs at full priority,
    the threads that carry its messages as well as the one running the code."""

    def niceness(pid: int) -> set[int]:
        return {os.getpriority(os.PRIO_PROCESS, t.id) for t in psutil.Process(pid).threads()}

    async def test() -> None:
        km = manager(warm_kernels=2, max_starting=2, warm_nice=10, warm_code="pass")
        try:
            await until(lambda: len(km._warm) == 2)
            kernel_id = await km.start_kernel(kernel_name="python3")
            visitor = km.get_kernel(kernel_id).provisioner.pid
            warm = km.get_kernel(km._warm[0]).provisioner.pid
            assert len(psutil.Process(visitor).threads()) > 1
            assert niceness(visitor) == {0} and niceness(warm) == {10}
        finally:
            await km.shutdown_all(now=True)

    run(test)


def test_no_kernel_in_time_is_busy_503_and_names_no_path() -> None:
    async def test() -> None:
        km = manager(warm_kernels=1, max_kernels=1, wait_s=0.5)
        try:
            await until(lambda: len(km._warm) == 1)
            await km.start_kernel(kernel_name="python3")
            with pytest.raises(serving.Busy) as busy:
                await km.start_kernel(kernel_name="python3")
            assert busy.value.status_code == 503
            assert "/" not in busy.value.reason
            # Once the first visitor leaves, the next one gets in.
            await km.shutdown_kernel(next(iter(km.list_kernel_ids())), now=True)
            await until(lambda: len(km._warm) == 1)
            assert await km.start_kernel(kernel_name="python3")
        finally:
            await km.shutdown_all(now=True)

    run(test)


def test_warm_kernels_are_never_culled_visitors_idle_ones_are() -> None:
    async def test() -> None:
        km = manager(warm_kernels=2, max_starting=2, cull_idle_timeout=1)
        try:
            await until(lambda: len(km._warm) == 2)
            visitor = await km.start_kernel(kernel_name="python3")
            await until(lambda: len(km._warm) == 2)
            warm = set(km._warm)
            deadline = time.monotonic() + 30
            while visitor in km.list_kernel_ids():  # culled once idle for a second
                assert time.monotonic() < deadline, "the idle visitor's kernel was not culled"
                await km.cull_kernels()
                assert warm == set(km._warm) and warm <= set(km.list_kernel_ids())
                await asyncio.sleep(0.3)
        finally:
            await km.shutdown_all(now=True)

    run(test)


def test_pages_load_in_turn_first_come_first_served() -> None:
    async def test() -> None:
        km = manager(warm_kernels=0, max_loading=1, loading_settle_s=0.05, loading_hold_s=30)
        seen: dict[str, list[int]] = {"b": [], "c": []}
        admitted: list[str] = []

        async def visit(kernel_id: str) -> None:
            async for place in km.wait_turn(kernel_id):
                seen[kernel_id].append(place)
            admitted.append(kernel_id)

        await visit("a")  # the first page loads at once
        b = asyncio.ensure_future(visit("b"))
        await until(lambda: seen["b"] == [1])
        c = asyncio.ensure_future(visit("c"))
        await until(lambda: seen["c"] == [2])
        assert admitted == ["a"]
        km.notify_connect("a")  # a's page reached its kernel: b is next
        await b
        await until(lambda: seen["c"] == [2, 1])
        assert admitted == ["a", "b"] and not c.done()
        km._leave("b")  # b's page has loaded too
        await c
        assert admitted == ["a", "b", "c"]
        km._leave("c")
        assert km._places_taken == 0

    run(test)


def test_a_visitor_who_leaves_the_line_frees_the_place() -> None:
    async def test() -> None:
        km = manager(warm_kernels=0, max_loading=1, loading_hold_s=30)
        async for _ in km.wait_turn("a"):
            pass
        waiting = km.wait_turn("b")
        assert await waiting.__anext__() == 1
        await waiting.aclose()  # the browser went away while in line
        assert not km._line
        km._leave("a")
        async for _ in km.wait_turn("c"):
            raise AssertionError("c should not wait")
        assert km._places_taken == 1

    run(test)


def test_the_template_filter_is_silent_without_the_manager() -> None:
    async def test() -> None:
        serving._current = None
        assert [u async for u in serving.wait_turn("any")] == []

    run(test)


def test_a_kernel_whose_page_never_connects_is_shut_down_and_frees_its_place() -> None:
    async def test() -> None:
        km = manager(
            warm_kernels=2, max_starting=2, max_loading=1, connect_timeout_s=2, unconnected_hold_s=1
        )
        try:
            await until(lambda: len(km._warm) == 2)
            bare = await km.start_kernel(kernel_name="python3")
            async for _ in km.wait_turn(bare):
                pass
            # No deadline while the page is still being made (in line, cells running).
            await asyncio.sleep(1.5)
            assert bare in km and km._places_taken == 1
            km.page_sent(bare)
            await until(lambda: km._places_taken == 0, timeout=10)  # 1 s after it was sent
            assert bare in km
            await until(lambda: bare not in km, timeout=10)  # 2 s after the page was sent
            assert km.dropped_unconnected == 1
            # A page that connects keeps its kernel, however long its player then thinks.
            page = await km.start_kernel(kernel_name="python3")
            km.page_sent(page)
            km.notify_connect(page)
            await asyncio.sleep(2.5)
            assert page in km and km.dropped_unconnected == 1
        finally:
            await km.shutdown_all(now=True)

    run(test)


def test_kernel_starts_are_limited_per_client_address() -> None:
    async def test() -> None:
        km = manager(warm_kernels=2, max_starting=2, max_starts_per_minute=1, wait_s=30)
        try:
            await until(lambda: len(km._warm) == 2)
            serving._client.set("10.1.2.3")
            assert await km.start_kernel(kernel_name="python3")
            with pytest.raises(serving.Busy) as busy:
                await km.start_kernel(kernel_name="python3")
            assert busy.value.status_code == 503 and "one address" in busy.value.log_message
            assert len(km._warm) >= 1  # refused although a kernel was ready
            serving._client.set("10.9.9.9")  # another address (another school) gets in
            assert await km.start_kernel(kernel_name="python3")
        finally:
            serving._client.set(None)
            await km.shutdown_all(now=True)

    run(test)


# ------------------------------------------------------------------ the real server
def _serve(name: str, *args: str) -> Any:
    bench = _load_tool("bench_load")
    ARTIFACTS.mkdir(exist_ok=True)
    server = bench.Server("notebooks/app.ipynb", list(args), ARTIFACTS / f"voila-{name}.log")
    try:
        server.wait_ready(90)
        server.wait_idle(120)
    except BaseException:
        server.stop()
        raise
    return server


def _bare_get(url: str, source: str = "127.0.0.1") -> tuple[int, str, float]:
    """A plain GET that never opens the websocket: status, page, when it was all received."""
    host, port = url.split("//")[1].rstrip("/").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=120, source_address=(source, 0))
    try:
        conn.request("GET", "/")
        response = conn.getresponse()
        return response.status, response.read().decode(), time.monotonic()
    finally:
        conn.close()


def _give_up_early(url: str) -> str:
    """A client that leaves as soon as it has its kernel's id (before the page is done)."""
    host, port = url.split("//")[1].rstrip("/").split(":")
    with socket.create_connection((host, int(port)), timeout=120) as conn:
        conn.sendall(f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
        seen = b""
        while b'"kernelId"' not in seen or not seen.split(b'"kernelId"')[1].count(b'"') >= 2:
            seen += conn.recv(65536)
        return seen.split(b'"kernelId"')[1].split(b'"')[1].decode()


def _kernel_id(page: str) -> str:
    ws = _load_tool("bench_load_ws")
    return json.loads(ws.CONFIG_DATA.search(page).group(1))["kernelId"]


def _exists(url: str, kernel_id: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}api/kernels/{kernel_id}", timeout=30):
            return True
    except urllib.error.HTTPError as error:
        assert error.code == 404
        return False


def _running_kernel_ids(server: Any) -> set[str]:
    bench = _load_tool("bench_load")
    ids = set()
    for proc in bench.kernels_of(server.proc.pid):
        for arg in proc.cmdline():
            if arg.endswith(".json") and "kernel-" in arg:
                ids.add(Path(arg).stem.removeprefix("kernel-"))
    return ids


def test_bare_requests_hold_no_kernel_and_a_slow_page_still_gets_its_game() -> None:
    """``make app``'s settings: 30 s for a page to connect once it has been sent. Bare GETs
    and a client that leaves half-way lose their kernels within that; a page that connects
    20 s after it came still gets its widgets and plays. With a limit of 6 kernels a minute
    per address, the 7th request from one address is told "busy"; another address gets in."""
    ws = _load_tool("bench_load_ws")
    server = _serve(
        "unconnected",
        "--ClassroomKernelManager.warm_kernels=5",
        "--ClassroomKernelManager.max_starts_per_minute=6",
    )
    limit = 30.0
    assert (
        json.loads((REPO / "voila.json").read_text())["ClassroomKernelManager"]["connect_timeout_s"]
        == limit
    )

    async def exists(kernel_id: str) -> bool:
        return await asyncio.to_thread(_exists, server.url, kernel_id)

    async def scenario() -> None:
        stay = asyncio.Event()
        slow, t0 = ws.Visit(0, 0.0), time.monotonic()
        slow_visit = asyncio.ensure_future(
            ws.visit(server.url, slow, t0, 120, stay, connect_delay_s=20)
        )
        bare = await asyncio.gather(*(asyncio.to_thread(_bare_get, server.url) for _ in range(3)))
        assert [status for status, _, _ in bare] == [200, 200, 200]
        gone_by = {_kernel_id(page): done + limit for _, page, done in bare}
        left = await asyncio.to_thread(_give_up_early, server.url)
        gone_by[left] = time.monotonic() + limit + 10  # its page is finished after it left
        # Six kernels for this address in this minute: the next request is told "busy".
        status, page, done = await asyncio.to_thread(_bare_get, server.url)
        assert status == 200
        gone_by[_kernel_id(page)] = done + limit
        status, page, _ = await asyncio.to_thread(_bare_get, server.url)
        assert status == 503 and "The server is busy" in page and "retrying" in page
        assert "Traceback" not in page
        # Another machine (another address) is not held back by that one.
        status, page, done = await asyncio.to_thread(_bare_get, server.url, "127.0.0.2")
        assert status == 200
        gone_by[_kernel_id(page)] = done + limit
        assert all([await exists(k) for k in gone_by])
        while still := [k for k in gone_by if await exists(k)]:
            late = [k for k in still if time.monotonic() > gone_by[k] + 5]
            assert not late, "a request that never connected kept its kernel"
            await asyncio.sleep(0.5)
        assert not set(gone_by) & _running_kernel_ids(server)  # the processes are gone too
        # The slow page connected 20 s after it came, got its game and played; its kernel
        # outlives the deadline it would have had without connecting.
        await asyncio.wait_for(_answered(slow), 60)
        assert slow.error == "" and slow.widgets_s > 20 and slow.answer_s is not None
        await asyncio.sleep(max(0.0, t0 + slow.page_s + limit + 3 - time.monotonic()))
        assert await exists(slow.kernel_id)
        stay.set()
        await slow_visit

    try:
        asyncio.run(asyncio.wait_for(scenario(), 240))
        log = server.log.read_text(errors="replace")
        assert log.count("did not connect within") == 6
        assert "games started from one address in the last minute" in log
    finally:
        server.stop()


async def _answered(visit: Any) -> None:
    while not (visit.error or visit.answer_s is not None):
        await asyncio.sleep(0.2)


def test_the_load_client_without_browsers_reports_every_figure(tmp_path: Path) -> None:
    """``tools/bench_load_ws.py`` (``make bench-load``): three visitors fetch the page, get
    their widgets over the websocket and draw a card; one line per figure."""
    out = tmp_path / "ws.json"
    done = run_load_tool("bench_load_ws.py", out, timeout=600)
    report = json.loads(out.read_text())
    summary = report["summary"]
    assert summary["got_widgets"] == 3 and summary["failures"] == []
    assert all(v["answer_s"] is not None and v["click_updates"] > 0 for v in report["visits"])
    assert 0 < summary["server_cpu_s_per_visitor"] < 30
    assert 20 < summary["kernel_pss_median_mb"] < 300
    for line in (
        "time to widgets: p50",
        "answer to a click (Draw from the deck): p50",
        "failures: 0",
        "busy answers: 0",
        "server CPU per visitor:",
        "memory per kernel:",
    ):
        assert line in done.stdout
