"""The compiled claim-listing prototype (tools/claims_kernel.py) lists what the engine lists."""

from __future__ import annotations

import random
import shutil
import sys
from pathlib import Path

import pytest

from ttr_nb import new_game

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")


def test_kernel_lists_the_engines_claims_claim_by_claim():
    import claims_kernel

    compared = 0
    for seed in range(6):
        game = new_game("usa", players=2 + seed % 3, seed=seed)
        fast = game.rules.fast
        kernel = claims_kernel.Kernel(fast)
        rng = random.Random(seed)
        while not game.is_over:
            state = game.state
            seat = state.current
            hand = state.players[seat].hand
            want = fast.claims(state, seat, hand)
            assert kernel.claims(state, seat, hand) == want, (seed, state.turn)
            compared += bool(want)
            game.apply(rng.choice(game.legal_actions()))
    assert compared > 200  # positions with claims to list, in 2-, 3- and 4-player games
