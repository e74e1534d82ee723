"""Passenger journeys (Märklin): trails that collect a value at every city they enter.

A passenger starts in a city and travels along a *trail*: a walk that never uses a
route twice but may pass a city again.  It collects a value (the top merchandise
token) at each city it enters, once per city, never at its start.  Routes of its
owner are free; each route of an opponent costs one Passenger card.

The value of a journey depends only on the **set of cities it visits**, and what it
costs only on how many paid routes it uses.  So:

* `passenger_journeys` lists, for every distinct set of cities a trail can visit, one
  cheapest trail that visits them (what a player may choose from);
* `best_journey` finds a trail of greatest value: a *maximum-weight trail* with the
  weights on the cities, the cousin of the longest trail (weights on the routes, see
  `ttr_nb.algorithms.longest_trail`);
* `greedy_journey` walks to the best-looking neighbour each time, which is fast and
  sometimes far from best;
* `journey_trails` yields every trail, to count how fast their number grows.

Routes are given as tuples ``(route_id, place_a, place_b, paid)``: ``paid`` is true
for a route that needs a Passenger card.  Places in `dead_ends` (countries) are never
entered.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from typing import NamedTuple

__all__ = [
    "DeadEndStartError",
    "Journey",
    "NegativeCardBudgetError",
    "NegativeTokenValueError",
    "best_journey",
    "greedy_journey",
    "journey_trails",
    "journey_value",
    "passenger_journeys",
]


BOUND_DEPTH = 4  # best_journey bounds trails of at most this many routes


class NegativeCardBudgetError(ValueError):
    """The number of Passenger cards that may be spent is negative."""


class NegativeTokenValueError(ValueError):
    """A city's value is negative (tokens are worth 1 point or more; an empty city 0)."""


class DeadEndStartError(ValueError):
    """The journey starts in a dead end (a country), where no passenger may stand."""


class Journey(NamedTuple):
    """One trail of a passenger.

    Attributes
    ----------
    path : tuple
        Route ids in travel order.
    stops : tuple
        The place reached by each route of `path`, in order (so ``stops[-1]`` is
        where the journey ends).
    visited : frozenset
        The places entered, without the start (even if the trail comes back to it).
    cards : int
        How many paid routes the trail uses.
    """

    path: tuple[Hashable, ...]
    stops: tuple[Hashable, ...]
    visited: frozenset[Hashable]
    cards: int


def journey_value(journey: Journey, values: Mapping[Hashable, int]) -> int:
    """Total value a journey collects: one value per city entered, never its start.

    Examples
    --------
    >>> j = Journey(("r1", "r2"), ("B", "A"), frozenset({"B"}), 0)
    >>> journey_value(j, {"A": 7, "B": 3})
    3
    """
    return sum(values.get(place, 0) for place in journey.visited)


class _Network:
    """Routes indexed for the searches: places and routes as small integers."""

    def __init__(
        self,
        routes: Iterable[Sequence],
        start: Hashable,
        cards: int,
        dead_ends: Iterable[Hashable],
    ) -> None:
        if cards < 0:
            raise NegativeCardBudgetError(f"cannot spend {cards} Passenger cards")
        dead = frozenset(dead_ends)
        if start in dead:
            raise DeadEndStartError(f"a journey cannot start in {start!r}, a dead end")
        self.places: list[Hashable] = [start]
        index = {start: 0}
        self.ids: list[Hashable] = []
        # place -> [(route bit, route index, other place, other place's bit, cost)]
        self.adj: list[list[tuple[int, int, int, int, int]]] = [[]]
        for route_id, a, b, paid in routes:
            if a == b or a in dead and b in dead:
                continue
            i = len(self.ids)
            self.ids.append(route_id)
            ends = []
            for place in (a, b):
                k = index.get(place)
                if k is None:
                    k = index[place] = len(self.places)
                    self.places.append(place)
                    self.adj.append([])
                ends.append(k)
            u, v = ends
            cost = 1 if paid else 0
            if b not in dead:
                self.adj[u].append((1 << i, i, v, 1 << v, cost))
            if a not in dead:
                self.adj[v].append((1 << i, i, u, 1 << u, cost))
        self.cards = cards

    def journey(self, path: Sequence[int], cost: int, stops: Sequence[int] = ()) -> Journey:
        """The Journey of a path of route indices (``stops``: the place indices it
        reaches, worked out here when not given)."""
        places, ids = self.places, self.ids
        if not stops:
            here, reached = 0, []
            for i in path:
                here = next(w for _, j, w, _, _ in self.adj[here] if j == i)
                reached.append(here)
            stops = reached
        return Journey(
            tuple(ids[i] for i in path),
            tuple(places[k] for k in stops),
            frozenset(places[k] for k in stops if k),
            cost,
        )


