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

import gzip
import itertools
import json
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from ..bots import make_bot
from ..game import new_game
from ..maps import Map
from ..tournament import GameRecord, wilson_interval

__all__ = [
    "Played",
    "bootstrap_spearman",
    "compact",
    "competition_ranks",
    "from_compact",
    "ignored_cities",
    "length_shares",
    "play_watched",
    "read_games",
    "replay_until",
    "study_counts",
    "study_lengths",
    "truncate",
    "route_counts",
    "spearman",
    "win_rates",
    "winner_route_counts",
]

SEATS = ("winners", "losers", "all")


@dataclass(frozen=True)
class Played:
    """One game as the lab needs it: its seed, the entrant in each seat, the winning
    seats and the routes each seat claimed; for games stored by :func:`play_watched`,
    also how the game ended (``last_round`` or ``no_moves``) and on how many turns a
    player moved with no card left to draw (deck and discards empty, ``dry``) or with
    only locomotives left to deal (``wild_only``). None where a file does not say."""

    seed: int
    entrants: tuple[int, ...]
    winners: tuple[int, ...]
    routes: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    ended_by: str | None = None
    dry: int | None = None
    wild_only: int | None = None

    def core(self) -> Played:
        """The same game without what :func:`play_watched` adds (as :func:`compact` makes
        it from a tournament record)."""
        return Played(self.seed, self.entrants, self.winners, self.routes, self.scores)

    def row(self) -> list:
        """The stored list (the five first fields, and the watched ones when known)."""
        out = [self.seed, list(self.entrants), list(self.winners)]
        out += [[list(r) for r in self.routes], list(self.scores)]
        if self.ended_by is not None:
            out += [self.ended_by, self.dry, self.wild_only]
        return out


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
    """A :class:`Played` from its stored list ``[seed, entrants, winners, routes, scores]``
    (followed by ``ended_by, dry, wild_only`` in the files :func:`play_watched` makes)."""
    seed, entrants, winners, routes, scores, *watched = row
    return Played(
        int(seed),
        tuple(entrants),
        tuple(winners),
        tuple(map(tuple, routes)),
        tuple(scores),
        *watched,
    )


def _seated(bots: Sequence[str], map_name: str, number: int, seed: int):
    """Game ``number`` of a tournament set up as ``run_tournament`` sets it up: the new
    game, the bot in each seat and the entrant in each seat."""
    n = len(bots)
    game_seed = seed + number
    entrant_at = [(seat - number) % n for seat in range(n)]
    players = [make_bot(bots[entrant_at[seat]], game_seed * 16 + seat) for seat in range(n)]
    return new_game(map_name, players=n, seed=game_seed), players, entrant_at


def replay_until(bots: Sequence[str], map_name: str, number: int, seed: int, stop) -> object:
    """Play game ``number`` of a tournament (as :func:`play_watched`) up to the first
    position where ``stop(game)`` is true, and return that game; None if it never is."""
    game, players, _ = _seated(bots, map_name, number, seed)
    while not game.is_over:
        if stop(game):
            return game
        game.apply(players[game.current_player].choose(game))
    return None


def play_watched(bots: Sequence[str], map_name: str, number: int, seed: int = 0) -> Played:
    """Play game ``number`` of a tournament exactly as :func:`ttr_nb.tournament.run_tournament`
    does (same seed, seats and bots), watching what the rules gaps need: how the game ends,
    and the turns played with no card left to draw or only locomotives left to deal."""
    game, players, entrant_at = _seated(bots, map_name, number, seed)
    state = game.state
    wild = set(game.rules.wild_ids)
    dry = wild_only = 0
    for _ in range(100_000):
        if game.is_over:
            break
        left = state.deck + state.discard
        if not left:
            dry += 1
        elif all(card in wild for card in left):
            wild_only += 1
        game.apply(players[game.current_player].choose(game))
    else:
        raise RuntimeError(f"game {number} did not end")
    totals = [row["total"] for row in game.scores()]
    return Played(
        seed=state.seed,
        entrants=tuple(entrant_at),
        winners=tuple(game.winners),
        routes=tuple(tuple(p.routes) for p in state.players),
        scores=tuple(totals),
        ended_by=state.ended_by,
        dry=dry,
        wild_only=wild_only,
    )


def _groups(game_map: Map) -> dict[int, int]:
    return {r.id: r.group for r in game_map.routes}


def _seats(game: Played, seats: str) -> Iterable[int]:
    if seats == "winners":
        return game.winners
    if seats == "losers":
        return [s for s in range(len(game.routes)) if s not in game.winners]
    if seats == "all":
        return range(len(game.routes))
    raise ValueError(f"seats is one of {SEATS}, not {seats!r}")


def route_counts(games: Iterable[Played], game_map: Map, seats: str = "winners") -> Counter:
    """In how many games a seat of the kind ``seats`` (``winners``, ``losers`` or ``all``
    players) claimed each route, a double route counted once by its group. With ``all``, a
    route two players claimed (both tracks of a double) counts twice in that game.

    >>> from ttr_nb.maps import load_map
    >>> usa = load_map("usa")
    >>> g = Played(1, (0, 1), (0,), ((1,), (1, 3)), (50, 40))
    >>> one, three = usa.route_by_id[1].group, usa.route_by_id[3].group
    >>> [route_counts([g], usa, k)[three] for k in ("winners", "losers", "all")]
    [0, 1, 1]
    """
    group = _groups(game_map)
    counts = Counter({g: 0 for g in set(group.values())})
    for g in games:
        for seat in _seats(g, seats):
            counts.update({group[r] for r in g.routes[seat]})
    return counts


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


