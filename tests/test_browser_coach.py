"""The coach in Chromium: opened by the human seat, its plan drawn on the board as a
dashed blue layer, "Why that move" after a bot's move, and the review on the end screen.

Screenshots go to ``test-artifacts/coach-*.png``.
"""

from __future__ import annotations

from typing import Any

from browser import (
    WAIT_MS,
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
    voila,
)
from test_browser_germany import shown_game

from ttr_nb.coach import coach
from ttr_nb.widgets.coach_panel import PLAN_COLOUR

SEED = 7


def _plan_blue(page: Any, routes: tuple[int, ...]) -> float:
    """Share of pixels near the planned routes' spaces' corners that are the plan's blue."""
    geometry = geometry_for(page, "usa")
    shares = []
    for rid in routes:
        for space in geometry.routes[rid].spaces:
            for x, y in space.corners(grow=5.0):
                shares.append(colour_share(page, x, y, PLAN_COLOUR, radius=2))
    return max(shares)


def _wait_text(page: Any, selector: str, text: str) -> None:
    page.wait_for_function(
        "([s, t]) => { const e = document.querySelector(s); return e && e.innerText.includes(t); }",
        arg=[selector, text],
        timeout=WAIT_MS,
    )


def test_the_coach_shows_the_plan_on_the_board_and_why_a_bot_moved(page: Any) -> None:
    start_game(page, "usa", seed=SEED, players=2, kinds=["human", "greedy"])
    keep_tickets(page)
    game = shown_game(page)
    plan = coach(game, 0).plan
    assert plan.routes
    assert _plan_blue(page, plan.routes) == 0  # nothing drawn while the coach is closed

    page.locator(".ttr-coach-toggle").click()
    _wait_text(page, ".ttr-coach-body", "My plan")
    body = page.locator(".ttr-coach-body").inner_text()
    assert "Weak spots" in body and "Graphs 5 · Several tickets at once" in body
    assert ".ipynb" not in body  # a lesson by its title, never its file name
    page.wait_for_timeout(500)
    assert _plan_blue(page, plan.routes) > 0
    no_errors(page)
    shoot(page, "coach-plan.png")

    click_and_wait_moves(page, "button.ttr-bot-step")  # the greedy bot keeps its tickets
    _wait_text(page, ".ttr-coach-body", "Why that move")
    assert "kept the tickets" in page.locator(".ttr-coach-body").inner_text()

    play_to_end(page)
    _wait_text(page, ".ttr-coach-review", "End-of-game review")
    review = page.locator(".ttr-coach-review").inner_text()
    assert "cheapest network" in review
    no_errors(page)
    shoot(page, "coach-review.png")
