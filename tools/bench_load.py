"""Load benchmark: N real Chromium visitors open the Voilà app; how many see a drawn board, when.

    python tools/bench_load.py --visitors 30 --spread 30      # what `make bench-load` runs
    python tools/bench_load.py --visitors 10 --spread 0       # ten at once
    python tools/bench_load.py --voila-arg=--ClassroomKernelManager.max_loading=6

Starts its own Voilà server on 127.0.0.1 (``make app``'s command, same ``voila.json``), waits
until it is idle (its warm kernels are ready), then opens one Chromium page per visitor,
visitor ``i`` arriving at ``spread * i / (N - 1)`` seconds. Chromium resolves no host but
127.0.0.1, as in a classroom without internet: any request for another host is counted.

For each visitor it records what the page shows every half second: the app's first screen
(where it clicks *Play against bots*, as a visitor does: the board is built then), the board
(canvas pixels painted, not just a <canvas>), the "busy, retrying" page, the start-up
message, an error, or nothing at all (blank). It prints a summary line per run (the
capacity table's columns), the server's memory and CPU per visitor, and writes every figure
to ``--json``.

Bounded in time: every visitor gives up after ``--timeout`` seconds; the whole run after
spread + timeout + 60 s. The browser, the Voilà server and its kernels are always stopped.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))  # this folder's chromium.py
from chromium import CHROMIUM, FLAGS, OFFLINE  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
CHROMIUM_FLAGS = [
    *FLAGS,
    OFFLINE,
    # Background tabs must not be throttled: every visitor is in front of their own screen.
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
]
VIEWPORT = {"width": 1366, "height": 768}
POLL_S = 0.5
BLANK_LIMIT_S = 3.0  # a page showing nothing for longer than this counts as a blank page

# What the visitor sees right now, in one word. Cheap on purpose: it forces no style or
# layout work (no innerText, no getClientRects), so 30 pages polled twice a second cost the
# browsers next to nothing. Every notice of the "ttr" template is removed once it is no longer
# shown, so being on the page means being visible.
JS_STATE = """
() => {
  const app = document.querySelector('.ttr-app');
  const first = document.querySelector('.ttr-first-screen');  // the board waits behind it
  if (first && first.offsetParent !== null) return 'first screen';
  const c = app && document.querySelector('.ttr-board-canvas canvas');
  if (c && c.width) {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let painted = 0;
    for (let i = 3; i < d.length; i += 4 * 97) if (d[i] !== 0) painted++;
    if (painted > 1000) return 'board';
  }
  const text = document.body ? document.body.textContent : '';
  if (/Traceback \\(most recent call last\\)|There was an error when executing cell/.test(text))
    return 'error';
  if (document.querySelector('.ttr-busy')) return 'busy';
  if (document.querySelector('.ttr-starting')) return 'starting';
  if (document.querySelector('.ttr-notice')) return 'error';  // the template's error notices
  const loading = document.getElementById('loading');  // Voilà's own template
  if (loading && loading.style.display !== 'none') return 'starting';
  if (app || document.querySelector('#rendered_cells .jupyter-widgets')) return 'app';
  // No <body> yet: the browser is still on its own loading screen (its tab spinner turns).
  if (!document.body) return 'waiting';
  return 'blank';  // a page, but no message and no app: what a visitor must never be left with
}
"""


# When the HTML began and finished arriving, and the template's marks (seconds since the
# navigation started): where a slow visit spent its time.
JS_MILESTONES = """
() => {
  const out = {};
  const nav = performance.getEntriesByType('navigation')[0];
  if (nav) { out.first_byte = nav.responseStart / 1000; out.html_done = nav.responseEnd / 1000; }
  for (const m of performance.getEntriesByType('mark')) out[m.name] = m.startTime / 1000;
  out.board = performance.now() / 1000;
  return out;
}
"""


# ---------------------------------------------------------------------- server
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tree(pid: int) -> list[psutil.Process]:
    """The process and all its descendants (Voilà's kernels are its children)."""
    try:
        root = psutil.Process(pid)
        return [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def kernels_of(pid: int) -> list[psutil.Process]:
    found = []
    for proc in tree(pid)[1:]:
        with contextlib.suppress(psutil.Error):
            if "ipykernel" in " ".join(proc.cmdline()):
                found.append(proc)
    return found


def kernel_ids(server_pid: int) -> dict[int, str]:
    """Each kernel process's kernel id. A started kernel names its connection file on its
    command line; a kernel forked from the template (ttr_nb.kernel_fork) does not, and is
    known by the shell port it listens on, which its connection file names."""
    found: dict[int, str] = {}
    ports: dict[int, int] = {}
    for proc in kernels_of(server_pid):
        with contextlib.suppress(psutil.Error, StopIteration):
            name = next(a for a in proc.cmdline() if a.endswith(".json"))
            found[proc.pid] = Path(name).stem.removeprefix("kernel-")
            continue
        with contextlib.suppress(psutil.Error):
            for conn in proc.net_connections(kind="tcp"):
                if conn.status == psutil.CONN_LISTEN:
                    ports[conn.laddr.port] = proc.pid
    if ports:
        for folder in Path(tempfile.gettempdir()).glob("voila_*"):
            for file in folder.glob("kernel-*.json"):
                with contextlib.suppress(OSError, ValueError, KeyError):
                    pid = ports.get(json.loads(file.read_text())["shell_port"])
                    if pid is not None:
                        found[pid] = file.stem.removeprefix("kernel-")
    return found


class Server:
    """Voilà on 127.0.0.1 in a session of its own, as ``make app`` starts it; ``wrap``
    prefixes the command (e.g. ``taskset -c 0``: the server and its kernels on one core)."""

    def __init__(
        self, notebook: str, extra_args: list[str], log: Path, wrap: list[str] | None = None
    ) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.log = log
        cmd = [
            *(wrap or []),
            sys.executable,
            "-m",
            "ttr_nb.voila_server",  # make app's server: Voilà with the app's additions
            notebook,
            "--no-browser",
            "--Voila.ip=127.0.0.1",
            f"--port={self.port}",
            *extra_args,
        ]
        with open(log, "w") as out:
            self.proc = subprocess.Popen(
                cmd,
                cwd=REPO,  # voila.json at the repository root configures the server
                stdout=out,
                stderr=subprocess.STDOUT,
                env=dict(os.environ, PYTHONUNBUFFERED="1"),
                start_new_session=True,
            )

    def wait_ready(self, timeout: float) -> None:
        """Poll a static file (a GET on "/" would start a kernel)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"voila exited with {self.proc.returncode}; see {self.log}")
            try:
                with urllib.request.urlopen(self.url + "voila/static/voila.js", timeout=2) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.2)
        raise TimeoutError(f"voila did not answer within {timeout} s")

    def wait_idle(self, timeout: float, busy_share: float = 0.1) -> float:
        """Wait until the warm kernels are ready (ttr_nb.serving logs when it keeps some, and
        when they are ready) and the server and its kernels have used less than
        ``busy_share`` of a core for 3 s in a row; return the seconds waited."""
        started = time.monotonic()
        quiet = 0
        while time.monotonic() - started < timeout:
            before = cpu_seconds(tree(self.proc.pid))
            time.sleep(1.0)
            quiet = quiet + 1 if cpu_seconds(tree(self.proc.pid)) - before < busy_share else 0
            log = self.log.read_text(errors="replace")
            pool_ready = "warm kernels ready" in log or "Keeping " not in log
            if quiet >= 3 and pool_ready:
                break
        return time.monotonic() - started

    def stop(self) -> None:
        """SIGTERM our session (Voilà shuts its kernels down), then SIGKILL what is left."""
        leftovers = tree(self.proc.pid)
        for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                break
            try:
                self.proc.wait(timeout=wait)
                break
            except subprocess.TimeoutExpired:
                continue
        for proc in leftovers:  # kernels run in sessions of their own
            with contextlib.suppress(psutil.Error):
                proc.kill()


def cpu_seconds(procs: list[psutil.Process]) -> float:
    total = 0.0
    for proc in procs:
        with contextlib.suppress(psutil.Error):
            t = proc.cpu_times()
            total += t.user + t.system
    return total


# --------------------------------------------------------------------- sampler
@dataclass
class Sample:
    t: float
    server_rss_mb: float
    kernels: int
    voila_cpu_s: float = 0.0  # cumulative CPU seconds so far, for utilisation over time
    kernels_cpu_s: float = 0.0
    browser_cpu_s: float = 0.0


class Sampler(threading.Thread):
    """Samples the server's memory every half second and remembers the CPU time of every
    process it has seen (a kernel that exits keeps its last figure)."""

    def __init__(self, server_pid: int, t0: float) -> None:
        super().__init__(daemon=True)
        self.server_pid, self.t0 = server_pid, t0
        self.samples: list[Sample] = []
        self.cpu: dict[tuple[str, int], float] = {}
        self.stopping = threading.Event()
        self.voila_start: float | None = None

    def run(self) -> None:
        me = psutil.Process()
        while not self.stopping.is_set():
            server = tree(self.server_pid)
            server_pids = {p.pid for p in server}
            rss, kernels = 0, 0
            for proc in server:
                with contextlib.suppress(psutil.Error):
                    rss += proc.memory_info().rss
                    if "ipykernel" in " ".join(proc.cmdline()):
                        kernels += 1
            self._cpu("voila", server[:1])
            if self.voila_start is None:  # Voilà's own start-up is not a visitor's cost
                self.voila_start = self.cpu_total("voila")
            self._cpu("kernels", server[1:])
            browser = [p for p in me.children(recursive=True) if p.pid not in server_pids]
            self._cpu("browser", browser)
            self.samples.append(
                Sample(
                    time.monotonic() - self.t0,
                    rss / 2**20,
                    kernels,
                    self.cpu_total("voila"),
                    self.cpu_total("kernels"),
                    self.cpu_total("browser"),
                )
            )
            self.stopping.wait(POLL_S)

    def _cpu(self, kind: str, procs: list[psutil.Process]) -> None:
        for proc in procs:
            with contextlib.suppress(psutil.Error):
                t = proc.cpu_times()
                self.cpu[(kind, proc.pid)] = t.user + t.system

    def cpu_total(self, kind: str) -> float:
        """CPU seconds of every process of this kind seen (Voilà's: since sampling began;
        kernels': since they started, as a warm kernel was started for a visitor)."""
        total = sum(v for (k, _), v in self.cpu.items() if k == kind)
        return total - (self.voila_start or 0.0) if kind == "voila" else total


def memory_detail(server_pid: int) -> dict[str, Any]:
    """RSS and PSS (shared pages split between processes) of the server and each kernel."""
    server, kernels = [], []
    for proc in tree(server_pid):
        with contextlib.suppress(psutil.Error):
            info = proc.memory_full_info()
            entry = {"pid": proc.pid, "rss_mb": info.rss / 2**20, "pss_mb": info.pss / 2**20}
            is_kernel = "ipykernel" in " ".join(proc.cmdline())
            (kernels if is_kernel else server).append(entry)
    return {"server": server, "kernels": kernels}


# --------------------------------------------------------------------- visitor
@dataclass
class Visit:
    index: int
    arrival_s: float
    first_screen_s: float | None = None  # seconds from arrival to the first screen
    board_s: float | None = None  # seconds from arrival to a drawn board
    first_byte_s: float | None = None
    states: list[tuple[float, str]] = field(default_factory=list)  # changes of what is seen
    busy_s: float = 0.0
    longest_blank_s: float = 0.0
    error: str = ""
    milestones: dict[str, float] = field(default_factory=dict)  # page's own clock, s
    warnings: list[str] = field(default_factory=list)
    offsite_requests: list[str] = field(default_factory=list)


async def visit(
    browser: Any, base_url: str, v: Visit, t0: float, timeout: float, contexts: list[Any]
) -> None:
    """One visitor: open the page at the arrival time and watch it until the board is drawn.

    The page stays open (closing it lets Voilà shut the kernel down): memory is measured
    with every visitor connected, and the caller closes ``contexts`` at the end."""
    await asyncio.sleep(max(0.0, t0 + v.arrival_s - time.monotonic()))
    arrived = time.monotonic()
    context = await browser.new_context(viewport=VIEWPORT)
    contexts.append(context)
    try:
        page = await context.new_page()
        page.on(
            "console",
            lambda m: (
                v.warnings.append(m.text[:160])
                if m.type in ("warning", "error")
                and "Unsatisfied version" in m.text
                or "No satisfying version" in m.text
                else None
            ),
        )
        page.on(
            "request",
            lambda r: (
                v.offsite_requests.append(r.url)
                if not r.url.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:"))
                else None
            ),
        )
        navigation = asyncio.ensure_future(
            page.goto(base_url, wait_until="commit", timeout=timeout * 1000)
        )
        last, blank_since = "", None
        while time.monotonic() - arrived < timeout:
            now = time.monotonic() - arrived
            if navigation.done() and v.first_byte_s is None and not navigation.exception():
                v.first_byte_s = now
            try:
                state = await page.evaluate(JS_STATE) if v.first_byte_s is not None else "waiting"
            except Exception:  # navigating (a retry reloads the page)
                state = "navigating"
            if state != last:
                v.states.append((round(now, 2), state))
                last = state
            if state == "first screen" and v.first_screen_s is None:
                v.first_screen_s = now  # the visitor chooses Play against bots
                with contextlib.suppress(Exception):
                    await page.click("button.ttr-first-bots", timeout=10_000)
            if state == "busy":
                v.busy_s += POLL_S
            if state == "blank":
                blank_since = now if blank_since is None else blank_since
                v.longest_blank_s = max(v.longest_blank_s, now - blank_since)
            else:
                blank_since = None
            if state == "board":
                v.board_s = now
                with contextlib.suppress(Exception):
                    v.milestones = await page.evaluate(JS_MILESTONES)
                break
            if state == "error":
                v.error = "an error on the page"
                break
            await asyncio.sleep(POLL_S)
        else:
            v.error = f"no board within {timeout:.0f} s (last seen: {last})"
        if not navigation.done():
            navigation.cancel()
        with contextlib.suppress(BaseException):
            await navigation
    except Exception as exc:  # the visitor failed; the run goes on
        v.error = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
    finally:
        v.offsite_requests = sorted(set(v.offsite_requests))


async def run_visitors(
    url: str, visits: list[Visit], timeout: float, server_pid: int, browser_nice: int = 0
) -> dict[str, Any]:
    """Run every visit; measure the server's memory while every page is still open."""
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS
        )
        if browser_nice:
            # Pages' processes are forked from these, and inherit their priority.
            for proc in psutil.Process().children(recursive=True):
                with contextlib.suppress(psutil.Error):
                    if "chromium" in proc.name() and proc.pid not in {
                        q.pid for q in tree(server_pid)
                    }:
                        proc.nice(browser_nice)
        contexts: list[Any] = []
        try:
            t0 = time.monotonic()
            await asyncio.gather(*(visit(browser, url, v, t0, timeout, contexts) for v in visits))
            done = time.monotonic() - t0
            memory = await asyncio.to_thread(memory_detail, server_pid)
            return {"all_done_s": done, "memory": memory}
        finally:
            for context in contexts:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(context.close(), 10)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(browser.close(), 20)


# --------------------------------------------------------------------- report
def quantile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def fmt(value: float | None, unit: str = "s") -> str:
    return "—" if value is None else f"{value:.1f} {unit}"


def summarise(
    visits: list[Visit], sampler: Sampler, memory: dict[str, Any], baseline_mb: float, spread: float
) -> dict[str, Any]:
    boards = [v.board_s for v in visits if v.board_s is not None]
    firsts = [v.first_screen_s for v in visits if v.first_screen_s is not None]
    n = len(visits)
    peak = max((s.server_rss_mb for s in sampler.samples), default=0.0)
    kernel_pss = [k["pss_mb"] for k in memory["kernels"]]
    kernel_rss = [k["rss_mb"] for k in memory["kernels"]]
    server_pss = sum(e["pss_mb"] for e in memory["server"]) + sum(kernel_pss)
    blank = [v for v in visits if v.longest_blank_s > BLANK_LIMIT_S]
    # When the server had sent the whole page (notebook run, kernel chosen): its own part.
    sent = [v.milestones["html_done"] for v in visits if "html_done" in v.milestones]

    def spent(kind: str) -> float:
        samples = sampler.samples
        return getattr(samples[-1], kind) - getattr(samples[0], kind) if samples else 0.0

    return {
        "visitors": n,
        "spread_s": spread,
        "saw_first_screen": len(firsts),
        "first_screen_median_s": statistics.median(firsts) if firsts else None,
        "saw_board": len(boards),
        "board_median_s": statistics.median(boards) if boards else None,
        "board_p90_s": quantile(boards, 0.9),
        "board_max_s": max(boards) if boards else None,
        "page_sent_median_s": statistics.median(sent) if sent else None,
        "page_sent_max_s": max(sent) if sent else None,
        "saw_busy": sum(1 for v in visits if v.busy_s > 0),
        "saw_blank": len(blank),
        "longest_blank_s": max((v.longest_blank_s for v in visits), default=0.0),
        "failures": [f"visitor {v.index}: {v.error}" for v in visits if v.error],
        "offsite_requests": sorted({u for v in visits for u in v.offsite_requests}),
        "version_warnings_per_page": max((len(v.warnings) for v in visits), default=0),
        "server_rss_peak_mb": peak,
        "server_rss_idle_mb": baseline_mb,
        "server_pss_with_all_mb": server_pss,
        "kernels_with_all": len(kernel_pss),
        "kernel_pss_median_mb": statistics.median(kernel_pss) if kernel_pss else None,
        "kernel_rss_median_mb": statistics.median(kernel_rss) if kernel_rss else None,
        "memory_per_visitor_mb": server_pss / n if n else None,
        "voila_memory": memory["server"],
        # CPU spent from the first visitor's arrival to the end, per visitor (the warm
        # kernels' own start-up, before the visitors came, is not in it; refills are).
        "voila_cpu_s_per_visitor": spent("voila_cpu_s") / n if n else None,
        "kernels_cpu_s_per_visitor": spent("kernels_cpu_s") / n if n else None,
        "browser_cpu_s_per_visitor": spent("browser_cpu_s") / n if n else None,
    }


def print_report(s: dict[str, Any], load: tuple[float, float, float]) -> None:
    arrival = "at once" if s["spread_s"] == 0 else f"within {s['spread_s']:g} s"
    print()
    print(
        "| visitors | arrival | saw a board | time to board (median / p90 / max) "
        "| saw 'busy' | blank pages | server memory (peak RSS) | load avg (1 min) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    times = " / ".join(fmt(s[k]) for k in ("board_median_s", "board_p90_s", "board_max_s"))
    print(
        f"| {s['visitors']} | {arrival} | {s['saw_board']} | {times} | {s['saw_busy']} "
        f"| {s['saw_blank']} | {s['server_rss_peak_mb']:.0f} MB | {load[0]:.2f} |"
    )
    print()
    print(
        f"first screen seen by {s['saw_first_screen']} visitors, median "
        f"{fmt(s['first_screen_median_s'])} after arrival; each then chose Play against bots"
    )
    print(
        f"memory per visitor: {fmt(s['kernel_pss_median_mb'], 'MB')} "
        f"(PSS of a visitor's kernel, median; RSS {fmt(s['kernel_rss_median_mb'], 'MB')})"
    )
    voila_mb = sum(e["pss_mb"] for e in s.get("voila_memory", []))
    print(
        f"server with every visitor connected: {s['server_pss_with_all_mb']:.0f} MB PSS: Voilà "
        f"{voila_mb:.0f} MB and {s['kernels_with_all']} kernels (the visitors' and the warm ones "
        f"waiting for the next visitors); idle server before the visitors: "
        f"{s['server_rss_idle_mb']:.0f} MB RSS"
    )
    print(
        f"CPU per visitor: Voilà {fmt(s['voila_cpu_s_per_visitor'])}, "
        f"kernels {fmt(s['kernels_cpu_s_per_visitor'])} (warm kernels started meanwhile "
        "included), "
        f"browsers {fmt(s['browser_cpu_s_per_visitor'])} (on this machine too)"
    )
    print(
        f"server had sent the whole page after: median {fmt(s['page_sent_median_s'])}, "
        f"max {fmt(s['page_sent_max_s'])} (from the page's request; the rest is the browser)"
    )
    print(f"longest blank stretch: {s['longest_blank_s']:.1f} s")
    print(f"requests that left 127.0.0.1: {len(s['offsite_requests'])} {s['offsite_requests'][:5]}")
    print(f"'Unsatisfied version' warnings per page: {s['version_warnings_per_page']}")
    for failure in s["failures"][:10]:
        print("FAILED", failure)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--visitors", "-n", type=int, default=30)
    parser.add_argument("--spread", type=float, default=30.0, help="arrivals over this many s")
    parser.add_argument("--timeout", type=float, default=180.0, help="per visitor, s")
    parser.add_argument("--notebook", default="notebooks/app.ipynb")
    parser.add_argument(
        "--browser-nice",
        type=int,
        default=0,
        help="run the browsers at this CPU niceness, e.g. 19: the server first, as if the "
        "visitors' browsers ran on their own machines",
    )
    parser.add_argument("--voila-arg", action="append", default=[], help="extra Voilà option")
    parser.add_argument("--json", type=Path, default=REPO / "test-artifacts" / "bench-load.json")
    parser.add_argument(
        "--log", type=Path, default=None, help="Voilà's log (default: beside --json)"
    )
    args = parser.parse_args(argv)

    args.json.parent.mkdir(parents=True, exist_ok=True)
    log = args.log or args.json.with_suffix(".voila.log")
    load_before = os.getloadavg()
    print(
        f"load average before: {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}"
        f" ({os.cpu_count()} cores)"
    )
    n = args.visitors
    visits = [Visit(i, 0.0 if n == 1 else args.spread * i / (n - 1)) for i in range(n)]
    server = Server(args.notebook, args.voila_arg, log)
    sampler = None
    try:
        server.wait_ready(90)
        settled = server.wait_idle(120)
        idle = sum(p.memory_info().rss for p in tree(server.proc.pid)) / 2**20
        print(
            f"server ready and idle after {settled:.1f} s "
            f"({len(kernels_of(server.proc.pid))} warm kernels, {idle:.0f} MB RSS)"
        )
        sampler = Sampler(server.proc.pid, time.monotonic())
        sampler.start()
        overall = args.spread + args.timeout + 60
        extra = asyncio.run(
            asyncio.wait_for(
                run_visitors(server.url, visits, args.timeout, server.proc.pid, args.browser_nice),
                overall,
            )
        )
    finally:
        if sampler is not None:
            sampler.stopping.set()
            sampler.join(5)
        server.stop()
    memory = extra.pop("memory")
    summary = summarise(visits, sampler, memory, idle, args.spread)
    summary["load_before"] = load_before
    summary["load_after"] = os.getloadavg()
    summary.update(extra)
    print_report(summary, load_before)
    payload = {
        "summary": summary,
        "voila_args": args.voila_arg,
        "visits": [{k: val for k, val in asdict(v).items()} for v in visits],
        "samples": [asdict(s) for s in sampler.samples],
    }
    args.json.write_text(json.dumps(payload, indent=1))
    print(f"figures: {args.json}   Voilà log: {log}")
    return 0 if summary["saw_board"] == n and not summary["saw_blank"] else 1


if __name__ == "__main__":
    sys.exit(main())
