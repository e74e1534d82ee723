"""Hostile requests to the real Voilà server: a 404 or 403, never a 500 or a traceback
(issue 25, item 31). No browser: plain HTTP requests against `make app`'s settings."""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser import serving

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
def server() -> Iterator[tuple[str, Path]]:
    with serving(log_name="voila-guards.log", warm=0) as voila:
        yield voila.url.rstrip("/"), voila.log


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
