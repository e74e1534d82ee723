"""The coach in the app: a panel of hints for the seat shown, its plan drawn on the board,
and the end-of-game review.

The panel only shows what :mod:`ttr_nb.coach` computes (the engine and the coach never
import widgets). It speaks to the seat whose hand the app shows; in a solo game where no
human sits, or once the game is over, any seat may be picked. At a shared table it speaks
only for the seat this page plays: a page that plays no seat (a watcher, a second tab, a
seat a bot stands in for, the teacher's page) gets no plan for any seat until the game is
over. Which seats it may speak for is decided in the kernel (:meth:`CoachPanel.seats`)
and checked again before every hint: the page's seat picker is only a choice among them.
The game's creator can
switch it off in *New game* (a graded game): then it says so and shows nothing, until
the game is over (the review then reveals nothing that could change a grade).

In a learner's first game (after the tutorial) the coach speaks plainly, at the top of the
play column (beside the board on a laptop, right under it on a phone):
what to do next in a player's words (:func:`ttr_nb.coach.plain.plain_advice`), with the
algorithm, its figures and the lesson behind a *Why?* that opens in place.

Every bot move is recorded as the bot makes it (:func:`ttr_nb.coach.record_move`), so
*Why that move* can be told for the move shown.
"""

from __future__ import annotations

import html
import logging
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from ..coach import Coaching, Hint, WhyRecord, coach, record_move, review_hints
from ..coach.plain import plain_advice
from ..game import Game
from .board_art import route_polygons
from .lesson_links import lesson_link

if TYPE_CHECKING:
    from .app import GameApp
    from .board import BoardPieces
    from .geometry import BoardGeometry
    from .variants import Shown

log = logging.getLogger(__name__)
COACH_TOOLTIP = "Hints from the lessons' algorithms: your plan, weak spots, why a bot moved"

PLAN_COLOUR = "#0b5cad"
NO_SEAT_NOTE = (
    "The coach speaks only for the seat this page plays, and this page plays none now (it "
    "watches, your seat is open in another tab, or a bot plays it for you). Every player's "
    "cards and tickets show in the review once the game is over."
)  # a strong blue, apart from every player and route colour

COACH_CSS = """
<style>
.ttr-coach .ttr-coach-hint { margin: 4px 0 6px 0; }
.ttr-coach .ttr-coach-hint ul { margin: 2px 0 2px 16px; padding: 0; }
.ttr-coach .ttr-coach-how { color: #555; font-size: 90%; }
.ttr-coach-review .ttr-coach-hint { margin: 4px 0; }
.ttr-coach-key { display: inline-block; width: 18px; border-top: 3px dashed #0b5cad;
  vertical-align: middle; }
.ttr-coach-plain { margin: 4px 0; }
.ttr-coach-plain-box { border: 2px solid #0b5cad; border-radius: 8px; background: #f3f8ff;
  padding: 6px 10px; }
.ttr-coach-plain-box ul { margin: 2px 0 2px 18px; padding: 0; }
</style>
"""


