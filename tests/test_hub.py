"""A class on a real JupyterHub (issues 39 and 49): three students and a teacher, one table.

The hub runs on 127.0.0.1 with its proxy (configurable-http-proxy from npm), the dummy
authenticator (any name and the test's password, typed on the hub's own login form) and one
local single-user server per user (``tests/hub/jupyterhub_config.py``), each run as a system
user of its own (``ttrhub-<name>``, made here: the test runs as root) from the Binder image's
environment (built without Docker, ``tests/binder_image.py``) through the image's
``binder/start`` in an empty home folder, as a Zero to JupyterHub user volume leaves it.
The tables are the table service's, a hub-managed service that alone knows the PostgreSQL
server the test starts. In Chromium, each user logs in on the hub's form; Ann opens a table
of three seats, Ben and Cleo join it by its code, and the game starts. Tess, in the hub's
teachers group, opens the teacher's page in her own server and sees the table. Ben cannot
open Tess's server (the hub says 403), and the teacher's page in his own server shows
nothing but a sentence. Then Ben runs code in his own server, as a student of a graph
course can: he tries to read Ann's hand, to move for her, to read the teacher's list and
the database. Everything is refused.
"""

from __future__ import annotations

import csv
import html
import importlib.metadata
import importlib.util
import io
import json
import os
import pwd
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import ARTIFACTS, CHROMIUM, CHROMIUM_FLAGS, JS_APP_SHOWN, past_first_screen, sync_api
from table_steps import act, open_forms, wait_text

REPO = Path(__file__).resolve().parent.parent
HUB_DIR = REPO / "tests" / "hub"
PROXY = HUB_DIR / "node_modules" / ".bin" / "configurable-http-proxy"
PASSWORD = "a-password-for-the-tests"
STUDENTS = ["ann", "ben", "cleo"]
TEACHER = "tess"
LAPTOP = {"width": 1366, "height": 768}

SYSTEM_PREFIX = "ttrhub-"  # the system users the users' servers run as

pytest.importorskip("jupyterhub")
pytestmark = [
    pytest.mark.skipif(
        not PROXY.exists(), reason="the hub's proxy is not installed (make hub-deps)"
    ),
    pytest.mark.skipif(
        os.geteuid() != 0, reason="the users' servers run as system users of their own: root"
    ),
]


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
        self.tables_url = ""

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


def system_users(homes: Path, names: list[str]) -> list[str]:
    """A system user ``ttrhub-<name>`` for each hub user, with a home folder only they can
    read (made here, removed by the caller)."""
    made = []
    for name in names:
        user = SYSTEM_PREFIX + name
        home = homes / name
        try:
            pwd.getpwnam(user)
        except KeyError:
            subprocess.run(
                [
                    "useradd",
                    "--no-create-home",
                    "--home-dir",
                    str(home),
                    "--shell",
                    "/bin/bash",
                    user,
                ],
                check=True,
            )
            made.append(user)
        home.mkdir(parents=True, exist_ok=True)
        shutil.chown(home, user, user)
        home.chmod(0o700)
    return made


def reachable_by_all(target: Path) -> list[tuple[Path, int]]:
    """Let every user reach ``target`` (the image's Python, which on this machine may live
    under root's home): the folders above it that others cannot enter get the search bit
    (enter, not list) for the test; returns what to put back."""
    changed = []
    for folder in Path(os.path.realpath(target)).parents:
        mode = folder.stat().st_mode
        if not mode & 0o001:
            folder.chmod(mode | 0o001)
            changed.append((folder, mode))
    return changed


