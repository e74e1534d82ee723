"""Lesson 13 (balance by simulation): the study's published data, our stand-ins for its
agents, the stored games and every figure the lesson shows, each checked against an
independent computation (plain loops, networkx, the statistics module), never only
against the lesson's recorded output."""

from __future__ import annotations

import json
import random
import statistics
from collections import Counter
from pathlib import Path

import networkx as nx
import pytest

from ttr_nb.actions import ClaimRoute, DrawTickets
from ttr_nb.analysis import playtest
from ttr_nb.bots import make_bot, play_out
from ttr_nb.bots.greedy import GreedyBot
from ttr_nb.bots.route_focused import LongRouteBot, RouteFocusBot
from ttr_nb.game import new_game
from ttr_nb.maps import load_map
from ttr_nb.teaching import research
from ttr_nb.tournament import run_tournament

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results" / "playtest"
LESSON = ROOT / "notebooks" / "graphs_13_balance_by_simulation.ipynb"
PAPER = json.loads((RESULTS / "paper.json").read_text(encoding="utf-8"))
USA = load_map("usa")


def games_of(name: str) -> list[playtest.Played]:
    return playtest.read_games(RESULTS / name)[1]


def lesson_text() -> str:
    nb = json.loads(LESSON.read_text(encoding="utf-8"))
    cells = [c for c in nb["cells"] if c["cell_type"] == "markdown"]
    return " ".join(" ".join("".join(c["source"]) for c in cells).split())


def pair(a: str, b: str) -> int:
    return next(r.group for r in USA.routes if {r.a, r.b} == {a, b})


# ------------------------------------------------------------ the study's data
def test_published_counts_are_the_10000_game_dataset():
    rows = PAPER["published_winner_routes"]["rows"]
    assert len(rows) == 78
    assert sum(n for *_, n, _key in rows) == 140_503
    assert PAPER["published_winner_routes"]["games"] == 10_000
    assert "Ticket to Ride Visualizations.ipynb" in PAPER["published_winner_routes"]["source"]
    assert "cell 3" in PAPER["published_winner_routes"]["source"]
    # Every route of the board once, each count a number of games out of 10,000.
    assert {frozenset(r[:2]) for r in rows} == {frozenset((r.a, r.b)) for r in USA.routes}
    assert all(0 < n <= 10_000 for *_, n, _key in rows)


def test_published_counts_reproduce_fig3_with_the_study_lengths_to_the_digit():
    rows = PAPER["published_winner_routes"]["rows"]
    claims, board = Counter(), Counter()
    for _a, _b, length, n, _key in rows:
        claims[length] += n
        board[length] += 1
    fig = PAPER["fig3"]
    for i, length in enumerate(range(1, 7)):
        for share, written in (
            (claims[length] / sum(claims.values()), fig["winners"][i]),
            (board[length] / len(rows), fig["board"][i]),
        ):
            digits = len(written.split(".")[1])
            cut = int(share * 10**digits) / 10**digits  # cut off, as the study's script
            assert f"{cut:.{digits}f}" == written, (length, share, written)


def test_with_our_board_lengths_fig3_does_not_reproduce_at_lengths_4_and_5():
    rows = {r["length"]: r for r in research.fig3_rows(PAPER, USA)}
    assert all(r["study_matches"] for r in rows.values())
    assert [n for n, r in rows.items() if not r["ours_matches"]] == [4, 5]


def test_the_study_board_differs_from_ours_only_at_san_francisco_salt_lake_city():
    ours = {frozenset((r.a, r.b)): r.length for r in USA.routes}
    differ = [
        (sorted((a, b)), length, ours[frozenset((a, b))])
        for a, b, length, _n, _key in PAPER["published_winner_routes"]["rows"]
        if ours[frozenset((a, b))] != length
    ]
    assert differ == [(["salt-lake-city", "san-francisco"], 4, 5)]
    assert PAPER["study_board"]["differs_from_ours"][0][:4] == [
        "salt-lake-city",
        "san-francisco",
        4,
        5,
    ]


