"""The app for every learner, in Chromium: axe-core (WCAG 2.2 A/AA) on the first screen and a
game of each map at 1366×768 and 390 px, the collapsible sections by keyboard, the other
players' moves read out, the board in words, the phone's bottom panel and its tap targets,
the laptop's key controls without scrolling, and 200% zoom.

Screenshots and axe-core's findings go to ``test-artifacts/a11y-*`` (docs/accessibility.md).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from a11y import (
    JS_FOCUS_MATCHES,
    JS_OVERLAPS,
    JS_SMALL_TARGETS,
    check_page,
    describe,
    needs_axe,
    tab_to,
)
from browser import (
    JS_CANVAS_PAINTED,
    JS_IN_VIEW,
    JS_SCROLL_TOP,
    WAIT_MS,
    Voila,
    at_width,
    canvas_point,
    click_and_settle,
    context,
    geometry_for,
    keep_tickets,
    no_errors,
    past_first_screen,
    pytestmark,
    serial,
    start_game,
    status,
    voila,
    window_shot,
)

from ttr_nb import load_map
from ttr_nb.rules import playable_maps
from ttr_nb.widgets import style

__all__ = ["context", "pytestmark", "voila"]  # fixtures used by name

LAPTOP = (1366, 768)
PHONE = (390, 844)


@pytest.fixture(scope="module")
def page(context: Any, voila: Voila) -> Iterator[Any]:
    """The app as a visitor opens it: on its first screen, at 1366×768."""
    tab = context.new_page()
    tab.set_viewport_size({"width": LAPTOP[0], "height": LAPTOP[1]})
    tab.goto(voila.url, wait_until="domcontentloaded", timeout=60_000)
    tab.wait_for_function(JS_CANVAS_PAINTED, timeout=90_000, polling=100)
    tab.locator("button.ttr-first-bots").wait_for(state="visible", timeout=WAIT_MS)
    tab.wait_for_timeout(500)  # the page helper names what ipywidgets left unnamed
    yield tab
    tab.close()


def game(page: Any, map_name: str, seed: int = 7) -> None:
    """A new game on ``map_name``: the page's seat against two greedy bots, who move on
    *Next bot move* only."""
    past_first_screen(page)
    start_game(page, map_name, seed, kinds=["human", "greedy", "greedy"])
    page.evaluate(JS_SCROLL_TOP)
    page.wait_for_timeout(300)


def assert_axe_clean(page: Any, name: str) -> None:
    nodes = check_page(page, name)
    assert not nodes, f"{name}: {len(nodes)} serious or critical:\n{describe(nodes)}"


# ------------------------------------------------------------------------ axe-core
@needs_axe
def test_the_first_screen_passes_axe_on_a_laptop_and_a_phone(page: Any) -> None:
    """Was: color-contrast ×2 (the grey words of the New game and Play with others headers,
    4.45:1)."""
    for width, height in (LAPTOP, PHONE):
        at_width(page, width, height)
        assert page.locator("button.ttr-first-learn").is_visible()
        assert_axe_clean(page, f"first-screen-{width}")
    at_width(page, *LAPTOP)


@needs_axe
@pytest.mark.parametrize("map_name", sorted(playable_maps()))
def test_a_game_of_each_map_passes_axe(page: Any, map_name: str) -> None:
    """A game against bots, on a laptop and a phone: choosing the first tickets, then a
    route chosen to claim. Was: color-contrast (the hand's faded rows, the section
    headers), the replay speed list without a name (critical) and the move slider's handle
    without one."""
    at_width(page, *LAPTOP)
    game(page, map_name)
    assert_axe_clean(page, f"{map_name}-tickets-1366")
    at_width(page, *PHONE)
    assert_axe_clean(page, f"{map_name}-tickets-390")
    at_width(page, *LAPTOP)
    if page.locator("button.ttr-keep").is_visible():
        keep_tickets(page)
    before = serial(page)
    picker = page.locator(".ttr-route-picker select")
    picker.select_option(index=1)
    page.wait_for_function(
        "(n) => document.querySelector('.ttr-selected').innerText.includes('Selected route')",
        arg=before,
        timeout=WAIT_MS,
    )
    assert_axe_clean(page, f"{map_name}-route-1366")
    at_width(page, *PHONE)
    assert_axe_clean(page, f"{map_name}-route-390")
    at_width(page, *LAPTOP)
    no_errors(page)


# ------------------------------------------------------------------------ keyboard
SECTIONS = [
    (".ttr-new-game", "New game: map, players, seed", ".ttr-map select"),
    (".ttr-tables", "Play with others", ".ttr-tables input"),
    (".ttr-extras", "Save and load", "button.ttr-load-text"),
    (".ttr-extras", "About this map", ".ttr-about-text"),
]


def says_open(page: Any, box: str, title: str, value: str) -> None:
    """Wait until the section's header says it is open (``"true"``) or closed."""
    page.wait_for_function(
        "([sel, t, v]) => [...document.querySelectorAll(sel)].some(h => h.innerText.trim()"
        ".startsWith(t) && h.getAttribute('aria-expanded') === v)",
        arg=[f"{box} .jupyter-widget-Collapse-header", title, value],
        timeout=WAIT_MS,
    )


