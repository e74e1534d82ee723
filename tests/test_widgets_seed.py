"""Each new game in the app deals afresh, shows its seed, and replays when the seed is typed."""

from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")

from ttr_nb.widgets import GameApp  # noqa: E402


def deal(app: GameApp) -> tuple:
    state = app.game.state
    return tuple(state.face_up), tuple(tuple(p.tickets) for p in state.players)


def test_newcomers_get_different_deals_and_see_their_seed():
    apps = [GameApp(map_name="usa", players=3, auto_bots=False) for _ in range(3)]
    seeds = [app.game.seed for app in apps]
    assert len(set(seeds)) > 1, seeds  # (all three equal: one chance in 10**12)
    assert len({deal(app) for app in apps}) > 1
    for app in apps:
        assert app.setup.seed_box.value == app.game.seed
        assert f"seed {app.game.seed}" in app.status.value
    app = apps[0]
    app.start()  # New game again: another fresh seed
    assert app.game.seed == app.setup.seed_box.value
    assert f"seed {app.game.seed}" in app.status.value


def test_a_typed_seed_replays_the_same_deal():
    app = GameApp(map_name="usa", players=3, auto_bots=False)
    seed, dealt = app.game.seed, deal(app)
    app.start()
    assert app.setup.fresh_seed_box.value
    app.setup.seed_box.value = seed  # the learner types the seed shown before
    assert not app.setup.fresh_seed_box.value
    app.start()
    assert app.game.seed == seed and deal(app) == dealt
    app.start()  # and keeps it until "new seed each game" is ticked again
    assert app.game.seed == seed
    app.setup.fresh_seed_box.value = True
    app.start()
    app.start()
    assert app.setup.seed_box.value == app.game.seed


def test_a_seed_given_by_a_lesson_stays():
    app = GameApp(map_name="usa", players=3, seed=7, auto_bots=False)
    assert app.game.seed == 7 and not app.setup.fresh_seed_box.value
    app.start()
    assert app.game.seed == 7
