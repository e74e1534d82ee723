"""Kernels forked from one warmed-up process: a new kernel for a tenth of the CPU.

A kernel started the usual way is a new Python process: the interpreter starts, imports
IPython and ipykernel, then the app's modules and maps (``warm_code``): about a second of
CPU, every time. When a class arrives, each visitor takes a warm kernel and the server
starts one more to replace it, so that second is paid once per visitor.

Here one process, the **kernel template**, pays it once: it imports ipykernel, runs
``warm_code`` and waits. Each new kernel is a ``fork`` of it (the copy-on-write copy of a
process that has already done all of that), which only opens the kernel's sockets: about
0.1 s of CPU instead of 1 s, and the pages of the shared modules stay shared between the
kernels until one writes to them (less memory per kernel).

What makes the copy safe:

- The template runs no thread and no event loop and opens no socket of ZeroMQ before it
  forks (it checks there is one thread); each kernel makes its own after the fork.
- Each kernel gets its own environment, folder, niceness and connection file (its ports and
  its message-signing key), as a started kernel does; Python's ``random`` is seeded again
  in each (Python does it at every fork) and ``secrets`` reads the system's randomness.
- The kernel is a session of its own (interrupts and ``kill`` reach its group) and leaves
  when the server it serves is gone, as started kernels do.
- Whatever the template did not do (another kernel name, a template that is not running or
  not safe to fork) falls back to starting a kernel the usual way.

This module is the server's side: :class:`KernelTemplate` starts the template and asks it
for kernels, :class:`ForkingKernelManager` is Jupyter Server's kernel manager with
:class:`ForkProvisioner`, the kernel provisioner that forks.
:class:`ttr_nb.serving.ClassroomKernelManager` uses them for its warm kernels
(``fork_kernels``). The template is :mod:`ttr_nb.kernel_template`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psutil
from jupyter_client.provisioning import LocalProvisioner
from jupyter_server.services.kernels.kernelmanager import ServerKernelManager

from .kernel_template import KERNEL_MODULE, READY, WARM_CODE_ENV


# ------------------------------------------------------------------ the server's side
class ForkError(RuntimeError):
    """The template could not make a kernel (not running, not safe to fork, refused)."""


class KernelTemplate:
    """The kernel template process, seen from the server: start it, ask it for kernels.

    Parameters
    ----------
    warm_code : str
        Code the template runs once (imports, maps); every kernel forked from it has
        run it, and finds the names it left in its namespace.
    cwd : str
        Folder the template starts in.
    env : dict
        The template's environment (each kernel gets its own too).
    """

    def __init__(self, warm_code: str, cwd: str, env: dict[str, str]) -> None:
        self.warm_code, self.cwd, self.env = warm_code, cwd, env
        self.proc: subprocess.Popen[bytes] | None = None
        self._sock: socket.socket | None = None
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._lock = asyncio.Lock()
        self.failure = ""  # why the template cannot fork, once it said so
        self.was_ready = False  # it warmed up (gone after that: it may be started again)

    @property
    def running(self) -> bool:
        """Whether the template process is there (it may still be warming up)."""
        return self.proc is not None and self.proc.poll() is None

    def start(self) -> None:
        """Start the template (it warms up in the background; :meth:`fork` waits for it)."""
        ours, theirs = socket.socketpair()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "ttr_nb.kernel_template", KERNEL_MODULE, str(theirs.fileno())],
            cwd=self.cwd or None,
            env={**self.env, WARM_CODE_ENV: self.warm_code},
            stdin=subprocess.DEVNULL,
            pass_fds=[theirs.fileno()],
            start_new_session=True,
        )
        theirs.close()
        self._sock = ours
        self._reader = self._writer = None
        self.failure, self.was_ready = "", False

    async def _connect(self, timeout: float) -> None:
        """Once: wait until the template has warmed up (or learn why it could not)."""
        if self._writer is not None:
            return
        if self._sock is None:
            raise ForkError("the kernel template is stopped")
        self._reader, self._writer = await asyncio.open_unix_connection(sock=self._sock)
        try:
            line = await asyncio.wait_for(self._reader.readline(), timeout)
        except TimeoutError:
            line = json.dumps({"error": f"not warmed up within {timeout:g} s"}).encode()
        answer = json.loads(line or b'{"error": "the kernel template exited"}')
        if answer.get("status") != READY:
            self.failure = str(answer.get("error", "the kernel template did not start"))
            raise ForkError(self.failure)
        self.was_ready = True

    async def fork(self, connection_file: str, env: dict[str, str], cwd: str, nice: int = 0) -> int:
        """A new kernel with this connection file, environment, folder and added niceness;
        returns its process id. Raises :class:`ForkError` when the template cannot."""
        if self.failure:
            raise ForkError(self.failure)
        request = {
            "connection_file": connection_file,
            "env": env,
            "cwd": cwd,
            "nice": nice,
            "server_pid": os.getpid(),
        }
        async with self._lock:
            try:
                await self._connect(timeout=120)
                assert self._reader is not None and self._writer is not None
                self._writer.write(json.dumps(request).encode() + b"\n")
                await self._writer.drain()
                line = await asyncio.wait_for(self._reader.readline(), 30)
            except (TimeoutError, OSError, ValueError) as exc:
                raise ForkError(f"the kernel template did not answer: {exc!r}") from exc
        answer = json.loads(line or b'{"error": "the kernel template exited"}')
        if "pid" not in answer:
            raise ForkError(str(answer.get("error")))
        return int(answer["pid"])

    def stop(self) -> None:
        """Stop the template (the kernels forked from it go on)."""
        if self._writer is not None:
            with contextlib.suppress(Exception):
                self._writer.close()
        elif self._sock is not None:
            self._sock.close()
        self._reader = self._writer = self._sock = None
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


class ForkedKernel:
    """A forked kernel's process, as :class:`subprocess.Popen` shows one to Jupyter's
    provisioner (the template is its parent, not this server)."""

    stdin = stdout = stderr = None

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        try:
            self._process: Any = psutil.Process(pid)
        except psutil.NoSuchProcess:
            self._process, self.returncode = None, -1

    def poll(self) -> int | None:
        """None while the kernel runs, else its exit code (-1: not known, its parent,
        the template, collected it)."""
        if self.returncode is None:
            try:
                if self._process.status() == psutil.STATUS_ZOMBIE:
                    self.returncode = -1
            except psutil.NoSuchProcess:
                self.returncode = -1
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Wait until the kernel has exited and return its exit code, as ``Popen.wait``."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired("forked kernel", timeout or 0)
            time.sleep(0.05)
        assert self.returncode is not None
        return self.returncode

    def send_signal(self, signum: int) -> None:
        """Send ``signum`` to the kernel if it still runs (it may have gone meanwhile)."""
        if self.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signum)

    def terminate(self) -> None:
        """Ask the kernel to stop (SIGTERM)."""
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        """Stop the kernel at once (SIGKILL)."""
        self.send_signal(signal.SIGKILL)


class ForkProvisioner(LocalProvisioner):  # type: ignore[misc]
    """Jupyter's local provisioner, except that the kernel is forked from the template (its
    kernel manager's ``template``) when it can be."""

    async def launch_kernel(self, cmd: list[str], **kwargs: Any) -> Any:
        template = getattr(self.parent, "template", None)
        connection_file = _connection_file(cmd)
        if template is None or connection_file is None:
            return await super().launch_kernel(cmd, **kwargs)
        try:
            pid = await template.fork(
                connection_file,
                env=dict(kwargs.get("env") or os.environ),
                cwd=str(kwargs.get("cwd") or os.getcwd()),
                nice=int(getattr(kwargs.get("preexec_fn"), "increment", 0)),
            )
        except ForkError as exc:
            self.log.warning("Starting a kernel without the template: %s", exc)
            return await super().launch_kernel(cmd, **kwargs)
        self.process = ForkedKernel(pid)
        self.pid = self.pgid = pid  # a session of its own, made before the template answered
        self.cwd = kwargs.get("cwd", Path.cwd())
        return self.connection_info


