"""The coach's figures checked against independent computations: the same questions
answered a second way (a replay move by move, an enumeration of every set of routes),
on positions of real games."""

from __future__ import annotations

import pytest

from ttr_nb import ClaimRoute, new_game
from ttr_nb.algorithms import ticket_completed
from ttr_nb.bots import GreedyBot, RandomBot, play_out
from ttr_nb.coach import review
from ttr_nb.coach.view import unavailable_to
from ttr_nb.game import Game


def _replayed_blocks(game: Game) -> dict[tuple[int, int], tuple[int, int, int]]:
    """(seat, ticket) -> (move, who, route): the game replayed claim by claim, every
    seat's final tickets checked for a line of routes it may still use after each claim
    by another seat (the first claim after which there is none made it impossible)."""
    game_map = game.map
    final = {seat: list(p.tickets) for seat, p in enumerate(game.state.players)}
    out: dict[tuple[int, int], tuple[int, int, int]] = {}
    replay = Game(game.map, game.names, game.seed)
    for number, move in enumerate(game.history, start=1):
        replay.apply(move.action)
        if not isinstance(move.action, ClaimRoute):
            continue
        for seat, tickets in final.items():
            if seat == move.player:
                continue
            closed = unavailable_to(replay, seat)
            usable = [r.ends for r in game_map.routes if r.id not in closed]
            for t in tickets:
                cities = game_map.ticket_by_id[t].cities
                joined = all(
                    ticket_completed(
                        usable,
                        game_map.targets(a),
                        game_map.targets(b),
                        dead_ends=game_map.dead_ends,
                    )
                    for a, b in zip(cities, cities[1:], strict=False)
                )
                if not joined and (seat, t) not in out:
                    out[(seat, t)] = (number, move.player, move.action.route)
    return out


@pytest.mark.parametrize(
    ("name", "players", "bot", "seed"),
    [
        ("usa", 3, RandomBot, 11),
        ("usa", 5, RandomBot, 11),  # 4 or 5 players: a double route's other track stays open
        ("germany", 2, RandomBot, 11),
        ("maerklin", 5, GreedyBot, 11),
        ("world", 3, GreedyBot, 11),
        ("world", 4, RandomBot, 12),
    ],
)
def test_review_blocked_tickets_match_a_replay_claim_by_claim(name, players, bot, seed) -> None:
    game = play_out(new_game(name, players, seed=seed), [bot(i) for i in range(players)])
    expected = _replayed_blocks(game)
    found = {}
    for row in review(game):
        for m in row.missed:
            if m.move is not None:
                found[(row.seat, m.ticket.id)] = (m.move, m.by, m.route)
    missed = {(r.seat, m.ticket.id) for r in review(game) for m in r.missed}
    assert found == {key: value for key, value in expected.items() if key in missed}
    assert found, "no ticket was blocked in this game: the check compared nothing"
