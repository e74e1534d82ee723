"""The teacher's login in real Chromium, over HTTPS (issue 49, item 4).

The teacher's page is built to be projected: after the link with the token has logged the
teacher in, the token must leave the address bar and the tab's history. The server runs as
``make teacher CERTFILE=... KEYFILE=...`` with a certificate made in the test (Chromium is
told to accept it); its cookies must be ``Secure``.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import CHROMIUM, CHROMIUM_FLAGS, VIEWPORT, shoot, sync_api
from server_tools import make_certificate, running, teacher_server

TOKEN = "a-token-for-the-tests-only-0123456789-abcdef"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    folder = tmp_path_factory.mktemp("teacher-tls")
    certfile, keyfile = make_certificate(folder)
    env = {"TTR_TEACHER_TOKEN": TOKEN, "TTR_TABLES_URL": f"sqlite:///{folder}/tables.sqlite"}
    command = teacher_server("--certfile", str(certfile), "--keyfile", str(keyfile))
    with running(command, "teacher-login.log", env, certfile=certfile) as started:
        yield started


@pytest.fixture(scope="module")
def context(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    executable = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("profile")),
            executable_path=executable,
            headless=True,
            args=CHROMIUM_FLAGS,
            viewport=VIEWPORT,
            ignore_https_errors=True,  # the test's own certificate, trusted by nobody
        )
        try:
            yield browser
        finally:
            browser.close()


def test_the_token_leaves_the_address_bar_and_the_cookies_are_secure(server, context):
    # How long a fresh tab's history is after one visit (Chromium counts its blank start).
    probe = context.new_page()
    probe.goto(f"{server.url}login", wait_until="domcontentloaded")
    one_visit = probe.evaluate("() => history.length")
    probe.close()

    page = context.new_page()
    page.goto(f"{server.url}?token={TOKEN}", wait_until="domcontentloaded", timeout=60_000)
    page.locator(".ttr-teacher").wait_for(timeout=90_000)
    assert page.url == server.url, page.url  # https://127.0.0.1:<port>/, no token
    assert TOKEN not in page.evaluate("() => window.location.href + document.referrer")
    # The entry was replaced, not added: the history holds no address with the token.
    assert page.evaluate("() => history.length") == one_visit
    cookies = {c["name"]: c for c in context.cookies(server.url)}
    login = next(c for name, c in cookies.items() if name.startswith("username-"))
    assert login["secure"] and login["httpOnly"], login
    assert cookies["_xsrf"]["secure"], cookies["_xsrf"]
    # The page's connection to its kernel works over TLS (wss): the tables' list is drawn.
    page.locator(".ttr-teacher-tables").wait_for(timeout=30_000)
    shoot(page, "teacher-login-https.png")
    # The cookie alone keeps the teacher in: the page loads again without the token.
    page.reload(wait_until="domcontentloaded")
    page.locator(".ttr-teacher").wait_for(timeout=90_000)
    assert page.url == server.url
    # Back leads to where the tab started, not to the link with the token.
    page.go_back(wait_until="domcontentloaded")
    assert TOKEN not in page.url, page.url
    page.close()
