"""The app on the Europe map without a browser: the panels driven like a learner would,
checked through widget values and the engine's state."""

from __future__ import annotations

import html
import re

import ipywidgets as widgets
import pytest

pytest.importorskip("ipycanvas")

from app_steps import keep_offered
from positions import give_routes, route_between, set_hand, stack_deck

from ttr_nb import ClaimRoute, DrawBlind
from ttr_nb.rules.europe import BORROW, TUNNEL, BorrowRoutes, BuildStation, GiveUpTunnel
from ttr_nb.teaching.scenarios import set_tickets, set_trains
from ttr_nb.widgets import GameApp
from ttr_nb.widgets.board import BoardPieces, BoardWidget
from ttr_nb.widgets.board_svg import board_svg
from ttr_nb.widgets.europe_board import ferry_marks, install, station_marks, tunnel_frames
from ttr_nb.widgets.variants import ui_class
from ttr_nb.widgets.variants.europe import EuropeUI

LOCO = "locomotive"


def texts(widget: widgets.Widget) -> str:
    """Everything a widget tree shows as text (HTML, labels, options, tooltips)."""
    out = []
    for attr in ("value", "description", "tooltip"):
        value = getattr(widget, attr, None)
        if isinstance(value, str):
            out.append(html.unescape(re.sub("<[^>]+>", " ", value)))
    for option in getattr(widget, "options", ()) or ():
        out.append(str(option[0] if isinstance(option, tuple) else option))
    for child in getattr(widget, "children", ()) or ():
        out.append(texts(child))
    return re.sub(r"\s+", " ", "\n".join(out))


def europe_app(players: int = 2, seed: int = 4) -> GameApp:
    app = GameApp(map_name="europe", players=players, seed=seed, auto_bots=False)
    while app.view.state.pending == "keep_tickets":
        if app.human_to_move():
            keep_offered(app)
        else:
            app.bot_step()
    app.bots_until_human()
    assert app.view.state.phase == "play" and app.human_to_move()
    return app


def rid(app: GameApp, a: str, b: str, colour: str | None = None) -> int:
    return route_between(app.game, a, b, colour).id


@pytest.fixture
def app() -> GameApp:
    return europe_app()


def test_the_europe_rules_have_their_own_presentation(app: GameApp) -> None:
    assert ui_class("europe") is EuropeUI and isinstance(app.ui, EuropeUI)
    assert "Tunnels have a dark dashed frame" in app.key_html.value


def test_the_station_panel_shows_the_cost_and_builds_where_a_city_is_clicked(app: GameApp):
    game = app.game
    seat = game.current_player
    set_hand(game, seat, red=2, blue=1)
    app.refresh()
    panel = app.ui.stations
    assert "Cost now: your first station costs 1 card of any colour" in texts(panel.widget)
    app.ui.city_clicked("wien")
    assert panel.picker.value == "wien"
    panel.button.click()
    # Two ways to pay: the app asks which cards.
    assert app.prompt.is_open and "station in Wien" in app.prompt.question.value
    assert len(app.prompt.choices.options) == 2
    app.prompt.choose(0)
    assert game.state.extras["stations"] == {"wien": seat}
    app.bots_until_human()
    set_hand(game, seat, red=2, blue=1)
    app.refresh()
    assert "second station costs 2 cards of one colour" in texts(panel.widget)
    assert "Wien" not in [label for label, _ in panel.picker.options]


def test_a_tunnel_shows_the_cards_turned_up_and_asks(app: GameApp):
    game = app.game
    seat = game.current_player
    tunnel = rid(app, "paris", "zuerich")
    set_hand(game, seat, red=4)
    app.board.select(tunnel)
    note = app.claim.selected_html.value
    assert "A tunnel: when you claim it, 3 cards are turned up" in html.unescape(note)
    assert "expect about" in note
    stack_deck(game, ["red", LOCO, "blue"])
    app.refresh()
    app.board.select(tunnel)
    app.claim.claim_button.click()
    assert game.state.pending == TUNNEL
    shown = texts(app.ui.tunnel.widget)
    assert "Cards turned up:" in shown and "R red" in shown and "L locomotive" in shown
    assert "2 more cards" in shown
    assert app.ui.tunnel.widget.layout.display == ""
    # One red spare: it cannot pay 2 more; only giving up is offered.
    assert [v for _, v in app.ui.tunnel.picker.options] == [GiveUpTunnel()]
    assert "pay the tunnel's extra cards" in html.unescape(app.status.value)
    app.ui.tunnel.button.click()
    assert game.state.pending is None and tunnel not in game.state.owner
    assert "Given up" in texts(app.ui.stations.widget) or game.current_player != seat