def test_the_collapsible_sections_open_by_keyboard(page: Any) -> None:
    """Tab reaches each section's header (it shows where the focus is) and Enter or Space
    opens and closes it; the header says whether it is open. They opened only with a
    pointer before: their headers could not take the focus."""
    at_width(page, *LAPTOP)
    game(page, "usa")
    for box, title, inside in SECTIONS:
        header = page.locator(f"{box} .jupyter-widget-Collapse-header", has_text=title)
        page.locator(".ttr-title").click()  # start from the top of the page
        tab_to(page, f"{box} .jupyter-widget-Collapse-header", title)
        outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
        assert outline not in ("", "none"), f"{title}: no visible focus"
        assert header.get_attribute("aria-expanded") == "false"
        page.keyboard.press("Enter")
        page.locator(inside).first.wait_for(state="visible", timeout=WAIT_MS)
        window_shot(page, f"a11y-keyboard-{title.split()[0].lower()}.png")
        says_open(page, box, title, "true")
        if not page.evaluate(JS_FOCUS_MATCHES, [f"{box} .jupyter-widget-Collapse-header", title]):
            header.focus()  # a section built on opening draws its header anew
        page.keyboard.press(" ")
        page.locator(inside).first.wait_for(state="hidden", timeout=WAIT_MS)
        says_open(page, box, title, "false")


def test_a_turn_by_keyboard_in_the_screens_order(page: Any) -> None:
    """Keep the first tickets, draw a card and hand over to the bots with the keyboard only:
    Tab moves forward through the play column in the order it is seen (each control below
    or beside the one before)."""
    at_width(page, *LAPTOP)
    game(page, "usa", seed=11)
    page.locator(".ttr-title").click()
    tab_to(page, ".ttr-offer input[type=checkbox]")
    tops = []
    boxes = page.locator(".ttr-offer input[type=checkbox]")
    for i in range(boxes.count()):
        page.keyboard.press(" ")  # tick it
        page.wait_for_timeout(150)  # at a person's pace: each tick reaches the kernel
        tops.append(page.evaluate("() => document.activeElement.getBoundingClientRect().top"))
        if i + 1 < boxes.count():
            page.keyboard.press("Tab")
    assert tops == sorted(tops), f"the tickets are not visited top to bottom: {tops}"
    page.wait_for_function(
        "() => !document.querySelector('button.ttr-keep').disabled", timeout=WAIT_MS
    )
    page.keyboard.press("Tab")  # (once Keep is on: a person reads the button first)
    focused = page.evaluate("() => document.activeElement.className")
    assert "ttr-keep" in focused, f"after the last ticket Tab went to {focused!r}"
    before = serial(page)
    page.keyboard.press("Enter")
    page.wait_for_function(
        "(n) => Number(document.querySelector('.ttr-status-box [data-serial]')"
        ".getAttribute('data-serial')) > n && !document.querySelector('button.ttr-keep')"
        ".offsetParent",
        arg=before,
        timeout=WAIT_MS,
    )
    # The bots keep their tickets (Bots play until my turn), then draw from the deck twice,
    # each time with Tab from the top of the play column (so in the screen's order).
    for target in ("button.ttr-bots-until-me", "button.ttr-draw-blind", "button.ttr-draw-blind"):
        page.locator(".ttr-turn").click()
        tab_to(page, f"{target}:not(:disabled)")
        before = serial(page)
        page.keyboard.press("Enter")
        page.wait_for_function(
            "(n) => Number(document.querySelector('.ttr-status-box [data-serial]')"
            ".getAttribute('data-serial')) > n",
            arg=before,
            timeout=WAIT_MS,
        )
    assert "Bruno" in page.locator(".ttr-turn").inner_text(), status(page)
    log = page.locator(".ttr-log").inner_text()
    assert log.count("Ann draws") == 2 or "Ann draws 2" in log or "Ann takes" in log, log
    window_shot(page, "a11y-keyboard-turn.png")
    no_errors(page)


