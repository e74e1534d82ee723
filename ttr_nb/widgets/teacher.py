"""The teacher's page: every table of the class, live; watch, replay, close, export results.

Served by its own Voilà server (``make teacher``), which needs a key chosen by the teacher in
the environment variable ``TTR_TEACHER_KEY`` (never in the repository): the page asks for it
before it shows anything. It reads the same table store as the app (``TTR_TABLES_URL``, or
the default SQLite file).

- **Tables**: code, map, players (away ones marked), moves, scores, whose turn, last
  activity; refreshed every few seconds.
- **Watch a table**: the app itself, as a watcher: the public table while the game runs
  (board, face-up cards, counts, scores, log), every hand and ticket once it is over; stepping
  and *Replay* at a chosen speed, for the projector.
- **Close a table**, and **export the class's results** as CSV (table, player, score by part,
  tickets done and missed).
"""

from __future__ import annotations

import base64
import hmac
import html
import logging
import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets
from IPython.display import display

from ..tables.codes import show_code
from .controls import Note, browser_timer, button, count

if TYPE_CHECKING:
    from ..tables import TableInfo, TableStore
    from ..tables.client import TableClient
    from .app import GameApp

log = logging.getLogger(__name__)

KEY_ENV = "TTR_TEACHER_KEY"
TEACHER_CSS = """<style>
.ttr-teacher-table { border-collapse: collapse; margin: 6px 0; }
.ttr-teacher-table th, .ttr-teacher-table td { border-bottom: 1px solid #ddd; padding: 4px 10px;
  text-align: left; vertical-align: top; }
.ttr-teacher-table th { background: #f3efe4; }
</style>"""
REFRESH_MS = 3000
WRONG_KEYS_PER_MINUTE = 5
MAX_TABLES_LISTED = 200


