"""Hostile requests to the Voilà server get a plain 404, not a 500 with a traceback.

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

Examples
--------
In ``voila.json``:

.. code-block:: json

    {"Voila": {"identity_provider_class": "ttr_nb.server_guards.QuietIdentityProvider"}}
"""

from __future__ import annotations

import os
from typing import Any

from jupyter_server.auth.identity import PasswordIdentityProvider
from tornado import web
from voila.paths import collect_static_paths
from voila.static_file_handler import TemplateStaticFileHandler

__all__ = ["QuietIdentityProvider"]


class QuietIdentityProvider(PasswordIdentityProvider):
    """Jupyter Server's identity provider without the logout page (``/logout`` is a 404)."""

    @property
    def logout_available(self) -> bool:
        return False


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
