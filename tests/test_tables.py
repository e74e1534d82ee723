"""Shared tables (issue 24): the store and its clients, on SQLite and on a real PostgreSQL.

Every test runs on both stores: one SQLite file (the embedded default), and a PostgreSQL
server that the test session starts from Debian's package (``tools/pg_server.py``; the
fixtures are in ``tables_fixtures.py``). Limits, faults, exports and names: test_tables_*.py.
"""

from __future__ import annotations

import re
import threading
from typing import Any

import pytest
from tables_fixtures import REPO, postgres_url, store

from ttr_nb import DrawBlind, Game
from ttr_nb.errors import (
    IllegalActionError,
    SeatElsewhereError,
    SeatError,
    SeatTokenError,
    StaleMoveError,
    TableClosedError,
    TableError,
    TooManyAttemptsError,
    UnknownTableError,
)
from ttr_nb.tables import TableStore, show_code
from ttr_nb.tables.client import TableClient
from ttr_nb.tables.store import AWAY_AFTER_S, WRONG_CODES_PER_PAGE


def three_seats(store: TableStore) -> tuple[Any, Any]:
    """A table for Ann (creator), one more human, and a greedy bot."""
    ann = store.create_table("usa", ["human", "human", "greedy"], "Ann", session="ann", seed=7)
    return ann, store.table(ann.code)


# ------------------------------------------------------------------ creating and joining
def test_a_table_waits_for_its_players_then_starts(store):
    ann, info = three_seats(store)
    assert info.status == "open" and info.seats[0].name == "Ann" and info.seats[1].free
    assert info.seats[2].name == "Bot 3 (greedy)"
    assert len(ann.code) == 6 and len(show_code(ann.code)) == 7
    ben = store.join(show_code(ann.code).lower(), "Ben", 1, session="ben")
    assert ben.seat == 1 and ben.token and ben.seat_code and ben.creator_token is None
    info = store.table(ann.code)
    assert info.status == "playing" and info.names == ["Ann", "Ben", "Bot 3 (greedy)"]
    client = TableClient(store, ann.table_id, seat=0, token=ann.token, session="ann")
    assert client.game.names == ["Ann", "Ben", "Bot 3 (greedy)"]
    assert client.game.seed == 7


def test_joining_is_refused_with_a_reason_and_changes_nothing(store):
    ann, _info = three_seats(store)
    before = store.table(ann.code)
    cases = [
        (UnknownTableError, dict(code="ZZZ ZZZ", name="Ben", seat=1), "no table has this code"),
        (SeatError, dict(code=ann.code, name="Ben", seat=0), "seat 1 is taken (by Ann)"),
        (SeatError, dict(code=ann.code, name="Ben", seat=2), "seat 3 is played by a bot"),
        (SeatError, dict(code=ann.code, name="Ben", seat=7), "this table has seats 1 to 3"),
        (SeatError, dict(code=ann.code, name="ann", seat=1), "already called ann"),
        (SeatError, dict(code=ann.code, name="B" * 41, seat=1), "at most 40"),
        (SeatError, dict(code=ann.code, name="  ", seat=1), "is empty"),
    ]
    for error, kwargs, words in cases:
        with pytest.raises(error, match=re.escape(words)):
            store.join(session=f"ben-{words}", **kwargs)
    after = store.table(ann.code)
    assert (after.seats, after.status) == (before.seats, before.status)


def test_a_full_table_and_a_closed_table_cannot_be_joined(store):
    ann, _info = three_seats(store)
    store.join(ann.code, "Ben", 1, session="ben")
    with pytest.raises(SeatError, match="taken"):
        store.join(ann.code, "Cleo", 1, session="cleo")
    store.close_table(ann.table_id, ann.creator_token)
    with pytest.raises(TableClosedError, match="closed"):
        store.join(ann.code, "Cleo", 1, session="cleo")
    with pytest.raises(SeatTokenError, match="creator"):
        store.close_table(ann.table_id, "not the creator's token")


def test_wrong_codes_are_rate_limited_per_page(store):
    ann, _info = three_seats(store)
    for _ in range(WRONG_CODES_PER_PAGE):
        with pytest.raises(UnknownTableError):
            store.table("AAA AAA", page="guesser")
    with pytest.raises(TooManyAttemptsError, match="wait a minute"):
        store.table(ann.code, page="guesser")  # even the right code, for now
    assert store.table(ann.code, page="someone else").code == ann.code
    store.test_clock.now += 61
    assert store.table(ann.code, page="guesser").code == ann.code


