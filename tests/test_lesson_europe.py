"""The Europe lessons' own pieces: the quiz, and the positions the lessons act out."""

from __future__ import annotations

import pytest

from ttr_nb.rules.europe import BORROW, TUNNEL
from ttr_nb.teaching import europe as eu
from ttr_nb.teaching import quiz


def test_the_europe_quiz_is_registered_with_one_right_answer_per_question():
    assert quiz.get("europe") is eu.EUROPE_QUIZ and len(eu.EUROPE_QUIZ) == 8
    for number, question in enumerate(eu.EUROPE_QUIZ.questions, start=1):
        right = [letter for letter in question.letters if eu.EUROPE_QUIZ.is_correct(number, letter)]
        assert len(right) == 1, question.prompt


def test_the_quiz_checks_by_name(capsys):
    quiz.check(5, "b", "europe")
    assert "right" in capsys.readouterr().out


def test_the_tunnel_position_turns_up_the_stacked_cards():
    game = eu.tunnel()
    eu.claim(game, "paris", "zuerich", {"red": 3})
    assert game.state.pending == TUNNEL
    assert game.state.extras["tunnel"]["revealed"] == ["red", "locomotive", "blue"]
    assert eu.tunnel_text(game).endswith("2 more cards asked (red or locomotives)")


def test_the_borrowing_position_ends_with_ada_choosing_and_her_tickets_saved():
    game = eu.borrowing()
    lines = eu.draw_to_the_end(game)
    assert len(lines) == 2 * 4 and game.state.pending == BORROW
    assert len(game.legal_actions()) == 4
    best = max(
        game.legal_actions(),
        key=lambda a: _points_after(game, a),
    )
    game.apply(best)
    assert game.is_over and game.scores()[0]["tickets"] == 8 + 6


def _points_after(game, action):
    trial = game.clone()
    trial.apply(action)
    player = trial.state.players[0]
    return sum(trial.rules.ticket_points(trial.state, player, t) for t in player.tickets)


@pytest.mark.parametrize("maker", [eu.ferry, eu.station_building, eu.setup_position])
def test_each_position_describes_the_stations(maker):
    assert "stations:" in eu.describe(maker())
