"""The tutorial inside the app: a panel above the cards, the step's position on the board,
marks where to look, and a referee between the learner's clicks and the game.

:class:`TutorialPlay` is part of :class:`~ttr_nb.widgets.app.GameApp` (``app.tutorial``).
While it runs, the app shows the step's position (built by the engine, see
:mod:`.model`) and the learner acts with the app's ordinary controls; every move goes
through :meth:`TutorialPlay.act`, which lets a move on the way to the step's goal through,
refuses an illegal move with the rule in words (as in a game), and takes back a legal move
that does something else, saying why. The other seats never move by themselves.

The steps make one game (see :mod:`.model`): the runner keeps the game each step ended
on, so the next step carries on from the learner's own choices. *Skip* plays the step's
move for the learner (the game goes on from it); *Back* opens the step before again.

The step reached, the steps done and the learner's moves are kept in the visitor's browser
(:class:`ProgressKeeper`), never on the server, so a reloaded page opens the same step of
the same game, its done-marks intact. What the browser sends back is checked like any other
input from the page: a move it names is made only if it is legal and on the way to its
step's goal, else the tutorial plays that step itself.
"""

from __future__ import annotations

import html
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import anywidget
import ipywidgets as widgets

from ...actions import action_from_dict, action_to_dict
from ...game import Game
from .. import panels
from ..board_art import route_polygons
from ..controls import Note, button
from ..lesson_links import lesson_link
from .model import (
    Marks,
    Opening,
    Rule,
    Step,
    Tutorial,
    lesson_title,
    tutorial_for,
    tutorial_maps,
)
from .reminders import start_first_game

if TYPE_CHECKING:
    from ..app import GameApp
    from ..board import BoardPieces
    from ..geometry import BoardGeometry
    from ..variants import Shown

log = logging.getLogger(__name__)

MARK_CLASS = "ttr-tutorial-mark"
MARK_COLOUR = "#e07b00"  # orange: apart from the selection (magenta) and the claimable halo
PROGRESS_KEY = "ttr-nb-tutorial"
MAX_PROGRESS_CHARS = 20_000  # the step, the done-marks and a learner's moves: a few kB
MAX_STEP_MOVES = 12  # a step takes a turn: a few moves

TUTORIAL_CSS = """
<style>
.ttr-tutorial { border: 2px solid #e07b00 !important; background: #fffaf2; }
.ttr-tutorial h3 { margin: 2px 0 4px 0; }
.ttr-tutorial-progress { display: flex; flex-wrap: wrap; gap: 3px; margin: 2px 0 6px 0; }
.ttr-tutorial-progress span { display: inline-block; width: 16px; height: 8px;
  border-radius: 3px; background: #d8d8d8; }
.ttr-tutorial-progress span.done { background: #3c8d3c; }
.ttr-tutorial-progress span.here { background: #e07b00; }
.ttr-tutorial-task { margin: 6px 0; padding: 4px 6px; background: #fff0d9; border-radius: 4px; }
.ttr-tutorial-since { margin: 2px 0 6px 0; padding: 4px 6px; border-left: 3px solid #9a9a9a;
  background: #f4f4f4; font-size: 92%; }
.ttr-tutorial-since.ttr-tutorial-new { border-left-color: #1a5fb4; background: #eef4fc; }
.ttr-tutorial-feedback .ttr-good-note, .ttr-tutorial-feedback .ttr-bad-note { margin: 4px 0; }
.ttr-tutorial-lesson { font-size: 90%; color: #444; }
.ttr-tutorial-mark { outline: 3px solid #e07b00 !important; outline-offset: 2px;
  box-shadow: 0 0 0 6px rgba(224, 123, 0, 0.25) !important; }
.ttr-tutorial-buttons { flex-wrap: wrap; }
</style>
"""


_PROGRESS_ESM = """
const KEY = %(key)s;
export default {
  initialize({ model }) {
    model.on("msg:custom", (msg) => {
      try {
        if (msg.kind === "keep") { localStorage.setItem(KEY, JSON.stringify(msg.progress)); }
        else if (msg.kind === "forget") { localStorage.removeItem(KEY); }
      } catch (e) { /* storage full or blocked: the tutorial starts over on a reload */ }
    });
    let text = null;
    try { text = localStorage.getItem(KEY); } catch (e) { text = null; }
    model.send({ kind: "stored", text: text && text.length <= %(max)d ? text : null });
  },
  render({ el }) { el.style.display = "none"; },
};
"""


