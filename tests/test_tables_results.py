"""The class's results: a bot standing in for a player is recorded for grading (issue 40).

The move log records who made each move as the store saw the seat when it stored the move
(the seat's player, or the bot standing in), so the CSV counts a stand-in's moves without
guessing from who held the lease or what the bot wrote about its move.
"""

from __future__ import annotations

import csv
import io

import sqlalchemy as sa
from tables_fixtures import client, postgres_url, store

from ttr_nb.tables import TableStore
from ttr_nb.tables.remote import SeatClient
from ttr_nb.tables.results import class_results, results_csv
from ttr_nb.tables.schema import moves_t

__all__ = ["postgres_url", "store"]  # fixtures used by name


def _play_with_a_stand_in(store: TableStore) -> tuple[SeatClient, list[int]]:
    """Ann and Ben at a table with a greedy bot; Ben's seat is given to a greedy bot for a
    stretch, then back. Returns Ann's client and the numbers of the moves the stand-in
    made for Ben."""
    tables = client(store, "a")
    made = tables.create_table("usa", ["human", "human", "greedy"], "Ann")
    ben = client(store, "b").join(made.code, "Ben", 1)
    ann = SeatClient(tables, made.table_id, seat=0, token=made.token)
    bens = SeatClient(client(store, "b"), made.table_id, seat=1, token=ben.token)
    given = taken = False
    while len(ann.game.history) < 40:
        ann.sync()
        game = ann.game
        if len(game.history) >= 12 and not given:
            tables.give_to_bot(made.table_id, made.creator_token, 1, "greedy")
            given = True
            continue
        if len(game.history) >= 30 and not taken:
            tables.take_back(made.table_id, made.creator_token, 1)
            taken = True
            continue
        if game.current_player == 0:
            ann.play(game.legal_actions()[0])
        elif game.current_player == 1:
            bens.sync()
            bens.play(bens.game.legal_actions()[0])
    log = store.moves(made.table_id)
    stood_in = [m.number for m in log if m.seat == 1 and m.made_by == "greedy"]
    # Who moved is what the store saw when it stored the move: Ben's seat, given away after
    # move 12 and back after move 30.
    assert stood_in and stood_in[0] > 12 and stood_in[-1] <= 33, stood_in
    assert all(m.made_by == "player" for m in log if m.seat == 1 and m.number not in stood_in)
    return ann, stood_in


def test_a_bot_standing_in_for_a_player_is_in_the_class_results(store):
    ann, stood_in = _play_with_a_stand_in(store)
    assert len(stood_in) >= 4
    rows = class_results(store)
    ben = next(r for r in rows if r["player"] == "Ben")
    bens_moves = [m for m in store.moves(ann.table_id) if m.seat == 1]
    assert ben["kind"] == "human" and ben["stand-in moves"] == len(stood_in)
    assert ben["stand-in"].startswith(f"greedy bot made {len(stood_in)} of {len(bens_moves)}")
    # Which moves: the stretch the bot played, by the table's move numbers.
    assert ben["stand-in"].endswith(f"{stood_in[0]}–{stood_in[-1]}")
    ann_row = next(r for r in rows if r["player"] == "Ann")
    assert ann_row["stand-in moves"] == 0 and ann_row["stand-in"] == ""
    bot = next(r for r in rows if r["kind"] == "greedy")
    assert bot["stand-in"] == ""  # a bot's own seat stands in for nobody
    table = list(csv.DictReader(io.StringIO(results_csv(rows))))
    assert [r["stand-in moves"] for r in table] == ["0", str(len(stood_in)), ""]


def test_moves_stored_before_the_log_recorded_who_moved_are_not_guessed(store):
    ann, _stood_in = _play_with_a_stand_in(store)
    with store.engine.begin() as conn:  # as a store made by the version before
        conn.execute(
            moves_t.update()
            .where(moves_t.c.table_id == ann.table_id, moves_t.c.number <= 5)
            .values(made_by=sa.null())
        )
    rows = class_results(store)
    for row in rows:
        if row["kind"] == "human":
            assert row["stand-in"].startswith("not recorded") and row["stand-in moves"] == ""
