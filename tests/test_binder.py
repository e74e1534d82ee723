"""The Binder image, rebuilt without Docker: repo2docker's steps in a fresh venv, then its pages.

repo2docker (Binder, or a JupyterHub image built from ``binder/``) starts from a Jupyter stack of
its own (``tests/data/repo2docker_base.txt``), runs ``pip install -r binder/requirements.txt``
from the repository root, then ``binder/postBuild``, and starts ``jupyter notebook``. This test
does the same in a new virtual environment and asks the server for the pages a visitor opens:
the Notebook pages (``/tree``, ``/notebooks/...``), JupyterLab, and the Voilà app. Each must
answer 200, and neither the pages nor the server log may hold a traceback.

It needs the package index (as ``make setup`` does) and takes one to two minutes, most of it
pip; the second run reuses pip's cache.
"""

from __future__ import annotations

import re
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from binder_image import run as _run
from browser import _free_port, _stop

ROOT = Path(__file__).resolve().parent.parent
BASE = ROOT / "tests" / "data" / "repo2docker_base.txt"
PAGES = [
    "/tree",
    "/tree/notebooks",
    "/notebooks/notebooks/index.ipynb",
    "/notebooks/notebooks/rules_usa_1_setup_and_cards.ipynb",
    "/lab/tree/notebooks/index.ipynb",
    "/voila/render/notebooks/app.ipynb",  # the Binder badge's link: runs the app
]


def _pins() -> dict[str, str]:
    """binder/constraints.txt as {normalised name: version}."""
    from packaging.utils import canonicalize_name

    pins = {}
    for line in (ROOT / "binder" / "constraints.txt").read_text(encoding="utf-8").splitlines():
        name, sep, version = line.partition("==")
        if sep and not line.startswith("#"):
            pins[canonicalize_name(name.strip())] = version.strip()
    return pins


def test_binder_installs_the_app_extra_with_every_dependency_pinned():
    """Binder installs the project with its app extra (binder/requirements.txt) under the
    constraints; every dependency of the package and of that extra must be pinned there, at a
    version its specifier accepts. A dependency added to pyproject.toml and not to the
    constraints would be installed at whatever version the day brings, untested together
    (highspy, segno and pyicu-wheels were missing once). No network needed."""
    import tomllib

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    lines = (ROOT / "binder" / "requirements.txt").read_text(encoding="utf-8").splitlines()
    assert ".[app]" in [line.strip() for line in lines]
    assert "-c constraints.txt" in [line.strip() for line in lines]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = project["dependencies"] + project["optional-dependencies"]["app"]
    pins = _pins()
    problems = []
    for spec in wanted:
        requirement = Requirement(spec)
        name = canonicalize_name(requirement.name)
        if name not in pins:
            problems.append(f"{requirement.name} is not pinned in binder/constraints.txt")
        elif not requirement.specifier.contains(pins[name], prereleases=True):
            problems.append(f"{requirement.name}=={pins[name]} does not meet {spec!r}")
        for extra in requirement.extras:  # psycopg[binary] needs psycopg-binary too
            if f"{name}-{extra}" not in pins:
                problems.append(f"{requirement.name}[{extra}] needs {name}-{extra} pinned")
    assert problems == []


def _get(url: str, timeout: float = 180) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            return answer.status, answer.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8", "replace")


def test_the_binder_set_is_consistent(binder_env):
    bin_dir, env, work = binder_env
    log = work / "build.log"
    _run([str(bin_dir / "python"), "-m", "pip", "check"], env, log)
    extensions = _run([str(bin_dir / "jupyter"), "labextension", "list"], env, log)
    assert "is not compatible" not in extensions, extensions
    assert re.search(r"jupyterlab-manager v\S+ \S*enabled\S* \S*OK", extensions), extensions
    frozen = _run([str(bin_dir / "python"), "-m", "pip", "freeze"], env, log)
    pins = {
        line.split("==")[0].lower().replace("_", "-"): line
        for line in (ROOT / "binder" / "constraints.txt").read_text().splitlines()
        if "==" in line
    }
    for line in frozen.splitlines():
        name = line.split("==")[0].lower().replace("_", "-")
        if "==" in line and name in pins:
            assert line.lower() == pins[name].lower(), f"installed {line}, pinned {pins[name]}"


def test_the_notebook_lab_and_voila_pages_answer(binder_env):
    bin_dir, env, work = binder_env
    port = _free_port()
    log = work / "server.log"
    with log.open("w", encoding="utf-8") as out:
        server = subprocess.Popen(
            [
                str(bin_dir / "jupyter"),
                "notebook",  # repo2docker's command
                "--no-browser",
                "--allow-root",
                "--ip=127.0.0.1",
                f"--port={port}",
                "--IdentityProvider.token=",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert server.poll() is None, log.read_text()
            try:
                with urllib.request.urlopen(f"{base}/api", timeout=2):
                    break
            except OSError:
                time.sleep(0.3)
        else:
            pytest.fail(f"the server did not start:\n{log.read_text()[-3000:]}")
        for page in PAGES:
            status, body = _get(base + page)
            assert status == 200, f"{page} answered {status}:\n{body[-2000:]}"
            assert "Traceback" not in body, f"{page} shows a traceback"
        assert "Starting the game" in body  # the app's page template ("ttr") is in place
    finally:
        _stop(server)
    text = log.read_text(encoding="utf-8")
    assert "Traceback" not in text, text[-4000:]
    assert not re.search(r"\[E \d", text), text[-4000:]  # no error lines in the server log


def test_the_image_serves_the_app_from_an_empty_home_folder(binder_env, tmp_path):
    """Issue 45: a JupyterHub mounts each user's volume over the home folder, hiding what the
    image keeps there. The package, its maps, its template and its settings live in the
    environment; binder/start puts the notebooks into the (empty) home folder at each start,
    and the app runs from there."""
    bin_dir, env, work = binder_env
    home = tmp_path / "home"
    home.mkdir()
    env = dict(env, HOME=str(home))
    env.pop("JUPYTER_CONFIG_DIR")  # the user's own, in the new home
    _run(["bash", "binder/start", "true"], env, work / "build.log")
    assert (home / "ttr-nb" / "app.ipynb").exists()
    assert (home / "ttr-nb" / "rules_usa_1_setup_and_cards.ipynb").exists()
    port = _free_port()
    log = work / "server-home.log"
    with log.open("w", encoding="utf-8") as out:
        server = subprocess.Popen(
            [str(bin_dir / "jupyter"), "server", "--no-browser", "--allow-root"]
            + [f"--port={port}", "--ip=127.0.0.1", "--IdentityProvider.token="],
            cwd=home,  # a hub starts the server in the user's home folder
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert server.poll() is None, log.read_text()
            try:
                with urllib.request.urlopen(f"{base}/api", timeout=2):
                    break
            except OSError:
                time.sleep(0.3)
        status, body = _get(f"{base}/voila/render/ttr-nb/app.ipynb")
        assert status == 200, body[-2000:]
        assert "Starting the game" in body  # the "ttr" template, from the environment
        assert "application/vnd.jupyter.widget-view+json" in body  # the app ran
        assert "Traceback" not in body
    finally:
        _stop(server)
    text = log.read_text(encoding="utf-8")
    assert "Traceback" not in text, text[-4000:]
