"""The Steiner forest planner: exact answers checked by brute force, the approximation
checked for validity and against the exact answer."""

from __future__ import annotations

import itertools
import random

import pytest

from ttr_nb import load_map
from ttr_nb.algorithms import (
    NegativeRouteLengthError,
    plan_ticket,
    steiner_forest,
    ticket_completed,
)


def _joins(board, chosen, owned, demands, dead) -> bool:
    routes = [(r[1], r[2]) for r in board if r[0] in owned or r[0] in chosen]
    return all(
        ticket_completed(routes, d[0], end, dead_ends=dead) for d in demands for end in d[1:]
    )


def _brute(board, demands, owned, unavailable, dead) -> int | None:
    """Fewest spaces over every set of usable routes (tiny boards only)."""
    free = [r for r in board if r[0] not in owned and r[0] not in unavailable]
    for spaces in range(sum(r[3] for r in free) + 1):
        for k in range(len(free) + 1):
            for combo in itertools.combinations(free, k):
                if sum(r[3] for r in combo) == spaces and _joins(
                    board, {r[0] for r in combo}, owned, demands, dead
                ):
                    return spaces
    return None


def _random_case(rng: random.Random):
    places = [f"p{i}" for i in range(rng.randint(4, 6))]
    dead = set(rng.sample(places, rng.randint(0, 2)))
    board = [(rid, *rng.sample(places, 2), rng.randint(1, 5)) for rid in range(rng.randint(4, 7))]
    owned = set(rng.sample(range(len(board)), rng.randint(0, 2)))
    unavailable = set(rng.sample(range(len(board)), rng.randint(0, 2))) - owned
    demands = []
    for _ in range(rng.randint(1, 3)):
        ends = rng.sample(places, 3 if rng.random() < 0.2 else 2)
        if dead and rng.random() < 0.2:
            ends[1] = frozenset(dead)  # "any of these": a country's spaces
        demands.append(tuple(ends))
    return board, demands, owned, unavailable, dead


def test_exact_forest_matches_brute_force_and_greedy_is_valid() -> None:
    rng = random.Random(7)
    for _ in range(60):
        board, demands, owned, unavailable, dead = _random_case(rng)
        kwargs = {"owned": owned, "unavailable": unavailable, "dead_ends": dead}
        exact = steiner_forest(board, demands, **kwargs)
        greedy = steiner_forest(board, demands, max_exact_work=0, **kwargs)
        reachable = [d for i, d in enumerate(demands) if i not in exact.unreachable]
        assert exact.exact and not greedy.exact
        assert exact.spaces == _brute(board, reachable, owned, unavailable, dead)
        for forest in (exact, greedy):
            assert _joins(board, set(forest.route_ids), owned, reachable, dead)
            assert not set(forest.route_ids) & (owned | unavailable)
            assert forest.spaces == sum(r[3] for r in board if r[0] in forest.route_ids)
        assert greedy.lower_bound <= exact.spaces <= greedy.spaces
        assert greedy.unreachable == exact.unreachable


def test_shared_routes_make_one_tree_and_separate_tickets_two() -> None:
    board = [(1, "A", "B", 2), (2, "B", "C", 3), (3, "C", "D", 2), (4, "X", "Y", 1)]
    forest = steiner_forest(board, [("A", "C"), ("B", "D"), ("X", "Y")])
    assert forest.spaces == 8 and forest.route_ids == (1, 2, 3, 4)
    assert sorted(map(sorted, forest.groups)) == [[0, 1], [2]]
    assert forest.demand_routes[2] == (4,)
    # Planned one by one, the two tickets of the line would count route 2 twice.
    alone = sum(plan_ticket(board, *d).spaces for d in [("A", "C"), ("B", "D")])
    assert alone == 10 and forest.subset_spaces[frozenset({0, 1})] == 7


def test_dead_ends_are_never_passed_through() -> None:
    # DK is a country space: A-DK-B is no line from A to B, but A reaches the country.
    board = [(1, "A", "DK", 1), (2, "DK", "B", 1), (3, "A", "B", 6)]
    forest = steiner_forest(board, [("A", "B"), ("A", {"DK"})], dead_ends={"DK"})
    assert forest.route_ids == (1, 3) and forest.spaces == 7


def test_completed_and_unreachable_tickets_are_named() -> None:
    board = [(1, "A", "B", 2), (2, "C", "D", 1)]
    forest = steiner_forest(board, [("A", "B"), ("A", "C"), ("C", "D")], owned=[1])
    assert forest.completed == (0,) and forest.unreachable == (1,)
    assert forest.route_ids == (2,)


def test_a_tour_joins_all_its_places() -> None:
    board = [(1, "A", "B", 1), (2, "B", "C", 1), (3, "C", "D", 1), (4, "A", "D", 5)]
    forest = steiner_forest(board, [("A", "C", "D")])
    assert forest.route_ids == (1, 2, 3) and forest.spaces == 3


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="at least two places"):
        steiner_forest([(1, "A", "B", 1)], [("A",)])
    with pytest.raises(ValueError, match="names no place"):
        steiner_forest([(1, "A", "B", 1)], [("A", frozenset())])
    with pytest.raises(NegativeRouteLengthError):
        steiner_forest([(1, "A", "B", -1)], [("A", "B")])


@pytest.mark.parametrize("name", ["usa", "germany", "world"])
def test_real_boards_exact_beats_or_ties_the_greedy_plan(name: str) -> None:
    game_map = load_map(name)
    board = [(r.id, r.a, r.b, r.length) for r in game_map.routes]
    rng = random.Random(3)
    for _ in range(4):
        tickets = rng.sample([t for t in game_map.tickets if len(t.cities) == 2], 3)
        demands = [
            tuple(game_map.targets(c) if c in game_map.country_by_id else c for c in t.cities)
            for t in tickets
        ]
        exact = steiner_forest(board, demands, dead_ends=game_map.dead_ends)
        greedy = steiner_forest(board, demands, dead_ends=game_map.dead_ends, max_exact_work=0)
        assert exact.exact
        assert greedy.lower_bound <= exact.spaces <= greedy.spaces
        separate = sum(plan_ticket(board, *d, dead_ends=game_map.dead_ends).spaces for d in demands)
        assert exact.spaces <= separate


def test_needs_are_each_tickets_own_paths_and_many_tickets_stay_valid() -> None:
    line = [(i, f"p{i}", f"p{i + 1}", 1) for i in range(20)]
    forest = steiner_forest(line, [("p0", "p3"), ("p2", "p5")])
    assert forest.needs[0] == (0, 1, 2) and forest.needs[1] == (2, 3, 4)
    # More tickets than the greedy rounds allow: joined once each, still a valid forest.
    demands = [(f"p{i}", f"p{i + 3}") for i in range(0, 17)]
    many = steiner_forest(line, demands, max_exact_work=0)
    assert many.route_ids == tuple(range(19)) and many.lower_bound == 3
