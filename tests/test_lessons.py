"""The lessons as a teacher would check them: order, rules coverage, hidden solutions, boards.

(Running the notebooks is nbval's job: ``pytest notebooks``.)
"""

from __future__ import annotations

import ast
import builtins
import inspect
import json
import re
import symtable
from pathlib import Path

import pytest

from ttr_nb.teaching import quiz, solutions

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
RULES_PARTS = sorted(p.name for p in NOTEBOOKS.glob("rules_usa_*.ipynb"))
# The other maps' rules lessons come after the graph lessons, in name order.
VARIANT_RULES = sorted(
    p.name for p in NOTEBOOKS.glob("rules_*.ipynb") if not p.name.startswith("rules_usa_")
)
GRAPH_LESSONS = sorted(  # by number, the parts of a lesson (graphs_2_..._1_, _2_) in name order
    (p.name for p in NOTEBOOKS.glob("graphs_*.ipynb")), key=lambda n: (int(n.split("_")[1]), n)
)
LESSONS = [
    p.name
    for p in sorted(NOTEBOOKS.glob("*.ipynb"))
    if p.name not in ("app.ipynb", "teacher.ipynb")
]


def notebook(name: str) -> dict:
    return json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))


def sources(nb: dict, kind: str | None = None) -> list[str]:
    return ["".join(c["source"]) for c in nb["cells"] if kind is None or c["cell_type"] == kind]


@pytest.mark.parametrize("name", LESSONS)
def test_no_machine_paths(name):
    text = "\n".join(sources(notebook(name)))
    assert not re.search(r"/(work|tmp|home|root)/", text)


def test_rules_parts_cover_every_rule_on_a_board_and_hide_the_quiz_answers():
    parts = [notebook(name) for name in RULES_PARTS]
    markdown = [s for nb in parts for s in sources(nb, "markdown")]
    sections = [line for s in markdown for line in s.splitlines() if line.startswith("## ")]
    for topic in [
        "Setting up",
        "Drawing two cards",
        "Locomotives",
        "Three locomotives",
        "Claiming",
        "Double routes",
        "tickets",
        "last round",
        "Final scoring",
        "longest continuous path",
        "tied",
        "House rules",
        "Quiz",
    ]:
        assert any(topic.lower() in s.lower() for s in sections), topic
    code = [c for nb in parts for c in sources(nb, "code")]
    assert sum("sc.board(" in c for c in code) >= 11
    assert sum("Try it" in s for s in markdown) >= 10
    checks = [c for c in code if "quiz.check(" in c]
    assert len(checks) == len(quiz.USA)
    assert all('"?"' in c for c in checks)  # no answer filled in
    joined = "\n".join(s for nb in parts for s in sources(nb))
    for question in quiz.USA.questions:
        assert question.explanation not in joined


@pytest.mark.parametrize("name", RULES_PARTS)
def test_each_rules_part_links_on_and_back(name):
    text = "\n".join(sources(notebook(name), "markdown"))
    index = RULES_PARTS.index(name)
    assert f"part {index + 1} of {len(RULES_PARTS)}" in text
    if index:
        assert f"]({RULES_PARTS[index - 1]})" in text
    if index + 1 < len(RULES_PARTS):
        assert f"]({RULES_PARTS[index + 1]})" in text
    assert "](index.ipynb)" in text


@pytest.mark.parametrize("name", GRAPH_LESSONS)
def test_graph_lessons_have_try_it_cells(name):
    markdown = sources(notebook(name), "markdown")
    assert any("**Try it.**" in s for s in markdown), name


@pytest.mark.parametrize("name", LESSONS)
def test_boards_are_displayed_with_their_picture(name):
    # ``view`` (not ``view.widget``) as the last line: the display bundle then
    # carries an SVG picture beside the widget, so exported notebooks show the board.
    for code in sources(notebook(name), "code"):
        last = code.rstrip().splitlines()[-1] if code.strip() else ""
        assert not last.endswith(".widget"), (name, last)


SOLUTION_BLOCK = re.compile(
    r"<details><summary><b>Solution to (?P<title>[^<]+)</b> \(click to open\)</summary>\n\n"
    r"(?:(?P<note>[^\n]*?)\n\n)??```python\n(?P<code>.*?)\n```\n\n</details>",
    re.S,
)


def _solution_blocks() -> list[tuple[str, str]]:
    blocks = []
    for name in LESSONS:
        for text in sources(notebook(name), "markdown"):
            blocks += [(name, m.group("code")) for m in SOLUTION_BLOCK.finditer(text)]
    return blocks


