"""Who this kernel's page belongs to, as the server saw it: the client address.

The table store's limits count per client address (:mod:`.limits`), and the address must
come from the server, never from the page (a page can forge anything it sends). Under
Voilà, the server's ``prelaunch_hook`` (:func:`ttr_nb.serving.note_client`) puts a first
cell into the notebook it runs for each visitor; that cell calls :func:`note_address` with
the address of the visitor's request. A page cannot run code, so it cannot call it; and the
first call wins, so nothing run later can change it.

Behind JupyterHub each user has their own server, whose kernels carry the hub's user name
(``JUPYTERHUB_USER``): that names the visitor better than the proxy's address.
Otherwise (a kernel of JupyterLab, a test) the address is unknown, and every such page
shares one allowance (:data:`~ttr_nb.tables.limits.UNKNOWN_ADDRESS`).
"""

from __future__ import annotations

import ipaddress
import logging
import os

log = logging.getLogger(__name__)

HUB_USER_ENV = "JUPYTERHUB_USER"

_address: str | None = None


def note_address(address: str) -> None:
    """Record this kernel's visitor address (the server's first cell calls it, once)."""
    global _address
    if _address is not None:
        if address != _address:
            log.warning("visitor address already noted; a second one was ignored")
        return
    try:
        _address = str(ipaddress.ip_address(address))
    except ValueError:
        log.warning("not an address, ignored: %.60r", address)


def client_address() -> str | None:
    """The address noted by the server, else ``hub:<user>`` behind JupyterHub, else None."""
    if _address is not None:
        return _address
    user = os.environ.get(HUB_USER_ENV)
    return f"hub:{user}"[:64] if user else None


def first_cell_source(address: str) -> str | None:
    """The code of the cell the server runs first in a visitor's kernel (None: not an IP).

    >>> first_cell_source("192.0.2.7")
    "__import__('ttr_nb.tables.visitor', fromlist=['_']).note_address('192.0.2.7')"
    >>> first_cell_source("'); import os; ('") is None
    True
    """
    try:
        checked = str(ipaddress.ip_address(address))
    except ValueError:
        return None
    return f"__import__('ttr_nb.tables.visitor', fromlist=['_']).note_address({checked!r})"
