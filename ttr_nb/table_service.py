"""The table service as a server: HTTP on the class's machine, or a JupyterHub service.

:class:`~ttr_nb.tables.service.TableService` holds the shared tables' store, seeds and
referee; this module puts it behind HTTP (Tornado, as Jupyter's own servers are) and says
who is asking:

* **On one machine** (``make app``): the Voilà server starts this service as a process of
  its own on 127.0.0.1 (:class:`ServiceProcess`), with a random key only the two of them
  know. For each visitor, the Voilà server signs a page pass with that key
  (:mod:`ttr_nb.tables.wire`); the page's kernel shows it with every request
  (``Authorization: ttr-page <pass>``). The teacher's server signs teacher passes the same
  way, behind its login.
* **Behind JupyterHub** (``--hub``): the hub starts the service (``c.JupyterHub.services``
  with a command) and gives it the address to listen on. A user's kernel shows the hub
  token of its own server (``Authorization: token ...``), which the hub lets reach this
  service (the ``access:services!service=...`` scope); the service asks the hub whose token
  it is, and whether that user is in the teachers group (``$TTR_TEACHER_GROUP``, default
  ``teachers``). The service alone is given the database's URL.

Each request runs on a worker thread, and waits ``--timeout`` seconds at most: a database
that does not answer makes the page say so ("your moves are safe; retrying"), never hang.
Refusals go back as a typed sentence; anything unexpected goes to this server's log, and the
page gets a sentence without a traceback.

Run it by hand as ``python -m ttr_nb.table_service --port 8870 --store sqlite:///tables.sqlite``
(the key in ``$TTR_TABLE_SERVICE_KEY``, 64 hex digits).
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import hashlib
import json
import logging
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from tornado import web

from .errors import IllegalActionError, StoreUnavailableError, TableError
from .tables.faults import UNAVAILABLE
from .tables.limits import address_bucket
from .tables.service import Caller, TableService
from .tables.wire import MAX_BODY, error_data, mint_pass, read_pass

log = logging.getLogger("ttr_nb.table_service")

KEY_ENV = "TTR_TABLE_SERVICE_KEY"
TEACHER_GROUP_ENV = "TTR_TEACHER_GROUP"
SERVICE_NAME = "ttr-tables"  # the hub service's name (its scope: access:services!service=...)
THREADS = 8  # requests served at once; a stuck database holds at most these
GROUPS_KEPT_S = 30.0  # how long a user's hub groups are believed


# ---------------------------------------------------------------------- who asks
class PassAuth:
    """One machine: a page pass signed by the Voilà server (see the module)."""

    def __init__(self, key: bytes) -> None:
        self.key = key

    async def caller(self, handler: web.RequestHandler) -> Caller | None:
        """The caller a request's pass names, or None."""
        header = handler.request.headers.get("Authorization", "")
        if not header.startswith("ttr-page "):
            return None
        granted = read_pass(self.key, header[len("ttr-page ") :].strip())
        if granted is None:
            return None
        return Caller(granted.page, address_bucket(granted.address), teacher=granted.teacher)


