"""How strong is the search bot? Tournaments of search against greedy, seats alternating.

The full protocol of issue 12 (hours of CPU: run it on a free machine, or pass more
workers)::

    python tools/strength.py                      # 200 games per row, every row below
    python tools/strength.py --games 40 --budgets 0.3 --maps usa --workers 1   # a taste

Rows: per playable map, search at 1 s per move against greedy in 2-player games; then,
on USA, how strength grows with the budget (0.1, 0.3, 1, 3 s). The search bot counts
its own CPU time (``search-cpu:SECONDS``), so the figures do not depend on how busy the
machine is. Each row prints the search bot's win rate with a 95 % Wilson interval;
``--out`` writes every row's full table too.

``--journal FILE`` writes each game to FILE (one JSON line) as soon as it ends, and a
later run with the same journal plays only the games not yet in it: a run of many
hours can be stopped and resumed, and ``--report`` prints the rows from the journal
alone (the games played so far) without playing any.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import sys
import time
from dataclasses import asdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ttr_nb.rules import playable_maps  # noqa: E402
from ttr_nb.tournament import (  # noqa: E402
    GameRecord,
    SeatRecord,
    TournamentResult,
    _bar,
    _Spec,
    play_game,
    run_tournament,
)

BUDGET_CURVE = (0.1, 0.3, 1.0, 3.0)


def rows(maps: list[str], budgets: list[float]) -> list[tuple[str, float]]:
    """(map, budget) pairs: every map at 1 s (or the one budget asked), then USA's curve."""
    out = [(m, 1.0 if 1.0 in budgets else budgets[0]) for m in maps]
    if "usa" in maps:
        out += [("usa", b) for b in budgets if ("usa", b) not in out]
    return out


def journaled(
    path: Path, map_name: str, budget: float, games: int, seed: int, workers: int, play: bool
) -> TournamentResult:
    """Row ``(map_name, budget)`` from the journal at ``path``, after playing (when
    ``play``) the games of ``range(games)`` it does not hold yet, one line per game."""
    row = f"{map_name}@{budget:g}"
    bots = (f"search-cpu:{budget:g}", "greedy")
    records: dict[int, GameRecord] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            if entry["row"] == row and entry["seed0"] == seed:
                data = entry["record"]
                seats = tuple(
                    SeatRecord(
                        s["entrant"],
                        s["score"],
                        tuple(tuple(t) for t in s["tickets"]),
                        tuple(s["routes"]),
                    )
                    for s in data["seats"]
                )
                records[data["number"]] = GameRecord(
                    data["number"], data["seed"], seats, tuple(data["winners"]), data["turns"]
                )
    todo = [n for n in range(games) if n not in records] if play else []
    if todo:
        spec = _Spec(bots, map_name, seed, 100_000)
        with cf.ProcessPoolExecutor(max_workers=workers) as pool, _bar(len(todo), True) as bar:
            futures = [pool.submit(play_game, spec, n) for n in todo]
            for future in cf.as_completed(futures):
                record = future.result()
                records[record.number] = record
                line = {"row": row, "seed0": seed, "record": asdict(record)}
                with path.open("a", encoding="utf-8") as journal:
                    journal.write(json.dumps(line, separators=(",", ":")) + "\n")
                bar.update(1)
    result = TournamentResult(list(bots), map_name)
    result.records = [records[n] for n in sorted(records) if n < games]
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per row")
    parser.add_argument("--maps", default="all", help="comma-separated maps (default: all)")
    parser.add_argument(
        "--budgets",
        default=",".join(f"{b:g}" for b in BUDGET_CURVE),
        help="seconds per move for USA's curve (default 0.1,0.3,1,3)",
    )
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", help="append every row's full table to this file")
    parser.add_argument("--journal", type=Path, help="record each game here; resume from it")
    parser.add_argument(
        "--report", action="store_true", help="only print the rows of the games journaled"
    )
    args = parser.parse_args()
    maps = playable_maps() if args.maps == "all" else args.maps.split(",")
    budgets = [float(b) for b in args.budgets.split(",")]
    print(f"search (CPU budget per move) against greedy, 2 players, {args.games} games per row")
    print(f"{'map':<10}{'budget':>8}{'search wins':>13}{'win rate (95% CI)':>24}{'time':>9}")
    for map_name, budget in rows(maps, budgets):
        start = time.perf_counter()
        if args.journal:
            result = journaled(
                args.journal,
                map_name,
                budget,
                args.games,
                args.seed,
                args.workers,
                play=not args.report,
            )
            if not result.records:
                continue
        else:
            result = run_tournament(
                [f"search-cpu:{budget:g}", "greedy"],
                map_name,
                args.games,
                seed=args.seed,
                workers=args.workers,
                progress=True,
            )
        search = result.table()[0]
        interval = f"{search.win_rate:.0%} ({search.win_low:.0%}–{search.win_high:.0%})"
        took = "–" if args.report else f"{time.perf_counter() - start:.0f}s"
        print(
            f"{map_name:<10}{budget:>7g}s{search.wins:>8g}/{search.games:<4}{interval:>24}"
            f"{took:>9}",
            flush=True,
        )
        if args.out:
            with open(args.out, "a", encoding="utf-8") as out:
                out.write(f"\n== {map_name}, search {budget:g} s per move ==\n")
                out.write(result.to_text() + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