class ProgressKeeper(anywidget.AnyWidget):
    """Keeps the tutorial step reached in the browser's ``localStorage``."""

    _esm = _PROGRESS_ESM % {"key": json.dumps(PROGRESS_KEY), "max": MAX_PROGRESS_CHARS}

    def __init__(self) -> None:
        super().__init__()
        self._listeners: list[Callable[[Progress], None]] = []
        self.on_msg(self._received)

    def on_stored(self, callback: Callable[[Progress], None]) -> None:
        """``callback(progress)`` with the progress the browser had, if it is valid."""
        self._listeners.append(callback)

    def keep(self, progress: Progress) -> None:
        """Keep the progress in the browser."""
        self.send({"kind": "keep", "progress": progress.to_data()})

    def forget(self) -> None:
        """Forget the step kept in the browser."""
        self.send({"kind": "forget"})

    def _received(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict) or content.get("kind") != "stored":
            return
        progress = checked_progress(content.get("text"))
        if progress is not None:
            for listener in self._listeners:
                listener(progress)


@dataclass(frozen=True)
class Progress:
    """How far a learner is: the map, the step open, the steps done, and the moves the
    learner made in each step before (as the engine's action data; checked again when
    they are played)."""

    map_id: str
    step: int
    done: tuple[int, ...] = ()
    moves: tuple[tuple[dict[str, Any], ...], ...] = ()

    def to_data(self) -> dict[str, Any]:
        """The progress as plain JSON data for the browser."""
        return {
            "map": self.map_id,
            "step": self.step,
            "done": list(self.done),
            "moves": [list(m) for m in self.moves],
        }


def checked_progress(text: Any) -> Progress | None:
    """The progress a browser sent, or None unless it names a tutorial and one of its
    steps (the page may send anything). Done-marks out of range are dropped; the moves
    are kept as data only when they have the shape of the engine's actions (each is
    checked again when it is played).

    >>> checked_progress('{"map": "usa", "step": 2, "done": [0, 1, 99]}').done
    (0, 1)
    >>> checked_progress('{"map": "../etc", "step": 2}') is None
    True
    """
    if not isinstance(text, str) or len(text) > MAX_PROGRESS_CHARS:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    map_id, step = data.get("map"), data.get("step")
    if not isinstance(map_id, str) or map_id not in tutorial_maps():
        return None
    total = len(tutorial_for(map_id).steps)
    if type(step) is not int or not 0 <= step < total:
        return None
    done_data = data.get("done")
    done = tuple(
        sorted({i for i in done_data if type(i) is int and 0 <= i < total})
        if isinstance(done_data, list)
        else ()
    )
    moves: list[tuple[dict[str, Any], ...]] = []
    moves_data = data.get("moves")
    if isinstance(moves_data, list):
        for part in moves_data[:step]:
            if not isinstance(part, list) or len(part) > MAX_STEP_MOVES:
                break
            if not all(isinstance(m, dict) for m in part):
                break
            moves.append(tuple(part))
    return Progress(map_id, step, done, tuple(moves))


def lesson_html(rules: list[Rule], page_base: str | None = None) -> str:
    """Where the lessons teach ``rules`` in depth: each section in its lesson, once, by
    title, a link where the lesson can open from the app's page (see
    :mod:`ttr_nb.widgets.lesson_links`)."""
    parts = [
        lesson_link(lesson_title(lesson), lesson, page_base, section)
        for lesson, section in dict.fromkeys((r.lesson, r.section) for r in rules)
    ]
    return "In depth: " + "; ".join(parts)


