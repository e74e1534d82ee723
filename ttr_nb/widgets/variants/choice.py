"""A panel that offers one kind of choice: an explanation, the legal choices, one button.

Shared by the variants' own panels (World's harbors and exchanges, Märklin's
journeys): each subclass fills the explanation and the choices from a
:class:`~.base.Shown` and acts through the app, so every choice is a legal
action and a refusal shows its rule beside the panel.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from ..controls import Note, button, offer_choices, picker

if TYPE_CHECKING:
    from ..app import GameApp


class ChoicePanel:
    """An explanation, a list of the legal choices, a button that acts on the one chosen,
    a line under them (why nothing can be chosen now), and a note for the answer."""

    def __init__(
        self,
        app: GameApp,
        label: str,
        picker_class: str,
        action: str,
        button_class: str,
        panel_classes: list[str],
    ) -> None:
        self.app = app
        self.info = widgets.HTML()
        self.picker = picker(label, picker_class)
        self.button = button(action, button_class)
        self.button.on_click(app.guard(lambda _b: self._act()))
        self.why_html = widgets.HTML(_dom_classes=[f"{button_class}-why"])
        self.note = Note(f"{button_class}-note")
        # Where the app's question (which cards?) opens: under the button that asked it.
        self.ask_here = widgets.VBox(_dom_classes=["ttr-ask-here"])
        self.widget = widgets.VBox(
            [
                self.info,
                widgets.HBox(
                    [self.picker, self.button], layout=widgets.Layout(flex_flow="row wrap")
                ),
                self.ask_here,
                self.why_html,
                self.note.widget,
            ],
            _dom_classes=panel_classes,
        )

    def offer(self, options: list[tuple[str, Any]], can: bool, why: str) -> None:
        """Show these choices; with none (or ``can`` false) the controls are off, saying why."""
        offer_choices(self.picker, options)
        self.picker.disabled = self.button.disabled = not can
        self.why_html.value = "" if can else f"<div class='ttr-note'>{html.escape(why)}</div>"

    def _act(self) -> None:
        choice = self.picker.value
        if choice is None:
            self.note.show("There is nothing to choose now.", bad=True)
            return
        self.act(choice)

    def act(self, choice: Any) -> None:
        """Play ``choice`` (refusals are shown in the panel's note)."""
        self.app.act(choice, self.note)
