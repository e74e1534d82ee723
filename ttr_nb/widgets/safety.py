"""Catch every widget-callback error: a short message for the visitor, details for the server log.

Under Voilà an exception raised in a widget callback is shown nowhere (not on
the page, not in the server log), so every callback goes through
:class:`CallbackGuard`. The visitor sees a short sentence with an error number;
the traceback, which names server paths, goes to the server's log only (the
kernel's standard error, which Voilà's log shows), under the same number.

A forged message from the page can also fail *before* any callback of ours runs: a widget
value the widget refuses (a dropdown index out of range), a message missing its fields, a
``comm_open`` for a widget that cannot be built. ipywidgets answers those with the kernel's
``showtraceback``, which publishes the whole traceback, server paths and all, on the
kernel's iopub channel, which the page's websocket carries; the ``comm`` package logs its
own to standard error, which ipykernel also forwards to the page.
:func:`keep_page_message_errors_in_server_log` closes that for every widget at once: it
wraps the kernel's handlers of the only messages a Voilà page may send its kernel
(``comm_open``, ``comm_msg``, ``comm_close``), and while one runs, a traceback or anything
written to standard error goes to the server's log instead of the page. The public app
installs it (a :class:`CallbackGuard` that hides details from the page does).
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import inspect
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
    ``output``, an ``Output`` widget to display; the public app leaves it off, and
    then the kernel's errors in the page's messages go to the server log too
    (:func:`keep_page_message_errors_in_server_log`).
    """

    def __init__(self, show_details: bool = True) -> None:
        if not show_details:  # the public app: the kernel's own tracebacks stay hidden too
            keep_page_message_errors_in_server_log()
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


# ------------------------------------------------ errors met in a message from the page
# What a Voilà page may send its kernel, but for the info and shutdown requests.
PAGE_MESSAGES = ("comm_open", "comm_msg", "comm_close")

_from_page: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "ttr_from_page", default=None
)


def keep_page_message_errors_in_server_log() -> bool:
    """In this kernel, an error met while handling a message from the page goes to the
    server's log, never to the page (see the module). Idempotent; False outside a kernel."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return False
    shell = get_ipython()
    kernel = getattr(shell, "kernel", None)
    handlers = getattr(kernel, "shell_handlers", None)
    if not isinstance(handlers, dict):
        return False
    if getattr(kernel, "_ttr_page_errors_logged", False):
        return True
    shell.showtraceback = _logged_when_from_page(shell.showtraceback)
    for kind in PAGE_MESSAGES:
        if kind in handlers:
            handlers[kind] = _from_the_page(kind, handlers[kind])
    for name in ("Comm", "ipykernel.comm"):  # the comm managers' own error lines
        comm_log = logging.getLogger(name)
        comm_log.addHandler(logging.StreamHandler(_server_log()))
        comm_log.propagate = False
    kernel._ttr_page_errors_logged = True
    return True


def _describe(message: Any) -> str:
    """Which message it was (its type and widget), never its content (a forger's)."""
    if not isinstance(message, dict):
        return "a message"
    header = message.get("header") if isinstance(message.get("header"), dict) else {}
    content = message.get("content") if isinstance(message.get("content"), dict) else {}
    return f"{str(header.get('msg_type'))[:20]} for comm {str(content.get('comm_id'))[:40]}"


FULL_PAGE_ERRORS = 20  # a forger can send thousands: the log keeps a line for the rest
_page_errors = itertools.count(1)


def _log_page_error(exc: BaseException | None, what: str) -> None:
    number = next(_page_errors)
    if number > FULL_PAGE_ERRORS:
        said = f"{type(exc).__name__}: {exc}" if exc is not None else "an error"
        log.error(
            "error in %s from the page (nothing was sent to it): %.200s (%d such errors in "
            "this kernel; the tracebacks of the first %d were logged)",
            what,
            said,
            number,
            FULL_PAGE_ERRORS,
        )
        return
    text = "".join(traceback.format_exception(exc)) if exc is not None else traceback.format_exc()
    log.error("error in %s from the page (nothing was sent to it):\n%s", what, text)


def _logged_when_from_page(show: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(show)
    def showtraceback(exc_tuple: Any = None, *args: Any, **kwargs: Any) -> Any:
        what = _from_page.get()
        if what is None:
            return show(exc_tuple, *args, **kwargs)
        exc = exc_tuple[1] if isinstance(exc_tuple, tuple) and len(exc_tuple) == 3 else None
        _log_page_error(exc if isinstance(exc, BaseException) else sys.exc_info()[1], what)
        return None

    return showtraceback


def _from_the_page(kind: str, handler: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(handler)
    def handle(stream: Any, ident: Any, message: Any) -> Any:
        what = _describe(message)
        token = _from_page.set(what)
        try:
            with contextlib.redirect_stderr(_server_log()):
                result = handler(stream, ident, message)
        except Exception as exc:  # the kernel would log it where the page reads it
            _log_page_error(exc, what)
            return None
        finally:
            _from_page.reset(token)
        if inspect.isawaitable(result):
            return _finish(result, what)
        return result

    return handle


async def _finish(result: Any, what: str) -> Any:
    token = _from_page.set(what)
    try:
        with contextlib.redirect_stderr(_server_log()):
            return await result
    except Exception as exc:
        _log_page_error(exc, what)
        return None
    finally:
        _from_page.reset(token)


@functools.cache
def _server_log() -> Any:
    return server_log_stream()
