"""*Play with others*: open a shared table, join one by its code, come back to your seat.

The game of a table lives in the database (:mod:`ttr_nb.tables`); this page holds a
:class:`~ttr_nb.tables.client.TableClient` that follows it. A browser-side timer asks the
kernel to look at the table a few times a second (one cheap query when nothing moved); a new
move is then drawn at once, and when a bot is to move, this page may make its move (one
page at a time: the store's lease).

The page shows the public table and this seat's own hand, tickets and choices, never another
seat's. Its browser keeps the seat's token (``localStorage``), so a reload comes back to the
seat; on another device the seat code brings the player back.
"""

from __future__ import annotations

import html
import logging
import secrets
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from ..coach import record_move
from ..errors import (
    IllegalActionError,
    SeatElsewhereError,
    StaleMoveError,
    StoreFaultError,
    TableError,
)
from ..game import MAX_NAME_CHARS
from ..maps import load_map
from ..rules import playable_maps
from ..tables.codes import normal_code, show_code
from .controls import Note, browser_timer, button, count
from .storage import SeatKeeper

if TYPE_CHECKING:
    from ..tables import Seated, TableInfo, TableStore
    from ..tables.client import TableClient
    from .app import GameApp

log = logging.getLogger(__name__)

TABLE_CSS = """<style>
.ttr-table-turn-mine { background: #2e7d32; color: #fff; font-size: 1.25em; font-weight: bold;
  padding: 6px 10px; border-radius: 6px; animation: ttr-your-turn 1.2s ease-in-out 3; }
.ttr-table-turn-other { font-size: 1.1em; font-weight: bold; color: #333; }
.ttr-table-code b { font-size: 1.2em; letter-spacing: 0.08em; }
.ttr-table-seats-list { margin: 4px 0; padding-left: 1.2em; }
@keyframes ttr-your-turn { 50% { background: #66bb6a; } }
</style>"""
POLL_MS = 400  # how often the page looks at the table (a move shows within about this)
HEARTBEAT_S = 20.0  # how often the page says its seat is still open
SEAT_CHOICES = [
    ("A player who joins", "human"),
    ("Beginner bot", "beginner"),
    ("Greedy bot", "greedy"),
    ("Random bot", "random"),
    ("Hard: search bot (1 s)", "search"),
]


def _text_box(label: str, cls: str, placeholder: str = "") -> widgets.Text:
    """A text box; what it holds is checked in the kernel (a page's input can be forged)."""
    return widgets.Text(
        description=label,
        placeholder=placeholder,
        layout=widgets.Layout(width="auto", max_width="100%"),
        style={"description_width": "initial"},
        _dom_classes=[cls],
    )


