"""The exercise checks accept correct solutions, reject wrong ones helpfully, and never raise."""

from __future__ import annotations

import heapq
import itertools
import math
from collections import deque

import networkx as nx
import pytest

from ttr_nb import load_map
from ttr_nb.teaching import exercises as ex
from ttr_nb.teaching import solutions


# ------------------------------------------------------------ solutions
def build_graph(game_map):
    graph = nx.MultiGraph()
    graph.add_nodes_from(c.id for c in game_map.cities)
    for r in game_map.routes:
        graph.add_edge(r.a, r.b, key=r.id, length=r.length)
    return graph


def build_simple_graph(game_map):
    graph = nx.Graph()
    graph.add_nodes_from(c.id for c in game_map.cities)
    for r in game_map.routes:
        graph.add_edge(r.a, r.b, length=r.length)
    return graph


def build_without_country_spaces(game_map):
    graph = build_graph(game_map)
    graph.remove_nodes_from([c.id for c in game_map.cities if c.kind == "country_space"])
    return graph


def build_from_routes_only(game_map):
    """Wrong: only the ends of routes become nodes, so a place without routes is lost."""
    graph = nx.MultiGraph()
    for r in game_map.routes:
        graph.add_edge(r.a, r.b, key=r.id, length=r.length)
    return graph


def bfs(graph, start):
    seen, order, queue = {start}, [], deque([start])
    while queue:
        u = queue.popleft()
        order.append(u)
        for v in graph[u]:
            if v not in seen:
                seen.add(v)
                queue.append(v)
    return order


def dfs(graph, start):
    seen, order, stack = set(), [], [start]
    while stack:
        u = stack.pop()
        if u in seen:
            continue
        seen.add(u)
        order.append(u)
        stack.extend(v for v in graph[u] if v not in seen)
    return order


def dfs_marking_on_push(graph, start):
    """A common slip: marking places when pushed gives an order that is not depth-first."""
    seen, order, stack = {start}, [], [start]
    while stack:
        u = stack.pop()
        order.append(u)
        for v in graph[u]:
            if v not in seen:
                seen.add(v)
                stack.append(v)
    return order


def ticket_done(routes, a, b, dead_ends):
    adj = {}
    for x, y in routes:
        adj.setdefault(x, set()).add(y)
        adj.setdefault(y, set()).add(x)
    seen, stack = set(a), list(a)
    while stack:
        u = stack.pop()
        if u in dead_ends and u not in a:
            continue
        for v in adj.get(u, ()):
            if v not in seen:
                seen.add(v)
                stack.append(v)
    return bool(seen & b)


def ticket_ignoring_dead_ends(routes, a, b, dead_ends):
    graph = nx.Graph(routes)
    graph.add_nodes_from(a | b)
    return any(nx.has_path(graph, x, y) for x in a for y in b)


def components(places, routes):
    uf = nx.utils.UnionFind(places)
    for a, b in routes:
        uf.union(a, b)
    return list(uf.to_sets())


def dijkstra(graph, source, target):
    dist, heap, done = {source: 0}, [(0, source)], set()
    while heap:
        d, u = heapq.heappop(heap)
        if u in done:
            continue
        done.add(u)
        if u == target:
            return d
        for v, data in graph[u].items():
            if d + data["weight"] < dist.get(v, math.inf):
                dist[v] = d + data["weight"]
                heapq.heappush(heap, (dist[v], v))
    return math.inf


def longest_trail(routes):
    adj = {}
    for i, (a, b, _) in enumerate(routes):
        adj.setdefault(a, []).append((b, i))
        adj.setdefault(b, []).append((a, i))
    best = 0

    def walk(u, used, total):
        nonlocal best
        best = max(best, total)
        for v, i in adj[u]:
            if i not in used:
                used.add(i)
                walk(v, used, total + routes[i][2])
                used.discard(i)

    for u in adj:
        walk(u, set(), 0)
    return best


