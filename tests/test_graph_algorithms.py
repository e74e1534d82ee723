"""Spanning trees, Euler trails, ticket cuts and ticket betweenness, checked against networkx
and brute force on the real boards and on random networks."""

from __future__ import annotations

import itertools
import math
import random

import networkx as nx
import pytest

from ttr_nb import load_map
from ttr_nb.algorithms import (
    NotEulerianError,
    euler_trail,
    has_euler_trail,
    hierholzer_steps,
    kruskal_steps,
    minimum_spanning_routes,
    odd_places,
    prim_steps,
    ticket_betweenness,
    ticket_cut,
    ticket_route_betweenness,
)

MAPS = ["usa", "germany", "world"]


def board_routes(name):
    game_map = load_map(name)
    return [(r.a, r.b, r.length, r.id) for r in game_map.routes]


def random_routes(rng, places=8, routes=14, lengths=(1, 6), parallel=0.15):
    names = [f"p{i}" for i in range(places)]
    out = []
    for _ in range(routes):
        a, b = rng.sample(names, 2)
        out.append((a, b, rng.randint(*lengths)))
        if rng.random() < parallel:
            out.append((a, b, rng.randint(*lengths)))
    return out


def nx_mst_weight(routes):
    graph = nx.MultiGraph()
    graph.add_weighted_edges_from((a, b, w) for a, b, w, *_ in routes)
    return nx.minimum_spanning_tree(graph).size(weight="weight")


def is_spanning_forest(routes, chosen):
    graph = nx.MultiGraph((a, b) for a, b, *_ in routes)
    tree = nx.MultiGraph((a, b) for a, b, *_ in chosen)
    tree.add_nodes_from(graph)
    return nx.is_forest(tree) and nx.number_connected_components(
        tree
    ) == nx.number_connected_components(graph)


# ---------------------------------------------------------------- spanning
@pytest.mark.parametrize("name", MAPS)
def test_kruskal_and_prim_match_networkx_on_every_board(name):
    routes = board_routes(name)
    want = nx_mst_weight(routes)
    for algorithm in ("kruskal", "prim"):
        chosen = minimum_spanning_routes(routes, algorithm)
        assert sum(r[2] for r in chosen) == want
        assert is_spanning_forest(routes, chosen)
    places = sorted({p for r in routes for p in r[:2]})
    for start in places[::7]:  # Prim from anywhere finds the same total
        steps = list(prim_steps(routes, start))
        assert steps[-1].total == want and steps[-1].pieces == 0


def test_spanning_steps_on_random_networks_and_forests():
    rng = random.Random(7)
    for _ in range(200):
        routes = random_routes(rng)
        want = nx_mst_weight(routes)
        kruskal = list(kruskal_steps(routes))
        chosen = [s.route for s in kruskal if s.accepted]
        assert sum(r[2] for r in chosen) == want == (kruskal[-1].total if kruskal else 0)
        assert is_spanning_forest(routes, chosen)
        for step in kruskal:  # a rejected route would close a cycle at that moment
            assert ("cycle" in step.reason) != step.accepted
        prim = minimum_spanning_routes(routes, "prim")
        assert sum(r[2] for r in prim) == want and is_spanning_forest(routes, prim)


def test_spanning_errors():
    with pytest.raises(ValueError, match="negative"):
        list(kruskal_steps([("A", "B", -1)]))
    with pytest.raises(ValueError, match="tuple"):
        list(kruskal_steps([("A", "B")]))
    with pytest.raises(ValueError, match="lies on no route"):
        list(prim_steps([("A", "B", 1)], "Z"))
    with pytest.raises(ValueError, match="unknown algorithm"):
        minimum_spanning_routes([("A", "B", 1)], "boruvka")
    assert list(prim_steps([])) == [] and minimum_spanning_routes([]) == []


# ------------------------------------------------------------------- euler
def is_euler_trail(routes, trail, closed):
    assert sorted(map(tuple, (sorted(r[:2]) for r in trail))) == sorted(
        map(tuple, (sorted(r[:2]) for r in routes))
    )
    for (_, b, *_), (c, _, *_) in itertools.pairwise(trail):
        assert b == c
    if closed and trail:
        assert trail[0][0] == trail[-1][1]
    return True


