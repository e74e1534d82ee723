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
