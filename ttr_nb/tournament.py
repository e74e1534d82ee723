"""Tournaments: many bot games with rotating seats, in parallel, summed up with intervals.

>>> result = run_tournament(["greedy", "random"], games=4, workers=1, progress=False)
>>> [row.name for row in result.table()]
['greedy', 'random']
>>> result.table()[0].games, sum(row.wins for row in result.table())
(4, 4.0)

Seats rotate: in game g the entrant ``i`` sits in seat ``(i + g) % n``, so
over any n consecutive games every entrant plays every seat once, and the
seat advantage (moving first) cancels out of the comparison between bots.

Every game has its own seed (``seed + g``) and every bot its own generator
seeded from the game's seed and its seat, so a tournament gives the same
records however it is split over processes or machines.

Parallel runs go through any :class:`concurrent.futures.Executor`: by default
a :class:`~concurrent.futures.ProcessPoolExecutor` on this machine, or one you
pass in, for example a Dask cluster's ``client.get_executor()`` for very large
runs.  Work is sent as chunks of games (the function and its arguments are
pickled), so bots are named (``"greedy"``) or given as module-level factories
``factory(seed) -> bot``, which pickle.
"""

from __future__ import annotations

import concurrent.futures as cf
import html
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from .bots import Bot, bot_name_problem, make_bot, play_out
from .game import new_game

__all__ = [
    "EntrantStats",
    "GameRecord",
    "SeatRecord",
    "SeatStats",
    "TournamentResult",
    "mean_interval",
    "run_tournament",
    "wilson_interval",
]

Z95 = 1.959963984540054  # the 97.5 % point of the standard normal distribution
MAX_GAMES = 10_000_000


# ------------------------------------------------------------- statistics
def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (95 % by default).

    Parameters
    ----------
    successes : float
        Number of successes; may be fractional (a shared win counts 1/k).
    trials : int
        Number of trials.
    z : float
        Standard normal quantile of the confidence level.

    Returns
    -------
    (low, high) : tuple of float
        Bounds in [0, 1]; (0, 1) when there are no trials.

    Notes
    -----
    Unlike the textbook "p ± z·sqrt(p(1-p)/n)", the Wilson interval stays
    inside [0, 1] and keeps close to its nominal coverage for small n and for
    proportions near 0 or 1 (Brown, Cai and DasGupta, 2001).  O(1).

    Examples
    --------
    >>> low, high = wilson_interval(60, 100)
    >>> round(low, 3), round(high, 3)
    (0.502, 0.691)
    >>> wilson_interval(0, 10)[0]
    0.0
    """
    if trials <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must lie between 0 and {trials}, got {successes}")
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean with a 95 % normal-approximation interval: (mean, low, high).

    Notes
    -----
    mean ± z·s/√n, with s the sample standard deviation.  By the central
    limit theorem this is good once n is a few dozen, which every summary
    here has; with fewer values it is too narrow.  O(n).

    Examples
    --------
    >>> [round(x, 2) for x in mean_interval([10, 12, 14, 16])]
    [13.0, 10.47, 15.53]
    """
    n = len(values)
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = statistics.fmean(values)
    if n == 1:
        return mean, math.nan, math.nan
    half = z * statistics.stdev(values) / math.sqrt(n)
    return mean, mean - half, mean + half


# ---------------------------------------------------------------- records
@dataclass(frozen=True)
class SeatRecord:
    """What one seat did in one game.

    Attributes
    ----------
    entrant : int
        Index of the bot (in the tournament's list) in this seat.
    score : dict of str to int
        Final score by component, with ``total``.
    tickets : tuple of (int, bool)
        Ticket ids held at the end, and whether each was completed.
    routes : tuple of int
        Route ids claimed, in the order they were claimed.
    """

    entrant: int
    score: dict[str, int]
    tickets: tuple[tuple[int, bool], ...]
    routes: tuple[int, ...]

    @property
    def total(self) -> int:
        """The seat's final score."""
        return self.score["total"]


@dataclass(frozen=True)
class GameRecord:
    """One finished game: its number, seed, seats in play order, winners and length."""

    number: int
    seed: int
    seats: tuple[SeatRecord, ...]
    winners: tuple[int, ...]  # seats
    turns: int

    def win_share(self, seat: int) -> float:
        """1 for a sole winner, 1/k for each of k sharing the win, else 0."""
        return 1 / len(self.winners) if seat in self.winners else 0.0


# ------------------------------------------------------------ game runner
@dataclass(frozen=True)
class _Spec:
    """Everything a worker needs to play games; small and picklable."""

    bots: tuple[str | Callable[[int], Bot], ...]
    map: str
    seed: int
    max_actions: int


