"""Graph algorithms behind Ticket to Ride, on top of networkx.

The board is a multigraph: places are nodes and routes are edges, and two
places may be joined by parallel (double or triple) routes.  This package
stands alone.  It takes plain tuples, not game objects, so the engine,
notebooks and tests can all call it.

Connectivity (`connectivity`)
    `ticket_completed`, `connected_places` and `route_graph`: whether a
    player's routes join the ends of a ticket.  Country border spaces are
    dead ends, which a connection may end at but never pass through.
Longest trail (`longest_trail`)
    `longest_trail_length` and `longest_trail`: the "longest continuous path"
    bonus, a walk that uses each route at most once but may visit a city
    again.
Ticket planning (`shortest_paths`)
    `plan_ticket`, `spaces_to_connect` and `TicketPlanner` (many plans on one
    board, fast): the fewest spaces still to claim
    to complete a ticket, with Dijkstra's algorithm or A*.
Steiner forests (`steiner`)
    `steiner_forest`: the fewest spaces still to claim that complete several
    tickets at once (Dreyfus–Wagner while that is fast, else a greedy
    approximation that says so).
Tours (`tours`)
    `tour_in_order`, `tour_trail` and `tour_connected`: whether a player's
    routes let them travel a tour ticket's cities in the listed order (a
    trail), or only connect them.
Spanning trees (`spanning`)
    `kruskal_steps`, `prim_steps` and `minimum_spanning_routes`: minimum
    spanning trees, one decision at a time.
Euler trails (`euler`)
    `euler_trail`, `hierholzer_steps`, `has_euler_trail` and `odd_places`:
    one trail through every route, when there is one.
Blocking (`blocking`)
    `ticket_cut`: the fewest claims that stop a ticket, by max-flow/min-cut.
Passenger journeys (`journeys`)
    `passenger_journeys`, `best_journey`, `greedy_journey` and `journey_trails`:
    where a Märklin passenger can travel (a trail that collects a value at each
    city it enters), and the most valuable journey, a maximum-weight trail.
Prize-collecting Steiner forests (`prize_forest`)
    `max_prize_forest`: the routes within a budget of pieces worth the most,
    counting the tickets they join, as a mixed-integer program solved to a proven
    optimum by HiGHS (needs ``highspy``, in the ``app`` extra).
Centrality (`centrality`)
    `ticket_betweenness` and `ticket_route_betweenness`: how much of the
    tickets' shortest paths pass through a place or a route.
Union-find (`union_find`)
    `UnionFind`: which places a growing set of routes joins, in almost constant
    time per question; the one union-find every part of the package uses.
"""

from .blocking import TicketCut, ticket_cut
from .centrality import ticket_betweenness, ticket_route_betweenness
from .connectivity import connected_places, route_graph, ticket_completed
from .euler import (
    HierholzerStep,
    NotEulerianError,
    euler_trail,
    has_euler_trail,
    hierholzer_steps,
    odd_places,
)
from .journeys import (
    DeadEndStartError,
    Journey,
    NegativeCardBudgetError,
    NegativeTokenValueError,
    best_journey,
    greedy_journey,
    journey_trails,
    journey_value,
    passenger_journeys,
)
from .longest_trail import NegativeRouteLengthError, longest_trail, longest_trail_length
from .prize_forest import Demand, PrizeForest, PrizeForestError, max_prize_forest
from .shortest_paths import (
    TicketPlan,
    TicketPlanner,
    TicketUnreachableError,
    plan_ticket,
    spaces_to_connect,
)
from .spanning import SpanningStep, kruskal_steps, minimum_spanning_routes, prim_steps
from .steiner import SteinerForest, steiner_forest
from .tours import tour_connected, tour_in_order, tour_trail
from .union_find import UnionFind

__all__ = [
    "DeadEndStartError",
    "Demand",
    "PrizeForest",
    "PrizeForestError",
    "HierholzerStep",
    "Journey",
    "NegativeCardBudgetError",
    "NegativeRouteLengthError",
    "NegativeTokenValueError",
    "NotEulerianError",
    "SpanningStep",
    "SteinerForest",
    "TicketCut",
    "TicketPlan",
    "TicketPlanner",
    "TicketUnreachableError",
    "UnionFind",
    "best_journey",
    "connected_places",
    "euler_trail",
    "greedy_journey",
    "has_euler_trail",
    "hierholzer_steps",
    "journey_trails",
    "journey_value",
    "kruskal_steps",
    "longest_trail",
    "longest_trail_length",
    "max_prize_forest",
    "minimum_spanning_routes",
    "odd_places",
    "passenger_journeys",
    "plan_ticket",
    "prim_steps",
    "route_graph",
    "spaces_to_connect",
    "steiner_forest",
    "ticket_betweenness",
    "ticket_completed",
    "ticket_cut",
    "ticket_route_betweenness",
    "tour_connected",
    "tour_in_order",
    "tour_trail",
]
