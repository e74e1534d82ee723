"""Guessing an opponent's tickets from their claims (``ttr_nb.bots.inference``) and the
weighted worlds the search imagines with it (``Knowledge.sample(rng, weights)``)."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest
from invariants import check_invariants, starting_totals

from ttr_nb import new_game
from ttr_nb.bots import GreedyBot
from ttr_nb.bots.determinise import Knowledge
from ttr_nb.bots.greedy import plan_ticket_legs
from ttr_nb.bots.inference import FIT_WEIGHT, ticket_weights
from ttr_nb.rules import playable_maps


def greedy_game(map_name: str, seed: int, moves: int):
    game = new_game(map_name, players=2, seed=seed)
    bots = [GreedyBot(seed), GreedyBot(seed + 1)]
    for _ in range(moves):
        if game.is_over:
            break
        game.apply(bots[game.current_player].choose(game))
    return game


def give_routes(game, seat: int, route_ids) -> None:
    """Hand-built position: ``seat`` owns these routes (nothing else changes)."""
    state = game.state
    for rid in route_ids:
        state.owner[rid] = seat
        state.players[seat].routes.append(rid)


def test_a_player_without_claims_gives_every_ticket_the_same_chance():
    game = new_game("usa", 2, seed=1)
    assert ticket_weights(game, 1) is None


def test_tickets_the_claims_cover_weigh_more_than_tickets_they_do_not_touch():
    game = new_game("usa", 2, seed=1)
    by_name = {(t.cities[0], t.cities[-1]): t.id for t in game.map.tickets}
    done = by_name["los-angeles", "new-york"]
    _, path = plan_ticket_legs(game.map, done)
    give_routes(game, 1, path)  # the whole of one coast-to-coast ticket
    weights = ticket_weights(game, 1)
    assert weights[done] == pytest.approx(math.exp(FIT_WEIGHT))  # finished: the most likely
    assert all(1.0 <= w <= weights[done] for w in weights.values())
    # Seattle-Los Angeles runs up the west coast, which this line does not touch.
    assert weights[by_name["seattle", "los-angeles"]] == 1.0
    # Los Angeles-Chicago shares most of its path with it: nearly as likely.
    assert weights[by_name["los-angeles", "chicago"]] > 100
    untouched = [t for t, w in weights.items() if w == 1.0]
    assert untouched, "some tickets lie wholly away from the claims"
    # A ticket that shares part of the path is likelier than an untouched one, less than done.
    partial = [t for t, w in weights.items() if 1.0 < w < weights[done]]
    assert partial


def test_weighting_leaves_the_other_players_alone():
    game = new_game("usa", 2, seed=1)
    give_routes(game, 1, plan_ticket_legs(game.map, game.map.tickets[0].id)[1])
    assert ticket_weights(game, 0) is None  # seat 0 claimed nothing


@pytest.mark.parametrize("map_name", playable_maps())
def test_weighted_worlds_keep_what_the_seat_knows_and_favour_the_real_tickets(map_name):
    game = greedy_game(map_name, seed=2, moves=70)
    knowledge = Knowledge.of(game, 0)
    weights = [None, ticket_weights(game, 1)]
    assert weights[1] is not None
    totals = starting_totals(new_game(map_name, players=2, seed=0))
    real = set(game.state.players[1].tickets)
    before = game.snapshot()
    found = Counter()
    for i in range(40):
        plain = knowledge.sample(random.Random(i))
        world = knowledge.sample(random.Random(i), weights)
        assert world.observation(0) == game.observation(0)  # everything the seat sees
        check_invariants(world, totals)
        dealt = [*world.state.players[1].tickets, *world.state.players[1].offer]
        for pile in world.state.ticket_decks.values():
            dealt.extend(pile)
        dealt += [*world.state.players[0].tickets, *world.state.players[0].offer]
        assert Counter(dealt) == Counter(t.id for t in game.map.tickets)  # each ticket once
        found["plain"] += len(real & set(plain.state.players[1].tickets))
        found["weighted"] += len(real & set(world.state.players[1].tickets))
    assert game.snapshot() == before
    # The opponent's real tickets lie on their claims: weighted worlds deal them more often.
    assert found["weighted"] > 1.5 * found["plain"]


def test_weighted_worlds_follow_the_weights():
    """With one hidden ticket ``w`` times likelier, the chance that the opponent holds it
    is ``w k / (w k + N - k)`` (``k`` of ``N`` unseen tickets in their hand): the sampler
    draws it that often, up to the noise of 3000 worlds and its finite number of steps."""
    game = greedy_game("usa", seed=3, moves=0)
    bots = [GreedyBot(1), GreedyBot(2)]
    while game.state.pending == "keep_tickets":
        game.apply(bots[game.current_player].choose(game))
    offered = new_game("usa", players=2, seed=3).state.players[0].offer
    seen = set(offered)  # kept, or given back to a known place under the deck
    hidden = [t.id for t in game.map.tickets if t.id not in seen]
    k, n = len(game.state.players[1].tickets), len(hidden)
    target = hidden[5]
    knowledge = Knowledge.of(game, 0)
    rng = random.Random(1)
    draws = 3000
    for w in (1.0, 10.0):
        held = sum(
            target in knowledge.sample(rng, [None, {target: w}]).state.players[1].tickets
            for _ in range(draws)
        )
        assert held / draws == pytest.approx(w * k / (w * k + n - k), abs=0.035)
