"""The static site (``make site``) in Chromium, with the internet cut off.

``make site-test`` builds ``_site/`` and runs this file with ``TTR_SITE=_site``; a plain
``pytest`` skips it, so that a stale ``_site/`` never passes for the current code.

The folder is served by Python's static file server on 127.0.0.1. Chromium resolves no
host name (``--host-resolver-rules``) and every request to a host other than 127.0.0.1
is aborted and counted: one such request fails the test. Checks: the app page (Voici)
draws the board, a human keeps tickets and claims a route by clicking the canvas, the
claim shows in the player's colour, and after a reload (which starts Python afresh) the
game comes back from the browser's storage; a lesson opened in JupyterLite runs to its end with
its plots and its board. Screenshots and timings go to ``test-artifacts/site-*``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
import tutorial_browser

# The app helpers the Voilà tests use: they act on the page the same way here.
from browser import (
    JS_APP_SHOWN,
    JS_CANVAS_PAINTED,
    bots_until_me,
    canvas_point,
    click_and_settle,
    click_and_wait_moves,
    colour_share,
    geometry_for,
    keep_tickets,
    no_errors,
    start_game,
    status,
)
from chromium import CHROMIUM, FLAGS, OFFLINE  # tools/chromium.py, put on the path by browser

from ttr_nb import load_map
from ttr_nb.widgets.style import player_style

REPO = Path(__file__).resolve().parent.parent
SITE = os.environ.get("TTR_SITE")
ARTIFACTS = REPO / "test-artifacts"
# No host name resolves: whatever slips past the request counter still cannot leave.
CHROMIUM_FLAGS = [*FLAGS, OFFLINE]
VIEWPORT = {"width": 1500, "height": 1000}
LOCAL_HOSTS = {"127.0.0.1"}
START_MS = 300_000  # a cold start loads ~35 MB and starts Python in WebAssembly
WAIT_MS = 120_000
LESSON = "graphs_1_board.ipynb"  # matplotlib, networkx and the board widget

pytestmark = [
    pytest.mark.skipif(SITE is None, reason="the static site is tested by `make site-test`"),
    pytest.mark.skipif(
        not Path(CHROMIUM).exists() and shutil.which("chromium") is None,
        reason="Debian's chromium is not installed (apt-get install -y chromium)",
    ),
]

# The open notebook's cells as JupyterLab's model holds them (the page only renders the
# cells in view): execution counts and error outputs.
JS_NOTEBOOK_STATE = """
() => {
  const widget = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  if (!widget || !widget.content || !widget.content.model) return null;
  const cells = [];
  for (const cell of widget.content.model.cells) {
    if (cell.type !== 'code') continue;
    const outputs = cell.outputs.toJSON();
    cells.push({
      count: cell.executionCount,
      errors: outputs.filter(o => o.output_type === 'error').map(o => o.ename + ': ' + o.evalue),
      images: outputs.filter(o => o.data && o.data['image/png']).length,
      widgets: outputs.filter(o => o.data && o.data['application/vnd.jupyter.widget-view+json'])
        .length,
    });
  }
  return {cells, kernel: widget.sessionContext.kernelDisplayStatus};
}
"""

# Scrolls the notebook to the first cell that shows a widget (the board).
JS_SHOW_FIRST_WIDGET = """
async () => {
  const notebook = window.jupyterapp.shell.currentWidget.content;
  const cells = [...notebook.model.cells];
  const index = cells.findIndex(c => c.type === 'code' && c.outputs.toJSON().some(
    o => o.data && o.data['application/vnd.jupyter.widget-view+json']));
  notebook.activeCellIndex = index;
  await notebook.scrollToItem(index, 'start');
}
"""


# --------------------------------------------------------------------- fixtures
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def site_dir() -> Path:
    path = (REPO / SITE).resolve() if SITE else REPO / "_site"
    assert (path / "index.html").exists(), f"{path} holds no site: run `make site`"
    return path


SERVER_LOG = ARTIFACTS / "site-server.log"
SERVED = re.compile(r'"GET (\S+) HTTP/[\d.]+" 200 ')  # a file sent in full (not a 304)


def bytes_sent(site_dir: Path, since: int) -> tuple[int, int]:
    """Bytes of the site's files the server sent in full after log offset ``since``, and
    the log's length now."""
    text = SERVER_LOG.read_text(encoding="utf-8", errors="replace")
    total = 0
    for path in SERVED.findall(text[since:]):
        local = site_dir / urllib.request.url2pathname(path.split("?")[0].lstrip("/"))
        if local.is_dir():
            local = local / "index.html"
        if local.is_file():
            total += local.stat().st_size
    return total, len(text)


