"""The app for every learner, in Chromium: axe-core (WCAG 2.2 A/AA) on the first screen, a
game of each map, a finished game stepped back, the rules card and every step of each map's
tutorial, at 1366×768 and 390 px; the collapsible sections, a turn and a whole tutorial by
keyboard, the focus order of a phone's page, the rules card as a dialog, a station's
question beside its button, the other players' moves read out, the board in words, the
phone's bottom panel and its tap targets, the laptop's key controls without scrolling, and
200% zoom. (A shared table, the teacher's page: test_browser_a11y_tables.py; the static
site and its docs: test_browser_a11y_site.py.)

Screenshots and axe-core's findings go to ``test-artifacts/a11y-*`` (docs/accessibility.md).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from a11y import (
    JS_FOCUS_MATCHES,
    JS_OVERLAPS,
    JS_SMALL_TARGETS,
    check_page,
    choose_by_keys,
    describe,
    key_to,
    needs_axe,
    tab_to,
)
from browser import (
    JS_APP_SHOWN,
    JS_IN_VIEW,
    JS_SCROLL_TOP,
    WAIT_MS,
    PlaywrightTimeout,
    Voila,
    at_width,
    canvas_point,
    click_and_settle,
    confirm_if_asked,
    context,
    geometry_for,
    keep_tickets,
    no_errors,
    past_first_screen,
    pytestmark,
    serial,
    start_game,
    status,
    total_moves,
    voila,
    window_shot,
)
from tutorial_browser import answer, route_label

from ttr_nb import Game, load_map, new_game
from ttr_nb.actions import ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets, Pass
from ttr_nb.bots import make_bot
from ttr_nb.rules import playable_maps
from ttr_nb.rules.europe_actions import BuildStation
from ttr_nb.widgets import style
from ttr_nb.widgets.tutorial import tutorial_for, tutorial_maps

__all__ = ["context", "pytestmark", "voila"]  # fixtures used by name

LAPTOP = (1366, 768)
PHONE = (390, 844)


@pytest.fixture(scope="module")
def page(context: Any, voila: Voila) -> Iterator[Any]:
    """The app as a visitor opens it: on its first screen, at 1366×768."""
    tab = context.new_page()
    tab.set_viewport_size({"width": LAPTOP[0], "height": LAPTOP[1]})
    tab.goto(voila.url, wait_until="domcontentloaded", timeout=60_000)
    tab.wait_for_function(JS_APP_SHOWN, timeout=90_000, polling=100)
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


AXE = not needs_axe.args[0]  # axe-core is installed (make a11y-deps)


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


def test_tab_leaves_the_board_at_once_and_stays_gone(page: Any) -> None:
    """With the board focused, Tab moves on to the Route list at once, and the focus stays
    where the keyboard takes it next. The board's key handler sent Tab to the kernel, which
    moved the focus to the Route list a round trip later: a second Tab pressed meanwhile was
    answered later still, and pulled the focus back from wherever the keyboard had gone
    (a turn by keyboard lost its ticks to it: Space then pressed Redraw board)."""
    at_width(page, *LAPTOP)
    game(page, "usa", seed=6)
    canvas = page.locator(".ttr-board-canvas canvas").last
    canvas.focus()
    assert page.evaluate("() => document.activeElement.tagName") == "CANVAS"
    page.keyboard.press("Tab")
    in_list = "() => !!document.activeElement.closest('.ttr-route-picker')"
    assert page.evaluate(in_list), "Tab did not leave the board for its Route list at once"
    page.keyboard.press("Tab")
    page.wait_for_timeout(1500)  # a kernel's answer would have come by now
    last = page.evaluate("() => document.activeElement.className")
    assert "ttr-clear-selection" in last, f"the focus was moved to {last!r}"
    canvas.focus()
    page.keyboard.press("Shift+Tab")  # back out of the board, to the section before it
    page.wait_for_timeout(1000)
    assert "Collapse-header" in page.evaluate("() => document.activeElement.className")


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


def test_on_a_phone_the_bottom_panel_stays_at_the_foot_of_the_window(page: Any) -> None:
    """At 390×844 the bottom panel (whose turn it is, the step, the question) stays at the
    foot of the window however far the page is scrolled. Voilà's page boxes are contained
    (CSS contain: strict), which made them its frame instead of the window: it stayed at the
    foot of the page's first screen, and scrolled up out of sight with the page."""
    at_width(page, *PHONE)
    game(page, "usa", seed=8)
    keep_tickets(page)
    for part in (".ttr-board-canvas", ".ttr-hand", ".ttr-scores", "button.ttr-bot-step"):
        page.locator(part).first.evaluate("e => e.scrollIntoView({block: 'center'})")
        page.wait_for_timeout(300)
        dock = page.locator(".ttr-dock").bounding_box()
        assert dock is not None and abs(dock["y"] + dock["height"] - PHONE[1]) <= 2, (
            f"with {part} in view the bottom panel is at {dock}"
        )
        assert page.evaluate(JS_SEEN, ".ttr-turn-line"), f"with {part} in view: no turn line"
    window_shot(page, "a11y-phone-dock-scrolled-390.png")
    at_width(page, *LAPTOP)