def test_the_end_asks_which_routes_the_stations_borrow(app: GameApp, monkeypatch):
    # The position below is staged by hand: the coach's review, which replays the moves,
    # has nothing to say about it.
    monkeypatch.setattr(app.coach, "render", lambda shown: None)
    game = app.game
    human = game.current_player
    other = 1 - human
    give_routes(game, human, [rid(app, "muenchen", "zuerich"), rid(app, "paris", "zuerich")])
    useful = rid(app, "muenchen", "wien")
    give_routes(game, other, [rid(app, "muenchen", "frankfurt"), useful])
    paris_wien = next(t.id for t in game.map.tickets if t.cities == ("paris", "wien"))
    set_tickets(game, human, [paris_wien])
    game.state.extras["stations"] = {"muenchen": human}
    game.state.players[human].extras["stations_left"] = 2
    set_trains(game, human, 0)
    while game.state.pending != BORROW:
        if app.human_to_move():
            app.act(DrawBlind())
        else:
            app.bot_step()
    app.refresh()
    panel = app.ui.borrow
    assert panel.widget.layout.display == ""
    shown = texts(panel.widget)
    assert "Proposed: the choice that scores the most ticket points (+8" in shown
    (box,) = panel.pickers.children
    assert box.value == useful  # the proposal completes Paris–Wien
    assert panel.chosen() == BorrowRoutes((("muenchen", useful),))
    panel.button.click()
    assert game.is_over
    result = texts(widgets.HTML(app.result_html.value))
    assert "München borrowed München–Wien" in result
    assert "completed thanks to them: Paris → Wien" in result
    assert "+8" in result  # two stations not built


def test_the_board_draws_tunnels_ferries_and_stations(app: GameApp):
    game = app.game
    board = BoardWidget(game.map)
    install(board)
    game.state.extras["stations"] = {"wien": 0, "roma": 1}
    ferry = rid(app, "amsterdam", "london")
    give_routes(game, 1, [ferry])
    board.set_pieces(BoardPieces(owner=dict(game.state.owner), player_names=game.names, game=game))
    geometry = board.geometry
    assert len(tunnel_frames(game.map, geometry)) == 55  # every tunnel space
    # 17 locomotive symbols, less the 2 of the claimed Amsterdam–London ferry.
    assert len(ferry_marks(game.map, geometry, game.state.owner)) == 15
    assert [m.city for m in station_marks(geometry, game)] == ["roma", "wien"]
    svg = board_svg(board)
    assert svg.count('stroke-dasharray="3 2"') >= 1
    assert ">L<" in svg
    facts = board.describe("route", rid(app, "paris", "zuerich"))
    assert "tunnel: claiming it turns up 3 cards" in facts
    assert f"station of {game.names[0]} (seat 1)" in board.describe("city", "wien")


def test_a_station_build_refused_shows_the_rule_beside_the_panel(app: GameApp):
    game = app.game
    seat = game.current_player
    set_hand(game, seat, red=1)
    game.state.extras["stations"] = {"wien": 1 - seat}
    app.refresh()
    assert not app.act(BuildStation("wien", (("red", 1),)), app.ui.stations.note)
    assert "Wien already has" in app.ui.stations.note.text
    assert game.state.extras["stations"] == {"wien": 1 - seat}


def test_claiming_a_ferry_names_its_locomotives(app: GameApp):
    game = app.game
    seat = game.current_player
    set_hand(game, seat, red=3)
    ferry = rid(app, "athina", "brindisi")
    app.board.select(ferry)
    selected = html.unescape(app.claim.selected_html.value)
    assert "A ferry: 1 locomotive must be among the cards you pay." in selected
    assert "at least 1 of them locomotive" in selected
    set_hand(game, seat, red=3, locomotive=1)
    app.refresh()
    app.board.select(ferry)
    assert app.claim.payment_picker.options
    app.claim.claim_button.click()
    assert game.state.owner[ferry] == seat
    assert ClaimRoute(ferry, (("locomotive", 1), ("red", 3))) == game.history[-1].action


# ------------------------------------------------------------ shared table
def test_a_tunnel_at_a_shared_table_is_shown_on_both_pages(tmp_path):
    from test_widgets_tables import join, tick

    from ttr_nb.tables import TableStore

    store = TableStore(f"sqlite:///{tmp_path / 'tables.sqlite'}")

    from tables_fixtures import pages

    def new_page() -> GameApp:
        return GameApp(
            map_name="usa", players=2, seed=7, auto_bots=False, service_factory=pages(store)
        )

    # Seed 1: Ann can try the Angora–Constantinople tunnel at once, and it asks for more.
    made = store.create_table("europe", ["human", "human"], None, session="t", seed=1)
    ann, ben = new_page(), new_page()
    join(ann, made.code, "Ann", 0)
    join(ben, made.code, "Ben", 1)
    for who in (ann, ben):
        tick(who)
        keep_offered(who)
    tick(ann)
    game = ann.game
    assert ann.human_to_move() and isinstance(ann.ui, EuropeUI)
    claim = next(
        a
        for a in game.legal_actions()
        if isinstance(a, ClaimRoute) and game.map.route_by_id[a.route].tunnel
    )
    assert ann.act(claim)
    tick(ben)
    assert ben.game.state.pending == TUNNEL
    record = ben.game.state.extras["tunnel"]
    assert record["route"] == claim.route
    shown = texts(ben.ui.tunnel.widget)
    assert "Cards turned up:" in shown and "Angora–Constantinople" in shown
    assert ben.ui.tunnel.button.disabled  # Ann decides, on her own page
    assert not ann.ui.tunnel.button.disabled
    ann.ui.tunnel.picker.value = GiveUpTunnel()
    ann.ui.tunnel.button.click()
    tick(ben)
    assert ben.game.state.pending is None
    assert ben.game.state.extras["last_tunnel"]["outcome"] == "given up"
    assert "gives up the tunnel Angora–Constantinople" in ben.game.log[-1]