class TutorialPlay:
    """The app's tutorial (``app.tutorial``): start it with :meth:`start`."""

    def __init__(self, app: GameApp) -> None:
        self.app = app
        guard = app.guard
        self.tutorial: Tutorial | None = None
        self.index = 0
        self.opening: Opening | None = None
        self.step_done = False
        self.finished = False  # past the last step: the first real game is offered
        self.done_steps: set[int] = set()
        self.ends: dict[int, Game] = {}  # the game each step ended on (the next carries on)
        self.moves: dict[int, list[dict[str, Any]]] = {}  # the learner's moves, by step
        self.skipped = ""  # what the tutorial played for a skipped step (said next)
        self._claimable_shown: bool | None = None  # the app's setting, put back after
        self._marked: list[widgets.Widget] = []
        self.keeper = ProgressKeeper()
        self.keeper.on_stored(guard(self._resume))

        self.header = widgets.HTML(_dom_classes=["ttr-tutorial-header"])
        self.since = widgets.HTML(_dom_classes=["ttr-tutorial-since-box"])
        self.text = widgets.HTML(_dom_classes=["ttr-tutorial-text"])
        self.feedback = Note("ttr-tutorial-feedback")
        self.lesson = widgets.HTML(_dom_classes=["ttr-tutorial-lesson"])
        self.show_button = button("Show me", "ttr-tutorial-show", "Play the move and explain it")
        self.back_button = button("Back", "ttr-tutorial-back", "The step before")
        self.next_button = button(
            "Skip", "ttr-tutorial-next", "Go on to the next step (Skip plays this step's move)"
        )
        self.leave_button = button("Leave the tutorial", "ttr-tutorial-leave")
        self.first_game_button = button(
            "Play your first game", "ttr-tutorial-first-game", "Against a beginner bot"
        )
        self.first_game_button.style.button_color = "#cfe8cf"
        self.show_button.on_click(guard(lambda _b: self.show_me()))
        self.back_button.on_click(guard(lambda _b: self.back()))
        self.next_button.on_click(guard(lambda _b: self.next()))
        self.leave_button.on_click(guard(lambda _b: self.leave()))
        self.first_game_button.on_click(guard(lambda _b: self.first_game()))
        self.buttons = widgets.HBox(
            [
                self.show_button,
                self.back_button,
                self.next_button,
                self.first_game_button,
                self.leave_button,
            ],
            _dom_classes=["ttr-tutorial-buttons"],
        )
        self.widget = widgets.VBox(
            [
                widgets.HTML(TUTORIAL_CSS),
                self.header,
                self.since,
                self.text,
                self.feedback.widget,
                self.buttons,
                self.lesson,
            ],
            _dom_classes=["ttr-panel", "ttr-tutorial"],
            layout=widgets.Layout(display="none"),
        )

    # ------------------------------------------------------------------ state
    @property
    def active(self) -> bool:
        """Is a tutorial open?"""
        return self.tutorial is not None

    @property
    def step(self) -> Step | None:
        """The step open now, bound to its position (None without a tutorial)."""
        return self.opening.step if self.tutorial and self.opening else None

    # ------------------------------------------------------------------ moving
    def start(self, map_id: str, step: int = 0, progress: Progress | None = None) -> None:
        """Open ``map_id``'s tutorial at ``step`` (0: the first); a ``progress`` kept by the
        browser brings back the steps done and the learner's moves before it.

        Raises
        ------
        ValueError
            For a map without a tutorial (the page may send any name).
        """
        if map_id not in tutorial_maps():
            raise ValueError(f"there is no tutorial for the map {map_id!r}")
        tutorial = tutorial_for(map_id)
        if self.app.tables.active:
            self.app.say("Leave the table first (New game), then open the tutorial.")
            return
        self.app.stop_bots()
        self.app.timeline.stop_replay()
        self.app.prompt.close()
        self.tutorial = tutorial
        self.done_steps = set(progress.done) if progress else set()
        self.ends, self.moves, self.skipped = {}, {}, ""
        if progress is not None:
            self._replay(tutorial, progress)
        self._quiet_board()
        self.go(step)

    def _replay(self, tutorial: Tutorial, progress: Progress) -> None:
        """The learner's moves of the steps before ``progress.step`` made again, step by
        step: each only if it is legal and on the way to its step's goal; a step whose
        moves do not reach its goal is finished by the tutorial's own moves."""
        for index in range(progress.step):
            opening = tutorial.open(index, self.ends)
            game = opening.game
            goal = opening.step.goal
            made: list[dict[str, Any]] = []
            wanted = progress.moves[index] if index < len(progress.moves) else ()
            for data in wanted:
                if goal is None or goal.reached(game):
                    break
                try:
                    action = action_from_dict(data, where="a tutorial move", source="the browser")
                except ValueError:
                    break
                if game.problem(action) is not None or not goal.accepts(game, action):
                    break
                game.apply(action)
                made.append(action_to_dict(action))
            self.ends[index] = tutorial.finish(opening, game)
            self.moves[index] = made

    def go(self, index: int) -> None:
        """Open step ``index``, carried on from the game the learner left at the step it
        follows (or on its new position)."""
        tutorial = self.tutorial
        if tutorial is None:
            return
        self.index = max(0, min(index, len(tutorial.steps) - 1))
        for later in [i for i in self.ends if i >= self.index]:  # to be played again
            del self.ends[later]
            self.moves.pop(later, None)
        self.finished = False
        self.opening = opening = tutorial.open(self.index, self.ends)
        step, game = opening.step, opening.game
        self.step_done = step.goal is None
        if self.step_done:
            self.done_steps.add(self.index)
            self.ends[self.index] = game
        kinds = list(tutorial.seats) + ["beginner"] * game.num_players
        self.app.seat_kinds = kinds[: game.num_players]
        if self.step_done:
            self.feedback.show(step.done_text(game))
        else:
            self.feedback.clear()
        self._keep()
        self.app.board.select(None)
        self.app.open_position(game, f"Tutorial, step {self.index + 1}: {step.title}.")
        self.app.scroller.show(".ttr-tutorial")

    def back(self) -> None:
        """The step before (from the end panel: the last step again)."""
        if self.tutorial is not None:
            self.skipped = ""
            self.go(self.index - 1 if not self.finished else self.index)

    def next(self) -> None:
        """Go on to the next step; a step not done is played by the tutorial first (*Skip*),
        so the game goes on from it. After the last step, the end panel."""
        tutorial, opening = self.tutorial, self.opening
        if tutorial is None or opening is None:
            return
        self.skipped = ""
        if not self.step_done and self.app.game is not None:
            before = len(self.app.game.history)
            end = tutorial.finish(opening, self.app.game)
            self.ends[self.index] = end
            mine = [line for line in end.log[before:] if line]
            if mine:
                self.skipped = (
                    f"Step {self.index + 1} skipped: its move was played for you ("
                    + "; ".join(mine)
                    + ")."
                )
        if self.index + 1 < len(tutorial.steps):
            self.go(self.index + 1)
            return
        self.finished = True
        self.feedback.show(
            f"That was every step ({len(self.done_steps)} of {len(tutorial.steps)} done). "
            "Now play a real game against a beginner bot, with the coach open: short "
            "reminders appear the first time a rule comes up."
        )
        self.app.refresh("The tutorial is finished: play your first game.")

    def leave(self) -> None:
        """Close the tutorial; the first screen (or a new game) takes over."""
        self.stop()
        self.app.start()  # a fresh game waits behind the first screen
        self.app.first_screen.show()

    def stop(self) -> None:
        """Close the tutorial and forget its progress (a new game, a load, a table)."""
        if self.tutorial is None:
            return
        self.tutorial = None
        self.opening = None
        self.finished = False
        self.ends, self.moves = {}, {}
        self.keeper.forget()
        self._unmark()
        self.widget.layout.display = "none"
        if self._claimable_shown is not None:
            self.app.claim.show_claimable.value = self._claimable_shown
            self.app.claim.show_claimable.layout.display = ""
            self._claimable_shown = None

    def first_game(self) -> None:
        """The first real game on the tutorial's map: the learner and a beginner bot."""
        map_id = self.tutorial.map_id if self.tutorial else "usa"
        self.stop()
        start_first_game(self.app, map_id)

    def _resume(self, progress: Progress) -> None:
        """The browser kept a step: open it again (a reload), unless a table took the page."""
        if self.app.tables.active or (
            self.active and self.tutorial is not None and self.tutorial.map_id == progress.map_id
        ):
            return
        self.start(progress.map_id, progress.step, progress)

    def _keep(self) -> None:
        """Keep the progress in the browser (the step, the done-marks, the moves)."""
        if self.tutorial is None:
            return
        moves = tuple(tuple(self.moves.get(i, [])) for i in range(self.index))
        self.keeper.keep(
            Progress(self.tutorial.map_id, self.index, tuple(sorted(self.done_steps)), moves)
        )

    def _quiet_board(self) -> None:
        """During the tutorial the step's marks are the board's only highlight: the app's
        *routes I can claim now* is off (and its box hidden) until the tutorial ends."""
        show = self.app.claim.show_claimable
        if self._claimable_shown is None:
            self._claimable_shown = bool(show.value)
        show.layout.display = "none"
        if show.value:
            show.value = False

    # ------------------------------------------------------------------ refereeing
    def allows(self, action: Any, where: Note | None) -> bool:
        """Judge the learner's move before the app makes it: True lets it through (on the
        way to the step's goal; or illegal, for the app to refuse with its rule, as in a
        game); False when it is legal but does something else, which is then explained."""
        app, step = self.app, self.step
        game = app.game
        if step is None or game is None:
            return False
        problem = game.problem(action)
        if problem is not None:
            self.feedback.show(f"Not allowed: {panels.second_person(problem)}.", bad=True)
            return True  # the app refuses it, with the same rule
        if self.step_done or self.finished or step.goal is None:
            message = "This step is done: press Next step (or Back to try it again)."
            self.feedback.show(message, bad=True)
            app.report(message, where)
            return False
        goal = step.goal
        if not goal.accepts(game, action):
            words = game.describe(action)
            message = (
                f"That move is allowed ({words}), but it is not this step's: {goal.asks}. "
                "It was taken back."
            )
            self.feedback.show(message, bad=True)
            app.report(message, where)
            return False
        after = game.clone()
        after.apply(action)
        self.moves.setdefault(self.index, []).append(action_to_dict(action))
        if goal.reached(after):
            self.step_done = True
            self.done_steps.add(self.index)
            self.ends[self.index] = after
            self.feedback.show(step.done_text(after))
            self._keep()
        else:
            self.feedback.show(goal.then)
        if self.step_done:  # the explanation and Next step, where the learner acted
            app.scroller.show(".ttr-tutorial")
        return True

    def show_me(self) -> None:
        """Play the step's moves (from where the learner is) and explain them."""
        step, game = self.step, self.app.game
        if step is None or game is None or self.finished:
            return
        if step.goal is None or self.step_done:
            self.feedback.show(step.done_text(game))
            self.app.refresh()
            return
        for _ in range(10):  # a step takes a turn: two or three moves at most
            action = step.goal.show_move(self.app.game)
            if action is None or not self.app.act(action):
                break
            if self.step_done:
                break
        if self.step_done:
            self.feedback.show(f"Shown: {step.done_text(self.app.game)}")
            self.app.refresh(with_hint=True)

    # ------------------------------------------------------------------ drawing
    def hint(self) -> str | None:
        """The status line's words while a step is done (else the app's own)."""
        if not self.active:
            return None
        if self.finished:
            return "The tutorial is finished: play your first game, or Leave the tutorial."
        if self.step_done:
            return f"Step {self.index + 1} done: press Next step (or Back)."
        return None

    def render(self, shown: Shown) -> None:
        """Bring the panel up to date and put the marks on the page (the app calls it
        after each change)."""
        self._unmark()
        tutorial, step, opening = self.tutorial, self.step, self.opening
        if tutorial is None or step is None or opening is None:
            self.widget.layout.display = "none"
            self.app.extras.layout.display = ""  # Save and load, back after a tutorial
            return
        self.widget.layout.display = ""
        app = self.app
        for hidden in (app.timeline.widget, app.bot_panel.widget, app.coach.widget, app.extras):
            hidden.layout.display = "none"
        app.coach.review_widget.value = ""  # a review replays from the seed: not this position
        total = len(tutorial.steps)
        bar = "".join(
            f"<span class='{'here' if i == self.index else 'done' if i in self.done_steps else ''}'"
            f" title='step {i + 1}{' (done)' if i in self.done_steps else ''}'></span>"
            for i in range(total)
        )
        title = "Finished" if self.finished else f"Step {self.index + 1} of {total}: {step.title}"
        self.header.value = (
            f"<h3>{html.escape(tutorial.title)} · {html.escape(title)}</h3>"
            f"<div class='ttr-tutorial-progress' role='img' aria-label='{len(self.done_steps)} "
            f"of {total} steps done'>{bar}</div>"
        )
        if self.finished:
            self.text.value = ""
            self.lesson.value = ""
            self.since.value = ""
        else:
            acted = self.step_done and step.goal is not None
            self.since.value = "" if acted else _since_html(opening, self.skipped)
            # Once done, the explanation of the move takes the place of the rule and task
            # (the panel stays short enough to leave the cards in view on a laptop).
            self.text.value = (
                ""
                if self.step_done and step.goal is not None
                else f"<div>{_paragraphs(step.text)}</div>"
                f"<div class='ttr-tutorial-task'><b>Your move:</b> {html.escape(step.task)}</div>"
            )
            self.lesson.value = lesson_html(
                [tutorial.rule(r) for r in step.rules], self.app.links.base
            )
        last = self.index + 1 >= total
        self.show_button.layout.display = "none" if self.finished or step.goal is None else ""
        self.show_button.disabled = self.step_done
        self.back_button.disabled = self.index == 0 and not self.finished
        self.next_button.layout.display = "none" if self.finished else ""
        self.next_button.description = (
            ("Finish" if last else "Next step") if self.step_done else "Skip"
        )
        self.next_button.style.button_color = "#cfe8cf" if self.step_done else None
        self.first_game_button.layout.display = "" if self.finished else "none"
        # Fixed marks say where to act: gone once the step is done. Marks that follow the
        # position (the end screen once the game is over), and a step to read's, stay.
        if (
            shown.view is not None
            and not self.finished
            and (callable(step.marks) or not self.step_done or step.goal is None)
        ):
            self._mark(step.marks_for(shown.view).controls)

    def paint(self, layer: Any, geometry: BoardGeometry, pieces: BoardPieces) -> None:
        """Board layer: the step's routes and places ringed in orange."""
        step, game = self.step, pieces.game
        if step is None or game is None or self.finished:
            return
        marks: Marks = step.marks_for(game)
        batch = route_polygons(geometry, marks.routes, grow=6.0)
        layer.stroke_style = MARK_COLOUR
        if batch is not None:
            points, counts = batch
            layer.line_width = 4
            layer.stroke_polygons(points, points_per_polygon=counts)
        layer.line_width = 3
        for place in marks.places:
            if place in geometry.positions:
                x, y = geometry.positions[place]
                layer.stroke_circle(x, y, 13)

    # ------------------------------------------------------------------ marks
    def _mark(self, names: tuple[str, ...]) -> None:
        for name in names:
            for found in self._controls(name):
                found.add_class(MARK_CLASS)
                self._marked.append(found)

    def _unmark(self) -> None:
        for marked in self._marked:
            marked.remove_class(MARK_CLASS)
        self._marked = []

    def _controls(self, name: str) -> list[widgets.Widget]:
        cards = self.app.cards
        if name.startswith("face-up-"):
            slot = int(name.rsplit("-", 1)[1])
            return [cards.face_up[slot]] if slot < len(cards.face_up) else []
        if name.startswith("deck-"):
            deck = cards.deck_buttons.get(name[len("deck-") :])
            return [deck] if deck is not None else []
        roots = [self.app.play_column, self.app.rules_card.widget]
        return [w for root in roots for w in _walk(root) if name in w._dom_classes]