def passenger_journeys(
    routes: Iterable[Sequence],
    start: Hashable,
    cards: int = 0,
    dead_ends: Iterable[Hashable] = (),
) -> list[Journey]:
    """Return one cheapest trail for every distinct set of cities a passenger can visit.

    Parameters
    ----------
    routes : iterable of tuple
        ``(route_id, place_a, place_b, paid)`` for every route the passenger may use;
        ``paid`` is true when using it costs a Passenger card.  Parallel routes are
        separate routes (a trail may use both).
    start : hashable
        The city where the passenger stands.
    cards : int, optional
        How many paid routes a trail may use (the Passenger cards held).
    dead_ends : iterable of hashable, optional
        Places a passenger never enters (countries).

    Returns
    -------
    list of Journey
        One journey per distinct set of visited cities, using the fewest paid routes
        and then the fewest routes (the first such trail of a depth-first search over
        the routes in the order given).  Sorted by the size of the set, then by the
        number of routes, then in the order the search found them.  Empty when no
        route leaves `start`.

    Raises
    ------
    NegativeCardBudgetError
        If `cards` is negative.
    DeadEndStartError
        If `start` is one of the `dead_ends`.

    See Also
    --------
    best_journey : only the most valuable journey (a branch-and-bound search).
    journey_trails : every trail, one by one.

    Notes
    -----
    A depth-first search over trails: it visits every trail from `start` once, so it
    takes O(T * d) time for T trails and at most d routes at a city, and O(R) memory
    besides the answer, for R routes (sets of places are bit masks).  T grows
    exponentially with the number of cycles the routes form and with `cards`: a
    player's own network of 15-25 routes has tens to a few thousand trails, but
    adding paid routes of a crowded board multiplies them (see the Märklin lesson).

    Examples
    --------
    A triangle A-B-C with a tail C-D.  From A the passenger can stop at B, go on to C
    or D, or come back to A; the sets {B}, {B, C}, {B, C, D}, {C}, {C, D} and
    {C, B} (the same as {B, C}) give five distinct journeys:

    >>> routes = [(1, "A", "B", False), (2, "B", "C", False), (3, "C", "A", False),
    ...           (4, "C", "D", False)]
    >>> for j in passenger_journeys(routes, "A"):
    ...     print(j.path, sorted(j.visited))
    (1,) ['B']
    (3,) ['C']
    (1, 2) ['B', 'C']
    (3, 4) ['C', 'D']
    (1, 2, 4) ['B', 'C', 'D']

    A paid route is only used with a card:

    >>> paid = [(1, "A", "B", False), (2, "B", "C", True)]
    >>> [j.path for j in passenger_journeys(paid, "A")]
    [(1,)]
    >>> [(j.path, j.cards) for j in passenger_journeys(paid, "A", cards=1)]
    [((1,), 0), ((1, 2), 1)]
    """
    net = _Network(routes, start, cards, dead_ends)
    adj, budget = net.adj, net.cards
    best: dict[int, tuple[int, int, tuple[int, ...], tuple[int, ...]]] = {}
    path: list[int] = []
    stops: list[int] = []

    def walk(here: int, used: int, seen: int, cost: int) -> None:
        for bit, i, there, there_bit, price in adj[here]:
            if used & bit:
                continue
            spent = cost + price
            if spent > budget:
                continue
            path.append(i)
            stops.append(there)
            now = seen | there_bit if there else seen
            old = best.get(now)
            if old is None or spent < old[0] or (spent == old[0] and len(path) < old[1]):
                best[now] = (spent, len(path), tuple(path), tuple(stops))
            walk(there, used | bit, now, spent)
            path.pop()
            stops.pop()

    walk(0, 0, 0, 0)
    out = [net.journey(p, spent, reached) for spent, _, p, reached in best.values()]
    out.sort(key=lambda j: (len(j.visited), len(j.path)))  # stable: ties in search order
    return out


