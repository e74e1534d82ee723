"""The app's Voilà server, with HTTPS and a trusted reverse proxy.

Voilà's own server (``voila notebook.ipynb``) speaks plain HTTP only: it has no certificate
settings, and ignores the ``X-Forwarded-*`` headers of a reverse proxy. On a class network
that sends the teacher's login cookie and every page in clear text, and behind a proxy
every visitor has the proxy's address. :class:`ClassroomVoila` is Voilà with the options
Jupyter Server has for both:

- ``certfile`` and ``keyfile``: serve HTTPS (TLS 1.2 at least) with this certificate and
  key (PEM files). Jupyter's login cookie then carries the ``Secure`` flag: a browser never
  sends it over plain HTTP.
- ``trust_xheaders``: believe the ``X-Forwarded-For``/``X-Real-Ip`` and
  ``X-Forwarded-Proto`` headers of a reverse proxy that terminates HTTPS in front of the
  server; the visitor's address is taken from them only for requests that come from one
  of ``trusted_proxies`` (:mod:`ttr_nb.proxies`), never from anybody else.

``make app`` and ``make teacher`` run it; ``python -m ttr_nb.voila_server notebook.ipynb``
takes Voilà's own options too, and reads ``voila.json`` as Voilà does.

Examples
--------
.. code-block:: console

    $ python -m ttr_nb.voila_server notebooks/app.ipynb --certfile=cert.pem --keyfile=key.pem
    $ python -m ttr_nb.voila_server notebooks/app.ipynb \\
        --ClassroomVoila.trust_xheaders=True --ClassroomVoila.trusted_proxies='["127.0.0.1"]'
"""

from __future__ import annotations

import ssl
import sys
from typing import Any

from traitlets import Bool, List, Unicode
from voila.app import Voila

from .proxies import SETTING, trusted_networks


class ClassroomVoila(Voila):
    """Voilà's server with HTTPS and a trusted reverse proxy (see the module)."""

    certfile = Unicode(
        "", config=True, help="The TLS certificate (PEM) to serve HTTPS with; empty: HTTP."
    )
    keyfile = Unicode("", config=True, help="The certificate's private key (PEM).")
    trust_xheaders = Bool(
        False,
        config=True,
        help="Believe the X-Forwarded-For/X-Real-Ip and X-Forwarded-Proto headers of a reverse "
        "proxy; the visitor's address is taken from them only for requests from "
        "trusted_proxies.",
    )
    trusted_proxies = List(
        Unicode(),
        ["127.0.0.1", "::1"],
        config=True,
        help="Addresses or networks (10.0.0.0/8) of the reverse proxies whose forwarded "
        "addresses are believed when trust_xheaders is on.",
    )

    aliases = {
        **Voila.aliases,
        "certfile": "ClassroomVoila.certfile",
        "keyfile": "ClassroomVoila.keyfile",
    }

    def start(self) -> None:
        self._ssl = self._ssl_context()
        trusted = trusted_networks(self.trusted_proxies) if self.trust_xheaders else ()
        settings = dict(self.tornado_settings)
        settings[SETTING] = trusted
        if self._ssl is not None:  # the _xsrf cookie too: never over plain HTTP
            settings.setdefault("xsrf_cookie_kwargs", {"secure": True})
        self.tornado_settings = settings
        if self.trust_xheaders:
            shown = ", ".join(self.trusted_proxies) or "none"
            self.log.info("Trusting the X-Forwarded headers of these proxies: %s", shown)
        super().start()

    def _ssl_context(self) -> ssl.SSLContext | None:
        if not self.certfile and not self.keyfile:
            return None
        if not self.certfile:
            self._refuse("a keyfile needs its certfile")
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        try:
            context.load_cert_chain(self.certfile, self.keyfile or None)
        except (OSError, ssl.SSLError) as exc:
            self._refuse(f"cannot use the certificate {self.certfile}: {exc}")
        return context

    def _refuse(self, why: str) -> None:
        self.log.critical("ttr-nb: %s", why)
        self.exit(2)

    def listen(self) -> None:
        """Voilà's ``listen``, with the TLS context and the proxy headers setting."""
        options: dict[str, Any] = {"xheaders": self.trust_xheaders}
        if getattr(self, "_ssl", None) is not None:
            options["ssl_options"] = self._ssl
        plain_listen = self.app.listen
        self.app.listen = lambda port, address="", **kw: plain_listen(  # type: ignore[method-assign]
            port, address, **{**options, **kw}
        )
        super().listen()

    def _url(self, ip: str) -> str:
        url = super()._url(ip)
        return "https" + url[len("http") :] if self.certfile else url


main = ClassroomVoila.launch_instance

if __name__ == "__main__":
    sys.exit(main())
