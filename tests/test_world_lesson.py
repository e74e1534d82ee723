"""The World lesson's material: each scripted position shows its rule, and the quiz."""

from __future__ import annotations

import pytest

from ttr_nb import DrawFaceUp
from ttr_nb.rules.world import BuildHarbor, ExchangePieces
from ttr_nb.teaching import quiz
from ttr_nb.teaching import world_scenarios as ws

RIGHT = "bacbabca"  # the World quiz answers, kept here only


def test_world_quiz_has_one_right_answer_per_question():
    assert len(quiz.WORLD) == 8
    for number, question in enumerate(quiz.WORLD.questions, start=1):
        right = [x for x in question.letters if quiz.WORLD.is_correct(number, x)]
        assert right == [RIGHT[number - 1]], number
        assert question.explanation and question.hint


def test_world_quiz_checks_by_name(capsys):
    quiz.check(2, RIGHT[1], "world")
    assert "right!" in capsys.readouterr().out


def test_refill_choice_shows_the_deck_the_player_chose():
    game = ws.refill_choice()
    game.apply(DrawFaceUp(0, "ship"))
    assert game.state.face_up[0] == "ship2-white"
    game = ws.refill_choice()
    game.apply(DrawFaceUp(0, "train"))
    assert game.state.face_up[0] == "wild"


def test_wild_reset_deals_three_from_each_deck():
    game = ws.wild_reset()
    game.apply(DrawFaceUp(2, "train"))
    decks = [game.rules.cards[c].deck for c in game.state.face_up]
    assert decks == ["train"] * 3 + ["ship"] * 3


def test_double_ship_and_pair_route_positions():
    game = ws.double_ship()
    assert ws.claim(game, "dar-es-salaam", "mumbai", {"ship2-white": 2}).startswith("✔")
    game = ws.pair_route()
    bad = {"train-red": 2, "train-black": 2, "train-green": 1, "train-yellow": 1}
    assert "do not make pairs" in ws.claim(game, "beijing", "lahore", bad)


def test_harbor_positions():
    game = ws.harbor_building()
    pay = (("ship-yellow", 1), ("train-yellow-harbor", 2), ("wild", 1))
    assert ws.attempt(game, BuildHarbor("lima", pay)).startswith("✔")
    game = ws.harbor_scoring()
    assert [r["harbors"] for r in game.scores()] == [90, -8, -12]


@pytest.mark.parametrize(("supply", "ok"), [((20, 40), True), ((25, 35), False)])
def test_exchange_position(supply, ok):
    game = ws.exchange(supply)
    assert ws.attempt(game, ExchangePieces("train", 2)).startswith("✔" if ok else "✘")


def test_two_more_turns_position():
    game = ws.two_more_turns()
    assert ws.claim(game, "athina", "tehran", {"train-red": 2}).startswith("✔")
    assert len(ws.draw_round(game)) == 6 and game.is_over
