"""Running the load benches (``tools/bench_load*.py``, ``make bench-load``) from the tests."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parent.parent


def load_tool(name: str) -> ModuleType:
    """The module of ``tools/NAME.py``, loaded once (the tools are scripts, not a package)."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, REPO / "tools" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # its dataclasses look their module up
        spec.loader.exec_module(module)
    return sys.modules[name]


def run_load_tool(tool: str, out: Path, timeout: int) -> subprocess.CompletedProcess:
    """Three visitors within 2 s against a server with three warm kernels; the report goes
    to ``out`` (JSON). The tool must exit 0 (else its output's end is shown)."""
    done = subprocess.run(
        [
            sys.executable,
            str(REPO / "tools" / tool),
            "--visitors=3",
            "--spread=2",
            "--timeout=120",
            f"--json={out}",
            "--voila-arg=--ClassroomKernelManager.warm_kernels=3",
        ],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done
