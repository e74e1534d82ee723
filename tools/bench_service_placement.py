"""Where the table service runs: inside the Voilà server's process, or a process of its own?

The service moves the tables' bots; a search bot thinks for a second of CPU per move. This
measures what a page's request to the server waits while bots think, both ways, on this
machine:

* **in the server's process** (as a Jupyter server extension would run it): a Tornado server
  answers small requests on its event loop while a search bot thinks on a thread of the same
  process (Python runs one thread at a time);
* **in a process of its own**: the same server, the bot thinking in another process.

It also times the service's own answer to a page's poll (a ``view`` request with nothing
new) over HTTP.

    python tools/bench_service_placement.py --seconds 20

Figures, not a test: the machine's load moves them. The architecture page says which was
chosen and why.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from tornado import web

sys.path.insert(0, str(Path(__file__).resolve().parent))


def think(stop: threading.Event | None = None, seconds: float = 20.0) -> int:
    """A search bot choosing moves, one after another, for ``seconds``."""
    from ttr_nb.bots import make_bot
    from ttr_nb.game import new_game

    game = new_game("usa", 3, seed=1)
    bot = make_bot("search-cpu:0.5", 3)
    moves = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end and not (stop is not None and stop.is_set()):
        if game.is_over:
            game = new_game("usa", 3, seed=moves)
        game.apply(bot.choose(game))
        moves += 1
    return moves


class Ping(web.RequestHandler):
    def get(self) -> None:
        self.finish("ok")


def measure(port: int, seconds: float, out: multiprocessing.Queue) -> None:
    """The page's side, in a process of its own: small requests, 20 a second."""
    waits = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.perf_counter()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/ping", timeout=10):
            pass
        waits.append(1000 * (time.perf_counter() - started))
        time.sleep(0.05)
    out.put(waits)


def serve_and_measure(port: int, seconds: float, bots: str) -> list[float]:
    """Serve small requests while bots think (``thread``: in the server's process;
    ``process``: in another; ``none``); returns the requests' latencies in ms."""
    stop = threading.Event()
    ctx = multiprocessing.get_context("spawn")
    worker = None
    if bots == "thread":
        worker = threading.Thread(target=think, args=(stop, seconds + 10), daemon=True)
        worker.start()
    elif bots == "process":
        worker = ctx.Process(target=think, args=(None, seconds + 10), daemon=True)
        worker.start()
    time.sleep(2)  # let the bot start thinking
    out: multiprocessing.Queue = ctx.Queue()
    client = ctx.Process(target=measure, args=(port, seconds, out))

    async def run() -> list[float]:
        app = web.Application([(r"/ping", Ping)])
        app.listen(port, "127.0.0.1")
        client.start()
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, out.get)

    waits = asyncio.run(run())
    client.join()
    stop.set()
    if bots == "process" and worker is not None:
        worker.terminate()
    return waits


def poll_latency(seconds: float) -> list[float]:
    """A page's poll of the real service (nothing new at the table), over HTTP."""
    from ttr_nb.table_service import ServiceProcess
    from ttr_nb.tables.remote import HttpTransport, TablesClient

    with tempfile.TemporaryDirectory() as folder:
        service = ServiceProcess(f"sqlite:///{Path(folder) / 't.sqlite'}")
        service.ensure()
        try:
            granted = service.mint("bench", "127.0.0.1")
            tables = TablesClient(HttpTransport(service.url, f"ttr-page {granted}", "bench", 10))
            made = tables.create_table("usa", ["human", "greedy"], "Ann")
            view = tables.call("view", table_id=made.table_id, token=made.token)
            waits = []
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                started = time.perf_counter()
                tables.call(
                    "view",
                    table_id=made.table_id,
                    token=made.token,
                    known_version=view["version"],
                )
                waits.append(1000 * (time.perf_counter() - started))
            return waits
        finally:
            service.stop()


def summary(waits: list[float]) -> dict[str, float]:
    waits = sorted(waits)
    return {
        "requests": len(waits),
        "p50_ms": round(statistics.median(waits), 1),
        "p95_ms": round(waits[int(0.95 * (len(waits) - 1))], 1),
        "max_ms": round(waits[-1], 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args(argv)
    figures = {}
    for bots, port in (("none", 18871), ("thread", 18872), ("process", 18873)):
        figures[f"server request, bots {bots}"] = summary(
            serve_and_measure(port, args.seconds, bots)
        )
        print(bots, figures[f"server request, bots {bots}"], flush=True)
    figures["service poll over HTTP"] = summary(poll_latency(args.seconds))
    print("poll", figures["service poll over HTTP"], flush=True)
    figures["command"] = f"python tools/bench_service_placement.py --seconds {args.seconds:g}"
    figures["load_average_1min"] = round(os.getloadavg()[0], 1)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