@pytest.fixture(scope="module")
def hub(binder_env: Any) -> Iterator[Hub]:
    image_bin = binder_env[0]
    opened = reachable_by_all(image_bin / "python")
    # Folders the users' servers must reach are outside pytest's own (which only root may
    # enter): the hub's secrets stay in a folder of root's; the homes are each user's.
    base = Path(tempfile.mkdtemp(prefix="ttr-hub-"))
    base.chmod(0o711)
    run = base / "hub"
    run.mkdir(mode=0o700)
    homes = base / "home"
    homes.mkdir()
    homes.chmod(0o711)
    start = base / "start"
    shutil.copy(REPO / "binder" / "start", start)
    start.chmod(0o755)
    made = system_users(homes, [*STUDENTS, TEACHER])
    ARTIFACTS.mkdir(exist_ok=True)
    port = _free_ports()
    token = secrets.token_hex(32)
    with _pg_server().temporary_postgres() as tables_url:
        env = dict(
            os.environ,
            HUB_RUN_DIR=str(run),
            HUB_HOMES=str(homes),
            HUB_START=str(start),
            HUB_REPO=str(REPO),
            HUB_PORT=str(port),
            HUB_PROXY=str(PROXY),
            HUB_IMAGE_BIN=str(image_bin),
            HUB_PASSWORD=PASSWORD,
            HUB_TEST_TOKEN=token,
            HUB_SYSTEM_PREFIX=SYSTEM_PREFIX,
            TTR_TABLES_URL=tables_url,  # the hub gives it to the table service alone
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
            hub.tables_url = tables_url
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
            for user in made:
                subprocess.run(["pkill", "-KILL", "-u", user], check=False)
                subprocess.run(["userdel", user], check=False)
            shutil.rmtree(base, ignore_errors=True)
            for folder, mode in opened:
                folder.chmod(mode)


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
    page.wait_for_function(JS_APP_SHOWN, timeout=90_000, polling=200)
    past_first_screen(page)


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


# ------------------------------------------------------------------ a student's own code
def run_code(hub: Hub, user: str, code: str, timeout: float = 120) -> str:
    """Run ``code`` in a kernel of ``user``'s own server, as the user can from JupyterLab
    there; returns what it printed (an error's name and text too)."""
    import uuid

    import websocket

    status, made = hub.api("POST", f"/users/{user}/tokens", {"note": "test", "expires_in": 900})
    assert status in (200, 201), made
    token = made["token"]
    base = f"{hub.url}/user/{user}/api"
    request = urllib.request.Request(
        f"{base}/kernels",
        data=b"{}",
        method="POST",
        headers={"Authorization": f"token {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        kernel = json.loads(answer.read())["id"]
    ws = websocket.create_connection(
        f"{base.replace('http', 'ws', 1)}/kernels/{kernel}/channels",
        header=[f"Authorization: token {token}"],
        timeout=timeout,
    )
    msg_id = uuid.uuid4().hex
    ws.send(
        json.dumps(
            {
                "header": {
                    "msg_id": msg_id,
                    "msg_type": "execute_request",
                    "username": user,
                    "session": uuid.uuid4().hex,
                    "version": "5.3",
                    "date": "",
                },
                "parent_header": {},
                "metadata": {},
                "content": {"code": code, "silent": False, "allow_stdin": False},
                "channel": "shell",
                "buffers": [],
            }
        )
    )
    out = []
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            message = json.loads(ws.recv())
            if message.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind = message["header"]["msg_type"]
            if kind == "stream":
                out.append(message["content"]["text"])
            elif kind == "error":
                out.append(f"{message['content']['ename']}: {message['content']['evalue']}")
            elif kind == "status" and message["content"]["execution_state"] == "idle":
                break
    finally:
        ws.close()
    return "".join(out)


STUDENT_CODE = r"""
import glob, json, os, subprocess
from ttr_nb.errors import TableError
from ttr_nb.tables.remote import SeatClient, connect

found = {}
# 1. Where is the database? Not in this server's environment.
found["db_in_env"] = any(
    ("postgres" in v or "sqlite" in v) for v in os.environ.values()
) or "TTR_TABLES_URL" in os.environ
# 2. Read the service's environment, or reach the database's socket, found with ps.
procs = subprocess.run(["ps", "-eo", "pid,args"], capture_output=True, text=True).stdout
service = [line.split()[0] for line in procs.splitlines() if "ttr_nb.table_service" in line]
try:
    open(f"/proc/{service[0]}/environ").read()
    found["service_env"] = "read"
except Exception as exc:
    found["service_env"] = type(exc).__name__
sockets = [
    a.split("-k ", 1)[1].split()[0] for a in procs.splitlines() if "postgres" in a and "-k " in a
]
try:
    import psycopg
    psycopg.connect(host=sockets[0], port=5432, user="ttr", dbname="ttr", connect_timeout=3)
    found["database"] = "connected"
except Exception as exc:
    found["database"] = type(exc).__name__
# 3. The table service, with this server's own hub token: Ann's seat, Ann's move, the list.
tables = connect("ben-code")
table = int(os.environ["TABLE_ID"])
try:
    SeatClient(tables, table)  # a watcher's view: for the teacher or the creator only
    found["watch"] = "seen"
except TableError as exc:
    found["watch"] = type(exc).__name__
try:
    tables.call("view", table_id=table, token="x" * 32)
    found["anns_view"] = "seen"
except TableError as exc:
    found["anns_view"] = type(exc).__name__
try:
    tables.call("play", table_id=table, token="x" * 32, action={"type": "DrawBlind"})
    found["anns_move"] = "made"
except TableError as exc:
    found["anns_move"] = type(exc).__name__
try:
    tables.list_tables()
    found["teachers_list"] = "seen"
except TableError as exc:
    found["teachers_list"] = type(exc).__name__
print("FOUND", json.dumps(found))
"""


def test_a_students_own_code_reads_no_other_seat_and_no_database(hub):
    """Issue 49: on JupyterHub a student's own code owned the database (its URL was in
    every server's environment): it read every seed and hand and moved for others."""
    made = run_code(
        hub,
        "ann",
        "from ttr_nb.tables.remote import connect\n"
        "t = connect('ann-code')\n"
        "m = t.create_table('usa', ['human', 'human'], 'Ann')\n"
        "print('TABLE', m.table_id, m.code)",
    )
    assert "TABLE" in made, made
    table_id, code = made.split("TABLE", 1)[1].split()[:2]
    joined = run_code(
        hub,
        "ben",
        "from ttr_nb.tables.remote import SeatClient, connect\n"
        f"t = connect('ben-join')\ns = t.join('{code}', 'Ben', 1)\n"
        "seat = SeatClient(t, s.table_id, seat=1, token=s.token)\n"
        "print('SEAT', seat.game.state.players[0].hand, seat.game.seed)",
    )
    assert "SEAT" in joined and "'?': 4" in joined and joined.strip().endswith(" 0"), joined
    out = run_code(hub, "ben", f"import os\nos.environ['TABLE_ID'] = '{table_id}'\n" + STUDENT_CODE)
    assert "FOUND" in out, out
    found = json.loads(out.split("FOUND", 1)[1])
    assert found == {
        "db_in_env": False,
        "service_env": "PermissionError",
        "database": "OperationalError",
        "watch": "SeatTokenError",
        "anns_view": "SeatTokenError",
        "anns_move": "SeatTokenError",
        "teachers_list": "SeatTokenError",
    }, found
    # The teacher's own code, in her own server, is a teacher to the service.
    listed = run_code(
        hub,
        TEACHER,
        "from ttr_nb.tables.remote import connect\n"
        "print('LISTED', [t.code for t in connect('tess-code').list_tables()])",
    )
    assert code in listed, listed


# ---- Grading (issue 50): an nbgrader course on the hub -------------------------------------
# Three students fetch a lesson from nbgrader's exchange (a shared folder), answer it (one
# right, one wrong, one blank) and submit; Tina, in the hub's teachers group, releases,
# collects, autogrades, returns feedback and exports the grades as CSV in the course's grader
# server (formgrader, in the server of the course account grader-ttr, which only the
# teachers group may open). Students and the grader are system accounts, created here with
# useradd: each server runs as its user, so nbgrader's file permissions are what keeps
# students apart (tests/hub/jupyterhub_config.py, ClassSpawner). Their servers run in an
# environment of Debian's Python that every account can read (the tests' own may not be).
GRADER = "grader-ttr"
COURSE_STUDENTS = ["student-ana", "student-bo", "student-cy"]  # right, wrong, blank
GRADING_TEACHER = "tina"
COURSE_ID = "ttr-nb"
COURSE_LESSON = "graphs_2_connectivity_2_union_find"  # the quickest lesson with exercises


@pytest.fixture(scope="module")
def course_accounts(hub: Hub) -> Iterator[Path]:
    """The course's system accounts, homes (mode 700), exchange and the course itself, in
    the folder the hub's config looks in; all removed afterwards."""
    pytest.importorskip("nbgrader")
    if os.geteuid() != 0 or not shutil.which("useradd") or not shutil.which("bwrap"):
        pytest.skip("creating the course's accounts needs root, useradd and bwrap")
    python = Path("/usr/bin/python3")
    if not python.exists():
        pytest.skip("no system Python for the course's accounts")
    from assignments_steps import assignments

    base = Path(f"/tmp/ttr-hub-course-{hub.url.rsplit(':', 1)[1]}")
    shutil.rmtree(base, ignore_errors=True)
    for folder, mode in (("home", 0o755), ("etc", 0o755), ("exchange", 0o1777)):
        (base / folder).mkdir(parents=True)
        os.chmod(base / folder, mode)
    os.chmod(base, 0o755)
    (base / "etc" / "nbgrader_config.py").write_text(
        f"c = get_config()\nc.Exchange.root = {str(base / 'exchange')!r}\n"
        f"c.CourseDirectory.course_id = {COURSE_ID!r}\n"
    )
    accounts = [GRADER, *COURSE_STUDENTS]
    try:
        # ttr-nb with its app and grading extras, as a school's image would have it (~1 min).
        subprocess.run([str(python), "-m", "venv", str(base / "venv")], check=True)
        hub_version = importlib.metadata.version("jupyterhub")
        pip = [str(base / "venv" / "bin" / "python"), "-m", "pip", "install", "-q"]
        done = subprocess.run(
            [*pip, f"{REPO}[app,grading]", f"jupyterhub=={hub_version}"],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        for user in accounts:
            home = base / "home" / user
            subprocess.run(["useradd", "-m", "-d", str(home), "-s", "/bin/bash", user], check=True)
            os.chmod(home, 0o700)
            with (home / ".profile").open("a") as profile:  # the terminal's login shell
                profile.write(f'\nPATH="{base / "venv" / "bin"}:$PATH"\n')
        course = base / "home" / GRADER / "course"
        assignments.build_course(course, names=[COURSE_LESSON])
        # The grader's nbgrader reads the course's settings (the sandbox) wherever it starts.
        (course.parent / ".jupyter").mkdir()
        (course.parent / ".jupyter" / "nbgrader_config.py").write_text(
            f"load_subconfig({str(course / 'nbgrader_config.py')!r})\n"
        )
        subprocess.run(["chown", "-R", f"{GRADER}:{GRADER}", str(course.parent)], check=True)
        yield base
    finally:
        for user in accounts:
            hub.api("DELETE", f"/users/{user}/server")
        time.sleep(2)
        for user in accounts:
            subprocess.run(["userdel", "-r", "-f", user], capture_output=True, check=False)
        shutil.rmtree(base, ignore_errors=True)


class Browser:
    """One person's requests session on the hub, logged in on the hub's form."""

    def __init__(self, hub: Hub, user: str) -> None:
        import requests

        self.hub, self.user, self.session = hub, user, requests.Session()
        self.session.get(f"{hub.url}/hub/login")
        answer = self.session.post(
            f"{hub.url}/hub/login",
            data={"username": user, "password": PASSWORD, "_xsrf": self.session.cookies["_xsrf"]},
            allow_redirects=False,
        )
        assert answer.status_code == 302, answer.status_code

    def open(self, server: str, path: str = "lab") -> Any:
        """A page of ``server``'s user server (the hub's OAuth handshake first, as a browser).
        Another user's server makes the hub ask "Authorize access?": the person clicks it."""
        answer = self.session.get(f"{self.hub.url}/user/{server}/{path}")
        if answer.status_code == 200 and "/hub/api/oauth2/authorize" in answer.url:
            fields = re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', answer.text)
            answer = self.session.post(answer.url, data=[(k, html.unescape(v)) for k, v in fields])
        return answer

    def xsrf(self, server: str) -> str:
        """The XSRF token ``server`` set in a cookie (a page's scripts send it back)."""
        found = (c.value for c in self.session.cookies if c.name == "_xsrf" and server in c.path)
        return next(found, "")

    def post(self, server: str, path: str, **kwargs: Any) -> Any:
        return self.session.post(
            f"{self.hub.url}/user/{server}/{path}",
            headers={"X-XSRFToken": self.xsrf(server)},
            **kwargs,
        )

    def json(self, server: str, path: str, method: str = "GET", **kwargs: Any) -> Any:
        if method == "GET":
            answer = self.session.get(f"{self.hub.url}/user/{server}/{path}", **kwargs)
        else:
            answer = self.post(server, path, **kwargs)
        cookies = [(c.name, c.path) for c in self.session.cookies]
        assert answer.status_code == 200, (path, answer.status_code, answer.text[:300], cookies)
        return answer.json()

    def shell(self, server: str, command: str, timeout: float = 120) -> str:
        """Run ``command`` in a terminal of ``server`` (as a person would in JupyterLab's)."""
        import websocket

        name = self.json(server, "api/terminals", "POST")["name"]
        cookies = "; ".join(f"{c.name}={c.value}" for c in self.session.cookies)
        ws = websocket.create_connection(
            f"{self.hub.url.replace('http', 'ws')}/user/{server}/terminals/websocket/{name}",
            cookie=cookies,
            origin=self.hub.url,
            timeout=timeout,
        )
        marker = secrets.token_hex(4)  # printed as done-<marker> once the command is over
        ws.send(json.dumps(["stdin", f"{command}; printf '%s-%s\\n' done {marker}\r"]))
        out = ""
        deadline = time.monotonic() + timeout
        while f"done-{marker}" not in out and time.monotonic() < deadline:
            kind, *data = json.loads(ws.recv())
            if kind == "stdout":
                out += data[0]
        ws.close()
        self.session.delete(
            f"{self.hub.url}/user/{server}/api/terminals/{name}",
            headers={"X-XSRFToken": self.xsrf(server)},
        )
        return out  # the command as the terminal echoed it, then what it printed


def _answer(browser: Browser, answers: dict[str, str]) -> None:
    """Fill the student's fetched copy in their own server, through JupyterLab's contents API."""
    import nbformat
    from assignments_steps import answered

    path = f"api/contents/{COURSE_LESSON}/{COURSE_LESSON}.ipynb"
    user = browser.user
    model = browser.json(user, path)
    notebook = answered(nbformat.from_dict(model["content"]), answers)
    answer = browser.session.put(
        f"{browser.hub.url}/user/{user}/{path}",
        json={"type": "notebook", "format": "json", "content": notebook},
        headers={"X-XSRFToken": browser.xsrf(user)},
    )
    assert answer.status_code in (200, 201), answer.text[:300]


def test_a_course_on_the_hub_fetch_submit_collect_autograde_feedback_export(hub, course_accounts):
    from assignments_steps import first_wrong, model
    from test_exercises import ticket_ignoring_dead_ends

    from ttr_nb.teaching import exercises

    base, assignment = course_accounts, COURSE_LESSON
    assert hub.api("POST", f"/users/{GRADING_TEACHER}")[0] in (201, 409)
    assert hub.api("POST", "/groups/teachers/users", {"users": [GRADING_TEACHER]})[0] == 200
    hub.start_servers([GRADER, *COURSE_STUDENTS])

    tina = Browser(hub, GRADING_TEACHER)
    assert tina.open(GRADER).status_code == 200  # JupyterLab, in the grader's server
    assert tina.open(GRADER, "formgrader").status_code == 200
    released = tina.json(GRADER, f"formgrader/api/assignment/{assignment}/release", "POST")
    assert released["success"], released

    right = {"ticket_done": model("ticket_done"), "pieces": model("pieces")}
    wrong = first_wrong("ticket_done", "pieces")  # ticket_ignoring_dead_ends, and one piece
    students = {}
    for user, answers in zip(COURSE_STUDENTS, (right, wrong, {}), strict=True):
        browser = students[user] = Browser(hub, user)
        assert browser.open(user).status_code == 200
        listed = browser.json(user, "assignments", params={"course_id": COURSE_ID})
        assert any(a["assignment_id"] == assignment for a in listed["value"]), listed
        query = {"course_id": COURSE_ID, "assignment_id": assignment}
        assert browser.json(user, "assignments/fetch", "POST", data=query)["success"]
        if answers:
            _answer(browser, answers)
        assert browser.json(user, "assignments/submit", "POST", data=query)["success"]

    # A student cannot open the grader's server, list the submissions, read another's copy,
    # the course's hidden tests or its gradebook.
    bo = students["student-bo"]
    assert bo.open(GRADER, "formgrader").status_code == 403
    seen = bo.shell(
        "student-bo",
        f"ls {base}/exchange/{COURSE_ID}/inbound; cat {base}/home/student-ana/{assignment}/*.ipynb;"
        f" ls {base}/home/{GRADER}/course/source; cat {base}/home/{GRADER}/course/gradebook.db",
    )
    assert seen.count("Permission denied") == 4, seen
    assert "other_cases" not in seen and "def ticket_done" not in seen

    collected = tina.json(GRADER, f"formgrader/api/assignment/{assignment}/collect", "POST")
    assert collected["success"], collected
    for user in COURSE_STUDENTS:
        done = tina.json(GRADER, f"formgrader/api/submission/{assignment}/{user}/autograde", "POST")
        assert done["success"], done
    graded = {
        s["student"]: s["score"]
        for s in tina.json(GRADER, f"formgrader/api/submissions/{assignment}")
    }
    assert graded == {"student-ana": 20.0, "student-bo": 0.0, "student-cy": 0.0}

    tina.json(GRADER, f"formgrader/api/assignment/{assignment}/generate_feedback", "POST")
    tina.json(GRADER, f"formgrader/api/assignment/{assignment}/release_feedback", "POST")
    query = {"course_id": COURSE_ID, "assignment_id": assignment}
    assert bo.json("student-bo", "assignments/fetch_feedback", "POST", data=query)["success"]
    feedback = bo.json("student-bo", f"api/contents/{assignment}/feedback")["content"]
    (returned,) = [entry["path"] for entry in feedback]  # one folder a feedback, by its time
    page = bo.json("student-bo", f"api/contents/{returned}/{assignment}.html")["content"]
    text = html.unescape(re.sub(r"<[^>]+>", "", page))
    assert exercises.check_ticket(ticket_ignoring_dead_ends).message in text

    out = tina.shell(GRADER, "cd ~/course && nbgrader export --to grades.csv")
    assert "Exception" not in out, out
    assert tina.session.get(f"{hub.url}/user/{GRADER}/api/contents/grades.csv").ok, out
    rows = list(
        csv.DictReader(io.StringIO(tina.json(GRADER, "api/contents/grades.csv")["content"]))
    )
    assert {r["student_id"]: (r["score"], r["max_score"]) for r in rows} == {
        "student-ana": ("20.0", "20.0"),
        "student-bo": ("0.0", "20.0"),
        "student-cy": ("0.0", "20.0"),
    }