def test_solutions_are_folded_and_match_the_checked_functions():
    blocks = _solution_blocks()
    assert len(blocks) >= 9
    shown = {}
    module = inspect.getsource(solutions)
    for prelude in solutions.PRELUDES.values():
        assert prelude in module.splitlines()
    for name, code in blocks:
        match = re.search(r"^def (\w+)\(", code, re.M)
        assert match, (name, code[:60])
        function = getattr(solutions, match.group(1))
        source = solutions.markdown(function, "x").split("```python\n")[1].split("\n```")[0]
        assert code == source, f"{name}: the solution of {function.__name__} differs"
        shown[function.__name__] = name
    for name in LESSONS:  # a solution is never an open code cell right in the notebook
        for code in sources(notebook(name), "code"):
            for function in shown:
                assert f"def {function}(" not in code or "NotImplemented" in code, (name, function)


def test_every_solution_is_shown_and_run_by_its_lesson():
    code = "\n".join(c for name in LESSONS for c in sources(notebook(name), "code"))
    pasted = " ".join(re.findall(r"solutions\.paste\(globals\(\), ([^)]*)\)", code))
    functions = [n for n in solutions.__all__ if n not in ("markdown", "paste", "shown_code")]
    shown = {re.search(r"^def (\w+)\(", c, re.M).group(1) for _, c in _solution_blocks()}
    assert set(functions) <= shown
    for function in functions:
        assert f'"{function}"' in pasted, function


def _bound_names(code: str) -> set[str]:
    """Names a notebook cell binds at its top level (imports, assignments, defs, loops)."""

    class Binder(ast.NodeVisitor):
        def __init__(self) -> None:
            self.names: set[str] = set()

        def visit_Import(self, node: ast.Import | ast.ImportFrom) -> None:
            self.names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}

        visit_ImportFrom = visit_Import

        def visit_FunctionDef(self, node: ast.FunctionDef | ast.ClassDef) -> None:
            self.names.add(node.name)  # its body binds names of its own scope only

        visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

        def visit_Lambda(self, node: ast.AST) -> None:
            pass

        visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_Lambda

        def visit_Name(self, node: ast.Name) -> None:
            if isinstance(node.ctx, ast.Store):
                self.names.add(node.id)

    binder = Binder()
    binder.visit(ast.parse(code))
    return binder.names


def _needed_names(code: str) -> set[str]:
    """Global names a piece of code reads without defining them itself."""
    table = symtable.symtable(code, "<solution>", "exec")
    needed = {
        s.get_name()
        for s in table.get_symbols()
        if s.is_referenced() and not (s.is_assigned() or s.is_imported())
    }

    def walk(scope: symtable.SymbolTable) -> None:
        needed.update(s.get_name() for s in scope.get_symbols() if s.is_global())
        for child in scope.get_children():
            walk(child)

    for child in table.get_children():
        walk(child)
    defined = {s.get_name() for s in table.get_symbols() if s.is_assigned() or s.is_imported()}
    return needed - defined - set(dir(builtins))


@pytest.mark.parametrize("name", GRAPH_LESSONS)
def test_pasted_solutions_find_every_name_in_their_lesson(name):
    # A learner pastes a folded solution over the exercise's stub and runs the check: every
    # name the solution reads must be imported or defined by the lesson before that stub.
    cells = ["".join(c["source"]) for c in notebook(name)["cells"] if c["cell_type"] == "code"]
    blocks = [code for lesson, code in _solution_blocks() if lesson == name]
    assert blocks, f"{name} shows no solution"
    for code in blocks:
        function = re.findall(r"^def (\w+)\(", code, re.M)[-1]
        stubs = [
            i
            for i, cell in enumerate(cells)
            if re.search(rf"^def {function}\(", cell, re.M) and "NotImplemented" in cell
        ]
        assert stubs, f"{name}: the solution {function}() has no exercise stub of that name"
        bound = set().union(*(_bound_names(cell) for cell in cells[: stubs[0]]))
        missing = _needed_names(code) - bound
        assert not missing, f"{name}: pasted, {function}() needs {sorted(missing)}"


def test_lesson_helpers_copied_into_solutions_match_the_lesson():
    code = "\n".join(sources(notebook("graphs_3_planning_2_astar.ipynb"), "code"))
    for helper in (solutions.great_circle_km, solutions.km_per_space):
        assert inspect.getsource(helper).strip() in code


