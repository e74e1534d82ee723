"""Checks for the exercises of the graph lessons: run them on your own functions.

Every ``check_...`` function calls your function on real boards (and on a few
tiny made-up cases where a trap hides), compares the answers with a reference,
and returns a :class:`CheckResult` that prints as one short report:

* ``✔ Correct: ...`` when every case agrees;
* ``… Not yet: ...`` while your function still returns ``NotImplemented`` or
  raises ``NotImplementedError`` (the stubs in the notebooks do): nothing is
  wrong, the notebook keeps running;
* ``✘ Not quite: ...`` with the first case that went wrong: the input, what
  was expected and what your function gave (or the error it raised).

A check never raises because of your function, so a notebook always runs to
the end.

The checks of lessons 1 to 3 live here; those of lessons 4 to 6
(:mod:`.exercises_trails`) and 7 to 11 (:mod:`.exercises_networks`) are
imported here too, so every lesson calls ``exercises.check_...``.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
from collections.abc import Callable, Collection, Iterable, Sequence
from pathlib import Path
from typing import Any

import networkx as nx

from ..algorithms.connectivity import ticket_completed
from ..maps import Map, map_from_data
from .checking import (
    MAPS,
    CheckResult,
    _call,
    _map,
    _names,
    _run,
    _Wrong,
    case_rng,
    random_network,
    simple_board_graph,
)
from .exercises_networks import (
    check_completion_rates,
    check_count_ways,
    check_euler_circuit,
    check_is_cut,
    check_kruskal,
    check_odd_cities,
    check_path_counts,
    check_prim,
    check_ticket_share,
    check_wilson,
)
from .exercises_trails import check_longest_trail, check_steiner, check_tour

__all__ = [
    "CheckResult",
    "check_completion_rates",
    "check_count_ways",
    "check_euler_circuit",
    "check_is_cut",
    "check_kruskal",
    "check_odd_cities",
    "check_path_counts",
    "check_prim",
    "check_ticket_share",
    "check_wilson",
    "check_bfs",
    "check_board_graph",
    "check_components",
    "check_dfs",
    "check_dijkstra",
    "check_heuristic",
    "check_longest_trail",
    "check_steiner",
    "check_ticket",
    "check_tour",
    "random_network",
    "simple_board_graph",
]


# ------------------------------------------------------------- lesson 1
def check_board_graph(build_graph: Callable[[Map], Any]) -> CheckResult:
    """Check ``build_graph(game_map)``: the whole board as a networkx multigraph.

    Expected: an undirected ``networkx.MultiGraph`` with one node per place
    (cities, country spaces, junctions: the map's ``cities``) and one edge
    per route, with the route's length in the edge attribute ``length``.
    Tried on the USA, Germany and World maps, and on the USA map with Miami's
    routes taken off: a place without routes is still a place of the board.
    """

    def check(fn: Callable) -> int:
        cases = 0
        boards = [(_map(name), f"on the {_map(name).name} map") for name in MAPS]
        boards.append((_map_without_routes_at("usa", "miami"), _LONELY_CASE))
        for game_map, case in boards:
            graph = _call(fn, game_map, case=case)
            if not isinstance(graph, nx.Graph):
                raise _Wrong(f"{case} your function returned {type(graph).__name__}, not a graph.")
            if graph.is_directed():
                raise _Wrong(
                    f"{case} the graph is directed, but a route can be used both ways: "
                    "use nx.MultiGraph()."
                )
            want = {c.id for c in game_map.cities}
            missing, extra = want - set(graph.nodes), set(graph.nodes) - want
            if missing:
                lonely = missing - {p for r in game_map.routes for p in r.ends}
                hint = (
                    " A place without routes is a place too: add every place as a node "
                    "(graph.add_nodes_from), not only the ends of routes."
                    if lonely
                    else ""
                )
                raise _Wrong(f"{case} places are missing: {_names(game_map, missing)}.{hint}")
            if extra:
                raise _Wrong(
                    f"{case} nodes that are not places of the map: {_names(None, extra)} "
                    "(use the place ids, city.id)."
                )
            for group in game_map.groups.values():
                r = game_map.route_by_id[group[0]]
                label = f"{game_map.place_name(r.a)}–{game_map.place_name(r.b)}"
                have = graph.number_of_edges(r.a, r.b)
                if have != len(group):
                    hint = (
                        " A Graph keeps one edge per pair of places: use nx.MultiGraph()."
                        if not graph.is_multigraph()
                        else ""
                    )
                    raise _Wrong(
                        f"{case} {label} has {len(group)} parallel routes but your graph has "
                        f"{have} edge{'s' if have != 1 else ''} there.{hint}"
                    )
                lengths = sorted(
                    d.get("length")
                    for d in (
                        graph.get_edge_data(r.a, r.b).values()
                        if graph.is_multigraph()
                        else [graph.get_edge_data(r.a, r.b)]
                    )
                )
                if lengths != sorted(game_map.route_by_id[i].length for i in group):
                    raise _Wrong(
                        f"{case} the edges {label} should carry length={r.length} "
                        f"(an edge attribute), not {lengths}."
                    )
            if graph.number_of_edges() != len(game_map.routes):
                raise _Wrong(
                    f"{case} the graph has {graph.number_of_edges()} edges for "
                    f"{len(game_map.routes)} routes."
                )
            cases += 1
        return cases

    return _run(check, build_graph, "builds every board as a multigraph")


_LONELY_CASE = "on a made-up USA map whose routes at Miami were taken off (Miami has none)"


@functools.cache
def _map_without_routes_at(name: str, place: str) -> Map:
    """Map ``name`` without the routes at ``place``: a place of the board with no route."""
    data = json.loads(Path(_map(name).path).read_text(encoding="utf-8"))
    data["routes"] = [r for r in data["routes"] if place not in (r["a"], r["b"])]
    return map_from_data(data, f"{name} without the routes at {place}")


# ------------------------------------------------------------- lesson 2
def _search_cases() -> list[tuple[str, Map, nx.Graph, str]]:
    rng = case_rng(2024)
    cases = []
    for name in MAPS:
        game_map = _map(name)
        graph = simple_board_graph(game_map)
        for start in sorted(c.id for c in game_map.cities)[::17]:
            cases.append(
                (f"the whole {game_map.name} board from {start!r}", game_map, graph, start)
            )
        for k in range(3):
            routes = random_network(game_map, rng, 12 + 6 * k)
            net = simple_board_graph(game_map, routes)
            start = game_map.route_by_id[routes[0]].a
            cases.append(
                (
                    f"a made-up network of {len(routes)} {game_map.name} routes from {start!r}",
                    game_map,
                    net,
                    start,
                )
            )
    return cases


def _as_order(value: Any, case: str) -> list:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise _Wrong(f"{case}: expected a list of places in visiting order, got {value!r}.")
    order = list(value)
    if isinstance(value, (set, frozenset)):
        raise _Wrong(f"{case}: a set has no order; return a list in the order you visit.")
    return order


def _common_order_checks(
    order: list, graph: nx.Graph, start: str, game_map: Map, case: str
) -> None:
    if not order or order[0] != start:
        first = order[0] if order else "nothing"
        raise _Wrong(f"{case}: the visit should begin with the start {start!r}, not {first!r}.")
    if len(set(order)) != len(order):
        seen, twice = set(), None
        for p in order:
            if p in seen:
                twice = p
                break
            seen.add(p)
        raise _Wrong(f"{case}: {twice!r} is visited twice (remember which places you have seen).")
    reach = nx.node_connected_component(graph, start)
    missing, extra = reach - set(order), set(order) - reach
    if missing:
        raise _Wrong(
            f"{case}: these reachable places were never visited: {_names(game_map, missing)}."
        )
    if extra:
        raise _Wrong(
            f"{case}: these places cannot be reached but were visited: {_names(game_map, extra)}."
        )


def _bfs_problem(order: list, graph: nx.Graph, game_map: Map) -> str | None:
    """Why `order` is not a breadth-first order of `graph`, or None if it is one."""
    dist = nx.single_source_shortest_path_length(graph, order[0])
    for p, q in itertools.pairwise(order):
        if dist[q] < dist[p]:
            return (
                f"{game_map.place_name(p)} ({dist[p]} routes from the start) is visited before "
                f"{game_map.place_name(q)} ({dist[q]} routes away): breadth-first search "
                "finishes every distance before the next one (use a queue, first in first out)."
            )
    pos = {p: i for i, p in enumerate(order)}
    last_parent = -1
    for i, v in enumerate(order[1:], 1):
        parent = min(pos[u] for u in graph[v])
        if parent > i:
            return f"{game_map.place_name(v)} is visited before any of its neighbours."
        if parent < last_parent:
            return (
                f"{game_map.place_name(v)} is visited too late or too early: a queue hands "
                "out places in the order they were discovered."
            )
        last_parent = parent
    return None


def _dfs_problem(order: list, graph: nx.Graph, game_map: Map) -> str | None:
    """Why `order` is not a depth-first order of `graph`, or None if it is one."""
    visited = {order[0]}
    stack = [order[0]]
    for w in order[1:]:
        while stack and w not in graph[stack[-1]]:
            top = stack[-1]
            unvisited = [u for u in graph[top] if u not in visited]
            if unvisited:
                return (
                    f"after {game_map.place_name(top)} the search should go deeper (for example "
                    f"to {game_map.place_name(sorted(unvisited)[0])}) before jumping to "
                    f"{game_map.place_name(w)}: depth-first search always continues from the "
                    "most recent place that still has unvisited neighbours."
                )
            stack.pop()
        if not stack:
            return f"{game_map.place_name(w)} is not next to any place on the current path."
        visited.add(w)
        stack.append(w)
    return None


def _check_search(fn: Callable, problem: Callable) -> int:
    cases = 0
    for case, game_map, graph, start in _search_cases():
        order = _as_order(_call(fn, graph.copy(), start, case=f"On {case}"), f"On {case}")
        _common_order_checks(order, graph, start, game_map, f"On {case}")
        why = problem(order, graph, game_map)
        if why:
            raise _Wrong(f"on {case}: {why}")
        cases += 1
    return cases


def check_bfs(bfs: Callable[[nx.Graph, str], Sequence[str]]) -> CheckResult:
    """Check ``bfs(graph, start)``: the places reachable from `start`, in breadth-first order.

    `graph` is a simple ``networkx.Graph`` (``graph[place]`` gives the
    neighbours).  Any breadth-first order is accepted, whatever order the
    neighbours of a place are taken in.  Tried on whole boards and on
    made-up player networks of the three maps.
    """
    return _run(lambda fn: _check_search(fn, _bfs_problem), bfs, "visits in a breadth-first order")


def check_dfs(dfs: Callable[[nx.Graph, str], Sequence[str]]) -> CheckResult:
    """Check ``dfs(graph, start)``: the places reachable from `start`, in depth-first order.

    Any depth-first order (preorder) is accepted.  Tried on whole boards and
    on made-up player networks of the three maps.
    """
    return _run(lambda fn: _check_search(fn, _dfs_problem), dfs, "visits in a depth-first order")


def _ticket_cases() -> list[tuple[str, list[tuple[str, str]], frozenset, frozenset, frozenset]]:
    """(description, routes, a, b, dead_ends): made-up traps first, then real tickets."""
    cases = [
        (
            "a made-up map where X is a dead end, ticket A–B, routes A–X and X–B",
            [("A", "X"), ("X", "B")],
            frozenset({"A"}),
            frozenset({"B"}),
            frozenset({"X"}),
        ),
        (
            "a made-up map where X is a dead end, ticket X–B, routes A–X and X–B",
            [("A", "X"), ("X", "B")],
            frozenset({"X"}),
            frozenset({"B"}),
            frozenset({"X"}),
        ),
        (
            "a made-up map, ticket A–{X1, X2} (a country), routes A–B and B–X2",
            [("A", "B"), ("B", "X2")],
            frozenset({"A"}),
            frozenset({"X1", "X2"}),
            frozenset({"X1", "X2"}),
        ),
        (
            "a made-up map, ticket A–C, routes A–B and a separate C–D",
            [("A", "B"), ("C", "D")],
            frozenset({"A"}),
            frozenset({"C"}),
            frozenset(),
        ),
    ]
    rng = case_rng(7)
    for name in ("germany", "usa"):
        game_map = _map(name)
        for k in range(3):
            ids = random_network(game_map, rng, 14 + 8 * k)
            routes = [game_map.route_by_id[i].ends for i in ids]
            for ticket in game_map.tickets[k::9]:
                a, b = (game_map.targets(p) for p in (ticket.cities[0], ticket.cities[-1]))
                label = f"{game_map.place_name(ticket.cities[0])}–" + game_map.place_name(
                    ticket.cities[-1]
                )
                cases.append(
                    (
                        f"ticket {label} with a made-up {game_map.name} network of "
                        f"{len(routes)} routes",
                        routes,
                        a,
                        b,
                        game_map.dead_ends,
                    )
                )
    return cases


def check_ticket(
    ticket_done: Callable[[list[tuple[str, str]], set[str], set[str], set[str]], bool],
) -> CheckResult:
    """Check ``ticket_done(routes, a, b, dead_ends)``: is a ticket complete?

    `routes` is a list of ``(place, place)`` pairs (the player's routes); `a`
    and `b` are sets of places, either end may be reached at any of them (a
    country's border spaces); `dead_ends` are places a connection may end at
    but never pass through.  The answer must be ``True`` or ``False``.
    """

    def check(fn: Callable) -> int:
        cases = 0
        for case, routes, a, b, dead in _ticket_cases():
            got = _call(fn, list(routes), set(a), set(b), set(dead), case=f"On {case}")
            want = ticket_completed(routes, a, b, dead_ends=dead)
            if not isinstance(got, bool):
                raise _Wrong(f"on {case}: expected True or False, got {got!r}.")
            if got != want:
                raise _Wrong(f"on {case}: expected {want}, your function says {got}.")
            cases += 1
        return cases

    return _run(check, ticket_done, "agrees with ticket_completed")


def check_components(
    components: Callable[[list[str], list[tuple[str, str]]], Iterable[Collection[str]]],
) -> CheckResult:
    """Check ``components(places, routes)``: the connected pieces of a network.

    `places` lists every place (a place no route touches is a piece on its
    own); `routes` is a list of ``(place, place)`` pairs.  The answer is a
    list of sets (or any collections) of places, in any order.
    """

    def check(fn: Callable) -> int:
        rng = case_rng(11)
        cases = 0
        for name in MAPS:
            game_map = _map(name)
            places = sorted(c.id for c in game_map.cities)
            for size in (0, 5, 15, 30, None):  # None: the whole board
                if size is None:
                    ids = [r.id for r in game_map.routes]
                else:
                    ids = random_network(game_map, rng, size) if size else []
                routes = [game_map.route_by_id[i].ends for i in ids]
                case = f"on the {game_map.name} map with {len(routes)} routes"
                got = _call(fn, list(places), list(routes), case=case)
                try:
                    pieces = [frozenset(piece) for piece in got]
                except TypeError:
                    raise _Wrong(
                        f"{case}: expected a list of sets of places, got {got!r}."
                    ) from None
                graph = nx.Graph()
                graph.add_nodes_from(places)
                graph.add_edges_from(routes)
                want = {frozenset(c) for c in nx.connected_components(graph)}
                where = {}
                for piece in pieces:
                    for p in piece:
                        if p in where:
                            raise _Wrong(f"{case}: {p!r} is in two of your pieces.")
                        where[p] = piece
                missing = set(places) - set(where)
                if missing:
                    raise _Wrong(
                        f"{case}: these places are in no piece: {_names(game_map, missing)}."
                    )
                for a, b in routes:
                    if where[a] != where[b]:
                        raise _Wrong(
                            f"{case}: the route {game_map.place_name(a)}–"
                            f"{game_map.place_name(b)} joins two of your pieces: they are one."
                        )
                if set(pieces) != want:
                    bad = next(p for p in pieces if p not in want)
                    raise _Wrong(
                        f"{case}: your piece {{{_names(game_map, bad)}}} is not connected "
                        "by the routes."
                    )
                cases += 1
        return cases

    return _run(check, components, "finds the connected pieces")


# ------------------------------------------------------------- lesson 3
def check_dijkstra(dijkstra: Callable[[nx.Graph, str, str], float]) -> CheckResult:
    """Check ``dijkstra(graph, source, target)``: the fewest spaces from source to target.

    `graph` is a ``networkx.Graph`` whose edges carry ``weight`` (spaces; 0
    for a route the player owns).  Return ``math.inf`` when the target cannot
    be reached.
    """

    def check(fn: Callable) -> int:
        rng = case_rng(3)
        cases = 0
        for name in MAPS:
            game_map = _map(name)
            setups = [("the whole board", simple_board_graph(game_map))]
            owned = random_network(game_map, rng, 10)
            setups.append(
                (
                    "the board with 10 owned routes (0 spaces)",
                    simple_board_graph(game_map, owned=owned),
                )
            )
            taken = set(random_network(game_map, rng, 40))
            free = [r.id for r in game_map.routes if r.id not in taken]
            setups.append(("the board without 40 taken routes", simple_board_graph(game_map, free)))
            places = sorted(c.id for c in game_map.cities)
            for label, graph in setups:
                for _ in range(5):
                    s, t = rng.sample(places, 2)
                    case = f"on the {game_map.name} map, {label}, from {s!r} to {t!r}"
                    try:
                        want = nx.dijkstra_path_length(graph, s, t)
                    except nx.NetworkXNoPath:
                        want = math.inf
                    got = _call(fn, graph.copy(), s, t, case=case)
                    if not isinstance(got, (int, float)) or isinstance(got, bool):
                        raise _Wrong(f"{case}: expected a number of spaces, got {got!r}.")
                    if got != want:
                        hint = ""
                        if want == math.inf:
                            hint = " (no path: return math.inf)"
                        elif got > want:
                            hint = " (a shorter way exists: is a place settled too early?)"
                        raise _Wrong(f"{case}: expected {want}, got {got}{hint}.")
                    cases += 1
        return cases

    return _run(check, dijkstra, "finds the fewest spaces")


def check_heuristic(heuristic: Callable[[str, str], float], game_map: Map | str) -> CheckResult:
    """Check that ``heuristic(place, goal)`` is admissible on a map, and say how useful it is.

    Admissible: never more than the true fewest spaces from `place` to
    `goal` when every route costs its length (and 0 when `place` is `goal`).
    Tried on every pair of places.  A correct result also reports the average
    ratio estimate / true distance: the closer to 1, the fewer places A*
    takes.
    """
    game_map = _map(game_map) if isinstance(game_map, str) else game_map
    ratios: list[float] = []

    def check(fn: Callable) -> int:
        graph = simple_board_graph(game_map)
        dist = dict(nx.all_pairs_dijkstra_path_length(graph))
        worst = None
        cases = 0
        for goal in sorted(graph):
            for place in sorted(graph):
                if goal not in dist[place]:
                    continue
                case = f"heuristic({place!r}, {goal!r})"
                got = _call(fn, place, goal, case=case)
                try:
                    got = float(got)
                except (TypeError, ValueError):
                    raise _Wrong(f"{case} returned {got!r}, not a number.") from None
                true = dist[place][goal]
                if got > true + 1e-9 and (worst is None or got - true > worst[0]):
                    worst = (got - true, place, goal, got, true)
                if true:
                    ratios.append(max(got, 0.0) / true)
                cases += 1
        if worst:
            _, place, goal, got, true = worst
            raise _Wrong(
                f"on the {game_map.name} map your estimate from {game_map.place_name(place)} to "
                f"{game_map.place_name(goal)} is {got:.2f} spaces but the fewest possible is "
                f"{true}: the heuristic overestimates, so A* could miss the best path."
            )
        return cases

    result = _run(check, heuristic, f"never overestimates on the {game_map.name} map")
    if result.passed:
        mean = sum(ratios) / len(ratios)
        return CheckResult(
            "correct",
            f"{result.message}\n  On average it estimates {mean:.0%} of the true distance.",
            result.cases,
        )
    return result
