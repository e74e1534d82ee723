"""Shared tables (issues 24 and 49): the table service and its pages, on SQLite and on a real
PostgreSQL.

Every test runs on both stores: one SQLite file (the embedded default), and a PostgreSQL
server that the test session starts from Debian's package (``tools/pg_server.py``; the
fixtures are in ``tables_fixtures.py``). Pages reach the service as the app's pages do, with
their requests and answers as JSON text (over HTTP: test_table_service.py). Limits, faults,
exports and names: test_tables_*.py. Secrecy of the views: test_table_views.py.
"""

from __future__ import annotations

import re
import threading
from typing import Any

import pytest
from tables_fixtures import REPO, client, postgres_url, public, service_for, store

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
from ttr_nb.tables.remote import SeatClient
from ttr_nb.tables.store import AWAY_AFTER_S, WRONG_CODES_PER_PAGE


def three_seats(store: TableStore) -> tuple[Any, Any]:
    """A table for Ann (creator), one more human, and a greedy bot."""
    ann = client(store, "ann").create_table("usa", ["human", "human", "greedy"], "Ann")
    return ann, client(store, "ann").table(ann.code)


# ------------------------------------------------------------------ creating and joining
def test_a_table_waits_for_its_players_then_starts(store):
    ann, info = three_seats(store)
    assert info.status == "open" and info.seats[0].name == "Ann" and info.seats[1].free
    assert info.seats[2].name == "Bot 3 (greedy)"
    assert len(ann.code) == 6 and len(show_code(ann.code)) == 7
    ben = client(store, "ben").join(show_code(ann.code).lower(), "Ben", 1)
    assert ben.seat == 1 and ben.token and ben.seat_code and ben.creator_token is None
    info = client(store, "ann").table(ann.code)
    assert info.status == "playing" and info.names == ["Ann", "Ben", "Bot 3 (greedy)"]
    seat = SeatClient(client(store, "ann"), ann.table_id, seat=0, token=ann.token)
    assert seat.game.names == ["Ann", "Ben", "Bot 3 (greedy)"]
    assert seat.game.seed == 0  # the page never has the deal's seed


def test_a_deals_seed_has_128_random_bits(store):
    seeds = set()
    for i in range(20):
        made = client(store, f"p{i}").create_table("usa", ["human", "greedy"], "Ann")
        seeds.add(store.table_by_id(made.table_id).seed)
    assert len(seeds) == 20 and max(seeds) > 2**100  # 20 draws under 2**100: p ~ 2**-560


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
            client(store, f"ben-{words}").join(**kwargs)
    after = store.table(ann.code)
    assert (after.seats, after.status) == (before.seats, before.status)


def test_a_full_table_and_a_closed_table_cannot_be_joined(store):
    ann, _info = three_seats(store)
    client(store, "ben").join(ann.code, "Ben", 1)
    with pytest.raises(SeatError, match="taken"):
        client(store, "cleo").join(ann.code, "Cleo", 1)
    with pytest.raises(SeatTokenError, match="creator"):
        client(store, "mallory").close_table(ann.table_id, "not the creator's token")
    with pytest.raises(SeatTokenError, match="creator or the teacher"):
        client(store, "mallory").close_table(ann.table_id)
    client(store, "ann").close_table(ann.table_id, ann.creator_token)
    with pytest.raises(TableClosedError, match="closed"):
        client(store, "cleo").join(ann.code, "Cleo", 1)


def test_wrong_codes_are_rate_limited_per_page(store):
    ann, _info = three_seats(store)
    guesser = client(store, "guesser")
    for _ in range(WRONG_CODES_PER_PAGE):
        with pytest.raises(UnknownTableError):
            guesser.table("AAA AAA")
    with pytest.raises(TooManyAttemptsError, match="wait a minute"):
        guesser.table(ann.code)  # even the right code, for now
    assert client(store, "someone else", "192.0.2.99").table(ann.code).code == ann.code
    store.test_clock.now += 61
    assert guesser.table(ann.code).code == ann.code


def test_codes_with_look_alike_or_too_many_characters_are_wrong_codes(store):
    for typed in ("IO1L00", "", "x" * 30, "K7Q X4M ZZ"):
        with pytest.raises((UnknownTableError, TableError)):
            client(store, "p").table(typed)


# ------------------------------------------------------------------ the move log
def playing_table(store: TableStore) -> tuple[SeatClient, SeatClient]:
    ann, _info = three_seats(store)
    ben = client(store, "ben").join(ann.code, "Ben", 1)
    a = SeatClient(client(store, "ann"), ann.table_id, seat=0, token=ann.token)
    b = SeatClient(client(store, "ben"), ann.table_id, seat=1, token=ben.token)
    a.creator_token = ann.creator_token
    b.seat_code = ben.seat_code  # type: ignore[attr-defined]
    return a, b


