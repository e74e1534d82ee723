"""Serving the Voilà app to a class from one machine: warm kernels, a line, a capacity gate.

Voilà starts one kernel per page load. Started on demand, a kernel costs about a second of
CPU (Python, ipykernel, the app's imports); when a whole class arrives at once, dozens of
kernels start together and share two cores with the pages being served, and everybody waits.

:class:`ClassroomKernelManager` (named in ``voila.json``) changes four things:

- **Warm kernels.** It keeps ``warm_kernels`` kernels started, with ``warm_code`` (the app's
  imports) already run, and hands one to each new visitor at once. Kernels are started in the
  background, ``max_starting`` at a time and at CPU niceness ``warm_nice``, so that starting
  them gives way to the visitors being served; while visitors wait, it starts one for each.
- **A line.** At most ``max_loading`` pages are set up at once (the notebook run, then the
  browser loading the page and connecting to its kernel); the next pages wait in line, first
  come first served, and the ``ttr`` template shows each its place (:func:`wait_turn`).
- **A capacity gate.** A visitor who gets no kernel within ``wait_s`` seconds (or who arrives
  when ``max_kernels`` are running, or the machine has less than ``min_available_mb`` of memory
  left) gets HTTP 503, which the ``ttr`` template shows as "busy, retrying"; the page tries
  again by itself.
- **No kernel for a page that never connects.** A visitor's kernel whose page has not opened
  its websocket ``connect_timeout_s`` after the page was sent (a bare request, a script, a
  client that gave up) is shut down, and its place in the line freed. The clock starts when
  the page has been sent, so a slow browser that connects late still gets its game.
- **A limit per client address**: at most ``max_starts_per_minute`` kernels a minute for one
  address (a class behind one school NAT shares one); past it, "busy, retrying". The address
  comes from Voilà's ``prelaunch_hook``, which this manager installs (:func:`note_client`);
  the hook also tells the visitor's kernel (a first cell in the notebook it runs), for the
  table store's limits per address.
- **The table service.** Shared tables are refereed by a process of their own
  (:class:`ttr_nb.table_service.ServiceProcess`), which alone holds the tables' database,
  seeds and deals. This manager starts it (or finds it running, started by the teacher's
  server), starts it again if it dies, and gives each visitor's kernel a page pass signed
  with the service's key (:func:`note_client`). The kernels get the service's address
  (``$TTR_TABLE_SERVICE_URL``) and the request timeout, never the database's URL.
- **No culling of warm kernels**: they are idle by design. Visitors' kernels are culled as
  the ``MappingKernelManager.cull_*`` settings say.

A warm kernel does not carry the page request's environment (``QUERY_STRING``,
``SERVER_NAME`` ...); the app does not read it.

Examples
--------
In ``voila.json``:

.. code-block:: json

    {"VoilaConfiguration": {
        "multi_kernel_manager_class": "ttr_nb.serving.ClassroomKernelManager"},
     "ClassroomKernelManager": {"warm_kernels": 30, "warm_code": "import ttr_nb.widgets"}}
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import os
import secrets
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from typing import Any

import psutil
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Bool, Float, Integer, Unicode

SERVICE_CHECK_S = 3.0  # how often the server checks that the table service answers


class Busy(web.HTTPError):
    """The server cannot give this visitor a kernel now (HTTP 503, "busy, retrying")."""

    def __init__(self, why: str) -> None:
        super().__init__(503, why, reason="Busy, retrying")


class ClassroomKernelManager(AsyncMappingKernelManager):
    """Kernel manager with a pool of warm kernels and a capacity gate (see the module)."""

    warm_kernels = Integer(
        4, config=True, help="Kernels kept started and warm for the next visitors."
    )
    warm_code = Unicode(
        "", config=True, help="Code run in each warm kernel before a visitor gets it (imports)."
    )
    warm_kernel_name = Unicode("python3", config=True, help="Kernel spec of the warm kernels.")
    max_starting = Integer(
        1, config=True, help="Kernels started at the same time (each takes a core for ~1 s)."
    )
    max_kernels = Integer(
        0, config=True, help="Running kernels (warm ones included) at most; 0: no limit."
    )
    min_available_mb = Integer(
        400, config=True, help="No new kernel when the machine has less memory available."
    )
    wait_s = Float(
        3.0, config=True, help="How long a visitor waits for a kernel before '503 busy'."
    )
    max_loading = Integer(
        4,
        config=True,
        help="Pages in their loading phase at once (notebook run, scripts, first drawing); "
        "later visitors wait in line, first come first served, and their page says so. "
        "0: no line.",
    )
    loading_hold_s = Float(
        15.0,
        config=True,
        help="A loading page gives its place up after this long at most (a visitor who left "
        "while in line is only noticed then).",
    )
    unconnected_hold_s = Float(
        4.0,
        config=True,
        help="Once its page is sent, a page that has not connected to its kernel keeps its "
        "place this long at most: a bare request gives it up soon (a slow browser still "
        "connects later and plays).",
    )
    loading_settle_s = Float(
        0.5,
        config=True,
        help="Once a page has connected to its kernel, it keeps its place this much longer "
        "(the widgets and the board are being drawn).",
    )
    warm_nice = Integer(
        10,
        config=True,
        help="CPU niceness of kernels started for the pool, so that starting them gives way "
        "to the visitors being served (a visitor's kernel gets 0 back where allowed).",
    )
    connect_timeout_s = Float(
        30.0,
        config=True,
        help="A visitor's kernel whose page has not opened its websocket this long after the "
        "page was sent is shut down, and its place in the line freed. 0: never.",
    )
    max_starts_per_minute = Integer(
        0,
        config=True,
        help="Kernels one client address may get in a minute; past it, 'busy, retrying'. A "
        "class behind one school NAT shares one address. 0: no limit.",
    )

    table_service = Bool(
        True,
        config=True,
        help="Start the table service for shared tables (or use the one running for the same "
        "tables); False: this server's pages offer no shared tables.",
    )
    tables_url = Unicode(
        "",
        config=True,
        help="Where the shared tables live (an SQLAlchemy URL); empty: $TTR_TABLES_URL, else "
        "one SQLite file in the server's Jupyter data folder. Every kernel gets it.",
    )
    tables_retention_days = Float(
        30.0,
        config=True,
        help="Tables idle this many days (finished, closed or abandoned) are deleted with "
        "their moves. Every kernel gets it ($TTR_TABLES_RETENTION_DAYS).",
    )
    tables_max_mb = Float(
        500.0,
        config=True,
        help="The most data (megabytes) the table store may hold; past it the oldest finished "
        "tables go, then no new table opens. Every kernel gets it ($TTR_TABLES_MAX_MB).",
    )
    tables_timeout_s = Float(
        4.0,
        config=True,
        help="A page waits this long at most for the table store; then it says the store "
        "cannot be reached and retries. Every kernel gets it ($TTR_TABLES_TIMEOUT_S).",
    )

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._start_table_service()
        self._warm: deque[str] = deque()  # ready kernel ids, oldest first
        self._starting = 0
        self._starts: set[asyncio.Future[None]] = set()
        self._waiting = 0
        self._available = asyncio.Condition()
        self._stopping = False
        self._warm_path = self._notebook_dir()
        self._line: deque[asyncio.Future[None]] = deque()  # pages waiting to load, in order
        self._holding: dict[str, asyncio.TimerHandle] = {}  # loading pages' kernels
        self._places_taken = 0
        self._unconnected: dict[str, asyncio.TimerHandle | None] = {}  # visitors' kernels
        self._dropping: set[asyncio.Future[None]] = set()
        self._starts_by_client: dict[str, deque[float]] = {}
        self.dropped_unconnected = 0  # kernels shut down because their page never connected
        self._install_client_hook()
        global _current
        _current = self
        # The server's loop is not running yet: fill the pool as soon as it is.
        asyncio.get_event_loop().call_soon(self._refill)
        self._service_watch = asyncio.get_event_loop().create_task(self._watch_table_service())
        if self.warm_kernels > 0:
            self.log.info("Keeping %d warm kernels ready for visitors", self.warm_kernels)

    def _start_table_service(self) -> None:
        """Start the table service (or use the one running for the same tables), and give
        the kernels its address, never the database's: kernels inherit this server's
        environment, so the database's URL leaves it (the service gets it alone)."""
        from .table_service import ServiceProcess
        from .tables.bounded import DEADLINE_ENV
        from .tables.remote import SERVICE_URL_ENV
        from .tables.retention import MAX_MB_ENV, RETENTION_ENV
        from .tables.store import URL_ENV, default_url

        self.tables_service: ServiceProcess | None = None
        if self.tables_url:
            os.environ[URL_ENV] = self.tables_url
        url = default_url() if self.table_service else ""
        os.environ.pop(URL_ENV, None)
        if not self.table_service:
            return
        self.tables_service = ServiceProcess(
            url,
            timeout_s=self.tables_timeout_s,
            env={
                RETENTION_ENV: f"{self.tables_retention_days:g}",
                MAX_MB_ENV: f"{self.tables_max_mb:g}",
            },
        )
        self.tables_service.ensure(
            wait=False
        )  # its address is good at once; it answers in a second
        os.environ[SERVICE_URL_ENV] = self.tables_service.url
        os.environ[DEADLINE_ENV] = f"{self.tables_timeout_s:g}"
        shown = url.split("@", 1)[-1] if "@" in url else url
        self.log.info(
            "Shared tables: the table service at %s keeps them in %s",
            self.tables_service.url,
            shown,
        )

    async def _watch_table_service(self) -> None:
        """Start the table service again when it is gone (checked every few seconds, off
        the server's own thread)."""
        loop = asyncio.get_running_loop()
        while not self._stopping and self.tables_service is not None:
            await asyncio.sleep(SERVICE_CHECK_S)
            try:
                await loop.run_in_executor(None, self.tables_service.check)
            except Exception:  # noqa: BLE001 - the next check tries again
                self.log.exception("Could not start the table service again")

    # ------------------------------------------------------------------ visitors
    async def start_kernel(self, *, kernel_id: str | None = None, **kwargs: Any) -> str:
        """A warm kernel if one is ready or becomes ready within ``wait_s``; else 503."""
        name = kwargs.get("kernel_name") or self.warm_kernel_name
        if kernel_id is not None:  # a known kernel started again, not a new visitor
            self._check_capacity()
            return await super().start_kernel(kernel_id=kernel_id, **kwargs)
        client = _client.get()
        self._count_start(client)
        try:
            if name != self.warm_kernel_name or self.warm_kernels <= 0:
                self._check_capacity()
                kernel_id = await super().start_kernel(**kwargs)
            else:
                kernel_id = await self._hand_out_warm()
        except BaseException:
            self._uncount_start(client)
            raise
        self._unconnected[kernel_id] = None  # its deadline starts once its page is sent
        return kernel_id

    async def _hand_out_warm(self) -> str:
        self._waiting += 1
        try:
            self._refill()
            deadline = time.monotonic() + self.wait_s
            async with self._available:
                while True:
                    ready = self._take_warm()
                    if ready is not None:
                        break
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise Busy(f"no kernel within {self.wait_s:g} s ({self._status()})")
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(self._available.wait(), left)
        finally:
            self._waiting -= 1
        self._refill()
        kernel = self.get_kernel(ready)
        kernel.last_activity = _utcnow()  # idle time counts from the visit, not the warm-up
        self._restore_priority(kernel)
        self.log.info("Warm kernel %s for a visitor (%s)", ready, self._status())
        return ready

    def _count_start(self, client: str | None) -> None:
        """Count a kernel start for ``client``; "busy" past ``max_starts_per_minute``."""
        if not client or self.max_starts_per_minute <= 0:
            return
        now = time.monotonic()
        if len(self._starts_by_client) > 1000:  # forget the addresses seen long ago
            for known in list(self._starts_by_client):
                self._recent_starts(known, now)
        starts = self._recent_starts(client, now)
        if len(starts) >= self.max_starts_per_minute:
            raise Busy(
                f"{len(starts)} games started from one address in the last minute, "
                f"the limit is {self.max_starts_per_minute}"
            )
        self._starts_by_client.setdefault(client, deque()).append(now)

    def _recent_starts(self, client: str, now: float) -> deque[float]:
        starts = self._starts_by_client.get(client, deque())
        while starts and now - starts[0] > 60:
            starts.popleft()
        if not starts:
            self._starts_by_client.pop(client, None)
        return starts

    def _uncount_start(self, client: str | None) -> None:
        """The start counted for ``client`` gave no kernel ("busy"): it does not count."""
        starts = self._starts_by_client.get(client or "")
        if starts:
            starts.pop()

    def _install_client_hook(self) -> None:
        """Voilà tells the kernel manager nothing about the request; its ``prelaunch_hook``
        sees it just before the kernel is started, in the same task: note the address there."""
        configuration = getattr(self.parent, "voila_configuration", None)
        if configuration is None or getattr(configuration, "preheat_kernel", False):
            return
        configuration.prelaunch_hook = _chain(note_client, configuration.prelaunch_hook)

    def _take_warm(self) -> str | None:
        while self._warm:
            kernel_id = self._warm.popleft()
            if kernel_id in self and self.get_kernel(kernel_id).has_kernel:
                return kernel_id
        return None

    def _check_capacity(self) -> None:
        if self.max_kernels and len(self) >= self.max_kernels:
            raise Busy(f"{len(self)} kernels running, the limit is {self.max_kernels}")
        if _available_mb() < self.min_available_mb:
            raise Busy(f"less than {self.min_available_mb} MB of memory available")

    def _status(self) -> str:
        return (
            f"{len(self._warm)} warm, {self._starting} starting, {self._waiting} waiting, "
            f"{len(self)} kernels, {self._places_taken} pages loading, {len(self._line)} in line, "
            f"{len(self._unconnected)} pages not connected yet"
        )

    # -------------------------------------------------------------- the pool
    def _refill(self) -> None:
        """Start kernels until ready + starting covers the pool and every waiting visitor."""
        target = self.warm_kernels + self._waiting if self.warm_kernels > 0 else 0
        while (
            not self._stopping
            and len(self._warm) + self._starting < target
            and self._starting < self.max_starting
            and (not self.max_kernels or len(self) + self._starting < self.max_kernels)
            and _available_mb() >= self.min_available_mb
        ):
            self._starting += 1
            start = asyncio.ensure_future(self._start_warm())
            self._starts.add(start)
            start.add_done_callback(self._starts.discard)

    async def _start_warm(self) -> None:
        kernel_id = None
        try:
            kernel_id = await super().start_kernel(
                kernel_name=self.warm_kernel_name,
                path=self._warm_path,
                env=dict(os.environ),
                preexec_fn=self._lower_priority,  # passed on to subprocess.Popen
            )
            if self.warm_code:
                await self._run(kernel_id, self.warm_code)
        except Exception:
            self.log.exception("Could not start a warm kernel")
            if kernel_id is not None and kernel_id in self:
                with contextlib.suppress(Exception):
                    await super().shutdown_kernel(kernel_id, now=True)
            kernel_id = None
            await asyncio.sleep(5)  # do not spin when kernels cannot start
        finally:
            self._starting -= 1
        if kernel_id is not None and self._stopping:  # the server stopped meanwhile
            await super().shutdown_kernel(kernel_id, now=True)
        elif kernel_id is not None:
            self._warm.append(kernel_id)
            async with self._available:
                self._available.notify_all()
            if len(self._warm) == self.warm_kernels:
                self.log.info("%d warm kernels ready", self.warm_kernels)
        self._refill()

    async def _run(self, kernel_id: str, code: str) -> None:
        client = self.get_kernel(kernel_id).client()
        client.start_channels()
        try:
            await client.wait_for_ready(timeout=120)
            reply = await client.execute(
                code, silent=True, store_history=False, reply=True, timeout=120
            )
            if reply["content"]["status"] != "ok":
                self.log.error(
                    "warm_code failed in kernel %s: %s", kernel_id, reply["content"].get("ename")
                )
        finally:
            client.stop_channels()

    def _lower_priority(self) -> None:
        """Runs in the new kernel process before it starts Python."""
        if self.warm_nice:
            os.nice(self.warm_nice)

    def _restore_priority(self, kernel: Any) -> None:
        """Niceness is per thread on Linux: every thread of the kernel (the ones moving its
        messages too, started at ``warm_nice``) gets 0 back, or a visitor's page waits
        behind whatever else runs on the machine."""
        pid = getattr(getattr(kernel, "provisioner", None), "pid", None)
        if pid is None or not self.warm_nice:
            return
        with contextlib.suppress(psutil.Error, OSError):  # lowering it needs privileges
            for thread in psutil.Process(pid).threads():
                os.setpriority(os.PRIO_PROCESS, thread.id, 0)

    def _notebook_dir(self) -> str:
        """API path of the served notebook's folder (Voilà starts its kernels there)."""
        parent = self.parent
        notebook = getattr(parent, "notebook_path", None)
        root = getattr(parent, "root_dir", None) or os.getcwd()
        if not notebook:
            return ""
        return os.path.dirname(os.path.relpath(notebook, root))

    # ------------------------------------------------------------ the line
    async def wait_turn(self, kernel_id: str) -> AsyncIterator[int]:
        """Wait for a place among the ``max_loading`` pages loading at once; while waiting,
        yield this visitor's place in line each time it changes (1: next)."""
        if self.max_loading > 0:
            if self._places_taken < self.max_loading and not self._line:
                self._places_taken += 1
            else:
                turn = asyncio.get_running_loop().create_future()
                self._line.append(turn)
                place = None
                try:
                    while not turn.done():
                        now = self._line.index(turn) + 1 if turn in self._line else 1
                        if now != place:
                            place = now
                            yield place
                        with contextlib.suppress(asyncio.TimeoutError):
                            await asyncio.wait_for(asyncio.shield(turn), 1.0)
                finally:
                    if not turn.done():  # the visitor left the line
                        turn.cancel()
                        with contextlib.suppress(ValueError):
                            self._line.remove(turn)
            # The place is this page's until its kernel is connected (and settled) or the
            # hold runs out.
            self._holding[kernel_id] = asyncio.get_running_loop().call_later(
                self.loading_hold_s, self._leave, kernel_id
            )
            self.log.info("Page loading for kernel %s (%s)", kernel_id, self._status())

    def _leave(self, kernel_id: str) -> None:
        """The page of ``kernel_id`` has loaded (or gave up): let the next one in."""
        handle = self._holding.pop(kernel_id, None)
        if handle is None:
            return
        handle.cancel()
        self._places_taken -= 1
        while self._line and self._places_taken < self.max_loading:
            turn = self._line.popleft()
            if not turn.done():
                self._places_taken += 1
                turn.set_result(None)

    # ------------------------------------------------ pages that never connect
    def page_sent(self, kernel_id: str) -> None:
        """The page of ``kernel_id`` has been sent: it keeps its place in the line at most
        ``unconnected_hold_s`` more, and its kernel ``connect_timeout_s``, unless it connects."""
        hold = self._holding.get(kernel_id)
        if hold is not None and kernel_id in self._unconnected:
            loop = asyncio.get_running_loop()
            hold.cancel()
            self._holding[kernel_id] = loop.call_at(
                min(hold.when(), loop.time() + self.unconnected_hold_s), self._leave, kernel_id
            )
        if kernel_id in self._unconnected and self.connect_timeout_s > 0:
            old = self._unconnected[kernel_id]
            if old is not None:
                old.cancel()
            self._unconnected[kernel_id] = asyncio.get_running_loop().call_later(
                self.connect_timeout_s, self._drop_unconnected, kernel_id
            )

    def _drop_unconnected(self, kernel_id: str) -> None:
        if kernel_id not in self._unconnected or kernel_id not in self:
            return
        self.dropped_unconnected += 1
        self.log.info(
            "Kernel %s: its page did not connect within %g s of being sent; shutting it down "
            "(%d such so far)",
            kernel_id,
            self.connect_timeout_s,
            self.dropped_unconnected,
        )
        drop = asyncio.ensure_future(self.shutdown_kernel(kernel_id, now=True))
        self._dropping.add(drop)
        drop.add_done_callback(self._dropping.discard)

    def _forget_unconnected(self, kernel_id: str) -> None:
        handle = self._unconnected.pop(kernel_id, None)
        if handle is not None:
            handle.cancel()

    def notify_connect(self, kernel_id: str) -> None:
        super().notify_connect(kernel_id)
        self._forget_unconnected(kernel_id)
        handle = self._holding.get(kernel_id)
        if handle is not None:
            handle.cancel()
            self._holding[kernel_id] = asyncio.get_running_loop().call_later(
                self.loading_settle_s, self._leave, kernel_id
            )

    # ------------------------------------------------------- culling, shutdown
    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        """Never cull a warm kernel, nor one still starting (it has no activity time yet:
        jupyter_server's culler would log a TraitError for it)."""
        if kernel_id in self._warm:
            return
        kernel = self._kernels.get(kernel_id)
        if kernel is None or not kernel.trait_has_value("last_activity"):
            return
        await super().cull_kernel_if_idle(kernel_id)

    async def shutdown_kernel(self, kernel_id: str, *args: Any, **kwargs: Any) -> None:
        with contextlib.suppress(ValueError):
            self._warm.remove(kernel_id)
        self._leave(kernel_id)
        self._forget_unconnected(kernel_id)
        await super().shutdown_kernel(kernel_id, *args, **kwargs)
        self._refill()

    async def shutdown_all(self, *args: Any, **kwargs: Any) -> None:
        self._stopping = True
        if self.tables_service is not None:
            self.tables_service.stop()
        self._warm.clear()
        for kernel_id in list(self._unconnected):
            self._forget_unconnected(kernel_id)
        if self._starts:  # kernels being started end up shut down too
            await asyncio.wait(set(self._starts), timeout=30)
        await super().shutdown_all(*args, **kwargs)


