"""Digests of seeded random games: every legal-action list, the action chosen, the log and
the result, hashed per block of games (imported as ``engine_digests``).

The recorded digests in ``tests/data/engine_digests.json`` were produced by the engine
before its fast path existed (the reference); the equality tests replay the same games
on today's engine and compare. Re-record only when a rule changes on purpose::

    .venv/bin/python tests/engine_digests.py --record [--blocks 30]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data" / "engine_digests.json"
BLOCK = 100  # games per digest


def game_digest(map_name: str, seed: int, hasher: Any) -> int:
    """Play seeded game ``seed`` (2 + seed % 4 players, random bot) into ``hasher``;
    return its number of actions."""
    from ttr_nb import new_game
    from ttr_nb.bots import RandomBot

    players = 2 + seed % 4
    game = new_game(map_name, players=players, seed=seed)
    bot = RandomBot(seed)
    update = hasher.update
    while not game.is_over:
        legal = game.legal_actions()
        update(repr(legal).encode())
        action = bot.choose(game)
        update(repr(action).encode())
        game.apply(action)
    update("\n".join(game.log).encode())
    update(repr(game.result()).encode())
    update(game.snapshot().encode())
    return len(game.history)


def block_digest(map_name: str, block: int) -> tuple[str, int]:
    """(hex digest, actions) of the games ``block * BLOCK`` to ``(block + 1) * BLOCK - 1``."""
    hasher = hashlib.sha256()
    actions = sum(
        game_digest(map_name, seed, hasher) for seed in range(block * BLOCK, (block + 1) * BLOCK)
    )
    return hasher.hexdigest(), actions


def recorded() -> dict[str, list[str]]:
    return json.loads(DATA.read_text(encoding="utf-8"))["digests"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", action="store_true", help="write the digests file")
    parser.add_argument("--blocks", type=int, default=30, help=f"blocks of {BLOCK} games")
    parser.add_argument("--maps", default="", help="comma-separated maps (default: all)")
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from ttr_nb.rules import playable_maps

    maps = args.maps.split(",") if args.maps else playable_maps()
    old = json.loads(DATA.read_text(encoding="utf-8")) if DATA.exists() else {"digests": {}}
    out = dict(old["digests"])
    differ = 0
    for map_name in maps:
        digests = []
        for block in range(args.blocks):
            digest, actions = block_digest(map_name, block)
            digests.append(digest)
            print(f"{map_name} block {block}: {digest[:16]} ({actions} actions)", flush=True)
        if not args.record:
            want = out.get(map_name, [])
            same = sum(a == b for a, b in zip(digests, want, strict=False))
            print(f"{map_name}: {same} of {len(digests)} blocks equal the recorded digests")
            differ += same != len(digests)
        out[map_name] = digests
    if args.record:
        DATA.write_text(
            json.dumps({"block": BLOCK, "digests": out}, indent=1) + "\n", encoding="utf-8"
        )
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
