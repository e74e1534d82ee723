"""The app on the World map without a browser: the panels driven like a learner would,
checked through widget values and the engine's state."""

from __future__ import annotations

import html
import re

import ipywidgets as widgets
import pytest

pytest.importorskip("ipycanvas")

from app_steps import keep_offered
from positions import give_routes, route_between, set_face_up, set_hand

from ttr_nb import ClaimRoute, DrawFaceUp
from ttr_nb.rules.world import BuildHarbor, ChooseSupply, ExchangePieces
from ttr_nb.widgets import GameApp
from ttr_nb.widgets.variants import CardRow, VariantUI, ui_class
from ttr_nb.widgets.variants.world import WorldUI


def world_app(seats: list[str] | None = None, players: int = 3, seed: int = 7) -> GameApp:
    return GameApp(map_name="world", players=players, seats=seats, seed=seed, auto_bots=False)


def through_tickets(app: GameApp) -> None:
    """Every human keeps all the starting tickets (bots keep theirs in between)."""
    while app.view.state.pending == "keep_tickets":
        if app.human_to_move():
            keep_offered(app)
        else:
            app.bot_step()


def choose(app: GameApp, trains: int) -> None:
    supply = app.ui.supply
    supply.picker.value = next(v for _, v in supply.picker.options if v.trains == trains)
    supply.button.click()


def to_play(app: GameApp, trains: int = 20) -> None:
    through_tickets(app)
    choose(app, trains)
    app.bots_until_human()
    assert app.view.state.phase == "play" and app.human_to_move()


def texts(widget: widgets.Widget, skip: tuple[widgets.Widget, ...] = ()) -> str:
    """Everything a widget tree shows as text (HTML, labels, options, tooltips), but for
    the widgets in ``skip``."""
    if any(widget is w for w in skip):
        return ""
    out = []
    for attr in ("value", "description", "tooltip", "placeholder"):
        value = getattr(widget, attr, None)
        if isinstance(value, str):
            out.append(html.unescape(re.sub("<[^>]+>", " ", value)))
    for option in getattr(widget, "options", ()) or ():
        out.append(str(option[0] if isinstance(option, tuple) else option))
    for child in getattr(widget, "children", ()) or ():
        out.append(texts(child, skip))
    return "\n".join(out)


@pytest.fixture
def app() -> GameApp:
    return world_app()


# ------------------------------------------------------------------- registry
def test_the_world_rules_have_their_own_presentation(app: GameApp) -> None:
    assert ui_class("world") is WorldUI and isinstance(app.ui, WorldUI)
    assert ui_class("usa") is VariantUI


def test_usa_keeps_one_untitled_row_and_its_deck_row() -> None:
    usa = GameApp(map_name="usa", players=2, seed=3, auto_bots=False)
    assert usa.ui.card_rows(usa.view) == [CardRow("", (0, 1, 2, 3, 4))]
    (row,) = usa.cards.face_up_rows.children
    assert [b.description for b in row.children] == [b.description for b in usa.cards.face_up]
    assert list(usa.cards.deck_row.children) == [usa.cards.deck_buttons["train"]]
    assert usa.variant_top_box.children == ()


def test_a_usa_game_after_a_world_game_has_one_deck_again(app: GameApp) -> None:
    to_play(app)
    assert app.variant_box.children == (app.ui.actions_panel,)
    app.setup.map_picker.value = "usa"
    app.start()
    assert type(app.ui) is VariantUI
    assert app.variant_box.children == () and app.variant_top_box.children == ()
    deck_row = app.cards.deck_row.children
    assert [b.description for b in deck_row] == ["Draw from the deck"]
    # the trails and the coach's plan; no harbor or tour painter left over
    assert app.board.piece_painters == [app._paint_trails, app.coach.paint]


