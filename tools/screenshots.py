"""Screenshots of the running app for the README and the docs, made the way a learner clicks.

    .venv/bin/python tools/screenshots.py                   # writes docs/_static/screenshots/
    .venv/bin/python tools/screenshots.py --out DIR --only app-usa

Starts the Voilà app (``notebooks/app.ipynb`` with the repository's ``voila.json``) on a free
port of 127.0.0.1, drives Debian's Chromium headless through Playwright at a laptop's size
(1366×768), plays seeded games through the app's own buttons, and saves one PNG per shot.
Each shot checks that the board is drawn (canvas pixels) and that the page shows no error
before it is saved. Look at every picture before committing it.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))  # the browser tests' helpers: the same clicks

import browser  # noqa: E402
from browser import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_FLAGS,
    JS_CANVAS_PAINTED,
    JS_SCROLL_TOP,
    WAIT_MS,
    bots_until_me,
    click_and_answer,
    click_and_settle,
    keep_tickets,
    no_errors,
    play_to_end,
    serving,
    start_game,
)

from ttr_nb import ClaimRoute, Game  # noqa: E402
from ttr_nb.bots import GreedyBot  # noqa: E402

LAPTOP = {"width": 1440, "height": 900}
TALLEST = 1700  # a shot taller than the window grows the window up to this height
SEED = 7


def _wait_text(page: Any, selector: str, text: str) -> None:
    page.wait_for_function(
        "([s, t]) => { const e = document.querySelector(s); return e && e.innerText.includes(t); }",
        arg=[selector, text],
        timeout=WAIT_MS,
    )


def _plain_board(page: Any) -> None:
    """Untick *Light up the routes I can claim now*: the claims stand out in a picture."""
    box = page.locator(".ttr-show-claimable input")
    if box.count() and box.is_checked():
        box.uncheck()
        page.wait_for_timeout(500)


def _draw_two(page: Any) -> None:
    """The human seat's turn: two cards from the deck."""
    click_and_settle(page, "button.ttr-draw-blind")
    click_and_settle(page, "button.ttr-draw-blind")


def _shown_game(page: Any) -> Game:
    """The game the page shows, read back through *Save game*, as a learner keeps it."""
    panel = page.locator(".ttr-extras").get_by_text("Save and load", exact=True)
    opened = not page.locator("button.ttr-save").is_visible()
    if opened:
        panel.click()
    box = page.locator(".ttr-save-text textarea")
    box.fill("")
    page.locator("button.ttr-save").click()
    page.wait_for_function(
        "() => document.querySelector('.ttr-save-text textarea').value.length > 100",
        timeout=WAIT_MS,
    )
    game = Game.from_json(box.input_value())
    if opened:
        panel.click()  # folded again, as it was
    return game


def _my_turn_like_greedy(page: Any) -> None:
    """The human seat claims what the greedy bot would claim (picked from the *Route* list,
    paid as the app proposes), and otherwise draws two cards from the deck."""
    game = _shown_game(page)
    action = GreedyBot(1).choose(game)
    if not isinstance(action, ClaimRoute):
        _draw_two(page)
        return
    route = game.map.route_by_id[action.route]
    label = f"{game.map.route_label(route)} #{route.id}"
    page.locator(".ttr-route-picker select").select_option(label=label)
    page.wait_for_function(
        "() => !document.querySelector('button.ttr-claim').disabled", timeout=WAIT_MS
    )
    click_and_answer(page, "button.ttr-claim")


def usa_midgame(page: Any) -> None:
    """A USA game against two greedy bots, 16 rounds in: everyone's routes on the board."""
    start_game(page, "usa", seed=SEED, players=3, kinds=["human", "greedy", "greedy"])
    keep_tickets(page)
    bots_until_me(page)
    for _ in range(16):
        _my_turn_like_greedy(page)
        bots_until_me(page)
    page.locator(".ttr-route-picker select").select_option(index=0)  # nothing selected
    _plain_board(page)


