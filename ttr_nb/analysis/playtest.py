"""What many bot games say about a board, after de Mesentier Silva, Lee, Togelius and
Nealen, "AI-based Playtesting of Contemporary Board Games" (FDG 2017).

They played thousands of games between agents of different styles and counted which
routes winners claim, which cities no player reaches, how the lengths of the winners'
routes compare with the board's, and how often each style wins. The functions here
compute the same figures from :class:`~ttr_nb.tournament.GameRecord` objects or from
the compact records :func:`compact` writes (one line per game, so that 10,000 games fit
a small file under ``results/``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..maps import Map
from ..tournament import GameRecord, wilson_interval

__all__ = [
    "Played",
    "compact",
    "from_compact",
    "ignored_cities",
    "length_shares",
    "win_rates",
    "winner_route_counts",
]


@dataclass(frozen=True)
class Played:
    """One game as the lab needs it: its seed, the entrant in each seat, the winning
    seats and the routes each seat claimed."""

    seed: int
    entrants: tuple[int, ...]
    winners: tuple[int, ...]
    routes: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]


def compact(record: GameRecord) -> Played:
    """The lab's view of a tournament record."""
    return Played(
        seed=record.seed,
        entrants=tuple(s.entrant for s in record.seats),
        winners=tuple(record.winners),
        routes=tuple(tuple(s.routes) for s in record.seats),
        scores=tuple(s.total for s in record.seats),
    )


def from_compact(row: Sequence) -> Played:
    """A :class:`Played` from its stored list ``[seed, entrants, winners, routes, scores]``."""
    seed, entrants, winners, routes, scores = row
    return Played(
        int(seed), tuple(entrants), tuple(winners), tuple(map(tuple, routes)), tuple(scores)
    )


def _groups(game_map: Map) -> dict[int, int]:
    return {r.id: r.group for r in game_map.routes}


def winner_route_counts(games: Iterable[Played], game_map: Map) -> Counter:
    """How many games' winners claimed each route, a double route counted once (by its
    group: whichever track they took). Every group of the board is a key, 0 if never.

    >>> from ttr_nb.maps import load_map
    >>> usa = load_map("usa")
    >>> g = Played(1, (0, 1), (0,), ((1, 2), (3,)), (50, 40))
    >>> winner_route_counts([g], usa)[usa.route_by_id[1].group]
    1
    """
    group = _groups(game_map)
    counts = Counter({g: 0 for g in set(group.values())})
    for g in games:
        for seat in g.winners:
            counts.update({group[r] for r in g.routes[seat]})
    return counts


def ignored_cities(games: Iterable[Played], game_map: Map) -> Counter:
    """In how many games no player claimed a route touching each city."""
    cities = [c.id for c in game_map.cities]
    counts = Counter({c: 0 for c in cities})
    for g in games:
        reached = set()
        for seat_routes in g.routes:
            for r in seat_routes:
                route = game_map.route_by_id[r]
                reached.update((route.a, route.b))
        counts.update(c for c in cities if c not in reached)
    return counts


def length_shares(games: Iterable[Played], game_map: Map) -> tuple[dict, dict]:
    """The share of each route length among the winners' routes, and on the board (each
    double route counted once on the board, as a player can claim only one track)."""
    winners: Counter = Counter()
    for g in games:
        for seat in g.winners:
            winners.update(game_map.route_by_id[r].length for r in g.routes[seat])
    board: Counter = Counter()
    seen = set()
    for r in game_map.routes:
        if r.group not in seen:
            seen.add(r.group)
            board[r.length] += 1
    total_w, total_b = sum(winners.values()) or 1, sum(board.values())
    lengths = sorted(set(board) | set(winners))
    return (
        {n: winners[n] / total_w for n in lengths},
        {n: board[n] / total_b for n in lengths},
    )


@dataclass(frozen=True)
class WinRate:
    """An entrant's wins (a shared win counted 1/k) with a 95 % Wilson interval."""

    name: str
    games: int
    wins: float
    low: float
    high: float
    mean_score: float


def win_rates(games: Sequence[Played], names: Sequence[str]) -> list[WinRate]:
    """Wins and mean score per entrant (seats rotate in a tournament)."""
    out = []
    for i, name in enumerate(names):
        wins = played = score = 0.0
        for g in games:
            for seat, entrant in enumerate(g.entrants):
                if entrant == i:
                    played += 1
                    score += g.scores[seat]
                    if seat in g.winners:
                        wins += 1 / len(g.winners)
        low, high = wilson_interval(wins, int(played))
        out.append(WinRate(name, int(played), wins, low, high, score / max(played, 1)))
    return out
