"""The game app: set up a game, play it against bots, step through it, save and load it.

Everything on screen is redrawn from the engine's state after each change;
the app never keeps game facts of its own. The board shows any map; maps whose
rules are not implemented yet open in explore mode.

Under Voilà, ``launch()`` is all the notebook calls.
"""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets
from IPython.display import display

from .. import bots as bot_kinds
from ..actions import ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets
from ..errors import IllegalActionError, SaveFormatError
from ..game import Game, new_game
from ..maps import Map, available_maps, load_map
from ..rules import playable_maps
from . import panels, style
from .board import BoardPieces, BoardWidget
from .safety import CallbackGuard

SEAT_KINDS = [("Human", "human"), ("Greedy bot", "greedy"), ("Random bot", "random")]
BOT_DELAY_MS = 700
MAX_BOT_ACTIONS = 20_000  # a game never needs this many; guards against a stuck loop
BOT_NAMES = ["Ada", "Bruno", "Chen", "Dita", "Emil"]
NOT_YOUR_TURN = "It is not a human player's turn."


def _button(label: str, cls: str, tooltip: str = "", width: str = "auto") -> widgets.Button:
    # Text labels only: Voilà's icon font comes from a CDN that may be out of reach.
    return widgets.Button(
        description=label,
        tooltip=tooltip or label,
        _dom_classes=[cls],
        layout=widgets.Layout(width=width),
    )


