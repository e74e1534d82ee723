"""The teacher's page: every table of the class, live; watch, replay, close, export results.

Only an authenticated teacher reaches it, and the server decides who that is: the teacher's
own Voilà server behind Jupyter Server's token or password (``make teacher``,
:mod:`ttr_nb.teacher_server`), or, on JupyterHub, the teacher's own single-user server,
which the hub opens to its owner only, for a member of the hub's teachers group. The server
(or the hub) tells the page's kernel (:func:`teacher_access`); without that word the
page builds no table list, no button and no result, so no message a browser sends can
reveal or do anything here. Every action checks the kernel's access again, and the table
service (:mod:`ttr_nb.tables.service`), which alone holds the tables, checks it once more:
it serves a teacher's request only for a teacher's pass (signed by the teacher's server) or
a hub user of the teachers group. The page's kernel never holds the store, the seeds or a
running game's hands: it asks the service, as any page does.

- **Tables**: code, map, players (away ones marked), moves, scores, whose turn, last
  activity; refreshed every few seconds.
- **Watch a table**: the app itself, as a watcher: the public table while the game runs
  (board, face-up cards, counts, scores, log; no coach for any seat), every hand and ticket
  once it is over; stepping and *Replay* at a chosen speed, for the projector.
- **Close a table**, or **many at once** (every idle table, every table still waiting for
  players, or every table opened from one network address: a prankster's), switch a
  table's coach, free a seat, and **export the class's results** as CSV (table, player,
  score by part, tickets done and missed once a game is over).
"""

from __future__ import annotations

import base64
import html
import logging
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets
from IPython.display import display

from ..errors import TableError
from ..tables.codes import show_code
from .controls import Note, browser_timer, button, count
from .links import LinkBox, LinkReader, app_base, table_link

if TYPE_CHECKING:
    from ..tables.remote import TablesClient
    from .app import GameApp

log = logging.getLogger(__name__)

SERVER_ENV = "TTR_TEACHER_SERVER"  # set by the teacher's server for its kernels
GROUP_ENV = "TTR_TEACHER_GROUP"  # behind JupyterHub: the hub group of teachers
DEFAULT_GROUP = "teachers"
HUB_TIMEOUT_S = 5.0
TEACHER_CSS = """<style>
.ttr-teacher-table { border-collapse: collapse; margin: 6px 0; }
.ttr-teacher-table th, .ttr-teacher-table td { border-bottom: 1px solid #ddd; padding: 4px 10px;
  text-align: left; vertical-align: top; }
.ttr-teacher-table th { background: #f3efe4; }
/* The watched table is the app inside this page: its title would repeat this page's. */
.ttr-teacher-watch-box .ttr-title-box { display: none !important; }
</style>"""
REFRESH_MS = 3000
MAX_TABLES_LISTED = 200
NOT_A_TEACHERS_SERVER = (
    "This page opens only on the teacher's server, which knows who you are: start it with "
    "make teacher (it prints a link with a private token), or open it in your own server on "
    "the class's JupyterHub if you are in its teachers group. It lists every table of the "
    "class, so nothing shows here."
)
NOT_A_TEACHER = (
    "This page is for the hub's {group} group, and {viewer} is not in it: ask the hub's "
    "administrator to add you."
)
HUB_UNREACHABLE = "The hub could not tell who you are just now: reload the page in a moment."


@dataclass(frozen=True)
class TeacherAccess:
    """Whether this kernel serves an authenticated teacher, and in what words to refuse."""

    granted: bool
    how: str = ""  # "token" or "password" (the teacher's server), or "hub"
    viewer: str = ""  # behind JupyterHub: the hub user
    refusal: str = NOT_A_TEACHERS_SERVER


def hub_user(environ: Mapping[str, str]) -> dict[str, Any] | None:
    """Who owns this kernel's server, as the hub says (name and groups), or None when it
    runs under no hub. A single-user server's kernel has the hub's address and the server's
    own API token in its environment; only the owner (and the hub's admins) reach the server.

    Raises
    ------
    OSError
        When the hub does not answer within ``HUB_TIMEOUT_S``.
    """
    url = environ.get("JUPYTERHUB_API_URL", "")
    token = environ.get("JUPYTERHUB_API_TOKEN", "")
    if not url or not token or not environ.get("JUPYTERHUB_USER"):
        return None
    import json
    import urllib.request

    request = urllib.request.Request(
        url.rstrip("/") + "/user", headers={"Authorization": f"token {token}"}
    )
    with urllib.request.urlopen(request, timeout=HUB_TIMEOUT_S) as answer:
        data = json.loads(answer.read().decode("utf-8"))
    return data if isinstance(data, dict) else None


