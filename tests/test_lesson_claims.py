"""What the lessons' text claims, checked against the data and the algorithms.

A lesson computes its claims in its own cells (nbval runs them); these tests
hold the sentences themselves to the data, so that a number or a name in the
text cannot drift away from what the cells compute.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import networkx as nx
import pytest

import ttr_nb
from ttr_nb.algorithms import has_euler_trail, kruskal_steps, odd_places
from ttr_nb.teaching import quiz
from ttr_nb.teaching.algorithm_frames import route_tuples

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"


def markdown(name: str) -> str:
    nb = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")


def test_graphs_1_counts_the_routes_across_the_world_seam():
    said = re.search(r"(\d+) routes cross\s+that seam", markdown("graphs_1_board.ipynb"))
    assert said, "the sentence about the seam is gone"
    world = ttr_nb.load_map("world")
    assert int(said.group(1)) == sum(route.wraps for route in world.routes)


def test_graphs_4_does_not_take_one_timeout_for_evidence_of_np_hardness():
    text = " ".join(markdown("graphs_4_longest_trail.ipynb").split())
    assert "NP-hard looks like" not in text
    assert "A timeout is no evidence of NP-hardness" in text


def test_graphs_9_every_usa_ticket_has_a_smallest_cut_at_one_end():
    text = " ".join(markdown("graphs_9_blocking.ipynb").split())
    assert "every USA ticket has a smallest cut right at one of its ends" in text
    # With 2 or 3 players a link (one or two tracks) is one claim: the links at an end form
    # a cut of that end's degree in the simple graph, never less than the smallest cut.
    usa = ttr_nb.load_map("usa")
    simple = nx.Graph((r.a, r.b) for r in usa.routes)
    for ticket in usa.tickets:
        a, b = ticket.cities
        assert nx.edge_connectivity(simple, a, b) == min(simple.degree(a), simple.degree(b))


def test_graphs_7_names_the_double_routes_where_kruskal_skips_both_tracks():
    text = " ".join(markdown("graphs_7_spanning_trees.ipynb").split())
    assert "its ends were joined by the first track a moment earlier" not in text
    usa = ttr_nb.load_map("usa")
    steps = list(kruskal_steps(route_tuples(usa)))
    verdict = {step.route[3]: step.accepted for step in steps}
    both = set()
    for group in usa.groups.values():
        if len(group) > 1 and all(rid in verdict for rid in group):
            assert sum(verdict[rid] for rid in group) <= 1  # never both tracks
            if not any(verdict[rid] for rid in group):
                route = usa.route_by_id[group[0]]
                both.add(f"{usa.place_name(route.a)} – {usa.place_name(route.b)}")
    assert both == {
        "Atlanta – New Orleans",
        "Chicago – Pittsburgh",
        "Denver – Kansas City",
        "Raleigh – Washington",
    }
    shown = json.loads((NOTEBOOKS / "expected" / "graphs_7_spanning_trees.json").read_text())
    printed = "".join(o.get("text", "") for o in shown["cells"]["cell-08b"])
    assert "both tracks skipped in 4" in printed and all(name in printed for name in both)


def test_graphs_7_states_the_cut_rule_for_a_split_no_chosen_route_crosses():
    text = " ".join(markdown("graphs_7_spanning_trees.ipynb").split())
    assert "none of the routes chosen so far crosses between the groups" in text


def test_graphs_8_says_where_the_euler_proof_uses_one_piece():
    text = " ".join(markdown("graphs_8_euler_trails.ipynb").split())
    assert "Here, and only here, the proof needs the routes to be in one piece" in text
    two_triangles = [("A", "B"), ("B", "C"), ("C", "A"), ("D", "E"), ("E", "F"), ("F", "D")]
    assert odd_places(two_triangles) == [] and not has_euler_trail(two_triangles)


def test_graphs_2_gives_the_cost_of_the_bfs_it_shows_and_explains_omaha_pushed_again():
    text = " ".join(markdown("graphs_2_connectivity_1_bfs_and_dfs.ipynb").split())
    assert "sorts each place's neighbours" in text and "O(P + R log D)" in text
    assert "Chicago pushes it *again*, now 6 routes deep" in text


def test_graphs_11_lists_each_candidate_move_of_the_search_once(capsys):
    # Both tracks of Kansas City–Omaha are candidates here: the list must tell them apart.
    nb = json.loads((NOTEBOOKS / "graphs_11_simulation_lab.ipynb").read_text(encoding="utf-8"))
    cells = {c["id"]: "".join(c["source"]) for c in nb["cells"]}
    namespace: dict = {}
    for cell in ("cell-01", "cell-38"):  # the imports, then the search and its list
        exec(cells[cell], namespace)
    moves = re.findall(r" games  average [\d.]+  (.*)", capsys.readouterr().out)
    assert len(moves) == len(namespace["ranked"]) > 2
    assert len(set(moves)) == len(moves), moves
    assert sum("Kansas City–Omaha" in move for move in moves) == 2


# Where a rulebook is silent or ambiguous, the engine reads it one way; a lesson says so, the way
# the USA lesson's "House rules: where the rulebook is silent" does, and never as the rule.
ENGINE_READINGS = [
    ("rules_world_2_routes_and_harbors.ipynb", "more cards than a route needs"),
    ("rules_maerklin_1_cards_and_passengers.ipynb", "a Locomotive +4 does not count towards"),
    ("rules_maerklin_2_journeys_and_scoring.ipynb", "count the tokens or add up their values"),
    ("rules_maerklin_2_journeys_and_scoring.ipynb", "one token per city per journey"),
    ("rules_maerklin_2_journeys_and_scoring.ipynb", "the tied players share the victory"),
    ("rules_maerklin_2_journeys_and_scoring.ipynb", "nobody gets the 10"),
    ("rules_world_3_tours_and_quiz.ipynb", "reads it as a **trail**"),
    ("rules_germany_1_setup_and_passengers.ipynb", "places the passengers by a printed diagram"),
    ("rules_germany_2_routes_tickets_scoring.ipynb", "a mix that the decks cannot supply"),
    ("rules_germany_2_routes_tickets_scoring.ipynb", "if nobody completed a ticket, nobody gets"),
    ("graphs_6_tours.ipynb", "reads it as a **trail**"),
    ("rules_maerklin_1_cards_and_passengers.ipynb", "a Locomotive +4 may be your second card"),
    ("rules_germany_1_setup_and_passengers.ipynb", "This engine always takes them"),
    ("rules_europe_3_stations_end_and_quiz.ipynb", "this engine reads it as built"),
]
FLAGS = re.compile(
    r"\*\*(House rule \(the rulebook (is (silent|ambiguous)|lets you decline)\)"
    r"|Not in the rulebook's words \(read)"
)


@pytest.mark.parametrize(("name", "reading"), ENGINE_READINGS)
def test_engine_readings_are_flagged_as_house_rules(name, reading):
    text = " ".join(markdown(name).split())
    where = text.find(reading)
    assert where >= 0, f"{name}: {reading!r} is not explained"
    flags = [m.start() for m in FLAGS.finditer(text) if m.start() <= where]
    assert flags and where - flags[-1] < 400, f"{name}: {reading!r} is not flagged"


def test_quiz_answers_that_rest_on_a_house_rule_say_so():
    for quiz_name, topic in [
        ("world", "no trail visits"),
        ("maerklin", "and back to Berlin"),
        ("maerklin", "You take it as your first card"),
    ]:
        question = next(q for q in quiz.get(quiz_name).questions if topic in q.prompt)
        assert "house rule" in question.explanation, topic
    tie = next(q for q in quiz.MAERKLIN.questions if "tokens are worth" in q.prompt)
    assert "house rule" in tie.explanation
    # The Double-Ship question no longer needs the house rule to have one right answer.
    ships = next(q for q in quiz.WORLD.questions if "ship route of 5 spaces" in q.prompt)
    assert not any("Single-Ship" in text for _, text in ships.choices)


def test_graphs_8_claims_the_trend_only_where_the_groups_are_large_enough():
    text = " ".join(markdown("graphs_8_euler_trails.ipynb").split())
    assert "it leaves out more the more odd places there are" not in text
    assert "as long as a group holds enough networks to say (5 or more)" in text


def test_graphs_11_gives_greedy_against_greedy_its_own_figure():
    text = " ".join(markdown("graphs_11_simulation_lab.ipynb").split())
    assert "The greedy bots score around 100" not in text
    assert "Against each other, the two greedy bots score about 90 each" in text


def _kirchhoff(adjacency):
    """Spanning trees of a graph (parallel edges apart) from its adjacency counts."""
    import numpy as np

    laplacian = np.diag(adjacency.sum(axis=1)) - adjacency
    return float(np.linalg.det(laplacian[1:, 1:]))


def test_graphs_7_says_which_count_of_spanning_trees_is_hundreds_of_quadrillions():
    text = " ".join(markdown("graphs_7_spanning_trees.ipynb").split())
    assert "Hundreds of quadrillions with one edge per pair of places" in text
    usa = ttr_nb.load_map("usa")
    simple = nx.Graph((r.a, r.b) for r in usa.routes)
    tracks = nx.MultiGraph((r.a, r.b) for r in usa.routes)
    one, each = (_kirchhoff(nx.to_numpy_array(g, nodelist=sorted(g))) for g in (simple, tracks))
    assert 1e17 <= one < 1e18 and each > 1000 * one


def test_time_claims_match_the_estimates():
    """A lesson that promises "under half an hour" per part must keep every part under 30."""
    from ttr_nb.teaching import curriculum

    parts = sorted(NOTEBOOKS.glob("rules_*.ipynb"))
    longest = max(curriculum.estimate_minutes(p) for p in parts)
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        text = " ".join(markdown(path.name).split())
        strict = re.search(r"(under|less than) half an hour", text)
        assert not (strict and longest >= 30), (
            f"{path.name}: {strict.group(0)!r}, longest {longest}"
        )


def test_graphs_3_dijkstra_proof_says_why_the_first_unsettled_place_is_not_cheaper():
    text = " ".join(markdown("graphs_3_planning_1_dijkstra.ipynb").split())
    assert "step 3 relaxed its route to *y*" in text
    assert "at least as large, and the weights are never negative" not in text
