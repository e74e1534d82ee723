"""Tests for ttr_nb.algorithms: connectivity, longest trail, ticket planning."""

import dataclasses
import importlib
import random
from collections import Counter

import networkx as nx
import pytest

from ttr_nb.algorithms import (
    NegativeRouteLengthError,
    TicketPlan,
    TicketUnreachableError,
    connected_places,
    longest_trail,
    longest_trail_length,
    plan_ticket,
    route_graph,
    spaces_to_connect,
    ticket_completed,
)

# The package re-exports the function longest_trail, which hides the module's name.
lt_module = importlib.import_module("ttr_nb.algorithms.longest_trail")
DENMARK = frozenset({"DK1", "DK2"})


# -- references ----------------------------------------------------------------


def brute_longest(routes):
    """Longest trail by plain DFS from every city over every order of routes."""
    adj = {}
    for i, (a, b, _) in enumerate(routes):
        adj.setdefault(a, []).append((b, i))
        adj.setdefault(b, []).append((a, i))
    used = [False] * len(routes)
    best = 0

    def dfs(city, total):
        nonlocal best
        best = max(best, total)
        for nxt, i in adj[city]:
            if not used[i]:
                used[i] = True
                dfs(nxt, total + routes[i][2])
                used[i] = False

    for city in adj:
        dfs(city, 0)
    return best


def memo_longest(routes):
    """Longest trail by DP over (city, routes used), with no reductions."""
    adj = {}
    for i, (a, b, w) in enumerate(routes):
        adj.setdefault(a, []).append((b, 1 << i, w))
        adj.setdefault(b, []).append((a, 1 << i, w))
    memo = {}

    def extend(city, used):
        key = (city, used)
        if key not in memo:
            memo[key] = max(
                [w + extend(nxt, used | bit) for nxt, bit, w in adj[city] if not used & bit],
                default=0,
            )
        return memo[key]

    return max((extend(city, 0) for city in adj), default=0)


def is_trail(trail, routes):
    """True if `trail` uses input routes at most once each, end to end."""
    if Counter(trail) - Counter(routes):
        return False
    if not trail:
        return True
    for here in trail[0][:2]:
        for route in trail:
            if route[0] == here:
                here = route[1]
            elif route[1] == here:
                here = route[0]
            else:
                break
        else:
            return True
    return False


def random_multigraph(rng, cities, routes):
    """Small random multigraph: parallel routes, cycles, several components."""
    names = [f"c{i}" for i in range(cities)]
    out = []
    for _ in range(routes):
        a, b = rng.choice(names), rng.choice(names)
        if a == b and rng.random() < 0.9:  # a few loops at one city, mostly not
            continue
        out.append((a, b, rng.randint(1, 6)))
        if rng.random() < 0.15:  # a double route
            out.append((a, b, rng.randint(1, 6)))
    return out


def grown_network(rng, size):
    """A player's network: random connected-ish routes on a grid-like board."""
    board = []
    for x in range(7):
        for y in range(5):
            if x < 6:
                board.append((f"{x},{y}", f"{x + 1},{y}", rng.randint(1, 6)))
            if y < 4:
                board.append((f"{x},{y}", f"{x},{y + 1}", rng.randint(1, 6)))
            if x < 6 and y < 4 and rng.random() < 0.3:
                board.append((f"{x},{y}", f"{x + 1},{y + 1}", rng.randint(1, 6)))
    rng.shuffle(board)
    chosen = [board.pop()]
    cities = set(chosen[0][:2])
    while len(chosen) < size:
        near = [r for r in board if r[0] in cities or r[1] in cities]
        route = rng.choice(near if near and rng.random() < 0.9 else board)
        board.remove(route)
        chosen.append(route)
        cities.update(route[:2])
    return chosen


# -- connectivity ----------------------------------------------------------------


def test_ticket_to_a_country_reaches_any_border_space():
    routes = [("Berlin", "Hamburg"), ("Hamburg", "DK2")]
    assert ticket_completed(routes, "Berlin", DENMARK, dead_ends=DENMARK)
    assert ticket_completed(routes, DENMARK, "Berlin", dead_ends=DENMARK)


def test_two_border_spaces_of_one_country_never_join_the_cities_behind():
    routes = [("Berlin", "DK1"), ("DK2", "Kiel")]
    assert not ticket_completed(routes, "Berlin", "Kiel", dead_ends=DENMARK)
    # Even two routes meeting at one border space do not join.
    routes = [("Berlin", "DK1"), ("DK1", "Kiel")]
    assert not ticket_completed(routes, "Berlin", "Kiel", dead_ends=DENMARK)
    assert ticket_completed(routes, "Berlin", "Kiel")  # without dead ends they would