def teacher_access(
    environ: Mapping[str, str] | None = None,
    ask_hub: Callable[[Mapping[str, str]], dict[str, Any] | None] = hub_user,
) -> TeacherAccess:
    """What the server told this kernel about its visitor (never what the page says).

    The teacher's server (:mod:`ttr_nb.teacher_server`) sets ``TTR_TEACHER_SERVER`` to
    ``token`` or ``password`` once Jupyter Server's login guards it. Under JupyterHub the
    page runs in its viewer's own server, which the hub opens to its owner only: the hub
    names the owner and their groups, and the teachers group (``TTR_TEACHER_GROUP``,
    default ``teachers``) may use the page.

    Examples
    --------
    >>> teacher_access({}).granted
    False
    >>> teacher_access({"TTR_TEACHER_SERVER": "token"}).granted
    True
    >>> bob = lambda _env: {"name": "bob", "groups": ["students"]}
    >>> teacher_access({}, ask_hub=bob).refusal.split(":")[0]
    "This page is for the hub's teachers group, and bob is not in it"
    >>> alice = lambda _env: {"name": "alice", "groups": ["teachers"]}
    >>> teacher_access({}, ask_hub=alice).viewer
    'alice'
    """
    env = os.environ if environ is None else environ
    how = env.get(SERVER_ENV, "")
    if how in ("token", "password"):
        return TeacherAccess(True, how)
    try:
        user = ask_hub(env)
    except (OSError, ValueError):
        log.exception("teacher's page: the hub did not say who the visitor is")
        return TeacherAccess(False, "hub", refusal=HUB_UNREACHABLE)
    if user is None:
        return TeacherAccess(False)
    group = env.get(GROUP_ENV, "") or DEFAULT_GROUP
    name = str(user.get("name") or "")
    groups = user.get("groups") or []
    if name and isinstance(groups, list) and group in groups:
        return TeacherAccess(True, "hub", name)
    refusal = NOT_A_TEACHER.format(group=group, viewer=name or "this user")
    return TeacherAccess(False, "hub", name, refusal)


