"""A scripted learner that completes the app's tutorial in a browser by clicking only (imported
as ``tutorial_browser`` by test_browser_tutorial.py and test_site.py).

It knows what to click because each step's position is built the same way here (the engine
is deterministic): it opens the step too, carried on from the game its own moves left, and
follows it move by move, making each move with the page's controls: face-up cards, the
deck buttons, the route on the board (or the Route list on a phone) with a payment and
*Claim this route*, *Draw tickets* and the ticks, the variant's panels, the app's questions.
Where no control is mapped here (Märklin's journeys) it presses *Show me*.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from browser import (
    at_width,
    canvas_point,
    geometry_for,
    no_errors,
    serial,
    status,
    sync_api,
    total_moves,
    window_shot,
)

from ttr_nb.actions import ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets, Pass
from ttr_nb.maps import load_map
from ttr_nb.rules.europe_actions import BorrowRoutes, BuildStation, GiveUpTunnel, PayTunnel
from ttr_nb.rules.world_actions import BuildHarbor, ChooseSupply, ExchangePieces
from ttr_nb.widgets import GameApp
from ttr_nb.widgets.board import BoardWidget
from ttr_nb.widgets.tutorial import tutorial_for
from ttr_nb.widgets.variants import ui_class

WAIT_MS = 120_000  # a click answered by Python in the browser (the static site) may be slow
FIRST_SCREEN_MS = 300_000  # a cold start of the static site loads Python first

JS_NO_SIDEWAYS = """
() => {
  let widest = document.documentElement.scrollWidth;
  for (const el of document.querySelectorAll('.ttr-app, .ttr-app *')) {
    const r = el.getBoundingClientRect();
    if (r.width && getComputedStyle(el).display !== 'none') widest = Math.max(widest, r.right);
  }
  return Math.ceil(widest);
}
"""


def settle(page: Any, before: int) -> None:
    """Wait until the app has answered (its status line is rewritten last, numbered)."""
    page.wait_for_function(
        "(n) => Number(document.querySelector('.ttr-status-box [data-serial]')"
        ".getAttribute('data-serial')) > n",
        arg=before,
        timeout=WAIT_MS,
    )


def click(page: Any, selector: str) -> float:
    """Click and wait for the app's answer; the seconds it took."""
    before = serial(page)
    started = time.perf_counter()
    page.locator(selector).first.click()
    settle(page, before)
    return time.perf_counter() - started


def click_move(page: Any, selector: str, answer: int | None = None) -> float:
    """Click a control that makes a move; answer the app's question (which one?) with
    choice ``answer`` when it asks. The seconds from the click to the move shown."""
    before, moves = serial(page), total_moves(page)
    started = time.perf_counter()
    page.locator(selector).first.click()
    page.wait_for_function(
        "(n) => Number(document.querySelector('.ttr-status-box [data-serial]')"
        ".getAttribute('data-serial')) > n || (document.querySelector('.ttr-prompt') "
        "&& document.querySelector('.ttr-prompt').offsetParent !== null)",
        arg=before,
        timeout=WAIT_MS,
    )
    if serial(page) == before:  # the app asks which move is meant
        assert answer is not None, f"{selector}: an unexpected question"
        choices = page.locator(".ttr-prompt-choices input")
        if choices.count() > 1:
            choices.nth(answer).check()
        before = serial(page)
        page.locator("button.ttr-prompt-ok").click()
        settle(page, before)
    elapsed = time.perf_counter() - started
    assert total_moves(page) > moves, f"{selector}: no move; status {status(page)!r}"
    return elapsed


def select(page: Any, selector: str, index: int) -> None:
    page.locator(f"{selector} select").select_option(index=index)


def header(page: Any) -> str:
    return page.locator(".ttr-tutorial-header").inner_text()


def feedback(page: Any) -> str:
    return page.locator(".ttr-tutorial-feedback").inner_text()


def sideways(page: Any) -> int:
    return int(page.evaluate(JS_NO_SIDEWAYS))


# ------------------------------------------------------------------ a learner's moves
ROUTE_LISTS: dict[str, list[tuple[str, int]]] = {}


def route_label(map_id: str, route: int) -> str:
    if map_id not in ROUTE_LISTS:
        ROUTE_LISTS[map_id] = BoardWidget(load_map(map_id))._picker_options()
    return next(label for label, value in ROUTE_LISTS[map_id] if value == route)


