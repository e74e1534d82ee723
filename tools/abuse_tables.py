"""A hostile visitor and a hung database against the table store: what gets through, how fast.

Each scenario drives the real store (a SQLite file, or a throwaway PostgreSQL server from
``tools/pg_server.py``) the way pages do, with the real clock, and prints one line:

``lockout``
    40 guesser pages on 10 addresses send ``--wrong`` wrong codes as fast as they can
    (issue 39's attack was 200 a minute), then honest pages try the right code: one on
    another address, one on a guesser's address (a class behind one NAT).
``flood``
    One page clicks *Open the table* for ``--seconds`` (then: reloading pages from one
    address, each table closed at once): tables made, and the store's size after.
``squat``
    One page takes every free seat it can, at tables of 4 opened by others.
``race``
    ``--crowd`` pages (PostgreSQL, a connection each, one address) guess at the same moment,
    5 codes each: how many checks went through, against the limit in force.
``frozen``
    The PostgreSQL server is stopped (SIGSTOP, postmaster and backends): how long a page's
    poll waits before the page has a sentence to show (at most 30 s are waited).

It runs on the code of any version of the store (it only uses what that version has), so the
same script measures before and after a change:

    python tools/abuse_tables.py                       # every scenario, both stores
    python tools/abuse_tables.py --only lockout,race --stores postgresql

Figures, not a test.
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import os
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ttr_nb.errors import TableError  # noqa: E402
from ttr_nb.tables import TableStore  # noqa: E402

HONEST_ADDRESS = "198.51.100.7"


def has_address() -> bool:
    return "address" in inspect.signature(TableStore.table).parameters


def who(address: str) -> dict[str, str]:
    return {"address": address} if has_address() else {}


def size_text(store: TableStore) -> str:
    if hasattr(store, "store_size"):
        return store.store_size().describe()
    path = store.url.removeprefix("sqlite:///")
    if store.url.startswith("sqlite") and os.path.exists(path):
        total = sum(os.path.getsize(p) for p in (path, f"{path}-wal") if os.path.exists(p))
        return f"{total / 1e6:.1f} MB on disk"
    import sqlalchemy as sa

    with store.engine.connect() as conn:
        size = conn.execute(sa.text("SELECT pg_database_size(current_database())")).scalar()
    return f"{size / 1e6:.1f} MB on disk"


def lockout(url: str, wrong: int) -> str:
    store = TableStore(url)
    made = store.create_table(
        "usa", ["human", "human"], "Ann", session="ann", **who(HONEST_ADDRESS)
    )
    checked = refused = 0
    started = time.monotonic()
    for n in range(wrong):
        try:
            store.table("AAA AAA", page=f"guesser-{n % 40}", **who(f"203.0.113.{n % 10}"))
            checked += 1
        except TableError as exc:
            if "no table has this code" in str(exc):
                checked += 1
            else:
                refused += 1
    took = time.monotonic() - started
    outcomes = []
    for label, page, address in [
        ("honest page, other address", "ben", "192.0.2.50"),
        ("honest page, a guesser's address (NAT)", "cleo", "203.0.113.1"),
    ]:
        try:
            store.table(made.code, page=page, **who(address))
            outcomes.append(f"{label}: found")
        except TableError as exc:
            outcomes.append(f"{label}: refused ({str(exc)[:40]}…)")
    store.dispose()
    return (
        f"lockout: {wrong} wrong codes from 40 pages on 10 addresses in {took:.1f} s: "
        f"{checked} checked, {refused} refused; " + "; ".join(outcomes)
    )


def flood(url: str, seconds: float, close: bool) -> str:
    store = TableStore(url)
    made = refused = 0
    reason = ""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        page = f"reload-{made + refused}" if close else "flooder"
        try:
            table = store.create_table(
                "usa", ["human", "greedy"], None, session=page, **who("203.0.113.66")
            )
            made += 1
            if close:
                store.close_table(table.table_id, table.creator_token)
        except TableError as exc:
            refused += 1
            reason = str(exc)[:60]
            time.sleep(0.01)
    honest = "honest page opens a table: "
    try:
        store.create_table("usa", ["human", "greedy"], "Ben", session="ben", **who(HONEST_ADDRESS))
        honest += "yes"
    except TableError as exc:
        honest += f"refused ({str(exc)[:50]}…)"
    size = size_text(store)
    store.dispose()
    what = "reloading pages of one address, each table closed at once" if close else "one page"
    return (
        f"flood ({what}, {seconds:g} s): {made} tables made, {refused} refused"
        + (f" ({reason}…)" if reason else "")
        + f"; {honest}; store: {size}"
    )


def squat(url: str) -> str:
    store = TableStore(url)
    tables = [
        store.create_table("usa", ["human"] * 4, None, session=f"host-{n}", **who(HONEST_ADDRESS))
        for n in range(4)
    ]
    taken = refused = 0
    started = time.monotonic()
    for table in tables:
        for seat in range(4):
            try:
                name = f"Sam{taken}"
                store.join(table.code, name, seat, session="squatter", **who("203.0.113.9"))
                taken += 1
            except TableError:
                refused += 1
    took = time.monotonic() - started
    free = sum(s.free for t in tables for s in store.table_by_id(t.table_id).seats)
    freed = ""
    if hasattr(store, "free_seat"):
        first = store.table_by_id(tables[0].table_id)
        for s in first.seats:
            if s.name is not None:
                store.free_seat(first.table_id, s.seat, creator_token=tables[0].creator_token)
        freed = "; the creator freed the squatted seat"
    store.dispose()
    return (
        f"squat: one page tried all 16 free seats of 4 tables in {took:.2f} s: took {taken}, "
        f"refused {refused}; {free} seats left free{freed}"
    )


def race(url: str, crowd: int) -> str:
    stores = [TableStore(url) for _ in range(crowd)]
    barrier = threading.Barrier(crowd)
    counts: list[int] = []

    def page(n: int) -> None:
        checked = 0
        barrier.wait()
        for _ in range(5):
            try:
                stores[n].table("AAA AAA", page=f"crowd-{n}", **who("203.0.113.77"))
                checked += 1
            except TableError as exc:
                checked += "no table has this code" in str(exc)
        counts.append(checked)

    threads = [threading.Thread(target=page, args=(n,)) for n in range(crowd)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for s in stores:
        s.dispose()
    limit = "20 a minute per address" if has_address() else "200 a minute for the server"
    return (
        f"race: {crowd} pages guessing at once, 5 codes each ({5 * crowd}): "
        f"{sum(counts)} checked, limit {limit}"
    )


@contextlib.contextmanager
def stopped(url: str) -> Iterator[None]:
    import psutil

    folder = Path(url.split("host=", 1)[1].split("&", 1)[0])
    pid = int((folder / "data" / "postmaster.pid").read_text().split()[0])
    procs = [psutil.Process(pid), *psutil.Process(pid).children(recursive=True)]
    for p in procs:
        p.send_signal(signal.SIGSTOP)
    try:
        yield
    finally:
        for p in procs:
            with contextlib.suppress(psutil.NoSuchProcess):
                p.send_signal(signal.SIGCONT)


def frozen(url: str) -> str:
    try:
        from ttr_nb.tables.store import open_store

        store = open_store(lambda: TableStore(url))
    except ImportError:
        store = TableStore(url)
    made = store.create_table("usa", ["human", "greedy"], "Ann", session="ann")
    store.version(made.table_id)
    box: list[Any] = []

    def poll(into: list[Any]) -> None:
        try:
            into.append(store.version(made.table_id))
        except Exception as exc:  # noqa: BLE001 - what the page would be told
            into.append(exc)

    lines = []
    with stopped(url):
        for label in ("first poll", "next poll"):
            box = []
            started = time.monotonic()
            thread = threading.Thread(target=poll, args=(box,), daemon=True)
            thread.start()
            thread.join(30)
            took = time.monotonic() - started
            if box and isinstance(box[0], Exception):
                lines.append(f"{label}: a sentence after {took:.1f} s ({str(box[0])[:60]})")
            elif box:
                lines.append(f"{label}: answered after {took:.1f} s")
            else:
                lines.append(f"{label}: no answer, no message after {took:.0f} s")
                break
    started = time.monotonic()
    while True:
        box = []
        poll(box)
        if not isinstance(box[0], Exception) or time.monotonic() - started > 60:
            break
        time.sleep(0.2)
    lines.append(f"after SIGCONT, polls answer again in {time.monotonic() - started:.1f} s")
    return "frozen PostgreSQL: " + "; ".join(lines)


def with_store(label: str, run: Callable[[str], str]) -> str:
    if label == "sqlite":
        with tempfile.TemporaryDirectory() as folder:
            return f"[{label}] " + run(f"sqlite:///{Path(folder) / 'tables.sqlite'}")
    from pg_server import temporary_postgres

    with temporary_postgres() as url:
        return f"[{label}] " + run(url)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="lockout,flood,squat,race,frozen")
    parser.add_argument("--stores", default="sqlite,postgresql")
    parser.add_argument("--wrong", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--crowd", type=int, default=50)
    args = parser.parse_args(argv)
    chosen = args.only.split(",")
    for label in args.stores.split(","):
        if "lockout" in chosen:
            print(with_store(label, lambda url: lockout(url, args.wrong)), flush=True)
        if "flood" in chosen:
            print(with_store(label, lambda url: flood(url, args.seconds, False)), flush=True)
            print(with_store(label, lambda url: flood(url, args.seconds / 3, True)), flush=True)
        if "squat" in chosen:
            print(with_store(label, squat), flush=True)
        if "race" in chosen and label == "postgresql":
            print(with_store(label, lambda url: race(url, args.crowd)), flush=True)
        if "frozen" in chosen and label == "postgresql":
            print(with_store(label, frozen), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
