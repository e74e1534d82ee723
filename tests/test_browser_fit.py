"""Everything fits where it is shown, in Chromium, on a laptop (1366×768) and a phone
(390 px wide): questions with long answers, score tables, the map list, the stepping
buttons, and the tall boards (Germany, Märklin) beside what the player acts on.

Positions are played by the engine here (greedy bots, seeded) and loaded through the
app's own *Load from text*, so one page visits them all. Screenshots go to
``test-artifacts/fit-*.png``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from browser import (
    JS_IN_VIEW,
    JS_SCROLL_TOP,
    VIEWPORT,
    WAIT_MS,
    at_width,
    click_and_settle,
    click_and_wait_moves,
    confirm_if_asked,
    context,
    no_errors,
    open_new_game_panel,
    page,
    pytestmark,
    serial,
    status,
    total_moves,
    voila,
    window_shot,
)

from ttr_nb import ClaimRoute, Game, available_maps, new_game
from ttr_nb.bots import make_bot
from ttr_nb.rules.maerklin import MovePassenger
from ttr_nb.widgets.board import route_choices

__all__ = ["context", "page", "pytestmark", "voila"]  # fixtures used by name

LAPTOP = (1366, 768)
PHONE = (390, 844)

# Text of tables and table lines that reaches past the right edge of its panel (or of the
# window), and boxes that scroll sideways: what a reader cannot see without scrolling.
JS_CUT_OFF = """
(selector) => {
  const cut = [];
  for (const panel of document.querySelectorAll(selector)) {
    if (panel.offsetParent === null) continue;
    const edge = Math.min(panel.getBoundingClientRect().right,
                          document.documentElement.clientWidth);
    for (const el of panel.querySelectorAll('th, td, .ttr-more-item, .ttr-chip')) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > edge + 1)
        cut.push((el.innerText || '').trim().slice(0, 30) || el.className);
    }
    for (const el of [panel, ...panel.querySelectorAll('*')]) {
      if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible')
        cut.push('sideways scroll in ' + el.className);
    }
  }
  return cut;
}
"""

# Each answer of the app's question: its box, its radio's box, and whether a click at the
# radio's centre lands on that radio.
JS_ANSWERS = """
() => [...document.querySelectorAll('.ttr-prompt-choices .widget-radio-box label')].map(l => {
  const r = l.getBoundingClientRect();
  const input = l.querySelector('input');
  const i = input.getBoundingClientRect();
  const x = i.left + i.width / 2, y = i.top + i.height / 2;
  return {text: l.innerText.trim(), top: r.top, bottom: r.bottom, left: r.left, right: r.right,
          rtop: i.top, rbottom: i.bottom, rwidth: i.width, x: x, y: y,
          hit: document.elementFromPoint(x, y) === input};
})
"""


# Each entry of a list (a <select>): its text's width and the room the list gives it.
JS_SELECT_OPTIONS = """
(selector) => {
  const select = document.querySelector(selector);
  const style = getComputedStyle(select);
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const room = select.clientWidth - parseFloat(style.paddingLeft)
    - parseFloat(style.paddingRight);
  const right = select.getBoundingClientRect().right;
  return [...select.options].map(o => ({text: o.text, width: ctx.measureText(o.text).width,
                                        room: room, right: right}));
}
"""

# Is the element what a tap at its centre reaches (not something drawn over it, nor
# clipped away)? The page is scrolled beforehand; scrolling here would scroll a clipping
# box to the element and hide the fault.
JS_REACHED = """
(selector) => {
  const el = document.querySelector(selector);
  if (!el || el.offsetParent === null) return false;
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return hit !== null && (hit === el || el.contains(hit));
}
"""

# Boxes from the element up to its panel whose content is taller or wider than they show.
JS_CLIPPED_TEXT = """
(selector) => {
  const out = [];
  let el = document.querySelector(selector);
  while (el && !el.classList.contains('ttr-panel')) {
    if (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1)
      out.push(el.className.slice(0, 60));
    el = el.parentElement;
  }
  return out;
}
"""


# ---------------------------------------------------------------- positions
def greedy_until(game: Game, done: Any) -> Game:
    """Greedy bots play every seat until ``done(game)`` (or the game ends)."""
    bots = [make_bot("greedy", seat) for seat in range(len(game.names))]
    while not game.is_over and not done(game):
        game.apply(bots[game.current_player].choose(game))
    return game


@cache
def finished(map_name: str) -> str:
    """A whole game of greedy bots, saved."""
    game = greedy_until(new_game(map_name, players=3, seed=5), lambda _g: False)
    return game.to_json()


def placement_choice(game: Game) -> int | None:
    """A route the player to move may claim placing a passenger on either end, or none."""
    if game.current_player != 0 or game.state.pending or game.phase != "play":
        return None
    ways: dict[tuple[int, Any], int] = {}
    for action in game.legal_actions():
        if isinstance(action, ClaimRoute):
            key = (action.route, action.cards)
            ways[key] = ways.get(key, 0) + 1
    return next((route for (route, _), n in ways.items() if n == 3), None)


@cache
def maerklin_placement() -> tuple[str, int]:
    game = greedy_until(
        new_game("maerklin", players=2, seed=1), lambda g: placement_choice(g) is not None
    )
    return game.to_json(), placement_choice(game)


def load_position(page: Any, text: str) -> None:
    """Load a save through the app's *Load from text* (asking first over a game)."""
    files = page.locator(".ttr-extras").get_by_text("Save and load", exact=True)
    if not page.locator(".ttr-save-text textarea").is_visible():
        files.click()
    page.locator(".ttr-save-text textarea").fill(text)
    before = serial(page)
    page.locator("button.ttr-load-text").click()
    confirm_if_asked(page, before, "Load the text box")
    assert "Loaded" in status(page), status(page)
    files.click()  # fold it away again


