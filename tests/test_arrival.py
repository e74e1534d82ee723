"""A class arriving costs the server little (issue 51, item 1).

What the design promises, not timings (``tools/bench_arrival.py`` and ``make bench-load``
measure those): the first screen is a small page with no board and no game, built when the
visitor leaves it; warm kernels are forked from one process that ran ``warm_code`` once, each
with its own randomness, and they live as long as the server, not as long as that process;
Voilà compiles the page's templates once.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
import urllib.request
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import psutil
import pytest
from ipycanvas import Canvas, MultiCanvas
from load_tools import load_tool

from ttr_nb.widgets import GameApp
from ttr_nb.widgets.links import LinkReader
from ttr_nb.widgets.storage import BrowserStore, SeatKeeper
from ttr_nb.widgets.tutorial.runner import ProgressKeeper

serving = pytest.importorskip("ttr_nb.serving")

FIRST_SCREEN_WIDGETS = 150  # what the page gets before the visitor chooses (603 with a board)


def tree(widget: widgets.Widget, seen: dict[str, widgets.Widget]) -> dict[str, widgets.Widget]:
    """Every widget the page gets for ``widget``: its children, layouts and styles too."""
    if widget.model_id in seen:
        return seen
    seen[widget.model_id] = widget
    for name in widget.keys:
        value = getattr(widget, name)
        for part in value if isinstance(value, (list, tuple)) else [value]:
            if isinstance(part, widgets.Widget):
                tree(part, seen)
    return seen


def page_opens(app: GameApp) -> None:
    """What a new visitor's page says as it opens: nothing kept in this browser (no game,
    no seat, no tutorial step) and no link."""
    for part in app.widget.children:
        if isinstance(part, (BrowserStore, SeatKeeper, ProgressKeeper)):
            part._received(part, {"kind": "stored", "text": None, "too_long": False}, [])
        elif isinstance(part, LinkReader):
            link = {"kind": "link", "query": "", "origin": "http://127.0.0.1:8866", "path": "/"}
            part._received(part, link, [])


def test_the_first_screen_is_a_small_page_without_a_board_or_a_game() -> None:
    app = GameApp(welcome=True, auto_bots=False)  # what launch() makes
    errors: list[str] = []
    app.guard.listeners.append(errors.append)
    page_opens(app)
    sent = tree(app.widget, {})
    assert len(sent) < FIRST_SCREEN_WIDGETS, len(sent)
    assert not [w for w in sent.values() if isinstance(w, (Canvas, MultiCanvas))]
    assert app.game is None and not errors
    screen = app.first_screen
    assert screen.showing and screen.widget in app.widget.children
    assert [b.description for b in (screen.learn_button, screen.bots_button)] == [
        "Learn to play",
        "Play against bots",
    ]
    # Play against bots: now the board and the game.
    screen.map_picker.value = "germany"
    screen.bots_button.click()
    sent = tree(app.widget, {})
    assert [w for w in sent.values() if isinstance(w, MultiCanvas)]
    assert app.game is not None and app.map.id == "germany" and not screen.showing
    assert app.main in app.widget.children and "ttr-away" not in app.main._dom_classes
    assert not errors


# ---------------------------------------------------------------- forked kernels
def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(test(), 180))


async def until(condition: Callable[[], bool], timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.1)


async def evaluate(km: Any, kernel_id: str, expression: str) -> str:
    client = km.get_kernel(kernel_id).client()
    client.start_channels()
    try:
        await client.wait_for_ready(timeout=60)
        reply = await client.execute(
            "pass", reply=True, timeout=60, user_expressions={"x": expression}
        )
        return reply["content"]["user_expressions"]["x"]["data"]["text/plain"]
    finally:
        client.stop_channels()


def manager(**options: Any) -> Any:
    options.setdefault("warm_nice", 0)
    options.setdefault("min_available_mb", 0)
    options.setdefault("table_service", False)
    return serving.ClassroomKernelManager(**options)


def test_warm_kernels_are_forked_from_one_process_that_warmed_up_once(tmp_path: Path) -> None:
    ran = tmp_path / "warm_code ran"
    code = f"open({str(ran)!r}, 'a').write('once ')\nwarm = 41 + 1"

    async def test() -> None:
        km = manager(warm_kernels=3, max_starting=3, warm_code=code)
        try:
            await until(lambda: len(km._warm) == 3)
            assert ran.read_text() == "once "  # not once per kernel
            template = km.kernel_template.proc.pid
            kernels = list(km._warm)
            for kernel_id in kernels:  # each a child of the template, not of the server
                pid = km.get_kernel(kernel_id).provisioner.pid
                assert psutil.Process(pid).ppid() == template
            draws = [
                await evaluate(
                    km, k, "(warm, __import__('random').random(), __import__('os').getpid())"
                )
                for k in kernels
            ]
            assert all(d.startswith("(42, ") for d in draws)  # what warm_code left
            assert len({d.split(", ")[1] for d in draws}) == 3  # each its own random numbers
            # A visitor takes one; the one started in its place is forked too.
            visitor = await km.start_kernel(kernel_name="python3")
            assert visitor in kernels
            await until(lambda: len(km._warm) == 3)
            assert ran.read_text() == "once "
            # Signals reach the visitor's kernel alone (its own process group), not the
            # template or the other kernels forked from it.
            others = {km.get_kernel(k).provisioner.pid for k in km._warm}
            provisioner = km.get_kernel(visitor).provisioner
            assert os.getpgid(provisioner.pid) == provisioner.pgid == provisioner.pid
            await km.interrupt_kernel(visitor)
            assert await evaluate(km, visitor, "warm") == "42"
            await km.shutdown_kernel(visitor, now=True)
            await asyncio.sleep(1)
            assert km.kernel_template.running and all(psutil.pid_exists(p) for p in others)
        finally:
            await km.shutdown_all(now=True)

    run(test)


def test_a_forked_kernel_draws_on_a_canvas_and_serves_the_pages_widgets() -> None:
    """What the template imported before there was a kernel works in each kernel: the
    page's widget manager finds its comm target, and a drawing reaches the page (it goes
    through ipycanvas's canvas manager, a widget made at import, in the template)."""
    code = "import ipycanvas"

    async def test() -> None:
        km = manager(warm_kernels=1, warm_code=code)
        try:
            await until(lambda: len(km._warm) == 1)
            kernel_id = km._warm[0]
            client = km.get_kernel(kernel_id).client()
            client.start_channels()
            try:
                await client.wait_for_ready(timeout=60)
                msg_id = client.execute(
                    "import comm\n"
                    "targets = sorted(comm.get_comm_manager().targets)\n"
                    "c = ipycanvas.Canvas(width=20, height=20)\n"
                    "with ipycanvas.hold_canvas():\n"
                    "    c.fill_rect(0, 0, 10, 10)\n"
                    "manager = c._canvas_manager.model_id",
                    user_expressions={"targets": "targets", "manager": "manager"},
                )
                drawn: list[dict[str, Any]] = []
                while True:
                    msg = await client.get_iopub_msg(timeout=60)
                    if msg["msg_type"] == "comm_msg" and msg["buffers"]:
                        drawn.append(msg["content"])
                    if (
                        msg["parent_header"].get("msg_id") == msg_id
                        and msg["content"].get("execution_state") == "idle"
                    ):
                        break
                reply = await client.get_shell_msg(timeout=60)
                found = reply["content"]["user_expressions"]
                assert "jupyter.widget.control" in found["targets"]["data"]["text/plain"]
                manager_id = found["manager"]["data"]["text/plain"].strip("'")
                assert [d for d in drawn if d["comm_id"] == manager_id], drawn
            finally:
                client.stop_channels()
        finally:
            await km.shutdown_all(now=True)

    run(test)


