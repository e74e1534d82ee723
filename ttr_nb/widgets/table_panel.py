"""The panel a page shows at a shared table: whose turn, the table's code and seats, its link
and QR code, the seat code, and the creator's buttons.

It sits at the top of the play column. While the table waits for players it is the whole
column (there is no game yet): the code, the link and its QR code to show the class, the
seats, *Start now*, *Close the table*, *Leave*. Once the game runs it folds to two lines
(whose turn, which table) so the tickets, the cards and *Claim this route* stay in the
window beside the board; *The table* unfolds the rest.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from ..maps import load_map
from ..tables.codes import show_code
from .controls import Note, button, count, offer_choices
from .links import LinkBox, table_link

if TYPE_CHECKING:
    from ..tables import TableInfo
    from .tables import TablePlay

TABLE_CSS = """<style>
.ttr-table-turn-mine { background: #2e7d32; color: #fff; font-size: 1.25em; font-weight: bold;
  padding: 4px 10px; border-radius: 6px; animation: ttr-your-turn 1.2s ease-in-out 3; }
.ttr-table-turn-other { font-size: 1.1em; font-weight: bold; color: #333; }
.ttr-table-code b { font-size: 1.2em; letter-spacing: 0.08em; }
.ttr-table-seats-list { margin: 4px 0; padding-left: 1.2em; }
.ttr-table-box .widget-html-content { line-height: 1.35; }
.ttr-table-details .p-Accordion-child, .ttr-table-details .lm-AccordionPanel { padding: 4px; }
@keyframes ttr-your-turn { 50% { background: #66bb6a; } }
</style>"""
DETAILS_TITLE = "The table: seats, link, QR code"


class TablePanel:
    """The table's panel (built when a page first sits at a table); ``play`` is the page's
    link to the table (:class:`~ttr_nb.widgets.tables.TablePlay`)."""

    def __init__(self, play: TablePlay, box: widgets.VBox) -> None:
        self.play = play
        self.box = box
        guard = play.app.guard
        self.header = widgets.HTML(_dom_classes=["ttr-table-header"])
        self.seat_list = widgets.HTML(_dom_classes=["ttr-table-seat-list"])
        self.seat_code_line = widgets.HTML(_dom_classes=["ttr-table-seat-code"])
        self.turn_banner = widgets.HTML(_dom_classes=["ttr-table-turn"])
        self.take_over_button = button("Play here", "ttr-table-take-over")
        self.take_over_button.on_click(guard(lambda _b: play.take_over()))
        self.link = LinkBox(guard, "ttr-table-link")
        self.creator_seat = widgets.Dropdown(
            description="Seat:",
            options=[],
            layout=widgets.Layout(width="auto"),
            _dom_classes=["ttr-table-creator-seat"],
        )
        self.give_button = button("Give to a greedy bot", "ttr-table-give")
        self.give_button.on_click(guard(lambda _b: self.creator("give")))
        self.take_back_button = button("Give back to its player", "ttr-table-take-back")
        self.take_back_button.on_click(guard(lambda _b: self.creator("take back")))
        self.free_seat_button = button("Free this seat (its player never moved)", "ttr-table-free")
        self.free_seat_button.on_click(guard(lambda _b: self.creator("free")))
        self.hold_name = widgets.Text(
            description="Keep it for:",
            placeholder="a name (optional)",
            layout=widgets.Layout(width="16em"),
            style={"description_width": "initial"},
            _dom_classes=["ttr-table-hold-name"],
        )
        self.start_now_button = button("Start now: bots in the free seats", "ttr-table-start-now")
        self.start_now_button.on_click(guard(lambda _b: self.creator("start")))
        self.close_button = button("Close the table", "ttr-table-close")
        self.close_button.on_click(guard(lambda _b: self._ask_close()))
        self.coach_button = button("Switch the coach off", "ttr-table-coach-switch")
        self.coach_button.on_click(guard(lambda _b: self.creator("coach")))
        self.creator_box = widgets.VBox(
            [
                widgets.HTML("<b>You opened this table:</b>"),
                widgets.HBox(
                    [
                        self.creator_seat,
                        self.give_button,
                        self.take_back_button,
                        self.free_seat_button,
                        self.hold_name,
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
        self.leave_button.on_click(guard(lambda _b: play.leave()))
        self.note = Note("ttr-table-note")
        self.details = widgets.Accordion(
            children=[
                widgets.VBox(
                    [
                        self.seat_list,
                        self.creator_box,
                        self.link.widget,
                        self.seat_code_line,
                        self.leave_button,
                    ]
                )
            ],
            _dom_classes=["ttr-table-details"],
        )
        self.details.set_title(0, DETAILS_TITLE)
        self.details.selected_index = 0
        self._status_shown: str | None = None  # the table status the details were set for
        box.children = (
            widgets.HTML(TABLE_CSS),
            self.turn_banner,
            self.header,
            self.take_over_button,
            self.details,
            self.note.widget,
        )

    # ------------------------------------------------------------------ a new table
    def reset(self) -> None:
        """A page sits at another table: nothing here speaks of the one before."""
        self.note.clear()
        self.link.clear()
        self._status_shown = None
        self.creator_seat.options = []

    # ------------------------------------------------------------------ the creator
    def creator(self, what: str) -> None:
        """One of the creator's buttons (the store checks the creator's token again)."""
        play = self.play
        client, token = play.client, play.creator_token
        if client is None or token is None:
            return
        seat = self.creator_seat.value
        if what in ("give", "take back", "free") and not isinstance(seat, int):
            self.note.show("Pick a seat in the Seat list first.", bad=True)
            return
        store = play.service
        try:
            if what == "give":
                store.give_to_bot(client.table_id, token, seat, "greedy")
                message = f"A greedy bot plays seat {seat + 1} until you give it back."
            elif what == "take back":
                store.take_back(client.table_id, token, seat)
                message = f"Seat {seat + 1} is played by its player again."
            elif what == "free":
                hold = self.hold_name.value.strip() or None
                seat_code = store.free_seat(
                    client.table_id, seat, creator_token=token, hold_for=hold
                )
                if hold and seat_code:
                    self.hold_name.value = ""
                    message = (
                        f"Seat {seat + 1} is kept for {hold}: nobody else can take it. Give "
                        f"{hold} the table code and this seat code: {show_code(seat_code)} "
                        "(Back to my seat)."
                    )
                else:
                    message = (
                        f"Seat {seat + 1} is free again: someone may join it with the table "
                        "code (or press Start now to put a bot there)."
                    )
            elif what == "coach":
                on = not client.info.coach
                store.set_coach(client.table_id, on, token)
                message = (
                    "Every player may open the coach now."
                    if on
                    else "The coach is switched off for everyone at this table (a graded game)."
                )
            else:
                store.start_now(client.table_id, token)
                message = "The game starts: bots took the free seats."
        except Exception as exc:  # noqa: BLE001
            play.failed(self.note, exc)
            return
        self.note.show(message)
        play.on_tick(force=True)

    def _ask_close(self) -> None:
        if self.play.client is None or self.play.creator_token is None:
            return
        self.play.app.prompt.ask(
            "Close this table for everyone? Its game stops where it is (the teacher can still "
            "see it).",
            [("Close it", True)],
            lambda _yes: self._close(),
            ok_label="Yes: close the table",
            cancel_label="No: keep playing",
        )

    def _close(self) -> None:
        play = self.play
        client, token = play.client, play.creator_token
        if client is None or token is None:
            return
        try:
            play.service.close_table(client.table_id, token)
        except Exception as exc:  # noqa: BLE001
            play.failed(self.note, exc)
            return
        play.on_tick(force=True)

    # ------------------------------------------------------------------ drawing
    def render(self) -> None:
        """Show the table as it is now: code, seats, whose turn, the creator's controls."""
        play = self.play
        client, seated = play.client, play.seated
        if client is None or seated is None:
            self.box.layout.display = "none"
            return
        info = client.info
        game = client.game
        self.box.layout.display = ""
        me = seated.seat
        watching = play.watching_only
        mine = "you watch" if me is None else f"you are seat {me + 1}"
        self.header.value = (
            f"<div class='ttr-table-code'>Table <b>{show_code(info.code)}</b> · "
            f"{html.escape(load_map(info.map).name)} · {mine}</div>"
        )
        self.seat_code_line.value = (
            f"<div class='ttr-note'>Your seat code: <b>{show_code(play.seat_code)}</b>. On "
            "another device, <i>Back to my seat</i> with the table code and this seat code "
            "brings you back here.</div>"
            if me is not None and play.seat_code
            else ""
        )
        self.seat_list.value = seats_html(info, me, game.current_player if game else None)
        self.turn_banner.value = turn_html(info, game, me, play.elsewhere)
        self.take_over_button.layout.display = "" if play.elsewhere else "none"
        ended = info.status in ("over", "closed") or (game is not None and game.is_over)
        self.leave_button.description = (
            "Back to a game of your own"
            if ended or me is None
            else "Leave the table (your seat stays yours)"
        )
        self.leave_button.layout.display = "none" if watching else ""
        is_creator = play.creator_token is not None
        self.creator_box.layout.display = "" if is_creator and not ended else "none"
        seats = [
            (f"{s.seat + 1}: {s.name}", s.seat) for s in info.seats if s.kind == "human" and s.name
        ]
        offer_choices(self.creator_seat, seats)
        free = any(s.free for s in info.seats)
        self.start_now_button.layout.display = (
            "" if info.status == "open" or (info.status == "playing" and free) else "none"
        )
        self.coach_button.description = (
            "Switch the coach off" if info.coach else "Let players open the coach"
        )
        self.coach_button.layout.display = "none" if info.status == "over" else ""
        # The class needs the link while the table fills (and for a seat freed later, one
        # click away under the table's details).
        if info.status in ("open", "playing") and not watching:
            base = play.page_base
            self.link.show(
                table_link(base, info.code) if base else None,
                show_code(info.code),
                f"Table {show_code(info.code)}",
            )
        else:
            self.link.clear()
        if info.status != self._status_shown:
            # Unfolded while there is no game to play (waiting, over, closed), folded while
            # it runs; the player may open or fold it meanwhile.
            self._status_shown = info.status
            self.details.selected_index = None if info.status == "playing" else 0


def turn_html(info: TableInfo, game: Any, me: int | None, elsewhere: bool) -> str:
    """The banner on top of the table's panel: whose turn, or what the table waits for."""
    if info.status == "closed":
        return "<div class='ttr-table-turn-other'>This table was closed.</div>"
    if info.status == "open":
        free = sum(1 for s in info.seats if s.free)
        return (
            f"<div class='ttr-table-turn-other'>Waiting for {count(free, 'player')}: the "
            f"table code is <b>{show_code(info.code)}</b>.</div>"
        )
    if game is None or game.is_over:
        return "<div class='ttr-table-turn-other'>The game is over.</div>"
    seat = game.current_player
    who = info.seats[seat]
    if me is not None and seat == me and who.played_by_bot is None and not elsewhere:
        return "<div class='ttr-table-turn-mine'>Your turn!</div>"
    if me is not None and seat == me and who.stand_in:
        return (
            f"<div class='ttr-table-turn-other'>Your turn: a {html.escape(who.stand_in)} bot "
            "plays it for you.</div>"
        )
    name = html.escape(who.name or f"Seat {seat + 1}")
    doing = " (a bot plays for them)" if who.stand_in else ""
    return f"<div class='ttr-table-turn-other'>{name}'s turn{doing}.</div>"


def seats_html(info: TableInfo, me: int | None, current: int | None) -> str:
    """The seats of a table as a short list: name, bot or away, whose turn.

    A bot's seat is named for its bot already ("Bot 3 (search)"); a bot standing in for a
    player is said in words, to that player as "for you".
    """
    items = []
    for s in info.seats:
        name = html.escape(s.name) if s.name else "<i>free</i>"
        if not s.name and s.held_for:
            name = f"<i>kept for {html.escape(s.held_for)}</i>"
        tags = []
        if s.seat == me:
            tags.append("you")
        if s.stand_in:
            whom = "you" if s.seat == me else "them"
            tags.append(f"a {html.escape(s.stand_in)} bot plays for {whom} now")
        if s.away:
            tags.append("away")
        mark = "▶ " if current == s.seat and info.status == "playing" else ""
        suffix = f" <span class='ttr-note'>({'; '.join(tags)})</span>" if tags else ""
        items.append(f"<li class='ttr-table-seat'>{mark}{s.seat + 1}. {name}{suffix}</li>")
    return f"<ul class='ttr-table-seats-list'>{''.join(items)}</ul>"
