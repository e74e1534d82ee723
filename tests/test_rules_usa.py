"""One test per rule of the USA rulebook, on scripted positions."""

from __future__ import annotations

import pytest
from positions import (
    give_routes,
    hoard_all_cards,
    route_between,
    set_face_up,
    set_hand,
    stack_deck,
    start,
)

from ttr_nb import (
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    IllegalActionError,
    KeepTickets,
    Pass,
    new_game,
    payment,
)

TOTAL_CARDS = 110


def card_total(game) -> int:
    s = game.state
    held = sum(p.hand_size for p in s.players)
    return held + len(s.deck) + len(s.discard) + sum(c is not None for c in s.face_up)


# ---------------------------------------------------------------- setup
def test_setup_deals_four_cards_five_face_up_three_tickets():
    game = new_game("usa", players=4, seed=3)
    assert game.phase == "setup"
    for p in game.state.players:
        assert p.hand_size == 4
        assert len(p.offer) == 3
        assert p.pieces == {"train": 45}
    assert len(game.state.face_up) == 5 and None not in game.state.face_up
    assert card_total(game) == TOTAL_CARDS
    assert len(game.state.ticket_decks["regular"]) == 30 - 12


def test_setup_must_keep_at_least_two_tickets_and_returns_rest_to_bottom():
    game = new_game("usa", players=2, seed=5)
    offer = game.state.players[0].offer
    with pytest.raises(IllegalActionError, match="at least 2"):
        game.apply(KeepTickets((offer[0],)))
    game.apply(KeepTickets(tuple(offer[:2])))
    assert game.state.players[0].tickets == offer[:2]
    assert game.state.ticket_decks["regular"][-1] == offer[2]
    assert game.phase == "setup" and game.current_player == 1
    offer1 = game.state.players[1].offer
    game.apply(KeepTickets(tuple(offer1)))
    assert game.phase == "play" and game.current_player == 0


def test_setup_only_allows_choosing_tickets():
    game = new_game("usa", players=2, seed=5)
    with pytest.raises(IllegalActionError, match="choose which of the drawn tickets"):
        game.apply(DrawBlind())


# ------------------------------------------------------------ drawing
def test_two_cards_per_draw_turn(game2):
    set_face_up(game2, ["red", "blue", "green", "white", "black"])
    game2.apply(DrawFaceUp(0))
    assert game2.current_player == 0 and game2.state.pending == "second_card"
    game2.apply(DrawBlind())
    assert game2.current_player == 1
    assert game2.state.players[0].hand_size == 6


def test_face_up_card_is_replaced_from_deck(game2):
    set_face_up(game2, ["red", "blue", "green", "white", "black"])
    stack_deck(game2, ["yellow"])
    game2.apply(DrawFaceUp(1))
    assert game2.state.face_up == ["red", "yellow", "green", "white", "black"]


def test_face_up_locomotive_is_the_only_card_that_turn(game2):
    set_face_up(game2, ["locomotive", "blue", "green", "white", "black"])
    before = game2.state.players[0].hand["locomotive"]
    game2.apply(DrawFaceUp(0))
    assert game2.state.players[0].hand["locomotive"] == before + 1
    assert game2.current_player == 1  # the turn ended after one card


def test_face_up_locomotive_cannot_be_second_card(game2):
    set_face_up(game2, ["locomotive", "blue", "green", "white", "black"])
    game2.apply(DrawFaceUp(1))
    assert DrawFaceUp(0) not in game2.legal_actions()
    with pytest.raises(IllegalActionError, match="locomotive cannot be taken as the second"):
        game2.apply(DrawFaceUp(0))


def test_replacement_locomotive_cannot_be_second_card(game2):
    set_face_up(game2, ["red", "blue", "green", "white", "black"])
    stack_deck(game2, ["locomotive"])
    game2.apply(DrawFaceUp(0))
    assert game2.state.face_up[0] == "locomotive"
    with pytest.raises(IllegalActionError, match="second card"):
        game2.apply(DrawFaceUp(0))
    game2.apply(DrawFaceUp(1))  # any other card is fine
    assert game2.current_player == 1


