"""Reminders in a learner's first real game: a short note the first time a rule applies.

After the tutorial, the first game is against a beginner bot with the coach open. Four
rules that a first game meets by surprise get a reminder the first time they apply: a
face-up locomotive (a whole draw), a double route closed by the number of players, the last
round starting, and a ticket that can no longer be completed (its routes taken, or more
spaces to claim than trains left). Each is said once per game,
and stays in view for about a round.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import TYPE_CHECKING

import ipywidgets as widgets

from ...algorithms import TicketUnreachableError, plan_ticket
from ...game import Game
from .. import panels
from ..controls import count

if TYPE_CHECKING:
    from ..app import GameApp
    from ..variants import Shown


@dataclass
class Reminder:
    """A reminder said at move ``at`` of the game."""

    key: str
    text: str
    at: int


class FirstGameReminders:
    """The reminders of the first game (``app.reminders``); :meth:`begin` arms them."""

    def __init__(self, app: GameApp) -> None:
        self.app = app
        self.game: Game | None = None  # the first game (reminders follow it only)
        self.said: list[Reminder] = []
        self.widget = widgets.HTML(_dom_classes=["ttr-reminders"])

    @property
    def active(self) -> bool:
        """Is the game shown the first game the reminders follow?"""
        return self.game is not None and self.app.game is self.game

    def begin(self) -> None:
        """Remind the learner in the game the app has just started."""
        self.game = self.app.game
        self.said = []

    def render(self, shown: Shown) -> None:
        """Say the reminders due in the position shown (the app calls it after each change)."""
        view = shown.view
        if not self.active or view is None or shown.in_past:
            self.widget.value = ""
            return
        moves = len(view.history)
        seat = shown.viewer if shown.viewer is not None else 0
        said = {r.key for r in self.said}
        for key, text in self._due(view, seat):
            if key not in said:
                self.said.append(Reminder(key, text, moves))
        fresh = [r for r in self.said if moves - r.at <= 2 * view.num_players]
        self.widget.value = "".join(
            f"<div class='ttr-panel ttr-reminder' data-key='{r.key}'><b>First time:</b> "
            f"{html.escape(r.text)}</div>"
            for r in fresh[-2:]
        )

    # ------------------------------------------------------------------ the rules
    def _due(self, view: Game, seat: int) -> list[tuple[str, str]]:
        due = []
        state, rules, game_map = view.state, view.rules, view.map
        if not view.is_over and state.current == seat and state.pending is None:
            wilds = [
                c
                for c in state.face_up
                if c is not None and game_map.card_by_id[c].wild and rules.ends_draw(c)
            ]
            if wilds:
                name = self.app.ui.card_name(game_map.card_by_id[wilds[0]])
                due.append(
                    (
                        "face-up-wild",
                        f"a {name} lies face up. Taking it is your whole draw (one card "
                        "instead of two), and it can never be your second card.",
                    )
                )
        if len(state.players) <= rules.closed_parallel_max_players:
            for rid, holder in state.owner.items():
                closed = [t for t in rules.parallel[rid] if t not in state.owner]
                if closed:
                    route = game_map.route_by_id[closed[0]]
                    due.append(
                        (
                            "double-closed",
                            f"{game_map.route_label(route)} is closed now: with "
                            f"{len(state.players)} players only one track of a double route "
                            f"is used, and {state.players[holder].name} took the other.",
                        )
                    )
                    break
        if state.final_turns_left is not None and not view.is_over:
            who = state.players[state.last_round_by or 0]
            turns = count(rules.final_turns_each, "more turn")
            due.append(
                (
                    "last-round",
                    f"the last round has started: {who.name} is down to "
                    f"{panels.pieces_text(who.pieces)}. Everyone, {who.name} too, plays "
                    f"{turns}, then the game ends.",
                )
            )
        lost = self._impossible_ticket(view, seat)
        if lost is not None:
            due.append(("ticket-lost", lost))
        return due

    def _impossible_ticket(self, view: Game, seat: int) -> str | None:
        """A ticket of ``seat`` that can no longer be completed, in words: no open route
        can join its cities any more, or joining them needs more pieces than the seat has
        left (the cheapest way, its own routes free: Dijkstra's algorithm)."""
        state, rules, game_map = view.state, view.rules, view.map
        player = state.players[seat]
        owned = set(player.routes)
        board = [(r.id, r.a, r.b, r.length) for r in game_map.routes]
        closed = {
            r.id
            for r in game_map.routes
            if r.id not in owned and rules.route_problem(state, seat, r) is not None
        }
        left = sum(player.pieces.values())
        for ticket_id, done in view.ticket_status(seat):
            ticket = game_map.ticket_by_id[ticket_id]
            if done or len(ticket.cities) != 2:
                continue
            a, b = (game_map.targets(c) for c in ticket.cities)
            names = " → ".join(game_map.place_name(c) for c in ticket.cities)
            cost = f"At the end it costs you {ticket.points} points"
            try:
                plan = plan_ticket(
                    board, a, b, owned=owned, unavailable=closed, dead_ends=game_map.dead_ends
                )
            except TicketUnreachableError:
                return (
                    f"your ticket {names} cannot be completed any more: the routes that "
                    f"could join them are taken. {cost}; put your trains into your other "
                    "tickets."
                )
            if plan.spaces > left:
                return (
                    f"your ticket {names} cannot be completed any more: joining it needs "
                    f"{plan.spaces} more spaces and you have {panels.pieces_text(player.pieces)} "
                    f"left. {cost}; spend what you have on routes that score."
                )
        return None


def start_first_game(app: GameApp, map_id: str) -> None:
    """Start the learner's first real game on ``map_id``: the learner and a beginner bot,
    the coach open, and reminders the first time a rule applies."""
    setup = app.setup
    setup.map_picker.value = map_id
    setup.player_count.value = 2
    setup.kinds[0].value = "human"
    setup.kinds[1].value = "beginner"
    setup.coach_box.value = True
    app.start()
    app.coach.toggle.value = True
    app.reminders.begin()
    app.refresh(
        f"Your first game on the {app.map.name} map, against a beginner bot. The coach is "
        "open; reminders appear the first time a rule comes up.",
        with_hint=True,
    )
