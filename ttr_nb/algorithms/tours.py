"""Tour tickets: several cities to visit, scored higher when visited in order.

A tour ticket (Rails & Sails) lists several cities.  It is worth its higher
value when the player's routes let them travel the cities in exactly the
listed order, its lower value when the cities are merely all connected, and a
penalty otherwise.

"Travel in order" is modelled as a *trail*: a walk that never uses a route
twice but may pass a city again.  Cutting a trail at the listed cities gives
one trail per leg, and the legs share no route; each leg holds a simple path
between its two cities.  Conversely, legs that share no route join into one
trail.  So the question is whether consecutive cities can be joined by
**pairwise route-disjoint paths**, which is what the search below looks for.
"""

from collections import Counter, deque
from collections.abc import Hashable, Iterable, Iterator, Sequence

from .union_find import UnionFind

__all__ = ["tour_connected", "tour_in_order", "tour_trail"]


def _check_cities(cities: Sequence[Hashable]) -> list[Hashable]:
    if isinstance(cities, str):
        raise TypeError("cities must be a sequence of city ids, not a single string")
    cities = list(cities)
    if len(cities) < 2:
        raise ValueError(f"a tour names at least two cities, got {len(cities)}")
    return cities


def _check_routes(routes: Iterable[Sequence]) -> list[Sequence]:
    routes = list(routes)
    for route in routes:
        if isinstance(route, str) or len(route) < 2:
            raise ValueError(f"a route is a tuple (place_a, place_b, ...), got {route!r}")
    return routes


def tour_connected(routes: Iterable[Sequence], cities: Sequence[Hashable]) -> bool:
    """Tell whether a player's routes join all the cities of a tour, in any order.

    Parameters
    ----------
    routes : iterable of tuple
        The player's claimed routes ``(place_a, place_b, ...)``; only the first
        two items are read.  Parallel routes are allowed.
    cities : sequence of hashable
        The tour's cities (at least two).  The order does not matter here.

    Returns
    -------
    bool
        True when every listed city lies on a route and all of them are in one
        connected piece of the player's network.

    Raises
    ------
    ValueError
        If `cities` names fewer than two cities, or a route has fewer than two
        ends.
    TypeError
        If `cities` is a single string.

    See Also
    --------
    tour_in_order : the stricter question, with the order and no route used twice.

    Notes
    -----
    One pass of a :class:`~ttr_nb.algorithms.union_find.UnionFind` over the
    routes: O(R log R + k) time at worst for R routes and k cities, close to
    O(R + k) on a board.

    Examples
    --------
    >>> routes = [("Lima", "Panama"), ("Panama", "Miami"), ("Lima", "Santiago")]
    >>> tour_connected(routes, ["Miami", "Santiago", "Lima"])
    True
    >>> tour_connected(routes, ["Miami", "Sydney"])
    False
    """
    cities = _check_cities(cities)
    pieces = UnionFind()
    for route in _check_routes(routes):
        pieces.union(route[0], route[1])
    if any(c not in pieces for c in cities):
        return False
    return len({pieces.find(c) for c in cities}) == 1


def tour_in_order(routes: Iterable[Sequence], cities: Sequence[Hashable]) -> bool:
    """Tell whether a trail in the player's network visits the tour's cities in order.

    Parameters
    ----------
    routes : iterable of tuple
        The player's claimed routes ``(place_a, place_b, ...)``; only the first
        two items are read.  Parallel routes are separate routes and may both
        be used (in the game one player never owns two routes between the
        same cities, but the function accepts any multigraph).
    cities : sequence of hashable
        The tour's cities in the order they must be visited (at least two).

    Returns
    -------
    bool
        True when some walk that uses each route at most once passes the
        cities in the listed order.  The walk may pass any city, listed or
        not, more than once, and may pass a later city before it is due.
        False when a listed city lies on no route.

    Raises
    ------
    ValueError
        If `cities` names fewer than two cities, or a route has fewer than two
        ends.
    TypeError
        If `cities` is a single string.

    See Also
    --------
    tour_trail : the same search, returning the trail it found.
    tour_connected : the weaker condition (all connected, any order).

    Notes
    -----
    Such a trail exists exactly when consecutive cities can be joined by
    paths that pairwise share no route (see the module docstring).  The search
    builds those paths leg by leg, one route at a time, trying routes towards
    the next city first, and backtracks.  At every step it checks three
    necessary conditions on the routes still free: each place has a free
    route for every leg that starts or ends there, each leg is reachable on
    its own, and no bridge of the free network is needed by two legs.  It
    treats parallel routes as interchangeable (it always takes the
    lowest-numbered free one) and remembers the (leg, routes used) states
    that failed.

    The worst case is exponential in the number R of routes (there can be
    exponentially many simple paths): O(2**R R) steps of O(k R) each for k
    cities.  The question is a chained form of the edge-disjoint paths
    problem, which is NP-complete when the number of paths is part of the
    input (Even, Itai and Shamir, 1976); we know of no polynomial algorithm
    for it.  On networks the size of one player's (up to about 40 routes) the
    checks leave little to search: a few milliseconds at most in CPython.

    Examples
    --------
    Along a line the order matters: going back would reuse a route.

    >>> line = [("A", "B"), ("B", "C")]
    >>> tour_in_order(line, ["A", "B", "C"])
    True
    >>> tour_in_order(line, ["A", "C", "B"])
    False

    A second way between C and B (here through D) makes the way back
    possible:

    >>> tour_in_order(line + [("C", "D"), ("D", "B")], ["A", "C", "B"])
    True
    """
    return tour_trail(routes, cities) is not None


