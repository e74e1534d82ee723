"""A shared table and the teacher's page for every learner, in real Chromium.

One Voilà server (its tables in a fresh SQLite file) and the teacher's server on the same
store; two browser profiles (Ann's device and Ben's). Ann opens a table, Ben joins it with
the keyboard alone; axe-core (WCAG 2.2 A/AA) finds no serious or critical violation on
each seat's page while the table waits for a player, while it is played and once it is
over, each at 1366×768 and 390 px, nor on the teacher's page (its list of tables, and
watching the finished one). *Your turn!* stays readable while it pulses, and a table's
page at 200% zoom loses and overlaps nothing. The tests run in this order and share the
table. Screenshots and axe-core's findings: ``test-artifacts/a11y-table-*``.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from a11y import JS_OVERLAPS, check_page, choose_by_keys, describe, key_to, needs_axe
from browser import (
    CHROMIUM,
    CHROMIUM_FLAGS,
    JS_APP_SHOWN,
    JS_CANVAS_PAINTED,
    JS_SCROLL_TOP,
    WAIT_MS,
    at_width,
    no_errors,
    pytestmark,
    serving,
    sync_api,
    window_shot,
)
from table_steps import open_forms, wait_text

__all__ = ["pytestmark"]

LAPTOP = (1366, 768)
PHONE = (390, 844)
TEACHER_TOKEN = "a-token-for-the-a11y-tests-only-0123456789-abcdef"
TABLE: dict[str, Any] = {}  # what the tests in this module share: the table and its pages


@pytest.fixture(scope="module")
def tables_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('tables')}/a11y.sqlite"


@pytest.fixture(scope="module")
def server(tables_url: str) -> Iterator[str]:
    with serving(log_name="voila-a11y-tables.log", warm=2, env={"TTR_TABLES_URL": tables_url}) as v:
        yield v.url


@pytest.fixture(scope="module")
def devices(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Ann's and Ben's browsers (each keeps its own seat), and the teacher's."""
    executable = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    with sync_api.sync_playwright() as p:
        made = {
            name: p.chromium.launch_persistent_context(
                str(tmp_path_factory.mktemp(f"profile-{name}")),
                executable_path=executable,
                headless=True,
                args=CHROMIUM_FLAGS,
                viewport={"width": LAPTOP[0], "height": LAPTOP[1]},
            )
            for name in ("ann", "ben", "teacher")
        }
        try:
            yield made
        finally:
            for context in made.values():
                context.close()


def open_page(context: Any, url: str) -> Any:
    page = context.new_page()
    page.goto(url, wait_until="domcontentloaded", timeout=60_000)
    page.wait_for_function(JS_APP_SHOWN, timeout=90_000, polling=200)
    return page


def axe_both_widths(page: Any, name: str) -> None:
    """axe-core at 1366×768 and at 390 px: no serious or critical violation."""
    found = []
    for width, height in (LAPTOP, PHONE):
        at_width(page, width, height)
        nodes = check_page(page, f"table-{name}-{width}")
        found += [f"{width}: {line}" for line in describe(nodes).splitlines() if line]
    at_width(page, *LAPTOP)
    assert not found, f"{name}: serious or critical violations:\n" + "\n".join(found)


def needs(*keys: str) -> None:
    missing = [k for k in keys if k not in TABLE]
    if missing:
        pytest.skip(f"an earlier test of this module did not get that far: {missing}")


def open_details(page: Any) -> None:
    """Unfold *The table* (folded while the game runs)."""
    if not page.locator(".ttr-table-creator-seat select").is_visible():
        page.locator(".ttr-table-details").get_by_text("The table:").click()
        page.locator(".ttr-table-creator-seat select").wait_for(state="visible", timeout=WAIT_MS)


# ------------------------------------------------------------------------ waiting
@needs_axe
def test_a_table_waiting_for_its_players_passes_axe(server: str, devices: dict) -> None:
    """Ann opens a table of two seats: her page shows its code, link, QR code, seats and
    her buttons while it waits for Ben."""
    ann = open_page(devices["ann"], server)
    open_forms(ann)
    ann.locator(".ttr-table-seats select").select_option(label="2")
    ann.locator(".ttr-table-creator-name input").fill("Ann")
    ann.locator(".ttr-table-creator-name input").press("Enter")
    ann.locator(".ttr-table-open").click()
    wait_text(ann, ".ttr-table-turn", "Waiting for 1 player")
    ann.locator(".ttr-table-link .ttr-link-qr svg").wait_for(timeout=WAIT_MS)
    ann.wait_for_timeout(500)
    TABLE["ann"] = ann
    TABLE["code"] = ann.locator(".ttr-table-code b").inner_text()
    axe_both_widths(ann, "waiting")
    no_errors(ann)


