"""A teacher without a hub (issue 50): the course on one machine, in JupyterLab.

The teacher builds the course (``make assignments``), hands the released notebooks out by any
means (a learning platform, a shared drive), gets the students' files back in one folder and
grades them with the commands docs/grading.md gives: ``nbgrader zip_collect``, ``autograde``,
``generate_feedback``, ``export``. The same course opens in JupyterLab, whose formgrader (the
Formgrader tab) lists it and grades a submission.
"""

from __future__ import annotations

import csv
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import nbformat
import pytest
from assignments_steps import ROOT, answered, assignments, first_wrong, model, nbgrader

pytest.importorskip("nbgrader")
pytestmark = pytest.mark.skipif(
    shutil.which("bwrap") is None, reason="no bubblewrap for the grader (make grading-deps)"
)

LESSON = "graphs_2_connectivity_2_union_find"
DOCS = ROOT / "docs" / "grading.md"
# How zip_collect reads the student's name in a returned file's path (docs/grading.md).
NAMES = ".*/(?P<student_id>[^/_]+)_(?P<file_id>[^/]+)"
# The steps of docs/grading.md for a teacher without a hub, in order ({a}: the assignment).
STEPS = [
    "nbgrader zip_collect {a}",
    "nbgrader autograde {a}",
    "nbgrader generate_feedback {a}",
    "nbgrader export --to grades.csv",
]


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A one-lesson course whose three students sent their notebooks back as files named
    ``<student>_<notebook>`` (as a learning platform's download gives them)."""
    folder = tmp_path_factory.mktemp("local") / "course"
    assert assignments.build_course(folder, names=[LESSON]) == {LESSON: "assigned"}
    released = nbformat.read(folder / "release" / LESSON / f"{LESSON}.ipynb", 4)
    inbox = folder / "downloaded" / LESSON / "archive"
    inbox.mkdir(parents=True)
    answers = {
        "ann": {"ticket_done": model("ticket_done"), "pieces": model("pieces")},
        "ben": first_wrong("ticket_done", "pieces"),
        "cleo": {},
    }
    for student, given in answers.items():
        nbformat.write(answered(released, given), inbox / f"{student}_{LESSON}.ipynb")
    # Where zip_collect reads the student's name in a file's name (docs/grading.md).
    with (folder / "nbgrader_config.py").open("a") as config:
        config.write(f"\nc.FileNameCollectorPlugin.named_regexp = r{NAMES!r}\n")
    return folder


def test_a_teacher_without_a_hub_collects_grades_returns_feedback_and_exports(course):
    text = DOCS.read_text(encoding="utf-8")
    for step in STEPS:
        assert step.format(a="ASSIGNMENT") in text, step  # the guide gives this very command
        nbgrader(course, *step.format(a=LESSON).split()[1:])
    with (course / "grades.csv").open() as f:
        rows = {
            r["student_id"]: (float(r["score"]), float(r["max_score"])) for r in csv.DictReader(f)
        }
    assert rows == {"ann": (20.0, 20.0), "ben": (0.0, 20.0), "cleo": (0.0, 20.0)}
    for student in ("ann", "ben", "cleo"):  # feedback to hand back, one page a student
        assert (course / "feedback" / student / LESSON / f"{LESSON}.html").exists()
    assert "Not quite" in (course / "feedback" / "ben" / LESSON / f"{LESSON}.html").read_text()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_course_opens_in_jupyterlab_where_formgrader_grades_it(course, tmp_path):
    if not (course / "submitted").exists():
        nbgrader(course, "zip_collect", LESSON)
    port, token = _free_port(), secrets.token_hex(16)
    env = {k: v for k, v in os.environ.items() if not k.startswith("JUPYTER")}
    env.update(
        JUPYTER_CONFIG_DIR=str(tmp_path / "config"),
        JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
    )
    args = [sys.executable, "-m", "jupyter", "lab", "--no-browser", f"--port={port}"]
    args += ["--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}"]
    args += [f"--ServerApp.root_dir={course}"] + (["--allow-root"] if os.geteuid() == 0 else [])
    log = (tmp_path / "lab.log").open("w")
    lab = subprocess.Popen(args, cwd=course, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"

    def call(path: str, method: str = "GET") -> tuple[int, str]:
        request = urllib.request.Request(
            f"{url}/{path}", method=method, headers={"Authorization": f"token {token}"}
        )
        try:
            with urllib.request.urlopen(request, data=b"" if method == "POST" else None) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()
        except OSError:
            return 0, ""

    try:
        deadline = time.monotonic() + 120
        while call("api/status")[0] != 200:
            assert lab.poll() is None and time.monotonic() < deadline, (
                tmp_path / "lab.log"
            ).read_text()
            time.sleep(0.5)
        status, page = call("lab")
        assert status == 200 and "@jupyter/nbgrader" in page  # the Formgrader tab's extension
        status, listed = call("formgrader/api/assignments")
        assert status == 200
        rows = {a["name"]: a for a in json.loads(listed)}
        assert rows[LESSON]["max_score"] == 20.0
        # The teacher grades Ann again from the Formgrader tab (its "autograde" button).
        status, done = call(f"formgrader/api/submission/{LESSON}/ann/autograde", "POST")
        assert status == 200 and json.loads(done)["success"], done
        status, graded = call(f"formgrader/api/submissions/{LESSON}")
        assert {s["student"]: s["score"] for s in json.loads(graded)}["ann"] == 20.0
    finally:
        lab.terminate()
        try:
            lab.wait(30)
        except subprocess.TimeoutExpired:
            lab.kill()
        log.close()


def test_the_guide_quotes_the_measured_times():
    import assignments_bench

    record = json.loads(assignments_bench.OUT.read_text(encoding="utf-8"))
    assert record["rounds"] and all(r["students"] >= 30 for r in record["rounds"])
    assert assignments_bench.markdown_table(record) in DOCS.read_text(encoding="utf-8")
