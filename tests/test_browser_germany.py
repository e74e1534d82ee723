"""Germany in Chromium: the first tickets asked for in words, a claim that takes the
passenger the player chose (answering the app's question), the board redrawn without it,
the players' table and the end screen's majorities; a look at a laptop and a phone width.

Screenshots go to ``test-artifacts/germany-*.png``.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from typing import Any

from browser import (
    ARTIFACTS,
    JS_CANVAS_PAINTED,
    JS_IN_VIEW,
    JS_PIXELS,
    VIEWPORT,
    WAIT_MS,
    at_width,
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
    window_shot,
)

from ttr_nb import Game, load_map
from ttr_nb.widgets.germany_board import PASSENGER_RADIUS, passenger_marks
from ttr_nb.widgets.style import hex_to_rgb, player_style, swatch

SEED = 1
COLOURS = load_map("germany").components["passenger_colors"]


def shown_game(page: Any) -> Game:
    """The game the page shows, read back through *Save game* (as a learner would keep it)."""
    extras = page.locator(".ttr-extras")
    if not page.locator("button.ttr-save").is_visible():
        extras.get_by_text("Save and load", exact=True).click()
    box = page.locator(".ttr-save-text textarea")
    box.fill("")
    page.locator("button.ttr-save").click()
    page.wait_for_function(
        "() => document.querySelector('.ttr-save-text textarea').value.length > 100",
        timeout=WAIT_MS,
    )
    return Game.from_json(box.input_value())


def disc_colour(page: Any, x: float, y: float) -> str:
    """The passenger colour drawn at (x, y): the colour most of the disc's pixels are
    nearest to, sampled on the ring between its letter and its rim."""
    size = int(PASSENGER_RADIUS)
    pixels = page.evaluate(JS_PIXELS, [round(x), round(y), size])
    side = 2 * size + 1
    ring = [
        pixels[row * side + col]
        for row in range(side)
        for col in range(side)
        if 3 <= math.hypot(row - size, col - size) <= PASSENGER_RADIUS - 1
    ]
    fills = {c: hex_to_rgb(swatch(c).fill) for c in COLOURS}
    votes = Counter(
        min(fills, key=lambda c: sum(abs(p[i] - fills[c][i]) for i in range(3))) for p in ring
    )
    return votes.most_common(1)[0][0]


def answer(page: Any, label: str) -> None:
    """Pick an answer of the app's question by its words, then confirm it."""
    page.locator(".ttr-prompt-choices label").filter(has_text=label).click()
    click_and_wait_moves(page, "button.ttr-prompt-ok")


def first_turn(page: Any) -> None:
    """A new 2-player Germany game (Ann, human; Bruno, greedy bot) at Ann's first turn."""
    start_game(page, "germany", seed=SEED, players=2)
    page.locator(".ttr-prompt-question").wait_for(state="visible", timeout=WAIT_MS)
    answer(page, "3 short, 1 long")
    keep_tickets(page)
    bots_until_me(page)


def germany_shown(page: Any) -> None:
    """Go on with the Germany game shown (an earlier test's), or start one."""
    if "are passengers waiting there" not in page.locator(".ttr-key").text_content():
        first_turn(page)


def test_first_tickets_are_asked_for_in_words(page: Any) -> None:
    start_game(page, "germany", seed=SEED, players=2)
    page.locator(".ttr-prompt").wait_for(state="visible", timeout=WAIT_MS)
    question = page.locator(".ttr-prompt-question").inner_text()
    assert question.startswith("Your first tickets: you draw 4 tickets and keep at least 2.")
    assert "How many should come from the long deck?" in question
    assert page.evaluate(JS_IN_VIEW, ".ttr-prompt-question")  # beside the board, not below
    shoot(page, "germany-first-tickets.png")
    answer(page, "3 short, 1 long")
    assert "Ann draws 4 tickets (3 short, 1 long)" in status(page)
    keep_tickets(page)
    bots_until_me(page)
    assert "Ann: draw cards, claim a route or draw tickets" in status(page)


