"""Browser-test support (imported as ``browser``): a Voilà server, Debian's Chromium
driven by Playwright, and helpers that act on the app like a learner.

Each test module that imports the fixtures gets its own Voilà server and page
(module scope). Screenshots and timings go to ``test-artifacts/``; timings are
printed, never asserted (this machine is shared).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from ttr_nb import load_map
from ttr_nb.rules import playable_maps
from ttr_nb.widgets.geometry import board_geometry
from ttr_nb.widgets.setup import SEAT_KINDS
from ttr_nb.widgets.style import hex_to_rgb

# How every browser test and benchmark starts Chromium: test tooling, outside the package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
from chromium import CHROMIUM, FLAGS  # noqa: E402

sync_api = pytest.importorskip("playwright.sync_api")
PlaywrightTimeout = sync_api.TimeoutError

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM_FLAGS = FLAGS
VIEWPORT = {"width": 1500, "height": 1000}
WAIT_MS = 30_000

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists() and shutil.which("chromium") is None,
    reason="Debian's chromium is not installed (apt-get install -y chromium)",
)

# ---------------------------------------------------------------- page scripts
JS_CANVAS_PAINTED = """
() => {
  const c = document.querySelector('.ttr-board-canvas canvas');
  if (!c || !c.width) return false;
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let painted = 0;
  for (let i = 3; i < d.length; i += 4 * 97) if (d[i] !== 0) painted++;
  return painted > 1000;
}
"""

# The app is on the screen: its first screen (which has no board: the board is built when
# the visitor leaves it), or a drawn board (a link, a resumed game).
JS_APP_SHOWN = f"""
() => {{
  const first = document.querySelector('.ttr-first-screen');
  if (first && first.offsetParent !== null) return true;
  return ({JS_CANVAS_PAINTED.strip()})();
}}
"""

JS_CANVAS_SUM = """
() => {
  const c = document.querySelector('.ttr-board-canvas canvas');
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let h = 0;
  for (let i = 0; i < d.length; i += 4)
    h = (h * 31 + d[i] * 3 + d[i+1] * 5 + d[i+2] * 7 + d[i+3]) >>> 0;
  return h;
}
"""

# Pixels around (x, y) in canvas coordinates, as [r, g, b, a] lists.
JS_PIXELS = """
([x, y, r]) => {
  const c = document.querySelector('.ttr-board-canvas canvas');
  const size = 2 * r + 1;
  const d = c.getContext('2d').getImageData(Math.round(x - r), Math.round(y - r), size, size).data;
  const out = [];
  for (let i = 0; i < d.length; i += 4) out.push([d[i], d[i+1], d[i+2], d[i+3]]);
  return out;
}
"""

JS_PAGE_ERRORS = """
() => {
  const hits = [];
  for (const el of document.querySelectorAll('.jp-RenderedText, .ttr-errors, .output_error')) {
    const t = el.innerText || '';
    if (/Traceback|Error\\b|Exception\\b/.test(t)) hits.push(t.slice(0, 800));
  }
  const body = document.body ? document.body.innerText : '';
  if (/Traceback \\(most recent call last\\)|There was an error when executing cell/.test(body))
    hits.push(body.slice(0, 800));
  return hits;
}
"""

# Height of the app (Voilà scrolls inside an inner element, so the page's own height is no use).
JS_CONTENT_HEIGHT = """
() => {
  for (const el of document.querySelectorAll('body, body *')) if (el.scrollTop) el.scrollTop = 0;
  window.scrollTo(0, 0);
  const app = document.querySelector('.ttr-app');
  const bottom = app ? app.getBoundingClientRect().bottom : document.documentElement.scrollHeight;
  return Math.ceil(bottom + 40);
}
"""

# Times the next redraw caused by a click: from the mousedown to the first and
# the last canvas drawing call (ipycanvas replays a whole batch in one go).
JS_ARM_DRAW_TIMER = """
() => {
  const proto = CanvasRenderingContext2D.prototype;
  if (!window.__ttrWrapped) {
    window.__ttrWrapped = true;
    window.__ttrDraws = [];
    for (const name of ['fillRect', 'fill', 'stroke', 'fillText', 'drawImage', 'clearRect']) {
      const original = proto[name];
      proto[name] = function (...args) {
        window.__ttrDraws.push(performance.now());
        return original.apply(this, args);
      };
    }
  }
  window.__ttrDraws = [];
  window.__ttrClick = null;
  document.addEventListener('mousedown', () => { window.__ttrClick = performance.now(); },
                            {capture: true, once: true});
}
"""

JS_DRAW_TIMES = """
() => {
  const t0 = window.__ttrClick;
  const after = (window.__ttrDraws || []).filter(t => t0 !== null && t >= t0);
  if (!after.length) return null;
  return {first: after[0] - t0, last: after[after.length - 1] - t0, calls: after.length};
}
"""


# Is an element inside the window, as laid out now (no scrolling)?
JS_IN_VIEW = """
(selector) => {
  const el = document.querySelector(selector);
  if (!el || el.offsetParent === null) return false;
  const r = el.getBoundingClientRect();
  return r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0
    && r.right <= window.innerWidth;
}
"""

JS_SCROLL_TOP = """
() => {
  for (const el of document.querySelectorAll('body, body *')) if (el.scrollTop) el.scrollTop = 0;
  window.scrollTo(0, 0);
}
"""


# --------------------------------------------------------------------- server
@dataclass
class Voila:
    url: str
    proc: subprocess.Popen
    started: float
    log: Path
    timings: dict[str, Any] = field(default_factory=dict)


_TABLES: dict[str, str] = {}


def server_env(env: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a server a test starts: this one's, its tables in a store of this
    test process's own (unless ``env`` names one), then ``env``. Not the store of the user's
    Jupyter data folder, which ``make app`` and a second test worker use too: two servers on
    one store share one table service, which stops with the server that started it."""
    if not _TABLES:
        _TABLES["TTR_TABLES_URL"] = _own_tables()
    return {**os.environ, "PYTHONUNBUFFERED": "1", **_TABLES, **(env or {})}