def _paragraphs(text: str) -> str:
    """A step's text as HTML: escaped, its line breaks kept (a recap's list)."""
    return html.escape(text).replace("\n", "<br>")


def _since_html(opening: Opening, skipped: str) -> str:
    """What happened since the step before, above the step's text: the other seats'
    turns, or the new position the step opens on, said plainly."""
    parts = []
    if skipped:
        parts.append(f"<div>{html.escape(skipped)}</div>")
    if opening.resumed:
        parts.append(f"<div><b>Back to {html.escape(opening.resumed)}.</b></div>")
    if opening.staged:
        parts.append(
            f"<div><b>A new position for this step:</b> {html.escape(opening.staged)}</div>"
        )
    if opening.meanwhile:
        parts.append(f"<div><b>Meanwhile:</b> {html.escape(opening.meanwhile)}</div>")
    if not parts:
        return ""
    cls = "ttr-tutorial-since ttr-tutorial-new" if opening.staged else "ttr-tutorial-since"
    return f"<div class='{cls}'>{''.join(parts)}</div>"


def _walk(root: widgets.Widget) -> list[widgets.Widget]:
    """Every widget inside ``root`` (itself included), depth first."""
    out, stack = [], [root]
    while stack:
        widget = stack.pop()
        out.append(widget)
        stack.extend(reversed(getattr(widget, "children", ()) or ()))
    return out