def longest_simple_path(routes):
    """Wrong: a simple path may not come back to a city, so loops are lost."""
    graph = nx.Graph()
    for a, b, w in routes:
        if not graph.has_edge(a, b) or graph[a][b]["w"] < w:
            graph.add_edge(a, b, w=w)
    best = 0

    def walk(u, seen, total):
        nonlocal best
        best = max(best, total)
        for v in graph[u]:
            if v not in seen:
                walk(v, seen | {v}, total + graph[u][v]["w"])

    for u in graph:
        walk(u, {u}, 0)
    return best


def longest_trail_merging_parallel_routes(routes):
    """Wrong: marks a route used by its two ends, so both tracks of a double route count once."""
    adj = {}
    for a, b, w in routes:
        adj.setdefault(a, []).append((b, w))
        adj.setdefault(b, []).append((a, w))
    best = 0

    def walk(u, used, total):
        nonlocal best
        best = max(best, total)
        for v, w in adj[u]:
            if frozenset((u, v)) not in used:
                walk(v, used | {frozenset((u, v))}, total + w)

    for u in adj:
        walk(u, frozenset(), 0)
    return best


def longest_trail_odd_starts_everywhere(routes):
    """Wrong: starts only at odd cities of the whole network, missing an all-even piece."""
    adj = {}
    for i, (a, b, _) in enumerate(routes):
        adj.setdefault(a, []).append((b, i))
        adj.setdefault(b, []).append((a, i))
    starts = [c for c, out in adj.items() if len(out) % 2] or list(adj)
    best = 0

    def walk(u, used, total):
        nonlocal best
        best = max(best, total)
        for v, i in adj[u]:
            if i not in used:
                walk(v, used | {i}, total + routes[i][2])

    for u in starts:
        walk(u, frozenset(), 0)
    return best


def steiner(graph, terminals):
    others = [v for v in graph if v not in terminals]
    best = math.inf
    for k in range(len(others) + 1):
        for extra in itertools.combinations(others, k):
            sub = graph.subgraph(set(terminals) | set(extra))
            if nx.is_connected(sub):
                best = min(best, nx.minimum_spanning_tree(sub).size(weight="weight"))
    return best


def steiner_approximation(graph, terminals):
    tree = nx.algorithms.approximation.steiner_tree(graph, terminals, weight="weight")
    return tree.size(weight="weight")


def tour(routes, cities):
    adj = {}
    for i, (a, b) in enumerate(routes):
        adj.setdefault(a, []).append((b, i))
        adj.setdefault(b, []).append((a, i))
    if any(c not in adj for c in cities):
        return False

    def walk(u, k, used):
        while k < len(cities) and cities[k] == u:
            k += 1
        if k == len(cities):
            return True
        for v, i in adj[u]:
            if i not in used:
                used.add(i)
                if walk(v, k, used):
                    return True
                used.discard(i)
        return False

    return walk(cities[0], 1, set())


def _leg_adjacency(routes):
    adj = {}
    for i, (a, b) in enumerate(routes):
        adj.setdefault(a, []).append((b, i))
        adj.setdefault(b, []).append((a, i))
    return adj


def _tour_one_leg_at_a_time(routes, cities, take):
    """Wrong: plans each leg alone on the routes left; an early leg can block a later one."""
    adj, used = _leg_adjacency(routes), set()
    if any(c not in adj for c in cities):
        return False
    for a, b in itertools.pairwise(cities):
        came = {a: None}
        frontier = deque([a])
        while frontier:
            u = take(frontier)
            if u == b:
                break
            for v, i in adj[u]:
                if i not in used and v not in came:
                    came[v] = (u, i)
                    frontier.append(v)
        if b not in came:
            return False
        u = b
        while came[u] is not None:
            u, i = came[u]
            used.add(i)
    return True


def tour_legs_by_bfs(routes, cities):
    return _tour_one_leg_at_a_time(routes, cities, deque.popleft)


def tour_legs_by_dfs(routes, cities):
    return _tour_one_leg_at_a_time(routes, cities, deque.pop)


def tour_legs_by_sorted_dfs(routes, cities):
    return _tour_one_leg_at_a_time(sorted(routes), cities, deque.pop)


def tour_any_order(routes, cities):
    graph = nx.Graph(routes)
    return all(c in graph for c in cities) and all(nx.has_path(graph, cities[0], c) for c in cities)