class GameApp:
    """The whole app; display it (or its ``widget``) in a notebook.

    Parameters
    ----------
    map_name : str
        Map shown at start (``"usa"``, ``"germany"``, ``"world"``).
    players : int
        Number of seats, 2 to 5.
    seats : list of str, optional
        Kind of each seat: ``"human"``, ``"greedy"`` or ``"random"``
        (default: one human, then greedy bots).
    seed : int
        Seed of the game (same seed and moves, same game).
    auto_bots : bool
        Let bots move on their own, one move every ``BOT_DELAY_MS``.
    """

    def __init__(
        self,
        map_name: str = "usa",
        players: int = 3,
        seats: list[str] | None = None,
        seed: int = 1,
        auto_bots: bool = True,
    ) -> None:
        self.guard = CallbackGuard()
        self.guard.listeners.append(self._show_error)
        self.game: Game | None = None  # the whole timeline (None: explore mode)
        self.position = 0  # how many actions of the timeline are shown
        self._view_cache: tuple[int, Game] | None = None
        self.seat_kinds: list[str] = []
        self.bots: dict[int, Any] = {}
        self._rendering = False
        self._branch_note = ""
        self._keep_minimum = 1
        self._status_serial = 0
        self._about_map = ""  # the map the "About this map" text describes
        self.map: Map = load_map(map_name)
        self._build_setup(map_name, players, seats, seed)
        self.board = BoardWidget(self.map, guard=self.guard)
        self.board.on_select(self.guard(lambda _route: self._render_claim()))
        self.board.focus_before = self.seat_kind_pickers[0]
        self._build_play_panels(auto_bots)
        self._build_history_and_files()
        self._layout()
        self.start()

    # ================================================================ building
    def _build_setup(self, map_name: str, players: int, seats: list[str] | None, seed: int) -> None:
        playable = set(playable_maps())
        options = []
        for name in available_maps():
            game_map = load_map(name)
            suffix = "" if name in playable else " (explore only: rules not implemented yet)"
            options.append((game_map.name + suffix, name))
        self.map_picker = widgets.Dropdown(
            description="Map:", options=options, value=map_name, _dom_classes=["ttr-map"]
        )
        self.player_count = widgets.Dropdown(
            description="Players:",
            options=[2, 3, 4, 5],
            value=players,
            layout=widgets.Layout(width="150px"),
            _dom_classes=["ttr-players"],
        )
        self.seed_box = widgets.IntText(
            description="Seed:",
            value=seed,
            layout=widgets.Layout(width="170px"),
            _dom_classes=["ttr-seed"],
        )
        kinds = seats or ["human"] + ["greedy"] * 4
        self.seat_names: list[widgets.Text] = []
        self.seat_kind_pickers: list[widgets.Dropdown] = []
        rows = []
        kinds = kinds + ["greedy"] * (5 - len(kinds))
        for i in range(5):
            name = widgets.Text(
                value=_default_name(i, kinds[i]),
                layout=widgets.Layout(width="150px"),
                _dom_classes=[f"ttr-seat-name-{i}"],
            )
            kind = widgets.Dropdown(
                options=SEAT_KINDS,
                value=kinds[i],
                layout=widgets.Layout(width="130px"),
                _dom_classes=[f"ttr-seat-kind-{i}"],
            )
            kind.observe(self.guard(self._seat_kind_handler(i)), names="value")
            self.seat_names.append(name)
            self.seat_kind_pickers.append(kind)
            label = widgets.HTML(panels.player_chip(i))
            rows.append(widgets.HBox([label, name, kind], _dom_classes=[f"ttr-seat-{i}"]))
        self.seat_rows = rows
        self.start_button = _button("Start new game", "ttr-start", width="190px")
        self.start_button.style.button_color = "#cfe8cf"
        self.start_button.on_click(self.guard(lambda _b: self.start()))
        self.player_count.observe(self.guard(lambda _c: self._show_seat_rows()), names="value")
        self.map_picker.observe(self.guard(lambda _c: self._update_start_label()), names="value")
        self._show_seat_rows()
        self._update_start_label()

    def _build_play_panels(self, auto_bots: bool) -> None:
        self.status = widgets.HTML(_dom_classes=["ttr-status-box"])
        self.connection = widgets.HTML(
            "<div class='ttr-lost'>The connection to the game engine is lost (the server "
            "restarted or stopped this game). Reload the page, then load your last save "
            "(the “Download the save file” link is kept up to date after every move).</div>",
            _dom_classes=["ttr-connection"],
        )
        self.explore_note = widgets.HTML(_dom_classes=["ttr-explore-note"])
        self.turn_html = widgets.HTML(_dom_classes=["ttr-turn"])
        self.face_up_buttons: list[widgets.Button] = []
        self.face_up_row = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self._ensure_face_up_buttons(5)
        self.blind_button = _button("Draw from the deck", "ttr-draw-blind", width="170px")
        self.blind_button.on_click(self.guard(lambda _b: self.act(DrawBlind())))
        self.tickets_button = _button("Draw tickets", "ttr-draw-tickets", width="130px")
        self.tickets_button.on_click(self.guard(lambda _b: self.act(DrawTickets())))
        self.supply_html = widgets.HTML(_dom_classes=["ttr-supply"])
        # Moves of a variant that have no button of their own (another deck, ...).
        self.other_moves = widgets.Dropdown(
            description="Other move:",
            options=[],
            layout=widgets.Layout(width="330px"),
            _dom_classes=["ttr-other-moves"],
        )
        self.other_button = _button("Do it", "ttr-other-do", width="80px")
        self.other_button.on_click(self.guard(lambda _b: self._other_move()))
        self.other_box = widgets.HBox([self.other_moves, self.other_button])
        self.offer_title = widgets.HTML()
        self.offer_boxes: list[widgets.Checkbox] = []
        self.offer_ids: list[int] = []  # the ticket behind each offer box
        self.offer_list = widgets.VBox(_dom_classes=["ttr-offer"])
        self.keep_button = _button("Keep the ticked tickets", "ttr-keep", width="220px")
        self.keep_button.on_click(self.guard(lambda _b: self._keep_tickets()))
        self.offer_box = widgets.VBox(
            [self.offer_title, self.offer_list, self.keep_button], _dom_classes=["ttr-panel"]
        )
        self.hand_html = widgets.HTML(_dom_classes=["ttr-hand"])
        self.tickets_html = widgets.HTML(_dom_classes=["ttr-tickets"])
        self.scores_html = widgets.HTML(_dom_classes=["ttr-scores"])
        self.result_html = widgets.HTML(_dom_classes=["ttr-result-box"])
        self.log_html = widgets.HTML(_dom_classes=["ttr-log"])

        self.selected_html = widgets.HTML(_dom_classes=["ttr-selected"])
        self.payment_picker = widgets.Dropdown(
            description="Pay with:",
            options=[],
            layout=widgets.Layout(width="420px"),
            _dom_classes=["ttr-payment"],
        )
        self.claim_button = _button("Claim this route", "ttr-claim", width="170px")
        self.claim_button.on_click(self.guard(lambda _b: self._claim()))
        self.show_claimable = widgets.Checkbox(
            value=True,
            description="Light up the routes I can claim now",
            indent=False,
            _dom_classes=["ttr-show-claimable"],
        )
        self.show_claimable.observe(self.guard(lambda _c: self._draw_board()), names="value")
        self.claimable_html = widgets.HTML(_dom_classes=["ttr-claimable"])
        self.claim_box = widgets.VBox(
            [
                self.selected_html,
                self.claimable_html,
                widgets.HBox([self.payment_picker, self.claim_button]),
                self.show_claimable,
            ],
            _dom_classes=["ttr-panel", "ttr-claim-box"],
        )

        self.bot_step_button = _button("Next bot move", "ttr-bot-step", width="140px")
        self.bot_step_button.on_click(self.guard(lambda _b: self.bot_step()))
        self.auto_bots = widgets.Checkbox(
            value=auto_bots,
            description=f"Bots move on their own ({BOT_DELAY_MS / 1000:.1f} s per move)",
            indent=False,
            _dom_classes=["ttr-auto"],
        )
        self.auto_bots.observe(self.guard(lambda _c: self._schedule_bots()), names="value")
        self.until_me_button = _button(
            "Bots play until my turn", "ttr-bots-until-me", width="200px"
        )
        self.until_me_button.on_click(self.guard(lambda _b: self.bots_until_human()))
        self.to_end_button = _button(
            "Play to the end",
            "ttr-play-to-end",
            width="150px",
            tooltip="Bots play every seat, yours too, until the game ends",
        )
        self.to_end_button.on_click(self.guard(lambda _b: self.play_to_end()))
        # A browser-side timer: each tick asks the kernel for one bot move, so
        # the learner sees the bots' moves one at a time.
        self.timer = widgets.Play(
            value=0,
            min=0,
            max=10**9,
            step=1,
            interval=BOT_DELAY_MS,
            layout=widgets.Layout(display="none"),
            _dom_classes=["ttr-timer"],
        )
        self.timer.observe(self.guard(self._on_timer), names="value")

    def _build_history_and_files(self) -> None:
        self.back_button = _button("◀ Back", "ttr-back", width="90px")
        self.back_button.on_click(self.guard(lambda _b: self.go_to(self.position - 1)))
        self.forward_button = _button("Forward ▶", "ttr-forward", width="100px")
        self.forward_button.on_click(self.guard(lambda _b: self.go_to(self.position + 1)))
        self.first_button = _button("To the deal", "ttr-first", width="110px")
        self.first_button.on_click(self.guard(lambda _b: self.go_to(0)))
        self.last_button = _button("Latest", "ttr-last", width="75px")
        self.last_button.on_click(self.guard(lambda _b: self.go_to(len(self._history()))))
        self.history_slider = widgets.IntSlider(
            description="Move:",
            min=0,
            max=0,
            value=0,
            continuous_update=False,
            layout=widgets.Layout(width="420px"),
            _dom_classes=["ttr-history"],
        )
        self.history_slider.observe(self.guard(self._on_slider), names="value")
        self.history_note = widgets.HTML(_dom_classes=["ttr-history-note"])

        self.save_button = _button("Save game", "ttr-save", width="120px")
        self.save_button.on_click(self.guard(lambda _b: self._save_to_text()))
        self.save_link = widgets.HTML(_dom_classes=["ttr-save-link"])
        self.save_text = widgets.Textarea(
            placeholder="The saved game appears here (press Save game); paste a save here "
            "and press Load from text to continue it.",
            layout=widgets.Layout(width="100%", height="110px"),
            _dom_classes=["ttr-save-text"],
        )
        self.load_text_button = _button("Load from text", "ttr-load-text", width="140px")
        self.load_text_button.on_click(self.guard(lambda _b: self.load_text(self.save_text.value)))
        self.upload = widgets.FileUpload(
            accept=".json",
            multiple=False,
            description="Load a file",
            _dom_classes=["ttr-load-file"],
        )
        self.upload.observe(self.guard(self._on_upload), names="value")
        self.about_html = widgets.HTML(_dom_classes=["ttr-about-text"])

    def _layout(self) -> None:
        setup = widgets.VBox(
            [
                widgets.HBox(
                    [self.map_picker, self.player_count, self.seed_box, self.start_button]
                ),
                widgets.HBox(self.seat_rows, layout=widgets.Layout(flex_flow="row wrap")),
            ],
            _dom_classes=["ttr-setup", "ttr-panel"],
        )
        cards = widgets.VBox(
            [
                widgets.HTML("<h3>Face-up cards</h3>"),
                self.face_up_row,
                widgets.HBox([self.blind_button, self.tickets_button]),
                self.supply_html,
                self.other_box,
            ],
            _dom_classes=["ttr-panel", "ttr-cards"],
        )
        bots = widgets.VBox(
            [
                widgets.HBox([self.bot_step_button, self.until_me_button, self.to_end_button]),
                self.auto_bots,
                self.timer,
            ],
            _dom_classes=["ttr-panel", "ttr-bots"],
        )
        self.play_column = widgets.VBox(
            [
                self.turn_html,
                cards,
                self.offer_box,
                widgets.VBox([self.hand_html], _dom_classes=["ttr-panel"]),
                widgets.VBox([self.tickets_html], _dom_classes=["ttr-panel"]),
                bots,
            ],
            layout=widgets.Layout(width="470px", min_width="470px", margin="0 0 0 12px"),
            _dom_classes=["ttr-play-column"],
        )
        self.history_box = widgets.VBox(
            [
                widgets.HBox(
                    [
                        self.first_button,
                        self.back_button,
                        self.history_slider,
                        self.forward_button,
                        self.last_button,
                    ]
                ),
                self.history_note,
            ],
            _dom_classes=["ttr-panel", "ttr-stepping"],
        )
        files = widgets.VBox(
            [
                widgets.HBox([self.save_button, self.save_link]),
                self.save_text,
                widgets.HBox([self.load_text_button, self.upload]),
                widgets.HTML(
                    "<div class='ttr-note'>A save holds the map, the seed and every "
                    "move; loading replays it and refuses a damaged or edited file."
                    "</div>"
                ),
            ]
        )
        errors = widgets.VBox(
            [
                widgets.HTML(
                    "<div class='ttr-note'>Details of any error inside the app "
                    "(empty when all is well):</div>"
                ),
                self.guard.output,
            ]
        )
        extras = widgets.Accordion(
            children=[files, self.about_html, errors], _dom_classes=["ttr-extras"]
        )
        for i, title in enumerate(["Save and load", "About this map", "Error details"]):
            extras.set_title(i, title)
        extras.selected_index = None
        self.left_column = widgets.VBox(
            [self.board.widget, self.claim_box, self.history_box, self.explore_note],
            layout=widgets.Layout(max_width=f"{self.board.max_width + 12}px"),
            _dom_classes=["ttr-board-column"],
        )
        self.widget = widgets.VBox(
            [
                widgets.HTML(panels.APP_CSS),
                widgets.HTML(
                    "<h2>Ticket to Ride: a teaching table</h2><div class='ttr-note'>Unofficial "
                    "teaching tool; Ticket to Ride is a trademark of Days of Wonder, which does "
                    "not endorse it. Letters mark colours: P purple, B blue, O orange, W white, "
                    "G green, Y yellow, K black, R red, L locomotive; gray routes take any one "
                    "colour. Claimed routes show their owner's seat number.</div>"
                ),
                self.connection,
                self.status,
                setup,
                widgets.HBox(
                    [self.left_column, self.play_column],
                    # On a narrow screen the play column moves under the board.
                    layout=widgets.Layout(align_items="flex-start", flex_flow="row wrap"),
                ),
                self.result_html,
                widgets.HBox(
                    [
                        widgets.VBox([self.log_html], layout=widgets.Layout(width="640px")),
                        widgets.VBox(
                            [self.scores_html], layout=widgets.Layout(margin="0 0 0 12px")
                        ),
                    ]
                ),
                extras,
            ],
            _dom_classes=["ttr-app"],
        )

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    # ================================================================== setup
    def _seat_kind_handler(self, seat: int) -> Callable[[dict[str, Any]], None]:
        def changed(change: dict[str, Any]) -> None:
            # Follow the kind with the name, unless the learner typed their own.
            name = self.seat_names[seat]
            if name.value == _default_name(seat, change["old"]):
                name.value = _default_name(seat, change["new"])

        return changed

    def _show_seat_rows(self) -> None:
        for i, row in enumerate(self.seat_rows):
            row.layout.display = "" if i < self.player_count.value else "none"

    def _update_start_label(self) -> None:
        playable = self.map_picker.value in playable_maps()
        self.start_button.description = "Start new game" if playable else "Explore this board"

    def start(self) -> None:
        """Start a game from the setup panel (or open the board in explore mode)."""
        self.timer.playing = False
        self.map = load_map(self.map_picker.value)
        self.board.set_map(self.map)
        count = self.player_count.value
        names = [(self.seat_names[i].value.strip() or f"Player {i + 1}") for i in range(count)]
        self.seat_kinds = [self.seat_kind_pickers[i].value for i in range(count)]
        seed = int(self.seed_box.value)
        if self.map.id in playable_maps():
            self.game = new_game(self.map, players=names, seed=seed)
            self._make_bots()
            self.position = 0
            message = f"New game on the {self.map.name} map, seed {seed}."
        else:
            self.game = None
            self.position = 0
            message = f"Exploring the {self.map.name} board."
        self._view_cache = None
        self.board.select(None)
        self.refresh(message)
        self._schedule_bots()

    def _make_bots(self) -> None:
        seed = self.game.seed if self.game else 0
        self.bots = {
            seat: bot_kinds.make_bot(kind, seed * 10 + seat)
            for seat, kind in enumerate(self.seat_kinds)
            if kind != "human"
        }

    # ================================================================ queries
    def _history(self) -> list[Any]:
        return self.game.history if self.game else []

    @property
    def view(self) -> Game | None:
        """The game as shown: the timeline replayed up to ``position``."""
        if self.game is None:
            return None
        if self.position >= len(self.game.history):
            return self.game
        if self._view_cache is None or self._view_cache[0] != self.position:
            self._view_cache = (self.position, self.game.replay(self.position))
        return self._view_cache[1]

    def is_human(self, seat: int) -> bool:
        return seat < len(self.seat_kinds) and self.seat_kinds[seat] == "human"

    def human_to_move(self) -> bool:
        view = self.view
        return view is not None and not view.is_over and self.is_human(view.current_player)

    def viewer(self) -> int | None:
        """Whose hand and tickets are shown: the human to move, else the first human seat."""
        view = self.view
        if view is None:
            return None
        if self.is_human(view.current_player):
            return view.current_player
        humans = [i for i in range(len(self.seat_kinds)) if self.is_human(i)]
        return humans[0] if humans else view.current_player

    # ================================================================= acting
    def act(self, action: Any) -> bool:
        """Apply a human's action; a refused action shows its rule. Returns success."""
        view = self.view
        if view is None:
            self._set_status("This map is in explore mode: its rules are not implemented yet.")
            return False
        if view.is_over:
            self._set_status("The game is over.")
            return False
        if not self.is_human(view.current_player):
            self._set_status(NOT_YOUR_TURN + " Use Next bot move (or tick the box) to go on.")
            return False
        return self._apply(action, by_bot=False)

    def _apply(self, action: Any, by_bot: bool) -> bool:
        self._branch_here()
        assert self.game is not None
        line = self.game.describe(action)
        try:
            self.game.apply(action)
        except IllegalActionError as exc:
            self.refresh(f"Not allowed: {exc.player} cannot {exc.action}: {exc.rule}.", bad=True)
            return False
        self.position = len(self.game.history)
        self._view_cache = None
        if isinstance(action, ClaimRoute):
            self.board.select(None)
        assert self.view is not None
        self.refresh(("Bot: " if by_bot else "") + f"{line}. {self._turn_hint(self.view)}")
        self._schedule_bots()
        return True

    def _branch_here(self) -> None:
        """Acting while looking at an earlier move drops the later moves (a new branch)."""
        if self.game is not None and self.position < len(self.game.history):
            dropped = len(self.game.history) - self.position
            self.game = self.game.replay(self.position)
            self._view_cache = None
            self._branch_note = (
                f" (continued from move {self.position}; {_count(dropped, 'later move')} dropped)"
            )

    def _face_up_handler(self, slot: int) -> Callable[[Any], None]:
        return lambda _b: self.act(DrawFaceUp(slot))

    def _keep_tickets(self) -> None:
        pairs = zip(self.offer_ids, self.offer_boxes, strict=True)
        chosen = tuple(ticket for ticket, box in pairs if box.value)
        self.act(KeepTickets(chosen))

    def _claim(self) -> None:
        action = self.payment_picker.value
        if not isinstance(action, ClaimRoute):
            self._set_status(
                "Select a route you can pay for first (click it on the board "
                "or pick it from the Route list).",
                bad=True,
            )
            return
        self.act(action)

    # ================================================================== bots
    def bot_step(self) -> bool:
        """One bot move, if a bot is to move. Returns whether a move was made."""
        view = self.view
        if view is None:
            self._set_status("Explore mode: there are no bots on this board.")
            return False
        if view.is_over or self.is_human(view.current_player):
            self._set_status("The game is over." if view.is_over else "No bot is to move now.")
            return False
        bot = self.bots[view.current_player]
        return self._apply(bot.choose(view), by_bot=True)

    def bots_until_human(self) -> int:
        """Let the bots play until a human is to move (or the game ends)."""
        return self._run_bots(lambda game: not self.is_human(game.current_player), "my turn")

    def play_to_end(self) -> int:
        """Bots play every seat, the humans' too, until the game is over."""
        autopilot = bot_kinds.make_bot("greedy", 12345)
        return self._run_bots(lambda _game: True, "the end", autopilot)

    def _run_bots(
        self, keep_going: Callable[[Game], bool], goal: str, autopilot: Any = None
    ) -> int:
        if self.game is None:
            return 0
        self.timer.playing = False
        self._branch_here()
        game = self.game
        moves = 0
        while not game.is_over and keep_going(game) and moves < MAX_BOT_ACTIONS:
            seat = game.current_player
            bot = self.bots.get(seat) or autopilot
            if bot is None:
                break
            game.apply(bot.choose(game))
            moves += 1
        self.position = len(game.history)
        self._view_cache = None
        self.refresh(f"Bots made {_count(moves, 'move')} to reach {goal}. {self._turn_hint(game)}")
        return moves

    def _schedule_bots(self) -> None:
        """Start or stop the browser timer that drives automatic bot moves."""
        view = self.view
        wanted = bool(
            self.auto_bots.value
            and view is not None
            and not view.is_over
            and not self.is_human(view.current_player)
            and self.position == len(self._history())
        )
        if self.timer.playing != wanted:
            self.timer.playing = wanted

    def _on_timer(self, _change: dict[str, Any]) -> None:
        view = self.view
        if (
            not self.auto_bots.value
            or view is None
            or view.is_over
            or self.is_human(view.current_player)
            or self.position != len(self._history())
        ):
            self.timer.playing = False
            return
        self.bot_step()

    # ================================================================ stepping
    def go_to(self, position: int) -> None:
        """Show the game after ``position`` actions (0 = the deal)."""
        if self.game is None:
            return
        self.timer.playing = False
        self.position = max(0, min(position, len(self.game.history)))
        self.board.select(None)
        total = len(self.game.history)
        self.refresh(
            f"Showing move {self.position} of {total}."
            if self.position < total
            else "Showing the latest move."
        )

    def _on_slider(self, change: dict[str, Any]) -> None:
        if not self._rendering and change["new"] != self.position:
            self.go_to(change["new"])

    # ================================================================ saving
    def save_json(self) -> str:
        """The shown game as save-file text (moves after the shown one are left out)."""
        view = self.view
        if view is None:
            raise ValueError("nothing to save in explore mode")
        return view.to_json(indent=1)

    def _save_name(self, game: Game) -> str:
        return f"ttr-{game.map.id}-seed{game.seed}-move{len(game.history)}.json"

    def _save_to_text(self) -> None:
        if self.view is None:
            self._set_status("Nothing to save: this board is in explore mode.", bad=True)
            return
        self.save_text.value = self.save_json()
        self._set_status("Saved: the text box holds the save, and the link downloads it.")

    def _update_save_link(self) -> None:
        view = self.view
        if view is None:
            self.save_link.value = ""
            return
        data = base64.b64encode(view.to_json().encode("utf-8")).decode("ascii")
        name = self._save_name(view)
        self.save_link.value = (
            f"<a download='{name}' href='data:application/json;base64,{data}' "
            f"class='ttr-download'>Download the save file ({html.escape(name)})</a>"
        )

    def load_text(self, text: str, source: str = "the text box") -> bool:
        """Load a saved game; a malformed save is refused with its reason."""
        try:
            game = Game.from_json(text, source=source)
        except SaveFormatError as exc:
            self._set_status(
                f"Could not load {exc.file}: field {exc.field}: {exc.reason}", bad=True
            )
            return False
        except ValueError as exc:  # e.g. a map whose rules are not implemented
            self._set_status(f"Could not load {source}: {exc}", bad=True)
            return False
        self.timer.playing = False
        self.game = game
        self.map = game.map
        self.board.set_map(game.map)
        count = game.num_players
        # Saves hold names, not who is a bot: keep the setup panel's choice of seat kinds.
        self.seat_kinds = [self.seat_kind_pickers[i].value for i in range(count)]
        with self.player_count.hold_trait_notifications():
            if game.map.id in [v for _, v in self.map_picker.options]:
                self.map_picker.value = game.map.id
            self.player_count.value = count
            self.seed_box.value = game.seed
            for i, name in enumerate(game.names):
                self.seat_names[i].value = name
        self._make_bots()
        self.position = len(game.history)
        self._view_cache = None
        self.board.select(None)
        moves = _count(len(game.history), "move")
        self.refresh(f"Loaded a {game.map.name} game from {source}: {moves}.")
        self._schedule_bots()
        return True

    def _on_upload(self, change: dict[str, Any]) -> None:
        files = change["new"]
        if not files:
            return
        item = files[0]
        name = item.get("name", "the uploaded file")
        content = bytes(item["content"])
        try:
            text = content.decode("utf-8")
        except UnicodeDecodeError:
            self._set_status(f"Could not load {name}: it is not UTF-8 text.", bad=True)
            return
        self.load_text(text, source=name)

    # ================================================================ drawing
    def _set_status(self, message: str, bad: bool = False) -> None:
        cls = "ttr-status ttr-bad" if bad else "ttr-status"
        # The status is written last after each change; its counters tell a
        # browser test that the whole page has caught up.
        self._status_serial += 1
        self.status.value = (
            f"<div class='{cls}' data-serial='{self._status_serial}' "
            f"data-position='{self.position}' data-total='{len(self._history())}'>"
            f"{html.escape(message)}</div>"
        )

    def _show_error(self, summary: str) -> None:
        self._set_status(f"{summary} (details under “Error details” at the bottom)", bad=True)

    def refresh(self, message: str | None = None, bad: bool = False) -> None:
        """Redraw every panel and the board from the shown game state."""
        self._rendering = True
        try:
            self._render_all(message, bad)
        finally:
            self._rendering = False

    def _render_all(self, message: str | None, bad: bool) -> None:
        view = self.view
        playable = view is not None
        if self._about_map != self.map.id:
            self._about_map = self.map.id
            self.about_html.value = panels.about_html(
                self.map, self.map.id in playable_maps(), self.board.geometry.moved_places
            )
        for box in (self.claim_box, self.play_column, self.history_box):
            box.layout.display = "" if playable else "none"
        self.explore_note.value = (
            ""
            if playable
            else f"<div class='ttr-explore'>The {html.escape(self.map.name)} rules are not "
            "implemented yet: explore the board (point at routes and cities, click a route or "
            "pick it from the list). Playable maps: "
            + html.escape(", ".join(load_map(m).name for m in playable_maps()))
            + ".</div>"
        )
        if view is None:
            self.board.set_pieces(BoardPieces())
            self.turn_html.value = self.scores_html.value = self.log_html.value = ""
            self.result_html.value = ""
            self.history_slider.max = 0
            self._update_save_link()
            self._set_status(message or "Explore mode.", bad)
            return
        legal = view.legal_actions() if self.human_to_move() else []
        # The board first: it is what the learner watches after a click.
        self._draw_board(legal)
        self._render_turn(view)
        self._render_cards(view, legal)
        self._render_offer(view, legal)
        seat = self.viewer()
        if seat is not None:
            who = view.state.players[seat].name
            self.hand_html.value = panels.hand_html(
                view.map, view.state.players[seat].hand, f"{who}'s hand"
            )
            self.tickets_html.value = panels.tickets_html(view, seat, f"{who}'s tickets")
        self.scores_html.value = panels.scores_html(view, self.seat_kinds)
        assert self.game is not None
        self.log_html.value = panels.log_html(self.game, self.position)
        self.result_html.value = panels.result_html(view)
        self._render_history()
        self._render_claim(legal)
        self._update_save_link()
        note, self._branch_note = self._branch_note, ""
        self._set_status((message or self._turn_hint(view)) + note, bad)

    def _turn_hint(self, view: Game) -> str:
        if view.is_over:
            return "The game is over: see the scores below."
        name = view.state.players[view.current_player].name
        if not self.is_human(view.current_player):
            if self.auto_bots.value:
                return f"{name} moves next (bots move on their own)."
            return f"{name} moves next: press Next bot move."
        if view.state.pending == "keep_tickets":
            return f"{name}: choose the tickets to keep."
        if view.state.pending == "second_card":
            return f"{name}: take a second card."
        return f"{name}: draw cards, claim a route or draw tickets."

    def _render_turn(self, view: Game) -> None:
        state = view.state
        player = state.players[state.current]
        phase = {
            "setup": "choosing first tickets",
            "play": f"turn {state.turn}",
            "over": "game over",
        }.get(state.phase, state.phase)
        if view.is_over:
            text = "<b>Game over</b>"
        else:
            kind = (
                "human" if self.is_human(state.current) else f"{self.seat_kinds[state.current]} bot"
            )
            pending = {"second_card": " — second card", "keep_tickets": " — keeping tickets"}
            text = (
                f"To move: {panels.player_chip(state.current)}<b>{html.escape(player.name)}</b>"
                f" ({kind}){pending.get(state.pending or '', '')}"
            )
        self.turn_html.value = (
            f"<div class='ttr-panel' style='font-size:15px'>{text} · "
            f"<span class='ttr-note'>{phase}, move {self.position}</span></div>"
        )

    def _ensure_face_up_buttons(self, count: int) -> None:
        """One button per face-up slot (variants may have more slots than five)."""
        while len(self.face_up_buttons) < count:
            slot = len(self.face_up_buttons)
            button = _button("—", f"ttr-face-up-{slot}")
            button.layout.min_width = "88px"
            button.add_class("ttr-face-up")
            button.on_click(self.guard(self._face_up_handler(slot)))
            self.face_up_buttons.append(button)
        self.face_up_row.children = tuple(self.face_up_buttons[:count])

    def _other_move(self) -> None:
        action = self.other_moves.value
        if action is None:
            self._set_status("There is no other move to make now.", bad=True)
            return
        self.act(action)

    def _render_cards(self, view: Game, legal: list[Any]) -> None:
        legal_set = set(legal)
        if len(self.face_up_row.children) != len(view.state.face_up):
            self._ensure_face_up_buttons(len(view.state.face_up))
        for slot, button in enumerate(self.face_up_buttons[: len(view.state.face_up)]):
            card_id = view.state.face_up[slot] if slot < len(view.state.face_up) else None
            if card_id is None:
                button.description = "—"
                button.style.button_color = "#eeeeee"
                button.style.text_color = "#777777"
                button.disabled = True
                continue
            card = view.map.card_by_id[card_id]
            sw = style.swatch(card.color)
            button.description = f"{sw.letter or '?'} {panels.card_name(card)}"
            button.tooltip = f"Take the face-up {panels.card_name(card)} card"
            button.style.button_color = sw.fill
            button.style.text_color = sw.ink
            button.disabled = DrawFaceUp(slot) not in legal_set
        self.blind_button.disabled = DrawBlind() not in legal_set
        self.tickets_button.disabled = DrawTickets() not in legal_set
        self.supply_html.value = panels.supply_html(view)
        others = [a for a in legal if not _has_own_control(a)]
        self.other_moves.options = [
            (view.rules.describe(view, a, imperative=True), a) for a in others
        ]
        self.other_box.layout.display = "" if others else "none"

    def _render_offer(self, view: Game, legal: list[Any]) -> None:
        state = view.state
        offering = state.pending == "keep_tickets" and self.is_human(state.current)
        self.offer_box.layout.display = "" if offering else "none"
        if not offering:
            self.offer_boxes, self.offer_ids = [], []
            self.offer_list.children = ()
            return
        player = state.players[state.current]
        keeps = [a for a in legal if isinstance(a, KeepTickets)]
        least = min((len(a.tickets) for a in keeps), default=0)
        self.offer_title.value = (
            f"<h3>{html.escape(player.name)}: keep at least {least} of these tickets</h3>"
            "<div class='ttr-note'>A completed ticket adds its points at the end; an "
            "unfinished one takes them away.</div>"
        )
        boxes = []
        for i, ticket_id in enumerate(player.offer):
            box = widgets.Checkbox(
                value=True,
                description=panels.ticket_text(view.map, ticket_id),
                indent=False,
                layout=widgets.Layout(width="auto"),
                _dom_classes=[f"ttr-offer-{i}"],
            )
            box.observe(self.guard(lambda _c: self._check_keep()), names="value")
            boxes.append(box)
        self.offer_boxes, self.offer_ids = boxes, list(player.offer)
        self.offer_list.children = tuple(boxes)
        self._keep_minimum = least
        self._check_keep()

    def _check_keep(self) -> None:
        chosen = sum(1 for box in self.offer_boxes if box.value)
        least = self._keep_minimum
        self.keep_button.disabled = chosen < least
        self.keep_button.description = (
            f"Keep {chosen} ticket{'s' if chosen != 1 else ''}"
            if chosen >= least
            else f"Tick at least {least}"
        )

    def _render_history(self) -> None:
        total = len(self._history())
        with self.history_slider.hold_trait_notifications():
            self.history_slider.max = total
            self.history_slider.value = self.position
        self.back_button.disabled = self.position == 0
        self.first_button.disabled = self.position == 0
        self.forward_button.disabled = self.position >= total
        self.last_button.disabled = self.position >= total
        view = self.view
        bot_turn = bool(view and not view.is_over and not self.is_human(view.current_player))
        self.bot_step_button.disabled = not bot_turn
        self.until_me_button.disabled = not bot_turn or not any(
            self.is_human(i) for i in range(len(self.seat_kinds))
        )
        self.to_end_button.disabled = bool(view is None or view.is_over)
        self.history_note.value = (
            f"<div class='ttr-note'>Showing move {self.position} of {total}. Acting here "
            "continues the game from this point and drops the later moves.</div>"
            if self.position < total
            else f"<div class='ttr-note'>{_count(total, 'move')} so far. Step back to replay the "
            "game move by move.</div>"
        )

    def _render_claim(self, legal: list[Any] | None = None) -> None:
        view = self.view
        route_id = self.board.selected
        if view is None:
            return
        if legal is None:
            legal = view.legal_actions() if self.human_to_move() else []
        self._render_claimable(view, legal)
        if route_id is None:
            self.selected_html.value = (
                "<h3>Claim a route</h3><div class='ttr-note'>Click a route on the board, or "
                "pick it from the Route list under the board.</div>"
            )
            self.payment_picker.options = []
            self.claim_button.disabled = True
            return
        route = view.map.route_by_id[route_id]
        options = [
            (panels.describe_payment(view.map, a.cards), a)
            for a in legal
            if isinstance(a, ClaimRoute) and a.route == route_id
        ]
        facts = html.escape(self.board.route_text(route_id))
        if options:
            advice = f"You can pay for it in {len(options)} way(s): choose one and claim."
        elif view.is_over:
            advice = "The game is over."
        elif not self.human_to_move():
            advice = "Wait for your turn to claim it."
        elif view.state.pending is not None:
            advice = "Finish the current action first (second card or tickets)."
        else:
            advice = self._why_not_claimable(view, route)
        self.selected_html.value = (
            f"<h3>Selected route</h3><div>{facts}</div><div class='ttr-note'>"
            f"{html.escape(advice)}</div>"
        )
        self.payment_picker.options = options
        if options:
            self.payment_picker.value = options[0][1]
        self.claim_button.disabled = not options

    def _render_claimable(self, view: Game, legal: list[Any]) -> None:
        routes = sorted({a.route for a in legal if isinstance(a, ClaimRoute)})
        if not self.human_to_move():
            self.claimable_html.value = ""
            return
        if not routes:
            text = "No route is affordable with this hand yet: draw cards."
        else:
            labels = [view.map.route_label(view.map.route_by_id[r]) for r in routes]
            shown = ", ".join(labels[:6]) + (
                f" and {len(labels) - 6} more (lit up on the board)" if len(labels) > 6 else ""
            )
            text = f"You can claim {len(routes)} route(s) now: {shown}."
        self.claimable_html.value = (
            f"<div class='ttr-note' data-routes='{json.dumps(routes)}'>{html.escape(text)}</div>"
        )

    def _why_not_claimable(self, view: Game, route: Any) -> str:
        state = view.state
        route_problem = getattr(view.rules, "route_problem", None)
        if route_problem is not None:
            reason = route_problem(state, state.current, route)
            if reason:
                return f"You cannot claim it: {reason}."
        sw = style.swatch(route.color)
        colour = "cards of any one colour" if route.color == "gray" else f"{sw.name} cards"
        return (
            f"You cannot pay for it yet: it takes {route.length} {colour} "
            "(locomotives count as any colour)."
        )

    def _draw_board(self, legal: list[Any] | None = None) -> None:
        view = self.view
        if view is None:
            return
        if legal is None:
            legal = view.legal_actions() if self.human_to_move() else []
        claimable = (
            frozenset(a.route for a in legal if isinstance(a, ClaimRoute))
            if self.show_claimable.value
            else frozenset()
        )
        self.board.set_pieces(
            BoardPieces(
                owner=dict(view.state.owner),
                player_names=[p.name for p in view.state.players],
                highlighted=claimable,
                game=view,
            )
        )


def _count(n: int, noun: str) -> str:
    """``1 move``, ``2 moves``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _has_own_control(action: Any) -> bool:
    """Does the app have a dedicated button or panel for this action?"""
    if isinstance(action, DrawFaceUp | ClaimRoute | KeepTickets):
        return True
    return action in (DrawBlind(), DrawTickets())


def _default_name(seat: int, kind: str) -> str:
    if kind == "human":
        return "Ann" if seat == 0 else f"Player {seat + 1}"
    return f"{BOT_NAMES[seat]} ({kind} bot)"


def launch(**options: Any) -> GameApp:
    """Build the app, display it, and return it (``options`` go to :class:`GameApp`)."""
    app = GameApp(**options)
    display(app.widget)
    return app
