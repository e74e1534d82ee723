"""Claim listing from flat tables of numbers: the compiled engine's way to list claims.

The fast path (:mod:`ttr_nb.rules.fastpath`) lists the claims open to a hand by payment
class, with memos: the quickest way in pure Python. Compiled, a plain loop over numbers
is quicker: every claim a map can ever offer (route x colour x cards of that colour, and
the wild cards alone) is built once and numbered; a call reads the hand's counts and the
route owners into lists of integers, walks the routes in map order, skips the taken,
closed and too long ones, and picks the claims the hand can pay, in the engine's order.

This module is pure Python, the one source of both builds. The compiled build (Cython,
``setup.py``) reads the C types of :func:`list_claims`'s numbers from ``claim_tables.pxd``
beside it, and the fast path uses the tables there (:data:`COMPILED`); in pure Python
(and in the browser) the fast path keeps its memos. The tests compare both with the
reference listing move by move in either build.

The tables cover the base rules' claims (:meth:`Rules.payments` as the base rules find
them, no pickups, one kind of route, at most one kind of wild card per route):
:meth:`ClaimTable.fits` tells.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Any, Protocol

from ..actions import ClaimRoute, mark_well_formed


class FastPath(Protocol):
    """What the tables read of :class:`ttr_nb.rules.fastpath.FastPath` (described here, not
    imported: the fast path imports this module)."""

    rules: Any
    card_ids: Sequence[str]
    one_kind: str | None
    rows: Sequence[Any]
    plain_payments: bool
    plain_pickups: bool
    plain_reach: bool


COMPILED = not __file__.endswith((".py", ".pyc"))
"""Whether this module runs compiled (then the fast path lists claims with its tables)."""


class ClaimTable:
    """One map's routes as one flat array of numbers, and every claim it can offer, numbered.

    ``data[RECORD * r:RECORD * (r + 1)]`` describes route ``r`` (the ``r``-th route in map
    order): its length; the number of colour cards that fit it and where their card
    numbers start in ``data`` (in the order of :attr:`Rules.fitting`); its wild card's
    number (-1: none); where its parallel routes' numbers start and end in ``data``; and
    the number of its first claim in ``universe``. For the ``j``-th colour and ``n`` cards
    of it, the claim is ``first + j * length + (length - n)``; for wild cards alone,
    ``first + colours * length``.
    """

    def __init__(self, fast: FastPath) -> None:
        rules = fast.rules
        self.card_ids = fast.card_ids
        card_number = {cid: i for i, cid in enumerate(fast.card_ids)}
        self.kind = fast.one_kind or ""
        self.closes_upto = rules.closed_parallel_max_players
        rows = fast.rows
        self.routes = len(rows)
        self.index = {row[1]: r for r, row in enumerate(rows)}
        # route id -> route number (-1: no route of this map has that id)
        self.numbers = array("l", [-1]) * (max(self.index, default=-1) + 1)
        for rid, r in self.index.items():
            self.numbers[rid] = r
        records: list[list[int]] = []
        colours: list[int] = []
        pars: list[int] = []
        universe: list[ClaimRoute] = []
        for _route, rid, length, _kind, parallel, _number in rows:
            colour_ids, wild_ids = rules.fitting[rid]
            w = wild_ids[0] if wild_ids else None
            records.append(
                [
                    length,
                    len(colour_ids),
                    len(colours),
                    card_number[w] if w is not None else -1,
                    len(pars),
                    len(pars) + len(parallel),
                    len(universe),
                ]
            )
            colours.extend(card_number[c] for c in colour_ids)
            pars.extend(self.index[p] for p in parallel)
            for cid in colour_ids:
                for n in range(length, 0, -1):
                    # As Rules.payments builds them: sorted (card, count) pairs.
                    if n == length:
                        pay = ((cid, n),)
                    elif w is None:  # never listed: no wild card pays for this route
                        pay = ((cid, length),)
                    elif cid < w:
                        pay = ((cid, n), (w, length - n))
                    else:
                        pay = ((w, length - n), (cid, n))
                    universe.append(mark_well_formed(ClaimRoute.trusted(rid, pay)))
            pay = ((w, length),) if w is not None else ((colour_ids[0], length),)
            universe.append(mark_well_formed(ClaimRoute.trusted(rid, pay)))  # (none: unused)
        # Positions in ``data``: the records first, then the colours, then the parallels.
        colours_at = RECORD * len(records)
        pars_at = colours_at + len(colours)
        for record in records:
            record[2] += colours_at
            record[4] += pars_at
            record[5] += pars_at
        self.data = array("l", [n for record in records for n in record] + colours + pars)
        self.untaken = array("l", [-1]) * len(rows)
        self.universe = universe

    @staticmethod
    def fits(fast: FastPath) -> bool:
        """Whether these tables list what the fast path lists for its rules."""
        return (
            fast.plain_payments
            and fast.plain_pickups
            and fast.plain_reach
            and fast.one_kind is not None
            and all(len(fast.rules.fitting[row[1]][1]) <= 1 for row in fast.rows)
            and all(len(fast.rules.fitting[row[1]][0]) > 0 for row in fast.rows)
        )


RECORD = 7  # numbers per route in ClaimTable.data


def list_claims(
    table: ClaimTable,
    hand: dict[str, int],
    owner: dict[int, int],
    seat: int,
    closes: bool,
    pieces: int,
) -> list[Any]:
    """The claims open to ``seat`` with ``hand`` (the same list as
    :meth:`FastPath.claims`): ``owner`` maps taken routes to seats, ``closes`` says whether
    a taken parallel route closes its twins (small games), ``pieces`` is the seat's
    pieces of the map's one kind."""
    counts = array("l", [hand[cid] for cid in table.card_ids])
    taken = table.untaken[:]
    numbers = table.numbers
    known = len(numbers)
    for rid, who in owner.items():
        if 0 <= rid < known:
            r = numbers[rid]
            if r >= 0:
                taken[r] = who
    data = table.data
    universe = table.universe
    record = RECORD
    out: list[Any] = []
    for r in range(table.routes):
        at = record * r
        need = data[at]
        if taken[r] >= 0 or pieces < need:
            continue
        blocked = False
        for i in range(data[at + 4], data[at + 5]):
            other = taken[data[i]]
            if (other >= 0) if closes else (other == seat):
                blocked = True
                break
        if blocked:
            continue
        w = data[at + 3]
        spare = counts[w] if w >= 0 else 0
        first = data[at + 6]
        start = data[at + 2]
        ncol = data[at + 1]
        for j in range(ncol):
            have = counts[data[start + j]]
            if have == 0 or have + spare < need:
                continue
            top = have if have < need else need
            low = need - spare if need - spare > 1 else 1
            for n in range(top, low - 1, -1):
                out.append(universe[first + j * need + need - n])
        if w >= 0 and spare >= need:
            out.append(universe[first + ncol * need])
    return out
