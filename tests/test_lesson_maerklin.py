"""The Märklin lesson: three parts of at most half an hour, every rule shown, the quiz sealed."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from ttr_nb.teaching import curriculum, quiz

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
PARTS = [
    "rules_maerklin_1_cards_and_passengers.ipynb",
    "rules_maerklin_2_journeys_and_scoring.ipynb",
    "rules_maerklin_3_best_journey_and_quiz.ipynb",
]
ANSWERS = "bcabbcaa"  # the Märklin quiz, kept here only


def cells(name: str) -> list[nbformat.NotebookNode]:
    return nbformat.read(NOTEBOOKS / name, as_version=4).cells


def text(kind: str) -> str:
    return "\n".join(c.source for name in PARTS for c in cells(name) if c.cell_type == kind)


def test_parts_are_exactly_the_maerklin_notebooks():
    assert sorted(p.name for p in NOTEBOOKS.glob("rules_maerklin_*.ipynb")) == PARTS


def test_every_rule_of_the_issue_has_a_section():
    headings = [line.lower() for line in text("markdown").splitlines() if line.startswith("## ")]
    for topic in (
        "numbers",
        "face-up row",
        "two kinds of reset",
        "locomotive +4",
        "tickets",
        "placing a passenger",
        "moving a passenger",
        "rules of the road",
        "which journeys",
        "final score",
        "maximum-weight trail",
        "its cost",
        "greedy walk goes wrong",
        "quiz",
    ):
        assert any(topic in h for h in headings), topic


def test_boards_are_shown_as_views_with_their_pictures():
    boards = [c.source for name in PARTS for c in cells(name) if "mk.board(" in c.source]
    assert len(boards) >= 5
    # The view itself (not view.widget) carries a picture of the board into exports.
    assert all(source.splitlines()[-1] == "view" for source in boards)
    assert "view.widget" not in text("code")


def test_claims_are_checked_by_code_in_the_lesson():
    code = text("code")
    assert code.count("assert ") >= 8


@pytest.mark.parametrize("name", PARTS)
def test_each_part_is_short_stored_clean_and_linked(name):
    assert curriculum.estimate_minutes(NOTEBOOKS / name) <= 30
    part = PARTS.index(name) + 1
    prose = "\n".join(c.source for c in cells(name) if c.cell_type == "markdown")
    assert f"Part {part} of 3" in prose and "](index.ipynb)" in prose
    assert all(f"]({other})" in prose for other in PARTS if other != name)
    assert "stand-in" in prose
    for cell in cells(name):
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None


def test_the_quiz_has_one_sealed_answer_per_question():
    questions = quiz.get("maerklin")
    assert len(questions) == len(ANSWERS) == 8
    for number, question in enumerate(questions.questions, start=1):
        good = [letter for letter in question.letters if questions.is_correct(number, letter)]
        assert good == [ANSWERS[number - 1]]
    asked = [c for c in text("code").split("\n") if "quiz.check(" in c]
    assert len(asked) == 8 and all('"?", "maerklin"' in line for line in asked)
    everything = text("markdown") + text("code")
    assert not any(q.explanation in everything for q in questions.questions)


def test_the_lessons_are_listed_in_the_index_and_the_course():
    index = json.loads((NOTEBOOKS / "index.ipynb").read_text(encoding="utf-8"))
    prose = "\n".join("".join(c["source"]) for c in index["cells"])
    assert all(f"]({name})" in prose for name in PARTS)
    listed = [lesson.notebook for lesson in curriculum.LESSONS]
    assert [listed.index(name) for name in PARTS] == sorted(listed.index(n) for n in PARTS)
