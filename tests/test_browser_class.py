"""The app as a class meets it, in Chromium: every width from a phone to a wide screen,
stepping through the past without losing anything, the end screen, errors beside the
control, and hostile saves refused in a sentence while the game goes on.

Screenshots go to ``test-artifacts/class-*.png``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from browser import (
    ARTIFACTS,
    JS_CANVAS_PAINTED,
    JS_IN_VIEW,
    JS_SCROLL_TOP,
    VIEWPORT,
    WAIT_MS,
    Voila,
    at_width,
    click_and_settle,
    click_and_wait_moves,
    context,
    keep_tickets,
    no_errors,
    page,
    play_to_end,
    pytestmark,
    serial,
    shoot,
    start_game,
    status,
    total_moves,
    voila,
    window_shot,
)

# Visible buttons whose label does not fit (shown cut, with an ellipsis).
JS_CUT_BUTTONS = """
() => [...document.querySelectorAll('.ttr-app button')]
  .filter(b => b.offsetParent !== null && b.scrollWidth > b.clientWidth + 1)
  .map(b => b.innerText)
"""


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (1366, 768), (800, 600), (390, 844)])
def test_the_layout_fits_every_width(page: Any, width: int, height: int) -> None:
    start_game(page, "usa", seed=21)
    at_width(page, width, height)
    assert page.evaluate(JS_CANVAS_PAINTED)
    board = page.locator(".ttr-board-canvas canvas").bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= width + 1, "the board is clipped"
    assert not page.evaluate(JS_CUT_BUTTONS), "a button label is cut"
    if width >= 1366:
        # The decision to make (keep tickets) is in the window beside the board.
        assert page.evaluate(JS_IN_VIEW, "button.ttr-keep")
        assert page.evaluate(JS_IN_VIEW, ".ttr-turn")
    else:
        # Under the board: reachable by scrolling the page, nothing cut off sideways.
        keep = page.locator("button.ttr-keep").bounding_box()
        assert keep["x"] >= 0 and keep["x"] + keep["width"] <= width + 1
        assert keep["y"] > board["y"] + board["height"] - 1
    window_shot(page, f"class-{width}x{height}.png")
    # Play a card at this width: hit-testing and buttons work when scaled.
    keep_tickets(page)
    page.set_viewport_size(VIEWPORT)


def test_playing_a_whole_turn_at_1366x768_needs_no_scrolling(page: Any) -> None:
    start_game(page, "usa", seed=22)
    at_width(page, 1366, 768)
    keep_tickets(page)
    page.locator(".ttr-auto input").uncheck() if page.locator(
        ".ttr-auto input"
    ).is_checked() else None
    if page.locator("button.ttr-bots-until-me").is_enabled():
        click_and_settle(page, "button.ttr-bots-until-me")
    page.evaluate(JS_SCROLL_TOP)  # Playwright scrolled to the buttons it clicked
    for control in ("button.ttr-draw-blind", "button.ttr-draw-tickets", ".ttr-cards"):
        assert page.evaluate(JS_IN_VIEW, control), f"{control} is below the window"
    click_and_wait_moves(page, "button.ttr-draw-blind")
    page.evaluate(JS_SCROLL_TOP)
    assert page.evaluate(JS_IN_VIEW, "button.ttr-draw-blind")
    window_shot(page, "class-1366-turn.png")
    page.set_viewport_size(VIEWPORT)


def test_the_past_is_looked_at_not_changed(page: Any, voila: Voila) -> None:
    start_game(page, "usa", seed=23)
    play_to_end(page)
    total = total_moves(page)
    assert total > 50
    click_and_settle(page, "button.ttr-first")
    click_and_settle(page, "button.ttr-forward")
    for control in ("button.ttr-bot-step", "button.ttr-play-to-end"):
        assert not page.locator(control).is_enabled(), f"{control} acts in the past"
    assert total_moves(page) == total  # looking dropped nothing
    cont = page.locator("button.ttr-continue")
    assert f"drop {total - 1} later moves" in cont.inner_text()
    shoot(page, "class-past.png")
    # The last round, seen one move before the end, is announced where the player looks.
    click_and_settle(page, "button.ttr-last")
    click_and_settle(page, "button.ttr-back")
    assert "Last round!" in page.locator(".ttr-turn").inner_text()
    # Continue from the second move, then undo: every move comes back.
    click_and_settle(page, "button.ttr-first")
    click_and_settle(page, "button.ttr-forward")
    click_and_settle(page, "button.ttr-continue")
    assert total_moves(page) == 1 and "set aside" in status(page)
    click_and_settle(page, "button.ttr-undo-branch")
    assert total_moves(page) == total
    no_errors(page)


def test_clicking_the_move_slider_track_jumps_there(page: Any) -> None:
    start_game(page, "usa", seed=24)
    play_to_end(page)
    total = total_moves(page)
    track = page.locator(".ttr-history .noUi-target, .ttr-history .slider-container").first
    track.scroll_into_view_if_needed()  # the history is under the play column: scroll to it
    box = track.bounding_box()
    before = serial(page)
    page.mouse.click(box["x"] + box["width"] * 0.25, box["y"] + box["height"] / 2)
    page.wait_for_function(
        "(n) => Number(document.querySelector('.ttr-status-box [data-serial]')"
        ".getAttribute('data-serial')) > n",
        arg=before,
        timeout=WAIT_MS,
    )
    shown = int(page.locator(".ttr-status-box [data-position]").get_attribute("data-position"))
    assert 0 < shown < total * 0.5, f"the track click showed move {shown} of {total}"


def test_the_end_screen_explains_the_score_beside_the_board(page: Any) -> None:
    start_game(page, "usa", seed=25)
    play_to_end(page)
    at_width(page, 1366, 768)
    assert page.evaluate(JS_IN_VIEW, ".ttr-winner"), "the winner is not in view"
    result = page.locator(".ttr-result").inner_text()
    assert "completed" in result and "missed" in result and "longest path" in result
    assert "everyone" in result or "No player could" in result  # how the game ended
    window_shot(page, "class-end-1366.png")
    page.set_viewport_size(VIEWPORT)


def test_each_action_sends_little_to_the_page(page: Any, voila: Voila) -> None:
    start_game(page, "usa", seed=26)
    received: list[int] = []

    def on_socket(socket: Any) -> None:
        socket.on("framereceived", lambda payload: received.append(len(payload)))

    page.on("websocket", on_socket)
    page.reload(wait_until="domcontentloaded")
    page.wait_for_function(JS_CANVAS_PAINTED, timeout=90_000, polling=100)
    # The reloaded page offers to resume the game the browser kept: decline.
    prompt = page.locator(".ttr-prompt")
    prompt.wait_for(state="visible", timeout=WAIT_MS)
    assert "Resume your last game" in prompt.inner_text()
    page.locator("button.ttr-prompt-cancel").click()
    prompt.wait_for(state="hidden", timeout=WAIT_MS)
    page.wait_for_timeout(1500)
    start_game(page, "usa", seed=26)
    keep_tickets(page)
    click_and_settle(page, "button.ttr-bots-until-me")
    received.clear()
    click_and_wait_moves(page, "button.ttr-draw-blind")
    sent = sum(received)
    voila.timings["bytes_to_page_per_card_draw"] = sent
    assert sent < 35_000, f"one card draw sent {sent} bytes to the page"


def test_hostile_saves_are_refused_in_a_sentence_and_the_game_survives(
    page: Any, tmp_path: Path
) -> None:
    start_game(page, "usa", seed=27)
    keep_tickets(page)
    moves = total_moves(page)
    page.locator(".ttr-extras").get_by_text("Save and load", exact=True).click()

    def upload(path: Path) -> None:
        with page.expect_file_chooser(timeout=WAIT_MS) as chooser:
            page.locator("button.ttr-load-file").click()
        chooser.value.set_files(str(path))

    note = page.locator(".ttr-files-note")
    good = {
        "format": "ttr-nb-save/2",
        "map": "usa",
        "players": ["Ann", "Bruno", "Chen"],
        "seed": 27,
        "history": [],
    }
    cases = {
        "path.json": dict(good, map="/etc/passwd"),
        "zero.json": dict(good, map="/dev/zero"),
        "name.json": dict(good, players=["A" * 100_000, "Bruno", "Chen"]),
        "actions.json": dict(good, history=[{"player": 0, "action": {"type": "Pass"}}] * 4000),
        "seed.json": dict(good, seed=27.0),  # JSON Schema counts 27.0 as an integer
    }
    for name, data in cases.items():
        path = tmp_path / name
        path.write_text(json.dumps(data), encoding="utf-8")
        before = serial(page)
        upload(path)
        page.wait_for_function(
            "(n) => Number(document.querySelector('.ttr-status-box [data-serial]')"
            ".getAttribute('data-serial')) > n",
            arg=before,
            timeout=WAIT_MS,
        )
        text = note.inner_text()
        assert text.startswith(f"Could not load {name}"), text
        assert len(text) < 300 and "Traceback" not in text and "root:" not in text
    assert "seed" in note.inner_text() and "whole number" in note.inner_text()
    shoot(page, "class-hostile-seed.png")
    huge = tmp_path / "huge.json"
    huge.write_text(" " * 5_000_000, encoding="utf-8")
    upload(huge)
    page.wait_for_function(
        "() => document.querySelector('.ttr-files-note').innerText.includes('MB')",
        timeout=WAIT_MS,
    )
    assert "a save is at most" in note.inner_text()
    assert total_moves(page) == moves, "a refused save changed the game"
    assert "Could not load" in status(page) or "MB" in note.inner_text()
    shoot(page, "class-hostile-saves.png")
    no_errors(page)
