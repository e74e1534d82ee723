"""Issue 43: the best-score MIP, ``ttr-nb best-score``, the route-focused bot, the playtest
figures, the rules-gap scenarios, and the greedy bot's faster large-hand rule."""

from __future__ import annotations

import gzip
import hashlib
import itertools
import json
import random
from pathlib import Path

import pytest

from ttr_nb import new_game
from ttr_nb.algorithms.prize_forest import Demand, PrizeForestError, max_prize_forest
from ttr_nb.analysis import playtest
from ttr_nb.analysis.best_score import (
    BadBudgetError,
    BestScore,
    any_shape,
    best_score,
    check_best,
    networks_bound,
    one_network_bounds,
)
from ttr_nb.bots import GreedyBot, play_out
from ttr_nb.cli import main
from ttr_nb.maps import load_map
from ttr_nb.teaching import research

RESULTS = Path(__file__).resolve().parent.parent / "results"


# ------------------------------------------------------------ the MIP itself
def _brute_force(edges, demands, budget, groups, dead, connected=False):
    """Every set of routes within the budget, one track per group: the best score
    (`connected`: of the sets that form one network)."""
    keys = sorted(edges)
    group_of = {k: i for i, g in enumerate(groups) for k in g}
    best = 0
    for n in range(len(keys) + 1):
        for chosen in itertools.combinations(keys, n):
            if sum(edges[k][2] for k in chosen) > budget:
                continue
            tags = [group_of[k] for k in chosen if k in group_of]
            if len(tags) != len(set(tags)):
                continue
            if connected and chosen:
                first = edges[chosen[0]][0]
                if not all(_joined(edges, chosen, {first}, set(edges[k][:2]), ()) for k in chosen):
                    continue
            score = sum(edges[k][3] for k in chosen)
            for d in demands.values():
                if all(
                    _joined(edges, chosen, a, b, dead)
                    for a, b in zip(d.places, d.places[1:], strict=False)
                ):
                    score += d.prize
            best = max(best, score)
    return best


def _joined(edges, chosen, a, b, dead):
    seen, stack = set(a), list(a)
    while stack:
        n = stack.pop()
        if n in dead and n not in a:
            continue
        for k in chosen:
            u, v = edges[k][:2]
            for x, y in ((u, v), (v, u)):
                if x == n and y not in seen:
                    seen.add(y)
                    stack.append(y)
    return bool(seen & b)


def _random_instance(rng):
    places = "abcdefg"
    edges = {}
    for k in range(rng.randint(6, 9)):
        u, v = rng.sample(places, 2)
        length = rng.randint(1, 4)
        edges[k] = (u, v, length, {1: 1, 2: 2, 3: 4, 4: 7}[length])
    # a double route: a twin of route 0
    edges[99] = edges[0]
    groups = [[0, 99]]
    demands = {}
    for t in range(rng.randint(2, 4)):
        a, b = rng.sample(places, 2)
        demands[t] = Demand((frozenset(a), frozenset(b)), rng.randint(3, 12))
    return edges, demands, groups


@pytest.mark.parametrize(
    "method, trees", [("flow", 1), ("flow", None), ("cuts", None), ("undirected", None)]
)
def test_mip_finds_the_brute_force_optimum_on_small_boards(method, trees):
    rng = random.Random(4)
    for _ in range(6):
        edges, demands, groups = _random_instance(rng)
        budget = rng.randint(3, 9)
        got = max_prize_forest(edges, demands, budget, groups=groups, method=method, trees=trees)
        truth = _brute_force(edges, demands, budget, groups, ())
        if trees == 1:  # one network holding every ticket: at most the forest's best
            assert got.value <= truth
        else:
            assert got.value == truth
        assert got.gap == 0 and got.bound >= got.value
        assert got.cost <= budget