def test_blind_locomotive_counts_as_one_card(game2):
    stack_deck(game2, ["locomotive", "red"])
    game2.apply(DrawBlind())
    assert game2.state.pending == "second_card" and game2.current_player == 0
    game2.apply(DrawBlind())
    hand = game2.state.players[0].hand
    assert hand["locomotive"] >= 1 and game2.current_player == 1


def test_three_face_up_locomotives_reset_the_row(game2):
    set_face_up(game2, ["locomotive", "locomotive", "green", "white", "black"])
    stack_deck(game2, ["locomotive", "red", "blue", "yellow", "orange", "purple"])
    discard_before = len(game2.state.discard)
    game2.apply(DrawFaceUp(2))  # replacement is the third locomotive
    assert game2.state.face_up == ["red", "blue", "yellow", "orange", "purple"]
    assert len(game2.state.discard) == discard_before + 5
    assert card_total(game2) == TOTAL_CARDS


def test_reset_retry_is_bounded_when_deck_cannot_resolve_it(game2):
    state = game2.state
    # Only locomotives remain outside the hands: resetting can never help.
    for card in list(state.deck) + [c for c in state.face_up if c] + state.discard:
        if card != "locomotive":
            state.players[1].hand[card] += 1
    state.deck = ["locomotive"] * state.deck.count("locomotive")
    state.discard = [c for c in state.discard if c == "locomotive"]
    state.face_up = [c if c == "locomotive" else None for c in state.face_up]
    game2.rules.refill_face_up(state, game2.rng)  # must return, not loop forever
    assert game2.rules.face_up_wilds(state) >= 3
    assert card_total(game2) == TOTAL_CARDS


def test_discards_are_reshuffled_when_deck_runs_out(game2):
    state = game2.state
    state.discard = list(state.deck)
    state.deck = []
    game2.apply(DrawBlind())
    assert state.discard == [] and len(state.deck) > 0
    assert card_total(game2) == TOTAL_CARDS


def test_no_card_draws_when_deck_and_discards_are_empty(game2):
    state = game2.state
    for card in state.deck + [c for c in state.face_up if c]:
        state.players[1].hand[card] += 1
    state.deck, state.discard, state.face_up = [], [], [None] * 5
    legal = game2.legal_actions()
    assert not any(isinstance(a, DrawBlind | DrawFaceUp) for a in legal)
    with pytest.raises(IllegalActionError, match="deck and the discard pile are both empty"):
        game2.apply(DrawBlind())


def test_turn_ends_after_one_card_when_no_second_card_exists(game2):
    state = game2.state
    set_face_up(game2, ["red", "locomotive", "blue", "green", "white"])
    for card in state.deck + state.discard + state.face_up[2:]:
        state.players[1].hand[card] += 1
    state.deck, state.discard = [], []
    state.face_up = ["red", "locomotive", None, None, None]  # only a locomotive would remain
    game2.apply(DrawFaceUp(0))
    assert game2.current_player == 1


# ------------------------------------------------------------ claiming
def test_claim_colour_route_with_matching_cards_and_score(game2):
    route = route_between(game2, "denver", "omaha")  # 4 purple
    set_hand(game2, 0, purple=3, locomotive=1)
    game2.apply(ClaimRoute(route.id, payment(purple=3, locomotive=1)))
    p = game2.state.players[0]
    assert game2.state.owner[route.id] == 0
    assert p.pieces["train"] == 41 and p.route_score == 7
    assert p.hand_size == 0 and game2.state.discard[-4:].count("purple") == 3
    assert game2.current_player == 1  # one route per turn, then the turn ends


def test_a_route_need_not_connect_to_earlier_routes():
    game = start(2)
    set_hand(game, 0, red=1)
    game.apply(ClaimRoute(route_between(game, "atlanta", "nashville").id, payment(red=1)))
    set_hand(game, 1)
    game.apply(DrawBlind())
    game.apply(DrawBlind())
    set_hand(game, 0, blue=1)
    far_away = route_between(game, "seattle", "portland")
    game.apply(ClaimRoute(far_away.id, payment(blue=1)))
    assert game.state.players[0].routes[-1] == far_away.id