class HubTokenAuth:
    """Behind JupyterHub: the hub says whose token a request carries (see the module)."""

    def __init__(self, teacher_group: str = "teachers") -> None:
        from jupyterhub.services.auth import HubAuth

        self.hub = HubAuth(cache_max_age=60)
        if not self.hub.access_scopes:
            self.hub.access_scopes = {f"access:services!service={SERVICE_NAME}"}
        self.teacher_group = teacher_group
        self._groups: dict[str, tuple[float, list[str]]] = {}

    async def caller(self, handler: web.RequestHandler) -> Caller | None:
        """The hub user a request's token belongs to, or None."""
        token = self.hub.get_token(handler, in_cookie=False)
        if not token:
            return None
        model = await self.hub.user_for_token(token, sync=False)
        if not model or model.get("kind", "user") != "user":
            return None
        if not self.hub.check_scopes(self.hub.access_scopes, model):
            return None
        name = str(model["name"])
        page = handler.request.headers.get("X-TTR-Page", "")[:40] or "page"
        groups = await self._user_groups(name)
        return Caller(
            f"{name}:{page}"[:64],
            f"hub:{name}"[:64],
            teacher=self.teacher_group in groups,
            user=name,
        )

    async def _user_groups(self, name: str) -> list[str]:
        kept = self._groups.get(name)
        now = time.monotonic()
        if kept is not None and now - kept[0] < GROUPS_KEPT_S:
            return kept[1]
        url = f"{self.hub.api_url}/users/{name}"
        request = urllib.request.Request(
            url, headers={"Authorization": f"token {self.hub.api_token}"}
        )

        def ask() -> list[str]:
            with urllib.request.urlopen(request, timeout=5) as answer:
                return list(json.loads(answer.read()).get("groups") or [])

        try:
            groups = await asyncio.get_running_loop().run_in_executor(None, ask)
        except (OSError, ValueError, urllib.error.URLError):
            log.exception("could not read the hub groups of %s", name)
            groups = []
        self._groups[name] = (now, groups)
        return groups


# ---------------------------------------------------------------------- HTTP
class ApiHandler(web.RequestHandler):
    """``POST /api/<operation>``: one request of a page (see :class:`TableService`)."""

    def initialize(self, server: ServiceServer) -> None:
        """Tornado passes every handler the running service."""
        self.server = server

    def check_xsrf_cookie(self) -> None:  # requests carry a pass or a token, not a cookie
        return

    def _answer(self, status: int, data: dict[str, Any]) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-store")
        self.finish(json.dumps(data, separators=(",", ":"), ensure_ascii=False))

    async def post(self, op: str) -> None:
        """Identify the caller, run the request on a worker thread, answer in JSON."""
        caller = await self.server.auth.caller(self)
        if caller is None:
            self._answer(
                403,
                {
                    "error": {
                        "type": "SeatTokenError",
                        "message": "the table service does not know this page: reload it",
                    }
                },
            )
            return
        if len(self.request.body) > MAX_BODY:
            self._answer(413, {"error": {"type": "TableError", "message": "request too long"}})
            return
        try:
            args = json.loads(self.request.body or b"{}")
        except ValueError:
            args = None
        if not isinstance(args, dict):
            self._answer(400, {"error": {"type": "TableError", "message": "unreadable request"}})
            return
        stuck = self.server.stuck
        if stuck and not all(f.done() for f in stuck):
            # A request is still waiting on the database: say so at once, do not queue.
            self._answer(503, {"error": error_data(StoreUnavailableError(UNAVAILABLE))})
            return
        stuck.clear()
        loop = asyncio.get_running_loop()
        work = loop.run_in_executor(self.server.threads, self.server.service.call, caller, op, args)
        try:
            result = await asyncio.wait_for(asyncio.shield(work), self.server.timeout_s)
        except TimeoutError:
            log.warning("%s of %s took over %g s", op, caller.page[:12], self.server.timeout_s)
            stuck.add(work)
            self._answer(503, {"error": error_data(StoreUnavailableError(UNAVAILABLE))})
            return
        except (TableError, IllegalActionError) as exc:
            self._answer(409, {"error": error_data(exc)})
            return
        except Exception:
            log.exception("request %s failed", op)
            self._answer(
                500,
                {
                    "error": {
                        "type": "TableError",
                        "message": "the table service failed on this request (its log says "
                        "why): try again",
                    }
                },
            )
            return
        self._answer(200, {"ok": result})


class PingHandler(web.RequestHandler):
    """``GET /api/ping``: the service is up (no secret in the answer)."""

    def get(self) -> None:
        """Answer that the service runs."""
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"ok": "ttr-nb table service"}))


