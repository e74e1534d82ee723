"""Serving a class, as visitors see it: Debian's Chromium against Voilà with ``voila.json``.

- The page is complete without internet: no request leaves 127.0.0.1, no "Unsatisfied
  version" warning, and the "Starting the game" notice is the first thing painted.
- A class larger than the server: the second visitor sees their place in line, the third
  sees "busy, retrying" and gets in by itself once the first leaves; nobody sees a blank page.
- A notebook that fails shows a short notice, never a traceback or a server path.
- ``tools/bench_load.py`` (``make bench-load``) runs and reports every visitor's board.

Chromium resolves no host but 127.0.0.1 here (a classroom without internet).
Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from load_tools import run_load_tool

sync_api = pytest.importorskip("playwright.sync_api")

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = REPO / "test-artifacts"
_spec = importlib.util.spec_from_file_location("bench_load", REPO / "tools" / "bench_load.py")
bench = importlib.util.module_from_spec(_spec)
sys.modules["bench_load"] = bench  # its dataclasses look their module up
_spec.loader.exec_module(bench)

pytestmark = pytest.mark.skipif(
    not Path(bench.CHROMIUM).exists() and shutil.which("chromium") is None,
    reason="Debian's chromium is not installed (apt-get install -y chromium)",
)
LOCAL = ("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = bench.CHROMIUM if Path(bench.CHROMIUM).exists() else shutil.which("chromium")
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=executable, headless=True, args=bench.CHROMIUM_FLAGS
        )
        try:
            yield chromium
        finally:
            chromium.close()


def serve(name: str, *args: str, notebook: str = "notebooks/app.ipynb") -> bench.Server:
    ARTIFACTS.mkdir(exist_ok=True)
    server = bench.Server(notebook, list(args), ARTIFACTS / f"voila-{name}.log")
    try:
        server.wait_ready(90)
    except BaseException:
        server.stop()
        raise
    return server


class Visitor:
    """One visitor's page, with what it asked for and what it showed over time."""

    def __init__(self, browser: Any, url: str) -> None:
        self.context = browser.new_context(viewport=bench.VIEWPORT)
        self.page = self.context.new_page()
        self.requests: list[str] = []
        self.failed: list[str] = []
        self.warnings: list[str] = []
        self.seen: list[str] = []
        self.documents = 0  # documents the tab has loaded: more than one means it reloaded itself
        self.page.on(
            "framenavigated",
            lambda f: (
                setattr(self, "documents", self.documents + 1)
                if f == self.page.main_frame
                else None
            ),
        )
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("requestfailed", lambda r: self.failed.append(r.url))
        self.page.on(
            "console",
            lambda m: (
                self.warnings.append(m.text)
                if "Unsatisfied version" in m.text or "No satisfying version" in m.text
                else None
            ),
        )
        self.page.goto(url, wait_until="commit", timeout=60_000)

    def state(self) -> str:
        try:
            state = self.page.evaluate(bench.JS_STATE)
        except sync_api.Error:  # between two documents (the page reloads itself)
            state = "navigating"
        if not self.seen or self.seen[-1] != state:
            self.seen.append(state)
        return state

    def wait_for(self, wanted: str, timeout: float = 120) -> None:
        """Poll what the page shows until ``wanted``; a blank page must never last. On the
        way to a board, the visitor chooses *Play against bots* on the first screen."""
        deadline = time.monotonic() + timeout
        blank_since = None
        while (state := self.state()) != wanted:
            assert state != "error", f"error on the page; seen {self.seen}"
            if state == "first screen" and wanted == "board":
                with contextlib.suppress(sync_api.Error):
                    self.page.click("button.ttr-first-bots", timeout=5_000)
            if state == "blank":
                blank_since = blank_since or time.monotonic()
                assert time.monotonic() - blank_since < bench.BLANK_LIMIT_S, (
                    f"blank page; seen {self.seen}"
                )
            else:
                blank_since = None
            assert time.monotonic() < deadline, f"no {wanted!r} within {timeout} s: {self.seen}"
            time.sleep(0.2)

    def text(self, selector: str) -> str:
        return self.page.locator(selector).inner_text()

    def close(self) -> None:
        # As a tab being closed: Voilà's page asks the server to shut its kernel down.
        self.page.close(run_before_unload=True)
        self.context.close()


