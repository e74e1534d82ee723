"""A whole Europe game in Chromium, clicked through: tickets kept, cards drawn, routes claimed
on the board, a tunnel whose turned-up cards are shown and answered, a station built where a
city was picked, the route it borrows chosen at the end, and the end screen; then the board at
a laptop's and a phone's width.

The human's moves follow one simple plan (:func:`next_step`): answer what is asked, build a
station once, claim a route when one can be paid for (a tunnel first), else draw from the
deck. Which seed brings a tunnel question and a borrowed route is found first without a
browser, by the same clicks on a headless app (same seed, same bots, same moves); the browser
then has to show exactly that game. Screenshots go to ``test-artifacts/europe-*.png``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from app_steps import keep_offered
from browser import (
    WAIT_MS,
    at_width,
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
    total_moves,
    voila,
    window_shot,
)

from ttr_nb import load_map
from ttr_nb.actions import ClaimRoute
from ttr_nb.rules.europe import BORROW, TUNNEL, BuildStation
from ttr_nb.widgets import GameApp
from ttr_nb.widgets.board import route_choices
from ttr_nb.widgets.europe_board import HOUSE_OFFSET, TUNNEL_INK
from ttr_nb.widgets.style import player_style

__all__ = ["context", "page", "pytestmark", "voila"]  # fixtures used by name

PLAYERS = 2
STATION_TURN = 4  # the human builds its station on this turn (or the first it can after)
MAX_STEPS = 400


def next_step(app: GameApp, asked: bool = False) -> tuple[str, Any]:
    """The human's next click: (kind, detail); a tunnel is preferred until one has asked
    for more cards (``asked``)."""
    view = app.view
    state = view.state
    seat = state.current
    if state.pending == "keep_tickets":
        return ("keep", None)
    if state.pending == TUNNEL:
        return ("tunnel", None)  # the first answer offered (pay if it can, else give up)
    if state.pending == BORROW:
        return ("borrow", None)
    if state.pending == "second_card":
        return ("blind", None)
    legal = app.shown.legal
    stations = {a.city for a in legal if isinstance(a, BuildStation)}
    if stations and state.turn >= STATION_TURN and not view.state.extras["stations"]:
        # A city where the other player claimed a route: the station will have one to borrow.
        theirs = [
            c
            for c in sorted(stations)
            if any(c in view.map.route_by_id[r].ends for r, s in state.owner.items() if s != seat)
        ]
        if theirs:
            return ("station", theirs[0])
    claims = sorted({a.route for a in legal if isinstance(a, ClaimRoute)})
    if claims:
        routes = [view.map.route_by_id[r] for r in claims]
        best = max(routes, key=lambda r: (r.tunnel and not asked, r.length, -r.id))
        return ("claim", best.id)
    return ("blind", None)


def step_headless(app: GameApp, kind: str, detail: Any) -> None:
    """Carry out a step on the headless app, with the widgets the browser clicks."""
    if kind == "keep":
        keep_offered(app)
    elif kind == "blind":
        app.cards.deck_buttons["train"].click()
    elif kind == "claim":
        app.board.select(detail)
        app.claim.claim_button.click()
        if app.prompt.is_open:
            app.prompt.choose(0)
    elif kind == "station":
        app.ui.stations.picker.value = detail
        app.ui.stations.button.click()
        if app.prompt.is_open:
            app.prompt.choose(0)
    elif kind == "tunnel":
        app.ui.tunnel.button.click()
    elif kind == "borrow":
        app.ui.borrow.button.click()


@cache
def game_plan() -> tuple[int, list[tuple[str, Any]]]:
    """(seed, the human's steps) of the first seed whose game, played by :func:`next_step`,
    asks the human about a tunnel's extra cards and ends with a route borrowed."""
    for seed in range(1, 60):
        app = GameApp(map_name="europe", players=PLAYERS, seed=seed, auto_bots=False)
        steps: list[tuple[str, Any]] = []
        asked = borrowed = False
        for _ in range(MAX_STEPS):
            if app.view.is_over:
                break
            if not app.human_to_move():
                app.bots_until_human()
                continue
            kind, detail = next_step(app, asked)
            asked |= kind == "tunnel"
            borrowed |= kind == "borrow"
            steps.append((kind, detail))
            step_headless(app, kind, detail)
        if app.view.is_over and asked and borrowed:
            return seed, steps
    raise AssertionError("no seed in 1..59 brings a tunnel question and a borrowed route")


def answer_prompt_if_open(page: Any) -> None:
    if page.locator(".ttr-prompt").is_visible():
        page.locator(".ttr-prompt-choices input").nth(0).check()
        click_and_settle(page, "button.ttr-prompt-ok")


def click_route(page: Any, route_id: int) -> None:
    """Select a route: on the board where the route is drawn clear of others, else from
    the Route list (which names routes as the app does, never by number)."""
    geometry = geometry_for(page, "europe")
    x, y = geometry.routes[route_id].anchor
    label = {rid: text for text, rid in route_choices(load_map("europe"))}[route_id]
    if geometry.hit(x, y) == ("route", route_id):
        page.mouse.click(*canvas_point(page, x, y))
    else:
        page.locator(".ttr-route-picker select").select_option(label=label)
    page.wait_for_function(
        "(label) => { const s = document.querySelector('.ttr-route-picker select');"
        " return s.options[s.selectedIndex].text.replace(/\\u00a0/g, ' ') === label; }",
        arg=label,
        timeout=WAIT_MS,
    )
    page.locator("button.ttr-claim:enabled").wait_for(timeout=WAIT_MS)


def test_a_whole_europe_game_clicked_through(page: Any) -> None:
    seed, steps = game_plan()
    start_game(page, "europe", seed=seed, players=PLAYERS, kinds=["human", "greedy"])
    game_map = load_map("europe")
    shot_tunnel = shot_station = False
    for number, (kind, detail) in enumerate(steps):
        bots_until_me(page)
        moves = total_moves(page)
        if kind == "keep":
            keep_tickets(page)
        elif kind == "blind":
            click_and_wait_moves(page, "button.ttr-draw-blind")
        elif kind == "claim":
            click_route(page, detail)
            route = game_map.route_by_id[detail]
            if route.tunnel:
                selected = page.locator(".ttr-selected").inner_text()
                assert "A tunnel: when you claim it, 3 cards are turned up" in selected
            click_and_answer(page, "button.ttr-claim")
        elif kind == "station":
            name = game_map.place_name(detail)
            cost = page.locator(".ttr-station-cost").inner_text()
            assert "Cost now: your first station costs 1 card of any colour" in cost
            page.locator(".ttr-station-city select").select_option(label=name)
            click_and_answer(page, "button.ttr-build-station")
            assert f"builds a train station in {name}" in status(page)
            if not shot_station:
                shot_station = True
                geometry = geometry_for(page, "europe")
                x, y = geometry.positions[detail]
                house = (x + HOUSE_OFFSET, y - HOUSE_OFFSET + 3)
                assert colour_share(page, *house, player_style(0).fill, radius=2) > 0.3
                shoot(page, "europe-station-built.png")
        elif kind == "tunnel":
            panel = page.locator(".ttr-tunnel")
            panel.wait_for(state="visible", timeout=WAIT_MS)
            text = panel.inner_text()
            assert "Cards turned up:" in text and "more card" in text, text
            if not shot_tunnel:
                shot_tunnel = True
                shoot(page, "europe-tunnel-question.png")
            click_and_wait_moves(page, "button.ttr-tunnel-do")
        elif kind == "borrow":
            panel = page.locator(".ttr-borrow-panel")
            panel.wait_for(state="visible", timeout=WAIT_MS)
            assert "the routes your stations borrow" in panel.inner_text()
            assert "Proposed: the choice that scores the most ticket points" in panel.inner_text()
            shoot(page, "europe-borrow-question.png")
            click_and_wait_moves(page, "button.ttr-borrow")
        assert total_moves(page) > moves, f"step {number} ({kind}) made no move"
    bots_until_me(page)
    result = page.locator(".ttr-result-box").inner_text()
    assert "Train stations" in result and "borrowed" in result
    assert "stations" in page.locator(".ttr-final-scores").inner_text()
    shoot(page, "europe-game-over.png")
    no_errors(page)


def test_the_europe_board_reads_at_a_laptops_and_a_phones_width(page: Any) -> None:
    start_game(page, "europe", seed=3, players=PLAYERS, kinds=["human", "greedy"])
    geometry = geometry_for(page, "europe")
    game_map = load_map("europe")
    tunnel = next(r for r in game_map.routes if r.tunnel and r.length >= 3)
    space = geometry.routes[tunnel.id].spaces[1]
    # The frame drawn round a tunnel space (dashed): sampled along the space's long side,
    # just outside it.
    out = space.half_width + 1.6
    along = [k * space.half_length / 3 for k in range(-3, 4)]
    points = [
        (space.cx + space.ux * a - space.uy * out, space.cy + space.uy * a + space.ux * out)
        for a in along
    ]
    shares = [colour_share(page, x, y, TUNNEL_INK, radius=1) for x, y in points]
    assert max(shares) > 0.3, shares
    at_width(page, 1366, 768)
    window_shot(page, "europe-1366x768.png")
    at_width(page, 390, 844)
    window_shot(page, "europe-390x844.png")
    page.locator("button.ttr-zoom-in").click()
    page.locator("button.ttr-zoom-in").click()
    page.wait_for_timeout(600)
    window_shot(page, "europe-390x844-zoomed.png")
    at_width(page, 1500, 1000)
    no_errors(page)
