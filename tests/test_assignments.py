"""The lessons as an nbgrader course (issue 50): built, released, autograded, fed back.

``tools/assignments.py`` builds the course from the lessons once for this module; nbgrader
releases it. Submissions are written where ``nbgrader collect`` puts them (the hub test
fetches and submits through the exchange): the model solutions; every wrong solution of
``tests/test_exercises.py``, each in the exercise it was written for, the other exercises
answered right; blank notebooks; and, in the quickest lesson, students whose answers raise,
loop while ignoring interrupts, print a million lines, kill their kernel, or attack the
grader. The model solutions come in the whole lesson; the others keep only the cells their
graded cells need (``assignments_steps.lean``), which nbgrader grades the same way, faster.
``nbgrader autograde`` grades each assignment once, in its sandbox (the quickest lesson with
a 5 s limit per cell); the tests read the gradebook.
"""

from __future__ import annotations

import html
import json
import os
import re
import secrets
import shutil
import socket
from pathlib import Path

import nbformat
import pytest
from assignments_steps import (
    ROOT,
    assignments,
    check_name,
    course_exercises,
    model,
    nbgrader,
    scores,
    submit,
    wrong_solutions,
)

pytest.importorskip("nbgrader")
pytestmark = pytest.mark.skipif(
    shutil.which("bwrap") is None, reason="no bubblewrap for the grader (make grading-deps)"
)

POINTS = assignments.POINTS
TIMEOUT = 5  # seconds a cell may run while the quickest lesson is graded
QUICK = "graphs_2_connectivity_2_union_find"  # the quickest lesson: ticket_done, pieces
MARKER = f"left-behind-{secrets.token_hex(6)}"  # in the command line of mallory's process

RAISES = """def ticket_done(routes, a, b, dead_ends):
    raise ValueError("half-written")
"""
LOOPS = """def ticket_done(routes, a, b, dead_ends):
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the grader's interrupt does nothing
    while True:
        pass
"""
PRINTS = """def ticket_done(routes, a, b, dead_ends):
    for i in range(1_000_000):
        print("step", i)
"""
DIES = """def ticket_done(routes, a, b, dead_ends):
    import os, signal
    os.kill(os.getpid(), signal.SIGKILL)
"""
ATTACKS = """import json, os, pathlib, socket, subprocess, sys

here = pathlib.Path.cwd()  # autograded/mallory/<assignment>
course = here.parents[2]
notebook = here.name + ".ipynb"
victim = course / "submitted" / "victor" / here.name / notebook
report = {}


def attempt(what, action):
    try:
        action()
        report[what] = "done"
    except Exception as exc:
        report[what] = type(exc).__name__


attempt("overwrite the gradebook", lambda: (course / "gradebook.db").write_bytes(b""))
attempt("change victor's submission", lambda: victim.write_text("{}"))
attempt("read victor's submission", lambda: victim.read_text())
attempt("read the hidden tests", lambda: (course / "source" / here.name / notebook).read_text())
attempt("list the course", lambda: [p for p in course.iterdir() if p.name != "autograded"][0])
attempt("reach the grader's network", lambda: socket.create_connection(("127.0.0.1", PORT), 3))
attempt("read the grader's token", lambda: os.environ["TTR_GRADER_SECRET"])
attempt(
    "leave a process behind",
    lambda: subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(600)", "MARKER"], start_new_session=True
    ),
)
print(json.dumps(report))
"""


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    folder = tmp_path_factory.mktemp("course")
    return folder, assignments.build_course(folder)