class TeacherPage:
    """The teacher's page (see the module); display its ``widget``.

    Parameters
    ----------
    key : str, optional
        The teacher key (default: ``$TTR_TEACHER_KEY``); without one the page says how to
        set it and shows nothing else.
    store_factory : callable, optional
        Makes the table store (default: the app's, :func:`ttr_nb.tables.default_url`).
    """

    def __init__(
        self,
        key: str | None = None,
        store_factory: Callable[[], TableStore] | None = None,
    ) -> None:
        from .safety import CallbackGuard

        self.guard = CallbackGuard(show_details=False)
        self._key = key if key is not None else os.environ.get(KEY_ENV, "")
        self._store_factory = store_factory
        self._store: TableStore | None = None
        self._wrong: list[float] = []
        self.clients: dict[int, TableClient] = {}
        self.app: GameApp | None = None
        guard = self.guard

        self.key_box = widgets.Password(
            description="Teacher key:",
            style={"description_width": "initial"},
            _dom_classes=["ttr-teacher-key"],
        )
        self.key_button = button("Open", "ttr-teacher-open")
        self.key_button.on_click(guard(lambda _b: self.unlock()))
        self.key_note = Note("ttr-teacher-key-note")
        if not self._key:
            self.key_note.show(
                f"This server has no teacher key: start it with the environment variable "
                f"{KEY_ENV} set to a phrase of your choice (make teacher asks for it).",
                bad=True,
            )
            self.key_button.disabled = True
        self.gate = widgets.VBox(
            [widgets.HBox([self.key_box, self.key_button]), self.key_note.widget],
            _dom_classes=["ttr-teacher-gate"],
        )

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
        self.note = Note("ttr-teacher-note")
        self.guard.listeners.append(lambda summary: self.note.show(summary, bad=True))
        self.timer = browser_timer(REFRESH_MS, "ttr-teacher-timer", guard(lambda: self.refresh()))
        self.watch_box = widgets.VBox(_dom_classes=["ttr-teacher-watch-box"])
        self.inside = widgets.VBox(
            [
                self.tables_html,
                widgets.HBox(
                    [self.picker, self.watch_button, self.coach_button, self.close_button],
                    layout=widgets.Layout(flex_flow="row wrap"),
                ),
                widgets.HBox([self.export_button, self.export_link]),
                self.note.widget,
                self.timer,
                self.watch_box,
            ],
            layout=widgets.Layout(display="none"),
            _dom_classes=["ttr-teacher-inside"],
        )
        from . import panels

        self.widget = widgets.VBox(
            [
                widgets.HTML(panels.APP_CSS + TEACHER_CSS),
                widgets.HTML(
                    "<div class='ttr-title'><b>Ticket to Ride: the teacher's page</b> "
                    "<span class='ttr-note'>Every table of the class, live.</span></div>"
                ),
                self.gate,
                self.inside,
                self.guard.output,
            ],
            _dom_classes=["ttr-app", "ttr-teacher"],
        )

    @property
    def store(self) -> TableStore:
        """The tables' store, opened on first use."""
        if self._store is None:
            from ..tables.store import open_store

            self._store = open_store(self._store_factory)
        return self._store

    # ------------------------------------------------------------------ the key
    def unlock(self) -> bool:
        """Check the typed key (a few tries a minute); returns whether the page is unlocked."""
        now = time.monotonic()
        self._wrong = [t for t in self._wrong if now - t < 60]
        if len(self._wrong) >= WRONG_KEYS_PER_MINUTE:
            self.key_note.show("Too many wrong keys: wait a minute.", bad=True)
            return False
        typed = self.key_box.value if isinstance(self.key_box.value, str) else ""
        self.key_box.value = ""
        if not self._key or not hmac.compare_digest(typed.encode(), self._key.encode()):
            self._wrong.append(now)
            self.key_note.show("That is not this server's teacher key.", bad=True)
            return False
        self.gate.layout.display = "none"
        self.inside.layout.display = ""
        self.refresh()
        self.timer.playing = True
        return True

    @property
    def unlocked(self) -> bool:
        """Whether the right key has been given."""
        return self.inside.layout.display != "none"

    # ------------------------------------------------------------------ the list
    def refresh(self) -> None:
        """List every table again, with its players, scores and last activity."""
        if not self.unlocked:
            return
        try:
            tables = self.store.list_tables(MAX_TABLES_LISTED)
        except Exception:  # noqa: BLE001 - the database may be back at the next refresh
            log.exception("teacher: listing the tables failed")
            self.note.show("The table store could not be reached; retrying.", bad=True)
            return
        rows = []
        for info in tables:
            rows.append(self._row(info))
        self.tables_html.value = tables_table(rows)
        options = [(f"{show_code(r['info'].code)} ({r['map']})", r["info"].table_id) for r in rows]
        if list(self.picker.options) != options:
            keep = self.picker.value
            self.picker.options = options
            if keep in [v for _, v in options]:
                self.picker.value = keep

    def _row(self, info: TableInfo) -> dict[str, Any]:
        from ..maps import load_map

        scores: list[int] = []
        turn = ""
        if info.status != "open":
            client = self._client(info.table_id)
            game = client.game if client else None
            if game is not None:
                scores = [row["total"] for row in game.scores()]
                if not game.is_over and info.status == "playing":
                    turn = info.names[game.current_player]
        return {
            "info": info,
            "map": load_map(info.map).name,
            "scores": scores,
            "turn": turn,
        }

    def _client(self, table_id: int) -> TableClient | None:
        from ..tables.client import TableClient

        client = self.clients.get(table_id)
        try:
            if client is None:
                client = self.clients[table_id] = TableClient(self.store, table_id)
            else:
                client.sync()
        except Exception:  # noqa: BLE001
            log.exception("teacher: table %s could not be read", table_id)
            return None
        return client

    # ------------------------------------------------------------------ actions
    def watch(self, table_id: int | None) -> None:
        """Show the table in the app, as a watcher (everything once its game is over)."""
        if table_id is None or not self.unlocked:
            return
        from ..tables.store import Seated
        from .app import GameApp

        info = self.store.table_by_id(table_id)
        if self.app is None:
            self.app = GameApp(auto_bots=False, store_factory=lambda: self.store)
            # The teacher watches: no games of their own, no tables to open from here.
            self.app.new_game_box.layout.display = "none"
            self.app.tables.forms_box.layout.display = "none"
            self.watch_box.children = (self.app.widget,)
        self.app.tables.watch(Seated(info.table_id, info.code, None))
        self.note.show(f"Watching table {show_code(info.code)}.")

    def close(self, table_id: int | None) -> None:
        """Close table ``table_id`` (the teacher's page must be unlocked)."""
        if table_id is None or not self.unlocked:
            return
        info = self.store.table_by_id(table_id)
        self.store.close_table(table_id, teacher=True)
        self.note.show(f"Table {show_code(info.code)} is closed.")
        self.refresh()

    def switch_coach(self, table_id: int | None) -> None:
        """Let a table's players open the coach, or switch it off (a graded game)."""
        if table_id is None or not self.unlocked:
            return
        info = self.store.table_by_id(table_id)
        self.store.set_coach(table_id, not info.coach, teacher=True)
        state = "may open the coach" if not info.coach else "cannot open the coach"
        self.note.show(f"At table {show_code(info.code)} the players {state} now.")
        self.refresh()

    def export(self) -> str:
        """The class's results as CSV, offered as a download link; returns the CSV."""
        if not self.unlocked:
            return ""
        from ..tables.results import class_results, results_csv

        text = results_csv(class_results(self.store, self.clients, MAX_TABLES_LISTED))
        data = base64.b64encode(text.encode("utf-8")).decode("ascii")
        stamp = time.strftime("%Y-%m-%d-%H%M")
        self.export_link.value = (
            f"<a download='ttr-class-results-{stamp}.csv' href='data:text/csv;base64,{data}' "
            f"class='ttr-download'>Download ttr-class-results-{stamp}.csv</a>"
        )
        return text


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
            if seat.kind != "human":
                name += f" <span class='ttr-note'>({html.escape(seat.kind)} bot)</span>"
            if row["scores"]:
                name += f": {row['scores'][i]}"
            players.append(name)
        coach = "" if info.coach else "<br><span class='ttr-note'>coach off</span>"
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
