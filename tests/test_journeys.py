"""Passenger journeys (ttr_nb.algorithms.journeys), checked against brute force."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_nb.algorithms import (
    DeadEndStartError,
    NegativeCardBudgetError,
    NegativeTokenValueError,
    best_journey,
    greedy_journey,
    journey_trails,
    journey_value,
    passenger_journeys,
)

PLACES = "SABCDEF"


@st.composite
def networks(draw):
    """Up to 8 routes among 7 places, some paid, plus values, a budget and dead ends."""
    n = draw(st.integers(0, 8))
    routes = []
    for rid in range(1, n + 1):
        a, b = draw(st.lists(st.sampled_from(PLACES), min_size=2, max_size=2, unique=True))
        routes.append((rid, a, b, draw(st.booleans())))
    values = {p: draw(st.integers(0, 7)) for p in PLACES}
    cards = draw(st.integers(0, 3))
    dead = draw(st.sets(st.sampled_from("EF"), max_size=1))
    return routes, values, cards, dead


def brute_force(routes, cards, dead):
    """Every trail from S (recursive, independent of the module's search)."""
    out = []

    def walk(here, used, path, spent):
        for rid, a, b, paid in routes:
            if rid in used or here not in (a, b):
                continue
            there = b if here == a else a
            cost = spent + paid
            if there in dead or cost > cards:
                continue
            out.append((tuple(path + [rid]), cost, there))
            walk(there, used | {rid}, path + [rid], cost)

    walk("S", frozenset(), [], 0)
    return out


def visited_of(routes, path):
    here, seen = "S", set()
    by_id = {r[0]: r for r in routes}
    for rid in path:
        _, a, b, _ = by_id[rid]
        here = b if here == a else a
        seen.add(here)
    return frozenset(seen - {"S"})


@settings(max_examples=150, deadline=None)
@given(networks())
def test_journeys_are_the_distinct_sets_with_their_cheapest_trail(net):
    routes, _, cards, dead = net
    trails = brute_force(routes, cards, dead)
    cheapest: dict[frozenset, tuple[int, int]] = {}
    for path, cost, _ in trails:
        key = visited_of(routes, path)
        cheapest[key] = min(cheapest.get(key, (99, 99)), (cost, len(path)))
    found = passenger_journeys(routes, "S", cards, dead)
    assert {j.visited for j in found} == set(cheapest)
    assert len(found) == len(cheapest)
    for j in found:
        assert (j.cards, len(j.path)) == cheapest[j.visited]
        assert visited_of(routes, j.path) == j.visited
        assert len(j.stops) == len(j.path)


@settings(max_examples=150, deadline=None)
@given(networks())
def test_trails_yields_every_trail_once(net):
    routes, _, cards, dead = net
    expected = sorted(path for path, _, _ in brute_force(routes, cards, dead))
    assert sorted(j.path for j in journey_trails(routes, "S", cards, dead)) == expected


@settings(max_examples=150, deadline=None)
@given(networks())
def test_best_journey_is_worth_the_most(net):
    routes, values, cards, dead = net
    found = passenger_journeys(routes, "S", cards, dead)
    best = best_journey(routes, "S", values, cards, dead)
    if not found:
        assert best is None
        return
    top = max(journey_value(j, values) for j in found)
    assert journey_value(best, values) == top
    cheapest = min(j.cards for j in found if journey_value(j, values) == top)
    assert best.cards == cheapest
    greedy = greedy_journey(routes, "S", values, cards, dead)
    assert greedy is None or journey_value(greedy, values) <= top


def test_greedy_walk_can_go_wrong():
    routes = [
        (1, "S", "A", False),
        (2, "S", "B", False),
        (3, "B", "C", False),
        (4, "C", "D", False),
    ]
    values = {"A": 5, "B": 3, "C": 3, "D": 3}
    assert journey_value(greedy_journey(routes, "S", values), values) == 5
    assert journey_value(best_journey(routes, "S", values), values) == 9


def test_the_start_is_never_collected_even_on_return():
    routes = [(1, "S", "A", False), (2, "A", "B", False), (3, "B", "S", False)]
    j = best_journey(routes, "S", {"S": 9, "A": 1, "B": 1})
    assert j.visited == {"A", "B"} and journey_value(j, {"S": 9, "A": 1, "B": 1}) == 2


def test_problems_are_named():
    with pytest.raises(NegativeCardBudgetError):
        passenger_journeys([], "S", cards=-1)
    with pytest.raises(DeadEndStartError):
        passenger_journeys([(1, "S", "A", False)], "S", dead_ends={"S"})
    with pytest.raises(NegativeTokenValueError):
        best_journey([(1, "S", "A", False)], "S", {"A": -1})
    assert issubclass(NegativeTokenValueError, ValueError)