def journey_trails(
    routes: Iterable[Sequence],
    start: Hashable,
    cards: int = 0,
    dead_ends: Iterable[Hashable] = (),
) -> Iterator[Journey]:
    """Yield every trail a passenger can travel from `start`, one by one.

    Parameters and exceptions are those of `passenger_journeys`.

    Yields
    ------
    Journey
        Each trail of one route or more, depth first (so a trail comes right after
        the trail one route shorter that it extends).

    Notes
    -----
    Yields T trails in O(T * (d + L)) time for trails of at most L routes.  Counting
    them shows why `passenger_journeys` keeps only one trail per set of cities.

    Examples
    --------
    >>> triangle = [(1, "A", "B", False), (2, "B", "C", False), (3, "C", "A", False)]
    >>> [j.path for j in journey_trails(triangle, "A")]
    [(1,), (1, 2), (1, 2, 3), (3,), (3, 2), (3, 2, 1)]
    """
    net = _Network(routes, start, cards, dead_ends)
    adj, budget = net.adj, net.cards
    path: list[int] = []

    def walk(here: int, used: int, cost: int) -> Iterator[Journey]:
        for bit, i, there, _, price in adj[here]:
            if used & bit or cost + price > budget:
                continue
            path.append(i)
            yield net.journey(path, cost + price)
            yield from walk(there, used | bit, cost + price)
            path.pop()

    yield from walk(0, 0, 0)