def _connection_file(cmd: list[str]) -> str | None:
    """The connection file in a kernel's command (``... -f FILE``), if it is ipykernel's."""
    if not any(KERNEL_MODULE in part or "ipykernel" in part for part in cmd):
        return None
    with contextlib.suppress(ValueError, IndexError):
        return cmd[cmd.index("-f") + 1]
    return None


class ForkingKernelManager(ServerKernelManager):  # type: ignore[misc]
    """Jupyter Server's kernel manager, whose kernels are forked from the template of the
    multi-kernel manager that made it (its ``kernel_template``, for the kernel names in its
    ``template_kernel_names``); any other kernel is started the usual way."""

    @property
    def template(self) -> KernelTemplate | None:
        """The template this kernel is forked from (None: started the usual way)."""
        template = getattr(self.parent, "kernel_template", None)
        names = getattr(self.parent, "template_kernel_names", ())
        return template if self.kernel_name in names else None

    async def _async_pre_start_kernel(self, **kw: Any) -> Any:
        if self.provisioner is None and self.template is not None:
            self.provisioner = ForkProvisioner(
                kernel_id=self.kernel_id or kw.get("kernel_id", ""),
                kernel_spec=self.kernel_spec,
                parent=self,
            )
        return await super()._async_pre_start_kernel(**kw)


class Niceness:
    """A ``preexec_fn`` that lowers a started kernel's priority by ``increment``; a forked
    kernel gets the same from the template."""

    def __init__(self, increment: int) -> None:
        self.increment = increment

    def __call__(self) -> None:
        if self.increment:
            os.nice(self.increment)
