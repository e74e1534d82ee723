"""The teaching material: each scripted scenario really shows its rule, the quiz, the notebooks."""

from __future__ import annotations

import io
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from ttr_nb import (
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    IllegalActionError,
    KeepTickets,
    Pass,
    payment,
)
from ttr_nb.game import Game
from ttr_nb.teaching import quiz
from ttr_nb.teaching import scenarios as sc

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
TOTAL_CARDS = 110
TOTAL_TICKETS = 30


def card_total(game: Game) -> int:
    s = game.state
    held = sum(p.hand_size for p in s.players)
    return held + len(s.deck) + len(s.discard) + sum(c is not None for c in s.face_up)


def ticket_total(game: Game) -> int:
    s = game.state
    held = sum(len(p.tickets) + len(p.offer) for p in s.players)
    return held + sum(len(d) for d in s.ticket_decks.values())


ALL_SCENARIOS = [
    sc.setup_position,
    sc.started,
    sc.two_card_draw,
    sc.locomotive_draw,
    sc.blind_locomotive,
    sc.three_locomotive_reset,
    sc.claiming,
    sc.double_route_three_players,
    lambda: sc.double_route(4),
    sc.drawing_tickets,
    sc.final_round,
    sc.final_scoring,
    sc.longest_path_tie,
    lambda: sc.tie_break("tickets"),
    lambda: sc.tie_break("longest path"),
    lambda: sc.tie_break("shared"),
    sc.no_legal_action,
    sc.endless_resets,
]


@pytest.mark.parametrize("make", ALL_SCENARIOS)
def test_scenarios_keep_every_card_and_ticket_and_are_repeatable(make):
    game = make()
    assert card_total(game) == TOTAL_CARDS
    assert ticket_total(game) == TOTAL_TICKETS
    for p in game.state.players:
        on_board = sum(game.map.route_by_id[r].length for r in p.routes)
        assert p.pieces["train"] == 45 - on_board
        assert p.route_score == game.rules.recomputed_route_score(game.state, p)
    again = make()
    assert sc.describe(again) == sc.describe(game)
    assert again.state.to_dict() == game.state.to_dict()


# ------------------------------------------------------------------ setup
def test_setup_position_deals_hands_row_and_tickets_then_keeps_two():
    game = sc.setup_position()
    assert game.phase == "setup" and [p.name for p in game.state.players] == ["Ada", "Ben", "Cleo"]
    assert all(p.hand_size == 4 and len(p.offer) == 3 for p in game.state.players)
    assert None not in game.state.face_up
    offer = list(game.state.players[0].offer)
    assert sc.attempt(game, KeepTickets(offer[:1])).startswith("✘ Refused")
    assert "at least 2" in sc.attempt(game, DrawBlind()) + sc.attempt(game, KeepTickets(()))
    assert sc.attempt(game, KeepTickets(offer[:2])).startswith("✔")
    assert game.state.ticket_decks["regular"][-1] == offer[2]


# ------------------------------------------------------------------ draws
def test_two_card_draw_turn_passes_after_the_second_card():
    game = sc.two_card_draw()
    game.apply(DrawFaceUp(0))
    assert game.state.face_up[0] == "yellow"  # the replacement came from the deck at once
    assert game.current_player == 0 and game.state.pending == "second_card"
    with pytest.raises(IllegalActionError, match="must take a second card"):
        game.apply(ClaimRoute(sc.route_id(game, "denver", "salt-lake-city", "red"), payment(red=3)))
    game.apply(DrawBlind())
    assert game.current_player == 1
    assert game.state.players[0].hand["red"] == 3 and game.state.players[0].hand["orange"] == 1


def test_face_up_locomotive_is_the_whole_draw():
    game = sc.locomotive_draw()
    game.apply(DrawFaceUp(0))
    assert game.current_player == 1 and game.state.players[0].hand["locomotive"] == 1


def test_replacement_locomotive_cannot_be_the_second_card():
    game = sc.locomotive_draw()
    game.apply(DrawFaceUp(1))
    assert game.state.face_up[1] == "locomotive"  # turned up in front of Ada
    assert DrawFaceUp(1) not in game.legal_actions()
    text = sc.attempt(game, DrawFaceUp(1))
    assert "cannot be taken as the second card" in text and game.current_player == 0
    game.apply(DrawFaceUp(2))
    assert game.current_player == 1