def finish_setup(a: SeatClient, b: SeatClient) -> None:
    """Ann and Ben keep their first tickets; the table's bot keeps its own."""
    a.play(a.game.legal_actions()[0])
    b.sync()
    b.play(b.game.legal_actions()[0])
    a.sync()


def test_a_move_is_seen_by_the_other_seats(store):
    a, b = playing_table(store)
    a.play(a.game.legal_actions()[0])  # Ann keeps her first tickets
    new = b.sync()
    assert new == [1] and public(b.game) == public(a.game)
    assert b.game.log == ["Ann keeps 3 tickets"] or b.game.log[0].startswith("Ann keeps")


def test_the_bots_move_in_the_service_once_the_people_have(store):
    a, b = playing_table(store)
    finish_setup(a, b)
    log = store.moves(a.table_id)
    assert [(m.seat, m.made_by) for m in log] == [(0, "player"), (1, "player"), (2, "greedy")]
    assert a.my_turn and public(a.game) == public(b.game)


def test_a_stale_move_is_refused_and_the_page_catches_up(store):
    a, b = playing_table(store)
    finish_setup(a, b)
    assert a.my_turn
    twin = SeatClient(client(store, "ann"), a.table_id, seat=0, token=a.token)
    twin.play(DrawBlind())  # the same seat, from a page that is a move ahead
    with pytest.raises(StaleMoveError, match="the table moved on"):
        a.tables.call(
            "play",
            table_id=a.table_id,
            token=a.token,
            number=len(a.game.history) + 1,
            action={"type": "DrawBlind"},
        )
    a.sync()
    assert public(a.game) == public(twin.game)
    numbers = [m.number for m in store.moves(a.table_id)]
    assert numbers == list(range(1, len(numbers) + 1))


def test_two_clicks_racing_for_one_move_store_it_once(store):
    a, b = playing_table(store)
    finish_setup(a, b)
    twins = [SeatClient(client(store, "ann"), a.table_id, seat=0, token=a.token) for _ in range(6)]
    barrier = threading.Barrier(len(twins))
    outcomes: list[str] = []

    def click(page: SeatClient) -> None:
        barrier.wait()
        try:
            page.play(DrawBlind())
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
    assert len([m for m in log if m.number > 3 and m.seat == 0]) == outcomes.count("stored")
    b.sync()
    fresh = SeatClient(client(store, "ben"), a.table_id, seat=1, token=b.token)
    assert public(b.game) == public(fresh.game)


def test_a_move_out_of_turn_or_against_the_rules_stores_nothing(store):
    a, b = playing_table(store)
    finish_setup(a, b)
    before = len(store.moves(a.table_id))
    with pytest.raises(IllegalActionError, match="it is Ann's turn"):
        b.play(DrawBlind())
    with pytest.raises(IllegalActionError):
        a.play(DrawBlind(deck="ship"))
    with pytest.raises(IllegalActionError, match="not a move of this game"):
        a.tables.call("play", table_id=a.table_id, token=a.token, action={"type": "Nope"})
    assert len(store.moves(a.table_id)) == before


def test_a_page_cannot_move_for_another_seat_or_for_a_bot(store):
    a, b = playing_table(store)
    a.play(a.game.legal_actions()[0])
    # Ann's page sends Ben's move with her own token: the seat is hers, not his.
    with pytest.raises(IllegalActionError, match="it is Ben's turn"):
        a.tables.call("play", table_id=a.table_id, token=a.token, action={"type": "DrawBlind"})
    # No request makes a bot's move: the service alone moves the bots.
    with pytest.raises(TableError, match="no such request"):
        a.tables.call("bot_move", table_id=a.table_id)
    assert [m.seat for m in store.moves(a.table_id)] == [0]


def test_bots_move_exactly_once_however_many_pages_look(store):
    a, b = playing_table(store)
    a.play(a.game.legal_actions()[0])
    b.sync()
    watchers = [SeatClient(client(store, "ann"), a.table_id, creator_token=a.creator_token)]
    pages = [a, b, *watchers] * 3
    barrier = threading.Barrier(len(pages) + 1)

    def look(page: SeatClient) -> None:
        barrier.wait()
        page.sync(force=True)

    threads = [threading.Thread(target=look, args=(p,)) for p in pages]
    for t in threads:
        t.start()
    barrier.wait()
    b.play(b.game.legal_actions()[0])
    for t in threads:
        t.join()
    log = store.moves(a.table_id)
    assert len(log) == 3 and [m.seat for m in log] == [0, 1, 2]  # the bot kept its tickets once


