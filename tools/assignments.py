"""Build an nbgrader course from the lessons (``make assignments``): one assignment a lesson.

The lessons stay the one source. For every lesson with exercises (a cell that defines a
function returning ``NotImplemented``, followed by the cell that checks it) this tool writes
nbgrader's *source* version of the lesson into ``COURSE/source/<lesson>/``:

* each exercise cell becomes a solution cell: the lesson's stub with the model solution
  (the lesson's folded one, from :mod:`ttr_nb.teaching.solutions`) between nbgrader's
  ``### BEGIN SOLUTION`` and ``### END SOLUTION``; nbgrader puts ``return NotImplemented``
  back in its place, so the released cell is the lesson's stub again;
* after each lesson's self-check cell comes a graded cell, read-only, worth ``--points``:
  the same check call (the same function of :mod:`ttr_nb.teaching`), then, hidden from the
  student until grading, the same check again on cases the student has never seen
  (:func:`ttr_nb.teaching.checking.other_cases`, with a key drawn for this course);
* the folded solutions and the cells that run them are left out, and a first cell says how
  the assignment is graded.

Then ``nbgrader generate_assignment`` makes the student version (``COURSE/release/``) and the
gradebook. The course's ``nbgrader_config.py`` grades in a sandbox
(``tools/assignments_sandbox.py``, copied in as ``ttr_course_grading.py``). Lessons that
read files beside the repository (``Path("..")``) are left out: those files are not part
of an assignment. docs/grading.md is the teacher's guide.

Usage: ``python tools/assignments.py --out build/course [--lessons graphs_1_board ...]``.
"""

from __future__ import annotations

import argparse
import ast
import inspect
import os
import re
import secrets
import shutil
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import nbformat

from ttr_nb.teaching import solutions
from ttr_nb.teaching.curriculum import LESSONS

ROOT = Path(__file__).resolve().parent.parent
SANDBOX = Path(__file__).resolve().parent / "assignments_sandbox.py"
SANDBOX_MODULE = "ttr_course_grading"
POINTS = 10
COURSE_ID = "ttr-nb"

STUB = re.compile(
    r"def (?P<name>\w+)\((?P<params>[^)]*)\):\n(?:    #[^\n]*\n)*    return NotImplemented\s*\Z"
)
FOLDED = re.compile(r"<details><summary><b>Solution.*?</details>", re.S)
TRY_FIRST = re.compile(r"folded away|worked solution is at the end", re.I)
OUTSIDE = re.compile(r"""Path\(\s*["']\.\.["']\s*\)""")
LEFT_OUT = "*The worked solutions are not part of this assignment.*"
NBGRADER = {"schema_version": 3, "task": False}


@dataclass(frozen=True)
class Exercise:
    """One exercise of a lesson: the function to write and the call that checks it."""

    name: str  # the function's name
    stub: str  # the lesson's exercise cell
    check: str  # the lesson's check call, e.g. "exercises.check_dfs(dfs_order)"


def _source(cell: dict) -> str:
    source = cell["source"]
    return source if isinstance(source, str) else "".join(source)


def _check_call(cell: dict, name: str) -> str | None:
    """The ``check_...(name, ...)`` call in a code cell, as written, or None."""
    text = _source(cell)
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and (getattr(node.func, "attr", None) or getattr(node.func, "id", "")).startswith(
                "check_"
            )
            and any(isinstance(a, ast.Name) and a.id == name for a in node.args)
        ):
            return ast.get_source_segment(text, node)
    return None


def find_exercises(notebook: dict) -> list[tuple[int, Exercise]]:
    """The exercises of a lesson, with the index of each exercise cell.

    Raises
    ------
    ValueError
        If an exercise cell is not followed by the cell that checks it.
    """
    found = []
    cells = notebook["cells"]
    for i, cell in enumerate(cells):
        match = STUB.match(_source(cell)) if cell["cell_type"] == "code" else None
        if not match:
            continue
        name = match["name"]
        after = next((c for c in cells[i + 1 :] if c["cell_type"] == "code"), None)
        call = _check_call(after, name) if after else None
        if call is None:
            raise ValueError(f"exercise {name}() has no check_...({name}) cell after it")
        found.append((i, Exercise(name, _source(cell), call)))
    return found


def not_assignable(notebook: dict) -> str | None:
    """Why a lesson cannot be an assignment, or None if it can."""
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code" and OUTSIDE.search(_source(cell)):
            return "reads files beside the repository (Path('..')), which an assignment lacks"
    return None