def test_table_one_win_counts_are_recorded_with_their_ties():
    t = PAPER["table1"]
    assert dict(zip(t["agents"], t["wins"], strict=True)) == {"A*": 83, "Route Focus": 160}
    assert sum(t["wins"]) == t["games"] + t["ties"]  # a tie is a win for both


# ------------------------------------------------------------------ the bots
def test_route_focus_bot_keeps_every_ticket_dealt_and_never_draws_more():
    for seed in range(4):
        game = new_game("usa", players=2, seed=seed)
        bots = [RouteFocusBot(seed), GreedyBot(seed + 1)]
        while not game.is_over:
            action = bots[game.current_player].choose(game)
            if game.current_player == 0:
                assert not isinstance(action, DrawTickets)
            game.apply(action)
        assert len(game.state.players[0].tickets) == 3  # all three dealt at setup


def test_route_focus_bot_claims_on_a_fewest_routes_path_then_the_shortest_route():
    """While a ticket is open each claim lies on a path with the fewest routes (counted by
    networkx over its own and the open routes); with all joined, no open route it could
    claim is shorter than the one it claims."""
    checked = {"plan": 0, "spare": 0}
    for seed in range(6):
        game = new_game("usa", players=2, seed=seed)
        bot = RouteFocusBot(seed)
        other = RouteFocusBot(seed + 100)
        while not game.is_over:
            me = game.current_player
            action = (bot if me == 0 else other).choose(game)
            if me == 0 and isinstance(action, ClaimRoute):
                state = game.state
                player = state.players[0]
                open_ids = {r.id for r in game.rules.claimable_routes(state, 0)}
                graph = nx.MultiGraph()
                graph.add_nodes_from(c.id for c in USA.cities)
                for r in USA.routes:
                    if r.id in open_ids or r.id in player.routes:
                        graph.add_edge(r.a, r.b)
                route = USA.route_by_id[action.route]
                todo = [t for t in player.tickets if not game.rules.ticket_done(state, player, t)]
                on_path = False
                for t in todo:
                    a, b = USA.ticket_by_id[t].cities[:2]
                    if not nx.has_path(graph, a, b):
                        continue
                    hops = nx.shortest_path_length(graph, a, b)
                    for x, y in ((route.a, route.b), (route.b, route.a)):
                        if nx.has_path(graph, a, x) and nx.has_path(graph, y, b):
                            through = nx.shortest_path_length(graph, a, x) + 1
                            through += nx.shortest_path_length(graph, y, b)
                            on_path |= through == hops
                if todo and on_path:
                    checked["plan"] += 1
                elif not any(nx.has_path(graph, *USA.ticket_by_id[t].cities[:2]) for t in todo):
                    affordable = [
                        USA.route_by_id[a.route].length
                        for a in game.legal_actions()
                        if isinstance(a, ClaimRoute)
                    ]
                    assert route.length == min(affordable)
                    checked["spare"] += 1
                else:
                    pytest.fail(f"seed {seed}: {route} is on no fewest-routes path of {todo}")
            game.apply(action)
    assert checked["plan"] > 50 and checked["spare"] > 5, checked


def test_long_route_bot_keeps_the_fewest_tickets_and_claims_longer_routes_than_greedy():
    lengths = {0: [], 1: []}
    for seed in range(6):
        game = play_out(
            new_game("usa", players=2, seed=seed), [LongRouteBot(seed), GreedyBot(seed)]
        )
        assert len(game.state.players[0].tickets) == 2  # the fewest USA allows at setup
        for seat in (0, 1):
            lengths[seat] += [USA.route_by_id[r].length for r in game.state.players[seat].routes]
    assert statistics.mean(lengths[0]) > statistics.mean(lengths[1])


def test_the_registry_names_each_bot_for_what_it_is():
    assert isinstance(make_bot("route"), RouteFocusBot)
    assert isinstance(make_bot("long-route"), LongRouteBot)