# --------------------------------------------------------------------- tests
def log_lines(page: Any) -> list[str]:
    return page.locator(".ttr-log").inner_text().splitlines()


def test_a_long_answer_wraps_beside_its_own_radio_and_its_radio_picks_it(page: Any) -> None:
    """Märklin's passenger question at 1366×768: each answer on its own lines, its radio
    beside it, and a click on a radio picks that answer."""
    text, route = maerklin_placement()
    at_width(page, *LAPTOP)
    load_position(page, text)
    game = Game.from_json(text)
    label = next(text for text, rid in route_choices(game.map) if rid == route)
    page.locator(".ttr-route-picker select").select_option(label=label)
    page.wait_for_function(
        "() => document.querySelector('button.ttr-claim') && "
        "!document.querySelector('button.ttr-claim').disabled",
        timeout=WAIT_MS,
    )
    page.locator("button.ttr-claim").click()
    page.locator(".ttr-prompt-choices").wait_for(state="visible", timeout=WAIT_MS)
    page.locator(".ttr-prompt").scroll_into_view_if_needed()
    # The app also brings the question into view (widgets/scroll.py): measure after it.
    page.wait_for_function(JS_IN_VIEW, arg="button.ttr-prompt-ok", timeout=WAIT_MS)
    page.wait_for_timeout(200)
    answers = page.evaluate(JS_ANSWERS)
    window_shot(page, "fit-placement-question-1366.png")
    assert len(answers) == 3 and answers[2]["text"] == "No passenger"
    for before, after in zip(answers, answers[1:], strict=False):
        assert before["bottom"] <= after["top"] + 1, f"{before['text']!r} overlaps the next"
    for i, answer in enumerate(answers):
        assert answer["rwidth"] > 0, f"no radio for {answer['text']!r}"
        assert answer["top"] - 1 <= answer["rtop"] and answer["rbottom"] <= answer["bottom"] + 1
        assert answer["hit"], f"the radio of {answer['text']!r} is covered"
        page.mouse.click(answer["x"], answer["y"])
        checked = page.evaluate(
            "() => document.querySelector('.ttr-prompt-choices input:checked').value"
        )
        assert checked == str(i), f"the radio beside {answer['text']!r} picked answer {checked}"
        page.wait_for_timeout(200)  # as a person clicks: each choice reaches the kernel
    city = answers[1]["text"].split(" (")[0].removeprefix("Place a passenger on ")
    page.mouse.click(answers[1]["x"], answers[1]["y"])
    page.wait_for_timeout(300)
    click_and_wait_moves(page, "button.ttr-prompt-ok")
    # The log, not the status line: a quick bot may already have moved after the claim.
    mover = game.state.players[game.current_player].name
    lines = log_lines(page)
    claims = [line for line in lines if f"{mover} claims" in line]
    assert claims and f"placing a passenger in {city}" in claims[-1], lines[-6:]
    no_errors(page)


