"""Checks for the exercises of lessons 7 to 11: spanning trees, Euler, cuts, centrality, statistics.

They work like the checks of :mod:`ttr_nb.teaching.exercises` (which
re-exports them): each runs your function on real boards and on small traps,
compares with a reference, and prints ✔ Correct, … Not yet or ✘ Not quite
with the first case that went wrong.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

import networkx as nx

from ..algorithms.centrality import _counts, ticket_betweenness
from ..tournament import wilson_interval
from .checking import MAPS, CheckResult, _call, _map, _run, _Wrong, case_rng, random_network

__all__ = [
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
    "even_network",
]


def _board_routes(name: str) -> list[tuple[str, str, int]]:
    return [(r.a, r.b, r.length) for r in _map(name).routes]


def _made_up(name: str, rng: random.Random, size: int) -> list[tuple[str, str, int]]:
    game_map = _map(name)
    return [
        (r.a, r.b, r.length)
        for r in (game_map.route_by_id[i] for i in random_network(game_map, rng, size))
    ]


def _number(value: Any, case: str, what: str = "a number") -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _Wrong(f"{case}: expected {what}, got {value!r}.")
    return value


# ------------------------------------------------------------- lesson 7
def _mst_weight(places: Iterable[Hashable], routes: Sequence[tuple]) -> float:
    graph = nx.MultiGraph()
    graph.add_nodes_from(places)
    graph.add_weighted_edges_from((a, b, w) for a, b, w in routes)
    return nx.minimum_spanning_tree(graph).size(weight="weight")


def _spanning_cases() -> list[tuple[str, list[Hashable], list[tuple]]]:
    triangle = [("A", "B", 2), ("B", "C", 2), ("C", "A", 3)]
    cases = [
        ("a triangle with sides 2, 2 and 3", ["A", "B", "C"], triangle),
        (
            "a square with a long diagonal",
            list("ABCD"),
            [("A", "B", 1), ("B", "C", 1), ("C", "D", 1), ("D", "A", 1), ("A", "C", 5)],
        ),
        ("two separate pieces", list("ABCDE"), [("A", "B", 4), ("C", "D", 1), ("D", "E", 2)]),
        ("a place with no route (F)", list("ABCF"), triangle),
        (
            "equal lengths everywhere",
            list("ABCD"),
            [("A", "B", 2), ("B", "C", 2), ("C", "D", 2), ("D", "A", 2), ("A", "C", 2)],
        ),
    ]
    rng = case_rng(71)
    for name in MAPS:
        game_map = _map(name)
        places = sorted(c.id for c in game_map.cities)
        cases.append((f"the whole {game_map.name} board", places, _board_routes(name)))
        for size in (8, 20):
            routes = _made_up(name, rng, size)
            ends = sorted({p for r in routes for p in r[:2]})
            cases.append((f"a made-up {game_map.name} network of {size} routes", ends, routes))
    return cases


def check_kruskal(kruskal: Callable[[list, list[tuple]], Iterable[tuple]]) -> CheckResult:
    """Check ``kruskal(places, routes)``: the routes of a minimum spanning tree (or forest).

    `places` lists every place; `routes` is a list of ``(place, place,
    length)``.  The answer is a list of some of those route tuples that joins
    every piece of the network without a cycle, of least total length.
    """

    def check(fn: Callable) -> int:
        cases = 0
        for case, places, routes in _spanning_cases():
            case = f"On {case}"
            got = _call(fn, list(places), list(routes), case=case)
            try:
                chosen = [tuple(r) for r in got]
            except TypeError:
                raise _Wrong(f"{case}: expected a list of routes, got {got!r}.") from None
            left = Counter(routes)
            for route in chosen:
                if left[route] <= 0:
                    raise _Wrong(f"{case}: {route!r} is not one of the routes (or is used twice).")
                left[route] -= 1
            forest = nx.MultiGraph()
            forest.add_nodes_from(places)
            forest.add_edges_from(r[:2] for r in chosen)
            if not nx.is_forest(forest):
                cycle = nx.find_cycle(forest)
                loop = " – ".join(str(u) for u, *_ in cycle)
                raise _Wrong(f"{case}: your routes close a cycle ({loop}); a tree has none.")
            whole = nx.MultiGraph()
            whole.add_nodes_from(places)
            whole.add_edges_from(r[:2] for r in routes)
            if nx.number_connected_components(forest) != nx.number_connected_components(whole):
                raise _Wrong(
                    f"{case}: your routes leave {nx.number_connected_components(forest)} pieces "
                    f"where the network has {nx.number_connected_components(whole)}: "
                    "some route that joins two pieces is missing."
                )
            total, best = sum(r[2] for r in chosen), _mst_weight(places, routes)
            if total != best:
                raise _Wrong(
                    f"{case}: your tree is {total} spaces long, but one of {best:g} exists. "
                    "Take the routes shortest first."
                )
            cases += 1
        return cases

    return _run(check, kruskal, "finds a minimum spanning tree")


def check_prim(prim: Callable[[list[tuple], Hashable], float]) -> CheckResult:
    """Check ``prim(routes, start)``: the length of a minimum spanning tree grown from `start`.

    Only the piece of the network that contains `start` is spanned.
    """

    def check(fn: Callable) -> int:
        cases = 0
        rng = case_rng(72)
        for case, _places, routes in _spanning_cases():
            ends = sorted({p for r in routes for p in r[:2]})
            for start in rng.sample(ends, min(2, len(ends))):
                label = f"On {case}, from {start!r}"
                got = _number(_call(fn, list(routes), start, case=label), label)
                graph = nx.MultiGraph()
                graph.add_weighted_edges_from(routes)
                piece = graph.subgraph(nx.node_connected_component(graph, start))
                want = nx.minimum_spanning_tree(piece).size(weight="weight")
                if got != want:
                    hint = (
                        " Did you span other pieces too? Only the start's piece counts."
                        if got > want and len(piece) < len(graph)
                        else " Always take the shortest route leaving the tree."
                    )
                    raise _Wrong(f"{label}: expected {want:g}, got {got!r}.{hint}")
                cases += 1
        return cases

    return _run(check, prim, "grows a minimum spanning tree")


# ------------------------------------------------------------- lesson 8
def even_network(graph: nx.Graph, rng: random.Random, cycles: int = 4) -> list[tuple]:
    """A made-up network where every place has an even number of routes, in one piece.

    Random cycles of `graph` are combined route by route (a route used by an
    even number of them drops out), which keeps every degree even; the
    largest piece is returned as ``(place, place)`` pairs.
    """
    basis = nx.cycle_basis(graph)
    edges: set[frozenset] = set()
    for cycle in rng.sample(basis, min(cycles, len(basis))):
        for u, v in zip(cycle, cycle[1:] + cycle[:1], strict=True):
            edges ^= {frozenset((u, v))}
    result = nx.Graph([tuple(sorted(e)) for e in edges])
    if not result:
        return []
    piece = max(nx.connected_components(result), key=lambda c: (len(c), sorted(c)))
    return sorted(tuple(sorted(e)) for e in result.subgraph(piece).edges)


def _euler_cases() -> list[tuple[str, list[tuple], Hashable]]:
    cases = [
        ("a triangle", [("A", "B"), ("B", "C"), ("C", "A")], "A"),
        (
            "a bow tie (two triangles sharing C)",
            [("A", "B"), ("B", "C"), ("C", "A"), ("C", "D"), ("D", "E"), ("E", "C")],
            "A",
        ),
        (
            "a figure eight starting at the middle",
            [("A", "B"), ("B", "C"), ("C", "A"), ("C", "D"), ("D", "E"), ("E", "C")],
            "C",
        ),
        (
            "five places, all joined to each other",
            [tuple(pair) for pair in itertools.combinations("ABCDE", 2)],
            "A",
        ),
        # Parallel routes: the two tracks of a double route are two routes to walk.
        ("a double route A=B alone", [("A", "B"), ("B", "A")], "A"),
        (
            "a triangle with a double route C=D hanging from it",
            [("A", "B"), ("B", "C"), ("C", "A"), ("C", "D"), ("C", "D")],
            "D",
        ),
    ]
    rng = case_rng(81)
    for name in MAPS:
        game_map = _map(name)
        graph = nx.Graph((r.a, r.b) for r in game_map.routes)
        doubles = sorted({r.ends for r in game_map.routes if game_map.parallel(r)})
        for k in (2, 4, 6):
            routes = even_network(graph, rng, k)
            if routes:
                start = rng.choice(sorted({p for r in routes for p in r}))
                cases.append(
                    (f"a made-up {game_map.name} network of {len(routes)} routes", routes, start)
                )
        # Both tracks of every double route that touches a network and is not in it yet.
        routes = even_network(graph, rng, 4)
        places = {p for r in routes for p in r}
        links = {frozenset(r) for r in routes}
        extra = [d for d in doubles if set(d) & places and frozenset(d) not in links]
        routes = routes + [d for d in extra for _ in range(2)]
        if extra:
            cases.append(
                (
                    f"a made-up {game_map.name} network of {len(routes)} routes, with both tracks "
                    f"of {len(extra)} double routes",
                    routes,
                    rng.choice(sorted(places)),
                )
            )
    return cases


def check_odd_cities(odd_cities: Callable[[list[tuple]], Iterable[Hashable]]) -> CheckResult:
    """Check ``odd_cities(routes)``: the places with an odd number of routes."""

    def check(fn: Callable) -> int:
        cases = 0
        rng = case_rng(82)
        trials = [(case, routes) for case, routes, _ in _euler_cases()]
        trials += [
            ("a star X–A, X–B, X–C", [("X", "A"), ("X", "B"), ("X", "C")]),
            ("a line A–B–C–D", [("A", "B"), ("B", "C"), ("C", "D")]),
            # Parallel routes count once each: a double route adds 2 to both its ends.
            ("a double route A=B and a route B–C", [("A", "B"), ("A", "B"), ("B", "C")]),
            ("a triangle with a double side", [("A", "B"), ("B", "C"), ("C", "A"), ("C", "A")]),
        ]
        for name in MAPS:
            game_map = _map(name)
            trials.append(
                (
                    f"the whole {game_map.name} board, both tracks of every double route",
                    [(r.a, r.b) for r in game_map.routes],
                )
            )
        for name in MAPS:
            trials.append(
                (f"a made-up {_map(name).name} network", [r[:2] for r in _made_up(name, rng, 15)])
            )
        for case, routes in trials:
            got = _call(fn, list(routes), case=f"On {case}")
            try:
                got = set(got)
            except TypeError:
                raise _Wrong(f"on {case}: expected a set of places, got {got!r}.") from None
            degree = Counter(p for r in routes for p in r[:2])
            want = {p for p, d in degree.items() if d % 2}
            if got != want:
                extra, missing = sorted(got - want, key=str), sorted(want - got, key=str)
                parallel = len({frozenset(r[:2]) for r in routes}) < len(routes)
                shown = routes if len(routes) <= 12 else f"({len(routes)} routes)"
                raise _Wrong(
                    f"on {case} {shown}: expected {sorted(want, key=str)}"
                    + (f"; {extra} have an even number of routes" if extra else "")
                    + (f"; {missing} are odd too" if missing else "")
                    + (
                        ". Count routes, not neighbours: the two tracks of a double route are "
                        "two routes"
                        if parallel
                        else ""
                    )
                    + "."
                )
            cases += 1
        return cases

    return _run(check, odd_cities, "finds the odd places")


PARALLEL_ROUTES = (
    " The two tracks of a double route are two routes, and the walk uses each one: keep the "
    "routes apart by their position in the list (a graph that keeps one edge per pair of "
    "places, such as nx.Graph, loses a track)."
)


def _one_circuit(fn: Callable, case: str, routes: list[tuple], start: Hashable) -> None:
    label = f"On {case}, from {start!r}"
    got = _call(fn, list(routes), start, case=label)
    try:
        walk = list(got)
    except TypeError:
        raise _Wrong(f"{label}: expected a list of places, got {got!r}.") from None
    if not walk or walk[0] != start or walk[-1] != start:
        raise _Wrong(f"{label}: the walk must start and end at {start!r}: {walk}.")
    left = Counter(frozenset(r) for r in routes)
    for u, v in itertools.pairwise(walk):
        if left[frozenset((u, v))] <= 0:
            used = "is used too often" if frozenset((u, v)) in left else "is not a route"
            raise _Wrong(f"{label}: {u}–{v} {used} (walk {walk}).")
        left[frozenset((u, v))] -= 1
    unused = [tuple(k) for k, n in left.items() if n]
    if unused:
        raise _Wrong(
            f"{label}: the walk never uses {unused[:4]}. When you get stuck back at the "
            "start, splice in a detour from a place on the walk that still has routes."
        )


def check_euler_circuit(
    euler_circuit: Callable[[list[tuple], Hashable], Sequence[Hashable]],
) -> CheckResult:
    """Check ``euler_circuit(routes, start)``: a closed walk through every route exactly once.

    `routes` is a list of ``(place, place)`` pairs in one piece, every place
    with an even number of routes.  The answer lists the places visited,
    starting and ending at `start`.
    """

    def check(fn: Callable) -> int:
        cases = 0
        for case, routes, start in _euler_cases():
            try:
                _one_circuit(fn, case, routes, start)
            except _Wrong as wrong:
                if len({frozenset(r) for r in routes}) == len(routes):
                    raise
                raise _Wrong(f"{wrong}{PARALLEL_ROUTES}") from None
            cases += 1
        return cases

    return _run(check, euler_circuit, "walks every route once")


# ------------------------------------------------------------- lesson 9
def _ways_cases() -> list[tuple[str, nx.Graph, Hashable, Hashable]]:
    # The trap: S-1-2-T is a shortest way, but taking it leaves only one more way;
    # two ways exist (S-1-4-T and S-3-2-T) if the search may undo route 1-2.
    trap = [("S", "1"), ("S", "3"), ("1", "2"), ("1", "4"), ("3", "2"), ("2", "T"), ("4", "T")]
    cases = [("a trap where one shortest way blocks another", nx.Graph(trap), "S", "T")]
    swapped = {"1": "3", "3": "1", "2": "4", "4": "2"}
    mirror = nx.Graph([(swapped.get(u, u), swapped.get(v, v)) for u, v in trap])
    cases.append(("the same trap, labelled the other way", mirror, "S", "T"))
    # Bottlenecks away from the ends: the routes at a or b are only an upper bound.
    groups = [*itertools.combinations("APQR", 2), *itertools.combinations("BXYZ", 2), ("R", "X")]
    cases.append(("two groups of four places joined by one route R–X", nx.Graph(groups), "A", "B"))
    germany = nx.Graph((r.a, r.b) for r in _map("germany").routes)
    cases.append(("the Germany board, 'berlin' to 'freiburg'", germany, "berlin", "freiburg"))
    cases.append(("a line A–B–C", nx.Graph([("A", "B"), ("B", "C")]), "A", "C"))
    cases.append(("two pieces", nx.Graph([("A", "B"), ("C", "D")]), "A", "D"))
    rng = case_rng(91)
    for name in MAPS:
        game_map = _map(name)
        board = nx.Graph((r.a, r.b) for r in game_map.routes)
        tickets = [t for t in game_map.tickets if len(t.cities) == 2]
        for ticket in rng.sample(tickets, 4):
            a, b = ticket.cities
            if a in board and b in board:
                cases.append((f"the {game_map.name} board, {a!r} to {b!r}", board, a, b))
        thin = board.copy()
        thin.remove_edges_from(rng.sample(sorted(thin.edges), len(thin.edges) // 3))
        a, b = rng.sample(sorted(thin), 2)
        cases.append((f"the {game_map.name} board with a third of its routes gone", thin, a, b))
    return cases


def _unchanged(given: nx.Graph, original: nx.Graph, label: str) -> None:
    """A function that answers a question about a graph must leave the caller's graph as
    it was: the caller goes on using it (the next question, the game's own board)."""
    lost = [e for e in original.edges if not given.has_edge(*e)]
    added = [e for e in given.edges if not original.has_edge(*e)]
    gone = [p for p in original if p not in given]
    if lost or added or gone or len(given) != len(original):
        what = (
            f"removed the routes {sorted(lost)[:4]}"
            if lost
            else f"removed the places {sorted(gone, key=str)[:4]}"
            if gone
            else "added to it"
        )
        raise _Wrong(
            f"{label}: your function changed the graph it was given (it {what}). The caller "
            "still needs its graph: search around the claimed routes, or work on a copy "
            "(graph.copy())."
        )


def check_count_ways(count_ways: Callable[[nx.Graph, Hashable, Hashable], int]) -> CheckResult:
    """Check ``count_ways(graph, a, b)``: the most ways from a to b that share no route.

    By Menger's theorem this is also the fewest routes that cut a from b.
    `graph` is a simple ``networkx.Graph``.
    """

    def check(fn: Callable) -> int:
        cases = 0
        for case, graph, a, b in _ways_cases():
            label = f"On {case}"
            given = graph.copy()
            got = _number(_call(fn, given, a, b, case=label), label, "a whole number")
            _unchanged(given, graph, label)
            want = nx.edge_connectivity(graph, a, b) if nx.has_path(graph, a, b) else 0
            if got != want:
                hint = (
                    " Taking shortest ways one after the other is not enough: let a later way "
                    "cancel a route an earlier way used (a residual network)."
                    if got < want
                    else " Do two of your ways share a route? Counting the routes at a or at b"
                    " is not enough: the ways may all have to squeeze through fewer routes"
                    " further on."
                )
                raise _Wrong(f"{label}: expected {want}, got {got!r}.{hint}")
            cases += 1
        return cases

    return _run(check, count_ways, "counts route-disjoint ways")


def check_is_cut(
    is_cut: Callable[[nx.Graph, Hashable, Hashable, list[tuple]], bool],
) -> CheckResult:
    """Check ``is_cut(graph, a, b, routes)``: does claiming `routes` separate a from b?"""

    def check(fn: Callable) -> int:
        cases = 0
        rng = case_rng(92)
        for case, graph, a, b in _ways_cases():
            edges = sorted(graph.edges)
            connected = nx.has_path(graph, a, b)
            cut = sorted(nx.minimum_edge_cut(graph, a, b)) if connected else []
            # networkx gives each cut route from a's side to b's; a route has no direction,
            # so the same cut is tried with its routes written the other way round too.
            backwards = [(v, u) for u, v in cut]
            trials = [cut, backwards, cut[1:], rng.sample(edges, min(len(edges), 3)), []]
            for routes in trials:
                rest = graph.copy()
                rest.remove_edges_from(routes)
                want = not nx.has_path(rest, a, b)
                label = f"On {case} with {routes} claimed"
                given = graph.copy()
                got = _call(fn, given, a, b, list(routes), case=label)
                _unchanged(given, graph, label)
                if got is not want:
                    hint = (
                        " A route can be used both ways: claiming it closes both directions."
                        if routes is backwards and want
                        else ""
                    )
                    raise _Wrong(f"{label}: expected {want}, got {got!r}.{hint}")
                cases += 1
        return cases

    return _run(check, is_cut, "tells a cut from a non-cut")


# ------------------------------------------------------------ lesson 10
def _weighted(name: str) -> nx.Graph:
    graph = nx.Graph()
    for r in _map(name).routes:
        if not graph.has_edge(r.a, r.b) or graph[r.a][r.b]["weight"] > r.length:
            graph.add_edge(r.a, r.b, weight=r.length)
    return graph


def _centrality_cases() -> list[tuple[str, nx.Graph]]:
    diamond = nx.Graph()
    diamond.add_weighted_edges_from(
        [("S", "A", 1), ("A", "T", 1), ("S", "B", 1), ("B", "T", 1), ("T", "C", 2), ("S", "C", 4)]
    )
    return [("a diamond S–A/B–T with a tail", diamond)] + [
        (f"the {_map(name).name} board", _weighted(name)) for name in ("usa", "world")
    ]


def check_path_counts(count_paths: Callable[[nx.Graph, Hashable], dict]) -> CheckResult:
    """Check ``count_paths(graph, source)``: for every place, how many shortest paths lead there.

    `graph` has the length of each route in the edge attribute ``weight``.
    The source itself counts 1; places that cannot be reached may be left out
    or given 0.
    """

    def check(fn: Callable) -> int:
        cases = 0
        rng = case_rng(101)
        for case, graph in _centrality_cases():
            for source in rng.sample(sorted(graph), 3):
                label = f"On {case} from {source!r}"
                got = _call(fn, graph.copy(), source, case=label)
                if not isinstance(got, dict):
                    raise _Wrong(f"{label}: expected a dict place -> number, got {got!r}.")
                _, want = _counts(graph, source, "weight")
                for place in sorted(graph):
                    if got.get(place, 0) != want[place]:
                        paths = want[place]
                        raise _Wrong(
                            f"{label}: {place!r} has {paths} shortest "
                            f"path{'s' if paths != 1 else ''}, you counted {got.get(place, 0)!r}. "
                            "When a route gives a place a path as short as the best so far, add "
                            "the counts; when it gives a shorter one, start again from it."
                        )
                cases += 1
        return cases

    return _run(check, count_paths, "counts shortest paths")


def check_ticket_share(
    share: Callable[[nx.Graph, Hashable, Hashable, Hashable], float],
) -> CheckResult:
    """Check ``share(graph, a, b, place)``: the fraction of the shortest a–b paths through `place`.

    The ends themselves count 0.
    """

    def check(fn: Callable) -> int:
        cases = 0
        rng = case_rng(102)
        for case, graph in _centrality_cases():
            places = sorted(graph)
            for _ in range(4):
                a, b = rng.sample(places, 2)
                through = ticket_betweenness(graph, [(a, b)])
                for place in sorted(places, key=lambda p: -through[p])[:2] + [rng.choice(places)]:
                    label = f"On {case}, ticket {a!r}–{b!r}, place {place!r}"
                    got = _number(_call(fn, graph.copy(), a, b, place, case=label), label)
                    if not math.isclose(got, through[place], abs_tol=1e-9):
                        raise _Wrong(f"{label}: expected {through[place]:.4g}, got {got!r}.")
                    cases += 1
        return cases

    return _run(check, share, "finds each place's share of a ticket's shortest paths")


# ------------------------------------------------------------ lesson 11
def check_wilson(wilson: Callable[[int, int], tuple[float, float]]) -> CheckResult:
    """Check ``wilson(successes, trials)``: the 95 % Wilson interval ``(low, high)``."""

    def check(fn: Callable) -> int:
        cases = 0
        for k, n in [(0, 10), (10, 10), (5, 10), (60, 100), (1, 3), (123, 1000), (999, 1000)]:
            label = f"For {k} of {n}"
            got = _call(fn, k, n, case=label)
            try:
                low, high = (float(x) for x in got)
            except (TypeError, ValueError):
                raise _Wrong(f"{label}: expected a pair (low, high), got {got!r}.") from None
            want = wilson_interval(k, n)
            if not all(
                math.isclose(x, y, abs_tol=5e-4) for x, y in zip((low, high), want, strict=True)
            ):
                raise _Wrong(
                    f"{label}: expected ({want[0]:.4f}, {want[1]:.4f}), "
                    f"got ({low:.4f}, {high:.4f}). Use z = 1.96, and check the centre and the "
                    "half-width separately."
                )
            cases += 1
        return cases

    return _run(check, wilson, "computes Wilson intervals")


def check_completion_rates(rates: Callable[[list[tuple[int, bool]]], dict]) -> CheckResult:
    """Check ``rates(tickets)``: the share of tickets completed, for each ticket length.

    `tickets` is a list of ``(length, completed)`` pairs.
    """

    def check(fn: Callable) -> int:
        rng = case_rng(111)
        cases = 0
        samples = [[(5, True), (5, False), (9, True)], []]
        for _ in range(5):
            samples.append(
                [(rng.randint(4, 22), rng.random() < 0.6) for _ in range(rng.randint(5, 80))]
            )
        for tickets in samples:
            label = f"For {len(tickets)} tickets"
            got = _call(fn, list(tickets), case=label)
            if not isinstance(got, dict):
                raise _Wrong(f"{label}: expected a dict length -> share, got {got!r}.")
            by_length: dict[int, list[bool]] = {}
            for length, done in tickets:
                by_length.setdefault(length, []).append(done)
            want = {k: sum(v) / len(v) for k, v in by_length.items()}
            if set(got) != set(want):
                raise _Wrong(f"{label}: expected the lengths {sorted(want)}, got {sorted(got)}.")
            for length, share in want.items():
                if not math.isclose(_number(got[length], label), share):
                    raise _Wrong(
                        f"{label}: length {length} should be {share:.3f}, got {got[length]!r}."
                    )
            cases += 1
        return cases

    return _run(check, rates, "finds completion rates by length")
