"""The check of the Europe graph lesson's exercise (``graphs_14_stations_and_tunnels.ipynb``).

:func:`check_station_spaces` runs the learner's ``station_spaces`` on small made-up
boards that hide the traps (a second borrowed route, a borrowed route that does not
pay, the two tracks of a double route) and on made-up networks of the Europe board,
against the engine's own search (:func:`ttr_nb.rules.europe_stations.station_path`);
it reports as every check of
:mod:`ttr_nb.teaching.exercises` does.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from ..rules.europe_stations import station_path
from .checking import CheckResult, _call, _map, _run, _Wrong, case_rng, random_network

__all__ = ["check_station_spaces"]

Board = Sequence[tuple[int, str, str, int]]

TOY: Board = (
    (1, "A", "B", 2),
    (2, "B", "C", 3),
    (3, "C", "D", 1),
    (4, "A", "D", 9),
    (5, "D", "E", 2),
)
# (own, theirs, a, b, what the case is about)
TOY_CASES: tuple[tuple[frozenset[int], frozenset[int], str, str, str], ...] = (
    (frozenset({1}), frozenset({2}), "A", "D", "one borrowed route on the way"),
    (frozenset({1}), frozenset({2, 3}), "A", "D", "two of theirs in a row: only one is free"),
    (frozenset(), frozenset({4}), "A", "D", "a borrowed route that pays more than the detour"),
    (frozenset({1}), frozenset({2, 3, 4}), "A", "E", "the one borrowed route used once"),
    (frozenset(), frozenset(), "A", "A", "a ticket from a city to itself"),
)


# A double route whose two tracks differ: one open (3 spaces), the other the player's or
# another player's. A search that keeps one route per pair of cities (a dict keyed by the
# neighbour, an ``nx.Graph``) loses one of the tracks, whichever order they come in.
DOUBLE: Board = ((11, "A", "B", 3), (12, "A", "B", 3), (13, "B", "C", 2))
DOUBLE_CASES: tuple[tuple[frozenset[int], frozenset[int], str], ...] = (
    (frozenset(), frozenset({12}), "their track listed second"),
    (frozenset(), frozenset({11}), "their track listed first"),
    (frozenset({12}), frozenset(), "your track listed second"),
    (frozenset({11}), frozenset(), "your track listed first"),
)
PARALLEL_HINT = (
    " Two routes may join the same two cities (a double route), one open and the other yours "
    "or theirs: keep every route, not one per pair of cities."
)


def _want(board: Board, own: Collection[int], theirs: Collection[int], a: str, b: str) -> Any:
    found = station_path(board, a, b, own, theirs)
    return None if found is None else found.spaces


def check_station_spaces(
    station_spaces: Callable[[Board, Collection[int], Collection[int], str, str], Any],
) -> CheckResult:
    """Check ``station_spaces(routes, own, theirs, a, b)``: the fewest spaces still to claim
    that join `a` and `b`, the player's `own` routes free and at most one of the other
    players' routes (`theirs`) free too; None when no such way exists.

    `routes` lists ``(route id, city, city, length)`` for every usable route.
    """

    def check(fn: Callable) -> int:
        cases = 0
        toy_board = list(TOY) + [(6, "F", "G", 1)]  # F and G: cut off from A
        for own, theirs, a, b, about in (*TOY_CASES, (frozenset(), frozenset({6}), "A", "F", "")):
            label = f"On the small board, {a} to {b} ({about or 'no way at all'})"
            got = _call(fn, list(toy_board), set(own), set(theirs), a, b, case=label)
            want = _want(toy_board, own, theirs, a, b)
            if got != want:
                raise _Wrong(f"{label}: expected {want}, got {got!r}.")
            cases += 1
        for own, theirs, about in DOUBLE_CASES:
            label = f"On a double route A=B (routes 11 and 12, {about}), A to C"
            got = _call(fn, list(DOUBLE), set(own), set(theirs), "A", "C", case=label)
            want = _want(DOUBLE, own, theirs, "A", "C")
            if got != want:
                raise _Wrong(f"{label}: expected {want}, got {got!r}.{PARALLEL_HINT}")
            cases += 1
        europe = _map("europe")
        board = [(r.id, r.a, r.b, r.length) for r in europe.routes]
        rng = case_rng(1212)
        for _ in range(12):
            own = set(random_network(europe, rng, rng.randint(3, 12)))
            theirs = set(random_network(europe, rng, rng.randint(6, 25))) - own
            ticket = rng.choice(europe.tickets)
            a, b = ticket.cities
            label = (
                f"On the Europe board, {europe.place_name(a)} to {europe.place_name(b)} with "
                f"{len(own)} routes of yours and {len(theirs)} of theirs"
            )
            got = _call(fn, list(board), set(own), set(theirs), a, b, case=label)
            want = _want(board, own, theirs, a, b)
            if got != want:
                double = any(len(europe.parallel(europe.route_by_id[r])) for r in own | theirs)
                hint = PARALLEL_HINT if double else ""
                raise _Wrong(f"{label}: expected {want}, got {got!r}.{hint}")
            cases += 1
        return cases

    return _run(check, station_spaces, "finds the cheapest way with one borrowed route")