def test_ticket_from_a_dead_end_itself_works():
    routes = [("DK1", "Kiel"), ("Kiel", "Berlin")]
    assert ticket_completed(routes, "DK1", "Berlin", dead_ends=DENMARK)
    assert ticket_completed(routes, DENMARK, "Berlin", dead_ends=DENMARK)


def test_parallel_duplicates_and_extra_items_are_fine():
    routes = [("A", "B", 2, "red"), ("A", "B", 2, "blue"), ("B", "C", 1, "green")]
    assert ticket_completed(routes, "A", "C")
    assert not ticket_completed(routes, "A", "Z")
    assert connected_places(routes, "C") == {"A", "B", "C"}


def test_connected_places_stops_at_dead_ends():
    routes = [("München", "AT1"), ("AT1", "Zürich"), ("München", "Berlin")]
    assert connected_places(routes, "München", dead_ends={"AT1"}) == {"München", "AT1", "Berlin"}
    assert connected_places(routes, "Nowhere") == {"Nowhere"}


def test_empty_alternatives_are_an_error():
    with pytest.raises(ValueError, match="names no place"):
        ticket_completed([("A", "B")], "A", set())


def test_route_graph_keeps_parallel_routes():
    graph = route_graph([("A", "B", 2), ("A", "B", 3), ("B", "C")])
    assert isinstance(graph, nx.MultiGraph)
    assert graph.number_of_edges("A", "B") == 2
    assert sorted(d["length"] for _, _, d in graph.edges("A", data=True)) == [2, 3]
    assert "length" not in graph.edges["B", "C", 2]


def test_connectivity_agrees_with_networkx_without_dead_ends():
    rng = random.Random(4)
    for _ in range(200):
        routes = random_multigraph(rng, 8, rng.randint(0, 10))
        graph = route_graph(routes)
        for a in graph:
            assert connected_places(routes, a) == nx.node_connected_component(graph, a)


# -- longest trail -------------------------------------------------------------


def test_parallel_routes_count_separately():
    assert longest_trail_length([("A", "B", 2), ("A", "B", 3)]) == 5
    assert longest_trail_length([("A", "B", 2), ("A", "B", 3), ("A", "B", 4)]) == 9


def test_figure_eight_revisits_its_middle_city():
    eight = [
        ("A", "B", 1),
        ("B", "C", 1),
        ("C", "A", 1),
        ("A", "D", 2),
        ("D", "E", 2),
        ("E", "A", 2),
        ("E", "F", 4),
    ]
    assert longest_trail_length(eight) == 13
    trail = longest_trail(eight)
    assert is_trail(trail, eight)
    assert sum(r[2] for r in trail) == 13
    assert len(trail) == len(eight)


def test_star_uses_its_two_longest_arms():
    star = [("X", "A", 3), ("X", "B", 4), ("X", "C", 5), ("C", "D", 1)]
    assert longest_trail_length(star) == 10
    assert longest_trail(star) == [("X", "B", 4), ("X", "C", 5), ("C", "D", 1)]


def test_best_component_wins():
    routes = [("A", "B", 1), ("B", "C", 1), ("P", "Q", 6), ("X", "Y", 2)]
    assert longest_trail_length(routes) == 6
    assert longest_trail(routes) == [("P", "Q", 6)]


def test_empty_network():
    assert longest_trail_length([]) == 0
    assert longest_trail([]) == []


def test_longest_trail_returns_the_input_tuples():
    routes = [("A", "B", 2, 101), ("B", "C", 3, 102), ("B", "D", 1, 103)]
    trail = longest_trail(iter(routes))
    assert sorted(r[3] for r in trail) == [101, 102]
    assert all(any(r is given for given in routes) for r in trail)


def test_negative_length_is_an_error():
    with pytest.raises(NegativeRouteLengthError):
        longest_trail_length([("A", "B", -1)])
    assert issubclass(NegativeRouteLengthError, ValueError)


@pytest.mark.parametrize("small_core", [lt_module._SMALL_CORE, 0])
def test_longest_trail_matches_brute_force(monkeypatch, small_core):
    # small_core=0 runs the parity bounds even on the smallest cores.
    monkeypatch.setattr(lt_module, "_SMALL_CORE", small_core)
    rng = random.Random(2024 + small_core)
    for _ in range(1500):
        routes = random_multigraph(rng, rng.randint(2, 7), rng.randint(0, 7))
        expected = brute_longest(routes)
        assert longest_trail_length(routes) == expected, routes
        trail = longest_trail(routes)
        assert is_trail(trail, routes), (routes, trail)
        assert sum(r[2] for r in trail) == expected, (routes, trail)