class CoachPanel:
    """The coach's panel; the app places ``widget`` among its panels and ``review_widget``
    on the end screen, calls :meth:`render` after each change, :meth:`bot_moved` when a bot
    chooses a move, and paints :meth:`paint` as a board layer."""

    def __init__(self, app: GameApp) -> None:
        self.app = app
        guard = app.guard
        self.records: dict[int, tuple[Any, WhyRecord]] = {}  # move number -> (action, why)
        self._game_key: tuple | None = None
        self._cache: tuple[tuple, Coaching] | None = None
        self._review_cache: tuple[tuple, list[Hint]] | None = None
        self._updating = False
        self.toggle = widgets.ToggleButton(
            value=False,
            description="Open the coach",
            tooltip=COACH_TOOLTIP,
            _dom_classes=["ttr-coach-toggle"],
        )
        self.seat = widgets.Dropdown(
            description="For:",
            options=[],
            layout=widgets.Layout(width="200px"),
            _dom_classes=["ttr-coach-seat"],
        )
        self.draw_plan = widgets.Checkbox(
            value=True,
            description="Draw the plan on the board",
            indent=False,
            _dom_classes=["ttr-coach-draw"],
        )
        self.body = widgets.HTML(_dom_classes=["ttr-coach-body"])
        # The first game's plain words (by the board), and its reasons behind *Why?*: a
        # button kept in the kernel, so a bot's move redrawing the words leaves it as it was.
        self.plain_html = widgets.HTML(_dom_classes=["ttr-coach-plain-words"])
        self.why_toggle = widgets.ToggleButton(
            value=False,
            description="Why?",
            tooltip="How the coach worked it out: the algorithm, its figures, the lesson",
            _dom_classes=["ttr-coach-why"],
            layout=widgets.Layout(width="auto", min_width="fit-content"),
        )
        self.why_html = widgets.HTML(_dom_classes=["ttr-coach-why-text"])
        self.plain_widget = widgets.VBox(
            [self.plain_html, self.why_toggle, self.why_html],
            _dom_classes=["ttr-coach-plain", "ttr-coach-plain-box"],
            layout=widgets.Layout(display="none"),
        )
        self.review_widget = widgets.HTML(_dom_classes=["ttr-coach-review"])
        for control in (self.toggle, self.seat, self.draw_plan, self.why_toggle):
            control.observe(guard(lambda _c: self._changed()), names="value")
        self.widget = widgets.VBox(
            [
                widgets.HTML(COACH_CSS),
                widgets.HBox(
                    [self.toggle, self.seat, self.draw_plan],
                    layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
                ),
                self.body,
            ],
            _dom_classes=["ttr-panel", "ttr-coach"],
        )

    # ------------------------------------------------------------ the app's hooks
    def bot_moved(self, bot: Any, game: Game, action: Any) -> None:
        """Keep what ``bot`` recorded about ``action`` (called before it is applied)."""
        try:
            self.records[len(game.history) + 1] = (action, record_move(bot, game, action))
        except Exception:  # the coach must never stop a game
            log.exception("could not record a bot move")

    def render(self, shown: Shown) -> None:
        """Show the coach's hints on ``shown`` for its chosen seat."""
        view = shown.view
        self._follow_game()
        self.plain_widget.layout.display = "none"
        if view is None:
            self.widget.layout.display = "none"
            self.review_widget.value = ""
            return
        self.widget.layout.display = ""
        self._update_seats(shown)
        self.review_widget.value = self._review_html(view) if view.is_over else ""
        if not self.allowed:
            why = self.app.tables.coach_off_text() or (
                "The coach is switched off for this game (a setting of New game)."
            )
            self.toggle.disabled = True
            self.toggle.description = "The coach is off"
            self.toggle.tooltip = why  # a disabled button says why
            self.body.value = f"<div class='ttr-note'>{html.escape(why)}</div>"
            return
        self.toggle.disabled = False
        self.toggle.tooltip = COACH_TOOLTIP
        self.toggle.description = "Close the coach" if self.toggle.value else "Open the coach"
        self.draw_plan.layout.display = "" if self.toggle.value else "none"
        self.seat.layout.display = "" if self.toggle.value and self.seat.options else "none"
        if not self.toggle.value:
            self.body.value = ""
            return
        if not self.seats(shown):
            self.body.value = f"<div class='ttr-note ttr-coach-no-seat'>{NO_SEAT_NOTE}</div>"
            return
        if view.is_over:
            why = self._why(view)
            seat = self.seat.value if self.seat.value is not None else 0
            self.body.value = (
                "<div class='ttr-note'>The game is over: the end-of-game review is above. With "
                "<i>Draw the plan</i> ticked, the board shows the cheapest network for the "
                "tickets of the player picked here.</div>"
                + (self._hints_html([why.hint(view, seat)]) if why is not None else "")
            )
            return
        advice = self.coaching(view)
        if advice is not None and self.plain:
            self._show_plain(view, advice)
            self.body.value = (
                "<div class='ttr-note'>In your first game the coach speaks at the top of this "
                "column, beside the board; its reasons are behind <i>Why?</i> there.</div>"
            )
            return
        self.body.value = self._hints_html(advice.hints) if advice is not None else ""

    @property
    def plain(self) -> bool:
        """Does the coach speak plainly (a learner's first game, after the tutorial)?"""
        return bool(self.app.reminders.active)

    def _show_plain(self, view: Game, advice: Coaching) -> None:
        """The plain advice, and behind *Why?* how the coach worked it out (the
        algorithm, its figures, every hint, the lesson)."""
        assert advice.plan is not None
        words = plain_advice(view, advice.seat, advice.plan)
        items = "".join(f"<li>{html.escape(line)}</li>" for line in words.lines)
        self.plain_html.value = f"<b>Coach:</b><ul>{items}</ul>"
        why = self.why_toggle.value
        self.why_toggle.description = "Hide why" if why else "Why?"
        self.why_html.value = self._hints_html(advice.hints) if why else ""
        self.plain_widget.layout.display = ""

    def _hints_html(self, hints: Any) -> str:
        return _hints_html(hints, self.app.links.base)

    def paint(self, layer: Any, geometry: BoardGeometry, pieces: BoardPieces) -> None:
        """Board layer: the plan of the coached seat (dashed blue), or at the end the
        cheapest network for that seat's tickets (dashed green)."""
        game = pieces.game
        if game is None or not self.draw_plan.value or self.seat.value is None:
            return
        if game.is_over:
            hints = self.review(game)
            routes = next(
                (h.routes for h in hints if h.data.get("seat") == self.seat.value + 1), ()
            )
            _dashed(layer, geometry, routes, PLAN_COLOUR)
            return
        if not (self.allowed and self.toggle.value):
            return
        advice = self.coaching(game)
        if advice is not None:
            _dashed(layer, geometry, advice.plan.routes, PLAN_COLOUR)

    # ------------------------------------------------------------------ state
    @property
    def allowed(self) -> bool:
        """Whether the coach may be opened (a table's creator or the teacher can switch it off)."""
        return bool(getattr(self.app, "coach_allowed", True))

    def seats(self, shown: Shown) -> list[int]:
        """The seats the coach may speak for in ``shown``, decided here in the kernel.

        Once the game is over, every seat. At a shared table, only the seat this page plays
        now (none for a watcher, a second tab, or a seat a bot stands in for). In a game of
        this page alone, the seat shown, or any seat when no human plays.
        """
        view = shown.view
        if view is None:
            return []
        if view.is_over:
            return list(range(view.num_players))
        humans = [s for s in range(view.num_players) if self.app.is_human(s)]
        if self.app.tables.active:
            return humans
        if not humans:
            return list(range(view.num_players))
        return [shown.viewer if shown.viewer is not None else humans[0]]

    def coaching(self, view: Game) -> Coaching | None:
        """The coach's hints for the picked seat in ``view`` (cached per position); None
        when that seat is not one this page may be coached for (a forged pick)."""
        seat = self.seat.value
        if seat is None or seat not in self.seats(self.app.shown):
            return None
        key = (id(self.app.game), len(view.history), seat, view.is_over)
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        advice = coach(view, seat, self._why(view))
        self._cache = (key, advice)
        return advice

    def review(self, view: Game) -> list[Hint]:
        """The end-of-game review of ``view``, computed once per game and move."""
        key = (id(self.app.game), len(view.history))
        if self._review_cache is None or self._review_cache[0] != key:
            self._review_cache = (key, review_hints(view))
        return self._review_cache[1]

    def _why(self, view: Game) -> WhyRecord | None:
        """The record of the shown position's last move, if a bot made it."""
        moves = len(view.history)
        kept = self.records.get(moves)
        if kept is not None and view.history[-1].action == kept[0]:
            return kept[1]
        client = self.app.tables.client if self.app.tables.active else None
        if client is not None and moves in client.whys:  # a table's bot, moved by any page
            record = WhyRecord.from_data(client.whys[moves])
            if record is not None and record.move == moves:
                return record
        return None

    def _follow_game(self) -> None:
        """Forget the records of another game (a new game, a load)."""
        game = self.app.game
        key = None if game is None else (game.map.id, game.seed, tuple(game.names))
        if key != self._game_key:
            self._game_key = key
            self.records.clear()
            self._cache = self._review_cache = None

    def _update_seats(self, shown: Shown) -> None:
        """Offer the seats the coach may speak for (:meth:`seats`) in the seat picker."""
        view = shown.view
        assert view is not None
        seats = self.seats(shown)
        options = [(f"{s + 1} {view.names[s]}", s) for s in seats]
        if list(self.seat.options) != options:
            keep = self.seat.value if self.seat.value in seats else (seats[0] if seats else None)
            self._updating = True
            try:
                self.seat.options = options
                self.seat.value = keep
            finally:
                self._updating = False

    def _changed(self) -> None:
        if self.app.rendering or self._updating:
            return
        self.render(self.app.shown)
        self.app.draw_board()

    def _review_html(self, view: Game) -> str:
        hints = self.review(view)
        key = (
            "<span class='ttr-coach-key'></span> with <i>Draw the plan</i> "
            "ticked: the cheapest network of the player picked in the coach"
        )
        return (
            "<div class='ttr-panel ttr-coach-review-box'><b>End-of-game review</b> "
            f"<span class='ttr-note'>({key})</span>{self._hints_html(hints)}</div>"
        )


def _hints_html(hints: Any, page_base: str | None = None) -> str:
    parts = []
    for hint in hints:
        items = "".join(f"<li>{html.escape(line.strip())}</li>" for line in hint.lines)
        algorithm = hint.algorithm
        lesson = lesson_link(algorithm.lesson_title, algorithm.lesson, page_base)
        parts.append(
            f"<div class='ttr-coach-hint' data-kind='{html.escape(hint.kind)}'>"
            f"<b>{html.escape(hint.title)}</b><ul>{items}</ul>"
            f"<div class='ttr-coach-how'>How: {html.escape(algorithm.name)}. Lesson: "
            f"{lesson}</div></div>"
        )
    return "".join(parts)


def _dashed(layer: Any, geometry: BoardGeometry, route_ids: Any, colour: str) -> None:
    """Outline routes with a dashed line (the coach's layer; claims stay visible under)."""
    batch = route_polygons(geometry, route_ids, grow=5.0)
    if batch is None:
        return
    points, counts = batch
    layer.set_line_dash([6, 4])
    layer.stroke_style = colour
    layer.line_width = 3
    layer.stroke_polygons(points, points_per_polygon=counts)
    layer.set_line_dash([])
