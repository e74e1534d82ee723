"""*Play with others*: a page's live link to a shared table.

The game of a table lives in the table service (:mod:`ttr_nb.tables.service`), which alone
holds its deal and referees it; this page holds a :class:`~ttr_nb.tables.remote.SeatClient`
that follows the service's view of the page's own seat. A browser-side timer asks the
kernel to look at the table a few times a second (one cheap request when nothing moved); a
new move is then drawn at once. The service moves the table's bots.

The page shows the public table and this seat's own hand, tickets and choices, and its
kernel holds nothing more: not the seed, not another seat's cards. Its browser keeps the
seat's token (``localStorage``), so a reload comes back to the seat; on another device the
seat code brings the player back. A seat freed by the creator or the teacher stops
answering to this page's token: the page leaves the table and says so.

The forms that open and join tables are :mod:`.table_forms`; the panel shown at a table is
:mod:`.table_panel`; a table's link and QR code are :mod:`.links`.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from ..errors import (
    IllegalActionError,
    SeatElsewhereError,
    SeatTokenError,
    StaleMoveError,
    StoreFaultError,
    TableError,
)
from ..tables.codes import show_code
from .controls import Note, browser_timer, count
from .storage import SeatKeeper
from .table_forms import TableForms
from .table_panel import TablePanel

if TYPE_CHECKING:
    from ..tables import Seated
    from ..tables.remote import SeatClient, TablesClient
    from .app import GameApp

log = logging.getLogger(__name__)

POLL_MS = 400  # how often the page looks at the table (a move shows within about this)
HEARTBEAT_S = 20.0  # how often the page says its seat is still open
COACH_OFF_AT_TABLE = (
    "The coach is switched off at this table (a graded game): the table's creator or the "
    "teacher can switch it on again. After the game, its review shows here."
)


class TablePlay:
    """The app's *Play with others* panel and, once seated, its live link to the table."""

    def __init__(
        self, app: GameApp, service_factory: Callable[[str], TablesClient] | None = None
    ) -> None:
        self.app = app
        self._service_factory = service_factory
        self._service: TablesClient | None = None
        self.session = secrets.token_hex(12)  # this page
        self.client: SeatClient | None = None
        self.seated: Seated | None = None
        self.creator_token: str | None = None
        self.seat_code: str | None = None
        self.elsewhere = False  # another tab or device holds our seat now
        self.trouble = False  # the table note shows a store fault (cleared when it answers)
        self.watching_only = False  # the teacher's page: no seat, no creator, no leaving
        self.page_base: str | None = None  # the app's address, as the page gave it (links)
        self.link_code: str | None = None  # the table the page's link opened
        self._last_heartbeat = 0.0
        guard = app.guard

        self.keeper = SeatKeeper()
        self.keeper.on_stored(guard(self._come_back_from_browser))
        self.timer = browser_timer(POLL_MS, "ttr-table-timer", guard(lambda: self.on_tick()))
        self.forms = TableForms(self)
        self.forms_box = self.forms.widget
        self.table_box = widgets.VBox(
            _dom_classes=["ttr-panel", "ttr-table-box"], layout=widgets.Layout(display="none")
        )
        self._panel: TablePanel | None = None  # built when this page first sits at a table

    @property
    def panel(self) -> TablePanel:
        """The table's panel (made on first use: most visitors never sit at a table)."""
        if self._panel is None:
            self._panel = TablePanel(self, self.table_box)
        return self._panel

    @property
    def service(self) -> TablesClient:
        """This page's connection to the table service (made on first use).

        Raises :class:`~ttr_nb.errors.TableError` when the page has no way to the service."""
        if self._service is None:
            if self._service_factory is not None:
                self._service = self._service_factory(self.session)
            else:
                from ..tables.remote import connect

                self._service = connect(self.session)
        return self._service

    @property
    def active(self) -> bool:
        """True while this page shows a shared table."""
        return self.client is not None

    @property
    def seat(self) -> int | None:
        """The seat this page plays (None: it watches)."""
        return self.seated.seat if self.seated is not None else None

    @property
    def table_note(self) -> Note:
        """The note under the table's panel (its creator's buttons answer there)."""
        return self.panel.note

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
        if info is not None and info.status == "closed":
            return "This table was closed: its game stops here."
        if info is not None and info.seats[seat].free:
            return (
                f"Seat {seat + 1} is free: waiting for someone to take it with the table code "
                "(or for the creator to put a bot there)."
            )
        if info is not None and info.seats[seat].stand_in and seat == self.seat:
            return f"A {info.seats[seat].stand_in} bot plays your seat until it is given back."
        if info is not None and info.seats[seat].played_by_bot:
            return f"{name} (a bot) is moving."
        if info is not None and info.seats[seat].away:
            return f"Waiting for {name} (away for a few minutes)."
        return f"Waiting for {name} to move."

    def idle_text(self) -> str:
        """The status line at a table with no game (yet): waiting for players, or closed."""
        client = self.client
        if client is None:
            return ""
        info = client.info
        code = show_code(info.code)
        if info.status == "closed":
            return f"Table {code} was closed before its game started."
        free = sum(1 for s in info.seats if s.free)
        if self.creator_token is not None:
            return (
                f"Table {code} is open: {count(free, 'seat')} still free. Show its link or QR "
                "code, or read out its code: the others join under Play with others. Start "
                "now puts bots in the free seats."
            )
        return (
            f"You sit at table {code}: the game starts when every seat is taken "
            f"({count(free, 'seat')} still free)."
        )

    def coach_off_text(self) -> str | None:
        """Why the coach is off at this table (None: not at a table)."""
        return COACH_OFF_AT_TABLE if self.active else None

    def watch(self, seated: Seated) -> None:
        """Show a table without a seat (the teacher's page: the service shows a teacher
        the table as any watcher sees it while it runs, everything once it is over)."""
        from ..tables.remote import SeatClient

        self.panel.reset()
        self.watching_only = True
        self.seated = seated
        self.seat_code = None
        self.creator_token = None
        self.client = SeatClient(self.service, seated.table_id)
        self.elsewhere = False
        self.table_box.layout.display = ""
        self.forms.show(False)
        self.timer.playing = True
        self.app.open_table(self.client, "")  # the table's header says which table

    def failed(self, note: Note, exc: Exception) -> None:
        """Say why a request failed, beside the form and in the status line."""
        if isinstance(exc, TableError):
            message = str(exc)
            message = message[0].upper() + message[1:]
        else:  # the database is unreachable, a disk is full ...: the log has it
            log.exception("table request failed")
            message = "The table could not be reached just now; try again in a moment."
        note.show(message, bad=True)
        self.app._set_status(message, bad=True)

    # ------------------------------------------------------------------ links
    def follow_link(self, code: str) -> None:
        """The page was opened by table ``code``'s link (a well-formed code; the store's
        rate-limited lookup decides whether it is a table)."""
        self.link_code = code
        client = self.client
        if client is not None and client.info.code == code:
            self.app.say(f"You are at table {show_code(code)} already.")
            return
        if client is not None:
            where = f"seat {self.seat + 1} at " if self.seat is not None else ""
            self.app.prompt.ask(
                f"Your link opens table {show_code(code)}, but this page is at {where}table "
                f"{show_code(client.info.code)}. Go to table {show_code(code)}'s seat choice? "
                "Your seat here stays yours: the table code and your seat code bring you back.",
                [("Go", True)],
                lambda _yes: self._leave_for_link(code),
                ok_label=f"Yes: table {show_code(code)}",
                cancel_label="No: stay here",
            )
            return
        self.forms.follow_link(code)

    def _leave_for_link(self, code: str) -> None:
        self.leave()
        self.forms.follow_link(code)

    # ------------------------------------------------------------------ coming back
    def _come_back_from_browser(self, stored: dict[str, Any]) -> None:
        """The browser kept a seat: come back to it (a reload), unless a game is under way
        or the page's link opened another table."""
        token = stored.get("token")
        if not isinstance(token, str) or self.active:
            return
        if self.link_code is not None and stored.get("code") != self.link_code:
            self.app.say(
                "This browser also keeps a seat at another table: open the app without this "
                "link to go back to it."
            )
            return
        game = self.app.game
        if game is not None and game.history and not game.is_over:
            return  # never drop a solo game in progress without asking: the forms offer it
        try:
            seated = self.service.rejoin(token)
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
        self.sit(
            seated,
            creator_token=creator if isinstance(creator, str) else None,
            token=token,
            seat_code=seat_code if isinstance(seat_code, str) else None,
            back=True,
        )

    def take_over(self) -> None:
        """This page plays the seat again (it had moved to another tab or device)."""
        if self.seated is None or self.client is None:
            return
        token = self.client.token
        try:
            self.service.rejoin(token or "")
        except Exception as exc:  # noqa: BLE001
            self.failed(self.table_note, exc)
            return
        self.elsewhere = False
        self.table_note.show("This page plays your seat again.")
        self.app.refresh("This page plays your seat again.")

    def sit(
        self,
        seated: Seated,
        creator_token: str | None = None,
        token: str | None = None,
        seat_code: str | None = None,
        back: bool = False,
    ) -> None:
        """Show the table ``seated`` is at, as its seat (or as a watcher); ``back``: the
        page came back to a seat it held."""
        from ..tables.remote import SeatClient

        panel = self.panel
        panel.reset()
        token = seated.token or token
        self.seated = seated
        self.seat_code = seated.seat_code or seat_code
        self.creator_token = creator_token
        self.watching_only = False
        kept = {
            "token": token,
            "creator": creator_token,
            "code": seated.code,
            "seat_code": self.seat_code,
        }
        try:
            client = SeatClient(
                self.service,
                seated.table_id,
                seat=seated.seat,
                token=token,
                creator_token=creator_token,
            )
        except TableError as exc:  # a damaged log, the store gone: the browser keeps the seat
            self.keeper.keep(kept)
            self.app._set_status(_sentence(exc), bad=True)
            return
        self.client = client
        self.elsewhere = False
        self.keeper.keep(kept)
        self.forms.show(False)
        self.table_box.layout.display = ""
        self.timer.playing = True
        self.app.open_table(self.client, self._welcome(back))

    def _welcome(self, back: bool) -> str:
        info = self.client.info if self.client else None
        if info is None or self.seated is None:
            return ""
        if info.status == "open":
            return self.idle_text()
        if info.status == "playing" and info.moves == 0 and not back:
            return "Everyone is here: the game starts."
        where = f", seat {self.seat + 1}" if self.seat is not None else ""
        return f"Back at table {show_code(info.code)}{where}."

    def leave(self) -> None:
        """Back to a solo game; the seat stays this player's (the seat code brings them back)."""
        self.timer.playing = False
        self.client = None
        self.seated = None
        self.creator_token = None
        self.keeper.forget()
        self.table_box.layout.display = "none"
        self.forms.show(True)
        self.app.leave_table()

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
        except SeatTokenError as exc:
            self.seat_lost(_sentence(exc))
            return _sentence(exc)
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
        status_before = client.info.status if client.info is not None else None
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
        except SeatTokenError as exc:  # the seat was freed (or taken to another device)
            self.seat_lost(_sentence(exc))
            return
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
        if new or changed or force:
            self.app.table_moved(moves_before)

    def seat_lost(self, why: str) -> None:
        """This page's token no longer holds its seat (freed by the creator or the teacher,
        or opened on another device): leave the table, drop everything the seat showed, and
        say why."""
        self.timer.playing = False
        self.client = None
        self.seated = None
        self.creator_token = None
        self.keeper.forget()
        self.table_box.layout.display = "none"
        self.forms.show(True)
        self.app.leave_table()
        self.app._set_status(
            f"{why} You are no longer at that table: its cards and tickets are not shown here "
            "any more.",
            bad=True,
        )

    # ------------------------------------------------------------------ what the page shows
    def render(self) -> None:
        """Redraw the table's panel (the app calls it after every change)."""
        if self._panel is None and self.client is None:
            return
        self.panel.render()

    def save_note(self) -> str | None:
        """Why this page offers no save now (None: it may save)."""
        client = self.client
        if client is None:
            return None
        if client.game is None:
            return "Nothing to save yet: this table's game starts when every seat is taken."
        if client.game.is_over:
            return None
        return (
            "A table's save is offered when its game is over: a save holds the deck's order and "
            "every hand. To come back to your seat, use the table code and your seat code."
        )


def _sentence(exc: Exception) -> str:
    """A table error's message as a sentence (capital first, full stop last)."""
    text = str(exc)
    return f"{text[:1].upper()}{text[1:]}{'' if text.endswith('.') else '.'}"