# --------------------------------------------------------- the stored games
STORED = sorted(p.name for p in RESULTS.glob("*.jsonl.gz"))


@pytest.mark.parametrize("name", STORED)
def test_a_sample_of_each_stored_run_replays_exactly(name):
    header, games = playtest.read_games(RESULTS / name)
    assert len(games) == header["games"]
    for number in random.Random(name).sample(range(len(games)), 2):
        again = playtest.play_watched(header["bots"], header["map"], number, header["seed"])
        stored = games[number]
        if stored.ended_by is None:  # a file of the older tool: no watched fields
            again = again.core()
        assert again == stored, (name, number)


def test_watched_games_are_the_tournament_games():
    record = run_tournament(["route", "greedy"], "usa", 2, seed=5, workers=1, progress=False)
    for number, rec in enumerate(record.records):
        watched = playtest.play_watched(["route", "greedy"], "usa", number, seed=5)
        assert playtest.compact(rec) == watched.core()


# ------------------------------------------------------------ the statistics
def _ranks(values):
    """Average ranks, counted directly: below, plus the middle of the ties."""
    return [sum(v < x for v in values) + (sum(v == x for v in values) + 1) / 2 for x in values]


def test_spearman_is_pearson_of_average_ranks():
    rng = random.Random(4)
    for _ in range(30):
        n = rng.randint(3, 40)
        xs = [rng.randint(0, 6) for _ in range(n)]
        ys = [rng.randint(0, 6) for _ in range(n)]
        if len(set(xs)) < 2 or len(set(ys)) < 2:
            continue
        want = statistics.correlation(_ranks(xs), _ranks(ys))
        assert playtest.spearman(xs, ys) == pytest.approx(want)


def test_competition_ranks_count_the_routes_claimed_more():
    counts = playtest.route_counts(games_of("usa-route-route.jsonl.gz")[:500], USA)
    ranks = playtest.competition_ranks(counts)
    ordered = sorted(counts.values(), reverse=True)
    for g, n in counts.items():
        assert ranks[g] == ordered.index(n) + 1


@pytest.mark.parametrize("seats", ["winners", "losers", "all"])
def test_route_counts_by_seat_kind(seats):
    games = games_of("usa-greedy-long-route.jsonl.gz")[:300]
    want = Counter()
    for g in games:
        for seat, routes in enumerate(g.routes):
            won = seat in g.winners
            if seats == "all" or (seats == "winners") == won:
                want.update({USA.route_by_id[r].group for r in routes})
    got = playtest.route_counts(games, USA, seats)
    assert {k: v for k, v in got.items() if v} == dict(want)


def test_bootstrap_interval_holds_the_estimate_and_narrows_with_more_games():
    games = games_of("usa-route-route.jsonl.gz")
    theirs = playtest.study_counts(PAPER, USA)
    small = playtest.bootstrap_spearman(games[:300], USA, theirs, 10_000, resamples=100)
    large = playtest.bootstrap_spearman(games, USA, theirs, 10_000, resamples=100)
    counts = playtest.route_counts(games, USA)
    keys = sorted(theirs)
    want = statistics.correlation(
        _ranks([counts[k] for k in keys]), _ranks([theirs[k] for k in keys])
    )
    assert large.rho == pytest.approx(want)
    for result in (small, large):
        assert result.low <= result.rho <= result.high
    assert large.high - large.low < small.high - small.low


