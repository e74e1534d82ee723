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
* Europe: routes and tickets (regular and long), plus 4 points for each of the 3
  stations: alone, a station has no opponent's route to borrow, so the best game
  builds none and keeps their 12 points (:func:`station_points`).

The model (``trees=1``) proves the best game *among games whose completed tickets lie in
one network*. :func:`any_shape` says, for one run, whether that is also the best game of
any shape: it is when no game of two or more networks can score more, which a knapsack
over the one-network bounds of smaller budgets decides (:func:`networks_bound`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..algorithms.prize_forest import Demand, PrizeForest, max_prize_forest
from ..maps import Map, load_map

__all__ = [
    "LEFT_OUT",
    "BadBudgetError",
    "BestScore",
    "ShapeProof",
    "any_shape",
    "best_score",
    "board_pieces",
    "check_best",
    "map_score",
    "networks_bound",
    "one_network_bounds",
    "station_points",
    "stored_table",
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
    "europe": (
        "the European Express (10 points for the longest continuous path), which depends on "
        "the opponents"
    ),
}

# Where `ttr-nb best-score` looks for a table of one-network runs (tools/best_scores.py
# writes them): the repository's results/, when the package runs from a checkout.
RESULTS = Path(__file__).resolve().parents[2] / "results" / "best_score"


class BadBudgetError(ValueError):
    """A budget the board cannot take (not a whole number, or below 0)."""


@dataclass(frozen=True)
class BestScore:
    """A best game alone: routes, tickets, score and what the solver proved.

    Attributes
    ----------
    map_id : str
        The map's id.
    trains : int
        The budget of pieces.
    routes, tickets : tuple of int
        Route ids claimed and ticket ids they complete.
    score : int
        ``route_points + ticket_points + station_points``.
    route_points, ticket_points : int
        The two parts the solver chooses.
    station_points : int
        Points every game alone keeps whatever it builds (Europe: 4 for each station
        never built; 0 on the other maps).
    bound : float
        No game of the model scores more (the solver's bound, plus `station_points`).
    gap : float
        ``(bound - score) / score``: 0 means `score` is proven best in the model.
    pieces : int
        Pieces the routes use.
    seconds : float
        The solver's wall-clock time.
    method : str
        How connectivity was written (:data:`~ttr_nb.algorithms.prize_forest.METHODS`).
    trees : int or None
        1: the model holds every completed ticket in one network; None: any forest.
    time_limit : float or None
        Seconds the solver was given.
    left_out : str
        The scoring rules the model leaves out, in words ("" when none is known).
    """

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
    station_points: int = 0
    time_limit: float | None = None

    @property
    def proven(self) -> bool:
        """Whether the solver closed the gap: no game of the model scores more."""
        return self.gap == 0

    def as_json(self) -> dict:
        """The ``--json`` object of ``ttr-nb best-score``: every field, and `proven`."""
        return {
            "map": self.map_id,
            "trains": self.trains,
            "routes": list(self.routes),
            "tickets": list(self.tickets),
            "score": self.score,
            "route_points": self.route_points,
            "ticket_points": self.ticket_points,
            "station_points": self.station_points,
            "bound": self.bound,
            "gap": self.gap,
            "proven": self.proven,
            "pieces": self.pieces,
            "seconds": round(self.seconds, 3),
            "method": self.method,
            "trees": self.trees,
            "time_limit": self.time_limit,
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


def station_points(game_map: Map) -> int:
    """The points a player alone keeps for stations: each station never built scores its
    points at the end, and with no opponents a station has no route to borrow, so the
    best game builds none (Europe: 3 stations of 4 points; 0 on maps without stations).

    >>> station_points(load_map("europe")), station_points(load_map("usa"))
    (12, 0)
    """
    from ..rules import VARIANTS

    rules = VARIANTS.get(game_map.rules)
    each = int(getattr(rules, "unbuilt_station_points", 0))
    return each * int(game_map.components.get("stations_per_player", 0))


def board_pieces(game_map: Map) -> int:
    """The most pieces a game alone can place: every route, one track of each double route
    (the longest), within each kind's cap. A larger budget plays the same best game.

    >>> board_pieces(load_map("usa"))
    256
    """
    longest: dict[int, tuple[str, int]] = {}
    for route in game_map.routes:
        if route.group not in longest or route.length > longest[route.group][1]:
            longest[route.group] = (route.kind, route.length)
    by_kind: dict[str, int] = {}
    for kind, length in longest.values():
        by_kind[kind] = by_kind.get(kind, 0) + length
    pieces = game_map.components.get("pieces", {})
    if len(by_kind) > 1:  # as in the model: a cap per kind of piece (World's 25 trains)
        by_kind = {k: min(n, int(pieces.get(k, n))) for k, n in by_kind.items()}
    return sum(by_kind.values())


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
        A shipped map's name (``usa``, ``europe``, ``germany``, ``maerklin``, ``world``)
        or a map.
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
    kept = station_points(game_map)
    score = int(route_points + ticket_points) + kept
    bound = forest.bound + kept
    return BestScore(
        map_id=game_map.id,
        trains=budget,
        routes=tuple(forest.edges),
        tickets=tuple(forest.demands),
        score=score,
        route_points=int(route_points),
        ticket_points=int(ticket_points),
        station_points=kept,
        bound=bound,
        gap=0.0 if forest.gap == 0 else (bound - score) / max(score, 1e-9),
        pieces=forest.cost,
        seconds=forest.seconds,
        method=method,
        trees=trees,
        time_limit=time_limit,
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
    routes fit the budget, use one track of each double route, and score what it says
    (station points included)."""
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
    kept = station_points(game_map)
    if stored.get("station_points", 0) != kept:
        problems.append(f"a game alone keeps {kept} station points, not {stored['station_points']}")
    if route_points + ticket_points + kept != stored["score"]:
        problems.append(
            f"the routes score {route_points} + {ticket_points} (+ {kept} for stations) = "
            f"{route_points + ticket_points + kept}, not {stored['score']}"
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


def one_network_bounds(rows: Iterable[Mapping], map_id: str) -> dict[int, float]:
    """Pieces -> a bound on the route and ticket points of any one-network game, from
    stored runs (``BestScore.as_json()`` rows of the one-network model, ``trees`` 1).

    Station points are taken off (every game keeps them once, however many networks it
    has); of two runs of one budget the lower bound is kept (both are bounds).

    >>> rows = [{"map": "m", "trains": 3, "trees": 1, "bound": 9.0, "station_points": 2},
    ...         {"map": "m", "trains": 3, "trees": 1, "bound": 8.0},
    ...         {"map": "m", "trains": 4, "trees": None, "bound": 20.0}]
    >>> one_network_bounds(rows, "m")
    {3: 7.0}
    """
    out: dict[int, float] = {}
    for row in rows:
        if row.get("map") != map_id or row.get("trees") != 1:
            continue
        bound = float(row["bound"]) - row.get("station_points", 0)
        out[row["trains"]] = min(bound, out.get(row["trains"], bound))
    return out


def stored_table(map_id: str, path: str | Path | None = None) -> tuple[list[dict], str]:
    """The stored one-network runs of a map, and where they come from.

    Parameters
    ----------
    map_id : str
        The map's id.
    path : str or Path, optional
        A JSON-lines file of runs (``tools/best_scores.py --out``); by default
        ``results/best_score/<map_id>.jsonl`` of the repository, when the package runs
        from a checkout.

    Returns
    -------
    rows : list of dict
        The runs (empty when there is no file).
    source : str
        The file's name as the command line shows it (``results/best_score/usa.jsonl``),
        or "" when there is no file.

    Raises
    ------
    OSError, ValueError
        For a named `path` that cannot be read or holds a line that is not JSON.
    """
    if path is None:
        default = RESULTS / f"{map_id}.jsonl"
        if not default.is_file():
            return [], ""
        path, source = default, f"results/best_score/{map_id}.jsonl"
    else:
        source = Path(path).name
    text = Path(path).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()], source


@dataclass(frozen=True)
class ShapeProof:
    """Whether a best game of one network is the best game of any shape.

    Attributes
    ----------
    proven : bool
        True when no game, of any number of networks, scores more than the run.
    bound : float or None
        The most a game of two or more networks can score (:func:`networks_bound` over
        the one-network bounds, plus the station points), when it could be computed.
    reason : str
        Why, in one sentence for the command line.
    """

    proven: bool
    bound: float | None
    reason: str

    def as_json(self) -> dict:
        """The ``any_shape`` object of ``ttr-nb best-score --json``."""
        return {"proven": self.proven, "networks_bound": self.bound, "reason": self.reason}


def any_shape(best: BestScore, bounds: Mapping[int, float] | None, source: str = "") -> ShapeProof:
    """Whether `best` is the best game of any shape, not only of one network.

    A game whose completed tickets lie in two or more networks is a set of one-network
    games whose pieces add up to the budget, so it scores at most the knapsack of
    :func:`networks_bound` over one-network bounds. When that is no more than a proven
    one-network optimum, no game beats it.

    Parameters
    ----------
    best : BestScore
        A run of :func:`best_score`.
    bounds : mapping of int to float, or None
        Pieces -> a bound on the route and ticket points of any one-network game
        (:func:`one_network_bounds`), for 1 to ``best.trains - 1`` pieces; None when
        there is no table.
    source : str, optional
        Where `bounds` come from, named in the reason.

    Returns
    -------
    ShapeProof

    Examples
    --------
    >>> run = BestScore("m", 3, (), (), 4, 4, 0, 4.0, 0.0, 3, 0.1, "flow", 1, "")
    >>> any_shape(run, {1: 1.0, 2: 2.0}).proven  # two networks: at most 1 + 2 = 3
    True
    >>> any_shape(run, {1: 1.0, 2: 3.5}).reason
    'not proven: a game of two or more networks might score up to 4.5, more than 4'
    >>> any_shape(run, None).proven
    False
    >>> any_shape(run, {1: 1.0, 2: 2.0, 5: 3.0}).reason
    "not checked: the table's bound for 5 pieces (3) is below this run's score: made for \
another board?"
    """
    if best.gap != 0:
        return ShapeProof(False, None, "not proven: not even among games of one network")
    if best.trees is None:
        return ShapeProof(True, None, "proven: the model allows any number of networks")
    within = {b: float(v) for b, v in (bounds or {}).items()}
    if best.trains >= 2 and not within:
        where = f" (none in {source})" if source else ""
        return ShapeProof(
            False,
            None,
            f"not checked: no table of one-network bounds for smaller budgets{where}; "
            f"tools/best_scores.py --map {best.map_id} --budgets 1-{best.trains - 1} makes one",
        )
    own = best.bound - best.station_points
    for b, v in sorted(within.items()):
        # more pieces never score less: a bound below this proven score is another board's
        if b >= best.trains and v < best.score - best.station_points - 1e-6:
            return ShapeProof(
                False,
                None,
                f"not checked: the table's bound for {b} pieces ({v:g}) is below this "
                f"run's score{f' ({source})' if source else ''}: made for another board?",
            )
    # The run's own bound is the freshest for its budget.
    within[best.trains] = min(within.get(best.trains, own), own)
    try:
        split = networks_bound(within, best.trains)
    except ValueError as missing:
        where = f" in {source}" if source else ""
        return ShapeProof(False, None, f"not checked: {missing}{where}")
    total = split + best.station_points
    shown = f"{total:g}"
    if total <= best.score:
        if best.trains < 2:
            return ShapeProof(True, None, "proven: fewer than 2 pieces make one network")
        where = f" ({source})" if source else ""
        return ShapeProof(
            True,
            total,
            f"proven: a game of two or more networks scores at most {shown} (a knapsack "
            f"over the one-network bounds of 1 to {best.trains - 1} pieces{where})",
        )
    return ShapeProof(
        False,
        total,
        f"not proven: a game of two or more networks might score up to {shown}, "
        f"more than {best.score}",
    )
