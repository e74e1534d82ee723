"""Test tooling for the app's own server (``ttr_nb.voila_server``, ``ttr_nb.teacher_server``):
a throwaway self-signed certificate, and a server started on a free port of 127.0.0.1, over
HTTP or HTTPS, stopped on leaving."""

from __future__ import annotations

import contextlib
import datetime
import ipaddress
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from browser import ARTIFACTS, REPO, _free_port, _stop, server_env


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key, valid for a day (PEM files)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    certfile, keyfile = folder / "cert.pem", folder / "key.pem"
    certfile.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    keyfile.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return certfile, keyfile


def trusting(certfile: Path) -> ssl.SSLContext:
    """A client TLS context that trusts this one certificate (and checks the host name)."""
    return ssl.create_default_context(cafile=str(certfile))


@dataclass
class Server:
    url: str
    port: int
    log: Path
    proc: subprocess.Popen


def _wait(url: str, proc: subprocess.Popen, context: ssl.SSLContext | None) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2, context=context) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    raise TimeoutError(f"no answer from {url}")


@contextlib.contextmanager
def running(
    command: list[str],
    log_name: str,
    env: dict[str, str] | None = None,
    certfile: Path | None = None,
    port: int | None = None,
) -> Iterator[Server]:
    """``command`` (``{port}`` in it replaced by ``port``, else a free port) run from the
    repository (its voila.json applies); HTTPS when ``certfile`` is given."""
    ARTIFACTS.mkdir(exist_ok=True)
    port = port or _free_port()
    log = ARTIFACTS / log_name
    scheme = "https" if certfile else "http"
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [sys.executable, *(part.replace("{port}", str(port)) for part in command)],
            cwd=REPO,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=server_env(env),
            start_new_session=True,
        )
    try:
        context = trusting(certfile) if certfile else None
        _wait(f"{scheme}://127.0.0.1:{port}/voila/static/voila.js", proc, context)
        yield Server(f"{scheme}://127.0.0.1:{port}/", port, log, proc)
    finally:
        _stop(proc)


def app_server(notebook: Path | str, *options: str, warm: int = 0) -> list[str]:
    """The command of ``make app`` (``python -m ttr_nb.voila_server``) for ``notebook``,
    with ``warm`` warm kernels."""
    return [
        "-m",
        "ttr_nb.voila_server",
        str(notebook),
        "--no-browser",
        "--Voila.ip=127.0.0.1",
        "--port={port}",
        f"--ClassroomKernelManager.warm_kernels={warm}",
        *options,
    ]


def teacher_server(*options: str, voila: tuple[str, ...] = ()) -> list[str]:
    """The command of ``make teacher`` (its options, then Voilà's after ``--``)."""
    command = ["-m", "ttr_nb.teacher_server", "--port", "{port}", *options, "--"]
    return [*command, "--ClassroomKernelManager.warm_kernels=0", *voila]
