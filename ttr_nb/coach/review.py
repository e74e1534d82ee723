"""The end-of-game review: each player's network beside the cheapest one for their
tickets, and, for each ticket they missed, the move that made it impossible.

* **Cheapest network.** With hindsight, the fewest spaces that would have completed
  every ticket the player ended with, on the empty board (a minimum Steiner forest).
* **Blocked tickets.** The game is replayed from its seed; after each claim, every
  player's tickets are checked for a line of routes that player could still use
  (their own, or unclaimed and not closed to them). The first claim after which a
  ticket has none blocked it. Tickets all public at the end, so the review names them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..actions import ClaimRoute, KeepTickets
from ..algorithms import steiner_forest, ticket_completed
from ..game import Game
from .hint import Hint, plural_s
from .lessons import ALGORITHMS
from .plan import TicketNote
from .view import board_of, demand_of, unavailable_to

__all__ = ["Missed", "PlayerReview", "review", "review_hints"]


@dataclass(frozen=True)
class Missed:
    """A ticket a player did not complete: when it became impossible (the move number,
    1-based, or None if it never did), by whose claim of which route, and whether it
    was already impossible when the player kept it."""

    ticket: TicketNote
    move: int | None
    by: int | None
    route: int | None
    kept_at: int | None

    @property
    def impossible_when_kept(self) -> bool:
        """Whether the ticket could no longer be completed when it was kept."""
        return self.move is not None and self.kept_at is not None and self.move <= self.kept_at

    def to_dict(self) -> dict[str, Any]:
        """The missed ticket as plain JSON data."""
        return {
            "ticket": self.ticket.to_dict(),
            "impossible_from_move": self.move,
            "blocked_by_seat": None if self.by is None else self.by + 1,
            "blocking_route": self.route,
            "kept_at_move": self.kept_at,
        }


@dataclass(frozen=True)
class PlayerReview:
    """One player's review (see the module text)."""

    seat: int
    name: str
    built: tuple[int, ...]
    built_spaces: int
    best: tuple[int, ...]
    best_spaces: int
    best_exact: bool
    completed: tuple[TicketNote, ...]
    missed: tuple[Missed, ...]

    def to_dict(self) -> dict[str, Any]:
        """The review as plain JSON data."""
        return {
            "seat": self.seat + 1,
            "player": self.name,
            "built_routes": list(self.built),
            "built_spaces": self.built_spaces,
            "cheapest_routes": list(self.best),
            "cheapest_spaces": self.best_spaces,
            "cheapest_exact": self.best_exact,
            "completed": [t.to_dict() for t in self.completed],
            "missed": [m.to_dict() for m in self.missed],
        }

    def lines(self, game: Game) -> list[str]:
        """The review in sentences: the network built against the cheapest one, then the tickets
        missed."""
        how = "" if self.best_exact else " (approximate)"
        n = len(self.completed) + len(self.missed)
        out = [
            f"{self.name}: built {self.built_spaces} space{plural_s(self.built_spaces)} "
            f"({len(self.built)} route{plural_s(len(self.built))}), "
            f"completing {len(self.completed)} of {n} ticket{plural_s(n)}; the "
            f"cheapest network completing {'it' if n == 1 else f'all {n}'} needed "
            f"{self.best_spaces} space{plural_s(self.best_spaces)}{how}."
        ]
        for m in self.missed:
            if m.move is None:
                out.append(f"  {self.name} missed {m.ticket.name}: it stayed possible to the end.")
                continue
            who = game.names[m.by] if m.by is not None else "someone"
            route = game.map.route_label(game.map.route_by_id[m.route]) if m.route else ""
            when = " — already impossible when it was kept" if m.impossible_when_kept else ""
            out.append(
                f"  {self.name} missed {m.ticket.name}: impossible from move {m.move}, when "
                f"{who} claimed {route}{when}."
            )
        return out


def review(game: Game) -> tuple[PlayerReview, ...]:
    """The review of every player of a game (meant for a finished game; during play it
    reviews the position so far, which reveals every player's tickets).

    Examples
    --------
    >>> from ttr_nb import new_game
    >>> from ttr_nb.bots import GreedyBot, play_out
    >>> game = play_out(new_game("usa", 2, seed=4), [GreedyBot(1), GreedyBot(2)])
    >>> rows = review(game)
    >>> all(r.best_spaces <= r.built_spaces or r.missed for r in rows)
    True
    """
    game_map = game.map
    blocked = _blocked(game)
    out = []
    for seat, player in enumerate(game.state.players):
        tickets = list(player.tickets)
        best = steiner_forest(
            board_of(game_map),
            [demand_of(game_map, t) for t in tickets],
            dead_ends=game_map.dead_ends,
        )
        done = dict(game.ticket_status(seat))
        missed = []
        for t in tickets:
            if not done[t]:
                move, by, route, kept = blocked.get((seat, t), (None, None, None, None))
                missed.append(Missed(TicketNote.of(game_map, t), move, by, route, kept))
        out.append(
            PlayerReview(
                seat,
                player.name,
                tuple(player.routes),
                sum(game_map.route_by_id[r].length for r in player.routes),
                best.route_ids,
                best.spaces,
                best.exact,
                tuple(TicketNote.of(game_map, t) for t in tickets if done[t]),
                tuple(missed),
            )
        )
    return tuple(out)


def _blocked(game: Game) -> dict[tuple[int, int], tuple[int, int | None, int | None, int | None]]:
    """(seat, ticket) -> (move it became impossible, whose claim, which route, the move
    the seat kept it), for the tickets each seat ends with."""
    game_map = game.map
    final = {seat: set(p.tickets) for seat, p in enumerate(game.state.players)}
    kept_at: dict[tuple[int, int], int] = {}
    out: dict[tuple[int, int], tuple[int, int | None, int | None, int | None]] = {}
    replay = Game(game.map, game.names, game.seed)
    for number, move in enumerate(game.history, start=1):
        replay.apply(move.action)
        if isinstance(move.action, KeepTickets):
            for t in move.action.tickets:
                kept_at[(move.player, t)] = number
        if not isinstance(move.action, ClaimRoute):
            continue
        for seat, tickets in final.items():
            if seat == move.player:
                continue  # one's own claim never closes one's own way
            closed = unavailable_to(replay, seat)
            usable = [r.ends for r in game_map.routes if r.id not in closed]
            for t in tickets:
                if (seat, t) in out:
                    continue
                cities = game_map.ticket_by_id[t].cities
                if not all(
                    ticket_completed(
                        usable,
                        game_map.targets(a),
                        game_map.targets(b),
                        dead_ends=game_map.dead_ends,
                    )
                    for a, b in zip(cities, cities[1:], strict=False)
                ):
                    out[(seat, t)] = (number, move.player, move.action.route, None)
    return {key: (*value[:3], kept_at.get(key)) for key, value in out.items()}


def review_hints(game: Game) -> list[Hint]:
    """The review as hints: per player the built and the cheapest network (the cheapest
    drawn), then the tickets that were blocked, and by whose claims."""
    rows = review(game)
    out = []
    for row in rows:
        algorithm = ALGORITHMS["steiner-exact" if row.best_exact else "steiner-greedy"]
        lines = tuple(row.lines(game)[:1])
        out.append(Hint("review", f"Review: {row.name}", lines, algorithm, row.best, row.to_dict()))
    lost = [line for row in rows for line in row.lines(game)[1:]]
    if lost:
        out.append(
            Hint(
                "blocked",
                "Tickets missed",
                tuple(line.strip() for line in lost),
                ALGORITHMS["connectivity"],
            )
        )
    return out