def best_journey(
    routes: Iterable[Sequence],
    start: Hashable,
    values: Mapping[Hashable, int],
    cards: int = 0,
    dead_ends: Iterable[Hashable] = (),
) -> Journey | None:
    """Return a journey of greatest value: a maximum-weight trail, weights on the cities.

    Parameters
    ----------
    routes, start, cards, dead_ends
        As for `passenger_journeys`.
    values : mapping
        The value collected on entering each place (the top token; 0 or missing when
        its stack is empty).

    Returns
    -------
    Journey or None
        A trail whose visited cities are worth the most; among those, one with the
        fewest paid routes, then the fewest routes.  None when no route leaves `start`.

    Raises
    ------
    NegativeCardBudgetError
        If `cards` is negative.
    NegativeTokenValueError
        If a value is negative.
    DeadEndStartError
        If `start` is one of the `dead_ends`.

    Notes
    -----
    Branch and bound over the same trails as `passenger_journeys`, most valuable
    neighbours first: a trail stops being extended once what it holds plus every
    value still reachable over its unused routes cannot beat the best journey found
    (computing that bound costs O(R) at each step).  Like the longest trail, it is still
    exponential in the worst case, but the bound cuts most branches once a good
    journey is known.

    Examples
    --------
    A greedy walk from S takes the 5 at A and is stuck; the best journey goes the
    other way through three cities worth 3 each:

    >>> routes = [(1, "S", "A", False), (2, "S", "B", False), (3, "B", "C", False),
    ...           (4, "C", "D", False)]
    >>> values = {"A": 5, "B": 3, "C": 3, "D": 3}
    >>> j = best_journey(routes, "S", values)
    >>> j.path, journey_value(j, values)
    ((2, 3, 4), 9)
    """
    net = _Network(routes, start, cards, dead_ends)
    worth = [0] * len(net.places)
    for k, place in enumerate(net.places):
        value = values.get(place, 0)
        if value < 0:
            raise NegativeTokenValueError(f"{place!r} is worth {value}")
        worth[k] = value if k else 0
    budget = net.cards
    # Most valuable neighbours first (free routes first at equal value): a good journey
    # is found early, and the bound below then cuts more.
    adj = [sorted(steps, key=lambda s: (-worth[s[2]], s[4], s[1])) for steps in net.adj]
    best: list = [(-1, 0, 0), None]  # (value, -cards, -routes), (path, cards)
    path: list[int] = []

    def reachable(here: int, used: int, seen: int, cost: int) -> int:
        """What the uncollected places reachable over unused routes are worth (a bound)."""
        found, todo, extra = 1 << here, [here], 0
        while todo:
            u = todo.pop()
            for bit, _, w, w_bit, price in adj[u]:
                if used & bit or found & w_bit or cost + price > budget:
                    continue
                found |= w_bit
                todo.append(w)
                if w and not seen & w_bit:
                    extra += worth[w]
        return extra

    def walk(here: int, used: int, seen: int, cost: int, value: int) -> None:
        # Every extension is worth at most this, and uses more routes. The bound costs a
        # search of its own, so it is only worked out near the start of a trail, where
        # cutting a branch saves the most.
        if len(path) <= BOUND_DEPTH and (
            (value + reachable(here, used, seen, cost), -cost, -len(path)) <= best[0]
        ):
            return
        for bit, i, there, there_bit, price in adj[here]:
            if used & bit:
                continue
            spent = cost + price
            if spent > budget:
                continue
            path.append(i)
            gain = worth[there] if there and not seen & there_bit else 0
            now = seen | there_bit if there else seen
            score = (value + gain, -spent, -len(path))
            if score > best[0]:
                best[0], best[1] = score, (tuple(path), spent)
            walk(there, used | bit, now, spent, value + gain)
            path.pop()

    walk(0, 0, 0, 0, 0)
    if best[1] is None:
        return None
    found, spent = best[1]
    return net.journey(list(found), spent)


def greedy_journey(
    routes: Iterable[Sequence],
    start: Hashable,
    values: Mapping[Hashable, int],
    cards: int = 0,
    dead_ends: Iterable[Hashable] = (),
) -> Journey | None:
    """Return the journey of a greedy walk: always on to the most valuable next city.

    Parameters are those of `best_journey`.

    Returns
    -------
    Journey or None
        At each city the walk takes an unused route (a free one before a paid one at
        equal value, then in the order given) to the neighbour whose value is the
        highest among those not collected yet, and stops when no such neighbour is
        worth anything.  None when that happens at the start.

    Raises
    ------
    NegativeCardBudgetError, NegativeTokenValueError, DeadEndStartError
        As for `best_journey`.

    Notes
    -----
    O(L * d) time for a walk of L routes.  It never looks further than one step, so
    it can walk into a dead end while a longer branch was worth more (see the
    example of `best_journey`).

    Examples
    --------
    >>> routes = [(1, "S", "A", False), (2, "S", "B", False), (3, "B", "C", False),
    ...           (4, "C", "D", False)]
    >>> greedy_journey(routes, "S", {"A": 5, "B": 3, "C": 3, "D": 3}).path
    (1,)
    """
    net = _Network(routes, start, cards, dead_ends)
    for place, value in values.items():
        if value < 0:
            raise NegativeTokenValueError(f"{place!r} is worth {value}")
    here, used, spent, path, seen = 0, 0, 0, [], {0}
    while True:
        choice = None
        for bit, i, there, _, price in net.adj[here]:
            if used & bit or spent + price > net.cards or there in seen:
                continue
            gain = values.get(net.places[there], 0)
            key = (gain, -price)
            if gain > 0 and (choice is None or key > choice[0]):
                choice = (key, bit, i, there, price)
        if choice is None:
            break
        _, bit, i, there, price = choice
        used |= bit
        spent += price
        path.append(i)
        seen.add(there)
        here = there
    return net.journey(path, spent) if path else None