def tour_trail(routes: Iterable[Sequence], cities: Sequence[Hashable]) -> list[Sequence] | None:
    """Return a trail visiting the tour's cities in order, or None if there is none.

    Parameters
    ----------
    routes : iterable of tuple
        The player's claimed routes ``(place_a, place_b, ...)``, as for
        `tour_in_order`.
    cities : sequence of hashable
        The tour's cities in order (at least two).

    Returns
    -------
    list of tuple or None
        The input route tuples (unchanged, not reoriented) in walking order,
        from the first city to the last, using each route at most once; an
        empty list when every listed city is the same city and lies on a
        route.  None when no such trail exists.

    Raises
    ------
    ValueError
        If `cities` names fewer than two cities, or a route has fewer than two
        ends.
    TypeError
        If `cities` is a single string.

    Notes
    -----
    Same search and complexity as `tour_in_order`.

    Examples
    --------
    >>> star = [("X", "A"), ("X", "B"), ("X", "C"), ("X", "B")]
    >>> tour_trail(star, ["A", "B", "C"])
    [('X', 'A'), ('X', 'B'), ('X', 'B'), ('X', 'C')]
    >>> tour_trail(star[:3], ["A", "B", "C"]) is None
    True
    """
    cities = _check_cities(cities)
    routes = _check_routes(routes)
    found = _TourSearch(routes, cities).run()
    return None if found is None else [routes[i] for i in found]


