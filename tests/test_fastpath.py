"""The fast path lists the same legal actions, in the same order, as the reference path,
and the engine plays the same games as before it existed (recorded digests)."""

from __future__ import annotations

import hashlib
import random

import pytest
from engine_digests import block_digest, recorded

from ttr_nb import new_game
from ttr_nb.bots import GreedyBot, RandomBot
from ttr_nb.rules import playable_maps

# Games compared move by move per map (every legal list, both ways): a few, as each
# position is listed twice, the slow way too.
STEP_GAMES = {"usa": 40, "germany": 30, "maerklin": 10, "world": 4, "europe": 6}
# Blocks of 100 recorded games replayed per map here; `python tests/engine_digests.py`
# replays every recorded block (3,000 USA and Germany games, 300 Märklin, 1,000 World,
# 200 Europe).
DIGEST_BLOCKS = {"usa": 5, "germany": 3, "maerklin": 2, "world": 1, "europe": 1}


def reference_actions(game):
    with game.rules.reference_mode():
        return game.legal_actions()


@pytest.mark.parametrize("map_name", playable_maps())
def test_fast_lists_equal_reference_lists_move_by_move(map_name):
    positions = 0
    for seed in range(STEP_GAMES.get(map_name, 2)):
        players = 2 + seed % 4
        game = new_game(map_name, players=players, seed=seed)
        # Random and greedy seats: greedy games reach long hands and crowded boards.
        bots = [(GreedyBot if (seed + i) % 2 else RandomBot)(seed * 10 + i) for i in range(players)]
        while not game.is_over:
            fast = game.legal_actions()
            slow = reference_actions(game)
            assert fast == slow, f"{map_name} seed {seed} move {len(game.history)}"
            assert [type(a) for a in fast] == [type(a) for a in slow]
            action = bots[game.current_player].choose(game)
            with game.rules.reference_mode():
                line = game.rules.describe(game, action)
            game.apply(action)
            assert game.log[-1] == line  # the remembered log line is the one describe makes
            positions += 1
    assert positions > 100


@pytest.mark.parametrize("map_name", playable_maps())
def test_seeded_games_equal_the_recorded_engine(map_name):
    """Every legal list, action, log line, result and final state of seeded random games
    hashes to the digests recorded with the engine before the fast path."""
    want = recorded()[map_name]
    blocks = min(DIGEST_BLOCKS.get(map_name, 1), len(want))
    assert blocks >= 1
    for block in range(blocks):
        digest, actions = block_digest(map_name, block)
        assert actions > 0
        assert digest == want[block], f"{map_name}: games {block * 100}–{block * 100 + 99} differ"


def test_a_changed_game_changes_the_digest():
    """The digest is sensitive: one different move gives another hash."""
    one, two = hashlib.sha256(), hashlib.sha256()
    for hasher, pick in ((one, 0), (two, -1)):
        game = new_game("usa", 2, seed=5)
        rng = random.Random(5)
        for i in range(30):
            legal = game.legal_actions()
            action = legal[pick] if i == 10 else rng.choice(legal)
            hasher.update(repr(action).encode())
            game.apply(action)
        hasher.update(game.snapshot().encode())
    assert one.hexdigest() != two.hexdigest()


def test_reference_mode_is_left_on_error():
    game = new_game("usa", 2, seed=1)
    with pytest.raises(RuntimeError), game.rules.reference_mode():
        raise RuntimeError("boom")
    assert game.rules.reference is False


def test_hand_made_positions_list_the_same_as_the_reference():
    """Positions no game reaches (empty slots, a locomotive after a first card, a sixth
    face-up card, empty piles, odd hands) take the plain path where the tables stop, and
    list what the reference lists."""
    game = new_game("usa", 2, seed=4)
    while game.phase != "play":
        game.apply(game.legal_actions()[-1])
    state = game.state
    hand = state.players[state.current].hand
    cases = []
    for pending in (None, "second_card"):
        for row in (
            ["locomotive", None, "red", "locomotive", None],
            [None] * 5,
            ["blue", "blue", "green", "yellow", "black", "white"],  # a sixth slot
        ):
            cases.append((pending, row, True))
    cases.append((None, ["red"] * 5, False))  # draw and discard piles empty
    for pending, row, piles in cases:
        twin = game.clone()
        twin.state.pending = pending
        twin.state.face_up = list(row)
        if not piles:
            twin.state.deck.clear()
            twin.state.discard.clear()
        fast = twin.legal_actions()
        assert fast == reference_actions(twin), (pending, row, piles)
    # Hands at the edges of the payment tables: every colour at or over the longest route,
    # no locomotives; locomotives only; a single card of each colour.
    for counts in (
        {c: 6 for c in hand if c != "locomotive"} | {"locomotive": 0},
        {c: 0 for c in hand} | {"locomotive": 9},
        {c: 1 for c in hand},
    ):
        twin = game.clone()
        twin.state.players[twin.state.current].hand.update(counts)
        assert twin.legal_actions() == reference_actions(twin), counts


def test_world_payments_remembered_by_the_paying_cards_equal_the_reference():
    """World remembers a route's payments by the counts of the cards that can pay for it:
    random hands, drawn again one card at a time, list every route's payments as the
    reference does (and the same after another colour changes)."""
    game = new_game("world", 2, seed=2)
    rules = game.rules
    rng = random.Random(7)
    cards = [c.id for c in game.map.card_types]
    hand = dict.fromkeys(cards, 0)
    listed = 0
    for _ in range(60):
        hand[rng.choice(cards)] += rng.choice((1, 1, 2))
        if rng.random() < 0.2:
            hand = dict.fromkeys(cards, 0)
        for route in game.map.routes:
            fast = rules.payments(dict(hand), route)
            with rules.reference_mode():
                assert fast == rules.payments(dict(hand), route), (route.id, hand)
            listed += bool(fast)
    assert listed > 500


def test_claim_tables_list_the_fast_paths_claims_claim_by_claim():
    """The compiled build lists the base rules' claims from flat tables
    (ttr_nb/rules/claim_tables.py): run here as plain Python, they list what the fast
    path's memos list, in 2-, 3- and 4-player USA games (closed and open double routes)."""
    from ttr_nb.rules.claim_tables import ClaimTable, list_claims

    compared = 0
    for seed in range(6):
        game = new_game("usa", players=2 + seed % 3, seed=seed)
        fast = game.rules.fast
        assert ClaimTable.fits(fast)
        table = ClaimTable(fast)
        bots = [(GreedyBot if (seed + i) % 2 else RandomBot)(seed * 10 + i) for i in range(4)]
        while not game.is_over:
            state = game.state
            seat = state.current
            player = state.players[seat]
            want = fast.claims(state, seat, player.hand)
            closes = len(state.players) <= table.closes_upto
            pieces = player.pieces.get(table.kind, 0)
            got = list_claims(table, player.hand, state.owner, seat, closes, pieces)
            assert got == want, (seed, state.turn)
            compared += bool(want)
            game.apply(bots[seat].choose(game))
    assert compared > 200


@pytest.mark.parametrize("map_name", ["germany", "maerklin", "world", "europe"])
def test_claim_tables_are_only_used_where_they_list_the_same(map_name):
    """Pickups (Germany), two kinds of wild card (Märklin), ships (World) and ferries
    (Europe) are not in the tables: those maps keep the fast path's own listing."""
    from ttr_nb.rules.claim_tables import ClaimTable

    fast = new_game(map_name, 2, seed=0).rules.fast
    assert not ClaimTable.fits(fast)
    assert fast.table is None
