"""Catch every widget-callback error and show it on the page.

Under Voilà an exception raised in a widget callback is shown nowhere (not on
the page, not in the server log), so every callback goes through
:class:`CallbackGuard`: the error lands in a visible ``Output`` area and in the
status line, and the app keeps working.
"""

from __future__ import annotations

import contextlib
import functools
import traceback
from collections.abc import Callable
from typing import Any, TypeVar

import ipywidgets as widgets

F = TypeVar("F", bound=Callable[..., Any])


class CallbackGuard:
    """Wraps callbacks so that an exception is reported on the page instead of vanishing.

    ``guard(fn)`` returns a wrapper; ``errors`` counts what was caught and
    ``output`` (an ``Output`` widget with class ``ttr-errors``) shows the
    tracebacks for whoever wants the details.
    """

    def __init__(self) -> None:
        self.output = widgets.Output(_dom_classes=["ttr-errors"])
        self.errors: list[str] = []
        self.listeners: list[Callable[[str], None]] = []

    def __call__(self, fn: F) -> F:
        @functools.wraps(fn)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except Exception as exc:  # the point is to catch everything
                self.report(exc)
                return None

        return guarded  # type: ignore[return-value]

    def report(self, exc: BaseException) -> None:
        """Show ``exc`` in the output area and tell the listeners (the status line)."""
        text = "".join(traceback.format_exception(exc))
        self.errors.append(text)
        self.output.append_stderr(text)
        summary = f"Something went wrong inside the app: {type(exc).__name__}: {exc}"
        for listener in self.listeners:
            with contextlib.suppress(Exception):  # a broken listener must not hide the error
                listener(summary)

    def clear(self) -> None:
        self.errors.clear()
        self.output.clear_output()
