"""Hidden cases (issue 50): the grader runs a lesson's check again on cases the student never saw.

``ttr_nb.teaching.checking.other_cases(key)`` makes every check draw its made-up cases from
another seed; the hand-made traps stay. The graded cells of ``tools/assignments.py`` use it
with a key only the course holds.
"""

from __future__ import annotations

import networkx as nx
import pytest

from ttr_nb.teaching import exercises, exercises_europe, integer_programs, research, solutions
from ttr_nb.teaching.checking import case_rng, other_cases

# Every check an exercise is graded by, with its model solution and the extra arguments its
# lesson passes (the A* estimate's check takes the map).
GRADED = [
    (exercises.check_board_graph, solutions.build_graph, ()),
    (exercises.check_dfs, solutions.dfs_order, ()),
    (exercises.check_ticket, solutions.ticket_done, ()),
    (exercises.check_components, solutions.pieces, ()),
    (exercises.check_dijkstra, solutions.dijkstra, ()),
    (exercises.check_heuristic, solutions.world_estimate, ("world",)),
    (exercises.check_longest_trail, solutions.longest, ()),
    (exercises.check_steiner, solutions.steiner_weight, ()),
    (exercises.check_tour, solutions.tour_ok, ()),
    (exercises.check_kruskal, solutions.kruskal, ()),
    (exercises.check_prim, solutions.prim, ()),
    (exercises.check_odd_cities, solutions.odd_cities, ()),
    (exercises.check_euler_circuit, solutions.euler_circuit, ()),
    (exercises.check_count_ways, solutions.count_ways, ()),
    (exercises.check_is_cut, solutions.is_cut, ()),
    (exercises.check_path_counts, solutions.count_paths, ()),
    (exercises.check_ticket_share, solutions.share, ()),
    (exercises.check_wilson, solutions.wilson, ()),
    (exercises.check_completion_rates, solutions.completion_rates, ()),
    (exercises_europe.check_station_spaces, solutions.station_spaces, ()),
    (research.check_network_score, research.network_score, ()),
    (research.check_leaving_routes, research.leaving_routes, ()),
    (research.check_ignored, research.ignored, ()),
    (integer_programs.check_board_mip, solutions.board_mip, ()),
]
IDS = [check.__name__ for check, _, _ in GRADED]
# Checks that try every case there is, or only hand-made ones: nothing is left to hide.
NOTHING_TO_HIDE = {"check_heuristic", "check_board_graph", "check_wilson", "check_board_mip"}


def _fingerprint(value) -> str:
    if isinstance(value, nx.Graph):
        return repr(sorted(value.edges(data=True), key=repr))
    if hasattr(value, "routes") and hasattr(value, "cities"):  # a map (maybe made up)
        return f"map {value.name}: {len(value.cities)} places, {len(value.routes)} routes"
    return repr(value)


def _asked(check, model, extra, key=None) -> list[str]:
    """The arguments ``check`` calls the answer with (the answer is the model solution)."""
    seen = []

    def spy(*args):
        seen.append("; ".join(_fingerprint(a) for a in args))
        return model(*args)

    spy.__name__ = model.__name__
    if key is None:
        assert check(spy, *extra)
    else:
        with other_cases(key):
            assert check(spy, *extra)
    return seen


@pytest.mark.parametrize(("check", "model", "extra"), GRADED, ids=IDS)
def test_a_check_asks_other_cases_under_another_key_and_the_model_still_passes(check, model, extra):
    lesson = _asked(check, model, extra)
    assert lesson == _asked(check, model, extra)  # the student meets the same cases every run
    hidden = [_asked(check, model, extra, key) for key in ("a key", "another key")]
    if check.__name__ in NOTHING_TO_HIDE:
        assert hidden[0] == lesson
    else:
        assert hidden[0] != lesson and hidden[1] != hidden[0]


def test_hidden_cases_catch_an_answer_that_learned_the_lessons_cases_by_heart():
    learned = {}

    def dfs_order(graph, start):  # runs the model once and keeps its answers
        key = (frozenset(graph.edges), start)
        learned[key] = solutions.dfs_order(graph, start)
        return learned[key]

    assert exercises.check_dfs(dfs_order)

    def by_heart(graph, start):
        return learned.get((frozenset(graph.edges), start), [start])

    by_heart.__name__ = "dfs_order"
    assert exercises.check_dfs(by_heart)  # the lesson's own check is fooled
    with other_cases("a key only the course holds"):
        result = exercises.check_dfs(by_heart)
    assert result.status == "wrong" and "never visited" in result.message


def test_other_cases_needs_a_key_and_ends_with_its_block():
    with pytest.raises(ValueError, match="non-empty key"), other_cases(""):
        pass
    before = case_rng(5).random()
    with other_cases("k"):
        assert case_rng(5).random() != before
    assert case_rng(5).random() == before


def test_every_check_an_exercise_is_graded_by_is_tried_here():
    import nbformat
    from assignments_steps import ROOT, assignments, check_name

    called = set()
    for path in (ROOT / "notebooks").glob("*.ipynb"):
        called |= {check_name(e) for _, e in assignments.find_exercises(nbformat.read(path, 4))}
    assert called == set(IDS)
