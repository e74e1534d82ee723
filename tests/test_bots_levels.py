"""Bot levels and habits: the beginner bot follows the rules and loses, the hard level is
the search bot, and the greedy bot keeps a sensible hand."""

from __future__ import annotations

import pytest

from ttr_nb import new_game
from ttr_nb.bots import BeginnerBot, GreedyBot, bot_name_problem, make_bot, play_out
from ttr_nb.bots.search import PAIRED_Z, SearchBot


def test_levels_by_name() -> None:
    assert isinstance(make_bot("beginner"), BeginnerBot)
    hard = make_bot("hard")
    assert isinstance(hard, SearchBot) and hard.budget == 1.0
    assert hard.paired_z == PAIRED_Z and make_bot("search-cpu:0.3").paired_z == PAIRED_Z
    assert make_bot("hard:0.5").budget == 0.5
    assert bot_name_problem("beginner:2") is not None


def test_the_beginner_follows_the_rules_loses_to_greedy_and_completes_some_tickets() -> None:
    greedy_wins = completed = 0
    for seed in range(10):
        kinds = ["greedy", "beginner"] if seed % 2 == 0 else ["beginner", "greedy"]
        game = play_out(
            new_game("usa", 2, seed=seed), [make_bot(k, 10 * seed + i) for i, k in enumerate(kinds)]
        )  # every move went through Game.apply: all legal
        scores = [row["total"] for row in game.scores()]
        g = kinds.index("greedy")
        greedy_wins += scores[g] > scores[1 - g]
        completed += sum(done for _, done in game.ticket_status(1 - g))
    assert greedy_wins >= 8 and completed >= 3


@pytest.mark.parametrize("name", ["usa", "germany", "maerklin", "world"])
def test_the_greedy_bot_keeps_a_sensible_hand(name: str) -> None:
    largest = 0
    reasons = set()
    for seed in range(3):
        game = new_game(name, 2, seed=seed)
        bots = [GreedyBot(10 * seed), GreedyBot(10 * seed + 1)]
        while not game.is_over:
            bot = bots[game.current_player]
            paying = bot._paying_cards(game, game.current_player)
            game.apply(bot.choose(game))
            if bot.last.kind in ("hand claim", "cash in"):
                assert paying >= bot.hand_limits(game)[0 if bot.last.kind == "hand claim" else 1]
                reasons.add(bot.last.kind)
            largest = max(largest, paying)
    # Before: hands of 40-66 cards in such games; now a claim comes at 14 to 20 cards.
    assert largest <= GreedyBot().hand_limits(game)[1] + 4
    assert reasons  # the rule did act in these games