def test_the_page_is_complete_without_internet(browser: Any) -> None:
    server = serve("offline", "--ClassroomKernelManager.warm_kernels=1")
    try:
        html = subprocess.run(
            ["curl", "-s", "--max-time", "60", server.url], capture_output=True, text=True
        ).stdout
        # The notice comes before the page's heavy styles and scripts: it paints at once.
        scripts = html.index('<script src="/voila/static/voila.js"')  # not the notice's own
        assert 0 < html.index("ttr-starting") < html.index("index.css") < scripts
        visitor = Visitor(browser, server.url)
        visitor.wait_for("board")
        offsite = [u for u in visitor.requests if not u.startswith(LOCAL)]
        assert offsite == [] and visitor.failed == []
        assert visitor.warnings == []
        # The notice goes once the app is on the screen (a moment after the board is drawn).
        visitor.page.locator(".ttr-notice").wait_for(state="detached", timeout=30_000)
        visitor.close()
    finally:
        server.stop()


def test_a_class_larger_than_the_server_waits_in_line_or_retries(browser: Any) -> None:
    """Room for two kernels, one page loading at a time: the second visitor waits in line;
    the third is told the server is busy, and gets in by itself when the first leaves."""
    server = serve(
        "busy",
        "--ClassroomKernelManager.warm_kernels=2",
        "--ClassroomKernelManager.max_kernels=2",
        "--ClassroomKernelManager.max_loading=1",
        "--ClassroomKernelManager.loading_settle_s=8",
        "--ClassroomKernelManager.unconnected_hold_s=30",
        "--ClassroomKernelManager.wait_s=1",
    )
    try:
        server.wait_idle(90)  # both warm kernels are ready
        first = Visitor(browser, server.url)
        first.wait_for("starting")
        second = Visitor(browser, server.url)
        # The first page keeps its place until 8 s after reaching its kernel.
        second.page.wait_for_function(
            "() => /next in line/.test(document.querySelector('.ttr-step')?.textContent)",
            timeout=60_000,
        )
        second.page.screenshot(path=str(ARTIFACTS / "serving-in-line.png"))
        first.wait_for("board")
        second.wait_for("board")
        third = Visitor(browser, server.url)  # two kernels are running: no room
        third.wait_for("busy")
        assert "busy" in third.text(".ttr-busy h1")
        third.page.screenshot(path=str(ARTIFACTS / "serving-busy.png"))
        first.close()  # its kernel is shut down; a warm one takes its place
        third.wait_for("board", timeout=120)  # the busy page retried by itself
        assert third.documents >= 2, f"the busy page did not reload itself: {third.seen}"
        for visitor in (second, third):
            visitor.close()
    finally:
        server.stop()


def test_a_failing_notebook_shows_a_short_notice_and_no_traceback(
    browser: Any, tmp_path: Path
) -> None:
    notebook = {
        "cells": [
            {
                "cell_type": "code",
                "execution_count": None,
                "id": "fails",
                "metadata": {},
                "outputs": [],
                "source": "open('/secret/server/path.json')",
            }
        ],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (tmp_path / "broken.ipynb").write_text(json.dumps(notebook))
    server = serve(
        "broken",
        f"--Voila.root_dir={tmp_path}",
        "--ClassroomKernelManager.warm_kernels=1",
        notebook=str(tmp_path / "broken.ipynb"),
    )
    try:
        visitor = Visitor(browser, server.url)
        visitor.page.wait_for_selector(".ttr-failed", timeout=90_000)
        text = visitor.page.locator("body").inner_text()
        assert "could not start" in text
        for leak in ("Traceback", "FileNotFoundError", "/secret/server", str(tmp_path)):
            assert leak not in text
        visitor.page.screenshot(path=str(ARTIFACTS / "serving-failed.png"))
        visitor.close()
    finally:
        server.stop()


def test_bench_load_reports_every_visitor(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    done = run_load_tool("bench_load.py", out, timeout=400)
    summary = json.loads(out.read_text())["summary"]
    assert summary["saw_first_screen"] == summary["saw_board"] == 3  # chose, then a board
    assert summary["saw_blank"] == 0
    assert summary["offsite_requests"] == [] and summary["version_warnings_per_page"] == 0
    assert 0 < summary["kernel_pss_median_mb"] < 200
    assert "memory per visitor" in done.stdout
