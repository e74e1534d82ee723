"""One test per rule of the Germany rulebook (2017), on scripted positions."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from positions import hoard_all_cards

from ttr_nb import (
    ClaimRoute,
    DrawBlind,
    DrawTickets,
    Game,
    IllegalActionError,
    KeepTickets,
    MapFormatError,
    SaveFormatError,
    load_map,
    new_game,
    payment,
)
from ttr_nb.actions import action_from_dict, action_to_dict
from ttr_nb.bots import RandomBot
from ttr_nb.maps import MAPS_DIR
from ttr_nb.rules.germany import GermanyRules, colour_majority
from ttr_nb.teaching import germany as gm
from ttr_nb.teaching.scenarios import give_routes, route_id, set_hand, ticket_id

COLOURS = ["red", "black", "green", "yellow", "blue", "white"]


def board_passengers(game: Game) -> dict[str, dict[str, int]]:
    return game.state.extras["passengers"]


def held(game: Game, seat: int) -> dict[str, int]:
    return game.state.players[seat].extras["passengers"]


def finished(game: Game) -> Game:
    """End a scripted game where it stands, with no tickets unless given."""
    game.state.phase = "over"
    return game


def refused(game: Game, action, match: str) -> None:
    """The action is refused with ``match`` in the message, and nothing changes."""
    before = game.snapshot()
    with pytest.raises(IllegalActionError, match=match):
        game.apply(action)
    assert game.snapshot() == before


# ------------------------------------------------------------------ components
def test_components_of_the_rulebook():
    game = gm.setup_position(players=5)
    assert sum(c.count for c in game.map.card_types) == 110
    assert game.map.card_by_id["locomotive"].count == 14
    assert all(c.count == 12 for c in game.map.card_types if not c.wild)
    assert all(p.pieces == {"train": 45} for p in game.state.players)
    assert {d: len(ids) for d, ids in game.state.ticket_decks.items()} == {"short": 55, "long": 34}
    assert game.rules.bonus_points == {"globetrotter": 15}
    points = [game.map.route_points(n) for n in range(1, 8)]
    assert points == [1, 2, 4, 7, 10, 15, 18]


# ------------------------------------------------------------------ passengers
def test_setup_places_60_passengers_by_the_setup_counts():
    game = gm.setup_position()
    board = board_passengers(game)
    count = {place: sum(colours.values()) for place, colours in board.items()}
    assert count["berlin"] == 5
    assert [count[p] for p in ("hamburg", "koeln", "frankfurt", "muenchen")] == [4] * 4
    assert count["leipzig"] == count["stuttgart"] == 3
    countries = {c.id for c in game.map.countries}
    assert all(count[c] == 1 for c in countries)
    others = [c.id for c in game.map.cities if c.kind == "city"]
    assert sum(count[c] == 1 for c in others) == 28
    assert not any(c.kind == "country_space" and c.id in board for c in game.map.cities)
    colours = Counter()
    for waiting in board.values():
        colours.update(waiting)
    assert colours == dict.fromkeys(COLOURS, 10)
    assert game.rules.conserved_counts(game.state)["passengers"] == 60
    assert all(held(game, i) == dict.fromkeys(COLOURS, 0) for i in range(3))


def test_passengers_are_drawn_at_random_with_the_games_seed():
    a = board_passengers(new_game("germany", 2, seed=1))
    assert a == board_passengers(new_game("germany", 2, seed=1))
    assert a != board_passengers(new_game("germany", 2, seed=2))


def test_claim_takes_one_passenger_from_each_end():
    game = gm.started()
    set_hand(game, 0, green=2)
    gm.arrange_passengers(game, "hamburg", red=4)
    gm.arrange_passengers(game, "schwerin", keep=["hamburg"], black=1)
    route = route_id(game, "hamburg", "schwerin")
    game.apply(ClaimRoute(route, payment(green=2)))
    assert held(game, 0)["red"] == 1 and held(game, 0)["black"] == 1
    assert board_passengers(game)["hamburg"] == {"red": 3}
    assert "schwerin" not in board_passengers(game)
    assert "taking a red passenger from Hamburg and a black passenger from Schwerin" in game.log[-1]


def test_claim_where_several_colours_wait_carries_the_choice():
    game = gm.passenger_pickup()
    route = route_id(game, "berlin", "magdeburg")
    offered = {a.pickups for a in game.legal_actions() if isinstance(a, ClaimRoute)}
    assert {(("berlin", c),) for c in ("red", "black", "yellow", "white")} <= offered
    refused(game, ClaimRoute(route, payment(red=3)), "several colours wait at Berlin")
    game.apply(ClaimRoute(route, payment(red=3), (("berlin", "black"),)))
    assert held(game, 0)["black"] == 1 and held(game, 0)["green"] == 1
    assert board_passengers(game)["berlin"] == {"red": 2, "yellow": 1, "white": 1}


def test_claim_refuses_a_colour_that_is_not_there():
    game = gm.passenger_pickup()
    route = route_id(game, "berlin", "magdeburg")
    pay = payment(red=3)
    refused(game, ClaimRoute(route, pay, (("berlin", "blue"),)), "no blue passenger waits at Ber")
    refused(game, ClaimRoute(route, pay, (("berlin", "purple"),)), "no 'purple' passengers")
    refused(
        game,
        ClaimRoute(route, pay, (("berlin", "red"), ("magdeburg", "green"))),
        "nothing to choose at Magdeburg",
    )
    refused(game, ClaimRoute(route, pay, (("hamburg", "red"),)), "Hamburg is not at either end")
    refused(
        game,
        ClaimRoute(route, pay, (("berlin", "red"), ("berlin", "black"))),
        "only one passenger is taken at Berlin",
    )


def test_an_end_without_passengers_gives_nothing():
    game = gm.started()
    set_hand(game, 0, green=2)
    route = route_id(game, "hamburg", "schwerin")
    gm.arrange_passengers(game, "hamburg", red=4)
    gm.collect_from(game, 1, "schwerin")
    refused(
        game,
        ClaimRoute(route, payment(green=2), (("schwerin", "red"),)),
        "no passenger is left at Schwerin",
    )
    game.apply(ClaimRoute(route, payment(green=2)))
    assert held(game, 0) == {**dict.fromkeys(COLOURS, 0), "red": 1}
    assert "taking a red passenger from Hamburg" in game.log[-1]


def test_a_country_passenger_is_taken_through_any_of_its_spaces():
    game = gm.started()
    set_hand(game, 0, black=2, green=1)
    (colour,) = board_passengers(game)["frankreich"]
    game.apply(ClaimRoute(route_id(game, "karlsruhe", "frankreich-2"), payment(black=2)))
    assert held(game, 0)[colour] == 1
    assert "frankreich" not in board_passengers(game)
    game.apply(DrawBlind())  # Ben
    game.apply(DrawBlind())
    game.apply(DrawBlind())  # Cleo
    game.apply(DrawBlind())
    before = sum(held(game, 0).values())
    game.apply(ClaimRoute(route_id(game, "saarbruecken", "frankreich-1"), payment(green=1)))
    assert sum(held(game, 0).values()) == before + 1  # Saarbrücken's only; France is empty


def test_collected_passengers_are_public():
    game = gm.passenger_pickup()
    game.apply(
        ClaimRoute(route_id(game, "berlin", "magdeburg"), payment(red=3), (("berlin", "red"),))
    )
    seen_by_ben = game.observation(1)
    assert seen_by_ben["players"][0]["extras"]["passengers"]["red"] == 1
    assert seen_by_ben["extras"]["passengers"]["berlin"]["red"] == 1
    assert "hand" not in seen_by_ben["players"][0]  # while hands stay private


# ------------------------------------------------------------------- countries
def test_routes_into_one_country_do_not_connect_through_it():
    game = gm.country_dead_end()
    assert not gm.joined(game, 0, "freiburg", "saarbruecken")
    set_tickets = gm.set_tickets
    set_tickets(game, 0, [ticket_id(game, "koeln", "saarbruecken")])
    give_routes(game, 0, [route_id(game, "koeln", "koblenz")])
    give_routes(game, 0, [route_id(game, "koblenz", "mainz")])
    give_routes(game, 0, [route_id(game, "mainz", "mannheim")])
    give_routes(game, 0, [route_id(game, "mannheim", "stuttgart")])  # Köln reaches Freiburg
    assert game.ticket_status(0) == [(ticket_id(game, "koeln", "saarbruecken"), False)]


def test_a_ticket_naming_a_country_is_completed_through_any_of_its_spaces():
    game = gm.country_dead_end()
    ticket = ticket_id(game, "frankreich", "muenchen")
    assert (ticket, True) in game.ticket_status(0)
    # Through Saarbrücken's French space alone it would not be.
    other = gm.started()
    give_routes(other, 0, [route_id(other, "saarbruecken", "frankreich-1")])
    gm.set_tickets(other, 0, [ticket_id(other, "frankreich", "muenchen")])
    assert other.ticket_status(0) == [(ticket, False)]


# -------------------------------------------------------- double/triple routes
@pytest.mark.parametrize("players", [2, 3])
def test_triple_route_with_2_or_3_players_only_one_track_is_used(players):
    game = gm.triple_route(players)
    tracks = sorted(r.id for r in game.map.routes if {r.a, r.b} == {"duesseldorf", "koeln"})
    assert len(tracks) == 3
    game.apply(
        ClaimRoute(
            tracks[0],
            payment(green=1),
            game.rules.pickup_options(game.state, game.map.route_by_id[tracks[0]])[0],
        )
    )
    for track in tracks[1:]:
        refused(
            game,
            ClaimRoute(track, payment(green=1)),
            "only one route of a triple route can be used, and another is taken",
        )
        assert not any(isinstance(a, ClaimRoute) and a.route == track for a in game.legal_actions())


def test_triple_route_with_4_players_one_track_each():
    game = gm.triple_route(4)
    tracks = sorted(r.id for r in game.map.routes if {r.a, r.b} == {"duesseldorf", "koeln"})

    def claim(track: int) -> ClaimRoute:
        options = game.rules.pickup_options(game.state, game.map.route_by_id[track])
        return ClaimRoute(track, payment(green=1), options[0])

    game.apply(claim(tracks[0]))  # Ada
    game.apply(claim(tracks[1]))  # Ben takes a second track
    game.apply(claim(tracks[2]))  # Cleo the third
    assert [game.state.owner[t] for t in tracks] == [0, 1, 2]
    fresh = gm.triple_route(4)
    fresh.apply(
        ClaimRoute(
            tracks[0],
            payment(green=1),
            fresh.rules.pickup_options(fresh.state, fresh.map.route_by_id[tracks[0]])[0],
        )
    )
    for _ in range(3):  # Ben, Cleo, Dev draw
        fresh.apply(DrawBlind())
        fresh.apply(DrawBlind())
    refused(fresh, ClaimRoute(tracks[1], payment(green=1)), "may not claim two routes joining")


# --------------------------------------------------------------------- tickets
def test_setup_each_player_chooses_the_short_long_split():
    game = gm.setup_position()
    assert game.legal_actions() == [DrawTickets(long=k) for k in range(5)]
    refused(game, DrawBlind(), "first draws 4 tickets")
    refused(game, DrawTickets(long=5), "at most 4 can be long")
    refused(game, KeepTickets(()), "first draws 4 tickets")
    game.apply(DrawTickets(long=1))
    decks = Counter(game.map.ticket_by_id[t].deck for t in game.state.players[0].offer)
    assert decks == {"short": 3, "long": 1}
    assert game.log[-1] == "Ada draws 4 tickets (3 short, 1 long)"


def test_setup_keeps_at_least_two_tickets():
    game = gm.setup_position()
    game.apply(DrawTickets(long=2))
    offer = game.state.players[0].offer
    refused(game, KeepTickets(tuple(offer[:1])), "at least 2")
    game.apply(KeepTickets(tuple(offer[:2])))
    assert game.current_player == 1 and game.phase == "setup"


def test_setup_returns_unkept_tickets_to_their_decks_and_reshuffles_both():
    game = gm.setup_position(players=2)
    returned = []
    for long in (2, 3):
        game.apply(DrawTickets(long=long))
        offer = game.state.players[game.current_player].offer
        returned += offer[2:]
        game.apply(KeepTickets(tuple(offer[:2])))
    assert game.phase == "play" and game.current_player == 0
    decks = game.state.ticket_decks
    for t in returned:
        assert t in decks[game.map.ticket_by_id[t].deck]
    assert len(decks["short"]) + len(decks["long"]) == 89 - 4
    # Reshuffled: the returned tickets are not simply the last ones of their decks.
    bottoms = set(decks["short"][-2:] + decks["long"][-3:])
    assert bottoms != set(returned)


def test_draw_in_play_takes_four_in_the_chosen_split_and_keeps_at_least_one():
    game = gm.started()
    short_bottom = game.state.ticket_decks["short"][-1]
    refused(game, DrawTickets(long=5), "at most 4 can be long")
    game.apply(DrawTickets(long=3))
    offer = game.state.players[0].offer
    assert Counter(game.map.ticket_by_id[t].deck for t in offer) == {"short": 1, "long": 3}
    refused(game, KeepTickets(()), "at least 1")
    game.apply(KeepTickets((offer[1],)))
    decks = game.state.ticket_decks
    assert decks["short"][-1] == offer[0] and decks["short"][-2] == short_bottom
    assert decks["long"][-2:] == offer[2:]  # under their own deck, in order
    assert game.current_player == 1


def test_a_split_the_decks_cannot_supply_is_refused():
    game = gm.late_ticket_draw()
    assert [a for a in game.legal_actions() if isinstance(a, DrawTickets)] == [
        DrawTickets(long=k) for k in range(3)
    ]
    refused(game, DrawTickets(long=3), "only 2 long tickets are left")
    game.state.ticket_decks["short"][1:] = []
    refused(game, DrawTickets(long=0), "only 1 short ticket is left, so at least 2")


def test_fewer_than_four_are_drawn_when_the_decks_run_short():
    game = gm.late_ticket_draw()
    game.state.ticket_decks["short"][1:] = []
    game.state.ticket_decks["long"][1:] = []
    assert [a for a in game.legal_actions() if isinstance(a, DrawTickets)] == [DrawTickets(long=1)]
    game.apply(DrawTickets(long=1))
    assert len(game.state.players[0].offer) == 2
    assert game.log[-1] == "Ada draws 2 tickets (1 short, 1 long)"


# --------------------------------------------------------------------- scoring
def test_final_score_rows_are_named():
    game = gm.final_scoring()
    rows = game.scores()
    assert list(rows[0]) == ["routes", "tickets", "globetrotter", "passengers", "total"]
    assert [r["routes"] for r in rows] == [18, 18, 12]
    assert [r["tickets"] for r in rows] == [11 + 7 - 14, 7 + 4, 7 - 17]


def test_no_longest_path_bonus():
    game = gm.final_scoring()
    assert all("longest_path" not in row for row in game.scores())


def test_globetrotter_to_every_player_tied_for_most_completed_tickets():
    game = gm.final_scoring()
    assert game.rules.completed_counts(game.state) == [2, 2, 1]
    assert [r["globetrotter"] for r in game.scores()] == [15, 15, 0]


def test_globetrotter_needs_a_completed_ticket():
    game = finished(gm.started())
    for seat in range(3):
        gm.set_tickets(game, seat, [])
    assert [r["globetrotter"] for r in game.scores()] == [0, 0, 0]


def test_majority_leader_scores_20_and_second_10():
    m = colour_majority("yellow", [1, 2, 0])
    assert m.first == (1,) and m.second == (0,) and m.points == (10, 20, 0)


def test_majority_tied_leaders_all_score_20_and_no_second():
    assert colour_majority("black", [2, 2, 1]).points == (20, 20, 0)
    assert colour_majority("white", [1, 1, 1]).points == (20, 20, 20)


def test_majority_tied_seconds_all_score_10():
    assert colour_majority("red", [3, 1, 1]).points == (20, 10, 10)


def test_majority_a_player_without_the_colour_scores_nothing():
    assert colour_majority("green", [0, 0, 2]).points == (0, 0, 20)
    assert colour_majority("blue", [0, 0, 0]).points == (0, 0, 0)


def test_majority_scoring_in_a_finished_game():
    game = gm.final_scoring()
    table = {m.colour: m.points for m in game.rules.majorities(game.state)}
    assert table == {
        "red": (20, 10, 10),
        "black": (20, 20, 0),
        "green": (0, 0, 20),
        "yellow": (10, 20, 0),
        "blue": (0, 0, 0),
        "white": (20, 20, 20),
    }
    assert [r["passengers"] for r in game.scores()] == [70, 70, 50]
    assert game.rules.conserved_counts(game.state)["passengers"] == 60


def test_running_score_during_play_is_routes_only():
    game = gm.started()
    assert game.scores()[0] == {"routes": 0, "total": 0}


@pytest.mark.parametrize(
    ("decider", "label"),
    [
        ("tickets", "most completed tickets"),
        ("passengers", "most passengers"),
        ("shared", "shared victory"),
    ],
)
def test_winner_ties_tickets_then_passengers_then_shared(decider, label):
    game = gm.tie_break(decider)
    rows = game.scores()
    assert rows[0]["total"] == rows[1]["total"]
    result = game.result()
    assert result["decided_by"] == label
    assert result["winners"] == ([0, 1] if decider == "shared" else [0])


# ------------------------------------------------------------ saves and refusals
def test_the_passenger_choice_is_saved_and_replayed():
    game = new_game("germany", 3, seed=4)
    bot = RandomBot(9)
    chosen = None
    for _ in range(400):
        if game.is_over:
            break
        action = bot.choose(game)
        claims = [a for a in game.legal_actions() if isinstance(a, ClaimRoute) and a.pickups]
        if claims and chosen is None:
            action = claims[-1]
            chosen = action
        game.apply(action)
    assert chosen is not None, "no claim with a passenger choice came up"
    text = game.to_json()
    saved = json.loads(text)["history"]
    assert any(m["action"].get("pickups") for m in saved)
    again = Game.from_json(text)
    assert again == game and again.state.to_dict() == game.state.to_dict()
    # An edited choice is refused, naming the move.
    for move in saved:
        if move["action"].get("pickups"):
            move["action"]["pickups"] = [[move["action"]["pickups"][0][0], "purple"]]
            break
    data = json.loads(text)
    data["history"] = saved
    with pytest.raises(SaveFormatError, match="is illegal"):
        Game.from_dict(data)


def test_malformed_pickups_get_a_typed_error_naming_the_field():
    game = gm.passenger_pickup()
    route = route_id(game, "berlin", "magdeburg")
    for bad in ("red", [["berlin"]], [["berlin", 3]], [["a", "b"]] * 3, [[None, "red"]]):
        refused(game, ClaimRoute(route, payment(red=3), bad), "pickup")
    data = {"type": "ClaimRoute", "route": route, "cards": [["red", 3]], "pickups": "x"}
    with pytest.raises(SaveFormatError, match="pickups"):
        action_from_dict(data)


def test_usa_refuses_pickups_and_saves_without_them():
    game = new_game("usa", 2, seed=1)
    while game.phase == "setup":
        game.apply(KeepTickets(tuple(game.state.players[game.current_player].offer)))
    hoard_all_cards(game, 0)
    route = game.map.routes[0]
    pay = ((game.rules.fitting[route.id][1][0], route.length),)
    refused(game, ClaimRoute(route.id, pay, (("x", "red"),)), "nothing is picked up")
    assert action_to_dict(ClaimRoute(route.id, pay)) == {
        "type": "ClaimRoute",
        "route": route.id,
        "cards": [list(pay[0])],
    }


def test_passengers_conserved_through_whole_games():
    for players in (2, 5):
        game = new_game("germany", players, seed=players)
        bots = [RandomBot(i) for i in range(players)]
        while not game.is_over:
            game.apply(bots[game.current_player].choose(game))
            assert game.rules.conserved_counts(game.state)["passengers"] == 60
        collected = sum(game.rules.passenger_totals(game.state))
        on_board = sum(sum(w.values()) for w in board_passengers(game).values())
        assert collected + on_board == 60 and collected > 0


# ------------------------------------------------------------------- map checks
@pytest.fixture
def germany_data() -> dict:
    return json.loads((MAPS_DIR / "germany.json").read_text(encoding="utf-8"))


def _write(tmp_path, data) -> str:
    path = tmp_path / "germany-edit.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_map_problems_refuse_a_map_whose_passengers_do_not_add_up(tmp_path, germany_data):
    germany_data["cities"][0]["passengers_at_setup"] += 1
    with pytest.raises(MapFormatError, match="places 61 passengers"):
        load_map(_write(tmp_path, germany_data))


def test_map_problems_refuse_missing_passenger_colours(tmp_path, germany_data):
    del germany_data["components"]["passenger_colors"]
    with pytest.raises(MapFormatError, match="passenger colours"):
        load_map(_write(tmp_path, germany_data))


def test_map_problems_refuse_passengers_on_a_country_space(tmp_path, germany_data):
    space = next(c for c in germany_data["cities"] if c["kind"] == "country_space")
    space["passengers_at_setup"] = 1
    germany_data["countries"][0]["passengers_at_setup"] = 0
    with pytest.raises(MapFormatError, match="belong to the country"):
        load_map(_write(tmp_path, germany_data))


def test_map_problems_refuse_a_long_deck_too_small_for_setup(tmp_path, germany_data):
    longs = [t for t in germany_data["tickets"] if t["deck"] == "long"]
    for t in longs[19:]:
        t["deck"] = "short"
    with pytest.raises(MapFormatError, match="'long' deck"):
        load_map(_write(tmp_path, germany_data))


def test_rules_object_is_germany():
    assert isinstance(new_game("germany", 2).rules, GermanyRules)
