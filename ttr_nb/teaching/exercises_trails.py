"""Checks for the exercises of lessons 4 to 6: longest trail, Steiner trees, tours.

They work like every exercise check (see :mod:`ttr_nb.teaching.exercises`,
which re-exports them).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable, Sequence

import networkx as nx

from ..algorithms.longest_trail import longest_trail_length
from ..algorithms.tours import tour_in_order
from .checking import (
    CheckResult,
    _call,
    _map,
    _run,
    _Wrong,
    case_rng,
    random_network,
    simple_board_graph,
)

__all__ = ["check_longest_trail", "check_steiner", "check_tour"]


# ------------------------------------------------------------- lesson 4
def _trail_cases() -> list[tuple[str, list[tuple[str, str, int]]]]:
    cases = [
        ("no routes", []),
        ("one route A–B of length 3", [("A", "B", 3)]),
        ("a star: X–A 3, X–B 4, X–C 5", [("X", "A", 3), ("X", "B", 4), ("X", "C", 5)]),
        ("a triangle with a tail", [("A", "B", 1), ("B", "C", 1), ("C", "A", 1), ("C", "D", 4)]),
        (
            "a figure eight",
            [
                ("A", "B", 1),
                ("B", "C", 1),
                ("C", "A", 1),
                ("A", "D", 2),
                ("D", "E", 2),
                ("E", "A", 2),
            ],
        ),
        ("two separate pieces", [("A", "B", 2), ("C", "D", 1), ("D", "E", 1), ("E", "F", 1)]),
        (
            "a loop and a separate route",
            [("A", "B", 5), ("B", "C", 5), ("C", "A", 5), ("D", "E", 1)],
        ),
        # Parallel routes (both tracks of a double route) are separate routes: a trail may
        # use both.  A search that marks routes used by their two ends merges them.
        ("two parallel routes A–B of lengths 2 and 3", [("A", "B", 2), ("A", "B", 3)]),
        (
            "a triangle with one side doubled",
            [("A", "B", 1), ("A", "B", 2), ("B", "C", 1), ("C", "A", 1)],
        ),
        (
            "a double route with a tail at each end",
            [("A", "B", 2), ("A", "B", 3), ("A", "C", 4), ("B", "D", 1)],
        ),
        (
            "a square with both diagonals",
            [
                ("A", "B", 1),
                ("B", "C", 1),
                ("C", "D", 1),
                ("D", "A", 1),
                ("A", "C", 2),
                ("B", "D", 2),
            ],
        ),
    ]
    rng = case_rng(5)
    for name in ("usa", "germany", "world"):
        game_map = _map(name)
        for size in (6, 9, 12):
            ids = random_network(game_map, rng, size)
            routes = [(r.a, r.b, r.length) for r in (game_map.route_by_id[i] for i in ids)]
            cases.append((f"a made-up {game_map.name} network of {size} routes", routes))
    return cases


def check_longest_trail(longest: Callable[[list[tuple[str, str, int]]], int]) -> CheckResult:
    """Check ``longest(routes)``: the length of the longest trail in a network.

    `routes` is a list of ``(place, place, length)`` tuples.  Two routes may
    join the same places (parallel routes, such as both tracks of a double
    route): they are separate routes, and a trail may use both.  A trail uses
    each route at most once and may pass a place again.  Compared with
    ``ttr_nb.algorithms.longest_trail_length`` on small cases (among them
    parallel routes; at most 12 routes, so a plain exhaustive search is fast
    enough).
    """

    def check(fn: Callable) -> int:
        cases = 0
        for case, routes in _trail_cases():
            got = _call(fn, list(routes), case=f"On {case}")
            want = longest_trail_length(routes)
            if got != want:
                hint = ""
                parallel = len({frozenset(r[:2]) for r in routes}) < len(routes)
                if isinstance(got, (int, float)) and got < want and parallel:
                    hint = (
                        " Two routes between the same cities are separate routes: does your"
                        " search tell them apart (by their index, not by their ends)?"
                    )
                elif isinstance(got, (int, float)) and got < want:
                    hint = " Can a trail pass a city twice?"
                elif isinstance(got, (int, float)) and got > want:
                    hint = " Is a route used twice?"
                raise _Wrong(f"on {case} {routes}: expected {want}, got {got!r}.{hint}")
            cases += 1
        return cases

    return _run(check, longest, "finds the longest trail")


# ------------------------------------------------------------- lesson 5
def _steiner_exact(graph: nx.Graph, terminals: Sequence[Hashable]) -> float:
    """Minimum Steiner tree weight by brute force over the other places (small graphs)."""
    terms = set(terminals)
    others = [v for v in graph if v not in terms]
    best = math.inf
    for k in range(len(others) + 1):
        for extra in itertools.combinations(others, k):
            sub = graph.subgraph(terms | set(extra))
            if nx.is_connected(sub):
                weight = sum(d["weight"] for *_, d in nx.minimum_spanning_edges(sub, data=True))
                best = min(best, weight)
    return best


def _steiner_cases() -> list[tuple[str, nx.Graph, list[str]]]:
    star = nx.Graph()
    star.add_weighted_edges_from(
        [("A", "B", 3), ("B", "C", 3), ("C", "A", 3), ("X", "A", 2), ("X", "B", 2), ("X", "C", 2)]
    )
    path = nx.Graph()
    path.add_weighted_edges_from([("A", "B", 1), ("B", "C", 1), ("C", "D", 1), ("A", "D", 5)])
    cases = [
        ("a triangle A, B, C (sides 3) with a centre X (spokes 2)", star, ["A", "B", "C"]),
        ("the same, joining only A and B", star, ["A", "B"]),
        ("a path A–B–C–D with a long edge A–D", path, ["A", "D"]),
    ]
    rng = case_rng(9)
    for name in ("usa", "germany"):
        game_map = _map(name)
        full = simple_board_graph(game_map)
        full.remove_nodes_from(list(game_map.dead_ends))
        for k in range(3):
            centre = rng.choice(sorted(full))
            ball = sorted(nx.single_source_shortest_path_length(full, centre, cutoff=2))[:11]
            if centre not in ball:  # (eleven places in name order may leave the centre out)
                ball[-1] = centre
            sub = nx.Graph(full.subgraph(ball))
            if not nx.is_connected(sub):
                sub = nx.Graph(sub.subgraph(nx.node_connected_component(sub, centre)))
            terminals = rng.sample(sorted(sub), min(3 + k % 2, len(sub)))
            cases.append(
                (f"a piece of the {game_map.name} board around {centre!r}", sub, terminals)
            )
    return cases


def check_steiner(steiner_weight: Callable[[nx.Graph, list[str]], float]) -> CheckResult:
    """Check ``steiner_weight(graph, terminals)``: the least total weight joining the terminals.

    `graph` is a small connected ``networkx.Graph`` with ``weight`` on its
    edges; `terminals` lists the places to join.  The answer is the exact
    minimum (other places may be used as Steiner points).
    """

    def check(fn: Callable) -> int:
        cases = 0
        for case, graph, terminals in _steiner_cases():
            want = _steiner_exact(graph, terminals)
            got = _call(fn, graph.copy(), list(terminals), case=f"On {case}")
            if got != want:
                hint = ""
                if isinstance(got, (int, float)) and got > want:
                    hint = " Did you try adding places that are not terminals?"
                elif isinstance(got, (int, float)):
                    hint = " Are all the terminals joined?"
                raise _Wrong(
                    f"on {case}, terminals {terminals}: expected {want}, got {got!r}.{hint}"
                )
            cases += 1
        return cases

    return _run(check, steiner_weight, "finds the minimum Steiner tree weight")


# ------------------------------------------------------------- lesson 6
def _tour_cases() -> list[tuple[str, list[tuple[str, str]], list[str]]]:
    cases = [
        ("a line A–B–C, tour A, B, C", [("A", "B"), ("B", "C")], ["A", "B", "C"]),
        ("a line A–B–C, tour A, C, B", [("A", "B"), ("B", "C")], ["A", "C", "B"]),
        (
            "a star X–A, X–B, X–C, tour A, B, C",
            [("X", "A"), ("X", "B"), ("X", "C")],
            ["A", "B", "C"],
        ),
        (
            "a triangle A–B–C, tour A, B, C, A",
            [("A", "B"), ("B", "C"), ("C", "A")],
            ["A", "B", "C", "A"],
        ),
        (
            "a triangle A–B–C, tour A, B, A, B",
            [("A", "B"), ("B", "C"), ("C", "A")],
            ["A", "B", "A", "B"],
        ),
        ("two pieces A–B and C–D, tour A, B, C", [("A", "B"), ("C", "D")], ["A", "B", "C"]),
    ]
    # Traps for planning one leg at a time: the first leg must take its longer
    # way, or it uses up the route the next leg needs.  Each is given in two
    # route orders and with the short way's middle city named before and after
    # the others, so that no fixed order of trying routes passes by luck.
    trap = [("A", "X"), ("X", "B"), ("A", "P"), ("P", "Q"), ("Q", "B"), ("X", "C")]
    early = [tuple("D" if p == "X" else p for p in route) for route in trap]
    for label, routes in (("X", trap), ("D", early)):
        middle = "–".join(routes[0])
        text = f"a short way {middle}–B, a long way A–P–Q–B, and {label}–C; tour A, B, C"
        cases.append((text, routes, ["A", "B", "C"]))
        cases.append((text + " (routes listed backwards)", routes[::-1], ["A", "B", "C"]))
    world_traps = [
        (
            [
                ("lagos", "luanda"),
                ("cape-town", "luanda"),
                ("luanda", "rio-de-janeiro"),
                ("buenos-aires", "rio-de-janeiro"),
                ("caracas", "rio-de-janeiro"),
                ("buenos-aires", "cape-town"),
            ],
            ["luanda", "buenos-aires", "rio-de-janeiro"],
        ),
        (
            [
                ("buenos-aires", "cape-town"),
                ("buenos-aires", "rio-de-janeiro"),
                ("antarctic-point", "cape-town"),
                ("buenos-aires", "valparaiso"),
                ("lima", "valparaiso"),
                ("lima", "sydney"),
                ("honolulu", "lima"),
                ("christchurch", "valparaiso"),
                ("cape-town", "rio-de-janeiro"),
                ("christchurch", "sydney"),
                ("caracas", "rio-de-janeiro"),
                ("caracas", "lima"),
            ],
            ["christchurch", "lima", "sydney"],
        ),
        (
            [
                ("los-angeles", "new-york"),
                ("edinburgh", "new-york"),
                ("los-angeles", "mexico"),
                ("miami", "new-york"),
                ("caracas", "miami"),
                ("caracas", "mexico"),
                ("edinburgh", "hamburg"),
                ("caracas", "lima"),
                ("athina", "hamburg"),
            ],
            ["miami", "mexico", "los-angeles"],
        ),
    ]
    for routes, cities in world_traps:
        size = len(routes)
        cases.append((f"a made-up World network of {size} routes", routes, cities))
        cases.append((f"a made-up World network of {size} routes", routes[::-1], cities))
    rng = case_rng(13)
    game_map = _map("world")
    for size in (6, 9, 12, 15):
        for _ in range(3):
            ids = random_network(game_map, rng, size)
            routes = [game_map.route_by_id[i].ends for i in ids]
            places = sorted({p for r in routes for p in r})
            cities = rng.sample(places, min(len(places), rng.choice((3, 4))))
            cases.append((f"a made-up World network of {size} routes", routes, cities))
    return cases


def check_tour(tour_ok: Callable[[list[tuple[str, str]], list[str]], bool]) -> CheckResult:
    """Check ``tour_ok(routes, cities)``: does a trail visit the cities in this order?

    `routes` is a list of ``(place, place)`` pairs (a player's network: never
    two routes between the same places); `cities` lists the tour's cities in
    order.  A trail uses each route at most once and may pass any city again.
    Compared with ``ttr_nb.algorithms.tours.tour_in_order``, on small traps
    (among them networks where planning one leg at a time fails) and on
    made-up World networks.
    """

    def check(fn: Callable) -> int:
        cases = 0
        for case, routes, cities in _tour_cases():
            got = _call(fn, list(routes), list(cities), case=f"On {case}")
            want = tour_in_order(routes, cities)
            if not isinstance(got, bool):
                raise _Wrong(f"on {case}: expected True or False, got {got!r}.")
            if got != want:
                hint = (
                    " Is a route used twice?"
                    if got
                    else " Can your trail pass a city twice? If you plan one leg at a time,"
                    " an early leg may take a route that a later leg needs: try the other"
                    " ways too."
                )
                raise _Wrong(
                    f"on {case} (routes {routes}, cities {cities}): expected {want}, got {got}."
                    + hint
                )
            cases += 1
        return cases

    return _run(check, tour_ok, "decides tours in order")
