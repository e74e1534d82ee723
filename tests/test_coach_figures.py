"""The coach's figures checked against independent computations: the same questions
answered a second way (a replay move by move, an enumeration of every set of routes),
on positions of real games."""

from __future__ import annotations

import itertools
import math

import networkx as nx
import pytest

from ttr_nb import ClaimRoute, new_game
from ttr_nb.algorithms import ticket_completed
from ttr_nb.bots import GreedyBot, RandomBot, play_out
from ttr_nb.coach import coach, review
from ttr_nb.coach.view import unavailable_to
from ttr_nb.game import Game


def _replayed_blocks(game: Game) -> dict[tuple[int, int], tuple[int, int, int]]:
    """(seat, ticket) -> (move, who, route): the game replayed claim by claim, every
    seat's final tickets checked for a line of routes it may still use after each claim
    by another seat (the first claim after which there is none made it impossible)."""
    game_map = game.map
    final = {seat: list(p.tickets) for seat, p in enumerate(game.state.players)}
    out: dict[tuple[int, int], tuple[int, int, int]] = {}
    replay = Game(game.map, game.names, game.seed)
    for number, move in enumerate(game.history, start=1):
        replay.apply(move.action)
        if not isinstance(move.action, ClaimRoute):
            continue
        for seat, tickets in final.items():
            if seat == move.player:
                continue
            closed = unavailable_to(replay, seat)
            usable = [r.ends for r in game_map.routes if r.id not in closed]
            for t in tickets:
                cities = game_map.ticket_by_id[t].cities
                joined = all(
                    ticket_completed(
                        usable,
                        game_map.targets(a),
                        game_map.targets(b),
                        dead_ends=game_map.dead_ends,
                    )
                    for a, b in zip(cities, cities[1:], strict=False)
                )
                if not joined and (seat, t) not in out:
                    out[(seat, t)] = (number, move.player, move.action.route)
    return out


@pytest.mark.parametrize(
    ("name", "players", "bot", "seed"),
    [
        ("usa", 3, RandomBot, 11),
        ("usa", 5, RandomBot, 11),  # 4 or 5 players: a double route's other track stays open
        ("germany", 2, RandomBot, 11),
        ("maerklin", 5, GreedyBot, 11),
        ("world", 3, GreedyBot, 11),
        ("world", 4, RandomBot, 12),
    ],
)
def test_review_blocked_tickets_match_a_replay_claim_by_claim(name, players, bot, seed) -> None:
    game = play_out(new_game(name, players, seed=seed), [bot(i) for i in range(players)])
    expected = _replayed_blocks(game)
    found = {}
    for row in review(game):
        for m in row.missed:
            if m.move is not None:
                found[(row.seat, m.ticket.id)] = (m.move, m.by, m.route)
    missed = {(r.seat, m.ticket.id) for r in review(game) for m in r.missed}
    assert found == {key: value for key, value in expected.items() if key in missed}
    assert found, "no ticket was blocked in this game: the check compared nothing"


# ---------------------------------------------------------------- weak spots (issue 40, 11)
def _metric(game_map, owned, unavailable):
    """Shortest distances between places over the usable routes (owned ones free)."""
    graph = nx.Graph()
    graph.add_nodes_from(c.id for c in game_map.cities)
    for route in game_map.routes:
        if route.id in unavailable and route.id not in owned:
            continue
        w = 0 if route.id in owned else route.length
        if not graph.has_edge(route.a, route.b) or graph[route.a][route.b]["weight"] > w:
            graph.add_edge(route.a, route.b, weight=w)
    return dict(nx.all_pairs_dijkstra_path_length(graph))


def _tree(dist, terminals) -> float:
    """The cheapest tree joining ``terminals`` (Hakimi): the least spanning tree, in the
    shortest-distance metric, of the terminals and at most len - 2 other places."""
    terminals = sorted(set(terminals))
    if any(b not in dist[terminals[0]] for b in terminals):
        return math.inf
    others = [p for p in dist[terminals[0]] if p not in terminals]
    best = math.inf
    for k in range(max(0, len(terminals) - 1)):
        for extra in itertools.combinations(others, k):
            best = min(best, _spanning(dist, terminals + list(extra)))
    return best


def _spanning(dist, nodes) -> float:
    """The least spanning tree of ``nodes`` in the metric (Prim's method)."""
    reach = {v: dist[nodes[0]][v] for v in nodes[1:]}
    total = 0.0
    while reach:
        v = min(reach, key=reach.__getitem__)
        total += reach.pop(v)
        for u in reach:
            reach[u] = min(reach[u], dist[v][u])
    return total


