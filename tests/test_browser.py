"""The Voilà app in a real browser: Debian's Chromium driven by Playwright.

One Voilà server and one page serve the whole module (each page load starts a
kernel). Checks: the board is painted (pixels, not just a <canvas>) on every
map, a human plays by clicking (tickets, a face-up card, a route clicked on
the canvas and paid for), the claim shows in the player's colour, bots move,
back/forward change the board, and no traceback reaches the page.
"""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from typing import Any

import pytest
from browser import (
    JS_CANVAS_PAINTED,
    JS_CANVAS_SUM,
    JS_IN_VIEW,
    JS_PIXELS,
    VIEWPORT,
    WAIT_MS,
    Voila,
    bots_until_me,
    canvas_point,
    click_and_answer,
    click_and_settle,
    click_and_wait_moves,
    colour_share,
    confirm_if_asked,
    context,
    geometry_for,
    keep_tickets,
    no_errors,
    page,
    play_to_end,
    pytestmark,
    serial,
    shoot,
    start_game,
    status,
    summarise,
    timed_click,
    total_moves,
    voila,
    wait_canvas_change,
)
from load_tools import load_tool

from ttr_nb import available_maps, load_map
from ttr_nb.rules import playable_maps
from ttr_nb.widgets.style import hex_to_rgb, player_style


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


@pytest.mark.parametrize("map_name", playable_maps())
def test_human_plays_by_clicking(page: Any, voila: Voila, map_name: str) -> None:
    start_game(page, map_name, seed=7)
    game_map = load_map(map_name)
    geometry = geometry_for(page, map_name)
    teal = player_style(0).fill

    # Keep the starting tickets, then watch one bot move and let the others play. Where the
    # tickets come from a short and a long deck (Germany, Märklin), the first tickets are not
    # dealt: the app asks at once how many to draw from the long deck. Take the first mix.
    if game_map.rules in ("germany", "maerklin"):
        question = page.locator(".ttr-prompt-question").inner_text()
        assert "How many should come from the long deck?" in question
        click_and_wait_moves(page, "button.ttr-prompt-ok")
        assert "draws 4 tickets (4 short, 0 long)" in status(page)
    keep_tickets(page)
    click_and_wait_moves(page, "button.ttr-bot-step")
    assert "Bot:" in status(page)
    bots_until_me(page)
    # A variant's own setup step (World: each player's secret supply of pieces).
    if page.locator(".ttr-supply-choice").is_visible():
        click_and_wait_moves(page, "button.ttr-choose-supply")
        bots_until_me(page)

    # A face-up card (not a locomotive, so a second card follows), then a blind one. Where
    # the app asks a further choice (World: the deck that refills the row), take the first.
    hand_title = page.locator(".ttr-hand h3").inner_text()
    face_up = page.locator("button.ttr-face-up:enabled")
    slot = next(
        i for i in range(face_up.count()) if not face_up.nth(i).inner_text().startswith("L")
    )
    click_and_answer(page, f"button.ttr-face-up-{_slot_class(face_up.nth(slot))}")
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

    # A route that a click on its middle reaches: not within a city's click radius (short
    # routes between close cities are frequent in Germany) and inside the viewport (a tall
    # board, such as Germany's, reaches below it).
    def clickable(r: int) -> bool:
        x, y = geometry.routes[r].anchor
        return (
            geometry.hit(x, y) == ("route", r)
            and canvas_point(page, x, y)[1] < VIEWPORT["height"] - 20
        )

    route_id = next((r for r in routes if clickable(r)), routes[0])
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

    # Where the claim asks a further choice (Märklin: place a passenger?), take the first.
    claim = timed_click(page, lambda: click_and_answer(page, "button.ttr-claim"))
    voila.timings["click_claim_to_redraw_ms"] = summarise([claim])
    assert "claims" in status(page)
    assert colour_share(page, x, y, teal) > 0.3, "the claimed route is not in the player's colour"
    shoot(page, f"{map_name}-claimed.png")

    # A bot moves; then step back before the claim and forward again.
    click_and_wait_moves(page, "button.ttr-bot-step")
    assert "Bot:" in status(page)
    for _ in range(2):
        click_and_settle(page, "button.ttr-back")
    assert "You are looking at move" in page.locator(".ttr-history-note").inner_text()
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
    play_to_end(page)
    result = page.locator(".ttr-result").inner_text()
    assert "wins" in result or "Shared victory" in result
    assert "Tickets" in result and "total" in result
    # The longest trails are shown (and outlined) only on a map that scores them.
    bonuses = [b["id"] for b in game_map.components.get("bonuses", [])]
    assert ("longest path (spaces)" in result) == ("longest_path" in bonuses)
    shoot(page, f"{map_name}-game-over.png")
    no_errors(page)