def _make(bot: str | Callable[[int], Bot], seed: int) -> Bot:
    return make_bot(bot, seed) if isinstance(bot, str) else bot(seed)


def play_game(spec: _Spec, number: int) -> GameRecord:
    """Play game ``number`` of a tournament (entrant i in seat (i + number) % n)."""
    n = len(spec.bots)
    seed = spec.seed + number
    entrant_at = [(seat - number) % n for seat in range(n)]
    bots = [_make(spec.bots[entrant_at[seat]], seed * 16 + seat) for seat in range(n)]
    game = play_out(new_game(spec.map, players=n, seed=seed), bots, spec.max_actions)
    rows = game.scores()
    seats = tuple(
        SeatRecord(
            entrant=entrant_at[seat],
            score=rows[seat],
            tickets=tuple(game.ticket_status(seat)),
            routes=tuple(game.state.players[seat].routes),
        )
        for seat in range(n)
    )
    return GameRecord(number, seed, seats, tuple(game.winners), game.state.turn)


def _play_chunk(spec: _Spec, numbers: Sequence[int]) -> list[GameRecord]:
    return [play_game(spec, number) for number in numbers]


# --------------------------------------------------------------- summaries
@dataclass(frozen=True)
class EntrantStats:
    """One bot's results over a tournament (shared wins count 1/k)."""

    name: str
    games: int
    wins: float
    win_low: float
    win_high: float
    mean_score: float
    score_low: float
    score_high: float
    tickets_completed: float  # share of kept tickets completed

    @property
    def win_rate(self) -> float:
        """Wins per game (NaN before any game)."""
        return self.wins / self.games if self.games else math.nan


@dataclass(frozen=True)
class SeatStats:
    """Results by seat (1 moves first), whoever sat there."""

    seat: int
    games: int
    wins: float
    win_low: float
    win_high: float
    mean_score: float
    score_low: float
    score_high: float

    @property
    def win_rate(self) -> float:
        """Wins per game (NaN before any game)."""
        return self.wins / self.games if self.games else math.nan