# ----------------------------------------------------------------- the supply
def test_supply_choice_comes_after_the_tickets_above_the_cards(app: GameApp) -> None:
    through_tickets(app)
    supply = app.ui.supply
    assert app.variant_top_box.children == (supply.widget,)
    assert supply.widget.layout.display == "" and not supply.button.disabled
    values = [v for _, v in supply.picker.options]
    assert values == [ChooseSupply(t, 60 - t) for t in range(10, 26)]
    assert supply.picker.value == ChooseSupply(20, 40)  # in proportion to 25 and 50
    assert "choose a secret supply of 60 pieces" in app.status.value
    assert "choose a secret supply" in app.turn.widget.value
    # The generic list offers no supply (the panel does) and the cards are off.
    assert app.cards.other_box.layout.display == "none"
    assert all(b.disabled for b in app.cards.face_up)
    choose(app, 15)
    assert app.view.state.extras["supply_choices"][0] == {"train": 15, "ship": 45}
    assert "Ann chooses a secret supply of pieces" in app.status.value
    app.bots_until_human()
    assert app.view.state.players[0].pieces == {"train": 15, "ship": 45}
    assert supply.widget.layout.display == "none"
    assert "15 trains<br>45 ships" in app.scores_html.value  # revealed together
    assert "In your box: <b>10 trains, 5 ships</b>" in app.ui.exchange.info.value


def test_hot_seat_humans_never_see_each_others_supply() -> None:
    app = world_app(seats=["human", "human", "greedy"])
    through_tickets(app)
    supply = app.ui.supply
    assert app.view.current_player == 0
    choose(app, 13)
    assert app.view.current_player == 1 and app.human_to_move()
    # Bruno's panel starts from the neutral proposal, not from Ann's choice ...
    assert supply.picker.value == ChooseSupply(20, 40)
    # ... and nothing on the page (but the list of every possible supply) tells Ann's
    # numbers, only that she has chosen.
    shown = texts(app.widget, skip=(supply.picker,))
    assert "13 trains" not in shown and "47 ships" not in shown
    first, second = (p.name for p in app.view.state.players[:2])
    assert f"{first}: chosen" in shown and f"{second}: choosing now" in shown
    assert "25 trains<br>50 ships" in app.scores_html.value  # nobody's supply yet
    choose(app, 24)
    app.bot_step()
    assert app.view.state.phase == "play"
    assert [p.pieces["train"] for p in app.view.state.players[:2]] == [13, 24]


# ------------------------------------------------------------- cards, refills
def test_face_up_cards_in_a_train_row_and_a_ship_row(app: GameApp) -> None:
    to_play(app)
    view = app.view
    rows = app.ui.card_rows(view)
    assert [(r.title, r.deck) for r in rows] == [("Train cards", "train"), ("Ship cards", "ship")]
    for row in rows:
        for slot in row.slots:
            assert view.map.card_by_id[view.state.face_up[slot]].deck == row.deck
    boxes = [c for c in app.cards.face_up_rows.children if isinstance(c, widgets.HBox)]
    for row, box in zip(rows, boxes, strict=True):
        assert box.children[-1] is app.cards.deck_buttons[row.deck]  # the deck ends its row
        assert [b for b in box.children[:-1]] == [app.cards.face_up[s] for s in row.slots]
    assert app.cards.deck_row.children == ()
    assert "Train deck:" in app.cards.supply_html.value
    assert "Ship deck:" in app.cards.supply_html.value


def test_taking_a_face_up_card_asks_which_deck_refills_it(app: GameApp) -> None:
    to_play(app)
    set_face_up(
        app.game,
        ["train-red", "train-green", "train-black", "ship-red", "ship2-white", "ship2-green"],
    )
    app.refresh()
    moves = len(app.game.history)
    app.cards.face_up[1].click()  # the green Train card
    prompt = app.prompt
    assert prompt.is_open and len(app.game.history) == moves  # nothing happens before the answer
    assert "green Train card" in prompt.question.value and "refills" in prompt.question.value
    labels = [label for label, _ in prompt.choices.options]
    assert labels[0].startswith("Refill its place from the train deck (")
    assert labels[1].startswith("Refill its place from the ship deck (")
    prompt.choose(1)
    assert app.game.history[-1].action == DrawFaceUp(1, "ship")
    refilled = app.view.state.face_up[1]
    assert app.view.map.card_by_id[refilled].deck == "ship"
    ship_row = app.ui.card_rows(app.view)[1]
    assert 1 in ship_row.slots and len(ship_row.slots) == 4
    assert app.view.state.players[0].hand["train-green"] >= 1


