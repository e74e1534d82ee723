"""Märklin in Chromium: the first tickets asked for in words, merchandise stacks on the
board, a claim clicked on the canvas that places a passenger (answering the app's
question), that passenger drawn in its owner's colour, a journey shown on the board before
it is made, then made (score and tokens change), and the end screen's merchandise and
most-tickets rows.

Screenshots go to ``test-artifacts/maerklin-*.png``.
"""

from __future__ import annotations

import json
from typing import Any

from browser import (
    ARTIFACTS,
    JS_CANVAS_PAINTED,
    VIEWPORT,
    WAIT_MS,
    bots_until_me,
    canvas_point,
    click_and_settle,
    click_and_wait_moves,
    colour_share,
    context,
    geometry_for,
    keep_tickets,
    no_errors,
    page,
    play_to_end,
    pytestmark,
    shoot,
    start_game,
    status,
    voila,
)

from ttr_nb import Game
from ttr_nb.rules.maerklin import MovePassenger
from ttr_nb.widgets.maerklin_board import JOURNEY_INK, TOKEN_PAINT, passenger_marks, token_marks
from ttr_nb.widgets.style import player_style

__all__ = ["context", "page", "pytestmark", "voila"]  # fixtures used by name

SEED = 2
TEAL = player_style(0).fill


def shown_game(page: Any) -> Game:
    """The game the page shows, read back through *Save game* (as a learner would keep it)."""
    if not page.locator("button.ttr-save").is_visible():
        page.locator(".ttr-extras").get_by_text("Save and load", exact=True).click()
    box = page.locator(".ttr-save-text textarea")
    box.fill("")
    page.locator("button.ttr-save").click()
    page.wait_for_function(
        "() => document.querySelector('.ttr-save-text textarea').value.length > 100",
        timeout=WAIT_MS,
    )
    return Game.from_json(box.input_value())


def answer(page: Any, label: str) -> None:
    """Pick an answer of the app's question by its words, then confirm it."""
    page.locator(".ttr-prompt-choices label").filter(has_text=label).click()
    click_and_wait_moves(page, "button.ttr-prompt-ok")


def close_up(page: Any, centre: tuple[float, float], name: str) -> None:
    """A screenshot of the board around one place, at the size the learner sees it."""
    x, y = canvas_point(page, *centre)
    page.screenshot(
        path=str(ARTIFACTS / name),
        clip={"x": max(0, x - 170), "y": max(0, y - 120), "width": 340, "height": 240},
    )