@pytest.mark.parametrize("make", [sc.locomotive_draw, sc.blind_locomotive])
def test_blind_locomotive_counts_as_one_card(make):
    game = make()
    game.apply(DrawBlind())
    assert game.state.players[0].hand["locomotive"] == 1
    assert game.current_player == 0 and game.state.pending == "second_card"
    game.apply(DrawBlind())
    assert game.current_player == 1


def test_three_face_up_locomotives_reset_the_row_mid_draw():
    game = sc.three_locomotive_reset()
    discards = len(game.state.discard)
    game.apply(DrawFaceUp(2))
    assert game.state.face_up == ["red", "blue", "yellow", "orange", "purple"]
    assert len(game.state.discard) == discards + 5
    assert game.current_player == 0 and game.state.pending == "second_card"
    assert card_total(game) == TOTAL_CARDS


def test_taking_a_locomotive_in_the_reset_scenario_does_not_reset():
    game = sc.three_locomotive_reset()
    game.apply(DrawFaceUp(0))
    assert game.state.face_up[:2] == ["locomotive", "locomotive"] and game.current_player == 1


# --------------------------------------------------------------- claiming
def test_claiming_lists_payments_refuses_bad_ones_and_scores():
    game = sc.claiming()
    omaha = sc.route_id(game, "denver", "omaha")
    santa_fe = sc.route_id(game, "denver", "santa-fe")
    assert set(sc.payment_options(game, omaha)) == {
        payment(purple=3, locomotive=1),
        payment(purple=2, locomotive=2),
    }
    assert set(sc.payment_options(game, santa_fe)) == {
        payment(purple=2),
        payment(purple=1, locomotive=1),
        payment(blue=1, locomotive=1),
        payment(red=2),
        payment(red=1, locomotive=1),
        payment(locomotive=2),
    }
    assert "red cards cannot pay for a purple route" in sc.attempt(
        game, ClaimRoute(omaha, payment(red=4))
    )
    assert "one colour" in sc.attempt(game, ClaimRoute(santa_fe, payment(red=1, blue=1)))
    assert "exactly 2 cards, not 3" in sc.attempt(game, ClaimRoute(santa_fe, payment(red=3)))
    game.apply(ClaimRoute(omaha, payment(purple=3, locomotive=1)))
    ada = game.state.players[0]
    assert game.state.owner[omaha] == 0 and ada.pieces["train"] == 41 and ada.route_score == 7
    assert game.current_player == 1


def test_claiming_needs_enough_trains():
    game = sc.claiming()
    sc.set_trains(game, 0, 1)
    text = sc.attempt(game, ClaimRoute(sc.route_id(game, "denver", "santa-fe"), payment(red=2)))
    assert "1 trains left, not 2" in text


def test_double_route_closes_with_three_players():
    game = sc.double_route_three_players()
    black = sc.route_id(game, "denver", "kansas-city", "black")
    orange = sc.route_id(game, "denver", "kansas-city", "orange")
    game.apply(ClaimRoute(black, payment(black=4)))
    assert not any(isinstance(a, ClaimRoute) and a.route == orange for a in game.legal_actions())
    assert "only one route of a double route" in sc.attempt(
        game, ClaimRoute(orange, payment(orange=4))
    )
    assert orange not in game.state.owner


def test_double_route_stays_open_with_four_players_but_not_to_the_same_player():
    game = sc.double_route(4)
    black = sc.route_id(game, "denver", "kansas-city", "black")
    orange = sc.route_id(game, "denver", "kansas-city", "orange")
    game.apply(ClaimRoute(black, payment(black=4)))
    assert orange in {a.route for a in game.legal_actions() if isinstance(a, ClaimRoute)}
    game = sc.double_route(4)
    game.apply(ClaimRoute(black, payment(black=4)))
    for _ in range(3):  # Ben, Cleo and Dev draw; back to Ada, who still holds 4 orange
        game.apply(DrawBlind())
        game.apply(DrawBlind())
    assert "two routes joining the same two cities" in sc.attempt(
        game, ClaimRoute(orange, payment(orange=4))
    )