def test_second_card_hint_names_the_wild(app: GameApp) -> None:
    to_play(app)
    set_face_up(
        app.game, ["train-red", "wild", "train-black", "ship-red", "ship2-white", "ship2-green"]
    )
    app.refresh()
    app.cards.face_up[0].click()
    app.prompt.choose(0)
    assert app.view.state.pending == "second_card"
    assert "but a Wild" in app.cards.hint_html.value
    assert app.cards.face_up[1].disabled
    assert app.cards.face_up[1].tooltip == "A face-up Wild cannot be your second card"


# ---------------------------------------------------------------------- words
def test_card_names_and_payments_read_well(app: GameApp) -> None:
    to_play(app)
    ui, view = app.ui, app.view
    names = {c.id: ui.card_name(c) for c in view.map.card_types}
    assert names["ship2-red"] == "red Double-Ship"
    assert names["ship-red"] == "red Ship ⚓"
    assert names["train-red-harbor"] == "red Train ⚓" and names["train-red"] == "red Train"
    assert names["wild"] == "Wild"
    # The hand: one line per deck, only the kinds held (25 kinds would bury them).
    set_hand(app.game, 0, **{"ship2-red": 2, "train-black": 1})
    app.refresh()
    hand = app.hand.hand_html.value
    assert "Train cards (1):" in hand and "Ship cards (2):" in hand
    assert "red Double-Ship × <b>2</b>" in hand and "black Train × <b>1</b>" in hand
    assert "white Train" not in hand
    # A Double-Ship paying two spaces of a 3-space ship route, and an overpayment by one.
    route = route_between(app.game, "honolulu", "los-angeles")  # 3 yellow ship spaces
    set_hand(app.game, 0, **{"ship2-yellow": 2, "ship-yellow": 1, "wild": 1})
    app.refresh()
    app.board.select(route.id)
    labels = [label for label, _ in app.claim.payment_picker.options]
    assert "1 × Y yellow Ship ⚓ + 1 × Y yellow Double-Ship" in labels
    assert "2 × Y yellow Double-Ship (covers 4 spaces: one more than its 3)" in labels
    assert any(label.endswith("+ 1 × L Wild") for label in labels)


def test_pair_route_payments_say_two_cards_per_space(app: GameApp) -> None:
    to_play(app)
    route = route_between(app.game, "anchorage", "vancouver")  # a gray pair route of 2
    assert route.pair and route.wraps
    set_hand(app.game, 0, **{"train-red": 2, "train-green": 2})
    app.refresh()
    app.board.select(route.id)
    (label,) = [label for label, _ in app.claim.payment_picker.options]
    assert label == "2 × G green Train + 2 × R red Train (2 Train cards of one colour per space)"
    app.claim.claim_button.click()
    assert app.view.state.owner[route.id] == 0
    assert isinstance(app.game.history[-1].action, ClaimRoute)


# -------------------------------------------------------------------- harbors
def test_harbor_panel_says_why_not_then_builds_after_choosing_the_cards(app: GameApp) -> None:
    to_play(app)
    harbor = app.ui.harbor
    assert harbor.button.disabled
    assert "claim a route into a port city" in harbor.why_html.value
    assert "2 Train + 2 Ship cards of one colour" in harbor.info.value
    assert "20 / 30 / 40" in harbor.info.value
    give_routes(app.game, 0, [route_between(app.game, "caracas", "lima", "white").id])
    set_hand(app.game, 0, **{"train-red-harbor": 2, "ship-red": 1, "wild": 1})
    app.refresh()
    cities = [city for _, city in harbor.picker.options]
    assert "lima" in cities and not harbor.button.disabled
    harbor.picker.value = "lima"
    harbor.button.click()
    if app.prompt.is_open:  # several ways to pay: the app asks with the variant's words
        assert "Which cards pay for your harbor in Lima" in app.prompt.question.value
        labels = [label for label, _ in app.prompt.choices.options]
        assert all(label.startswith("Pay ") for label in labels)
        app.prompt.choose(0)
    action = app.game.history[-1].action
    assert isinstance(action, BuildHarbor) and action.city == "lima"
    assert app.view.state.extras["harbors"]["lima"] == 0
    assert "Lima" in harbor.info.value and "<b>2</b> of 3 left" in harbor.info.value
    assert "harbor of Ann" in app.board.describe("city", "lima")
    assert "harbors:</span> Lima (2 left to build)" in app.scores_html.value