def test_a_warm_code_unsafe_to_fork_starts_each_kernel_itself(tmp_path: Path) -> None:
    """A template that would be copied with a thread running is not used: kernels start
    the usual way, each running warm_code, and the server's log says why."""
    ran = tmp_path / "warm_code ran"
    code = (
        "import threading, time\n"
        "threading.Thread(target=time.sleep, args=(600,), daemon=True).start()\n"
        f"open({str(ran)!r}, 'a').write('x')\nwarm = 7"
    )

    async def test() -> None:
        km = manager(warm_kernels=2, max_starting=1, warm_code=code)
        try:
            await until(lambda: len(km._warm) == 2)
            assert "threads running" in km.kernel_template.failure
            assert len(ran.read_text()) == 3  # the template's try, then each kernel's own
            for kernel_id in km._warm:
                assert await evaluate(km, kernel_id, "warm") == "7"
        finally:
            await km.shutdown_all(now=True)

    run(test)


def test_forked_kernels_outlive_the_template_and_leave_with_the_server(tmp_path: Path) -> None:
    """The app's server with forked kernels: the template killed, a visitor's kernel goes on
    and new visitors still get one (the template is started again); the server killed, its
    kernels leave too, as started kernels do."""
    bench = load_tool("bench_load")
    server = bench.Server(
        "notebooks/app.ipynb", ["--ClassroomKernelManager.warm_kernels=2"], tmp_path / "v.log"
    )
    try:
        server.wait_ready(90)
        server.wait_idle(120)

        def kernel_pids() -> set[int]:
            return set(bench.kernel_ids(server.proc.pid))

        templates = [
            p
            for p in psutil.Process(server.proc.pid).children()
            if "ttr_nb.kernel_template" in " ".join(p.cmdline())
        ]
        assert len(templates) == 1
        forked = {c.pid for c in templates[0].children()}
        assert len(forked) == 2 and forked <= kernel_pids()
        templates[0].kill()
        time.sleep(3)
        assert not _not_zombie(templates[0].pid)  # gone (or waiting for the server to see it)
        assert all(psutil.pid_exists(p) for p in forked)  # the warm kernels go on
        for _ in range(3):  # visitors: the warm ones, then one forked from a new template
            with urllib.request.urlopen(server.url, timeout=60) as page:
                assert page.status == 200 and b"kernelId" in page.read()
        deadline = time.monotonic() + 60
        while not [
            p
            for p in psutil.Process(server.proc.pid).children()
            if "ttr_nb.kernel_template" in " ".join(p.cmdline()) and p.children()
        ]:
            assert time.monotonic() < deadline, "no kernel forked from a new template"
            time.sleep(0.5)
        every = kernel_pids()
        leftovers = bench.tree(server.proc.pid)
        os.kill(server.proc.pid, signal.SIGKILL)
        server.proc.wait(10)
        deadline = time.monotonic() + 20
        while alive := [p for p in every if psutil.pid_exists(p) and _not_zombie(p)]:
            assert time.monotonic() < deadline, f"kernels outlived the server: {alive}"
            time.sleep(0.5)
    finally:
        server.stop()
        for proc in locals().get("leftovers", []):  # the table service's workers, say
            with contextlib.suppress(psutil.Error):
                for child in proc.children(recursive=True):
                    child.kill()
                proc.kill()


def _not_zombie(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


# ---------------------------------------------------------------- the page's templates
def test_the_pages_templates_are_compiled_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Voilà makes a new Jinja environment for every page; the app's server keeps the
    compiled templates, so the second page compiles nothing."""
    import jinja2
    from voila.exporter import VoilaExporter
    from voila.paths import collect_template_paths

    from ttr_nb.voila_server import compile_templates_once

    compile_templates_once()
    compiled: list[str] = []
    compile_source = jinja2.Environment._compile

    def counting(self: jinja2.Environment, source: str, filename: str) -> Any:
        compiled.append(filename)
        return compile_source(self, source, filename)

    monkeypatch.setattr(jinja2.Environment, "_compile", counting)
    paths = collect_template_paths(["voila", "nbconvert"], "ttr")
    for _ in range(2):  # two pages
        VoilaExporter(template_paths=paths, template_name="ttr").environment.get_template(
            "index.html.j2"
        )
    first = len(compiled)
    VoilaExporter(template_paths=paths, template_name="ttr").environment.get_template(
        "index.html.j2"
    )
    assert len(compiled) == first  # the third page: nothing compiled
