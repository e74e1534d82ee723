"""Long run of the stateful engine test: about 10^5 actions per playable map.

Outside CI (it takes minutes). Prints actions accepted and refused, saves
round-tripped and the time per map::

    .venv/bin/python tools/fuzz_profile.py [--actions 100000]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ["HYPOTHESIS_PROFILE"] = "long"
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import test_stateful  # noqa: E402

from ttr_nb.rules import playable_maps  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=100_000)
    args = parser.parse_args()
    stats = test_stateful.STATS
    for map_name in playable_maps():
        for key in stats:
            stats[key] = 0
        start = time.perf_counter()
        runs = 0
        while stats["accepted"] + stats["refused"] < args.actions:
            test_stateful.machine_for(map_name).TestCase().runTest()
            runs += 1
        elapsed = time.perf_counter() - start
        print(
            f"{map_name}: {stats['accepted']:,} actions accepted, {stats['refused']:,} refused "
            f"(state unchanged each time), {stats['saves']:,} saves reloaded; "
            f"{runs} Hypothesis runs, {elapsed:.0f} s, no failure"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
