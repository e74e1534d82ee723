"""The setup panel: map, number of players, each seat's name and kind, seed, *Start*.

Names are checked when the game starts (printable, at most 40 characters) and a
refusal is shown right here. Starting over a game in progress asks first.
"""

from __future__ import annotations

import html
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from ..errors import PlayerNameError
from ..game import MAX_NAME_CHARS, checked_names
from ..maps import Map, available_maps, load_map
from ..rules import playable_maps
from . import panels
from .controls import Note, button

if TYPE_CHECKING:
    from .app import GameApp

SEAT_KINDS = [
    ("Human", "human"),
    ("Beginner bot", "beginner"),
    ("Greedy bot", "greedy"),
    ("Random bot", "random"),
    ("Hard: search bot (1 s)", "search"),
]
BOT_NAMES = ["Ada", "Bruno", "Chen", "Dita", "Emil"]
MAX_SEED = 10**12
FRESH_SEEDS = 10**6  # fresh seeds have at most 6 digits: easy to read out and type again


def fresh_seed() -> int:
    """A seed nobody chose, so that each new game deals differently (0 to 999,999)."""
    return secrets.randbelow(FRESH_SEEDS)


def stand_in_words(game_map: Map) -> list[str]:
    """What of a map is a stand-in, in short words: ``board``, ``city colours``, ``tickets``."""
    words = {
        "routes": "board",
        "cities.merchandise": "city colours",
        "components.passenger_colors": "passenger colours",
    }
    return [words.get(key, key.split(".")[-1].replace("_", " ")) for key in game_map.stand_in]


def default_name(seat: int, kind: str) -> str:
    """``Ann`` for the first human, ``Bruno`` for a bot in seat 2, ``Player 3`` otherwise."""
    if kind == "human":
        return "Ann" if seat == 0 else f"Player {seat + 1}"
    return BOT_NAMES[seat]