def great_circle_km(game_map, a, b):
    p, q = game_map.city_by_id[a], game_map.city_by_id[b]
    phi1, phi2 = math.radians(p.lat), math.radians(q.lat)
    dphi, dlam = phi2 - phi1, math.radians(q.lon - p.lon)
    h = math.sin(dphi / 2) ** 2 + math.cos(phi1) * math.cos(phi2) * math.sin(dlam / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(h))


def heuristics(game_map):
    km = max(great_circle_km(game_map, r.a, r.b) / r.length for r in game_map.routes)
    good = lambda u, g: great_circle_km(game_map, u, g) / km  # noqa: E731
    too_big = lambda u, g: 2 * great_circle_km(game_map, u, g) / km  # noqa: E731
    return good, too_big


def stub(*args):
    return NotImplemented


def raises_not_implemented(*args):
    raise NotImplementedError


def crashes(*args):
    return {}["missing"]


CHECKS = [
    (
        ex.check_board_graph,
        build_graph,
        [build_simple_graph, build_without_country_spaces, build_from_routes_only],
    ),
    (ex.check_bfs, bfs, [dfs]),
    (ex.check_dfs, dfs, [bfs, dfs_marking_on_push]),
    (ex.check_ticket, ticket_done, [ticket_ignoring_dead_ends]),
    (ex.check_components, components, [lambda places, routes: [set(places)]]),
    (ex.check_dijkstra, dijkstra, [lambda g, s, t: nx.shortest_path_length(g, s, t)]),
    (
        ex.check_longest_trail,
        longest_trail,
        [
            longest_simple_path,
            longest_trail_odd_starts_everywhere,
            longest_trail_merging_parallel_routes,
        ],
    ),
    (ex.check_steiner, steiner, [steiner_approximation]),
    (
        ex.check_tour,
        tour,
        [tour_any_order, tour_legs_by_bfs, tour_legs_by_dfs, tour_legs_by_sorted_dfs],
    ),
]
IDS = [c[0].__name__ for c in CHECKS]


# -------------------------------------------------- lessons 7-11: wrong answers
def kruskal_without_cycle_test(places, routes):
    """Wrong: takes the shortest routes until it has one fewer than the places."""
    return sorted(routes, key=lambda r: r[2])[: len(places) - 1]


def prim_over_every_piece(routes, start):
    """Wrong: adds up the trees of every piece, not only the start's."""
    return sum(r[2] for r in solutions.kruskal(sorted({p for r in routes for p in r[:2]}), routes))


def prim_nearest_neighbour(routes, start):
    """Wrong: always extends from the place reached last (a path, not a tree)."""
    neighbours = {}
    for a, b, w in routes:
        neighbours.setdefault(a, []).append((w, b))
        neighbours.setdefault(b, []).append((w, a))
    seen, place, total = {start}, start, 0
    while True:
        options = [(w, p) for w, p in neighbours[place] if p not in seen]
        if not options:
            return total
        w, place = min(options)
        seen.add(place)
        total += w


def odd_cities_of_degree_one(routes):
    """Wrong: only the dead ends."""
    degree = {}
    for a, b in routes:
        degree[a] = degree.get(a, 0) + 1
        degree[b] = degree.get(b, 0) + 1
    return {p for p, d in degree.items() if d == 1}


def euler_walk_without_splicing(routes, start):
    """Wrong: walks until stuck and stops, leaving detours out."""
    exits = {}
    for i, (a, b) in enumerate(routes):
        exits.setdefault(a, []).append((b, i))
        exits.setdefault(b, []).append((a, i))
    used, walk = set(), [start]
    while True:
        options = [(p, i) for p, i in exits[walk[-1]] if i not in used]
        if not options:
            return walk
        place, i = options[0]
        used.add(i)
        walk.append(place)


def count_ways_greedily(graph, a, b):
    """Wrong: removes one shortest way after another, never undoing a route."""
    graph = graph.copy()
    ways = 0
    while nx.has_path(graph, a, b):
        path = nx.shortest_path(graph, a, b)
        graph.remove_edges_from(itertools.pairwise(path))
        ways += 1
    return ways


