"""One test per rule of the Märklin rulebook (2006), on scripted positions."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from ttr_nb import (
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
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
from ttr_nb.algorithms import journey_trails
from ttr_nb.bots import GreedyBot, RandomBot, play_out
from ttr_nb.maps import MAPS_DIR
from ttr_nb.rules.maerklin import MaerklinRules, MovePassenger
from ttr_nb.teaching import maerklin as mk
from ttr_nb.teaching.scenarios import give_routes, route_id, set_hand


def refused(game: Game, action, match: str) -> None:
    """The action is refused with ``match`` in the message, and nothing changes."""
    before = game.snapshot()
    with pytest.raises(IllegalActionError, match=match):
        game.apply(action)
    assert game.snapshot() == before


def tokens(game: Game, seat: int) -> list[list]:
    return game.state.players[seat].extras["merchandise"]


def stack(game: Game, city: str) -> list[int]:
    return game.state.extras["merchandise"][city]


def moves(game: Game) -> list[MovePassenger]:
    return [a for a in game.legal_actions() if isinstance(a, MovePassenger)]


# ------------------------------------------------------------------ components
def test_components_of_the_rulebook():
    game = mk.setup_position(players=5)
    cards = {c.id: c.count for c in game.map.card_types}
    assert sum(cards.values()) == 118
    assert [cards[c] for c in ("purple", "blue", "orange", "white", "green", "yellow")] == [11] * 6
    assert cards["black"] == cards["red"] == 11
    assert (cards["locomotive"], cards["locomotive4"], cards["passenger"]) == (14, 6, 10)
    assert all(p.pieces == {"train": 45} for p in game.state.players)
    assert all(p.extras["passengers_left"] == 3 for p in game.state.players)
    assert {d: len(ids) for d, ids in game.state.ticket_decks.items()} == {"short": 23, "long": 23}
    assert game.rules.bonus_points == {"most_tickets": 10}
    assert [game.map.route_points(n) for n in range(1, 8)] == [1, 2, 4, 7, 10, 15, 18]
    counted = game.rules.conserved_counts(game.state)
    assert counted["cards"] == 118 and counted["merchandise tokens"] == 74


def test_merchandise_stacks_by_city_colour_top_first():
    game = mk.setup_position()
    stacks = game.state.extras["merchandise"]
    by_colour = Counter(game.map.city_by_id[c].merchandise for c in stacks)
    assert by_colour == {"black": 1, "red": 6, "yellow": 12, "white": 16}
    assert stacks["berlin"] == [7, 6, 5, 4]
    assert stacks["hamburg"] == stacks["muenchen"] == [4, 3, 2]
    assert stacks["hannover"] == [3, 2, 1]  # yellow: most tracks after the big cities
    assert stacks["rostock"] == [2]  # white
    assert not any(c.kind == "country_space" and c.id in stacks for c in game.map.cities)
    assert sum(len(s) for s in stacks.values()) == 74


# ------------------------------------------------------------------ face-up row
def test_a_face_up_locomotive_is_the_whole_draw():
    game = mk.face_up_row()
    game.apply(DrawFaceUp(0))
    assert game.current_player == 1


def test_a_face_up_locomotive_plus4_does_not_end_the_draw():
    game = mk.face_up_row()
    game.apply(DrawFaceUp(1))
    assert game.current_player == 0 and game.state.pending == "second_card"


def test_a_face_up_passenger_card_does_not_end_the_draw():
    game = mk.face_up_row()
    game.apply(DrawFaceUp(2))
    assert game.current_player == 0 and game.state.pending == "second_card"


def test_a_face_up_locomotive_cannot_be_the_second_card_but_a_plus4_can():
    game = mk.face_up_row()
    game.apply(DrawFaceUp(3))  # red
    assert game.state.face_up[0] == "locomotive"
    refused(game, DrawFaceUp(0), "a face-up Locomotive cannot be taken as the second card")
    assert DrawFaceUp(1) in game.legal_actions() and DrawFaceUp(0) not in game.legal_actions()
    game.apply(DrawFaceUp(1))
    assert game.state.players[0].hand["locomotive4"] == 1 and game.current_player == 1


def test_three_face_up_locomotives_reset_the_row():
    game = mk.locomotive_reset()
    assert game.state.face_up.count("locomotive") == 2  # with a Locomotive +4: no reset
    game.apply(DrawFaceUp(3))
    assert game.state.face_up == ["purple", "orange", "green", "yellow", "white"]
    assert game.state.discard.count("locomotive") == 3


def test_three_face_up_passenger_cards_reset_the_row():
    game = mk.passenger_card_reset()
    game.apply(DrawFaceUp(2))
    assert game.state.face_up == ["purple", "orange", "green", "yellow", "white"]
    assert game.state.discard.count("passenger") == 3


# ------------------------------------------------------------------ claiming
def test_locomotive_plus4_refused_on_a_3_space_route():
    game = mk.plus4_claims()
    route = route_id(game, "berlin", "magdeburg")
    refused(
        game,
        ClaimRoute(route, payment(red=2, locomotive4=1)),
        "Locomotive \\+4 can only pay for routes of 4 or more spaces",
    )
    assert not any(a.route == route for a in game.legal_actions() if isinstance(a, ClaimRoute))


def test_locomotive_plus4_accepted_on_a_4_space_route():
    game = mk.plus4_claims()
    route = route_id(game, "berlin", "leipzig")
    assert ClaimRoute(route, payment(orange=3, locomotive4=1)) in game.legal_actions()
    game.apply(ClaimRoute(route, payment(orange=3, locomotive4=1)))
    assert game.state.owner[route] == 0
    assert "3 orange cards + 1 Locomotive +4 card" in game.log[-1]


def test_both_kinds_of_locomotive_together_on_a_long_route():
    game = mk.started()
    set_hand(game, 0, orange=2, locomotive=1, locomotive4=1)
    route = route_id(game, "berlin", "leipzig")
    game.apply(ClaimRoute(route, payment(orange=2, locomotive=1, locomotive4=1)))
    assert game.state.owner[route] == 0


def test_passenger_cards_pay_for_no_route():
    game = mk.started()
    set_hand(game, 0, passenger=3, red=3)
    refused(
        game,
        ClaimRoute(route_id(game, "berlin", "magdeburg"), payment(passenger=3)),
        "Passenger cards pay for no route",
    )


# ------------------------------------------------------------------ tickets
def test_setup_draws_4_in_a_chosen_split_and_keeps_at_least_2():
    game = mk.setup_position()
    assert game.legal_actions() == [DrawTickets(long=k) for k in range(5)]
    game.apply(DrawTickets(long=3))
    offer = game.state.players[0].offer
    assert [game.map.ticket_by_id[t].deck for t in offer] == ["short", "long", "long", "long"]
    refused(game, KeepTickets(offer[:1]), "at least 2")
    game.apply(KeepTickets(offer[:2]))
    assert game.state.players[0].tickets == offer[:2]


def test_in_play_4_tickets_keep_at_least_1_unkept_under_their_own_deck():
    game = mk.started()
    game.apply(DrawTickets(long=2))
    offer = list(game.state.players[0].offer)
    assert len(offer) == 4
    refused(game, KeepTickets(()), "at least 1")
    game.apply(KeepTickets((offer[0],)))
    decks = game.state.ticket_decks
    for t in offer[1:]:
        deck = decks[game.map.ticket_by_id[t].deck]
        assert t in deck[-3:]


# ------------------------------------------------------------------ placing
def test_placing_a_passenger_is_an_optional_choice_in_the_claim():
    game = mk.placing()
    route = route_id(game, "hamburg", "schwerin")
    claims = {a.pickups for a in game.legal_actions() if isinstance(a, ClaimRoute)}
    assert {(), (("hamburg", "passenger"),)} <= claims
    game.apply(ClaimRoute(route, payment(green=2), (("hamburg", "passenger"),)))
    assert game.state.extras["passengers"] == {"schwerin": 1, "hamburg": 0}
    assert game.state.players[0].extras["passengers_left"] == 2
    assert "placing a passenger in Hamburg" in game.log[-1]


def test_claim_without_placing_leaves_the_supply():
    game = mk.placing()
    game.apply(ClaimRoute(route_id(game, "hamburg", "schwerin"), payment(green=2)))
    assert game.state.players[0].extras["passengers_left"] == 3


def test_placement_refused_on_an_occupied_city():
    game = mk.placing()
    route = route_id(game, "hamburg", "schwerin")
    offered = [a for a in game.legal_actions() if isinstance(a, ClaimRoute) and a.route == route]
    assert (("schwerin", "passenger"),) not in {a.pickups for a in offered}
    refused(
        game,
        ClaimRoute(route, payment(green=2), (("schwerin", "passenger"),)),
        "a passenger \\(Ben's\\) already stands in Schwerin",
    )


def test_placement_refused_in_a_country():
    game = mk.placing()
    route = next(r for r in game.map.routes if r.a == "kiel" and r.b.startswith("daenemark"))
    offered = {a.pickups for a in game.legal_actions() if isinstance(a, ClaimRoute)}
    assert ((route.b, "passenger"),) not in offered
    refused(
        game,
        ClaimRoute(route.id, payment(green=2), ((route.b, "passenger"),)),
        "never placed in a country",
    )


def test_placement_refused_elsewhere_and_when_all_are_placed():
    game = mk.placing()
    route = route_id(game, "hamburg", "schwerin")
    refused(
        game,
        ClaimRoute(route, payment(green=2), (("berlin", "passenger"),)),
        "Berlin is not at either end",
    )
    refused(game, ClaimRoute(route, payment(green=2), (("hamburg", "red"),)), "only piece placed")
    for city in ("berlin", "leipzig", "muenchen"):
        mk.place_passenger(game, 0, city)
    refused(
        game,
        ClaimRoute(route, payment(green=2), (("hamburg", "passenger"),)),
        "all 3 of their passengers are on the board",
    )


# ------------------------------------------------------------------ journeys
def test_a_journey_collects_the_top_token_of_each_city_it_enters():
    game = mk.journey()
    game.apply(mk.journey_action(game, "magdeburg", "berlin", "leipzig"))
    assert tokens(game, 0) == [["berlin", 7], ["leipzig", 4]]
    assert stack(game, "berlin") == [6, 5, 4] and stack(game, "leipzig") == [3, 2]
    assert game.scores()[0]["merchandise"] == 11  # scored at once, during play
    assert "collecting 7 + 4 = 11 points" in game.log[-1]


def test_the_start_city_is_not_collected():
    game = mk.journey()
    game.apply(mk.journey_action(game, "magdeburg", "leipzig", "berlin", "magdeburg"))
    assert stack(game, "magdeburg") == [2]
    assert tokens(game, 0) == [["leipzig", 4], ["berlin", 7]]


def test_token_order_highest_first_for_each_passenger_in_turn():
    game = mk.journey()
    game.apply(mk.journey_action(game, "magdeburg", "berlin"))
    assert tokens(game, 0) == [["berlin", 7]]
    game.apply(DrawBlind())  # Ben
    game.apply(DrawBlind())
    game.apply(DrawBlind())  # Cleo
    game.apply(DrawBlind())
    mk.place_passenger(game, 0, "leipzig")
    game.apply(mk.journey_action(game, "leipzig", "berlin"))
    assert tokens(game, 0) == [["berlin", 7], ["berlin", 6]]
    assert stack(game, "berlin") == [5, 4]


def test_a_city_entered_twice_gives_one_token():
    game = mk.journey()
    give_routes(game, 0, [route_id(game, "berlin", "dresden")])
    # Magdeburg → Leipzig → Dresden → Berlin → Leipzig: Leipzig twice.
    game.apply(mk.journey_action(game, "magdeburg", "leipzig", "dresden", "berlin", "leipzig"))
    assert [city for city, _ in tokens(game, 0)] == ["leipzig", "dresden", "berlin"]


def test_the_passenger_leaves_the_game_after_its_journey():
    game = mk.journey()
    game.apply(mk.journey_action(game, "magdeburg", "berlin"))
    assert "magdeburg" not in game.state.extras["passengers"]
    assert game.state.players[0].extras["journeys"] == 1
    assert game.rules.conserved_counts(game.state)["seat 1 passengers"] == 3


def test_a_journey_reusing_a_route_is_refused():
    game = mk.journey()
    action = mk.journey_action(game, "magdeburg", "leipzig", "magdeburg", "leipzig")
    assert action.path[0] == action.path[2]
    refused(game, action, "uses each route at most once, and Leipzig–Magdeburg")


def test_an_opponents_route_refused_without_a_passenger_card():
    game = mk.journey(cards=0)
    action = mk.journey_action(game, "magdeburg", "leipzig", "dresden", "chemnitz")
    assert action not in moves(game)
    refused(game, action, "uses 1 opponent route \\(Ben's Chemnitz–Dresden\\)")


def test_an_opponents_route_allowed_with_a_passenger_card():
    game = mk.journey(cards=1)
    action = mk.journey_action(game, "magdeburg", "leipzig", "dresden", "chemnitz")
    assert action in moves(game)
    game.apply(action)
    assert game.state.players[0].hand["passenger"] == 0
    assert game.state.discard[-1] == "passenger"
    assert tokens(game, 0) == [["leipzig", 4], ["dresden", 2], ["chemnitz", 2]]
    assert "paying 1 Passenger card for Ben's Chemnitz–Dresden" in game.log[-1]


def test_a_journey_never_goes_into_a_country_or_over_unclaimed_routes():
    game = mk.journey()
    give_routes(game, 0, [route_id(game, "berlin", "rostock"), route_id(game, "kiel", "rostock")])
    kiel_dk = next(r for r in game.map.routes if r.a == "kiel" and r.b.startswith("daenemark"))
    give_routes(game, 0, [kiel_dk.id])
    path = mk.journey_action(game, "magdeburg", "berlin", "rostock", "kiel").path
    refused(game, MovePassenger("magdeburg", (*path, kiel_dk.id)), "never goes into a country")
    unclaimed = route_id(game, "berlin", "hamburg", "blue")
    refused(game, MovePassenger("magdeburg", (path[0], unclaimed)), "nobody has claimed")


def test_a_journey_must_start_at_ones_own_passenger_and_follow_the_routes():
    game = mk.journey()
    leipzig_dresden = route_id(game, "leipzig", "dresden")
    refused(game, MovePassenger("chemnitz", (route_id(game, "dresden", "chemnitz"),)), "Ben's")
    refused(game, MovePassenger("berlin", (leipzig_dresden,)), "no passenger stands in Berlin")
    refused(game, MovePassenger("magdeburg", ()), "at least one route")
    refused(game, MovePassenger("magdeburg", (leipzig_dresden,)), "does not leave Magdeburg")
    refused(game, MovePassenger("atlantis", (1,)), "no city 'atlantis'")
    refused(game, MovePassenger("magdeburg", (999,)), "no route 999")


def test_the_journeys_offered_are_every_distinct_set_with_its_cheapest_path():
    game = mk.journey(cards=1)
    rules = game.rules
    listed = moves(game)
    plans = [rules.plan(game.state, 0, a) for a in listed]
    sets = [frozenset(p.cities[1:]) - {"magdeburg"} for p in plans]
    assert len(sets) == len(set(sets))
    # Every trail from Magdeburg with at most one opponent route, by brute force.
    every = list(journey_trails(rules.network(game.state, 0), "magdeburg", 1, rules.dead))
    cheapest: dict[frozenset, int] = {}
    for trail in every:
        cheapest[trail.visited] = min(cheapest.get(trail.visited, 9), trail.cards)
    assert set(sets) == set(cheapest)
    for visited, plan in zip(sets, plans, strict=True):
        assert len(plan.paid) == cheapest[visited]


def test_journeys_with_more_cards_are_legal_though_not_listed():
    game = mk.journey(cards=2)
    give_routes(game, 1, [route_id(game, "chemnitz", "erfurt")])
    action = mk.journey_action(game, "magdeburg", "leipzig", "dresden", "chemnitz", "erfurt")
    assert action not in moves(game) and game.rules.listed_in_part(action)
    game.apply(action)
    assert game.state.players[0].hand["passenger"] == 0


def test_a_journey_is_saved_as_its_exact_path_and_replayed():
    game = new_game("maerklin", 2, seed=5)
    play_out(game, [GreedyBot(1), GreedyBot(2)])
    journeys = [m.action for m in game.history if isinstance(m.action, MovePassenger)]
    assert journeys, "the greedy bots moved no passenger"
    saved = action_to_dict(journeys[0])
    assert saved == {
        "type": "MovePassenger",
        "start": journeys[0].start,
        "path": list(journeys[0].path),
    }
    assert action_from_dict(saved) == journeys[0]
    text = game.to_json()
    again = Game.from_json(text)
    assert again == game and again.state.to_dict() == game.state.to_dict()
    data = json.loads(text)
    for move in data["history"]:
        if move["action"]["type"] == "MovePassenger":
            move["action"]["path"] = move["action"]["path"] * 2  # every route twice
            break
    with pytest.raises(SaveFormatError, match="is illegal"):
        Game.from_dict(data)


def test_malformed_journeys_get_a_typed_error_naming_the_field():
    game = mk.journey()
    for start, path in (
        (3, (1,)),
        ("magdeburg", "12"),
        ("magdeburg", ("x",)),
        ("magdeburg", tuple(range(100))),
        ("m" * 90, (1,)),
    ):
        refused(game, MovePassenger(start, path), "passenger|path|route")
    with pytest.raises(SaveFormatError, match="path"):
        action_from_dict({"type": "MovePassenger", "start": "berlin", "path": "x"})


# ------------------------------------------------------------------ scoring
def test_final_score_rows_are_named():
    game = mk.final_scoring()
    assert list(game.scores()[0]) == ["routes", "tickets", "merchandise", "most_tickets", "total"]
    assert list(mk.started().scores()[0]) == ["routes", "merchandise", "total"]


def test_most_tickets_to_every_player_tied_for_most_completed():
    game = mk.final_scoring()
    assert [r["most_tickets"] for r in game.scores()] == [10, 10, 0]
    assert [r["merchandise"] for r in game.scores()] == [11, 4, 7]


def test_most_tickets_needs_a_completed_ticket():
    game = mk.tie_break("shared")
    assert [r["most_tickets"] for r in game.scores()] == [0, 0]


@pytest.mark.parametrize(
    ("decider", "label"),
    [
        ("tickets", "most completed tickets"),
        ("merchandise", "most merchandise points"),
        ("shared", "shared victory"),
    ],
)
def test_winner_ties_tickets_then_merchandise(decider, label):
    game = mk.tie_break(decider)
    rows = game.scores()
    assert rows[0]["total"] == rows[1]["total"]
    result = game.result()
    assert result["decided_by"] == label
    assert result["winners"] == ([0, 1] if decider == "shared" else [0])


# ------------------------------------------------------------------ whole games
@pytest.mark.parametrize("players", [2, 5])
def test_cards_tokens_and_passengers_conserved_through_whole_games(players):
    game = new_game("maerklin", players, seed=players)
    bots = [RandomBot(i) for i in range(players)]
    start = game.rules.conserved_counts(game.state)
    moved = 0
    while not game.is_over:
        action = bots[game.current_player].choose(game)
        moved += isinstance(action, MovePassenger)
        game.apply(action)
        assert game.rules.conserved_counts(game.state) == start
    assert moved > 0
    assert start["cards"] == 118 and start["merchandise tokens"] == 74


def test_greedy_bot_moves_passengers_when_worth_it():
    game = new_game("maerklin", 3, seed=2)
    play_out(game, [GreedyBot(i) for i in range(3)])
    journeys = [m for m in game.history if isinstance(m.action, MovePassenger)]
    assert len(journeys) >= 6
    assert all(r["merchandise"] > 0 for r in game.scores())


# ------------------------------------------------------------------- map checks
@pytest.fixture
def maerklin_data() -> dict:
    return json.loads((MAPS_DIR / "maerklin.json").read_text(encoding="utf-8"))


def _write(tmp_path, data) -> str:
    path = tmp_path / "maerklin-edit.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_map_problems_refuse_a_city_without_merchandise(tmp_path, maerklin_data):
    city = next(c for c in maerklin_data["cities"] if c["kind"] == "city")
    del city["merchandise"]
    with pytest.raises(MapFormatError, match="merchandise colour"):
        load_map(_write(tmp_path, maerklin_data))


def test_map_problems_refuse_a_map_without_passenger_cards(tmp_path, maerklin_data):
    cards = maerklin_data["components"]["cards"]
    maerklin_data["components"]["cards"] = [c for c in cards if c["id"] != "passenger"]
    with pytest.raises(MapFormatError, match="Passenger card"):
        load_map(_write(tmp_path, maerklin_data))


def test_rules_object_is_maerklin():
    assert isinstance(new_game("maerklin", 2).rules, MaerklinRules)