class TeacherPage:
    """The teacher's page (see the module); display its ``widget``.

    Parameters
    ----------
    access : TeacherAccess, optional
        What the server said about the visitor (default: :func:`teacher_access`). Without
        access the page holds one sentence and nothing else.
    service_factory : callable, optional
        Gives the page its client of the table service, by the page's id (default: the
        class server's, :func:`ttr_nb.tables.remote.connect`).
    """

    def __init__(
        self,
        access: TeacherAccess | None = None,
        service_factory: Callable[[str], TablesClient] | None = None,
    ) -> None:
        from . import panels
        from .safety import CallbackGuard

        self.access = access if access is not None else teacher_access()
        self.guard = CallbackGuard(show_details=False)
        self._service_factory = service_factory
        self._service: TablesClient | None = None
        self.rows: dict[int, dict[str, Any]] = {}  # table id -> its row of the list
        self.app: GameApp | None = None
        title = widgets.HTML(
            "<div class='ttr-title'><b>Ticket to Ride: the teacher's page</b> "
            "<span class='ttr-note'>Every table of the class, live.</span></div>"
        )
        style = widgets.HTML(panels.APP_CSS + TEACHER_CSS)
        if not self.access.granted:
            # No table widget exists in this kernel: a forged message has nothing to open.
            self.widget = widgets.VBox(
                [
                    style,
                    title,
                    widgets.HTML(
                        f"<div class='ttr-note ttr-bad ttr-teacher-refused'>"
                        f"{html.escape(self.access.refusal)}</div>"
                    ),
                ],
                _dom_classes=["ttr-app", "ttr-teacher"],
            )
            return
        guard = self.guard
        self.tables_html = widgets.HTML(_dom_classes=["ttr-teacher-tables"])
        self.picker = widgets.Dropdown(
            description="Table:", options=[], _dom_classes=["ttr-teacher-picker"]
        )
        self.watch_button = button("Watch", "ttr-teacher-watch")
        self.watch_button.on_click(guard(lambda _b: self.watch(self.picker.value)))
        self.close_button = button("Close this table", "ttr-teacher-close")
        self.close_button.on_click(guard(lambda _b: self.close(self.picker.value)))
        self.coach_button = button("Coach on / off", "ttr-teacher-coach")
        self.coach_button.on_click(guard(lambda _b: self.switch_coach(self.picker.value)))
        self.export_button = button("Export the results (CSV)", "ttr-teacher-export")
        self.export_button.on_click(guard(lambda _b: self.export()))
        self.export_link = widgets.HTML(_dom_classes=["ttr-teacher-export-link"])
        self.seat_picker = widgets.Dropdown(
            description="Seat:", options=[], _dom_classes=["ttr-teacher-seat"]
        )
        self.seat_picker.layout.width = "auto"
        self.free_button = button("Free this seat (its player never moved)", "ttr-teacher-free")
        self.free_button.on_click(
            guard(lambda _b: self.free_seat(self.picker.value, self.seat_picker.value))
        )
        self.picker.observe(guard(lambda _c: self._offer_seats()), names="value")
        self.find_code = widgets.Text(
            description="Find:",
            placeholder="a table code",
            layout=widgets.Layout(width="14em"),
            _dom_classes=["ttr-teacher-find"],
        )
        self.find_code.observe(guard(lambda _c: self.refresh()), names="value")
        self.close_idle_button = button("Close every idle table", "ttr-teacher-close-idle")
        self.close_idle_button.on_click(guard(lambda _b: self.close_many("idle")))
        self.close_waiting_button = button(
            "Close every table still waiting for players", "ttr-teacher-close-waiting"
        )
        self.close_waiting_button.on_click(guard(lambda _b: self.close_many("waiting")))
        self.close_address_button = button(
            "Close every table opened from this table's address", "ttr-teacher-close-address"
        )
        self.close_address_button.on_click(
            guard(lambda _b: self.close_from_address(self.picker.value))
        )
        self.size_html = widgets.HTML(_dom_classes=["ttr-teacher-size-box"])
        # The picked table's link and QR code, to show the class (the app's address: the
        # server's TTR_APP_URL, else this page's host at the app's port).
        self.page_base: str | None = None
        self.links = LinkReader()
        self.links.on_link(guard(self._heard_address))
        self.link_box = LinkBox(guard, "ttr-teacher-link")
        self.note = Note("ttr-teacher-note")
        self.guard.listeners.append(lambda summary: self.note.show(summary, bad=True))
        self.timer = browser_timer(REFRESH_MS, "ttr-teacher-timer", guard(lambda: self.refresh()))
        self.watch_box = widgets.VBox(_dom_classes=["ttr-teacher-watch-box"])
        who = f" Logged in through the hub as {self.access.viewer}." if self.access.viewer else ""
        self.widget = widgets.VBox(
            [
                style,
                title,
                widgets.HTML(f"<div class='ttr-note ttr-teacher-who'>{html.escape(who)}</div>"),
                self.find_code,
                self.tables_html,
                widgets.HBox(
                    [self.picker, self.watch_button, self.coach_button, self.close_button],
                    layout=widgets.Layout(flex_flow="row wrap"),
                ),
                widgets.HBox(
                    [
                        self.close_idle_button,
                        self.close_waiting_button,
                        self.close_address_button,
                    ],
                    layout=widgets.Layout(flex_flow="row wrap"),
                ),
                widgets.HBox(
                    [self.seat_picker, self.free_button],
                    layout=widgets.Layout(flex_flow="row wrap"),
                ),
                self.link_box.widget,
                widgets.HBox([self.export_button, self.export_link]),
                self.note.widget,
                self.size_html,
                self.timer,
                self.links,
                self.watch_box,
                self.guard.output,
            ],
            _dom_classes=["ttr-app", "ttr-teacher"],
        )
        self.refresh()
        self.timer.playing = True

    @property
    def service(self) -> TablesClient:
        """This page's client of the table service (made on first use)."""
        if self._service is None:
            import secrets

            page = secrets.token_hex(12)
            if self._service_factory is not None:
                self._service = self._service_factory(page)
            else:
                from ..tables.remote import connect

                self._service = connect(page)
        return self._service

    @property
    def granted(self) -> bool:
        """Whether the server said this page serves an authenticated teacher (checked by
        every action; nothing a browser sends can change it)."""
        return self.access.granted

    def _picked(self, table_id: Any) -> int | None:
        """The table an action is for, or None after saying what is missing."""
        if not self.granted:
            return None
        if not isinstance(table_id, int):
            self.note.show("Pick a table in the list first.", bad=True)
            return None
        return table_id

    # ------------------------------------------------------------------ the list
    def refresh(self) -> None:
        """Read every table again (the page's timer calls it every few seconds)."""
        if not self.granted:
            return
        from ..tables.remote import info_from

        try:
            listed = self.service.list_rows(MAX_TABLES_LISTED)
            size = self.service.store_size()
        except TableError as exc:  # the service's own sentence (unreachable, refused ...)
            self.note.show(_sentence(exc), bad=True)
            return
        wanted = "".join(ch for ch in self.find_code.value.upper() if ch.isalnum())
        rows = []
        for data in listed:
            row = self._row(info_from(data), data)
            if wanted and wanted not in row["info"].code:
                continue
            rows.append(row)
        self.rows = {row["info"].table_id: row for row in rows}
        self.tables_html.value = tables_table(rows)
        self.size_html.value = (
            f"<div class='ttr-note ttr-teacher-size'>The table store holds "
            f"{html.escape(size['text'])}; finished, closed and abandoned tables are "
            "deleted after the retention period the server sets.</div>"
        )
        options = [(f"{show_code(r['info'].code)} ({r['map']})", r["info"].table_id) for r in rows]
        if list(self.picker.options) != options:
            keep = self.picker.value
            self.picker.options = options
            ids = [v for _, v in options]
            self.picker.value = keep if keep in ids else (ids[0] if ids else None)
        self._offer_seats()

    @staticmethod
    def _row(info: Any, data: dict[str, Any]) -> dict[str, Any]:
        from ..maps import load_map

        turn = data.get("turn")
        problem = data.get("problem") or ""
        return {
            "info": info,
            "map": load_map(info.map).name,
            "scores": data.get("scores") or [],
            "turn": info.names[turn] if isinstance(turn, int) and info.status == "playing" else "",
            "damaged": _sentence(TableError(problem)) if problem else "",
            "from": data.get("creator_address") or "",
        }

    def _heard_address(self, _query: str, base: str | None) -> None:
        """The page's own address (its query, with the login token, is never kept)."""
        self.page_base = app_base(base, teacher=True)
        self._show_link()

    def _show_link(self) -> None:
        """The picked table's link and QR code, while players may still join it."""
        table_id = self.picker.value
        row = self.rows.get(table_id) if isinstance(table_id, int) else None
        info = row["info"] if row is not None else None
        if info is None or info.status not in ("open", "playing") or self.page_base is None:
            self.link_box.clear()
            return
        code = show_code(info.code)
        self.link_box.show(table_link(self.page_base, info.code), code, f"Table {code}")

    def _offer_seats(self) -> None:
        """The picked table's players, for *Free this seat* (only a seat whose player never
        moved can be freed; the store checks)."""
        table_id = self.picker.value
        seats: list[tuple[str, int]] = []
        if isinstance(table_id, int):
            row = self.rows.get(table_id)
            info = row["info"] if row is not None else None
            if info is not None and info.status in ("open", "playing"):
                seats = [
                    (f"{s.seat + 1}: {s.name}", s.seat)
                    for s in info.seats
                    if s.kind == "human" and s.name
                ]
        if list(self.seat_picker.options) != seats:
            self.seat_picker.options = seats
            self.seat_picker.value = seats[0][1] if seats else None
        self._show_link()

    # ------------------------------------------------------------------ actions
    def watch(self, table_id: int | None) -> None:
        """Show the table in the app, as a watcher (everything once its game is over)."""
        table_id = self._picked(table_id)
        if table_id is None:
            return
        from ..tables.records import Seated
        from .app import GameApp

        info = self.service.table_by_id(table_id)
        if self.app is None:
            self.app = GameApp(auto_bots=False, service_factory=lambda _page: self.service)
            # The teacher watches: no games of their own, no tables to open from here.
            self.app.new_game_box.layout.display = "none"
            self.app.tables.forms_box.layout.display = "none"
            self.watch_box.children = (self.app.widget,)
        self.app.tables.watch(Seated(info.table_id, info.code, None))
        self.note.clear()  # the watched table's own header names it

    def close(self, table_id: int | None) -> None:
        """Close a table for everyone (a finished game stays as it ended)."""
        table_id = self._picked(table_id)
        if table_id is None:
            return
        info = self.service.table_by_id(table_id)
        self.service.close_table(table_id, teacher=True)
        self.note.show(f"Table {show_code(info.code)} is closed.")
        self.refresh()

    def close_many(self, which: str) -> int:
        """Close every idle table, or every table waiting for players (not the teacher's
        own); returns how many were closed."""
        if not self.granted:
            return 0
        closed = self.service.close_many(which)
        what = "idle" if which == "idle" else "waiting for players"
        self.note.show(f"Closed {count(closed, 'table')} {what}.")
        self.refresh()
        return closed

    def close_from_address(self, table_id: int | None) -> int:
        """Close every table opened from the network address the picked table was opened
        from (a prankster's); returns how many."""
        table_id = self._picked(table_id)
        if table_id is None:
            return 0
        address = self.rows.get(table_id, {}).get("from")
        if not address:
            self.note.show("The server did not note where this table was opened from.", True)
            return 0
        closed = self.service.close_many("address", address)
        self.note.show(f"Closed {count(closed, 'table')} opened from {address}.")
        self.refresh()
        return closed

    def switch_coach(self, table_id: int | None) -> None:
        """Let a table's players open the coach, or switch it off (a graded game)."""
        table_id = self._picked(table_id)
        if table_id is None:
            return
        info = self.service.table_by_id(table_id)
        self.service.set_coach(table_id, not info.coach, teacher=True)
        state = "may open the coach" if not info.coach else "cannot open the coach"
        self.note.show(f"At table {show_code(info.code)} the players {state} now.")
        self.refresh()

    def free_seat(self, table_id: int | None, seat: int | None) -> None:
        """Free a seat whose player never moved (someone who sat and left, or squats)."""
        table_id = self._picked(table_id)
        if table_id is None:
            return
        if not isinstance(seat, int):
            self.note.show("Pick the seat to free first.", bad=True)
            return
        info = self.service.table_by_id(table_id)
        try:
            self.service.free_seat(table_id, seat, teacher=True)
        except TableError as exc:
            self.note.show(_sentence(exc), bad=True)
            return
        self.note.show(f"Seat {seat + 1} at table {show_code(info.code)} is free again.")
        self.refresh()

    def export(self) -> str:
        """The class's results as CSV, offered as a download link; returns the CSV.

        A table whose move log is damaged is left out and named on the page; the others
        are exported as usual."""
        if not self.granted:
            return ""
        results = self.service.results()
        text = str(results["csv"])
        problems = [TableError(p) for p in results["problems"]]
        data = base64.b64encode(text.encode("utf-8")).decode("ascii")
        stamp = time.strftime("%Y-%m-%d-%H%M")
        self.export_link.value = (
            f"<a download='ttr-class-results-{stamp}.csv' href='data:text/csv;base64,{data}' "
            f"class='ttr-download'>Download ttr-class-results-{stamp}.csv</a>"
        )
        if problems:
            left_out = "; ".join(_sentence(p) for p in problems)
            self.note.show(f"Left out of the export: {left_out}", bad=True)
        return text