def length_shares(
    games: Iterable[Played], game_map: Map, seats: str = "winners"
) -> tuple[dict, dict]:
    """The share of each route length among the routes of the ``seats`` (``winners``,
    ``losers`` or ``all``), and on the board (each double route counted once on the board,
    as a player can claim only one track)."""
    winners: Counter = Counter()
    for g in games:
        for seat in _seats(g, seats):
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


# ------------------------------------------------------------ comparing orders
def average_ranks(values: Sequence[float]) -> list[float]:
    """Ranks from 1 (smallest), ties sharing the mean of their places.

    >>> average_ranks([10, 30, 20, 30])
    [1.0, 3.5, 2.0, 3.5]
    """
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    start = 0
    for _, run in itertools.groupby(order, key=lambda i: values[i]):
        run = list(run)
        for i in run:
            out[i] = start + (len(run) + 1) / 2
        start += len(run)
    return out


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation: Pearson's correlation of the two lists' ranks (ties
    share their mean rank). +1 when the two orders agree, -1 when one reverses the
    other, near 0 when knowing one order says nothing about the other.

    Notes
    -----
    O(n log n). A lesson compares the *order* of counts this way when two studies
    played different numbers of games.

    >>> spearman([1, 2, 3, 4], [10, 20, 30, 40]), spearman([1, 2, 3, 4], [4, 3, 2, 1])
    (1.0, -1.0)
    """
    if len(xs) != len(ys) or len(xs) < 2:
        raise ValueError("spearman needs two lists of the same length, at least 2")
    rx, ry = average_ranks(xs), average_ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    var = sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry)
    return cov / math.sqrt(var) if var else math.nan


def competition_ranks(counts: Mapping) -> dict:
    """Each key's place when sorted by count, most first; equal counts share the higher
    place (1, 2, 2, 4: "standard competition ranking").

    >>> competition_ranks({"a": 5, "b": 9, "c": 5, "d": 1})
    {'a': 2, 'b': 1, 'c': 2, 'd': 4}
    """
    return {k: 1 + sum(1 for v in counts.values() if v > n) for k, n in counts.items()}


@dataclass(frozen=True)
class RankAgreement:
    """Spearman's rho between two studies' counts with a 95 % bootstrap interval."""

    rho: float
    low: float
    high: float
    resamples: int


def bootstrap_spearman(
    games: Sequence[Played],
    game_map: Map,
    theirs: Mapping[int, int],
    their_games: int,
    seats: str = "winners",
    resamples: int = 400,
    seed: int = 0,
) -> RankAgreement:
    """Spearman's rho between our route counts (by ``seats``) and ``theirs`` (route group ->
    games out of ``their_games``), and a 95 % percentile bootstrap interval.

    Each resample draws our games again with replacement, and the study's count of each
    route again from its share (a normal approximation of the binomial: the study's
    games themselves are not public), so the interval shows how much of the difference
    finite numbers of games could explain; what lies outside it is a real difference of
    the two set-ups.
    """
    import numpy as np  # late: the lab's one numerical loop (numpy comes with matplotlib)

    group = _groups(game_map)
    keys = sorted(theirs)
    column = {k: i for i, k in enumerate(keys)}
    claimed = np.zeros((len(games), len(keys)))  # game x route: times claimed by `seats`
    for row, g in enumerate(games):
        for seat in _seats(g, seats):
            for k in {group[r] for r in g.routes[seat]}:
                if k in column:
                    claimed[row, column[k]] += 1
    mine = claimed.sum(axis=0)
    counts = np.array([theirs[k] for k in keys], dtype=float)
    rho = spearman(list(mine), list(counts))
    rng = np.random.default_rng(seed)
    n = len(games)
    spread = np.sqrt(counts * (1 - counts / their_games))
    samples = []
    for _ in range(resamples):
        weights = np.bincount(rng.integers(0, n, n), minlength=n)
        redrawn = np.maximum(0.0, counts + rng.normal(0.0, 1.0, len(keys)) * spread)
        samples.append(spearman(list(weights @ claimed), list(redrawn)))
    samples.sort()
    low = samples[int(0.025 * (resamples - 1))]
    high = samples[math.ceil(0.975 * (resamples - 1))]
    return RankAgreement(rho, low, high, resamples)


# -------------------------------------------------------------- stored data
def read_games(path: Path) -> tuple[dict, list[Played]]:
    """A stored run (``tools/playtest.py``): its header and its games."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        header = json.loads(f.readline())
        return header, [from_compact(json.loads(line)) for line in f]


def _group_of(game_map: Map) -> dict[frozenset, int]:
    return {frozenset((r.a, r.b)): r.group for r in game_map.routes}


def study_counts(paper: Mapping, game_map: Map) -> dict[int, int]:
    """The study's published winner claims (``paper.json``) by our route group."""
    group = _group_of(game_map)
    rows = paper["published_winner_routes"]["rows"]
    return {group[frozenset((a, b))]: n for a, b, _length, n, _key in rows}


def study_lengths(paper: Mapping, game_map: Map) -> dict[int, int]:
    """The length of each route on the study's board, by our route group."""
    group = _group_of(game_map)
    rows = paper["published_winner_routes"]["rows"]
    return {group[frozenset((a, b))]: length for a, b, length, _n, _key in rows}


def truncate(value: float, written: str) -> str:
    """``value`` cut off (not rounded) after as many decimals as ``written`` shows, as
    the study's script wrote its shares.

    >>> truncate(0.14337, "0.1433"), truncate(0.0641, "0.064")
    ('0.1433', '0.064')
    """
    digits = -Decimal(written).as_tuple().exponent
    step = Decimal(1).scaleb(-digits)
    return str(Decimal(repr(value)).quantize(step, rounding="ROUND_DOWN"))
