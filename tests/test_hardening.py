"""Faults a careless or hostile caller found in the engine (issue 15, items 1–5 and 8).

Each test here failed on the engine before the fix: it names the fault it guards.
"""

from __future__ import annotations

import json

import pytest
from positions import hoard_all_cards, set_face_up, set_hand

from ttr_nb import (
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    IllegalActionError,
    KeepTickets,
    MapFormatError,
    Pass,
    load_map,
    new_game,
)
from ttr_nb.errors import PlayerNameError
from ttr_nb.maps import MAPS_DIR


def refused(game, action) -> IllegalActionError:
    """Apply ``action``, expect a refusal and an untouched game; return the error."""
    before = game.to_json()
    with pytest.raises(IllegalActionError) as info:
        game.apply(action)
    assert game.to_json() == before, "a refused action changed the game"
    return info.value


# 1. A payment naming a card twice could spend cards the player does not hold.
def test_repeated_payment_entries_cannot_overspend(game2):
    route = next(r for r in game2.map.routes if r.length == 5 and r.color == "blue")
    set_hand(game2, 0, blue=1)
    error = refused(game2, ClaimRoute(route.id, (("blue", 1),) * 5))
    assert "they hold 1 blue card, not 5" in error.rule
    assert ClaimRoute(route.id, (("blue", 1),) * 5).cards == (("blue", 5),)
    assert all(n >= 0 for n in game2.state.players[0].hand.values())


def test_repeated_entries_add_up_to_a_legal_payment(game2):
    route = next(r for r in game2.map.routes if r.length == 2 and r.color == "gray")
    set_hand(game2, 0, red=2)
    game2.apply(ClaimRoute(route.id, (("red", 1), ("red", 1))))
    assert game2.state.owner[route.id] == 0
    assert game2.state.players[0].hand["red"] == 0


# 2. Face-up slots left empty when every card was in hands never filled again.
def test_empty_face_up_slots_refill_when_cards_come_back(game2):
    hoard_all_cards(game2, 0)  # deck, discards and the face-up row are now empty
    assert game2.state.face_up == [None] * 5
    route = next(r for r in game2.map.routes if r.length == 3 and r.color == "gray")
    hand = game2.state.players[0].hand
    colour = max((c for c in hand if c != "locomotive"), key=hand.get)
    game2.apply(ClaimRoute(route.id, ((colour, 3),)))
    # The three spent cards went to the discards, which were shuffled into the empty row.
    assert sum(c is not None for c in game2.state.face_up) == 3
    assert game2.state.discard == [] and game2.state.deck == []
    assert any(isinstance(a, DrawFaceUp) for a in game2.legal_actions())


# 3. Malformed actions escaped as TypeError, OverflowError, RecursionError or KeyError.
@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: DrawFaceUp("0"), "the face-up slot must be a whole number, not '0'"),
        (lambda: DrawFaceUp(1.5), "the face-up slot must be a whole number, not 1.5"),
        (lambda: DrawFaceUp(True), "the face-up slot must be a whole number, not True"),
        (lambda: DrawFaceUp(10**100), "there is no face-up slot 1000"),
        (lambda: DrawFaceUp(-1), "there is no face-up slot 0 (the slots are numbered 1 to 5)"),
        (lambda: DrawFaceUp([[[[[1]]]]]), "must be a whole number"),
        (lambda: DrawBlind(["train"]), "the deck must be text"),
        (lambda: DrawBlind("ship"), "there is no 'ship' deck in this game"),
        (lambda: ClaimRoute("1", ()), "the route must be a route number, not '1'"),
        (lambda: ClaimRoute(10**50, (("red", 1),)), "there is no route 1000"),
        (
            lambda: ClaimRoute(1, (("unobtainium", 1),)),
            "there is no 'unobtainium' card in this game",
        ),
        (lambda: ClaimRoute(1, (("red", "2"),)), "the count of red cards must be a whole number"),
        (lambda: ClaimRoute(1, (("red", 0),)), "must be between 1 and 1000, not 0"),
        (lambda: ClaimRoute(1, (("red", -3),)), "must be between 1 and 1000, not -3"),
        (lambda: ClaimRoute(1, (("red", 10**30),)), "must be between 1 and 1000"),
        (
            lambda: ClaimRoute(1, "red"),
            "the payment must be a list of [card, count] pairs, not 'red'",
        ),
        (lambda: ClaimRoute(1, [["red"]]), "each payment entry must be a [card, count] pair"),
        (lambda: ClaimRoute(1, (("x" * 500, 1),)), "a card name must be 1 to 40 characters long"),
        (lambda: ClaimRoute(1, ((["red"], 1),)), "a card name must be text"),
        (lambda: DrawTickets(long="2"), "the number of long tickets must be a small whole number"),
        (lambda: KeepTickets("12"), "the tickets kept must be a list, not '12'"),
        (lambda: KeepTickets(("12",)), "a ticket must be a ticket number, not '12'"),
        (lambda: KeepTickets((None, {"x": 1})), "a ticket must be a ticket number, not None"),
        (lambda: KeepTickets(7), "the tickets kept must be a list, not 7"),
        (lambda: "DrawBlind", "'DrawBlind' is not an action"),
        (lambda: None, "None is not an action"),
    ],
)
def test_malformed_actions_get_a_typed_error(game2, make, words):
    error = refused(game2, make())
    assert words in error.rule
    assert error.player == "Player 1"
    assert len(str(error)) < 300