def test_codes_with_look_alike_or_too_many_characters_are_wrong_codes(store):
    for typed in ("IO1L00", "", "x" * 5000, "K7Q X4M ZZ"):
        with pytest.raises(UnknownTableError):
            store.table(typed, page="p")


# ------------------------------------------------------------------ the move log
def playing_table(store: TableStore) -> tuple[TableClient, TableClient]:
    ann, _info = three_seats(store)
    ben = store.join(ann.code, "Ben", 1, session="ben")
    a = TableClient(store, ann.table_id, seat=0, token=ann.token, session="ann")
    b = TableClient(store, ann.table_id, seat=1, token=ben.token, session="ben")
    a.creator_token = ann.creator_token  # type: ignore[attr-defined]
    b.seat_code = ben.seat_code  # type: ignore[attr-defined]
    return a, b


def finish_setup(a: TableClient, b: TableClient) -> None:
    a.play(a.game.legal_actions()[0])
    b.sync()
    b.play(b.game.legal_actions()[0])
    a.move_bots()


def test_a_move_is_seen_by_the_other_seats(store):
    a, b = playing_table(store)
    a.play(a.game.legal_actions()[0])  # Ann keeps her first tickets
    new = b.sync()
    assert [m.number for m in new] == [1] and b.game == a.game
    assert b.game.snapshot() == a.game.snapshot()


def test_a_stale_move_is_refused_and_the_page_catches_up(store):
    a, b = playing_table(store)
    finish_setup(a, b)
    assert a.my_turn
    twin = TableClient(store, a.table_id, seat=0, token=a.token, session="ann")
    twin.play(DrawBlind())  # the same seat, from a client that is a move ahead
    with pytest.raises(StaleMoveError, match="the table moved on"):
        a.store.append(
            a.table_id,
            len(a.game.history) + 0,
            0,
            {"type": "DrawBlind"},
            token=a.token,
            session="ann",
        )
    a.sync()
    assert a.game.snapshot() == twin.game.snapshot()
    numbers = [m.number for m in store.moves(a.table_id)]
    assert numbers == list(range(1, len(numbers) + 1))


def test_two_clicks_racing_for_one_move_store_it_once(store):
    a, b = playing_table(store)
    finish_setup(a, b)
    twins = [TableClient(store, a.table_id, seat=0, token=a.token, session="ann") for _ in range(6)]
    barrier = threading.Barrier(len(twins))
    outcomes: list[str] = []

    def click(client: TableClient) -> None:
        barrier.wait()
        try:
            client.play(DrawBlind())
            outcomes.append("stored")
        except StaleMoveError:
            outcomes.append("stale")
        except IllegalActionError:
            outcomes.append("illegal")  # it caught up before acting: no longer its move

    threads = [threading.Thread(target=click, args=(c,)) for c in twins]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # A draw is two actions of one turn: one or two of the racing clicks land, each once;
    # every other click was told the table moved on (or, having caught up, that it was no
    # longer Ann's move).
    assert outcomes.count("stored") in (1, 2), outcomes
    log = store.moves(a.table_id)
    assert [m.number for m in log] == list(range(1, len(log) + 1))
    assert len(log) - 3 == outcomes.count("stored")
    fresh = TableClient(store, a.table_id)
    b.sync()
    assert b.game.snapshot() == fresh.game.snapshot()


def test_a_move_out_of_turn_or_against_the_rules_stores_nothing(store):
    a, b = playing_table(store)
    finish_setup(a, b)
    before = len(store.moves(a.table_id))
    with pytest.raises(IllegalActionError, match="it is Ann's turn"):
        b.play(DrawBlind())
    with pytest.raises(IllegalActionError):
        a.play(DrawBlind(deck="ship"))
    assert len(store.moves(a.table_id)) == before


def test_bots_move_exactly_once_however_many_pages_see_their_turn(store):
    a, b = playing_table(store)
    a.play(a.game.legal_actions()[0])
    b.sync()
    b.play(b.game.legal_actions()[0])
    pages = [a, b] + [TableClient(store, a.table_id) for _ in range(4)]
    barrier = threading.Barrier(len(pages))
    made: list[int] = []

    def look(client: TableClient) -> None:
        barrier.wait()
        made.append(client.move_bots(max_moves=5))

    threads = [threading.Thread(target=look, args=(p,)) for p in pages]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    log = store.moves(a.table_id)
    assert sum(made) == 1 and len(log) == 3  # the bot kept its tickets once
    assert [m.seat for m in log] == [0, 1, 2]


