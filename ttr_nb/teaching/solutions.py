"""Worked solutions to the lessons' exercises, kept out of the students' sight.

A lesson shows each solution folded away (an HTML ``<details>`` block that
opens on a click, in JupyterLab, on GitHub and in exported HTML), so a student
tries first.  The code in those blocks is the source of the functions here,
written by :func:`markdown`; the tests check that every block still matches.
Each lesson runs its shown code as a learner pasting it would (:func:`paste`:
in the lesson's own namespace) and checks the result, so every shown solution
is known to run where it is shown and to pass its check.

Each solution is written the way a student would write it in the lesson,
with the lesson's own names: where a lesson defines a helper first (the
great-circle distance of lesson 3), a copy of it is here too, and a test
checks that the copy matches the lesson.
"""

from __future__ import annotations

import heapq
import inspect
import itertools
import math
from collections import deque
from collections.abc import Callable
from types import SimpleNamespace

import networkx as nx

from ..maps import load_map
from .integer_programs import IntegerProgram

__all__ = [
    "board_mip",
    "build_graph",
    "completion_rates",
    "count_paths",
    "count_ways",
    "dfs_order",
    "dijkstra",
    "euler_circuit",
    "is_cut",
    "kruskal",
    "longest",
    "markdown",
    "odd_cities",
    "paste",
    "pieces",
    "prim",
    "share",
    "shown_code",
    "station_spaces",
    "steiner_weight",
    "ticket_done",
    "tour_ok",
    "wilson",
    "world_estimate",
]


# ------------------------------------------------------------- lesson 1
def build_graph(game_map):
    graph = nx.MultiGraph()
    graph.add_nodes_from(city.id for city in game_map.cities)
    for route in game_map.routes:
        graph.add_edge(route.a, route.b, key=route.id, length=route.length)
    return graph


# ------------------------------------------------------------- lesson 2
def dfs_order(graph, start):
    visited, order, stack = set(), [], [start]
    while stack:
        place = stack.pop()
        if place in visited:
            continue  # pushed twice: it was taken already
        visited.add(place)
        order.append(place)
        # reversed, so that the alphabetically first neighbour is taken first
        stack.extend(n for n in sorted(graph[place], reverse=True) if n not in visited)
    return order


def ticket_done(routes, a, b, dead_ends):
    neighbours = {}
    for x, y in routes:
        neighbours.setdefault(x, set()).add(y)
        neighbours.setdefault(y, set()).add(x)
    seen, queue = set(a), deque(a)
    while queue:
        place = queue.popleft()
        if place in dead_ends and place not in a:
            continue  # reached, but never passed through
        for nxt in neighbours.get(place, ()):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return not seen.isdisjoint(b)


def pieces(places, routes):
    parent = {p: p for p in places}
    size = dict.fromkeys(places, 1)

    def find(p):
        root = p
        while parent[root] != root:
            root = parent[root]
        while parent[p] != root:  # path compression
            parent[p], p = root, parent[p]
        return root

    for x, y in routes:
        rx, ry = find(x), find(y)
        if rx != ry:
            if size[rx] < size[ry]:
                rx, ry = ry, rx
            parent[ry] = rx  # union by size
            size[rx] += size[ry]
    groups = {}
    for p in places:
        groups.setdefault(find(p), set()).add(p)
    return list(groups.values())


# ------------------------------------------------------------- lesson 3
EARTH_RADIUS_KM = 6371.0


