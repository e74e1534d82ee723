"""What the grading tests do as students and teachers of an nbgrader course (issue 50).

A student's answer is the code they put in an exercise cell: the model solution (the lesson's
folded one), one of the wrong solutions the lessons' checks refuse (the collection of
``tests/test_exercises.py``, written out as a student would paste it), or nothing (the stub).
"""

from __future__ import annotations

import ast
import inspect
import re
import sys
import textwrap
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import nbformat

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import assignments  # noqa: E402  (tools/assignments.py)

from ttr_nb.teaching import solutions  # noqa: E402

# What every pasted wrong solution may use, as tests/test_exercises.py imports it.
IMPORTS = (
    "import heapq\nimport itertools\nimport math\nfrom collections import deque\n\n"
    "import networkx as nx\n\nfrom ttr_nb.teaching import solutions\n"
)

# Wrong solutions of the two exercises the collection has none for, as a student might write
# them: each fails a trap the lesson's check names.
EXTRA_WRONG = {
    "world_estimate": [
        (
            "twice the great-circle estimate (overestimates)",
            "def world_estimate(place, goal):\n"
            "    return 2 * great_circle_km(world, place, goal) / km_per_space(world)\n",
        )
    ],
    "station_spaces": [
        (
            "every borrowed route free, not only one",
            textwrap.dedent(
                """\
                import heapq, math

                def station_spaces(routes, own, theirs, a, b):
                    best, heap = {a: 0}, [(0, a)]
                    while heap:
                        cost, city = heapq.heappop(heap)
                        if city == b:
                            return cost
                        for rid, x, y, length in routes:
                            if city in (x, y):
                                other = y if city == x else x
                                step = 0 if rid in own or rid in theirs else length
                                if cost + step < best.get(other, math.inf):
                                    best[other] = cost + step
                                    heapq.heappush(heap, (cost + step, other))
                    return None
                """
            ),
        )
    ],
}


def model(name: str) -> str:
    """The model solution of exercise ``name``, as the lesson shows it folded."""
    return solutions.shown_code(getattr(solutions, name))


def _lambda_source(fn: Callable) -> str:
    lines, first = inspect.findsource(fn)
    text = "".join(lines[first : first + 3])
    arity = fn.__code__.co_argcount
    for node in ast.walk(ast.parse(textwrap.dedent(lines[first]).strip().rstrip(",") or "0")):
        if isinstance(node, ast.Lambda) and len(node.args.args) == arity:
            return ast.unparse(node)
    raise ValueError(f"no lambda of {arity} arguments in {text!r}")


def pasted(fn: Callable, name: str) -> str:
    """The code a student would paste to answer exercise ``name`` with ``fn``: the imports
    and helpers it uses, its source, and ``name`` bound to it."""
    if fn.__name__ == "<lambda>":
        return f"{IMPORTS}\n{name} = {_lambda_source(fn)}\n"
    module = sys.modules[fn.__module__]
    needed: list[Callable] = []

    def collect(f: Callable) -> None:
        codes = [f.__code__]
        while codes:
            code = codes.pop()
            codes += [c for c in code.co_consts if isinstance(c, types.CodeType)]
            for used in code.co_names:
                helper = getattr(module, used, None)
                if (
                    isinstance(helper, types.FunctionType)
                    and helper.__module__ == module.__name__
                    and helper not in needed
                ):
                    needed.append(helper)
                    collect(helper)

    needed.append(fn)
    collect(fn)
    sources = [textwrap.dedent(inspect.getsource(f)) for f in reversed(needed)]
    tail = "" if fn.__name__ == name else f"\n{name} = {fn.__name__}\n"
    return IMPORTS + "\n\n" + "\n\n".join(sources) + tail


def wrong_solutions(exercises_by_check: dict[str, str]) -> dict[str, list[tuple[str, str]]]:
    """Every wrong solution of the collection, by the exercise it answers, as pasted code.

    ``exercises_by_check`` maps a check's name to the exercise whose lesson calls it; a
    check no exercise calls (check_bfs runs on the lesson's own BFS) has no place here.
    """
    from test_exercises import CHECKS

    wrong: dict[str, list[tuple[str, str]]] = {}
    for check, _, bad in CHECKS:
        name = exercises_by_check.get(check.__name__)
        if name:
            for fn in bad:
                wrong.setdefault(name, []).append((fn.__name__, pasted(fn, name)))
    for name, extra in EXTRA_WRONG.items():
        wrong.setdefault(name, []).extend(extra)
    return wrong


