"""What one arriving visitor costs the server, step by step (a profile, not a load test).

    python tools/bench_arrival.py                      # 5 visitors, one after the other
    python tools/bench_arrival.py --visitors 8 --json results/bench/arrival-after.json

Starts its own Voilà server (``make app``'s command, same ``voila.json``, ``--warm`` warm
kernels), waits until it is idle, then lets visitors come **one at a time**, each doing over
HTTP and websocket what the page does in Chromium (``tools/bench_load_ws.py``'s client), and
measures after every step the CPU seconds spent by Voilà's process, by the visitor's own
kernel and by every other process of the server (the warm kernel started to replace the one
taken, the table service):

1. ``page``: the page request (Voilà runs the notebook in the visitor's warm kernel and
   renders the page);
2. ``files``: the files the page names (styles, scripts);
3. ``connect``: the kernel's websocket opened, its info asked;
4. ``first screen``: every widget's state asked and received: the first screen is on the
   visitor's screen;
5. ``views ready``: the page's widgets say they are ready (ipycanvas's ``client_ready`` of
   every canvas there is, the browser store's "nothing stored");
6. ``board``: the visitor clicks *Play against bots*; the new widgets' views say they are
   ready; the kernel has drawn the board;
7. ``refill``: until the server is idle again (the warm kernel that replaces the one taken
   is started and warmed).

One visitor at a time, the CPU of each step is the visitor's own, whatever else runs on the
machine (the wall-clock times are not: they are printed for orientation). It prints one
line per step (medians over the visitors) and writes every figure to ``--json``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import psutil
from jupyter_client.session import Session
from tornado.httpclient import AsyncHTTPClient
from tornado.websocket import websocket_connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_load import REPO, Server, kernel_ids, tree  # noqa: E402
from bench_load_ws import (  # noqa: E402
    CONFIG_DATA,
    CONTROL_TARGET,
    CONTROL_VERSION,
    WS_PROTOCOL,
    KernelSocket,
    Visit,
    choose_play_against_bots,
    fetch_named_files,
    fetch_page,
    ready_views,
)

STEPS = ["page", "files", "connect", "first screen", "views ready", "board", "refill"]


class Meter:
    """CPU seconds of the server's processes, split into Voilà, one kernel and the rest."""

    def __init__(self, server_pid: int) -> None:
        self.server_pid = server_pid
        self.kernel_pid: int | None = None
        self.last = self._read()

    def _read(self) -> dict[int, float]:
        cpu = {}
        for proc in tree(self.server_pid):
            with contextlib.suppress(psutil.Error):
                t = proc.cpu_times()
                cpu[proc.pid] = t.user + t.system
        return cpu

    def find_kernel(self, kernel_id: str) -> None:
        ids = kernel_ids(self.server_pid)
        self.kernel_pid = next((pid for pid, known in ids.items() if known == kernel_id), None)

    def step(self) -> dict[str, float]:
        now = self._read()
        spent = {pid: cpu - self.last.get(pid, 0.0) for pid, cpu in now.items()}
        self.last = now
        voila = spent.pop(self.server_pid, 0.0)
        kernel = spent.pop(self.kernel_pid, 0.0) if self.kernel_pid is not None else 0.0
        return {"voila": voila, "kernel": kernel, "others": sum(spent.values())}