def test_a_bots_reason_reaches_every_page_without_its_tickets_until_the_end(store):
    a, b = playing_table(store)
    finish_setup(a, b)
    stored = store.moves(a.table_id)[2].why
    assert stored is not None and stored["bot"] == "greedy"
    assert stored["reason"]["tickets"]  # the greedy bot kept tickets for a reason
    for page in (a, b):
        sent = page.whys[3]
        assert sent["bot"] == "greedy" and all(t < 0 for t in sent["reason"]["tickets"])
        assert len(sent["reason"]["tickets"]) == len(stored["reason"]["tickets"])
        assert sent["reason"]["routes"] == []


def test_every_bot_level_can_sit_at_a_table(store):
    made = client(store, "p").create_table("usa", ["human", "beginner", "hard"], "Ann")
    ann = SeatClient(client(store, "p"), made.table_id, seat=0, token=made.token)
    assert [s.kind for s in ann.info.seats] == ["human", "beginner", "hard"]
    ann.play(ann.game.legal_actions()[0])
    assert [m.seat for m in store.moves(made.table_id)] == [0, 1, 2]
    with pytest.raises(TableError, match="bot"):
        client(store, "p").create_table("usa", ["human", "grandmaster"], "Ann")


def test_a_database_made_before_reasons_and_deals_were_stored_gets_the_columns(tmp_path):
    import sqlalchemy as sa

    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    old = TableStore(url)
    made = old.create_table("usa", ["human", "greedy"], "Ann", session="p", seed=2)
    old.append(made.table_id, 1, 0, {"type": "DrawBlind"}, token=made.token, session="p")
    with old.engine.begin() as conn:  # as an earlier version made it
        conn.exec_driver_sql("ALTER TABLE ttr_moves DROP COLUMN why")
        conn.exec_driver_sql("UPDATE ttr_tables SET seed = 2, deal = NULL")
        conn.exec_driver_sql("ALTER TABLE ttr_tables DROP COLUMN deal")
        conn.exec_driver_sql("ALTER TABLE ttr_seats DROP COLUMN held_for")
    old.dispose()
    store = TableStore(url)
    columns = {c["name"] for c in sa.inspect(store.engine).get_columns("ttr_moves")}
    assert "why" in columns
    assert [(m.number, m.why) for m in store.moves(made.table_id)] == [(1, None)]
    assert store.table_by_id(made.table_id).seed == 2  # its old seed still deals its game
    store.dispose()


# ------------------------------------------------------------------ leaving and coming back
def test_a_reload_comes_back_to_the_seat_with_its_token(store):
    a, b = playing_table(store)
    finish_setup(a, b)
    back = client(store, "ben-reloaded").rejoin(b.token)
    assert (back.table_id, back.seat) == (b.table_id, 1)
    with pytest.raises(SeatElsewhereError, match="another tab"):
        b.heartbeat()  # the old page learns it lost the seat
    again = SeatClient(client(store, "ben-reloaded"), back.table_id, seat=1, token=b.token)
    assert public(again.game) == public(a.game)


def test_a_second_tab_takes_the_seat_and_the_first_cannot_move(store):
    a, b = playing_table(store)
    finish_setup(a, b)
    client(store, "ann-tab-2").rejoin(a.token)
    with pytest.raises(SeatElsewhereError):
        a.play(DrawBlind())
    assert len(store.moves(a.table_id)) == 3


def test_forged_and_old_tokens_are_refused(store):
    a, b = playing_table(store)
    mallory = client(store, "mallory")
    for forged in ("x" * 32, "", "short", "y" * 150):
        with pytest.raises(TableError):
            mallory.rejoin(forged)
    phone = client(store, "ben-phone").rejoin_by_code(a.info.code, b.seat_code)
    assert phone.seat == 1 and phone.token != b.token
    with pytest.raises(SeatTokenError, match="type your seat code"):
        client(store, "ben-laptop").rejoin(b.token)  # the laptop's token is replaced
    with pytest.raises(SeatTokenError, match="another device"):
        b.heartbeat()
    with pytest.raises(SeatTokenError, match="does not hold a seat"):
        b.sync(force=True)  # and it sees nothing of the seat any more
    with pytest.raises(SeatTokenError, match="no seat at this table has this seat code"):
        mallory.rejoin_by_code(a.info.code, "AAA AAA")


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
        a.tables.give_to_bot(a.table_id, "forged-token", 1, "greedy")
    a.tables.give_to_bot(a.table_id, a.creator_token, 1, "greedy")  # the bot keeps for Ben
    b.sync()
    assert not b.my_turn and b.info.seats[1].played_by_bot == "greedy"
    assert [m.made_by for m in store.moves(a.table_id)] == ["player", "greedy", "greedy"]
    a.tables.take_back(a.table_id, a.creator_token, 1)
    a.sync()
    assert a.my_turn
    a.play(DrawBlind())
    a.play(DrawBlind())
    b.sync()
    assert b.my_turn


