"""Forged widget messages to a real Voilà kernel: no traceback reaches the page (issue 49,
item 7).

A hostile student does not need a browser: they fetch the app's page (which starts their
kernel), open its websocket as the page would, ask the kernel for every widget's state
(ipywidgets' control comm), and send whatever they like to any widget. Before the fix, a
dropdown index out of range, a seat-keeper message holding deeply nested JSON
(RecursionError), a widget message without its ``method``, or a ``comm_open`` for a widget
that does not exist made the kernel publish the whole traceback, server paths and all, on
the channel the page reads. Every frame the server sends is decoded (they are binary:
``tests/frames.py``) and searched; the server log must hold the details instead.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from browser import REPO, serving
from frames import frame_text

websocket = pytest.importorskip("tornado.websocket")
from jupyter_server.services.kernels.connection.base import (  # noqa: E402
    deserialize_msg_from_ws_v1,
    serialize_msg_to_ws_v1,
)

PROTOCOL = "v1.kernel.websocket.jupyter.org"
SESSION = uuid.uuid4().hex
# What must never reach a page: a traceback, a server path, the errors' own names.
LEAKS = re.compile(
    r"Traceback|File \"/|site-packages|\.venv|ttr_nb/|RecursionError|TraitError|KeyError"
    + "|"
    + re.escape(str(REPO))
)


@pytest.fixture(scope="module")
def server() -> Iterator[Any]:
    with serving(log_name="voila-forged.log", warm=1) as voila:
        yield voila


def kernel_of_page(url: str) -> str:
    """GET the app's page (the server runs the notebook in a kernel for it): its kernel id.
    A "busy" answer (no warm kernel yet on a loaded machine) is retried, as the page does."""
    deadline = time.monotonic() + 120
    while True:
        try:
            with urllib.request.urlopen(url, timeout=120) as answer:
                page = answer.read().decode()
            break
        except urllib.error.HTTPError as error:
            if error.code != 503 or time.monotonic() > deadline:
                raise
            time.sleep(2)
    config = re.search(
        r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', page, re.S
    )
    assert config, page[-2000:]
    return json.loads(config.group(1))["kernelId"]


def message(
    msg_type: str, content: dict[str, Any], metadata: dict[str, Any] | None = None
) -> tuple[str, bytes]:
    header = {
        "msg_id": uuid.uuid4().hex,
        "msg_type": msg_type,
        "session": SESSION,
        "username": "forger",
        "date": "2026-01-01T00:00:00Z",
        "version": "5.3",
    }
    parts = [json.dumps(p).encode() for p in (header, {}, metadata or {}, content)]
    return header["msg_id"], serialize_msg_to_ws_v1(parts, "shell")


def decode(frame: bytes) -> tuple[str, dict[str, Any], dict[str, Any], dict[str, Any]]:
    """(channel, header, parent header, content) of a binary v1 frame."""
    channel, parts = deserialize_msg_from_ws_v1(frame)
    header, parent, _metadata, content = (json.loads(p) for p in parts[:4])
    return channel, header, parent, content


class Forger:
    """A websocket client that speaks to a kernel as its page does, and keeps every frame."""

    def __init__(self, connection: Any) -> None:
        self.connection = connection
        self.frames: list[bytes] = []

    async def send(
        self, msg_type: str, content: dict[str, Any], metadata: dict[str, Any] | None = None
    ) -> str:
        msg_id, frame = message(msg_type, content, metadata)
        await self.connection.write_message(frame, binary=True)
        return msg_id

    async def until(self, found: Any, timeout: float = 30) -> Any:
        """Read frames until ``found(channel, header, parent, content)`` returns something."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                frame = await asyncio.wait_for(
                    self.connection.read_message(), deadline - time.monotonic()
                )
            except TimeoutError:
                break
            assert frame is not None, "the server closed the websocket"
            self.frames.append(frame)
            result = found(*decode(frame))
            if result is not None:
                return result
        return None

    async def idle_after(self, msg_id: str) -> None:
        """Wait until the kernel has handled ``msg_id`` (its idle status on iopub)."""
        done = await self.until(
            lambda ch, h, parent, c: (
                True
                if ch == "iopub"
                and h["msg_type"] == "status"
                and parent.get("msg_id") == msg_id
                and c.get("execution_state") == "idle"
                else None
            )
        )
        assert done, f"the kernel never finished {msg_id}"

    async def widget_states(self) -> dict[str, Any]:
        """Every widget's state, asked as ipywidgets' page asks (the control comm)."""
        control = uuid.uuid4().hex
        await self.send(
            "comm_open",
            {"comm_id": control, "target_name": "jupyter.widget.control", "data": {}},
            {"version": "1.0.0"},
        )
        await self.send("comm_msg", {"comm_id": control, "data": {"method": "request_states"}})
        states = await self.until(
            lambda ch, h, p, c: (
                c["data"]["states"]
                if h["msg_type"] == "comm_msg"
                and c.get("comm_id") == control
                and c.get("data", {}).get("method") == "update_states"
                else None
            )
        )
        assert states, "no widget states"
        return states