@pytest.fixture(scope="module")
def server(site_dir: Path) -> Iterator[str]:
    """A plain static file server on 127.0.0.1, as `make site-serve` runs it (its log, one
    line per file sent, goes to test-artifacts/site-server.log)."""
    port = _free_port()
    cmd = [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "-d", str(site_dir)]
    ARTIFACTS.mkdir(exist_ok=True)
    log = SERVER_LOG.open("w", encoding="utf-8")
    proc = subprocess.Popen([*cmd, str(port)], stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(url + "index.html", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise
                time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        log.close()


class Outside:
    """Requests that tried to leave 127.0.0.1 (aborted, or failed to resolve)."""

    def __init__(self) -> None:
        self.urls: list[str] = []

    def note(self, url: str) -> bool:
        if url.startswith(("data:", "blob:")) or urlparse(url).hostname in LOCAL_HOSTS:
            return False
        self.urls.append(url)
        return True


@pytest.fixture(scope="module")
def outside() -> Outside:
    return Outside()


@pytest.fixture(scope="module")
def context(tmp_path_factory: pytest.TempPathFactory, outside: Outside) -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    profile = tmp_path_factory.mktemp("chromium-profile")
    executable = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch_persistent_context(
            str(profile),
            executable_path=executable,
            headless=True,
            args=CHROMIUM_FLAGS,
            viewport=VIEWPORT,
        )

        def guard(route: Any) -> None:
            if outside.note(route.request.url):
                route.abort("blockedbyclient")
            else:
                route.continue_()

        # Pages and their workers (Pyodide runs in one) go through the route.
        browser.route("**/*", guard)
        browser.on("requestfailed", lambda request: outside.note(request.url))
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="module")
def timings() -> Iterator[dict[str, float]]:
    figures: dict[str, float] = {}
    yield figures
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "site-timings.json").write_text(json.dumps(figures, indent=2))
    print("\nstatic site timings:", json.dumps(figures))


def stays_local(outside: Outside) -> None:
    assert not outside.urls, f"the site tried to reach the internet: {outside.urls}"


def shoot(page: Any, name: str, full: bool = True) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"site-{name}.png"
    if full:  # Voici scrolls inside the page: grow the viewport to the app's height
        height = page.evaluate(
            "() => { for (const e of document.querySelectorAll('body, body *'))"
            " if (e.scrollTop) e.scrollTop = 0; window.scrollTo(0, 0);"
            " const a = document.querySelector('.ttr-app');"
            " return a ? Math.ceil(a.getBoundingClientRect().bottom + 40) : 1000; }"
        )
        page.set_viewport_size({"width": VIEWPORT["width"], "height": min(height, 4000)})
    page.screenshot(path=str(path), full_page=full)
    page.set_viewport_size(VIEWPORT)
    return path


def wait_for_notebook(page: Any, done: Any, what: str) -> dict[str, Any]:
    """Poll the notebook's model until ``done(state)``; fail saying where it stood."""
    deadline = time.monotonic() + START_MS / 1000
    state = None
    while time.monotonic() < deadline:
        state = page.evaluate(JS_NOTEBOOK_STATE)
        if state is not None and done(state):
            return state
        page.wait_for_timeout(500)
    shoot(page, "lesson-timeout", full=False)
    counts = state and [c["count"] for c in state["cells"]]
    raise AssertionError(f"waited in vain for {what}: kernel {state and state['kernel']}, {counts}")


