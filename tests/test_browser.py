"""The Voilà app in a real browser: Debian's Chromium driven by Playwright.

One Voilà server and one page serve the whole module (each page load starts a
kernel). Checks: the board is painted (pixels, not just a <canvas>) on every
map, a human plays by clicking (tickets, a face-up card, a route clicked on
the canvas and paid for), the claim shows in the player's colour, bots move,
back/forward change the board, and no traceback reaches the page.

Screenshots and timings go to ``test-artifacts/``; the timings are printed,
never asserted (this machine is shared).
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

from ttr_nb import available_maps, load_map
from ttr_nb.rules import playable_maps
from ttr_nb.widgets.geometry import board_geometry
from ttr_nb.widgets.style import hex_to_rgb, player_style

sync_api = pytest.importorskip("playwright.sync_api")

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
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


# --------------------------------------------------------------------- server
@dataclass
class Voila:
    url: str
    proc: subprocess.Popen
    started: float
    log: Path
    timings: dict[str, Any] = field(default_factory=dict)


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


@pytest.fixture(scope="module")
def voila(context: Any) -> Iterator[Voila]:
    ARTIFACTS.mkdir(exist_ok=True)
    port = _free_port()
    log = ARTIFACTS / "voila.log"
    cmd = [
        sys.executable,
        "-m",
        "voila",
        "notebooks/app.ipynb",
        "--no-browser",
        "--Voila.ip=127.0.0.1",
        f"--port={port}",
    ]
    with open(log, "w") as out:
        started = time.monotonic()
        proc = subprocess.Popen(
            cmd,
            cwd=REPO,  # voila.json at the repo root configures the server
            stdout=out,
            stderr=subprocess.STDOUT,
            env=dict(os.environ, PYTHONUNBUFFERED="1"),
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
        timings = locals().get("server")
        if timings is not None:
            (ARTIFACTS / "browser-timings.json").write_text(json.dumps(timings.timings, indent=2))
            print("\nbrowser timings:", json.dumps(timings.timings))


@pytest.fixture(scope="module")
def page(context: Any, voila: Voila) -> Iterator[Any]:
    tab = context.new_page()
    opened = time.monotonic()
    tab.goto(voila.url, wait_until="domcontentloaded", timeout=60_000)
    tab.wait_for_function(JS_CANVAS_PAINTED, timeout=90_000, polling=100)
    now = time.monotonic()
    voila.timings["start_to_drawn_board_s"] = round(now - voila.started, 2)
    voila.timings["page_open_to_drawn_board_s"] = round(now - opened, 2)
    yield tab
    tab.close()


# -------------------------------------------------------------------- helpers
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
        shoot(page, "failure.png")
        raise AssertionError(
            f"{selector}: the app did not answer; status {status(page)!r}"
        ) from None


def click_and_wait_moves(page: Any, selector: str, more: int = 1) -> None:
    """Click a button that makes moves and check that ``more`` moves were made."""
    before = total_moves(page)
    click_and_settle(page, selector)
    assert total_moves(page) >= before + more, f"{selector}: no move; status {status(page)!r}"


def bots_until_me(page: Any) -> None:
    if page.locator("button.ttr-bots-until-me").is_enabled():
        click_and_settle(page, "button.ttr-bots-until-me")
        assert "to reach my turn" in status(page)


def start_game(page: Any, map_name: str, seed: int, players: int = 3) -> None:
    # ipywidgets writes the labels with no-break spaces.
    options = [
        o.replace("\xa0", " ") for o in page.locator(".ttr-map select option").all_text_contents()
    ]
    index = next((i for i, o in enumerate(options) if o.startswith(load_map(map_name).name)), None)
    assert index is not None, f"no {map_name} in the map list {options}"
    page.locator(".ttr-map select").select_option(index=index)
    page.locator(".ttr-players select").select_option(label=str(players))
    seed_box = page.locator(".ttr-seed input")
    seed_box.fill(str(seed))
    seed_box.press("Enter")
    auto = page.locator(".ttr-auto input")
    if auto.is_checked():
        auto.uncheck()  # bot moves come one per click here, so the test is deterministic
    # No wait needed: the browser sends the new values before the click, in order.
    click_and_settle(page, "button.ttr-start")
    expected = f"seed {seed}" if map_name in playable_maps() else "Exploring"
    assert expected in status(page)


def canvas_point(page: Any, x: float, y: float) -> tuple[float, float]:
    """Page coordinates of canvas point (x, y) (the canvas may be displayed scaled)."""
    box = page.locator(".ttr-board-canvas canvas").bounding_box()
    width = page.evaluate("() => document.querySelector('.ttr-board-canvas canvas').width")
    scale = box["width"] / width
    return box["x"] + x * scale, box["y"] + y * scale


def geometry_for(page: Any, map_name: str):
    size = page.evaluate(
        "() => { const c = document.querySelector('.ttr-board-canvas canvas');"
        " return [c.width, c.height]; }"
    )
    return board_geometry(load_map(map_name), int(size[0]), int(size[1]))


def colour_share(page: Any, x: float, y: float, colour: str, radius: int = 3) -> float:
    """Share of the pixels around (x, y) close to ``colour``."""
    target = hex_to_rgb(colour)
    pixels = page.evaluate(JS_PIXELS, [x, y, radius])
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


# ---------------------------------------------------------------------- tests
def test_board_renders_on_first_load(page: Any, voila: Voila) -> None:
    assert page.evaluate(JS_CANVAS_PAINTED)
    no_errors(page)
    # Hover a route: its facts appear in the hover label (mouse moves are throttled).
    geometry = geometry_for(page, "usa")
    route_id, shape = next(iter(geometry.routes.items()))
    page.mouse.move(*canvas_point(page, *shape.anchor))
    game_map = load_map("usa")
    route = game_map.route_by_id[route_id]
    page.wait_for_function(
        "(name) => document.querySelector('.ttr-hover').innerText.includes(name)",
        arg=game_map.place_name(route.a),
        timeout=WAIT_MS,
    )
    shoot(page, "usa-first-load.png")


def test_keyboard_is_not_trapped_in_the_canvas(page: Any) -> None:
    canvas = page.locator(".ttr-board-canvas canvas")
    canvas.focus()  # as a Tab from the setup row would
    page.keyboard.press("ArrowRight")  # steps through the routes
    page.wait_for_function(
        "() => document.querySelector('.ttr-hover').innerText.startsWith('Selected:')",
        timeout=WAIT_MS,
    )
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")  # the canvas swallows it; the app moves the focus on
    page.wait_for_function(
        "() => document.activeElement && document.activeElement.closest('.ttr-route-picker')",
        timeout=WAIT_MS,
    )


@pytest.mark.parametrize("map_name", available_maps())
def test_every_map_renders(page: Any, map_name: str) -> None:
    before = page.evaluate(JS_CANVAS_SUM)
    start_game(page, map_name, seed=3)
    if map_name != "usa":
        wait_canvas_change(page, before)
    assert page.evaluate(JS_CANVAS_PAINTED)
    geometry = geometry_for(page, map_name)
    # Route spaces are painted where the geometry puts them (not the background).
    painted = 0
    for shape in list(geometry.routes.values())[:20]:
        pixels = page.evaluate(JS_PIXELS, [*shape.anchor, 2])
        background = hex_to_rgb("#f4efe1")
        painted += any(sum(abs(p[i] - background[i]) for i in range(3)) > 40 for p in pixels)
    assert painted >= 18, "route spaces are not drawn where the geometry puts them"
    if map_name not in playable_maps():
        assert "not implemented yet" in page.locator(".ttr-explore-note").inner_text()
    about = page.locator(".ttr-about-text")
    if not about.is_visible():
        page.locator(".ttr-extras").get_by_text("About this map", exact=True).click()
    about.wait_for(state="visible", timeout=WAIT_MS)
    assert load_map(map_name).name in about.inner_text() and "Sources" in about.inner_text()
    no_errors(page)
    shoot(page, f"map-{map_name}.png")


# The app has no World controls yet (secret supply, refill deck, harbors, exchanges): they
# come with the app's World module (issue 10, phase B). Strict: remove the mark then.
APP_PENDING = {"world": "the app's World controls are not built yet (issue 10, phase B)"}
HUMAN_PLAY_MAPS = [
    pytest.param(m, marks=pytest.mark.xfail(strict=True, reason=APP_PENDING[m]))
    if m in APP_PENDING
    else m
    for m in playable_maps()
]


@pytest.mark.parametrize("map_name", HUMAN_PLAY_MAPS)
def test_human_plays_by_clicking(page: Any, voila: Voila, map_name: str) -> None:
    start_game(page, map_name, seed=7)
    game_map = load_map(map_name)
    geometry = geometry_for(page, map_name)
    teal = player_style(0).fill

    # Keep the starting tickets, then watch one bot move and let the others play.
    click_and_wait_moves(page, "button.ttr-keep")
    click_and_wait_moves(page, "button.ttr-bot-step")
    assert "Bot:" in status(page)
    bots_until_me(page)

    # A face-up card (not a locomotive, so a second card follows), then a blind one.
    hand_title = page.locator(".ttr-hand h3").inner_text()
    face_up = page.locator("button.ttr-face-up:enabled")
    slot = next(
        i for i in range(face_up.count()) if not face_up.nth(i).inner_text().startswith("L")
    )
    click_and_wait_moves(page, f"button.ttr-face-up-{_slot_class(face_up.nth(slot))}")
    assert "takes the face-up" in status(page)
    click_and_wait_moves(page, "button.ttr-draw-blind")
    assert page.locator(".ttr-hand h3").inner_text() != hand_title
    bots_until_me(page)

    # Draw until a route is affordable, then click it on the canvas and pay.
    for _ in range(12):
        routes = json.loads(
            page.locator(".ttr-claimable [data-routes]").get_attribute("data-routes")
        )
        if routes:
            break
        click_and_wait_moves(page, "button.ttr-draw-blind")
        if page.locator("button.ttr-draw-blind").is_enabled() and "second card" in status(page):
            click_and_wait_moves(page, "button.ttr-draw-blind")
        bots_until_me(page)
    assert routes, "the human never could afford a route"
    route_id = routes[0]
    route = game_map.route_by_id[route_id]
    x, y = geometry.routes[route_id].anchor
    assert colour_share(page, x, y, teal) < 0.2

    samples = [timed_click(page, lambda: page.mouse.click(*canvas_point(page, x, y)))]
    page.wait_for_function(
        "(name) => document.querySelector('.ttr-selected').innerText.includes(name)",
        arg=game_map.place_name(route.a),
        timeout=WAIT_MS,
    )
    for _ in range(4):  # clicking the selected route again redraws the selection
        samples.append(timed_click(page, lambda: page.mouse.click(*canvas_point(page, x, y))))
    voila.timings["click_route_to_redraw_ms"] = summarise(samples)
    assert page.locator("button.ttr-claim").is_enabled()

    claim = timed_click(page, lambda: click_and_wait_moves(page, "button.ttr-claim"))
    voila.timings["click_claim_to_redraw_ms"] = summarise([claim])
    assert "claims" in status(page)
    assert colour_share(page, x, y, teal) > 0.3, "the claimed route is not in the player's colour"
    shoot(page, f"{map_name}-claimed.png")

    # A bot moves; then step back before the claim and forward again.
    click_and_wait_moves(page, "button.ttr-bot-step")
    assert "Bot:" in status(page)
    for _ in range(2):
        click_and_settle(page, "button.ttr-back")
    assert "Showing move" in page.locator(".ttr-history-note").inner_text()
    assert colour_share(page, x, y, teal) < 0.2, "stepping back did not remove the claim"
    shoot(page, f"{map_name}-stepped-back.png")
    click_and_settle(page, "button.ttr-last")
    assert colour_share(page, x, y, teal) > 0.3

    # Full redraws of the board, timed in the page.
    redraws = [
        timed_click(page, lambda: page.locator("button.ttr-redraw").click()) for _ in range(5)
    ]
    voila.timings["full_redraw_ms"] = summarise(redraws)

    # The bots finish the game: the breakdown and the winner are shown.
    click_and_settle(page, "button.ttr-play-to-end")
    result = page.locator(".ttr-result").inner_text()
    assert "Winner" in result or "Shared victory" in result
    assert "tickets" in result and "total" in result
    shoot(page, f"{map_name}-game-over.png")
    no_errors(page)
    assert page.locator(".ttr-errors").inner_text().strip() == ""


def _slot_class(button: Any) -> str:
    classes = button.get_attribute("class").split()
    return next(c.rsplit("-", 1)[1] for c in classes if c.startswith("ttr-face-up-"))


def test_save_download_and_load(page: Any) -> None:
    start_game(page, playable_maps()[0], seed=11)
    click_and_wait_moves(page, "button.ttr-keep")
    page.locator(".ttr-extras").get_by_text("Save and load", exact=True).click()
    page.locator(".ttr-download").wait_for(state="visible", timeout=WAIT_MS)
    with page.expect_download(timeout=WAIT_MS) as download:
        page.locator(".ttr-download").click()
    saved = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert saved["seed"] == 11 and len(saved["history"]) == total_moves(page)

    text_box = page.locator(".ttr-save-text textarea")
    text_box.fill("{ this is not a save")
    click_and_settle(page, "button.ttr-load-text")
    assert "Could not load the text box" in status(page)
    click_and_settle(page, "button.ttr-save")
    assert json.loads(text_box.input_value())["seed"] == 11
    click_and_settle(page, "button.ttr-load-text")
    assert "Loaded" in status(page)
    shoot(page, "save-and-load.png")
    no_errors(page)


def test_bots_move_on_their_own(page: Any) -> None:
    start_game(page, playable_maps()[0], seed=5)
    page.locator(".ttr-auto input").check()
    click_and_settle(page, "button.ttr-keep")
    # The browser-side timer asks for one bot move at a time until Ann is to move.
    page.wait_for_function(
        "() => document.querySelector('.ttr-status-box').innerText.includes('Ann: draw cards')",
        timeout=WAIT_MS,
    )
    assert total_moves(page) >= 3  # Ann's keep and at least the two bots' keeps
    assert "Bot:" in page.locator(".ttr-log").inner_text() or total_moves(page) >= 3
    no_errors(page)


def test_kernel_restart_asks_to_reload(page: Any, voila: Voila) -> None:
    """Last test: kill this page's kernel; the page must ask the learner to reload."""
    assert not page.locator(".ttr-lost").is_visible()
    kernel_id = page.evaluate(
        "() => (performance.getEntriesByType('resource').map(e => e.name)"
        ".join(' ').match(/api\\/kernels\\/([0-9a-f-]{36})/) || [])[1] || null"
    )
    killed = _kill_kernel(voila.proc.pid, kernel_id)
    assert killed, f"no kernel process found for kernel {kernel_id}"
    page.locator(".ttr-lost").wait_for(state="visible", timeout=WAIT_MS)
    assert "Reload the page" in page.locator(".ttr-lost").inner_text()
    shoot(page, "kernel-lost.png")


def _kill_kernel(voila_pid: int, kernel_id: str | None) -> int:
    """SIGKILL the kernel that our own Voilà started for ``kernel_id``."""
    killed = 0
    for pid in _children(voila_pid):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if "ipykernel" in cmdline and kernel_id is not None and kernel_id in cmdline:
            os.kill(pid, signal.SIGKILL)
            killed += 1
    return killed
