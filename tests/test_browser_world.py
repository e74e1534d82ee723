"""Rails & Sails World in Chromium, played by clicking: the secret supply in a hot-seat game,
a face-up card whose refill deck is chosen, a route across the board's wrapping edge clicked
on both sides of the seam, and zoom and pan (wheel, buttons, keys) with clicks that still
select the right route.

Which seed lets the human claim a wrapping route soon is found first without a browser, by
the same clicks on a headless app (same seed, same bots, same moves); the browser then has to
show exactly that game. Screenshots go to ``test-artifacts/world-*.png``.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
from app_steps import keep_offered
from browser import (
    JS_CANVAS_SUM,
    WAIT_MS,
    Voila,
    board_view,
    bots_until_me,
    canvas_point,
    click_and_answer,
    click_and_settle,
    click_and_wait_moves,
    colour_share,
    context,
    geometry_for,
    keep_tickets,
    no_errors,
    page,
    pytestmark,
    shoot,
    start_game,
    status,
    summarise,
    timed_click,
    voila,
)

from ttr_nb import DrawFaceUp, load_map
from ttr_nb.widgets import GameApp
from ttr_nb.widgets.board import route_choices
from ttr_nb.widgets.style import player_style
from ttr_nb.widgets.world_board import TOUR_INK, TOUR_STOP_RADIUS

__all__ = ["context", "page", "pytestmark", "voila"]  # fixtures used by name

MAX_DRAW_TURNS = 12

# The text of the app, less the list of every possible supply (which names them all).
JS_TEXT_BUT_SUPPLY_LIST = """
() => {
  const app = document.querySelector('.ttr-app').cloneNode(true);
  for (const el of app.querySelectorAll('.ttr-supply-picker select')) el.remove();
  for (const el of app.querySelectorAll('style')) el.remove();
  return app.innerText;
}
"""


# ---------------------------------------------------------------- the plan
def _first_train_slot(app: GameApp) -> int:
    view = app.view
    return next(
        a.slot
        for a in app.shown.legal
        if isinstance(a, DrawFaceUp)
        and a.refill == "ship"
        and view.map.card_by_id[view.state.face_up[a.slot]].deck == "train"
        and not view.map.card_by_id[view.state.face_up[a.slot]].wild
    )


def _claimable(app: GameApp) -> list[int]:
    return sorted({a.route for a in app.shown.legal if type(a).__name__ == "ClaimRoute"})


@cache
def wrap_plan() -> tuple[int, int, int, int]:
    """(seed, face-up slot taken first, turns of train draws, wrapping route) for the first
    seed whose human, playing as the browser test clicks, can claim a wrapping route."""
    wraps = {r.id for r in load_map("world").routes if r.wraps}
    for seed in range(1, 40):
        app = GameApp(map_name="world", players=3, seed=seed, auto_bots=False)
        keep_offered(app)
        app.bot_step()
        app.bots_until_human()
        app.ui.supply.button.click()
        app.bots_until_human()
        slot = _first_train_slot(app)
        app.cards.face_up[slot].click()
        app.prompt.choose(1)  # refill from the ship deck
        app.cards.deck_buttons["train"].click()
        app.bots_until_human()
        for turns in range(MAX_DRAW_TURNS):
            open_wraps = [r for r in _claimable(app) if r in wraps]
            if open_wraps:
                return seed, slot, turns, open_wraps[0]
            if app.view.is_over:
                break
            app.cards.deck_buttons["train"].click()
            if app.view.state.pending == "second_card":
                app.cards.deck_buttons["train"].click()
            app.bots_until_human()
    raise AssertionError("no seed in 1..39 lets the human claim a wrapping route soon")


def claimable_in_page(page: Any) -> list[int]:
    return json.loads(page.locator(".ttr-claimable [data-routes]").get_attribute("data-routes"))


def route_label(game_map: Any, route_id: int) -> str:
    """How the Route list names a route."""
    return next(label for label, rid in route_choices(game_map) if rid == route_id)


def picked_route(page: Any) -> str:
    """The label of the route the Route list shows as selected (``A–B (3 red)``)."""
    return page.evaluate(
        "() => { const s = document.querySelector('.ttr-route-picker select');"
        " return s.options[s.selectedIndex].text; }"
    )


def click_board(page: Any, x: float, y: float, expect: str) -> None:
    """Click board point (x, y) and wait for the selection to name ``expect``."""
    page.mouse.click(*canvas_point(page, x, y))
    page.wait_for_function(
        "(t) => document.querySelector('.ttr-selected').innerText.includes(t)",
        arg=expect,
        timeout=WAIT_MS,
    )


def clear_selection(page: Any) -> None:
    page.locator("button.ttr-clear-selection").click()
    page.wait_for_function(
        "() => document.querySelector('.ttr-selected').innerText.includes('Claim a route')",
        timeout=WAIT_MS,
    )


def wait_zoom(page: Any, before: float) -> float:
    page.wait_for_function(
        "(z) => Number(document.querySelector('.ttr-zoom-level [data-zoom]')"
        ".getAttribute('data-zoom')) !== z",
        arg=before,
        timeout=WAIT_MS,
    )
    return board_view(page)[0]


# ------------------------------------------------------------------- tests
def test_hot_seat_supply_choices_stay_secret(page: Any) -> None:
    start_game(page, "world", seed=3, kinds=["human", "human", "greedy"])
    keep_tickets(page)  # Ann's tickets
    keep_tickets(page)  # Player 2's tickets, on the same screen
    click_and_wait_moves(page, "button.ttr-bot-step")
    supply = page.locator(".ttr-supply-choice")
    supply.wait_for(state="visible", timeout=WAIT_MS)
    assert "Ann: choose your 60 pieces" in supply.inner_text()
    page.locator(".ttr-supply-picker select").select_option(label="13 trains and 47 ships")
    click_and_wait_moves(page, "button.ttr-choose-supply")
    assert "Ann chooses a secret supply of pieces" in status(page)
    assert "Player 2: choose your 60 pieces" in supply.inner_text()
    shown = page.evaluate(JS_TEXT_BUT_SUPPLY_LIST)
    assert "13 trains" not in shown and "47 ships" not in shown
    assert "Ann: chosen" in shown and "Player 2: choosing now" in shown
    chosen = page.locator(".ttr-supply-picker select").evaluate(
        "s => s.options[s.selectedIndex].text"
    )
    assert chosen.replace("\xa0", " ") == "20 trains and 40 ships"  # not Ann's 13
    shoot(page, "world-hot-seat-supply.png")
    page.locator(".ttr-supply-picker select").select_option(label="24 trains and 36 ships")
    click_and_wait_moves(page, "button.ttr-choose-supply")
    click_and_wait_moves(page, "button.ttr-bot-step")  # the bot chooses: all revealed
    assert not supply.is_visible()
    players = page.locator(".ttr-scores").inner_text()
    assert "13 trains\n47 ships" in players and "24 trains\n36 ships" in players
    no_errors(page)


def test_world_game_refill_choice_and_a_claim_across_the_seam(page: Any) -> None:
    seed, slot, draw_turns, route_id = wrap_plan()
    start_game(page, "world", seed=seed, kinds=["human", "greedy", "greedy"])
    game_map = load_map("world")
    route = game_map.route_by_id[route_id]
    geometry = geometry_for(page, "world")
    teal = player_style(0).fill

    keep_tickets(page)
    click_and_wait_moves(page, "button.ttr-bot-step")
    bots_until_me(page)
    # The supply: the neutral proposal, kept.
    click_and_wait_moves(page, "button.ttr-choose-supply")
    bots_until_me(page)

    # Two rows, Train and Ship; a Train card taken, its place refilled from the ship deck.
    rows = page.locator(".ttr-face-up-row")
    assert rows.count() == 2
    assert page.locator(".ttr-card-row-0 button.ttr-draw-blind-train").count() == 1
    assert page.locator(".ttr-card-row-1 button.ttr-draw-blind-ship").count() == 1
    assert page.locator(f".ttr-card-row-0 button.ttr-face-up-{slot}").count() == 1
    page.locator(f"button.ttr-face-up-{slot}").click()
    prompt = page.locator(".ttr-prompt")
    prompt.wait_for(state="visible", timeout=WAIT_MS)
    question = prompt.inner_text()
    assert "Which deck refills its place in the row?" in question
    assert "Refill its place from the ship deck" in question
    shoot(page, "world-refill-question.png")
    page.locator(".ttr-prompt-choices input").nth(1).check()
    click_and_settle(page, "button.ttr-prompt-ok")
    assert "refilling from the ship deck" in status(page)
    assert page.locator(f".ttr-card-row-1 button.ttr-face-up-{slot}").count() == 1
    click_and_wait_moves(page, "button.ttr-draw-blind-train")
    bots_until_me(page)

    for _ in range(draw_turns):
        click_and_answer(page, "button.ttr-draw-blind-train")
        if "second card" in status(page):
            click_and_wait_moves(page, "button.ttr-draw-blind-train")
        bots_until_me(page)
    assert route_id in claimable_in_page(page), "the browser game is not the planned one"

    # The route leaves one edge and comes back at the other: click a space on each side.
    seam_west, seam_east = geometry.seam
    spaces = geometry.routes[route_id].spaces
    west = min(spaces, key=lambda s: s.cx)
    east = max(spaces, key=lambda s: s.cx)
    assert west.cx < seam_west + 80 and east.cx > seam_east - 80
    name = game_map.place_name(route.a)
    for space in (west, east):
        assert geometry.hit(space.cx, space.cy) == ("route", route_id)
        clear_selection(page)
        click_board(page, space.cx, space.cy, name)
        assert picked_route(page).replace("\xa0", " ") == route_label(game_map, route_id)
    assert "crosses the edge of the board" in page.locator(".ttr-selected").inner_text()
    page.locator("button.ttr-claim:enabled").wait_for(timeout=WAIT_MS)  # may come just after
    for space in (west, east):
        assert colour_share(page, space.cx, space.cy, teal) < 0.2
    click_and_wait_moves(page, "button.ttr-claim")
    assert "claims" in status(page)
    for space in (west, east):  # both halves in the player's colour
        assert colour_share(page, space.cx, space.cy, teal) > 0.3
    shoot(page, "world-wrap-claimed.png")
    no_errors(page)


def test_a_tour_is_drawn_on_the_board_as_a_numbered_chain(page: Any) -> None:
    start_game(page, "world", seed=7, kinds=["human", "greedy", "greedy"])
    offered = page.locator(".ttr-offer").inner_text()
    assert "Tour 1. Tehran → 2. Lahore → 3. Mumbai → 4. Bangkok" in offered
    geometry = geometry_for(page, "world")
    stops = [geometry.positions[c] for c in ("tehran", "lahore", "mumbai", "bangkok")]
    # The numbered discs sit just above their cities.
    assert all(colour_share(page, x, y - 2 * TOUR_STOP_RADIUS, TOUR_INK) < 0.3 for x, y in stops)
    before = page.evaluate(JS_CANVAS_SUM)
    page.locator(".ttr-tour-picker select").select_option(
        label="Tehran → Lahore → Mumbai → Bangkok"
    )
    page.wait_for_function(f"() => ({JS_CANVAS_SUM})() !== {before}", timeout=WAIT_MS)
    shoot(page, "world-tour-on-board.png")
    for x, y in stops:  # left of the disc's white number
        assert colour_share(page, x - 5, y - 2 * TOUR_STOP_RADIUS, TOUR_INK, radius=1) > 0.6


def test_zoom_and_pan_keep_clicks_on_the_right_route(page: Any, voila: Voila) -> None:
    """On the crowded World board: zoom with the wheel and a button, pan with a button,
    reset with a key; each time a click selects the route drawn under the pointer."""
    start_game(page, "world", seed=2, kinds=["human", "greedy", "greedy"])
    geometry = geometry_for(page, "world")
    game_map = load_map("world")
    width, height = geometry.width, geometry.height
    page.locator("button.ttr-zoom-reset").click()
    page.wait_for_function(
        "() => document.querySelector('.ttr-zoom-level [data-zoom]').dataset.zoom === '1'",
        timeout=WAIT_MS,
    )
    clear_selection(page)
    assert board_view(page)[0] == 1.0
    shoot(page, "world-zoom-1.png")

    # Europe, where routes crowd: the wheel zooms in about the pointer.
    centre = geometry.positions["hamburg"]
    page.mouse.move(*canvas_point(page, *centre))
    zoom = 1.0
    for _ in range(3):
        page.mouse.wheel(0, -120)
        zoom = wait_zoom(page, zoom)
    assert zoom == pytest.approx(1.25**3)
    after = canvas_point(page, *centre)
    before_box = page.locator(".ttr-board-canvas canvas").bounding_box()
    assert before_box["x"] <= after[0] <= before_box["x"] + before_box["width"]
    page.locator("button.ttr-zoom-in").click()
    zoom = wait_zoom(page, zoom)
    assert zoom == pytest.approx(1.25**4)
    shoot(page, "world-zoom-2.png")

    def visible_routes() -> list[int]:
        z, vx, vy = board_view(page)
        out = []
        for rid, shape in geometry.routes.items():
            x, y = shape.anchor
            cx, cy = (x - vx) * z, (y - vy) * z
            if (
                20 < cx < width - 20
                and 20 < cy < height - 20
                and geometry.hit(x, y)
                == (
                    "route",
                    rid,
                )
            ):
                out.append(rid)
        return out

    def click_and_check(rid: int) -> None:
        route = game_map.route_by_id[rid]
        clear_selection(page)
        click_board(page, *geometry.routes[rid].anchor, game_map.place_name(route.a))
        picked = picked_route(page).replace("\xa0", " ")
        assert picked == route_label(game_map, rid), (rid, picked)

    shown = visible_routes()
    assert len(shown) >= 5
    for rid in shown[:: max(1, len(shown) // 4)][:4]:
        click_and_check(rid)

    # Pan right with the button, then click again.
    x_before = board_view(page)[1]
    page.locator("button.ttr-pan-right").click()
    page.wait_for_function(
        "(x) => Number(document.querySelector('.ttr-zoom-level [data-zoom]')"
        ".getAttribute('data-x')) > x",
        arg=x_before,
        timeout=WAIT_MS,
    )
    shown = visible_routes()
    click_and_check(shown[len(shown) // 2])

    # Drag the board to the right: the view moves left, and the drag selects nothing.
    clear_selection(page)
    _, x_before, _ = board_view(page)
    _, view_x, view_y = board_view(page)
    start = canvas_point(page, view_x + 100, view_y + 60)  # inside the shown part
    page.mouse.move(*start)
    page.mouse.down()
    for step in range(1, 6):
        page.mouse.move(start[0] + 30 * step, start[1], steps=2)
    page.mouse.up()
    page.wait_for_function(
        "(x) => Number(document.querySelector('.ttr-zoom-level [data-zoom]')"
        ".getAttribute('data-x')) < x",
        arg=x_before,
        timeout=WAIT_MS,
    )
    page.wait_for_timeout(300)
    assert "Claim a route" in page.locator(".ttr-selected").inner_text()
    shown = visible_routes()
    click_and_check(shown[len(shown) // 2])

    # More zoom with the keyboard on the focused board, then 0 for the whole board.
    page.locator(".ttr-board-canvas canvas").focus()
    for _ in range(3):
        page.keyboard.press("+")
        zoom = wait_zoom(page, zoom)
    assert zoom == pytest.approx(1.25**7)
    shoot(page, "world-zoom-3.png")
    # A zoom step redraws every layer (the view changed): timed in the page, never asserted.
    steps = []
    for cls in ("ttr-zoom-out", "ttr-zoom-in") * 3:
        steps.append(timed_click(page, lambda c=cls: page.locator(f"button.{c}").click()))
    voila.timings["zoom_step_to_redrawn_ms"] = summarise(steps)
    zoom = board_view(page)[0]
    click_and_check(visible_routes()[0])
    page.locator(".ttr-board-canvas canvas").focus()  # the click focused Clear selection
    page.keyboard.press("0")
    assert wait_zoom(page, zoom) == 1.0
    click_and_check(visible_routes()[len(visible_routes()) // 3])
    no_errors(page)


def test_wheel_over_the_board_does_not_scroll_the_page(page: Any) -> None:
    scrolled = (
        "() => Math.max(...[...document.querySelectorAll('body, body *')]"
        ".map(el => el.scrollTop || 0), window.scrollY)"
    )
    page.evaluate(
        "() => { for (const el of document.querySelectorAll('body, body *')) "
        "if (el.scrollTop) el.scrollTop = 0; window.scrollTo(0, 0); }"
    )
    geometry = geometry_for(page, "world")
    page.mouse.move(*canvas_point(page, geometry.width / 2, geometry.height / 2))
    zoom = board_view(page)[0]
    page.mouse.wheel(0, -120)
    assert wait_zoom(page, zoom) > zoom  # the wheel zoomed the board ...
    page.wait_for_timeout(300)
    assert page.evaluate(scrolled) == 0  # ... and did not scroll the page
    page.mouse.move(5, 5)  # outside the board the wheel scrolls the page as usual
    page.mouse.wheel(0, 300)
    page.wait_for_function(f"() => ({scrolled})() > 0", timeout=WAIT_MS)