@pytest.mark.parametrize("small_core", [lt_module._SMALL_CORE, 0])
def test_longest_trail_matches_exact_dp_on_bigger_networks(monkeypatch, small_core):
    monkeypatch.setattr(lt_module, "_SMALL_CORE", small_core)
    rng = random.Random(7 + small_core)
    networks = [random_multigraph(rng, rng.randint(4, 9), rng.randint(8, 11)) for _ in range(150)]
    networks += [grown_network(rng, rng.randint(10, 14)) for _ in range(25)]
    for routes in networks:
        expected = memo_longest(routes)
        assert longest_trail_length(routes) == expected, routes
        trail = longest_trail(routes)
        assert is_trail(trail, routes), (routes, trail)
        assert sum(r[2] for r in trail) == expected, (routes, trail)


# -- ticket planning -----------------------------------------------------------

BOARD = [
    (1, "Paris", "Bruxelles", 2),
    (2, "Paris", "Bruxelles", 2),
    (3, "Bruxelles", "Amsterdam", 1),
    (4, "Paris", "Frankfurt", 5),
    (5, "Frankfurt", "Amsterdam", 2),
    (6, "Bruxelles", "Frankfurt", 2),
]


def test_plan_takes_the_cheapest_path():
    plan = plan_ticket(BOARD, "Paris", "Amsterdam")
    assert plan == TicketPlan(3, (1, 3), ("Paris", "Bruxelles", "Amsterdam"))


def test_owned_routes_are_free_and_preferred_among_parallels():
    plan = plan_ticket(BOARD, "Paris", "Amsterdam", owned={2})
    assert plan.spaces == 1
    assert plan.route_ids == (2, 3)
    assert spaces_to_connect(BOARD, "Paris", "Frankfurt", owned={4}) == 0
    assert spaces_to_connect(BOARD, "Paris", "Amsterdam", owned={1, 3}) == 0


def test_taken_routes_are_avoided():
    plan = plan_ticket(BOARD, "Paris", "Amsterdam", unavailable={1, 2})
    assert plan.route_ids == (4, 5)
    assert plan.spaces == 7
    # Only one of a double route taken: the other still serves.
    assert plan_ticket(BOARD, "Paris", "Amsterdam", unavailable={1}).route_ids == (2, 3)
    # A route both owned and listed as unavailable is the player's own.
    assert plan_ticket(BOARD, "Paris", "Bruxelles", owned={1}, unavailable={1, 2}).spaces == 0


def test_unreachable_ticket_raises_a_networkx_no_path():
    with pytest.raises(TicketUnreachableError, match="'Paris'.*'Amsterdam'"):
        plan_ticket(BOARD, "Paris", "Amsterdam", unavailable={1, 2, 4})
    with pytest.raises(nx.NetworkXNoPath):
        spaces_to_connect(BOARD, "Paris", "Nowhere")
    assert issubclass(TicketUnreachableError, nx.NetworkXNoPath)


def test_plan_never_passes_through_a_border_space():
    board = [(1, "Berlin", "DK1", 1), (2, "DK1", "Kiel", 1), (3, "Berlin", "Kiel", 6)]
    plan = plan_ticket(board, "Berlin", "Kiel", dead_ends=DENMARK)
    assert plan.route_ids == (3,)
    assert plan_ticket(board, "Berlin", "Kiel").route_ids == (1, 2)


def test_plan_to_a_country_picks_the_nearest_border_space():
    board = [
        (1, "Kiel", "DK1", 3),
        (2, "Kiel", "Hamburg", 1),
        (3, "Hamburg", "DK2", 1),
        (4, "DK1", "DK2", 1),  # a route between border spaces is no shortcut
        (5, "Berlin", "DK1", 1),
    ]
    plan = plan_ticket(board, "Berlin", DENMARK, dead_ends=DENMARK)
    assert plan == TicketPlan(1, (5,), ("Berlin", "DK1"))
    plan = plan_ticket(board, DENMARK, "Berlin", dead_ends=DENMARK)
    assert plan.places == ("DK1", "Berlin")
    # Berlin's only route ends in a border space, so Kiel cannot get through.
    with pytest.raises(TicketUnreachableError):
        plan_ticket(board, "Kiel", "Berlin", dead_ends=DENMARK)
    assert plan_ticket(board, "Kiel", "Berlin").spaces == 4
    with pytest.raises(TicketUnreachableError, match="'Kiel' and any of 'DK1', 'DK2'"):
        plan_ticket(board, "Kiel", DENMARK, dead_ends=DENMARK, unavailable={1, 2})


def test_plan_result_is_frozen():
    plan = plan_ticket(BOARD, "Paris", "Paris")
    assert plan == TicketPlan(0, (), ("Paris",))
    with pytest.raises(dataclasses.FrozenInstanceError):
        plan.spaces = 3


