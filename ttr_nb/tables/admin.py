"""What a table's creator and the teacher may do: start, bots, free a seat, close, coach, list,
purge old tables, the store's size.

A creator's request carries the creator's token (checked against its digest in the store);
a teacher's request says ``teacher=True`` and is only made by the teacher's page, whose
server authenticates the teacher (the store cannot tell: it trusts its caller for that).
:class:`TableAdmin` is a part of :class:`~ttr_nb.tables.store.TableStore`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ..errors import SeatError, SeatTokenError, TableClosedError, TableError, UnknownTableError
from . import retention
from .codes import digest, new_code
from .faults import store_call
from .records import TableInfo, bot_name, check_bot, checked_name, not_playing
from .schema import moves_t, seats_t, tables_t

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

IDLE_S = 15 * 60.0  # a table with nothing happening this long is idle (the teacher's bulk close)


class TableAdmin:
    """The creator's and the teacher's requests (mixed into the table store)."""

    url: str
    clock: Any
    retention_s: float
    max_bytes: int

    if TYPE_CHECKING:

        def _tx(self) -> AbstractContextManager[Connection]: ...
        def _read(self) -> AbstractContextManager[Connection]: ...
        def _touch(self, conn: Connection, table_id: int) -> None: ...
        def _info(self, conn: Connection, row: Any) -> TableInfo: ...
        def _start_if_full(self, conn: Connection, table_id: int) -> None: ...

    def _creator_table(self, conn: Connection, table_id: int, creator_token: str) -> Any:
        row = conn.execute(sa.select(tables_t).where(tables_t.c.id == table_id)).first()
        if row is None:
            raise UnknownTableError("this table does not exist any more")
        if not isinstance(creator_token, str) or digest(creator_token) != row.creator:
            raise SeatTokenError("only the table's creator can do this")
        return row

    def _allowed(
        self, conn: Connection, table_id: int, creator_token: str | None, teacher: bool
    ) -> Any:
        """The table's row, when the caller is its creator or the teacher."""
        if teacher:
            row = conn.execute(sa.select(tables_t).where(tables_t.c.id == table_id)).first()
            if row is None:
                raise UnknownTableError("this table does not exist any more")
            return row
        return self._creator_table(conn, table_id, creator_token or "")

    @store_call
    def start_now(self, table_id: int, creator_token: str, bot: str = "greedy") -> None:
        """The creator starts without waiting: bots of kind ``bot`` take the free seats (also
        a seat freed during the game, :meth:`free_seat`)."""
        check_bot(bot)
        with self._tx() as conn:
            table = self._creator_table(conn, table_id, creator_token)
            free = list(
                conn.execute(
                    sa.select(seats_t.c.seat).where(
                        seats_t.c.table_id == table_id,
                        seats_t.c.kind == "human",
                        seats_t.c.name.is_(None),
                    )
                ).scalars()
            )
            if table.status != "open" and not (table.status == "playing" and free):
                raise TableClosedError(
                    "the game has already started"
                    if table.status == "playing"
                    else not_playing(table.status)
                )
            for seat in free:
                conn.execute(
                    seats_t.update()
                    .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                    .values(kind=bot, name=bot_name(bot, seat))
                )
            self._start_if_full(conn, table_id)
            self._touch(conn, table_id)

    @store_call
    def give_to_bot(self, table_id: int, creator_token: str, seat: int, kind: str) -> None:
        """The creator lets bot ``kind`` play a player's ``seat`` (its player is away) until
        :meth:`take_back`; the player keeps the seat and sees the bot's moves."""
        check_bot(kind)
        with self._tx() as conn:
            self._creator_table(conn, table_id, creator_token)
            done = conn.execute(
                seats_t.update()
                .where(
                    seats_t.c.table_id == table_id,
                    seats_t.c.seat == seat,
                    seats_t.c.kind == "human",
                    seats_t.c.name.is_not(None),
                )
                .values(stand_in=kind)
            ).rowcount
            if done != 1:
                raise SeatError(f"seat {seat + 1} has no player to stand in for")
            self._touch(conn, table_id)

    @store_call
    def take_back(self, table_id: int, creator_token: str, seat: int) -> None:
        """The seat's human plays it again (the bot that stood in stops)."""
        with self._tx() as conn:
            self._creator_table(conn, table_id, creator_token)
            conn.execute(
                seats_t.update()
                .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                .values(stand_in=None)
            )
            self._touch(conn, table_id)

    @store_call
    def free_seat(
        self,
        table_id: int,
        seat: int,
        creator_token: str | None = None,
        teacher: bool = False,
        hold_for: str | None = None,
    ) -> str | None:
        """Free a player's seat whose player never moved (a squatter, a student who left):
        its creator, or the teacher's page.

        The seat is free again for anyone to join with the table's code; its old page's
        token and seat code stop working. In a game that has started, the game waits at
        that seat until someone joins it or the creator's *Start now* puts a bot there;
        every page's game then shows the seat's new name (its moves stay as they are).

        With ``hold_for`` (a player's name) the seat is kept for that player instead: nobody
        can take it from the seat list, and the new seat code returned is what the player
        types under *Back to my seat* (with the table code) to sit there.

        Raises
        ------
        SeatError
            When the seat is a bot's, is free already, or its player has moved.
        """
        with self._tx() as conn:
            table = self._allowed(conn, table_id, creator_token, teacher)
            if table.status in ("over", "closed"):
                raise TableClosedError(not_playing(table.status))
            row = conn.execute(
                sa.select(seats_t).where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
            ).first()
            if row is None:
                raise SeatError(f"this table has no seat {seat + 1}")
            if row.kind != "human":
                raise SeatError(f"seat {seat + 1} is played by a bot")
            if row.name is None:
                raise SeatError(f"seat {seat + 1} is free already")
            moved = conn.execute(
                sa.select(sa.func.count())
                .select_from(moves_t)
                .where(moves_t.c.table_id == table_id, moves_t.c.seat == seat)
            ).scalar_one()
            if moved:
                raise SeatError(
                    f"{row.name} has moved at this table, so seat {seat + 1} stays theirs (a "
                    "bot can play it for them: Give to a bot)"
                )
            held, seat_code = None, None
            if hold_for is not None:
                held, seat_code = checked_name(hold_for), new_code()
            conn.execute(
                seats_t.update()
                .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                .values(
                    name=None,
                    token=None,
                    seat_code=digest(seat_code) if seat_code else None,
                    session=None,
                    last_seen=None,
                    stand_in=None,
                    held_for=held,
                )
            )
            self._touch(conn, table_id)
        return seat_code

    @store_call
    def close_table(
        self, table_id: int, creator_token: str | None = None, teacher: bool = False
    ) -> None:
        """Close a table (its creator, or the teacher's page): pages show it closed."""
        with self._tx() as conn:
            self._allowed(conn, table_id, creator_token, teacher)
            conn.execute(
                tables_t.update()
                .where(tables_t.c.id == table_id, tables_t.c.status != "over")
                .values(status="closed")
            )
            self._touch(conn, table_id)

    @store_call
    def set_coach(
        self, table_id: int, on: bool, creator_token: str | None = None, teacher: bool = False
    ) -> None:
        """Let the table's players open the coach, or not (a graded game): its creator, or
        the teacher's page. Every page follows at its next look."""
        with self._tx() as conn:
            self._allowed(conn, table_id, creator_token, teacher)
            conn.execute(tables_t.update().where(tables_t.c.id == table_id).values(coach=bool(on)))
            self._touch(conn, table_id)

    # ---------------------------------------------------------------- the teacher
    @store_call
    def list_tables(self, limit: int = 200) -> list[TableInfo]:
        """At most ``limit`` tables: the ones playing first, then the ones waiting for
        players, then the rest, each the most recently active first (so a class's games
        stay on the teacher's list however many empty tables someone opens)."""
        rank = sa.case(
            (tables_t.c.status == "playing", 0), (tables_t.c.status == "open", 1), else_=2
        )
        with self._read() as conn:
            rows = conn.execute(
                sa.select(tables_t).order_by(rank, tables_t.c.updated.desc()).limit(limit)
            ).all()
            return [self._info(conn, row) for row in rows]

    @store_call
    def origins(self, table_ids: list[int]) -> dict[int, str | None]:
        """The client address each table was opened from (the teacher's bulk close)."""
        if not table_ids:
            return {}
        with self._read() as conn:
            rows = conn.execute(
                sa.select(tables_t.c.id, tables_t.c.creator_address).where(
                    tables_t.c.id.in_(table_ids)
                )
            ).all()
        return {row.id: row.creator_address for row in rows}

    @store_call
    def close_many(self, which: str, address: str | None = None) -> int:
        """The teacher closes tables in bulk; returns how many.

        ``which``: ``"waiting"`` (every table still waiting for players), ``"idle"``
        (waiting or playing, with nothing happening for :data:`IDLE_S`), or ``"address"``
        (every open or playing table opened from the client ``address``). The teacher's own
        tables are left alone.
        """
        now = self.clock()
        running = tables_t.c.status.in_(("open", "playing"))
        mine = sa.or_(tables_t.c.by_teacher.is_(None), tables_t.c.by_teacher.is_(False))
        if which == "waiting":
            chosen = sa.and_(tables_t.c.status == "open", mine)
        elif which == "idle":
            chosen = sa.and_(running, mine, tables_t.c.updated < now - IDLE_S)
        elif which == "address" and address:
            chosen = sa.and_(running, mine, tables_t.c.creator_address == address)
        else:
            raise TableError("close tables that are waiting, idle, or from an address")
        with self._tx() as conn:
            ids = list(conn.execute(sa.select(tables_t.c.id).where(chosen)).scalars())
            if ids:
                conn.execute(
                    tables_t.update()
                    .where(tables_t.c.id.in_(ids))
                    .values(status="closed", version=tables_t.c.version + 1, updated=now)
                )
        return len(ids)

    @store_call
    def purge(self, now: float | None = None) -> int:
        """Delete the tables idle for longer than the retention period (finished, closed or
        abandoned), with their seats and moves; returns how many went."""
        now = self.clock() if now is None else now
        gone = 0
        while True:
            with self._tx() as conn:
                ids = retention.expired(conn, now, self.retention_s)
                gone += retention.delete_tables(conn, ids)
            if len(ids) < retention.PURGE_BATCH:
                return gone

    @store_call
    def store_size(self) -> retention.StoreSize:
        """How big the store is, and its bound (:class:`~.retention.StoreSize`;
        ``describe()`` gives a line for the teacher's page)."""
        with self._read() as conn:
            return retention.store_size(conn, self.url, self.max_bytes)