def test_a_refused_harbor_names_the_rule_and_changes_nothing(app: GameApp) -> None:
    to_play(app)
    before = app.game.snapshot()
    assert not app.act(BuildHarbor("beijing", (("wild", 4),)), app.ui.harbor.note)
    assert "not a port city" in app.ui.harbor.note.text
    assert app.game.snapshot() == before


# ------------------------------------------------------------------ exchanges
def test_exchange_shows_its_cost_and_takes_the_turn(app: GameApp) -> None:
    to_play(app, trains=20)
    exchange = app.ui.exchange
    assert "box: <b>5 trains, 10 ships</b>" in exchange.info.value
    labels = [label for label, _ in exchange.picker.options]
    assert "Exchange 1 ship for 1 train from the box (−1 point)" in labels
    assert "Exchange 3 trains for 3 ships from the box (−3 points)" in labels
    exchange.picker.value = ExchangePieces("ship", 3)
    assert exchange.button.description == "Exchange (−3 points)"
    exchange.button.click()
    player = app.view.state.players[0]
    assert player.pieces == {"train": 17, "ship": 43}
    assert player.extras["box"] == {"train": 8, "ship": 7}
    assert app.view.scores()[0]["exchange"] == -3
    assert app.view.current_player != 0  # the exchange was the whole turn
    assert "exchanged so far: 3 (−3)" in exchange.info.value


# ---------------------------------------------------------------------- tours
def test_tours_read_as_ordered_chains_and_show_on_the_board(app: GameApp) -> None:
    to_play(app)
    tour = next(t for t in app.view.state.players[0].tickets if app.map.ticket_by_id[t].tour_values)
    ticket = app.map.ticket_by_id[tour]
    names = [app.map.place_name(c) for c in ticket.cities]
    chain = " → ".join(f"{i}. {n}" for i, n in enumerate(names, start=1))
    tickets = html.unescape(app.hand.tickets_html.value)
    assert f"Tour {chain} ({ticket.tour_values['in_order']} in this order" in tickets
    assert f"not joined yet: −{ticket.tour_values['penalty']}" in tickets
    picker = app.ui.tours.picker
    assert (" → ".join(names), tour) in picker.options
    picker.value = tour
    assert app.ui.tours.chain.cities == ticket.cities
    assert app.ui.tours.chain in app.board.piece_painters
    picker.value = -1
    assert app.ui.tours.chain.cities == ()


# ----------------------------------------------------------------- the end
def test_end_screen_scores_harbors_tours_and_exchanges(app: GameApp) -> None:
    to_play(app)
    app.ui.exchange.picker.value = ExchangePieces("train", 1)
    app.ui.exchange.button.click()
    app.play_to_end()
    view = app.view
    assert view.is_over
    result = html.unescape(app.result_html.value)
    assert "<h4>Harbors</h4>" in result and "20 / 30 / 40 points" in result
    assert "<h4>Exchanges</h4>" in result and "1 piece exchanged: −1" in result
    for seat, player in enumerate(view.state.players):
        assert player.name in result
        left = player.extras["harbors_left"]
        if left:
            assert f"{left} not built: −{4 * left}" in result
        for city, named, points in view.rules.harbor_scores(view.state, seat):
            worth = f"+{points}" if points else "0"
            assert f"{view.map.place_name(city)} ({named} completed" in result
            assert f"name it): {worth}" in result
    if any(view.map.ticket_by_id[t].tour_values for p in view.state.players for t in p.tickets):
        assert "<h4>Tours</h4>" in result
    assert "harbors" in app.result_html.value and "exchange" in app.result_html.value
    assert "harbors:</span>" in app.scores_html.value
    assert app.claim.widget.layout.display == "none"