# ------------------------------------------------------------------- screen readers
def test_the_bots_moves_are_read_out_and_the_board_is_described(page: Any) -> None:
    """A polite live log reads each bot's move as the turn log writes it; the board's
    canvas is named and described by the board in words (whose routes, what is left, the
    player's tickets and whether each is completed)."""
    at_width(page, *LAPTOP)
    game(page, "usa", seed=3)
    keep_tickets(page)
    for _ in range(3):
        if page.locator("button.ttr-bot-step").is_enabled():
            click_and_settle(page, "button.ttr-bot-step")
    live = page.locator(".ttr-live")
    assert live.get_attribute("aria-live") == "polite"
    said = live.inner_text()
    log = page.locator(".ttr-log li").all_inner_texts()
    bots = [
        line.lstrip("0123456789") for line in log if line.lstrip("0123")[:5] in ("Bruno", "Chen ")
    ]
    assert bots, log
    for line in bots:
        assert line.strip() in said, f"not read out: {line!r} (the live log: {said!r})"
    canvas = page.locator(".ttr-board-canvas canvas").last
    assert "game board" in (canvas.get_attribute("aria-label") or "")
    described = canvas.get_attribute("aria-describedby")
    text = page.locator(f"[id='{described}']").text_content() or ""
    for name in ("Ann", "Bruno", "Chen"):
        assert name in text, text
    assert "routes are claimed" in text and "Ann's tickets" in text
    assert "not completed yet" in text or "completed:" in text, text


# -------------------------------------------------------------------------- a phone
def test_on_a_phone_the_board_and_claim_are_on_screen_together(page: Any) -> None:
    """At 390×844: a route tapped on the board (near, not on it: a fingertip) is chosen,
    and its payment and *Claim this route* appear in a panel fixed at the bottom, with the
    turn's words, while the board is still in view. Every control is at least 44 px
    tall. (Claim was about 1,500 px below the tapped route, and buttons were 28 px.)"""
    at_width(page, *PHONE)
    game(page, "usa", seed=5)
    keep_tickets(page)
    page.evaluate(JS_SCROLL_TOP)
    geometry = geometry_for(page, "usa")
    rid, shape = next(
        (rid, shape) for rid, shape in sorted(geometry.routes.items()) if len(shape.spaces) >= 4
    )
    x, y = shape.spaces[1].cx, shape.spaces[1].cy
    page_x, page_y = canvas_point(page, x, y)
    before = serial(page)
    page.mouse.click(page_x + 4, page_y + 3)  # beside the space, as a fingertip lands
    page.wait_for_function(
        "() => document.querySelector('.ttr-selected').innerText.includes('Selected route')",
        timeout=WAIT_MS,
    )
    page.wait_for_timeout(400)
    window_shot(page, "a11y-phone-claim-390.png")
    assert serial(page) >= before
    assert page.evaluate(JS_IN_VIEW, "button.ttr-claim"), "Claim is off screen"
    assert page.evaluate(JS_IN_VIEW, ".ttr-turn-line"), "the turn's words are off screen"
    board = page.locator(".ttr-board-canvas").bounding_box()
    claim = page.locator(".ttr-claim-box").bounding_box()
    assert board["y"] + board["height"] > 0 and board["y"] < claim["y"], "no board in view"
    small = page.evaluate(JS_SMALL_TARGETS, 44)
    assert not small, f"tap targets under 44 px: {small}"
    no_errors(page)
    at_width(page, *LAPTOP)


