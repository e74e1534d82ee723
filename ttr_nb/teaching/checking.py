"""The machinery behind the exercise checks: results, running a learner's function, boards.

A check runs the learner's function through :func:`_run`, which turns what
happened into a :class:`CheckResult`: correct, not yet (a stub), or wrong with
the first failing case.  :func:`_call` calls the learner's function; a stub
raises ``_NotYet``, an error or a wrong answer raises ``_Wrong`` with a
message.  The exercise modules (:mod:`.exercises`, :mod:`.exercises_networks`)
hold the checks themselves.

The made-up cases of every check come from :func:`case_rng`, seeded, so a
learner sees the same cases at every run.  A grader runs the same check again
inside :func:`other_cases` to try cases the learner has never seen (the hidden
tests of ``tools/assignments.py``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from typing import Any

import networkx as nx

from ..maps import Map, load_map

__all__ = ["CheckResult", "case_rng", "other_cases", "random_network", "simple_board_graph"]

MAPS = ("usa", "germany", "world")


@dataclass(frozen=True)
class CheckResult:
    """What a check found.  Prints as its message; true only when correct.

    Attributes
    ----------
    status : str
        ``"correct"``, ``"not yet"`` (still a stub) or ``"wrong"``.
    message : str
        The report, starting with ✔, … or ✘.
    cases : int
        How many cases agreed before the check stopped.
    """

    status: str
    message: str
    cases: int = 0

    @property
    def passed(self) -> bool:
        """Whether the answer was judged correct."""
        return self.status == "correct"

    def __bool__(self) -> bool:
        return self.passed

    def __repr__(self) -> str:
        return self.message

    __str__ = __repr__


# The key of the cases in use: None for the lessons' own cases (see other_cases).
_CASES_KEY: ContextVar[str | None] = ContextVar("ttr_nb_cases_key", default=None)


def case_rng(seed: int) -> random.Random:
    """The random source of a check's made-up cases.

    Seeded by `seed` alone, so a learner meets the same cases at every run; inside
    :func:`other_cases`, seeded by the key and `seed` together.

    Examples
    --------
    >>> case_rng(7).random() == case_rng(7).random()
    True
    >>> with other_cases("a key"):
    ...     other = case_rng(7).random()
    >>> other == case_rng(7).random()
    False
    """
    key = _CASES_KEY.get()
    return random.Random(seed if key is None else f"{key}|{seed}")


@contextmanager
def other_cases(key: str) -> Iterator[None]:
    """Let the checks run inside this block draw other made-up cases, chosen by `key`.

    A grader's hidden test runs a lesson's check again inside this block: the
    same hand-made traps, and random cases the learner has never seen (they
    depend on `key`, which only the grader knows).  Checks that try every case
    there is (the A* estimate's: every pair of places) try the same ones.

    Raises
    ------
    ValueError
        If `key` is empty: the cases would be guessable.
    """
    if not key:
        raise ValueError("other_cases needs a non-empty key")
    token = _CASES_KEY.set(key)
    try:
        yield
    finally:
        _CASES_KEY.reset(token)


class _NotYet(Exception):
    pass


class _Wrong(Exception):
    pass


NOT_YET = (
    "… Not yet: {name} still returns NotImplemented (or raises NotImplementedError). "
    "Write it, run its cell again, then run this check."
)


def _run(check: Callable[[Callable], int], fn: Callable, what: str) -> CheckResult:
    """Run a checking routine and turn what happened into a CheckResult."""
    name = getattr(fn, "__name__", "your function")
    if not callable(fn):
        return CheckResult("wrong", f"✘ Not quite: expected a function, got {fn!r}.")
    try:
        cases = check(fn)
    except _NotYet:
        return CheckResult("not yet", NOT_YET.format(name=f"{name}()"))
    except _Wrong as wrong:
        return CheckResult("wrong", f"✘ Not quite: {wrong}")
    except Exception as exc:  # e.g. iterating over a broken answer
        return CheckResult(
            "wrong", f"✘ Not quite: using your answer raised {type(exc).__name__}: {exc}"
        )
    return CheckResult("correct", f"✔ Correct: {name}() {what} ({cases} cases).", cases)


def _call(fn: Callable, *args: Any, case: str) -> Any:
    """Call the learner's function; a stub raises _NotYet, an error becomes _Wrong."""
    try:
        value = fn(*args)
    except NotImplementedError:
        raise _NotYet from None
    except Exception as exc:  # report anything the learner's code raises
        raise _Wrong(f"{case}: your function raised {type(exc).__name__}: {exc}") from None
    if value is NotImplemented:
        raise _NotYet
    return value


def _names(game_map: Map | None, places: Iterable[Hashable], limit: int = 6) -> str:
    items = [game_map.place_name(p) if game_map else str(p) for p in places]
    items.sort()
    more = len(items) - limit
    shown = ", ".join(items[:limit])
    return shown + (f" and {more} more" if more > 0 else "")


# ------------------------------------------------------------------ boards
def simple_board_graph(
    game_map: Map, routes: Iterable[int] | None = None, *, owned: Iterable[int] = ()
) -> nx.Graph:
    """A map as a simple weighted graph: parallel routes collapse to the shortest.

    Every place is a node (also those no route of `routes` touches); an edge
    joins two places when some route does, with ``weight`` its length (0 for
    an `owned` route) and ``route`` its id.
    """
    keep = None if routes is None else set(routes)
    owned = set(owned)
    graph = nx.Graph()
    graph.add_nodes_from(c.id for c in game_map.cities)
    for r in game_map.routes:
        if keep is not None and r.id not in keep:
            continue
        w = 0 if r.id in owned else r.length
        if not graph.has_edge(r.a, r.b) or w < graph[r.a][r.b]["weight"]:
            graph.add_edge(r.a, r.b, weight=w, route=r.id)
    return graph


def random_network(game_map: Map, rng: random.Random, size: int) -> list[int]:
    """Route ids of a made-up player network: `size` routes grown from a random route.

    Each new route touches the network so far, except now and then (15 %) one
    elsewhere on the board, so the network may come in a few pieces.  As in a
    real game, the network never holds two routes of one double (or triple)
    route: a player may claim only one of them.

    Raises
    ------
    ValueError
        If the map has fewer than `size` routes a player could own together.
    """
    routes = list(game_map.routes)
    chosen = [rng.choice(routes)]
    places = set(chosen[0].ends)
    closed = {chosen[0].group}  # one route per double route
    while len(chosen) < size:
        free = [r for r in routes if r.group not in closed]
        if not free:
            raise ValueError(f"the {game_map.name} map has no {size} routes one player can own")
        touching = [r for r in free if r.a in places or r.b in places]
        # Now and then a route elsewhere: real networks are not always in one piece.
        pool = touching if touching and rng.random() < 0.85 else free
        route = rng.choice(pool)
        chosen.append(route)
        closed.add(route.group)
        places.update(route.ends)
    return [r.id for r in chosen]


@cache
def _map(name: str) -> Map:
    return load_map(name)
