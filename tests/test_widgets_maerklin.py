"""Märklin in the app without a browser: the questions a Märklin player is asked in words
(where to place a passenger, which journey), the journey drawn before it is made, the cards
named and explained, the players' table, the end screen, bots."""

from __future__ import annotations

import html
import re

import pytest

pytest.importorskip("ipycanvas")

from ttr_nb import ClaimRoute, DrawTickets
from ttr_nb.game import Game
from ttr_nb.rules.maerklin import MovePassenger
from ttr_nb.teaching import maerklin as mk
from ttr_nb.teaching.scenarios import give_routes, route_id, set_hand
from ttr_nb.widgets import GameApp
from ttr_nb.widgets.maerklin_board import (
    maerklin_facts,
    paint_merchandise,
    paint_passengers,
    passenger_marks,
)
from ttr_nb.widgets.variants import ui_class
from ttr_nb.widgets.variants.maerklin import MaerklinUI
from ttr_nb.widgets.variants.ticket_mix import TicketMixUI


def text(value: str) -> str:
    """What a reader sees of an HTML fragment."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", value)).split())


def open_position(game: Game) -> GameApp:
    """The app showing a scripted position: seat 0 human, the others greedy bots."""
    app = GameApp(map_name="maerklin", players=len(game.state.players), seed=1, auto_bots=False)
    app.prompt.close()  # the new game's first question
    app.load_game(game, "a test position")
    return app


@pytest.fixture
def app() -> GameApp:
    return GameApp(map_name="maerklin", players=3, seed=7, auto_bots=False)


def test_maerklin_has_its_own_presentation_built_on_germanys(app: GameApp) -> None:
    assert ui_class("maerklin") is MaerklinUI and isinstance(app.ui, MaerklinUI)
    assert issubclass(MaerklinUI, TicketMixUI)  # Germany's short/long ticket question
    for painter in (paint_merchandise, paint_passengers, app.ui.journey):
        assert painter in app.board.piece_painters
    assert maerklin_facts in app.board.fact_providers
    key = text(app.key_html.value)
    assert "merchandise stack" in key and "passengers in their owner's colour" in key
    assert "stand-ins" in key


def test_map_picker_and_about_say_which_facts_are_stand_ins(app: GameApp) -> None:
    label = next(label for label, value in app.setup.map_picker.options if value == "maerklin")
    assert label == "Märklin (stand-ins)"  # short enough for a phone; in full under the list
    app.setup.map_picker.value = "maerklin"
    assert (
        "Märklin: stand-in board, city colours, tickets, countries (see About this map)."
        in text(app.setup.map_note.value)
    )
    about = text(app.about_html.value)
    assert "Stand-ins (placeholders for facts not found)" in about
    assert "The board is a stand-in" in about and "City colours are stand-ins" in about
    assert "tickets are stand-ins" in about


def test_setup_asks_for_the_ticket_mix_as_in_germany(app: GameApp) -> None:
    question = text(app.prompt.question.value)
    assert "Your first tickets: you draw 4 tickets and keep at least 2" in question
    assert "Left: 23 short, 23 long." in question
    labels = [label for label, _ in app.prompt.choices.options]
    app.prompt.choose(labels.index("3 short, 1 long"))
    assert app.game.history[-1].action == DrawTickets(long=1)


def test_a_claim_asks_where_to_place_a_passenger_in_words() -> None:
    game = mk.placing()  # Ben's passenger stands in Schwerin
    app = open_position(game)
    rid = route_id(game, "hamburg", "schwerin")
    app.board.select(rid)
    note = text(app.claim.selected_html.value)
    assert "lets you place one of your passengers on Hamburg" in note
    app.claim.claim_button.click()
    assert app.prompt.is_open
    question = text(app.prompt.question.value)
    assert question.startswith("Place a passenger on Hamburg, or none? You have 3 of 3 left")
    labels = [label for label, _ in app.prompt.choices.options]
    assert labels == ["Place a passenger on Hamburg (red stack: 4 on top)", "No passenger"]
    app.prompt.choose(0)
    action = app.game.history[-1].action
    assert isinstance(action, ClaimRoute) and action.pickups == (("hamburg", "passenger"),)
    assert app.view.state.extras["passengers"]["hamburg"] == 0
    assert "Hamburg (2 to place, 0 travelled)" in text(app.scores_html.value)


def test_no_passenger_is_a_choice_too() -> None:
    game = mk.placing()
    app = open_position(game)
    app.board.select(route_id(game, "hamburg", "schwerin"))
    app.claim.claim_button.click()
    app.prompt.choose(1)
    assert app.game.history[-1].action.pickups == ()
    assert "hamburg" not in app.view.state.extras["passengers"]


def kiel_denmark(game: Game) -> int:
    return next(r.id for r in game.map.routes if r.a == "kiel" and r.b.startswith("daenemark"))


def test_the_claim_panel_says_why_no_passenger_can_be_placed() -> None:
    game = mk.placing()
    app = open_position(game)
    app.board.select(kiel_denmark(game))
    assert "place one of your passengers on Kiel (you choose)" in text(
        app.claim.selected_html.value
    )
    set_hand(game, 0, green=2)
    mk.place_passenger(game, 2, "kiel")
    app.load_game(game, "Kiel taken")
    app.board.select(kiel_denmark(game))
    note = text(app.claim.selected_html.value)
    assert (
        "No passenger can be placed with it: Cleo's passenger stands in Kiel and Dänemark "
        "is a country." in note
    )
    # One way to claim it: no question is asked, the claim places nobody.
    app.claim.claim_button.click()
    assert not app.prompt.is_open
    assert app.game.history[-1].action.pickups == ()


def test_move_panel_lists_journeys_in_words_best_first() -> None:
    app = open_position(mk.journey(cards=1))
    move = app.ui.move
    assert move.widget.layout.display == ""
    assert [label for label, _ in move.passenger.options] == ["Magdeburg"]
    labels = [label for label, _ in move.picker.options]
    assert labels[0] == (  # the points first: a list too narrow for the path still shows them
        "15 points: Magdeburg → Berlin → Leipzig → Dresden → Chemnitz (7 + 4 + 2 + 2); "
        "1 Passenger card for Ben's Chemnitz–Dresden"
    )
    assert "7 points: Magdeburg → Berlin" in labels
    assert text(move.chosen.value) == f"Drawn on the board: {labels[0]}"  # in full, wrapped
    # Every journey offered is a legal action, and every listed journey is offered.
    legal = {a for a in app.shown.legal if isinstance(a, MovePassenger)}
    assert {a for _, a in move.picker.options} == legal
    # The generic "Other move" list leaves them to the panel.
    assert not any(isinstance(a, MovePassenger) for _, a in app.cards.other_moves.options)
    info = text(move.info.value)
    assert "Standing: Magdeburg" in info and "1 Passenger card in hand" in info


def test_choosing_a_journey_shows_it_on_the_board_before_the_move() -> None:
    app = open_position(mk.journey(cards=1))
    move, painter = app.ui.move, app.ui.journey
    # Where the passenger can go is ringed before any journey is chosen.
    assert painter.reach == {"berlin", "leipzig", "dresden", "chemnitz"}
    choice = next(a for label, a in move.picker.options if label.endswith(": Magdeburg → Berlin"))
    move.picker.value = choice
    assert painter.plan is not None and painter.plan.cities == ("magdeburg", "berlin")
    assert painter.plan.tokens == (("berlin", 7),)
    assert painter.path == choice.path
    assert len(app.game.history) == 0 or app.game.history[-1].action != choice  # not moved yet


def test_moving_a_passenger_scores_its_tokens_and_takes_it_off() -> None:
    app = open_position(mk.journey(cards=1))
    move = app.ui.move
    best = move.picker.options[0][1]
    before = app.view.scores()[0]
    move.picker.value = best
    move.button.click()
    assert app.game.history[-1].action == best
    after = app.view.scores()[0]
    assert after["merchandise"] == before["merchandise"] + 15
    state = app.view.state
    assert "magdeburg" not in state.extras["passengers"]
    assert state.extras["merchandise"]["berlin"] == [6, 5, 4]
    assert state.players[0].hand["passenger"] == 0  # spent on Ben's route
    assert app.ui.journey.plan is None and not app.ui.journey.reach
    table = text(app.scores_html.value)
    assert "Berlin 7 + Leipzig 4 + Dresden 2 + Chemnitz 2 = 15" in table
    assert "Ada moves the passenger in Magdeburg" in text(app.status.value)


def test_clicking_a_passenger_disc_on_the_board_picks_that_passenger() -> None:
    game = mk.journey(cards=1)
    mk.place_passenger(game, 0, "dresden")  # a second passenger of Ada's
    app = open_position(game)
    move, board = app.ui.move, app.board
    assert sorted(value for _, value in move.passenger.options) == ["dresden", "magdeburg"]
    move.passenger.value = "magdeburg"

    def click(place: str) -> None:
        board.pointer(*board.view.to_canvas(*board.geometry.positions[place]), click=True)

    # The disc stands beside its city: a click on the disc itself picks it.
    disc = next(m for m in passenger_marks(app.view, board.geometry) if m.place == "dresden")
    assert board.pointer(*board.view.to_canvas(disc.x, disc.y), click=True) == ("city", "dresden")
    assert move.passenger.value == "dresden"
    assert "Ada's passenger stands here" in text(board.hover_label.value)
    click("magdeburg")
    assert move.passenger.value == "magdeburg"
    click("dresden")  # the city itself works as well
    assert move.passenger.value == "dresden"
    starts = {a.start for _, a in move.picker.options}
    assert starts == {"dresden"}  # the journeys now start from the clicked disc
    assert "leipzig" in app.ui.journey.reach
    click("chemnitz")  # Ben's passenger: not Ada's to move
    assert move.passenger.value == "dresden"
    click("magdeburg")
    assert move.passenger.value == "magdeburg"
    assert "click its disc on the board" in text(move.info.value)


def test_more_passenger_cards_are_asked_for_on_demand() -> None:
    game = mk.journey(cards=2)
    give_routes(game, 1, [route_id(game, "chemnitz", "erfurt")])
    app = open_position(game)
    move = app.ui.move
    assert move.cards.layout.display == ""  # more cards held than the rules list
    assert move.cards.value == 1
    two = "2 Passenger cards for Ben's Chemnitz–Dresden, Ben's Chemnitz–Erfurt"
    assert not any(two in label for label, _ in move.picker.options)
    move.cards.value = 2
    labels = [label for label, _ in move.picker.options]
    assert any(labels_ends(label, two) for label in labels)
    choice = next(a for label, a in move.picker.options if labels_ends(label, two))
    move.picker.value = choice
    move.button.click()
    assert app.game.history[-1].action == choice
    assert app.view.state.players[0].hand["passenger"] == 0


def labels_ends(label: str, tail: str) -> bool:
    return label.endswith(tail)


def test_the_hand_names_and_explains_loco_plus4_and_passenger_cards() -> None:
    game = mk.journey(cards=2)
    set_hand(game, 0, passenger=2, locomotive4=1, red=1)
    app = open_position(game)
    hand = text(app.hand.hand_html.value)
    assert "L Locomotive +4 × 1" in hand and "Ps Passenger card × 2" in hand
    assert "only on routes of 4 or more spaces" in hand
    assert "spends one to travel over one opponent's route" in hand
    names = {app.ui.card_name(c) for c in app.map.card_types}
    assert {"Locomotive", "Locomotive +4", "Passenger card"} <= names


def test_a_plus4_payment_is_named_in_the_claim_list() -> None:
    game = mk.plus4_claims()
    app = open_position(game)
    app.board.select(route_id(game, "berlin", "leipzig"))  # 4 orange spaces
    labels = [label for label, _ in app.claim.payment_picker.options]
    assert any("L Locomotive +4" in label for label in labels), labels


def test_end_screen_shows_merchandise_and_most_tickets() -> None:
    app = open_position(mk.final_scoring())
    result = text(app.result_html.value)
    assert "merchandise" in result and "most tickets bonus" in result
    assert "Merchandise" in result and "Most completed tickets" in result
    assert "completed the most (1 ticket): 10 points each" in result


def test_bots_play_maerklin_in_the_app() -> None:
    app = GameApp(
        map_name="maerklin", players=3, seats=["random", "greedy", "greedy"], auto_bots=False
    )
    app.play_to_end()
    view = app.view
    assert view.is_over
    assert any(isinstance(m.action, MovePassenger) for m in app.game.history)
    assert "Merchandise" in text(app.result_html.value)
    assert app.ui.move.widget.layout.display == "none"  # nothing to move once over