# ------------------------------------------------------------------------- a laptop
def test_on_a_laptop_keep_is_in_the_window_when_tickets_are_offered(
    page: Any, context: Any, voila: Voila
) -> None:
    """At 1366×768, the tickets offered and *Keep* are in the window without scrolling,
    beside the whole board: in a new game, and at the first step of the Europe tutorial,
    whose words fill the column above them (*Keep* was at 856–884 px there)."""
    at_width(page, *LAPTOP)
    game(page, "usa", seed=9)
    page.wait_for_timeout(300)
    window_shot(page, "a11y-laptop-keep-1366.png")
    assert page.evaluate(JS_IN_VIEW, "button.ttr-keep"), "Keep is below the fold"
    tab = context.new_page()
    try:
        tab.set_viewport_size({"width": LAPTOP[0], "height": LAPTOP[1]})
        tab.goto(voila.url + "?tutorial=europe", wait_until="domcontentloaded", timeout=60_000)
        tab.locator("button.ttr-keep").wait_for(state="visible", timeout=90_000)
        tab.wait_for_timeout(800)  # the column's scrolling settles
        window_shot(tab, "a11y-laptop-keep-tutorial-1366.png")
        assert tab.evaluate(JS_IN_VIEW, "button.ttr-keep"), "Keep is below the fold"
        assert tab.evaluate(JS_IN_VIEW, ".ttr-tutorial-task"), "the step's task is out of view"
        board = tab.locator(".ttr-board-canvas canvas").bounding_box()
        assert board["y"] >= 0 and board["y"] + board["height"] <= LAPTOP[1]
    finally:
        tab.close()


# ----------------------------------------------------------------------- 200% zoom
JS_RIGHTMOST = """
() => Math.max(...[...document.querySelectorAll('.ttr-app *')]
  .filter(e => e.getClientRects().length).map(e => e.getBoundingClientRect().right))
"""


@pytest.mark.parametrize("window", [(1366, 768), (1200, 800)])
def test_at_200_percent_zoom_nothing_overlaps_or_leaves_the_window(
    page: Any, window: tuple[int, int]
) -> None:
    """A laptop's window at 200% browser zoom lays the page out in half its pixels (683×384,
    600×400: the phone's layout): no control or heading overlaps another, the phone's
    bottom panels included (in so short a window they stay in the page's flow instead of
    covering it), nothing reaches past the right edge; with a route chosen too."""
    width, height = window[0] // 2, window[1] // 2
    at_width(page, *LAPTOP)
    game(page, "europe", seed=2)
    keep_tickets(page)
    at_width(page, width, height)
    for part in ("game", "route"):
        if part == "route":
            page.locator(".ttr-route-picker select").select_option(index=3)
            page.wait_for_timeout(500)
        overlaps = page.evaluate(JS_OVERLAPS, True)
        window_shot(page, f"a11y-zoom200-{width}-{part}.png")
        assert not overlaps, f"overlapping at 200%: {overlaps}"
        fixed = page.evaluate(
            "() => [...document.querySelectorAll('.ttr-dock, .ttr-claim-box')]"
            ".filter(e => getComputedStyle(e).position === 'fixed').length"
        )
        assert not fixed, "a fixed panel covers the page in a short window"
        wide = page.evaluate(JS_RIGHTMOST)
        assert wide <= width + 1, f"something reaches {wide:.0f} px in a {width} px page"
    at_width(page, *LAPTOP)