def _own_tables() -> str:
    """A folder for this process's tables, named by its pid; those of test processes that
    are gone are removed first (a pytest-xdist worker may end without running atexit)."""
    import atexit
    import tempfile

    import psutil

    from ttr_nb.table_service import runtime_file

    temp = Path(tempfile.gettempdir())
    for old in temp.glob("ttr-test-tables-*"):
        pid = old.name.rsplit("-", 1)[1]
        if pid.isdigit() and not psutil.pid_exists(int(pid)):
            _remove_tables(old, runtime_file(_tables_url(old)))
    folder = temp / f"ttr-test-tables-{os.getpid()}"
    folder.mkdir(exist_ok=True)
    atexit.register(_remove_tables, folder, runtime_file(_tables_url(folder)))
    return _tables_url(folder)


def _tables_url(folder: Path) -> str:
    return f"sqlite:///{folder / 'tables.sqlite'}"


def _remove_tables(folder: Path, record: Path) -> None:
    """The folder and the table service's record of it (in Jupyter's runtime folder)."""
    shutil.rmtree(folder, ignore_errors=True)
    record.unlink(missing_ok=True)


def worker_name(name: str) -> str:
    """``name`` with the pytest-xdist worker's id before its suffix (``failure-gw1.png``),
    so that two workers never write one file; as it is in a run without workers."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return name
    stem, dot, suffix = name.rpartition(".")
    return f"{stem}-{worker}.{suffix}" if dot else f"{name}-{worker}"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_http(url: str, proc: subprocess.Popen, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"voila exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    raise TimeoutError(f"voila did not answer {url} within {timeout} s")


def _children(pid: int) -> list[int]:
    """Direct children of ``pid`` (Voilà's kernels run in sessions of their own)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            # The parent pid is the second field after the ")" closing the command name.
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _stop(proc: subprocess.Popen) -> None:
    """SIGTERM the process group we created (Voilà shuts its kernels down), then SIGKILL
    it and any kernel it left behind."""
    kernels = _children(proc.pid)
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait)
            if sig == signal.SIGTERM:
                continue
        except subprocess.TimeoutExpired:
            pass
    for pid in kernels:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


