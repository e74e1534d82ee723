"""The coach panel in the app, without a browser: open it, read its hints, see why a bot
moved, the creator's switch, and the review on the end screen."""

from __future__ import annotations

import pytest

pytest.importorskip("ipycanvas")

from app_steps import keep_offered

from ttr_nb.widgets import GameApp


def _app(**options) -> GameApp:
    app = GameApp(map_name="usa", players=3, seed=7, auto_bots=False, **options)
    keep_offered(app)  # the human keeps every starting ticket
    return app


def test_the_coach_opens_for_the_seat_shown_with_plan_and_lessons() -> None:
    app = _app()
    assert app.coach.body.value == ""  # closed until asked for
    app.coach.toggle.value = True
    assert app.coach.seat.options == (("1 Ann", 0),)  # only the human's own seat
    body = app.coach.body.value
    assert "My plan" in body and "Weak spots" in body
    assert "Graphs 5 · Several tickets at once" in body  # the lesson, by its title
    assert ".ipynb" not in body  # never a bare file name
    plan = app.coach.coaching(app.view).plan
    assert plan.reachable and set(plan.routes) <= {r.id for r in app.map.routes}


def test_why_a_bot_moved_is_told_after_its_move() -> None:
    app = _app()
    app.coach.toggle.value = True
    app.bot_step()  # seat 2's greedy bot keeps its tickets
    assert "Why that move" in app.coach.body.value
    assert "kept the tickets" in app.coach.body.value
    assert "Bruno keeps" in app.coach.body.value


def test_the_creator_can_switch_the_coach_off() -> None:
    app = GameApp(map_name="usa", players=2, seed=7, auto_bots=False)
    app.setup.coach_box.value = False
    app.start()
    assert app.coach.toggle.disabled
    assert "switched off" in app.coach.body.value


def test_a_table_of_bots_lets_any_seat_be_coached_and_the_end_shows_the_review() -> None:
    app = GameApp(map_name="usa", players=2, seats=["greedy", "greedy"], seed=3, auto_bots=False)
    app.coach.toggle.value = True
    assert [seat for _, seat in app.coach.seat.options] == [0, 1]
    app.play_to_end()
    assert app.view.is_over
    review = app.coach.review_widget.value
    assert "End-of-game review" in review and "cheapest network" in review
