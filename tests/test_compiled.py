"""The compiled engine (setup.py, ``make build-fast``) plays exactly what its pure-Python
source plays, and every other build stays pure Python.

The compiled tree is ``build/fast`` (the compiled wheel, unpacked); ``make test`` builds
it first. Its games are played in a child process with ``PYTHONPATH=build/fast`` and
compared with the same games played here, in pure Python: every legal-action list, every
action, the log, the result and the final state (``tests/engine_digests.py``), plus
greedy games (the bots and the graph algorithms they call are compiled too).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from engine_digests import game_digest, recorded

from ttr_nb.rules import playable_maps

REPO = Path(__file__).resolve().parent.parent
FAST = REPO / "build" / "fast"
# Seeded games per map compared whole (2 to 5 players: seed % 4 + 2): random bots, then
# greedy ones.
RANDOM_SEEDS = {"usa": 12, "germany": 8, "maerklin": 4, "world": 2, "europe": 4}
GREEDY_SEEDS = {"usa": 4, "germany": 2, "maerklin": 2, "world": 1, "europe": 2}
# Modules that must be compiled in the build (the engine's hot path on every map).
MUST_BE_COMPILED = (
    "ttr_nb.actions",
    "ttr_nb.game",
    "ttr_nb.state",
    "ttr_nb.rules.base",
    "ttr_nb.rules.fastpath",
    "ttr_nb.rules.claim_tables",
    "ttr_nb.bots.greedy",
    "ttr_nb.algorithms.shortest_paths",
)


def digests(map_name: str) -> dict[str, str]:
    """Digests of the seeded games of ``map_name`` played by this process's engine."""
    from ttr_nb import new_game
    from ttr_nb.bots import GreedyBot, play_out

    out = {}
    for seed in range(RANDOM_SEEDS[map_name]):
        hasher = hashlib.sha256()
        game_digest(map_name, seed, hasher)
        out[f"random {seed}"] = hasher.hexdigest()
    for seed in range(GREEDY_SEEDS[map_name]):
        players = 2 + seed % 4
        game = new_game(map_name, players=players, seed=seed)
        play_out(game, [GreedyBot(seed * 10 + i) for i in range(players)])
        out[f"greedy {seed}"] = hashlib.sha256(game.snapshot().encode()).hexdigest()
    return out


CHILD = """
import json, sys
sys.path.insert(0, {tests!r})
import test_compiled
from engine_digests import block_digest
from ttr_nb import new_game
played = {{m: test_compiled.digests(m) for m in {maps!r}}}
print(json.dumps({{
    "compiled": sorted(
        name for name, module in list(sys.modules.items())
        if name.startswith("ttr_nb") and str(getattr(module, "__file__", "")).endswith(".so")
    ),
    "usa_tables": new_game("usa", 2, seed=0).rules.fast.table is not None,
    "digests": played,
    "usa_block_0": block_digest("usa", 0)[0],
}}))
"""


@pytest.fixture(scope="module")
def compiled_run():
    """What the compiled engine played, from a child process (skipped when not built)."""
    built = FAST / ".built"
    if not built.exists():
        pytest.skip("the compiled engine is not built (make build-fast)")
    sources = [*(REPO / "ttr_nb").rglob("*.py"), *(REPO / "ttr_nb").rglob("*.pxd")]
    if max(path.stat().st_mtime for path in sources) > built.stat().st_mtime:
        pytest.skip("build/fast is older than the source (make build-fast; make test does)")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(FAST)
    code = CHILD.format(tests=str(REPO / "tests"), maps=playable_maps())
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=FAST
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


def test_the_build_compiles_the_engines_hot_path(compiled_run):
    missing = [m for m in MUST_BE_COMPILED if m not in compiled_run["compiled"]]
    assert not missing, f"imported from .py files in the compiled build: {missing}"
    assert compiled_run["usa_tables"], "compiled, USA lists claims from its tables"


@pytest.mark.parametrize("map_name", playable_maps())
def test_compiled_engine_plays_the_pure_engines_games(compiled_run, map_name):
    """Every legal list, action, log line, result and final state, game by game."""
    want = digests(map_name)
    got = compiled_run["digests"][map_name]
    differ = [game for game in want if got.get(game) != want[game]]
    assert not differ, f"{map_name}: the compiled engine played other games: {differ}"


def test_compiled_engine_replays_the_recorded_games(compiled_run):
    """The first 100 recorded USA games (digests made before the fast path existed)."""
    assert compiled_run["usa_block_0"] == recorded()["usa"][0]


def load_setup():
    """setup.py as a module (its ``setup()`` runs only as a script)."""
    spec = importlib.util.spec_from_file_location("ttr_nb_setup", REPO / "setup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_plain_builds_are_pure_python(monkeypatch):
    """``pip install -e .``, ``pip wheel .`` and the static site's wheel compile nothing:
    only ``TTR_NB_COMPILE=1`` asks for the compiled modules."""
    monkeypatch.delenv("TTR_NB_COMPILE", raising=False)
    assert load_setup().extensions() == []


def test_the_compiled_list_holds_the_hot_path_and_no_package_init():
    setup = load_setup()
    sources = setup.sources()
    modules = {path.removesuffix(".py").replace(os.sep, ".") for path in sources}
    assert set(MUST_BE_COMPILED) <= modules
    assert not [path for path in sources if path.endswith("__init__.py")]
    for pattern in setup.COMPILED:  # no stale entry: every pattern names files
        assert any(Path(path).match(pattern) for path in sources), pattern


def test_this_process_runs_the_pure_source():
    """The tests themselves run the editable install: the .py files, as Pyodide does."""
    import ttr_nb.rules.claim_tables as claim_tables
    import ttr_nb.rules.fastpath as fastpath

    assert fastpath.__file__.endswith(".py")
    assert not claim_tables.COMPILED


def test_the_static_sites_wheel_is_pure_even_when_compiling_is_asked(monkeypatch, tmp_path):
    """The browser (Pyodide) runs the pure source: the site's wheel ignores TTR_NB_COMPILE."""
    import zipfile

    monkeypatch.setenv("TTR_NB_COMPILE", "1")
    monkeypatch.syspath_prepend(str(REPO / "tools"))
    import build_site

    wheel = build_site.build_ttr_wheel(tmp_path)
    assert wheel.name.endswith("-py3-none-any.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "ttr_nb/rules/claim_tables.py" in names
    assert not [n for n in names if n.endswith((".so", ".pyd", ".c"))]