@pytest.mark.parametrize("map_name", ["germany", "maerklin", "world", "usa", "europe"])
def test_score_tables_fit_a_laptop_and_a_phone(page: Any, map_name: str) -> None:
    """The end screen (its total above all) and the players' table, every column and
    every line under a player, inside their panels with no hidden sideways scroll."""
    load_position(page, finished(map_name))
    for width, height in (LAPTOP, PHONE):
        at_width(page, width, height)
        for panel in (".ttr-result", ".ttr-scores"):
            page.locator(panel).scroll_into_view_if_needed()
            cut = page.evaluate(JS_CUT_OFF, panel)
            window_shot(page, f"fit-{map_name}-{panel[5:]}-{width}.png")
            assert not cut, f"{map_name} at {width} px: cut off in {panel}: {cut}"
        total = page.locator(".ttr-final-scores tr.ttr-total td").last.bounding_box()
        assert total and total["x"] + total["width"] <= width, "the total is out of view"
    page.set_viewport_size(VIEWPORT)


def test_every_map_name_fits_the_map_list(page: Any) -> None:
    """Each entry of the map list reads whole, on a laptop and on a phone (Märklin's was
    cut to "Märklin (stand-in board, city colo…")."""
    open_new_game_panel(page)
    for width, height in (LAPTOP, PHONE):
        at_width(page, width, height)
        entries = page.evaluate(JS_SELECT_OPTIONS, ".ttr-map select")
        window_shot(page, f"fit-map-list-{width}.png")
        assert len(entries) == len(available_maps())
        for entry in entries:
            assert entry["width"] <= entry["room"], f"cut at {width} px: {entry['text']!r}"
            assert entry["right"] <= width
    page.locator(".ttr-map select").select_option(label="Märklin (stand-ins)")  # in full
    page.wait_for_function(
        "() => document.querySelector('.ttr-map-note').innerText.includes('stand-in board')",
        timeout=WAIT_MS,
    )
    page.locator(".ttr-new-game").get_by_text("New game: map, players, seed").click()
    page.set_viewport_size(VIEWPORT)


def test_the_stepping_buttons_and_the_log_are_reachable_on_a_phone(page: Any) -> None:
    """At 390 px: every stepping button is the thing a tap at its centre reaches, the
    "N moves so far" line is whole, and *Save and load* stays below the turn log."""
    load_position(page, finished("usa"))
    at_width(page, *PHONE)
    page.locator(".ttr-stepping").scroll_into_view_if_needed()
    window_shot(page, "fit-stepping-390.png")
    for control in ("ttr-first", "ttr-back", "ttr-forward", "ttr-last", "ttr-replay"):
        assert page.evaluate(JS_REACHED, f"button.{control}"), f"{control} is covered"
    assert page.evaluate(JS_REACHED, ".ttr-replay-speed select"), "the speed list is covered"
    note = page.evaluate(JS_CLIPPED_TEXT, ".ttr-history-note")
    assert not note, f"the moves line is clipped: {note}"
    log = page.locator(".ttr-log").bounding_box()
    extras = page.locator(".ttr-extras").bounding_box()
    assert log["y"] + log["height"] <= extras["y"] + 1, "Save and load covers the turn log"
    # A tap on Back, then on Forward, steps (no tap lands on Replay instead).
    total = total_moves(page)
    click_and_settle(page, "button.ttr-back")
    click_and_settle(page, "button.ttr-forward")
    assert "Showing the latest move." in status(page) and total_moves(page) == total
    page.set_viewport_size(VIEWPORT)


@cache
def germany_midgame() -> str:
    """Germany after 60 moves of greedy bots, the human (seat 0) to move."""
    game = greedy_until(new_game("germany", players=3, seed=4), lambda g: len(g.history) >= 60)
    game = greedy_until(game, lambda g: g.current_player == 0 and not g.state.pending)
    return game.to_json()


@cache
def maerklin_journeys() -> str:
    """Märklin, the human to move with a passenger that can travel several ways."""

    def ready(game: Game) -> bool:
        if game.current_player != 0 or game.state.pending or len(game.history) < 40:
            return False
        return sum(isinstance(a, MovePassenger) for a in game.legal_actions()) >= 3

    return greedy_until(new_game("maerklin", players=2, seed=4), ready).to_json()