class ServiceServer:
    """The service's HTTP application over a :class:`TableService`."""

    def __init__(self, service: TableService, auth: Any, timeout_s: float, prefix: str = "/"):
        self.service = service
        self.auth = auth
        self.timeout_s = timeout_s
        self.threads = concurrent.futures.ThreadPoolExecutor(THREADS, "ttr-tables")
        self.stuck: set[asyncio.Future[Any]] = set()  # requests past the deadline, still waiting
        prefix = "/" + prefix.strip("/") + "/" if prefix.strip("/") else "/"
        self.app = web.Application(
            [
                (rf"{prefix}api/ping", PingHandler),
                (rf"{prefix}api/(\w+)", ApiHandler, {"server": self}),
            ],
            xsrf_cookies=False,
        )


def _serve(args: argparse.Namespace) -> int:
    from .tables.store import TableStore

    logging.basicConfig(
        level=logging.INFO, format="[ttr-tables %(asctime)s %(levelname)s] %(message)s"
    )
    logging.getLogger("tornado.access").setLevel(logging.WARNING)  # pages poll all the time
    store = TableStore(args.store or None, timeout_s=min(3.0, args.timeout))
    service = TableService(store, bots="pool", bot_workers=args.bot_workers or None)
    prefix = "/"
    if args.hub:
        import urllib.parse

        auth: Any = HubTokenAuth(os.environ.get(TEACHER_GROUP_ENV, "teachers"))
        listen = urllib.parse.urlsplit(os.environ["JUPYTERHUB_SERVICE_URL"])
        host, port = listen.hostname or "127.0.0.1", listen.port or 80
        prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/")
    else:
        key = bytes.fromhex(os.environ.pop(KEY_ENV, ""))
        if len(key) < 32:
            print(f"the table service needs ${KEY_ENV}: 64 hex digits", file=sys.stderr)
            return 2
        auth = PassAuth(key)
        host, port = args.host, args.port
    server = ServiceServer(service, auth, args.timeout, prefix)

    async def run() -> None:
        server.app.listen(port, host, xheaders=False)
        where = store.url.split("@", 1)[-1]
        log.info("table service on http://%s:%s%s, tables in %s", host, port, prefix, where)
        kicked = await asyncio.get_running_loop().run_in_executor(None, service.start_bots)
        log.info("bots looked at %d playing tables", kicked)
        stop = asyncio.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            asyncio.get_running_loop().add_signal_handler(sig, stop.set)
        while not stop.is_set():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), 1.0)
            if args.parent and os.getppid() != args.parent:
                log.info("the server that started the table service is gone: stopping")
                stop.set()

    try:
        asyncio.run(run())
    finally:
        service.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the table service (blocks until stopped)."""
    parser = argparse.ArgumentParser(prog="python -m ttr_nb.table_service", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8870)
    parser.add_argument("--store", default="", help="SQLAlchemy URL (default: $TTR_TABLES_URL)")
    parser.add_argument("--hub", action="store_true", help="run as a JupyterHub service")
    parser.add_argument("--timeout", type=float, default=4.0, help="seconds per request at most")
    parser.add_argument("--bot-workers", type=int, default=0, help="bot moves at once")
    parser.add_argument("--parent", type=int, default=0, help="stop when this process ends")
    return _serve(parser.parse_args(argv))


# ---------------------------------------------------------------------- on one machine
def _free_port(host: str) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def runtime_file(store_url: str) -> Path:
    """Where the service of ``store_url`` is recorded (address and key, readable by this
    user only), so that the app's server and the teacher's share one service."""
    from jupyter_core.paths import jupyter_runtime_dir

    name = hashlib.sha256(store_url.encode()).hexdigest()[:16]
    return Path(jupyter_runtime_dir()) / f"ttr-nb-tables-{name}.json"


class ServiceProcess:
    """The table service of one machine, started and watched by a Voilà server.

    The first server to need it (the app's or the teacher's) starts it on a free port of
    127.0.0.1 with a new key and records both in :func:`runtime_file`; a server that finds
    it running uses it. The service keeps its address and key when it is started again
    (after a crash), so the pages' passes and addresses stay good. It ends with the server
    that started it; :meth:`check` (every few seconds) starts it again when it is gone.

    Parameters
    ----------
    store_url : str
        The tables' database (only this process and the service itself know it).
    timeout_s : float
        A request's longest wait.
    env : dict, optional
        Settings for the service's environment (retention, size bound).
    """

    def __init__(
        self, store_url: str, timeout_s: float = 4.0, env: dict[str, str] | None = None
    ) -> None:
        self.store_url = store_url
        self.timeout_s = timeout_s
        self.env = dict(env or {})
        self.host = "127.0.0.1"
        self.port = 0
        self.key = b""
        self.proc: subprocess.Popen | None = None
        self.restarts = 0
        self._launched = 0.0

    @property
    def url(self) -> str:
        """The service's address."""
        return f"http://{self.host}:{self.port}/"

    def mint(self, page: str, address: str, teacher: bool = False) -> str:
        """A page pass for a visitor (see :mod:`ttr_nb.tables.wire`)."""
        return mint_pass(self.key, page, address, teacher)

    def ensure(self, wait: bool = True) -> None:
        """Use the recorded service if it answers, else start it (on its recorded port and
        key, or new ones); ``wait``: until it answers (else it is only launched, and its
        address and key are good at once)."""
        record = self._read_record()
        if record is not None:
            self.port, self.key = record
            if self.alive():
                return
        else:
            self.port, self.key = _free_port(self.host), secrets.token_bytes(32)
        self._start(wait)

    def check(self) -> None:
        """Start the service again if it is gone (called every few seconds)."""
        if self.alive():
            return
        if self.proc is not None and self.proc.poll() is None:
            if time.monotonic() - self._launched < 60:
                return  # still starting
            self.proc.kill()  # launched a minute ago and never answered: start it again
        log.warning("the table service is gone: starting it again")
        self.restarts += 1
        self.ensure()

    def alive(self) -> bool:
        """Whether the service answers at its address (and knows our key)."""
        if not self.port:
            return False
        request = urllib.request.Request(
            f"{self.url}api/whoami",
            data=b"{}",
            method="POST",
            headers={"Authorization": f"ttr-page {self.mint('server', '127.0.0.1')}"},
        )
        try:
            with urllib.request.urlopen(request, timeout=2) as answer:
                return answer.status == 200  # it knows our key: it is our service
        except (OSError, urllib.error.URLError):
            return False

    def stop(self) -> None:
        """Stop the service if this server started it."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(10)

    def _start(self, wait: bool = True) -> None:
        env = dict(os.environ, **self.env)
        env[KEY_ENV] = self.key.hex()
        env["TTR_TABLES_URL"] = self.store_url
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "ttr_nb.table_service",
                "--host",
                self.host,
                "--port",
                str(self.port),
                "--timeout",
                f"{self.timeout_s:g}",
                "--parent",
                str(os.getpid()),
            ],
            env=env,
        )
        self._launched = time.monotonic()
        self._write_record()
        if not wait:
            return
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("the table service did not start (see the server's log)")
            if self.alive():
                break
            time.sleep(0.1)
        else:
            raise RuntimeError("the table service did not answer within 60 s")
        log.info("table service started at %s", self.url)

    def _read_record(self) -> tuple[int, bytes] | None:
        try:
            data = json.loads(runtime_file(self.store_url).read_text())
            return int(data["port"]), bytes.fromhex(data["key"])
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def _write_record(self) -> None:
        path = runtime_file(self.store_url)
        path.parent.mkdir(parents=True, exist_ok=True)
        pid = self.proc.pid if self.proc is not None else None
        text = json.dumps({"port": self.port, "key": self.key.hex(), "pid": pid})
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(text)


if __name__ == "__main__":
    sys.exit(main())