# ------------------------------------------------------------------------- a laptop
def settled_in_view(page: Any, *selectors: str) -> None:
    """Let the page's own scrolling settle (the app brings the offer into view once the
    step or the game is drawn): until every selector is in the window, or 10 s (a fixed
    pause was outlasted on a busy machine); the caller's assertions then say what is not."""
    page.wait_for_timeout(300)
    in_view = f"(selectors) => selectors.every(s => ({JS_IN_VIEW.strip()})(s))"
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(in_view, arg=list(selectors), timeout=10_000)


def test_on_a_laptop_keep_is_in_the_window_when_tickets_are_offered(
    page: Any, context: Any, voila: Voila
) -> None:
    """At 1366×768, the tickets offered and *Keep* are in the window without scrolling,
    beside the whole board: in a new game, and at the first step of the Europe tutorial,
    whose words fill the column above them (*Keep* was at 856–884 px there)."""
    at_width(page, *LAPTOP)
    game(page, "usa", seed=9)
    settled_in_view(page, "button.ttr-keep")
    window_shot(page, "a11y-laptop-keep-1366.png")
    assert page.evaluate(JS_IN_VIEW, "button.ttr-keep"), "Keep is below the fold"
    tab = context.new_page()
    try:
        tab.set_viewport_size({"width": LAPTOP[0], "height": LAPTOP[1]})
        tab.goto(voila.url + "?tutorial=europe", wait_until="domcontentloaded", timeout=60_000)
        tab.locator("button.ttr-keep").wait_for(state="visible", timeout=90_000)
        settled_in_view(tab, "button.ttr-keep", ".ttr-tutorial-task")
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


# --------------------------------------------------------------- a finished game
@cache
def greedy_game(map_name: str, players: int, seed: int, done: Any = None) -> str:
    """Greedy bots play every seat until ``done(game)`` (or the end); the game saved."""
    game = new_game(map_name, players=players, seed=seed)
    bots = [make_bot("greedy", seat) for seat in range(players)]
    while not game.is_over and not (done and done(game)):
        game.apply(bots[game.current_player].choose(game))
    return game.to_json()


def load_position(page: Any, text: str) -> None:
    """Load a save through *Save and load* (the app asks first over a game in progress)."""
    files = page.locator(".ttr-extras").get_by_text("Save and load", exact=True)
    if not page.locator(".ttr-save-text textarea").is_visible():
        files.click()
    page.locator(".ttr-save-text textarea").fill(text)
    before = serial(page)
    page.locator("button.ttr-load-text").click()
    confirm_if_asked(page, before, "Load the text box")
    assert "Loaded" in status(page), status(page)
    files.click()  # fold it away again
    page.evaluate(JS_SCROLL_TOP)


