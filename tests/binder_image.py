"""The Binder image's environment, built as repo2docker builds it, without Docker.

repo2docker starts from a Jupyter stack of its own (``tests/data/repo2docker_base.txt``), runs
``pip install -r binder/requirements.txt`` from the repository root, then ``binder/postBuild``.
:func:`build` does the same in a new virtual environment. ``tests/test_binder.py`` serves
Binder's pages from it, and ``tests/test_hub.py`` runs every JupyterHub user's server from it
(the conftest's ``binder_env`` fixture builds it once per test session).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASE = ROOT / "tests" / "data" / "repo2docker_base.txt"


def run(args: list[str], env: dict[str, str], log: Path, timeout: float = 600) -> str:
    """Run ``args`` in the repository root; its output goes to ``log`` too; fail loudly."""
    done = subprocess.run(
        args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    output = done.stdout + done.stderr
    with log.open("a", encoding="utf-8") as out:
        out.write(f"$ {' '.join(args)}\n{output}\n")
    assert done.returncode == 0, f"{' '.join(args)} failed:\n{output[-3000:]}"
    return output


def image_python() -> str:
    """The image's Python: Debian's own ``/usr/bin/python3`` when it is this Python's minor
    version (every user may run it, as every user of the image may run the image's; the
    JupyterHub test runs each user's server as a system user of its own, and this
    interpreter may live in root's home), else this interpreter."""
    debian = Path("/usr/bin/python3")
    if debian.exists():
        found = subprocess.run(
            [str(debian), "-c", "import sys, venv, ensurepip; print(sys.version_info[:2])"],
            capture_output=True,
            text=True,
            check=False,
        )
        if found.returncode == 0 and found.stdout.strip() == str(sys.version_info[:2]):
            return str(debian)
    return sys.executable


def build(work: Path) -> tuple[Path, dict[str, str]]:
    """The image's environment in ``work/venv``: its ``bin`` folder and the environment
    variables to run it with (none of this machine's own Jupyter settings)."""
    venv = work / "venv"
    subprocess.run([image_python(), "-m", "venv", str(venv)], check=True)
    bin_dir = venv / "bin"
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "JUPYTER", "PY"))
    }
    env.update(
        PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
        VIRTUAL_ENV=str(venv),
        JUPYTER_CONFIG_DIR=str(work / "config"),  # no settings of this machine's user
        JUPYTER_DATA_DIR=str(work / "data"),
        JUPYTER_RUNTIME_DIR=str(work / "runtime"),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
    )
    for key in ("PIP_FIND_LINKS", "PIP_CERT", "PIP_DEFAULT_TIMEOUT", "PIP_INDEX_URL"):
        if key in os.environ:
            env[key] = os.environ[key]
    log = work / "build.log"
    # --no-compile: no .pyc files written ahead (Python writes them at first import)
    pip = [str(bin_dir / "python"), "-m", "pip", "install", "--quiet", "--no-compile"]
    run([*pip, "-r", str(BASE)], env, log)  # repo2docker's own stack first
    run([*pip, "-r", "binder/requirements.txt"], env, log)  # then ours, from the repo root
    run(["bash", "binder/postBuild"], env, log)
    return bin_dir, env
