"""The bots play Germany; the greedy bot values passengers and chooses ticket splits."""

from __future__ import annotations

import pytest

from ttr_nb import ClaimRoute, DrawTickets, new_game, payment
from ttr_nb.bots import GreedyBot, RandomBot, play_out, variant_hook
from ttr_nb.bots.variants import germany as bot_germany
from ttr_nb.teaching import germany as gm
from ttr_nb.teaching.scenarios import route_id


@pytest.mark.parametrize("kinds", [("random", "random"), ("greedy", "random"), ("greedy",) * 3])
def test_bots_play_germany_to_the_end(kinds):
    bots = [GreedyBot(i) if k == "greedy" else RandomBot(i) for i, k in enumerate(kinds)]
    game = play_out(new_game("germany", len(kinds), seed=3), bots)
    assert game.is_over and game.result()["winners"]
    assert game.rules.conserved_counts(game.state)["passengers"] == 60


def test_the_greedy_bot_finds_the_germany_hooks_by_rules_name():
    assert variant_hook("germany", "claim_bonus") is bot_germany.claim_bonus
    assert variant_hook("germany", "ticket_draw") is bot_germany.ticket_draw
    assert variant_hook("usa", "claim_bonus") is None


def test_greedy_takes_the_passenger_colour_that_gains_most():
    game = gm.passenger_pickup()
    # Ben already holds 2 white: one more white would not lead; Ada holds no black, and
    # nobody else has black, so black takes the lead of a colour (20 points).
    gm.give_passengers(game, 1, keep=["berlin", "magdeburg"], white=2, red=2, yellow=2)
    claims = [
        a
        for a in game.legal_actions()
        if isinstance(a, ClaimRoute) and a.route == route_id(game, "berlin", "magdeburg")
    ]
    best = max(claims, key=lambda a: bot_germany.claim_bonus(game, a))
    assert best.pickups == (("berlin", "black"),)
    assert bot_germany.claim_bonus(game, best) > bot_germany.claim_bonus(
        game, ClaimRoute(best.route, payment(red=3), (("berlin", "white"),))
    )


def test_greedy_asks_for_long_tickets_while_trains_last():
    game = gm.setup_position()
    draws = [a for a in game.legal_actions() if isinstance(a, DrawTickets)]
    assert bot_germany.ticket_draw(game, draws) == DrawTickets(long=2)
    late = gm.late_ticket_draw()
    late.state.players[0].pieces["train"] = 20
    draws = [a for a in late.legal_actions() if isinstance(a, DrawTickets)]
    assert bot_germany.ticket_draw(late, draws) == DrawTickets(long=1)
    late.state.players[0].pieces["train"] = 10
    assert bot_germany.ticket_draw(late, draws) == DrawTickets(long=0)