class SetupPanel:
    """Choose a map, the seats and a seed; start (or explore) the board."""

    def __init__(
        self,
        app: GameApp,
        map_name: str,
        players: int,
        seats: list[str] | None,
        seed: int | None,
    ) -> None:
        self.app = app
        guard = app.guard
        self._playable = set(playable_maps())
        # Short labels, so that the list fits a phone; what a label only hints at is said
        # in full under the list, before a game starts (not only in About this map).
        options = []
        self._map_notes: dict[str, str] = {}
        for name in available_maps():
            game_map = load_map(name)
            marks, notes = [], []
            if name not in self._playable:
                marks.append("explore only")
                notes.append("its rules are not implemented yet: you can explore the board")
            if game_map.stand_in:
                marks.append("stand-ins")
                notes.append(f"stand-in {', '.join(stand_in_words(game_map))}")
            label = game_map.name + (f" ({', '.join(marks)})" if marks else "")
            options.append((label, name))
            if notes:
                self._map_notes[name] = f"{game_map.name}: {'; '.join(notes)} (see About this map)."
        self.map_picker = widgets.Dropdown(
            description="Map:",
            options=options,
            value=map_name,
            layout=widgets.Layout(width="auto", max_width="100%"),
            _dom_classes=["ttr-map"],
        )
        self.map_note = widgets.HTML(_dom_classes=["ttr-map-note"])
        self.player_count = widgets.Dropdown(
            description="Players:",
            options=[2, 3, 4, 5],
            value=players,
            layout=widgets.Layout(width="150px"),
            _dom_classes=["ttr-players"],
        )
        # A new game gets a fresh seed unless one was given (a lesson, a test) or typed:
        # the box shows the game's seed, so that typing it again replays the same deal.
        self.seed_box = widgets.BoundedIntText(
            description="Seed:",
            value=seed if seed is not None else 0,
            min=0,
            max=MAX_SEED,
            layout=widgets.Layout(width="170px"),
            _dom_classes=["ttr-seed"],
        )
        self.fresh_seed_box = widgets.Checkbox(
            value=seed is None,
            description="new seed each game",
            indent=False,
            layout=widgets.Layout(width="auto", max_width="100%"),
            _dom_classes=["ttr-fresh-seed"],
        )
        self._showing_seed = False
        self.seed_box.observe(guard(self._seed_typed), names="value")
        kinds = (seats or ["human"] + ["greedy"] * 4) + ["greedy"] * 5
        self.names: list[widgets.Text] = []
        self.kinds: list[widgets.Dropdown] = []
        self.rows: list[widgets.HBox] = []
        for i in range(5):
            name = widgets.Text(
                value=default_name(i, kinds[i]),
                placeholder=f"at most {MAX_NAME_CHARS} characters",
                continuous_update=False,  # a pasted novel is sent once, not per keystroke
                tooltip=f"Seat {i + 1}: name",  # its name for a screen reader (no label)
                layout=widgets.Layout(width="150px"),
                _dom_classes=[f"ttr-seat-name-{i}"],
            )
            kind = widgets.Dropdown(
                options=SEAT_KINDS,
                value=kinds[i],
                tooltip=f"Seat {i + 1}: who plays it",
                layout=widgets.Layout(width="130px"),
                _dom_classes=[f"ttr-seat-kind-{i}"],
            )
            kind.observe(guard(self._kind_changed(i)), names="value")
            self.names.append(name)
            self.kinds.append(kind)
            chip = widgets.HTML(panels.player_chip(i))
            self.rows.append(widgets.HBox([chip, name, kind], _dom_classes=[f"ttr-seat-{i}"]))
        self.coach_box = widgets.Checkbox(
            value=True,
            description="Coach for every seat (untick for a graded game)",
            indent=False,
            # A checkbox is 300 px wide by default: its words were cut off with an ellipsis.
            layout=widgets.Layout(width="auto", max_width="100%"),
            _dom_classes=["ttr-coach-allowed"],
        )
        self.start_button = button("Start new game", "ttr-start")
        self.start_button.style.button_color = "#cfe8cf"
        self.start_button.on_click(guard(lambda _b: app.request_start()))
        self.note = Note("ttr-setup-note")
        self.player_count.observe(guard(lambda _c: self._show_rows()), names="value")
        self.map_picker.observe(guard(lambda _c: self._update_start_label()), names="value")
        self.widget = widgets.VBox(
            [
                widgets.HBox(
                    [
                        self.map_picker,
                        self.player_count,
                        self.seed_box,
                        self.fresh_seed_box,
                        self.start_button,
                    ],
                    layout=widgets.Layout(flex_flow="row wrap"),
                ),
                self.map_note,
                widgets.HBox(self.rows, layout=widgets.Layout(flex_flow="row wrap")),
                self.coach_box,
                self.note.widget,
            ],
            _dom_classes=["ttr-setup"],
        )
        self._show_rows()
        self._update_start_label()

    # ------------------------------------------------------------- reading
    @property
    def map_name(self) -> str:
        """The map chosen for the new game."""
        return str(self.map_picker.value)

    @property
    def seat_kinds(self) -> list[str]:
        """Each seat's kind for the new game (``human`` or a bot's name)."""
        return [self.kinds[i].value for i in range(self.player_count.value)]

    @property
    def coach_allowed(self) -> bool:
        """Whether the new game allows the coach."""
        return bool(self.coach_box.value)

    def player_names(self) -> list[str] | None:
        """The names typed, or None (with the reason shown here) if one is unusable."""
        names = [self.names[i].value.strip() for i in range(self.player_count.value)]
        try:
            return checked_names(names)
        except PlayerNameError as exc:
            self.note.show(f"Cannot start: {exc}.", bad=True)
            return None

    def seed_for_new_game(self) -> int:
        """The seed of the game being started: a fresh one (shown in the box) unless
        *new seed each game* is off, then the one in the box."""
        if self.fresh_seed_box.value:
            self._show_seed(fresh_seed())
        return int(self.seed_box.value)

    def _show_seed(self, seed: int) -> None:
        self._showing_seed = True
        try:
            self.seed_box.value = seed
        finally:
            self._showing_seed = False

    def _seed_typed(self, _change: dict[str, Any]) -> None:
        if not self._showing_seed:  # the learner typed a seed: the next game uses it
            self.fresh_seed_box.value = False

    def show_game(self, map_id: str, names: list[str], seed: int) -> None:
        """Show a loaded game's map, players and seed (seat kinds stay as chosen)."""
        with self.player_count.hold_trait_notifications():
            if map_id in [value for _, value in self.map_picker.options]:
                self.map_picker.value = map_id
            self.player_count.value = len(names)
            if 0 <= seed <= MAX_SEED:
                self._show_seed(seed)
            for i, name in enumerate(names):
                self.names[i].value = name

    # ------------------------------------------------------------ changing
    def _kind_changed(self, seat: int) -> Callable[[dict[str, Any]], None]:
        def changed(change: dict[str, Any]) -> None:
            # Follow the kind with the name, unless the learner typed their own.
            name = self.names[seat]
            if name.value == default_name(seat, change["old"]):
                name.value = default_name(seat, change["new"])

        return changed

    def _show_rows(self) -> None:
        for i, row in enumerate(self.rows):
            row.layout.display = "" if i < self.player_count.value else "none"

    def _update_start_label(self) -> None:
        note = self._map_notes.get(self.map_picker.value, "")
        self.map_note.value = f"<div class='ttr-note'>{html.escape(note)}</div>" if note else ""
        playable = self.map_picker.value in self._playable
        self.start_button.description = "Start new game" if playable else "Explore this board"
