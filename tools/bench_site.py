"""Speed figures for the static site (``make site-bench``): prints, asserts nothing.

- the site's size on disk, and what a first visit to the app downloads;
- cold start (fresh browser profile) and warm start (browser cache) to a drawn board;
- time per bot move, the same seeded games in Pyodide (in Chromium) and in CPython.

Serves the site on 127.0.0.1 with Python's static file server; Chromium resolves no
other host. Needs the main environment (ttr-nb, Playwright) and Debian's chromium.
"""

from __future__ import annotations

import argparse
import json
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))  # this folder's chromium.py
from chromium import CHROMIUM, FLAGS, OFFLINE  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
CHROMIUM_FLAGS = [*FLAGS, OFFLINE]
JS_BOARD_DRAWN = """
() => {
  const c = document.querySelector('.ttr-board-canvas canvas');
  if (!c || !c.width) return false;
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let painted = 0;
  for (let i = 3; i < d.length; i += 4 * 97) if (d[i] !== 0) painted++;
  return painted > 1000;
}
"""

# Runs unchanged in CPython and in Pyodide: seeded three-player USA games, every move
# chosen by a bot and applied by the rules engine (what "Play to the end" does, less
# the drawing).
BOT_GAMES = """
import json, time
from ttr_nb import new_game
from ttr_nb.bots import make_bot

def per_move(kind, games):
    moves = 0
    start = time.perf_counter()
    for seed in range(games):
        game = new_game("usa", players=3, seed=seed)
        bots = [make_bot(kind, seed * 10 + i) for i in range(3)]
        while not game.is_over:
            game.apply(bots[game.current_player].choose(game))
            moves += 1
    return {"ms_per_move": (time.perf_counter() - start) * 1000 / moves, "moves": moves}

json.dumps({kind: per_move(kind, GAMES) for kind in ("greedy", "random")})
"""

JS_PYODIDE_BOT_GAMES = """
async ([code, indexURL]) => {
  const pyodide = await loadPyodide({indexURL});
  await pyodide.loadPackage('ttr-nb');
  return pyodide.runPython(code);
}
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


SERVED = re.compile(r'"GET (\S+) HTTP/[\d.]+" 200 ')


class Server:
    """Python's static file server on 127.0.0.1; its log tells what it sent."""

    def __init__(self, site: Path, log: Path) -> None:
        self.site = site
        self.log = log
        self.read = 0
        port = free_port()
        cmd = [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "-d", str(site)]
        with open(log, "w") as out:
            self.proc = subprocess.Popen([*cmd, str(port)], stdout=subprocess.DEVNULL, stderr=out)
        self.url = f"http://127.0.0.1:{port}/"
        for _ in range(100):
            try:
                with urllib.request.urlopen(self.url + "index.html", timeout=2):
                    return
            except OSError:
                time.sleep(0.2)
        self.proc.terminate()
        raise RuntimeError("the static file server did not start")

    def bytes_sent(self) -> int:
        """Bytes of the files sent in full since the last call (not 304 answers)."""
        text = self.log.read_text(encoding="utf-8", errors="replace")
        new, self.read = text[self.read :], len(text)
        total = 0
        for path in SERVED.findall(new):
            local = self.site / urllib.request.url2pathname(path.split("?")[0].lstrip("/"))
            if local.is_dir():
                local = local / "index.html"
            if local.is_file():
                total += local.stat().st_size
        return total

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)


def open_app(context: Any, server: Server) -> tuple[float, int]:
    """Seconds from opening the app page to a drawn board, and bytes the server sent."""
    server.bytes_sent()
    page = context.new_page()
    start = time.monotonic()
    page.goto(server.url + "voici/render/app.html", wait_until="domcontentloaded")
    page.wait_for_function(JS_BOARD_DRAWN, timeout=300_000, polling=100)
    elapsed = time.monotonic() - start
    page.close()
    return elapsed, server.bytes_sent()


def bot_games_in_pyodide(context: Any, url: str, games: int) -> dict[str, Any]:
    page = context.new_page()
    page.goto(url + "index.html")
    page.add_script_tag(url=url + "static/pyodide/pyodide.js")
    code = BOT_GAMES.replace("GAMES)", f"{games})")
    result = page.evaluate(JS_PYODIDE_BOT_GAMES, [code, url + "static/pyodide/"])
    page.close()
    return json.loads(result)


def bot_games_in_cpython(games: int) -> dict[str, Any]:
    scope: dict[str, Any] = {}
    code = BOT_GAMES.replace("GAMES)", f"{games})")
    *body, last = code.strip().splitlines()
    exec("\n".join(body), scope)
    return json.loads(eval(last, scope))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=REPO / "_site")
    parser.add_argument("--games", type=int, default=5, help="seeded games per bot kind")
    parser.add_argument("--chromium", default=CHROMIUM)
    args = parser.parse_args(argv)
    site = args.site.resolve()
    if not (site / "index.html").exists():
        print(f"no site in {site}: run `make site` first", file=sys.stderr)
        return 1

    files = [p for p in site.rglob("*") if p.is_file()]
    size = sum(p.stat().st_size for p in files)
    pyodide = sum(p.stat().st_size for p in (site / "static" / "pyodide").iterdir())
    print(f"Static site {site.name}/: {size / 2**20:.1f} MiB in {len(files)} files")
    print(f"  Pyodide runtime and packages: {pyodide / 2**20:.1f} MiB")

    with tempfile.TemporaryDirectory() as scratch:
        server = Server(site, Path(scratch) / "server.log")
        try:
            with sync_playwright() as p:
                context = p.chromium.launch_persistent_context(
                    str(Path(scratch) / "profile"),
                    executable_path=args.chromium,
                    headless=True,
                    args=CHROMIUM_FLAGS,
                )
                cold, cold_bytes = open_app(context, server)
                warm, warm_bytes = open_app(context, server)
                in_browser = bot_games_in_pyodide(context, server.url, args.games)
                context.close()
        finally:
            server.stop()
    print("App page (Voici) to a drawn board:")
    print(f"  cold (empty cache): {cold:5.1f} s, {cold_bytes / 2**20:.1f} MiB sent by the server")
    print(f"  warm (cached):      {warm:5.1f} s, {warm_bytes / 2**20:.1f} MiB sent by the server")
    native = bot_games_in_cpython(args.games)
    print(f"Bot moves, {args.games} seeded 3-player USA games per bot (engine only, no drawing):")
    for kind in ("greedy", "random"):
        web, cpy = in_browser[kind], native[kind]
        print(
            f"  {kind:6}: Pyodide {web['ms_per_move']:7.2f} ms/move, "
            f"CPython {cpy['ms_per_move']:7.2f} ms/move "
            f"({web['ms_per_move'] / cpy['ms_per_move']:.1f}x, {cpy['moves']} moves)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
