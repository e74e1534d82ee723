"""Longest trail: the "longest continuous path" bonus of Ticket to Ride.

A *trail* is a walk that never uses a route twice but may visit a city again,
so loops count.  Finding the longest one is NP-hard in general, yet a player's
network is small and mostly tree-like, and three reductions leave almost
nothing to search:

1. A connected component with at most two odd-degree cities holds an Euler
   trail, which uses every route (Euler, 1736).
2. Peeling leaves away leaves the *core* (every city of degree >= 2 in it).  A
   trail that uses a core route can enter a peeled tree only at one of its two
   ends, so each core city keeps just its two deepest "arms".  A component that
   is a tree peels away completely and its answer is the weighted diameter.
3. A core city of degree 2 without arms is only ever passed through (an optimal
   trail never stops where it could go on), so chains of them merge into one
   edge.

What remains is searched exactly, memoising on (city, set of routes used): the
start of a trail is then implied by parity (it is the other odd-degree city of
the routes used, or the city itself when the trail is closed).
"""

from collections.abc import Iterable, Sequence
from typing import Any

import networkx as nx

__all__ = ["NegativeRouteLengthError", "longest_trail", "longest_trail_length"]


class NegativeRouteLengthError(ValueError):
    """A route has a negative length (lengths are counted in spaces, >= 0)."""


def longest_trail_length(routes: Iterable[Sequence]) -> int:
    """Return the length of the longest trail in a player's network.

    Parameters
    ----------
    routes : iterable of tuple
        Tuples ``(city_a, city_b, length)``, one per claimed route.  Parallel
        routes between the same two cities are distinct and may both be used.

    Returns
    -------
    int
        The greatest total length of a walk that uses each route at most once
        (cities may repeat).  0 for no routes.

    Raises
    ------
    NegativeRouteLengthError
        If a route has a negative length.

    Notes
    -----
    Time complexity is O(C + R) for C cities and R routes when every connected
    component is a tree or has at most two odd-degree cities.  Otherwise the
    search is exponential in the number k of routes left after the
    reductions in the module docstring: O(2**k * k) at worst, and k stays
    small on Ticket to Ride networks (about 0.01-0.1 ms per end-of-game network
    in CPython).

    Examples
    --------
    A figure eight is walked in full, passing its middle city twice:

    >>> eight = [("A", "B", 1), ("B", "C", 1), ("C", "A", 1),
    ...          ("A", "D", 2), ("D", "E", 2), ("E", "A", 2)]
    >>> longest_trail_length(eight)
    9

    In a star only two arms can be used:

    >>> longest_trail_length([("X", "A", 3), ("X", "B", 4), ("X", "C", 5)])
    9
    >>> longest_trail_length([])
    0
    """
    return _Network(routes).solve()[0]


def longest_trail(routes: Iterable[Sequence]) -> list[Sequence]:
    """Return the routes of one longest trail, in walking order.

    Parameters
    ----------
    routes : iterable of tuple
        Tuples ``(city_a, city_b, length)`` as for `longest_trail_length`.

    Returns
    -------
    list of tuple
        The input tuples (unchanged, not reoriented) along one longest trail,
        from one end to the other.  Empty when there are no routes.

    Raises
    ------
    NegativeRouteLengthError
        If a route has a negative length.

    Notes
    -----
    Same time complexity as `longest_trail_length`, plus O(R) to walk the
    trail back (an Euler trail comes from `networkx.eulerian_path`).

    Examples
    --------
    >>> longest_trail([("X", "A", 3), ("X", "B", 4), ("X", "C", 5)])
    [('X', 'B', 4), ('X', 'C', 5)]
    >>> longest_trail([("A", "B", 2), ("B", "A", 3)])
    [('A', 'B', 2), ('B', 'A', 3)]
    """
    routes = list(routes)
    network = _Network(routes)
    _, witness = network.solve()
    return [routes[i] for i in network.rebuild(witness)]


