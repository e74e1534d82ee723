"""Load benchmark without browsers: N visitors do over HTTP and websocket what the app's page does.

    python tools/bench_load_ws.py --visitors 30 --spread 30   # part of `make bench-load`
    python tools/bench_load_ws.py --visitors 60 --spread 60
    python tools/bench_load_ws.py --cpus 0 --visitors 15      # the server on one core

Starts its own Voilà server on 127.0.0.1 (``make app``'s command, same ``voila.json``; with
``--cpus`` pinned to those cores by ``taskset``), waits until its warm kernels are ready, and
lets visitor ``i`` arrive at ``spread * i / (N - 1)`` seconds. Each visitor, as the page does
in a browser (recorded from Chromium's websocket frames):

1. fetches the page and the files it names (styles, scripts, the widget extensions' entry
   points; not the ~100 script chunks those load later, ~0.1 s of Voilà's CPU per page in
   all). HTTP 503 is the "busy, retrying" page: it waits 5-15 s, as the page does, and
   tries again;
2. opens its kernel's channels websocket (Jupyter's v1 websocket protocol, messages built by
   jupyter_client's ``Session``) and asks for the kernel's info;
3. asks the widget manager's control comm for every widget's state: **first screen**, the
   time from arrival to everything the page needs to show the app's first screen;
4. says what the page's widgets say once made (the browser's stores: nothing kept; the
   page's address: no link), and waits until the kernel has answered;
5. clicks *Play against bots* on the first screen; the board's layers say they are ready
   (ipycanvas's ``client_ready``, which makes the kernel draw the board): **board**, the time
   from arrival to a drawn board;
6. keeps the tickets it is offered, lets the bots play until its turn and clicks *Draw from
   the deck*: **answer**, the time from that click to the kernel's last message about it.

Every visitor stays connected until all are done (memory is measured then), as pages stay
open in a class. It prints one line per figure: time to the first screen, time to a board,
answer to a click, failures, "busy" answers, the server's CPU per visitor, memory per kernel;
every figure goes to ``--json``. Nothing is rendered: the figures are the server's alone (the
browsers' part, 3-5 s of CPU a page, is in ``tools/bench_load.py``).

Bounded: every visitor gives up after ``--timeout`` s, the whole run after spread + timeout
+ 60 s; the server and its kernels are always stopped. All visitors come from one address
(127.0.0.1), as a class behind one school NAT does.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import resource
import statistics
import sys
import time
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import psutil
from jupyter_client.session import Session
from jupyter_server.services.kernels.connection.base import (
    deserialize_msg_from_ws_v1,
    serialize_msg_to_ws_v1,
)
from tornado.httpclient import AsyncHTTPClient, HTTPRequest
from tornado.websocket import WebSocketClientConnection, websocket_connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_load import (  # noqa: E402
    REPO,
    Sampler,
    Server,
    kernel_ids,
    kernels_of,
    memory_detail,
    quantile,
)

WS_PROTOCOL = "v1.kernel.websocket.jupyter.org"  # what JupyterLab's (and Voilà's) page speaks
CONTROL_TARGET = "jupyter.widget.control"  # ipywidgets 8: every widget's state in one message
CONTROL_VERSION = "1.0.0"  # the control comm's protocol, as the page's widget manager sends it
RETRY_S = (5, 15)  # the busy page reloads itself after 5-15 s, at random (error.html)
STEP_TIMEOUT_S = 60.0  # one answer from the kernel at most this long (a kernel that died)
CONFIG_DATA = re.compile(
    r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', re.S
)
NAMED_FILES = re.compile(r'(?:href|src)="(/[^"]*)"')


# --------------------------------------------------------------------- the page
@dataclass
class Visit:
    index: int
    arrival_s: float
    page_s: float | None = None  # from arrival: the whole page received (the last try)
    widgets_s: float | None = None  # from arrival: every widget's state received
    board_s: float | None = None  # from arrival: the kernel has drawn the board for the page
    answer_s: float | None = None  # from the click on "Draw from the deck" to the last answer
    click_updates: int = 0  # widget updates in that answer
    busy: int = 0  # "busy, retrying" pages received (HTTP 503)
    tries: int = 0
    kernel_id: str = ""
    steps: list[tuple[float, str]] = field(default_factory=list)
    error: str = ""


class KernelSocket:
    """One page's websocket to its kernel: sends requests, follows what the kernel answers
    and mirrors every widget's state (as the page's widget manager does)."""

    def __init__(self, ws: WebSocketClientConnection, session: Session, origin: str = "") -> None:
        self.ws, self.session = ws, session
        self.origin = origin  # the page's origin, as its address tells the kernel
        self.models: dict[str, dict[str, Any]] = {}  # widget id -> state
        self._idle: dict[str, asyncio.Future[float]] = {}  # request id -> when answered
        self._replies: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._answers: dict[str, list[dict[str, Any]]] = {}  # request id -> comm messages
        self.received = 0  # messages received from the kernel
        self.drawings = 0  # of them, drawings (messages with binary buffers)
        self.received_bytes = 0
        self.reader = asyncio.ensure_future(self._read())

    def send(
        self, msg_type: str, content: dict[str, Any], metadata: dict[str, Any] | None = None
    ) -> str:
        msg = self.session.msg(msg_type, content, metadata=metadata)
        self.ws.write_message(
            serialize_msg_to_ws_v1(msg, "shell", pack=self.session.pack), binary=True
        )
        msg_id = msg["header"]["msg_id"]
        loop = asyncio.get_running_loop()
        self._idle[msg_id] = loop.create_future()
        self._replies[msg_id] = loop.create_future()
        self._answers[msg_id] = []
        return msg_id

    async def request(self, msg_type: str, content: dict[str, Any], wait: str = "idle") -> str:
        """Send a request; return once the kernel has replied (``wait="reply"``) or has
        finished everything the request caused (``"idle"``)."""
        msg_id = self.send(msg_type, content)
        done = self._replies[msg_id] if wait == "reply" else self._idle[msg_id]
        await asyncio.wait_for(asyncio.shield(done), STEP_TIMEOUT_S)
        return msg_id

    def answers(self, msg_id: str) -> list[dict[str, Any]]:
        return self._answers.get(msg_id, [])

    def comm_msg(self, comm_id: str, data: dict[str, Any]) -> dict[str, Any]:
        return {"comm_id": comm_id, "data": data}

    def find(self, dom_class: str) -> str | None:
        for model_id, state in self.models.items():
            if dom_class in state.get("_dom_classes", ()):
                return model_id
        return None

    async def _read(self) -> None:
        while True:
            raw = await self.ws.read_message()
            if raw is None:
                return
            if isinstance(raw, str):  # the legacy JSON protocol; not chosen, never sent
                continue
            self.received += 1
            self.received_bytes += len(raw)
            channel, parts = deserialize_msg_from_ws_v1(raw)
            header, parent, _metadata, content = (json.loads(p) for p in parts[:4])
            if header["msg_type"] == "comm_msg" and len(parts) > 4:
                self.drawings += 1  # a canvas's drawing commands come with buffers
            self._dispatch(channel, header["msg_type"], parent.get("msg_id", ""), content)

    def _dispatch(self, channel: str, kind: str, parent: str, content: dict[str, Any]) -> None:
        if channel == "shell" and parent in self._replies:
            _settle(self._replies[parent], content)
        if channel != "iopub":
            return
        if kind == "status" and content.get("execution_state") == "idle" and parent in self._idle:
            _settle(self._idle[parent], time.monotonic())
        elif kind == "comm_open" and content.get("target_name") == "jupyter.widget":
            self.models[content["comm_id"]] = dict(content["data"].get("state", {}))
        elif kind == "comm_msg":
            data = content.get("data", {})
            if data.get("method") == "update_states":
                for model_id, model in data.get("states", {}).items():
                    self.models[model_id] = dict(model.get("state", {}))
            elif data.get("method") in ("update", "echo_update"):
                self.models.setdefault(content["comm_id"], {}).update(data.get("state", {}))
            if parent in self._answers:
                self._answers[parent].append({**data, "received": time.monotonic()})

    async def close(self) -> None:
        self.ws.close()
        self.reader.cancel()
        with contextlib.suppress(BaseException):
            await self.reader


def _settle(future: asyncio.Future[Any], value: Any) -> None:
    if not future.done():
        future.set_result(value)


async def fetch_page(
    http: AsyncHTTPClient, url: str, v: Visit, arrived: float, timeout: float
) -> str:
    """The page, after as many "busy, retrying" pages as it takes (or the visit's time)."""
    while True:
        v.tries += 1
        left = timeout - (time.monotonic() - arrived)
        response = await http.fetch(
            HTTPRequest(url, request_timeout=max(left, 1.0)), raise_error=False
        )
        if response.code == 200:
            v.page_s = time.monotonic() - arrived
            return response.body.decode()
        if response.code != 503:
            raise RuntimeError(f"the page answered HTTP {response.code}")
        v.busy += 1
        v.steps.append((round(time.monotonic() - arrived, 2), "busy"))
        wait = random.uniform(*RETRY_S)
        if time.monotonic() - arrived + wait > timeout:
            raise TimeoutError(f"still busy after {v.busy} tries")
        await asyncio.sleep(wait)


async def fetch_named_files(http: AsyncHTTPClient, base: str, html: str, config: dict) -> None:
    """The files the page names (styles, scripts, widget extensions), six at a time."""
    paths = set(NAMED_FILES.findall(html))
    for extension in config.get("federated_extensions", []):
        paths.add(f"/voila/labextensions/{extension['name']}/{extension['load']}")
    gate = asyncio.Semaphore(6)  # a browser's connections to one host

    async def one(path: str) -> None:
        async with gate:
            await http.fetch(base.rstrip("/") + path, raise_error=False, request_timeout=60)

    await asyncio.gather(*(one(p) for p in sorted(paths)))


async def visit(
    base_url: str,
    v: Visit,
    t0: float,
    timeout: float,
    stay: asyncio.Event,
    connect_delay_s: float = 0.0,
) -> None:
    """One visitor, arriving at ``t0 + v.arrival_s``; connected until ``stay`` is set.
    ``connect_delay_s``: a slow page, opening its websocket this long after the page came."""
    await asyncio.sleep(max(0.0, t0 + v.arrival_s - time.monotonic()))
    arrived = time.monotonic()
    http = AsyncHTTPClient()
    socket: KernelSocket | None = None

    def step(name: str) -> float:
        now = time.monotonic() - arrived
        v.steps.append((round(now, 2), name))
        return now

    try:
        html = await fetch_page(http, base_url, v, arrived, timeout)
        config = json.loads(CONFIG_DATA.search(html).group(1))
        v.kernel_id = config["kernelId"]
        step("page")
        await fetch_named_files(http, base_url, html, config)
        step("files")
        await asyncio.sleep(connect_delay_s)
        await http.fetch(f"{base_url}api/kernels/{v.kernel_id}", request_timeout=60)
        session = Session(key=b"", username="visitor")
        ws = await asyncio.wait_for(
            websocket_connect(
                f"ws{base_url[4:]}api/kernels/{v.kernel_id}/channels?session_id={session.session}",
                subprotocols=[WS_PROTOCOL],
                max_message_size=256 * 2**20,
            ),
            STEP_TIMEOUT_S,
        )
        socket = KernelSocket(ws, session, base_url.rstrip("/"))
        await socket.request("kernel_info_request", {}, wait="reply")
        step("connected")
        control = str(uuid.uuid4())
        socket.send(
            "comm_open",
            {"comm_id": control, "target_name": CONTROL_TARGET, "data": {}},
            metadata={"version": CONTROL_VERSION},
        )
        request = await socket.request(
            "comm_msg", socket.comm_msg(control, {"method": "request_states"})
        )
        states = [a for a in socket.answers(request) if a.get("method") == "update_states"]
        if not states:
            raise RuntimeError("the kernel sent no widget state")
        v.widgets_s = states[0]["received"] - arrived
        step("widgets")
        socket.send("comm_close", {"comm_id": control, "data": {}})
        readied: set[str] = set()
        await ready_views(socket, readied)
        step("views ready")
        await choose_play_against_bots(socket, readied)
        v.board_s = step("board")
        await play_until_a_card_draw(socket, v, step)
    except Exception as exc:  # this visitor failed; the run goes on
        v.error = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"
        step("failed")
    try:
        await stay.wait()
    finally:
        if socket is not None:
            await socket.close()


async def ready_views(socket: KernelSocket, readied: set[str]) -> None:
    """Say what the page's new widgets say once created (ipycanvas's ``client_ready``, the
    browser store's "nothing stored"), for the widgets not in ``readied``; return once the
    kernel has answered them all."""
    last = ""
    for model_id, state in list(socket.models.items()):
        if model_id in readied:
            continue
        readied.add(model_id)
        if state.get("_send_client_ready_event"):  # an ipycanvas layer
            last = socket.send(
                "comm_msg",
                socket.comm_msg(
                    model_id, {"method": "custom", "content": {"event": "client_ready"}}
                ),
            )
        elif "_esm" in state:  # the app's own page parts (anywidget)
            if 'kind: "link"' in state["_esm"]:  # the page's address: no link followed
                said = {"kind": "link", "query": "", "origin": socket.origin, "path": "/"}
            else:  # the browser's stores: nothing stored in this browser
                said = {"kind": "stored", "text": None, "too_long": False}
            last = socket.send(
                "comm_msg", socket.comm_msg(model_id, {"method": "custom", "content": said})
            )
    if last:
        await asyncio.wait_for(asyncio.shield(socket._idle[last]), STEP_TIMEOUT_S)


async def choose_play_against_bots(socket: KernelSocket, readied: set[str]) -> None:
    """On the first screen, click *Play against bots*; once the kernel has answered, the
    board's new widgets say they are ready and the kernel draws it."""
    message = click(socket, "ttr-first-bots")
    if message is None:
        raise RuntimeError("the first screen offers no 'Play against bots'")
    drawn = socket.drawings
    await socket.request("comm_msg", message)
    await ready_views(socket, readied)
    if socket.drawings == drawn:
        raise RuntimeError("no board was drawn after 'Play against bots'")


def click(socket: KernelSocket, dom_class: str) -> dict[str, Any] | None:
    model_id = socket.find(dom_class)
    if model_id is None or socket.models[model_id].get("disabled"):
        return None
    return socket.comm_msg(model_id, {"method": "custom", "content": {"event": "click"}})


async def tick_offered_tickets(socket: KernelSocket) -> None:
    """Tick every ticket on offer, as a player does (none is ticked at first)."""
    offer = socket.find("ttr-offer")
    children = socket.models[offer].get("children", []) if offer is not None else []
    for child in children:
        model_id = child.removeprefix("IPY_MODEL_")
        if socket.models.get(model_id, {}).get("_model_name") == "CheckboxModel":
            await socket.request(
                "comm_msg",
                socket.comm_msg(model_id, {"method": "update", "state": {"value": True}}),
            )


async def play_until_a_card_draw(socket: KernelSocket, v: Visit, step: Any) -> None:
    """Keep the tickets offered, let the bots play until this seat's turn, draw a card."""
    await tick_offered_tickets(socket)
    for dom_class in ("ttr-keep", "ttr-bots-until-me"):
        message = click(socket, dom_class)
        if message is not None:
            await socket.request("comm_msg", message)
            step(dom_class)
    message = click(socket, "ttr-draw-blind")
    if message is None:
        raise RuntimeError("'Draw from the deck' is not offered")
    sent = time.monotonic()
    request = await socket.request("comm_msg", message)
    v.answer_s = socket._idle[request].result() - sent
    v.click_updates = sum(1 for a in socket.answers(request) if a.get("method") == "update")
    if not v.click_updates:
        raise RuntimeError("the click on 'Draw from the deck' changed nothing")
    step("answer")


async def run_visitors(
    url: str, visits: list[Visit], timeout: float, server_pid: int | None
) -> dict[str, Any]:
    AsyncHTTPClient.configure(None, max_clients=max(10, 2 * len(visits)))
    stay = asyncio.Event()
    t0, busy0, own0 = time.monotonic(), machine_busy_s(), own_cpu_s()
    tasks = [asyncio.ensure_future(visit(url, v, t0, timeout, stay)) for v in visits]
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(_all_done(visits), visits[-1].arrival_s + timeout + 5)
    done_s = time.monotonic() - t0
    machine = {"busy_s": machine_busy_s() - busy0, "client_s": own_cpu_s() - own0}
    memory = await asyncio.to_thread(memory_detail, server_pid) if server_pid else None
    stay.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"all_done_s": done_s, "memory": memory, "machine": machine}


