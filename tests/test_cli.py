"""The command line: bots play any playable map; the benchmark compares Germany with USA."""

from __future__ import annotations

from ttr_nb.cli import main


def test_play_germany_prints_the_log_and_the_score_parts(capsys):
    assert main(["play", "--map", "germany", "--players", "2", "--bots", "greedy,random"]) == 0
    out = capsys.readouterr().out
    assert "draws 4 tickets" in out and "passenger from" in out
    assert "globetrotter" in out and "passengers" in out and "Winner" in out


def test_bench_prints_germany_beside_usa_with_the_per_action_ratio(capsys):
    assert main(["bench", "--games", "2"]) == 0
    out = capsys.readouterr().out
    for line in ("Random-bot games, usa", "Random-bot games, germany", "ms per action"):
        assert line in out
    assert "germany: " in out and "× USA (" in out


def _saved_game(tmp_path, moves: int = 50, map_name: str = "usa"):
    from ttr_nb import new_game
    from ttr_nb.bots import GreedyBot

    game = new_game(map_name, 2, seed=4)
    bots = [GreedyBot(1), GreedyBot(2)]
    for _ in range(moves):
        if game.is_over:
            break
        game.apply(bots[game.current_player].choose(game))
    path = tmp_path / "game.json"
    path.write_text(game.to_json(), encoding="utf-8")
    return game, path


def test_hint_prints_plan_weak_spots_and_why(tmp_path, capsys):
    _, path = _saved_game(tmp_path)
    assert main(["hint", str(path), "--seat", "2"]) == 0
    out = capsys.readouterr().out
    for part in ("Coach for seat 2", "My plan", "Weak spots", "Why that move", "lesson:"):
        assert part in out


def test_hint_json_lists_the_routes_cards_and_tickets(tmp_path, capsys):
    import json

    game, path = _saved_game(tmp_path)
    assert main(["hint", str(path), "--seat", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    plan = data["plan"]
    assert all(r in game.map.route_by_id and r not in game.state.owner for r in plan["routes"])
    assert sum(game.map.route_by_id[r].length for r in plan["routes"]) == plan["spaces"]
    held = set(game.state.players[0].tickets)
    listed = plan["tickets_reachable"] + plan["tickets_unreachable"] + plan["tickets_completed"]
    assert {t["id"] for t in listed} == held
    assert all({"deck", "colour", "cards", "held"} <= set(c) for c in plan["cards"])
    assert data["seat"] == 1 and data["review"] is None


def test_hint_after_the_last_move_adds_the_review(tmp_path, capsys):
    game, path = _saved_game(tmp_path, moves=2000)
    assert game.is_over
    assert main(["hint", str(path), "--seat", "1"]) == 0
    assert "End-of-game review" in capsys.readouterr().out


def test_hint_refuses_a_bad_seat_or_save_with_status_2(tmp_path, capsys):
    _, path = _saved_game(tmp_path, moves=5)
    assert main(["hint", str(path), "--seat", "3"]) == 2
    assert "this game has seats 1 to 2" in capsys.readouterr().err
    assert main(["hint", str(path), "--seat", "0"]) == 2
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "ttr-nb-save/2"}', encoding="utf-8")
    assert main(["hint", str(bad), "--seat", "1"]) == 2
    assert "bad.json" in capsys.readouterr().err
    assert main(["hint", str(tmp_path / "missing.json"), "--seat", "1"]) == 2
    assert "cannot read" in capsys.readouterr().err
