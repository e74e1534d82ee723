"""A class on a real JupyterHub (issue 39): three students and a teacher, one table, PostgreSQL.

The hub runs on 127.0.0.1 with its proxy (configurable-http-proxy from npm), the dummy
authenticator (any name and the test's password, typed on the hub's own login form) and one
local single-user server per user (``tests/hub/jupyterhub_config.py``), run from the Binder
image's environment (built without Docker, ``tests/binder_image.py``) through the image's
``binder/start`` in an empty home folder, as a Zero to JupyterHub user volume leaves it.
Every user's server keeps its tables in one PostgreSQL server that the test starts. In
Chromium, each user logs in on the hub's form; Ann opens a table of three seats, Ben and
Cleo join it by its code, and the game starts. Tess, in the hub's teachers group, opens the
teacher's page in her own server and sees the table. Ben cannot open Tess's server (the hub
says 403), and the teacher's page in his own server shows nothing but a sentence.
"""

from __future__ import annotations

import importlib.util
import json
import os
import secrets
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import ARTIFACTS, CHROMIUM, CHROMIUM_FLAGS, JS_CANVAS_PAINTED, sync_api
from table_steps import act, open_forms, wait_text

REPO = Path(__file__).resolve().parent.parent
HUB_DIR = REPO / "tests" / "hub"
PROXY = HUB_DIR / "node_modules" / ".bin" / "configurable-http-proxy"
PASSWORD = "a-password-for-the-tests"
STUDENTS = ["ann", "ben", "cleo"]
TEACHER = "tess"
LAPTOP = {"width": 1366, "height": 768}

pytest.importorskip("jupyterhub")
pytestmark = pytest.mark.skipif(
    not PROXY.exists(), reason="the hub's proxy is not installed (make hub-deps)"
)


