"""The greedy bot's fast ticket planner gives exactly the plans of ``plan_ticket``."""

from __future__ import annotations

import random

import pytest

from ttr_nb import load_map
from ttr_nb.algorithms import (
    NegativeRouteLengthError,
    TicketPlanner,
    TicketUnreachableError,
    plan_ticket,
)
from ttr_nb.rules import playable_maps


def plan_or_none(plan, *args, **kwargs):
    try:
        return plan(*args, **kwargs)
    except TicketUnreachableError as exc:
        return str(exc)


@pytest.mark.parametrize("map_name", playable_maps())
def test_planner_matches_plan_ticket_on_random_positions(map_name):
    game_map = load_map(map_name)
    board = [(r.id, r.a, r.b, r.length) for r in game_map.routes]
    planner = TicketPlanner(board)
    rng = random.Random(map_name)
    ids = [r.id for r in game_map.routes]
    compared = unreachable = 0
    for _ in range(60):
        # Positions from empty to crowded boards: some routes owned, some taken by others.
        crowd = rng.random()
        owned = {rid for rid in ids if rng.random() < crowd * 0.2}
        unavailable = {rid for rid in ids if rng.random() < crowd * 0.5}
        for ticket in rng.sample(game_map.tickets, 8):
            for a, b in zip(ticket.cities, ticket.cities[1:], strict=False):
                args = (game_map.targets(a), game_map.targets(b))
                options = dict(owned=owned, unavailable=unavailable, dead_ends=game_map.dead_ends)
                want = plan_or_none(plan_ticket, board, *args, **options)
                got = plan_or_none(planner.plan, *args, **options)
                assert got == want, (ticket, owned, unavailable)
                compared += 1
                unreachable += isinstance(want, str)
    assert compared > 400 and 0 < unreachable < compared


def assert_same_plans(board, ends, owned_sets, unavailable_sets):
    planner = TicketPlanner(board)
    for owned in owned_sets:
        for unavailable in unavailable_sets:
            for end in ends:
                options = dict(owned=owned, unavailable=unavailable)
                assert plan_or_none(planner.plan, "A", end, **options) == plan_or_none(
                    plan_ticket, board, "A", end, **options
                ), (end, owned, unavailable)


def test_planner_breaks_ties_like_plan_ticket():
    # Two equally short ways and parallel routes of equal cost: the same choice each time.
    board = [
        (1, "A", "B", 2),
        (2, "A", "B", 2),
        (3, "B", "D", 2),
        (4, "A", "C", 2),
        (5, "C", "D", 2),
        (6, "C", "D", 2),
    ]
    assert_same_plans(board, "D", (set(), {2}, {6}, {2, 5}), (set(), {1}, {3}, {1, 4}))


def test_planner_matches_plan_ticket_where_parallel_routes_are_listed_apart():
    # A's routes to B are not listed together (another route comes between): the planner
    # searches that place arc by arc, as networkx does, and still gives the same plans.
    board = [
        (1, "A", "B", 3),
        (2, "A", "C", 1),
        (3, "A", "B", 1),
        (4, "B", "D", 1),
        (5, "C", "D", 2),
        (6, "C", "B", 1),
    ]
    groups = TicketPlanner(board).groups
    assert "A" not in groups and "B" in groups
    assert_same_plans(board, "BD", (set(), {1}, {3}, {5}), (set(), {1}, {3}, {1, 3}, {2, 3}))


def test_planner_refuses_what_plan_ticket_refuses():
    with pytest.raises(NegativeRouteLengthError):
        TicketPlanner([(1, "A", "B", -1)])
    planner = TicketPlanner([(1, "A", "B", 1)])
    with pytest.raises(ValueError, match="names no place"):
        planner.plan(set(), "B")
    with pytest.raises(TicketUnreachableError, match="no usable routes join 'A' and 'B'"):
        planner.plan("A", "B", unavailable={1})


def reference_wanted(game, me):
    """The greedy bot's wanted routes computed the old way: ``plan_ticket`` per ticket, a
    route unavailable when another player owns it or ``route_problem`` names a reason."""
    state = game.state
    unavailable = {
        r.id
        for r in game.map.routes
        if state.owner.get(r.id, me) != me
        or (r.id not in state.owner and game.rules.route_problem(state, me, r) is not None)
    }
    board = [(r.id, r.a, r.b, r.length) for r in game.map.routes]
    owned = set(state.players[me].routes)
    wanted = set()
    for ticket_id, done in game.ticket_status(me):
        if done:
            continue
        cities = game.map.ticket_by_id[ticket_id].cities
        routes = []
        try:
            for a, b in zip(cities, cities[1:], strict=False):
                plan = plan_ticket(
                    board,
                    game.map.targets(a),
                    game.map.targets(b),
                    owned=owned,
                    unavailable=unavailable,
                    dead_ends=game.map.dead_ends,
                )
                routes.extend(r for r in plan.route_ids if r not in owned)
        except TicketUnreachableError:
            continue
        wanted.update(routes)
    return wanted


@pytest.mark.parametrize("map_name", playable_maps())
def test_greedy_bot_plans_as_before(map_name):
    from ttr_nb import new_game
    from ttr_nb.bots import GreedyBot

    game = new_game(map_name, players=3, seed=5)
    bots = [GreedyBot(i) for i in range(3)]
    checked = 0
    while not game.is_over and len(game.history) < 200:
        me = game.current_player
        if game.phase == "play" and game.state.pending is None:
            assert bots[me].wanted_routes(game, me) == reference_wanted(game, me)
            checked += 1
        game.apply(bots[me].choose(game))
    assert checked > 30
