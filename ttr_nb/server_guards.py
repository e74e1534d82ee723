"""Hostile requests to the Voilà server: a plain 404, not a 500 with a traceback; password
guesses, a sentence and a wait, not a busy core.

Voilà's standalone server answers two kinds of request with an uncaught exception (HTTP 500,
and a traceback in the server log for every such request, which a probe can send by the
thousand):

- ``/voila/templates/<anything not shaped template/static/file>``: its template file handler
  splits the path without checking it;
- ``/logout``: the handler renders Jupyter Server's logout page, which needs a static-file
  setting that Voilà never sets. Voilà has no logins to end, so the page is not offered.

:class:`QuietIdentityProvider`, named in ``voila.json`` (``Voila.identity_provider_class``),
drops the logout page; importing this module (which that setting does when the server starts)
makes the template file handler refuse malformed paths with a 404.

**Password tries are throttled.** Where a password is set (the teacher's server,
``TTR_TEACHER_PASSWORD_HASH``), each try costs the server an argon2 check, about a tenth of
a second of CPU, on the thread that serves every page: nine guesses a second held a core.
The login form checks at most ``login_tries_per_address`` passwords per client address in
``login_window_s`` seconds, and at most ``login_checks_per_second`` for the whole server;
past either, the visitor reads how long to wait (HTTP 429), and no password is checked, not
even the right one (a right answer would tell a guesser they found it). The client address
is the proxy-aware one of :func:`ttr_nb.proxies.client_address`; IPv6 addresses count per
/64. The token link (``?token=``) costs no argon2 check and is not throttled.

Examples
--------
In ``voila.json``:

.. code-block:: json

    {"Voila": {"identity_provider_class": "ttr_nb.server_guards.QuietIdentityProvider"},
     "QuietIdentityProvider": {"login_tries_per_address": 10, "login_window_s": 60}}
"""

from __future__ import annotations

import ipaddress
import math
import os
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from jupyter_server.auth.identity import PasswordIdentityProvider
from tornado import web
from traitlets import Float, Integer
from voila.paths import collect_static_paths
from voila.static_file_handler import TemplateStaticFileHandler

from .proxies import client_address

__all__ = ["LoginThrottle", "QuietIdentityProvider"]