async def forge(url: str, kernel_id: str) -> tuple[Forger, dict[str, Any]]:
    ws_url = (
        url.replace("http://", "ws://") + f"api/kernels/{kernel_id}/channels?session_id={SESSION}"
    )
    connection = await websocket.websocket_connect(
        ws_url, subprotocols=[PROTOCOL], max_message_size=2**28
    )
    forger = Forger(connection)
    states = await forger.widget_states()
    sent = []
    dropdowns = [m for m, s in states.items() if s["model_name"] == "DropdownModel"]
    keepers = [
        m for m, s in states.items() if "ttr-nb-table-seat" in str(s["state"].get("_esm", ""))
    ]
    assert dropdowns and keepers, "the app has no dropdown or no seat keeper any more"
    for model in dropdowns:  # an index past the options
        sent.append(
            await forger.send(
                "comm_msg",
                {"comm_id": model, "data": {"method": "update", "state": {"index": 999}}},
            )
        )
    nested = "[" * 100_000 + "]" * 100_000
    for model in keepers:  # nested deeper than the JSON parser's stack
        data = {"method": "custom", "content": {"kind": "stored", "text": nested}}
        sent.append(await forger.send("comm_msg", {"comm_id": model, "data": data}))
    for model in states:  # every widget: a message without its method
        sent.append(await forger.send("comm_msg", {"comm_id": model, "data": {}}))
    # A widget the page asks the kernel to build, of a model that does not exist.
    bogus = {
        "comm_id": uuid.uuid4().hex,
        "target_name": "jupyter.widget",
        "data": {"state": {"_model_name": "Nothing"}},
    }
    sent.append(await forger.send("comm_open", bogus, {"version": "2.1.0"}))
    for msg_id in sent:
        await forger.idle_after(msg_id)
    await forger.until(lambda *_: None, timeout=2.0)  # late standard-error bytes
    forger.states_after = await forger.widget_states()  # type: ignore[attr-defined]
    connection.close()
    return forger, states


def test_forged_widget_messages_send_no_traceback_to_the_page(server):
    kernel_id = kernel_of_page(server.url)
    forger, states = asyncio.run(forge(server.url, kernel_id))
    decoded = [decode(f) for f in forger.frames]
    errors = [c for ch, h, _p, c in decoded if h["msg_type"] == "error"]
    stderr = [
        c for ch, h, _p, c in decoded if h["msg_type"] == "stream" and c.get("name") == "stderr"
    ]
    assert not errors, f"{len(errors)} error messages, the first: {str(errors[0])[:600]}"
    assert not stderr, f"standard error reached the page: {str(stderr[0])[:600]}"
    for frame in forger.frames:
        text = frame_text(frame)
        leak = LEAKS.search(text)
        assert leak is None, (
            f"{leak.group()!r} in a frame: {text[max(0, leak.start() - 300) : leak.end() + 300]}"
        )
    # The kernel lives on and still answers (every widget is still there).
    assert set(states) <= set(forger.states_after)
    time.sleep(0.5)  # the kernel's log lines reach the server's log
    log = server.log.read_text()
    assert "from the page" in log and "TraitError" in log and "KeyError: 'method'" in log
    assert "Traceback" in log
