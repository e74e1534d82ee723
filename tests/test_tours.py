"""Tour tickets: connected in any order, and a trail visiting the cities in order."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from ttr_nb.algorithms.tours import tour_connected, tour_in_order, tour_trail


def _visits_in_order(walk: list, cities: list) -> bool:
    """Whether `cities` is a subsequence of the places of `walk`."""
    it = iter(walk)
    return all(any(place == city for place in it) for city in cities)


def _brute_force(routes: list[tuple], cities: list) -> bool:
    """Try every trail (every route sequence without repeats): tiny graphs only."""
    places = {p for r in routes for p in r[:2]}
    if any(c not in places for c in cities):
        return False

    def walk(place, used: frozenset, seen: list) -> bool:
        if _visits_in_order(seen, cities):
            return True
        for i, (a, b, *_) in enumerate(routes):
            if i in used or place not in (a, b):
                continue
            nxt = b if place == a else a
            if walk(nxt, used | {i}, seen + [nxt]):
                return True
        return False

    return any(walk(p, frozenset(), [p]) for p in places)


def _is_trail_in_order(trail: list[tuple], routes: list[tuple], cities: list) -> bool:
    """Check a witness: distinct input routes, consecutive, passing the cities in order."""
    left = Counter(routes)
    left.subtract(trail)
    assert min(left.values(), default=0) >= 0, "a route is used more often than it is owned"
    if not trail:
        return len(set(cities)) == 1
    first = trail[0]
    starts = [first[0], first[1]]
    for start in starts:
        place, seen, ok = start, [start], True
        for a, b, *_ in trail:
            if place == a:
                place = b
            elif place == b:
                place = a
            else:
                ok = False
                break
            seen.append(place)
        if ok and seen[0] == cities[0] and seen[-1] == cities[-1]:
            return _visits_in_order(seen, cities)
    return False


# ---------------------------------------------------------------- examples
def test_line_order_matters():
    line = [("A", "B", 1), ("B", "C", 1)]
    assert tour_in_order(line, ["A", "B", "C"])
    assert tour_in_order(line, ["C", "B", "A"])
    assert not tour_in_order(line, ["A", "C", "B"])
    assert tour_connected(line, ["A", "C", "B"])


def test_connected_but_no_trail_in_order():
    # A star: every leg passes the centre X, but X-B would be needed twice.
    star = [("X", "A"), ("X", "B"), ("X", "C")]
    assert tour_connected(star, ["A", "B", "C"])
    assert not tour_in_order(star, ["A", "B", "C"])
    assert tour_trail(star, ["A", "B", "C"]) is None


def test_parallel_routes_make_it_possible():
    star = [("X", "A"), ("X", "B"), ("X", "C"), ("X", "B")]
    assert tour_in_order(star, ["A", "B", "C"])
    trail = tour_trail(star, ["A", "B", "C"])
    assert trail is not None and len(trail) == 4
    assert _is_trail_in_order(trail, star, ["A", "B", "C"])


def test_parallel_routes_are_separate_tuples_even_when_equal():
    # Two equal tuples are still two routes (a general multigraph, not a game network).
    routes = [("A", "B", 2), ("A", "B", 2)]
    assert tour_in_order(routes, ["A", "B", "A"])
    assert not tour_in_order(routes[:1], ["A", "B", "A"])
    assert tour_in_order(routes, ["A", "B", "A", "B"]) is False


def test_a_cycle_lets_the_tour_come_back():
    triangle = [("A", "B"), ("B", "C"), ("C", "A")]
    assert tour_in_order(triangle, ["A", "B", "C", "A"])
    assert tour_in_order(triangle, ["B", "A", "C"])
    assert not tour_in_order(triangle, ["A", "B", "A", "B"])


def test_later_city_may_be_passed_early():
    # A, B, C in order: the trail A-C-B-...-C passes C before B is visited.
    routes = [("A", "C"), ("C", "B"), ("B", "D"), ("D", "C")]
    assert tour_in_order(routes, ["A", "B", "C"])


def test_city_off_the_network():
    routes = [("A", "B")]
    assert not tour_in_order(routes, ["A", "Z"])
    assert not tour_connected(routes, ["A", "Z"])
    assert not tour_in_order([], ["A", "B"])
    assert not tour_connected([], ["A", "B"])


def test_two_pieces():
    routes = [("A", "B"), ("C", "D")]
    assert not tour_connected(routes, ["A", "C"])
    assert not tour_in_order(routes, ["A", "C"])
    assert tour_connected(routes, ["A", "B"])


def test_repeated_city_and_loops():
    routes = [("A", "B"), ("B", "B")]
    assert tour_in_order(routes, ["A", "A", "B"])
    assert tour_trail(routes, ["B", "B"]) == []
    assert tour_in_order(routes, ["A", "B"])


def test_errors():
    with pytest.raises(ValueError, match="at least two"):
        tour_in_order([("A", "B")], ["A"])
    with pytest.raises(ValueError, match="at least two"):
        tour_connected([("A", "B")], [])
    with pytest.raises(TypeError, match="single string"):
        tour_in_order([("A", "B")], "AB")
    with pytest.raises(ValueError, match="route is a tuple"):
        tour_in_order([("A",)], ["A", "B"])
    with pytest.raises(ValueError, match="route is a tuple"):
        tour_connected(["AB"], ["A", "B"])


def test_accepts_iterators():
    routes = iter([("A", "B"), ("B", "C")])
    assert tour_in_order(routes, iter(["A", "B", "C"]))


# ------------------------------------------------------------ brute force
@pytest.mark.parametrize("seed", range(60))
def test_matches_brute_force_on_small_multigraphs(seed):
    rng = random.Random(seed)
    places = "ABCDE"[: rng.randint(3, 5)]
    routes = [tuple(rng.sample(places, 2)) + (rng.randint(1, 4),) for _ in range(rng.randint(2, 7))]
    for k in (2, 3, 4):
        for cities in itertools.islice(itertools.product(places, repeat=k), 0, None, 7):
            cities = list(cities)
            if any(x == y for x, y in itertools.pairwise(cities)):
                continue  # consecutive repeats count as one visit: tested above
            expected = _brute_force(routes, cities)
            got = tour_trail(routes, cities)
            assert (got is not None) == expected, (routes, cities)
            if got is not None:
                assert _is_trail_in_order(got, routes, cities), (routes, cities, got)
            assert tour_in_order(routes, cities) == expected
            if expected:
                assert tour_connected(routes, cities)


def test_fast_on_a_full_sized_network():
    # A 6 x 6 grid with doubled rows: 90 routes, far larger than a player's network.
    routes = []
    for r in range(6):
        for c in range(6):
            if c < 5:
                routes += [((r, c), (r, c + 1))] * (2 if r % 2 else 1)
            if r < 5:
                routes.append(((r, c), (r + 1, c)))
    assert tour_in_order(routes, [(0, 0), (5, 5), (0, 5), (5, 0)])
    assert tour_connected(routes, [(0, 0), (5, 5)])
