"""The Germany lesson: every rule on a board, in parts of half an hour, the quiz sealed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ttr_nb.teaching import curriculum, quiz

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
PARTS = sorted(p.name for p in NOTEBOOKS.glob("rules_germany_*.ipynb"))
RIGHT = "bacbcabc"  # the Germany quiz answers, kept here only


def sources(kind: str | None = None) -> list[str]:
    out = []
    for name in PARTS:
        nb = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
        out += ["".join(c["source"]) for c in nb["cells"] if kind is None or c["cell_type"] == kind]
    return out


def test_lesson_shows_each_rule_on_the_board():
    assert len(PARTS) == 3
    sections = [line for s in sources("markdown") for line in s.splitlines() if line[:3] == "## "]
    for topic in [
        "numbers",
        "Setting up",
        "passengers",
        "triple routes",
        "Drawing tickets",
        "majorities",
        "tied",
        "Countries are dead ends",
        "graph idea",
        "Quiz",
    ]:
        assert any(topic.lower() in s.lower() for s in sections), topic
    code = sources("code")
    assert sum("gm.board(" in c for c in code) >= 5
    assert sum("**Try it.**" in s for s in sources("markdown")) >= 6


@pytest.mark.parametrize("name", PARTS)
def test_each_part_fits_in_half_an_hour_and_links_on_and_back(name):
    assert curriculum.estimate_minutes(NOTEBOOKS / name) <= 30
    nb = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
    text = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    index = PARTS.index(name)
    assert f"Part {index + 1} of {len(PARTS)}" in text
    assert "](index.ipynb)" in text
    for other in PARTS:
        if other != name:
            assert f"]({other})" in text


def test_lesson_quiz_is_sealed_with_one_right_answer_each():
    germany = quiz.get("germany")
    assert len(germany) == len(RIGHT) == 8
    for number, question in enumerate(germany.questions, start=1):
        right = [x for x in question.letters if germany.is_correct(number, x)]
        assert right == [RIGHT[number - 1]]
    checks = [c for c in sources("code") if "quiz.check(" in c]
    assert len(checks) == 8 and all('"?", "germany"' in c for c in checks)
    text = "\n".join(sources())
    assert all(q.explanation not in text for q in germany.questions)


def test_quiz_check_explains_a_right_answer(capsys):
    quiz.check(4, RIGHT[3], "germany")
    assert "right!" in capsys.readouterr().out


def test_index_lists_the_parts_with_the_other_maps():
    nb = json.loads((NOTEBOOKS / "index.ipynb").read_text(encoding="utf-8"))
    text = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    positions = [text.find(f"]({name})") for name in PARTS]
    assert -1 not in positions and positions == sorted(positions)
    assert positions[-1] < text.find("](rules_world_1_decks_and_supply.ipynb)")
