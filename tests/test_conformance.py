"""Seeded random games on every playable map and player count, checking invariants
after every action: cards, trains and tickets conserved; legal actions exist until
the end; the running score equals a recount; saves round-trip; illegal actions
are refused without changing anything."""

from __future__ import annotations

import random

import pytest
from invariants import check_invariants, starting_totals

from ttr_nb import (
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    Game,
    IllegalActionError,
    KeepTickets,
    Pass,
    new_game,
)
from ttr_nb.bots import RandomBot
from ttr_nb.rules import playable_maps
from ttr_nb.rules.europe import BorrowRoutes, BuildStation, GiveUpTunnel, PayTunnel

CASES = [(m, n, seed) for m in playable_maps() for n in range(2, 6) for seed in (1, 2)]


def random_candidate(game: Game, rng: random.Random):
    """An action that may or may not be legal."""
    routes = game.map.routes
    cards = [c.id for c in game.map.card_types]
    player = game.state.players[game.current_player]
    kind = rng.randrange(8)
    if kind == 6:  # a variant's own action, often of another variant (Europe's here)
        return europe_candidate(game, rng)
    if kind == 7:
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
        # Sometimes with a pickup (a passenger colour at an end, a card colour elsewhere).
        colours = list(game.map.components.get("passenger_colors") or ["red"])
        ends = [route.a, route.b, *(c.id for c in game.map.countries)]
        pickups = ((rng.choice(ends), rng.choice(colours)),) if rng.random() < 0.4 else ()
        return ClaimRoute(route.id, tuple(pay.items()), pickups)
    if kind == 3:
        return DrawTickets(long=rng.choice([0, 0, 1]))
    if kind == 4:
        pool = player.offer + [t.id for t in rng.sample(game.map.tickets, 2)]
        return KeepTickets(tuple(rng.sample(pool, rng.randrange(0, min(4, len(pool)) + 1))))
    return Pass()


def europe_candidate(game: Game, rng: random.Random):
    """A Europe action (a tunnel's answer, a station, borrowed routes) that may or may not
    be legal: on other maps it is never legal."""
    cities = [c.id for c in game.map.cities] + ["atlantis"]
    cards = [c.id for c in game.map.card_types]
    pay = tuple((rng.choice(cards), rng.randrange(1, 4)) for _ in range(rng.randrange(0, 3)))
    kind = rng.randrange(4)
    if kind == 0:
        return PayTunnel(pay)
    if kind == 1:
        return GiveUpTunnel()
    if kind == 2:
        return BuildStation(rng.choice(cities), pay)
    routes = [r.id for r in game.map.routes]
    return BorrowRoutes(
        tuple((rng.choice(cities), rng.choice(routes)) for _ in range(rng.randrange(0, 3)))
    )


@pytest.mark.parametrize(("map_name", "players", "seed"), CASES)
def test_random_games_keep_every_invariant(map_name, players, seed):
    game = new_game(map_name, players=players, seed=seed)
    totals = starting_totals(game)
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
            before = game.snapshot()
            with pytest.raises(IllegalActionError):
                game.apply(candidate)
            assert game.snapshot() == before
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