def count_ways_by_degree(graph, a, b):
    """Wrong: the routes at the quieter end, which is only an upper bound (no flow at all)."""
    return min(graph.degree(a), graph.degree(b)) if nx.has_path(graph, a, b) else 0


def odd_cities_by_neighbours(routes):
    """Wrong: counts neighbours, so the two tracks of a double route count once."""
    neighbours = {}
    for a, b in routes:
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)
    return {p for p, near in neighbours.items() if len(near) % 2}


def is_cut_one_way(graph, a, b, routes):
    """Wrong: removes each claimed route in one direction only, from a directed copy."""
    rest = nx.DiGraph(graph)
    rest.remove_edges_from(routes)
    return not nx.has_path(rest, a, b)


def is_cut_if_it_touches_a(graph, a, b, routes):
    """Wrong: any claimed route at a counts as a cut."""
    return any(a in route for route in routes)


def count_paths_ignoring_lengths(graph, source):
    """Wrong: counts paths with the fewest routes, not the fewest spaces."""
    unweighted = nx.Graph(graph.edges)
    return {v: len(list(nx.all_shortest_paths(unweighted, source, v))) for v in unweighted}


def share_all_or_nothing(graph, a, b, place):
    """Wrong: 1 if the place is on some shortest path, whatever the share."""
    return float(solutions.share(graph, a, b, place) > 0)


def wilson_as_normal(successes, trials):
    """Wrong: the textbook normal interval, not Wilson's."""
    p = successes / trials
    half = 1.96 * math.sqrt(p * (1 - p) / trials)
    return p - half, p + half


def rates_overall(tickets):
    """Wrong: the same overall rate for every length."""
    rate = sum(done for _, done in tickets) / len(tickets) if tickets else 0
    return {length: rate for length, _ in tickets}


CHECKS += [
    (ex.check_kruskal, solutions.kruskal, [kruskal_without_cycle_test]),
    (ex.check_prim, solutions.prim, [prim_over_every_piece, prim_nearest_neighbour]),
    (
        ex.check_odd_cities,
        solutions.odd_cities,
        [odd_cities_of_degree_one, odd_cities_by_neighbours],
    ),
    (ex.check_euler_circuit, solutions.euler_circuit, [euler_walk_without_splicing]),
    (ex.check_count_ways, solutions.count_ways, [count_ways_greedily, count_ways_by_degree]),
    (ex.check_is_cut, solutions.is_cut, [is_cut_if_it_touches_a, is_cut_one_way]),
    (ex.check_path_counts, solutions.count_paths, [count_paths_ignoring_lengths]),
    (ex.check_ticket_share, solutions.share, [share_all_or_nothing]),
    (ex.check_wilson, solutions.wilson, [wilson_as_normal]),
    (ex.check_completion_rates, solutions.completion_rates, [rates_overall]),
]
IDS = [c[0].__name__ for c in CHECKS]


# ---------------------------------------------------------------- tests
@pytest.mark.parametrize(("check", "good", "bad"), CHECKS, ids=IDS)
def test_accepts_a_correct_solution(check, good, bad):
    result = check(good)
    assert result.passed, result.message
    assert result.status == "correct" and bool(result)
    assert result.message.startswith("✔ Correct") and result.cases > 0
    assert repr(result) == str(result) == result.message


@pytest.mark.parametrize(("check", "good", "bad"), CHECKS, ids=IDS)
def test_rejects_wrong_solutions_with_a_reason(check, good, bad):
    for wrong in bad:
        result = check(wrong)
        assert not result and result.status == "wrong", (wrong, result.message)
        assert result.message.startswith("✘ Not quite: ")
        assert len(result.message) > 40


@pytest.mark.parametrize(("check", "good", "bad"), CHECKS, ids=IDS)
@pytest.mark.parametrize("unfinished", [stub, raises_not_implemented])
def test_a_stub_is_not_yet(check, good, bad, unfinished):
    result = check(unfinished)
    assert result.status == "not yet" and not result
    assert result.message.startswith("… Not yet")
    assert unfinished.__name__ in result.message