def test_index_lists_every_lesson_in_order_and_the_teachers_page_agrees():
    from ttr_nb.teaching import curriculum

    text = "\n".join(sources(notebook("index.ipynb"), "markdown"))
    # The course: the USA rules, then the graph lessons in number order and the other maps'
    # rules in name order, interleaved only where a graph lesson needs a map's rules
    # (lesson 14, Europe's stations and tunnels, after the Europe rules).
    lessons = [lesson.notebook for lesson in curriculum.LESSONS]
    assert lessons[: len(RULES_PARTS)] == RULES_PARTS
    assert [n for n in lessons if n in GRAPH_LESSONS] == GRAPH_LESSONS
    assert [n for n in lessons if n in VARIANT_RULES] == VARIANT_RULES
    assert sorted(lessons) == sorted([*RULES_PARTS, *GRAPH_LESSONS, *VARIANT_RULES])
    europe = max(lessons.index(n) for n in VARIANT_RULES if n.startswith("rules_europe_"))
    assert lessons.index("graphs_14_stations_and_tunnels.ipynb") > europe
    positions = [text.find(f"]({name})") for name in [*lessons, "app.ipynb"]]
    assert -1 not in positions and positions == sorted(positions)
    curriculum.check(NOTEBOOKS)  # raises if a lesson, an exercise or a time is wrong
    # The page's table is the curriculum's, times within 10 minutes of today's estimate
    # (so that a small edit to a lesson does not make the page wrong).
    want = curriculum.teacher_table(NOTEBOOKS).splitlines()
    shown = [line for line in text.splitlines() if line.startswith("| ")]
    assert len(shown) == len(want), "regenerate the table with curriculum.teacher_table"
    minutes = re.compile(r"\| (\d+) min \|")
    for got, expected in zip(shown, want, strict=True):
        assert minutes.sub("|", got) == minutes.sub("|", expected), expected
        if minutes.search(expected):
            a, b = (int(minutes.search(x).group(1)) for x in (got, expected))
            assert abs(a - b) <= 10, (got, expected)


def test_the_course_lists_every_exercise_heading_and_graphs_14s_prerequisites(monkeypatch):
    import dataclasses

    from ttr_nb.teaching import curriculum

    row = next(x for x in curriculum.LESSONS if x.notebook.startswith("graphs_14_"))
    assert row.exercises == ("Exercise 14a",)
    assert {
        "graphs_3_planning_1_dijkstra.ipynb",
        "graphs_11_simulation_lab.ipynb",
        "rules_europe_3_stations_end_and_quiz.ipynb",
    } <= set(row.prerequisites)
    # A notebook's exercise the course forgets is an error, not a silent gap.
    forgetful = tuple(
        dataclasses.replace(x, exercises=()) if x is row else x for x in curriculum.LESSONS
    )
    monkeypatch.setattr(curriculum, "LESSONS", forgetful)
    with pytest.raises(ValueError, match="Exercise 14a is not listed"):
        curriculum.check(NOTEBOOKS)


def test_the_docs_lesson_page_lists_the_course_from_code():
    """docs/lessons.md once named "graphs_1 to graphs_12" by hand; it now holds the list
    written from the course (the generated region ``lessons.list``, from
    ``curriculum.course_list``), and it is current."""
    from ttr_nb.teaching import curriculum

    page = (ROOT / "docs" / "lessons.md").read_text(encoding="utf-8")
    assert "`graphs_12_...`" not in page and "to `graphs_" not in page
    listed = curriculum.course_list()
    region = re.search(r"<!-- gen:lessons\.list -->\n(.*?)<!-- /gen -->", page, re.S)
    assert region is not None, "docs/lessons.md has no generated lessons.list region"
    assert region.group(1).strip() == listed.strip()
    stems = re.findall(r"^1\. \*\*.+?\*\* \(`(\w+)`\)", listed, re.M)
    assert sorted(f"{s}.ipynb" for s in stems) == sorted(n for n in LESSONS if n != "index.ipynb")


def test_graph_lessons_each_fit_one_class():
    from ttr_nb.teaching import curriculum

    for name in GRAPH_LESSONS:
        assert curriculum.estimate_minutes(NOTEBOOKS / name) <= 70, name


GRAPH_PARTS = [n for n in GRAPH_LESSONS if re.match(r"graphs_\d+_[a-z_]+?_\d_", n)]


@pytest.mark.parametrize("name", GRAPH_PARTS)
def test_each_part_of_a_graph_lesson_links_to_the_others(name):
    lesson = name.split("_")[1]
    parts = [n for n in GRAPH_PARTS if n.split("_")[1] == lesson]
    text = "\n".join(sources(notebook(name), "markdown"))
    assert f"Lesson {lesson}, part {parts.index(name) + 1} of {len(parts)}" in text
    for other in parts:
        assert other == name or f"]({other})" in text, other


def test_rules_parts_each_fit_in_half_an_hour():
    from ttr_nb.teaching import curriculum

    assert len(RULES_PARTS) >= 3
    for name in RULES_PARTS:
        assert curriculum.estimate_minutes(NOTEBOOKS / name) <= 30, name


@pytest.mark.parametrize("name", LESSONS)
def test_sections_are_numbered_once_each_in_order(name):
    numbers = [
        int(m.group(1))
        for text in sources(notebook(name), "markdown")
        for m in re.finditer(r"^## (\d+)\. ", text, re.M)
    ]
    assert numbers == sorted(set(numbers)), f"{name}: sections numbered {numbers}"
