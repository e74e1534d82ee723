"""Bots by name: the registry the app, the command line and tournaments pick bots from."""

from __future__ import annotations

from collections.abc import Callable

from ..game import Game
from .greedy import BeginnerBot, Bot, GreedyBot, RandomBot
from .route_focused import LongRouteBot, RouteFocusBot


def _search_bot(seed: int = 0, budget: float | None = None, cpu: bool = False) -> Bot:
    import time

    from .search import DEFAULT_BUDGET, PAIRED_Z, SearchBot  # late: the heaviest bot

    return SearchBot(
        seed,
        budget=DEFAULT_BUDGET if budget is None else budget,
        clock=time.process_time if cpu else time.perf_counter,
        paired_z=PAIRED_Z,
    )


def _search_cpu_bot(seed: int = 0, budget: float | None = None) -> Bot:
    return _search_bot(seed, budget, cpu=True)


BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "beginner": BeginnerBot,
    "greedy": GreedyBot,
    "route": RouteFocusBot,  # the playtesting study's Route Focus agent (lesson 13)
    "long-route": LongRouteBot,  # greedy with the study's Long Route habits (lesson 13)
    "search": _search_bot,
    "hard": _search_bot,
    "search-cpu": _search_cpu_bot,
}
"""Bots by name, weakest first. The levels a teacher picks: ``beginner`` (beatable: the
greedy bot's plans with a random move on about a third of its turns), ``greedy`` and
``hard`` (the search bot). ``search`` thinks 1 second per move (by the wall clock: what
a player waits); ``search:0.3`` names another budget, and ``hard`` is another name for
it. ``search-cpu`` counts the CPU time of its own process instead, so that its strength
does not depend on how busy the machine is (for tournaments and benchmarks)."""

MAX_BUDGET = 60.0  # seconds a named search bot may think per move
BUDGETED = ("search", "hard", "search-cpu")


def bot_name_problem(kind: object) -> str | None:
    """Why ``kind`` names no bot, or None (``random``, ``greedy``, ``search``, ``search:0.3``,
    ``search-cpu:0.3``)."""
    if not isinstance(kind, str):
        return f"a bot is named by text, not {kind!r}"
    name, colon, budget = kind.partition(":")
    if name not in BOTS:
        return f"unknown bot {kind!r}; choose from {', '.join(BOTS)} (or search:SECONDS)"
    if colon:
        if name not in BUDGETED:
            return f"only the search bot takes a time budget ({kind!r})"
        try:
            seconds = float(budget)
        except ValueError:
            return f"{budget!r} is not a number of seconds ({kind!r})"
        if not 0 < seconds <= MAX_BUDGET:
            return f"a search budget is more than 0 and at most {MAX_BUDGET:g} seconds"
    return None


def make_bot(kind: str, seed: int = 0) -> Bot:
    """A bot by name: ``random``, ``greedy``, ``search`` (1 s per move), ``search:0.3``
    (0.3 s per move) or ``search-cpu:0.3`` (0.3 s of its own CPU time per move).

    Raises
    ------
    ValueError
        For a name that is not a bot (see :func:`bot_name_problem`).

    Examples
    --------
    >>> make_bot("search:0.3").budget
    0.3
    >>> make_bot("greedy:2")
    Traceback (most recent call last):
    ...
    ValueError: only the search bot takes a time budget ('greedy:2')
    """
    problem = bot_name_problem(kind)
    if problem is not None:
        raise ValueError(problem)
    name, colon, budget = kind.partition(":")
    if colon:
        return BOTS[name](seed, float(budget))
    return BOTS[name](seed)


def play_out(game: Game, bots: list[Bot], max_actions: int = 100_000) -> Game:
    """Let ``bots`` (one per seat) play ``game`` to the end."""
    for _ in range(max_actions):
        if game.is_over:
            return game
        game.apply(bots[game.current_player].choose(game))
    raise RuntimeError(f"game did not end within {max_actions} actions")
