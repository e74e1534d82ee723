"""Tournaments: seats rotate, results do not depend on how games are spread, intervals hold."""

from __future__ import annotations

import concurrent.futures as cf
import json
import math
import pickle
import random

import pytest

from ttr_nb import cli, new_game
from ttr_nb.bots import RandomBot, make_bot, play_out
from ttr_nb.tournament import GameRecord, mean_interval, run_tournament, wilson_interval


def lazy_bot(seed: int) -> RandomBot:
    """A module-level bot factory (factories must pickle to reach other processes)."""
    return RandomBot(seed)


class PicklingExecutor(cf.Executor):
    """Runs tasks in this process, but pickles each call and result as a remote cluster would."""

    def __init__(self) -> None:
        self.calls = 0

    def submit(self, fn, /, *args, **kwargs):
        self.calls += 1
        future: cf.Future = cf.Future()
        fn, args, kwargs = pickle.loads(pickle.dumps((fn, args, kwargs)))
        future.set_result(pickle.loads(pickle.dumps(fn(*args, **kwargs))))
        return future


def summary(result):
    return [
        (r.number, r.seed, r.winners, [(s.entrant, s.total) for s in r.seats])
        for r in result.records
    ]


def test_seats_rotate_so_every_bot_plays_every_seat_equally():
    result = run_tournament(["greedy", "random", "random"], games=9, workers=1, progress=False)
    assert result.names == ["greedy", "random #1", "random #2"]
    for entrant in range(3):
        seats = [
            seat
            for record in result.records
            for seat, s in enumerate(record.seats)
            if s.entrant == entrant
        ]
        assert sorted(seats) == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    assert [r.number for r in result.records] == list(range(9))


def test_records_are_the_games_themselves():
    result = run_tournament(["greedy", "random"], games=4, seed=10, workers=1, progress=False)
    for record in result.records:
        game = new_game("usa", players=2, seed=record.seed)
        bots = [
            make_bot(["greedy", "random"][s.entrant], record.seed * 16 + seat)
            for seat, s in enumerate(record.seats)
        ]
        play_out(game, bots)
        assert [s.score for s in record.seats] == game.scores()
        assert list(record.winners) == game.winners
        assert [list(s.routes) for s in record.seats] == [p.routes for p in game.state.players]
        assert record.turns == game.state.turn
    assert sum(row.wins for row in result.table()) == pytest.approx(4)


def test_results_do_not_depend_on_the_executor_or_the_chunks():
    bots = ["greedy", lazy_bot]
    serial = run_tournament(bots, games=8, seed=3, workers=1, progress=False)
    remote = PicklingExecutor()
    spread = run_tournament(bots, games=8, seed=3, executor=remote, chunk_size=3, progress=False)
    assert remote.calls == 3
    with cf.ThreadPoolExecutor(2) as threads:
        threaded = run_tournament(bots, games=8, seed=3, executor=threads, progress=False)
    processes = run_tournament(bots, games=8, seed=3, workers=2, chunk_size=1, progress=False)
    assert summary(serial) == summary(spread) == summary(threaded) == summary(processes)
    assert serial.names == ["greedy", "lazy_bot"]


def test_shared_wins_count_a_share_each():
    record = GameRecord(0, 0, (), (0, 1), 10)
    assert record.win_share(0) == record.win_share(1) == 0.5
    assert record.win_share(2) == 0


def test_tables_and_plot():
    pytest.importorskip("matplotlib")
    result = run_tournament(["greedy", "random"], games=6, workers=1, progress=False)
    greedy, rnd = result.table()
    assert greedy.games == rnd.games == 6 and greedy.wins + rnd.wins == pytest.approx(6)
    assert greedy.win_low <= greedy.win_rate <= greedy.win_high
    assert greedy.score_low <= greedy.mean_score <= greedy.score_high
    assert greedy.mean_score == pytest.approx(sum(result.scores(0)) / 6)
    seats = result.seat_table()
    assert [s.seat for s in seats] == [1, 2] and sum(s.wins for s in seats) == pytest.approx(6)
    text = result.to_text()
    assert "greedy" in text and "1 (first)" in text and "95% CI" in text
    assert "<table>" in result._repr_html_()
    figure = result.plot()
    assert len(figure.axes) == 2
    data = json.loads(result.to_json())
    assert data["names"] == ["greedy", "random"] and len(data["records"]) == 6


