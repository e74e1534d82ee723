"""The bots play Europe with every rule: tunnels, ferries, stations and borrowed routes."""

from __future__ import annotations

import random

import pytest
from positions import give_routes, route_between, set_hand, stack_deck, start

from ttr_nb import ClaimRoute, DrawBlind, Game, new_game
from ttr_nb.bots import GreedyBot, RandomBot, play_out, variant_hook
from ttr_nb.bots.search import SearchBot
from ttr_nb.bots.variants import europe as bot_europe
from ttr_nb.rules.europe import BORROW, BorrowRoutes, BuildStation, GiveUpTunnel, PayTunnel
from ttr_nb.rules.europe_tunnels import extra_card_odds
from ttr_nb.teaching.scenarios import set_tickets, set_trains

LOCO = "locomotive"


def europe(players: int = 2, seed: int = 1) -> Game:
    game = start(players, seed, "europe")
    for seat in range(players):
        set_hand(game, seat)
    return game


def rid(game: Game, a: str, b: str, colour: str | None = None) -> int:
    return route_between(game, a, b, colour).id


@pytest.mark.parametrize("kinds", [("random", "random"), ("greedy", "random"), ("greedy",) * 4])
def test_bots_play_europe_to_the_end(kinds):
    bots = [GreedyBot(i) if k == "greedy" else RandomBot(i) for i, k in enumerate(kinds)]
    game = play_out(new_game("europe", len(kinds), seed=5), bots)
    assert game.is_over and game.result()["winners"]


def test_the_greedy_bot_finds_the_europe_hooks_by_rules_name():
    assert variant_hook("europe", "advise") is bot_europe.advise
    assert variant_hook("europe", "claim_ok") is bot_europe.claim_ok
    assert variant_hook("usa", "claim_ok") is None


def test_greedy_pays_a_tunnel_with_the_fewest_locomotives():
    game = europe(seed=3)
    set_hand(game, 0, red=4, locomotive=2)
    stack_deck(game, ["red", LOCO, "white"])
    game.apply(ClaimRoute(rid(game, "paris", "zuerich"), (("red", 3),)))
    assert GreedyBot(0).choose(game) == PayTunnel(((LOCO, 1), ("red", 1)))


def test_greedy_gives_a_tunnel_up_only_when_it_cannot_pay():
    game = europe(seed=3)
    set_hand(game, 0, red=3)
    stack_deck(game, ["red", "blue", "white"])
    game.apply(ClaimRoute(rid(game, "paris", "zuerich"), (("red", 3),)))
    assert GreedyBot(0).choose(game) == GiveUpTunnel()


def test_greedy_waits_with_a_tunnel_its_hand_is_unlikely_to_afford():
    game = europe(seed=3)
    tunnel = rid(game, "paris", "zuerich")
    bare = ClaimRoute(tunnel, (("red", 3),))
    set_hand(game, 0, red=3)
    matching = (
        12 - 3 + 14 - sum(c in ("red", LOCO) for c in game.state.face_up + game.state.discard)
    )
    unseen = 110 - 3 - 5 - len(game.state.discard)
    assert bot_europe.tunnel_odds(game, bare) == pytest.approx(extra_card_odds(matching, unseen)[0])
    assert not bot_europe.claim_ok(game, bare)  # about 1 chance in 3
    set_hand(game, 0, red=5)
    assert bot_europe.claim_ok(game, bare)  # two spare red cards: very likely
    assert bot_europe.claim_ok(game, ClaimRoute(rid(game, "paris", "bruxelles", "red"), bare.cards))


def test_greedy_builds_a_station_for_a_ticket_one_opponents_route_completes():
    game = europe(players=2, seed=2)
    set_tickets(game, 0, [next(t.id for t in game.map.tickets if t.cities == ("paris", "wien"))])
    give_routes(game, 0, [rid(game, "paris", "zuerich"), rid(game, "zuerich", "muenchen")])
    give_routes(game, 1, [rid(game, "muenchen", "wien")])
    # Every other way to Wien is closed to the first player.
    closing = [r.id for r in game.map.routes if "wien" in r.ends and r.id not in game.state.owner]
    give_routes(game, 1, closing)
    set_hand(game, 0, blue=1, red=1)
    legal = game.legal_actions()
    bot = GreedyBot(0)
    move = bot.choose(game)
    assert isinstance(move, BuildStation) and move.city in ("muenchen", "wien")
    assert move in legal and bot.last.kind == "variant"
    assert "completes Paris–Wien" in bot.last.detail


def test_greedy_borrows_the_routes_that_complete_the_most_ticket_points():
    game = europe(players=2, seed=4)
    give_routes(game, 0, [rid(game, "muenchen", "zuerich")])
    useful = rid(game, "muenchen", "wien")
    give_routes(game, 1, [rid(game, "muenchen", "frankfurt"), useful])
    set_tickets(game, 0, [next(t.id for t in game.map.tickets if t.cities == ("paris", "wien"))])
    give_routes(game, 0, [rid(game, "paris", "zuerich")])
    game.state.extras["stations"] = {"muenchen": 0}
    game.state.players[0].extras["stations_left"] = 2
    set_trains(game, 0, 0)
    while game.state.pending != BORROW:
        game.apply(DrawBlind())
    assert len(game.legal_actions()) == 2
    assert GreedyBot(0).choose(game) == BorrowRoutes((("muenchen", useful),))


def test_search_plays_tunnels_and_the_end_of_a_europe_game():
    game = new_game("europe", 2, seed=8)
    bots = [SearchBot(seed=1, worlds=2), GreedyBot(2)]
    rng = random.Random(3)
    while not game.is_over:
        bot = bots[game.current_player]
        action = bot.choose(game) if rng.random() < 0.3 else GreedyBot(0).choose(game)
        assert action in game.legal_actions()
        game.apply(action)
    assert game.result()["winners"]
