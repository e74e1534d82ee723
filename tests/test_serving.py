"""The classroom kernel manager (ttr_nb.serving): warm kernels, the capacity gate, the line.

Real kernels are started (a few, small); no browser. What the visitor sees of all this is
checked in ``test_serving_browser.py``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

serving = pytest.importorskip("ttr_nb.serving")


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