def _brute_one_network(edges, demands, budget, groups, dead):
    """The one-network model by brute force: every set of routes within the budget, one
    track per group, scoring its route points and the tickets completed inside its best
    single network (a connected part; its other routes score their points only)."""
    keys = sorted(edges)
    group_of = {k: i for i, g in enumerate(groups) for k in g}
    best = 0
    for n in range(len(keys) + 1):
        for chosen in itertools.combinations(keys, n):
            if sum(edges[k][2] for k in chosen) > budget:
                continue
            tags = [group_of[k] for k in chosen if k in group_of]
            if len(tags) != len(set(tags)):
                continue
            parts = []  # the networks: route sets joined through places that are not dead ends
            for k in chosen:
                ends = set(edges[k][:2]) - set(dead)
                touching = [part for part in parts if any(set(edges[j][:2]) & ends for j in part)]
                merged = {k}.union(*touching)
                parts = [part for part in parts if part not in touching] + [merged]
            tickets = max(
                (
                    sum(
                        d.prize
                        for d in demands.values()
                        if all(
                            _joined(edges, part, a, b, dead)
                            for a, b in zip(d.places, d.places[1:], strict=False)
                        )
                    )
                    for part in parts
                ),
                default=0,
            )
            best = max(best, sum(edges[k][3] for k in chosen) + tickets)
    return best


def test_one_network_model_equals_its_brute_force_with_dead_ends():
    """The model behind ``best-score`` (``trees=1``: rooted at the tree's first named place,
    one way to hang each tree) against brute force, on boards with dead ends, tickets
    between two dead ends, and tours of three places."""
    rng = random.Random(52)
    for _ in range(12):
        edges, demands, groups = _random_instance(rng)
        dead = set(rng.sample("abcdefg", rng.randint(0, 2)))
        if rng.random() < 0.5 and len(dead) == 2:
            a, b = sorted(dead)
            demands["dd"] = Demand((frozenset(a), frozenset(b)), 9)  # two dead ends
        places = rng.sample("abcdefg", 3)
        demands["tour"] = Demand(tuple(frozenset(p) for p in places), 11)
        budget = rng.randint(3, 9)
        got = max_prize_forest(edges, demands, budget, groups=groups, dead_ends=dead, trees=1)
        assert got.value == _brute_one_network(edges, demands, budget, groups, dead), (
            budget,
            dead,
        )
        assert got.gap == 0 and got.cost <= budget