def test_euler_trail_on_random_networks_agrees_with_networkx():
    rng = random.Random(3)
    found = 0
    for _ in range(400):
        routes = [r[:2] + (i,) for i, r in enumerate(random_routes(rng, places=6, routes=9))]
        graph = nx.MultiGraph((a, b) for a, b, _ in routes)
        assert has_euler_trail(routes) == nx.has_eulerian_path(graph)
        if not has_euler_trail(routes):
            with pytest.raises(NotEulerianError):
                euler_trail(routes)
            continue
        found += 1
        odd = odd_places(routes)
        trail = euler_trail(routes)
        assert is_euler_trail(routes, trail, closed=not odd)
        assert {r[2] for r in trail} == {r[2] for r in routes}  # every route once, extras kept
        if odd:
            assert {trail[0][0], trail[-1][1]} == set(odd)
    assert found > 50


def test_hierholzer_steps_push_and_pop_every_route_once():
    bowtie = [("A", "B"), ("B", "C"), ("C", "A"), ("C", "D"), ("D", "E"), ("E", "C")]
    steps = list(hierholzer_steps(bowtie, "C"))
    assert [s.kind for s in steps].count("walk") == len(bowtie)
    assert [s.kind for s in steps].count("back") == len(bowtie) + 1
    assert steps[-1].walk == () and is_euler_trail(bowtie, steps[-1].trail, closed=True)


def test_euler_errors_name_the_problem():
    with pytest.raises(NotEulerianError, match="2 separate pieces"):
        euler_trail([("A", "B"), ("C", "D")])
    with pytest.raises(NotEulerianError, match="must start at one of them"):
        euler_trail([("A", "B"), ("B", "C")], start="B")
    with pytest.raises(NotEulerianError, match="lies on no route"):
        euler_trail([("A", "B"), ("B", "A")], start="Z")
    assert euler_trail([]) == [] and has_euler_trail([])
    assert odd_places([("A", "B"), ("B", "C")]) == ["A", "C"]


# ---------------------------------------------------------------- blocking
def test_cuts_match_edge_connectivity_for_every_usa_ticket():
    usa = load_map("usa")
    board = [(r.id, r.a, r.b, r.length) for r in usa.routes]
    simple = nx.Graph((r.a, r.b) for r in usa.routes)
    multi = nx.DiGraph()
    for r in usa.routes:
        for u, v in ((r.a, r.b), (r.b, r.a)):
            cap = multi.edges[u, v]["capacity"] + 1 if multi.has_edge(u, v) else 1
            multi.add_edge(u, v, capacity=cap)
    for ticket in usa.tickets:
        a, b = ticket.cities
        two = ticket_cut(board, a, b, players=2)
        assert two.size == nx.edge_connectivity(simple, a, b)
        assert two.size == len(list(nx.edge_disjoint_paths(simple, a, b)))  # Menger
        cut_graph = simple.copy()
        cut_graph.remove_edges_from(
            (usa.route_by_id[link[0]].a, usa.route_by_id[link[0]].b) for link in two.links
        )
        assert not nx.has_path(cut_graph, a, b)
        four = ticket_cut(board, a, b, players=4)
        assert four.size == nx.maximum_flow_value(multi, a, b) >= two.size


def brute_force_cut(board, a, b, weight):
    """Cheapest set of links whose removal separates a and b (2 players: a link costs once)."""
    links = {}
    for _rid, u, v, length in board:
        links.setdefault(frozenset((u, v)), []).append(length)
    items = list(links.items())
    best = math.inf
    for k in range(len(items) + 1):
        for cut in itertools.combinations(items, k):
            cost = sum(1 if weight == "claims" else min(lengths) for _, lengths in cut)
            if cost >= best:
                continue
            removed = {ends for ends, _ in cut}
            graph = nx.Graph([tuple(ends) for ends, _ in items if ends not in removed])
            graph.add_nodes_from([a, b])
            if not nx.has_path(graph, a, b):
                best = cost
    return best


def test_cuts_are_minimal_by_brute_force():
    rng = random.Random(11)
    for _ in range(60):
        routes = random_routes(rng, places=6, routes=8)
        board = [(i, u, v, w) for i, (u, v, w) in enumerate(routes)]
        for weight in ("claims", "spaces"):
            got = ticket_cut(board, "p0", "p1", weight=weight).size
            want = brute_force_cut(board, "p0", "p1", weight)
            assert got == want, (routes, weight)