def test_face_up_slot_stays_empty_when_no_card_is_left(game2):
    state = game2.state
    set_face_up(game2, ["red", "blue", "green", "white", "black"])
    for card in state.deck + state.discard:
        state.players[1].hand[card] += 1
    state.deck, state.discard = [], []
    game2.apply(DrawFaceUp(2))
    assert state.face_up == ["red", "blue", None, "white", "black"]
    assert game2.state.pending == "second_card"  # other face-up cards remain
    game2.apply(DrawFaceUp(0))
    assert state.face_up == [None, "blue", None, "white", "black"]


def test_payment_options_are_listed(game2):
    route = route_between(game2, "denver", "omaha")  # 4 purple
    set_hand(game2, 0, purple=3, locomotive=2, red=4)
    options = {
        a.cards for a in game2.legal_actions() if isinstance(a, ClaimRoute) and a.route == route.id
    }
    assert options == {payment(purple=3, locomotive=1), payment(purple=2, locomotive=2)}


def test_gray_route_takes_any_one_colour(game2):
    route = route_between(game2, "denver", "santa-fe")  # 2 gray
    set_hand(game2, 0, red=1, blue=2, locomotive=2)
    options = {
        a.cards for a in game2.legal_actions() if isinstance(a, ClaimRoute) and a.route == route.id
    }
    assert options == {
        payment(blue=2),
        payment(blue=1, locomotive=1),
        payment(red=1, locomotive=1),
        payment(locomotive=2),
    }
    with pytest.raises(IllegalActionError, match="one colour"):
        game2.apply(ClaimRoute(route.id, payment(red=1, blue=1)))


def test_wrong_colour_or_count_is_refused(game2):
    route = route_between(game2, "denver", "omaha")  # 4 purple
    set_hand(game2, 0, red=4, purple=5)
    with pytest.raises(IllegalActionError, match="red cards cannot pay for a purple route"):
        game2.apply(ClaimRoute(route.id, payment(red=4)))
    with pytest.raises(IllegalActionError, match="exactly 4 cards, not 5"):
        game2.apply(ClaimRoute(route.id, payment(purple=5)))
    with pytest.raises(IllegalActionError, match="hold 0 locomotive"):
        game2.apply(ClaimRoute(route.id, payment(purple=3, locomotive=1)))


def test_not_enough_trains_left(game2):
    route = route_between(game2, "denver", "omaha")
    set_hand(game2, 0, purple=4)
    game2.state.players[0].pieces["train"] = 3
    with pytest.raises(IllegalActionError, match="3 trains left, not 4"):
        game2.apply(ClaimRoute(route.id, payment(purple=4)))


def test_claimed_route_cannot_be_claimed_again():
    game = start(2)
    route = route_between(game, "denver", "omaha")
    set_hand(game, 0, purple=4)
    game.apply(ClaimRoute(route.id, payment(purple=4)))
    set_hand(game, 1, purple=4)
    with pytest.raises(IllegalActionError, match="already belongs to Player 1"):
        game.apply(ClaimRoute(route.id, payment(purple=4)))


@pytest.mark.parametrize("players", [2, 3])
def test_double_route_closes_in_two_and_three_player_games(players):
    game = start(players)
    first = route_between(game, "denver", "kansas-city", "black")
    second = route_between(game, "denver", "kansas-city", "orange")
    set_hand(game, 0, black=4)
    game.apply(ClaimRoute(first.id, payment(black=4)))
    set_hand(game, 1, orange=4)
    assert not any(isinstance(a, ClaimRoute) and a.route == second.id for a in game.legal_actions())
    with pytest.raises(IllegalActionError, match="only one route of a double route"):
        game.apply(ClaimRoute(second.id, payment(orange=4)))


