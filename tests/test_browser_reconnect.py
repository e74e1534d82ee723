"""A server crash in real Chromium: the page says the connection is lost and reconnects
(issue 49, item 8).

``make app``'s server is killed (SIGKILL, its kernels too) under a page in the middle of a
game: the page must say so at once, and its *Reconnect* must wait for the server. The
server is started again on the same port; *Reconnect* loads the page, which offers the
game back from the browser's copy, with every move. Then the page's kernel alone is killed:
the page says that too.
"""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path
from typing import Any

import pytest
from browser import (
    JS_CANVAS_PAINTED,
    WAIT_MS,
    _children,
    _free_port,
    context,
    keep_tickets,
    no_errors,
    past_first_screen,
    shoot,
    start_game,
    total_moves,
)
from server_tools import app_server, running

LOST = ".ttr-lost-connection"


@pytest.fixture(scope="module")
def tables_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return {"TTR_TABLES_URL": f"sqlite:///{tmp_path_factory.mktemp('tables')}/t.sqlite"}


def app_command() -> list[str]:
    return app_server("notebooks/app.ipynb", warm=1)


def crash(server: Any) -> None:
    """SIGKILL the server and the kernels it started: nothing is shut down cleanly."""
    kernels = _children(server.proc.pid)
    os.kill(server.proc.pid, signal.SIGKILL)
    server.proc.wait(timeout=10)
    for pid in kernels:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def open_app(context: Any, url: str) -> Any:
    page = context.new_page()
    page.goto(url, wait_until="domcontentloaded", timeout=60_000)
    page.wait_for_function(JS_CANVAS_PAINTED, timeout=90_000, polling=200)
    return page


def test_a_server_crash_is_said_and_the_page_reconnects_to_its_game(context, tables_env):
    port = _free_port()
    with running(app_command(), "voila-crash.log", tables_env, port=port) as server:
        page = open_app(context, server.url)
        past_first_screen(page)
        start_game(page, "usa", seed=11)
        keep_tickets(page)
        moves = total_moves(page)
        assert moves >= 1 and not page.locator(LOST).count()
        crash(server)
        notice = page.locator(LOST)
        notice.wait_for(state="visible", timeout=20_000)
        text = notice.inner_text()
        assert "The connection to the server is lost" in text and "Reconnect" in text
        assert "kept in this browser" in text
        shoot(page, "connection-lost.png")
        # Reconnect while the server is down: the page stays and says the server is not back.
        page.locator(f"{LOST} button.ttr-reconnect").click()
        page.locator(f"{LOST} .ttr-wait").filter(has_text="does not answer yet").wait_for(
            timeout=WAIT_MS
        )
        assert page.locator(LOST).is_visible()  # not reloaded onto the browser's error page
    with running(app_command(), "voila-crash-restarted.log", tables_env, port=port):
        page.locator(f"{LOST} .ttr-wait").filter(has_text="answers again").wait_for(timeout=WAIT_MS)
        page.locator(f"{LOST} button.ttr-reconnect").click()
        page.wait_for_function(JS_CANVAS_PAINTED, timeout=90_000, polling=200)
        prompt = page.locator(".ttr-prompt")
        prompt.wait_for(state="visible", timeout=WAIT_MS)
        assert "Resume your last game" in prompt.inner_text()
        page.locator("button.ttr-prompt-ok").click()
        # Every move is back (the bots may go on at once: they move on their own).
        page.wait_for_function(
            "(n) => Number(document.querySelector('.ttr-status-box [data-total]')"
            "?.getAttribute('data-total')) >= n",
            arg=moves,
            timeout=WAIT_MS,
        )
        assert page.locator(".ttr-log li").first.inner_text().endswith("Ann keeps 3 tickets")
        assert not page.locator(LOST).count()
        no_errors(page)
        shoot(page, "connection-reconnected.png")
        page.close()


def test_a_dead_kernel_is_said_too(context, tables_env):
    with running(app_command(), "voila-kernel-dies.log", tables_env) as server:
        page = open_app(context, server.url)
        kernel_id = page.evaluate(
            "() => (performance.getEntriesByType('resource').map(e => e.name)"
            ".join(' ').match(/api\\/kernels\\/([0-9a-f-]{36})/) || [])[1] || null"
        )
        command_lines = {
            p: Path(f"/proc/{p}/cmdline").read_bytes() for p in _children(server.proc.pid)
        }
        mine = [
            p
            for p, line in command_lines.items()
            if b"ipykernel" in line and kernel_id.encode() in line
        ]
        assert len(mine) == 1, (kernel_id, command_lines)
        os.kill(mine[0], signal.SIGKILL)
        notice = page.locator(LOST)
        notice.wait_for(state="visible", timeout=WAIT_MS)
        assert "restarted the engine behind this page" in notice.inner_text()
        page.close()
