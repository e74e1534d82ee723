"""How fast could random games get with a compiled claim-listing kernel? A ceiling, measured.

    python tools/bench_claims_ceiling.py --games 200

Profiling the random-game benchmark (`ttr_nb.bench.random_games`, what the peer comparison
times) puts about 40 % of its time in the fast path's claim listing. This plays the same
seeded games twice: once as the engine does, recording every list of claims in call order,
then again with the listing replaced by handing back the recorded lists (the cost of a
kernel that took no time at all). The ratio of the two rates is the most any compiled
kernel for claims could give; the games are the same (the run checks their actions).
"""

from __future__ import annotations

import argparse

from ttr_nb.bench import WARM_SEEDS, random_games
from ttr_nb.rules import fastpath


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    seeds = range(args.games)
    random_games("usa", 2, WARM_SEEDS, False)  # fill the fast path's memos first
    original = fastpath.FastPath.claims
    normal, oracle = [], []
    for _ in range(args.rounds):
        recorded: list = []

        def recording(self, *a, _into=recorded, **k):
            out = original(self, *a, **k)
            _into.append(out)
            return out

        fastpath.FastPath.claims = recording
        try:
            played = random_games("usa", 2, seeds, False)
        finally:
            fastpath.FastPath.claims = original
        normal.append(played.cpu_s)
        replay = iter(recorded)
        fastpath.FastPath.claims = lambda self, *a, _from=replay, **k: next(_from)
        try:
            again = random_games("usa", 2, seeds, False)
        finally:
            fastpath.FastPath.claims = original
        assert again.actions == played.actions, "the replay must play the same games"
        oracle.append(again.cpu_s)
    n, o = min(normal), min(oracle)
    print(f"{args.games} random 2-player USA games, best of {args.rounds} (CPU seconds):")
    print(f"  the engine: {args.games / n:.0f} games/s (recording adds a list append per listing)")
    print(f"  claims listed in no time: {args.games / o:.0f} games/s: {n / o:.2f}x at most")


if __name__ == "__main__":
    main()
