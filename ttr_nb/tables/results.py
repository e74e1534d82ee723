"""A class's results: one row per player per table, as the teacher exports them (CSV).

Scores are the engine's own end-of-game breakdown (:meth:`~ttr_nb.game.Game.scores`), so
the parts differ by map (passengers in Germany, harbors in World ...); the CSV has a column
for every part any table has. A table still playing gives its running score and says so,
and keeps its players' tickets secret.

Examples
--------
>>> from ttr_nb.tables import TableStore
>>> from ttr_nb.tables.referee import Referee
>>> store = TableStore("sqlite://")
>>> made = store.create_table("usa", ["human", "greedy"], "Ann", session="t", seed=3)
>>> referee = Referee(store)
>>> keep = referee.view(made.table_id, 0)["legal"][0]
>>> _ = referee.play(made.table_id, 0, keep, token=made.token, session="t")
>>> rows = class_results(store, referee)
>>> [(r["player"], r["status"], r["moves"]) for r in rows]
[('Ann', 'playing', 1), ('Bot 2 (greedy)', 'playing', 1)]
>>> results_csv(rows).splitlines()[0].split(",")[:6]
['table', 'map', 'status', 'seat', 'player', 'kind']
"""

from __future__ import annotations

import csv
import io
from typing import Any

from ..errors import CorruptMoveError, TableError
from .codes import show_code
from .records import Move, TableInfo
from .referee import Referee
from .schema import PLAYER_MADE
from .store import TableStore

FIRST_COLUMNS = ["table", "map", "status", "seat", "player", "kind", "winner"]
LAST_COLUMNS = ["total", "tickets done", "tickets missed", "moves", "stand-in moves", "stand-in"]
SECRET = "(secret until the end)"  # a running game's tickets
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet reads as a formula


def class_results(
    store: TableStore,
    referee: Referee | None = None,
    limit: int = 200,
    problems: list[TableError] | None = None,
) -> list[dict[str, Any]]:
    """One row per seat of every started table (the most recently active ``limit`` tables).

    ``referee`` keeps the tables' games (the table service's own, so a refresh only
    replays the new moves). A table whose log is damaged
    (:class:`~ttr_nb.errors.CorruptMoveError`) gives no rows; its error goes to
    ``problems`` (which table, which move), and the other tables' rows are exported as
    usual.

    A game still running shows only what every player at the table sees: the running
    score (routes and the other points scored during play); which tickets a player has
    completed stays secret until the end, as it is at the table.
    """
    referee = referee or Referee(store)
    rows: list[dict[str, Any]] = []
    for info in store.list_tables(limit):
        if info.status == "open":
            continue
        try:
            info, game = referee.full_game(info.table_id)
        except CorruptMoveError as exc:
            if problems is not None:
                problems.append(exc)
            continue
        if game is None:
            continue
        stand_ins = _stand_ins(store.moves(info.table_id), info)
        result = game.result()
        winners = set(result["winners"]) if result else set()
        for seat, score in enumerate(game.scores()):
            player = game.state.players[seat]
            done = [t for t, ok in game.ticket_status(seat) if ok]
            missed = [t for t, ok in game.ticket_status(seat) if not ok]
            row: dict[str, Any] = {
                "table": show_code(info.code),
                "map": info.map,
                "status": info.status,
                "seat": seat + 1,
                "player": player.name,
                "kind": info.seats[seat].kind,
                "winner": "yes" if seat in winners else "",
            }
            row.update({part: value for part, value in score.items() if part != "total"})
            row["total"] = score["total"]
            row["tickets done"] = _tickets(game, done) if game.is_over else SECRET
            row["tickets missed"] = _tickets(game, missed) if game.is_over else SECRET
            row["moves"] = len(game.history)
            row["stand-in moves"], row["stand-in"] = stand_ins.get(seat, ("", ""))
            rows.append(row)
    return rows


def _stand_ins(moves: list[Move], info: TableInfo) -> dict[int, tuple[int | str, str]]:
    """For each player's seat: how many of its moves a bot made for the player, and which
    (``greedy bot made 31 of 63 moves: 41–71``), as the move log recorded each move when
    it was stored (:attr:`~ttr_nb.tables.records.Move.made_by`). A bot's own seat has
    none. Moves stored before the log recorded it are said to be not recorded.
    """
    out: dict[int, tuple[int | str, str]] = {}
    for seat in info.seats:
        if seat.kind != "human":
            continue
        mine = [m for m in moves if m.seat == seat.seat]
        if any(m.made_by is None for m in mine):
            out[seat.seat] = ("", "not recorded (moves stored before the log kept it)")
            continue
        by_bot = [m for m in mine if m.made_by != PLAYER_MADE]
        if not by_bot:
            out[seat.seat] = (0, "")
            continue
        kinds = sorted({m.made_by for m in by_bot if m.made_by})
        spans = _spans([(m.number, m.made_by != PLAYER_MADE) for m in mine])
        bots = " and ".join(f"{kind} bot" for kind in kinds)
        made = "made" if len(kinds) == 1 else "made together"
        out[seat.seat] = (
            len(by_bot),
            f"{bots} {made} {len(by_bot)} of {len(mine)} moves: {spans}",
        )
    return out


def _spans(flags: list[tuple[int, bool]]) -> str:
    """The moves marked True, as runs of the table's move numbers: a run is a stretch of
    the seat's own moves that a bot made, with none of the player's between.

    >>> _spans([(1, False), (4, True), (7, True), (10, False), (13, True)])
    '4–7, 13'
    """
    runs: list[list[int]] = []
    before = False
    for number, by_bot in flags:
        if by_bot:
            if before:
                runs[-1].append(number)
            else:
                runs.append([number])
        before = by_bot
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs)


def _tickets(game: Any, ids: list[int]) -> str:
    names = []
    for ticket_id in ids:
        ticket = game.map.ticket_by_id[ticket_id]
        places = " → ".join(game.map.place_name(p) for p in ticket.cities)  # as on the page
        names.append(f"{places} ({ticket.points})")
    return "; ".join(names)


def results_csv(rows: list[dict[str, Any]]) -> str:
    """The rows as CSV text: table and player first, then every score part, then totals.

    No text cell can start a spreadsheet formula: one that starts with ``=``, ``+``, ``-``,
    ``@``, a tab or a carriage return gets a leading ``'`` (numbers stay numbers).

    >>> results_csv([{"player": "=HYPERLINK(1)", "total": -3}]).splitlines()[1]
    ",,,,'=HYPERLINK(1),,,-3,,,,,"
    """
    parts: list[str] = []
    for row in rows:
        for key in row:
            if key not in FIRST_COLUMNS and key not in LAST_COLUMNS and key not in parts:
                parts.append(key)
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=FIRST_COLUMNS + parts + LAST_COLUMNS, restval="")
    writer.writeheader()
    writer.writerows({key: _cell(value) for key, value in row.items()} for row in rows)
    return out.getvalue()


def _cell(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value
