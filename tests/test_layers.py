"""The package's layers (docs/architecture.md) hold: import-linter's contracts in
pyproject.toml, checked on the package as it is and on a copy with one upward import."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import grimp

REPO = Path(__file__).resolve().parent.parent


def lint_imports(root: Path) -> subprocess.CompletedProcess:
    """Run import-linter on the ``ttr_nb`` found in ``root`` with the repository's contracts."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "from importlinter.cli import lint_imports_command; lint_imports_command()",
            "--no-cache",
            "--no-logo",
            str(REPO / "pyproject.toml"),
        ],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_nothing_in_the_package_imports_upward():
    done = lint_imports(REPO)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_an_upward_import_inside_a_function_fails_the_check(tmp_path):
    shutil.copytree(
        REPO / "ttr_nb", tmp_path / "ttr_nb", ignore=shutil.ignore_patterns("__pycache__")
    )
    maps = tmp_path / "ttr_nb" / "maps.py"
    maps.write_text(
        maps.read_text(encoding="utf-8")
        + "\n\ndef _draw(game_map):\n    from .widgets import board\n\n    return board\n",
        encoding="utf-8",
    )
    done = lint_imports(tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Layers run one way BROKEN" in done.stdout
    assert "ttr_nb.maps -> ttr_nb.widgets.board" in done.stdout


def test_no_module_imports_the_package_front_door():
    """``ttr_nb/__init__`` re-exports the engine (game, maps, actions, errors): a module that
    imported it would reach the game through it, unseen by the layers contract."""
    graph = grimp.build_graph("ttr_nb")
    assert graph.find_modules_that_directly_import("ttr_nb") == set()
