"""Small building blocks shared by the app's panels: buttons, message lines, a choice prompt.

A :class:`Note` sits next to the controls it speaks for, so a refusal or an
error appears where the learner acted (and in the status line too).
A :class:`Prompt` asks one question with a few answers; the app uses it when one
click could mean several legal actions (which passenger to take, which deck
refills a slot) and before anything that would discard a game in progress.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets


def button(label: str, cls: str, tooltip: str = "", width: str = "auto") -> widgets.Button:
    """A text button (no icon: Voilà's icon font may be out of reach offline)."""
    return widgets.Button(
        description=label,
        tooltip=tooltip or label,
        _dom_classes=[cls],
        layout=widgets.Layout(width=width, min_width="fit-content"),
    )


def browser_timer(interval_ms: int, cls: str, on_tick: Callable[[], None]) -> widgets.Play:
    """A hidden timer in the page: while ``playing``, every ``interval_ms`` it calls
    ``on_tick`` in the kernel (Voilà's kernel acts only when the page sends it something).
    It stops by itself when the page closes."""
    timer = widgets.Play(
        value=0,
        min=0,
        max=10**9,
        step=1,
        interval=interval_ms,
        layout=widgets.Layout(display="none"),
        _dom_classes=[cls],
    )
    timer.observe(lambda _change: on_tick(), names="value")
    return timer


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``1 move``, ``2 moves``, ``1 point``, ``0 points``.

    >>> count(1, "point"), count(3, "point"), count(2, "ferry", "ferries")
    ('1 point', '3 points', '2 ferries')
    """
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def picker(description: str, cls: str, **options: Any) -> widgets.Dropdown:
    """An empty dropdown of choices that fits (and wraps in) a narrow column."""
    return widgets.Dropdown(
        description=description,
        options=[],
        layout=widgets.Layout(width="auto", max_width="100%"),
        _dom_classes=[cls],
        **options,
    )


def offer_choices(picker: widgets.Dropdown, options: Sequence[tuple[str, Any]]) -> None:
    """Set a dropdown's options, keeping its choice if still offered, else the first one.

    (ipywidgets leaves the value empty when a dropdown gets options after having none.)
    """
    options = list(options)
    if list(picker.options) == options:
        return
    values = [value for _, value in options]
    keep = picker.value
    picker.options = options
    if values:
        picker.value = keep if keep in values else values[0]


class Note:
    """A one-line message area beside a group of controls."""

    def __init__(self, cls: str) -> None:
        self.widget = widgets.HTML(_dom_classes=["ttr-note-line", cls])

    def show(self, message: str, bad: bool = False) -> None:
        """Say ``message`` (``bad``: as a refusal, in red)."""
        kind = "ttr-bad-note" if bad else "ttr-good-note"
        self.widget.value = f"<div class='{kind}'>{html.escape(message)}</div>" if message else ""

    def clear(self) -> None:
        """Say nothing."""
        self.widget.value = ""

    @property
    def text(self) -> str:
        """What the note says now, as plain text."""
        return html.unescape(
            self.widget.value.split(">", 1)[-1].rsplit("<", 1)[0] if self.widget.value else ""
        )


class Prompt:
    """One question with labelled answers, shown until answered or cancelled.

    ``ask(question, options, on_answer)``: ``options`` are ``(label, value)`` pairs;
    the chosen value goes to ``on_answer``. Only one question is open at a time. It opens
    in its own place (``slot``, at the top of the play column) or, given ``near``, in that
    box: beside the button whose click asked it, where the learner is looking.
    """

    def __init__(self, guard: Callable[[Callable[..., Any]], Callable[..., Any]]) -> None:
        self.question = widgets.HTML(_dom_classes=["ttr-prompt-question"])
        self.choices = widgets.RadioButtons(
            options=[], layout=widgets.Layout(width="auto"), _dom_classes=["ttr-prompt-choices"]
        )
        self.ok_button = button("OK", "ttr-prompt-ok")
        self.ok_button.style.button_color = "#cfe8cf"
        self.cancel_button = button("Cancel", "ttr-prompt-cancel")
        self.ok_button.on_click(guard(lambda _b: self._answer()))
        self.cancel_button.on_click(guard(lambda _b: self.close()))
        self.widget = widgets.VBox(
            [self.question, self.choices, widgets.HBox([self.ok_button, self.cancel_button])],
            _dom_classes=["ttr-panel", "ttr-prompt"],
            layout=widgets.Layout(display="none"),
        )
        self.slot = widgets.VBox([self.widget], _dom_classes=["ttr-prompt-slot"])
        self._at: widgets.Box = self.slot  # the box the question is in now
        self._on_answer: Callable[[Any], None] | None = None
        self._values: list[Any] = []
        self.on_open: list[Callable[[], None]] = []  # the app brings the question into view

    @property
    def is_open(self) -> bool:
        """Whether a question is waiting for its answer."""
        return self._on_answer is not None

    def ask(
        self,
        question: str,
        options: Sequence[tuple[str, Any]],
        on_answer: Callable[[Any], None],
        ok_label: str = "OK",
        cancel_label: str = "Cancel",
        near: widgets.Box | None = None,
    ) -> None:
        """Ask ``question`` with ``options`` (label, value); ``on_answer(value)`` gets the
        answer. ``near``: an empty box beside the button that asks (else its own slot)."""
        self._move_to(near if near is not None else self.slot)
        self.question.value = f"<b>{html.escape(question)}</b>"
        self._values = [value for _, value in options]
        self.choices.options = [(label, i) for i, (label, _) in enumerate(options)]
        self.choices.value = 0 if options else None
        self.choices.layout.display = "" if len(options) > 1 else "none"
        self.ok_button.description = ok_label
        self.cancel_button.description = cancel_label
        self._on_answer = on_answer
        self.widget.layout.display = ""
        for callback in self.on_open:
            callback()

    def choose(self, index: int) -> None:
        """Pick answer ``index`` and confirm it (what the OK button does)."""
        self.choices.value = index
        self._answer()

    def close(self) -> None:
        """Close the question unanswered."""
        self._on_answer = None
        self._values = []
        self.widget.layout.display = "none"
        self._move_to(self.slot)

    def _move_to(self, box: widgets.Box) -> None:
        """Show the question in ``box`` (out of the one it was in: one view, one place)."""
        if box is self._at:
            return
        self._at.children = ()
        box.children = (self.widget,)
        self._at = box

    def _answer(self) -> None:
        callback, index = self._on_answer, self.choices.value
        if callback is None or index is None:
            return
        value = self._values[index]
        self.close()
        callback(value)
