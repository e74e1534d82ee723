"""Password guessing against the teacher's server: how much CPU the server spends (figures,
not a test).

Starts ``python -m ttr_nb.teacher_server`` in password mode on a free port, then guesses at
``--rate`` tries a second for ``--seconds`` seconds, from ``--addresses`` client addresses
(127.0.0.2, 127.0.0.3 ... on the loopback network), each try a real login (the form's _xsrf,
then POST). Prints the answers by status, and the server's CPU over the run as a share of
one core. ``--no-throttle`` sets the throttle's limits to 0 (the server before it).

    python tools/bench_login.py --rate 9 --seconds 20 --addresses 1
    python tools/bench_login.py --rate 9 --seconds 20 --addresses 9
    python tools/bench_login.py --rate 9 --seconds 20 --addresses 1 --no-throttle
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import http.client
import os
import re
import socket
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

import psutil

REPO = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(
    port: int,
    method: str,
    path: str,
    source: str,
    body: str | None = None,
    cookie: str | None = None,
) -> tuple[int, list[tuple[str, str]], str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))
    headers = {}
    if cookie:
        headers["Cookie"] = cookie
    if body is not None:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    try:
        conn.request(method, path, body, headers)
        answer = conn.getresponse()
        return answer.status, answer.getheaders(), answer.read().decode("utf-8", "replace")
    finally:
        conn.close()


def guess(port: int, source: str, password: str) -> int:
    _status, headers, page = request(port, "GET", "/login", source)
    cookie = next(v for k, v in headers if k.lower() == "set-cookie" and v.startswith("_xsrf="))
    field = re.search(r'name="_xsrf" value="([^"]+)"', page).group(1)
    body = urllib.parse.urlencode({"_xsrf": field, "password": password})
    status, _headers, _page = request(port, "POST", "/login", source, body, cookie.split(";")[0])
    return status


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=9.0, help="tries a second, in all")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--addresses", type=int, default=1, help="client addresses guessing")
    parser.add_argument("--no-throttle", action="store_true", help="limits set to 0")
    args = parser.parse_args()

    from jupyter_server.auth import passwd

    port = free_port()
    command = [
        sys.executable,
        "-m",
        "ttr_nb.teacher_server",
        "--port",
        str(port),
        "--",
        "--ClassroomKernelManager.warm_kernels=0",
    ]
    if args.no_throttle:
        command += [
            "--QuietIdentityProvider.login_tries_per_address=0",
            "--QuietIdentityProvider.login_checks_per_second=0",
        ]
    env = dict(os.environ, TTR_TEACHER_PASSWORD_HASH=passwd("the teacher's own password"))
    server = subprocess.Popen(
        command,
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                request(port, "GET", "/login", "127.0.0.1")
                break
            except OSError:
                time.sleep(0.2)
        process = psutil.Process(server.pid)
        sources = [f"127.0.0.{2 + i}" for i in range(args.addresses)]
        statuses: collections.Counter[int] = collections.Counter()
        cpu_before = process.cpu_times()
        started = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(16) as pool:
            futures = []
            n = int(args.rate * args.seconds)
            for i in range(n):
                time.sleep(max(0.0, started + i / args.rate - time.monotonic()))
                futures.append(pool.submit(guess, port, sources[i % len(sources)], f"guess{i}"))
            for future in futures:
                statuses[future.result()] += 1
        elapsed = time.monotonic() - started
        cpu_after = process.cpu_times()
        cpu = (cpu_after.user + cpu_after.system) - (cpu_before.user + cpu_before.system)
        print(
            f"tries: {sum(statuses.values())} in {elapsed:.1f} s from {args.addresses} "
            f"address(es); throttle {'off' if args.no_throttle else 'on (defaults)'}"
        )
        print(
            f"answers: {dict(sorted(statuses.items()))} (401: checked and wrong; 429: not "
            "checked, told to wait)"
        )
        print(f"server CPU: {cpu:.1f} s, {100 * cpu / elapsed:.0f}% of one core")
    finally:
        server.terminate()
        server.wait(timeout=20)
    return 0


if __name__ == "__main__":
    sys.exit(main())
