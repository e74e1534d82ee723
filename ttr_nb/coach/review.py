"""The end-of-game review: each player's network beside the cheapest one for their
tickets, and, for each ticket they missed, the move that made it impossible.

* **Cheapest network.** With hindsight, the fewest spaces that would have completed
  every ticket the player ended with, on the empty board (a minimum Steiner forest).
* **Blocked tickets.** After each claim, every player's tickets are checked for a
  line of routes that player could still use (their own, or unclaimed and not closed
  to them). The first claim after which a ticket has none blocked it. Tickets are
  all public at the end, so the review names them. (It is computed backwards, from
  the board at the end: see :func:`_blocked`.)
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from ..actions import ClaimRoute, KeepTickets
from ..algorithms import UnionFind, steiner_forest
from ..game import Game
from ..maps import Map
from .hint import Hint, plural_s
from .lessons import ALGORITHMS
from .plan import TicketNote
from .view import board_of, closed_to, demand_of

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
            f"cheapest network completing {_all(n)} needed "
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


def _all(n: int) -> str:
    """How the review names every one of ``n`` tickets: it, both, all 3."""
    return "it" if n == 1 else "both" if n == 2 else f"all {n}"


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
    the seat kept it), for the tickets each seat ends with.

    No replay: routes change hands only by claims, so the moves list when each route
    closed to each seat (:func:`~ttr_nb.coach.view.closed_to`). Then, per seat, the
    board the seat could still use at the end is rebuilt backwards, giving back the
    routes closed by the last claim first, then the one before, and so on (a union-find
    only joins; it cannot cut): the claim whose routes join a ticket's places again is
    the claim that made it impossible. Its own claims never close a seat's way, as
    they close only tracks beside its own.
    """
    game_map = game.map
    rules = game.rules
    closes = game.num_players <= rules.closed_parallel_max_players
    final = {seat: list(p.tickets) for seat, p in enumerate(game.state.players)}
    kept_at: dict[tuple[int, int], int] = {}
    owner: dict[int, int] = {}
    closed_at: dict[int, dict[int, int]] = {seat: {} for seat in final}  # route -> move
    claims: dict[int, tuple[int, int]] = {}  # move -> (who, route)
    for number, move in enumerate(game.history, start=1):
        action = move.action
        if isinstance(action, KeepTickets):
            for t in action.tickets:
                kept_at[(move.player, t)] = number
        if not isinstance(action, ClaimRoute):
            continue
        owner[action.route] = move.player
        claims[number] = (move.player, action.route)
        for seat, closed in closed_at.items():
            if seat == move.player:
                continue
            for rid in (action.route, *rules.parallel[action.route]):
                if rid not in closed and closed_to(rid, owner, seat, rules.parallel, closes):
                    closed[rid] = number
    out: dict[tuple[int, int], tuple[int, int | None, int | None, int | None]] = {}
    for seat, tickets in final.items():
        first = next((n for n, (who, _) in claims.items() if who != seat), None)
        for t, number in _blocking_moves(game_map, tickets, closed_at[seat], first).items():
            by, route = claims[number]
            out[(seat, t)] = (number, by, route, kept_at.get((seat, t)))
    return out


def _blocking_moves(
    game_map: Map, tickets: list[int], closed_at: dict[int, int], first: int | None
) -> dict[int, int]:
    """For each ticket not joined on the board left at the end: the move whose closures
    cut it (``first``, the first claim by another seat, for one never joined)."""
    pieces = UnionFind()
    find = pieces.find
    dead = game_map.dead_ends
    keys: dict[str, list[Hashable]] = {}
    ends_of: dict[int, tuple[Hashable, Hashable]] = {}
    for route in game_map.routes:
        pair = tuple((p, route.id) if p in dead else p for p in route.ends)
        for place, key in zip(route.ends, pair, strict=True):
            keys.setdefault(place, []).append(key)
        ends_of[route.id] = pair  # type: ignore[assignment]

    def join(rid: int) -> None:
        pieces.union(*ends_of[rid])

    def joined(ticket: int) -> bool:
        cities = game_map.ticket_by_id[ticket].cities
        for a, b in zip(cities, cities[1:], strict=False):
            left = {find(k) for p in game_map.targets(a) for k in keys.get(p, ())}
            if not any(find(k) in left for p in game_map.targets(b) for k in keys.get(p, ())):
                return False
        return True

    for route in game_map.routes:
        if route.id not in closed_at:
            join(route.id)
    waiting = [t for t in tickets if not joined(t)]
    by_move: dict[int, list[int]] = {}
    for rid, number in closed_at.items():
        by_move.setdefault(number, []).append(rid)
    out = {}
    for number in sorted(by_move, reverse=True):
        if not waiting:
            break
        for rid in by_move[number]:
            join(rid)
        for t in [t for t in waiting if joined(t)]:
            out[t] = number
            waiting.remove(t)
    if first is not None:
        out.update(dict.fromkeys(waiting, first))
    return out


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