def test_a_single_game_table_shows_its_scores_without_an_interval():
    result = run_tournament(["greedy", "random"], games=1, workers=1, progress=False)
    text = result.to_text()
    scores = result.scores(0) + result.scores(1)
    assert "nan" not in text and "nan" not in result._repr_html_()
    assert all(f"{score:.1f}" in text for score in scores)


def test_progress_bar_counts_every_game(capsys):
    run_tournament(["random", "random"], games=5, workers=1, progress=True)
    err = capsys.readouterr().err
    assert "5/5" in err and "game" in err


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(bots=["greedy", "chess"]), "unknown bot"),
        (dict(bots=["greedy"]), "2 to 5 players"),
        (dict(bots=["greedy", "random"], players=3), "2 bots for 3 players"),
        (dict(bots=["greedy", "random"], games=0), "games must be"),
        (dict(bots=["greedy", 42]), "a name or a factory"),
        (dict(bots=["greedy", "random"], map="atlantis"), "cannot play 'atlantis'"),
    ],
)
def test_bad_requests_are_refused_before_any_game(kwargs, message):
    with pytest.raises(ValueError, match=message):
        run_tournament(**kwargs, workers=1, progress=False)


def test_wilson_interval_known_values_and_coverage():
    low, high = wilson_interval(0, 10)
    assert low == 0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson_interval(50, 100)
    assert (low, high) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)
    # Coverage: for p = 0.3 and n = 40 the 95 % interval holds p about 95 % of the time.
    rng = random.Random(1)
    hits = 0
    for _ in range(2000):
        k = sum(rng.random() < 0.3 for _ in range(40))
        low, high = wilson_interval(k, 40)
        hits += low <= 0.3 <= high
    assert 0.92 < hits / 2000 < 0.98


def test_mean_interval():
    mean, low, high = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5 and high - mean == pytest.approx(mean - low)
    assert high - low == pytest.approx(2 * 1.959964 * math.sqrt(5 / 3) / 2, rel=1e-5)
    assert all(math.isnan(x) for x in mean_interval([]))


def test_command_line_prints_table_and_writes_plot_and_records(tmp_path, capsys):
    plot, records = tmp_path / "plot.png", tmp_path / "games.json"
    code = cli.main(
        [
            "tournament",
            "--bots",
            "greedy,random",
            "--games",
            "4",
            "--workers",
            "1",
            "--quiet",
            "--plot",
            str(plot),
            "--json",
            str(records),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0 and "4 games on USA" in out and "greedy" in out and "(first)" in out
    assert plot.read_bytes()[:4] == b"\x89PNG"
    assert len(json.loads(records.read_text())["records"]) == 4
    with pytest.raises(SystemExit, match="unknown bot"):
        cli.main(["tournament", "--bots", "greedy,nobody", "--games", "2", "--quiet"])


def test_in_the_browser_a_pool_of_processes_is_not_asked_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Pyodide (the static site) cannot start processes: the games are played in turn."""

    def no_processes(*_: object, **__: object) -> None:
        raise AssertionError("asked for a process pool")

    expected = run_tournament(["random", "random"], games=4, seed=2, workers=1, progress=False)
    monkeypatch.setattr("sys.platform", "emscripten")
    monkeypatch.setattr(cf, "ProcessPoolExecutor", no_processes)
    result = run_tournament(["random", "random"], games=4, seed=2, workers=2, progress=False)
    assert result.records == expected.records
