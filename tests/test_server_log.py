"""Issue 39: what the app logs reaches the server's log, never the visitor's page.

A real kernel (ipykernel, as Voilà starts it) runs the app's imports and logs an error with
a traceback from a module other than the app's own; every message the kernel publishes to
the page (its iopub channel, which the page's websocket carries) is searched for it.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

pytest.importorskip("ipykernel")
from jupyter_client.manager import KernelManager

SECRET = "/srv/classroom/secret-tables.sqlite"
CODE = f"""
import logging
import ttr_nb.widgets
try:
    raise RuntimeError("the store at {SECRET} is gone")
except RuntimeError:
    logging.getLogger("ttr_nb.tables.store").exception("table poll failed")
logging.getLogger("ttr_nb.widgets.tables").warning("a warning from the tables panel")
import sys
sys.stderr.flush()
"""


def test_a_modules_log_record_goes_to_the_server_log_not_the_page(tmp_path: Path):
    server_log = tmp_path / "kernel-stderr.log"
    manager = KernelManager(kernel_name="python3")
    with server_log.open("w") as err:
        manager.start_kernel(stderr=err)
        client = manager.client()
        client.start_channels()
        try:
            client.wait_for_ready(timeout=60)
            client.execute(CODE)
            published = []
            deadline = time.monotonic() + 30
            idle = False
            while time.monotonic() < deadline:
                try:
                    message = client.get_iopub_msg(timeout=1)
                except Exception:  # noqa: BLE001 - queue empty: wait for late writes
                    if idle:
                        break
                    continue
                published.append(message)
                if (
                    message["msg_type"] == "status"
                    and message["content"]["execution_state"] == "idle"
                ):
                    idle = True
                    deadline = min(deadline, time.monotonic() + 2)  # the fd watcher's late bytes
        finally:
            client.stop_channels()
            manager.shutdown_kernel(now=True)
    errors = [m for m in published if m["msg_type"] == "error"]
    assert not errors, errors[0]["content"]
    # Everything but the echo of the code sent (execute_input) is what a page would receive.
    page = "\n".join(str(m["content"]) for m in published if m["msg_type"] != "execute_input")
    assert "Traceback" not in page and SECRET not in page and "table poll failed" not in page
    assert "a warning from the tables panel" not in page
    logged = server_log.read_text()
    assert "table poll failed" in logged and "Traceback" in logged and SECRET in logged
    assert "a warning from the tables panel" in logged