# ------------------------------------------------------------------------ keyboard
def test_joining_a_table_with_the_keyboard_alone(server: str, devices: dict) -> None:
    """Ben, on a fresh page, with the keyboard only: Tab to *Play with others* on the first
    screen and Enter, Tab to the table code and type it, Tab to the name and type it, Tab
    to *Find the table* and Enter, Tab to *Sit in seat 2* and Enter. He is seated and the
    game starts; the focus is drawn at each control (ipywidgets took the outline off its
    text boxes, leaving a pale blue border at 2.2:1)."""
    needs("code")
    ben = open_page(devices["ben"], server)
    ben.locator("button.ttr-first-others").wait_for(state="visible", timeout=WAIT_MS)
    steps = [
        ("button.ttr-first-others", None),
        (".ttr-table-join-code input", TABLE["code"]),
        (".ttr-table-join-name input", "Ben"),
        ("button.ttr-table-find", None),
        ("button.ttr-table-sit-1", None),
    ]
    for selector, text in steps:
        key_to(ben, selector)
        outline = ben.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
        assert outline not in ("", "none"), f"{selector}: no visible focus"
        if text is None:
            ben.keyboard.press("Enter")
        else:
            ben.keyboard.type(text)
            ben.wait_for_timeout(200)  # the last letters reach the kernel
        if selector == "button.ttr-table-find":
            ben.locator("button.ttr-table-sit-1").wait_for(state="visible", timeout=WAIT_MS)
            window_shot(ben, "a11y-table-keyboard-seats.png")
    wait_text(ben, ".ttr-table-code", "you are seat 2")
    wait_text(ben, ".ttr-table-turn", "Ann's turn")
    window_shot(ben, "a11y-table-keyboard-seated.png")
    TABLE["ben"] = ben
    no_errors(ben)


# ------------------------------------------------------------------------ playing
# The banner's background and words at each tenth of its pulse (its animation restarted
# and stepped through by hand, so the check does not depend on when it runs).
JS_PULSE_COLOURS = """
() => {
  const el = document.querySelector('.ttr-table-turn-mine');
  if (!el) return null;
  el.style.animation = 'none';
  void el.offsetHeight;  // the browser takes the change: the animation starts again
  el.style.animation = '';
  const animations = el.getAnimations();
  const seen = [];
  for (let i = 0; i <= 10; i++) {
    for (const a of animations) { a.pause(); a.currentTime = i * 120; }
    const style = getComputedStyle(el);
    seen.push([style.backgroundColor, style.color]);
  }
  for (const a of animations) a.finish();
  return {count: animations.length, seen};
}
"""


def _luminance(css: str) -> float:
    r, g, b = (int(v) / 255 for v in css[css.index("(") + 1 : css.index(")")].split(",")[:3])
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    """WCAG's contrast ratio of two CSS ``rgb(...)`` colours."""
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_your_turn_stays_readable_while_it_pulses() -> None:
    """*Your turn!* pulses three times when the turn comes: its white words stay at 4.5:1
    or more on its green at every moment of the pulse (the pulse lightened the green to
    2.4:1, which axe-core caught when it ran in the first seconds of a turn)."""
    needs("ann", "ben")
    ann = TABLE["ann"]
    wait_text(ann, ".ttr-table-turn", "Your turn!")
    pulse = ann.evaluate(JS_PULSE_COLOURS)
    assert pulse and pulse["count"] >= 1, f"the banner does not pulse: {pulse}"
    ratios = [contrast(background, words) for background, words in pulse["seen"]]
    assert min(ratios) >= 4.5, f"Your turn! at {min(ratios):.2f}:1 during its pulse: {pulse}"


@needs_axe
def test_a_table_being_played_passes_axe() -> None:
    """Ann's page on her turn (the tickets offered, *Your turn!*) and Ben's while he waits,
    and Ann's with the table's details unfolded."""
    needs("ann", "ben")
    ann, ben = TABLE["ann"], TABLE["ben"]
    ann.locator("button.ttr-keep").wait_for(timeout=WAIT_MS)
    ann.evaluate(JS_SCROLL_TOP)
    axe_both_widths(ann, "playing-ann")
    axe_both_widths(ben, "playing-ben")
    open_details(ann)
    axe_both_widths(ann, "playing-ann-details")
    no_errors(ann)
    no_errors(ben)


# ------------------------------------------------------------------------ 200% zoom
JS_RIGHTMOST = """
() => Math.max(...[...document.querySelectorAll('.ttr-app *')]
  .filter(e => e.getClientRects().length).map(e => e.getBoundingClientRect().right))
"""


