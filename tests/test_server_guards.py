"""Hostile requests to the real Voilà server: a 404 or 403, never a 500 or a traceback
(issue 25, item 31). No browser: plain HTTP requests against `make app`'s settings."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser import REPO, _free_port, _stop, _wait_http

HOSTILE = [
    "/logout",
    "/logout/",
    "/voila/templates/ttr/index.html.j2",
    "/voila/templates/ttr",
    "/voila/templates/",
    "/voila/templates/nothere/static/x.js",
    "/voila/templates/lab/static/",
    "/voila/templates/lab/static/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/voila/templates/lab/static/a/%2e%2e/%2e%2e/x",
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    log = tmp_path_factory.mktemp("guards") / "voila.log"
    port = _free_port()
    cmd = [sys.executable, "-m", "voila", "notebooks/app.ipynb", "--no-browser"]
    cmd += ["--Voila.ip=127.0.0.1", f"--port={port}", "--ClassroomKernelManager.warm_kernels=0"]
    with open(log, "w") as out:
        proc = subprocess.Popen(
            cmd,
            cwd=REPO,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=dict(os.environ, PYTHONUNBUFFERED="1"),
            start_new_session=True,
        )
    try:
        _wait_http(f"http://127.0.0.1:{port}/voila/static/voila.js", proc, 90)
        yield f"http://127.0.0.1:{port}", log
    finally:
        _stop(proc)


def status_of(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def test_hostile_paths_get_404_or_403_and_no_traceback(server):
    base, log = server
    answers = {path: status_of(base + path) for path in HOSTILE}
    assert all(code in (403, 404) for code in answers.values()), answers
    time.sleep(0.5)  # let the server's log reach the file
    text = log.read_text()
    assert "Traceback" not in text and "Uncaught exception" not in text, text[-2000:]


def test_the_app_template_files_are_still_served(server):
    base, _log = server
    assert status_of(base + "/voila/static/voila.js") == 200
    # A template's own static files (the page's scripts and fonts) are still served.
    from voila.paths import collect_static_paths

    roots = [Path(p) for p in collect_static_paths(["voila", "nbconvert"], "lab")]
    script = next(f.name for root in roots if root.is_dir() for f in root.glob("*.js"))
    assert status_of(f"{base}/voila/templates/lab/static/{script}") == 200
