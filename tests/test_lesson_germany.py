"""The Germany lesson: every rule on a board, the quiz sealed, listed in the index."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ttr_nb.teaching import quiz_germany

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
RIGHT = "bacbcabc"  # the Germany quiz answers, kept here only


def sources(kind: str | None = None) -> list[str]:
    nb = json.loads((NOTEBOOKS / "rules_germany.ipynb").read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in nb["cells"] if kind is None or c["cell_type"] == kind]


def test_lesson_shows_each_rule_on_the_board():
    sections = [line for s in sources("markdown") for line in s.splitlines() if line[:3] == "## "]
    for topic in [
        "numbers",
        "Setting up",
        "passengers",
        "Countries are dead ends",
        "triple routes",
        "Drawing tickets",
        "majorities",
        "tied",
        "graph idea",
        "Quiz",
    ]:
        assert any(topic.lower() in s.lower() for s in sections), topic
    code = sources("code")
    assert sum("gm.board(" in c for c in code) >= 5
    assert sum("Try it" in s for s in sources("markdown")) >= 6
    assert not re.search(r"/(work|tmp|home|root)/", "\n".join(sources()))


def test_lesson_quiz_is_sealed_with_one_right_answer_each():
    assert len(quiz_germany.GERMANY) == len(RIGHT) == 8
    for number, question in enumerate(quiz_germany.GERMANY.questions, start=1):
        right = [x for x in question.letters if quiz_germany.GERMANY.is_correct(number, x)]
        assert right == [RIGHT[number - 1]]
    checks = [c for c in sources("code") if "quiz.check(" in c]
    assert len(checks) == 8 and all('"?"' in c for c in checks)
    text = "\n".join(sources())
    assert all(q.explanation not in text for q in quiz_germany.GERMANY.questions)


def test_quiz_check_explains_a_right_answer(capsys):
    quiz_germany.check(4, RIGHT[3])
    assert "right!" in capsys.readouterr().out
    with pytest.raises(ValueError):
        quiz_germany.check(9, "a")


def test_index_lists_the_lesson_after_the_usa_rules():
    nb = json.loads((NOTEBOOKS / "index.ipynb").read_text(encoding="utf-8"))
    text = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert text.find("](rules_usa.ipynb)") < text.find("](rules_germany.ipynb)")