_current: ClassroomKernelManager | None = None  # the server's kernel manager, for the template


def wait_turn(kernel_id: str) -> AsyncIterator[str]:
    """Jinja filter for the ``ttr`` template (registered in ``voila.json``): the page waits
    for its turn to load and shows its place in line; yields script snippets."""
    return _line_updates(kernel_id)


def page_sent(kernel_id: str) -> str:
    """Jinja filter for the ``ttr`` template, at the end of the page: from now on the page
    has ``connect_timeout_s`` to open its websocket. Renders nothing."""
    if _current is not None:
        _current.page_sent(kernel_id)
    return ""


# The address of the request being served, noted by Voilà's prelaunch hook in the request's
# task, just before that task asks the kernel manager for a kernel.
_client: contextvars.ContextVar[str | None] = contextvars.ContextVar("ttr_client", default=None)


def note_client(handler: Any, notebook: Any = None, cwd: Any = None) -> Any:
    """Voilà ``prelaunch_hook``: remember the client's address for the kernel manager, and
    tell the visitor's kernel who it serves: the notebook run for this visitor gets a first
    cell that records the address and a page pass signed for the table service
    (:mod:`ttr_nb.tables.visitor`; the service's limits count per address, and a teacher's
    server signs teacher passes). The page cannot forge either: the server writes and runs
    that cell, and a page runs no code. Returns the notebook to run (a copy; the served
    file is unchanged)."""
    from .proxies import client_address  # the peer's, or a trusted proxy's visitor

    address = client_address(handler)
    _client.set(address)
    if notebook is None or not address:
        return None
    from nbformat import NotebookNode
    from nbformat.v4 import new_code_cell

    from .tables.visitor import first_cell_source
    from .teacher_server import SERVER_ENV

    granted = None
    service = getattr(_current, "tables_service", None)
    if service is not None:
        teacher = bool(os.environ.get(SERVER_ENV))  # the teacher's server, behind its login
        granted = service.mint(secrets.token_hex(12), address, teacher=teacher)
    source = first_cell_source(address, granted)
    if source is None:
        return None
    cell = new_code_cell(source, metadata={"tags": ["ttr-visitor"]})
    cell.pop("id", None)  # an nbformat 4.4 notebook has no cell ids
    if notebook.get("nbformat_minor", 5) >= 5:
        cell["id"] = "ttr-visitor"
    copy = NotebookNode(notebook)
    copy["cells"] = [cell, *notebook.get("cells", [])]
    return copy


def _chain(first: Callable[..., Any], then: Callable[..., Any] | None) -> Callable[..., Any]:
    if then is None or then is first:
        return first

    def hook(handler: Any, notebook: Any = None, cwd: Any = None) -> Any:
        notebook = first(handler, notebook=notebook, cwd=cwd) or notebook
        return then(handler, notebook=notebook, cwd=cwd) or notebook

    return hook


async def _line_updates(kernel_id: str) -> AsyncIterator[str]:
    if _current is None:  # another kernel manager (e.g. Voilà inside Jupyter Server)
        return
    async for place in _current.wait_turn(kernel_id):
        yield f"<script>window.ttrInLine && window.ttrInLine({int(place)})</script>\n"


def _available_mb() -> float:
    return psutil.virtual_memory().available / 2**20


def _utcnow() -> Any:
    from jupyter_server._tz import utcnow

    return utcnow()