def machine_busy_s() -> float:
    """CPU seconds the whole machine has spent busy (every core, every process)."""
    times = psutil.cpu_times()
    return sum(times) - times.idle - getattr(times, "iowait", 0.0)


def own_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def _all_done(visits: list[Visit]) -> None:
    while not all(v.error or v.answer_s is not None for v in visits):
        await asyncio.sleep(0.2)


# --------------------------------------------------------------------- report
def summarise(
    visits: list[Visit],
    sampler: Sampler | None,
    memory: dict[str, Any] | None,
    log: str,
    done_s: float,
    machine: dict[str, float] | None = None,
) -> dict[str, Any]:
    """Every figure; the server's CPU from the first arrival until the server was idle again
    (the warm kernels started to replace the ones taken included), and until the last
    visitor was done."""
    n = len(visits)
    widgets = [v.widgets_s for v in visits if v.widgets_s is not None]
    boards = [v.board_s for v in visits if v.board_s is not None]
    answers = [v.answer_s for v in visits if v.answer_s is not None]
    summary: dict[str, Any] = {
        "visitors": n,
        "got_widgets": len(widgets),
        "widgets_p50_s": quantile(widgets, 0.5),
        "widgets_p95_s": quantile(widgets, 0.95),
        "widgets_max_s": max(widgets, default=None),
        "got_board": len(boards),
        "board_p50_s": quantile(boards, 0.5),
        "board_p95_s": quantile(boards, 0.95),
        "board_max_s": max(boards, default=None),
        "answer_p50_s": quantile(answers, 0.5),
        "answer_p95_s": quantile(answers, 0.95),
        "answer_max_s": max(answers, default=None),
        "failures": [f"visitor {v.index}: {v.error}" for v in visits if v.error],
        "busy_answers": sum(v.busy for v in visits),
        "told_busy": sum(1 for v in visits if v.busy),
        "told_busy_then_served": sum(1 for v in visits if v.busy and v.widgets_s is not None),
        "dropped_unconnected": log.count("did not connect within"),
    }
    if sampler is not None and sampler.samples:
        first, last = sampler.samples[0], sampler.samples[-1]
        visits_end = next((x for x in sampler.samples if x.t >= done_s), last)
        for name, end in (("", last), ("_during_visits", visits_end)):
            voila = (end.voila_cpu_s - first.voila_cpu_s) / n
            kernels = (end.kernels_cpu_s - first.kernels_cpu_s) / n
            summary[f"voila_cpu_s_per_visitor{name}"] = voila
            summary[f"kernels_cpu_s_per_visitor{name}"] = kernels
            summary[f"server_cpu_s_per_visitor{name}"] = voila + kernels
        summary["refill_s"] = last.t - visits_end.t
        if machine is not None:
            # Other work on this (shared) machine while the visitors came: what the machine
            # spent busy, less the server's and this client's part.
            server_s = n * summary["server_cpu_s_per_visitor_during_visits"]
            others = machine["busy_s"] - server_s - machine["client_s"]
            summary["others_cores_during_visits"] = max(0.0, others) / max(done_s, 1e-9)
            summary["server_cores_during_visits"] = server_s / max(done_s, 1e-9)
        summary["server_rss_peak_mb"] = max(x.server_rss_mb for x in sampler.samples)
    if memory is not None:
        visitors = {v.kernel_id for v in visits if v.kernel_id}
        pss = [k["pss_mb"] for k in memory["kernels"] if k.get("kernel_id") in visitors]
        pss = pss or [k["pss_mb"] for k in memory["kernels"]]
        rss = [k["rss_mb"] for k in memory["kernels"] if k.get("kernel_id") in visitors]
        rss = rss or [k["rss_mb"] for k in memory["kernels"]]
        summary["kernel_pss_median_mb"] = statistics.median(pss) if pss else None
        summary["kernel_rss_median_mb"] = statistics.median(rss) if rss else None
        summary["kernels_with_all"] = len(memory["kernels"])
        summary["server_pss_with_all_mb"] = sum(
            e["pss_mb"] for e in memory["server"] + memory["kernels"]
        )
    return summary


