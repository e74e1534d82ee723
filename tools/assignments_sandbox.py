"""Autograding that one submission cannot turn against another: nbgrader's executor, boxed.

``tools/assignments.py`` copies this file into the course folder (``ttr_course_grading.py``)
and the course's ``nbgrader_config.py`` calls :func:`configure`. ``nbgrader autograde`` then
runs each submitted notebook in a kernel started under bubblewrap (``bwrap``, the sandbox
Flatpak uses; Debian's package ``bubblewrap``), as the grader's own user, where the
submission's code

* sees the machine read-only, and sees empty folders instead of the course (the gradebook, the
  hidden tests, the other submissions), the exchange, the home folders and ``/tmp``; its own
  notebook's folder stays visible, read-only;
* writes only to a private ``/tmp`` of ``tmp_mb`` MiB, which vanishes with the kernel;
* has no network, sees no other process (a PID namespace of its own), gets none of the
  grader's environment variables (no JupyterHub token), and dies with its grader;
* runs each cell for at most ``Execute.timeout`` seconds and the whole notebook for at most
  ``notebook_timeout``; a kernel that still does not answer after a timeout, or that died, is
  replaced, and the cells after it run in the new kernel; once the notebook's time is spent,
  the cells left are marked as not run (a graded cell marked so scores 0);
* prints at most ``max_output_chars`` characters per cell (the rest is cut and said so).

nbgrader's own rules still hold: a graded cell that ends in an error scores 0, one that
finishes scores its points. Without bubblewrap, :func:`configure` refuses to grade unless
the course says ``sandbox = False`` (a teacher grading only trusted notebooks).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterable
from typing import Any

from jupyter_client.manager import AsyncKernelManager
from jupyter_core.utils import run_sync
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbformat import NotebookNode
from nbgrader.preprocessors import Execute
from traitlets import Bool, Integer, List, Unicode

# Folders a submission never sees (besides the course and the exchange): where people and
# services keep their files. /tmp is replaced by a private one.
HIDDEN = ("/home", "/root", "/srv", "/mnt", "/media", "/var/tmp", "/run/user")
# Environment variables a kernel keeps (everything else, tokens included, is dropped).
KEPT_ENV = ("PATH", "LANG", "LC_ALL", "PYTHONPATH", "VIRTUAL_ENV", "TZ")
KEPT_ENV_PREFIXES = ("NBGRADER_", "MPL")


def _error(ename: str, evalue: str) -> NotebookNode:
    return NotebookNode(
        output_type="error", ename=ename, evalue=evalue, traceback=[f"{ename}: {evalue}"]
    )


def _existing(paths: Iterable[str]) -> list[str]:
    seen: list[str] = []
    for path in paths:
        real = os.path.realpath(path) if path else ""
        if real and os.path.exists(real) and real not in seen:
            seen.append(real)
    return seen


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def python_paths() -> list[str]:
    """The folders this Python needs to run the lessons: its prefixes, ``sys.path`` and the
    folders of packages installed in development mode (``pip install -e``)."""
    paths = [sys.prefix, sys.base_prefix, sys.exec_prefix, *sys.path]
    for name in ("ttr_nb",):  # an editable install's code lives outside sys.path
        spec = __import__("importlib.util").util.find_spec(name)
        if spec and spec.origin:
            paths.append(os.path.dirname(os.path.dirname(spec.origin)))
    return _existing(paths)


def sandbox_command(
    cmd: list[str],
    *,
    cwd: str,
    private: str,
    connection_file: str,
    readable: Iterable[str],
    hidden: Iterable[str],
    tmp_mb: int,
    env: dict[str, str],
) -> list[str]:
    """The ``bwrap`` command line that runs ``cmd`` (a kernel) boxed.

    Mounts are applied in order: the machine read-only, a private /tmp, empty folders over
    `hidden` and the places people keep files, `readable` back on top (the Python the kernel
    runs; not what lies inside `hidden`), then empty folders again over `hidden` (a course
    folder inside a readable one stays hidden), then the kernel's own folder (read-only), its
    private sockets folder and connection file; last, the empty folders become read-only.
    """
    args = [
        "bwrap",
        "--unshare-user",
        "--unshare-ipc",
        "--unshare-pid",
        "--unshare-net",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--ro-bind",
        "/",
        "/",
        "--dev",
        "/dev",
        "--proc",
        "/proc",
    ]
    hidden = _existing(hidden)
    args += ["--size", str(tmp_mb * 2**20), "--tmpfs", "/tmp"]
    for path in _existing(HIDDEN) + hidden:
        args += ["--tmpfs", path]
    for path in _existing(readable):
        if not any(_inside(path, h) for h in hidden):
            args += ["--ro-bind", path, path]
    for path in hidden:
        args += ["--tmpfs", path]
    args += ["--ro-bind", cwd, cwd, "--bind", private, private]
    args += ["--ro-bind", connection_file, connection_file]
    for path in _existing(HIDDEN) + hidden:  # empty and read-only: nothing is written there
        args += ["--remount-ro", path]
    args += ["--chdir", cwd, "--clearenv"]
    for key, value in sorted(env.items()):
        if key in KEPT_ENV or key.startswith(KEPT_ENV_PREFIXES):
            args += ["--setenv", key, value]
    args += ["--setenv", "HOME", "/tmp", "--setenv", "TMPDIR", "/tmp", "--", *cmd]
    return args


class SandboxedKernelManager(AsyncKernelManager):
    """A kernel manager whose kernels run under bubblewrap (see the module's docstring).

    The kernel talks to its grader over Unix sockets in a private folder (the sandbox has
    no network, not even the loopback of the grader), and is interrupted by a message on
    its control channel (a signal would stop the sandbox itself).
    """

    hidden = List(Unicode(), help="Folders the kernel must not see (the course, the exchange).")
    readable = List(Unicode(), help="Folders it must see even inside hidden ones.").tag(config=True)
    tmp_mb = Integer(64, help="Size of the kernel's private /tmp, in MiB.").tag(config=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._private = tempfile.mkdtemp(prefix="ttr-grading-")
        self.transport = "ipc"
        self.ip = os.path.join(self._private, "kernel")

    def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
        cmd = super().format_kernel_cmd(extra_arguments)
        assert self.kernel_spec is not None
        self.kernel_spec.interrupt_mode = "message"
        launch = self._launch_args or {}
        return sandbox_command(
            cmd,
            cwd=os.path.realpath(launch.get("cwd") or os.getcwd()),
            private=self._private,
            connection_file=os.path.realpath(self.connection_file),
            readable=[*python_paths(), *self.readable],
            hidden=[*self.hidden, *_config_hidden(self.config)],
            tmp_mb=self.tmp_mb,
            env=dict(launch.get("env") or os.environ),
        )

    async def _async_cleanup_resources(self, restart: bool = False) -> None:
        await super()._async_cleanup_resources(restart=restart)
        if not restart:
            shutil.rmtree(self._private, ignore_errors=True)

    cleanup_resources = _async_cleanup_resources  # type: ignore[assignment]


def _config_hidden(config: Any) -> list[str]:
    """The course folder and the exchange, as nbgrader's own settings name them."""
    found = []
    for section, key in (("CourseDirectory", "root"), ("Exchange", "root")):
        value = config.get(section, {}).get(key) if section in config else None
        if isinstance(value, str) and value:
            found.append(value)
    return found


class SandboxedExecute(Execute):
    """nbgrader's executor with the sandbox, a time limit per notebook and per-cell output cap.

    A cell that times out is interrupted; if its kernel then does not answer within
    ``recover_timeout`` seconds (a loop that ignores interrupts), or if the kernel dies, the
    kernel is replaced and grading goes on with the next cell.
    """

    sandbox = Bool(True, help="Run kernels under bubblewrap (False: no protection).").tag(
        config=True
    )
    notebook_timeout = Integer(
        600, help="Seconds for a whole notebook; the cells left after it are not run."
    ).tag(config=True)
    recover_timeout = Integer(
        5, help="Seconds a kernel has to answer again after a cell was interrupted."
    ).tag(config=True)
    max_output_chars = Integer(
        100_000, help="Characters of printed output kept per cell (-1: no limit)."
    ).tag(config=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if self.sandbox:
            if shutil.which("bwrap") is None:
                raise RuntimeError(
                    "autograding needs bubblewrap (bwrap): install it (Debian: apt-get install "
                    "bubblewrap), or set c.SandboxedExecute.sandbox = False to grade without "
                    "protection from the submissions' code"
                )
            self.kernel_manager_class = SandboxedKernelManager

    def preprocess(self, nb: NotebookNode, resources: Any = None, km: Any = None) -> Any:
        self._deadline = time.monotonic() + self.notebook_timeout
        self._ran: list[str] = []  # the cells that finished, to run again in a new kernel
        return super().preprocess(nb, resources, km)

    def preprocess_cell(self, cell: NotebookNode, resources: Any, index: int) -> Any:
        if cell.cell_type != "code" or not cell.source.strip():
            return cell, resources
        if time.monotonic() > self._deadline:
            cell.outputs = [
                _error("NotRun", f"not run: the notebook used its {self.notebook_timeout} s")
            ]
            return cell, resources
        self._printed = 0
        try:
            cell, resources = super().preprocess_cell(cell, resources, index)
        except DeadKernelError:
            cell.outputs.append(_error("DeadKernelError", "the kernel died in this cell"))
            self._replace_kernel()
            return cell, resources
        except CellTimeoutError:  # no answer even to the interrupt: a loop that ignores it
            cell.outputs.append(_error("CellTimeoutError", f"stopped after {self.timeout} s"))
            self._replace_kernel()
            return cell, resources
        if not any(o.get("ename") == "CellTimeoutError" for o in cell.outputs):
            if not cell.metadata.get("nbgrader", {}).get("grade"):
                self._ran.append(cell.source)
        elif not self._answers():
            self._replace_kernel()
        return cell, resources

    def _reply(self, msg_id: str, timeout: float) -> bool:
        """Whether the reply to `msg_id` comes within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                wait = max(0.1, deadline - time.monotonic())
                reply = run_sync(self.kc.get_shell_msg)(timeout=wait)
                if reply["parent_header"].get("msg_id") == msg_id:
                    return True
        except Exception:  # Empty, or a dead channel: no reply
            return False
        return False

    def _answers(self) -> bool:
        """Whether the kernel answers a kernel_info request within recover_timeout s."""
        return self._reply(self.kc.kernel_info(), self.recover_timeout)

    def _replace_kernel(self) -> None:
        """Start a new kernel and run again, quietly, the cells that had finished (not the
        graded ones), so that one exercise's loop or crash costs only that exercise."""
        self.log.warning("Replacing the kernel: it died or does not answer")
        run_sync(self.km.restart_kernel)(now=True)
        if not self._reply(self.kc.kernel_info(), self.startup_timeout):
            return
        for source in self._ran:
            left = self._deadline - time.monotonic()
            msg_id = self.kc.execute(source, silent=True, store_history=False)
            if left <= 0 or not self._reply(msg_id, min(left, self.timeout or left)):
                self.log.warning("Could not run the earlier cells again in the new kernel")
                return

    def output(self, outs: list, msg: dict, display_id: Any, cell_index: int) -> Any:
        if msg["msg_type"] == "stream" and self.max_output_chars >= 0:
            text = msg["content"].get("text", "")
            left = self.max_output_chars - self._printed
            self._printed += len(text)
            if left <= 0:
                return None
            if len(text) > left:
                msg["content"]["text"] = (
                    text[:left] + f"\n... output cut: more than {self.max_output_chars} "
                    "characters in this cell\n"
                )
        return super().output(outs, msg, display_id, cell_index)


def configure(c: Any, course_root: str) -> None:
    """Grade with :class:`SandboxedExecute` in place of nbgrader's ``Execute``."""
    from nbgrader.converters import Autograde

    c.CourseDirectory.root = course_root
    c.Autograde.autograde_preprocessors = [
        SandboxedExecute if pp is Execute else pp
        for pp in Autograde.class_traits()["autograde_preprocessors"].default()
    ]
