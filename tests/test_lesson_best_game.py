"""Lesson 12 (the best possible game), held to the stored runs by independent counts.

The lesson's cells read ``results/best_score/``; nbval holds them to their recordings
in ``notebooks/expected/``. These tests recount the figures from the raw files with
plain Python and hold the recordings, the plot and the text to them.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path

import matplotlib
import networkx as nx

from ttr_nb.teaching import integer_programs as ip
from ttr_nb.teaching import solutions

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
PART1 = "graphs_12_best_game_1_integer_programs"
PART2 = "graphs_12_best_game_2_cuts_and_budgets"
STORED = ROOT / "results" / "best_score"


def printed(name: str, cell: str) -> str:
    shown = json.loads((NOTEBOOKS / "expected" / f"{name}.json").read_text(encoding="utf-8"))
    return "".join(o.get("text", "") for o in shown["cells"][cell])


def cells(name: str) -> dict[str, dict]:
    nb = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8"))
    return {c["id"]: c for c in nb["cells"]}


def markdown(name: str) -> str:
    text = "\n".join(
        "".join(c["source"]) for c in cells(name).values() if c["cell_type"] == "markdown"
    )
    return " ".join(text.split())


def stored_rows() -> list[dict]:
    lines = (STORED / "usa.jsonl").read_text(encoding="utf-8").splitlines()
    return sorted((json.loads(line) for line in lines if line.strip()), key=lambda r: r["trains"])


def usa_tickets() -> dict[int, dict]:
    data = json.loads((ROOT / "maps" / "usa.json").read_text(encoding="utf-8"))
    return {t["id"]: t for t in data["tickets"]}


# ------------------------------------------------------------------ the paper
def test_the_papers_ticket_averages_reproduce_from_the_stored_optima():
    tickets = usa_tickets()
    rows = stored_rows()
    average = sum(t["points"] for t in tickets.values()) / len(tickets)
    use = Counter(t for row in rows for t in row["tickets"])
    ranked = sorted(use.items(), key=lambda kv: -kv[1])
    assert ranked[9][1] > ranked[10][1]  # the ten are well defined
    ten = sum(tickets[t]["points"] for t, _ in ranked[:10]) / 10
    assert (len(tickets), len(rows), round(average, 2), round(ten, 1)) == (30, 50, 11.63, 14.1)
    shown = printed(PART2, "p2-paper")
    assert f"all 30 tickets: average {average:.2f} (paper 11.63)" in shown
    assert f"the ten chosen most over 50 budgets: average {ten:.1f} (paper 14.1)" in shown


# ------------------------------------------------------- unproven budgets
def test_the_three_unproven_budgets_are_marked_in_the_plot():
    rows = stored_rows()
    unproven = [r["trains"] for r in rows if r["gap"] > 0]
    assert unproven == [20, 21, 29]
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    source = "".join(cells(PART2)["343df053"]["source"])
    namespace = {"plt": plt, "rows": rows}
    plt.show = lambda *a, **k: None  # keep the figure to look at it
    try:
        exec(compile(source, "<lesson 12.2, the plot>", "exec"), namespace)
        ax = plt.gcf().axes[0]
        labels = {line.get_label(): line for line in ax.get_lines()}
        marked = labels["not proven: best found, and a line up to the bound"]
        assert sorted(marked.get_xdata()) == unproven
        proven = labels["best score, proven"]
        assert not set(proven.get_xdata()) & set(unproven) and len(proven.get_xdata()) == 47
        # Each unproven budget has its line up to its bound.
        segments = [s for c in ax.collections for s in c.get_segments()]
        bounds = {r["trains"]: (r["score"], r["bound"]) for r in rows if r["gap"] > 0}
        assert sorted((s[0][0], s[0][1], s[1][1]) for s in segments) == [
            (n, *bounds[n]) for n in unproven
        ]
    finally:
        plt.close("all")


def test_the_used_most_counts_come_from_proven_budgets_with_ties_together():
    tickets = usa_tickets()
    proven = [r for r in stored_rows() if r["gap"] == 0]
    use = Counter(t for row in proven for t in row["tickets"])
    shown = printed(PART2, "6a882a06")
    assert f"tickets, over the {len(proven)} proven budgets:" in shown
    listed = 0
    for n in sorted(set(use.values()), reverse=True):
        names = sorted(
            "{} – {} ({})".format(*(NAMES[c] for c in tickets[t]["cities"]), tickets[t]["points"])
            for t, m in use.items()
            if m == n
        )
        assert f"  in {n} of {len(proven)}: {'; '.join(names)}\n" in shown
        listed += len(names)
        if listed >= 5:
            break
    assert "in 22 of 47: Atlanta–Nashville (1 gray); Los Angeles–San Francisco" in shown
    text = markdown(PART2)
    assert "the solver stores only one of them" in text
    six = printed(PART2, "p2-six")
    sixes = {r["group"] for r in _usa_routes() if r["length"] == 6}
    assert f"each of the {len(sixes)} routes of 6 spaces scores 15 alone" in six


NAMES = {c["id"]: c["name"] for c in json.loads((ROOT / "maps" / "usa.json").read_text())["cities"]}


def _usa_routes() -> list[dict]:
    return json.loads((ROOT / "maps" / "usa.json").read_text(encoding="utf-8"))["routes"]


def test_the_forest_run_is_read_from_its_file_not_quoted():
    forest = json.loads((STORED / "usa-forest.jsonl").read_text(encoding="utf-8").splitlines()[0])
    shown = printed(PART2, "p2-forest")
    assert (
        f"any forest, {forest['trains']} trains: {forest['score']} found, bound "
        f"{forest['bound']:g} (gap {forest['gap']:.0%}), stopped at its time limit of "
        f"{forest['time_limit']:,.0f} s"
    ) in shown
    source = "".join(cells(PART2)["p2-forest"]["source"])
    assert "usa-forest.jsonl" in source
    text = markdown(PART2)
    for typed in ("1,500 s", "281 and a bound of 337"):
        assert typed not in text


# ------------------------------------------------------------- exercise 12a
def _best_by_networkx(routes, tickets, budget) -> int:
    best = 0
    for n in range(len(routes) + 1):
        for chosen in itertools.combinations(routes, n):
            pairs = [frozenset(r[1:3]) for r in chosen]
            if sum(r[3] for r in chosen) > budget or len(set(pairs)) < len(pairs):
                continue
            graph = nx.MultiGraph([r[1:3] for r in chosen])
            score = sum(r[4] for r in chosen)
            for _, a, b, points in tickets:
                if a in graph and b in graph and nx.has_path(graph, a, b):
                    score += points
            best = max(best, score)
    return best


def test_exercise_12a_model_solution_finds_the_best_game_and_the_lesson_says_so():
    want = _best_by_networkx(ip.FIVE_ROUTES, ip.FIVE_TICKETS, ip.FIVE_BUDGET)
    model = solutions.board_mip(list(ip.FIVE_ROUTES), list(ip.FIVE_TICKETS), ip.FIVE_BUDGET)
    assert model.solve().value == want == 24
    relaxed = model.solve(relax=True).value
    assert relaxed > want
    assert f"the best game scores {want}; the relaxation's bound is {relaxed:g}" in printed(
        PART1, "58628173"
    )
    assert ip.check_board_mip(solutions.board_mip)


def _model(routes, tickets, budget, *, doubles=True, cuts="all", objective=None, exact=False):
    """The model solution with one part left out or changed (the usual mistakes)."""
    model = ip.IntegerProgram()
    for key, _, _, _, points in routes:
        model.variable(("x", key), objective=points if objective is None else objective)
    for key, _, _, points in tickets:
        model.variable(("y", key), objective=points)
    spend = {("x", r[0]): r[3] for r in routes}
    model.constraint(spend, at_most=budget, at_least=budget if exact else None)
    if doubles:
        tracks: dict[frozenset, list[str]] = {}
        for key, a, b, _, _ in routes:
            tracks.setdefault(frozenset((a, b)), []).append(key)
        for keys in tracks.values():
            if len(keys) > 1:
                model.constraint({("x", k): 1 for k in keys}, at_most=1)
    places = sorted({p for r in routes for p in r[1:3]})
    for key, a, b, _ in tickets:
        others = [p for p in places if p not in (a, b)]
        sides = (
            [
                {a, *extra}
                for n in range(len(others) + 1)
                for extra in itertools.combinations(others, n)
            ]
            if cuts == "all"
            else [{a}, set(places) - {b}]
            if cuts == "ends"
            else []
        )
        for side in sides:
            cut = {("x", k): -1 for k, u, v, _, _ in routes if (u in side) != (v in side)}
            model.constraint({("y", key): 1, **cut}, at_most=0)
    return model


def test_exercise_12a_check_names_each_usual_mistake():
    mistakes = {
        "no connectivity": (lambda r, t, b: _model(r, t, b, cuts="none"), "connectivity"),
        "cuts at the two ends only": (lambda r, t, b: _model(r, t, b, cuts="ends"), "too weak"),
        "both tracks allowed": (
            lambda r, t, b: _model(r, t, b, doubles=False),
            "both tracks of the double route B=E",
        ),
        "every train spent": (lambda r, t, b: _model(r, t, b, exact=True), "forbids a real game"),
        "routes worth 1 each": (lambda r, t, b: _model(r, t, b, objective=1), "objective"),
        "the optimum, not the model": (
            lambda r, t, b: _model(r, t, b).solve(),
            "return the model",
        ),
    }
    for about, (wrong, words) in mistakes.items():
        result = ip.check_board_mip(wrong)
        assert result.status == "wrong" and words in result.message, (about, result.message)


def test_an_integer_program_refuses_a_constraint_on_an_unknown_variable():
    model = ip.IntegerProgram()
    model.variable("x")
    try:
        model.constraint({"x": 1, "z": 1}, at_most=1)
    except ValueError as error:
        assert "no variable 'z'" in str(error)
    else:
        raise AssertionError("a constraint on an unknown variable was accepted")
    assert model.solve(fixed={"x": 1}).value == 0 and model.holds({"x": 1})
    model.constraint({"x": 1}, at_most=0)
    assert model.solve(fixed={"x": 1}) is None and model.solve().values == {"x": 0.0}


def test_lesson_12_comes_in_two_parts_that_each_fit_one_class():
    from ttr_nb.teaching import curriculum

    names = [lesson.notebook for lesson in curriculum.LESSONS]
    assert f"{PART1}.ipynb" in names and f"{PART2}.ipynb" in names
    assert "graphs_12_best_game.ipynb" not in names
    for part in (PART1, PART2):
        assert curriculum.estimate_minutes(NOTEBOOKS / f"{part}.ipynb") <= 70
    text = markdown(PART1)
    for words in (
        "## 1. Linear programs",
        "**maximise**",
        "**budget**",
        "**cuts**",
        "**conservation**",
    ):
        assert words in text
