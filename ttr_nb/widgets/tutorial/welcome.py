"""The first screen: what did the visitor come for? *Learn to play*, *Play against bots* or
*Play with others*, with the map chosen there.

It stands in place of the board until the visitor chooses; a visitor with a game in
progress in this browser goes straight back to it (the app's resume question), and one
half-way through the tutorial comes back to the same step. It needs no board and no game:
the app builds those when the visitor leaves it (:meth:`GameApp.build_game
<ttr_nb.widgets.app.GameApp.build_game>`), so that a class arriving at once costs the
server little.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import ipywidgets as widgets

from ...maps import load_map
from ...rules import playable_maps
from ..controls import button
from .model import tutorial_maps

if TYPE_CHECKING:
    from ..app import GameApp

AWAY_CLASS = "ttr-away"  # hidden while the first screen shows (the layout's own !important
# display rules would win over an inline display: none)

WELCOME_CSS = """
<style>
.ttr-app .ttr-away, .ttr-app .ttr-main.ttr-away, .ttr-app.ttr-tall-board .ttr-main.ttr-away {
  display: none !important; }
.ttr-first-screen { max-width: 980px; margin: 10px 0; }
.ttr-first-screen h2 { margin: 4px 0 10px 0; }
.ttr-first-choices { display: flex; flex-wrap: wrap; gap: 12px; margin: 10px 0; }
.ttr-first-choice { flex: 1 1 260px; border: 1px solid #ddd3bd; border-radius: 8px;
  padding: 10px; background: #fffdf7; }
.ttr-first-choice .widget-button { width: 100% !important; font-size: 17px; min-height: 44px;
  font-weight: bold; }
.ttr-first-choice .ttr-note { margin-top: 6px; }
</style>
"""


class FirstScreen:
    """The first screen (``app.first_screen``); :meth:`show` puts it in place of the game."""

    def __init__(self, app: GameApp) -> None:
        self.app = app
        guard = app.guard
        self.showing = False
        maps = list(playable_maps())
        self.map_picker = widgets.Dropdown(
            description="Map:",
            options=[(load_map(m).name, m) for m in maps],
            value="usa" if "usa" in maps else maps[0],
            layout=widgets.Layout(width="340px", max_width="100%"),
            _dom_classes=["ttr-first-map"],
        )
        self.learn_button = button("Learn to play", "ttr-first-learn")
        self.learn_button.style.button_color = "#ffe0b3"
        self.bots_button = button("Play against bots", "ttr-first-bots")
        self.bots_button.style.button_color = "#cfe8cf"
        self.others_button = button("Play with others", "ttr-first-others")
        self.others_button.style.button_color = "#d6e4f5"
        self.learn_note = widgets.HTML(_dom_classes=["ttr-first-learn-note"])
        self.learn_button.on_click(guard(lambda _b: self.learn()))
        self.bots_button.on_click(guard(lambda _b: self.against_bots()))
        self.others_button.on_click(guard(lambda _b: self.with_others()))
        self.map_picker.observe(guard(lambda _c: self._map_changed()), names="value")

        def choice(control: widgets.Button, note: widgets.HTML) -> widgets.VBox:
            return widgets.VBox([control, note], _dom_classes=["ttr-first-choice"])

        self.widget = widgets.VBox(
            [
                widgets.HTML(WELCOME_CSS),
                widgets.HTML("<h2>What would you like to do?</h2>"),
                self.map_picker,
                widgets.Box(
                    [
                        choice(self.learn_button, self.learn_note),
                        choice(
                            self.bots_button,
                            widgets.HTML(
                                "<div class='ttr-note'>A game of your own against computer "
                                "players. The coach gives hints when you ask; New game sets the "
                                "players and their strength.</div>"
                            ),
                        ),
                        choice(
                            self.others_button,
                            widgets.HTML(
                                "<div class='ttr-note'>A table shared with friends or a class, "
                                "each on their own device: open one, or join one with its "
                                "code.</div>"
                            ),
                        ),
                    ],
                    _dom_classes=["ttr-first-choices"],
                ),
            ],
            _dom_classes=["ttr-panel", "ttr-first-screen"],
            layout=widgets.Layout(display="none"),
        )
        self._map_changed()

    def watch(self, *panels: widgets.Accordion) -> None:
        """Opening one of these folded panels (New game, Play with others) is a choice
        too: the game comes back."""
        for panel in panels:
            panel.observe(self.app.guard(self._panel_opened), names="selected_index")

    @property
    def map_id(self) -> str:
        """The map chosen on the first screen."""
        return str(self.map_picker.value)

    # ------------------------------------------------------------------ showing
    def show(self) -> None:
        """Put the first screen in place of the game."""
        self.showing = True
        self.widget.layout.display = ""
        self.app.widget.remove_class("ttr-tall-board")  # its grid is made for a board
        for part in self.parts():
            part.add_class(AWAY_CLASS)
        self.app.say("Welcome: choose what you came for, and a map.")

    def close(self) -> None:
        """Bring the game back (a choice was made, or a game resumes); its board and panels
        are built now if they were not."""
        if not self.showing:
            return
        self.app.build_game()  # behind the first screen, as if it had been there all along
        self.showing = False
        self.widget.layout.display = "none"
        for part in self.parts():
            part.remove_class(AWAY_CLASS)
        if self.app.board.size[0] < self.app.board.size[1]:
            self.app.widget.add_class("ttr-tall-board")

    def parts(self) -> list[widgets.Widget]:
        """What the first screen hides: the board, its key and the panels under it (none
        before the game is built)."""
        app = self.app
        return [app.main, app.key_html, app.extras] if app.game_built else []

    # ------------------------------------------------------------------ choices
    def learn(self) -> None:
        """*Learn to play*: the chosen map's tutorial."""
        if self.map_id not in tutorial_maps():
            self.app.say(f"There is no tutorial for the {load_map(self.map_id).name} map yet.")
            return
        self.app.start_tutorial(self.map_id)

    def against_bots(self) -> None:
        """*Play against bots*: a game on the chosen map, with the seats of New game."""
        self.app.build_game(self.map_id)  # (if not built yet: its board on this map)
        self.app.setup.map_picker.value = self.map_id
        self.close()
        self.app.start()

    def with_others(self) -> None:
        """*Play with others*: the shared tables' forms, open, with the chosen map."""
        self.close()
        tables = self.app.tables
        tables.forms_box.selected_index = 0  # builds its forms
        picker = getattr(tables, "map_picker", None)
        if picker is not None and self.map_id in [v for _, v in picker.options]:
            picker.value = self.map_id
        self.app.scroller.show(".ttr-tables")

    def _map_changed(self) -> None:
        name = load_map(self.map_id).name
        if self.map_id in tutorial_maps():
            self.learn_button.disabled = False
            text = (
                f"A guided first game on the {name} map: each step shows one rule on the "
                "board, you make the move, and Show me plays it for you."
            )
        else:
            self.learn_button.disabled = True
            text = f"No tutorial for the {name} map yet: choose another map to learn."
        self.learn_note.value = f"<div class='ttr-note'>{html.escape(text)}</div>"

    def _panel_opened(self, change: dict) -> None:
        if change.get("new") is not None:
            self.close()