# ---------------------------------------------------------- the lesson's claims
def test_route_table_orders_both_studies_as_a_plain_sort_does():
    games = games_of("usa-route-route.jsonl.gz")
    table = research.route_table(games, USA, PAPER)
    theirs = {}
    for a, b, _length, n, _key in PAPER["published_winner_routes"]["rows"]:
        theirs[pair(a, b)] = n
    top = sorted(theirs, key=lambda g: -theirs[g])[:5]
    assert [table["their_rank"][g] for g in top] == [1, 2, 3, 4, 5]
    # The study's top five, as the issue and the lesson name them.
    assert top == [
        pair("atlanta", "nashville"),
        pair("dallas", "houston"),
        pair("kansas-city", "omaha"),
        pair("denver", "phoenix"),
        pair("el-paso", "houston"),
    ]
    ours = Counter()
    for g in games:
        for seat in g.winners:
            ours.update({USA.route_by_id[r].group for r in g.routes[seat]})
    for g in theirs:
        assert table["our_rank"][g] == 1 + sum(1 for v in ours.values() if v > ours[g])


def test_length_table_is_the_share_of_each_length_computed_directly():
    games = games_of("usa-route-route.jsonl.gz")
    rows = {r["length"]: r for r in research.length_table(games, USA, PAPER)}
    won, lost = Counter(), Counter()
    for g in games:
        for seat, routes in enumerate(g.routes):
            (won if seat in g.winners else lost).update(USA.route_by_id[r].length for r in routes)
    for n, row in rows.items():
        assert row["our_winners"] == pytest.approx(won[n] / sum(won.values()))
        assert row["our_losers"] == pytest.approx(lost[n] / sum(lost.values()))


def test_the_lesson_says_what_the_length_shares_show():
    """Length 3: the study's winners and our Route Focus winners claim fewer routes of 3
    than the board holds, greedy-against-long-route winners more; length 6: the study's
    winners claim more than ours."""
    rr = {
        r["length"]: r
        for r in research.length_table(games_of("usa-route-route.jsonl.gz"), USA, PAPER)
    }
    gl = {
        r["length"]: r
        for r in research.length_table(games_of("usa-greedy-long-route.jsonl.gz"), USA, PAPER)
    }
    assert rr[3]["study_winners"] < rr[3]["board"]
    assert rr[3]["our_winners"] < rr[3]["board"] < gl[3]["our_winners"]
    assert rr[1]["study_winners"] > 2 * rr[1]["board"] and rr[1]["our_winners"] > 2 * rr[1]["board"]
    assert rr[6]["study_winners"] > rr[6]["our_winners"]
    text = lesson_text()
    assert "fewer routes of length 3" in text
    assert "claim more of them than the board holds" in text
    assert "more routes of 6" in text


def test_the_lesson_says_what_the_route_orders_show():
    games = games_of("usa-route-route.jsonl.gz")
    table = research.route_table(games, USA, PAPER)
    top3 = lambda rank: {g for g, r in rank.items() if r <= 3}  # noqa: E731
    assert top3(table["our_rank"]) == top3(table["their_rank"])  # same three routes...
    order = lambda rank: sorted(top3(rank), key=rank.get)  # noqa: E731
    assert order(table["our_rank"]) != order(table["their_rank"])  # ...in another order
    assert all(USA.route_by_id[USA.groups[g][0]].length == 1 for g in top3(table["our_rank"]))
    for (a, b), place in ((("denver", "phoenix"), 4), (("el-paso", "houston"), 5)):
        assert table["their_rank"][pair(a, b)] == place
        assert table["our_rank"][pair(a, b)] > 10
    text = lesson_text()
    assert "the same three routes" in text and "another order" in text
    assert "Denver–Phoenix (5) and El Paso–Houston (6)" in text and "4th and 5th" in text


def test_the_lesson_says_what_the_rank_correlations_show():
    """Winners agree better than losers (intervals apart), and Route Focus games better
    than greedy against long-route."""
    rr = research.agreement(games_of("usa-route-route.jsonl.gz"), USA, PAPER, resamples=60)
    gl = research.agreement(games_of("usa-greedy-long-route.jsonl.gz"), USA, PAPER, resamples=60)
    assert rr["winners"].low > rr["losers"].high
    assert rr["winners"].low > gl["winners"].high
    text = lesson_text()
    assert "winners agree better than their losers" in text