def s_(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f} s"


def report(s: dict[str, Any]) -> list[str]:
    """The figures, one line each."""
    lines = [
        f"time to the first screen (every widget's state): p50 {s_(s['widgets_p50_s'])}, "
        f"p95 {s_(s['widgets_p95_s'])}, max {s_(s['widgets_max_s'])} ({s['got_widgets']} of "
        f"{s['visitors']} visitors)",
        f"time to a board (Play against bots clicked on the first screen, the board drawn): "
        f"p50 {s_(s['board_p50_s'])}, p95 {s_(s['board_p95_s'])}, max {s_(s['board_max_s'])} "
        f"({s['got_board']} of {s['visitors']} visitors)",
        f"answer to a click (Draw from the deck): p50 {s_(s['answer_p50_s'])}, "
        f"p95 {s_(s['answer_p95_s'])}, max {s_(s['answer_max_s'])}",
        f"failures: {len(s['failures'])}" + "".join(f"; {f}" for f in s["failures"][:5]),
        f"busy answers: {s['busy_answers']} ({s['told_busy']} visitors told 'busy', "
        f"{s['told_busy_then_served']} of them got in on retry)",
    ]
    if "server_cpu_s_per_visitor" in s:
        lines.append(
            f"server CPU per visitor: {s_(s['server_cpu_s_per_visitor'])} (Voilà "
            f"{s_(s['voila_cpu_s_per_visitor'])}, kernels {s_(s['kernels_cpu_s_per_visitor'])}; "
            f"the kernels started to replace the ones taken included, {s['refill_s']:.0f} s "
            f"after the last visitor; {s_(s['server_cpu_s_per_visitor_during_visits'])} until "
            "the last visitor was done)"
        )
    if s.get("kernel_pss_median_mb") is not None:
        lines.append(
            f"memory per kernel: {s['kernel_pss_median_mb']:.0f} MB PSS median "
            f"({s['kernel_rss_median_mb']:.0f} MB RSS); the server with every visitor "
            f"connected: {s['server_pss_with_all_mb'] / 1024:.2f} GB PSS in "
            f"{s['kernels_with_all']} kernels and Voilà"
        )
    return lines


