"""Longest trail: the "longest continuous path" bonus of Ticket to Ride.

A *trail* is a walk that never uses a route twice but may visit a city again,
so loops count.  Finding the longest one is NP-hard in general, but a player's
network is small and mostly tree-like, and a few reductions leave little to
search:

1. A connected component with at most two odd-degree cities has an Euler
   trail, which uses every route.
2. Peeling off leaves leaves the *core*.  A trail that uses a core route can
   enter a peeled tree only at one of its two ends, so each core city keeps
   only its two deepest "arms".  A tree peels away completely, and its answer
   is its weighted diameter.
3. An optimal trail never stops where it could go on, so it passes through a
   core city of degree 2 that has no arm.  Chains of such cities are merged
   into single edges.

The merged core is searched depth-first, visiting each (city, routes used)
pair once.  That pair also fixes where the trail started: the routes used
have odd degree at the start and at the current city, or nowhere when the
trail is closed.  The search stops early when a trail reaches an upper bound
that comes from parity alone (see `_parity_gains`).  That bound is usually
exact.
"""

from collections.abc import Iterable
from typing import Any

import networkx as nx

__all__ = ["NegativeRouteLengthError", "longest_trail", "longest_trail_length"]


class NegativeRouteLengthError(ValueError):
    """A route has a negative length (lengths count spaces, so they are >= 0)."""


def longest_trail_length(routes: Iterable[tuple]) -> int:
    """Return the length of the longest trail in a player's network.

    Parameters
    ----------
    routes : iterable of tuple
        Tuples ``(city_a, city_b, length)``, one for each claimed route.
        Parallel routes between the same two cities are separate routes, and
        a trail may use both (in the game one player never owns two routes
        between the same cities, but the function accepts any multigraph).

    Returns
    -------
    int
        The greatest total length of a walk that uses each route at most once
        (it may visit a city more than once).  0 when there are no routes.

    Raises
    ------
    NegativeRouteLengthError
        If a route has a negative length.

    Notes
    -----
    Time complexity is O(C + R) for C cities and R routes when each connected
    component is a tree or has at most two odd-degree cities.  Other
    components are searched exactly.  The search takes O(2**k * c) time at
    worst, for the k routes and c cities left after the reductions in the
    module docstring.  In practice the parity bound stops it early.  On
    end-of-game networks of 12-25 routes a call takes 0.02-0.07 ms on average
    and under 1 ms at worst in CPython.  Do not use it on a whole board, where
    it can take far longer.

    Examples
    --------
    A figure eight is walked in full, passing its middle city twice:

    >>> eight = [("A", "B", 1), ("B", "C", 1), ("C", "A", 1),
    ...          ("A", "D", 2), ("D", "E", 2), ("E", "A", 2)]
    >>> longest_trail_length(eight)
    9

    In a star, only two arms can be used:

    >>> longest_trail_length([("X", "A", 3), ("X", "B", 4), ("X", "C", 5)])
    9
    >>> longest_trail_length([])
    0
    """
    return _Network(routes).solve()[0]