def _sentence(exc: Exception) -> str:
    """A store's refusal or fault as a sentence for the page."""
    text = str(exc).strip() or "the table store could not be reached just now"
    return text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _ago(seconds: float) -> str:
    if seconds < 60:
        return "just now"
    if seconds < 3600:
        return f"{count(int(seconds // 60), 'minute')} ago"
    return f"{count(int(seconds // 3600), 'hour')} ago"


def tables_table(rows: list[dict[str, Any]]) -> str:
    """The tables as an HTML table (every value escaped)."""
    if not rows:
        return "<div class='ttr-note'>No table has been opened yet.</div>"
    now = time.time()
    body = []
    for row in rows:
        info = row["info"]
        players = []
        for i, seat in enumerate(info.seats):
            name = html.escape(seat.name) if seat.name else "<i>free</i>"
            if seat.away:
                name += " <span class='ttr-note'>(away)</span>"
            if seat.stand_in:  # graded games: who really plays this seat now
                stand_in = html.escape(seat.stand_in)
                name += f" <span class='ttr-note'>(a {stand_in} bot plays for them now)</span>"
            if row["scores"]:
                name += f": {row['scores'][i]}"
            players.append(name)
        coach = "" if info.coach else "<br><span class='ttr-note'>coach off</span>"
        if row.get("damaged"):
            coach += f"<br><span class='ttr-bad'>{html.escape(row['damaged'])}</span>"
        body.append(
            "<tr>"
            f"<td><b>{show_code(info.code)}</b></td>"
            f"<td>{html.escape(row['map'])}</td>"
            f"<td>{html.escape(info.status)}{coach}</td>"
            f"<td>{'<br>'.join(players)}</td>"
            f"<td>{info.moves}</td>"
            f"<td>{html.escape(row['turn'])}</td>"
            f"<td>{_ago(now - info.updated)}</td>"
            "</tr>"
        )
    head = (
        "<tr><th>code</th><th>map</th><th>state</th><th>players: score</th><th>moves</th>"
        "<th>whose turn</th><th>last activity</th></tr>"
    )
    return f"<table class='ttr-teacher-table'>{head}{''.join(body)}</table>"


def launch_teacher(**options: Any) -> TeacherPage:
    """Build the teacher's page, display it, and return it."""
    page = TeacherPage(**options)
    display(page.widget)
    return page