def model_solution(exercise: Exercise) -> str:
    """The exercise cell of nbgrader's source version: the stub with the model solution.

    The solution is the lesson's folded one (:func:`ttr_nb.teaching.solutions.shown_code`),
    fitted to the stub's signature: a parameter with a default that the stub lacks becomes
    a local, and a line shown before the function (a constant computed once) moves into it.
    """
    solution = getattr(solutions, exercise.name)
    lines = inspect.getsource(solution).rstrip().splitlines()
    header = ast.parse(exercise.stub).body[0]
    theirs = inspect.signature(solution).parameters
    ours = [a.arg for a in header.args.args]
    if list(theirs)[: len(ours)] != ours:
        raise ValueError(f"{exercise.name}: the solution's parameters differ from the stub's")
    if not lines[0].rstrip().endswith(":"):
        raise ValueError(f"{exercise.name}: the solution's header is longer than one line")
    body = []
    for extra in list(theirs)[len(ours) :]:
        default = theirs[extra].default
        if default is inspect.Parameter.empty:
            raise ValueError(f"{exercise.name}: the solution needs {extra}, the stub lacks it")
        body.append(f"    {extra} = {default!r}")
    prelude = solutions.PRELUDES.get(exercise.name)
    if prelude:
        body += textwrap.indent(prelude, "    ").splitlines()
    body += lines[1:]
    stub = exercise.stub.rstrip().splitlines()
    return "\n".join(
        [*stub[:-1], "    ### BEGIN SOLUTION", *body, "    ### END SOLUTION"]
    )  # nbgrader writes ClearSolutions.code_stub ("return NotImplemented") in its place


def graded_cell(exercise: Exercise, points: int, key: str) -> str:
    """The graded test cell: the lesson's check, then (hidden) the same on unseen cases."""
    return "\n".join(
        [
            f"# Graded ({points} points): the check above, then the same check on cases you",
            "# have not seen. (nbgrader scores 0 a cell that writes to stderr, so it is kept.)",
            "import contextlib, io",
            "with contextlib.redirect_stderr(io.StringIO()):",
            f"    result = {exercise.check}",
            "assert result, result",
            "### BEGIN HIDDEN TESTS",
            "from ttr_nb.teaching.checking import other_cases",
            f"with contextlib.redirect_stderr(io.StringIO()), other_cases({key!r}):",
            f"    result = {exercise.check}",
            'assert result, f"On cases you had not seen: {result}"',
            "### END HIDDEN TESTS",
        ]
    )


def _without_solutions(text: str) -> str:
    """A markdown cell without its folded solutions and its "try first" sentences."""
    if not FOLDED.search(text) and not TRY_FIRST.search(text):
        return text
    paragraphs = re.split(r"\n\s*\n", FOLDED.sub("", text))
    kept = [p.strip() for p in paragraphs if p.strip() and not TRY_FIRST.search(p)]
    if FOLDED.search(text):
        kept.append(LEFT_OUT)
    return "\n\n".join(kept)


def _header(title: str, exercises: list[Exercise], points: int) -> str:
    names = ", ".join(f"`{e.name}`" for e in exercises)
    return (
        f"**Assignment: {title}.** Write {names} in the exercise cells "
        f"({points} points each). Under each exercise, the lesson's check tells you how you are "
        "doing; the read-only cell after it is graded: the same check, then the same check "
        "on cases you have not seen. Your notebook is graded as you submit it, run from top to "
        "bottom with a time limit: a function that fails, loops or raises costs only its own "
        "exercise's points."
    )


def source_notebook(lesson: Path, title: str, points: int = POINTS) -> nbformat.NotebookNode:
    """nbgrader's source version of one lesson (see the module's docstring)."""
    notebook = nbformat.read(lesson, as_version=4)
    exercises = dict(find_exercises(notebook))
    if not exercises:
        raise ValueError(f"{lesson.name} has no exercises")
    header = nbformat.v4.new_markdown_cell(
        _header(title, list(exercises.values()), points), id="assignment-header"
    )
    header.metadata["nbgrader"] = {
        **NBGRADER,
        "grade": False,
        "solution": False,
        "locked": True,
        "grade_id": "assignment-header",
    }
    cells = [header]
    waiting: Exercise | None = None
    for i, cell in enumerate(notebook.cells):
        text = _source(cell)
        if i in exercises:
            waiting = exercises[i]
            cell.source = model_solution(waiting)
            cell.metadata["nbgrader"] = {
                **NBGRADER,
                "grade": False,
                "solution": True,
                "locked": False,
                "grade_id": waiting.name,
            }
        elif cell.cell_type == "code" and ".paste(globals()" in text:
            continue  # runs the folded solutions
        elif cell.cell_type == "markdown":
            cell.source = _without_solutions(text)
            if not cell.source:
                continue
        cells.append(cell)
        if (
            waiting
            and cell.cell_type == "code"
            and i not in exercises
            and _check_call(cell, waiting.name) is not None
        ):
            graded = nbformat.v4.new_code_cell(
                graded_cell(waiting, points, secrets.token_hex(16)),
                id=f"graded-{waiting.name}",
            )
            graded.metadata["nbgrader"] = {
                **NBGRADER,
                "grade": True,
                "solution": False,
                "locked": True,
                "points": points,
                "grade_id": f"graded-{waiting.name}",
            }
            cells.append(graded)
            waiting = None
    notebook.cells = cells
    return notebook