# ------------------------------------------------------------------------ tutorials
@needs_axe
@pytest.mark.parametrize("map_name", ["usa", "europe"])
def test_every_tutorial_step_passes_axe(context: Any, voila: Voila, map_name: str) -> None:
    """Each step of the USA and Europe tutorials as it opens (the step's words, its marked
    panels and the position), at 1366×768; the first step at 390 px too."""
    tab = context.new_page()
    try:
        tab.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
        tab.goto(f"{voila.url}?tutorial={map_name}", wait_until="domcontentloaded")
        tab.locator(".ttr-tutorial-text").wait_for(state="visible", timeout=90_000)
        tab.wait_for_timeout(500)
        assert_axe_clean(tab, f"tutorial-{map_name}-1-390")
        at_width(tab, *LAPTOP)
        steps = int(tab.locator(".ttr-tutorial-header").inner_text().split(" of ")[1].split(":")[0])
        for step in range(1, steps + 1):
            assert f"Step {step} of" in tab.locator(".ttr-tutorial-header").inner_text()
            assert_axe_clean(tab, f"tutorial-{map_name}-{step}-1366")
            if step < steps:
                click_and_settle(tab, "button.ttr-tutorial-next")
                tab.wait_for_timeout(200)
        no_errors(tab)
    finally:
        # The step reached is kept in this browser's storage: forget it, so a page opened
        # later in the same browser starts on the first screen again.
        tab.evaluate("() => localStorage.clear()")
        tab.close()


# ------------------------------------------------------------------------ colour vision
def test_the_board_seen_by_colour_blind_eyes_matches_the_docs_figures(page: Any) -> None:
    """The USA board's screenshot seen through deuteranopia, protanopia and tritanopia
    (daltonlens; kept as ``a11y-board-*.png``): each route colour read off the simulated
    pixels of a space (beside its letter) gives the closest pair the docs print for that
    simulation, within 3 CIEDE2000 units, and the letters stay on the spaces."""
    pytest.importorskip("daltonlens")
    import numpy as np
    from basic_colormath import get_delta_e
    from PIL import Image

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
    import colour_vision as cv

    at_width(page, *LAPTOP)
    game(page, "usa", seed=1)
    page.evaluate(JS_SCROLL_TOP)
    shot = page.locator(".ttr-board-canvas canvas").last
    path = Path(window_shot(page, "a11y-board-normal-vision.png"))
    box = shot.bounding_box()
    image = np.array(Image.open(path).convert("RGB"))
    geometry = geometry_for(page, "usa")
    scale = box["width"] / geometry.width
    game_map = load_map("usa")
    points: dict[str, tuple[int, int]] = {}
    for rid, shape in sorted(geometry.routes.items()):
        color = game_map.route_by_id[rid].color
        if color in points or color == "gray" or len(game_map.parallel(game_map.route_by_id[rid])):
            continue
        space = max(shape.spaces, key=lambda s: s.half_length)
        x = space.cx + space.ux * space.half_length * 0.6  # beside the letter
        y = space.cy + space.uy * space.half_length * 0.6
        points[color] = (round(box["x"] + x * scale), round(box["y"] + y * scale))
    assert len(points) == 8, sorted(points)
    for vision, deficiency in cv.SIMULATIONS.items():
        seen = image if deficiency is None else cv._SIMULATOR.simulate_cvd(image, deficiency, 1.0)
        Image.fromarray(seen).save(path.with_name(f"a11y-board-{vision.replace(' ', '-')}.png"))
        read = {
            c: tuple(
                int(v) for v in np.median(seen[y - 1 : y + 2, x - 1 : x + 2].reshape(-1, 3), 0)
            )
            for c, (x, y) in points.items()
        }
        measured = min(get_delta_e(read[a], read[b]) for a in read for b in read if a < b)
        fills = {c: style.swatch(c).fill for c in points}
        expected = cv.pairs(fills, deficiency)[0].distance
        assert abs(measured - expected) <= 3, f"{vision}: {measured:.1f} on screen, {expected:.1f}"
