"""The game app: set up a game, play it against bots, step through it, save and load it.

:class:`GameApp` composes the panels (``setup``, ``play``, ``timeline``,
``files``) around the board and keeps the one thing they share: the game's
timeline and the position shown. After every change it computes what is shown
once (:class:`~ttr_nb.widgets.variants.Shown`) and lets each panel redraw
itself from it. What a rules variant adds (pieces on the board, panels, labels
of choices, end-screen sections) comes from its :class:`VariantUI`: the app
never branches on the variant.

Under Voilà, ``launch()`` is all the notebook calls.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets
from IPython.display import display

from ..actions import ClaimRoute
from ..algorithms import longest_trail
from ..errors import IllegalActionError
from ..game import Game, Move, new_game
from ..maps import Map, load_map
from ..rules import playable_maps
from . import panels
from . import variants as variant_uis
from .access import PageAccess
from .app_bots import BotTurns
from .app_timeline import TimelineAndSaves
from .board import BoardPieces, BoardWidget
from .board_art import outline_routes
from .coach_panel import CoachPanel
from .controls import Note, Prompt, count
from .files import FilesPanel
from .links import LinkReader, follow_link
from .play import CardsPanel, ClaimPanel, HandPanel, OfferPanel, TurnHeader
from .rules_card import RulesCard
from .safety import CallbackGuard
from .scroll import Scroller
from .setup import SetupPanel
from .storage import BrowserStore
from .tables import TablePlay
from .timeline import BotPanel, TimelinePanel
from .tutorial.reminders import FirstGameReminders
from .tutorial.runner import ProgressKeeper, TutorialPlay
from .tutorial.welcome import AWAY_CLASS, FirstScreen
from .variants import Shown, VariantUI

NOT_YOUR_TURN = "It is not a human player's turn."

# What GameApp.build_game makes: the board and everything of a game. Asking for one of them
# builds them all (see GameApp.__getattr__).
GAME_PARTS = frozenset(
    {
        "setup", "board", "prompt", "turn", "offer", "claim", "cards", "hand", "timeline",
        "bot_panel", "files", "coach", "tutorial", "reminders", "explore_note", "result_html",
        "scores_html", "log_html", "about_html", "key_html", "variant_box", "variant_top_box",
        "dock", "game_panels", "play_column", "board_text", "board_column", "history_column",
        "extras", "main",
    }
)  # fmt: skip


class GameApp(BotTurns, TimelineAndSaves):
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
    seed : int, optional
        Seed of the game (same seed and moves, same game). By default each new game gets a
        fresh seed, shown in the New game panel.
    auto_bots : bool
        Let bots move on their own, one move every ``BOT_DELAY_MS``.
    service_factory : callable, optional
        Gives a page (by its id) its client of the table service (default: the class
        server's, :func:`ttr_nb.tables.remote.connect`).
    welcome : bool
        Open on the first screen (*Learn to play*, *Play against bots*, *Play with others*)
        instead of the game; :func:`launch` does.
    """

    def __init__(
        self,
        map_name: str = "usa",
        players: int = 3,
        seats: list[str] | None = None,
        seed: int | None = None,
        auto_bots: bool = True,
        service_factory: Callable[[str], Any] | None = None,
        welcome: bool = False,
    ) -> None:
        self.guard = CallbackGuard(show_details=False)  # visitors never see tracebacks
        self.guard.listeners.append(self._show_error)
        self.game: Game | None = None  # the whole timeline (None: explore mode)
        self.position = 0  # how many moves of the timeline are shown
        self.dropped_moves: list[Move] = []  # set aside by Continue from here (undoable)
        self._view_cache: tuple[int, Game] | None = None
        self.seat_kinds: list[str] = []
        self.bots: dict[int, Any] = {}
        self.rendering = False
        self._status_serial = 0
        self._about_map = ""
        self.shown = Shown(view=None)
        self.map: Map = load_map(map_name)
        self.ui: VariantUI = variant_uis.ui_class(self.map.rules)(self)
        self._game_options = (map_name, players, seats, seed, auto_bots)
        self.game_built = False  # the board and the game's panels (see build_game)
        self._building = False
        self.coach_allowed = True  # the game creator's setting (New game)

        # What the first screen shows, and what the page says as it opens (what its
        # browser kept, its link); the board and the game's panels come with build_game.
        self.store = BrowserStore()
        self.store.on_stored(self.guard(self._offer_resume))
        self.scroller = Scroller()
        self.access = PageAccess()  # keyboard and screen-reader help in the page
        self.tables = TablePlay(self, service_factory)
        self.tutorial_keeper = ProgressKeeper()  # the tutorial's step, kept in the browser
        self.tutorial_keeper.on_stored(self.guard(lambda step: self.tutorial.resume(step)))
        self.rules_card = RulesCard(self)  # the rules on one screen, open at any time
        self.first_screen = FirstScreen(self)
        self.links = LinkReader()  # the page's address: a link to a table, a map, a tutorial
        self.links.on_link(self.guard(lambda query, base: follow_link(self, query, base)))
        self._build_shell()
        self.first_screen.watch(self.new_game_box, self.tables.forms_box)
        if welcome:
            self.first_screen.show()
        else:
            self.build_game()

    def __getattr__(self, name: str) -> Any:
        """A part of the game (the board, a panel) asked for before the game was built
        builds it: the first screen has none, and whatever leaves it needs them."""
        if name in GAME_PARTS and not self.__dict__.get("_building", True):
            self.build_game()
            return getattr(self, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def build_game(self, map_name: str | None = None) -> None:
        """Build the board and the game's panels (once), with a game behind the first
        screen, on ``map_name`` (default: the app's map), as if they had been there from
        the start. The first screen needs none of them: a visitor's page gets them when it
        leaves it (a choice, a link, a resumed game)."""
        if self.game_built or self._building:
            return
        self._building = True
        try:
            self._build_game_parts(map_name or self._game_options[0])
        finally:
            self._building = False
        self.game_built = True
        behind = self.first_screen.showing
        self.start(fold=False, behind=behind)  # an open New game or Play with others stays
        if behind:
            self.first_screen.show()  # over the game, which it hides (and its words)

    def _build_game_parts(self, map_name: str) -> None:
        _, players, seats, seed, auto_bots = self._game_options
        if map_name != self.map.id:
            self.map = load_map(map_name)
            self.ui = variant_uis.ui_class(self.map.rules)(self)
        self.setup = SetupPanel(self, map_name, players, seats, seed)
        self.board = BoardWidget(self.map, guard=self.guard)
        self.board.on_select(self.guard(lambda _route: self._render_claim_only()))
        self.board.on_city_click(self.guard(lambda place: self.ui.city_clicked(place)))
        self.board.focus_before = self.setup.kinds[0]
        self.prompt = Prompt(self.guard)
        self.turn = TurnHeader(self)
        self.offer = OfferPanel(self)
        self.claim = ClaimPanel(self)
        self.cards = CardsPanel(self)
        self.hand = HandPanel(self)
        self.timeline = TimelinePanel(self)
        self.bot_panel = BotPanel(self, auto_bots)
        self.files = FilesPanel(self)
        self.coach = CoachPanel(self)
        self.prompt.on_open.append(lambda: self.scroller.show(".ttr-prompt"))
        self.tutorial = TutorialPlay(self, self.tutorial_keeper)
        self.reminders = FirstGameReminders(self)
        self._build_layout()

    # ================================================================ layout
    def _build_shell(self) -> None:
        """The page's frame: the title, the status line, New game and Play with others
        (folded), the first screen, and the page's own parts (what the browser kept, the
        page's address); the game's parts go in between once built."""
        self.status = widgets.HTML(_dom_classes=["ttr-status-box"])
        self.connection = widgets.HTML(
            "<div class='ttr-lost'>The connection to the game engine is lost (the server "
            "restarted or stopped this game). Reload the page: it offers to resume your game "
            "from your browser's copy.</div>",
            _dom_classes=["ttr-connection"],
        )
        # New game's form is made when it is first opened (or the game is built).
        self.new_game_box = widgets.Accordion(
            children=[widgets.VBox()], _dom_classes=["ttr-new-game"]
        )
        self.new_game_box.set_title(0, "New game: map, players, seed")
        self.new_game_box.selected_index = None
        self.widget = widgets.VBox(
            [
                widgets.HTML(panels.APP_CSS),
                widgets.HTML(
                    "<div class='ttr-title'><b>Ticket to Ride: a teaching table</b> "
                    "<span class='ttr-note'>Unofficial teaching tool; Ticket to Ride is a "
                    "trademark of Days of Wonder, which does not endorse it.</span></div>",
                    _dom_classes=["ttr-title-box"],
                ),
                self.rules_card.widget,
                self.connection,
                self.status,
                self.new_game_box,
                self.tables.forms_box,
                self.first_screen.widget,
                self.store,
                self.scroller,
                self.access,
                self.tables.keeper,
                self.tables.timer,
                self.tutorial_keeper,
                self.links,
            ],
            _dom_classes=["ttr-app"],
        )

    def _build_layout(self) -> None:
        """The board and the game's panels, put in the page's frame."""
        self.explore_note = widgets.HTML(_dom_classes=["ttr-explore-note"])
        self.result_html = widgets.HTML(_dom_classes=["ttr-result-box"])
        self.scores_html = widgets.HTML(_dom_classes=["ttr-scores"])
        self.log_html = widgets.HTML(_dom_classes=["ttr-log"])
        self.about_html = widgets.HTML(_dom_classes=["ttr-about-text"])
        self.key_html = widgets.HTML(_dom_classes=["ttr-key"])
        self.variant_box = widgets.VBox(_dom_classes=["ttr-variant-panels"])
        self.variant_top_box = widgets.VBox(_dom_classes=["ttr-variant-top-panels"])
        self.new_game_box.children = [self.setup.widget]
        # On a phone the step's or the turn's words and the question stay on screen with
        # the board: the dock is a panel fixed at the bottom of the window (and the claim
        # panel, once a route is chosen, sits on it: panels.APP_CSS); on a wider screen the
        # dock is no box at all (display: contents). The page's order is the screen's, so
        # the keyboard and a screen reader meet the panels in the order they are seen.
        self.dock = widgets.VBox(
            [self.tutorial.widget, self.prompt.slot, self.turn.widget],
            _dom_classes=["ttr-dock"],
        )
        # Everything about the game; hidden at a table still waiting for its players (the
        # table's panel, above it, is then the whole column).
        self.game_panels = widgets.VBox(
            [
                self.dock,
                self.reminders.widget,
                self.coach.plain_widget,  # the first game's coach, beside (or under) the board
                self.result_html,
                self.coach.review_widget,
                self.variant_top_box,
                self.offer.widget,
                self.cards.widget,
                self.claim.widget,
                self.hand.widget,
                self.variant_box,
                widgets.VBox([self.scores_html], _dom_classes=["ttr-panel"]),
                self.coach.widget,
                self.bot_panel.widget,
            ],
            _dom_classes=["ttr-game-panels"],
        )
        self.play_column = widgets.VBox(
            [self.tables.table_box, self.game_panels], _dom_classes=["ttr-play-column"]
        )
        self.board_text = widgets.HTML(_dom_classes=["ttr-board-text"])
        self.board_column = widgets.VBox(
            [self.board.widget, self.board_text, self.explore_note],
            _dom_classes=["ttr-board-column"],
        )
        self.history_column = widgets.VBox(
            [self.timeline.widget, self.log_html], _dom_classes=["ttr-history-column"]
        )
        self.extras = extras = widgets.Accordion(
            children=[self.files.widget, self.about_html], _dom_classes=["ttr-extras"]
        )
        for i, title in enumerate(["Save and load", "About this map"]):
            extras.set_title(i, title)
        extras.selected_index = None
        # The page's order is the order the parts are seen in on a phone (one column: the
        # board, the play column, the history), so the keyboard and a screen reader meet
        # them in that order; a wider screen's grid puts the history under the board, the
        # play column beside both (panels.APP_CSS).
        self.main = widgets.Box(
            [
                widgets.VBox([self.board_column], _dom_classes=["ttr-left"]),
                self.play_column,
                self.history_column,
            ],
            _dom_classes=["ttr-main"],
        )
        if self.first_screen.showing:  # built behind the first screen: hidden with the rest
            for part in (self.main, self.key_html, extras):
                part.add_class(AWAY_CLASS)
        frame = list(self.widget.children)
        frame.insert(frame.index(self.connection), self.key_html)
        frame.insert(frame.index(self.first_screen.widget) + 1, self.main)
        frame.insert(frame.index(self.main) + 1, extras)
        self.widget.children = frame

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        # ipywidgets' own makes a text version from the repr of every widget in the tree
        # (hundreds); a title says as much.
        return {
            "application/vnd.jupyter.widget-view+json": {
                "version_major": 2,
                "version_minor": 0,
                "model_id": self.widget.model_id,
            },
            "text/plain": "Ticket to Ride: a teaching table (an interactive app)",
        }

    # ================================================================ queries
    @property
    def total_moves(self) -> int:
        """The number of moves made in the game (0 with no game)."""
        return len(self.game.history) if self.game else 0

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
        """Whether this page plays ``seat`` (at a shared table: only its own seat)."""
        if self.tables.active:
            return self.tables.plays(seat)
        return seat < len(self.seat_kinds) and self.seat_kinds[seat] == "human"

    def seat_role(self, seat: int) -> str:
        """Who plays ``seat``, in a word or two: ``you``, ``greedy bot``, ``another player``."""
        if self.is_human(seat):
            return "you"
        kind = self.seat_kinds[seat] if seat < len(self.seat_kinds) else "human"
        if self.tables.active:
            stand_in = self.tables.stand_in(seat)
            if stand_in:
                return f"a {stand_in} bot plays for them"
            if kind == "human":
                return "your seat, in another tab" if seat == self.tables.seat else "a player"
        return f"{kind} bot"

    def human_to_move(self) -> bool:
        """Whether a human seat is to move in the live game."""
        view = self.view
        return view is not None and not view.is_over and self.is_human(view.current_player)

    def viewer(self) -> int | None:
        """Whose hand and tickets are shown: the human to move, else the first human seat."""
        view = self.view
        if view is None:
            return None
        if self.tables.active:  # a table's page shows its own seat's cards, nobody else's
            return self.tables.seat
        if self.is_human(view.current_player):
            return view.current_player
        humans = [i for i in range(len(self.seat_kinds)) if self.is_human(i)]
        return humans[0] if humans else view.current_player

    def _compute_shown(self) -> Shown:
        view = self.view
        if view is None:
            return Shown(view=None)
        in_past = self.position < self.total_moves
        acting = not in_past and self.human_to_move()
        return Shown(
            view=view,
            legal=view.legal_actions() if acting else [],
            acting=acting,
            in_past=in_past,
            viewer=self.viewer(),
        )

    # ============================================================ new games
    def request_start(self) -> None:
        """*Start new game*: asks first if that would discard a game in progress."""
        if self.tables.active:
            self.prompt.ask(
                "Leave this table for a game of your own? Your seat stays yours: the table "
                "code and your seat code bring you back.",
                [("Leave", True)],
                lambda _yes: self.tables.leave(),
                ok_label="Yes: leave the table",
                cancel_label="No: stay",
            )
            return
        self.confirm_discard("Start a new game", self.start)

    def request_load_text(self, text: str, source: str = "the text box") -> None:
        """*Load*: check the save first, then ask before replacing a game in progress."""
        game = self._parse_save(text, source)
        if game is not None:
            self.confirm_discard(f"Load {source}", lambda: self.load_game(game, source))

    def confirm_discard(self, what: str, then: Callable[[], None]) -> None:
        """Run ``then`` at once, or after the learner agrees to drop the game in progress."""
        game = self.game
        kept = self.tables.active or self.tutorial.active  # the store, or a step rebuilt
        if game is None or not game.history or game.is_over or kept:
            then()  # a table's game is in the store: leaving it loses nothing
            return
        self.prompt.ask(
            f"{what}? The game in progress ({count(len(game.history), 'move')}) will be "
            "closed: save or download it first if you want to keep it.",
            [("Close it and go on", True)],
            lambda _yes: then(),
            ok_label=f"Yes: {what.lower()}",
            cancel_label="No: keep playing",
        )

    def start(self, fold: bool = True, behind: bool = False) -> None:
        """Start a game from the setup panel (or open the board in explore mode); ``fold``:
        fold the setup away, the board comes first. ``behind``: the game waiting behind the
        first screen (it stays; nobody plays that game yet: the browser does not keep it)."""
        names = self.setup.player_names()
        if names is None:
            self.new_game_box.selected_index = 0
            self._set_status("Check the players' names in the New game panel.", bad=True)
            return
        self.setup.note.clear()
        if fold:
            self.new_game_box.selected_index = None
        self.tutorial.stop()
        self.stop_bots()
        self.timeline.stop_replay()
        self.prompt.close()
        game_map = load_map(self.setup.map_name)
        seed = self.setup.seed_for_new_game()
        self.seat_kinds = self.setup.seat_kinds
        self.coach_allowed = self.setup.coach_allowed
        if game_map.id in playable_maps():
            game: Game | None = new_game(game_map, players=names, seed=seed)
            message = f"New game on the {game_map.name} map, seed {seed}."
        else:
            game = None
            message = f"Exploring the {game_map.name} board."
        self._open(game, game_map, message, behind)

    def load_game(self, game: Game, source: str) -> None:
        """Show a loaded game at its latest move (seat kinds stay as chosen in setup)."""
        self.tutorial.stop()
        self.stop_bots()
        self.timeline.stop_replay()
        self.setup.show_game(game.map.id, game.names, game.seed)
        self.seat_kinds = self.setup.seat_kinds
        self._open(
            game,
            game.map,
            f"Loaded a {game.map.name} game from {source}: {count(len(game.history), 'move')}.",
        )
        self.files.note.show(f"Loaded {source}.")

    def _open(self, game: Game | None, game_map: Map, message: str, behind: bool = False) -> None:
        if not behind:
            self.first_screen.close()
        self.game = game
        self.map = game_map
        self.ui = variant_uis.ui_class(game_map.rules)(self)
        self.board.set_map(game_map)
        # The column is as wide as the board is shown: beside a tall board (Germany's)
        # the history fills the room left, under a wide one it wraps below.
        self.board_column.layout.width = self.board.shown_width  # at most 100% (APP_CSS)
        # A board taller than wide gets the layout made for it (see APP_CSS): not a
        # variant's choice, the board's shape.
        width, height = self.board.size
        if width < height:
            self.widget.add_class("ttr-tall-board")
        else:
            self.widget.remove_class("ttr-tall-board")
        self.board.piece_painters[:] = [
            *self.ui.board_painters(),
            self._paint_trails,
            # The coach's review replays the game from its seed: not a tutorial's position.
            self.tutorial.paint if self.tutorial.active else self.coach.paint,
        ]
        self.board.fact_providers[:] = self.ui.fact_providers()
        self.board.piece_hits[:] = self.ui.piece_hits()
        self.variant_box.children = tuple(self.ui.panels())
        self.variant_top_box.children = tuple(self.ui.top_panels())
        # Folded to one line: the board gets the height (the letters are on the board).
        self.key_html.value = (
            "<details class='ttr-note ttr-key-line'><summary>Key to the board: colour "
            "letters, seat numbers and pieces</summary>"
            f"{panels.colour_legend_html(self.map)}{self.ui.colour_key()}</details>"
        )
        self.position = len(game.history) if game else 0
        self.dropped_moves = []
        self._view_cache = None
        self.board.select(None)
        self.files.reset()
        # A table moves its own bots and keeps its game in the store; a tutorial step is a
        # scripted position (never stored: its seed does not rebuild it), where nobody else moves.
        if self.tables.active or self.tutorial.active:
            self.bots = {}
            self.refresh(message)
            return
        self._make_bots()
        if game is not None and not behind:
            self.store.start(game)
        self.refresh(message)
        self.schedule_bots()

    # ============================================================ shared tables
    def open_table(self, client: Any, message: str) -> None:
        """Show a shared table (``client`` follows it); called by the table panel."""
        self.tutorial.stop()
        self.stop_bots()
        self.timeline.stop_replay()
        self.prompt.close()
        info = client.info
        self.seat_kinds = [s.kind for s in info.seats]
        self.coach_allowed = info.coach  # the table creator's setting (graded games: off)
        game_map = load_map(info.map)
        if client.game is None:  # waiting for players: the board, no game yet
            self._open(new_game(game_map, info.names, 0), game_map, message)
            self.game = None
            self.position = 0
            self.refresh(message)
            return
        self._open(client.game, game_map, message)

    def table_moved(self, moves_before: int) -> None:
        """The table changed (moves, seats; it had ``moves_before`` moves when this page last
        looked): redraw, following the new moves unless an earlier move is shown."""
        client = self.tables.client
        if client is None:
            return
        if client.game is not None and self.game is not client.game:  # the game started
            self.open_table(client, "Everyone is here: the game starts.")
            return
        self.coach_allowed = client.info.coach  # the creator or the teacher may switch it
        game = self.game
        moved = game is not None and len(game.history) > moves_before
        if game is not None and self.position >= moves_before:  # it was at the latest move
            self.position = len(game.history)
            self._view_cache = None
        last = game.log[-1] if game is not None and moved else None
        if game is not None and moved:  # read out the others' moves (a screen reader)
            for seat, line in zip(
                (m.player for m in game.history[moves_before:]),
                game.log[moves_before:],
                strict=True,
            ):
                if not self.is_human(seat):
                    self.access.announce(f"{line}.")
        self.refresh(f"{last}." if last else None, with_hint=bool(last))

    def leave_table(self) -> None:
        """Back from a table to a game of one's own."""
        self.game = None
        self.start()

    # ================================================================ acting
    def act(self, action: Any, where: Note | None = None) -> bool:
        """Apply a human's action; a refusal shows its rule (beside ``where`` too)."""
        view = self.view
        problem = None
        if view is None:
            problem = "This map is in explore mode: its rules are not implemented yet."
        elif view.is_over:
            problem = "The game is over."
        elif self.position < self.total_moves:
            problem = (
                "You are looking at an earlier move: press Continue from here to play from it, "
                "or Latest to go back."
            )
        elif not self.is_human(view.current_player):
            problem = (
                self.tables.not_my_turn(view)
                if self.tables.active
                else NOT_YOUR_TURN + " Use Next bot move (or tick the box) to go on."
            )
        if problem is not None:
            self._report(problem, where, bad=True)
            return False
        if self.tables.active:
            return self._apply_at_table(action, where)
        if self.tutorial.active and not self.tutorial.allows(action, where):
            return False  # the tutorial's referee said why
        return self._apply(action, by_bot=False, where=where)

    def report(self, message: str, where: Note | None = None) -> None:
        """Show a refusal beside ``where`` and in the status line."""
        self._report(message, where, bad=True)

    def _apply_at_table(self, action: Any, where: Note | None) -> bool:
        """A move at a shared table: stored first, then shown (the table decides)."""
        assert self.game is not None
        line = self.game.describe(action)
        try:
            refused = self.tables.play(action)
        except IllegalActionError as exc:
            rule = panels.second_person(exc.rule)
            self._report(f"Not allowed: {exc.player} cannot {exc.action}: {rule}.", where, True)
            return False
        self.position = len(self.game.history)
        self._view_cache = None
        if refused is not None:
            self._report(refused, where, bad=True)
            return False
        if where is not None:
            where.clear()
        if isinstance(action, ClaimRoute):
            self.board.select(None)
        self.refresh(f"{line}.", with_hint=True)
        return True

    def act_one_of(
        self,
        actions: list[Any],
        where: Note,
        fallback: Any = None,
        near: widgets.Box | None = None,
    ) -> bool:
        """Act on one click: directly if it means one action, else ask which (variant words),
        in ``near`` when given (an empty box beside the button clicked)."""
        if len(actions) <= 1:
            chosen = actions[0] if actions else fallback
            if chosen is None:
                self._report("That is not possible now.", where, bad=True)
                return False
            return self.act(chosen, where)
        view = self.view
        assert view is not None
        self.prompt.ask(
            self.ui.choice_question(view, actions),
            self.ui.choices(view, actions),
            lambda action: self.act(action, where),
            near=near,
        )
        return True

    def _apply(self, action: Any, by_bot: bool, where: Note | None = None) -> bool:
        assert self.game is not None
        line = self.game.describe(action)
        try:
            self.game.apply(action)
        except IllegalActionError as exc:
            rule = panels.second_person(exc.rule) if not by_bot else exc.rule
            self._report(f"Not allowed: {exc.player} cannot {exc.action}: {rule}.", where, True)
            return False
        self.dropped_moves = []  # a new move commits the branch
        if where is not None:
            where.clear()
        self.position = len(self.game.history)
        self._view_cache = None
        if isinstance(action, ClaimRoute):
            self.board.select(None)
        if not self.tutorial.active:
            self.store.follow(self.game)
        if by_bot:
            self.access.announce(f"{line}.")
        self.refresh(("Bot: " if by_bot else "") + f"{line}.", with_hint=True)
        self.schedule_bots()
        return True

    def _report(self, message: str, where: Note | None, bad: bool) -> None:
        if where is not None:
            where.show(message, bad)
        if bad:
            self.access.announce(message)
        self.refresh(message, bad=bad)

    # ============================================================= drawing
    def refresh(
        self, message: str | None = None, bad: bool = False, with_hint: bool = False
    ) -> None:
        """Redraw every panel and the board from the shown game state.

        The status line shows ``message`` (followed by what to do next when
        ``with_hint``), or else what to do next.
        """
        self.rendering = True
        try:
            self._render_all(message, bad, with_hint)
        finally:
            self.rendering = False

    def _render_all(self, message: str | None, bad: bool, with_hint: bool = False) -> None:
        self.shown = shown = self._compute_shown()
        view = shown.view
        playable = view is not None
        if self._about_map != self.map.id:
            self._about_map = self.map.id
            self.about_html.value = panels.about_html(
                self.map, self.map.id in playable_maps(), self.board.geometry.moved_places
            )
        at_table = self.tables.active  # a table waiting for players has no game yet
        for box in (self.timeline.widget, self.log_html):
            box.layout.display = "" if playable else "none"
        self.play_column.layout.display = "" if playable or at_table else "none"
        self.game_panels.layout.display = "" if playable else "none"
        self.explore_note.value = "" if playable or at_table else panels.explore_html(self.map)
        if view is None:
            self.board_text.value = ""
            self.board.set_pieces(BoardPieces())
            for panel in (self.turn, self.offer, self.claim, self.cards, self.hand):
                panel.render(shown)  # nothing of a game stays behind
            self.tables.render()
            self._set_status(message or self.tables.idle_text() or "Explore mode.", bad)
            return
        self.draw_board()  # first: it is what the learner watches after a click
        self.board_text.value = panels.board_text_html(
            view,
            shown.viewer,
            lambda t: self.ui.ticket_text(view, t),
            [self.seat_role(seat) for seat in range(len(view.state.players))],
        )
        for panel in (self.turn, self.offer, self.claim, self.cards, self.hand):
            panel.render(shown)
        for box in (self.claim.widget, self.cards.widget):  # nothing to act on once over
            box.layout.display = "none" if view.is_over else ""
        self.ui.render(shown)
        if not self.tutorial.active:  # (see _open: the coach replays from the seed)
            self.coach.render(shown)
        self.timeline.render(shown)
        self.bot_panel.render(shown)
        self.bot_panel.widget.layout.display = "none" if self.tables.active else ""
        self.tutorial.render(shown)  # puts away what a tutorial step has no use for
        self.rules_card.render()  # (its words follow the map)
        self.reminders.render(shown)
        self.tables.render()
        self.files.render()
        self.scores_html.value = panels.scores_html(
            view, self.seat_kinds, self.ui.player_columns(view)
        )
        assert self.game is not None
        self.log_html.value = panels.log_html(self.game, self.position)
        self.result_html.value = (
            panels.result_html(
                view, self.ui.end_sections(view), lambda t: self.ui.ticket_text(view, t)
            )
            if view.is_over
            else ""
        )
        hint = self._turn_hint()
        self._set_status(f"{message} {hint}" if message and with_hint else message or hint, bad)

    def _render_claim_only(self) -> None:
        self.claim.render(self.shown)
        if self.board.selected is not None:  # beside the board: the route and how to pay
            self.scroller.show(".ttr-selected", min_width=901)
            self.scroller.show("button.ttr-claim", min_width=901)

    def draw_board(self) -> None:
        """Draw the shown position on the board: claims, highlights, the routes one may claim."""
        shown = self.shown
        view = shown.view
        if view is None:
            return
        claimable = (
            frozenset(a.route for a in shown.legal if isinstance(a, ClaimRoute))
            if self.claim.show_claimable.value
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

    def _paint_trails(self, layer: Any, geometry: Any, pieces: BoardPieces) -> None:
        """At the end, outline each player's longest continuous trail (where it scores)."""
        game = pieces.game
        if game is None or not game.is_over or not panels.scores_longest_trail(game):
            return
        for seat, player in enumerate(game.state.players):
            routes = [game.map.route_by_id[rid] for rid in player.routes]
            edges = [(r.a, r.b, r.length) for r in routes]
            route_of = {id(edge): r.id for edge, r in zip(edges, routes, strict=True)}
            ids = [route_of[id(edge)] for edge in longest_trail(edges)]
            outline_routes(layer, geometry, ids, seat)

    def _turn_hint(self) -> str:
        view = self.view
        if view is None:
            return "Explore mode."
        told = self.tutorial.hint()
        if told:
            return told
        if view.is_over:
            return "The game is over: see the final scores."
        if self.position < self.total_moves:
            return f"Showing move {self.position} of {self.total_moves}."
        name = view.state.players[view.current_player].name
        last = panels.last_round_text(view)
        if self.tables.active and not self.is_human(view.current_player):
            return f"{self.tables.waiting_text(view)}{last}"
        if not self.is_human(view.current_player):
            how = "bots move on their own" if self.bot_panel.auto.value else "press Next bot move"
            return f"{name} moves next ({how}).{last}"
        pending = view.state.pending
        if pending == "keep_tickets":
            return f"{name}: choose the tickets to keep.{last}"
        if pending == "second_card":
            return f"{name}: take a second card.{last}"
        step = self.ui.step_text(view)
        options = panels.options_text(self.shown.legal, lambda a: self.ui.move_words(view, a))
        return f"{name}: {step or options}.{last}"

    def _set_status(self, message: str, bad: bool = False) -> None:
        cls = "ttr-status ttr-bad" if bad else "ttr-status"
        # The status is written last after each change; its counters tell a
        # browser test that the whole page has caught up.
        self._status_serial += 1
        self.status.value = (
            f"<div class='{cls}' data-serial='{self._status_serial}' "
            f"data-position='{self.position}' data-total='{self.total_moves}'>"
            f"{html.escape(message)}</div>"
        )

    def say(self, message: str) -> None:
        """Show ``message`` in the status line (a panel confirming what it did)."""
        self._set_status(message)

    def _show_error(self, summary: str) -> None:
        self._set_status(summary, bad=True)

    # ============================================================ tutorial
    def start_tutorial(self, map_id: str, step: int = 0) -> None:
        """Open the tutorial of ``map_id`` (``"usa"``, ...) at ``step``; a map without one
        raises ValueError."""
        self.tutorial.start(map_id, step)

    def open_position(self, game: Game, message: str) -> None:
        """Show a tutorial step's position (built by the engine, not stored)."""
        self._open(game, game.map, message)


def launch(**options: Any) -> GameApp:
    """Build the app, show it in the notebook, and return it.

    This is what ``notebooks/app.ipynb`` (the page Voilà serves) runs. The app opens on
    its first screen (*Learn to play*, *Play*, *Shared tables*) unless ``welcome=False``.

    Parameters
    ----------
    **options
        Keyword arguments of :class:`GameApp`: the map and players of a game to open at
        once, the bots, the table store, and ``welcome``.

    Returns
    -------
    GameApp
        The app; its ``widget`` is the one displayed.

    See Also
    --------
    GameApp : The app itself, built without displaying it.

    Examples
    --------
    In a notebook cell the app appears; outside one (here) the display prints the
    app's name:

    >>> app = launch(map_name="usa", players=2, welcome=False)  # doctest: +ELLIPSIS
    <ttr_nb.widgets.app.GameApp object at ...>
    >>> app.map.name, app.game.num_players, app.game.phase
    ('USA', 2, 'setup')
    """
    options.setdefault("welcome", True)
    app = GameApp(**options)
    display(app)
    return app