CONFIG = '''\
"""nbgrader's settings for the ttr-nb course (written by tools/assignments.py).

Graded in a sandbox: see ttr_course_grading.py (docs/grading.md). The exchange (where
students fetch and submit) is set where nbgrader reads it for every user of the machine,
for instance /etc/jupyter/nbgrader_config.py: c.Exchange.root = "/srv/nbgrader/exchange".
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
c = get_config()  # noqa: F821 - nbgrader's config loader provides it
c.CourseDirectory.course_id = {course_id!r}
# The released exercise cell is the lesson's stub again: nbgrader puts this line where the
# model solution was.
c.ClearSolutions.code_stub = {{"python": "return NotImplemented"}}
c.Execute.timeout = 120  # seconds a cell may run (the lessons' slowest cell takes ~10)
c.SandboxedExecute.notebook_timeout = 900  # seconds for a whole notebook
c.LimitOutput.max_lines = 1000  # lines of printed output kept per cell

sys.path.insert(0, HERE)
import {module}  # noqa: E402

{module}.configure(c, course_root=HERE)
'''


def build_course(
    out: Path,
    *,
    notebooks: Path = ROOT / "notebooks",
    names: list[str] | None = None,
    course_id: str = COURSE_ID,
    points: int = POINTS,
    generate: bool = True,
) -> dict[str, str]:
    """Write the course into `out` and (with `generate`) run ``nbgrader generate_assignment``.

    Returns every lesson that has exercises, by assignment id, with ``"assigned"`` or the
    reason it was left out. `names` picks lessons by file name without ``.ipynb``.
    """
    out.mkdir(parents=True, exist_ok=True)
    (out / "nbgrader_config.py").write_text(
        CONFIG.format(course_id=course_id, module=SANDBOX_MODULE), encoding="utf-8"
    )
    shutil.copyfile(SANDBOX, out / f"{SANDBOX_MODULE}.py")
    outcome: dict[str, str] = {}
    for lesson in LESSONS:
        path = notebooks / lesson.notebook
        assignment = path.stem
        if names is not None and assignment not in names:
            continue
        notebook = nbformat.read(path, as_version=4)
        if not find_exercises(notebook):
            continue
        reason = not_assignable(notebook)
        if reason:
            outcome[assignment] = reason
            continue
        folder = out / "source" / assignment
        folder.mkdir(parents=True, exist_ok=True)
        nbformat.write(source_notebook(path, lesson.title, points), folder / path.name)
        outcome[assignment] = "assigned"
    if generate:
        assigned = [a for a, status in outcome.items() if status == "assigned"]
        if sorted(assigned) == sorted(p.name for p in (out / "source").iterdir()):
            nbgrader(out, "generate_assignment", "*", "--force")  # one run: ~1 s an assignment
        else:  # the course holds other assignments too: only these
            for assignment in assigned:
                nbgrader(out, "generate_assignment", assignment, "--force")
        for assignment in assigned:
            check_release(out / "release" / assignment, notebooks)
    return outcome


def check_release(folder: Path, notebooks: Path) -> None:
    """Check a released assignment against its lesson: every exercise cell is the lesson's
    stub again, and no model solution, folded solution or hidden test is left in it.

    Raises
    ------
    ValueError
        Naming the first thing that is wrong.
    """
    for path in folder.glob("*.ipynb"):
        lesson = nbformat.read(notebooks / path.name, as_version=4)
        released = nbformat.read(path, as_version=4)
        text = "\n".join(_source(c) for c in released.cells)
        for marker in ("BEGIN SOLUTION", "HIDDEN TESTS", "other_cases", "<details>"):
            if marker in text:
                raise ValueError(f"{path.name}: the release still holds {marker!r}")
        stubs = [
            _source(c) for c in released.cells if c.metadata.get("nbgrader", {}).get("solution")
        ]
        wanted = [exercise.stub for _, exercise in find_exercises(lesson)]
        if stubs != wanted:
            raise ValueError(f"{path.name}: the released exercise cells are not the lesson's stubs")


def nbgrader(course: Path, *args: str) -> str:
    """Run an nbgrader command in the course folder; its output, or an error with it."""
    bin_dir = str(Path(sys.executable).parent)  # nbgrader runs alembic from PATH
    env = {**os.environ, "PATH": os.pathsep.join([bin_dir, os.environ.get("PATH", "")])}
    done = subprocess.run(
        [sys.executable, "-m", "nbgrader", *args],
        cwd=course,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    output = done.stdout + done.stderr
    if done.returncode or "Exception while loading config file" in output:
        raise RuntimeError(f"nbgrader {' '.join(args)} failed:\n{output}")
    return output


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "course")
    parser.add_argument("--lessons", nargs="*", help="lesson file names without .ipynb")
    parser.add_argument("--course-id", default=COURSE_ID)
    parser.add_argument("--points", type=int, default=POINTS, help="points per exercise")
    parser.add_argument("--no-generate", action="store_true", help="source versions only")
    args = parser.parse_args(argv)
    outcome = build_course(
        args.out,
        names=args.lessons,
        course_id=args.course_id,
        points=args.points,
        generate=not args.no_generate,
    )
    for assignment, status in outcome.items():
        print(f"{assignment:45} {status}")
    assigned = sum(status == "assigned" for status in outcome.values())
    print(f"{assigned} assignments in {args.out} (course {args.course_id!r})")


if __name__ == "__main__":
    main()
