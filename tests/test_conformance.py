"""Seeded random games on every playable map and player count, checking invariants
after every action: cards, trains and tickets conserved; legal actions exist until
the end; the running score equals a recount; saves round-trip; illegal actions
are refused without changing anything."""

from __future__ import annotations

import random

import pytest

from ttr_nb import (
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    Game,
    IllegalActionError,
    KeepTickets,
    Pass,
    load_map,
    new_game,
)
from ttr_nb.bots import RandomBot
from ttr_nb.rules import playable_maps

CASES = [(m, n, seed) for m in playable_maps() for n in range(2, 6) for seed in (1, 2)]


def random_candidate(game: Game, rng: random.Random):
    """An action that may or may not be legal."""
    routes = game.map.routes
    cards = [c.id for c in game.map.card_types]
    player = game.state.players[game.current_player]
    kind = rng.randrange(6)
    if kind == 0:
        return DrawFaceUp(rng.randrange(-1, 7))
    if kind == 1:
        return DrawBlind(rng.choice(["train", "train", "ship"]))
    if kind == 2:
        route = rng.choice(routes)
        pay = {}
        for _ in range(rng.randrange(1, 4)):
            card = rng.choice(cards)
            pay[card] = pay.get(card, 0) + rng.randrange(1, route.length + 1)
        return ClaimRoute(route.id, tuple(pay.items()))
    if kind == 3:
        return DrawTickets(long=rng.choice([0, 0, 1]))
    if kind == 4:
        pool = player.offer + [t.id for t in rng.sample(game.map.tickets, 2)]
        return KeepTickets(tuple(rng.sample(pool, rng.randrange(0, min(4, len(pool)) + 1))))
    return Pass()


def check_invariants(game: Game, totals: dict) -> None:
    state = game.state
    rules = game.rules
    cards = len(state.deck) + len(state.discard) + sum(c is not None for c in state.face_up)
    cards += sum(p.hand_size for p in state.players)
    assert cards == totals["cards"]
    assert all(n >= 0 for p in state.players for n in p.hand.values())
    tickets = sum(len(d) for d in state.ticket_decks.values())
    tickets += sum(len(p.tickets) + len(p.offer) for p in state.players)
    assert tickets == totals["tickets"]
    for i, p in enumerate(state.players):
        for kind, start in totals["pieces"].items():
            used = sum(
                game.map.route_by_id[r].length
                for r in p.routes
                if game.map.route_by_id[r].kind == kind
            )
            assert p.pieces[kind] + used == start
        assert sorted(p.routes) == sorted(r for r, o in state.owner.items() if o == i)
        assert p.route_score == rules.recomputed_route_score(state, p)
        assert game.scores()[i]["routes"] == p.route_score
    if game.is_over:
        assert game.legal_actions() == []
    else:
        assert game.legal_actions(), "no legal action before the end"


@pytest.mark.parametrize(("map_name", "players", "seed"), CASES)
def test_random_games_keep_every_invariant(map_name, players, seed):
    game = new_game(map_name, players=players, seed=seed)
    game_map = load_map(map_name)
    totals = {
        "cards": sum(c.count for c in game_map.card_types),
        "tickets": len(game_map.tickets),
        "pieces": dict(game.state.players[0].pieces),
    }
    bot = RandomBot(seed)
    probe = random.Random(seed + 1000)
    steps = 0
    check_invariants(game, totals)
    while not game.is_over:
        legal = game.legal_actions()
        legal_set = set(legal)
        for action in probe.sample(legal, min(3, len(legal))):
            assert game.problem(action) is None, action
        # A few random candidates: legal exactly when listed; refused ones change nothing.
        for _ in range(3):
            candidate = random_candidate(game, probe)
            if candidate in legal_set:
                assert game.problem(candidate) is None
                continue
            before = game.to_dict()
            with pytest.raises(IllegalActionError):
                game.apply(candidate)
            assert game.to_dict() == before
        game.apply(bot.choose(game))
        steps += 1
        check_invariants(game, totals)
        if seed == 1 or steps % 15 == 0 or game.is_over:
            assert Game.from_json(game.to_json()) == game
        assert steps < 5000
    result = game.result()
    assert result is not None and result["winners"]
    rows = game.scores()
    assert all(r["total"] == sum(v for k, v in r.items() if k != "total") for r in rows)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_same_seed_and_actions_replay_the_same_game(players):
    game = new_game("usa", players=players, seed=42)
    bot = RandomBot(7)
    for _ in range(60):
        if game.is_over:
            break
        game.apply(bot.choose(game))
    again = game.replay()
    assert again == game
    halfway = game.replay(30)
    assert len(halfway.history) == 30
    assert halfway.history == game.history[:30]