def _slot_class(button: Any) -> str:
    classes = button.get_attribute("class").split()
    return next(c.rsplit("-", 1)[1] for c in classes if c.startswith("ttr-face-up-"))


def test_save_download_and_load(page: Any) -> None:
    start_game(page, "usa", seed=11)  # the first map alphabetically is Germany
    keep_tickets(page)
    page.locator(".ttr-extras").get_by_text("Save and load", exact=True).click()
    page.locator("button.ttr-prepare-download").click()
    page.locator(".ttr-download").wait_for(state="visible", timeout=WAIT_MS)
    with page.expect_download(timeout=WAIT_MS) as download:
        page.locator(".ttr-download").click()
    saved = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert saved["seed"] == 11 and len(saved["history"]) == total_moves(page)

    text_box = page.locator(".ttr-save-text textarea")
    text_box.fill("{ this is not a save")
    click_and_settle(page, "button.ttr-load-text")
    assert "Could not load the text box" in status(page)
    page.locator("button.ttr-save").click()
    page.wait_for_function(
        "() => document.querySelector('.ttr-save-text textarea').value.length > 100",
        timeout=WAIT_MS,
    )
    assert json.loads(text_box.input_value())["seed"] == 11
    before = serial(page)
    page.locator("button.ttr-load-text").click()
    # The question opens at the top of the play column, far above the button (the page is
    # scrolled down to it): the page brings it into view.
    assert not page.evaluate(JS_IN_VIEW, ".ttr-title-box")
    page.wait_for_function(JS_IN_VIEW, arg="button.ttr-prompt-ok", timeout=WAIT_MS)
    shoot(page, "load-asks-in-view.png")
    confirm_if_asked(page, before, "Load the text box")  # closed only on a yes
    assert "Loaded" in status(page)
    shoot(page, "save-and-load.png")
    no_errors(page)


def test_bots_move_on_their_own(page: Any) -> None:
    start_game(page, "usa", seed=5)
    page.locator(".ttr-auto input").check()
    keep_tickets(page)
    # The browser-side timer asks for one bot move at a time until Ann is to move.
    page.wait_for_function(
        "() => document.querySelector('.ttr-status-box').innerText.includes('Ann: draw cards')",
        timeout=WAIT_MS,
    )
    assert total_moves(page) >= 3  # Ann's keep and at least the two bots' keeps
    assert "Bot:" in page.locator(".ttr-log").inner_text() or total_moves(page) >= 3
    no_errors(page)


def test_search_bot_says_it_is_thinking(page: Any) -> None:
    """The search bot thinks for up to a second: the page says so while the kernel works."""
    start_game(page, "usa", seed=9, players=2, kinds=["human", "search"])
    keep_tickets(page)
    before = total_moves(page)
    page.locator("button.ttr-bot-step").click()
    page.wait_for_function(
        "() => document.querySelector('.ttr-status-box').innerText.includes('is thinking')",
        timeout=WAIT_MS,
    )
    assert "up to 1 s" in status(page)
    page.wait_for_function(
        "(n) => Number(document.querySelector('.ttr-status-box [data-total]')"
        ".getAttribute('data-total')) > n",
        arg=before,
        timeout=WAIT_MS,
    )
    assert "is thinking" not in status(page)
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
    """SIGKILL the kernel that our own Voilà started for ``kernel_id`` (forked from the
    kernel template or started on its own: known by its connection file's ports)."""
    killed = 0
    for pid, known in load_tool("bench_load").kernel_ids(voila_pid).items():
        if kernel_id is not None and known == kernel_id:
            os.kill(pid, signal.SIGKILL)
            killed += 1
    return killed
