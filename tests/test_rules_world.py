"""One test per rule of Rails & Sails World, on scripted positions."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from positions import give_routes, route_between, set_face_up, set_hand, stack_deck, start_world

from ttr_nb import (
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    Game,
    IllegalActionError,
    KeepTickets,
    MapFormatError,
    load_map,
    new_game,
)
from ttr_nb.maps import MAPS_DIR
from ttr_nb.rules.world import BuildHarbor, ChooseSupply, ExchangePieces
from ttr_nb.teaching.scenarios import set_tickets

WILD = "wild"


def hand(**cards: int) -> dict[str, int]:
    """Keyword names for card ids: ``train_red_harbor=1`` is ``train-red-harbor``."""
    return {k.replace("_", "-"): v for k, v in cards.items()}


def give(game: Game, seat: int, **cards: int) -> None:
    """Give ``seat`` exactly these cards; the other players' hands go back to the decks
    first, so that even scarce cards (4 Single-Ship cards per colour) are there to take."""
    for other in range(game.num_players):
        if other != seat:
            set_hand(game, other)
    set_hand(game, seat, **hand(**cards))


def lay_out(game: Game, row: list[str]) -> None:
    """This face-up row, after every hand went back to the decks."""
    for seat in range(game.num_players):
        set_hand(game, seat)
    set_face_up(game, row)


def refused(game: Game, action) -> IllegalActionError:
    """Apply ``action``, expect a refusal and a byte-identical game; return the error."""
    before = game.snapshot()
    with pytest.raises(IllegalActionError) as info:
        game.apply(action)
    assert game.snapshot() == before, "a refused action changed the game"
    return info.value


def ship_deck(game: Game) -> list[str]:
    return game.state.extras["ship_deck"]


def card_decks(game: Game) -> dict[str, int]:
    """Travel cards per deck, wherever they are."""
    rules, state = game.rules, game.state
    out = {"train": 0, "ship": 0}
    places = [c for c in state.face_up if c] + [
        c for p in state.players for c, n in p.hand.items() for _ in range(n)
    ]
    for deck in out:
        pile, discard = rules.piles(state, deck)
        places += pile + discard
    for card in places:
        out[rules.cards[card].deck] += 1
    return out


# ------------------------------------------------------------------ setup
def test_setup_two_decks_three_train_seven_ship_cards_six_face_up_five_tickets():
    game = new_game("world", players=4, seed=3)
    rules = game.rules
    for p in game.state.players:
        decks = [rules.cards[c].deck for c, n in p.hand.items() for _ in range(n)]
        assert decks.count("train") == 3 and decks.count("ship") == 7
        assert len(p.offer) == 5
        assert p.pieces == {"train": 25, "ship": 50}
        assert p.extras["harbors_left"] == 3
    face = [rules.cards[c].deck for c in game.state.face_up]
    assert face == ["train"] * 3 + ["ship"] * 3
    assert card_decks(game) == {"train": 80, "ship": 60}
    assert len(game.state.ticket_decks["regular"]) == 65 - 20
    offer = game.state.players[0].offer
    assert "at least 3" in refused(game, KeepTickets(tuple(offer[:2]))).rule
    game.apply(KeepTickets(tuple(offer[:3])))
    assert game.state.ticket_decks["regular"][-2:] == offer[3:]


def test_supply_is_chosen_secretly_and_revealed_together():
    game = new_game("world", players=3, seed=5)
    for _ in range(3):
        game.apply(KeepTickets(tuple(game.state.players[game.current_player].offer)))
    assert game.phase == "setup" and game.state.pending == "choose_supply"
    assert game.legal_actions() == [ChooseSupply(t, 60 - t) for t in range(10, 26)]
    assert "exactly 60 pieces, not 61" in refused(game, ChooseSupply(21, 40)).rule
    assert "only 25 trains, not 26" in refused(game, ChooseSupply(26, 34)).rule
    assert "only 50 ships, not 51" in refused(game, ChooseSupply(9, 51)).rule
    assert "negative" in refused(game, ChooseSupply(-1, 61)).rule
    assert "supply of 60 pieces" in refused(game, DrawBlind("ship")).rule
    game.apply(ChooseSupply(25, 35))
    assert game.log[-1] == "Player 1 chooses a secret supply of pieces"
    # Recorded, but nobody else can see it, and nothing is revealed yet.
    mine, theirs = game.observation(0), game.observation(1)
    assert mine["extras"]["your_supply"] == {"train": 25, "ship": 35}
    assert theirs["extras"]["your_supply"] is None
    assert theirs["extras"]["supply_chosen"] == [True, False, False]
    seen = json.dumps(theirs)
    assert '{"train": 25, "ship": 35}' not in seen
    assert "ship_deck" not in seen and "ship_deck_size" not in seen
    assert theirs["deck_sizes"]["ship"] == len(ship_deck(game))
    assert game.state.players[0].pieces == {"train": 25, "ship": 50}
    game.apply(ChooseSupply(20, 40))
    assert game.phase == "setup"
    game.apply(ChooseSupply(10, 50))
    assert game.phase == "play" and game.current_player == 0
    pieces = [p.pieces for p in game.state.players]
    assert pieces == [
        {"train": 25, "ship": 35},
        {"train": 20, "ship": 40},
        {"train": 10, "ship": 50},
    ]
    assert game.state.players[0].extras["box"] == {"train": 0, "ship": 15}
    assert "supply_choices" not in game.state.extras
    assert "chosen once, at setup" in refused(game, ChooseSupply(20, 40)).rule


# ------------------------------------------------------------------ drawing
def test_each_deck_reshuffles_its_own_discards():
    game = start_world()
    state = game.state
    state.extras["ship_discard"] = list(ship_deck(game))
    ship_deck(game).clear()
    train_before = len(state.deck)
    game.apply(DrawBlind("ship"))
    assert state.extras["ship_discard"] == []
    assert len(state.deck) == train_before  # the train deck was not touched
    assert all(game.rules.cards[c].deck == "ship" for c in ship_deck(game))
    assert card_decks(game) == {"train": 80, "ship": 60}


def test_taken_face_up_card_is_replaced_from_the_deck_of_the_takers_choice():
    game = start_world()
    lay_out(
        game, ["train-red", "train-green", "train-black", "ship-red", "ship2-red", "ship-white"]
    )
    stack_deck(game, ["ship2-yellow", "train-white"])
    game.apply(DrawFaceUp(0, "ship"))
    assert game.state.face_up[0] == "ship2-yellow"
    assert game.log[-1] == (
        "Player 1 takes the face-up red Train card, refilling from the ship deck"
    )
    game.apply(DrawFaceUp(3, "train"))
    assert game.state.face_up[3] == "train-white"
    assert {a.refill for a in game.legal_actions() if isinstance(a, DrawFaceUp)} == {
        "train",
        "ship",
    }


def test_refill_from_an_empty_deck_is_refused_while_the_other_has_cards():
    game = start_world()
    state = game.state
    for card in ship_deck(game) + state.extras["ship_discard"]:
        state.players[1].hand[card] += 1  # every Ship card out of play, in a hand
    ship_deck(game).clear()
    state.extras["ship_discard"].clear()
    error = refused(game, DrawFaceUp(0, "ship"))
    assert "the ship deck and its discard pile are empty" in error.rule
    assert "replaced from the train deck" in error.rule
    assert "there is no 'boat' deck" in refused(game, DrawFaceUp(0, "boat")).rule
    assert all(a.refill == "train" for a in game.legal_actions() if isinstance(a, DrawFaceUp))
    assert "ship deck and its discard pile are both empty" in refused(game, DrawBlind("ship")).rule


def test_face_up_wild_is_the_whole_draw_and_never_the_second_card():
    game = start_world()
    lay_out(game, [WILD, "train-red", "train-green", "ship-red", "ship2-red", "ship-white"])
    stack_deck(game, ["train-black"])
    game.apply(DrawFaceUp(1, "train"))
    assert game.state.pending == "second_card"
    assert "cannot be taken as the second card" in refused(game, DrawFaceUp(0, "train")).rule
    game.apply(DrawBlind("ship"))
    assert game.current_player == 1
    game.apply(DrawFaceUp(0, "ship"))  # a Wild first: the turn is over
    assert game.current_player == 0 and game.state.pending is None


def test_three_face_up_wilds_discard_all_six_and_deal_three_from_each_deck():
    game = start_world()
    state = game.state
    row = [WILD, WILD, "train-red", "ship-red", "ship2-red", "ship-white"]
    lay_out(game, row)
    stack_deck(game, [WILD, "train-green", "train-black", "train-white"])
    stack_deck(game, ["ship2-black", "ship-green", "ship2-white"])
    train_discard, ship_discard = len(state.discard), len(state.extras["ship_discard"])
    game.apply(DrawFaceUp(2, "train"))  # the red card is replaced by a third Wild
    assert sorted(state.discard[train_discard:]) == [WILD, WILD, WILD]
    assert sorted(state.extras["ship_discard"][ship_discard:]) == [
        "ship-red",
        "ship-white",
        "ship2-red",
    ]
    assert state.face_up == [
        "train-green", "train-black", "train-white", "ship2-black", "ship-green", "ship2-white"
    ]  # fmt: skip
    assert card_decks(game) == {"train": 80, "ship": 60}


# ---------------------------------------------------------------- claiming
def test_double_ship_card_pays_two_spaces():
    game = start_world()
    route = route_between(game, "edinburgh", "new-york", "red")  # ship 7 red
    give(game, 0, ship2_red=3, ship_red=1)
    game.apply(ClaimRoute(route.id, (("ship2-red", 3), ("ship-red", 1))))
    player = game.state.players[0]
    assert game.state.owner[route.id] == 0
    assert player.pieces["ship"] == 40 - 7 and player.route_score == 18
    assert game.log[-1].endswith("with 1 red Single-Ship card + 3 red Double-Ship cards")


def test_double_ship_may_overpay_by_one_but_no_card_may_be_left_over():
    game = start_world()
    ship3 = route_between(game, "port-moresby", "sydney")  # ship 3 yellow
    give(game, 0, ship2_yellow=2, ship_yellow=2)
    error = refused(game, ClaimRoute(ship3.id, (("ship2-yellow", 1), ("ship-yellow", 2))))
    assert "a card is left over" in error.rule
    error = refused(game, ClaimRoute(ship3.id, (("ship2-yellow", 2), ("ship-yellow", 1))))
    assert "a card is left over" in error.rule
    assert (
        "cover 2 of the route's 3 spaces"
        in refused(game, ClaimRoute(ship3.id, (("ship2-yellow", 1),))).rule
    )
    game.apply(ClaimRoute(ship3.id, (("ship2-yellow", 2),)))  # 4 spaces paid, 3 ships placed
    assert game.state.players[0].pieces["ship"] == 37


def test_ship_cards_cannot_pay_for_a_train_route_nor_train_cards_for_a_ship_route():
    game = start_world()
    train = route_between(game, "moskva", "tehran")  # train 3 red
    give(game, 0, ship_red=3, ship2_red=1, train_red=3, wild=1)
    error = refused(game, ClaimRoute(train.id, (("ship-red", 3),)))
    assert error.rule == "Ship cards cannot pay for a train route (only Train cards and Wilds can)"
    ship = route_between(game, "athina", "marseille")  # ship 2 red
    error = refused(game, ClaimRoute(ship.id, (("train-red", 2),)))
    assert error.rule.startswith("Train cards cannot pay for a ship route")
    game.apply(ClaimRoute(ship.id, (("ship-red", 1), (WILD, 1))))  # a Wild joins Ship cards


def test_pair_route_takes_two_cards_per_space_colours_may_differ():
    game = start_world()
    pair = route_between(game, "beijing", "lahore")  # gray pair route, 3 spaces
    give(game, 0, train_red=2, train_green_harbor=1, train_green=1, train_black=1, wild=1)
    pay = (("train-red", 2), ("train-green", 1), ("train-green-harbor", 1))
    pay += (("train-black", 1), (WILD, 1))
    assert ClaimRoute(pair.id, pay) in game.legal_actions()
    game.apply(ClaimRoute(pair.id, pay))
    assert game.state.players[0].pieces["train"] == 17  # 3 trains for 6 cards
    assert game.state.players[0].route_score == 4


def test_pair_route_refuses_cards_that_do_not_make_pairs():
    game = start_world()
    pair = route_between(game, "lahore", "tehran")  # gray pair route, 2 spaces
    give(game, 0, train_red=2, train_green=1, train_black=1, train_white=2)
    error = refused(
        game, ClaimRoute(pair.id, (("train-red", 2), ("train-green", 1), ("train-black", 1)))
    )
    assert "every space takes two Train cards of one colour" in error.rule
    assert "the black, green cards do not make pairs" in error.rule
    error = refused(game, ClaimRoute(pair.id, (("train-red", 2),)))
    assert "4 cards in all, not 2" in error.rule
    game.apply(ClaimRoute(pair.id, (("train-red", 2), ("train-white", 2))))


def test_double_routes_never_both_to_one_player_and_closed_with_three_players():
    game = start_world(players=4)
    first, second = (r for r in game.map.routes if {r.a, r.b} == {"hamburg", "moskva"})
    give_routes(game, 0, [first.id])
    give(game, 0, train_black=2, train_white=2)
    assert (
        "two routes joining the same two cities"
        in refused(game, ClaimRoute(second.id, (("train-black", 2),))).rule
    )
    three = start_world(players=3)
    give_routes(three, 1, [first.id])
    give(three, 0, train_black=2)
    assert (
        "only one route of a double route"
        in refused(three, ClaimRoute(second.id, (("train-black", 2),))).rule
    )


def test_route_points_one_to_eight():
    game_map = load_map("world")
    assert [game_map.route_points(n) for n in range(1, 9)] == [1, 2, 4, 7, 10, 15, 18, 21]


# ------------------------------------------------------------------ tickets
def test_drawing_tickets_takes_four_and_keeps_at_least_one():
    game = start_world()
    game.apply(DrawTickets())
    offer = game.state.players[0].offer
    assert len(offer) == 4
    assert "at least 1" in refused(game, KeepTickets(())).rule
    game.apply(KeepTickets((offer[2],)))
    assert game.state.ticket_decks["regular"][-3:] == [offer[0], offer[1], offer[3]]


# ------------------------------------------------------------------- harbors
def harbor_pay(colour: str = "yellow") -> tuple[tuple[str, int], ...]:
    return ((f"ship-{colour}", 2), (f"train-{colour}-harbor", 2))


def test_harbor_costs_two_train_and_two_ship_harbor_cards_of_one_colour():
    game = start_world()
    give_routes(game, 0, [route_between(game, "caracas", "lima", "white").id])
    give(game, 0, train_yellow_harbor=3, ship_yellow=1, ship2_yellow=1, train_yellow=1, wild=1)
    assert (
        "a yellow Double-Ship card has no harbor symbol"
        in refused(
            game,
            BuildHarbor(
                "lima", (("ship-yellow", 1), ("ship2-yellow", 1), ("train-yellow-harbor", 2))
            ),
        ).rule
    )
    assert (
        "a yellow Train card has no harbor symbol"
        in refused(
            game,
            BuildHarbor(
                "lima", (("ship-yellow", 1), ("train-yellow", 1), ("train-yellow-harbor", 2))
            ),
        ).rule
    )
    assert (
        "2 Train and 2 Ship cards, not 3 Train cards"
        in refused(game, BuildHarbor("lima", (("train-yellow-harbor", 3), ("ship-yellow", 1)))).rule
    )
    assert "exactly 4 cards" in refused(game, BuildHarbor("lima", (("ship-yellow", 1),))).rule
    pay = (("ship-yellow", 1), ("train-yellow-harbor", 2), (WILD, 1))  # a Wild replaces a ship
    assert BuildHarbor("lima", pay) in game.legal_actions()
    game.apply(BuildHarbor("lima", pay))
    assert game.state.extras["harbors"] == {"lima": 0}
    assert game.state.players[0].extras["harbors_left"] == 2
    assert game.log[-1] == (
        "Player 1 builds a harbor in Lima with 1 yellow Single-Ship card + 2 yellow harbor "
        "Train cards + 1 Wild"
    )
    assert card_decks(game) == {"train": 80, "ship": 60}


def test_harbor_refused_without_a_route_on_a_non_port_and_twice_in_a_city():
    game = start_world()
    give(game, 0, train_red_harbor=4, ship_red=4)
    error = refused(game, BuildHarbor("lima", harbor_pay("red")))
    assert error.rule == (
        "they have no route into Lima (a harbor needs a claimed route into its city)"
    )
    give_routes(game, 0, [route_between(game, "beijing", "yakutsk").id])
    error = refused(game, BuildHarbor("beijing", harbor_pay("red")))
    assert error.rule == "Beijing is not a port city (harbors are built only in port cities)"
    assert "there is no city 'atlantis'" in refused(game, BuildHarbor("atlantis", ())).rule
    give_routes(game, 1, [route_between(game, "caracas", "lima", "white").id])
    game.state.extras["harbors"]["lima"] = 1
    game.state.players[1].extras["harbors_left"] = 2
    give_routes(game, 0, [route_between(game, "caracas", "lima", "yellow").id])
    assert (
        "Lima already has Player 2's harbor"
        in refused(game, BuildHarbor("lima", harbor_pay("red"))).rule
    )
    give_routes(game, 0, [route_between(game, "lima", "valparaiso").id])
    game.state.players[0].extras["harbors_left"] = 0
    error = refused(game, BuildHarbor("valparaiso", harbor_pay("red")))
    assert error.rule == "they have built all 3 of their harbors"


def harbor_position() -> Game:
    """Player 1 completes Rio–Valparaiso (naming two of their harbors), Los Angeles–Rio,
    Rio–Tokyo and the tour Mexico–Caracas–Lima–Valparaiso; Jakarta–Lima is not completed.
    Harbors: Rio (3 tickets), Valparaiso (2), Lima (1); Player 2 builds none."""
    game = start_world()
    pick = [
        ("los-angeles", "mexico", "white"),
        ("caracas", "mexico", "red"),
        ("caracas", "lima", "white"),
        ("lima", "valparaiso", None),
        ("caracas", "rio-de-janeiro", "green"),
        ("los-angeles", "tokyo", "green"),
    ]
    give_routes(game, 0, [route_between(game, a, b, c).id for a, b, c in pick])
    tickets = {frozenset(t.cities): t.id for t in game.map.tickets if not t.tour_values}
    tour = next(t.id for t in game.map.tickets if t.tour_values and t.cities[0] == "mexico")
    wanted = [("rio-de-janeiro", "valparaiso"), ("los-angeles", "rio-de-janeiro")]
    wanted += [("rio-de-janeiro", "tokyo"), ("jakarta", "lima")]
    set_tickets(game, 0, [tickets[frozenset(p)] for p in wanted] + [tour])
    game.state.extras["harbors"].update({"rio-de-janeiro": 0, "valparaiso": 0, "lima": 0})
    game.state.players[0].extras["harbors_left"] = 0
    game.state.phase = "over"
    return game


def test_harbors_score_20_30_40_and_a_ticket_naming_two_harbors_counts_for_each():
    game = harbor_position()
    rules = game.rules
    assert sorted(rules.harbor_scores(game.state, 0)) == [
        ("lima", 1, 20),  # the tour only: Jakarta–Lima is not completed
        ("rio-de-janeiro", 3, 40),
        ("valparaiso", 2, 30),  # Rio–Valparaiso counts here and for Rio
    ]
    assert game.scores()[0]["harbors"] == 90


def test_each_unbuilt_harbor_costs_four_points():
    game = harbor_position()
    assert game.scores()[1]["harbors"] == -12
    game.state.extras["harbors"]["lima"] = 1
    game.state.players[1].extras["harbors_left"] = 2
    assert game.scores()[1]["harbors"] == -8  # Lima names none of Player 2's tickets: 0 - 8


def test_final_score_rows_and_tour_values():
    game = harbor_position()
    row = game.scores()[0]
    assert list(row) == ["routes", "tickets", "harbors", "exchange", "total"]
    # 6 + 15 + 20 - 14 regular tickets, + 15 for the tour travelled in order
    assert row["tickets"] == 6 + 15 + 20 - 14 + 15
    assert game.result()["decided_by"] == "points"


# ----------------------------------------------------------------- exchange
def test_exchange_swaps_pieces_with_the_box_for_one_point_each_and_ends_the_turn():
    game = start_world()
    player = game.state.players[0]
    game.apply(ExchangePieces("train", 2))
    assert player.pieces == {"train": 22, "ship": 38}
    assert player.extras["box"] == {"train": 3, "ship": 12}
    assert game.scores()[0]["exchange"] == -2
    assert game.current_player == 1
    assert game.log[-1] == "Player 1 exchanges 2 ships for 2 trains from the box (−2 points)"


def test_exchange_refused_when_the_box_is_empty():
    game = start_world(supply=(25, 35))
    assert game.state.players[0].extras["box"] == {"train": 0, "ship": 15}
    error = refused(game, ExchangePieces("train", 1))
    assert error.rule == "none of their trains are left in the box to take"
    assert (
        "only 15 ships of theirs are left in the box, not 16"
        in refused(game, ExchangePieces("ship", 16)).rule
    )
    assert "at least one piece" in refused(game, ExchangePieces("ship", 0)).rule
    assert "no 'boat' pieces" in refused(game, ExchangePieces("boat", 1)).rule
    assert not [a for a in game.legal_actions() if getattr(a, "take", None) == "train"]


# --------------------------------------------------------------------- tours
def tour_game(routes: list[tuple[str, str]]) -> tuple[Game, int]:
    game = start_world()
    give_routes(game, 0, [route_between(game, a, b).id for a, b in routes])
    tour = next(t.id for t in game.map.tickets if t.cities == ("casablanca", "al-qahira", "tehran"))
    set_tickets(game, 0, [tour])
    return game, tour


def test_tour_in_order_scores_the_high_value():
    game, tour = tour_game([("casablanca", "al-qahira"), ("al-qahira", "tehran")])
    assert game.rules.ticket_points(game.state, game.state.players[0], tour) == 9


def test_tour_joined_out_of_order_scores_the_low_value():
    # Al-Qahira hangs off Athina: reaching Tehran after it would use Athina–Al-Qahira twice.
    links = [("casablanca", "marseille"), ("marseille", "athina"), ("athina", "al-qahira")]
    game, tour = tour_game([*links, ("athina", "tehran")])
    player = game.state.players[0]
    assert game.rules.ticket_done(game.state, player, tour)
    assert game.rules.ticket_points(game.state, player, tour) == 6


def test_tour_not_joined_costs_the_penalty():
    game, tour = tour_game([("casablanca", "al-qahira")])
    player = game.state.players[0]
    assert not game.rules.ticket_done(game.state, player, tour)
    assert game.rules.ticket_points(game.state, player, tour) == -15


# ----------------------------------------------------------------- game end
def test_six_pieces_or_fewer_gives_everyone_two_more_turns():
    game = start_world()
    state = game.state
    state.players[0].pieces = {"train": 4, "ship": 4}
    route = route_between(game, "athina", "tehran")  # train 2 gray
    give(game, 0, train_red=2)
    game.apply(ClaimRoute(route.id, (("train-red", 2),)))
    assert state.final_turns_left == 4 and state.last_round_by == 0
    movers = []
    while not game.is_over:
        movers.append(game.current_player)
        game.apply(DrawBlind("ship"))
        game.apply(DrawBlind("ship"))
    assert movers == [1, 0, 1, 0]
    assert game.result()["ended_by"] == (
        "Player 1 was down to 6 or fewer pieces, so everyone, Player 1 included, took 2 more turns."
    )
    assert "longest_path" not in game.scores()[0]


# ----------------------------------------------------------- payment listing
def _brute_force(game: Game, route, cards: dict[str, int]) -> set:
    """Every sub-multiset of ``cards`` that the rules accept for ``route``."""
    ids = sorted(cards)
    found = set()
    for counts in itertools.product(*(range(cards[c] + 1) for c in ids)):
        pay = tuple((c, n) for c, n in zip(ids, counts, strict=True) if n)
        if pay and game.rules.world.route_problem(route, pay) is None:
            found.add(pay)
    return found


@pytest.mark.parametrize("seed", range(12))
def test_listed_payments_are_exactly_the_accepted_ones(seed):
    game = start_world()
    rng = random.Random(seed)
    ids = [c.id for c in game.map.card_types]
    routes = [r for r in game.map.routes if r.pair or r.kind == "ship" or r.color == "gray"]
    for _ in range(6):
        route = rng.choice(routes)
        cards = {c: rng.randint(1, 3) for c in rng.sample(ids, 4)}
        for card in ids:
            cards.setdefault(card, 0)
        listed = set(game.rules.world.route_payments(cards, route))
        assert listed == _brute_force(game, route, {c: n for c, n in cards.items() if n})


# ---------------------------------------------------------------- map checks
def _world_variant(tmp_path, change) -> str:
    data = json.loads((MAPS_DIR / "world.json").read_text(encoding="utf-8"))
    change(data)
    path = tmp_path / "world-variant.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        (lambda d: d["components"].pop("harbors_per_player"), "$.components", "harbors_per_player"),
        (
            lambda d: d["components"]["pieces"].update(supply=90),
            "$.components.pieces",
            "a supply of 90 pieces cannot be chosen from 25 trains and 50 ships",
        ),
        (
            lambda d: [c.update(port=False) for c in d["cities"]],
            "$.cities",
            "port cities",
        ),
        (
            lambda d: d["routes"][0].update(pair=True),
            "$.routes[0].pair",
            "only train routes can be pair routes",
        ),
        (
            lambda d: [c.update(count=1) for c in d["components"]["cards"] if c["deck"] == "ship"],
            "$.components.cards",
            "the ship deck holds 12 cards",
        ),
    ],
)
def test_a_map_the_world_rules_cannot_play_is_refused_at_load(tmp_path, change, field, words):
    with pytest.raises(MapFormatError) as info:
        load_map(_world_variant(tmp_path, change))
    assert info.value.field == field and words in info.value.reason


def test_malformed_world_actions_get_a_typed_error():
    game = new_game("world", players=2, seed=1)
    assert "the face-up slot must be a whole number" in refused(game, DrawFaceUp("x")).rule
    game = start_world()
    for action, words in [
        (ChooseSupply("20", 40), "the number of trains must be a whole number"),
        (BuildHarbor(["lima"], ()), "the harbor's city must be text"),
        (BuildHarbor("lima", "wild"), "the payment must be a list"),
        (ExchangePieces("train", 1.5), "the number of pieces exchanged must be a whole number"),
        (ExchangePieces(None, 1), "the kind of piece taken must be text"),
        (DrawFaceUp(0, 7), "the deck that refills the slot must be text"),
    ]:
        assert words in refused(game, action).rule