def _forest(dist, tickets) -> float:
    """The cheapest forest for one or two two-place tickets: apart, or in one tree."""
    apart = sum(_tree(dist, t) for t in tickets)
    together = _tree(dist, [p for t in tickets for p in t]) if len(tickets) == 2 else math.inf
    return min(apart, together)


def _positions():
    """Positions of 3-player USA games of greedy bots (the issue's game among them)."""
    for seed in (101, 7):
        game = new_game("usa", 3, seed=seed)
        bots = [GreedyBot(seed + i) for i in range(3)]
        for move in range(1, 200):
            if game.is_over:
                break
            game.apply(bots[game.current_player].choose(game))
            if move % 25 == 0:
                yield game


def test_weak_spots_are_the_cheapest_plan_without_the_route_by_a_second_method() -> None:
    compared = zero = more = 0
    for game in _positions():
        for seat in range(3):
            advice = coach(game, seat)
            plan = advice.plan
            tickets = [
                game.map.ticket_by_id[t.id].cities for t in plan.reachable
            ]  # USA: two places a ticket, no countries
            if not plan.exact or not 1 <= len(tickets) <= 2:
                continue
            owned = set(game.state.players[seat].routes)
            assert _forest(_metric(game.map, owned, plan.unavailable), tickets) == plan.spaces
            closes = game.num_players <= game.rules.closed_parallel_max_players
            for loss in advice.losses:
                lost = {loss.route, *(game.rules.parallel[loss.route] if closes else ())}
                dist = _metric(game.map, owned, plan.unavailable | lost)
                without = _forest(dist, tickets)
                if loss.extra is None:
                    assert without == math.inf
                    continue
                assert loss.exact
                assert loss.extra == without - plan.spaces, (game.seed, len(game.history), seat)
                compared += 1
                zero += loss.extra == 0
                more += loss.extra > 0
    assert compared >= 30 and zero >= 2 and more >= 5, (compared, zero, more)


def test_the_issue_s_usa_case_kansas_city_omaha_costs_nothing() -> None:
    game = new_game("usa", 3, seed=101)
    bots = [GreedyBot(101 + i) for i in range(3)]
    for _ in range(150):
        game.apply(bots[game.current_player].choose(game))
    advice = coach(game, 0)
    line = next(line for line in advice.hints[1].lines if "Kansas City–Omaha" in line)
    assert line == (
        "  Kansas City–Omaha (1 gray): no loss (an equally short plan claims Denver–Helena "
        "(4 green), Denver–Santa Fe (2 gray) instead)"
    )


def test_weak_spots_past_the_exact_budget_say_at_most_and_are_upper_bounds(monkeypatch) -> None:
    from ttr_nb.coach import weak
    from ttr_nb.coach.plan import my_plan
    from ttr_nb.coach.view import seat_view

    checked = bounded = 0
    for name in ("usa", "germany"):
        game = new_game(name, 3, seed=5)
        bots = [GreedyBot(i) for i in range(3)]
        for move in range(1, 120):
            game.apply(bots[game.current_player].choose(game))
            if move % 30:
                continue
            for seat in range(3):
                view = seat_view(game, seat)
                plan = my_plan(view, seat)
                if not plan.exact:
                    continue
                exact = {loss.route: loss for loss in weak.route_losses(view, seat, plan)}
                monkeypatch.setattr(weak, "LOSS_WORK", 0)
                for loss in weak.route_losses(view, seat, plan):
                    truth = exact[loss.route]
                    assert truth.exact
                    if truth.extra is None:
                        assert loss.extra is None
                        continue
                    assert loss.extra >= truth.extra  # an upper bound
                    assert loss.exact == (loss.extra == 0)  # no plan is shorter than none
                    checked += 1
                    bounded += not loss.exact
                monkeypatch.setattr(weak, "LOSS_WORK", weak.MAX_EXACT_WORK)
    assert checked >= 20 and bounded >= 5, (checked, bounded)
    game = new_game("usa", 2, seed=3)
    game.apply(game.legal_actions()[-1])
    monkeypatch.setattr(weak, "LOSS_WORK", 0)
    lines = next(h for h in coach(game, 0).hints if h.kind == "weak-spots").lines
    assert any(
        ": at most +" in line and "(the best plan found without it" in line for line in lines
    )
