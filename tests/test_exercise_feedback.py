"""Exercise checks that used to accept a wrong solution, or said only "expected, got".

Each wrong solution here is one a student writes: the check must reject it and its
message must name the mistake (issue 52, weak checks).
"""

from __future__ import annotations

import heapq
import math

import networkx as nx

from ttr_nb.teaching import exercises as ex
from ttr_nb.teaching import exercises_europe, research, solutions


# ------------------------------------------------------------------ lesson 8
def euler_circuit_on_a_simple_graph(routes, start):
    """Wrong: nx.Graph keeps one edge per pair of places, losing a double route's track."""
    graph = nx.Graph(routes)
    return [start] + [v for _, v in nx.eulerian_circuit(graph, source=start)]


def euler_circuit_with_neighbour_sets(routes, start):
    """Wrong: Hierholzer over sets of neighbours, so parallel routes collapse."""
    exits = {}
    for a, b in routes:
        exits.setdefault(a, set()).add(b)
        exits.setdefault(b, set()).add(a)
    walk, circuit = [start], []
    while walk:
        place = walk[-1]
        if exits[place]:
            ahead = exits[place].pop()
            exits[ahead].discard(place)
            walk.append(ahead)
        else:
            circuit.append(walk.pop())
    return circuit[::-1]


def test_euler_circuit_check_walks_both_tracks_of_a_double_route():
    assert ex.check_euler_circuit(solutions.euler_circuit)
    for wrong in (euler_circuit_on_a_simple_graph, euler_circuit_with_neighbour_sets):
        result = ex.check_euler_circuit(wrong)
        assert result.status == "wrong", wrong.__name__
        assert "double route" in result.message and "two routes" in result.message


# ------------------------------------------------------------------ lesson 9
def is_cut_removing_from_the_callers_graph(graph, a, b, routes):
    """Wrong: right answers, but the caller's graph loses the claimed routes."""
    graph.remove_edges_from(routes)
    return not nx.has_path(graph, a, b)


def count_ways_removing_from_the_callers_graph(graph, a, b):
    """Wrong: right answers (Menger), but the caller's graph is emptied on the way."""
    want = nx.edge_connectivity(graph, a, b) if nx.has_path(graph, a, b) else 0
    graph.remove_edges_from(list(graph.edges))
    return want


def test_is_cut_and_count_ways_checks_refuse_to_change_the_callers_graph():
    assert ex.check_is_cut(solutions.is_cut) and ex.check_count_ways(solutions.count_ways)
    for check, wrong in (
        (ex.check_is_cut, is_cut_removing_from_the_callers_graph),
        (ex.check_count_ways, count_ways_removing_from_the_callers_graph),
    ):
        result = check(wrong)
        assert result.status == "wrong", wrong.__name__
        assert "changed the graph it was given" in result.message
        assert "graph.copy()" in result.message


# ----------------------------------------------------------------- lesson 14
def station_spaces_merging_parallel_tracks(routes, own, theirs, a, b):
    """Wrong: one entry per neighbour, so the last of two parallel tracks wins."""
    exits = {}
    for rid, x, y, length in routes:
        exits.setdefault(x, {})[y] = (rid, length)
        exits.setdefault(y, {})[x] = (rid, length)
    best, heap = {(a, 0): 0}, [(0, a, 0)]
    while heap:
        cost, city, used = heapq.heappop(heap)
        if city == b:
            return cost
        if cost > best[(city, used)]:
            continue
        for other, (rid, length) in exits.get(city, {}).items():
            if rid in theirs:
                if used:
                    continue
                step, ahead = 0, (other, 1)
            else:
                step, ahead = (0 if rid in own else length), (other, used)
            if cost + step < best.get(ahead, math.inf):
                best[ahead] = cost + step
                heapq.heappush(heap, (cost + step, *ahead))
    return None


def test_station_spaces_check_keeps_the_tracks_of_a_double_route_apart():
    assert exercises_europe.check_station_spaces(solutions.station_spaces)
    result = exercises_europe.check_station_spaces(station_spaces_merging_parallel_tracks)
    assert result.status == "wrong"
    assert "expected 2, got 5" in result.message and "double route" in result.message


class _CountingList(list):
    """A list that counts how often it is read from the start."""

    reads = 0

    def __iter__(self):
        type(self).reads += 1
        return super().__iter__()


def test_the_model_solution_of_14a_lists_each_citys_routes_once():
    """O((C + R) log C) as the lesson states: the routes are read once, not at each step."""
    line = _CountingList((i, f"c{i}", f"c{i + 1}", 1) for i in range(200))
    _CountingList.reads = 0
    assert solutions.station_spaces(line, set(), set(), "c0", "c200") == 200
    assert _CountingList.reads == 1


# ------------------------------------------------------------ lessons 12, 13
def leaving_routes_at_the_city_only(game_map, chosen, city):
    """Wrong: the routes at the city itself, as if the part were the city alone."""
    return {r.id for r in game_map.routes if city in r.ends}


def leaving_routes_with_both_ends_inside(game_map, chosen, city):
    """Wrong: every route touching the part, also those inside it."""
    graph = nx.MultiGraph()
    graph.add_node(city)
    graph.add_edges_from(game_map.route_by_id[r].ends for r in chosen)
    part = nx.node_connected_component(graph, city)
    return {r.id for r in game_map.routes if r.a in part or r.b in part}


def leaving_routes_of_the_chosen_ones(game_map, chosen, city):
    """Wrong: only chosen routes (which never leave the part): always empty."""
    return {r for r in chosen if city in game_map.route_by_id[r].ends} - set(chosen)


def test_leaving_routes_feedback_names_the_mistake():
    cases = {
        leaving_routes_at_the_city_only: "not New York alone",
        leaving_routes_with_both_ends_inside: "has both ends in the part",
        leaving_routes_of_the_chosen_ones: "claimed or not",
    }
    for wrong, words in cases.items():
        result = research.check_leaving_routes(wrong)
        assert result.status == "wrong" and words in result.message, (wrong, result.message)


def ignored_reached_instead(game_map, routes_by_seat):
    """Wrong: the cities reached, not the others."""
    return {p for routes in routes_by_seat for r in routes for p in game_map.route_by_id[r].ends}


def ignored_first_seat_only(game_map, routes_by_seat):
    """Wrong: looks at the first seat's routes only."""
    return research.ignored(game_map, routes_by_seat[:1])


def ignored_one_end_only(game_map, routes_by_seat):
    """Wrong: a route reaches only its first end."""
    reached = {game_map.route_by_id[r].a for routes in routes_by_seat for r in routes}
    return {c.id for c in game_map.cities} - reached


def ignored_by_name(game_map, routes_by_seat):
    """Wrong: names where ids are asked for."""
    return {game_map.place_name(c) for c in research.ignored(game_map, routes_by_seat)}


def test_ignored_feedback_names_the_mistake():
    cases = {
        ignored_reached_instead: "Those are the cities reached",
        ignored_first_seat_only: "any seat",
        ignored_one_end_only: "both ends count",
        ignored_by_name: "ids",
    }
    for wrong, words in cases.items():
        result = research.check_ignored(wrong)
        assert result.status == "wrong" and words in result.message, (wrong, result.message)