def test_astar_with_a_zero_heuristic_equals_dijkstra():
    rng = random.Random(11)
    for _ in range(60):
        board = [(i, *r) for i, r in enumerate(random_multigraph(rng, 9, 16)) if r[0] != r[1]]
        owned = {i for i, *_ in board if rng.random() < 0.2}
        taken = {i for i, *_ in board if rng.random() < 0.2}
        a, b = f"c{rng.randrange(9)}", {f"c{rng.randrange(9)}", f"c{rng.randrange(9)}"}
        kwargs = {"owned": owned, "unavailable": taken, "dead_ends": {"c8"}}
        try:
            dijkstra = plan_ticket(board, a, b, **kwargs)
        except TicketUnreachableError:
            with pytest.raises(TicketUnreachableError):
                plan_ticket(board, a, b, heuristic=lambda u, v: 0, **kwargs)
            continue
        astar = plan_ticket(board, a, b, heuristic=lambda u, v: 0, **kwargs)
        assert astar.spaces == dijkstra.spaces
        assert astar.places[0] == a and astar.places[-1] in b
        assert "c8" not in astar.places[1:-1]


def test_astar_with_an_admissible_heuristic_on_a_grid():
    rng = random.Random(5)
    board, n = [], 0
    for x in range(6):
        for y in range(6):
            for dx, dy in ((1, 0), (0, 1)):
                if x + dx < 6 and y + dy < 6:
                    n += 1
                    board.append((n, (x, y), (x + dx, y + dy), rng.randint(1, 6)))

    def manhattan(u, v):  # every route is at least one space long
        return abs(u[0] - v[0]) + abs(u[1] - v[1])

    for _ in range(30):
        a, b = (rng.randrange(6), rng.randrange(6)), (rng.randrange(6), rng.randrange(6))
        astar = plan_ticket(board, [a], [b], heuristic=manhattan)
        assert astar.spaces == plan_ticket(board, [a], [b]).spaces


# -- union-find (issue 52: one UnionFind, used everywhere) ----------------------------


def test_union_find_agrees_with_networkx_components_on_random_boards():
    from ttr_nb.algorithms import UnionFind

    rng = random.Random(52)
    for _ in range(200):
        places = list(range(rng.randint(1, 15)))
        routes = [
            tuple(rng.sample(places, 2)) for _ in range(rng.randint(0, 20)) if len(places) > 1
        ]
        pieces = UnionFind(places)
        graph = nx.Graph()
        graph.add_nodes_from(places)
        for a, b in routes:
            joined = pieces.union(a, b)
            assert joined != nx.has_path(graph, a, b)  # False exactly when it closes a cycle
            graph.add_edge(a, b)
        want = sorted(sorted(c) for c in nx.connected_components(graph))
        assert sorted(sorted(s) for s in pieces.sets()) == want
        assert pieces.count() == len(want) and len(pieces) == len(places)
        for a in places:
            for b in places:
                assert pieces.connected(a, b) == nx.has_path(graph, a, b)


def test_union_find_root_is_the_second_sets_root_and_copies_are_independent():
    from ttr_nb.algorithms import UnionFind

    pieces = UnionFind()
    pieces.union("a", "b")
    pieces.union("c", "d")
    pieces.union("a", "c")  # a's tree hangs under c's root, d
    assert {pieces.find(x) for x in "abcd"} == {"d"}
    trial = pieces.copy()
    trial.union("a", "e")
    assert trial.connected("d", "e") and not pieces.connected("d", "e")
    assert "e" not in pieces and list(trial) == ["a", "b", "c", "d", "e"]


def _walks_up(function) -> bool:
    """Whether a function loops or calls itself: how a union-find's find climbs its tree."""
    import ast

    for node in ast.walk(function):
        if isinstance(node, ast.While | ast.For):
            return True
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == function.name
        ):
            return True
    return False


def test_no_module_writes_its_own_union_find():
    """Every union-find of the package is ``ttr_nb.algorithms.UnionFind`` (the lessons'
    model solutions, which students compare with their own, keep theirs)."""
    import ast
    from pathlib import Path

    package = Path(__file__).resolve().parent.parent / "ttr_nb"
    allowed = {package / "algorithms" / "union_find.py", package / "teaching" / "solutions.py"}
    found = []
    for path in sorted(package.rglob("*.py")):
        if path in allowed:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.name.lstrip("_") == "Components":
                found.append(f"{path.relative_to(package)}:{node.lineno} {node.name}")
            # A union-find's find walks up its parents (a loop or a call of itself); other
            # functions named find (a tutorial step's, the table service's) do not.
            if (
                isinstance(node, ast.FunctionDef)
                and node.name.lstrip("_") in {"find", "union"}
                and _walks_up(node)
            ):
                found.append(f"{path.relative_to(package)}:{node.lineno} {node.name}")
            if (
                isinstance(node, ast.ImportFrom)
                and node.module == "networkx.utils"
                and any(alias.name == "UnionFind" for alias in node.names)
            ):
                found.append(f"{path.relative_to(package)}:{node.lineno} networkx UnionFind")
    assert found == []
