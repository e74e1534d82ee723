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

import ttr_nb

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