# ---------------------------------------------------------------- tickets
def test_drawing_tickets_keep_at_least_one_rest_to_the_bottom():
    game = sc.drawing_tickets()
    el_paso = sc.ticket_id(game, "denver", "el-paso")
    houston = sc.ticket_id(game, "kansas-city", "houston")
    seattle = sc.ticket_id(game, "seattle", "new-york")
    game.apply(DrawTickets())
    assert game.state.players[0].offer == [el_paso, houston, seattle]
    assert "at least 1" in sc.attempt(game, KeepTickets(()))
    assert "first choose" in sc.attempt(game, DrawBlind())
    game.apply(KeepTickets((el_paso,)))
    assert el_paso in game.state.players[0].tickets
    assert game.state.ticket_decks["regular"][-2:] == [houston, seattle]
    assert game.current_player == 1


def test_short_ticket_deck_deals_what_is_left():
    game = sc.drawing_tickets()
    del game.state.ticket_decks["regular"][2:]
    game.apply(DrawTickets())
    assert len(game.state.players[0].offer) == 2


# --------------------------------------------------------------- game end
def test_final_round_everyone_including_the_trigger_gets_one_turn():
    game = sc.final_round()
    assert game.state.players[0].pieces["train"] == 4
    game.apply(ClaimRoute(sc.route_id(game, "atlanta", "raleigh"), payment(red=2)))
    assert game.state.final_turns_left == 3 and game.state.last_round_by == 0
    seen = []
    while not game.is_over:
        seen.append(game.current_player)
        game.apply(DrawBlind())
        if not game.is_over and game.state.pending:
            game.apply(DrawBlind())
    assert seen == [1, 2, 0]
    assert "the game is over" in sc.attempt(game, DrawBlind())


def test_final_round_is_not_started_with_three_trains_left():
    game = sc.final_round()
    sc.set_trains(game, 0, 5)
    game.apply(ClaimRoute(sc.route_id(game, "atlanta", "raleigh"), payment(red=2)))
    assert game.state.final_turns_left is None


def test_final_scoring_adds_joined_tickets_and_subtracts_the_others():
    game = sc.final_scoring()
    assert game.is_over
    rows = game.scores()
    assert [r["tickets"] for r in rows] == [22 + 6 - 20, 16 - 5, 8 - 12]
    assert [r["longest_path"] for r in rows] == [10, 0, 0]
    assert [r["total"] for r in rows] == [101, 58, 37]
    assert game.winner == 0
    assert "Winner: Ada (decided by points)" in sc.score_table(game)


def test_longest_path_tie_gives_both_players_the_bonus():
    game = sc.longest_path_tie()
    assert game.rules.longest_paths(game.state) == [11, 11, 9]
    assert [r["longest_path"] for r in game.scores()] == [10, 10, 0]
    trail = sc.longest_trail_routes(game, 0)
    assert sum(game.map.route_by_id[r].length for r in trail) == 11
    kansas = [r for r in trail if "kansas-city" in game.map.route_by_id[r].ends]
    assert len(kansas) == 3  # the path passes through Kansas City twice


@pytest.mark.parametrize(
    ("decider", "winners", "decided_by"),
    [
        ("tickets", [0], "most completed tickets"),
        ("longest path", [0], "longest continuous path bonus"),
        ("shared", [0, 1], "shared victory"),
    ],
)
def test_tie_breaks(decider, winners, decided_by):
    game = sc.tie_break(decider)
    rows = game.scores()
    assert rows[0]["total"] == rows[1]["total"]
    result = game.result()
    assert result["winners"] == winners and result["decided_by"] == decided_by


def test_tie_break_rejects_an_unknown_decider():
    with pytest.raises(ValueError, match="decider"):
        sc.tie_break("coin toss")