def test_keeping_tickets_refuses_malformed_lists():
    game = new_game("usa", players=2, seed=1)
    assert (
        "they can only keep tickets they have just drawn"
        in refused(game, KeepTickets((10**40,))).rule
    )
    offer = game.state.players[0].offer
    assert "a ticket can only be kept once" in refused(game, KeepTickets((offer[0],) * 2)).rule


# 4. Messages: 1-based slots, "draw draw", "2 locomotive", bare route ids.
def test_messages_use_words_a_player_knows(game2):
    set_face_up(game2, ["red", "locomotive", "blue", "green", "white"])
    game2.apply(DrawFaceUp(0))
    error = refused(game2, DrawFaceUp(1))
    assert error.rule == "a face-up locomotive cannot be taken as the second card"
    assert str(error).startswith("Player 1 cannot take the face-up locomotive")
    assert "slot 2" not in str(error) and "slot 1" not in str(error)
    game2.apply(DrawFaceUp(0))
    route = next(r for r in game2.map.routes if r.length == 4 and r.color == "blue")
    set_hand(game2, 1, blue=1, locomotive=1)
    error = refused(game2, ClaimRoute(route.id, (("blue", 2), ("locomotive", 2))))
    label = game2.map.route_label(route)  # e.g. "Helena–Winnipeg (4 blue)"
    assert f"cannot claim {label} with 2 blue cards + 2 locomotives" in str(error)
    assert "they hold 1 blue card, not 2" in error.rule
    error = refused(game2, DrawBlind("ship"))
    assert "draw draw" not in str(error)
    assert str(error).startswith("Player 2 cannot draw a card from the ship deck")


def test_log_lines_pluralise_cards(game2):
    route = next(r for r in game2.map.routes if r.length == 3 and r.color == "gray")
    set_hand(game2, 0, red=1, locomotive=2)
    game2.apply(ClaimRoute(route.id, (("red", 1), ("locomotive", 2))))
    assert game2.log[-1].endswith("with 1 red card + 2 locomotives")


# 5. Maps that cannot be played are refused at load; a stuck game ends cleanly.
def _write_map(tmp_path, change) -> str:
    data = json.loads((MAPS_DIR / "usa.json").read_text(encoding="utf-8"))
    change(data)
    path = tmp_path / "custom.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_a_map_without_travel_cards_is_refused_at_load(tmp_path):
    def no_cards(data):
        for card in data["components"]["cards"]:
            card["count"] = 0

    with pytest.raises(MapFormatError, match="the decks hold 0 cards") as info:
        load_map(_write_map(tmp_path, no_cards))
    assert info.value.field == "$.components.cards"


