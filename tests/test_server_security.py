"""The app's servers on a class network (issue 49, items 4 and 5): HTTPS with a Secure login
cookie, password tries throttled with a sentence, and ``X-Forwarded-For`` believed only
from a trusted proxy.

Real servers, started as ``make app`` and ``make teacher`` start them
(``tests/server_tools.py``), and plain HTTP clients; several client addresses come from
the loopback network (127.0.0.2, 127.0.0.3 ... all reach a server on 127.0.0.1).
"""

from __future__ import annotations

import concurrent.futures
import http.client
import re
import ssl
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest
from server_tools import app_server, make_certificate, running, teacher_server, trusting

TOKEN = "a-token-for-the-tests-only-0123456789-abcdef"
PASSWORD = "correct horse battery staple"


def send(
    url: str,
    method: str = "GET",
    form: dict[str, str] | None = None,
    cookies: dict[str, str] | None = None,
    headers: dict[str, str] | None = None,
    source: str = "127.0.0.1",
    context: ssl.SSLContext | None = None,
) -> tuple[int, list[tuple[str, str]], str]:
    """One request from client address ``source``: status, headers, body."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme == "https":
        conn: Any = http.client.HTTPSConnection(
            parts.hostname, parts.port, timeout=60, context=context, source_address=(source, 0)
        )
    else:
        conn = http.client.HTTPConnection(
            parts.hostname, parts.port, timeout=60, source_address=(source, 0)
        )
    sent = dict(headers or {})
    if cookies:
        sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
    body = None
    if form is not None:
        body = urllib.parse.urlencode(form)
        sent["Content-Type"] = "application/x-www-form-urlencoded"
    try:
        conn.request(method, parts.path + (f"?{parts.query}" if parts.query else ""), body, sent)
        answer = conn.getresponse()
        return answer.status, answer.getheaders(), answer.read().decode("utf-8", "replace")
    finally:
        conn.close()


def set_cookies(headers: list[tuple[str, str]]) -> dict[str, str]:
    """Each cookie the answer sets: name -> its whole Set-Cookie line."""
    lines = [value for name, value in headers if name.lower() == "set-cookie"]
    return {line.split("=", 1)[0]: line for line in lines}


def log_in(base: str, password: str, source: str = "127.0.0.1", **kwargs: Any) -> tuple:
    """Jupyter's login form, as a browser fills it: its _xsrf cookie and field, then POST."""
    status, headers, page = send(base + "login", source=source, **kwargs)
    assert status == 200, page[-500:]
    xsrf_cookie = set_cookies(headers)["_xsrf"].split(";")[0].split("=", 1)[1]
    field = re.search(r'name="_xsrf" value="([^"]+)"', page).group(1)
    form = {"_xsrf": field, "password": password}
    return send(
        base + "login", "POST", form, cookies={"_xsrf": xsrf_cookie}, source=source, **kwargs
    )


# ------------------------------------------------------------------------------ HTTPS
@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return make_certificate(tmp_path_factory.mktemp("tls"))


def test_the_teachers_server_speaks_https_and_its_cookies_are_secure(certificate):
    """``make teacher CERTFILE=... KEYFILE=...``: the login page and the login come over TLS
    (a certificate made here, trusted by this client only); the login cookie and the _xsrf
    cookie carry ``Secure`` (a browser never sends them over plain HTTP) and the login
    cookie ``HttpOnly``. Plain HTTP on that port gets no page."""
    certfile, keyfile = certificate
    command = teacher_server("--certfile", str(certfile), "--keyfile", str(keyfile))
    env = {"TTR_TEACHER_TOKEN": TOKEN}
    with running(command, "teacher-tls.log", env, certfile=certfile) as server:
        assert server.url.startswith("https://")
        context = trusting(certfile)
        status, _headers, page = send(server.url + "login", context=context)
        assert status == 200 and "password" in page.lower()
        status, headers, _page = log_in(server.url, TOKEN, context=context)
        assert status == 302, status
        cookies = set_cookies(headers)
        login = next(line for name, line in cookies.items() if name.startswith("username-"))
        assert "; Secure" in login and "; HttpOnly" in login, login
        _status, headers, _page = send(server.url + "login", context=context)
        assert "; Secure" in set_cookies(headers)["_xsrf"]
        with pytest.raises((http.client.HTTPException, ConnectionError, OSError)):
            send(server.url.replace("https://", "http://") + "login")
        log = server.log.read_text()
        assert f"https://127.0.0.1:{server.port}/?token=" in log  # the link it prints


def test_the_app_server_speaks_https(certificate, tmp_path):
    """``make app CERTFILE=... KEYFILE=...``: the app's page over TLS."""
    certfile, keyfile = certificate
    notebook = address_notebook(tmp_path)
    command = app_server(notebook, f"--certfile={certfile}", f"--keyfile={keyfile}")
    with running(command, "app-tls.log", certfile=certfile) as server:
        status, _headers, page = send(server.url, context=trusting(certfile))
        assert status == 200 and "visitor=127.0.0.1" in page
        with pytest.raises(ssl.SSLCertVerificationError):  # a client that does not trust it
            send(server.url, context=ssl.create_default_context())


# ------------------------------------------------------------------ password throttling
@pytest.fixture(scope="module")
def password_hash() -> str:
    from jupyter_server.auth import passwd

    return passwd(PASSWORD)