@needs_axe
def test_a_finished_game_and_a_step_back_pass_axe(page: Any) -> None:
    """The end screen of a whole game (its turn log long enough to scroll), then three
    moves back (the moves after the one shown are set apart in the log), at 1366×768 and
    390 px. Was: the log, a box that scrolls, took no focus (no keyboard could scroll it:
    scrollable-region-focusable), and the moves after the one shown were #aaa on the
    log's cream, 2.3:1 (color-contrast)."""
    at_width(page, *LAPTOP)
    past_first_screen(page)
    load_position(page, greedy_game("usa", 3, 5))
    page.locator(".ttr-result-box").wait_for(state="visible", timeout=WAIT_MS)
    log = page.locator(".ttr-log-box")
    assert page.evaluate(
        "() => { const b = document.querySelector('.ttr-log-box');"
        " return b.scrollHeight > b.clientHeight; }"
    ), "the log does not scroll: nothing to test"
    for width, height in (LAPTOP, PHONE):
        at_width(page, width, height)
        assert_axe_clean(page, f"game-over-{width}")
    at_width(page, *LAPTOP)
    log.focus()  # by keyboard: the log takes the focus, and the arrows scroll it
    assert log.evaluate("b => document.activeElement === b")
    for _ in range(3):
        click_and_settle(page, "button.ttr-back")
    assert page.locator(".ttr-log-box li.ttr-future").count() >= 3
    for width, height in (LAPTOP, PHONE):
        at_width(page, width, height)
        assert_axe_clean(page, f"game-stepped-back-{width}")
    at_width(page, *LAPTOP)
    no_errors(page)


# ------------------------------------------------------------------- the rules card
JS_DIALOG = """
() => {
  const card = document.querySelector('.ttr-rules-card');
  const by = card.getAttribute('aria-labelledby');
  const button = document.querySelector('button.ttr-rules-button');
  return {role: card.getAttribute('role'), name: by && document.getElementById(by)
          ? document.getElementById(by).textContent : card.getAttribute('aria-label'),
          focusInside: card.contains(document.activeElement),
          expanded: button.getAttribute('aria-expanded'),
          controls: button.getAttribute('aria-controls') === card.id};
}
"""


def test_the_rules_card_is_a_dialog_that_escape_closes(page: Any) -> None:
    """Opened by keyboard, the rules card is a dialog named by its title, the focus moves
    into it and its button says it is open; Escape closes it and gives the focus back to
    the button. axe-core finds nothing in it at 1366×768 and 390 px. (It was a plain box:
    no role, no name, Escape did nothing and the focus stayed behind it.)"""
    at_width(page, *LAPTOP)
    game(page, "usa")
    button = page.locator("button.ttr-rules-button")
    button.focus()
    page.keyboard.press("Enter")
    card = page.locator(".ttr-rules-card")
    card.wait_for(state="visible", timeout=WAIT_MS)
    page.wait_for_function(
        "() => document.querySelector('.ttr-rules-card').contains(document.activeElement)",
        timeout=WAIT_MS,
    )
    seen = page.evaluate(JS_DIALOG)
    assert seen["role"] == "dialog", seen
    assert seen["name"] == "The rules of USA, on one screen", seen
    assert seen["focusInside"] and seen["expanded"] == "true" and seen["controls"], seen
    if AXE:
        for width, height in (LAPTOP, PHONE):
            at_width(page, width, height)
            assert_axe_clean(page, f"rules-card-{width}")
        at_width(page, *LAPTOP)
    page.keyboard.press("Escape")
    card.wait_for(state="hidden", timeout=WAIT_MS)
    page.wait_for_function(
        "() => document.activeElement === document.querySelector('button.ttr-rules-button')",
        timeout=WAIT_MS,
    )
    assert button.get_attribute("aria-expanded") == "false"
    assert button.inner_text().strip() == "Rules"
    # From a control inside it too (not only from the dialog itself).
    page.keyboard.press("Enter")
    card.wait_for(state="visible", timeout=WAIT_MS)
    page.locator(".ttr-rules-pages button", has_text="House rules").focus()
    page.keyboard.press("Escape")
    card.wait_for(state="hidden", timeout=WAIT_MS)
    no_errors(page)