@pytest.mark.parametrize(("check", "good", "bad"), CHECKS, ids=IDS)
def test_an_error_is_reported_not_raised(check, good, bad):
    result = check(crashes)
    assert result.status == "wrong"
    assert "KeyError" in result.message


def test_longest_trail_check_counts_both_tracks_of_a_double_route():
    assert longest_trail_merging_parallel_routes([("A", "B", 2), ("A", "B", 3)]) == 3
    result = ex.check_longest_trail(longest_trail_merging_parallel_routes)
    assert "parallel routes A–B" in result.message and "expected 5, got 3" in result.message
    assert "separate routes" in result.message


def test_count_ways_check_needs_a_flow_not_the_degrees_at_the_ends():
    result = ex.check_count_ways(count_ways_by_degree)
    assert "expected 1, got 3" in result.message and "squeeze through" in result.message


def test_not_a_function():
    result = ex.check_bfs(42)
    assert result.status == "wrong" and "function" in result.message


def test_wrong_answer_types_are_explained():
    assert "set has no order" in ex.check_bfs(lambda g, s: set(g)).message
    assert "True or False" in ex.check_ticket(lambda *a: "yes").message
    assert "number" in ex.check_dijkstra(lambda *a: None).message
    assert "list of sets" in ex.check_components(lambda p, r: 5).message
    assert "directed" in ex.check_board_graph(lambda m: nx.MultiDiGraph()).message


def test_bfs_detects_visiting_twice_and_missing_places():
    assert "twice" in ex.check_bfs(lambda g, s: [s, s]).message
    assert "never visited" in ex.check_bfs(lambda g, s: [s]).message
    assert "begin with the start" in ex.check_dfs(lambda g, s: []).message


def test_graph_check_names_the_missing_places():
    message = ex.check_board_graph(build_without_country_spaces).message
    assert "Germany" in message and "places are missing" in message
    message = ex.check_board_graph(build_from_routes_only).message
    assert "Miami" in message and "add every place as a node" in message


def test_wrong_degree_and_cut_answers_get_a_hint():
    assert "two tracks of a double route" in ex.check_odd_cities(odd_cities_by_neighbours).message
    assert "both directions" in ex.check_is_cut(is_cut_one_way).message


@pytest.mark.parametrize("name", ["usa", "germany", "world"])
def test_heuristic_check(name):
    game_map = load_map(name)
    good, too_big = heuristics(game_map)
    result = ex.check_heuristic(good, game_map)
    assert result.passed, result.message
    assert "On average it estimates" in result.message
    bad = ex.check_heuristic(too_big, name)
    assert bad.status == "wrong" and "overestimates" in bad.message
    assert ex.check_heuristic(stub, name).status == "not yet"
    assert ex.check_heuristic(lambda u, g: "far", name).status == "wrong"


def test_simple_board_graph_collapses_parallel_routes():
    game_map = load_map("usa")
    graph = ex.simple_board_graph(game_map)
    assert graph.number_of_nodes() == len(game_map.cities)
    assert graph.number_of_edges() == len(game_map.groups)
    owned = [r.id for r in game_map.routes[:3]]
    assert all(
        ex.simple_board_graph(game_map, owned=owned)[r.a][r.b]["weight"] == 0
        for r in game_map.routes[:3]
    )
    part = ex.simple_board_graph(game_map, routes=owned)
    assert part.number_of_edges() <= 3 and part.number_of_nodes() == len(game_map.cities)


# ------------------------------------------- teaching helpers used by the lessons
def test_search_steps_match_networkx():
    from ttr_nb.teaching.search_animation import search_steps

    for name in ("usa", "germany", "world"):
        game_map = load_map(name)
        graph = ex.simple_board_graph(game_map)
        for start in sorted(graph)[::9]:
            weighted = search_steps(game_map, start, method="dijkstra", dead_ends=())[-1]
            assert weighted.cost == nx.single_source_dijkstra_path_length(graph, start)
            hops = search_steps(game_map, start, method="bfs", dead_ends=())[-1]
            assert hops.cost == nx.single_source_shortest_path_length(graph, start)
            depth = search_steps(game_map, start, method="dfs", dead_ends=())[-1]
            assert ex._dfs_problem(list(depth.done), graph, game_map) is None
            assert ex._bfs_problem(list(hops.done), graph, game_map) is None


