"""Limits that one visitor cannot turn against the class: wrong codes, tables, seats.

Each limited request is counted per **page** (one page's kernel, :attr:`Visitor.page`) and
per **client address** (the address the server saw, :mod:`.visitor`), never for the whole
server: a guesser who uses up their page's or their address's allowance is refused, and an
honest student on another address is not. The counts live in the store (table
``ttr_limit_events``), so they hold across reloads, kernels and servers sharing the store.

The check and the count are one transaction under one lock: SQLite's write transactions
already run one at a time (``BEGIN IMMEDIATE``), and on PostgreSQL the transaction first
takes an advisory lock (``pg_advisory_xact_lock``), so a crowd of pages asking at the same
moment cannot all pass a limit that only some of them may.

**The figures** (:class:`Limits`). A join code is one of 31⁶ = 887,503,681. With ``n`` open
tables, a guess finds one with probability n / 887,503,681, so finding one takes about
887,503,681 / (n + 1) guesses: 1.77 million with 500 open tables. One address may make 60
wrong guesses in ten minutes (20 a minute), 360 an hour, so that takes it 4,900 hours, about
200 days, on average, and the chance of finding any table within a 1-hour lesson is 0.02%
(with 30 open tables, 9 years and 0.001%). A class behind one school address (NAT) shares
the address's allowance: 60 typos in ten minutes is far more than a class makes, but
somebody on the school's own network who guesses can use it up, and then that address
waits, ten minutes at most (an hourly window locked a school out for most of an hour). A
class on JupyterHub counts per hub user instead, and behind a trusted proxy the server sees
each visitor's own address. IPv6 addresses count per /64 network (one household or machine
has a whole /64).
"""

from __future__ import annotations

import ipaddress
import zlib
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ..errors import TableError, TooManyAttemptsError
from .schema import events_t

MINUTE = 60.0
TEN_MINUTES = 600.0
HOUR = 3600.0
UNKNOWN_ADDRESS = "unknown"  # pages whose address the server did not pass on share one
_LOCK_KEY = zlib.crc32(b"ttr-nb table limits")  # pg_advisory_xact_lock's key


@dataclass(frozen=True)
class Visitor:
    """Who asks: the page (its kernel's session id) and the client address."""

    page: str
    address: str = UNKNOWN_ADDRESS


@dataclass(frozen=True)
class Limits:
    """How much one page and one address may do (0: no limit). See the module for why."""

    wrong_codes_per_page_minute: int = 8
    wrong_codes_per_page_hour: int = 30
    wrong_codes_per_address_minute: int = 20
    wrong_codes_per_address_10_minutes: int = 60
    tables_per_page_hour: int = 10
    tables_per_address_hour: int = 60
    seats_per_page_hour: int = 10
    seats_per_address_hour: int = 150
    waiting_tables_per_page: int = 3  # tables waiting for players, opened from one page
    waiting_tables_per_address: int = 10  # ... from one address (these bite long before:)
    open_tables: int = 500  # tables waiting or playing, over the whole server
    teacher_room: int = 50  # more open tables the teacher may still open past that

    @classmethod
    def off(cls) -> Limits:
        """No limit at all (benchmarks that play thousands of games from one process)."""
        return cls(**{name: 0 for name in cls.__dataclass_fields__})


def address_bucket(address: str | None) -> str:
    """What an address is counted as: IPv4 as it is, IPv6 by its /64, others as given.

    >>> address_bucket("2001:db8:1:2:aaaa::1") == address_bucket("2001:db8:1:2:bbbb::9")
    True
    >>> address_bucket("::ffff:192.0.2.7"), address_bucket(None)
    ('192.0.2.7', 'unknown')
    """
    if not address:
        return UNKNOWN_ADDRESS
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def lock(conn: Connection) -> None:
    """Serialise the limited requests (see the module): PostgreSQL's advisory lock, held
    until the transaction ends; SQLite's write transaction is serial already."""
    if conn.dialect.name == "postgresql":
        conn.execute(sa.select(sa.func.pg_advisory_xact_lock(_LOCK_KEY)))


def _count(conn: Connection, kind: str, column: sa.Column, value: str, since: float) -> int:
    return conn.execute(
        sa.select(sa.func.count())
        .select_from(events_t)
        .where(events_t.c.kind == kind, column == value, events_t.c.at >= since)
    ).scalar_one()


def over(
    conn: Connection, kind: str, who: Visitor, now: float, rules: list[tuple[str, float, int]]
) -> str | None:
    """The first rule ``who`` is at: ``(per, window_s, most)`` with ``per`` "page" or
    "address"; None when every count is below its limit."""
    for per, window, most in rules:
        if most <= 0:
            continue
        column = events_t.c.page if per == "page" else events_t.c.address
        value = who.page if per == "page" else who.address
        if _count(conn, kind, column, value, now - window) >= most:
            return per
    return None


def record(conn: Connection, kind: str, who: Visitor, now: float) -> None:
    """Count one ``kind`` event for ``who`` (and forget events older than an hour)."""
    conn.execute(events_t.delete().where(events_t.c.at < now - HOUR))
    conn.execute(
        events_t.insert().values(kind=kind, page=who.page[:64], address=who.address, at=now)
    )


def check_codes(conn: Connection, limits: Limits, who: Visitor, now: float) -> None:
    """Refuse a code check from a page or address that typed too many wrong codes."""
    hit = over(
        conn,
        "code",
        who,
        now,
        [
            ("page", MINUTE, limits.wrong_codes_per_page_minute),
            ("address", MINUTE, limits.wrong_codes_per_address_minute),
            ("page", HOUR, limits.wrong_codes_per_page_hour),
            ("address", TEN_MINUTES, limits.wrong_codes_per_address_10_minutes),
        ],
    )
    if hit is None:
        return
    minute = over(
        conn,
        "code",
        who,
        now,
        [
            ("page", MINUTE, limits.wrong_codes_per_page_minute),
            ("address", MINUTE, limits.wrong_codes_per_address_minute),
        ],
    )
    if minute:
        wait = "a minute"
    elif hit == "address":
        wait = "up to ten minutes"
    else:
        wait = "up to an hour"
    place = "this page" if hit == "page" else "this network address"
    raise TooManyAttemptsError(
        f"too many wrong codes were typed from {place} lately: wait {wait}, then check the "
        "code with the table's creator"
    )


def check_new(conn: Connection, limits: Limits, kind: str, who: Visitor, now: float) -> None:
    """Refuse a new table (``kind`` "table") or a new seat ("seat") past the hourly caps."""
    if kind == "table":
        rules = [
            ("page", HOUR, limits.tables_per_page_hour),
            ("address", HOUR, limits.tables_per_address_hour),
        ]
        what = "tables were opened"
    else:
        rules = [
            ("page", HOUR, limits.seats_per_page_hour),
            ("address", HOUR, limits.seats_per_address_hour),
        ]
        what = "seats were taken"
    hit = over(conn, kind, who, now, rules)
    if hit is not None:
        place = "this page" if hit == "page" else "this network address"
        raise TableError(
            f"too many {what} from {place} in the last hour: play at the tables you have, "
            "or wait a while"
        )