class TablePlay:
    """The app's *Play with others* panel and, once seated, its live link to the table."""

    def __init__(self, app: GameApp, store_factory: Callable[[], TableStore] | None = None) -> None:
        self.app = app
        self._store_factory = store_factory
        self._store: TableStore | None = None
        self.session = secrets.token_hex(12)  # this page
        self.client: TableClient | None = None
        self.seated: Seated | None = None
        self.creator_token: str | None = None
        self.seat_code: str | None = None
        self.elsewhere = False  # another tab or device holds our seat now
        self.trouble = False  # the table note shows a store fault (cleared when it answers)
        self._last_heartbeat = 0.0
        guard = app.guard

        self.keeper = SeatKeeper()
        self.keeper.on_stored(guard(self._come_back_from_browser))
        self.timer = browser_timer(POLL_MS, "ttr-table-timer", guard(lambda: self.on_tick()))

        # Built when first needed (most visitors never open a table: each widget costs the
        # server and the browser on every visit).
        self._forms_built = False
        self.forms_box = widgets.Accordion(
            children=[widgets.HTML("<div class='ttr-note'>…</div>")], _dom_classes=["ttr-tables"]
        )
        self.forms_box.set_title(0, "Play with others: open or join a table")
        self.forms_box.selected_index = None
        self.forms_box.observe(guard(lambda _c: self._build_forms()), names="selected_index")
        self._box_built = False
        self.table_box = widgets.VBox(
            _dom_classes=["ttr-panel", "ttr-table-box"], layout=widgets.Layout(display="none")
        )

    # ------------------------------------------------------------------ helpers
    def _build_forms(self) -> None:
        """The forms of *Play with others*, made when the panel is first opened."""
        if self._forms_built or self.forms_box.selected_index is None:
            return
        self._forms_built = True
        guard = self.app.guard
        if sys.platform == "emscripten":  # the static site: Python in the browser, no server
            self.forms_box.children = (
                widgets.HTML(
                    "<div class='ttr-note ttr-table-needs-server'>Tables need a server the "
                    "whole class reaches: this page runs entirely in your browser, so other "
                    "browsers cannot reach its game. Play with others on the app served by "
                    "Voilà on a class machine (make app) or on a JupyterHub; not on Binder, "
                    "where each visitor has a server of their own.</div>"
                ),
            )
            return
        # ---- open a table
        playable = playable_maps()
        self.map_picker = widgets.Dropdown(
            description="Map:",
            options=[(load_map(name).name, name) for name in playable],
            value="usa" if "usa" in playable else playable[0],
            _dom_classes=["ttr-table-map"],
            layout=widgets.Layout(width="auto", max_width="100%"),
        )
        self.seat_count = widgets.Dropdown(
            description="Seats:",
            options=[2, 3, 4, 5],
            value=3,
            layout=widgets.Layout(width="150px"),
            _dom_classes=["ttr-table-seats"],
        )
        self.seat_count.observe(guard(lambda _c: self._show_seat_pickers()), names="value")
        self.seat_pickers = [
            widgets.Dropdown(
                description=f"Seat {i + 1}:",
                options=SEAT_CHOICES,
                value="human",
                layout=widgets.Layout(width="auto"),
                _dom_classes=[f"ttr-table-seat-{i}"],
            )
            for i in range(5)
        ]
        self.creator_name = self._name_box("ttr-table-creator-name")
        self.creator_plays = widgets.Checkbox(
            value=True,
            description="I play at this table (the first player's seat)",
            indent=False,
            _dom_classes=["ttr-table-creator-plays"],
        )
        self.coach_allowed = widgets.Checkbox(
            value=True,
            description="Players may open the coach (untick for a graded game)",
            indent=False,
            _dom_classes=["ttr-table-coach"],
        )
        self.open_button = button("Open the table", "ttr-table-open")
        self.open_button.on_click(guard(lambda _b: self.open_table()))
        self.open_note = Note("ttr-table-open-note")

        # ---- join a table
        self.join_code = self._code_box("Table code:", "ttr-table-join-code")
        self.join_name = self._name_box("ttr-table-join-name")
        self.find_button = button("Find the table", "ttr-table-find")
        self.find_button.on_click(guard(lambda _b: self.find_table()))
        self.free_seats = widgets.HBox(
            layout=widgets.Layout(flex_flow="row wrap"), _dom_classes=["ttr-table-free-seats"]
        )
        self.join_note = Note("ttr-table-join-note")

        # ---- come back from another device
        self.back_code = self._code_box("Table code:", "ttr-table-back-code")
        self.back_seat_code = self._code_box("Seat code:", "ttr-table-back-seat-code")
        self.back_button = button("Back to my seat", "ttr-table-back")
        self.back_button.on_click(guard(lambda _b: self.come_back_by_code()))
        self.back_note = Note("ttr-table-back-note")

        forms = widgets.VBox(
            [
                widgets.HTML(
                    "<div class='ttr-note'>Everyone plays from their own laptop or phone: "
                    "open a table, read out its code, and the others join it from this page. "
                    "Each page shows the board and its own player's cards only.</div>"
                ),
                widgets.HTML("<h3>Open a table</h3>"),
                widgets.HBox(
                    [self.map_picker, self.seat_count], layout=widgets.Layout(flex_flow="row wrap")
                ),
                widgets.VBox(self.seat_pickers, _dom_classes=["ttr-table-seat-pickers"]),
                self.creator_plays,
                self.creator_name,
                self.coach_allowed,
                self.open_button,
                self.open_note.widget,
                widgets.HTML("<h3>Join a table</h3>"),
                self.join_code,
                self.join_name,
                self.find_button,
                self.free_seats,
                self.join_note.widget,
                widgets.HTML("<h3>Back to my seat from another device</h3>"),
                self.back_code,
                self.back_seat_code,
                self.back_button,
                self.back_note.widget,
            ],
            _dom_classes=["ttr-table-forms"],
        )
        self.forms_box.children = (forms,)
        self._show_seat_pickers()

    def _build_table_box(self) -> None:
        """The panel shown at a table, made when this page first sits at one."""
        if self._box_built:
            return
        self._box_built = True
        guard = self.app.guard
        self.header = widgets.HTML(_dom_classes=["ttr-table-header"])
        self.seat_list = widgets.HTML(_dom_classes=["ttr-table-seat-list"])
        self.turn_banner = widgets.HTML(_dom_classes=["ttr-table-turn"])
        self.take_over_button = button("Play here", "ttr-table-take-over")
        self.take_over_button.on_click(guard(lambda _b: self.take_over()))
        self.creator_seat = widgets.Dropdown(
            description="Seat:",
            options=[],
            layout=widgets.Layout(width="auto"),
            _dom_classes=["ttr-table-creator-seat"],
        )
        self.give_button = button("Give to a greedy bot", "ttr-table-give")
        self.give_button.on_click(guard(lambda _b: self._creator("give")))
        self.take_back_button = button("Give back to its player", "ttr-table-take-back")
        self.take_back_button.on_click(guard(lambda _b: self._creator("take back")))
        self.free_seat_button = button("Free this seat (its player never moved)", "ttr-table-free")
        self.free_seat_button.on_click(guard(lambda _b: self._creator("free")))
        self.start_now_button = button("Start now: bots in the free seats", "ttr-table-start-now")
        self.start_now_button.on_click(guard(lambda _b: self._creator("start")))
        self.close_button = button("Close the table", "ttr-table-close")
        self.close_button.on_click(guard(lambda _b: self._ask_close()))
        self.coach_button = button("Switch the coach off", "ttr-table-coach-switch")
        self.coach_button.on_click(guard(lambda _b: self._creator("coach")))
        self.creator_box = widgets.VBox(
            [
                widgets.HTML("<b>You opened this table:</b>"),
                widgets.HBox(
                    [
                        self.creator_seat,
                        self.give_button,
                        self.take_back_button,
                        self.free_seat_button,
                    ],
                    layout=widgets.Layout(flex_flow="row wrap"),
                ),
                widgets.HBox(
                    [self.start_now_button, self.coach_button, self.close_button],
                    layout=widgets.Layout(flex_flow="row wrap"),
                ),
            ],
            _dom_classes=["ttr-table-creator"],
        )
        self.leave_button = button("Leave the table (your seat stays yours)", "ttr-table-leave")
        self.leave_button.on_click(guard(lambda _b: self.leave()))
        self.table_note = Note("ttr-table-note")
        self.table_box.children = tuple(
            [
                widgets.HTML(TABLE_CSS),
                self.turn_banner,
                self.header,
                self.seat_list,
                self.take_over_button,
                self.creator_box,
                self.leave_button,
                self.table_note.widget,
            ]
        )

    @property
    def store(self) -> TableStore:
        """The tables' store, opened on first use."""
        if self._store is None:
            from ..tables.store import open_store

            self._store = open_store(self._store_factory)
        return self._store

    @property
    def active(self) -> bool:
        """True while this page shows a shared table."""
        return self.client is not None

    @property
    def seat(self) -> int | None:
        """The seat this page plays (None: it watches)."""
        return self.seated.seat if self.seated is not None else None

    def plays(self, seat: int) -> bool:
        """Whether this page moves for ``seat`` now (not while a bot stands in, or while
        another tab holds the seat)."""
        client = self.client
        return bool(
            client is not None
            and seat == self.seat
            and not self.elsewhere
            and client.info.status == "playing"
            and client.info.seats[seat].played_by_bot is None
        )

    def stand_in(self, seat: int) -> str | None:
        """The kind of bot standing in for ``seat``'s player, or None."""
        client = self.client
        return client.info.seats[seat].stand_in if client is not None else None

    def not_my_turn(self, view: Any) -> str:
        """Why this page cannot move now, in the player's words."""
        if self.client is not None and self.client.info.status != "playing":
            return (
                "The game at this table has not started yet."
                if (self.client.info.status == "open")
                else "This table's game is over or was closed."
            )
        if self.seat is None:
            return "You are watching this table."
        if self.elsewhere:
            return "Your seat is open in another tab or on another device: press Play here."
        name = view.state.players[view.current_player].name
        return f"It is {name}'s turn, not yours: wait for your turn."

    def waiting_text(self, view: Any) -> str:
        """The status line while another seat is to move."""
        if self.elsewhere:
            return (
                "Your seat is now open in another tab or on another device; this page only "
                "watches. Press Play here to play on this page."
            )
        seat = view.current_player
        info = self.client.info if self.client else None
        name = view.state.players[seat].name
        if info is not None and info.seats[seat].free:
            return (
                f"Seat {seat + 1} is free: waiting for someone to take it with the table code "
                "(or for the creator to put a bot there)."
            )
        if info is not None and info.seats[seat].played_by_bot:
            return f"{name} (a bot) is moving."
        if info is not None and info.seats[seat].away:
            return f"Waiting for {name} (away for a few minutes)."
        return f"Waiting for {name} to move."

    def watch(self, seated: Seated) -> None:
        """Show a table without a seat (the teacher's page)."""
        from ..tables.client import TableClient

        self._build_table_box()
        self.seated = seated
        self.seat_code = None
        self.creator_token = None
        self.client = TableClient(self.store, seated.table_id, session=self.session)
        self.elsewhere = False
        self.table_box.layout.display = ""
        self.timer.playing = True
        self.app.open_table(self.client, f"Watching table {show_code(seated.code)}.")

    @staticmethod
    def _name_box(cls: str) -> widgets.Text:
        return _text_box("Your name:", cls, f"as the others know you (at most {MAX_NAME_CHARS})")

    @staticmethod
    def _code_box(label: str, cls: str) -> widgets.Text:
        return _text_box(label, cls, "six letters and digits, like K7Q X4M")

    def _show_seat_pickers(self) -> None:
        for i, picker in enumerate(self.seat_pickers):
            picker.layout.display = "" if i < self.seat_count.value else "none"

    def _failed(self, note: Note, exc: Exception) -> None:
        if isinstance(exc, TableError):
            message = str(exc)
            message = message[0].upper() + message[1:]
        else:  # the database is unreachable, a disk is full ...: the log has it
            log.exception("table request failed")
            message = "The table could not be reached just now; try again in a moment."
        note.show(message, bad=True)
        self.app._set_status(message, bad=True)

    # ------------------------------------------------------------------ opening and joining
    def open_table(self) -> None:
        """Open a table with the chosen map and seats, and show its code."""
        seats = [p.value for p in self.seat_pickers[: self.seat_count.value]]
        plays = self.creator_plays.value
        name = self.creator_name.value.strip() if plays else None
        if plays and not name:
            self.open_note.show("Type your name first (the others see it).", bad=True)
            return
        if plays and seats[0] != "human":
            self.open_note.show(
                "You play at this table: make seat 1 'A player who joins' (it is yours).",
                bad=True,
            )
            return

        def go() -> None:
            try:
                made = self.store.create_table(
                    self.map_picker.value,
                    seats,
                    name,
                    session=self.session,
                    coach=self.coach_allowed.value,
                )
            except Exception as exc:  # noqa: BLE001 - shown in words, logged in full
                self._failed(self.open_note, exc)
                return
            self.open_note.clear()
            self._sit(made, creator_token=made.creator_token)

        self.app.confirm_discard("Open a table", go)

    def find_table(self) -> None:
        """Look the typed table code up and list its free seats."""
        try:
            info = self.store.table(self.join_code.value, page=self.session)
        except Exception as exc:  # noqa: BLE001
            self.free_seats.children = ()
            self._failed(self.join_note, exc)
            return
        if info.status in ("over", "closed"):
            self.join_note.show(
                "The game at this table is over."
                if info.status == "over"
                else "This table was closed.",
                bad=True,
            )
            return
        free = [s for s in info.seats if s.free]
        if not free:
            self.free_seats.children = ()
            self.join_note.show(
                "Every seat at this table is taken. If one is yours, use 'Back to my seat' "
                "with your seat code.",
                bad=True,
            )
            return
        buttons = []
        for seat in free:
            take = button(f"Sit in seat {seat.seat + 1}", f"ttr-table-sit-{seat.seat}")
            take.on_click(self.app.guard(lambda _b, s=seat.seat, c=info.code: self.join(c, s)))
            buttons.append(take)
        self.free_seats.children = tuple(buttons)
        names = ", ".join(
            f"{s.seat + 1}: {html.escape(s.name)}" if s.name else f"{s.seat + 1}: free"
            for s in info.seats
        )
        self.join_note.show(
            f"Table {show_code(info.code)} ({load_map(info.map).name}); seats {names}."
        )

    def join(self, code: str, seat: int) -> None:
        """Take seat ``seat`` at table ``code`` under the typed name."""
        name = self.join_name.value.strip()
        if not name:
            self.join_note.show("Type your name first (the others see it).", bad=True)
            return

        def go() -> None:
            try:
                seated = self.store.join(code, name, seat, session=self.session)
            except Exception as exc:  # noqa: BLE001
                self._failed(self.join_note, exc)
                return
            self.free_seats.children = ()
            self.join_note.clear()
            self._sit(seated)

        self.app.confirm_discard("Join the table", go)

    def come_back_by_code(self) -> None:
        """*Back to my seat*: take the seat back with the table code and the seat code."""
        try:
            seated = self.store.rejoin_by_code(
                self.back_code.value, self.back_seat_code.value, session=self.session
            )
        except Exception as exc:  # noqa: BLE001
            self._failed(self.back_note, exc)
            return
        self.back_note.clear()
        self._sit(seated, seat_code=normal_code(self.back_seat_code.value))

    def _come_back_from_browser(self, stored: dict[str, Any]) -> None:
        """The browser kept a seat: come back to it (a reload), unless a game is under way."""
        token = stored.get("token")
        if not isinstance(token, str) or self.active:
            return
        game = self.app.game
        if game is not None and game.history and not game.is_over:
            return  # never drop a solo game in progress without asking: the forms offer it
        try:
            seated = self.store.rejoin(token, session=self.session)
        except StoreFaultError as exc:  # the seat is still this browser's: keep its token
            self.app._set_status(
                f"Your table seat could not be restored just now: {exc}. Reload the page "
                "later to come back to it.",
                bad=True,
            )
            return
        except TableError as exc:
            self.keeper.forget()
            self.app._set_status(f"Your table seat was not restored: {exc}.", bad=True)
            return
        except Exception:  # noqa: BLE001
            log.exception("table rejoin failed")
            self.app._set_status(
                "Your table seat could not be restored just now (the server's log has the "
                "details). Reload the page later to come back to it.",
                bad=True,
            )
            return
        creator = stored.get("creator")
        seat_code = stored.get("seat_code")
        self._sit(
            seated,
            creator_token=creator if isinstance(creator, str) else None,
            token=token,
            seat_code=seat_code if isinstance(seat_code, str) else None,
        )

    def take_over(self) -> None:
        """This page plays the seat again (it had moved to another tab or device)."""
        if self.seated is None or self.client is None:
            return
        token = self.client.token
        try:
            self.store.rejoin(token or "", session=self.session)
        except Exception as exc:  # noqa: BLE001
            self._failed(self.table_note, exc)
            return
        self.elsewhere = False
        self.table_note.show("This page plays your seat again.")
        self.app.refresh("This page plays your seat again.")

    def _sit(
        self,
        seated: Seated,
        creator_token: str | None = None,
        token: str | None = None,
        seat_code: str | None = None,
    ) -> None:
        """Show the table ``seated`` is at, as its seat (or as a watcher)."""
        from ..tables.client import TableClient

        self._build_table_box()
        token = seated.token or token
        self.seated = seated
        self.seat_code = seated.seat_code or seat_code
        self.creator_token = creator_token
        try:
            client = TableClient(
                self.store, seated.table_id, seat=seated.seat, token=token, session=self.session
            )
        except TableError as exc:  # a damaged log, the store gone: the browser keeps the seat
            self.keeper.keep(
                {
                    "token": token,
                    "creator": creator_token,
                    "code": seated.code,
                    "seat_code": self.seat_code,
                }
            )
            self.app._set_status(_sentence(exc), bad=True)
            return
        self.client = client
        self.elsewhere = False
        self.keeper.keep(
            {
                "token": token,
                "creator": creator_token,
                "code": seated.code,
                "seat_code": self.seat_code,
            }
        )
        self.forms_box.selected_index = None
        self.table_box.layout.display = ""
        self.timer.playing = True
        self.app.open_table(self.client, self._welcome())

    def _welcome(self) -> str:
        info = self.client.info if self.client else None
        if info is None or self.seated is None:
            return ""
        if info.status == "open":
            free = sum(1 for s in info.seats if s.free)
            return (
                f"Table {show_code(info.code)} is open: {count(free, 'seat')} still free. "
                "Read the code out: the others type it under Play with others."
            )
        return f"At table {show_code(info.code)}."

    def leave(self) -> None:
        """Back to a solo game; the seat stays this player's (the seat code brings them back)."""
        self.timer.playing = False
        self.client = None
        self.seated = None
        self.creator_token = None
        self.keeper.forget()
        self.table_box.layout.display = "none"
        self.app.leave_table()

    # ------------------------------------------------------------------ the creator
    def _creator(self, what: str) -> None:
        client, token = self.client, self.creator_token
        if client is None or token is None:
            return
        seat = self.creator_seat.value
        try:
            if what == "give":
                self.store.give_to_bot(client.table_id, token, seat, "greedy")
                message = f"A greedy bot plays seat {seat + 1} until you give it back."
            elif what == "take back":
                self.store.take_back(client.table_id, token, seat)
                message = f"Seat {seat + 1} is played by its player again."
            elif what == "free":
                self.store.free_seat(client.table_id, seat, creator_token=token)
                message = (
                    f"Seat {seat + 1} is free again: someone may join it with the table code "
                    "(or press Start now to put a bot there)."
                )
            elif what == "coach":
                on = not client.info.coach
                self.store.set_coach(client.table_id, on, token)
                message = (
                    "Every player may open the coach now."
                    if on
                    else "The coach is switched off for everyone at this table (a graded game)."
                )
            else:
                self.store.start_now(client.table_id, token)
                message = "The game starts: bots took the free seats."
        except Exception as exc:  # noqa: BLE001
            self._failed(self.table_note, exc)
            return
        self.table_note.show(message)
        self.on_tick(force=True)

    def _ask_close(self) -> None:
        client, token = self.client, self.creator_token
        if client is None or token is None:
            return
        self.app.prompt.ask(
            "Close this table for everyone? Its game stops where it is (the teacher can still "
            "see it).",
            [("Close it", True)],
            lambda _yes: self._close(),
            ok_label="Yes: close the table",
            cancel_label="No: keep playing",
        )

    def _close(self) -> None:
        client, token = self.client, self.creator_token
        if client is None or token is None:
            return
        try:
            self.store.close_table(client.table_id, token)
        except Exception as exc:  # noqa: BLE001
            self._failed(self.table_note, exc)
            return
        self.on_tick(force=True)

    # ------------------------------------------------------------------ playing
    def play(self, action: Any) -> str | None:
        """Store this seat's move; None when stored, else what to tell the player."""
        client = self.client
        if client is None:
            return "You are not at a table."
        if self.elsewhere:
            return "Your seat is open in another tab or on another device: press Play here."
        try:
            client.play(action)
        except StaleMoveError:
            return "The table moved on: another move came first. Here is the new position."
        except SeatElsewhereError as exc:
            self.elsewhere = True
            return f"{str(exc)[0].upper()}{str(exc)[1:]}: press Play here to play on this page."
        except IllegalActionError:
            raise
        except TableError as exc:
            return f"{str(exc)[0].upper()}{str(exc)[1:]}."
        return None

    def on_tick(self, force: bool = False) -> None:
        """Look at the table: new moves, seats coming and going, a bot to move."""
        client = self.client
        if client is None:
            self.timer.playing = False
            return
        before = client.seen_version
        status_before = client.info.status
        moves_before = len(client.game.history) if client.game is not None else 0
        try:
            new = client.sync(force=force)
            now = time.monotonic()
            if client.seat is not None and now - self._last_heartbeat > HEARTBEAT_S:
                self._last_heartbeat = now
                try:
                    client.heartbeat()
                except SeatElsewhereError:
                    force = force or not self.elsewhere  # redraw: this page now watches
                    self.elsewhere = True
            bot_moves = 0
            if not self.elsewhere:
                bot_moves = client.move_bots(max_moves=1, explain=_explain)
        except TableError as exc:
            self.trouble = True
            self.table_note.show(_sentence(exc), bad=True)
            return
        except Exception:  # noqa: BLE001 - the database may be back at the next tick
            log.exception("table poll failed")
            self.trouble = True
            self.table_note.show(
                "The table could not be read just now (the server's log has the details); "
                "retrying.",
                bad=True,
            )
            return
        if self.trouble:
            self.trouble = False
            self.table_note.show("The table store answers again: play goes on.")
            force = True
        changed = client.seen_version != before or client.info.status != status_before
        if new or bot_moves or changed or force:
            self.app.table_moved(moves_before)
            if client.game is None:  # no board to redraw yet: the seats and buttons still
                self.render()

    # ------------------------------------------------------------------ what the page shows
    def render(self) -> None:
        """Show the table this page sits at: its code, seats and what the creator may do."""
        client, seated = self.client, self.seated
        if client is None or seated is None:
            self.table_box.layout.display = "none"
            return
        info = client.info
        game = client.game
        self.table_box.layout.display = ""
        me = seated.seat
        mine = f"you are seat {me + 1}" if me is not None else "you watch"
        code_line = ""
        if me is not None and self.seat_code:
            code_line = (
                f"<div class='ttr-note'>Your seat code: <b>{show_code(self.seat_code)}</b>. On "
                "another device, <i>Back to my seat</i> with the table code and this seat code "
                "brings you back here.</div>"
            )
        self.header.value = (
            f"<div class='ttr-table-code'>Table <b>{show_code(info.code)}</b> · "
            f"{html.escape(load_map(info.map).name)} · {mine}</div>{code_line}"
        )
        self.seat_list.value = seats_html(info, me, game.current_player if game else None)
        self.turn_banner.value = self._turn_text(info, game, me)
        self.take_over_button.layout.display = "" if self.elsewhere else "none"
        self.leave_button.layout.display = "" if me is not None else "none"  # a watcher stays
        is_creator = self.creator_token is not None
        self.creator_box.layout.display = "" if is_creator and info.status != "closed" else "none"
        seats = [
            (f"{s.seat + 1}: {s.name}", s.seat) for s in info.seats if s.kind == "human" and s.name
        ]
        if [o for o in self.creator_seat.options] != seats:
            self.creator_seat.options = seats
        free = any(s.free for s in info.seats)
        self.start_now_button.layout.display = (
            "" if info.status == "open" or (info.status == "playing" and free) else "none"
        )
        self.coach_button.description = (
            "Switch the coach off" if info.coach else "Let players open the coach"
        )
        self.coach_button.layout.display = "none" if info.status == "over" else ""

    def _turn_text(self, info: TableInfo, game: Any, me: int | None) -> str:
        if info.status == "closed":
            return "<div class='ttr-table-turn-other'>This table was closed.</div>"
        if info.status == "open":
            free = sum(1 for s in info.seats if s.free)
            return (
                f"<div class='ttr-table-turn-other'>Waiting for {count(free, 'player')}: read "
                f"out the code <b>{show_code(info.code)}</b>.</div>"
            )
        if game is None or game.is_over:
            return "<div class='ttr-table-turn-other'>The game is over.</div>"
        seat = game.current_player
        who = info.seats[seat]
        if me is not None and seat == me and who.played_by_bot is None and not self.elsewhere:
            return "<div class='ttr-table-turn-mine'>Your turn!</div>"
        name = html.escape(who.name or f"Seat {seat + 1}")
        doing = " (a bot plays for them)" if who.stand_in else ""
        return f"<div class='ttr-table-turn-other'>{name}'s turn{doing}.</div>"

    def save_note(self) -> str | None:
        """Why this page offers no save now (None: it may save)."""
        client = self.client
        if client is None or client.game is None or client.game.is_over:
            return None
        return (
            "A table's save is offered when its game is over: a save holds the deck's order and "
            "every hand. To come back to your seat, use the table code and your seat code."
        )


