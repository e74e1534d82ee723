"""*Play with others*: the forms that join a table, open one, or bring a player back to
their seat from another device.

They are made when the panel is first opened (most visitors never open a table, and each
widget costs the server and the browser on every visit), and hidden while the page sits at a
table. A table's link (``?table=K7QX4M``, :mod:`.links`) opens them at that table's seat
choice: the code is looked up through the store's rate-limited lookup, as a typed one is.
"""

from __future__ import annotations

import html
import sys
from typing import TYPE_CHECKING

import ipywidgets as widgets

from ..game import MAX_NAME_CHARS
from ..maps import load_map
from ..rules import playable_maps
from ..tables.codes import MAX_TYPED_CODE, normal_code, show_code
from .controls import Note, button

if TYPE_CHECKING:
    from .tables import TablePlay

FORMS_TITLE = "Play with others: join or open a table"
SEAT_CHOICES = [
    ("A player who joins", "human"),
    ("Beginner bot", "beginner"),
    ("Greedy bot", "greedy"),
    ("Random bot", "random"),
    ("Hard: search bot (1 s)", "search"),
]
FORMS_CSS = """<style>
.ttr-tables .widget-checkbox, .ttr-tables .widget-checkbox label { height: auto; }
.ttr-tables .widget-checkbox { width: auto !important; max-width: 100%; }
.ttr-tables .widget-checkbox label { white-space: normal; line-height: 1.35; } /* never cut */
.ttr-table-link-note { background: #eef5ff; border: 1px solid #b8cff0; border-radius: 6px;
  padding: 6px 10px; }
</style>"""
NEEDS_SERVER = (
    "<div class='ttr-note ttr-table-needs-server'>Tables need a server the whole class "
    "reaches: this page runs entirely in your browser, so other browsers cannot reach its "
    "game. Play with others on the app served by Voilà on a class machine (make app) or on "
    "a JupyterHub; not on Binder, where each visitor has a server of their own.</div>"
)


def _text_box(label: str, cls: str, placeholder: str = "") -> widgets.Text:
    """A text box; what it holds is checked in the kernel (a page's input can be forged)."""
    return widgets.Text(
        description=label,
        placeholder=placeholder,
        layout=widgets.Layout(width="auto", max_width="100%"),
        style={"description_width": "initial"},
        _dom_classes=[cls],
    )


def _name_box(cls: str) -> widgets.Text:
    return _text_box("Your name:", cls, f"as the others know you (at most {MAX_NAME_CHARS})")


def _code_box(label: str, cls: str) -> widgets.Text:
    return _text_box(label, cls, "six letters and digits, like K7Q X4M")


