"""The algorithms the coach uses, each with the lesson that teaches it.

Every hint names how it was computed and where a learner can read about it; the
lesson files live in ``notebooks/`` (a test checks that each one exists).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Algorithm", "ALGORITHMS"]


@dataclass(frozen=True)
class Algorithm:
    """How a hint was computed, and the lesson that teaches it.

    Attributes
    ----------
    key : str
        A short stable name (``steiner-exact``).
    name : str
        The algorithm in words.
    lesson : str
        The lesson notebook's file name (in ``notebooks/``).
    lesson_title : str
        The lesson's title as the lesson index shows it.
    """

    key: str
    name: str
    lesson: str
    lesson_title: str

    def to_dict(self) -> dict[str, str]:
        """The algorithm and its lesson as plain JSON data."""
        return {
            "key": self.key,
            "name": self.name,
            "lesson": self.lesson,
            "lesson_title": self.lesson_title,
        }


def _all(*algorithms: Algorithm) -> dict[str, Algorithm]:
    return {a.key: a for a in algorithms}


ALGORITHMS = _all(
    Algorithm(
        "steiner-exact",
        "minimum Steiner forest, exact (Dreyfus–Wagner over the tickets' ends)",
        "graphs_5_steiner.ipynb",
        "Graphs 5 · Several tickets at once: Steiner trees and forests",
    ),
    Algorithm(
        "steiner-greedy",
        "Steiner forest, approximate (join the cheapest unfinished ticket first, then prune)",
        "graphs_5_steiner.ipynb",
        "Graphs 5 · Several tickets at once: Steiner trees and forests",
    ),
    Algorithm(
        "replan",
        "the Steiner forest of all the tickets planned again without the route",
        "graphs_5_steiner.ipynb",
        "Graphs 5 · Several tickets at once: Steiner trees and forests",
    ),
    Algorithm(
        "min-cut",
        "minimum cut by maximum flow (the fewest claims that block a ticket)",
        "graphs_9_blocking.ipynb",
        "Graphs 9 · Blocking: max-flow and min-cut",
    ),
    Algorithm(
        "opponent-paths",
        "shortest paths (Dijkstra) for every ticket an opponent might hold, ranked by how much "
        "of each their claims already cover",
        "graphs_3_planning_1_dijkstra.ipynb",
        "Graphs 3.1 · Planning a ticket: Dijkstra's algorithm",
    ),
    Algorithm(
        "shortest-path",
        "shortest paths (Dijkstra) for each ticket on its own",
        "graphs_3_planning_1_dijkstra.ipynb",
        "Graphs 3.1 · Planning a ticket: Dijkstra's algorithm",
    ),
    Algorithm(
        "search",
        "Monte Carlo tree search over imagined games (determinisation)",
        "graphs_11_simulation_lab.ipynb",
        "Graphs 11 · The simulation lab",
    ),
    Algorithm(
        "random",
        "a uniformly random legal move",
        "graphs_11_simulation_lab.ipynb",
        "Graphs 11 · The simulation lab",
    ),
    Algorithm(
        "connectivity",
        "connectivity by union–find over the routes each player may still use, the board "
        "rebuilt backwards from the end, claim by claim",
        "graphs_2_connectivity_2_union_find.ipynb",
        "Graphs 2.2 · Is my ticket complete? Dead ends and union–find",
    ),
    Algorithm(
        "journey",
        "the most valuable passenger journey, a maximum-weight trail",
        "rules_maerklin_3_best_journey_and_quiz.ipynb",
        "Märklin rules, part 3: the best journey",
    ),
    Algorithm(
        "passengers",
        "the passengers each route of the plan would take, and the majority race",
        "rules_germany_1_setup_and_passengers.ipynb",
        "Germany rules, part 1: setup and passengers",
    ),
    Algorithm(
        "harbors",
        "harbor cities on the plan, counted by the tickets that name them",
        "rules_world_2_routes_and_harbors.ipynb",
        "World rules, part 2: routes and harbors",
    ),
    Algorithm(
        "tunnel-odds",
        "the extra cards a tunnel asks for: a hypergeometric expectation over the cards not seen",
        "graphs_14_stations_and_tunnels.ipynb",
        "Graphs 14 · Stations and tunnels",
    ),
    Algorithm(
        "station-path",
        "the cheapest path with at most one borrowed route (Dijkstra on a two-layer graph), "
        "and every choice of borrowed routes tried",
        "graphs_14_stations_and_tunnels.ipynb",
        "Graphs 14 · Stations and tunnels",
    ),
    Algorithm(
        "tours",
        "tours: whether the planned network visits the cities in order (a trail)",
        "graphs_6_tours.ipynb",
        "Graphs 6 · Tours on the World map",
    ),
)
