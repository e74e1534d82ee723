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
        (
            "usa",
            (
                "first-tickets",
                "turn",
                "face-up-locomotive",
                "pay-colour",
                "last-round",
                "final-turn",
                "ties",
                "recap",
            ),
        ),
        ("germany", ("passenger-pickup", "countries", "later-tickets", "final-turn")),
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
    # The first game's coach: plain words beside the board, the algorithm behind Why?.
    plain = tab.locator(".ttr-coach-plain-box")
    plain.wait_for(state="visible", timeout=WAIT_MS)
    tab.wait_for_function(
        "() => document.querySelector('.ttr-coach-plain-box').innerText.includes('Coach:')",
        timeout=WAIT_MS,
    )
    if tab.locator(".ttr-offer-1 input").is_visible():  # the first tickets: keep them all
        for i in range(tab.locator("[class*='ttr-offer-'] input").count()):
            box = tab.locator(f".ttr-offer-{i} input")
            if box.count():
                box.check()
        tab.locator("button.ttr-keep:enabled").wait_for(timeout=WAIT_MS)
        click(tab, "button.ttr-keep")
        tab.wait_for_function(
            "() => /Collect|Claim/.test("
            "(document.querySelector('.ttr-coach-plain-box') || {}).innerText || '')",
            timeout=WAIT_MS,
        )
    assert plain.is_visible() and plain.bounding_box()["y"] < LAPTOP[1]  # in the window
    first = plain.inner_text()
    assert "Coach:" in first and "Steiner" not in first and ".ipynb" not in first, first
    window_shot(tab, f"tutorial-{map_id}-first-game-coach-1366.png")
    tab.locator("button.ttr-coach-why").click()
    tab.wait_for_function(
        "() => document.querySelector('.ttr-coach-plain-box').innerText.includes('Steiner')",
        timeout=WAIT_MS,
    )
    print(f"\n{map_id}: {json.dumps(figures)}")


def test_the_rules_card_opens_and_closes_by_keyboard(tab: Any) -> None:
    at_width(tab, *LAPTOP)
    open_tutorial(tab, "usa")
    button = tab.locator("button.ttr-rules-button")
    button.focus()
    tab.keyboard.press("Enter")
    card = tab.locator(".ttr-rules-card")
    card.wait_for(state="visible", timeout=WAIT_MS)
    text = card.inner_text()
    for part in ("On your turn", "Claiming a route", "The end and the score", "2 trains"):
        assert part in text, part
    box = card.bounding_box()  # over the page, whole in the window: nothing to scroll to
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= LAPTOP[1]
    assert box["x"] >= 0 and box["x"] + box["width"] <= LAPTOP[0]
    window_shot(tab, "tutorial-rules-card-1366.png")
    tab.locator(".ttr-rules-pages button", has_text="House rules").click()
    tab.wait_for_function(
        "() => document.querySelector('.ttr-rules-card').innerText.includes('rulebook is silent')",
        timeout=WAIT_MS,
    )
    window_shot(tab, "tutorial-house-rules-1366.png")
    tab.locator("button.ttr-rules-close").focus()
    tab.keyboard.press("Enter")
    card.wait_for(state="hidden", timeout=WAIT_MS)
    no_errors(tab)