def test_a_game_of_maerklin_in_the_browser(page: Any) -> None:
    start_game(page, "maerklin", seed=SEED, players=2)
    page.locator(".ttr-prompt-question").wait_for(state="visible", timeout=WAIT_MS)
    question = page.locator(".ttr-prompt-question").inner_text()
    assert question.startswith("Your first tickets: you draw 4 tickets and keep at least 2.")
    answer(page, "3 short, 1 long")
    keep_tickets(page)
    bots_until_me(page)
    assert "stand-ins" in page.locator(".ttr-key").text_content()  # folded: the key
    geometry = geometry_for(page, "maerklin")

    # Every city's merchandise stack is drawn in its colour.
    game = shown_game(page)
    marks = token_marks(game, geometry)
    assert len(marks) == 35  # every city: 1 black, 6 red, 12 yellow, 16 white
    drawn = sum(
        colour_share(page, m.x - 5, m.y + 5, TOKEN_PAINT[m.colour][0], radius=1) > 0.5
        for m in marks
    )
    assert drawn >= 32, f"only {drawn} of {len(marks)} stacks are drawn"
    berlin = next(m for m in marks if m.city == "berlin")
    assert (berlin.colour, berlin.top, berlin.left) == ("black", 7, 4)
    close_up(page, geometry.positions["berlin"], "maerklin-stacks-berlin.png")
    hand = page.locator(".ttr-hand").inner_text()
    assert "Locomotive +4" in hand and "only on routes of 4 or more spaces" in hand

    # Draw until a route between two cities is affordable, a passenger may be placed on one
    # end and a click on its middle reaches it.
    def candidates(game: Game) -> list[tuple[int, str, str]]:
        rules = game.rules
        routes = json.loads(
            page.locator(".ttr-claimable [data-routes]").get_attribute("data-routes")
        )
        out = []
        for rid in routes:
            route = game.map.route_by_id[rid]
            x, y = geometry.routes[rid].anchor
            if (
                all(end in rules.stops for end in route.ends)
                and rules.placements(game.state, route)
                and geometry.hit(x, y) == ("route", rid)
                and canvas_point(page, x, y)[1] < VIEWPORT["height"] - 20
            ):
                start = rules.placements(game.state, route)[-1]
                out.append((rid, start, route.b if start == route.a else route.a))
        return out

    for _ in range(15):
        game = shown_game(page)
        found = candidates(game)
        if found:
            break
        click_and_wait_moves(page, "button.ttr-draw-blind")
        if page.locator("button.ttr-draw-blind").is_enabled() and "second card" in status(page):
            click_and_wait_moves(page, "button.ttr-draw-blind")
        bots_until_me(page)
    assert found, "the human never could afford a route"
    route_id, start, end = found[0]
    start_name, end_name = game.map.place_name(start), game.map.place_name(end)

    # Click the route on the canvas: the panel says a passenger may be placed; Claim asks.
    x, y = geometry.routes[route_id].anchor
    page.mouse.click(*canvas_point(page, x, y))
    page.wait_for_function(
        "(name) => document.querySelector('.ttr-selected').innerText.includes(name)",
        arg=start_name,
        timeout=WAIT_MS,
    )
    assert "place one of your passengers on" in page.locator(".ttr-claim-extra").inner_text()
    page.locator("button.ttr-claim").click()
    page.locator(".ttr-prompt-question").wait_for(state="visible", timeout=WAIT_MS)
    question = page.locator(".ttr-prompt-question").inner_text()
    assert question.startswith("Place a passenger on") and start_name in question
    choices = page.locator(".ttr-prompt-choices").inner_text()
    assert "No passenger" in choices
    shoot(page, "maerklin-placement-question.png")
    answer(page, f"Place a passenger on {start_name} (")
    assert f"placing a passenger in {start_name}" in status(page)

    after = shown_game(page)
    assert after.state.extras["passengers"][start] == 0
    disc = next(m for m in passenger_marks(after, geometry) if m.place == start)
    assert colour_share(page, disc.x, disc.y, TEAL, radius=6) > 0.4, "the passenger is not drawn"
    space = geometry.routes[route_id].spaces[0]
    assert colour_share(page, space.cx, space.cy, TEAL) > 0.3
    close_up(page, geometry.positions[start], "maerklin-passenger-placed.png")
    bots_until_me(page)

    # Clicking the disc picks that passenger (and says whose it is).
    page.mouse.click(*canvas_point(page, disc.x, disc.y))
    page.wait_for_function(
        "() => document.querySelector('.ttr-hover').innerText.includes('passenger stands here')",
        timeout=WAIT_MS,
    )
    assert page.locator(".ttr-passenger-picker select").input_value() != ""

    # Move the passenger: its journeys are listed in words, the chosen one drawn first.
    panel = page.locator(".ttr-journeys")
    panel.scroll_into_view_if_needed()
    assert start_name in page.locator(".ttr-passenger-picker select").inner_text()
    options = page.locator(".ttr-journey-picker select option").all_text_contents()
    wanted = next(
        (o for o in options if f": {start_name} → {end_name}" in o.replace("\xa0", " ")),
        None,
    )
    assert wanted, f"no journey to {end_name} among {options}"
    game = shown_game(page)
    journey = next(
        a
        for a in game.legal_actions()
        if isinstance(a, MovePassenger) and a.start == start and route_id in a.path
    )
    plan = game.rules.plan(game.state, 0, journey)
    label = wanted.replace("\xa0", " ")
    if label != options[0].replace("\xa0", " "):
        page.locator(".ttr-journey-picker select").select_option(label=wanted)
        page.wait_for_timeout(500)
    # The path is drawn in the journey's ink and the start ringed, before any move.
    a, b = geometry.positions[plan.cities[0]], geometry.positions[plan.cities[1]]
    inked = max(
        colour_share(page, a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), JOURNEY_INK)
        for t in (0.25, 0.35, 0.45, 0.55, 0.65, 0.75)
    )
    assert inked > 0.2, "the journey is not drawn on the board"
    close_up(page, geometry.positions[start], "maerklin-journey-preview.png")
    shoot(page, "maerklin-journey-preview-page.png")
    points_before = after.scores()[0]["merchandise"]
    click_and_wait_moves(page, "button.ttr-move-passenger")
    assert f"moves the passenger in {start_name}" in status(page)

    moved = shown_game(page)
    assert start not in moved.state.extras["passengers"]
    gained = sum(value for _, value in plan.tokens)
    assert gained > 0
    assert moved.scores()[0]["merchandise"] == points_before + gained
    assert [tuple(t) for t in moved.state.players[0].extras["merchandise"]] == list(plan.tokens)
    for city, value in plan.tokens:
        assert len(moved.state.extras["merchandise"][city]) < len(
            game.state.extras["merchandise"][city]
        ), f"{city}: the token {value} was not taken"
    assert colour_share(page, disc.x, disc.y, TEAL, radius=6) < 0.2, "the passenger is still drawn"
    table = page.locator(".ttr-scores").inner_text()
    assert f"merchandise: {game.map.place_name(plan.tokens[0][0])}" in table.replace("\n", " ")
    close_up(page, geometry.positions[start], "maerklin-journey-made.png")
    no_errors(page)

    # The end screen shows merchandise and the most-tickets bonus.
    play_to_end(page)
    result = page.locator(".ttr-result").inner_text()
    assert "wins" in result or "Shared victory" in result
    assert "Merchandise" in result and "Most completed tickets" in result
    assert "merchandise" in result and "most tickets bonus" in result
    assert page.evaluate(JS_CANVAS_PAINTED)
    shoot(page, "maerklin-game-over.png")
    no_errors(page)
