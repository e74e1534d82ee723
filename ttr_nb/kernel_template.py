"""The kernel template: one process that has warmed up once, forked into each new kernel.

Started by the server (:class:`ttr_nb.kernel_fork.KernelTemplate`) as::

    python -m ttr_nb.kernel_template ipykernel_launcher FD

with ``warm_code`` in ``$TTR_WARM_CODE`` and ``FD`` a socket to the server. It imports
ipykernel, runs ``warm_code`` (the app's modules, the maps), checks that nothing left a
thread running, and says ``{"status": "ready"}`` (or ``{"error": ...}``). Then, for each
request (a JSON line: connection file, environment, folder, niceness, the server's process
id), it forks; the child becomes that kernel (:func:`run_kernel`) and the template answers
``{"pid": ...}``. It stops when the server closes the socket.

This module imports nothing of the server, and nothing here runs in the server.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import signal
import socket
import sys
import time
from pathlib import Path
from typing import Any

KERNEL_MODULE = "ipykernel_launcher"  # named in the template's command line: tools count kernels
# What a kernel imports as it starts (its shell, its debugger, its history's database):
# imported once here, each kernel starts in 0.04 s of CPU instead of 0.09.
KERNEL_IMPORTS = (
    "ipykernel.kernelapp",
    "ipykernel.ipkernel",
    "ipykernel.zmqshell",
    "ipykernel.debugger",
    "IPython.extensions",
    "faulthandler",
    "pdb",
    "sqlite3",
    "tornado.platform.asyncio",
)
READY = "ready"
WARM_CODE_ENV = "TTR_WARM_CODE"


def serve(fd: int) -> None:
    """Warm up, then fork one kernel per request until the server closes ``fd``."""
    import gc
    import threading

    channel = socket.socket(fileno=fd)
    out = channel.makefile("wb", buffering=0)
    if sys.path and sys.path[0] in ("", os.getcwd()):
        del sys.path[0]  # as ipykernel_launcher does; the kernel puts its folder back
    # What ipykernel's kernel spec sets where Python freezes modules: else the debugger
    # says so in the server's log when it is imported (a started kernel's says it nowhere).
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    try:
        for module in KERNEL_IMPORTS:
            importlib.import_module(module)
        namespace: dict[str, Any] = {"__name__": "__main__"}
        code = os.environ.pop(WARM_CODE_ENV, "")
        exec(compile(code, "<warm_code>", "exec"), namespace)  # noqa: S102 - the server's
        if threading.active_count() != 1:
            raise RuntimeError(
                f"warm_code left {threading.active_count() - 1} threads running: a fork "
                "would copy them half-way"
            )
    except BaseException as exc:  # noqa: BLE001 - the server starts kernels itself, says why
        out.write(json.dumps({"error": f"{type(exc).__name__}: {exc}"}).encode() + b"\n")
        return
    kept = {k: v for k, v in namespace.items() if not k.startswith("__")}
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the system collects exited kernels
    gc.collect()
    gc.freeze()  # the collector leaves the shared objects alone: their pages stay shared
    out.write(json.dumps({"status": READY}).encode() + b"\n")
    for line in channel.makefile("rb"):
        request = json.loads(line)
        session_made, said = os.pipe()
        pid = os.fork()
        if pid == 0:
            channel.close()
            os.close(session_made)
            os.setsid()  # a session of its own, as a started kernel: signals reach its group
            os.close(said)
            run_kernel(request, kept)  # never returns
        os.close(said)
        os.read(session_made, 1)  # its session made: the server may signal its group now
        os.close(session_made)
        out.write(json.dumps({"pid": pid}).encode() + b"\n")


def run_kernel(request: dict[str, Any], namespace: dict[str, Any]) -> None:
    """In the forked child: become the kernel ``request`` describes; exit when it ends."""
    code = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the kernel's own subprocesses
        env = dict(request["env"])
        os.environ.clear()
        os.environ.update(env)
        os.chdir(request["cwd"])
        if request.get("nice"):
            os.nice(int(request["nice"]))
        if request.get("server_pid"):
            leave_with(int(request["server_pid"]))
        from ipykernel import kernelapp

        launcher = Path(kernelapp.__file__).parent.parent / f"{KERNEL_MODULE}.py"
        sys.argv = [str(launcher), "-f", request["connection_file"]]
        # parent_handle=1 ("init, which never goes away"): ipykernel's watch of its parent
        # is off (the template is the parent; leave_with watches the server), and it does
        # not print its connection banner into the server's log.
        app = kernelapp.IPKernelApp.instance(parent_handle=1)
        app.initialize(sys.argv[1:])
        app.shell.user_ns.update(namespace)  # what warm_code left, as in a warmed kernel
        adopt_template_widgets(app)
        app.start()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 0
    except BaseException:  # noqa: BLE001 - the kernel failed: the server's log says why
        import traceback

        traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def adopt_template_widgets(app: Any) -> None:
    """What ``warm_code``'s imports made before there was a kernel joins this kernel:
    ipywidgets' comm targets (registered at import, inside a kernel only), and the comms of
    widgets made at import (ipycanvas's canvas manager, through which every drawing goes:
    ipywidgets sends nothing on a comm that has no kernel)."""
    widgets = sys.modules.get("ipywidgets")
    if widgets is None:
        return
    widgets.load_ipython_extension(app.shell)
    import comm

    for made in comm.get_comm_manager().comms.values():
        if getattr(made, "kernel", False) is None:
            made.kernel = app.kernel


def leave_with(server_pid: int) -> None:
    """Exit once the server is gone. A started kernel watches its parent, the server; a
    forked kernel's parent is the template, so it watches the server itself."""
    import threading

    import psutil

    try:
        born = psutil.Process(server_pid).create_time()
    except psutil.NoSuchProcess:
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(2)
            try:
                alive = psutil.Process(server_pid).create_time() == born
            except psutil.NoSuchProcess:
                alive = False
            if not alive:
                os._exit(0)

    threading.Thread(target=watch, name="ttr-server-watch", daemon=True).start()


if __name__ == "__main__":
    serve(int(sys.argv[2]))