class LoginThrottle:
    """How long a client must wait before its next password check (0: check it now).

    At most ``per_address`` checks per client address in any ``window_s`` seconds, and at
    most ``per_second`` checks a second for everybody (a bucket that holds one second's
    worth). A refused try is not counted, so a guesser waits ``window_s`` at most.

    Examples
    --------
    >>> now = [0.0]
    >>> throttle = LoginThrottle(per_address=2, window_s=60, per_second=10, clock=lambda: now[0])
    >>> [throttle.wait("192.0.2.1") for _ in range(3)]
    [0.0, 0.0, 60.0]
    >>> throttle.wait("192.0.2.2")  # another address
    0.0
    >>> now[0] = 60.0
    >>> throttle.wait("192.0.2.1")
    0.0
    """

    def __init__(
        self,
        per_address: int,
        window_s: float,
        per_second: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_address = per_address
        self.window_s = window_s
        self.per_second = per_second
        self.clock = clock
        self._tries: dict[str, deque[float]] = {}
        self._bucket = max(per_second, 1.0)
        self._filled_at = clock()

    @staticmethod
    def key(address: str | None) -> str:
        """Whose allowance a try uses: the address, an IPv6 one's /64 network."""
        try:
            parsed = ipaddress.ip_address(address or "")
        except ValueError:
            return str(address)
        mapped = getattr(parsed, "ipv4_mapped", None)  # ::ffff:192.0.2.1 is 192.0.2.1
        if mapped is not None:
            return str(mapped)
        if parsed.version == 6:
            return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
        return str(parsed)

    def wait(self, address: str | None) -> float:
        """Seconds to wait before a check from ``address``; 0.0: allowed (and counted)."""
        return self.wait_why(address)[0]

    def wait_why(self, address: str | None) -> tuple[float, str]:
        """``(seconds, whose)``: the wait, and ``"address"`` or ``"server"`` (whose limit)."""
        now = self.clock()
        key = self.key(address)
        if len(self._tries) > 10_000:  # forget the addresses seen long ago
            for known in list(self._tries):
                self._recent(known, now)
        tries = self._recent(key, now)
        if self.per_address > 0 and len(tries) >= self.per_address:
            return tries[0] + self.window_s - now, "address"
        if self.per_second > 0:
            capacity = max(self.per_second, 1.0)
            self._bucket = min(capacity, self._bucket + (now - self._filled_at) * self.per_second)
            self._filled_at = now
            if self._bucket < 1.0:
                return (1.0 - self._bucket) / self.per_second, "server"
            self._bucket -= 1.0
        self._tries.setdefault(key, deque()).append(now)
        return 0.0, ""

    def _recent(self, key: str, now: float) -> deque[float]:
        tries = self._tries.get(key, deque())
        while tries and now - tries[0] >= self.window_s:
            tries.popleft()
        if not tries:
            self._tries.pop(key, None)
        return tries


def throttle_sentence(seconds: float, whose: str) -> str:
    """What a visitor whose password was not checked reads.

    >>> throttle_sentence(41.2, "address")
    'Too many password tries from your address: wait 42 seconds, then try again.'
    """
    wait = max(1, math.ceil(seconds))
    unit = "second" if wait == 1 else "seconds"
    where = "on this server right now" if whose == "server" else "from your address"
    return f"Too many password tries {where}: wait {wait} {unit}, then try again."


class QuietIdentityProvider(PasswordIdentityProvider):
    """Jupyter Server's identity provider without the logout page (``/logout`` is a 404),
    with password tries throttled (see the module)."""

    login_tries_per_address = Integer(
        10,
        config=True,
        help="Password tries one client address may make in login_window_s seconds; past "
        "it, the visitor is told to wait. 0: no limit.",
    )
    login_window_s = Float(60.0, config=True, help="The window of login_tries_per_address.")
    login_checks_per_second = Float(
        2.0,
        config=True,
        help="Password checks (argon2, ~0.1 s of CPU each) the whole server makes a second "
        "at most. 0: no limit.",
    )

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.login_handler_class = _throttled(self.login_handler_class)
        self.throttle = LoginThrottle(
            self.login_tries_per_address, self.login_window_s, self.login_checks_per_second
        )

    @property
    def logout_available(self) -> bool:
        return False

    def process_login_form(self, handler: web.RequestHandler) -> Any:
        """Check the typed password unless this client (or the server) is past its limit."""
        address = client_address(handler)
        wait, whose = self.throttle.wait_why(address)
        if wait > 0:
            handler.ttr_throttled = throttle_sentence(wait, whose)  # type: ignore[attr-defined]
            handler.ttr_retry_after = max(1, math.ceil(wait))  # type: ignore[attr-defined]
            self.log.warning("Password try from %s not checked: %s limit", address, whose)
            return None
        return super().process_login_form(handler)


def _throttled(login_handler: type) -> type:
    """The login page Voilà (or Jupyter Server) gave, saying why a password was not checked."""

    class ThrottledLoginHandler(login_handler):  # type: ignore[misc, valid-type]
        def _render(self, message: Any = None) -> Any:
            sentence = getattr(self, "ttr_throttled", None)
            if sentence is not None:
                self.set_status(429)
                self.set_header("Retry-After", str(getattr(self, "ttr_retry_after", 60)))
                message = {"error": sentence}
            return super()._render(message)

    ThrottledLoginHandler.__name__ = ThrottledLoginHandler.__qualname__ = (
        f"Throttled{login_handler.__name__}"
    )
    return ThrottledLoginHandler


def _template_static_path(self: TemplateStaticFileHandler, path: str) -> Any:
    """Voilà's ``parse_url_path``, refusing what is not ``<template>/static/<file>``."""
    parts = path.split("/", 2)
    if len(parts) < 3 or parts[1] != "static" or not parts[0] or not parts[2]:
        raise web.HTTPError(404)
    if os.path.normpath(path).split(os.path.sep, 2)[:2] != parts[:2]:  # ".." climbing out
        raise web.HTTPError(404)
    self.roots = collect_static_paths(["voila", "nbconvert"], parts[0])
    if not self.roots:  # an unknown template
        raise web.HTTPError(404)
    return web.StaticFileHandler.parse_url_path(self, path)


TemplateStaticFileHandler.parse_url_path = _template_static_path