def select_route(page: Any, game: Any, route: int, phone: bool) -> None:
    """Click the route on the board (on a phone: pick it in the Route list)."""
    label = route_label(game.map.id, route)
    picker = page.locator(".ttr-route-picker select")
    if not phone:
        x, y = geometry_for(page, game.map.id).routes[route].anchor
        page.mouse.click(*canvas_point(page, x, y))
        try:
            page.wait_for_function(
                "(label) => document.querySelector('.ttr-route-picker select')"
                ".selectedOptions[0].textContent.replace(/\\u00a0/g, ' ') === label",
                arg=label,
                timeout=5_000,
            )
            return
        except sync_api.TimeoutError:
            pass  # a neighbouring route took the click: use the list, as a learner would
    picker.select_option(label=label.replace(" ", "\xa0"))
    page.locator(".ttr-claim").wait_for(state="visible", timeout=WAIT_MS)


UIS: dict[str, Any] = {}


def answer(game: Any, group: list[Any], action: Any) -> int:
    """Which answer of the app's question (which one?) is ``action``: the question lists
    the moves in the variant's order."""
    if game.map.id not in UIS:
        UIS[game.map.id] = ui_class(game.map.rules)(GameApp(map_name=game.map.id, auto_bots=False))
    return [value for _, value in UIS[game.map.id].choices(game, group)].index(action)


def play(page: Any, game: Any, action: Any, phone: bool) -> float | None:
    """Make ``action`` with the page's controls; the seconds it took, or None when no
    control is mapped here for it (then the caller presses Show me)."""
    legal = game.legal_actions()
    if isinstance(action, DrawFaceUp):
        group = [a for a in legal if isinstance(a, DrawFaceUp) and a.slot == action.slot]
        return click_move(page, f"button.ttr-face-up-{action.slot}", answer(game, group, action))
    if isinstance(action, DrawBlind):
        return click_move(page, f"button.ttr-draw-blind-{action.deck}")
    if isinstance(action, DrawTickets):
        group = [a for a in legal if isinstance(a, DrawTickets)]
        if page.locator(".ttr-prompt").is_visible():  # the first tickets are asked at once
            page.locator(".ttr-prompt-choices input").nth(answer(game, group, action)).check()
            moves = total_moves(page)
            took = click(page, "button.ttr-prompt-ok")
            assert total_moves(page) > moves, f"no tickets drawn: {status(page)!r}"
            return took
        return click_move(page, "button.ttr-draw-tickets", answer(game, group, action))
    if isinstance(action, KeepTickets):
        offer = game.state.players[game.current_player].offer
        for i, ticket in enumerate(offer):
            box = page.locator(f".ttr-offer-{i} input")
            box.set_checked(ticket in action.tickets)
        return click_move(page, "button.ttr-keep")
    if isinstance(action, ClaimRoute):
        select_route(page, game, action.route, phone)
        claims = [a for a in legal if isinstance(a, ClaimRoute) and a.route == action.route]
        payments = list(dict.fromkeys(a.cards for a in claims))
        select(page, ".ttr-payment", payments.index(action.cards))
        group = [a for a in claims if a.cards == action.cards]
        return click_move(page, "button.ttr-claim", answer(game, group, action))
    if isinstance(action, ChooseSupply):
        select(
            page,
            ".ttr-supply-picker",
            [a for a in legal if isinstance(a, ChooseSupply)].index(action),
        )
        return click_move(page, "button.ttr-choose-supply")
    if isinstance(action, BuildHarbor):
        builds = [a for a in legal if isinstance(a, BuildHarbor)]
        cities = sorted({a.city for a in builds}, key=game.map.place_name)
        select(page, ".ttr-harbor-city", cities.index(action.city))
        group = [a for a in builds if a.city == action.city]
        return click_move(page, "button.ttr-build-harbor", answer(game, group, action))
    if isinstance(action, ExchangePieces):
        select(
            page,
            ".ttr-exchange-picker",
            [a for a in legal if isinstance(a, ExchangePieces)].index(action),
        )
        return click_move(page, "button.ttr-exchange")
    if isinstance(action, PayTunnel | GiveUpTunnel):  # the tunnel panel's answer
        answers = [a for a in legal if isinstance(a, PayTunnel | GiveUpTunnel)]
        select(page, ".ttr-tunnel-picker", answers.index(action))
        return click_move(page, "button.ttr-tunnel-do")
    if isinstance(action, BuildStation):
        builds = [a for a in legal if isinstance(a, BuildStation)]
        cities = sorted({a.city for a in builds}, key=game.map.place_name)
        select(page, ".ttr-station-city", cities.index(action.city))
        group = [a for a in builds if a.city == action.city]
        return click_move(page, "button.ttr-build-station", answer(game, group, action))
    if isinstance(action, BorrowRoutes):  # one list per station, in the action's city order
        options = game.rules.borrow_choices(game.state, game.current_player)
        for i, (city, route) in enumerate(action.routes):
            page.locator(".ttr-borrow-route select").nth(i).select_option(
                index=options[city].index(route)
            )
        return click_move(page, "button.ttr-borrow")
    if isinstance(action, Pass):
        select(page, ".ttr-other-moves", 0)
        return click_move(page, "button.ttr-other-do")
    return None