class _Network:
    """A player's routes as integer-indexed arrays, solved one component at a time."""

    def __init__(self, routes: Iterable[Sequence]) -> None:
        index: dict[Any, int] = {}
        adj: list[list[tuple[int, int]]] = []  # city -> [(neighbour, route index)]
        ends: list[tuple[int, int]] = []
        lengths: list[int] = []
        for route in routes:
            a, b, w = route[0], route[1], route[2]
            if w < 0:
                raise NegativeRouteLengthError(f"route {tuple(route)!r} has a negative length")
            u = index.get(a)
            if u is None:
                u = index[a] = len(adj)
                adj.append([])
            v = index.get(b)
            if v is None:
                v = index[b] = len(adj)
                adj.append([])
            i = len(lengths)
            lengths.append(w)
            ends.append((u, v))
            adj[u].append((v, i))
            adj[v].append((u, i))  # a loop appears twice at u: degree 2, as it should
        self.adj, self.ends, self.lengths = adj, ends, lengths
        n = len(adj)
        self.deg = [len(a) for a in adj]
        # Two deepest arms per city: length, first route, next city.
        self.down1 = [0] * n
        self.down2 = [0] * n
        self.arm1: list[tuple[int, int] | None] = [None] * n
        self.arm2: list[tuple[int, int] | None] = [None] * n
        self.gone = [False] * len(lengths)

    # -- solving ---------------------------------------------------------------

    def solve(self) -> tuple[int, tuple]:
        """Return the best length and a witness for `rebuild`."""
        adj, ends, lengths = self.adj, self.ends, self.lengths
        comp = [-1] * len(adj)
        members: list[list[int]] = []
        for root in range(len(adj)):
            if comp[root] < 0:
                c = len(members)
                comp[root] = c
                verts = [root]
                for u in verts:  # the list grows while we walk it: a BFS
                    for v, _ in adj[u]:
                        if comp[v] < 0:
                            comp[v] = c
                            verts.append(v)
                members.append(verts)
        totals = [0] * len(members)
        for (u, _), w in zip(ends, lengths, strict=True):
            totals[comp[u]] += w

        best, witness = 0, ("none",)
        # Largest components first: a component can never beat its own total.
        for c in sorted(range(len(members)), key=totals.__getitem__, reverse=True):
            if totals[c] <= best:
                break
            verts = members[c]
            if sum(self.deg[v] & 1 for v in verts) <= 2:
                best, witness = totals[c], ("euler", verts)
            else:
                value, found = self._component(verts, best)
                if value > best:
                    best, witness = value, found
        return best, witness

    def _component(self, verts: list[int], best: int) -> tuple[int, tuple]:
        """Solve one component with at least four odd-degree cities."""
        adj, ends, lengths, gone, deg = self.adj, self.ends, self.lengths, self.gone, self.deg
        down1, down2, arm1, arm2 = self.down1, self.down2, self.arm1, self.arm2

        # Peel leaves; each peeled city hands its deepest arm to its parent.
        stack = [v for v in verts if deg[v] == 1]
        while stack:
            u = stack.pop()
            if deg[u] != 1:  # the last city of a tree: its partner was peeled
                continue
            for p, i in adj[u]:
                if not gone[i]:
                    break
            gone[i] = True
            deg[u] = 0
            deg[p] -= 1
            val = down1[u] + lengths[i]
            if val > down1[p]:
                down2[p], arm2[p] = down1[p], arm1[p]
                down1[p], arm1[p] = val, (i, u)
            elif val > down2[p]:
                down2[p], arm2[p] = val, (i, u)
            if deg[p] == 1:
                stack.append(p)

        # Trails inside the peeled trees (or through a city from arm to arm).
        found: tuple = ("none",)
        for v in verts:
            if down1[v] + down2[v] > best:
                best, found = down1[v] + down2[v], ("tree", v)

        core = [v for v in verts if deg[v]]
        if not core:
            return best, found

        # Merge chains of degree-2, armless core cities into single edges.
        branch = {v for v in core if deg[v] != 2 or down1[v]} or {core[0]}
        nbrs: dict[int, list[tuple[int, int, int]]] = {v: [] for v in branch}
        chains: list[tuple[int, int, list[int]]] = []
        core_total = 0
        seen = set()
        for x in branch:
            for y, i in adj[x]:
                if gone[i] or i in seen:
                    continue
                seen.add(i)
                chain, w, cur, prev = [i], lengths[i], y, i
                while cur not in branch:
                    for nxt, j in adj[cur]:
                        if j != prev and not gone[j]:
                            break
                    seen.add(j)
                    chain.append(j)
                    w += lengths[j]
                    cur, prev = nxt, j
                bit = 1 << len(chains)
                chains.append((x, cur, chain))
                nbrs[x].append((cur, bit, w))
                if cur != x:  # a loop is offered once: it can be taken once
                    nbrs[cur].append((x, bit, w))
                core_total += w

        # A trail that uses core routes is: an arm, a core trail s -> t, and an
        # arm at t (the second arm of s when the trail is closed).  Its start s
        # is implied by (t, routes used) through parity, so memoise on that.
        memo: dict[int, int] = {}
        shift = max(nbrs).bit_length() + 1

        def extend(v: int, mask: int, s: int) -> int:
            key = (mask << shift) | v
            got = memo.get(key)
            if got is not None:
                return got
            top = down2[v] if v == s else down1[v]
            for y, bit, w in nbrs[v]:
                if not mask & bit:
                    c = w + extend(y, mask | bit, s)
                    if c > top:
                        top = c
            memo[key] = top
            return top

        # An optimal trail starts with an arm or uses every core route at its
        # start (else it could be extended), so starts are arm or odd cities;
        # a closed trail can be turned to start at an arm city, if there is one.
        starts = [v for v in branch if down1[v] or deg[v] & 1]
        if not any(down1[v] for v in branch):
            starts.append(next(iter(branch)))
        starts.sort(key=down1.__getitem__, reverse=True)
        arms = sorted((down1[v] for v in branch), reverse=True)
        most_end = arms[0]
        ceiling = core_total + max(arms[0] + (arms[1] if len(arms) > 1 else 0),
                                   max(down1[v] + down2[v] for v in branch))
        for s in starts:
            if best >= ceiling or down1[s] + core_total + max(most_end, down2[s]) <= best:
                continue
            value = down1[s] + extend(s, 0, s)
            if value > best:
                best, found = value, ("core", s, extend, nbrs, chains)
        return best, found

    # -- walking the answer back -----------------------------------------------

    def _arm(self, city: int, first: tuple[int, int] | None) -> list[int]:
        """Routes of an arm from `city` outwards, starting with route `first`."""
        out = []
        while first is not None:
            i, city = first
            out.append(i)
            first = self.arm1[city]
        return out

    def rebuild(self, witness: tuple) -> list[int]:
        """Return route indices, in walking order, of the trail `witness` names."""
        kind = witness[0]
        if kind == "euler":
            graph = nx.MultiGraph()
            verts = set(witness[1])
            for i, (u, v) in enumerate(self.ends):
                if u in verts:
                    graph.add_edge(u, v, key=i)
            return [k for _, _, k in nx.eulerian_path(graph, keys=True)]
        if kind == "tree":
            v = witness[1]
            return self._arm(v, self.arm2[v])[::-1] + self._arm(v, self.arm1[v])
        if kind == "core":
            _, s, extend, nbrs, chains = witness
            out = self._arm(s, self.arm1[s])[::-1]
            v, mask = s, 0
            while True:
                target = extend(v, mask, s)
                if target == (self.down2[v] if v == s else self.down1[v]):
                    break
                for y, bit, w in nbrs[v]:
                    if not mask & bit and w + extend(y, mask | bit, s) == target:
                        break
                x, _, chain = chains[bit.bit_length() - 1]
                out += chain if x == v else chain[::-1]
                v, mask = y, mask | bit
            return out + self._arm(v, self.arm2[v] if v == s else self.arm1[v])
        return []