@pytest.fixture(scope="module")
def context(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A fresh Chromium profile, started before Voilà so its launch is not timed."""
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
        try:
            yield browser
        finally:
            browser.close()


@contextlib.contextmanager
def serving(
    notebook: str = "app.ipynb",
    log_name: str = "voila.log",
    warm: int = 2,
    env: dict[str, str] | None = None,
    teacher: bool = False,
) -> Iterator[Voila]:
    """A Voilà server for ``notebooks/<notebook>`` on a free port of 127.0.0.1, with the
    repository's voila.json (``warm`` kernels, not the 30 of a class; ``env`` added to the
    server's environment, which its kernels inherit); stopped on leaving. ``teacher``:
    the teacher's server (``make teacher``: Jupyter Server's login; its token from ``env``)."""
    ARTIFACTS.mkdir(exist_ok=True)
    port = _free_port()
    log = ARTIFACTS / log_name
    warm_option = f"--ClassroomKernelManager.warm_kernels={warm}"
    if teacher:
        cmd = [sys.executable, "-m", "ttr_nb.teacher_server", "--port", str(port)]
        cmd += ["--notebook", f"notebooks/{notebook}", "--", warm_option]
    else:
        cmd = [sys.executable, "-m", "voila", f"notebooks/{notebook}", "--no-browser"]
        cmd += ["--Voila.ip=127.0.0.1", f"--port={port}", warm_option]
    with open(log, "w") as out:
        started = time.monotonic()
        proc = subprocess.Popen(
            cmd,
            cwd=REPO,  # voila.json at the repo root configures the server
            stdout=out,
            stderr=subprocess.STDOUT,
            env=server_env(env),
            start_new_session=True,
        )
    try:
        # A GET on "/" would run the notebook in a kernel: poll a static file instead.
        _wait_http(f"http://127.0.0.1:{port}/voila/static/voila.js", proc, 90)
        server = Voila(f"http://127.0.0.1:{port}/", proc, started, log)
        server.timings["server_ready_s"] = round(time.monotonic() - started, 2)
        yield server
    finally:
        _stop(proc)


@pytest.fixture(scope="module")
def voila(context: Any, request: pytest.FixtureRequest) -> Iterator[Voila]:
    module = request.module.__name__  # each module's own log and timings
    with serving(log_name=f"voila-{module}.log") as server:
        try:
            yield server
        finally:
            timings = ARTIFACTS / f"browser-timings-{module}.json"
            timings.write_text(json.dumps(server.timings, indent=2))
            print("\nbrowser timings:", json.dumps(server.timings))


@pytest.fixture(scope="module")
def page(context: Any, voila: Voila) -> Iterator[Any]:
    tab = context.new_page()
    opened = time.monotonic()
    tab.goto(voila.url, wait_until="domcontentloaded", timeout=60_000)
    tab.wait_for_function(JS_APP_SHOWN, timeout=90_000, polling=100)
    past_first_screen(tab)
    now = time.monotonic()
    voila.timings["start_to_drawn_board_s"] = round(now - voila.started, 2)
    voila.timings["page_open_to_drawn_board_s"] = round(now - opened, 2)
    yield tab
    tab.close()


# -------------------------------------------------------------------- helpers
def past_first_screen(page: Any) -> None:
    """The app opens on its first screen (what did you come for?): choose *Play against
    bots*, the game these tests play (opening New game or Play with others leaves it too),
    and wait until its board is drawn."""
    button = page.locator("button.ttr-first-bots")
    if button.is_visible():
        click_and_settle(page, "button.ttr-first-bots")
    page.wait_for_function(JS_CANVAS_PAINTED, timeout=90_000, polling=100)


def shoot(page: Any, name: str) -> Path:
    """Full-page screenshot (Voilà scrolls inside an inner element: grow the viewport)."""
    path = ARTIFACTS / name
    height = page.evaluate(JS_CONTENT_HEIGHT)
    page.set_viewport_size({"width": VIEWPORT["width"], "height": min(int(height) + 20, 4000)})
    page.screenshot(path=str(path), full_page=True)
    page.set_viewport_size(VIEWPORT)
    return path


def no_errors(page: Any) -> None:
    errors = page.evaluate(JS_PAGE_ERRORS)
    assert not errors, f"error text on the page: {errors}"


def status(page: Any) -> str:
    return page.locator(".ttr-status-box").inner_text()


def serial(page: Any) -> int:
    """The app rewrites its status last after every change, with a new serial number."""
    value = page.locator(".ttr-status-box [data-serial]").get_attribute("data-serial")
    return int(value or 0)


def total_moves(page: Any) -> int:
    value = page.locator(".ttr-status-box [data-total]").get_attribute("data-total")
    return int(value or 0)


def click_and_settle(page: Any, selector: str) -> None:
    """Click and wait until the app has redrawn the page in answer."""
    before = serial(page)
    page.locator(selector).click()
    try:
        page.wait_for_function(
            "(n) => Number(document.querySelector('.ttr-status-box [data-serial]')"
            ".getAttribute('data-serial')) > n",
            arg=before,
            timeout=WAIT_MS,
        )
    except sync_api.TimeoutError:
        shoot(page, worker_name("failure.png"))
        raise AssertionError(
            f"{selector}: the app did not answer; status {status(page)!r}"
        ) from None


def click_and_answer(page: Any, selector: str, answer: int = 0) -> None:
    """Click; if the app asks which move is meant (its prompt), pick answer ``answer``
    (0-based) and confirm. Waits until a move was made."""
    before, moves = serial(page), total_moves(page)
    page.locator(selector).click()
    prompt_or_change = (
        "(n) => Number(document.querySelector('.ttr-status-box [data-serial]')"
        ".getAttribute('data-serial')) > n || (document.querySelector('.ttr-prompt') "
        "&& document.querySelector('.ttr-prompt').offsetParent !== null)"
    )
    page.wait_for_function(prompt_or_change, arg=before, timeout=WAIT_MS)
    if serial(page) == before:
        page.locator(".ttr-prompt-choices input").nth(answer).check()
        click_and_settle(page, "button.ttr-prompt-ok")
    assert total_moves(page) > moves, f"{selector}: no move; status {status(page)!r}"


def click_and_wait_moves(page: Any, selector: str, more: int = 1) -> None:
    """Click a button that makes moves and check that ``more`` moves were made."""
    before = total_moves(page)
    click_and_settle(page, selector)
    assert total_moves(page) >= before + more, f"{selector}: no move; status {status(page)!r}"


def keep_tickets(page: Any) -> None:
    """Tick every ticket on offer (none is ticked at first), then keep them."""
    boxes = page.locator(".ttr-offer input[type=checkbox]")
    for i in range(boxes.count()):
        boxes.nth(i).check()
    click_and_wait_moves(page, "button.ttr-keep")


def play_to_end(page: Any) -> None:
    """*Play to the end*, answering its question (asked beside it while a human seat is
    still to play) with "every seat, mine too"; the game is over after it."""
    click_and_settle(page, "button.ttr-play-to-end")
    if page.locator("button.ttr-end-all").is_visible():
        click_and_settle(page, "button.ttr-end-all")
    assert "to reach the end" in status(page), status(page)


def bots_until_me(page: Any) -> None:
    if page.locator("button.ttr-bots-until-me").is_enabled():
        click_and_settle(page, "button.ttr-bots-until-me")
        assert "to reach my turn" in status(page)


def open_new_game_panel(page: Any) -> None:
    """The setup controls sit in the collapsed "New game" panel: open it if needed."""
    if not page.locator(".ttr-map select").is_visible():
        page.locator(".ttr-new-game").get_by_text("New game: map, players, seed").click()
        page.locator(".ttr-map select").wait_for(state="visible", timeout=WAIT_MS)


def confirm_if_asked(page: Any, before: int, question: str = "Start a new game") -> None:
    """Answer yes if the app asks ``question`` before closing the game in progress.

    The app either answers at once (its serial moves on) or opens the prompt first.
    A prompt seen here may also be a stale one the kernel is about to close, so the
    OK click is retried until the app has answered, with the question checked each time.
    """
    deadline = time.monotonic() + WAIT_MS / 1000
    prompt = page.locator(".ttr-prompt")
    while time.monotonic() < deadline:
        if serial(page) > before:
            return
        if prompt.is_visible() and question in prompt.inner_text():
            with contextlib.suppress(sync_api.TimeoutError):
                page.locator("button.ttr-prompt-ok").click(timeout=2_000)
        page.wait_for_timeout(200)
    shoot(page, worker_name("failure.png"))
    raise AssertionError(f"the app did not answer; status {status(page)!r}")


def start_game(
    page: Any, map_name: str, seed: int, players: int = 3, kinds: list[str] | None = None
) -> None:
    """Start a game from the New game panel (``kinds``: each seat's kind, e.g. ``"human"``;
    by default as the panel has them)."""
    open_new_game_panel(page)
    # ipywidgets writes the labels with no-break spaces.
    options = [
        o.replace("\xa0", " ") for o in page.locator(".ttr-map select option").all_text_contents()
    ]
    index = next((i for i, o in enumerate(options) if o.startswith(load_map(map_name).name)), None)
    assert index is not None, f"no {map_name} in the map list {options}"
    page.locator(".ttr-map select").select_option(index=index)
    page.locator(".ttr-players select").select_option(label=str(players))
    labels = {kind: label for label, kind in SEAT_KINDS}
    for seat, kind in enumerate(kinds or []):
        page.locator(f".ttr-seat-kind-{seat} select").select_option(label=labels[kind])
    seed_box = page.locator(".ttr-seed input")
    seed_box.fill(str(seed))
    seed_box.press("Enter")
    auto = page.locator(".ttr-auto input")
    if auto.is_checked():
        auto.uncheck()  # bot moves come one per click here, so the test is deterministic
    # No wait needed: the browser sends the new values before the click, in order.
    before = serial(page)
    page.locator("button.ttr-start").click()
    confirm_if_asked(page, before)
    expected = f"seed {seed}" if map_name in playable_maps() else "Exploring"
    assert expected in status(page)


def board_view(page: Any) -> tuple[float, float, float]:
    """The board's zoom and the board point at the canvas's top-left corner."""
    level = page.locator(".ttr-zoom-level [data-zoom]")
    if not level.count():
        return 1.0, 0.0, 0.0
    return tuple(float(level.get_attribute(f"data-{k}") or 0) for k in ("zoom", "x", "y"))


def canvas_point(page: Any, x: float, y: float) -> tuple[float, float]:
    """Page coordinates of board point (x, y): through the board's zoom and pan, and the
    canvas's display scale. The board is scrolled into view first (Voilà's page scrolls)."""
    zoom, view_x, view_y = board_view(page)
    canvas = page.locator(".ttr-board-canvas canvas")
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    width = page.evaluate("() => document.querySelector('.ttr-board-canvas canvas').width")
    scale = box["width"] / width
    return box["x"] + (x - view_x) * zoom * scale, box["y"] + (y - view_y) * zoom * scale


def pixel_point(page: Any, x: float, y: float) -> tuple[float, float]:
    """Canvas pixel of board point (x, y) through the zoom and pan (for pixel reads)."""
    zoom, view_x, view_y = board_view(page)
    return (x - view_x) * zoom, (y - view_y) * zoom


def geometry_for(page: Any, map_name: str):
    size = page.evaluate(
        "() => { const c = document.querySelector('.ttr-board-canvas canvas');"
        " return [c.width, c.height]; }"
    )
    return board_geometry(load_map(map_name), int(size[0]), int(size[1]))


def colour_share(page: Any, x: float, y: float, colour: str, radius: int = 3) -> float:
    """Share of the canvas pixels around board point (x, y) close to ``colour``."""
    target = hex_to_rgb(colour)
    pixels = page.evaluate(JS_PIXELS, [*pixel_point(page, x, y), radius])
    close = sum(1 for p in pixels if sum(abs(p[i] - target[i]) for i in range(3)) < 60)
    return close / len(pixels)


def timed_click(page: Any, click: Any) -> dict[str, float]:
    """Time the canvas drawing a click causes: ms from the mousedown to the first and the
    last canvas call (the page is left quiet for 300 ms to catch the last one)."""
    page.evaluate(JS_ARM_DRAW_TIMER)
    click()
    page.wait_for_function("() => (" + JS_DRAW_TIMES.strip() + ")() !== null", timeout=WAIT_MS)
    page.wait_for_timeout(300)
    return page.evaluate(JS_DRAW_TIMES)


def summarise(samples: list[dict[str, float]]) -> dict[str, Any]:
    """Median click-to-redrawn time, and the median time the browser spent drawing."""
    done = sorted(round(s["last"], 1) for s in samples)
    drawing = sorted(round(s["last"] - s["first"], 1) for s in samples)
    return {
        "click_to_redrawn_median": done[len(done) // 2],
        "browser_drawing_median": drawing[len(drawing) // 2],
        "click_to_redrawn_samples": done,
        "canvas_calls": samples[-1]["calls"],
    }


def wait_canvas_change(page: Any, before: int) -> None:
    page.wait_for_function(f"() => ({JS_CANVAS_SUM})() !== {before}", timeout=WAIT_MS)


def at_width(page: Any, width: int, height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate(JS_SCROLL_TOP)
    page.wait_for_timeout(400)  # layout and canvas scaling settle


def window_shot(page: Any, name: str) -> Path:
    """What the window shows, unscrolled (not the whole page)."""
    path = ARTIFACTS / name
    page.screenshot(path=str(path))
    return path