# ------------------------------------------------------------ house rules
def test_no_legal_action_means_pass_until_everyone_passes():
    game = sc.no_legal_action()
    assert game.legal_actions() == [Pass()]
    game.apply(Pass())
    assert game.legal_actions() == [Pass()]
    game.apply(Pass())
    assert "only allowed when no other action" in sc.attempt(game, Pass())
    assert game.state.passes_in_row == 2 and not game.is_over
    sc.set_trains(game, 2, 0)
    game.apply(Pass())
    assert game.is_over


def test_endless_resets_stop_and_leave_the_row():
    game = sc.endless_resets()
    game.apply(DrawFaceUp(0))
    assert game.rules.face_up_wilds(game.state) >= 3
    assert game.current_player == 0 and game.state.pending == "second_card"
    assert card_total(game) == TOTAL_CARDS


def test_attempt_reports_and_leaves_a_refused_game_unchanged():
    game = sc.locomotive_draw()
    game.apply(DrawFaceUp(1))
    before = game.state.to_dict()
    text = sc.attempt(game, DrawFaceUp(0))
    assert text.startswith("✘ Refused: Ada cannot take the face-up locomotive")
    assert game.state.to_dict() == before
    assert (
        sc.attempt(game, DrawFaceUp(2)) == "✔ Ada takes the face-up blue\n  → Turn 2 · Ben to play"
    )


def test_helpers_refuse_impossible_edits():
    game = sc.started()
    with pytest.raises(ValueError, match="no such card type"):
        sc.set_hand(game, 0, gold=1)
    with pytest.raises(ValueError, match="slots"):
        sc.set_face_up(game, ["red"])
    with pytest.raises(ValueError, match="no route"):
        sc.route_id(game, "denver", "miami")
    omaha = sc.route_id(game, "denver", "omaha")
    sc.give_routes(game, 0, [omaha])
    with pytest.raises(ValueError, match="already claimed"):
        sc.give_routes(game, 1, [omaha])


def test_board_helper_shows_owners_and_highlights():
    pytest.importorskip("ipycanvas")
    game = sc.claiming()
    omaha = sc.route_id(game, "denver", "omaha")
    view = sc.board(game, highlight=[omaha])
    assert view.pieces.highlighted == frozenset({omaha})
    assert view.pieces.player_names == ["Ada", "Ben", "Cleo"]
    game.apply(ClaimRoute(omaha, payment(purple=3, locomotive=1)))
    sc.refresh(view, game)
    assert view.pieces.owner[omaha] == 0 and not view.pieces.highlighted


# ------------------------------------------------------------------- quiz
RIGHT = "bacbcaac"  # the USA quiz answers, kept here only


def test_usa_quiz_has_five_to_eight_questions_each_with_one_right_answer():
    assert 5 <= len(quiz.USA) <= 8
    for number, question in enumerate(quiz.USA.questions, start=1):
        right = [x for x in question.letters if quiz.USA.is_correct(number, x)]
        assert right == [RIGHT[number - 1]], question.prompt
        assert question.key not in question.letters
        assert question.explanation and question.hint


def test_quiz_check_prints_right_wrong_and_explanation():
    out = io.StringIO()
    with redirect_stdout(out):
        quiz.check(1, RIGHT[0].upper())
        quiz.check(1, "a" if RIGHT[0] != "a" else "b")
        quiz.check(1, "?")
    right, wrong, unknown = out.getvalue().split("\nQuestion")
    assert right.startswith("Question 1: right!") and "locomotive" in right
    assert "not quite" in wrong and "Hint:" in wrong
    assert "one of the letters a, b, c" in unknown
    with pytest.raises(ValueError, match="questions 1 to"):
        quiz.check(99, "a")
    with pytest.raises(ValueError, match="no quiz"):
        quiz.get("atlantis")


# ----------------------------------------------------------------- binder
def test_binder_installs_the_project_with_its_notebook_stack():
    requirements = (ROOT / "binder" / "requirements.txt").read_text(encoding="utf-8")
    lines = [line.strip() for line in requirements.splitlines()]
    # a regular install: a JupyterHub's home volume hides the repository (binder/start)
    assert ".[app]" in lines and "-e .[app]" not in lines
    assert (ROOT / "binder" / "runtime.txt").read_text(encoding="utf-8").strip() == "python-3.11"
