"""Scoring of the shared rules: tickets, longest path, bonuses and tie-breakers.

A mixin of :class:`~ttr_nb.rules.base.Rules`; variants override these hooks
(``score_components``, ``tiebreaks``, ...) to add their own score rows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..algorithms import longest_trail_length, ticket_completed
from ..state import GameState, PlayerState

if TYPE_CHECKING:
    from ..maps import Map


class ScoringRules:
    """How a position is scored (needs ``self.map`` and ``self.bonus_points``)."""

    map: Map
    bonus_points: dict[str, int]

    def ticket_done(self, state: GameState, player: PlayerState, ticket_id: int) -> bool:
        """Whether the player's routes join the ticket's places."""
        ticket = self.map.ticket_by_id[ticket_id]
        routes = [self.map.route_by_id[r].ends for r in player.routes]
        places = ticket.cities
        return all(
            ticket_completed(
                routes, self.map.targets(a), self.map.targets(b), dead_ends=self.map.dead_ends
            )
            for a, b in zip(places, places[1:], strict=False)
        )

    def ticket_points(self, state: GameState, player: PlayerState, ticket_id: int) -> int:
        """The ticket's points for the player: its value if completed, minus it if not."""
        points = self.map.ticket_by_id[ticket_id].points
        return points if self.ticket_done(state, player, ticket_id) else -points

    def longest_paths(self, state: GameState) -> list[int]:
        """Per player, the length of their longest continuous trail (in spaces)."""
        out = []
        for player in state.players:
            routes = [self.map.route_by_id[r] for r in player.routes]
            out.append(longest_trail_length([(r.a, r.b, r.length) for r in routes]))
        return out

    def recomputed_route_score(self, state: GameState, player: PlayerState) -> int:
        """Route points recounted from the board (the in-play score should equal it)."""
        return sum(self.map.route_points(self.map.route_by_id[r].length) for r in player.routes)

    def score_components(self, state: GameState, final: bool) -> list[dict[str, int]]:
        """Per player: points by component (without the total)."""
        rows = [{"routes": p.route_score} for p in state.players]
        if not final:
            return rows
        for row, player in zip(rows, state.players, strict=True):
            row["tickets"] = sum(self.ticket_points(state, player, t) for t in player.tickets)
        if "longest_path" in self.bonus_points:
            lengths = self.longest_paths(state)
            best = max(lengths)
            for row, length in zip(rows, lengths, strict=True):
                row["longest_path"] = (
                    self.bonus_points["longest_path"] if best and length == best else 0
                )
        return rows

    def completed_counts(self, state: GameState) -> list[int]:
        """Per player, the number of tickets completed."""
        return [sum(self.ticket_done(state, p, t) for t in p.tickets) for p in state.players]

    def most_completed_bonus(self, state: GameState, points: int) -> list[int]:
        """``points`` to every player tied for the most completed tickets, 0 to the others.

        Germany's Globetrotter and Märklin's Most Completed Tickets bonus. House rule
        (both rulebooks are silent): it needs at least one completed ticket, so if
        nobody completed any, nobody gets it.
        """
        completed = self.completed_counts(state)
        best = max(completed)
        return [points if best and n == best else 0 for n in completed]

    def tiebreaks(
        self, state: GameState, rows: list[dict[str, int]]
    ) -> list[tuple[str, list[int]]]:
        """Ordered tie-breakers: (what is compared, value per player; higher wins)."""
        return [
            ("most completed tickets", self.completed_counts(state)),
            ("longest continuous path bonus", [r.get("longest_path", 0) for r in rows]),
        ]