class TableForms:
    """The *Play with others* accordion (``widget``) of one page."""

    def __init__(self, play: TablePlay) -> None:
        self.play = play
        guard = play.app.guard
        self.built = False
        self.widget = widgets.Accordion(
            children=[widgets.HTML("<div class='ttr-note'>…</div>")], _dom_classes=["ttr-tables"]
        )
        self.widget.set_title(0, FORMS_TITLE)
        self.widget.selected_index = None
        self.widget.observe(guard(lambda _c: self.build()), names="selected_index")

    def build(self, force: bool = False) -> None:
        """Make the forms, when the panel is first opened (or ``force``)."""
        if self.built or (self.widget.selected_index is None and not force):
            return
        self.built = True
        guard = self.play.app.guard
        if sys.platform == "emscripten":  # the static site: Python in the browser, no server
            self.widget.children = (widgets.HTML(NEEDS_SERVER),)
            return
        # ---- join a table (most of a class does this)
        self.link_note = widgets.HTML(_dom_classes=["ttr-table-link-intro"])
        self.join_code = _code_box("Table code:", "ttr-table-join-code")
        self.join_name = _name_box("ttr-table-join-name")
        self.find_button = button("Find the table", "ttr-table-find")
        self.find_button.on_click(guard(lambda _b: self.find_table()))
        self.free_seats = widgets.HBox(
            layout=widgets.Layout(flex_flow="row wrap"), _dom_classes=["ttr-table-free-seats"]
        )
        self.join_note = Note("ttr-table-join-note")

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
        self.creator_name = _name_box("ttr-table-creator-name")
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

        # ---- come back from another device
        self.back_code = _code_box("Table code:", "ttr-table-back-code")
        self.back_seat_code = _code_box("Seat code:", "ttr-table-back-seat-code")
        self.back_button = button("Back to my seat", "ttr-table-back")
        self.back_button.on_click(guard(lambda _b: self.come_back_by_code()))
        self.back_note = Note("ttr-table-back-note")

        forms = widgets.VBox(
            [
                widgets.HTML(FORMS_CSS),
                widgets.HTML(
                    "<div class='ttr-note'>Everyone plays from their own laptop or phone: "
                    "one player opens a table and shows its link, QR code or code; the "
                    "others join it here. Each page shows the board and its own player's "
                    "cards only.</div>"
                ),
                widgets.HTML("<h3>Join a table</h3>"),
                self.link_note,
                self.join_code,
                self.join_name,
                self.find_button,
                self.free_seats,
                self.join_note.widget,
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
                widgets.HTML("<h3>Back to my seat from another device</h3>"),
                self.back_code,
                self.back_seat_code,
                self.back_button,
                self.back_note.widget,
            ],
            _dom_classes=["ttr-table-forms"],
        )
        self.widget.children = (forms,)
        self._show_seat_pickers()

    def _show_seat_pickers(self) -> None:
        for i, picker in enumerate(self.seat_pickers):
            picker.layout.display = "" if i < self.seat_count.value else "none"

    def show(self, shown: bool) -> None:
        """Offer the forms (not while the page sits at a table)."""
        self.widget.layout.display = "" if shown else "none"
        if not shown:
            self.widget.selected_index = None

    # ------------------------------------------------------------------ a link
    def follow_link(self, code: str) -> None:
        """The page was opened by table ``code``'s link: its seat choice, ready to sit."""
        self.build(force=True)
        if not self.built or not hasattr(self, "join_code"):  # the static site
            self.widget.selected_index = 0
            return
        self.widget.selected_index = 0
        self.join_code.value = show_code(code)
        self.link_note.value = (
            f"<div class='ttr-table-link-note'>Your link opens table <b>{show_code(code)}</b>: "
            "type your name, then take a free seat.</div>"
        )
        self.find_table()
        if self.free_seats.children:
            self.play.app.say(
                f"Your link opens table {show_code(code)}: type your name under Play with "
                "others, then take a free seat."
            )
        self.play.app.scroller.show(".ttr-table-join-name")

    # ------------------------------------------------------------------ opening and joining
    def open_table(self) -> None:
        """Open a table with the chosen map and seats, and sit at it."""
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
        play = self.play

        def go() -> None:
            try:
                made = play.service.create_table(
                    self.map_picker.value,
                    seats,
                    name,
                    session=play.session,
                    coach=self.coach_allowed.value,
                )
            except Exception as exc:  # noqa: BLE001 - shown in words, logged in full
                play.failed(self.open_note, exc)
                return
            self.open_note.clear()
            play.sit(made, creator_token=made.creator_token)

        play.app.confirm_discard("Open a table", go)

    def find_table(self) -> None:
        """Look the typed table code up (rate-limited in the store); list its free seats."""
        play = self.play
        try:
            # A code has six characters: more typed is sent cut short (still a wrong code).
            info = play.service.table(self.join_code.value[:MAX_TYPED_CODE])
        except Exception as exc:  # noqa: BLE001
            self.free_seats.children = ()
            play.failed(self.join_note, exc)
            return
        if info.status in ("over", "closed"):
            self.free_seats.children = ()
            self.join_note.show(
                "The game at this table is over."
                if info.status == "over"
                else "This table was closed.",
                bad=True,
            )
            return
        free = [s for s in info.seats if s.free and not s.held_for]
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
            take.on_click(play.app.guard(lambda _b, s=seat.seat, c=info.code: self.join(c, s)))
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
        """Take free seat ``seat`` at table ``code`` under the typed name."""
        name = self.join_name.value.strip()
        if not name:
            self.join_note.show("Type your name first (the others see it).", bad=True)
            return
        play = self.play

        def go() -> None:
            try:
                seated = play.service.join(code, name, seat, session=play.session)
            except Exception as exc:  # noqa: BLE001
                play.failed(self.join_note, exc)
                return
            self.free_seats.children = ()
            self.join_note.clear()
            self.link_note.value = ""
            play.sit(seated)

        play.app.confirm_discard("Join the table", go)

    def come_back_by_code(self) -> None:
        """Back to a seat from another device: the table code and the seat code typed."""
        play = self.play
        try:
            seated = play.service.rejoin_by_code(
                self.back_code.value, self.back_seat_code.value, session=play.session
            )
        except Exception as exc:  # noqa: BLE001
            play.failed(self.back_note, exc)
            return
        self.back_note.clear()
        play.sit(seated, seat_code=normal_code(self.back_seat_code.value))
