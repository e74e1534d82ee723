"""Catch every widget-callback error: a short message for the visitor, details for the server log.

Under Voilà an exception raised in a widget callback is shown nowhere (not on
the page, not in the server log), so every callback goes through
:class:`CallbackGuard`. The visitor sees a short sentence with an error number;
the traceback, which names server paths, goes to the server's log only (the
kernel's standard error, which Voilà's log shows), under the same number.
"""

from __future__ import annotations

import contextlib
import functools
import io
import itertools
import logging
import sys
import traceback
from collections.abc import Callable
from typing import Any, TypeVar

import ipywidgets as widgets

F = TypeVar("F", bound=Callable[..., Any])

log = logging.getLogger("ttr_nb.app")


def server_log_stream() -> Any:
    """Where the kernel's log lines reach the server's log and never the page.

    ipykernel sends whatever is written to ``sys.stderr`` to the page, and by default it also
    sends what is written to file descriptor 2 (``sys.__stderr__`` included): it points that
    descriptor at a pipe it forwards to the page *and* to a copy of the original descriptor.
    The copy is the server's log; outside a kernel (a script, the static site) it is
    ``sys.__stderr__``.
    """
    original = getattr(sys.stderr, "_original_stdstream_copy", None)
    if isinstance(original, int):
        return io.TextIOWrapper(
            io.FileIO(original, "w", closefd=False), line_buffering=True, errors="replace"
        )
    return sys.__stderr__


def send_logs_to_server_log() -> None:
    """Every ``ttr_nb`` module's log records go to the server's log only (once per kernel)."""
    package = logging.getLogger("ttr_nb")
    if any(getattr(h, "ttr_server_log", False) for h in package.handlers):
        return
    handler = logging.StreamHandler(server_log_stream())
    handler.ttr_server_log = True  # type: ignore[attr-defined]
    handler.setFormatter(logging.Formatter("ttr-nb %(levelname)s %(name)s: %(message)s"))
    package.addHandler(handler)
    package.setLevel(logging.INFO)
    package.propagate = False  # nothing reaches the root logger, nor Python's last resort


send_logs_to_server_log()

_numbers = itertools.count(1)


class CallbackGuard:
    """Wraps callbacks so that an exception is reported instead of vanishing.

    ``guard(fn)`` returns a wrapper. ``errors`` keeps the tracebacks;
    ``listeners`` get the short message. With ``show_details`` (lessons, where
    the reader is the notebook's own user) the traceback also goes to
    ``output``, an ``Output`` widget to display; the public app leaves it off.
    """

    def __init__(self, show_details: bool = True) -> None:
        self.errors: list[str] = []
        self.listeners: list[Callable[[str], None]] = []
        self.show_details = show_details
        self.output = widgets.Output(_dom_classes=["ttr-errors"])

    def __call__(self, fn: F) -> F:
        @functools.wraps(fn)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except Exception as exc:  # the point is to catch everything
                self.report(exc)
                return None

        return guarded  # type: ignore[return-value]

    def report(self, exc: BaseException) -> str:
        """Log ``exc`` with its traceback; tell the listeners a short, path-free message."""
        number = next(_numbers)
        text = "".join(traceback.format_exception(exc))
        self.errors.append(text)
        if self.show_details:
            self.output.append_stderr(text)
        log.error("error %d in a widget callback:\n%s", number, text)
        summary = (
            f"Something went wrong inside the app (error {number}); it has been logged. "
            "Your game is still here: try again, or save it and reload the page."
        )
        for listener in self.listeners:
            with contextlib.suppress(Exception):  # a broken listener must not hide the error
                listener(summary)
        return summary

    def clear(self) -> None:
        """Forget the errors shown so far."""
        self.errors.clear()
        self.output.clear_output()
