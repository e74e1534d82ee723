"""The teacher's server: Voilà serving the teacher's page behind Jupyter Server's own login.

The teacher's page lists every table of the class, closes them and exports the results, so
the server must know who is asking before it runs anything. It uses Jupyter Server's
authentication, never a login of ours: a **token** (a long random secret; the teacher opens
a link that carries it once, then a cookie keeps them in) or a **hashed password** (typed on
Jupyter's login page). Without one, the page and its kernel are never reached: the page
answers with the login form and the kernel's websocket with 403.

- ``TTR_TEACHER_TOKEN``: the token (at least :data:`MIN_TOKEN_CHARS` characters). Unset, a
  fresh one of 256 random bits is made at each start and printed in the link.
- ``TTR_TEACHER_PASSWORD_HASH``: instead of a token, a password hash made by
  ``python -c "from jupyter_server.auth import passwd; print(passwd())"``.

The server tells its kernels that their visitor was authenticated
(``TTR_TEACHER_SERVER`` in their environment); the teacher's page builds nothing without it
(:func:`ttr_nb.widgets.teacher.teacher_access`). Behind JupyterHub the teacher's page is a
hub service instead, and the hub's login and groups decide (see the deployment docs).

On a class network, serve it over HTTPS: ``--certfile cert.pem --keyfile key.pem`` (or
``make teacher CERTFILE=... KEYFILE=...``), or behind a reverse proxy that does (see
docs/deployment/one-machine.md). It is :class:`ttr_nb.voila_server.ClassroomVoila`, so its
options (``--ClassroomVoila.trust_xheaders=True`` ...) go after ``--``. Password tries are
throttled (:mod:`ttr_nb.server_guards`); the ``ttr`` page template takes the token out of
the address bar once it has logged the teacher in.

Run it as ``make teacher`` or ``python -m ttr_nb.teacher_server --port 8867``.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from pathlib import Path

TOKEN_ENV = "TTR_TEACHER_TOKEN"
PASSWORD_ENV = "TTR_TEACHER_PASSWORD_HASH"
SERVER_ENV = "TTR_TEACHER_SERVER"  # set for the kernels: "token" or "password" (or "hub")
MIN_TOKEN_CHARS = 32  # 32 URL-safe characters carry about 190 bits: guessing is hopeless


class TeacherServerError(ValueError):
    """The teacher's server cannot start as configured (the message says why)."""


def choose_login(environ: dict[str, str]) -> tuple[str, str, bool]:
    """How the teacher logs in: ``(kind, secret, made_here)`` from the environment.

    ``kind`` is ``"token"`` or ``"password"``; ``secret`` the token or the password hash.

    Examples
    --------
    >>> choose_login({"TTR_TEACHER_TOKEN": "x" * 40})[:2] == ("token", "x" * 40)
    True
    >>> kind, token, made = choose_login({})
    >>> kind, len(token) >= MIN_TOKEN_CHARS, made
    ('token', True, True)
    >>> choose_login({"TTR_TEACHER_TOKEN": "short"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ttr_nb.teacher_server.TeacherServerError: TTR_TEACHER_TOKEN has 5 characters: ...
    """
    hashed = environ.get(PASSWORD_ENV, "").strip()
    token = environ.get(TOKEN_ENV, "").strip()
    if hashed and token:
        raise TeacherServerError(f"set {TOKEN_ENV} or {PASSWORD_ENV}, not both")
    if hashed:
        if ":" not in hashed:
            raise TeacherServerError(
                f"{PASSWORD_ENV} is not a password hash (make one with jupyter_server.auth.passwd)"
            )
        return "password", hashed, False
    if token:
        if len(token) < MIN_TOKEN_CHARS:
            raise TeacherServerError(
                f"{TOKEN_ENV} has {len(token)} characters: a teacher's token needs at least "
                f"{MIN_TOKEN_CHARS} (leave it unset and one is made for you)"
            )
        return "token", token, False
    return "token", secrets.token_urlsafe(32), True


def main(argv: list[str] | None = None) -> int:
    """Start the teacher's server (blocks until Ctrl-C); 2 when it cannot start."""
    parser = argparse.ArgumentParser(prog="python -m ttr_nb.teacher_server", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8867)
    parser.add_argument("--notebook", default=str(Path("notebooks") / "teacher.ipynb"))
    parser.add_argument("--certfile", default="", help="TLS certificate (PEM): serve HTTPS")
    parser.add_argument("--keyfile", default="", help="the certificate's private key (PEM)")
    parser.add_argument("voila_args", nargs="*", help="more options for Voilà (after --)")
    args = parser.parse_args(argv)
    try:
        kind, secret, made = choose_login(dict(os.environ))
    except TeacherServerError as exc:
        print(f"ttr-nb teacher's server: {exc}", file=sys.stderr)
        return 2
    # The kernels inherit this environment: they learn the visitor was authenticated, not
    # the secret itself.
    os.environ.pop(TOKEN_ENV, None)
    os.environ.pop(PASSWORD_ENV, None)
    os.environ[SERVER_ENV] = kind

    from traitlets.config import Config

    from .voila_server import ClassroomVoila

    # Given to the app object, not on its command line (which other users can list).
    config = Config()
    if kind == "password":
        config.PasswordIdentityProvider.hashed_password = secret
    if args.certfile or args.keyfile:
        config.ClassroomVoila.certfile = args.certfile
        config.ClassroomVoila.keyfile = args.keyfile
    voila_argv = [args.notebook, "--no-browser", f"--Voila.ip={args.host}", f"--port={args.port}"]
    scheme = "https" if args.certfile else "http"
    where = f"{scheme}://{args.host}:{args.port}/"
    if kind == "token":
        note = " (a new token: it changes at every start)" if made else ""
        print(f"ttr-nb teacher's page: {where}?token={secret}{note}", flush=True)
        print("Open that link on the teacher's computer only: it logs you in.", flush=True)
    else:
        print(f"ttr-nb teacher's page: {where} (log in with the teacher's password)", flush=True)
    ClassroomVoila.launch_instance(
        argv=voila_argv + list(args.voila_args),
        token=secret if kind == "token" else "",
        config=config,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
