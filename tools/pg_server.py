"""A throwaway PostgreSQL server for the tests and benchmarks of the shared tables.

Debian's ``postgresql`` package (``make db-deps`` installs it) provides the programs; the
server runs in a temporary folder, listens on a Unix socket there only (no TCP port, so
parallel runs never clash) and is removed afterwards. PostgreSQL refuses to run as root, so
as root it runs as the ``postgres`` user the package creates.

    with temporary_postgres() as url:
        store = TableStore(url)
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

DEBIAN_BIN = Path("/usr/lib/postgresql")
USER = "ttr"
PORT = 5432  # only names the socket file: nothing listens on TCP


def postgres_bin() -> Path | None:
    """The folder of Debian's PostgreSQL programs (the newest version), or None."""
    if not DEBIAN_BIN.is_dir():
        return None
    found = sorted(
        (p / "bin" for p in DEBIAN_BIN.iterdir() if (p / "bin" / "initdb").exists()),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
    )
    return found[-1] if found else None


def _programs_and_runner() -> tuple[Path, Any]:
    programs = postgres_bin()
    if programs is None:
        raise RuntimeError("PostgreSQL is not installed (apt-get install -y postgresql)")
    as_root = os.geteuid() == 0

    def run(*args: str) -> None:
        cmd = [str(programs / args[0]), *args[1:]]
        if as_root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode:
            log = Path(args[args.index("-l") + 1]) if "-l" in args else None
            tail = log.read_text()[-2000:] if log is not None and log.exists() else ""
            raise RuntimeError(f"{' '.join(args[:1])} failed: {done.stderr}{tail}")

    return programs, run


def start_again(url: str) -> None:
    """Start the server of ``url`` again on its own files (after it was killed): what an
    operator's service manager does."""
    _programs, run = _programs_and_runner()
    folder = Path(url.split("host=", 1)[1].split("&", 1)[0])
    lock = folder / "data" / "postmaster.pid"
    if lock.exists():
        # A killed postmaster nobody reaped (a container's first process may not) still
        # looks alive to PostgreSQL's lock check: its lock goes once it is a zombie.
        import psutil

        pid = int(lock.read_text().split()[0])
        try:
            gone = psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            gone = True
        if gone:
            lock.unlink()
            (folder / f".s.PGSQL.{PORT}.lock").unlink(missing_ok=True)
    run(
        "pg_ctl",
        "-D",
        str(folder / "data"),
        "-o",
        f"-k {folder} -p {PORT} -c listen_addresses='' -c fsync=off",
        "-l",
        str(folder / "log"),
        "-w",
        "start",
    )


@contextlib.contextmanager
def temporary_postgres() -> Iterator[str]:
    """Start a PostgreSQL server; yield its SQLAlchemy URL; stop it and delete its files."""
    programs = postgres_bin()
    if programs is None:
        raise RuntimeError("PostgreSQL is not installed (apt-get install -y postgresql)")
    folder = Path(tempfile.mkdtemp(prefix="ttr-pg-"))
    as_root = os.geteuid() == 0

    def run(*args: str) -> None:
        cmd = [str(programs / args[0]), *args[1:]]
        if as_root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True, text=True)

    if as_root:
        shutil.chown(folder, "postgres")
    data = folder / "data"
    try:
        run("initdb", "-D", str(data), "-A", "trust", "-U", USER, "--no-sync")
        run(
            "pg_ctl",
            "-D",
            str(data),
            "-o",
            f"-k {folder} -p {PORT} -c listen_addresses='' -c fsync=off",
            "-l",
            str(folder / "log"),
            "-w",
            "start",
        )
        try:
            run("createdb", "-h", str(folder), "-p", str(PORT), "-U", USER, "ttr")
            yield f"postgresql+psycopg://{USER}@/ttr?host={folder}&port={PORT}"
        finally:
            run("pg_ctl", "-D", str(data), "-m", "fast", "-w", "stop")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