def label_kernels(memory: dict[str, Any], server_pid: int) -> None:
    """Name each kernel's id so visitors' kernels are known."""
    ids = kernel_ids(server_pid)
    for entry in memory["kernels"]:
        if entry["pid"] in ids:
            entry["kernel_id"] = ids[entry["pid"]]


def _cores(spec: str) -> set[int]:
    """``taskset -c`` syntax: "0", "0,1", "0-3"."""
    cores: set[int] = set()
    for part in spec.split(","):
        first, _, last = part.partition("-")
        cores.update(range(int(first), int(last or first) + 1))
    return cores


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--visitors", "-n", type=int, default=30)
    parser.add_argument("--spread", type=float, default=30.0, help="arrivals over this many s")
    parser.add_argument("--timeout", type=float, default=120.0, help="per visitor, s")
    parser.add_argument("--notebook", default="notebooks/app.ipynb")
    parser.add_argument("--cpus", default="", help="run the server on these cores (taskset -c)")
    parser.add_argument("--voila-arg", action="append", default=[], help="extra Voilà option")
    parser.add_argument("--json", type=Path, default=REPO / "test-artifacts" / "bench-load-ws.json")
    args = parser.parse_args(argv)

    args.json.parent.mkdir(parents=True, exist_ok=True)
    # the server log names this machine's paths: kept out of results/
    log = REPO / "test-artifacts" / (args.json.stem + ".voila.log")
    log.parent.mkdir(parents=True, exist_ok=True)
    load_before = os.getloadavg()
    print(
        f"load average before: {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f} "
        f"({os.cpu_count()} cores, shared with whatever else runs here)"
    )
    n = args.visitors
    visits = [Visit(i, 0.0 if n == 1 else args.spread * i / (n - 1)) for i in range(n)]
    wrap = ["taskset", "-c", args.cpus] if args.cpus else []
    server = Server(args.notebook, args.voila_arg, log, wrap=wrap)
    if args.cpus:  # this client on the other cores, if any: the server's cores are its own
        rest = set(os.sched_getaffinity(0)) - _cores(args.cpus)
        if rest:
            os.sched_setaffinity(0, rest)
    sampler = None
    me_before = resource.getrusage(resource.RUSAGE_SELF)
    try:
        server.wait_ready(90)
        settled = server.wait_idle(300)
        kernels = len(kernels_of(server.proc.pid))
        print(
            f"server ready and idle after {settled:.1f} s ({kernels} kernels waiting"
            + (
                f", on cores {args.cpus}; this client on {sorted(os.sched_getaffinity(0))}"
                if args.cpus
                else ""
            )
            + f"); {n} visitors within {args.spread:g} s, all from 127.0.0.1"
        )
        sampler = Sampler(server.proc.pid, time.monotonic())
        sampler.start()
        extra = asyncio.run(
            asyncio.wait_for(
                run_visitors(server.url, visits, args.timeout, server.proc.pid),
                args.spread + args.timeout + 60,
            )
        )
        if extra["memory"] is not None:
            label_kernels(extra["memory"], server.proc.pid)
        server.wait_idle(300)  # the warm kernels taken are replaced: part of a visitor's cost
    finally:
        if sampler is not None:
            sampler.stopping.set()
            sampler.join(5)
        server.stop()
    me_after = resource.getrusage(resource.RUSAGE_SELF)
    own_cpu = (me_after.ru_utime + me_after.ru_stime) - (me_before.ru_utime + me_before.ru_stime)
    summary = summarise(
        visits,
        sampler,
        extra["memory"],
        log.read_text(errors="replace"),
        extra["all_done_s"],
        extra["machine"],
    )
    summary.update(
        load_before=load_before,
        load_after=os.getloadavg(),
        all_done_s=extra["all_done_s"],
        client_cpu_s_per_visitor=own_cpu / n,
        spread_s=args.spread,
        cpus=args.cpus or "all",
        voila_args=args.voila_arg,
    )
    for line in report(summary):
        print(line)
    print(
        f"this machine meanwhile: the server used {summary['server_cores_during_visits']:.2f} "
        f"cores, other work {summary['others_cores_during_visits']:.2f} cores (of "
        f"{os.cpu_count()}) while the visitors came; this load client "
        f"{s_(summary['client_cpu_s_per_visitor'])} of CPU per visitor; load average after: "
        f"{summary['load_after'][0]:.2f}"
    )
    args.json.write_text(
        json.dumps({"summary": summary, "visits": [asdict(v) for v in visits]}, indent=1)
    )
    print(f"figures: {args.json}   Voilà log: {log}")
    return 0 if not summary["failures"] and summary["got_board"] == n else 1


if __name__ == "__main__":
    sys.exit(main())