def test_a_bot_lease_left_by_a_closed_page_passes_to_another(store):
    a, b = playing_table(store)
    a.play(a.game.legal_actions()[0])
    b.sync()
    b.play(b.game.legal_actions()[0])
    assert store.claim_bot_turn(a.table_id, 3, "a page that then closed", 5.0)
    assert b.move_bots() == 0  # the lease is held
    store.test_clock.now += 6
    assert b.move_bots() == 1


def test_a_bots_reason_is_stored_with_its_move_for_every_page(store):
    a, b = playing_table(store)
    a.play(a.game.legal_actions()[0])
    b.sync()
    b.play(b.game.legal_actions()[0])
    note = {"bot": "greedy", "routes": [3]}
    assert a.move_bots(explain=lambda bot, game, action: note) == 1
    log = store.moves(a.table_id)
    assert [m.why for m in log] == [None, None, note]  # people's moves carry none
    watcher = TableClient(store, a.table_id)
    assert watcher.whys == {3: note}


def test_every_bot_level_can_sit_at_a_table(store):
    made = store.create_table("usa", ["human", "beginner", "hard"], "Ann", session="p", seed=3)
    ann = TableClient(store, made.table_id, seat=0, token=made.token, session="p")
    assert [s.kind for s in ann.info.seats] == ["human", "beginner", "hard"]
    ann.play(ann.game.legal_actions()[0])
    assert ann.move_bots(max_moves=1) == 1  # the beginner keeps its tickets
    assert [m.seat for m in store.moves(made.table_id)] == [0, 1]
    with pytest.raises(TableError, match="bot"):
        store.create_table("usa", ["human", "grandmaster"], "Ann", session="p")


def test_a_database_made_before_reasons_were_stored_gets_the_column(tmp_path):
    import sqlalchemy as sa

    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    old = TableStore(url)
    made = old.create_table("usa", ["human", "greedy"], "Ann", session="p", seed=2)
    old.append(made.table_id, 1, 0, {"type": "DrawBlind"}, token=made.token, session="p")
    with old.engine.begin() as conn:  # as an earlier version made it
        conn.exec_driver_sql("ALTER TABLE ttr_moves DROP COLUMN why")
    old.dispose()
    store = TableStore(url)
    columns = {c["name"] for c in sa.inspect(store.engine).get_columns("ttr_moves")}
    assert "why" in columns
    assert [(m.number, m.why) for m in store.moves(made.table_id)] == [(1, None)]
    store.dispose()


# ------------------------------------------------------------------ leaving and coming back
def test_a_reload_comes_back_to_the_seat_with_its_token(store):
    a, b = playing_table(store)
    finish_setup(a, b)
    back = store.rejoin(b.token, session="ben-reloaded")
    assert (back.table_id, back.seat) == (b.table_id, 1)
    with pytest.raises(SeatElsewhereError, match="another tab"):
        b.heartbeat()  # the old page learns it lost the seat
    again = TableClient(store, back.table_id, seat=1, token=b.token, session="ben-reloaded")
    assert again.game.snapshot() == a.game.snapshot()


def test_a_second_tab_takes_the_seat_and_the_first_cannot_move(store):
    a, b = playing_table(store)
    finish_setup(a, b)
    store.rejoin(a.token, session="ann-tab-2")
    with pytest.raises(SeatElsewhereError):
        a.play(DrawBlind())
    assert len(store.moves(a.table_id)) == 3


def test_forged_and_old_tokens_are_refused(store):
    a, b = playing_table(store)
    for forged in ("x" * 32, "", "short", "y" * 5000):
        with pytest.raises(SeatTokenError):
            store.rejoin(forged, session="mallory")
    phone = store.rejoin_by_code(a.info.code, b.seat_code, session="ben-phone")
    assert phone.seat == 1 and phone.token != b.token
    with pytest.raises(SeatTokenError, match="type your seat code"):
        store.rejoin(b.token, session="ben-laptop")  # the laptop's token is replaced
    with pytest.raises(SeatTokenError, match="no seat at this table has this seat code"):
        store.rejoin_by_code(a.info.code, "AAA AAA", session="mallory")


