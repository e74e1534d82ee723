"""Germany in the app without a browser: the passengers, the questions a Germany player is
asked in the variant's words, the players' table and the end screen."""

from __future__ import annotations

import html
import re

import pytest

pytest.importorskip("ipycanvas")

from app_steps import keep_offered
from positions import set_hand

from ttr_nb import ClaimRoute, DrawBlind, DrawTickets, KeepTickets
from ttr_nb.game import Game
from ttr_nb.teaching import germany as gm
from ttr_nb.teaching.scenarios import route_id
from ttr_nb.widgets import GameApp
from ttr_nb.widgets.germany_board import paint_passengers, passenger_facts
from ttr_nb.widgets.variants import VariantUI, ui_class
from ttr_nb.widgets.variants.germany import GermanyUI, either
from ttr_nb.widgets.variants.ticket_mix import TicketMixUI


def text(value: str) -> str:
    """What a reader sees of an HTML fragment."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", value)).split())


def open_position(game: Game, seats: int | None = None) -> GameApp:
    """The app showing a scripted position: seat 0 human, the others greedy bots."""
    players = seats or len(game.state.players)
    app = GameApp(map_name="germany", players=players, seed=1, auto_bots=False)
    app.prompt.close()  # the new game's first question
    app.load_game(game, "a test position")
    return app


@pytest.fixture
def app() -> GameApp:
    return GameApp(map_name="germany", players=3, seed=7, auto_bots=False)


def test_germany_has_its_own_presentation(app: GameApp) -> None:
    assert ui_class("germany") is GermanyUI and isinstance(app.ui, GermanyUI)
    assert issubclass(GermanyUI, TicketMixUI)
    assert paint_passengers in app.board.piece_painters
    assert passenger_facts in app.board.fact_providers
    assert app.view is not None  # playable, not explore mode
    key = text(app.key_html.value)
    assert "Discs beside a city (or on a country's ring) are passengers" in key
    assert "lettered like the cards" in key and "K black" in key and "R red" in key
    assert "stand-in" in key  # the colours are a flagged reading of secondary sources


def test_setup_asks_for_the_ticket_mix_at_once_in_words(app: GameApp) -> None:
    assert app.prompt.is_open
    question = text(app.prompt.question.value)
    assert "Your first tickets: you draw 4 tickets and keep at least 2" in question
    assert "How many should come from the long deck?" in question
    assert "12–22 points" in question and "2–11 points" in question
    assert "Left: 55 short, 34 long." in question
    labels = [label for label, _ in app.prompt.choices.options]
    assert labels == [f"{4 - k} short, {k} long" for k in range(5)]
    app.prompt.choose(labels.index("2 short, 2 long"))
    assert app.game.history[-1].action == DrawTickets(long=2)
    offer = app.view.state.players[0].offer
    assert sorted(app.view.map.ticket_by_id[t].deck for t in offer) == [
        "long",
        "long",
        "short",
        "short",
    ]
    assert not app.prompt.is_open  # the offer panel takes over
    assert "keep at least 2" in app.offer.title.value


def test_a_cancelled_ticket_question_comes_back_with_the_button(app: GameApp) -> None:
    app.prompt.cancel_button.click()
    assert not app.prompt.is_open and not app.game.history
    app.cards.tickets_button.click()
    assert app.prompt.is_open and "long deck" in text(app.prompt.question.value)


def test_tickets_in_play_ask_for_the_mix_and_keep_at_least_one(app: GameApp) -> None:
    app.prompt.choose(1)
    keep_offered(app)
    app.bots_until_human()
    assert not app.prompt.is_open  # setup is over: nothing is asked unprompted
    app.cards.tickets_button.click()
    question = text(app.prompt.question.value)
    assert question.startswith("You draw 4 tickets and keep at least 1.")
    app.prompt.choose(4)
    assert app.game.history[-1].action == DrawTickets(long=4)
    assert "draws 4 tickets (0 short, 4 long)" in app.status.value


def test_a_claim_asks_which_passenger_in_the_variants_words() -> None:
    game = gm.passenger_pickup()  # Berlin: 2 red, 1 black, 1 yellow, 1 white; Magdeburg green
    app = open_position(game)
    berlin_magdeburg = route_id(game, "berlin", "magdeburg")
    app.board.select(berlin_magdeburg)
    note = text(app.claim.selected_html.value)
    assert (
        "Claiming it takes the green passenger at Magdeburg and one at Berlin (you choose: "
        "red, black, yellow or white)." in note
    )
    app.claim.claim_button.click()
    assert app.prompt.is_open
    assert text(app.prompt.question.value) == (
        "Take which passenger at Berlin: red, black, yellow or white? "
        "The claim also takes the green passenger at Magdeburg."
    )
    labels = [label for label, _ in app.prompt.choices.options]
    assert labels[0] == "R red: nobody has one yet" and labels[3].startswith("W white")
    app.prompt.choose(labels.index("K black: nobody has one yet"))
    claim = app.game.history[-1].action
    assert claim == ClaimRoute(berlin_magdeburg, (("red", 3),), (("berlin", "black"),))
    rules = gm.rules_of(app.game)
    assert rules.held(app.game.state, 0)["black"] == 1
    assert rules.held(app.game.state, 0)["green"] == 1
    assert rules.passengers_at(app.game.state, "berlin") == {"red": 2, "yellow": 1, "white": 1}
    assert "taking a black passenger from Berlin and a green passenger from Magdeburg" in (
        app.status.value
    )


def test_the_answers_say_where_the_player_stands_in_each_colour() -> None:
    game = gm.passenger_pickup()
    gm.give_passengers(game, 0, keep=["berlin"], red=2)
    gm.give_passengers(game, 1, keep=["berlin"], black=3, yellow=1)
    gm.give_passengers(game, 2, keep=["berlin"], yellow=1)
    app = open_position(game)
    app.board.select(route_id(game, "berlin", "magdeburg"))
    app.claim.claim_button.click()
    labels = [label for label, _ in app.prompt.choices.options]
    assert labels == [
        "R red: you lead with 2",
        "K black: you have 0; Ben leads with 3",
        "Y yellow: you have 0; Ben, Cleo lead with 1",
        "W white: nobody has one yet",
    ]


def test_a_claim_with_one_colour_at_each_end_says_what_it_takes_and_asks_nothing() -> None:
    game = gm.started(players=2)
    rules = gm.rules_of(game)
    route = next(
        r
        for r in game.map.routes
        if r.length == 2
        and all(len(rules.passengers_at(game.state, p)) == 1 for p in rules.route_places[r.id])
    )
    colour = route.color if route.color != "gray" else "red"
    set_hand(game, 0, **{colour: route.length})
    app = open_position(game)
    app.board.select(route.id)
    ends = [game.map.place_name(p) for p in rules.route_places[route.id]]
    note = text(app.claim.selected_html.value)
    assert note.count("passenger at") == 2 and all(name in note for name in ends)
    assert "you choose" not in note
    app.claim.claim_button.click()
    assert not app.prompt.is_open
    assert app.game.history[-1].action.route == route.id
    assert sum(rules.held(app.game.state, 0).values()) == 2


def test_a_claim_with_a_choice_at_both_ends_asks_for_both() -> None:
    game = gm.started(players=2)
    gm.arrange_passengers(game, "leipzig", keep=["berlin"], red=2, blue=1)
    gm.arrange_passengers(game, "berlin", keep=["leipzig"], red=1, black=1, yellow=1, white=2)
    route = game.map.route_by_id[route_id(game, "berlin", "leipzig")]
    set_hand(game, 0, locomotive=route.length)
    app = open_position(game)
    app.board.select(route.id)
    app.claim.claim_button.click()
    question = text(app.prompt.question.value)
    assert question == (
        "Take which passengers: one at Berlin (red, black, yellow or white) and one at "
        "Leipzig (red or blue)?"
    )
    labels = [label for label, _ in app.prompt.choices.options]
    assert len(labels) == 8 and "W white at Berlin and B blue at Leipzig" in labels
    app.prompt.choose(labels.index("W white at Berlin and B blue at Leipzig"))
    assert set(app.game.history[-1].action.pickups) == {("berlin", "white"), ("leipzig", "blue")}


def test_the_players_table_shows_passengers_by_colour_and_who_leads() -> None:
    game = gm.started()
    gm.give_passengers(game, 0, red=2, black=1)
    gm.give_passengers(game, 1, red=1, black=1, green=1)
    app = open_position(game)
    table = app.scores_html.value
    # One line under each player's row (the play column has no room for more columns).
    lines = [text(m) for m in re.findall(r"<tr class='ttr-more[^']*'>(.*?)</tr>", table)]
    assert len(lines) == 3
    ada, ben, cleo = lines
    assert ada == "passengers (★ most): R2★ K1★ G0 Y0 B0 W0 majorities now: 40"
    # black is tied (20 each), Ben alone has green (20) and is second in red (10).
    assert ben == "passengers (★ most): R1 K1★ G1★ Y0 B0 W0 majorities now: 50"
    assert cleo.endswith("majorities now: 0")


def test_the_end_screen_shows_the_majorities_and_the_globetrotter() -> None:
    app = open_position(gm.final_scoring())
    result = app.result_html.value
    seen = text(result)
    assert "Passenger majorities" in seen and "Globetrotter" in seen
    rows = {  # a colour's counts, and who scores on the line under them
        m.group(1): text(m.group(2) + " " + m.group(3))
        for m in re.finditer(
            r"<tr data-colour='(\w+)'[^>]*>(.*?)</tr><tr class='ttr-more' data-scores='\1'>"
            r"(.*?)</tr>",
            result,
        )
    }
    assert len(rows) == 6
    assert "Ada 20; Ben and Cleo 10 (tied second)" in rows["red"]
    assert "tied for most: Ada and Ben 20 each, so nobody scores 10" in rows["black"]
    assert "Cleo 20; nobody else holds one" in rows["green"]
    assert "Ben 20; Ada 10" in rows["yellow"]
    assert "nobody holds this colour" in rows["blue"]
    assert "tied for most: Ada and Ben and Cleo 20 each" in rows["white"]
    assert re.search(r"3 → 20\s+1 → 10\s+1 → 10", rows["red"])
    assert "Completed tickets: Ada 2, Ben 2, Cleo 1." in seen
    assert "Ada and Ben completed the most (2 tickets): 15 points each." in seen
    # The score rows name the parts.
    assert "passengers" in seen and "globetrotter bonus" in seen


def test_nobody_gets_the_globetrotter_without_a_completed_ticket() -> None:
    game = gm.started(players=2)
    game.state.phase = "over"
    app = open_position(game)
    assert "Nobody completed a ticket, so nobody gets it." in text(app.result_html.value)


def test_a_greedy_game_plays_to_the_end_in_the_app(app: GameApp) -> None:
    app.prompt.choose(0)
    app.play_to_end()
    view = app.view
    assert view.is_over
    assert "Passenger majorities" in app.result_html.value
    assert sum(gm.rules_of(view).passenger_totals(view.state)) > 0


def test_usa_is_unchanged_by_the_variant_hooks() -> None:
    app = GameApp(map_name="usa", players=2, seed=3, auto_bots=False)
    assert type(app.ui) is VariantUI and not app.prompt.is_open
    assert app.ui.claim_note(app.view, 1) == ""
    assert app.ui.choice_question(app.view, [DrawBlind(), DrawBlind()]) == "Which one?"
    keep_offered(app)
    app.board.select(1)
    assert "ttr-claim-extra" not in app.claim.selected_html.value
    assert "passengers" not in app.scores_html.value
    assert isinstance(app.game.history[-1].action, KeepTickets)


def test_either_joins_choices_in_words() -> None:
    assert either(["red"]) == "red" and either(["red", "blue"]) == "red or blue"
