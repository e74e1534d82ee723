"""Stepping through the game, watching it replay, and the bots' controls.

Looking at an earlier move never changes the game: acting from there is an
explicit choice (*Continue from here*, which says how many later moves it drops)
and can be undone until the next move is made.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from .controls import Note, browser_timer, button, count
from .variants import Shown

if TYPE_CHECKING:
    from .app import GameApp

BOT_DELAY_MS = 700
REPLAY_SPEEDS = [("slow (2 s a move)", 2000), ("normal (1 s)", 1000), ("fast (0.3 s)", 300)]


class TimelinePanel:
    """Back, forward, a move slider, *Replay*, and branching from an earlier move."""

    def __init__(self, app: GameApp) -> None:
        self.app = app
        guard = app.guard
        self.first_button = button("To the deal", "ttr-first")
        self.back_button = button("◀ Back", "ttr-back")
        self.forward_button = button("Forward ▶", "ttr-forward")
        self.last_button = button("Latest", "ttr-last")
        self.first_button.on_click(guard(lambda _b: app.go_to(0)))
        self.back_button.on_click(guard(lambda _b: app.go_to(app.position - 1)))
        self.forward_button.on_click(guard(lambda _b: app.go_to(app.position + 1)))
        self.last_button.on_click(guard(lambda _b: app.go_to(app.total_moves)))
        self.slider = widgets.IntSlider(
            description="Move:",
            min=0,
            max=0,
            value=0,
            continuous_update=True,  # a click on the track sends its value at once
            layout=widgets.Layout(width="auto", min_width="220px", flex="1 1 260px"),
            _dom_classes=["ttr-history"],
        )
        self.slider.observe(guard(self._on_slider), names="value")
        self.replay_button = button("▶ Replay", "ttr-replay", "Watch the game play back")
        self.replay_button.on_click(guard(lambda _b: self.toggle_replay()))
        self.speed = widgets.Dropdown(
            options=REPLAY_SPEEDS,
            value=1000,
            tooltip="Replay speed",  # its name for a screen reader (no label)
            layout=widgets.Layout(width="150px"),
            _dom_classes=["ttr-replay-speed"],
        )
        self.speed.observe(guard(self._on_speed), names="value")
        self.replay_timer = browser_timer(1000, "ttr-replay-timer", guard(self._on_replay_tick))
        self.note = widgets.HTML(_dom_classes=["ttr-history-note"])
        self.continue_button = button("Continue from here", "ttr-continue")
        self.continue_button.on_click(guard(lambda _b: app.continue_from_here()))
        self.undo_button = button("Undo: restore the dropped moves", "ttr-undo-branch")
        self.undo_button.on_click(guard(lambda _b: app.undo_branch()))
        self.branch_row = widgets.HBox(
            [self.continue_button, self.undo_button], layout=widgets.Layout(flex_flow="row wrap")
        )
        self.widget = widgets.VBox(
            [
                widgets.HBox(
                    [
                        self.first_button,
                        self.back_button,
                        self.slider,
                        self.forward_button,
                        self.last_button,
                    ],
                    layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
                ),
                widgets.HBox(
                    [self.replay_button, self.speed, self.replay_timer],
                    layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
                ),
                self.note,
                self.branch_row,
            ],
            _dom_classes=["ttr-panel", "ttr-stepping"],
        )

    def render(self, shown: Shown) -> None:
        """Show the move slider and the stepping buttons for ``shown``."""
        app = self.app
        total, position = app.total_moves, app.position
        with self.slider.hold_trait_notifications():
            self.slider.max = total
            self.slider.value = position
        at_start, at_end = position == 0, position >= total
        self.first_button.disabled = self.back_button.disabled = at_start
        self.forward_button.disabled = self.last_button.disabled = at_end
        self.replay_button.description = "■ Stop" if self.replay_timer.playing else "▶ Replay"
        self.replay_button.disabled = total == 0
        dropped = total - position
        if not at_end:
            self.note.value = (
                f"<div class='ttr-past'>You are looking at move {position} of {total}. "
                "Nothing changes while you look; to play from here, press Continue (it drops "
                f"the {count(dropped, 'later move')}).</div>"
            )
            self.continue_button.description = (
                f"Continue from here: drop {count(dropped, 'later move')}"
            )
        elif app.dropped_moves:
            self.note.value = (
                f"<div class='ttr-note'>Continued from move {position}; "
                f"{count(len(app.dropped_moves), 'later move')} were set aside. Undo brings "
                "them back until the next move is made.</div>"
            )
        else:
            self.note.value = (
                f"<div class='ttr-note'>{count(total, 'move')} so far. Step back, or Replay, "
                "to watch the game again.</div>"
            )
        self.continue_button.layout.display = (
            "" if not at_end and shown.view is not None else "none"
        )
        self.undo_button.layout.display = "" if at_end and app.dropped_moves else "none"

    # ----------------------------------------------------------------- replay
    def toggle_replay(self) -> None:
        """Start the replay from the move shown, or stop it."""
        if self.replay_timer.playing:
            self.stop_replay()
            self.app.refresh("Replay stopped.")
            return
        self.app.stop_bots()
        if self.app.position >= self.app.total_moves:
            self.app.go_to(0)
        self.replay_timer.interval = self.speed.value
        self.replay_timer.playing = True
        self.app.refresh(f"Replaying from move {self.app.position}.")

    def stop_replay(self) -> None:
        """Stop the replay."""
        if self.replay_timer.playing:
            self.replay_timer.playing = False

    def _on_replay_tick(self) -> None:
        if not self.replay_timer.playing:
            return
        if self.app.position >= self.app.total_moves:
            self.stop_replay()
            self.app.refresh("Replay finished: this is the latest move.")
            return
        self.app.go_to(self.app.position + 1, keep_replaying=True)

    def _on_speed(self, change: dict[str, Any]) -> None:
        self.replay_timer.interval = change["new"]

    def _on_slider(self, change: dict[str, Any]) -> None:
        if not self.app.rendering and change["new"] != self.app.position:
            self.app.go_to(change["new"])


class BotPanel:
    """Make the bots move: one move, until a human is to move, to the end, or on their own."""

    def __init__(self, app: GameApp, auto_bots: bool) -> None:
        self.app = app
        guard = app.guard
        self.step_button = button("Next bot move", "ttr-bot-step")
        self.step_button.on_click(guard(lambda _b: app.bot_step()))
        self.until_me_button = button("Bots play until my turn", "ttr-bots-until-me")
        self.until_me_button.on_click(guard(lambda _b: app.bots_until_human()))
        self.to_end_button = button(
            "Play to the end",
            "ttr-play-to-end",
            tooltip="Bots play until the game ends (it asks first whether yours is played too)",
        )
        self.to_end_button.on_click(guard(lambda _b: app.request_play_to_end()))
        self._tips = {
            b.description: b.tooltip
            for b in (self.step_button, self.until_me_button, self.to_end_button)
        }
        self.auto = widgets.Checkbox(
            value=auto_bots,
            description=f"Bots move on their own ({BOT_DELAY_MS / 1000:.1f} s per move)",
            indent=False,
            _dom_classes=["ttr-auto"],
        )
        self.auto.observe(guard(lambda _c: app.schedule_bots()), names="value")
        # A browser-side timer: each tick asks the kernel for one bot move, so the
        # learner sees the bots' moves one at a time.
        self.timer = browser_timer(BOT_DELAY_MS, "ttr-timer", guard(app.on_bot_timer))
        self.note = Note("ttr-bots-note")
        # Play to the end asks here, beside the button, while a human seat is to play.
        self.end_question = widgets.HTML(_dom_classes=["ttr-end-question"])
        self.end_all_button = button("", "ttr-end-all")
        self.end_all_button.style.button_color = "#cfe8cf"
        self.end_all_button.on_click(guard(lambda _b: self._answer(app.play_to_end)))
        self.end_bots_button = button("", "ttr-end-bots")
        self.end_bots_button.on_click(guard(lambda _b: self._answer(app.bots_until_human)))
        self.end_cancel_button = button("Cancel", "ttr-end-cancel")
        self.end_cancel_button.on_click(
            guard(lambda _b: self._answer(lambda: app.refresh("Nothing was played.")))
        )
        self.end_box = widgets.VBox(
            [
                self.end_question,
                widgets.HBox(
                    [self.end_all_button, self.end_bots_button, self.end_cancel_button],
                    layout=widgets.Layout(flex_flow="row wrap"),
                ),
            ],
            layout=widgets.Layout(display="none"),
            _dom_classes=["ttr-end-confirm"],
        )
        self.widget = widgets.VBox(
            [
                widgets.HBox(
                    [self.step_button, self.until_me_button, self.to_end_button],
                    layout=widgets.Layout(flex_flow="row wrap"),
                ),
                self.end_box,
                self.auto,
                self.timer,
                self.note.widget,
            ],
            _dom_classes=["ttr-panel", "ttr-bots"],
        )

    @property
    def asking_to_end(self) -> bool:
        """Whether *Play to the end* is asking how to play the human seats."""
        return self.end_box.layout.display != "none"

    def ask_to_end(self, humans: list[str]) -> None:
        """Ask, under the buttons, whether the greedy bot may play the human seats too."""
        who = " and ".join(humans)
        self.end_question.value = (
            f"<div class='ttr-end-ask'><b>Play to the end? The bots play their seats "
            f"and the greedy bot plays {html.escape(who)}'s too: every move still to come, "
            "tickets kept and other choices included. Or let only the bots move, up to "
            f"{html.escape(who)}'s next turn.</b></div>"
        )
        self.end_all_button.description = f"Play every seat to the end, {who}'s too"
        self.end_bots_button.description = f"Only the bots, up to {who}'s turn"
        self.end_box.layout.display = ""

    def _answer(self, then: Any) -> None:
        self.end_box.layout.display = "none"
        then()

    def render(self, shown: Shown) -> None:
        """Show the bot buttons for ``shown``, each enabled when a bot can move."""
        app = self.app
        view = shown.view
        live = view is not None and not view.is_over and not shown.in_past
        bot_turn = bool(live and view is not None and not app.is_human(view.current_player))
        self.step_button.disabled = not bot_turn
        self.until_me_button.disabled = not bot_turn or not any(
            app.is_human(i) for i in range(len(app.seat_kinds))
        )
        self.to_end_button.disabled = not live
        if not live:
            self.end_box.layout.display = "none"
        reason = "You are looking at an earlier move" if shown.in_past else ""
        for control in (self.step_button, self.until_me_button, self.to_end_button):
            control.tooltip = reason or self._tips[control.description]