async def one_visitor(server: Server, index: int) -> dict[str, Any]:
    """One visitor through every step; the CPU, the time and the messages of each."""
    meter = Meter(server.proc.pid)
    http = AsyncHTTPClient()
    v = Visit(index, 0.0)
    steps: dict[str, dict[str, float]] = {}
    socket: KernelSocket | None = None
    clock = time.monotonic()

    seen = [0, 0]  # messages and bytes from the kernel so far

    def done(name: str) -> None:
        nonlocal clock
        now = time.monotonic()
        steps[name] = {**meter.step(), "wall": now - clock}
        if socket is not None:
            steps[name]["messages"] = socket.received - seen[0]
            steps[name]["bytes"] = socket.received_bytes - seen[1]
            seen[:] = [socket.received, socket.received_bytes]
        clock = now

    base = server.url
    html = await fetch_page(http, base, v, time.monotonic(), 120)
    config = json.loads(CONFIG_DATA.search(html).group(1))
    kernel_id = config["kernelId"]
    meter.find_kernel(kernel_id)
    meter.last.setdefault(meter.kernel_pid or -1, 0.0)
    done("page")
    await fetch_named_files(http, base, html, config)
    done("files")
    session = Session(key=b"", username="visitor")
    ws = await websocket_connect(
        f"ws{base[4:]}api/kernels/{kernel_id}/channels?session_id={session.session}",
        subprotocols=[WS_PROTOCOL],
        max_message_size=256 * 2**20,
    )
    socket = KernelSocket(ws, session, base.rstrip("/"))
    await socket.request("kernel_info_request", {}, wait="reply")
    done("connect")
    control = str(uuid.uuid4())
    socket.send(
        "comm_open",
        {"comm_id": control, "target_name": CONTROL_TARGET, "data": {}},
        metadata={"version": CONTROL_VERSION},
    )
    await socket.request("comm_msg", socket.comm_msg(control, {"method": "request_states"}))
    socket.send("comm_close", {"comm_id": control, "data": {}})
    widgets_first = len(socket.models)
    done("first screen")
    readied: set[str] = set()
    await ready_views(socket, readied)
    done("views ready")
    await choose_play_against_bots(socket, readied)
    if not any(s.get("_send_client_ready_event") for s in socket.models.values()):
        raise RuntimeError("no board after Play against bots")
    done("board")
    await asyncio.to_thread(server.wait_idle, 300)  # the page's messages are read meanwhile
    done("refill")
    await socket.close()
    with contextlib.suppress(Exception):  # as closing the tab does
        await http.fetch(f"{base}api/kernels/{kernel_id}", method="DELETE", raise_error=False)
    return {"steps": steps, "widgets_first_screen": widgets_first, "widgets": len(socket.models)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--visitors", "-n", type=int, default=5)
    parser.add_argument("--warm", type=int, default=3, help="warm kernels kept (voila.json: 30)")
    parser.add_argument("--notebook", default="notebooks/app.ipynb")
    parser.add_argument("--voila-arg", action="append", default=[], help="extra Voilà option")
    parser.add_argument("--json", type=Path, default=REPO / "test-artifacts" / "bench-arrival.json")
    args = parser.parse_args(argv)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    load = os.getloadavg()
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    server = Server(
        args.notebook,
        [f"--ClassroomKernelManager.warm_kernels={args.warm}", *args.voila_arg],
        # the server log names this machine's paths: kept out of results/
        REPO / "test-artifacts" / (args.json.stem + ".voila.log"),
    )
    visits = []
    try:
        server.wait_ready(90)
        server.wait_idle(300)
        for i in range(args.visitors):
            visits.append(asyncio.run(one_visitor(server, i)))
    finally:
        server.stop()

    def median(step: str, what: str) -> float:
        return statistics.median(v["steps"][step].get(what, 0.0) for v in visits)

    print(
        f"{'step':<14}{'Voilà CPU':>10}{'kernel CPU':>11}{'others CPU':>11}{'wall':>8}"
        f"{'messages':>10}{'kB':>8}   (medians of {len(visits)} visitors, seconds)"
    )
    totals = {"voila": 0.0, "kernel": 0.0, "others": 0.0}
    for step in STEPS:
        row = {k: median(step, k) for k in ("voila", "kernel", "others", "wall")}
        for k in totals:
            totals[k] += row[k]
        print(
            f"{step:<14}{row['voila']:>10.3f}{row['kernel']:>11.3f}{row['others']:>11.3f}"
            f"{row['wall']:>8.2f}{median(step, 'messages'):>10.0f}"
            f"{median(step, 'bytes') / 1000:>8.0f}"
        )
    arrival = {
        k: sum(median(s, k) for s in STEPS[: STEPS.index("views ready") + 1])
        for k in ("voila", "kernel", "others")
    }
    print(
        f"{'all steps':<14}{totals['voila']:>10.3f}{totals['kernel']:>11.3f}"
        f"{totals['others']:>11.3f}   server CPU per visitor: {sum(totals.values()):.2f} s; "
        f"to the first screen (steps 1-5): {sum(arrival.values()):.2f} s"
    )
    first = statistics.median(v["widgets_first_screen"] for v in visits)
    after = statistics.median(v["widgets"] for v in visits)
    print(f"widgets sent for the first screen: {first:.0f}; with the board: {after:.0f}")
    load_after = os.getloadavg()
    summary = {
        "visitors": len(visits),
        "warm_kernels": args.warm,
        "voila_args": args.voila_arg,
        "load_before": load,
        "load_after": load_after,
        "steps": {
            step: {k: median(step, k) for k in ("voila", "kernel", "others", "wall", "messages")}
            | {"kB": median(step, "bytes") / 1000}
            for step in STEPS
        },
        "server_cpu_s_per_visitor": sum(totals.values()),
        "server_cpu_s_to_first_screen": sum(arrival.values()),
        "widgets_first_screen": first,
        "widgets_with_board": after,
    }
    args.json.write_text(json.dumps({"summary": summary, "visits": visits}, indent=1))
    print(f"load average after: {load_after[0]:.2f}; figures: {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