def walk(
    page: Any,
    map_id: str,
    size: tuple[int, int],
    shots: tuple[str, ...] = (),
    limit: int | None = None,
) -> dict[str, Any]:
    """Complete ``map_id``'s tutorial (its first ``limit`` steps) at this window size by
    clicking; figures."""
    at_width(page, *size)
    phone = size[0] < 600
    tutorial = tutorial_for(map_id)
    total = len(tutorial.steps)
    moves, nexts, shown = [], [], 0
    ends: dict[int, Any] = {}
    started = time.perf_counter()
    for i in range(len(tutorial.steps[:limit])):
        # The step as the app opens it: the game the steps before left, carried on.
        opening = tutorial.open(i, ends)
        step = opening.step
        assert f"Step {i + 1} of {total}" in header(page), header(page)
        assert step.title in header(page)
        if step.key in shots:  # the step as it opens: what happened since, its words
            window_shot(page, f"tutorial-{map_id}-{size[0]}-{step.key}-open.png")
        game = opening.game.clone()
        if step.goal is not None:
            while not step.goal.reached(game):
                action = step.goal.show_move(game)
                took = play(page, game, action, phone)
                if took is None:  # Show me plays the rest of the step
                    click(page, "button.ttr-tutorial-show")
                    shown += 1
                    game = tutorial.finish(opening, game)
                    break
                moves.append(took)
                game.apply(action)
                if step.key in shots and not step.goal.reached(game):  # a question open
                    window_shot(
                        page, f"tutorial-{map_id}-{size[0]}-{step.key}-{len(game.history)}.png"
                    )
        ends[i] = game
        page.locator("button.ttr-tutorial-next", has_text="Next step").or_(
            page.locator("button.ttr-tutorial-next", has_text="Finish")
        ).wait_for(timeout=WAIT_MS)
        assert feedback(page).strip(), f"{step.key}: no explanation"
        if step.key in shots:
            window_shot(page, f"tutorial-{map_id}-{size[0]}-{step.key}.png")
        nexts.append(click(page, "button.ttr-tutorial-next"))
        no_errors(page)
    elapsed = time.perf_counter() - started
    if limit is None:
        assert "Finished" in header(page)
        assert page.locator("button.ttr-tutorial-first-game").is_visible()
    assert sideways(page) <= size[0] + 1, f"{map_id} at {size[0]} px scrolls sideways"
    return {
        "steps": total if limit is None else min(limit, total),
        "moves_clicked": len(moves),
        "steps_shown_by_show_me": shown,
        "learner_seconds": round(elapsed, 1),
        "move_click_to_answer_ms_median": round(statistics.median(moves) * 1000) if moves else None,
        "next_step_click_to_new_position_ms_median": round(statistics.median(nexts) * 1000),
    }


def open_tutorial(page: Any, map_id: str) -> None:
    """From wherever the page is: the first screen, the map, Learn to play."""
    if not page.locator(".ttr-first-screen").is_visible():
        if page.locator("button.ttr-tutorial-leave").is_visible():
            click(page, "button.ttr-tutorial-leave")
        else:  # a game of one's own: start afresh (it would be offered again on a reload)
            page.evaluate("() => localStorage.clear()")
            page.goto(page.url, wait_until="domcontentloaded")
            page.locator(".ttr-first-screen").wait_for(state="visible", timeout=FIRST_SCREEN_MS)
    options = [
        o.replace("\xa0", " ") for o in page.locator(".ttr-first-map option").all_text_contents()
    ]
    page.locator(".ttr-first-map select").select_option(index=options.index(load_map(map_id).name))
    click(page, "button.ttr-first-learn")
    page.locator(".ttr-tutorial").wait_for(state="visible", timeout=WAIT_MS)