def test_on_a_tall_board_the_rules_button_is_not_under_the_key(page: Any) -> None:
    """Germany at 1366×768 (the tall board's grid puts the Rules button at the end of the
    key's line): the button's whole face takes its own clicks. The key's line lay over
    its top 17 px, so a click there opened the key instead of the rules."""
    at_width(page, *LAPTOP)
    game(page, "germany")
    box = page.locator("button.ttr-rules-button").bounding_box()
    for dx, dy in ((0.5, 0.15), (0.5, 0.5), (0.1, 0.3), (0.9, 0.85)):
        x, y = box["x"] + dx * box["width"], box["y"] + dy * box["height"]
        hit = page.evaluate(
            "([x, y]) => { const e = document.elementFromPoint(x, y);"
            " return e && e.closest('button.ttr-rules-button') ? 'button' : e.tagName; }",
            [x, y],
        )
        assert hit == "button", f"at ({dx}, {dy}) of the Rules button a click lands on {hit}"
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + 4)
    page.locator(".ttr-rules-card").wait_for(state="visible", timeout=WAIT_MS)
    window_shot(page, "a11y-rules-germany-1366.png")
    page.keyboard.press("Escape")
    page.locator(".ttr-rules-card").wait_for(state="hidden", timeout=WAIT_MS)


# ---------------------------------------------------------- a question by its button
# In the window and not covered (by the phone's bottom panel): the point at the element's
# centre reaches the element itself.
JS_SEEN = """
(selector) => {
  const el = document.querySelector(selector);
  if (!el || el.offsetParent === null) return false;
  const r = el.getBoundingClientRect();
  if (r.top < 0 || r.bottom > window.innerHeight || r.left < 0 || r.right > window.innerWidth)
    return false;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return hit !== null && (hit === el || el.contains(hit) || hit.contains(el));
}
"""


def station_choices(game: Game) -> int:
    """The most ways seat 0 may pay for a station in one city (0: none)."""
    if game.current_player != 0 or game.state.pending or len(game.history) < 10:
        return 0
    cities: dict[str, int] = {}
    for action in game.legal_actions():
        if isinstance(action, BuildStation):
            cities[action.city] = cities.get(action.city, 0) + 1
    return max(cities.values(), default=0)


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["1366", "390"])
def test_a_stations_question_opens_beside_its_button(page: Any, size: tuple[int, int]) -> None:
    """Europe: *Build a station* in a city that can be paid for in several ways asks which
    cards, and the question opens under that button, both in the window together (on a
    laptop it opened at the top of the play column, which scrolled to it, away from the
    button; on a phone it opened in the bottom panel, away from the button too)."""
    at_width(page, *LAPTOP)
    past_first_screen(page)
    load_position(page, greedy_game("europe", 2, 3, lambda g: station_choices(g) >= 2))
    at_width(page, *size)
    builder = page.locator("button.ttr-build-station")
    builder.evaluate("b => b.scrollIntoView({block: 'center'})")  # where the learner looks
    page.wait_for_timeout(300)
    moves = total_moves(page)
    builder.click()
    question = page.locator(".ttr-prompt")
    question.wait_for(state="visible", timeout=WAIT_MS)
    page.wait_for_timeout(400)  # whatever scrolls, scrolls now
    window_shot(page, f"a11y-station-question-{size[0]}.png")
    assert page.locator(".ttr-station .ttr-prompt").is_visible(), "not under its button"
    assert "pay for your station" in page.locator(".ttr-prompt-question").inner_text()
    for part in (".ttr-prompt-question", "button.ttr-prompt-ok", "button.ttr-build-station"):
        assert page.evaluate(JS_SEEN, part), f"{part} is out of the window or covered"
    button_box = builder.bounding_box()
    below = question.bounding_box()["y"] - (button_box["y"] + button_box["height"])
    assert 0 <= below < 60, f"the question is {below:.0f} px below its button"
    page.locator(".ttr-prompt-choices input").nth(1).check()
    click_and_settle(page, "button.ttr-prompt-ok")
    assert total_moves(page) == moves + 1 and "builds a train station" in status(page)
    assert not page.locator(".ttr-station .ttr-prompt").count(), "the question stayed there"
    at_width(page, *LAPTOP)
    no_errors(page)


