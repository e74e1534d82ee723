"""Who this kernel's page belongs to, as its server said: the page pass and the address.

A page asks the table service (:mod:`.service`) for everything about tables, and the service
must know who asks without believing the page (a page can forge anything it sends). Under
Voilà, the server's ``prelaunch_hook`` (:func:`ttr_nb.serving.note_client`) puts a first
cell into the notebook it runs for each visitor; that cell calls :func:`note_visitor` with
the visitor's client address and a **page pass** the server signed with the service's key
(:func:`~.wire.mint_pass`). A page cannot run code, so it cannot call it; the first call
wins, so nothing run later can change it; and the page never sees the cell (Voilà strips
code cells). The kernel shows the pass to the service with every request; it cannot make
another one.

Behind JupyterHub each user has their own server and the kernel shows the hub's token of
that server instead (the service asks the hub whose it is), and the hub's user name
(``JUPYTERHUB_USER``) names the visitor. Otherwise (a kernel of JupyterLab, a test) the
kernel has no pass and the address is unknown.
"""

from __future__ import annotations

import ipaddress
import logging
import os

log = logging.getLogger(__name__)

HUB_USER_ENV = "JUPYTERHUB_USER"

_address: str | None = None
_pass: str | None = None


def note_visitor(address: str, page_pass: str | None = None) -> None:
    """Record this kernel's visitor address and page pass (the server's first cell calls
    it, once)."""
    global _address, _pass
    if _address is not None or _pass is not None:
        log.warning("visitor already noted; a second one was ignored")
        return
    try:
        _address = str(ipaddress.ip_address(address))
    except ValueError:
        log.warning("not an address, ignored: %.60r", address)
        return
    if isinstance(page_pass, str) and len(page_pass) < 1000:
        _pass = page_pass


def note_address(address: str) -> None:
    """Record this kernel's visitor address only (a kernel with no table service)."""
    note_visitor(address)


def client_address() -> str | None:
    """The address noted by the server, else ``hub:<user>`` behind JupyterHub, else None."""
    if _address is not None:
        return _address
    user = os.environ.get(HUB_USER_ENV)
    return f"hub:{user}"[:64] if user else None


def page_pass() -> str | None:
    """The page pass the server gave this kernel (None: none was given)."""
    return _pass


def first_cell_source(address: str, page_pass: str | None = None) -> str | None:
    """The code of the cell the server runs first in a visitor's kernel (None: not an IP).

    >>> first_cell_source("192.0.2.7")
    "__import__('ttr_nb.tables.visitor', fromlist=['_']).note_visitor('192.0.2.7', None)"
    >>> first_cell_source("'); import os; ('") is None
    True
    """
    try:
        checked = str(ipaddress.ip_address(address))
    except ValueError:
        return None
    if page_pass is not None and not all(c.isalnum() or c in "-_." for c in page_pass):
        return None
    return (
        "__import__('ttr_nb.tables.visitor', fromlist=['_'])"
        f".note_visitor({checked!r}, {page_pass!r})"
    )
