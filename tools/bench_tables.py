"""Shared tables under load: simulated players at several tables, through the table service.

The real table service runs as the app runs it (:class:`ttr_nb.table_service.ServiceProcess`,
HTTP on 127.0.0.1, over the real store). Each simulated player is a process of its own, as
each page is a kernel of its own: it holds a :class:`~ttr_nb.tables.remote.SeatClient` with
a page pass, polls the table as a page does (every ``--poll`` seconds), and when its turn
comes plays a random legal move at once. Now and then it clicks twice (the second click
must be refused, never stored). When a table's game ends, its players move on to the next
table of their group, until the groups have made ``--moves`` moves between them.

It reports the moves made, lost (a player was told its move was stored, but the log does not
hold it) and duplicated (one click stored twice, or a move number twice), and how soon each
move was seen at the other seats (from the moment its player was told it was stored to the
other player's poll that brought it), for SQLite and for PostgreSQL (a throwaway server,
``tools/pg_server.py``).

    python tools/bench_tables.py                       # 30 players, 8 tables, 10000 moves
    python tools/bench_tables.py --players 6 --tables 2 --moves 200 --stores sqlite

The last line of each store reads
``tables: 30 players at 8 tables, 10000 moves, lost 0, duplicated 0, seen p50 X ms p95 Y ms
(sqlite)``. Figures, not a test: the machine's load moves them.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ttr_nb.actions import action_to_dict  # noqa: E402
from ttr_nb.errors import StaleMoveError, TableError  # noqa: E402
from ttr_nb.table_service import ServiceProcess  # noqa: E402
from ttr_nb.tables import Limits, TableStore  # noqa: E402
from ttr_nb.tables.remote import HttpTransport, SeatClient, TablesClient  # noqa: E402

MOVES_PER_GAME_AT_LEAST = 60  # random games last longer: tables made ready per group follow
DOUBLE_CLICK = 0.05  # share of moves clicked twice


def seat_groups(players: int, tables: int) -> list[int]:
    """How many players sit at each table: as even as can be, 2 to 5 each."""
    if not 2 * tables <= players <= 5 * tables:
        raise SystemExit(f"{players} players cannot sit at {tables} tables of 2 to 5")
    base, extra = divmod(players, tables)
    return [base + (1 if i < extra else 0) for i in range(tables)]


def prepare(
    url: str, sizes: list[int], quota: list[int], map_id: str
) -> list[list[list[dict[str, Any]]]]:
    """For each group, enough full tables for its quota of moves; per table, each seat's
    secrets."""
    # One process opens every table of the run: no per-page or per-address caps here
    # (tools/abuse_tables.py measures those).
    store = TableStore(url, limits=Limits.off())
    groups = []
    for g, size in enumerate(sizes):
        tables = []
        for k in range(quota[g] // MOVES_PER_GAME_AT_LEAST + 2):
            made = store.create_table(
                map_id, ["human"] * size, "P1", session=f"g{g}t{k}s0", seed=1000 * g + k
            )
            seats = [
                {"table": made.table_id, "seat": 0, "token": made.token, "session": f"g{g}t{k}s0"}
            ]
            for seat in range(1, size):
                session = f"g{g}t{k}s{seat}"
                joined = store.join(made.code, f"P{seat + 1}", seat, session=session)
                seats.append(
                    {
                        "table": made.table_id,
                        "seat": seat,
                        "token": joined.token,
                        "session": session,
                    }
                )
            tables.append(seats)
        groups.append(tables)
    store.dispose()
    return groups


def player(
    service: str,
    tables: list[dict[str, Any]],
    quota: int,
    poll: float,
    seed: int,
    out: Any,
) -> None:
    """One simulated player: plays its seat at each table of its group in turn."""
    rng = random.Random(seed)
    seen: dict[tuple[int, int], float] = {}  # (table, number) -> when this player first had it
    stored: list[tuple[int, int, str, float]] = []  # (table, number, click, when) told "stored"
    double_stored = 0
    refused = Counter()
    finished = 0  # moves of this group's tables that are over
    for mine in tables:
        tables_client = TablesClient(
            HttpTransport(service, f"ttr-page {mine['pass']}", mine["session"], 10.0)
        )
        client = SeatClient(tables_client, mine["table"], seat=mine["seat"], token=mine["token"])
        while True:
            now = time.time()
            for number in client.sync():
                seen.setdefault((mine["table"], number), now)
            game = client.game
            if game.is_over or finished + len(game.history) >= quota:
                break
            if not client.my_turn:
                time.sleep(poll)
                continue
            action = rng.choice(game.legal_actions())
            number = len(game.history) + 1
            click = f"{mine['table']}:{number}:{rng.random()}"
            try:
                client.play(action)
            except StaleMoveError:
                refused["stale"] += 1
                continue
            stored.append((mine["table"], number, click, time.time()))
            if rng.random() < DOUBLE_CLICK:  # the same click again, a moment later
                try:
                    tables_client.call(
                        "play",
                        table_id=mine["table"],
                        token=mine["token"],
                        number=number,
                        action=action_to_dict(action),
                    )
                    double_stored += 1
                except TableError:  # stale, or the game it ended is over
                    refused["double click"] += 1
        finished += len(client.game.history)
        if finished >= quota:
            break
    out.put({"seen": seen, "stored": stored, "double_stored": double_stored, "refused": refused})


def run(
    url: str, label: str, players: int, tables: int, moves: int, poll: float, map_id: str
) -> str:
    sizes = seat_groups(players, tables)
    quota = [moves // tables + (1 if g < moves % tables else 0) for g in range(tables)]
    groups = prepare(url, sizes, quota, map_id)
    service = ServiceProcess(url)
    service.ensure()
    for group in groups:
        for table in group:
            for seat in table:
                seat["pass"] = service.mint(seat["session"], "127.0.0.1")
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    procs = []
    started = time.monotonic()
    cpu_before = os.times()
    for g, group in enumerate(groups):
        for seat in range(sizes[g]):
            mine = [table[seat] for table in group]
            proc = ctx.Process(
                target=player, args=(service.url, mine, quota[g], poll, 7919 * g + seat, out)
            )
            proc.start()
            procs.append(proc)
    results = [out.get(timeout=3600) for _ in procs]
    for proc in procs:
        proc.join()
    wall = time.monotonic() - started
    service.stop()
    cpu_after = os.times()
    cpu = (cpu_after.children_user + cpu_after.children_system) - (
        cpu_before.children_user + cpu_before.children_system
    )

    store = TableStore(url)
    logged: dict[tuple[int, int], int] = {}
    total = 0
    for group in groups:
        for table in group:
            table_id = table[0]["table"]
            log = store.moves(table_id)
            total += len(log)
            numbers = [m.number for m in log]
            for n in numbers:
                logged[(table_id, n)] = logged.get((table_id, n), 0) + 1
            if numbers != list(range(1, len(numbers) + 1)):
                print(f"table {table_id}: the log is not 1..n: {numbers[:10]}…")
    store.dispose()
    told = [(t, n) for r in results for t, n, _click, _at in r["stored"]]
    lost = sum(1 for key in told if key not in logged)
    duplicated = (
        sum(r["double_stored"] for r in results)
        + sum(1 for c in Counter(told).values() if c > 1)
        + sum(1 for c in logged.values() if c > 1)
    )
    stored_at = {(t, n): at for r in results for t, n, _click, at in r["stored"]}
    seen = sorted(
        max(0.0, at - stored_at[key])
        for r in results
        for key, at in r["seen"].items()
        if key in stored_at
    )
    refused = sum((r["refused"] for r in results), Counter())

    def pct(q: float) -> float:
        return 1000 * seen[min(len(seen) - 1, int(q * len(seen)))] if seen else float("nan")

    print(
        f"  {label}: {wall:.1f} s, {total / wall:.0f} moves/s, players' CPU {cpu:.1f} s, "
        f"refused clicks: {dict(refused)}, seen max {1000 * seen[-1] if seen else 0:.0f} ms"
    )
    return (
        f"tables: {players} players at {tables} tables, {total} moves, lost {lost}, "
        f"duplicated {duplicated}, seen p50 {pct(0.5):.0f} ms p95 {pct(0.95):.0f} ms ({label})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=30)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--moves", type=int, default=10_000)
    parser.add_argument(
        "--poll", type=float, default=0.25, help="seconds between polls (as a page)"
    )
    parser.add_argument("--map", default="usa")
    parser.add_argument("--stores", default="sqlite,postgresql")
    args = parser.parse_args(argv)
    lines = []
    for label in args.stores.split(","):
        if label == "sqlite":
            with tempfile.TemporaryDirectory() as folder:
                url = f"sqlite:///{Path(folder) / 'tables.sqlite'}"
                lines.append(
                    run(url, label, args.players, args.tables, args.moves, args.poll, args.map)
                )
        elif label == "postgresql":
            from pg_server import temporary_postgres

            with temporary_postgres() as url:
                lines.append(
                    run(url, label, args.players, args.tables, args.moves, args.poll, args.map)
                )
        else:
            raise SystemExit(f"unknown store {label!r} (sqlite, postgresql)")
        print(lines[-1], flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