def test_double_route_open_to_another_player_with_four_players():
    game = start(4)
    first = route_between(game, "denver", "kansas-city", "black")
    second = route_between(game, "denver", "kansas-city", "orange")
    set_hand(game, 0, black=4)
    game.apply(ClaimRoute(first.id, payment(black=4)))
    set_hand(game, 1, orange=4)
    game.apply(ClaimRoute(second.id, payment(orange=4)))
    assert game.state.owner[second.id] == 1


def test_one_player_never_claims_both_tracks_of_a_double_route():
    game = start(4)
    first = route_between(game, "denver", "kansas-city", "black")
    second = route_between(game, "denver", "kansas-city", "orange")
    set_hand(game, 0, black=4, orange=4)
    game.apply(ClaimRoute(first.id, payment(black=4)))
    for _ in range(3):  # the others draw; back to player 1
        game.apply(DrawBlind())
        game.apply(DrawBlind())
    with pytest.raises(IllegalActionError, match="two routes joining the same two cities"):
        game.apply(ClaimRoute(second.id, payment(orange=4)))


# ------------------------------------------------------------- tickets
def test_draw_three_tickets_keep_at_least_one(game2):
    deck = game2.state.ticket_decks["regular"]
    top = deck[:3]
    game2.apply(DrawTickets())
    assert game2.state.players[0].offer == top
    assert game2.current_player == 0 and game2.state.pending == "keep_tickets"
    with pytest.raises(IllegalActionError, match="at least 1"):
        game2.apply(KeepTickets(()))
    with pytest.raises(IllegalActionError, match="first choose"):
        game2.apply(DrawBlind())
    game2.apply(KeepTickets((top[1],)))
    assert top[1] in game2.state.players[0].tickets
    assert deck[-2:] == [top[0], top[2]]  # returned to the bottom, in order
    assert game2.current_player == 1


def test_fewer_tickets_when_the_deck_is_short(game2):
    deck = game2.state.ticket_decks["regular"]
    del deck[2:]
    game2.apply(DrawTickets())
    assert len(game2.state.players[0].offer) == 2
    game2.apply(KeepTickets((game2.state.players[0].offer[0],)))
    game2.state.ticket_decks["regular"].clear()
    assert DrawTickets() not in game2.legal_actions()
    with pytest.raises(IllegalActionError, match="ticket deck is empty"):
        game2.apply(DrawTickets())


def test_cannot_keep_tickets_not_drawn(game2):
    game2.apply(DrawTickets())
    with pytest.raises(IllegalActionError, match="just drawn"):
        game2.apply(KeepTickets((999,)))


# ------------------------------------------------------------- game end
def test_last_round_gives_everyone_including_trigger_one_more_turn():
    game = start(3)
    route = route_between(game, "atlanta", "nashville")  # 1 gray
    game.state.players[0].pieces["train"] = 3
    set_hand(game, 0, red=1)
    game.apply(ClaimRoute(route.id, payment(red=1)))  # 2 trains left: last round starts
    assert game.state.final_turns_left == 3 and game.state.last_round_by == 0
    for expected in (1, 2, 0):
        assert not game.is_over and game.current_player == expected
        game.apply(DrawBlind())
        if not game.is_over and game.state.pending:
            game.apply(DrawBlind())
    assert game.is_over
    assert game.legal_actions() == []
    with pytest.raises(IllegalActionError, match="game is over"):
        game.apply(DrawBlind())


def test_three_trains_left_does_not_trigger_the_end(game2):
    route = route_between(game2, "atlanta", "nashville")
    game2.state.players[0].pieces["train"] = 4
    set_hand(game2, 0, red=1)
    game2.apply(ClaimRoute(route.id, payment(red=1)))
    assert game2.state.final_turns_left is None


def test_no_legal_action_means_pass_and_all_passing_ends_the_game(game2):
    hoard_all_cards(game2, holder=1)
    game2.state.ticket_decks["regular"].clear()
    assert game2.legal_actions() == [Pass()]
    game2.apply(Pass())
    assert game2.current_player == 1 and not game2.is_over
    # Player 2 holds every card and can claim: passing is refused while another action exists.
    with pytest.raises(IllegalActionError, match="only allowed when no other action"):
        game2.apply(Pass())
    game2.state.players[1].pieces["train"] = 0  # now player 2 cannot claim either
    assert game2.legal_actions() == [Pass()]
    game2.apply(Pass())
    assert game2.is_over


