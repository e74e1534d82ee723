"""The side-by-side benchmark with the peer engine (tools/bench_peer.py). The peer is not
shipped, so what is checked here is the part that needs no peer: refusing a folder that
is not a checkout, and the table's ratios."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parent.parent / "tools" / "bench_peer.py"


@pytest.fixture(scope="module")
def bench_peer():
    spec = importlib.util.spec_from_file_location("bench_peer", TOOL)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_a_folder_without_the_peer_is_refused_with_where_to_get_it(bench_peer, tmp_path):
    with pytest.raises(SystemExit) as refused:
        bench_peer.load_peer(tmp_path)
    assert "has no game.py" in str(refused.value)
    assert bench_peer.PEER_URL in str(refused.value)


def test_the_report_divides_games_per_second(bench_peer):
    Row = bench_peer.Row
    rows = [
        Row("ttr-nb fast path", cpu_s=1.0, games=120, turns=120 * 99, actions=120 * 155),
        Row("ttr-nb reference path", cpu_s=2.0, games=120, turns=120 * 99, actions=120 * 155),
        Row("peer, its game loop", cpu_s=10.0, games=120, turns=120 * 100),
        Row("peer, apply_action only", cpu_s=8.0, games=120, turns=120 * 100),
    ]
    text = "\n".join(bench_peer.report(rows, chunk=10))
    assert "120.00 games/s" in text and "12.00 games/s" in text
    assert "ttr-nb fast path / peer: 10.0x its game loop, 8.0x apply_action only" in text
    assert "ttr-nb reference path / peer: 5.0x its game loop, 4.0x apply_action only" in text
    assert "99.0 turns per game, 155.0 actions" in text