def test_split_budget_bound_holds_for_every_game_of_separate_networks():
    # The best game of any number of networks never beats the better of the best
    # one-network game and the knapsack of one-network bests over splits of the budget;
    # the one-network model's bound is at least that best, so it may stand in for it.
    rng = random.Random(11)
    tight = 0
    for _ in range(8):
        edges, demands, groups = _random_instance(rng)
        budget = rng.randint(4, 8)
        one = {b: _brute_force(edges, demands, b, groups, (), True) for b in range(1, budget + 1)}
        for b in (budget // 2, budget):
            model = max_prize_forest(edges, demands, b, groups=groups, trees=1)
            assert model.bound >= one[b]
        truth = _brute_force(edges, demands, budget, groups, ())
        split = networks_bound(one, budget)
        assert truth <= max(one[budget], split)
        if split <= one[budget]:
            tight += 1
            assert truth == one[budget]  # the one-network optimum is the optimum
    assert tight  # the proof applies to some of these boards
    # Two tickets far apart: two networks beat one, and the bound says a split may pay.
    edges = {1: ("a", "b", 1, 1), 2: ("c", "d", 1, 1), 3: ("b", "c", 4, 7)}
    demands = {
        "ab": Demand((frozenset("a"), frozenset("b")), 10),
        "cd": Demand((frozenset("c"), frozenset("d")), 10),
    }
    one = {b: _brute_force(edges, demands, b, [], (), True) for b in (1, 2)}
    assert one == {1: 11, 2: 11} and _brute_force(edges, demands, 2, [], ()) == 22
    assert networks_bound(one, 2) == 22


def test_split_budget_bound_needs_every_smaller_budget():
    with pytest.raises(ValueError, match="3 pieces"):
        networks_bound({1: 1, 2: 2}, 5)


def test_forest_model_and_brute_force_agree_with_a_dead_end():
    # x is a dead end: a–x–b does not join a and b, a–x does join a ticket ending at x.
    edges = {1: ("a", "x", 1, 1), 2: ("x", "b", 1, 1), 3: ("a", "b", 3, 4)}
    demands = {
        "ab": Demand((frozenset("a"), frozenset("b")), 10),
        "ax": Demand((frozenset("a"), frozenset("x")), 3),
    }
    for budget in (2, 3, 4):
        want = _brute_force(edges, demands, budget, [], {"x"})
        for method in ("flow", "cuts", "undirected"):
            got = max_prize_forest(edges, demands, budget, dead_ends={"x"}, method=method)
            assert got.value == want, (budget, method)
    # with 2 trains the detour through the dead end collects only a–x
    got = max_prize_forest(edges, demands, 2, dead_ends={"x"})
    assert got.demands == ("ax",) and got.value == 5


def test_a_budget_of_nothing_scores_nothing():
    edges = {1: ("a", "b", 1, 1)}
    best = max_prize_forest(edges, {"t": Demand((frozenset("a"), frozenset("b")), 4)}, 0)
    assert (best.edges, best.demands, best.value, best.gap) == ((), (), 0.0, 0.0)
    assert best_score("usa", 0).score == 0


def test_bad_budgets_and_tickets_are_refused():
    edges = {1: ("a", "b", 1, 1)}
    with pytest.raises(PrizeForestError, match="budget"):
        max_prize_forest(edges, {}, -1)
    with pytest.raises(PrizeForestError, match="two or more"):
        max_prize_forest(edges, {"t": Demand((frozenset("a"),), 3)}, 2)
    with pytest.raises(BadBudgetError):
        best_score("usa", -3)


def test_relaxation_bounds_the_integer_optimum_and_rooted_flows_are_tighter():
    usa = load_map("usa")
    from ttr_nb.analysis.best_score import _instance

    edges, demands, groups, _ = _instance(usa, 45)
    loose = max_prize_forest(edges, demands, 45, groups=groups, method="undirected-lp")
    tight = max_prize_forest(edges, demands, 45, groups=groups, method="lp", trees=1)
    assert loose.value > tight.value >= 285
    assert any(0 < v < 1 for _, v in loose.levels)  # fractional routes


# ---------------------------------------------------- stored results and checks
def test_stored_optimum_for_45_trains_is_the_papers_285_and_recounts():
    rows = [json.loads(line) for line in (RESULTS / "best_score" / "usa.jsonl").open()]
    by_budget = {row["trains"]: row for row in rows}
    best = by_budget[45]
    assert (best["score"], best["ticket_points"], best["gap"]) == (285, 223, 0)
    for row in rows:
        assert check_best(row) == [], row["trains"]
        assert row["bound"] >= row["score"]


def test_stored_table_proves_no_game_of_several_networks_beats_one_network():
    rows = [json.loads(line) for line in (RESULTS / "best_score" / "usa.jsonl").open()]
    assert sorted(row["trains"] for row in rows) == list(range(1, 51))
    bounds = {row["trains"]: row["bound"] for row in rows}
    for budget in range(45, 51):
        best = next(row for row in rows if row["trains"] == budget)
        assert best["gap"] == 0
        assert networks_bound(bounds, budget) <= best["score"], budget
    assert networks_bound(bounds, 45) == 280  # 279 with 44 trains, plus 1 with the last


def test_check_best_catches_a_tampered_answer():
    usa = load_map("usa")
    good = best_score("usa", 6).as_json()
    assert check_best(good, usa) == []
    assert check_best(good | {"score": 16}, usa)
    double = next(r for r in usa.routes if usa.parallel(r))
    both = good | {"routes": [double.id, *usa.parallel(double)], "trains": 45}
    assert any("two tracks" in p for p in check_best(both, usa))
    assert any("pieces" in p for p in check_best(good | {"trains": 5}, usa))


# ------------------------------------------------------------------ the command
def test_best_score_json_prints_one_object(capsys):
    assert main(["best-score", "--map", "usa", "--trains", "6", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"routes", "tickets", "score", "bound", "seconds"} <= out.keys()
    assert out["score"] == 15 and out["bound"] == 15 and out["tickets"] == []


def test_best_score_json_carries_every_field_of_the_model(capsys):
    import dataclasses

    from ttr_nb.analysis.best_score import BestScore

    assert (
        main(["best-score", "--map", "usa", "--trains", "4", "--json", "--time-limit", "60"]) == 0
    )
    out = json.loads(capsys.readouterr().out)
    fields = {f.name for f in dataclasses.fields(BestScore)} - {"map_id"} | {"map", "proven"}
    assert fields <= out.keys()
    assert (out["method"], out["trees"], out["time_limit"], out["station_points"]) == (
        "flow",
        1,
        60.0,
        0,
    )
    assert out["proven"] is True and out["any_shape"]["proven"] is True
    assert out["any_shape"]["networks_bound"] == networks_bound({1: 1, 2: 2, 3: 4, 4: 8}, 4)


def test_best_score_text_names_routes_score_and_what_is_left_out(capsys):
    assert main(["best-score", "--map", "germany", "--trains", "4"]) == 0
    text = capsys.readouterr().out
    assert "Score" in text and "bound" in text and "Left out: passengers" in text


def test_best_score_text_says_only_what_was_proved(capsys):
    """A run stopped by its time limit claims no optimum and no network shape (the old text
    said "One network holds every completed ticket" after any run)."""
    assert main(["best-score", "--map", "europe", "--time-limit", "1"]) == 0
    text = capsys.readouterr().out
    assert "Not proven" in text and "one may score up to" in text
    assert "Proven best" not in text and "One network holds" not in text
    assert "any shape, tickets in several networks too: not proven" in text


def _stored_run(budget):
    row = next(
        json.loads(line)
        for line in (RESULTS / "best_score" / "usa.jsonl").open()
        if json.loads(line)["trains"] == budget
    )
    return BestScore(
        "usa", budget, tuple(row["routes"]), tuple(row["tickets"]), row["score"],
        row["route_points"], row["ticket_points"], row["bound"], row["gap"], row["pieces"],
        row["seconds"], "flow", 1, row["left_out"],
    )  # fmt: skip


@pytest.mark.parametrize(
    "budget, proven",
    [(b, b not in (20, 21, 22, 29, 30)) for b in range(1, 51)],
)
def test_any_shape_is_claimed_only_where_the_knapsack_is_at_most_the_score(budget, proven):
    rows = [json.loads(line) for line in (RESULTS / "best_score" / "usa.jsonl").open()]
    bounds = one_network_bounds(rows, "usa")
    run = _stored_run(budget)
    shape = any_shape(run, bounds, "usa.jsonl")
    assert shape.proven is proven
    if run.gap == 0 and budget > 1:  # (one piece: one route, a network of its own)
        assert shape.bound == networks_bound(bounds, budget)
        assert (shape.bound <= run.score) is proven
    assert shape.reason.startswith("proven:" if proven else "not proven:")


def test_any_shape_is_said_per_run_on_the_command_line(capsys, tmp_path):
    # A table where two networks of 2 pieces would beat the best game of 4: not proven.
    table = tmp_path / "usa-bounds.jsonl"
    rows = [
        {"map": "usa", "trains": b, "trees": 1, "bound": v} for b, v in ((1, 1), (2, 5), (3, 5))
    ]
    table.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    assert main(["best-score", "--map", "usa", "--trains", "4", "--bounds", str(table)]) == 0
    text = capsys.readouterr().out
    assert "Proven best among games whose completed tickets lie in one network" in text
    assert "not proven: a game of two or more networks might score up to 10, more than 8" in text
    assert main(["best-score", "--map", "usa", "--trains", "4"]) == 0  # the stored table
    assert "several networks too: proven: a game of two or more networks scores at most 5" in (
        capsys.readouterr().out
    )
    table.write_text(json.dumps(rows[0]), encoding="utf-8")  # 2 and 3 pieces missing
    assert main(["best-score", "--map", "usa", "--trains", "4", "--bounds", str(table)]) == 0
    assert "not checked: no one-network bound for 2 pieces" in capsys.readouterr().out


def test_europe_counts_the_stations_a_player_alone_never_builds(capsys):
    from ttr_nb.rules.europe import EuropeRules

    europe = load_map("europe")
    best = best_score(europe, 4)
    # alone, no station has an opponent's route to borrow: each keeps its unbuilt points
    kept = EuropeRules.unbuilt_station_points * europe.components["stations_per_player"]
    assert kept == 12 and best.station_points == kept
    assert best.score == best.route_points + best.ticket_points + kept
    assert check_best(best.as_json(), europe) == []
    assert check_best(best.as_json() | {"station_points": 0, "score": best.score - 12}, europe)
    assert "European Express" in best.left_out
    assert main(["best-score", "--map", "europe", "--trains", "4"]) == 0
    text = capsys.readouterr().out
    assert "+ 12 for the 3 stations never built" in text
    assert "Left out: the European Express" in text


def test_best_score_help_names_every_map(capsys):
    with pytest.raises(SystemExit):
        main(["best-score", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "(europe, germany, maerklin, usa, world)" in text


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--map", "atlantis"], "no map named 'atlantis' (maps: europe, germany, maerklin, usa"),
        (["--trains", "-2"], "a player cannot have fewer than 0 pieces"),
        (["--trains", "lots"], "'lots' is not a whole number of pieces"),
        (
            ["--trains", "1000"],
            "--trains 1000: the USA board takes at most 256 pieces (every route, one track of "
            "each double route); more pieces play the same game",
        ),
        (
            ["--map", "world", "--trains", "76"],
            "the Rails & Sails: World board takes at most 75 pieces (every route, one track "
            "of each double route, at most 50 ships and 25 trains)",
        ),
        (["--time-limit", "-5"], "-5 seconds: the solver needs a time above 0"),
        (["--time-limit", "0"], "0 seconds: the solver needs a time above 0"),
        (["--time-limit", "nan"], "'nan' is not a number of seconds"),
        (["usa", "--map", "germany"], "two maps named: usa and --map germany"),
    ],
)
def test_best_score_refuses_bad_arguments_with_a_reason_and_status_2(capsys, argv, words):
    with pytest.raises(SystemExit) as stop:
        main(["best-score", *argv])
    assert stop.value.code == 2
    err = " ".join(capsys.readouterr().err.split())
    assert words in err and "Traceback" not in err


def test_best_score_takes_the_map_as_play_does_and_the_old_way_with_a_note(capsys):
    assert main(["best-score", "--map", "usa", "--trains", "3", "--json"]) == 0
    new = capsys.readouterr()
    assert main(["best-score", "usa", "--trains", "3", "--json"]) == 0
    old = capsys.readouterr()
    assert json.loads(new.out)["score"] == json.loads(old.out)["score"] == 4
    assert new.err == "" and "write: ttr-nb best-score --map usa" in old.err


# The route-focused and long-route bots: tests/test_playtest.py.


# --------------------------------------------------------------- the lab figures
def test_playtest_counts_a_double_route_once_and_shares_add_up():
    usa = load_map("usa")
    double = next(r for r in usa.routes if usa.parallel(r))
    twin = usa.parallel(double)[0]
    games = [
        playtest.Played(1, (0, 1), (0,), ((double.id,), (twin,)), (10, 5)),
        playtest.Played(2, (1, 0), (0,), ((double.id,), (twin,)), (10, 5)),
    ]
    counts = playtest.winner_route_counts(games, usa)
    assert counts[double.group] == 2 and sum(counts.values()) == 2
    ignored = playtest.ignored_cities(games, usa)
    assert ignored[double.a] == 0 and max(ignored.values()) == 2
    winners, board = playtest.length_shares(games, usa)
    assert abs(sum(board.values()) - 1) < 1e-9 and winners[double.length] == 1
    rates = playtest.win_rates(games, ["a", "b"])
    assert [r.wins for r in rates] == [1, 1]


def test_stored_lab_games_replay_exactly():
    path = RESULTS / "playtest" / "usa-greedy-long-route.jsonl.gz"
    with gzip.open(path, "rt") as f:
        header = json.loads(f.readline())
        first = [playtest.from_compact(json.loads(f.readline())) for _ in range(2)]
    assert header["games"] == 10_000
    from ttr_nb.tournament import run_tournament

    again = run_tournament(header["bots"], "usa", 2, seed=header["seed"], workers=1, progress=False)
    assert [playtest.compact(r) for r in again.records] == [g.core() for g in first]


# ------------------------------------------------------------------ rules gaps
def test_dry_deck_leaves_an_empty_slot_and_offers_no_blind_draw():
    dry = research.gap_dry_deck()
    assert not dry["blind_draw_offered"] and dry["row_after"] == [None] * 5


def test_locomotive_only_row_is_reset_a_bounded_number_of_times_then_stays():
    loco = research.gap_locomotive_row()
    assert loco["still_due"] and set(loco["row"]) == {"locomotive"}
    assert "DrawFaceUp" in loco["actions"]


def test_trains_left_but_no_move_ends_the_game_after_everyone_passes():
    stuck = research.gap_stuck_trains()
    assert stuck["over"] and stuck["ended_by"] == "no_moves"
    assert [m[1] for m in stuck["moves"]] == [["pass"], ["pass"]]
    assert min(stuck["trains_left"]) > 2


# ------------------------------------------------- exercise checks reject mistakes
def test_research_exercise_checks_accept_solutions_and_reject_mistakes():
    assert research.check_network_score(research.network_score)
    assert not research.check_network_score(
        lambda m, rs: sum(m.route_points(m.route_by_id[r].length) for r in rs)
    )
    assert research.check_leaving_routes(research.leaving_routes)
    assert not research.check_leaving_routes(
        lambda m, ch, c: {r.id for r in m.routes if c in r.ends}
    )
    assert research.check_ignored(research.ignored)
    assert not research.check_ignored(lambda m, seats: set())


# ------------------------------------------ the greedy bot plays the same moves
# Recorded with the greedy bot before its large-hand rule read the route savings off two
# Dijkstra searches per ticket leg (it planned every ticket again for every route).
GREEDY_DIGEST = "be6a5244a74f6071ed6f3307b07551e9343cacf31d45fd569364dbac6d923162"


def test_greedy_games_are_the_same_as_before_the_faster_hand_rule():
    digest = hashlib.sha256()
    for name, games in (("usa", 12), ("germany", 8), ("maerklin", 4), ("world", 4)):
        for g in range(games):
            p = 2 + g % 3
            bots = [GreedyBot(g * 10 + i) for i in range(p)]
            game = play_out(new_game(name, players=p, seed=g), bots)
            digest.update(repr(game.history).encode())
    assert digest.hexdigest() == GREEDY_DIGEST


@pytest.mark.parametrize("trees", [1, None])
def test_a_tour_through_a_dead_end_is_not_counted_collected(trees):
    """A dead end joins nothing: the routes a-f and f-b, f a dead end, are two networks, so
    the tour a-f-b is not complete. The model never collects it; the value reported once
    counted it again leg by leg (each leg is joined, in a different network), so a run's
    value depended on which of the tied games the solver returned."""
    edges = {0: ("a", "f", 2, 2), 1: ("f", "b", 2, 2)}
    tour = Demand((frozenset("a"), frozenset("f"), frozenset("b")), 11)
    got = max_prize_forest(edges, {"tour": tour}, 4, dead_ends={"f"}, trees=trees)
    assert got.edges == (0, 1) and got.demands == () and got.value == 4