def test_a_real_turn_breaks_a_run_of_passes():
    game = start(3)
    hoard_all_cards(game, holder=2)
    game.state.ticket_decks["regular"].clear()
    game.apply(Pass())
    game.apply(Pass())
    assert game.state.passes_in_row == 2
    route = route_between(game, "atlanta", "nashville")
    game.apply(ClaimRoute(route.id, payment(red=1)))
    assert game.state.passes_in_row == 0 and not game.is_over


# ------------------------------------------------------------- scoring
ROUTE_TABLE = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15}


def test_route_scoring_table(game2):
    assert {n: game2.map.route_points(n) for n in ROUTE_TABLE} == ROUTE_TABLE


def _give_routes(game, player, pairs):
    give_routes(game, player, [route_between(game, a, b).id for a, b in pairs])


def _ticket(game, a, b):
    return next(t for t in game.map.tickets if set(t.cities) == {a, b})


def _finish(game):
    game.state.phase = "over"


def test_tickets_add_when_connected_and_subtract_when_not():
    game = start(2)
    done = _ticket(game, "denver", "el-paso")  # 4 points
    missed = _ticket(game, "boston", "miami")  # 12 points
    game.state.players[0].tickets = [done.id, missed.id]
    game.state.players[1].tickets = []
    _give_routes(game, 0, [("denver", "santa-fe"), ("santa-fe", "el-paso")])
    _finish(game)
    row = game.scores()[0]
    assert row["tickets"] == done.points - missed.points
    assert row["routes"] == 2 + 2
    assert row["total"] == row["routes"] + row["tickets"] + row["longest_path"]


def test_longest_path_bonus_goes_to_every_tied_player():
    game = start(3)
    for p in game.state.players:
        p.tickets = []
    _give_routes(game, 0, [("denver", "santa-fe")])  # 2
    _give_routes(game, 1, [("atlanta", "nashville"), ("nashville", "saint-louis")])  # 1 + 2
    _give_routes(game, 2, [("seattle", "portland")])  # 1
    _finish(game)
    rows = game.scores()
    assert [r["longest_path"] for r in rows] == [0, 10, 0]
    _give_routes(game, 0, [("santa-fe", "el-paso")])  # now 4: still beats 3
    _give_routes(game, 1, [("atlanta", "charleston")])  # 1+2+2 = 5 ... a trail
    rows = game.scores()
    assert [r["longest_path"] for r in rows] == [0, 10, 0]
    _give_routes(game, 0, [("el-paso", "houston")])  # 2+2+6 = 10
    _give_routes(game, 1, [("saint-louis", "kansas-city")])  # 5+2 = 7
    rows = game.scores()
    assert [r["longest_path"] for r in rows] == [10, 0, 0]


def test_longest_path_may_loop_through_a_city_but_uses_each_route_once():
    game = start(2)
    for p in game.state.players:
        p.tickets = []
    # A triangle Seattle–Portland–... is not on the map; use the loop
    # Dallas–Houston–New Orleans–Little Rock–Dallas with a tail to Oklahoma City.
    loop = [
        ("dallas", "houston"),
        ("houston", "new-orleans"),
        ("new-orleans", "little-rock"),
        ("little-rock", "dallas"),
        ("dallas", "oklahoma-city"),
    ]
    _give_routes(game, 0, loop)
    lengths = [route_between(game, a, b).length for a, b in loop]
    assert game.rules.longest_paths(game.state)[0] == sum(lengths)  # every route, Dallas twice


def test_longest_path_tie_all_score():
    game = start(2)
    for p in game.state.players:
        p.tickets = []
    _give_routes(game, 0, [("denver", "santa-fe")])
    _give_routes(game, 1, [("seattle", "portland"), ("seattle", "vancouver")])
    _finish(game)
    assert [r["longest_path"] for r in game.scores()] == [10, 10]