@dataclass
class TournamentResult:
    """Every game of a tournament, with tables and a plot.

    Attributes
    ----------
    names : list of str
        One label per entrant (a bot entered twice is ``greedy #1``, ``greedy #2``).
    map : str
        The map played.
    records : list of GameRecord
        One per game, in game order.
    seconds : float
        Wall-clock time of the run.
    """

    names: list[str]
    map: str
    records: list[GameRecord] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def games(self) -> int:
        """The number of games played."""
        return len(self.records)

    def scores(self, entrant: int) -> list[int]:
        """Final totals of one entrant, game by game."""
        return [s.total for r in self.records for s in r.seats if s.entrant == entrant]

    def table(self) -> list[EntrantStats]:
        """Per entrant: games, wins with a 95 % Wilson interval, mean score with a 95 % interval."""
        out = []
        for i, name in enumerate(self.names):
            wins = sum(
                r.win_share(seat)
                for r in self.records
                for seat, s in enumerate(r.seats)
                if s.entrant == i
            )
            scores = self.scores(i)
            tickets = [
                ok for r in self.records for s in r.seats if s.entrant == i for _, ok in s.tickets
            ]
            mean, low, high = mean_interval(scores)
            w_low, w_high = wilson_interval(wins, len(scores))
            out.append(
                EntrantStats(
                    name=name,
                    games=len(scores),
                    wins=wins,
                    win_low=w_low,
                    win_high=w_high,
                    mean_score=mean,
                    score_low=low,
                    score_high=high,
                    tickets_completed=sum(tickets) / len(tickets) if tickets else math.nan,
                )
            )
        return out

    def seat_table(self) -> list[SeatStats]:
        """Per seat (seat 1 moves first): wins and scores, whoever sat there."""
        out = []
        for seat in range(len(self.names)):
            wins = sum(r.win_share(seat) for r in self.records)
            scores = [r.seats[seat].total for r in self.records]
            mean, low, high = mean_interval(scores)
            w_low, w_high = wilson_interval(wins, len(scores))
            out.append(SeatStats(seat + 1, len(scores), wins, w_low, w_high, mean, low, high))
        return out

    def to_text(self) -> str:
        """The two tables as plain text."""
        lines = [
            f"{self.games} games on {self.map}, seats rotated",
            "",
            f"{'bot':<14}{'games':>6}{'wins':>8}{'win rate (95% CI)':>24}"
            f"{'mean score (95% CI)':>26}{'tickets done':>14}",
        ]
        for row in self.table():
            lines.append(
                f"{row.name:<14}{row.games:>6}{row.wins:>8g}"
                f"{_pct(row.win_rate, row.win_low, row.win_high):>24}"
                f"{_num(row.mean_score, row.score_low, row.score_high):>26}"
                f"{row.tickets_completed:>14.0%}"
            )
        lines += ["", f"{'seat':<14}{'games':>6}{'wins':>8}{'win rate (95% CI)':>24}"]
        lines[-1] += f"{'mean score (95% CI)':>26}"
        for row in self.seat_table():
            label = f"{row.seat}" + (" (first)" if row.seat == 1 else "")
            lines.append(
                f"{label:<14}{row.games:>6}{row.wins:>8g}"
                f"{_pct(row.win_rate, row.win_low, row.win_high):>24}"
                f"{_num(row.mean_score, row.score_low, row.score_high):>26}"
            )
        return "\n".join(lines)

    __str__ = to_text

    def _repr_html_(self) -> str:
        head = "<tr><th>bot</th><th>games</th><th>wins</th><th>win rate (95% CI)</th>"
        head += "<th>mean score (95% CI)</th><th>tickets done</th></tr>"
        rows = [
            f"<tr><td>{html.escape(r.name)}</td><td>{r.games}</td><td>{r.wins:g}</td>"
            f"<td>{_pct(r.win_rate, r.win_low, r.win_high)}</td>"
            f"<td>{_num(r.mean_score, r.score_low, r.score_high)}</td>"
            f"<td>{r.tickets_completed:.0%}</td></tr>"
            for r in self.table()
        ]
        caption = f"{self.games} games on {html.escape(self.map)}, seats rotated"
        return f"<table><caption>{caption}</caption>{head}{''.join(rows)}</table>"

    def plot(self, axes: Any = None) -> Any:
        """Win rates with 95 % intervals (left) and score distributions (right).

        Returns the matplotlib figure.  `axes`, if given, is a pair of axes.
        """
        import matplotlib.pyplot as plt

        if axes is None:
            fig, axes = plt.subplots(1, 2, figsize=(11, 3.6))
        else:
            fig = axes[0].figure
        table = self.table()
        left, right = axes
        ys = range(len(table))
        rates = [r.win_rate for r in table]
        errors = [  # rounding can put a bound a hair inside the rate (at 0 % or 100 %)
            [max(0.0, r.win_rate - r.win_low) for r in table],
            [max(0.0, r.win_high - r.win_rate) for r in table],
        ]
        left.barh(ys, rates, xerr=errors, color="#4a78c2", capsize=4)
        left.set_yticks(list(ys), [r.name for r in table])
        left.invert_yaxis()
        left.set_xlim(0, 1)
        if len(table) > 1:
            left.axvline(1 / len(table), color="#888888", linestyle=":", linewidth=1)
        left.set_xlabel("share of games won (95% interval)")
        scores = [self.scores(i) for i in range(len(table))]
        low = min((min(s) for s in scores if s), default=0)
        high = max((max(s) for s in scores if s), default=1)
        bins = max(10, min(40, int(high - low) // 5 or 10))
        for row, values in zip(table, scores, strict=True):
            right.hist(values, bins=bins, range=(low, high + 1), alpha=0.55, label=row.name)
            right.axvline(row.mean_score, color="#222222", linewidth=0.8)
        right.set_xlabel("final score (lines: means)")
        right.set_ylabel("games")
        right.legend(frameon=False)
        fig.suptitle(f"{self.games} games on {self.map}, seats rotated", fontsize=10)
        fig.tight_layout()
        return fig

    def to_json(self) -> str:
        """Every record as JSON (for saving a large run and analysing it later)."""
        return json.dumps(
            {
                "names": self.names,
                "map": self.map,
                "seconds": self.seconds,
                "records": [asdict(r) for r in self.records],
            },
            separators=(",", ":"),
        )


def _pct(rate: float, low: float, high: float) -> str:
    return f"{rate:.1%} [{low:.1%}, {high:.1%}]"


def _num(mean: float, low: float, high: float) -> str:
    if math.isnan(low):  # one game: a spread needs two
        return "–" if math.isnan(mean) else f"{mean:.1f}"
    return f"{mean:.1f} [{low:.1f}, {high:.1f}]"


# ------------------------------------------------------------ the runner
def run_tournament(
    bots: Sequence[str | Callable[[int], Bot]],
    map: str = "usa",
    games: int = 100,
    *,
    players: int | None = None,
    seed: int = 0,
    executor: cf.Executor | None = None,
    workers: int | None = None,
    chunk_size: int | None = None,
    progress: bool = True,
    max_actions: int = 100_000,
) -> TournamentResult:
    """Play many games between bots, seats rotated, and collect every result.

    Parameters
    ----------
    bots : sequence of str or callable
        One entry per entrant: a bot name (``"greedy"``, ``"random"``,
        ``"search"``, ``"search:0.3"``: see :func:`ttr_nb.bots.make_bot`) or a
        module-level factory
        ``factory(seed) -> bot``.  With a single entry and `players`, that bot
        fills every seat.
    map : str, default "usa"
        Map name or map file, as for :func:`ttr_nb.new_game`.
    games : int, default 100
        Number of games.  A multiple of the number of players gives every
        entrant every seat equally often.
    players : int, optional
        Number of players; by default one per entrant.
    seed : int, default 0
        Game g uses seed ``seed + g``.
    executor : concurrent.futures.Executor, optional
        Where to play the chunks of games (not shut down here): for example a
        Dask cluster's ``client.get_executor()``.  By default a process pool
        of `workers` processes, or this process when `workers` is 1.
    workers : int, optional
        Processes for the default pool; default ``os.cpu_count()``.
    chunk_size : int, optional
        Games per task; default about four tasks per worker, at most 50 games.
    progress : bool, default True
        Show a tqdm progress bar (a widget in notebooks).
    max_actions : int, default 100000
        A game still running after this many actions raises RuntimeError.

    Returns
    -------
    TournamentResult
        Every game's record, with ``table()``, ``seat_table()``, ``plot()``.

    Raises
    ------
    ValueError
        For an unknown bot, fewer than 2 or more than 5 players, a number of
        games out of range, or a map that cannot be played.

    Notes
    -----
    The time is that of the games themselves: O(games × actions per game ×
    cost of a bot's decision), divided by the workers.  Results do not depend
    on the executor, the number of workers or the chunk size.

    Examples
    --------
    >>> result = run_tournament(["random"], games=6, players=3, workers=1, progress=False)
    >>> result.names
    ['random #1', 'random #2', 'random #3']
    >>> [s.games for s in result.seat_table()]
    [6, 6, 6]
    """
    entries = list(bots)
    if players is not None and len(entries) == 1:
        entries *= players
    if not 2 <= len(entries) <= 5:
        raise ValueError(f"a game needs 2 to 5 players, got {len(entries)} bots")
    if players is not None and players != len(entries):
        raise ValueError(f"{len(entries)} bots for {players} players")
    for entry in entries:
        if isinstance(entry, str):
            problem = bot_name_problem(entry)
            if problem is not None:
                raise ValueError(problem)
        elif not callable(entry):
            raise ValueError(f"a bot is a name or a factory function, not {entry!r}")
    if not 1 <= games <= MAX_GAMES:
        raise ValueError(f"games must be between 1 and {MAX_GAMES}, got {games}")
    try:  # a clear error now rather than one per worker
        new_game(map, players=len(entries), seed=seed)
    except ValueError as exc:
        raise ValueError(f"cannot play {map!r}: {exc}") from None

    names = _labels(entries)
    spec = _Spec(tuple(entries), str(map), seed, max_actions)
    result = TournamentResult(names, _map_name(map))
    start = time.perf_counter()
    numbers = list(range(games))
    # Python in the browser (Pyodide) cannot start processes: play here, one by one.
    can_fork = sys.platform != "emscripten"
    own_pool = executor is None and can_fork and (workers or os.cpu_count() or 1) > 1
    if executor is None and not own_pool:
        with _bar(games, progress) as bar:
            for number in numbers:
                result.records.append(play_game(spec, number))
                bar.update(1)
    else:
        pool = executor or cf.ProcessPoolExecutor(max_workers=workers)
        slots = workers or os.cpu_count() or 1
        size = chunk_size or max(1, min(50, math.ceil(games / (4 * slots))))
        chunks = [numbers[i : i + size] for i in range(0, games, size)]
        records: list[GameRecord] = []
        try:
            with _bar(games, progress) as bar:
                futures = [pool.submit(_play_chunk, spec, chunk) for chunk in chunks]
                for future in cf.as_completed(futures):
                    done = future.result()
                    records.extend(done)
                    bar.update(len(done))
        finally:
            if own_pool:
                pool.shutdown(cancel_futures=True)
        result.records = sorted(records, key=lambda r: r.number)
    result.seconds = time.perf_counter() - start
    return result


def _labels(entries: Iterable[str | Callable[[int], Bot]]) -> list[str]:
    raw = [e if isinstance(e, str) else getattr(e, "__name__", "bot") for e in entries]
    out = []
    for name in raw:
        if raw.count(name) > 1:
            out.append(f"{name} #{raw[: len(out) + 1].count(name)}")
        else:
            out.append(name)
    return out


def _map_name(map_name: str) -> str:
    from .maps import load_map

    return load_map(map_name).name


def _bar(total: int, enabled: bool) -> Any:
    from tqdm.auto import tqdm

    return tqdm(total=total, desc="games", unit="game", disable=not enabled, smoothing=0.1)
