"""Test-suite plumbing: shared fixtures, and nbval comparisons for clean notebooks.

(One conftest for the whole repository: pytest's doctest collection cannot tell
two ``conftest.py`` modules apart.)

nbval compares the cells marked ``# NBVAL_CHECK_OUTPUT`` although notebooks are stored clean.

The expected outputs of those cells live in
``notebooks/expected/<notebook>.json`` (written by ``tools/record_notebook_outputs.py``);
they are merged into the notebook as nbval reads it, so the committed
notebooks stay free of outputs and the checked cells are really compared.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import nbformat
import nbval.kernel
import nbval.plugin
import pytest

EXPECTED_DIR = Path(__file__).resolve().parent / "notebooks" / "expected"
MARKER = "# NBVAL_CHECK_OUTPUT"


def expected_path(notebook: str | Path) -> Path:
    return EXPECTED_DIR / f"{Path(notebook).stem}.json"


def merge_expected(nb: Any, notebook: str | Path) -> Any:
    """Copy recorded outputs into the marked cells of ``nb`` (in place)."""
    path = expected_path(notebook)
    if not path.exists():
        return nb
    recorded = json.loads(path.read_text(encoding="utf-8"))["cells"]
    for cell in nb.cells:
        if cell.cell_type == "code" and cell.source.startswith(MARKER) and cell.id in recorded:
            cell.outputs = [nbformat.from_dict(o) for o in recorded[cell.id]]
            cell.execution_count = 1
    return nb


class _NbformatWithExpected:
    """nbformat, except that ``read`` adds the recorded outputs."""

    def __getattr__(self, name: str) -> Any:
        return getattr(nbformat, name)

    def read(self, fp: Any, as_version: int, **kwargs: Any) -> Any:
        return merge_expected(nbformat.read(fp, as_version, **kwargs), fp)


nbval.plugin.nbformat = _NbformatWithExpected()


@pytest.fixture
def game2() -> Any:
    """A two-player USA game just past setup (every player kept all starting tickets)."""
    from positions import start  # tests/ is on sys.path once its modules are collected

    return start(2)


# The JupyterHub test's configuration files are read by JupyterHub and the users' servers,
# never imported by the tests; its node_modules hold the proxy.
collect_ignore = ["tests/hub"]


@pytest.fixture(scope="session")
def binder_env(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The Binder image's environment, built once per run (``tests/binder_image.py``):
    its ``bin`` folder, the environment variables to run it with, and its work folder."""
    import shutil
    import tempfile

    from binder_image import build  # tests/ is on sys.path once its modules are collected

    # Not under pytest's own folder, which only its user may enter: the JupyterHub test runs
    # each user's server from this environment as a system user of its own.
    work = Path(tempfile.mkdtemp(prefix="ttr-binder-"))
    work.chmod(0o755)
    bin_dir, env = build(work)
    yield bin_dir, env, work
    shutil.rmtree(work, ignore_errors=True)


# ---- marks for `make check`, the fast loop (CONTRIBUTING.md): what a test needs beyond Python,
# told by the fixtures it takes, so that a new test is marked without anyone remembering to.
NEEDS = {
    "browser": {"context", "page", "voila", "server", "site_dir", "browser"},  # or a server
    "database": {"postgres_url"},
    "hub": {"hub"},
    "binder": {"binder_env"},
}
BROWSER_MODULES = ("test_browser", "test_site", "test_serving_browser")
# The longest tests that need none of those, by node id (`make check` leaves them to
# `make test`): together they took two thirds of the rest's time on the 2-core machine.
SLOW = re.compile(
    "|".join(
        [
            r"test_conformance\.py::test_random_games_keep_every_invariant\[\w+-[345]-",
            r"test_stateful\.py::test_play_anything",
            r"test_fastpath\.py::test_seeded_games_equal_the_recorded_engine",
            r"test_search\.py::test_(a_tournament_takes|a_search_returns_a_legal_move_within"
            r"|search_beats_random|a_fixed_number_of_worlds)",
            r"test_serving\.py::test_(bare_requests|the_load_client)",  # a Voilà server each
            r"test_cli\.py::test_bench_prints",
            r"test_assignments\.py::",  # nbgrader grades every lesson, each in its sandbox
            r"test_assignments_local\.py::test_(a_teacher|the_course_opens)",
        ]
    )
)