def shot_app_usa(page: Any) -> None:
    """The app at a laptop's size: the board, the hand, the cards to act on."""
    usa_midgame(page)


def shot_coach(page: Any) -> None:
    """The coach opened beside the same game, its plan drawn on the board."""
    usa_midgame(page)
    page.locator(".ttr-coach-toggle").click()
    _wait_text(page, ".ttr-coach-body", "My plan")
    page.wait_for_timeout(800)  # the plan's layer is drawn after the text
    _whole_app(page)


def _whole_app(page: Any) -> None:
    """Grow the window to the app's height (Voilà scrolls inside the page, not the page)."""
    height = page.evaluate(browser.JS_CONTENT_HEIGHT)
    page.set_viewport_size({"width": LAPTOP["width"], "height": min(int(height), TALLEST)})
    page.wait_for_timeout(800)


def shot_germany(page: Any) -> None:
    """Germany: passengers waiting at every city, the players' majorities."""
    start_game(page, "germany", seed=SEED, players=2, kinds=["human", "greedy"])
    page.locator(".ttr-prompt-question").wait_for(state="visible", timeout=WAIT_MS)
    page.locator(".ttr-prompt-choices label").filter(has_text="3 short, 1 long").click()
    click_and_settle(page, "button.ttr-prompt-ok")
    keep_tickets(page)
    bots_until_me(page)
    for _ in range(10):
        _my_turn_like_greedy(page)
        bots_until_me(page)
    page.locator(".ttr-route-picker select").select_option(index=0)  # nothing selected
    _plain_board(page)


def shot_end_screen(page: Any) -> None:
    """The end of a USA game: the score by parts, tickets, the longest trails outlined."""
    start_game(page, "usa", seed=SEED, players=3, kinds=["human", "greedy", "greedy"])
    keep_tickets(page)
    play_to_end(page)
    _whole_app(page)


SHOTS: dict[str, Callable[[Any], None]] = {
    "app-usa": shot_app_usa,
    "coach": shot_coach,
    "germany": shot_germany,
    "end-screen": shot_end_screen,
}


def _palette(path: Path) -> None:
    """Store the picture with a 256-colour palette: a third of the size, the same to the eye
    for a page of flat colours and text (the repository keeps every version)."""
    from PIL import Image

    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    small.save(path, optimize=True)


def take(names: list[str], out: Path) -> list[Path]:
    """Start the app and save the shots ``names`` into ``out``; returns the files."""
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    saved = []
    with (
        tempfile.TemporaryDirectory() as profile,
        sync_playwright() as p,
        serving(log_name="screenshots-voila.log", warm=1) as server,
    ):
        context = p.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS, viewport=LAPTOP
        )
        try:
            for name in names:
                started = time.monotonic()
                page = context.new_page()
                page.goto(server.url, wait_until="domcontentloaded", timeout=60_000)
                page.wait_for_function(JS_CANVAS_PAINTED, timeout=90_000, polling=100)
                SHOTS[name](page)
                page.evaluate(JS_SCROLL_TOP)
                page.wait_for_function(JS_CANVAS_PAINTED, timeout=WAIT_MS, polling=100)
                no_errors(page)
                path = out / f"{name}.png"
                page.screenshot(path=str(path))
                page.close()
                _palette(path)
                saved.append(path)
                print(f"{path.relative_to(REPO)}: {time.monotonic() - started:.0f} s")
        finally:
            context.close()
    return saved


def main(argv: list[str] | None = None) -> int:
    """Command line: take every shot, or those named by ``--only``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "_static" / "screenshots")
    parser.add_argument("--only", action="append", choices=sorted(SHOTS), help="one shot")
    args = parser.parse_args(argv)
    browser.ARTIFACTS.mkdir(exist_ok=True)
    take(args.only or list(SHOTS), args.out.resolve())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
