"""The visitor's address, also behind a reverse proxy, believed only from a trusted proxy.

The server's limits count per client address (kernels started a minute, password tries,
the table store's limits). Behind a reverse proxy (nginx, Caddy, a university's gateway)
every request comes from the proxy's address, so each per-address limit would become one
for the whole class. A proxy says whom it serves in the ``X-Forwarded-For`` header (or
``X-Real-Ip``); but anybody can send that header, so it is believed only when the request
comes from a proxy the server was told to trust: the Jupyter Server setting
``trust_xheaders`` with the proxies' addresses (``ClassroomVoila.trusted_proxies``, see
:mod:`ttr_nb.voila_server`, which puts them in the server's settings under
:data:`SETTING`). From any other peer, the header is ignored and the peer's own address
counts.

``X-Forwarded-For`` lists the addresses each proxy saw, the nearest last: the visitor is
the last one that is not itself a trusted proxy.

Examples
--------
>>> trusted = trusted_networks(["10.0.0.0/8", "::1"])
>>> forwarded_client("10.1.2.3", {"X-Forwarded-For": "198.51.100.7, 10.0.0.9"}, trusted)
'198.51.100.7'
>>> forwarded_client("192.0.2.50", {"X-Forwarded-For": "198.51.100.7"}, trusted)  # not trusted
'192.0.2.50'
>>> forwarded_client("10.1.2.3", {"X-Forwarded-For": "not an address"}, trusted)
'10.1.2.3'
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable, Mapping
from typing import Any

SETTING = "ttr_trusted_proxies"  # key in the tornado application's settings

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def trusted_networks(proxies: Iterable[str]) -> tuple[Network, ...]:
    """The proxies' addresses or networks (``"10.0.0.5"``, ``"10.0.0.0/8"``), parsed;
    ``ValueError`` names one that is neither."""
    networks = []
    for proxy in proxies:
        try:
            networks.append(ipaddress.ip_network(proxy.strip(), strict=False))
        except ValueError:
            raise ValueError(f"{proxy!r} is not an address or a network (as 10.0.0.0/8)") from None
    return tuple(networks)


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    mapped = getattr(address, "ipv4_mapped", None)  # ::ffff:10.0.0.5 is 10.0.0.5
    return mapped or address


def _is_trusted(address: Any, trusted: tuple[Network, ...]) -> bool:
    return any(address.version == net.version and address in net for net in trusted)


def forwarded_client(peer: str, headers: Mapping[str, str], trusted: tuple[Network, ...]) -> str:
    """The visitor's address for a request from ``peer`` with ``headers`` (see the module)."""
    peer_address = _address(peer)
    if peer_address is None or not _is_trusted(peer_address, trusted):
        return peer
    chain = [part for part in (headers.get("X-Forwarded-For") or "").split(",") if part.strip()]
    if not chain and headers.get("X-Real-Ip"):
        chain = [headers["X-Real-Ip"]]
    for part in reversed(chain):
        address = _address(part)
        if address is None:  # the chain is broken here: what lies before cannot be believed
            break
        if not _is_trusted(address, trusted):
            return str(address)
    return peer


def peer_of(request: Any) -> str | None:
    """The address the request's connection really comes from (tornado's ``remote_ip``
    may already hold a forwarded one when ``xheaders`` is on)."""
    context = getattr(getattr(request, "connection", None), "context", None)
    address = getattr(context, "address", None)
    if getattr(context, "address_family", None) in (socket.AF_INET, socket.AF_INET6) and address:
        return str(address[0])
    return getattr(request, "remote_ip", None)


def client_address(handler: Any) -> str | None:
    """The visitor's address for a tornado request handler: the peer's, or the one a
    trusted proxy forwarded (the proxies are in the application's settings)."""
    request = getattr(handler, "request", None)
    peer = peer_of(request)
    settings = getattr(handler, "settings", None) or {}
    trusted = settings.get(SETTING) or ()
    if peer is None or not trusted:
        return peer
    return forwarded_client(peer, request.headers, trusted)