def course_exercises(course: Path) -> dict[str, list[assignments.Exercise]]:
    """The exercises of every assignment of a built course, from its source notebooks."""
    found = {}
    for folder in sorted((course / "source").iterdir()):
        lesson = ROOT / "notebooks" / f"{folder.name}.ipynb"
        found[folder.name] = [e for _, e in assignments.find_exercises(nbformat.read(lesson, 4))]
    return found


def check_name(exercise: assignments.Exercise) -> str:
    match = re.search(r"check_\w+", exercise.check)
    assert match, exercise.check
    return match.group(0)


def answered(notebook: Any, answers: dict[str, str]) -> Any:
    """A released notebook with some exercise cells answered (by grade id = function name)."""
    notebook = nbformat.from_dict(notebook)
    for cell in notebook.cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("solution") and meta.get("grade_id") in answers:
            cell.source = answers[meta["grade_id"]]
    return notebook


def _names(source: str) -> tuple[set[str], set[str]] | None:
    """The names a cell binds at its top level and the names it reads; None if not Python."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    bound: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                bound.add(sub.id)
    read = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return bound, read


def lean(notebook: Any) -> Any:
    """The notebook of a student who kept only what the graded cells need: every cell nbgrader
    tracks (answers, graded cells, read-only cells), each exercise's self-check, and the code
    cells that bind a name those read (and so on); the reading and drawing cells go.

    nbgrader grades such a notebook as any other (the graded cells are all there); the tests
    grade the wrong solutions this way, and the model solutions in the whole lesson.
    """
    cells = notebook.cells
    tracked = [bool(c.metadata.get("nbgrader")) for c in cells]
    keep = {i for i, t in enumerate(tracked) if t}
    keep |= {i + 1 for i in keep if cells[i].metadata["nbgrader"].get("solution")}
    names = [_names(c.source) if c.cell_type == "code" else (set(), set()) for c in cells]
    keep |= {i for i, found in enumerate(names) if found is None}  # magics: kept, unread
    todo = sorted(keep)
    while todo:
        i = todo.pop()
        bound_here, read = names[i] or (set(), set())
        for name in read - bound_here:
            j = next((j for j in range(i - 1, -1, -1) if name in (names[j] or ({name},))[0]), None)
            if j is not None and j not in keep:
                keep.add(j)
                todo.append(j)
    kept = nbformat.from_dict(notebook)
    kept.cells = [c for i, c in enumerate(kept.cells) if i in keep or c.cell_type == "markdown"]
    return kept


def submit(
    course: Path, student: str, assignment: str, answers: dict[str, str], *, whole: bool = True
) -> Path:
    """Put a student's answered copy of the release where nbgrader collects submissions
    (`whole`: every cell of the lesson; else only what the graded cells need, :func:`lean`)."""
    folder = course / "submitted" / student / assignment
    folder.mkdir(parents=True, exist_ok=True)
    for path in (course / "release" / assignment).glob("*.ipynb"):
        notebook = answered(nbformat.read(path, 4), answers)
        nbformat.write(notebook if whole else lean(notebook), folder / path.name)
    return folder


def scores(course: Path, assignment: str) -> dict[str, dict[str, float]]:
    """Each graded student's score in each graded cell of an assignment, from the gradebook."""
    from nbgrader.api import Gradebook

    found: dict[str, dict[str, float]] = {}
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        for submission in gradebook.assignment_submissions(assignment):
            found[submission.student.id] = {
                grade.name: grade.score for nb in submission.notebooks for grade in nb.grades
            }
    return found


def nbgrader(course: Path, *args: str) -> str:
    """Run an nbgrader command in the course folder (its output; raise if it failed)."""
    return assignments.nbgrader(course, *args)


def first_wrong(*names: str) -> dict[str, str]:
    """The first wrong solution of the collection for each exercise named, as pasted code."""
    by_check = {}
    for path in sorted((ROOT / "notebooks").glob("graphs_*.ipynb")):
        for _, exercise in assignments.find_exercises(nbformat.read(path, 4)):
            by_check[check_name(exercise)] = exercise.name
    wrong = wrong_solutions(by_check)
    return {name: wrong[name][0][1] for name in names}