def longest_trail(routes: Iterable[tuple]) -> list[tuple]:
    """Return the routes of one longest trail, in walking order.

    Parameters
    ----------
    routes : iterable of tuple
        Tuples ``(city_a, city_b, length)``, as for `longest_trail_length`.

    Returns
    -------
    list of tuple
        The input tuples along one longest trail, from one end to the other.
        They are returned as given and are not turned to face the direction
        of travel.  The list is empty when there are no routes.

    Raises
    ------
    NegativeRouteLengthError
        If a route has a negative length.

    Notes
    -----
    Same time complexity as `longest_trail_length`, plus O(R) to walk the
    trail again (with `networkx.eulerian_path` over the routes it uses).

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


def _length(chain: tuple[int, int, int, list[int]]) -> int:
    return chain[2]


class _Optimal(Exception):
    """Raised inside the search once a trail meets the upper bound."""


# Merged cores with more routes than this get parity bounds before the search.
_SMALL_CORE = 8
# Pairing up more odd cities than this costs more than it saves.
_MAX_ODD = 12


class _Network:
    """A player's routes as integer-indexed arrays, solved one component at a time.

    `solve` may be called once: peeling consumes the degrees.
    """

    def __init__(self, routes: Iterable[tuple]) -> None:
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
            adj[v].append((u, i))  # a loop is listed twice: degree 2, as it should be
        self.adj, self.ends, self.lengths = adj, ends, lengths
        n = len(adj)
        self.deg = [len(a) for a in adj]
        self.gone = [False] * len(lengths)  # peeled routes
        # The two deepest arms of each city: length, and (first route, next city).
        self.down1 = [0] * n
        self.down2 = [0] * n
        self.arm1: list[tuple[int, int] | None] = [None] * n
        self.arm2: list[tuple[int, int] | None] = [None] * n

    def solve(self) -> tuple[int, tuple]:
        """Return the best length and a witness for `rebuild`."""
        adj, deg = self.adj, self.deg
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
        for (u, _), w in zip(self.ends, self.lengths, strict=True):
            totals[comp[u]] += w

        best, witness = 0, ("none",)
        # Largest components first: none can beat its own total.
        for c in sorted(range(len(members)), key=totals.__getitem__, reverse=True):
            if totals[c] <= best:
                break
            verts = members[c]
            if sum(deg[v] & 1 for v in verts) <= 2:
                best, witness = totals[c], ("euler", verts)
            else:
                best, witness = self._component(verts, best, witness)
        return best, witness

    def _component(self, verts: list[int], best: int, found: tuple) -> tuple[int, tuple]:
        """Improve on `best` within one component with four or more odd cities."""
        adj, lengths, gone, deg = self.adj, self.lengths, self.gone, self.deg
        down1, down2, arm1, arm2 = self.down1, self.down2, self.arm1, self.arm2

        # Peel leaves; each peeled city hands its deepest arm to its parent.
        stack = [v for v in verts if deg[v] == 1]
        while stack:
            u = stack.pop()
            if deg[u] != 1:  # the last city of a tree: its partner went first
                continue
            for edge in adj[u]:
                if not gone[edge[1]]:
                    break
            p, i = edge
            gone[i] = True
            deg[u] = 0
            deg[p] -= 1
            arm = down1[u] + lengths[i]
            if arm > down1[p]:
                down2[p], arm2[p] = down1[p], arm1[p]
                down1[p], arm1[p] = arm, (i, u)
            elif arm > down2[p]:
                down2[p], arm2[p] = arm, (i, u)
            if deg[p] == 1:
                stack.append(p)

        # Trails within the peeled trees, or from arm to arm through a city.
        for v in verts:
            if down1[v] + down2[v] > best:
                best, found = down1[v] + down2[v], ("tree", v)

        core = [v for v in verts if deg[v]]
        if not core:
            return best, found

        # Merge chains of armless core cities of degree 2 into single edges.
        branch = [v for v in core if deg[v] != 2 or down1[v]] or core[:1]
        is_branch = set(branch)
        chains: list[tuple[int, int, int, list[int]]] = []  # (x, y, length, routes x -> y)
        seen = set()
        for x in branch:
            for y, i in adj[x]:
                if gone[i] or i in seen:
                    continue
                seen.add(i)
                chain, w, cur, prev = [i], lengths[i], y, i
                while cur not in is_branch:
                    for edge in adj[cur]:
                        if edge[1] != prev and not gone[edge[1]]:
                            break
                    nxt, j = edge
                    seen.add(j)
                    chain.append(j)
                    w += lengths[j]
                    cur, prev = nxt, j
                chains.append((x, cur, w, chain))
        return self._search(branch, chains, best, found)

    def _search(
        self,
        branch: list[int],
        chains: list[tuple[int, int, int, list[int]]],
        best: int,
        found: tuple,
    ) -> tuple[int, tuple]:
        """Search the merged core exactly; arms count only at a trail's two ends."""
        down1, down2, deg = self.down1, self.down2, self.deg
        # Parallel edges are interchangeable, so the longer one is always used
        # first (`need`).  A loop is always taken on reaching its city.  Long
        # routes come first, to meet good trails early.
        chains.sort(key=_length, reverse=True)
        core_total = 0
        loops: dict[int, list[tuple[int, int]]] = {}
        moves: dict[int, list[tuple[int, int, int, int, int]]] = {v: [] for v in branch}
        last: dict[tuple[int, int], int] = {}  # the previous parallel edge's bit
        for k, (x, y, w, _) in enumerate(chains):
            core_total += w
            bit = 1 << k
            if x == y:
                loops.setdefault(x, []).append((bit, w))
                continue
            pair = (x, y) if x < y else (y, x)
            need = last.get(pair, 0)
            last[pair] = bit
            # A move is open when (mask & block) == need: unused, after its twin.
            moves[x].append((y, bit, bit | need, need, w))
            moves[y].append((x, bit, bit | need, need, w))

        # An optimal trail starts at an arm or uses every core route at its
        # start (else it would go on), so it starts at an arm city or an odd one.
        # With neither, the core is Eulerian and any city will do.
        starts = [v for v in branch if down1[v] or deg[v] & 1] or branch[:1]
        # gain[s][t]: a bound on arms minus routes left out, for a trail s -> t.
        if len(chains) > _SMALL_CORE:
            gain = _parity_gains(branch, chains, starts, down1, down2, deg)
        else:
            gain = {s: {t: down2[s] if t == s else down1[t] for t in starts} for s in starts}
        full = {s: down1[s] + max(gain[s].values()) for s in starts}
        starts.sort(key=full.__getitem__, reverse=True)

        visited: set[int] = set()
        shift = len(down1).bit_length()
        ends = down1[:]  # what ending at a city adds; the start's is its second arm
        start = stop_at = 0

        # Depth first from `start`; `key` packs (city, routes used), seen once.
        def walk(v: int, mask: int, walked: int, key: int) -> None:
            nonlocal best, found
            visited.add(key)
            if loops and v in loops:
                for bit, w in loops[v]:
                    if not mask & bit:
                        mask |= bit
                        key = (mask << shift) | v
                        if key not in visited:
                            walk(v, mask, walked + w, key)
                        return
            if walked + ends[v] > best:
                best, found = walked + ends[v], ("core", start, v, mask, chains)
                if best >= stop_at:
                    raise _Optimal
            for y, bit, block, need, w in moves[v]:
                if mask & block == need:
                    key = ((mask | bit) << shift) | y
                    if key not in visited:
                        walk(y, mask | bit, walked + w, key)

        try:
            for p, start in enumerate(starts):
                # A trail ending at an earlier start was met from that end.
                g = gain[start]
                here = down1[start] + max(g[t] for t in [start, *starts[p + 1 :]])
                if core_total + here <= best:
                    continue
                # Later starts cannot beat their full bounds.
                stop_at = core_total + max(here, full[starts[p + 1]] if p + 1 < len(starts) else 0)
                ends[start] = down2[start]
                walk(start, 0, down1[start], start)
                ends[start] = down1[start]
        except _Optimal:
            pass
        return best, found

    def _arm(self, city: int, first: tuple[int, int] | None) -> list[int]:
        """Return the routes of an arm from `city` outwards, starting with `first`."""
        out = []
        while first is not None:
            i, city = first
            out.append(i)
            first = self.arm1[city]
        return out

    def rebuild(self, witness: tuple) -> list[int]:
        """Return the route indices of the trail that `witness` names, in walking order."""
        kind = witness[0]
        if kind == "euler":
            graph = nx.MultiGraph()
            verts = set(witness[1])
            for i, (u, v) in enumerate(self.ends):
                if u in verts:
                    graph.add_edge(u, v, key=i)
            return [i for _, _, i in nx.eulerian_path(graph, keys=True)]
        if kind == "tree":
            v = witness[1]
            return self._arm(v, self.arm2[v])[::-1] + self._arm(v, self.arm1[v])
        if kind == "core":
            _, s, t, mask, chains = witness
            out = self._arm(s, self.arm1[s])[::-1]
            if mask:  # the merged routes used form a trail from s to t: walk it again
                graph = nx.MultiGraph()
                for k, (x, y, _, _) in enumerate(chains):
                    if mask >> k & 1:
                        graph.add_edge(x, y, key=k)
                for x, _, k in nx.eulerian_path(graph, source=s, keys=True):
                    chain = chains[k][3]
                    out += chain if chains[k][0] == x else chain[::-1]
            return out + self._arm(t, self.arm2[t] if t == s else self.arm1[t])
        return []


