"""``Game.clone`` (and ``copy.deepcopy``) give independent games; ``determinise`` samples
worlds that agree with everything the searching player has seen."""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest
from invariants import check_invariants, starting_totals

from ttr_nb import new_game
from ttr_nb.actions import DrawFaceUp
from ttr_nb.bots import GreedyBot, RandomBot, play_out
from ttr_nb.bots.determinise import Knowledge, determinise
from ttr_nb.rules import playable_maps


def played(map_name: str, players: int, seed: int, moves: int):
    """A game after ``moves`` actions of greedy and random bots."""
    game = new_game(map_name, players=players, seed=seed)
    bots = [(GreedyBot if i % 2 else RandomBot)(seed + i) for i in range(players)]
    for _ in range(moves):
        if game.is_over:
            break
        game.apply(bots[game.current_player].choose(game))
    return game


# --------------------------------------------------------------------- clone
@pytest.mark.parametrize("map_name", playable_maps())
def test_deepcopy_and_clone_are_independent_games(map_name):
    game = played(map_name, 3, seed=2, moves=40)
    before = game.snapshot()
    before_rng = game.rng.getstate()
    for twin in (game.clone(), copy.deepcopy(game)):
        assert twin.snapshot() == before
        assert twin.map is game.map and twin.rules is game.rules  # shared, immutable
        # Nested state is not shared: a change to a hand or the extras stays in the copy.
        twin.state.players[0].hand[next(iter(twin.state.players[0].hand))] += 5
        twin.state.extras["probe"] = [1]
        play_out(twin, [RandomBot(i) for i in range(3)])
        assert twin.is_over
        assert game.snapshot() == before
        assert game.rng.getstate() == before_rng
        assert "probe" not in game.state.extras
        assert len(game.history) == 40 and len(game.log) == 40


@pytest.mark.parametrize("map_name", playable_maps())
def test_a_clone_plays_on_exactly_like_its_original(map_name):
    """The clone's generator continues the original's: same moves, same reshuffles."""
    game = played(map_name, 2, seed=4, moves=25)
    twin = game.clone()
    for g in (game, twin):
        play_out(g, [RandomBot(7), RandomBot(8)])
    assert twin.snapshot() == game.snapshot()
    assert twin.log == game.log
    assert twin.to_dict() == game.to_dict()


# --------------------------------------------------------------- determinise
def public(obs: dict) -> dict:
    """An observation without the viewer's own secrets."""
    return {k: v for k, v in obs.items() if k not in ("hand", "tickets", "offer")}


def card_totals(game) -> Counter:
    state = game.state
    rules = game.rules
    total = Counter(c for c in state.face_up if c is not None)
    for deck in rules.deck_names:
        pile, discard = rules.piles(state, deck)
        total.update(pile)
        total.update(discard)
    for p in state.players:
        total.update({c: n for c, n in p.hand.items() if n})
    return total


@pytest.mark.parametrize("map_name", playable_maps())
@pytest.mark.parametrize("moves", [0, 1, 30, 90])
def test_a_sampled_world_keeps_what_the_seat_knows(map_name, moves):
    game = played(map_name, 3, seed=moves + 1, moves=moves)
    totals = starting_totals(new_game(map_name, players=3, seed=0))
    expected_cards = Counter({c.id: c.count for c in game.map.card_types})
    before = game.snapshot()
    for seat in range(3):
        knowledge = Knowledge.of(game, seat)
        assert knowledge.from_history
        worlds = [knowledge.sample(random.Random(i)) for i in range(6)]
        me = game.state.players[seat]
        for world in worlds:
            assert world.sampled_for == seat
            assert world.observation(seat) == game.observation(seat)  # all it sees
            mine = world.state.players[seat]
            assert (mine.hand, mine.tickets, mine.offer) == (me.hand, me.tickets, me.offer)
            assert public(world.observation(seat)) == public(game.observation(seat))
            assert card_totals(world) == expected_cards  # every card once, none made up
            check_invariants(world, totals)
            for p, player in enumerate(world.state.players):
                real = game.state.players[p]
                assert player.hand_size == real.hand_size
                assert len(player.tickets) == len(real.tickets)
                assert len(player.offer) == len(real.offer)
        others_hidden = [
            (
                [w.state.players[p].hand for p in range(3) if p != seat],
                [w.state.players[p].tickets for p in range(3) if p != seat],
                w.state.deck,
            )
            for w in worlds
        ]
        assert len({repr(h) for h in others_hidden}) > 1  # the hidden part really varies
    assert game.snapshot() == before  # sampling never touches the real game


@pytest.mark.parametrize("map_name", playable_maps())
def test_a_sampled_world_plays_to_the_end(map_name):
    game = played(map_name, 2, seed=11, moves=50)
    world = determinise(game, game.current_player, random.Random(3))
    totals = starting_totals(new_game(map_name, players=2, seed=0))
    play_out(world, [RandomBot(1), RandomBot(2)])
    assert world.is_over
    check_invariants(world, totals)
    with pytest.raises(ValueError, match="sampled"):
        world.to_dict()  # its seed does not deal it: it cannot be saved


def test_cards_an_opponent_took_face_up_stay_in_their_hand():
    game = new_game("usa", 2, seed=6)
    bots = [GreedyBot(1), GreedyBot(2)]
    while game.state.phase != "play":
        game.apply(bots[game.current_player].choose(game))
    # Seat 0 draws blind twice, seat 1 takes two face-up cards the seat sees.
    taken = []
    while len(taken) < 2 or game.current_player != 0:
        legal = game.legal_actions()
        if game.current_player == 1:
            draw = next(a for a in legal if isinstance(a, DrawFaceUp))
            card = game.state.face_up[draw.slot]
            if not game.rules.cards[card].wild:
                taken.append(card)
            else:  # a second locomotive is not allowed: take the deck instead
                draw = next(a for a in legal if type(a).__name__ == "DrawBlind")
        else:
            draw = next(a for a in legal if type(a).__name__ == "DrawBlind")
        game.apply(draw)
    knowledge = Knowledge.of(game, 0)
    assert +knowledge.known[1] == Counter(taken)
    for i in range(20):
        hand = knowledge.sample(random.Random(i)).state.players[1].hand
        assert all(hand[c] >= n for c, n in Counter(taken).items())


def test_a_hand_edited_position_is_sampled_from_what_is_visible():
    game = played("usa", 2, seed=3, moves=20)
    game.state.players[1].hand["red"] += 1  # a staged position: the history no longer fits
    game.state.deck.pop()
    knowledge = Knowledge.of(game, 0)
    assert not knowledge.from_history
    world = knowledge.sample(random.Random(0))
    assert world.observation(0) == game.observation(0)


def test_determinise_names_a_missing_seat():
    with pytest.raises(ValueError, match="no seat 5"):
        determinise(new_game("usa", 2, seed=1), 5, random.Random(0))