# ------------------------------------------------------------------------ tests
def test_every_locked_package_is_in_the_site(site_dir: Path) -> None:
    """Pyodide loads packages by its lock file: each one must be in the site, intact."""
    folder = site_dir / "static" / "pyodide"
    lock = json.loads((folder / "pyodide-lock.json").read_text(encoding="utf-8"))
    for name, entry in lock["packages"].items():
        data = (folder / entry["file_name"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"], name
    assert {"ttr-nb", "numpy", "ipycanvas", "matplotlib"} <= set(lock["packages"])
    config = json.loads((site_dir / "jupyter-lite.json").read_text(encoding="utf-8"))
    kernel = config["jupyter-config-data"]["litePluginSettings"][
        "@jupyterlite/pyodide-kernel-extension:kernel"
    ]
    assert kernel["pyodideUrl"] == "./static/pyodide/pyodide.js"
    assert kernel["disablePyPIFallback"] is True


def say_the_sizes(site_dir: Path, first_visit: int) -> None:
    """What the docs, the front page and the app's notice say a first visit downloads, and
    the docs the site's size, agree with what was measured (within 3 %)."""
    site_mib = sum(p.stat().st_size for p in site_dir.rglob("*") if p.is_file()) / 2**20
    docs = (REPO / "docs" / "deployment" / "static-site.md").read_text(encoding="utf-8")
    said = re.search(r"builds _site/ \(about ([\d.]+) MiB\)", docs)
    assert said and abs(float(said.group(1)) / site_mib - 1) < 0.03, (said, site_mib)
    first_mb = first_visit / 1e6
    texts = {
        "docs": docs,
        "front page": (site_dir / "index.html").read_text(encoding="utf-8"),
        "notice": (site_dir / "voici" / "render" / "app.html").read_text(encoding="utf-8"),
    }
    for where, text in texts.items():
        said = re.search(r"(?:downloads?|loads) (?:it )?\(?about ([\d.]+)(?:&nbsp;|\s)MB", text)
        assert said, f"the {where} no longer says what a first visit downloads"
        assert abs(float(said.group(1)) / first_mb - 1) < 0.03, (where, said.group(0), first_mb)


def test_app_page_plays_offline(
    context: Any, server: str, site_dir: Path, outside: Outside, timings: dict[str, float]
) -> None:
    page = context.new_page()
    _, log_at = bytes_sent(site_dir, 0)
    opened = time.monotonic()
    page.goto(server + "voici/render/app.html", wait_until="domcontentloaded")
    # The app's own notice, not Voici's bare spinner, while Python starts in the tab.
    notice = page.locator(".ttr-starting")
    notice.wait_for(state="visible", timeout=WAIT_MS)
    assert "Starting the game" in notice.inner_text()
    assert page.title() == "ttr-nb: play Ticket to Ride"
    page.wait_for_function(
        "() => Number((document.querySelector('.ttr-seconds') || {}).textContent) >= 2",
        timeout=WAIT_MS,
    )  # it counts the seconds
    shoot(page, "app-starting", full=False)
    # The app opens on its first screen (no board yet); the visitor plays against bots.
    page.wait_for_function(JS_APP_SHOWN, timeout=START_MS, polling=250)
    timings["app_cold_start_to_first_screen_s"] = round(time.monotonic() - opened, 1)
    click_and_settle(page, "button.ttr-first-bots")
    page.wait_for_function(JS_CANVAS_PAINTED, timeout=START_MS, polling=250)
    timings["app_cold_start_to_drawn_board_s"] = round(time.monotonic() - opened, 1)
    first_visit, _ = bytes_sent(site_dir, log_at)
    timings["app_first_visit_mb"] = round(first_visit / 1e6, 1)
    timings["site_mib"] = round(
        sum(p.stat().st_size for p in site_dir.rglob("*") if p.is_file()) / 2**20, 1
    )
    # Gone once the app shows (the notice looks for the app twice a second).
    page.locator(".ttr-starting").wait_for(state="detached", timeout=5_000)
    no_errors(page)
    shoot(page, "app-first-load")
    say_the_sizes(site_dir, first_visit)

    start_game(page, "usa", seed=7)  # bots move one per click: deterministic
    keep_tickets(page)
    bots_until_me(page)
    routes: list[str] = []
    for _ in range(15):  # draw until the human can afford a route
        routes = json.loads(
            page.locator(".ttr-claimable [data-routes]").get_attribute("data-routes") or "[]"
        )
        if routes:
            break
        click_and_wait_moves(page, "button.ttr-draw-blind")
        if page.locator("button.ttr-draw-blind").is_enabled() and "second card" in status(page):
            click_and_wait_moves(page, "button.ttr-draw-blind")
        bots_until_me(page)
    assert routes, "the human never could afford a route"

    game_map = load_map("usa")
    route = game_map.route_by_id[routes[0]]
    x, y = geometry_for(page, "usa").routes[route.id].anchor
    teal = player_style(0).fill
    assert colour_share(page, x, y, teal) < 0.2
    started = time.monotonic()
    page.mouse.click(*canvas_point(page, x, y))
    page.wait_for_function(
        "(name) => document.querySelector('.ttr-selected').innerText.includes(name)",
        arg=game_map.place_name(route.a),
        timeout=WAIT_MS,
    )
    timings["app_click_route_to_selected_s"] = round(time.monotonic() - started, 2)
    click_and_wait_moves(page, "button.ttr-claim")
    assert "claims" in status(page)
    assert colour_share(page, x, y, teal) > 0.3, "the claimed route is not in the player's colour"
    no_errors(page)
    shoot(page, "app-claimed")

    # A reload starts Python afresh; the browser's own copy of the game brings it back.
    page.reload(wait_until="domcontentloaded")
    page.wait_for_function(JS_CANVAS_PAINTED, timeout=START_MS, polling=250)
    prompt = page.locator(".ttr-prompt")
    prompt.wait_for(state="visible", timeout=WAIT_MS)
    assert "Resume your last game" in prompt.inner_text()
    click_and_settle(page, "button.ttr-prompt-ok")
    assert "claims" in page.locator(".ttr-log").inner_text()
    assert colour_share(page, x, y, teal) > 0.3, "the resumed game lost the claim"
    shoot(page, "app-resumed")

    # Shared tables need the server: the panel says so instead of offering forms.
    page.locator(".ttr-tables").get_by_text("Play with others").click()
    note = page.locator(".ttr-table-needs-server")
    note.wait_for(state="visible", timeout=WAIT_MS)
    said = " ".join(note.inner_text().split())
    assert "Tables need a server the whole class reaches" in said
    assert "not on Binder, where each visitor has a server of their own" in said
    assert not page.locator(".ttr-table-open").count()
    page.close()
    stays_local(outside)


def test_tutorial_on_the_static_site(
    context: Any, server: str, outside: Outside, timings: dict[str, float]
) -> None:
    """The first screen, then the USA tutorial's first steps by clicking (Python in the
    tab answers each click), a lesson link into the site's JupyterLab, and a reload that
    opens the same step."""
    page = context.new_page()
    page.goto(server + "voici/render/app.html", wait_until="domcontentloaded")
    page.evaluate("() => localStorage.clear()")  # no game kept from the test before
    page.locator(".ttr-first-screen").wait_for(state="visible", timeout=START_MS)
    page.set_viewport_size({"width": 1366, "height": 768})
    tutorial_browser.open_tutorial(page, "usa")
    link = page.locator(".ttr-tutorial-lesson a").first
    assert (
        link.get_attribute("href") == "../../lab/index.html?path=rules_usa_1_setup_and_cards.ipynb"
    )
    figures = tutorial_browser.walk(page, "usa", (1366, 768), limit=4)
    timings["tutorial_move_click_to_answer_ms_median"] = figures["move_click_to_answer_ms_median"]
    timings["tutorial_next_step_click_to_new_position_ms_median"] = figures[
        "next_step_click_to_new_position_ms_median"
    ]
    timings["tutorial_4_steps_learner_s"] = figures["learner_seconds"]
    shoot(page, "tutorial", full=False)
    page.reload(wait_until="domcontentloaded")
    page.wait_for_function(
        "() => { const h = document.querySelector('.ttr-tutorial-header');"
        " return h && h.innerText.includes('Step 5 of'); }",
        timeout=START_MS,
    )
    no_errors(page)
    page.close()
    stays_local(outside)


def test_lesson_runs_in_jupyterlite(
    context: Any, server: str, outside: Outside, timings: dict[str, float]
) -> None:
    page = context.new_page()
    opened = time.monotonic()
    page.goto(server + f"lab/index.html?path={LESSON}", wait_until="domcontentloaded")
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=START_MS)
    wait_for_notebook(page, lambda s: s["kernel"] == "idle", "the kernel to start")
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_text("Run All Cells", exact=True).click()
    # Done when every code cell has run, or as soon as one shows an error.
    state = wait_for_notebook(
        page,
        lambda s: (
            s["kernel"] == "idle"
            and (
                any(c["errors"] for c in s["cells"])
                or all(c["count"] is not None for c in s["cells"])
            )
        ),
        "every cell to run",
    )
    timings["lesson_open_to_all_cells_run_s"] = round(time.monotonic() - opened, 1)
    errors = [e for cell in state["cells"] for e in cell["errors"]]
    assert not errors, f"{LESSON} raised: {errors}"
    assert all(cell["count"] is not None for cell in state["cells"])
    assert sum(cell["images"] for cell in state["cells"]) >= 2, "matplotlib drew no figure"
    assert sum(cell["widgets"] for cell in state["cells"]) >= 1
    page.wait_for_function(JS_CANVAS_PAINTED, timeout=WAIT_MS)
    page.evaluate(JS_SHOW_FIRST_WIDGET)
    page.wait_for_timeout(1000)
    shoot(page, "lesson-board", full=False)
    page.close()
    stays_local(outside)