def great_circle_km(game_map, a, b):
    p, q = game_map.city_by_id[a], game_map.city_by_id[b]
    phi1, phi2 = math.radians(p.lat), math.radians(q.lat)
    dphi, dlam = phi2 - phi1, math.radians(q.lon - p.lon)
    h = math.sin(dphi / 2) ** 2 + math.cos(phi1) * math.cos(phi2) * math.sin(dlam / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(math.sqrt(h))


def km_per_space(game_map):
    return max(great_circle_km(game_map, r.a, r.b) / r.length for r in game_map.routes)


def dijkstra(graph, source, target):
    distance = {source: 0}
    heap = [(0, source)]
    settled = set()
    while heap:
        d, place = heapq.heappop(heap)
        if place in settled:
            continue  # an old, larger entry for a place settled already
        settled.add(place)
        if place == target:
            return d
        for neighbour, data in graph[place].items():
            new = d + data["weight"]
            if new < distance.get(neighbour, math.inf):
                distance[neighbour] = new
                heapq.heappush(heap, (new, neighbour))
    return math.inf


world = load_map("world")
K_WORLD = km_per_space(world)  # the most km one space covers on the World map, computed once


def world_estimate(place, goal):
    return great_circle_km(world, place, goal) / K_WORLD


# ------------------------------------------------------------- lesson 4
def longest(routes):
    neighbours = {}
    for i, (a, b, _) in enumerate(routes):
        neighbours.setdefault(a, []).append((b, i))
        neighbours.setdefault(b, []).append((a, i))
    # In each connected piece: its odd cities, or any one city if it has none.
    starts, seen = [], set()
    for city in neighbours:
        if city in seen:
            continue
        piece, stack = {city}, [city]
        while stack:
            for nxt, _ in neighbours[stack.pop()]:
                if nxt not in piece:
                    piece.add(nxt)
                    stack.append(nxt)
        seen |= piece
        starts += [c for c in piece if len(neighbours[c]) % 2] or [city]
    best = 0

    def extend(city, used, length, left):
        nonlocal best
        if length > best:
            best = length
        if length + left <= best:
            return  # even using every route left cannot beat the best
        for nxt, i in neighbours[city]:
            if not used >> i & 1:
                w = routes[i][2]
                extend(nxt, used | 1 << i, length + w, left - w)

    total = sum(route[2] for route in routes)
    for start in starts:
        extend(start, 0, 0, total)
    return best


# ------------------------------------------------------------- lesson 5
def steiner_weight(graph, terminals):
    others = [p for p in graph if p not in terminals]
    best = math.inf
    for size in range(len(others) + 1):
        for extra in itertools.combinations(others, size):
            sub = graph.subgraph(set(terminals) | set(extra))
            if nx.is_connected(sub):
                best = min(best, nx.minimum_spanning_tree(sub).size(weight="weight"))
    return best


# ------------------------------------------------------------- lesson 6
def tour_ok(routes, cities):
    neighbours = {}
    for i, (a, b) in enumerate(routes):
        neighbours.setdefault(a, []).append((b, i))
        neighbours.setdefault(b, []).append((a, i))
    if any(city not in neighbours for city in cities):
        return False

    def walk(place, next_city, used):
        while next_city < len(cities) and cities[next_city] == place:
            next_city += 1  # this city of the tour is visited now
        if next_city == len(cities):
            return True
        for nxt, i in neighbours[place]:
            if i not in used:
                used.add(i)
                if walk(nxt, next_city, used):
                    return True
                used.discard(i)
        return False

    return walk(cities[0], 1, set())


# ------------------------------------------------------------- lesson 7
def kruskal(places, routes):
    parent = {p: p for p in places}

    def find(p):
        while parent[p] != p:
            parent[p] = parent[parent[p]]  # path halving: skip a level on the way up
            p = parent[p]
        return p

    tree = []
    for a, b, length in sorted(routes, key=lambda route: route[2]):
        root_a, root_b = find(a), find(b)
        if root_a != root_b:  # the route joins two pieces
            parent[root_a] = root_b
            tree.append((a, b, length))
    return tree


def prim(routes, start):
    neighbours = {}
    for a, b, length in routes:
        neighbours.setdefault(a, []).append((length, b))
        neighbours.setdefault(b, []).append((length, a))
    in_tree, total = {start}, 0
    heap = list(neighbours.get(start, []))
    heapq.heapify(heap)
    while heap:
        length, place = heapq.heappop(heap)
        if place in in_tree:
            continue  # both ends are in the tree by now: it would close a cycle
        in_tree.add(place)
        total += length
        for option in neighbours[place]:
            if option[1] not in in_tree:
                heapq.heappush(heap, option)
    return total


# ------------------------------------------------------------- lesson 8
def odd_cities(routes):
    degree = {}
    for a, b in routes:
        degree[a] = degree.get(a, 0) + 1
        degree[b] = degree.get(b, 0) + 1
    return {place for place, d in degree.items() if d % 2}


def euler_circuit(routes, start):
    exits = {}
    for i, (a, b) in enumerate(routes):
        exits.setdefault(a, []).append((b, i))
        exits.setdefault(b, []).append((a, i))
    used = set()
    walk, circuit = [start], []
    while walk:
        place = walk[-1]
        while exits[place] and exits[place][-1][1] in used:
            exits[place].pop()  # walked from its other end already
        if exits[place]:
            ahead, i = exits[place].pop()
            used.add(i)
            walk.append(ahead)  # keep walking
        else:
            circuit.append(walk.pop())  # stuck here: this place is final
    return circuit[::-1]


# ------------------------------------------------------------- lesson 9
def count_ways(graph, a, b):
    flow = {}  # flow[(u, v)] == 1: one of the ways runs along the route from u to v
    ways = 0
    while True:
        came_from, queue = {a: None}, deque([a])
        while queue and b not in came_from:
            u = queue.popleft()
            for v in graph[u]:
                # room from u to v: the route is free, or a way runs v -> u and can be undone
                if v not in came_from and not flow.get((u, v)):
                    came_from[v] = u
                    queue.append(v)
        if b not in came_from:
            return ways
        v = b
        while came_from[v] is not None:  # walk back along the new way, updating the flow
            u = came_from[v]
            if flow.get((v, u)):
                flow[(v, u)] = 0  # cancel the earlier way's use of this route
            else:
                flow[(u, v)] = 1
            v = u
        ways += 1


def is_cut(graph, a, b, routes):
    claimed = {frozenset(route) for route in routes}
    seen, queue = {a}, deque([a])
    while queue:
        u = queue.popleft()
        for v in graph[u]:
            if v not in seen and frozenset((u, v)) not in claimed:
                seen.add(v)
                queue.append(v)
    return b not in seen


# ------------------------------------------------------------ lesson 10
def count_paths(graph, source):
    distance, paths = {source: 0}, {source: 1}
    heap, settled = [(0, source)], set()
    while heap:
        d, place = heapq.heappop(heap)
        if place in settled:
            continue
        settled.add(place)
        for ahead, data in graph[place].items():
            new = d + data["weight"]
            if ahead not in distance or new < distance[ahead]:
                distance[ahead], paths[ahead] = new, paths[place]  # shorter: start counting again
                heapq.heappush(heap, (new, ahead))
            elif new == distance[ahead]:
                paths[ahead] += paths[place]  # just as short: more paths
    return paths


def share(graph, a, b, place):
    if place in (a, b):
        return 0
    from_a = nx.single_source_dijkstra_path_length(graph, a)
    from_b = nx.single_source_dijkstra_path_length(graph, b)
    if b not in from_a or place not in from_a or from_a[place] + from_b[place] != from_a[b]:
        return 0  # the place is on no shortest path of this ticket
    paths_a, paths_b = count_paths(graph, a), count_paths(graph, b)
    return paths_a[place] * paths_b[place] / paths_a[b]


# ------------------------------------------------------------ lesson 11
def wilson(successes, trials, z=1.96):
    p = successes / trials
    centre = (p + z**2 / (2 * trials)) / (1 + z**2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z**2 / (4 * trials**2)) / (1 + z**2 / trials)
    return centre - half, centre + half


def completion_rates(tickets):
    held, done = {}, {}
    for length, completed in tickets:
        held[length] = held.get(length, 0) + 1
        done[length] = done.get(length, 0) + completed
    return {length: done[length] / held[length] for length in held}


# ------------------------------------------------------------ lesson 12
def board_mip(routes, tickets, budget):
    model = IntegerProgram()
    for key, _, _, _, points in routes:
        model.variable(("x", key), objective=points)  # claim the route?
    for key, _, _, points in tickets:
        model.variable(("y", key), objective=points)  # collect the ticket?
    model.constraint({("x", key): length for key, _, _, length, _ in routes}, at_most=budget)
    tracks = {}  # the tracks between each pair of places
    for key, a, b, _, _ in routes:
        tracks.setdefault(frozenset((a, b)), []).append(key)
    for keys in tracks.values():
        if len(keys) > 1:  # a double route: one track at most
            model.constraint({("x", key): 1 for key in keys}, at_most=1)
    places = sorted({place for _, a, b, _, _ in routes for place in (a, b)})
    for ticket, a, b, _ in tickets:
        others = [p for p in places if p not in (a, b)]
        for n in range(len(others) + 1):
            for extra in itertools.combinations(others, n):
                side = {a, *extra}  # a set of places holding a but not b
                cut = {("x", k): -1 for k, u, v, _, _ in routes if (u in side) != (v in side)}
                model.constraint({("y", ticket): 1, **cut}, at_most=0)  # y <= the x leaving
    return model


# ------------------------------------------------------------ lesson 14
def station_spaces(routes, own, theirs, a, b):
    exits = {}  # city -> its routes, listed once: each step then looks at its own routes only
    for rid, x, y, length in routes:
        exits.setdefault(x, []).append((rid, y, length))
        exits.setdefault(y, []).append((rid, x, length))
    best = {(a, 0): 0}  # (city, borrowed routes used so far) -> spaces
    heap = [(0, a, 0)]
    while heap:
        cost, city, used = heapq.heappop(heap)
        if city == b:
            return cost
        if cost > best[(city, used)]:
            continue  # an old entry: a cheaper way here was found since
        for rid, other, length in exits.get(city, []):
            if rid in theirs:
                if used:
                    continue  # one borrowed route at most
                step, ahead = 0, (other, 1)
            else:
                step, ahead = (0 if rid in own else length), (other, used)
            if cost + step < best.get(ahead, math.inf):
                best[ahead] = cost + step
                heapq.heappush(heap, (cost + step, *ahead))
    return None


# ------------------------------------------------------------ markdown
PRELUDES = {
    "world_estimate": "K_WORLD = km_per_space(world)  # the most km one space covers on the World "
    "map, computed once",
}
"""Lines a solution needs before it, shown with it (each is also a line of this module)."""


def markdown(solution: Callable, title: str, note: str = "") -> str:
    """The folded ``<details>`` block a lesson shows for one solution.

    Parameters
    ----------
    solution : function
        One of this module's solutions; its source is shown.
    title : str
        The line shown while the block is closed (``"Exercise 2a: DFS"``).
    note : str, optional
        A sentence shown above the code once the block is open.

    Examples
    --------
    >>> text = markdown(dfs_order, "Exercise 2a")
    >>> text.splitlines()[0]
    '<details><summary><b>Solution to exercise 2a</b> (click to open)</summary>'
    >>> "def dfs_order(graph, start):" in text and text.endswith("</details>")
    True
    """
    lines = [
        f"<details><summary><b>Solution to {title[0].lower() + title[1:]}</b> (click to open)"
        "</summary>",
        "",
    ]
    if note:
        lines += [note, ""]
    lines += ["```python", shown_code(solution), "```", "", "</details>"]
    return "\n".join(lines)


def shown_code(solution: Callable) -> str:
    """The code a lesson shows for one solution: its prelude (if any), then its source."""
    code = inspect.getsource(solution).rstrip()
    prelude = PRELUDES.get(solution.__name__)
    return f"{prelude}\n\n\n{code}" if prelude else code


def paste(namespace: dict, *names: str) -> SimpleNamespace:
    """Run the shown solutions `names` the way a learner who pastes them into a lesson would.

    The code of each folded block (:func:`shown_code`) runs, in the order
    given, in a copy of `namespace` (a lesson passes ``globals()``), so it
    sees only what the lesson itself has imported and defined: a solution
    that needs a name the lesson lacks fails with the same ``NameError`` a
    learner would meet.  The lesson's own names are left as they were.

    Returns
    -------
    types.SimpleNamespace
        The pasted functions, by name.

    Examples
    --------
    >>> from collections import deque
    >>> pasted = paste({"deque": deque}, "is_cut")
    >>> pasted.is_cut({"A": ["B"], "B": ["A"]}, "A", "B", [("A", "B")])
    True
    >>> paste({}, "is_cut").is_cut({"A": []}, "A", "B", [])
    Traceback (most recent call last):
    ...
    NameError: name 'deque' is not defined
    """
    scope = dict(namespace)
    for name in names:
        code = shown_code(globals()[name])
        exec(compile(code, f"<solution {name}>", "exec"), scope)  # our own shown code
    return SimpleNamespace(**{name: scope[name] for name in names})


# The research lessons' solutions (12, 13) live beside their checks; shown and pasted the same way.
from .research import ignored, leaving_routes, network_score  # noqa: E402, F401