def test_the_lesson_no_longer_says_what_the_issue_found_false():
    text = lesson_text()
    assert "keeps its first tickets" not in text
    assert "not in its public code" not in text
    assert "0 for none in common" not in text
    assert "Route Focus beat A\\* 160 to 83" in text
    assert "San Francisco–Salt Lake City has length 4 on the study's board and 5 on ours" in text
    assert "140,503 claims over 10,000" in text


def test_the_rules_gaps_reach_is_counted_from_the_stored_games_and_said_so():
    runs = {
        name: games_of(name)
        for name in STORED
        if name.startswith("usa-") and games_of(name)[0].ended_by is not None
    }
    rows = research.gap_reach(runs)
    assert {r["run"] for r in rows} == set(runs)
    for row in rows:
        played = runs[row["run"]]
        assert row["games"] == len(played)
        assert row["no_moves"] == sum(1 for g in played if g.ended_by == "no_moves") == 0
        assert row["wild_only"] == sum(1 for g in played if g.wild_only) == 0
        assert row["dry"] == sum(1 for g in played if g.dry)
    assert next(r for r in rows if r["run"] == "usa-route-route.jsonl.gz")["dry"] > 0
    text = lesson_text()
    assert "never reached by play" in text and "Play does reach the first position" in text


def test_a_dry_deck_is_reached_by_play_and_offers_only_face_up_cards():
    header, games = playtest.read_games(RESULTS / "usa-route-route.jsonl.gz")
    seen = research.dry_in_play(header, games)
    number = seen["game"]
    assert all(not g.dry for g in games[:number]) and games[number].dry
    # Replayed independently: the same position, checked move by move.
    game, bots = new_game("usa", players=2, seed=header["seed"] + number), []
    entrant_at = [(seat - number) % 2 for seat in range(2)]
    bots = [make_bot("route", (header["seed"] + number) * 16 + s) for s in range(2)]
    assert entrant_at  # both seats are route bots
    while game.state.deck or game.state.discard:
        game.apply(bots[game.current_player].choose(game))
    assert game.state.turn == seen["turn"] and game.current_player == seen["player"]
    kinds = {type(a).__name__ for a in game.legal_actions()}
    assert kinds == set(seen["offered"]) and "DrawBlind" not in kinds


@pytest.mark.parametrize("name", ["usa-greedy-route.jsonl.gz", "usa-greedy-long-route.jsonl.gz"])
def test_win_rates_are_the_wins_counted_directly_with_wilson_intervals(name):
    header, games = playtest.read_games(RESULTS / name)
    z = 1.959963984540054
    for i, row in enumerate(playtest.win_rates(games, header["bots"])):
        seats = [(g, s) for g in games for s, e in enumerate(g.entrants) if e == i]
        wins = sum(1 / len(g.winners) for g, s in seats if s in g.winners)
        n = len(seats)
        p = wins / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
        assert (row.games, row.wins) == (n, pytest.approx(wins))
        assert (row.low, row.high) == (pytest.approx(centre - half), pytest.approx(centre + half))
        assert row.mean_score == pytest.approx(statistics.mean(g.scores[s] for g, s in seats))


def test_ignored_cities_and_their_rank_correlation_are_counted_directly():
    games = games_of("usa-route-route.jsonl.gz")
    theirs = PAPER["ignored_cities_per_10000"]["counts"]
    want = Counter()
    for g in games:
        reached = {c for routes in g.routes for r in routes for c in USA.route_by_id[r].ends}
        want.update(c.id for c in USA.cities if c.id not in reached)
    got = playtest.ignored_cities(games, USA)
    assert {c: n for c, n in got.items() if n} == dict(want)
    cities = sorted(theirs)
    rho = statistics.correlation(
        _ranks([want[c] for c in cities]), _ranks([theirs[c] for c in cities])
    )
    assert playtest.spearman([got[c] for c in cities], [theirs[c] for c in cities]) == (
        pytest.approx(rho)
    )