def test_a_map_with_only_long_tickets_is_refused_at_load(tmp_path):
    def all_long(data):
        for ticket in data["tickets"]:
            ticket["deck"] = "long"

    with pytest.raises(MapFormatError, match="'regular' deck at setup; this map has 0") as info:
        load_map(_write_map(tmp_path, all_long))
    assert info.value.field == "$.tickets"


def test_a_game_where_nobody_can_act_ends_with_the_rule_shown(game2):
    state = game2.state
    for name in state.ticket_decks:
        state.ticket_decks[name] = []
    for player in state.players:
        for card in player.hand:
            player.hand[card] = 0
    state.deck, state.discard, state.face_up = [], [], [None] * 5
    assert game2.legal_actions() == [Pass()]
    game2.apply(Pass())
    game2.apply(Pass())
    assert game2.is_over
    result = game2.result()
    assert result["ended_by"].startswith("No player could do anything for a whole round")


def test_the_last_round_is_explained_at_the_end():
    from ttr_nb.bots import RandomBot, play_out

    game = play_out(new_game("usa", players=2, seed=3), [RandomBot(1), RandomBot(2)])
    who = game.state.players[game.state.last_round_by].name
    assert game.result()["ended_by"].startswith(f"{who} was down to 2 or fewer trains")


# 8. Names: printable, at most 40 characters, refused at entry.
@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("x" * 10_000_000, "has 10,000,000 characters; at most 40"),
        ("Ann\ud800", "printable"),
        ("Ann\nBob", "printable"),
        ("   ", "is empty"),
        (7, "must be text"),
    ],
)
def test_unusable_names_are_refused_at_entry(name, words):
    with pytest.raises(PlayerNameError, match=words) as info:
        new_game("usa", players=["Bo", name], seed=1)
    assert info.value.seat == 1
    assert str(info.value).startswith("the name of player 2")


def test_every_count_stays_non_negative_after_refusals(game2):
    """Dozens of overspending payments in a row leave every count as it was."""
    set_hand(game2, 0, red=1, locomotive=1)
    hands = json.dumps([p.hand for p in game2.state.players])
    for route in game2.map.routes[:40]:
        for cards in ((("red", 1),) * (route.length + 1), (("locomotive", route.length + 1),)):
            try:
                game2.apply(ClaimRoute(route.id, cards))
            except IllegalActionError:
                continue
            break
    state = game2.state
    assert all(n >= 0 for p in state.players for n in p.hand.values())
    assert all(n >= 0 for p in state.players for n in p.pieces.values())
    assert json.dumps([p.hand for p in state.players]) == hands  # nothing was claimed


# Issue 25, item 29: the engine's trusted constructors skipped normalisation.
def test_trusted_claims_cannot_overspend_or_reorder(game2):
    route = next(r for r in game2.map.routes if r.length == 3 and r.color == "yellow")
    set_hand(game2, 0, yellow=2)
    repeated = ClaimRoute.trusted(route.id, (("yellow", 2), ("yellow", 1)))
    assert repeated.cards == (("yellow", 3),)
    error = refused(game2, repeated)
    assert "they hold 2 yellow cards, not 3" in error.rule
    assert all(n >= 0 for n in game2.state.players[0].hand.values())
    # Out of order: the same action as the sorted payment, so the discard order and
    # the save are the same as with the plain constructor.
    set_hand(game2, 0, yellow=2, locomotive=1)
    out_of_order = ClaimRoute.trusted(route.id, (("yellow", 2), ("locomotive", 1)))
    assert out_of_order == ClaimRoute(route.id, (("locomotive", 1), ("yellow", 2)))
    twin = game2.clone()
    game2.apply(out_of_order)
    twin.apply(ClaimRoute(route.id, (("locomotive", 1), ("yellow", 2))))
    assert game2.snapshot() == twin.snapshot()


def test_trusted_harbor_payments_are_normalised():
    from ttr_nb.rules.world_actions import BuildHarbor

    action = BuildHarbor.trusted("lima", (("ship_red", 2), ("train_red", 1), ("ship_red", 1)))
    assert action.cards == BuildHarbor("lima", (("ship_red", 3), ("train_red", 1))).cards
    assert action == BuildHarbor("lima", (("train_red", 1), ("ship_red", 3)))
