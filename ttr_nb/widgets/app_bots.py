"""The app's bot turns: a bot's move on demand or on a timer, bots until a human is to
move, and *Play to the end* (which asks first when a human seat would be played).

:class:`BotTurns` is part of :class:`~ttr_nb.widgets.app.GameApp`; it uses the app's
game, position, panels and :meth:`~ttr_nb.widgets.app.GameApp.refresh`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import bots as bot_kinds
from ..game import Game
from .controls import count

MAX_BOT_ACTIONS = 20_000  # a game never needs this many; guards against a stuck loop


class BotTurns:
    """The bots' side of the app (a mixin of :class:`~ttr_nb.widgets.app.GameApp`)."""

    game: Game | None
    bots: dict[int, Any]

    def _make_bots(self) -> None:
        seed = self.game.seed if self.game else 0
        self.bots = {
            seat: bot_kinds.make_bot(kind, seed * 10 + seat)
            for seat, kind in enumerate(self.seat_kinds)
            if kind != "human"
        }

    def bot_step(self) -> bool:
        """One bot move, if a bot is to move at the latest position."""
        view = self.view
        if view is None:
            self._report(
                "Explore mode: there are no bots on this board.", self.bot_panel.note, True
            )
            return False
        if self.position < self.total_moves:
            self._report("You are looking at an earlier move.", self.bot_panel.note, True)
            return False
        if view.is_over or self.is_human(view.current_player):
            text = "The game is over." if view.is_over else "No bot is to move now."
            self._report(text, self.bot_panel.note, True)
            return False
        bot = self.bots.get(view.current_player)
        if bot is None:  # a tutorial step: the other seats wait
            self._report("No bot moves here.", self.bot_panel.note, True)
            return False
        return self._apply(self._bot_move(bot, view), by_bot=True)

    def _bot_move(self, bot: Any, game: Game) -> Any:
        """``bot``'s move in ``game``. A bot that thinks for a while (the search bot, with
        its ``budget`` of seconds) is announced first: the status line is sent to the page
        at once, so it reads "thinking…" while the kernel searches."""
        budget = getattr(bot, "budget", None)
        if isinstance(budget, (int, float)) and budget > 0:
            name = game.state.players[game.current_player].name
            self._set_status(f"{name} is thinking… (up to {budget:g} s)")
        action = bot.choose(game)
        self.coach.bot_moved(bot, game, action)  # for the coach's "Why that move"
        return action

    def bots_until_human(self) -> int:
        """Let the bots play until a human is to move (or the game ends)."""
        return self._run_bots(lambda game: not self.is_human(game.current_player), "my turn")

    def request_play_to_end(self) -> None:
        """*Play to the end*: with a human seat still to play, ask first (beside the button),
        saying that the greedy bot would play it (every choice of it) or that only the bots
        can move."""
        game = self.game
        humans = [
            name for seat, name in enumerate(game.names if game else []) if self.is_human(seat)
        ]
        if game is None or game.is_over or self.position < self.total_moves or not humans:
            self.play_to_end()
            return
        self.bot_panel.ask_to_end(humans)
        self._set_status("Play to the end? Answer under the bots' buttons.")

    def play_to_end(self) -> int:
        """Bots play every seat, the humans' too (the greedy bot plays those), until the
        game is over."""
        autopilot = bot_kinds.make_bot("greedy", 12345)
        return self._run_bots(lambda _game: True, "the end", autopilot)

    def _run_bots(
        self, keep_going: Callable[[Game], bool], goal: str, autopilot: Any = None
    ) -> int:
        if self.game is None or self.position < self.total_moves:
            self._report("Go to the latest move first.", self.bot_panel.note, True)
            return 0
        self.stop_bots()
        game = self.game
        moves = 0
        for_humans = [0] * len(game.names)  # moves the autopilot made for each human
        while not game.is_over and keep_going(game) and moves < MAX_BOT_ACTIONS:
            seat = game.current_player
            bot = self.bots.get(seat) or autopilot
            if bot is None:
                break
            game.apply(self._bot_move(bot, game))
            moves += 1
            if seat not in self.bots:
                for_humans[seat] += 1
        if moves:
            self.dropped_moves = []
        self.position = len(game.history)
        self._view_cache = None
        self.store.follow(game)
        played = [f"{n} for {name}" for n, name in zip(for_humans, game.names, strict=True) if n]
        by_greedy = f" ({', '.join(played)}, played by the greedy bot)" if played else ""
        self.refresh(
            f"Bots made {count(moves, 'move')}{by_greedy} to reach {goal}.", with_hint=True
        )
        return moves

    def stop_bots(self) -> None:
        """Stop the bots moving on their own."""
        if self.bot_panel.timer.playing:
            self.bot_panel.timer.playing = False

    def schedule_bots(self) -> None:
        """Start or stop the browser timer that drives automatic bot moves."""
        view = self.view
        wanted = bool(
            not self.tables.active  # a table moves its own bots
            and not self.tutorial.active  # nobody else moves in a tutorial step
            and self.bot_panel.auto.value
            and view is not None
            and not view.is_over
            and not self.is_human(view.current_player)
            and self.position == self.total_moves
            and not self.timeline.replay_timer.playing
        )
        if self.bot_panel.timer.playing != wanted:
            self.bot_panel.timer.playing = wanted

    def on_bot_timer(self) -> None:
        """The bots' timer ticked: a bot to move moves once, if bots move on their own."""
        view = self.view
        if (
            not self.bot_panel.auto.value
            or view is None
            or view.is_over
            or self.is_human(view.current_player)
            or self.position != self.total_moves
        ):
            self.stop_bots()
            return
        self.bot_step()