@pytest.mark.parametrize("window", [(1366, 768), (1200, 800)])
def test_a_tables_page_at_200_percent_zoom(window: tuple[int, int]) -> None:
    """Ann's page at 200% browser zoom (a 1366×768 or 1200×800 window lays out in half its
    pixels): the table's banner, its details (seats, link, QR code, her buttons), the
    tickets and the cards; no control or heading overlaps another, nothing reaches past
    the right edge, and no panel is fixed over the page."""
    needs("ann", "ben")
    ann = TABLE["ann"]
    width, height = window[0] // 2, window[1] // 2
    open_details(ann)
    at_width(ann, width, height)
    for part in ("details", "game"):
        if part == "game":
            ann.locator(".ttr-table-details").get_by_text("The table:").click()  # fold it
            ann.wait_for_timeout(400)
        overlaps = ann.evaluate(JS_OVERLAPS, True)
        window_shot(ann, f"a11y-table-zoom200-{width}-{part}.png")
        assert not overlaps, f"overlapping at 200% ({part}): {overlaps}"
        wide = ann.evaluate(JS_RIGHTMOST)
        assert wide <= width + 1, f"something reaches {wide:.0f} px in a {width} px page"
        fixed = ann.evaluate(
            "() => [...document.querySelectorAll('.ttr-dock, .ttr-claim-box')]"
            ".filter(e => getComputedStyle(e).position === 'fixed').length"
        )
        assert not fixed, "a fixed panel covers the page in a short window"
        for must in (".ttr-table-turn", ".ttr-table-code", "button.ttr-keep"):
            assert ann.locator(must).is_visible(), f"{must} is lost at 200%"
    at_width(ann, *LAPTOP)


# ------------------------------------------------------------------------ over
@needs_axe
def test_a_finished_table_passes_axe() -> None:
    """Ann gives both seats to bots (the creator's buttons), the table service plays the
    game to its end, and each page shows the end screen and the whole turn log. Was: the
    turn log, a box that scrolls, took no focus (scrollable-region-focusable)."""
    needs("ann", "ben")
    ann, ben = TABLE["ann"], TABLE["ben"]
    open_details(ann)
    for seat in (0, 1):
        ann.locator(".ttr-table-creator-seat select").focus()
        choose_by_keys(ann, seat)
        key_to(ann, "button.ttr-table-give")
        ann.keyboard.press("Enter")
        wait_text(ann, ".ttr-table-note", f"A greedy bot plays seat {seat + 1}")
    wait_text(ann, ".ttr-table-turn", "The game is over", timeout=180_000)
    wait_text(ben, ".ttr-table-turn", "The game is over", timeout=60_000)
    for page in (ann, ben):
        page.locator(".ttr-result-box").wait_for(state="visible", timeout=WAIT_MS)
        page.wait_for_timeout(500)
        page.evaluate(JS_SCROLL_TOP)
    TABLE["over"] = True
    axe_both_widths(ann, "over-ann")
    axe_both_widths(ben, "over-ben")
    no_errors(ann)
    no_errors(ben)


# ------------------------------------------------------------------------ the teacher
@pytest.fixture(scope="module")
def teacher_server(tables_url: str, server: str) -> Iterator[str]:
    port = server.rstrip("/").rsplit(":", 1)[1]
    env = {"TTR_TABLES_URL": tables_url, "TTR_TEACHER_TOKEN": TEACHER_TOKEN, "TTR_APP_PORT": port}
    with serving("teacher.ipynb", "voila-a11y-teacher.log", warm=1, env=env, teacher=True) as v:
        yield v.url


@needs_axe
def test_the_teachers_page_passes_axe(teacher_server: str, devices: dict) -> None:
    """The teacher's page with the finished table listed, then watching that table (the
    board, its end screen, the turn log)."""
    needs("over")
    page = devices["teacher"].new_page()
    page.goto(f"{teacher_server}?token={TEACHER_TOKEN}", wait_until="domcontentloaded")
    page.locator(".ttr-teacher-table").wait_for(timeout=90_000)
    wait_text(page, ".ttr-teacher-table", "over")
    page.wait_for_timeout(1000)
    axe_both_widths(page, "teacher")
    page.locator(".ttr-teacher-watch").click()
    page.locator(".ttr-teacher-watch-box .ttr-result-box").wait_for(state="visible", timeout=90_000)
    page.wait_for_function(JS_CANVAS_PAINTED, timeout=90_000, polling=200)
    page.wait_for_timeout(500)
    axe_both_widths(page, "teacher-watching")
    no_errors(page)
    page.close()