def test_running_score_is_routes_only_during_play(game2):
    assert set(game2.scores()[0]) == {"routes", "total"}


def test_winner_most_points():
    game = start(2)
    for p in game.state.players:
        p.tickets = []
    _give_routes(game, 0, [("denver", "phoenix")])  # 5 -> 10
    _give_routes(game, 1, [("seattle", "portland")])
    _finish(game)
    result = game.result()
    assert result["winners"] == [0] and result["decided_by"] == "points"
    assert game.winner == 0


def test_tie_broken_by_completed_tickets_then_longest_path():
    game = start(2)
    t = _ticket(game, "denver", "el-paso")  # 4
    game.state.players[0].tickets = [t.id]
    game.state.players[1].tickets = []
    _give_routes(game, 0, [("denver", "santa-fe"), ("santa-fe", "el-paso")])  # 4 route points
    _give_routes(game, 1, [("denver", "omaha")])  # 7
    _give_routes(game, 1, [("seattle", "portland")])  # +1 = 8 ; p0 4+4 = 8
    _finish(game)
    rows = game.scores()
    assert rows[0]["total"] - rows[0]["longest_path"] == rows[1]["total"] - rows[1]["longest_path"]
    # Player 2's path is 4 long, player 1's is 4 too: both get the bonus.
    assert rows[0]["total"] == rows[1]["total"]
    result = game.result()
    assert result["winners"] == [0] and result["decided_by"] == "most completed tickets"


def test_tie_broken_by_longest_path_when_tickets_equal():
    game = start(2)
    for p in game.state.players:
        p.tickets = []
    _give_routes(game, 0, [("denver", "santa-fe"), ("santa-fe", "el-paso")])  # 4 + bonus 10
    _give_routes(game, 1, [("seattle", "portland")])  # path 1, 1 point
    game.state.players[1].route_score += 13  # stands for other short routes: 14 in all
    _finish(game)
    rows = game.scores()
    assert rows[0]["total"] == rows[1]["total"] == 14
    result = game.result()
    assert result["winners"] == [0]
    assert result["decided_by"] == "longest continuous path bonus"


def test_shared_victory_when_everything_ties():
    game = start(2)
    for p in game.state.players:
        p.tickets = []
    _give_routes(game, 0, [("seattle", "portland")])
    _give_routes(game, 1, [("dallas", "houston")])
    _finish(game)
    result = game.result()
    assert result["winners"] == [0, 1] and result["decided_by"] == "shared victory"
    assert game.winner is None


# -------------------------------------------------- errors and visibility
def test_illegal_action_names_player_action_and_rule_and_changes_nothing(game2):
    route = route_between(game2, "denver", "omaha")
    before = game2.to_dict()
    with pytest.raises(IllegalActionError) as info:
        game2.apply(ClaimRoute(route.id, payment(red=4)))
    err = info.value
    assert isinstance(err, ValueError)
    assert err.player == "Player 1"
    assert "Denver–Omaha" in str(err) and "red" in err.rule
    assert game2.to_dict() == before


def test_observation_hides_opponents_hands_and_tickets(game2):
    obs = game2.observation(0)
    assert obs["hand"] == game2.state.players[0].hand
    assert obs["tickets"] == game2.state.players[0].tickets
    other = obs["players"][1]
    assert "hand" not in other and "tickets" not in other
    assert other["hand_size"] == game2.state.players[1].hand_size
    assert other["ticket_count"] == len(game2.state.players[1].tickets)


def test_unknown_route_is_refused(game2):
    with pytest.raises(IllegalActionError, match="no route 999"):
        game2.apply(ClaimRoute(999, payment(red=1)))


def test_turn_log_is_readable(game2):
    set_face_up(game2, ["red", "blue", "green", "white", "black"])
    game2.apply(DrawFaceUp(0))
    assert game2.log[-1] == "Player 1 takes the face-up red"
    game2.apply(DrawBlind())
    assert game2.log[-1] == "Player 1 draws a card from the deck"