class _TourSearch:
    """Backtracking search for route-disjoint paths between consecutive cities."""

    def __init__(self, routes: list[Sequence], cities: list[Hashable]) -> None:
        # neighbour lists: place -> {neighbour: [route indices, ascending]}.
        # A loop (a == b) never lies on a simple path, so it is left out.
        adj: dict[Hashable, dict[Hashable, list[int]]] = {}
        for i, route in enumerate(routes):
            a, b = route[0], route[1]
            adj.setdefault(a, {})
            adj.setdefault(b, {})
            if a != b:
                adj[a].setdefault(b, []).append(i)
                adj[b].setdefault(a, []).append(i)
        self.adj = adj
        # Consecutive repeats are one visit: "A, A, B" is "A, B".
        stops = [cities[0]]
        for city in cities[1:]:
            if city != stops[-1]:
                stops.append(city)
        self.stops = stops
        self.failed: set[tuple[int, int]] = set()

    def _free(self, u: Hashable, v: Hashable, used: int) -> int | None:
        """The lowest-numbered free route between u and v (parallels are interchangeable)."""
        for i in self.adj[u][v]:
            if not used >> i & 1:
                return i
        return None

    def _degree(self, u: Hashable, used: int) -> int:
        """Number of free routes at u."""
        return sum(not used >> i & 1 for ids in self.adj[u].values() for i in ids)

    def _reaches(self, start: Hashable, goal: Hashable, used: int, blocked: set) -> bool:
        """Whether goal is reachable from start over free routes, avoiding blocked places."""
        if start == goal:
            return True
        seen = {start}
        stack = [start]
        while stack:
            u = stack.pop()
            for v, ids in self.adj[u].items():
                if v in seen or v in blocked:
                    continue
                if any(not used >> i & 1 for i in ids):
                    if v == goal:
                        return True
                    seen.add(v)
                    stack.append(v)
        return False

    def _hops(self, goal: Hashable, used: int) -> dict[Hashable, int]:
        """Number of free routes from each place to `goal` (breadth-first)."""
        hops = {goal: 0}
        queue = deque([goal])
        while queue:
            u = queue.popleft()
            for v, _ in self._free_edges(u, used):
                if v not in hops:
                    hops[v] = hops[u] + 1
                    queue.append(v)
        return hops

    def _possible(self, legs: list[tuple[Hashable, Hashable]], used: int) -> bool:
        """A quick necessary condition for joining each pair of `legs` over the free routes.

        Every place must have a free route for each leg that starts or ends
        there, each leg must be reachable on its own, and a bridge (a free
        route whose removal splits the free network) can carry at most one leg.
        """
        need = Counter(p for leg in legs for p in leg)
        if any(self._degree(v, used) < n for v, n in need.items()):
            return False
        if not all(self._reaches(s, t, used, set()) for s, t in legs):
            return False
        if len(legs) < 2:
            return True
        enter, leave, bridges = self._bridges(legs[0][0], used)
        for child in bridges:
            lo, hi = enter[child], leave[child]
            crossing = 0
            for s, t in legs:
                if (lo <= enter[s] <= hi) != (lo <= enter[t] <= hi):
                    crossing += 1
                    if crossing > 1:
                        return False
        return True

    def _bridges(
        self, root: Hashable, used: int
    ) -> tuple[dict[Hashable, int], dict[Hashable, int], list[Hashable]]:
        """Depth-first entry and exit times from `root` over free routes, and the bridges.

        A bridge is returned as its lower end in the depth-first tree: the
        places below it are exactly those entered between its entry and exit
        times.  Iterative Tarjan; a parallel route is never a bridge because
        only the route just used, not the parent place, is skipped.
        """
        enter: dict[Hashable, int] = {root: 0}
        low: dict[Hashable, int] = {root: 0}
        leave: dict[Hashable, int] = {}
        bridges: list[Hashable] = []
        clock = 1
        stack = [(root, -1, self._free_edges(root, used))]
        while stack:
            u, via, edges = stack[-1]
            for v, i in edges:
                if i == via:
                    continue
                if v in enter:
                    low[u] = min(low[u], enter[v])
                else:
                    enter[v] = low[v] = clock
                    clock += 1
                    stack.append((v, i, self._free_edges(v, used)))
                    break
            else:
                stack.pop()
                leave[u] = clock - 1
                if stack:
                    parent = stack[-1][0]
                    low[parent] = min(low[parent], low[u])
                    if low[u] > enter[parent]:
                        bridges.append(u)
        return enter, leave, bridges

    def _free_edges(self, u: Hashable, used: int) -> Iterator[tuple[Hashable, int]]:
        for v, ids in self.adj[u].items():
            for i in ids:
                if not used >> i & 1:
                    yield v, i

    def run(self) -> list[int] | None:
        if any(city not in self.adj for city in self.stops):
            return None
        return self._leg(0, 0)

    def _leg(self, leg: int, used: int) -> list[int] | None:
        """Routes of legs `leg`, `leg` + 1, ... given the routes `used` so far, or None."""
        if leg == len(self.stops) - 1:
            return []
        if (leg, used) in self.failed:
            return None
        stops = self.stops
        later = [(stops[j], stops[j + 1]) for j in range(leg + 1, len(stops) - 1)]
        goal = stops[leg + 1]
        if not self._possible([(stops[leg], goal), *later], used):
            self.failed.add((leg, used))
            return None
        path: list[int] = []
        on_path = {stops[leg]}
        # Try neighbours nearer the goal first: short legs leave the most routes free.
        far = len(self.adj)
        hops = self._hops(goal, used)

        def extend(u: Hashable, used: int) -> list[int] | None:
            for v in sorted(self.adj[u], key=lambda v: hops.get(v, far)):
                if v in on_path:
                    continue
                i = self._free(u, v, used)
                if i is None:
                    continue
                now = used | 1 << i
                path.append(i)
                if v == goal:
                    rest = self._leg(leg + 1, now)
                    if rest is not None:
                        return path + rest
                elif self._reaches(v, goal, now, on_path) and self._possible(
                    [(v, goal), *later], now
                ):
                    on_path.add(v)
                    got = extend(v, now)
                    on_path.discard(v)
                    if got is not None:
                        return got
                path.pop()
            return None

        found = extend(stops[leg], used)
        if found is None:
            self.failed.add((leg, used))
        return found