# ---------------------------------------------------------------- a phone's page order
# The focused element's top in the page (not in the window: the page scrolls as the focus
# moves), or null when it sits in a panel fixed over the page (the phone's bottom panel).
JS_FOCUS_TOP = """
() => {
  const el = document.activeElement;
  if (!el || el === document.body || !el.closest('.ttr-app')) return null;
  for (let e = el; e; e = e.parentElement)
    if (getComputedStyle(e).position === 'fixed') return {fixed: true};
  let top = 0;
  for (let e = el; e; e = e.offsetParent) top += e.offsetTop;
  return {top, cls: (el.className || '').toString(),
          text: (el.getAttribute('aria-label') || el.innerText || el.className || '')
            .toString().trim().slice(0, 40)};
}
"""


def test_on_a_phone_the_keyboard_meets_the_page_in_the_screens_order(page: Any) -> None:
    """At 390 px the page is one column: the board, the play column, then the history (the
    stepping buttons and the turn log). Tab from the top of the page visits every control
    from the top of the screen to its bottom. The history came before the play column in
    the page's order, though it is seen after it: Tab jumped 1,300 px down to the stepping
    buttons and back up to the cards."""
    at_width(page, *LAPTOP)
    game(page, "usa", seed=4)
    keep_tickets(page)
    click_and_settle(page, "button.ttr-bot-step")
    at_width(page, *PHONE)
    page.locator(".ttr-title").click()
    seen: list[tuple[float, str]] = []
    classes: list[str] = []
    for _ in range(250):
        page.keyboard.press("Tab")
        where = page.evaluate(JS_FOCUS_TOP)
        if where is None:
            if seen:
                break  # past the app's end
            continue
        if where.get("fixed"):
            continue  # the bottom panel, over the page: always in view
        seen.append((where["top"], where["text"]))
        classes.append(where["cls"])
    # The play column's Next bot move and the history's Back were both visited.
    assert any("ttr-bot-step" in c for c in classes), seen
    assert any("ttr-back" in c for c in classes), seen
    for (top_a, a), (top_b, b) in zip(seen, seen[1:], strict=False):
        assert top_b >= top_a - 12, f"Tab went up from {a!r} ({top_a:.0f}) to {b!r} ({top_b:.0f})"
    at_width(page, *LAPTOP)