def test_astar_is_exact_and_takes_fewer_places():
    from ttr_nb.teaching.search_animation import search_steps

    game_map = load_map("usa")
    good, _ = heuristics(game_map)
    for ticket in game_map.tickets:
        a, b = ticket.cities
        plain = search_steps(game_map, a, b, method="dijkstra")[-1]
        guided = search_steps(game_map, a, b, method="astar", heuristic=good)[-1]
        assert plain.current == guided.current == b
        assert plain.cost[b] == guided.cost[b]
        assert guided.expanded <= plain.expanded
        assert guided.estimate and not plain.estimate
        route_sum = sum(game_map.route_by_id[r].length for r in guided.path_to(b))
        assert route_sum == guided.cost[b]


def test_search_steps_dead_ends_and_several_starts():
    from ttr_nb.teaching.search_animation import search_steps

    germany = load_map("germany")
    austria = germany.targets("oesterreich")
    steps = search_steps(germany, austria, "muenchen", method="dijkstra")
    assert steps[0].frontier == tuple(sorted(austria))
    assert steps[-1].current == "muenchen" and steps[-1].cost["muenchen"] == 3
    # A dead end is reached but never passed through.
    steps = search_steps(germany, "lindau", method="bfs")
    reached = [s.current for s in steps[1:] if s.current in germany.dead_ends]
    assert reached and all("dead end" in s.note for s in steps if s.current in reached)
    assert all(via not in germany.dead_ends for _, via in steps[-1].parents.values())
    assert len(steps[-1].done) == len(germany.cities)


def test_search_steps_errors():
    from ttr_nb.teaching.search_animation import search_steps

    usa = load_map("usa")
    with pytest.raises(ValueError, match="unknown method"):
        search_steps(usa, "denver", method="greedy")
    with pytest.raises(ValueError, match="no place"):
        search_steps(usa, "atlantis")
    with pytest.raises(ValueError, match="A\\* needs"):
        search_steps(usa, "denver", "omaha", method="astar")
    with pytest.raises(ValueError, match="needs a start"):
        search_steps(usa, [])
    last = search_steps(usa, "denver", method="bfs", routes=[])[-1]
    assert last.done == ("denver",)
    with pytest.raises(ValueError, match="not reached"):
        last.path_to("omaha")


def test_trace_notes_say_what_each_search_does_to_its_frontier():
    from ttr_nb.teaching.search_animation import search_steps

    usa = load_map("usa")
    assert all("improved" not in s.note for s in search_steps(usa, "denver", method="bfs"))
    assert "; new: Helena," in search_steps(usa, "denver", method="bfs")[1].note
    # The DFS of lesson 2: Omaha waits 3 routes deep, then Chicago pushes it again, 6 deep.
    pairs = [
        ("los-angeles", "phoenix"),
        ("phoenix", "denver"),
        ("denver", "omaha"),
        ("omaha", "chicago"),
        ("chicago", "pittsburgh"),
        ("pittsburgh", "new-york"),
        ("denver", "kansas-city"),
        ("kansas-city", "saint-louis"),
        ("saint-louis", "chicago"),
    ]
    mine = [next(r.id for r in usa.routes if {r.a, r.b} == set(pair)) for pair in pairs]
    steps = search_steps(usa, "los-angeles", "new-york", method="dfs", routes=mine)
    chicago = next(s for s in steps if s.current == "chicago")
    assert "improved" not in chicago.note
    assert chicago.note.endswith("; pushed: Omaha (again, now 6 routes deep), Pittsburgh")
    denver = next(s for s in steps if s.current == "denver")
    assert denver.note.endswith("; pushed: Kansas City, Omaha")


def test_trace_text():
    from ttr_nb.teaching.search_animation import search_steps, trace_text

    usa = load_map("usa")
    steps = search_steps(usa, "denver", method="bfs")
    text = trace_text(steps, usa, limit=2, frontier=3)
    assert text.splitlines()[0] == "  0. start at Denver"
    assert text.endswith(f"... {len(steps) - 3} more steps")
    assert "+4 more" in text
    full = trace_text(steps, usa)
    assert full.count("frontier:") == len(steps)
    assert full.splitlines()[-1].endswith("(empty)")