def _pg_server() -> Any:
    spec = importlib.util.spec_from_file_location("pg_server", REPO / "tools" / "pg_server.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Hub:
    """The running hub: its address and its API, with the test's admin token."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url
        self.token = token

    def api(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            f"{self.url}/hub/api{path}",
            data=data,
            method=method,
            headers={"Authorization": f"token {self.token}"},
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                text = answer.read().decode()
                return answer.status, json.loads(text) if text else None
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()

    def start_servers(self, users: list[str]) -> None:
        """Create the users and start their servers together; wait until all are ready."""
        for user in users:
            status, _ = self.api("POST", f"/users/{user}")
            assert status in (201, 409), status
            status, reply = self.api("POST", f"/users/{user}/server")
            assert status in (201, 202, 400), (status, reply)  # 400: already running
        waiting = set(users)
        deadline = time.monotonic() + 180
        while waiting and time.monotonic() < deadline:
            for user in sorted(waiting):
                status, model = self.api("GET", f"/users/{user}")
                server = (model.get("servers") or {}).get("") if status == 200 else None
                if server and server.get("ready"):
                    waiting.discard(user)
            time.sleep(0.5)
        assert not waiting, f"servers not started: {waiting} (see test-artifacts/hub.log)"


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory, binder_env: Any) -> Iterator[Hub]:
    image_bin = binder_env[0]
    run = tmp_path_factory.mktemp("hub")
    ARTIFACTS.mkdir(exist_ok=True)
    port = _free_ports()
    token = secrets.token_hex(32)
    with _pg_server().temporary_postgres() as tables_url:
        env = dict(
            os.environ,
            HUB_RUN_DIR=str(run),
            HUB_REPO=str(REPO),
            HUB_PORT=str(port),
            HUB_PROXY=str(PROXY),
            HUB_IMAGE_BIN=str(image_bin),
            HUB_PASSWORD=PASSWORD,
            HUB_TEST_TOKEN=token,
            TTR_TABLES_URL=tables_url,
            PYTHONUNBUFFERED="1",
        )
        log = (ARTIFACTS / "hub.log").open("w")
        proc = subprocess.Popen(
            [sys.executable, "-m", "jupyterhub", "-f", str(HUB_DIR / "jupyterhub_config.py")],
            cwd=run,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            hub = Hub(f"http://127.0.0.1:{port}", token)
            _wait_ready(hub, proc)
            hub.start_servers([*STUDENTS, TEACHER])
            yield hub
        finally:
            proc.terminate()  # the hub stops the proxy and the users' servers with it
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, 9)
            log.close()


def _free_ports() -> int:
    """A port P with P..P+2 free (the proxy, the hub, the proxy's API)."""
    import socket

    for _ in range(50):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port + 2 < 65536 and all(_port_free(port + i) for i in range(3)):
            return port
    raise RuntimeError("no three free ports in a row")


def _port_free(port: int) -> bool:
    import socket

    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _wait_ready(hub: Hub, proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError("the hub exited: see test-artifacts/hub.log")
        try:
            with urllib.request.urlopen(f"{hub.url}/hub/api/", timeout=5) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.5)
    raise AssertionError("the hub did not start in 90 s: see test-artifacts/hub.log")


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    executable = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            browser.close()


def log_in(chromium: Any, hub: Hub, user: str) -> Any:
    """A browser of its own for ``user`` (its own cookies), logged in on the hub's form."""
    context = chromium.new_context(viewport=LAPTOP)
    page = context.new_page()
    page.goto(f"{hub.url}/hub/login", wait_until="domcontentloaded")
    page.locator("input[name=username]").fill(user)
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("input[type=submit], button[type=submit]").first.click()
    page.wait_for_url(f"**/user/{user}/**", timeout=60_000)
    return page


def open_app(page: Any, hub: Hub, user: str) -> None:
    page.goto(f"{hub.url}/user/{user}/voila/render/ttr-nb/app.ipynb")
    page.wait_for_function(JS_CANVAS_PAINTED, timeout=90_000, polling=200)


def shoot(page: Any, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


def test_three_students_and_a_teacher_at_one_table_on_jupyterhub(hub, chromium):
    pages = {user: log_in(chromium, hub, user) for user in [*STUDENTS, TEACHER]}
    for user in STUDENTS:
        open_app(pages[user], hub, user)
    ann, ben, cleo = (pages[u] for u in STUDENTS)
    open_forms(ann)
    ann.locator(".ttr-table-seats select").select_option(label="3")
    ann.locator(".ttr-table-creator-name input").fill("Ann")
    ann.locator(".ttr-table-creator-name input").press("Enter")
    ann.locator(".ttr-table-open").click()
    wait_text(ann, ".ttr-table-turn", "Waiting for 2 players")
    code = ann.locator(".ttr-table-code b").inner_text()
    for page, name, seat in ((ben, "Ben", 1), (cleo, "Cleo", 2)):
        open_forms(page)
        page.locator(".ttr-table-join-code input").fill(code)
        page.locator(".ttr-table-join-name input").fill(name)
        page.locator(".ttr-table-join-name input").press("Enter")
        page.locator(".ttr-table-find").click()
        page.locator(f".ttr-table-sit-{seat}").click()
    wait_text(ann, ".ttr-table-turn", "Your turn!")
    boxes = ann.locator(".ttr-offer .widget-checkbox input")
    for i in range(boxes.count()):
        boxes.nth(i).check()
    act(ann, "button.ttr-keep")
    wait_text(ben, ".ttr-table-turn", "Your turn!")
    shoot(ben, "hub-ben-at-the-table.png")

    tess = pages[TEACHER]
    tess.goto(f"{hub.url}/user/{TEACHER}/voila/render/ttr-nb/teacher.ipynb")
    tess.locator(".ttr-teacher-table").wait_for(timeout=90_000)
    wait_text(tess, ".ttr-teacher-table", "Cleo")
    listing = tess.locator(".ttr-teacher-table").inner_text()
    assert code in listing and "playing" in listing
    assert all(name in listing for name in ("Ann", "Ben", "Cleo"))
    assert "tess" in tess.locator(".ttr-teacher-who").inner_text()
    shoot(tess, "hub-teacher.png")

    # Ben tries the teacher's page: Tess's server is hers alone; his own shows a sentence.
    answer = ben.goto(f"{hub.url}/user/{TEACHER}/voila/render/ttr-nb/teacher.ipynb")
    assert answer.status == 403 or "403" in ben.locator("body").inner_text()
    assert code not in ben.content()
    ben.goto(f"{hub.url}/user/ben/voila/render/ttr-nb/teacher.ipynb")
    ben.locator(".ttr-teacher-refused").wait_for(timeout=90_000)
    refused = ben.locator(".ttr-teacher").inner_text()
    assert "teachers group, and ben is not in it" in refused
    assert code not in ben.content() and "Cleo" not in ben.content()
    shoot(ben, "hub-student-teacher-page.png")