def test_a_claim_takes_the_passenger_the_player_chose(page: Any) -> None:
    first_turn(page)
    before = shown_game(page)
    rules = before.rules
    geometry = geometry_for(page, "germany")
    routes = json.loads(page.locator(".ttr-claimable [data-routes]").get_attribute("data-routes"))

    def choice_end(route_id: int) -> str | None:
        return next(
            (
                p
                for p in rules.route_places[route_id]
                if len(rules.passengers_at(before.state, p)) > 1
            ),
            None,
        )

    def clickable(route_id: int) -> bool:
        x, y = geometry.routes[route_id].anchor
        return (
            geometry.hit(x, y) == ("route", route_id)
            and canvas_point(page, x, y)[1] < VIEWPORT["height"] - 20
        )

    route_id = next(r for r in routes if choice_end(r) and clickable(r))
    place = choice_end(route_id)
    name = before.map.place_name(place)
    waiting = rules.passengers_at(before.state, place)
    colour = list(waiting)[-1]  # not the first answer offered: a real choice

    # The board shows every passenger waiting there, in its colour.
    marks = [m for m in passenger_marks(before, geometry) if m.place == place]
    assert len(marks) == sum(waiting.values())
    _board_close_up(page, geometry.positions[place], "germany-pickup-before-close-up.png")
    assert all(disc_colour(page, m.x, m.y) == m.colour for m in marks), "a passenger is not drawn"

    x, y = geometry.routes[route_id].anchor
    page.mouse.click(*canvas_point(page, x, y))
    page.wait_for_function(
        "(name) => document.querySelector('.ttr-selected').innerText.includes(name)",
        arg=name,
        timeout=WAIT_MS,
    )
    note = page.locator(".ttr-claim-extra").inner_text()
    assert f"one at {name} (you choose:" in note or f"passenger at {name} (you choose:" in note
    page.locator("button.ttr-claim").click()  # asks first: no move yet
    page.locator(".ttr-prompt-question").wait_for(state="visible", timeout=WAIT_MS)
    question = page.locator(".ttr-prompt-question").inner_text()
    assert question.startswith(f"Take which passenger at {name}:")
    shoot(page, "germany-pickup-question.png")
    answer(page, f"{swatch(colour).letter} {colour}:")
    assert "taking" in status(page) and f"a {colour} passenger from {name}" in status(page)

    after = shown_game(page)
    assert after.history[-1].action.pickups == ((place, colour),)
    left = rules.passengers_at(after.state, place)
    assert left.get(colour, 0) == waiting[colour] - 1
    # The board: the claim in Ann's colour, the passengers left redrawn, one fewer of hers.
    _board_close_up(page, geometry.positions[place], "germany-pickup-claimed-close-up.png")
    space = geometry.routes[route_id].spaces[0]
    assert colour_share(page, space.cx, space.cy, player_style(0).fill) > 0.3
    marks = [m for m in passenger_marks(after, geometry) if m.place == place]
    assert len(marks) == sum(waiting.values()) - 1
    assert all(disc_colour(page, m.x, m.y) == m.colour for m in marks), "the board was not redrawn"
    drawn = sum(disc_colour(page, m.x, m.y) == colour for m in marks)
    assert drawn == waiting[colour] - 1
    table = page.locator(".ttr-scores").inner_text()
    assert f"{swatch(colour).letter}1★" in table.replace("\n", "")
    shoot(page, "germany-pickup-claimed.png")
    no_errors(page)


def _board_close_up(page: Any, centre: tuple[float, float], name: str) -> None:
    """A screenshot of the board around one place, at the size the learner sees it."""
    x, y = canvas_point(page, *centre)
    page.screenshot(
        path=str(ARTIFACTS / name),
        clip={"x": max(0, x - 160), "y": max(0, y - 110), "width": 320, "height": 220},
    )


def test_germany_at_a_laptop_and_a_phone_width(page: Any) -> None:
    germany_shown(page)
    for width, height in ((1366, 768), (390, 844)):
        at_width(page, width, height)
        assert page.evaluate(JS_CANVAS_PAINTED)
        board = page.locator(".ttr-board-canvas canvas").bounding_box()
        assert board["x"] >= 0 and board["x"] + board["width"] <= width + 1
        window_shot(page, f"germany-{width}x{height}.png")
        if width >= 1366:
            # A passenger's letter stays readable: its disc is at least 10 pixels across.
            drawn_width = page.evaluate(
                "() => document.querySelector('.ttr-board-canvas canvas').width"
            )
            assert 2 * PASSENGER_RADIUS * board["width"] / drawn_width >= 10
            # The board is tall: the history fills the room beside it, not a gap.
            history = page.locator(".ttr-history-column").bounding_box()
            assert history["x"] >= board["x"] + board["width"]
            assert history["y"] < board["y"] + board["height"] / 2
        berlin = geometry_for(page, "germany").positions["berlin"]
        _board_close_up(page, berlin, f"germany-{width}-berlin.png")
        if width < 900:  # the players' table, with the passengers, under the board
            page.locator(".ttr-scores").scroll_into_view_if_needed()
            window_shot(page, f"germany-{width}-players.png")
    page.set_viewport_size(VIEWPORT)


def test_the_end_screen_shows_the_majorities(page: Any) -> None:
    germany_shown(page)
    play_to_end(page)
    result = page.locator(".ttr-result").inner_text()
    assert "wins" in result or "Shared victory" in result
    assert "Passenger majorities" in result and "who scores" in result
    assert "Globetrotter" in result and "Completed tickets:" in result
    assert "passengers" in result and "globetrotter bonus" in result  # parts of the score
    shoot(page, "germany-game-over.png")
    no_errors(page)
