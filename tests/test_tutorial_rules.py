"""Every rule the rules lessons teach is taught by a step of the map's tutorial.

The rule ids are defined once per map, beside its variant
(``ttr_nb/widgets/variants/*_tutorial.py``); each section of a rules lesson names the ids it
teaches in its heading cell's metadata (``ttr_rules``, an empty list for a quiz or an
algorithm). These tests read the lessons as stored.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest

from ttr_nb.rules import playable_maps
from ttr_nb.widgets.tutorial import tutorial_for, tutorial_maps
from ttr_nb.widgets.tutorial.model import LESSON_TITLES
from ttr_nb.widgets.tutorial.runner import lesson_html

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def lessons_of(map_id: str) -> list[Path]:
    return sorted(NOTEBOOKS.glob(f"rules_{map_id}_*.ipynb"))


def sections(path: Path) -> list[tuple[str, list[str] | None]]:
    """Each ``##`` heading of a lesson with the rule ids its cell names (None: none named)."""
    found = []
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        for line in "".join(cell["source"]).splitlines():
            if line.startswith("## "):
                found.append((line[3:].strip(), cell["metadata"].get("ttr_rules")))
    return found


MAPS_WITH_LESSONS = [m for m in playable_maps() if lessons_of(m)]


def test_every_map_with_rules_lessons_has_a_tutorial() -> None:
    assert MAPS_WITH_LESSONS, "no rules lessons found"
    missing = [m for m in MAPS_WITH_LESSONS if m not in tutorial_maps()]
    assert not missing, f"no tutorial for {missing}"


@pytest.mark.parametrize("map_id", MAPS_WITH_LESSONS)
def test_each_rule_of_the_lessons_is_taught_by_a_step(map_id: str) -> None:
    tutorial = tutorial_for(map_id)
    taught = tutorial.taught()
    named = set()
    for path in lessons_of(map_id):
        for heading, rules in sections(path):
            assert rules is not None, f"{path.name}: section {heading!r} names no ttr_rules"
            named.update(rules)
    assert named, f"the {map_id} lessons name no rule"
    undefined = named - {r.id for r in tutorial.rules}
    assert not undefined, f"{map_id}: lessons name rules the tutorial does not define: {undefined}"
    untaught = named - taught
    assert not untaught, f"{map_id}: no tutorial step teaches {sorted(untaught)}"


@pytest.mark.parametrize("map_id", MAPS_WITH_LESSONS)
def test_each_rule_links_to_a_lesson_section_that_names_it(map_id: str) -> None:
    for rule in tutorial_for(map_id).rules:
        path = NOTEBOOKS / rule.lesson
        assert path.exists(), f"{map_id}: {rule.id} links to a missing lesson {rule.lesson}"
        matching = [rules for heading, rules in sections(path) if heading == rule.section]
        assert matching, f"{map_id}: {rule.id}: no section {rule.section!r} in {rule.lesson}"
        assert rule.id in (matching[0] or []), (
            f"{map_id}: {rule.lesson} section {rule.section!r} does not name {rule.id}"
        )


@pytest.mark.parametrize("map_id", MAPS_WITH_LESSONS)
def test_every_defined_rule_is_taught(map_id: str) -> None:
    tutorial = tutorial_for(map_id)
    unused = {r.id for r in tutorial.rules} - tutorial.taught()
    assert not unused, f"{map_id}: rules defined but taught by no step: {unused}"


@pytest.mark.parametrize("map_id", MAPS_WITH_LESSONS)
def test_rules_lessons_link_to_the_tutorial(map_id: str) -> None:
    for path in lessons_of(map_id):
        first = json.loads(path.read_text(encoding="utf-8"))["cells"][0]
        assert "Learn to play" in "".join(first["source"]), path.name


def title_of(path: Path) -> str:
    """A lesson's title: its first ``#`` heading."""
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] == "markdown":
            for line in "".join(cell["source"]).splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    raise AssertionError(f"{path.name} has no title")


@pytest.mark.parametrize("map_id", MAPS_WITH_LESSONS)
def test_the_tutorial_names_each_lesson_by_its_title_never_its_file(map_id: str) -> None:
    tutorial = tutorial_for(map_id)
    for rule in tutorial.rules:
        assert LESSON_TITLES.get(rule.lesson) == title_of(NOTEBOOKS / rule.lesson), rule.lesson
    shown = lesson_html(
        list(tutorial.rules), "https://hub.example.org/user/a/voila/render/app.ipynb"
    )
    assert ".ipynb" not in shown.replace("/lab/tree/", "").split("href=")[0]
    assert "<a href='https://hub.example.org/user/a/lab/tree/rules_" in shown
    for rule in tutorial.rules:
        assert html.escape(LESSON_TITLES[rule.lesson]) in shown
    bare = lesson_html(list(tutorial.rules), "http://10.0.0.5:8866/")  # the app alone
    assert ".ipynb" not in bare and "<a " not in bare
