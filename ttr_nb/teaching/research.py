"""Exercise checks and folded solutions of the research lessons (12 and 13).

Lesson 12 ("The best possible game") asks for the score of a set of routes, and for
the cut the solver adds when a ticket's places are not joined; lesson 13 ("Balance by
simulation") asks for the cities no player reached in a game. Each check compares
the learner's function with an independent reference on real boards and on small
traps, as :mod:`.exercises` does, and the solutions are shown folded in the lessons
(:func:`markdown`) and pasted back into them (:func:`paste`).
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable
from types import SimpleNamespace

import networkx as nx

from ..analysis.best_score import map_score
from ..maps import Map, load_map
from .checking import CheckResult, _call, _run, _Wrong

__all__ = [
    "check_ignored",
    "check_leaving_routes",
    "check_network_score",
    "ignored",
    "leaving_routes",
    "markdown",
    "network_score",
    "paste",
]


# --------------------------------------------------------------- solutions
def network_score(game_map, routes):
    points = sum(game_map.route_points(game_map.route_by_id[r].length) for r in routes)
    graph = nx.MultiGraph()
    graph.add_edges_from(game_map.route_by_id[r].ends for r in routes)
    for ticket in game_map.tickets:
        a, b = ticket.cities
        if a in graph and b in graph and nx.has_path(graph, a, b):
            points += ticket.points
    return points


def leaving_routes(game_map, chosen, city):
    graph = nx.MultiGraph()
    graph.add_node(city)
    graph.add_edges_from(game_map.route_by_id[r].ends for r in chosen)
    reached = nx.node_connected_component(graph, city)
    return {r.id for r in game_map.routes if (r.a in reached) != (r.b in reached)}


def ignored(game_map, routes_by_seat):
    reached = set()
    for routes in routes_by_seat:
        for r in routes:
            reached.update(game_map.route_by_id[r].ends)
    return {c.id for c in game_map.cities} - reached


SOLUTIONS = {f.__name__: f for f in (network_score, leaving_routes, ignored)}


def markdown(solution: Callable, title: str) -> str:
    """The folded ``<details>`` block a lesson shows for one solution."""
    code = inspect.getsource(solution).rstrip()
    return "\n".join(
        [
            f"<details><summary><b>Solution to {title[0].lower() + title[1:]}</b> "
            "(click to open)</summary>",
            "",
            "```python",
            code,
            "```",
            "",
            "</details>",
        ]
    )


def paste(namespace: dict, *names: str) -> SimpleNamespace:
    """Run the shown solutions in a copy of a lesson's namespace, as a learner pasting
    them would (a name the lesson lacks fails with the learner's ``NameError``)."""
    scope = dict(namespace)
    for name in names:
        code = inspect.getsource(SOLUTIONS[name]).rstrip()
        exec(compile(code, f"<solution {name}>", "exec"), scope)  # our own shown code
    return SimpleNamespace(**{name: scope[name] for name in names})


# ------------------------------------------------------------------ checks
def _route_sets(game_map: Map, count: int, seed: int) -> list[list[int]]:
    """Sets of routes: a few random ones, and paths along tickets (which complete them)."""
    rng = random.Random(seed)
    ids = [r.id for r in game_map.routes]
    sets = [[], rng.sample(ids, 12), rng.sample(ids, 25)]
    graph = nx.Graph()
    for r in game_map.routes:
        graph.add_edge(r.a, r.b, route=r.id, weight=r.length)
    for ticket in rng.sample(list(game_map.tickets), count):
        path = nx.shortest_path(graph, *ticket.cities[:2], weight="weight")
        routes = [graph[a][b]["route"] for a, b in zip(path, path[1:], strict=False)]
        sets.append(routes + rng.sample(ids, 4))
    return sets


def check_network_score(score: Callable[[Map, list[int]], int]) -> CheckResult:
    """Check ``score(game_map, routes)``: route points plus the points of every USA ticket
    the routes join (no penalty for the others: a player alone keeps only those)."""

    def check(fn: Callable) -> int:
        usa = load_map("usa")
        cases = 0
        # A trap: two tickets share a city; and a double route's two tracks.
        double = next(r for r in usa.routes if usa.parallel(r))
        sets = [[double.id, *usa.parallel(double)], *_route_sets(usa, 12, 7)]
        for routes in sets:
            route_points, ticket_points, _ = map_score(usa, routes)
            want = route_points + ticket_points
            got = _call(fn, usa, list(routes), case=f"For routes {routes}")
            if got != want:
                hint = ""
                if got == route_points:
                    hint = " Did you add the tickets the routes complete?"
                elif isinstance(got, int) and got < want:
                    hint = " A ticket counts once its places are joined, by any path."
                raise _Wrong(f"for routes {sorted(routes)}: expected {want}, got {got!r}.{hint}")
            cases += 1
        return cases

    return _run(check, score, "scores a network: route points plus completed tickets")


def check_leaving_routes(leaving: Callable[[Map, list[int], str], set]) -> CheckResult:
    """Check ``leaving(game_map, chosen, city)``: the routes with one end among the places
    the chosen routes join to `city` and the other end outside (the cut the solver adds)."""

    def check(fn: Callable) -> int:
        usa = load_map("usa")
        cases = 0
        for routes in _route_sets(usa, 8, 11):
            for city in ("los-angeles", "denver", "new-york"):
                want = leaving_routes(usa, routes, city)
                got = _call(fn, usa, list(routes), city, case=f"From {city}")
                if not isinstance(got, set | frozenset | list | tuple) or set(got) != want:
                    extra = sorted(set(got) - want) if isinstance(got, set | list) else []
                    hint = " A route with both ends inside does not leave." if extra else ""
                    raise _Wrong(
                        f"from {city} with routes {sorted(routes)}: expected {sorted(want)}, "
                        f"got {got!r}.{hint}"
                    )
                cases += 1
        return cases

    return _run(check, leaving, "finds the routes leaving a city's part of the network")


def check_ignored(fn_ignored: Callable[[Map, list[list[int]]], set]) -> CheckResult:
    """Check ``ignored(game_map, routes_by_seat)``: the cities no seat's route touches."""

    def check(fn: Callable) -> int:
        cases = 0
        for name in ("usa", "germany"):
            game_map = load_map(name)
            rng = random.Random(3)
            ids = [r.id for r in game_map.routes]
            for n in (0, 5, 30):
                seats = [rng.sample(ids, n), rng.sample(ids, n // 2)]
                want = ignored(game_map, seats)
                got = _call(fn, game_map, seats, case=f"On {name}")
                if not isinstance(got, set | frozenset | list | tuple) or set(got) != want:
                    raise _Wrong(
                        f"on {name} with {n} and {n // 2} routes: expected {len(want)} "
                        f"cities, got {got!r}."
                    )
                cases += 1
        return cases

    return _run(check, fn_ignored, "finds the cities nobody reached")