def test_search_animation_headless():
    from unittest.mock import MagicMock

    from ttr_nb.teaching.search_animation import SearchAnimation, search_steps
    from ttr_nb.widgets import BoardWidget

    usa = load_map("usa")
    view = BoardWidget(usa)
    steps = search_steps(usa, "denver", "new-york", method="dijkstra")
    animation = SearchAnimation(view, steps, goals=["new-york"])
    assert animation.paint in view.piece_painters
    assert animation.text.startswith(f"Step 0 of {len(steps) - 1}: start at Denver")
    animation.show(3)
    assert animation.slider.value == 3 and animation.step is steps[3]
    assert view.pieces.highlighted == steps[3].tree
    animation.next.click()
    assert animation.index == 4
    animation.back.click()
    animation.back.click()
    assert animation.index == 2
    animation.show(10_000)
    assert animation.index == len(steps) - 1 and "goal reached" in animation.text
    animation.slider.value = 1
    assert animation.index == 1 and "Denver" in animation.label.value
    layer = MagicMock()
    animation.paint(layer, view.geometry, view.pieces)
    assert layer.fill_circles.called and layer.fill_text.call_count == len(steps[1].done)
    assert not animation.guard.errors
    with pytest.raises(ValueError, match="no steps"):
        SearchAnimation(view, [])


def test_plotting():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ttr_nb.teaching.plotting import _segments, board_graph, plot_board, plot_positions
    from ttr_nb.teaching.search_animation import plot_step, plot_steps, search_steps

    for name in ("usa", "germany", "world"):
        game_map = load_map(name)
        graph = board_graph(game_map)
        assert graph.number_of_nodes() == len(game_map.cities)
        assert graph.number_of_edges() == len(game_map.routes)
        some = [r.id for r in game_map.routes[:5]]
        part = board_graph(game_map, some)
        assert sorted(k for *_, k in part.edges(keys=True)) == sorted(some)
        ax = plot_board(
            game_map,
            owner={some[0]: 1},
            highlight=some[1:3],
            place_colours={game_map.cities[0].id: "red"},
            place_labels={game_map.cities[0].id: "1"},
            names=[game_map.cities[1].id],
            title=name,
        )
        assert ax.get_title() == name
        plot_board(game_map, routes=some, names=False)
        pos = plot_positions(game_map)
        for route in game_map.routes:
            pieces = _segments(game_map, pos, route.id, 0.0)
            assert len(pieces) == (2 if route.wraps else 1)
        plt.close("all")
    usa = load_map("usa")
    steps = search_steps(usa, "denver", "omaha", method="bfs")
    ax = plot_step(usa, steps[-1], goals=["omaha"])
    assert "taken" in ax.get_title()
    fig = plot_steps(usa, steps, [0, 1, 99], ncols=2)
    assert sum(a.get_visible() for a in fig.axes) == 3
    plt.close("all")


def test_tour_check_refuses_planning_one_leg_at_a_time():
    # The case from issue 11: the first leg A-B must take the long way A-P-Q-B,
    # because the short way through X uses X-B, and B-C can only go B-X-C.
    routes = [("A", "X"), ("X", "B"), ("A", "P"), ("P", "Q"), ("Q", "B"), ("X", "C")]
    assert tour(routes, ["A", "B", "C"]) is True
    assert tour_legs_by_bfs(routes, ["A", "B", "C"]) is False
    for wrong in (tour_legs_by_bfs, tour_legs_by_dfs, tour_legs_by_sorted_dfs):
        result = ex.check_tour(wrong)
        assert result.status == "wrong", wrong.__name__
        assert "one leg at a time" in result.message


def test_made_up_networks_never_hold_two_routes_of_a_double_route():
    rng = __import__("random").Random(0)
    for name in ("usa", "germany", "world"):
        game_map = load_map(name)
        for size in (5, 20, 40):
            ids = ex.random_network(game_map, rng, size)
            groups = [game_map.route_by_id[i].group for i in ids]
            assert len(ids) == size and len(set(groups)) == size