def _sentence(exc: Exception) -> str:
    """A table error's message as a sentence (capital first, full stop last)."""
    text = str(exc)
    return f"{text[:1].upper()}{text[1:]}{'' if text.endswith('.') else '.'}"


def _explain(bot: Any, game: Any, action: Any) -> dict[str, Any] | None:
    """What a table's bot recorded about its move, stored with it for every seat's coach."""
    try:
        return record_move(bot, game, action).to_data()
    except Exception:  # the coach must never stop a game
        log.exception("could not record a bot move")
        return None


def seats_html(info: TableInfo, me: int | None, current: int | None) -> str:
    """The seats of a table as a short list: name, bot or away, whose turn."""
    items = []
    for s in info.seats:
        name = html.escape(s.name) if s.name else "<i>free</i>"
        tags = []
        if s.seat == me:
            tags.append("you")
        if s.kind != "human":
            tags.append(f"{s.kind} bot")
        if s.stand_in:
            tags.append(f"a {s.stand_in} bot plays for them")
        if s.away:
            tags.append("away")
        mark = "▶ " if current == s.seat and info.status == "playing" else ""
        suffix = f" <span class='ttr-note'>({', '.join(tags)})</span>" if tags else ""
        items.append(f"<li class='ttr-table-seat'>{mark}{s.seat + 1}. {name}{suffix}</li>")
    return f"<ul class='ttr-table-seats-list'>{''.join(items)}</ul>"
