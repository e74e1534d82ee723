"""What each step of grading a lesson costs a teacher of a class: measured, not estimated.

``make bench-assignments`` (``STUDENTS=30``) builds the course (``tools/assignments.py``),
then, for each assignment measured, plays a whole round on this machine through nbgrader's
exchange in a temporary folder: the teacher releases; each student fetches and submits
(a third the model solutions, a third a wrong solution from ``tests/test_exercises.py``, a
third blank); the teacher collects, autogrades (in the sandbox), generates and releases
feedback, and exports the grades as CSV. It prints the seconds of each step and writes them,
with the machine's load, to ``results/grading/bench.json``. docs/grading.md quotes them.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tools"))

import assignments  # noqa: E402
import nbformat  # noqa: E402
from assignments_steps import (  # noqa: E402
    answered,
    check_name,
    course_exercises,
    model,
    wrong_solutions,
)

OUT = ROOT / "results" / "grading" / "bench.json"
ASSIGNMENTS = ["graphs_7_spanning_trees", "graphs_11_simulation_lab"]


def timed(course: Path, *args: str) -> float:
    start = time.monotonic()
    assignments.nbgrader(course, *args)
    return time.monotonic() - start


def one_round(course: Path, assignment: str, students: int, exchange: Path) -> dict:
    """One assignment released, answered by `students`, collected, graded and exported."""
    ex = f"--Exchange.root={exchange}"
    exercises = course_exercises(course)[assignment]
    wrong = wrong_solutions({check_name(e): e.name for e in exercises})
    answers = [
        {e.name: model(e.name) for e in exercises},
        {e.name: (wrong.get(e.name) or [("", model(e.name))])[0][1] for e in exercises},
        {},
    ]
    steps: dict[str, float] = {"release": timed(course, "release_assignment", assignment, ex)}
    fetch, submit = [], []
    for i in range(students):
        home = Path(tempfile.mkdtemp(prefix="student-", dir=exchange.parent))
        student = f"student{i + 1:02d}"
        start = time.monotonic()
        assignments.nbgrader(home, "fetch_assignment", assignment, ex, "--course=ttr-nb")
        fetch.append(time.monotonic() - start)
        for path in (home / assignment).glob("*.ipynb"):
            nbformat.write(answered(nbformat.read(path, 4), answers[i % 3]), path)
        start = time.monotonic()
        assignments.nbgrader(
            home, "submit", assignment, ex, "--course=ttr-nb", f"--student={student}"
        )
        submit.append(time.monotonic() - start)
    steps["one student: fetch"] = statistics.median(fetch)
    steps["one student: submit"] = statistics.median(submit)
    steps["collect"] = timed(course, "collect", assignment, ex)
    steps["autograde"] = timed(course, "autograde", assignment)
    steps["generate_feedback"] = timed(course, "generate_feedback", assignment)
    steps["release_feedback"] = timed(course, "release_feedback", assignment, ex)
    grades = course / f"grades-{assignment}.csv"
    steps["export CSV"] = timed(course, "export", f"--to={grades}")
    with grades.open() as f:
        rows = [r for r in csv.DictReader(f) if r["assignment"] == assignment]
    full = sum(float(r["score"]) == float(r["max_score"]) for r in rows)
    return {
        "assignment": assignment,
        "students": students,
        "exercises": len(exercises),
        "seconds": {k: round(v, 1) for k, v in steps.items()},
        "autograde seconds per submission": round(steps["autograde"] / students, 1),
        "full marks": full,
        "graded": len(rows),
    }


def markdown_table(record: dict) -> str:
    """The table docs/grading.md quotes: seconds per step, one column per assignment."""
    rounds = record["rounds"]
    head = " | ".join(f"`{r['assignment']}`" for r in rounds)
    lines = [f"| Step, {rounds[0]['students']} students | {head} |"]
    lines.append("|---" * (len(rounds) + 1) + "|")
    steps = list(rounds[0]["seconds"])
    for step in steps:
        lines.append(
            f"| {step} | " + " | ".join(f"{r['seconds'][step]:.1f} s" for r in rounds) + " |"
        )
    per = " | ".join(f"{r['autograde seconds per submission']:.1f} s" for r in rounds)
    lines.append(f"| autograde, per submission | {per} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--assignments", nargs="*", default=ASSIGNMENTS)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="ttr-grading-bench-") as tmp:
        course, exchange = Path(tmp) / "course", Path(tmp) / "exchange"
        exchange.mkdir()
        start = time.monotonic()
        assignments.build_course(course)
        build = time.monotonic() - start
        print(f"make assignments (every lesson): {build:.0f} s")
        rounds = []
        for assignment in args.assignments:
            result = one_round(course, assignment, args.students, exchange)
            rounds.append(result)
            print(f"\n{assignment}: {args.students} students, {result['exercises']} exercises")
            for step, seconds in result["seconds"].items():
                print(f"  {step:22} {seconds:7.1f} s")
            print(f"  full marks: {result['full marks']} of {result['graded']} graded")
    record = {
        "date": time.strftime("%Y-%m-%d"),
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores",
        "load average (1 min) before, after": [
            round(load_before[0], 1),
            round(os.getloadavg()[0], 1),
        ],
        "make assignments seconds": round(build, 1),
        "rounds": rounds,
    }
    print("\n" + markdown_table(record))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    print(f"\nwritten to {args.out}")


if __name__ == "__main__":
    main()