# ---- `make test` and `make check` run the tests on two workers (pytest-xdist, --dist
# loadfile), then the "solo" tests alone (docs/development.md, "The test loop").
# The tests that time themselves against the wall clock or load the machine on purpose (a
# second worker's Chromium beside them could fail them), or that build in the repository's
# own folders: they run after the rest, alone.
SOLO = re.compile(
    "|".join(
        [
            # A stopped or locked database: the sentence within the service's deadline
            # (1.5 s + 1 s), "at once" (< 0.5 s) for the next call, < 5 s for a lock.
            r"test_tables_faults\.py::test_(a_stopped_postgresql|sqlite_waits|postgresql_waits"
            r"|killing_postgresql)",
            # The classroom kernel manager's deadlines of 1 to 2 s, and the real server under
            # a class's load (bare requests, the load clients, a class larger than the server).
            r"test_serving\.py::",
            r"test_serving_browser\.py::",
            # A template or a server killed: its kernels and service must follow within seconds.
            r"test_arrival\.py::test_forked_kernels_outlive",
            r"test_table_service\.py::test_killing_the_voila_server",
            # pip builds the package in the repository's own build/ folder, as the Binder
            # image's and the hub's course environments do (on the other worker, meanwhile).
            r"test_compiled\.py::test_the_static_sites_wheel",
        ]
    )
)
# Every test file runs whole on one worker (``--dist loadfile``: its module-scoped servers start
# once, a notebook's cells run in order in one kernel); files that share an expensive session
# fixture run on the same worker, so that it is made once: the Binder image's environment
# (``binder_env``) serves test_binder.py and test_hub.py (pytest_xdist_make_scheduler below).
SHARED_FILES = {"tests/test_hub.py": "tests/test_binder.py"}
# The longest work first, so that neither worker is left with a long file at the end: the
# files holding a test with one of these marks, in this order, before the rest.
FIRST = ("hub", "binder", "browser", "database", "slow")


def pytest_configure(config: pytest.Config) -> None:
    for mark, why in (
        ("browser", "needs Chromium or a Voilà server of its own"),
        ("database", "needs a PostgreSQL server"),
        ("hub", "needs JupyterHub and its proxy"),
        ("binder", "builds the Binder image's environment (the package index)"),
        ("slow", "takes long; make check leaves it to make test"),
        ("solo", "times itself or loads the machine: make test runs it alone, after the rest"),
    ):
        config.addinivalue_line("markers", f"{mark}: {why}")


@pytest.hookimpl(tryfirst=True)  # the marks are on before -m selects by them
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        params = getattr(getattr(item, "callspec", None), "params", {})
        for mark, fixtures in NEEDS.items():
            if names & fixtures:
                item.add_marker(mark)
        if params.get("store") == "postgresql":
            item.add_marker("database")
        if item.path.name.startswith(BROWSER_MODULES):
            item.add_marker("browser")
        if item.path.suffix == ".ipynb" or SLOW.search(item.nodeid):
            item.add_marker("slow")
        if SOLO.search(item.nodeid):
            item.add_marker("solo")
    if hasattr(config, "workerinput"):  # a pytest-xdist worker: every worker orders alike
        items[:] = longest_first(items)


def work_unit(nodeid: str) -> str:
    """What one worker runs whole: the test's file, or the file it shares a worker with."""
    path = nodeid.split("::", 1)[0]
    return SHARED_FILES.get(path, path)


def longest_first(items: list[pytest.Item]) -> list[pytest.Item]:
    """The tests, their work units ordered by the first of the ``FIRST`` marks any of their
    tests has (collection order among equals; a unit's tests stay in their order)."""
    rank: dict[str, int] = {}
    for item in items:
        unit = work_unit(item.nodeid)
        marks = [FIRST.index(m.name) for m in item.iter_markers() if m.name in FIRST]
        rank[unit] = min([rank.get(unit, len(FIRST)), *marks])
    order = {unit: i for i, unit in enumerate(rank)}
    return sorted(
        items, key=lambda item: (rank[work_unit(item.nodeid)], order[work_unit(item.nodeid)])
    )


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist's, called where it is installed
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadfile``, with the files of ``SHARED_FILES`` on one worker."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class SharedFiles(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

    return SharedFiles(config, log)


# ---- nbval's kernels: on two workers, two kernels starting at once may pick the same free
# TCP port (jupyter_client checks a port is free in its own process only); the kernel that
# lost the race never answers, and nbval gives up after 60 s. A new start picks new ports.
def _start_kernel_again_once(start: Any) -> Any:
    def start_new_kernel(*args: Any, **kwargs: Any) -> Any:
        try:
            return start(*args, **kwargs)
        except RuntimeError:
            return start(*args, **kwargs)

    return start_new_kernel


nbval.kernel.start_new_kernel = _start_kernel_again_once(nbval.kernel.start_new_kernel)
