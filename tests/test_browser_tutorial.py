"""The first screen and each map's tutorial in Chromium on the Voilà server, by clicking only,
at 1366×768 and at 390 px wide.

A scripted learner completes every step of every map's tutorial with the page's controls:
face-up cards, the deck buttons, the route on the board (or the Route list on a phone) with
a payment and *Claim this route*, *Draw tickets* and the ticks, the variant's panels, the
app's questions; where no control is mapped here (Märklin's journeys) it presses *Show me*.
It knows what to click because each step's position is built the same way here (the
engine is deterministic): the test opens it too, carried on from the game its own moves
left, and follows it move by move.

One Voilà server for the module; one test per map walks its whole tutorial once at each
width. Timings (a click to the page's answer) and step counts go to
``test-artifacts/tutorial-timings.json`` and are printed, never asserted. Screenshots go to
``test-artifacts/tutorial-*.png``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from browser import (
    ARTIFACTS,
    JS_CANVAS_PAINTED,
    at_width,
    context,
    no_errors,
    status,
    total_moves,
    voila,
    window_shot,
)
from tutorial_browser import (
    WAIT_MS,
    click,
    feedback,
    header,
    open_tutorial,
    sideways,
    walk,
)

LAPTOP = (1366, 768)
PHONE = (390, 844)
TIMINGS: dict[str, Any] = {}


@pytest.fixture(scope="module")
def tab(context: Any, voila: Any) -> Iterator[Any]:
    page = context.new_page()
    opened = time.monotonic()
    page.goto(voila.url, wait_until="domcontentloaded", timeout=60_000)
    page.locator(".ttr-first-screen").wait_for(state="visible", timeout=90_000)
    TIMINGS["page_open_to_first_screen_s"] = round(time.monotonic() - opened, 2)
    yield page
    page.close()
    (ARTIFACTS / "tutorial-timings.json").write_text(json.dumps(TIMINGS, indent=2))
    print("\ntutorial timings:", json.dumps(TIMINGS))


# ------------------------------------------------------------------ tests
def test_first_screen_then_a_reload_resumes_the_tutorial(tab: Any) -> None:
    for width, height in (LAPTOP, PHONE):
        at_width(tab, width, height)
        for name in ("ttr-first-learn", "ttr-first-bots", "ttr-first-others"):
            assert tab.locator(f"button.{name}").is_visible()
        assert not tab.locator(".ttr-board-canvas").is_visible()  # the board waits behind
        assert sideways(tab) <= width + 1
        window_shot(tab, f"tutorial-first-screen-{width}.png")
    at_width(tab, *LAPTOP)
    open_tutorial(tab, "germany")
    assert "Germany" in header(tab) and "Step 1 of" in header(tab)
    tab.wait_for_function(JS_CANVAS_PAINTED, timeout=WAIT_MS)
    click(tab, "button.ttr-tutorial-next")
    click(tab, "button.ttr-tutorial-next")
    assert "Step 3 of" in header(tab)
    tab.reload(wait_until="domcontentloaded")
    tab.locator(".ttr-tutorial").wait_for(state="visible", timeout=90_000)
    tab.wait_for_function(
        "() => (document.querySelector('.ttr-tutorial-header') || {}).innerText"
        " && document.querySelector('.ttr-tutorial-header').innerText.includes('Step 3 of')",
        timeout=WAIT_MS,
    )
    assert "Germany" in header(tab)
    assert not tab.locator(".ttr-first-screen").is_visible()
    # A legal move that is not the step's is taken back, with the reason: tickets (their
    # mix asked first, as in a game) when the step asks for two cards.
    click(tab, "button.ttr-tutorial-next")
    assert "Drawing two cards" in header(tab)
    moves = total_moves(tab)
    tab.locator("button.ttr-draw-tickets").click()
    tab.locator(".ttr-prompt").wait_for(state="visible", timeout=WAIT_MS)
    click(tab, "button.ttr-prompt-ok")
    assert total_moves(tab) == moves and "taken back" in feedback(tab)
    window_shot(tab, "tutorial-taken-back-1366.png")
    # Leave: the first screen again; Play against bots: a game of one's own.
    click(tab, "button.ttr-tutorial-leave")
    assert tab.locator(".ttr-first-screen").is_visible()
    click(tab, "button.ttr-first-bots")
    tab.wait_for_function(JS_CANVAS_PAINTED, timeout=WAIT_MS)
    assert "New game on the USA map" in status(tab)
    no_errors(tab)


@pytest.mark.parametrize(
    ("map_id", "shots"),
    [
        ("usa", ("first-tickets", "face-up-locomotive", "pay-colour", "final-turn")),
        ("germany", ("passenger-pickup", "countries", "final-turn")),
        ("maerklin", ("place-passenger", "move-passenger")),
        ("world", ("two-decks", "pair-route", "harbor", "final-turn")),
        ("europe", ("first-tickets", "ferry", "tunnel", "station", "the-end")),
    ],
)
def test_a_learner_completes_the_tutorial_by_clicking(tab: Any, map_id: str, shots: tuple) -> None:
    figures = {}
    for size in (LAPTOP, PHONE):
        open_tutorial(tab, map_id)
        figures[f"{size[0]}px"] = walk(tab, map_id, size, shots)
        window_shot(tab, f"tutorial-{map_id}-{size[0]}-finished.png")
    TIMINGS[map_id] = figures
    # The first real game: a beginner bot, the coach open.
    at_width(tab, *LAPTOP)
    click(tab, "button.ttr-tutorial-first-game")
    tab.wait_for_function(JS_CANVAS_PAINTED, timeout=WAIT_MS)
    tab.wait_for_function(  # the app writes its status twice: the new game, then this
        "() => document.querySelector('.ttr-status-box').innerText.includes('first game')",
        timeout=WAIT_MS,
    )
    assert tab.locator(".ttr-coach-toggle").inner_text().startswith("Close the coach")
    print(f"\n{map_id}: {json.dumps(figures)}")