# ------------------------------------------------------------------------ tutorials
@needs_axe
@pytest.mark.parametrize("map_name", tutorial_maps())
def test_every_tutorial_step_passes_axe(context: Any, voila: Voila, map_name: str) -> None:
    """Each step of each map's tutorial as it opens (the step's words, its marked panels
    and the position), at 1366×768 and at 390 px. Was, on Germany's and Märklin's tall
    boards: the turn log, a box that scrolls, could not take the focus (so no keyboard
    could scroll it), and the key's line covered the top of the Rules button."""
    tab = context.new_page()
    try:
        tab.set_viewport_size({"width": LAPTOP[0], "height": LAPTOP[1]})
        tab.goto(f"{voila.url}?tutorial={map_name}", wait_until="domcontentloaded")
        tab.locator(".ttr-tutorial-text").wait_for(state="visible", timeout=90_000)
        tab.wait_for_timeout(500)
        steps = int(tab.locator(".ttr-tutorial-header").inner_text().split(" of ")[1].split(":")[0])
        for step in range(1, steps + 1):
            assert f"Step {step} of" in tab.locator(".ttr-tutorial-header").inner_text()
            for width, height in (LAPTOP, PHONE):
                at_width(tab, width, height)
                assert_axe_clean(tab, f"tutorial-{map_name}-{step}-{width}")
            at_width(tab, *LAPTOP)
            if step < steps:
                click_and_settle(tab, "button.ttr-tutorial-next")
                tab.wait_for_timeout(200)
        no_errors(tab)
    finally:
        # The step reached is kept in this browser's storage: forget it, so a page opened
        # later in the same browser starts on the first screen again.
        tab.evaluate("() => localStorage.clear()")
        tab.close()


def settle_after(page: Any, key: str = "Enter") -> None:
    """Press ``key`` on the focused control and wait for the app's answer: its status
    rewritten (numbered), or its question opened."""
    before = serial(page)
    page.keyboard.press(key)
    page.wait_for_function(
        "(n) => Number(document.querySelector('.ttr-status-box [data-serial]')"
        ".getAttribute('data-serial')) > n || (document.querySelector('.ttr-prompt') "
        "&& document.querySelector('.ttr-prompt').offsetParent !== null)",
        arg=before,
        timeout=WAIT_MS,
    )


def answer_by_keys(page: Any, index: int) -> None:
    """The app's question (which one?): the arrows to answer ``index``, then its OK."""
    if page.locator(".ttr-prompt-choices input").first.is_visible():
        key_to(page, ".ttr-prompt-choices input:checked")  # a radio group: one Tab stop
        for _ in range(index):
            page.keyboard.press("ArrowDown")
            page.wait_for_timeout(100)
    key_to(page, "button.ttr-prompt-ok")
    settle_after(page)


def move_by_keys(page: Any, selector: str, index: int = 0) -> None:
    """Reach a control that makes a move by Tab (or Shift+Tab), press Enter, and answer the
    app's question if it asks one; the move is made."""
    moves = total_moves(page)
    key_to(page, selector)
    settle_after(page)
    if total_moves(page) == moves and page.locator(".ttr-prompt").is_visible():
        answer_by_keys(page, index)
    assert total_moves(page) > moves, f"{selector}: no move; status {status(page)!r}"


def play_by_keys(page: Any, game: Game, action: Any) -> bool:
    """Make ``action`` with the keyboard only; False when no keys are mapped here for it."""
    legal = game.legal_actions()
    if isinstance(action, DrawFaceUp):
        group = [a for a in legal if isinstance(a, DrawFaceUp) and a.slot == action.slot]
        selector = f"button.ttr-face-up-{action.slot}:not(:disabled)"
        move_by_keys(page, selector, answer(game, group, action))
    elif isinstance(action, DrawBlind):
        move_by_keys(page, f"button.ttr-draw-blind-{action.deck}:not(:disabled)")
    elif isinstance(action, DrawTickets):
        index = answer(game, [a for a in legal if isinstance(a, DrawTickets)], action)
        if page.locator(".ttr-prompt").is_visible():  # the first tickets are asked at once
            moves = total_moves(page)
            answer_by_keys(page, index)
            assert total_moves(page) > moves, status(page)
        else:
            move_by_keys(page, "button.ttr-draw-tickets:not(:disabled)", index)
    elif isinstance(action, KeepTickets):
        offer = game.state.players[game.current_player].offer
        for i, ticket in enumerate(offer):
            key_to(page, f".ttr-offer-{i} input")
            if page.locator(f".ttr-offer-{i} input").is_checked() != (ticket in action.tickets):
                page.keyboard.press(" ")
                page.wait_for_timeout(150)  # the tick reaches the kernel
        move_by_keys(page, "button.ttr-keep:not(:disabled)")
    elif isinstance(action, ClaimRoute):
        label = route_label(game.map.id, action.route)
        key_to(page, ".ttr-route-picker select")
        options = page.locator(".ttr-route-picker option").all_text_contents()
        choose_by_keys(page, [o.replace("\xa0", " ") for o in options].index(label), label)
        page.locator("button.ttr-claim").wait_for(state="visible", timeout=WAIT_MS)
        claims = [a for a in legal if isinstance(a, ClaimRoute) and a.route == action.route]
        payments = list(dict.fromkeys(a.cards for a in claims))
        key_to(page, ".ttr-payment select")
        choose_by_keys(page, payments.index(action.cards))
        group = [a for a in claims if a.cards == action.cards]
        move_by_keys(page, "button.ttr-claim:not(:disabled)", answer(game, group, action))
    elif isinstance(action, Pass):
        key_to(page, ".ttr-other-moves select")
        choose_by_keys(page, 0)
        move_by_keys(page, "button.ttr-other-do:not(:disabled)")
    else:
        return False
    return True