def test_cut_rules_owned_claimed_dead_ends_and_countries():
    board = [
        (1, "A", "B", 2),
        (2, "B", "C", 2),
        (3, "A", "D", 1),
        (4, "D", "C", 1),
        (5, "A", "C", 9),
    ]
    assert ticket_cut(board, "A", "C").size == 3
    assert ticket_cut(board, "A", "C", owned=[1]).size == 3  # B-C can still be cut
    assert ticket_cut(board, "A", "C", owned=[1, 2]).size == math.inf
    assert ticket_cut(board, "A", "C", unavailable=[5]).size == 2
    assert ticket_cut(board, "A", "C", dead_ends=["D"]).size == 2  # no way through D
    assert ticket_cut(board, "A", {"C", "D"}).size == 3  # "any of" C, D
    assert ticket_cut(board, "A", "A").size == math.inf
    spaces = ticket_cut(board, "A", "C", weight="spaces")
    assert spaces.size == 2 + 1 + 9  # the cheapest track of each of the three ways
    double = [(1, "A", "B", 3), (2, "A", "B", 4)]
    assert ticket_cut(double, "A", "B", unavailable=[1], players=3).size == 0  # closed
    assert ticket_cut(double, "A", "B", unavailable=[1], players=4).size == 1
    assert ticket_cut(double, "A", "B", players=5, weight="spaces").size == 7
    assert ticket_cut(double, "A", "B", owned=[1], players=4).size == math.inf
    with pytest.raises(ValueError, match="unknown weight"):
        ticket_cut(board, "A", "C", weight="trains")
    with pytest.raises(ValueError, match="2 to 5 players"):
        ticket_cut(board, "A", "C", players=6)


# -------------------------------------------------------------- centrality
def test_ticket_betweenness_matches_networkx_and_path_enumeration_on_the_usa_board():
    usa = load_map("usa")
    graph = nx.Graph()
    for r in usa.routes:
        if not graph.has_edge(r.a, r.b) or graph[r.a][r.b]["weight"] > r.length:
            graph.add_edge(r.a, r.b, weight=r.length)
    tickets = [t.cities for t in usa.tickets]
    places = ticket_betweenness(graph, tickets)
    want_places = dict.fromkeys(graph, 0.0)
    for a, b in tickets:
        for v, x in nx.betweenness_centrality_subset(graph, [a], [b], weight="weight").items():
            want_places[v] += 2 * x  # networkx counts an undirected pair half
    assert places == pytest.approx(want_places)
    # Routes: every shortest path of every ticket, enumerated.  (networkx 3.6's
    # edge_betweenness_centrality_subset splits a place's share evenly among its
    # predecessors instead of by their path counts, so it cannot serve here.)
    routes = ticket_route_betweenness(graph, tickets)
    want_routes = dict.fromkeys(graph.edges, 0.0)
    for a, b in tickets:
        paths = list(nx.all_shortest_paths(graph, a, b, weight="weight"))
        for path in paths:
            for u, v in itertools.pairwise(path):
                want_routes[(u, v) if (u, v) in want_routes else (v, u)] += 1 / len(paths)
    assert routes == pytest.approx(want_routes)


def test_ticket_betweenness_by_enumerating_shortest_paths():
    rng = random.Random(5)
    for _ in range(50):
        graph = nx.gnm_random_graph(9, 16, seed=rng.randint(0, 10**6))
        for u, v in graph.edges:
            graph[u][v]["weight"] = rng.randint(1, 3)
        tickets = [tuple(rng.sample(range(9), 2)) + (rng.randint(1, 5),) for _ in range(4)]
        want = dict.fromkeys(graph, 0.0)
        for a, b, value in tickets:
            if not nx.has_path(graph, a, b):
                continue
            paths = list(nx.all_shortest_paths(graph, a, b, weight="weight"))
            for path in paths:
                for v in path[1:-1]:
                    want[v] += value / len(paths)
        assert ticket_betweenness(graph, tickets) == pytest.approx(want)
        with_ends = ticket_betweenness(graph, tickets, endpoints=True)
        assert all(with_ends[v] >= want[v] for v in graph)


def test_centrality_errors():
    graph = nx.Graph([("A", "B")])
    with pytest.raises(nx.NodeNotFound):
        ticket_betweenness(graph, [("A", "Z")])
    with pytest.raises(nx.NetworkXNotImplemented):
        ticket_betweenness(nx.MultiGraph(graph), [("A", "B")])
    with pytest.raises(ValueError, match="a ticket is"):
        ticket_route_betweenness(graph, [("A",)])
