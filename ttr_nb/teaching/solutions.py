"""Worked solutions to the lessons' exercises, kept out of the students' sight.

A lesson shows each solution folded away (an HTML ``<details>`` block that
opens on a click, in JupyterLab, on GitHub and in exported HTML), so a student
tries first.  The code in those blocks is the source of the functions here,
written by :func:`markdown`; the tests check that every block still matches,
and the lessons run the exercise checks on these functions, so every shown
solution is known to pass its check.

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

import networkx as nx

from ..maps import load_map

__all__ = [
    "build_graph",
    "dfs_order",
    "dijkstra",
    "longest",
    "markdown",
    "pieces",
    "steiner_weight",
    "ticket_done",
    "tour_ok",
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
    code = inspect.getsource(solution).rstrip()
    prelude = PRELUDES.get(solution.__name__)
    if prelude:
        code = f"{prelude}\n\n\n{code}"
    lines += ["```python", code, "```", "", "</details>"]
    return "\n".join(lines)
