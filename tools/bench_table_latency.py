"""How soon a move at a shared table is seen at the other seat, in real Chromium pages.

``make app``'s Voilà server (with the repository's voila.json: the table service starts with
it) on a free port of 127.0.0.1, a temporary SQLite store, and two Chromium profiles: Ann
opens a table of two seats, Ben joins it by its code. Then whoever's turn it is draws a card
from the deck; the clock runs from the mover's click to the moment the other page's move
count shows the move. Both pages poll the table as every page does (every 0.4 s).

    python tools/bench_table_latency.py --moves 60 --json results/bench/table-latency.json

Figures, not a test: the machine's load moves them. The goal (issue 49): p95 at most 1 s.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright import sync_api

sys.path.insert(0, str(Path(__file__).resolve().parent))
from chromium import CHROMIUM, FLAGS  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
PAINTED = """() => { const c = document.querySelector('.ttr-board-canvas canvas');
  return !!c && c.width > 0; }"""
TOTAL = """() => Number(document.querySelector('.ttr-status-box [data-total]')
  ?.getAttribute('data-total') || 0)"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url: str, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=2):
            return
        time.sleep(0.3)
    raise SystemExit(f"the server did not answer at {url}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="ttr-latency-"))
    port = free_port()
    env = dict(os.environ, TTR_TABLES_URL=f"sqlite:///{folder / 'tables.sqlite'}")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "voila",
            "notebooks/app.ipynb",
            "--no-browser",
            "--Voila.ip=127.0.0.1",
            f"--port={port}",
            "--ClassroomKernelManager.warm_kernels=2",
        ],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}/"
    seen: list[float] = []
    try:
        wait_http(f"{url}voila/static/voila.js")
        with sync_api.sync_playwright() as p:
            contexts = [
                p.chromium.launch_persistent_context(
                    str(folder / f"profile-{i}"),
                    executable_path=CHROMIUM,
                    headless=True,
                    args=FLAGS,
                    viewport={"width": 1366, "height": 768},
                )
                for i in range(2)
            ]
            ann, ben = (c.new_page() for c in contexts)
            for page in (ann, ben):
                page.goto(url, wait_until="domcontentloaded", timeout=90_000)
                page.wait_for_function(PAINTED, timeout=90_000)
            for page in (ann, ben):
                if not page.locator(".ttr-table-open").is_visible():
                    page.locator(".ttr-tables").get_by_text("Play with others").click()
            ann.locator(".ttr-table-seats select").select_option(label="2")
            ann.locator(".ttr-table-creator-name input").fill("Ann")
            ann.locator(".ttr-table-creator-name input").press("Enter")
            ann.locator(".ttr-table-open").click()
            ann.locator(".ttr-table-code b").wait_for(timeout=60_000)
            code = ann.locator(".ttr-table-code b").inner_text()
            ben.locator(".ttr-table-join-code input").fill(code)
            ben.locator(".ttr-table-join-name input").fill("Ben")
            ben.locator(".ttr-table-join-name input").press("Enter")
            ben.locator(".ttr-table-find").click()
            ben.locator(".ttr-table-sit-1").click()
            pages = {"Ann": ann, "Ben": ben}
            for page in pages.values():  # both keep their first tickets
                page.wait_for_function(
                    "() => document.querySelector('.ttr-table-turn')?.innerText.includes('turn')",
                    timeout=60_000,
                )
            for name in ("Ann", "Ben"):
                page = pages[name]
                page.locator("button.ttr-keep").wait_for(timeout=60_000)
                boxes = page.locator(".ttr-offer .widget-checkbox input")
                for i in range(boxes.count()):
                    boxes.nth(i).check()
                page.locator("button.ttr-keep:enabled").click()
                other = pages["Ben" if name == "Ann" else "Ann"]
                other.wait_for_function(f"() => ({TOTAL})() >= {1 if name == 'Ann' else 2}")
            while len(seen) < args.moves:
                mover = next(
                    (
                        p
                        for p in pages.values()
                        if p.locator("button.ttr-draw-blind:enabled").count()
                    ),
                    None,
                )
                if mover is None:
                    ann.wait_for_timeout(100)
                    continue
                other = ben if mover is ann else ann
                before = mover.evaluate(TOTAL)
                started = time.monotonic()
                mover.locator("button.ttr-draw-blind:enabled").click()
                other.wait_for_function(f"() => ({TOTAL})() > {before}", polling=20, timeout=30_000)
                seen.append(1000 * (time.monotonic() - started))
                mover.wait_for_function(f"() => ({TOTAL})() > {before}", timeout=30_000)
            for context in contexts:
                context.close()
    finally:
        os.killpg(server.pid, 15)
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(20)
    seen.sort()
    figures = {
        "moves": len(seen),
        "seen_p50_ms": round(statistics.median(seen)),
        "seen_p95_ms": round(seen[int(0.95 * (len(seen) - 1))]),
        "seen_max_ms": round(seen[-1]),
        "command": "python tools/bench_table_latency.py --moves " + str(args.moves),
        "load_average_1min": round(os.getloadavg()[0], 1),
    }
    print(
        f"table latency: {figures['moves']} moves, seen at the other seat p50 "
        f"{figures['seen_p50_ms']} ms, p95 {figures['seen_p95_ms']} ms, "
        f"max {figures['seen_max_ms']} ms"
    )
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