def test_a_whole_tutorial_by_keyboard_alone(context: Any, voila: Voila) -> None:
    """The USA tutorial from its first step to its end with the keyboard only: Tab and
    Shift+Tab to each control, Space to tick, Enter to press, the arrows and the first
    letters to choose in a list (a route, a payment), the arrows to answer a question,
    then *Next step*. Every move the step asks for is made so (nothing by Show me)."""
    tab = context.new_page()
    try:
        tab.set_viewport_size({"width": LAPTOP[0], "height": LAPTOP[1]})
        tab.goto(f"{voila.url}?tutorial=usa", wait_until="domcontentloaded")
        tab.locator(".ttr-tutorial-text").wait_for(state="visible", timeout=90_000)
        tab.wait_for_timeout(500)
        tutorial = tutorial_for("usa")
        ends: dict[int, Game] = {}
        unmapped: list[str] = []
        by_keys: list[str] = []
        for i in range(len(tutorial.steps)):
            header = tab.locator(".ttr-tutorial-header").inner_text()
            assert f"Step {i + 1} of {len(tutorial.steps)}" in header, header
            # The step as the app opens it: the game the steps before left, carried on.
            opening = tutorial.open(i, ends)
            step, game = opening.step, opening.game.clone()
            while step.goal is not None and not step.goal.reached(game):
                assert total_moves(tab) == len(game.history), f"step {i + 1}: not the app's game"
                action = step.goal.show_move(game)
                try:
                    mapped = play_by_keys(tab, game, action)
                except (AssertionError, PlaywrightTimeout):
                    window_shot(tab, "a11y-keyboard-tutorial-failure.png")
                    raise AssertionError(f"step {i + 1} ({step.key}): {action}") from None
                if not mapped:
                    unmapped.append(type(action).__name__)
                    move_by_keys(tab, "button.ttr-tutorial-show")
                    game = tutorial.finish(opening, game)
                    break
                by_keys.append(type(action).__name__)
                game.apply(action)
            ends[i] = game
            if i == 1:
                window_shot(tab, "a11y-keyboard-tutorial-2.png")
            next_step = "button.ttr-tutorial-next"
            key_to(tab, next_step)
            outline = tab.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
            assert outline not in ("", "none"), "Next step: no visible focus"
            settle_after(tab)
        assert "Finished" in tab.locator(".ttr-tutorial-header").inner_text()
        assert not unmapped, f"moves made by Show me: {unmapped}"
        kinds = set(by_keys)
        assert {"KeepTickets", "DrawFaceUp", "ClaimRoute", "DrawTickets"} <= kinds, by_keys
        print(f"\nthe USA tutorial by keyboard: {len(by_keys)} moves ({sorted(kinds)})")
        window_shot(tab, "a11y-keyboard-tutorial-end.png")
        no_errors(tab)
    finally:
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
