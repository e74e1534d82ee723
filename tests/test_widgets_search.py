"""The search bot in the app: offered as a seat, and "thinking…" shown while it searches."""

from __future__ import annotations

import pytest

pytest.importorskip("ipycanvas")

from app_steps import keep_offered

from ttr_nb.bots.search import SearchBot
from ttr_nb.widgets import GameApp
from ttr_nb.widgets.setup import SEAT_KINDS


def test_the_search_bot_is_a_seat_choice_and_says_it_is_thinking():
    assert "search" in [kind for _, kind in SEAT_KINDS]
    app = GameApp(map_name="usa", players=2, seats=["human", "search"], seed=3, auto_bots=False)
    bot = app.bots[1]
    assert isinstance(bot, SearchBot) and bot.budget == 1.0
    bot.budget = 0.05  # keep the test quick
    shown: list[str] = []
    app.status.observe(lambda change: shown.append(change["new"]), names="value")
    keep_offered(app)
    moves = len(app.game.history)
    assert app.bot_step()
    assert len(app.game.history) == moves + 1
    name = app.game.names[1]
    assert any(f"{name} is thinking… (up to 0.05 s)" in value for value in shown)
    assert "thinking" not in app.status.value  # the move is shown once it is made
    assert "search bot" in app.scores_html.value