def test_a_player_away_for_minutes_shows_as_away(store):
    a, b = playing_table(store)
    assert not store.table(a.info.code).seats[1].away
    store.test_clock.now += AWAY_AFTER_S + 1
    a.heartbeat()
    seats = store.table(a.info.code).seats
    assert seats[1].away and not seats[0].away and not seats[2].away


def test_the_creator_gives_a_seat_to_a_bot_and_takes_it_back(store):
    a, b = playing_table(store)
    a.play(a.game.legal_actions()[0])
    with pytest.raises(SeatTokenError, match="only the table's creator"):
        store.give_to_bot(a.table_id, "forged", 1, "greedy")
    store.give_to_bot(a.table_id, a.creator_token, 1, "greedy")
    assert a.move_bots(max_moves=1) == 1  # the bot keeps Ben's tickets for him
    b.sync()
    assert not b.my_turn and b.info.seats[1].played_by_bot == "greedy"
    store.take_back(a.table_id, a.creator_token, 1)
    a.move_bots()  # seat 3's real bot
    b.sync()
    a.sync()
    assert a.my_turn
    a.play(DrawBlind())
    a.play(DrawBlind())
    b.sync()
    assert b.my_turn


def test_start_now_puts_bots_in_the_free_seats(store):
    ann, _info = three_seats(store)
    with pytest.raises(SeatTokenError):
        store.start_now(ann.table_id, "forged")
    store.start_now(ann.table_id, ann.creator_token, bot="random")
    info = store.table(ann.code)
    assert info.status == "playing" and info.seats[1].kind == "random"
    with pytest.raises(TableClosedError, match="already started"):
        store.start_now(ann.table_id, ann.creator_token)


def test_nothing_is_lost_when_every_page_goes(store):
    a, b = playing_table(store)
    finish_setup(a, b)
    a.play(DrawBlind())
    snapshot = a.game.snapshot()
    del a, b  # every kernel gone
    rebuilt = TableClient(store, store.list_tables()[0].table_id)
    assert rebuilt.game.snapshot() == snapshot
    saved = Game.from_json(rebuilt.game.to_json())
    assert saved.snapshot() == snapshot


def test_a_closed_table_takes_no_moves(store):
    a, b = playing_table(store)
    finish_setup(a, b)
    store.close_table(a.table_id, a.creator_token)
    with pytest.raises(IllegalActionError, match="not|over|closed"):
        a.play(DrawBlind())
    with pytest.raises(TableClosedError, match="closed"):
        store.append(a.table_id, 4, 0, {"type": "DrawBlind"}, token=a.token, session="ann")


def test_an_oversized_move_is_refused(store):
    a, b = playing_table(store)
    with pytest.raises(TableError, match="too long"):
        store.append(a.table_id, 1, 0, {"type": "x" * 5000}, token=a.token, session="ann")


def test_the_tables_bench_runs_and_reports_its_line():
    """`make bench-tables`, small: players in processes of their own, through one store."""
    import subprocess
    import sys

    done = subprocess.run(
        [
            sys.executable,
            str(REPO / "tools" / "bench_tables.py"),
            "--players",
            "4",
            "--tables",
            "2",
            "--moves",
            "40",
            "--poll",
            "0.05",
            "--stores",
            "sqlite",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    last = done.stdout.strip().splitlines()[-1]
    assert last.startswith(
        "tables: 4 players at 2 tables, 40 moves, lost 0, duplicated 0, seen p50"
    )
    assert last.endswith("(sqlite)")


def test_the_class_results_give_each_players_score_parts_and_tickets(store):
    from ttr_nb.tables.results import class_results, results_csv

    made = store.create_table("usa", ["greedy", "greedy"], None, session="t", seed=5)
    table = TableClient(store, made.table_id)
    while not table.game.is_over:
        assert table.move_bots(max_moves=500) > 0
    rows = class_results(store)
    game = table.game
    assert [r["total"] for r in rows] == [s["total"] for s in game.scores()]
    assert [r["winner"] == "yes" for r in rows] == [i in game.winners for i in range(2)]
    text = results_csv(rows)
    header = text.splitlines()[0].split(",")
    assert header[:5] == ["table", "map", "status", "seat", "player"]
    assert {"routes", "tickets", "total", "tickets done", "tickets missed"} <= set(header)
    for seat, row in enumerate(rows):
        done = [t for t, ok in game.ticket_status(seat) if ok]
        assert row["tickets done"].count("(") == len(done)