@pytest.fixture(scope="module")
def listener() -> socket.socket:
    """A port of the grader's machine that a submission must not reach."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        server.setblocking(False)
        yield server


@pytest.fixture(scope="module")
def graded(course, listener) -> dict:
    """Every assignment submitted by its students and autograded once; what was planned."""
    folder, _ = course
    exercises = course_exercises(folder)
    by_check = {check_name(e): e.name for found in exercises.values() for e in found}
    wrong = wrong_solutions(by_check)
    plan: dict[tuple[str, str], dict[str, str]] = {}  # (assignment, student) -> wrong answers
    for assignment, found in exercises.items():
        submit(folder, "model", assignment, {e.name: model(e.name) for e in found})
        for k in range(max(len(wrong.get(e.name, ())) for e in found)):
            answers, labels = {}, {}
            for e in found:
                options = wrong.get(e.name, [])
                labels[e.name], answers[e.name] = options[k] if k < len(options) else ("", "")
                answers[e.name] = answers[e.name] or model(e.name)
            plan[assignment, f"wrong-{k + 1}"] = {n: label for n, label in labels.items() if label}
            submit(folder, f"wrong-{k + 1}", assignment, answers, whole=False)
    for assignment in (QUICK, "graphs_1_board"):
        submit(folder, "blank", assignment, {}, whole=False)
    os.environ["TTR_GRADER_SECRET"] = "a token the grader holds"
    try:
        nbgrader(folder, "autograde", "*")  # every assignment, every student, in one run
        # The quickest lesson again, for students who misbehave, with a 5 s limit per cell
        # (nbgrader grades only the new submissions).
        pieces = model("pieces")
        attack = ATTACKS.replace("PORT", str(listener.getsockname()[1])).replace("MARKER", MARKER)
        attack += "\n\n" + model("ticket_done")
        for student, ticket_done in (
            ("raises", RAISES),
            ("loops", LOOPS),
            ("prints", PRINTS),
            ("dies", DIES),
            ("mallory", attack),
            ("victor", model("ticket_done")),
        ):
            answers = {"ticket_done": ticket_done, "pieces": pieces}
            submit(folder, student, QUICK, answers, whole=False)
        victim = folder / "submitted" / "victor" / QUICK / f"{QUICK}.ipynb"
        before = victim.read_bytes()
        nbgrader(folder, "autograde", QUICK, f"--Execute.timeout={TIMEOUT}")
    finally:
        del os.environ["TTR_GRADER_SECRET"]
    return {
        "course": folder,
        "exercises": exercises,
        "plan": plan,
        "scores": {a: scores(folder, a) for a in exercises},
        "victim_unchanged": victim.read_bytes() == before,
    }


def _notebook(course: Path, stage: str, student: str, assignment: str) -> nbformat.NotebookNode:
    return nbformat.read(course / stage / student / assignment / f"{assignment}.ipynb", 4)


def _outputs(cell: nbformat.NotebookNode) -> str:
    return "\n".join(
        o.get("text", "") or f"{o.get('ename')}: {o.get('evalue')}" for o in cell.get("outputs", [])
    )


# ------------------------------------------------------------------- the course
def test_every_lesson_with_exercises_is_an_assignment(course):
    folder, outcome = course
    lessons = {}
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        notebook = nbformat.read(path, 4)
        if assignments.find_exercises(notebook):
            lessons[path.stem] = assignments.not_assignable(notebook) or "assigned"
    assert outcome == lessons
    assigned = sorted(a for a, status in outcome.items() if status == "assigned")
    assert len(assigned) >= 14 and "graphs_2_connectivity_1_bfs_and_dfs" in assigned
    assert sorted(p.name for p in (folder / "release").iterdir()) == assigned
    # The two left out say why, and it is true: they read ../results, which no assignment has.
    for name, status in outcome.items():
        if status != "assigned":
            assert "Path('..')" in status
            lesson = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", 4)
            assert assignments.OUTSIDE.search("\n".join(c.source for c in lesson.cells))


def test_the_release_is_the_lesson_without_its_solutions(course):
    folder, outcome = course
    for assignment in (a for a, status in outcome.items() if status == "assigned"):
        lesson = nbformat.read(ROOT / "notebooks" / f"{assignment}.ipynb", 4)
        released = nbformat.read(folder / "release" / assignment / f"{assignment}.ipynb", 4)
        text = "\n".join(c.source for c in released.cells)
        exercises = [e for _, e in assignments.find_exercises(lesson)]
        # Each exercise cell is the lesson's stub again, to be answered.
        answer_cells = [c for c in released.cells if c.metadata.get("nbgrader", {}).get("solution")]
        assert [c.source for c in answer_cells] == [e.stub for e in exercises], assignment
        source = nbformat.read(folder / "source" / assignment / f"{assignment}.ipynb", 4)
        source_text = "\n".join(c.source for c in source.cells)
        for exercise in exercises:  # the model solution is in the source, not in the release
            body = "\n".join(model(exercise.name).splitlines()[1:])
            assert body in source_text or exercise.name == "world_estimate"
            assert body not in text and "BEGIN SOLUTION" not in text
        assert "<details>" not in text and ".paste(globals()" not in text
        assert "other_cases" not in text and "HIDDEN" not in text
        # Every other cell of the lesson is there as the lesson has it, self-checks included.
        sources = {c.source for c in released.cells}
        for cell in lesson.cells:
            left_out = (
                "<details>" in cell.source
                or ".paste(globals()" in cell.source
                or assignments.TRY_FIRST.search(cell.source)
                or assignments.STUB.match(cell.source)
            )
            assert left_out or cell.source in sources, (assignment, cell.source[:80])


def test_graded_cells_run_the_lessons_checks_with_points_and_hidden_cases(course):
    folder, outcome = course
    keys = set()
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{folder / 'gradebook.db'}") as gradebook:
        for assignment in (a for a, status in outcome.items() if status == "assigned"):
            lesson = nbformat.read(ROOT / "notebooks" / f"{assignment}.ipynb", 4)
            exercises = [e for _, e in assignments.find_exercises(lesson)]
            source = nbformat.read(folder / "source" / assignment / f"{assignment}.ipynb", 4)
            graded = [c for c in source.cells if c.metadata.get("nbgrader", {}).get("grade")]
            assert len(graded) == len(exercises)
            for cell, exercise in zip(graded, exercises, strict=True):
                assert cell.metadata.nbgrader["locked"] and cell.metadata.nbgrader["points"]
                # The same call as the student's self-check, visible and then hidden.
                assert cell.source.count(f"result = {exercise.check}") == 2
                visible, hidden = cell.source.split("### BEGIN HIDDEN TESTS")
                key = re.search(r"other_cases\('([0-9a-f]{32})'\)", hidden).group(1)
                assert key not in keys
                keys.add(key)
            assignment_row = gradebook.find_assignment(assignment)
            assert assignment_row.max_score == POINTS * len(exercises)


# ------------------------------------------------------------------- the grades
def test_model_solutions_get_full_marks(graded):
    for assignment, found in graded["exercises"].items():
        got = graded["scores"][assignment]["model"]
        assert got == {f"graded-{e.name}": POINTS for e in found}, assignment
        notebook = _notebook(graded["course"], "autograded", "model", assignment)
        failed = [
            c.source[:60]
            for c in notebook.cells
            if "error" in {o.output_type for o in c.get("outputs", [])}
        ]
        assert failed == [], assignment  # every cell of the lesson ran in the sandbox


def test_each_wrong_solution_loses_its_exercise_points_and_no_other(graded):
    counted = 0
    for (assignment, student), wrong in graded["plan"].items():
        got = graded["scores"][assignment][student]
        for e in graded["exercises"][assignment]:
            want = 0 if e.name in wrong else POINTS
            assert got[f"graded-{e.name}"] == want, (assignment, student, e.name, wrong)
        counted += len(wrong)
    assert counted >= 31  # the collection's wrong solutions of the exercises, and ours


def test_a_blank_submission_gets_zero(graded):
    for assignment in (QUICK, "graphs_1_board"):
        assert set(graded["scores"][assignment]["blank"].values()) == {0}


@pytest.mark.parametrize("student", ["raises", "loops", "prints", "dies"])
def test_an_answer_that_raises_loops_prints_or_crashes_costs_only_its_exercise(graded, student):
    got = graded["scores"][QUICK][student]
    assert got == {"graded-ticket_done": 0, "graded-pieces": POINTS}
    notebook = _notebook(graded["course"], "autograded", student, QUICK)
    printed = "\n".join(_outputs(c) for c in notebook.cells)
    if student == "loops":  # stopped after the time limit, twice (self-check, graded cell)
        assert printed.count(f"CellTimeoutError: stopped after {TIMEOUT} s") == 2
    if student == "prints":  # the million lines are cut, in the notebook the teacher opens
        assert "... Output truncated ..." in printed
        assert sum(len(_outputs(c)) for c in notebook.cells) < 200_000
    if student == "dies":
        assert "DeadKernelError" in printed
    assert graded["scores"][QUICK]["victor"] == {
        "graded-ticket_done": POINTS,
        "graded-pieces": POINTS,
    }


def test_a_submission_cannot_reach_other_students_the_hidden_tests_or_the_grader(graded, listener):
    course = graded["course"]
    # Graded before victor in the same run, mallory changed nothing of his.
    assert graded["victim_unchanged"]
    assert graded["scores"][QUICK]["victor"] == {
        "graded-ticket_done": POINTS,
        "graded-pieces": POINTS,
    }
    autograded = course / "autograded"
    assert (autograded / "victor" / QUICK).stat().st_mtime > (
        autograded / "mallory" / QUICK
    ).stat().st_mtime
    notebook = _notebook(course, "autograded", "mallory", QUICK)
    report = next(
        json.loads(line)
        for c in notebook.cells
        for line in _outputs(c).splitlines()
        if line.startswith('{"overwrite')
    )
    refused = {what: how for what, how in report.items() if how != "done"}
    assert set(report) - set(refused) <= {"leave a process behind"}, report
    assert len(report) == 8
    # The process it started is gone with its sandbox; nothing reached the grader's port.
    left = [p for p in Path("/proc").glob("[0-9]*") if MARKER in _cmdline(p)]
    assert left == []
    with pytest.raises(BlockingIOError):
        listener.accept()
    # Its own exercises are graded as usual.
    assert graded["scores"][QUICK]["mallory"] == {
        "graded-ticket_done": POINTS,
        "graded-pieces": POINTS,
    }


def _cmdline(proc: Path) -> str:
    try:
        return (proc / "cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


def test_feedback_gives_the_student_the_checks_own_hint(graded):
    from test_exercises import bfs

    from ttr_nb.teaching import exercises

    course = graded["course"]
    assignment = "graphs_2_connectivity_1_bfs_and_dfs"
    assert graded["plan"][assignment, "wrong-1"] == {"dfs_order": "bfs"}
    nbgrader(course, "generate_feedback", assignment, "--student", "wrong-1")
    page = (course / "feedback" / "wrong-1" / assignment / f"{assignment}.html").read_text()
    text = html.unescape(re.sub(r"<[^>]+>", "", page))
    hint = exercises.check_dfs(bfs).message
    assert hint.startswith("✘ Not quite:") and hint in text
    assert f"Score: 0.0 / {float(POINTS)}" in " ".join(text.split())