def test_a_tall_board_fills_a_laptops_height_beside_the_game(page: Any) -> None:
    """Germany at 1366×768: the whole board in the window, as tall as the window allows
    (it was a 375 px column reaching below the fold), the turn log filling the room
    beside it, the cards beside it too."""
    at_width(page, *LAPTOP)
    load_position(page, germany_midgame())
    page.evaluate(JS_SCROLL_TOP)
    window_shot(page, "fit-germany-1366.png")
    board = page.locator(".ttr-board-canvas canvas").bounding_box()
    assert board["y"] >= 0 and board["y"] + board["height"] <= LAPTOP[1], "board cut off"
    assert board["height"] >= 0.85 * LAPTOP[1], f"the board is {board['height']:.0f} px tall"
    log = page.locator(".ttr-log-box").bounding_box()
    assert log["x"] >= board["x"] + board["width"], "the log is not beside the board"
    assert log["y"] + log["height"] >= board["y"] + board["height"] - 120, "room left empty"
    assert page.evaluate(JS_IN_VIEW, ".ttr-cards"), "the cards are not beside the board"


def test_a_journey_and_its_panel_are_on_screen_together(page: Any) -> None:
    """Märklin at 1366×768: with *Move a passenger* in view, the whole board (with the
    journey drawn) is in view too; its lists show whole city names and the points."""
    at_width(page, *LAPTOP)
    load_position(page, maerklin_journeys())
    page.evaluate(JS_SCROLL_TOP)  # loading scrolled the page down to Save and load
    # As a learner scrolls the play column (its own scroller beside the board) down to it.
    page.evaluate(
        "() => document.querySelector('.ttr-journeys').scrollIntoView({block: 'nearest'})"
    )
    page.wait_for_timeout(300)
    window_shot(page, "fit-maerklin-journey-1366.png")
    assert page.evaluate(JS_IN_VIEW, ".ttr-journeys"), "the panel is not in the window"
    board = page.locator(".ttr-board-canvas canvas").bounding_box()
    assert board["y"] >= 0 and board["y"] + board["height"] <= LAPTOP[1], "board out of view"
    for entry in page.evaluate(JS_SELECT_OPTIONS, ".ttr-passenger-picker select"):
        assert entry["width"] <= entry["room"], f"city cut: {entry['text']!r}"
    shown = page.locator(".ttr-journey-picker select").input_value()
    first = page.locator(".ttr-journey-picker select option").first.inner_text()
    assert first.split(":")[0].endswith("points") and shown is not None  # points first
    chosen = page.locator(".ttr-journey-chosen").inner_text()
    assert chosen.startswith("Drawn on the board:") and first.replace("\xa0", " ") in (
        chosen.replace("\xa0", " ")
    )
    page.evaluate(JS_SCROLL_TOP)
    no_errors(page)


# Each checkbox of the New game panel: whether its words are cut (an ellipsis, or past the
# window's right edge).
JS_SETUP_CHECKBOXES = """
() => [...document.querySelectorAll('.ttr-setup .widget-checkbox')].map(box => {
  const all = [box, ...box.querySelectorAll('*')];
  const worded = all.filter(el => (el.innerText || '').replace(/\\u200b/g, '').trim());
  return {
    text: box.innerText.replace(/\\u200b/g, '').trim(),
    cut: all.some(el => el.scrollWidth > el.clientWidth + 1 ||
                        el.scrollHeight > el.clientHeight + 1),
    right: Math.max(...worded.map(el => el.getBoundingClientRect().right)),
  };
})
"""


def test_the_new_game_checkboxes_read_whole(page: Any) -> None:
    """ "Coach for every seat (untick for a graded game)" was cut to "...for a grade…" at
    1400 px; every checkbox of the New game panel reads whole at 1400, 1366 and 390 px."""
    open_new_game_panel(page)
    for width, height in ((1400, 900), LAPTOP, PHONE):
        at_width(page, width, height)
        page.locator(".ttr-coach-allowed").scroll_into_view_if_needed()
        boxes = page.evaluate(JS_SETUP_CHECKBOXES)
        window_shot(page, f"fit-setup-checkboxes-{width}.png")
        assert any("untick for a graded game" in b["text"] for b in boxes), boxes
        for box in boxes:
            assert not box["cut"], f"cut at {width} px: {box['text']!r}"
            assert box["right"] <= width, f"past the edge at {width} px: {box['text']!r}"
    page.locator(".ttr-new-game").get_by_text("New game: map, players, seed").click()
    page.set_viewport_size(VIEWPORT)
