"""The app's timeline and saves: showing an earlier move, playing on from it (the later
moves set aside, undoable), the save text, loading a save, and the offer to resume the game
kept in the browser.

:class:`TimelineAndSaves` is part of :class:`~ttr_nb.widgets.app.GameApp`; it uses the
app's game, position, panels and :meth:`~ttr_nb.widgets.app.GameApp.refresh`.
"""

from __future__ import annotations

import logging

from ..errors import SaveFormatError
from ..game import Game, Move
from .controls import count

log = logging.getLogger(__name__)


class TimelineAndSaves:
    """Stepping through the timeline and saving it (a mixin of
    :class:`~ttr_nb.widgets.app.GameApp`)."""

    game: Game | None
    position: int
    dropped_moves: list[Move]

    # ============================================================ the timeline
    def go_to(self, position: int, keep_replaying: bool = False) -> None:
        """Show the game after ``position`` moves (0 = the deal); nothing is dropped."""
        if self.game is None:
            return
        self.stop_bots()
        if not keep_replaying:
            self.timeline.stop_replay()
        self.position = max(0, min(position, len(self.game.history)))
        self.board.select(None)
        total = len(self.game.history)
        self.refresh(
            f"Showing move {self.position} of {total}."
            if self.position < total
            else "Showing the latest move."
        )
        self.schedule_bots()

    def continue_from_here(self) -> None:
        """Play on from the shown move: the later moves are set aside (undoable)."""
        if self.game is None or self.position >= len(self.game.history):
            return
        if self.tables.active:
            self._set_status(
                "A shared table's moves cannot be taken back: press Latest to play on.", bad=True
            )
            return
        self.timeline.stop_replay()
        self.dropped_moves = self.game.history[self.position :]
        kept = self.game.replay(self.position)
        self.game = kept
        self._view_cache = None
        self.store.start(kept)
        self.refresh(
            f"Continuing from move {self.position}: {count(len(self.dropped_moves), 'later move')} "
            "set aside (Undo brings them back until the next move)."
        )
        self.schedule_bots()

    def undo_branch(self) -> None:
        """Bring back the moves set aside by *Continue from here*."""
        if self.game is None or not self.dropped_moves:
            return
        game = self.game
        restored = len(self.dropped_moves)
        for move in self.dropped_moves:
            game.apply(move.action)
        self.dropped_moves = []
        self.position = len(game.history)
        self._view_cache = None
        self.store.start(game)
        self.refresh(f"Restored {count(restored, 'move')}: back at move {self.position}.")
        self.schedule_bots()

    # ================================================================ saves
    def save_json(self) -> str:
        """The shown game as save-file text (moves after the shown one are left out)."""
        view = self.view
        if view is None:
            raise ValueError("nothing to save in explore mode")
        why = self.tables.save_note()
        if why is not None:  # a running table's save would show every hand
            raise ValueError(why)
        return view.to_json(indent=1)

    def load_text(self, text: str, source: str = "the text box") -> bool:
        """Load a saved game at once (no question asked); a bad save is refused with its reason."""
        game = self._parse_save(text, source)
        if game is None:
            return False
        self.load_game(game, source)
        return True

    def _parse_save(self, text: str, source: str) -> Game | None:
        try:
            return Game.from_json(text, source=source)
        except SaveFormatError as exc:
            message = f"Could not load {exc.file}: field {exc.field}: {exc.reason}"
        except ValueError as exc:  # e.g. a map whose rules are not implemented
            message = f"Could not load {source}: {exc}"
        self.files.note.show(message, bad=True)
        self._set_status(message, bad=True)
        return None

    def _offer_resume(self, text: str | None) -> None:
        """The browser had a game stored: offer to resume it (never without asking)."""
        if not text or self.tables.active or self.tutorial.active:
            return
        try:
            game = Game.from_json(text, source="your browser's copy")
        except ValueError as exc:
            log.info("stored game not offered: %s", exc)
            self.store.forget()
            return
        if self.game is not None and game == self.game:
            return
        state = "game over" if game.is_over else f"move {len(game.history)}"
        self.first_screen.close()  # a visitor with a game in progress goes back to it
        self.prompt.ask(
            f"Resume your last game? ({game.map.name}, {', '.join(game.names)}; {state}) "
            "It was kept in this browser.",
            [("Resume it", True)],
            lambda _yes: self.load_game(game, "your browser's copy"),
            ok_label="Resume it",
            cancel_label="No, start fresh",
        )
