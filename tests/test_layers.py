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


def _circles(exclude_type_checking_imports: bool) -> list[tuple[str, str]]:
    """Pairs (a, b): a imports b directly and b leads back to a (inside functions too)."""
    graph = grimp.build_graph(
        "ttr_nb", exclude_type_checking_imports=exclude_type_checking_imports, cache_dir=None
    )
    return [
        (module, imported)
        for module in sorted(graph.modules)
        for imported in sorted(graph.find_modules_directly_imported_by(module))
        if graph.chain_exists(importer=imported, imported=module)
    ]


def test_no_import_circle_runs_at_import_or_call_time():
    """No module imports, at the top or inside a function, one that imports it back
    (rules.base and rules.fastpath did, issue 52)."""
    assert _circles(exclude_type_checking_imports=True) == []


def test_the_only_type_only_circle_is_the_apps_panels():
    """docs/architecture.md's "Known loose ends": annotations alone close circles only
    between the app and its panels (``ttr_nb.widgets``)."""
    outside = [pair for pair in _circles(False) if not pair[0].startswith("ttr_nb.widgets.")]
    assert outside == []
