"""The highest score one player can reach alone on a board, proven optimal.

E. J. Schaefer and A. J. Schaefer ("Maximizing the Score in 'Ticket to Ride'", arXiv
2511.08441, 2025) ask what a single player scores with no opponents, free to hold any
tickets and to claim any routes within their trains: route points plus the points of
every ticket the routes complete. :func:`best_score` builds that problem from a map and
solves it with :func:`~ttr_nb.algorithms.prize_forest.max_prize_forest`.

What each variant's model counts (`LEFT_OUT` says what it leaves out):

* USA: route points and tickets (one track of a double route).
* Germany and Märklin: the same; tickets to a country end in any of its border spaces,
  which a connection never passes through.
* Rails & Sails World: routes and tickets within a supply of pieces (at most 25 of
  them trains and 50 ships, as at setup); a tour counts its any-order value when its
  cities are joined.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..algorithms.prize_forest import Demand, PrizeForest, max_prize_forest
from ..maps import Map, load_map

__all__ = [
    "LEFT_OUT",
    "BadBudgetError",
    "BestScore",
    "best_score",
    "check_best",
    "map_score",
    "networks_bound",
    "ticket_value",
]

LEFT_OUT = {
    "usa": "the longest-path bonus (10 points), which depends on the opponents",
    "germany": (
        "passengers (majority bonuses against opponents) and the Globetrotter bonus "
        "(most completed tickets)"
    ),
    "maerklin": (
        "passengers' journeys and merchandise tokens, and the bonus for the most completed tickets"
    ),
    "world": (
        "harbors, exchanging pieces during the game, and a tour's in-order value "
        "(a tour counts its any-order value)"
    ),
}


class BadBudgetError(ValueError):
    """A budget the board cannot take (not a whole number, or below 0)."""


@dataclass(frozen=True)
class BestScore:
    """A proven best game: routes, tickets, score and the solver's bound."""

    map_id: str
    trains: int
    routes: tuple[int, ...]
    tickets: tuple[int, ...]
    score: int
    route_points: int
    ticket_points: int
    bound: float
    gap: float
    pieces: int
    seconds: float
    method: str
    trees: int | None
    left_out: str

    def as_json(self) -> dict:
        """The ``--json`` object of ``ttr-nb best-score``."""
        return {
            "map": self.map_id,
            "trains": self.trains,
            "routes": list(self.routes),
            "tickets": list(self.tickets),
            "score": self.score,
            "route_points": self.route_points,
            "ticket_points": self.ticket_points,
            "bound": self.bound,
            "gap": self.gap,
            "pieces": self.pieces,
            "seconds": round(self.seconds, 3),
            "left_out": self.left_out,
        }


def ticket_value(ticket) -> int:
    """The points the model counts for a ticket (a tour: its any-order value)."""
    if ticket.tour_values:
        return int(ticket.tour_values.get("any_order", ticket.points))
    return int(ticket.points)


def _instance(game_map: Map, trains: int):
    edges = {r.id: (r.a, r.b, r.length, game_map.route_points(r.length)) for r in game_map.routes}
    demands = {
        t.id: Demand(tuple(game_map.targets(p) for p in t.cities), ticket_value(t))
        for t in game_map.tickets
    }
    groups = [g for g in game_map.groups.values() if len(g) > 1]
    caps = []
    pieces = game_map.components.get("pieces", {})
    kinds = {r.kind for r in game_map.routes}
    if len(kinds) > 1:
        for kind in sorted(kinds):
            if kind in pieces:
                caps.append(([r.id for r in game_map.routes if r.kind == kind], int(pieces[kind])))
    return edges, demands, groups, caps


def default_budget(game_map: Map) -> int:
    """A player's pieces at the start (World: the supply of 60)."""
    pieces = game_map.components.get("pieces", {})
    return int(pieces.get("supply", pieces.get("train", 45)))


def best_score(
    map_name: str | Map,
    trains: int | None = None,
    *,
    method: str = "flow",
    trees: int | None = 1,
    time_limit: float | None = None,
) -> BestScore:
    """The highest score one player can reach alone with `trains` pieces.

    Parameters
    ----------
    map_name : str or Map
        A shipped map's name (``usa``, ``germany``, ``maerklin``, ``world``) or a map.
    trains : int, optional
        The budget of pieces (default: a player's pieces at the start).
    method : {"flow", "cuts"}
        How the model writes connectivity (see :mod:`ttr_nb.algorithms.prize_forest`).
    trees : int or None
        1 (default): every completed ticket lies in one network (the model the solver
        proves fast); None: any number of networks (a forest; a weaker relaxation).
    time_limit : float, optional
        Seconds before the solver stops with a bound (then ``gap`` may be above 0).

    Raises
    ------
    BadBudgetError
        For a budget that is not a whole number >= 0.
    MapFormatError, FileNotFoundError
        For a map that cannot be loaded.
    """
    game_map = map_name if isinstance(map_name, Map) else load_map(map_name)
    budget = default_budget(game_map) if trains is None else trains
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 0:
        raise BadBudgetError(f"the number of trains must be a whole number >= 0, not {budget!r}")
    edges, demands, groups, caps = _instance(game_map, budget)
    forest: PrizeForest = max_prize_forest(
        edges,
        demands,
        budget,
        groups=groups,
        caps=caps,
        dead_ends=game_map.dead_ends,
        method=method,
        trees=trees,
        time_limit=time_limit,
    )
    route_points = sum(edges[r][3] for r in forest.edges)
    ticket_points = sum(demands[t].prize for t in forest.demands)
    return BestScore(
        map_id=game_map.id,
        trains=budget,
        routes=tuple(forest.edges),
        tickets=tuple(forest.demands),
        score=int(route_points + ticket_points),
        route_points=int(route_points),
        ticket_points=int(ticket_points),
        bound=forest.bound,
        gap=forest.gap,
        pieces=forest.cost,
        seconds=forest.seconds,
        method=method,
        trees=trees,
        left_out=LEFT_OUT.get(game_map.id, ""),
    )