def test_password_tries_are_throttled_per_address_with_a_sentence(password_hash):
    """3 tries per address in 6 s: the 4th, even the right password, is not checked and the
    guesser reads how long to wait (HTTP 429); another address logs in meanwhile; after the
    wait, the right password works from the first address too."""
    limits = (
        "--QuietIdentityProvider.login_tries_per_address=3",
        "--QuietIdentityProvider.login_window_s=6",
        "--QuietIdentityProvider.login_checks_per_second=0",
    )
    env = {"TTR_TEACHER_PASSWORD_HASH": password_hash}
    with running(teacher_server(voila=limits), "teacher-throttle.log", env) as server:
        started = time.monotonic()
        for guess in ("letmein", "teacher", "password1"):
            status, _headers, page = log_in(server.url, guess, source="127.0.0.2")
            assert status == 401 and "Invalid credentials" in page
        status, headers, page = log_in(server.url, PASSWORD, source="127.0.0.2")
        assert status == 429, status
        said = re.search(r"Too many password tries from your address: wait (\d+) seconds?", page)
        assert said and 1 <= int(said.group(1)) <= 6, page[-1500:]
        assert dict(headers).get("Retry-After") == said.group(1)
        assert not any(n.startswith("username-") for n in set_cookies(headers))
        assert "Traceback" not in page
        # Another address (another device of the class) is not held back.
        status, headers, _page = log_in(server.url, PASSWORD, source="127.0.0.3")
        assert status == 302 and any(n.startswith("username-") for n in set_cookies(headers))
        time.sleep(max(0.0, started + 6.5 - time.monotonic()))
        status, _headers, _page = log_in(server.url, PASSWORD, source="127.0.0.2")
        assert status == 302


def test_the_whole_server_checks_at_most_so_many_passwords_a_second(password_hash):
    """One check a second for the whole server: eight guessers at once from eight addresses
    get at most two checks (each costs an argon2 hash); the others read that the server has
    too many tries right now, at once."""
    limits = (
        "--QuietIdentityProvider.login_tries_per_address=0",
        "--QuietIdentityProvider.login_checks_per_second=1",
    )
    env = {"TTR_TEACHER_PASSWORD_HASH": password_hash}
    with running(teacher_server(voila=limits), "teacher-throttle-all.log", env) as server:
        sources = [f"127.0.0.{10 + i}" for i in range(8)]
        with concurrent.futures.ThreadPoolExecutor(len(sources)) as pool:
            answers = list(pool.map(lambda s: log_in(server.url, "guess", source=s), sources))
        statuses = sorted(status for status, _h, _p in answers)
        checked = statuses.count(401)
        refused = [p for status, _h, p in answers if status == 429]
        assert 1 <= checked <= 2 and len(refused) == len(sources) - checked, statuses
        assert all("Too many password tries on this server right now" in p for p in refused)


# --------------------------------------------------------------- behind a reverse proxy
def address_notebook(folder: Path) -> Path:
    """A notebook that shows the visitor's address as its kernel learned it from the server
    (the first cell the server adds, ttr_nb.serving.note_client)."""
    cell = "from ttr_nb.tables.visitor import client_address\nprint(f'visitor={client_address()}')"
    path = folder / "address.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(cell)]), path)
    return path


@pytest.fixture(scope="module")
def behind_proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """``make app PROXIES=127.0.0.2``: a proxy at 127.0.0.2 is trusted, nobody else."""
    notebook = address_notebook(tmp_path_factory.mktemp("proxy"))
    trust = ("--ClassroomVoila.trust_xheaders=True", "--ClassroomVoila.trusted_proxies=127.0.0.2")
    with running(app_server(notebook, *trust), "app-proxy.log") as server:
        yield server


def visitor_seen(server: Any, source: str, headers: dict[str, str]) -> str:
    status, _headers, page = send(server.url, headers=headers, source=source)
    assert status == 200, page[-800:]
    found = re.search(r"visitor=([0-9a-f.:]+|None)", page)
    assert found, page[-800:]
    return found.group(1)


@pytest.mark.parametrize(
    ("source", "headers", "visitor"),
    [
        # the trusted proxy forwards a visitor: the visitor counts
        ("127.0.0.2", {"X-Forwarded-For": "198.51.100.7"}, "198.51.100.7"),
        # two proxies: the last address that is not a trusted proxy is the visitor
        ("127.0.0.2", {"X-Forwarded-For": "203.0.113.5, 198.51.100.7, 127.0.0.2"}, "198.51.100.7"),
        ("127.0.0.2", {"X-Real-Ip": "198.51.100.8"}, "198.51.100.8"),
        ("127.0.0.2", {}, "127.0.0.2"),  # the proxy itself
        # anybody else sending the header: it is ignored, their own address counts
        ("127.0.0.3", {"X-Forwarded-For": "198.51.100.7"}, "127.0.0.3"),
        ("127.0.0.3", {"X-Real-Ip": "198.51.100.7"}, "127.0.0.3"),
        ("127.0.0.2", {"X-Forwarded-For": "not-an-address"}, "127.0.0.2"),
    ],
    ids=[
        "forwarded",
        "two-proxies",
        "real-ip",
        "no-header",
        "untrusted",
        "untrusted-real-ip",
        "junk",
    ],
)
def test_a_forwarded_address_is_believed_only_from_a_trusted_proxy(
    behind_proxy, source, headers, visitor
):
    assert visitor_seen(behind_proxy, source, headers) == visitor