def _parity_gains(
    branch: list[int],
    chains: list[tuple[int, int, int, list[int]]],
    starts: list[int],
    down1: list[int],
    down2: list[int],
    deg: list[int],
) -> dict[int, int]:
    """Bound what a core trail from s to t adds to the core total: ``gain[s][t]``.

    That is the arms at its two ends minus the core routes it leaves out
    (``gain[s][s]`` is for a closed trail, which uses both arms of s).  A core
    trail from s to t leaves out routes whose odd-degree cities are exactly
    odd Δ {s, t}, where odd holds the core's odd cities.  Such a set is a
    T-join, and the cheapest one pairs those cities along shortest paths
    (Edmonds and Johnson, 1973).  The bound ignores that a trail must be
    connected, so it is an upper bound, and it is usually exact.
    """
    odd = [i for i, v in enumerate(branch) if deg[v] & 1]
    if len(odd) > _MAX_ODD:
        return {s: {t: down2[s] if t == s else down1[t] for t in starts} for s in starts}
    m = len(branch)
    index = {v: i for i, v in enumerate(branch)}
    big = sum(c[2] for c in chains) + 1
    d = [[big] * m for _ in range(m)]
    for i in range(m):
        d[i][i] = 0
    for x, y, w, _ in chains:
        i, j = index[x], index[y]
        if w < d[i][j]:
            d[i][j] = d[j][i] = w
    for k in range(m):  # Floyd-Warshall: there are few cities
        dk = d[k]
        for di in d:
            dik = di[k]
            for j in range(m):
                if dik + dk[j] < di[j]:
                    di[j] = dik + dk[j]

    n = len(odd)
    pos = {b: p for p, b in enumerate(odd)}
    d_odd = [[d[a][b] for b in odd] for a in odd]
    cost: dict[int, int] = {0: 0}

    def match(group: int) -> int:
        """Return the cheapest pairing of the odd cities in bit set `group`."""
        got = cost.get(group)
        if got is None:
            low = group & -group
            i, rest, got = low.bit_length() - 1, group ^ low, big
            others = rest
            while others:
                bit = others & -others
                others ^= bit
                c = d_odd[i][bit.bit_length() - 1] + match(rest ^ bit)
                if c < got:
                    got = c
            cost[group] = got
        return got

    full = (1 << n) - 1

    def left_out(a: int, b: int) -> int:
        """Return the least that a trail with ends at branch cities a != b leaves out."""
        pa, pb = pos.get(a), pos.get(b)
        if pa is not None and pb is not None:
            return match(full ^ (1 << pa) ^ (1 << pb))
        if pa is None and pb is None:  # both ends join the cities to pair up
            got = d[a][b] + match(full)
            for x in range(n):
                for y in range(n):
                    if x != y:
                        c = d[a][odd[x]] + d[b][odd[y]] + match(full ^ (1 << x) ^ (1 << y))
                        if c < got:
                            got = c
            return got
        if pa is None:
            a, b, pa = b, a, pb
        return min(d[b][odd[x]] + match(full ^ (1 << pa) ^ (1 << x)) for x in range(n) if x != pa)

    closed = match(full)
    gain = {s: {s: down2[s] - closed} for s in starts}
    for p, s in enumerate(starts):
        for t in starts[p + 1 :]:
            c = -left_out(index[s], index[t])
            gain[s][t] = c + down1[t]
            gain[t][s] = c + down1[s]
    return gain