def map_score(game_map: Map, routes: Sequence[int]) -> tuple[int, int, list[int]]:
    """Route points, ticket points and completed tickets of a set of routes, recounted with
    networkx alone (no solver): an independent check of a stored best game."""
    import networkx as nx

    graph = nx.MultiGraph()
    for r in routes:
        route = game_map.route_by_id[r]
        graph.add_edge(route.a, route.b)
    through = graph.subgraph([n for n in graph if n not in game_map.dead_ends])
    parts = [set(c) for c in nx.connected_components(through)]

    def reach(places: frozenset) -> set:
        out = set(places)
        for place in places:
            if place in game_map.dead_ends and place in graph:
                out |= set(graph[place])
        for part in parts:
            if part & out:
                out |= part
                out |= {m for n in part for m in graph[n] if m in game_map.dead_ends}
        return out

    done = []
    for t in game_map.tickets:
        places = [game_map.targets(p) for p in t.cities]
        if all(
            any(p in graph for p in a) and reach(a) & b
            for a, b in zip(places, places[1:], strict=False)
        ):
            done.append(t.id)
    route_points = sum(game_map.route_points(game_map.route_by_id[r].length) for r in routes)
    ticket_points = sum(ticket_value(game_map.ticket_by_id[t]) for t in done)
    return route_points, ticket_points, done


def check_best(stored: dict, game_map: Map | None = None) -> list[str]:
    """Problems with a stored best game (``BestScore.as_json()``): an empty list when its
    routes fit the budget, use one track of each double route, and score what it says."""
    game_map = game_map or load_map(stored["map"])
    problems = []
    routes = stored["routes"]
    unknown = [r for r in routes if r not in game_map.route_by_id]
    if unknown:
        return [f"routes {unknown} are not on the {game_map.name} board"]
    pieces = sum(game_map.route_by_id[r].length for r in routes)
    if pieces > stored["trains"]:
        problems.append(f"the routes use {pieces} pieces, more than {stored['trains']}")
    groups = [game_map.route_by_id[r].group for r in routes]
    if len(set(groups)) < len(groups):
        problems.append("two tracks of one double route are claimed")
    route_points, ticket_points, done = map_score(game_map, routes)
    if route_points + ticket_points != stored["score"]:
        problems.append(
            f"the routes score {route_points} + {ticket_points} = "
            f"{route_points + ticket_points}, not {stored['score']}"
        )
    if sorted(done) != sorted(stored["tickets"]):
        problems.append(f"the routes complete tickets {sorted(done)}, not {stored['tickets']}")
    return problems


def networks_bound(bounds: Mapping[int, float], budget: int) -> float:
    """The most a game whose tickets lie in two or more separate networks can score.

    Split such a game into its networks (connected sets of routes): each network, with
    the tickets it completes, is a one-network game of its own pieces, and the pieces add
    up to at most `budget`. So its score is at most the best sum of one-network bounds
    over the ways to split the budget into two or more parts: a knapsack over `bounds`.
    When that is no more than the proven one-network optimum, no forest beats it, and
    the one-network optimum is the optimum of any game.

    Parameters
    ----------
    bounds : mapping of int to float
        Pieces -> an upper bound on the best one-network score with that many pieces
        (the solver's ``bound`` of the one-network model), for 1 to ``budget - 1``.
        A bound for more pieces also bounds fewer: the smallest one from a budget up is used.
    budget : int
        The pieces of the whole game.

    Returns
    -------
    float
        The bound; ``-inf`` when `budget` cannot be split (below 2).

    Raises
    ------
    ValueError
        When a budget from 1 to ``budget - 1`` has no bound.

    Examples
    --------
    Points that grow faster than the pieces (as on the board: a 6-train route scores 15,
    six 1-train routes 6) make splitting a loss: the best split of 6 is 5 + 1.

    >>> one_network = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15}
    >>> networks_bound(one_network, 6)
    11.0
    >>> networks_bound(one_network, 1)
    -inf

    Notes
    -----
    Dynamic programming over budgets: ``O(budget ** 2)`` steps.
    """
    missing = [b for b in range(1, budget) if b not in bounds]
    if missing:
        raise ValueError(f"no one-network bound for {missing[0]} pieces")
    # f(b) never exceeds f(b') for b' >= b: the smallest bound from b up is also a bound.
    capped: dict[int, float] = {}
    lowest = float("inf")
    for b in sorted(bounds, reverse=True):
        lowest = min(lowest, float(bounds[b]))
        capped[b] = lowest
    # best[n]: the most any game of n pieces split into one or more networks can score
    best = [0.0] * max(budget, 1)
    for n in range(1, budget):
        split = max((capped[b] + best[n - b] for b in range(1, n)), default=float("-inf"))
        best[n] = max(capped[n], split)
    return max((capped[b] + best[budget - b] for b in range(1, budget)), default=float("-inf"))