def test_start_now_puts_bots_in_the_free_seats(store):
    ann, _info = three_seats(store)
    tables = client(store, "ann")
    with pytest.raises(SeatTokenError):
        tables.start_now(ann.table_id, "forged-token")
    tables.start_now(ann.table_id, ann.creator_token, bot="random")
    info = store.table(ann.code)
    assert info.status == "playing" and info.seats[1].kind == "random"
    with pytest.raises(TableClosedError, match="already started"):
        tables.start_now(ann.table_id, ann.creator_token)


def test_nothing_is_lost_when_every_page_goes(store):
    a, b = playing_table(store)
    finish_setup(a, b)
    a.play(DrawBlind())
    seen = public(a.game)
    table_id = a.table_id
    del a, b  # every kernel gone
    store.test_service = None  # and the service started again
    service_for(store)
    view = client(store, "teacher", teacher=True)
    rebuilt = SeatClient(view, table_id)
    assert public(rebuilt.game) == seen


def test_a_closed_table_takes_no_moves(store):
    a, b = playing_table(store)
    finish_setup(a, b)
    a.tables.close_table(a.table_id, a.creator_token)
    with pytest.raises((IllegalActionError, TableClosedError), match="not|over|closed"):
        a.play(DrawBlind())
    with pytest.raises(TableClosedError, match="closed"):
        store.append(a.table_id, 4, 0, {"type": "DrawBlind"}, token=a.token, session="ann")


def test_an_oversized_move_is_refused(store):
    a, b = playing_table(store)
    with pytest.raises(TableError, match="too long"):
        store.append(a.table_id, 1, 0, {"type": "x" * 5000}, token=a.token, session="ann")
    with pytest.raises(TableError, match="too long"):
        a.tables.call("play", table_id=a.table_id, token=a.token, action={"t": "x" * 70_000})


def test_a_finished_game_is_the_whole_game_at_every_seat(store):
    made = client(store, "ann").create_table("usa", ["human", "greedy"], "Ann")
    ann = SeatClient(client(store, "ann"), made.table_id, seat=0, token=made.token)
    while not ann.game.is_over:
        moves = ann.game.legal_actions()
        ann.play(next((m for m in moves if isinstance(m, DrawBlind)), moves[0]))
    assert type(ann.game) is Game  # the seat's game became the whole game
    assert ann.game.seed == store.table_by_id(made.table_id).seed
    saved = Game.from_json(ann.game.to_json())
    assert saved.snapshot() == ann.game.snapshot()


def test_the_tables_bench_runs_and_reports_its_line():
    """`make bench-tables`, small: players in processes of their own, through the service."""
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
    from ttr_nb.tables.results import results_csv

    teacher = client(store, "teacher", teacher=True)
    made = teacher.create_table("usa", ["greedy", "greedy"], None)  # bots only: played out
    with pytest.raises(SeatTokenError, match="only the teacher"):
        client(store, "student").results()
    rows = teacher.results()["rows"]
    game = SeatClient(teacher, made.table_id).game
    assert game.is_over
    assert [r["total"] for r in rows] == [s["total"] for s in game.scores()]
    assert [r["winner"] == "yes" for r in rows] == [i in game.winners for i in range(2)]
    text = results_csv(rows)
    header = text.splitlines()[0].split(",")
    assert header[:5] == ["table", "map", "status", "seat", "player"]
    assert {"routes", "tickets", "total", "tickets done", "tickets missed"} <= set(header)
    for seat, row in enumerate(rows):
        done = [t for t, ok in game.ticket_status(seat) if ok]
        assert row["tickets done"].count("(") == len(done)


def test_a_page_that_first_looks_at_a_finished_table_gets_the_whole_game(store):
    made = client(store, "ann").create_table("usa", ["human", "greedy"], "Ann")
    ann = SeatClient(client(store, "ann"), made.table_id, seat=0, token=made.token)
    while not ann.game.is_over:
        legal = ann.game.legal_actions()
        ann.play(next((m for m in legal if isinstance(m, DrawBlind)), legal[0]))
    watcher = SeatClient(client(store, "teacher", teacher=True), made.table_id)
    assert type(watcher.game) is Game and watcher.game.is_over
    assert watcher.game.snapshot() == ann.game.snapshot()
