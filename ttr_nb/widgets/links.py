"""Links into the app, and their QR codes: a class joins a table by scanning the board.

A link is the app's own address with one question: ``?table=K7QX4M`` opens the app at that
table's seat choice, ``?map=usa`` starts a game on that map, ``?tutorial=usa`` opens that
map's tutorial. A table link carries the table's join code only, never a seat (a seat comes
back with its seat code or the browser's token) and never a path of the server's files.

How the app learns its link: the page's own JavaScript reads ``location.search`` and sends
it to the kernel (:class:`LinkReader`, an anywidget, as :mod:`.storage` reads
``localStorage``). Voilà passes the query to the kernel's environment (``QUERY_STRING``) only
when it starts a kernel for that request; the project's server hands out kernels started
beforehand (:mod:`ttr_nb.serving`), and Binder's Voilà and the static site run no hook of
ours, so the page is the one place that knows its address everywhere. What it sends is
untrusted, as a typed address would be: :func:`parse_link` keeps one known key with a value
of the right shape, and a table code is then looked up through the store's rate-limited
lookup, like a code typed into the join form.

The QR code is made in the kernel by `segno <https://segno.readthedocs.io>`_ and shown as
inline SVG (no image service, no network): see ``docs/app.md`` for why segno.
"""

from __future__ import annotations

import html
import ipaddress
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlsplit

import anywidget
import ipywidgets as widgets

from ..maps import available_maps
from ..tables.codes import normal_code

if TYPE_CHECKING:
    from .app import GameApp

MAX_QUERY_CHARS = 300  # a longer query is not a link of ours: ignored whole
MAX_BASE_CHARS = 200
LINK_KINDS = ("table", "tutorial", "map")  # the keys a link may carry, in this order
APP_URL_ENV = "TTR_APP_URL"  # the app's public address, when the server knows it better
APP_PORT_ENV = "TTR_APP_PORT"  # the teacher's page: the app's port on the same host
DEFAULT_APP_PORT = 8866
_HOST = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]{1,100})(:[0-9]{1,5})?$")
_PATH = re.compile(r"^/[A-Za-z0-9._~%/-]{0,150}$")


@dataclass(frozen=True)
class Link:
    """What a link asks for: ``kind`` is ``table``, ``tutorial`` or ``map``; ``value`` the
    table's join code (normalised) or a map id."""

    kind: str
    value: str


def parse_link(query: Any) -> Link | None:
    """The link a page's query string asks for, or None (nothing, or nothing of ours).

    Keys other than ``table``, ``tutorial`` and ``map`` are ignored; a known key with a
    value of the wrong shape makes the link say nothing (the caller tells the visitor).
    With several keys, ``table`` wins over ``tutorial``, which wins over ``map``.

    Examples
    --------
    >>> parse_link("?table=k7q-x4m")
    Link(kind='table', value='K7QX4M')
    >>> parse_link("?table=K7Q%20X4M&utm=x")
    Link(kind='table', value='K7QX4M')
    >>> parse_link("?map=usa"), parse_link("?tutorial=germany").kind
    (Link(kind='map', value='usa'), 'tutorial')
    >>> parse_link("?table=../../etc") is None, parse_link("?map=atlantis") is None
    (True, True)
    >>> parse_link("?token=abc") is None, parse_link(None) is None
    (True, True)
    """
    if not isinstance(query, str) or len(query) > MAX_QUERY_CHARS:
        return None
    pairs = {}
    for key, value in parse_qsl(query.removeprefix("?"), keep_blank_values=True):
        if key in LINK_KINDS and key not in pairs:
            pairs[key] = value
    for kind in LINK_KINDS:
        if kind not in pairs:
            continue
        value = pairs[kind].strip()
        if kind == "table":
            code = normal_code(value)
            return Link("table", code) if code else None
        name = value.lower()
        return Link(kind, name) if name in available_maps() else None
    return None


def asked_for(query: Any) -> str | None:
    """Which known key a query names, even with a value we refuse (to say so), or None.

    >>> asked_for("?table=nope"), asked_for("?q=1")
    ('table', None)
    """
    if not isinstance(query, str) or len(query) > MAX_QUERY_CHARS:
        return None
    keys = {key for key, _ in parse_qsl(query.removeprefix("?"), keep_blank_values=True)}
    return next((kind for kind in LINK_KINDS if kind in keys), None)


def checked_base(origin: Any, path: Any = "/") -> str | None:
    """The app's address from what the page says of its own (``location.origin`` and
    ``location.pathname``), or None when it does not look like one. Its query and fragment
    are never kept (the teacher's page carries a login token there).

    >>> checked_base("http://192.168.1.10:8866", "/")
    'http://192.168.1.10:8866/'
    >>> checked_base("https://hub.example.org", "/user/ann/voila/render/app.ipynb")
    'https://hub.example.org/user/ann/voila/render/app.ipynb'
    >>> checked_base("javascript:alert(1)", "/") is None
    True
    >>> checked_base("http://x.org", "/a b<script>") is None
    True
    """
    if not isinstance(origin, str) or not isinstance(path, str):
        return None
    if len(origin) + len(path) > MAX_BASE_CHARS:
        return None
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or parts.path or parts.query or parts.fragment:
        return None
    if not _HOST.match(parts.netloc) or "@" in parts.netloc:
        return None
    path = path or "/"
    if not _PATH.match(path) or "//" in path or "/../" in f"{path}/":
        return None
    return f"{parts.scheme}://{parts.netloc}{path}"


def table_link(base: str, code: str) -> str:
    """The link that opens the app at table ``code``'s seat choice.

    >>> table_link("http://10.0.0.5:8866/", "K7QX4M")
    'http://10.0.0.5:8866/?table=K7QX4M'
    """
    return f"{base}?table={code}"


def map_link(base: str, map_id: str, tutorial: bool = False) -> str:
    """The link that opens a game on ``map_id`` (or its tutorial).

    >>> map_link("http://10.0.0.5:8866/", "usa", tutorial=True)
    'http://10.0.0.5:8866/?tutorial=usa'
    """
    return f"{base}?{'tutorial' if tutorial else 'map'}={map_id}"


def names_this_machine_only(link: str) -> bool:
    """Whether ``link`` names the computer it is opened on (``127.0.0.1``, ``localhost``):
    a student's device would open itself, not the class's server.

    >>> names_this_machine_only("http://127.0.0.1:8866/?table=K7QX4M")
    True
    >>> names_this_machine_only("http://192.168.1.10:8866/?table=K7QX4M")
    False
    """
    host = (urlsplit(link).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def qr_svg(text: str, title: str = "") -> str:
    """``text`` as a QR code in inline SVG that scales to its box (CSS sets the size).

    Error correction M at least (segno raises it while the code stays as small), a quiet
    zone of 4 modules as the standard asks, black on white.

    >>> svg = qr_svg("http://10.0.0.5:8866/?table=K7QX4M")
    >>> svg.startswith("<svg") and "viewBox" in svg
    True
    """
    import segno  # a page that shows no link never loads it

    code = segno.make(text, error="m", micro=False)
    return code.svg_inline(
        scale=1, border=4, dark="#000", light="#fff", omitsize=True, title=title or None
    )


_ESM = """
export default {
  initialize({ model }) {
    model.on("msg:custom", (msg) => {
      if (msg.kind === "forget" && window.history && window.history.replaceState) {
        try { window.history.replaceState(null, "", window.location.pathname); } catch (e) {}
      }
    });
    model.send({ kind: "link", query: String(window.location.search || "").slice(0, %(q)d),
                 origin: String(window.location.origin || "").slice(0, %(b)d),
                 path: String(window.location.pathname || "/").slice(0, %(b)d) });
  },
  render({ el }) { el.style.display = "none"; },
};
"""


class LinkReader(anywidget.AnyWidget):
    """Tells the kernel the page's own address: its query (the link followed) and its base
    (to make links to this app). Both are untrusted: see :func:`parse_link` and
    :func:`checked_base`.

    ``on_link(callback)``: ``callback(query, base)`` once per page load, ``base`` None
    when the page's address does not look like an app's.
    """

    _esm = _ESM % {"q": MAX_QUERY_CHARS + 1, "b": MAX_BASE_CHARS}

    def __init__(self) -> None:
        super().__init__()
        self._listeners: list[Callable[[str, str | None], None]] = []
        self.query = ""
        self.base: str | None = None
        self.heard = False
        self.on_msg(self._received)

    def on_link(self, callback: Callable[[str, str | None], None]) -> None:
        """Call ``callback(query, base)`` when the page reports its address."""
        self._listeners.append(callback)

    def forget(self) -> None:
        """Take the question off the page's address (a reload does not follow it again)."""
        self.send({"kind": "forget"})

    def _received(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict) or content.get("kind") != "link" or self.heard:
            return
        self.heard = True  # the first answer counts: a page load sends one
        query = content.get("query")
        self.query = query if isinstance(query, str) else ""
        self.base = checked_base(content.get("origin"), content.get("path"))
        for listener in self._listeners:
            listener(self.query, self.base)


def app_base(page_base: str | None, environ: Any = None, teacher: bool = False) -> str | None:
    """The app's address for links: ``TTR_APP_URL`` when the server sets it, else the page's
    own (the app's page), else, on the teacher's page, the same host at the app's port
    (``TTR_APP_PORT``, 8866 by default).

    >>> app_base("http://10.0.0.5:8866/", {})
    'http://10.0.0.5:8866/'
    >>> app_base("http://10.0.0.5:8867/", {}, teacher=True)
    'http://10.0.0.5:8866/'
    >>> app_base("http://10.0.0.5:8867/", {"TTR_APP_URL": "https://ttr.school.org/"})
    'https://ttr.school.org/'
    """
    import os

    env = os.environ if environ is None else environ
    configured = env.get(APP_URL_ENV, "")
    if configured:
        parts = urlsplit(configured)
        base = checked_base(f"{parts.scheme}://{parts.netloc}", parts.path or "/")
        if base is not None:
            return base
    if page_base is None:
        return None
    if not teacher:
        return page_base
    parts = urlsplit(page_base)
    try:
        port = int(env.get(APP_PORT_ENV, "") or DEFAULT_APP_PORT)
    except ValueError:
        port = DEFAULT_APP_PORT
    host = parts.hostname or ""
    host = f"[{host}]" if ":" in host else host
    return checked_base(f"{parts.scheme}://{host}:{port}", "/")


LINK_CSS = """<style>
.ttr-link-box { align-items: flex-start; }
.ttr-link-words a { overflow-wrap: anywhere; color: #1a5fb4; text-decoration: underline; }
.ttr-link-qr svg { width: 168px; height: 168px; display: block; }
.ttr-link-box.ttr-qr-big { position: fixed !important; inset: 0; z-index: 10000;
  background: #fff; align-items: center !important; justify-content: center;
  overflow: auto; padding: 2vh 2vw; box-sizing: border-box; }
.ttr-link-box.ttr-qr-big .ttr-link-qr svg { width: min(72vh, 94vw); height: min(72vh, 94vw); }
.ttr-link-box.ttr-qr-big .ttr-link-words { font-size: min(3.2vh, 4vw); text-align: center; }
.ttr-link-box.ttr-qr-big .ttr-link-words b { font-size: 1.6em; letter-spacing: 0.08em; }
</style>"""


class LinkBox:
    """A table's link, its QR code, and *Show big* (the code fills the window, for a
    projector: scanned from the back of a classroom)."""

    def __init__(self, guard: Callable[..., Any], cls: str = "ttr-link-box") -> None:
        self.words = widgets.HTML(_dom_classes=["ttr-link-words"])
        self.qr = widgets.HTML(_dom_classes=["ttr-link-qr"])
        self.big = widgets.ToggleButton(
            value=False,
            description="Show big (for a projector)",
            tooltip="The QR code fills the window; press again to close it",
            _dom_classes=["ttr-link-big"],
            layout=widgets.Layout(width="auto", min_width="fit-content"),
        )
        self.big.observe(guard(lambda _c: self._show_big()), names="value")
        self.link = ""
        self.widget = widgets.VBox(
            [widgets.HTML(LINK_CSS), self.qr, self.words, self.big],
            _dom_classes=[cls, "ttr-link-box"],
            layout=widgets.Layout(display="none"),
        )

    def show(self, link: str | None, code_text: str, what: str) -> None:
        """Show ``link`` (None: the page's address is not known yet) under ``what``
        (``Table K7Q X4M``), with ``code_text`` in big letters beside it."""
        if not link:
            self.clear()
            return
        if link == self.link and self.widget.layout.display == "":
            return
        self.link = link
        safe = html.escape(link, quote=True)
        local = (
            "<div class='ttr-bad-note ttr-link-local'>This link names this computer itself, "
            "so other devices cannot open it: serve the app on the class's network (make app "
            "HOST=0.0.0.0) and open this page by the computer's network address (or set "
            f"{APP_URL_ENV}).</div>"
            if names_this_machine_only(link)
            else ""
        )
        self.words.value = (
            f"<div>{html.escape(what)}: scan the code or open <a href='{safe}' target='_blank' "
            f"rel='noopener' class='ttr-link-url' data-link='{safe}'>{safe}</a>"
            f" (table code <b>{html.escape(code_text)}</b>)</div>{local}"
        )
        self.qr.value = qr_svg(link, title=what)
        self.widget.layout.display = ""

    def clear(self) -> None:
        """Show no link (the page left its table)."""
        self.link = ""
        self.big.value = False
        self.widget.layout.display = "none"

    def _show_big(self) -> None:
        if self.big.value:
            self.widget.add_class("ttr-qr-big")
            self.big.description = "Close the big code"
        else:
            self.widget.remove_class("ttr-qr-big")
            self.big.description = "Show big (for a projector)"


def follow_link(app: GameApp, query: str, base: str | None) -> None:
    """What the app does with its page's address: a link to a table opens its seat choice,
    one to a map starts a game there, one to a tutorial opens it (a map without a tutorial:
    a game on that map)."""
    tables = app.tables
    tables.page_base = base
    if tables.active:
        tables.render()  # the table's link can be shown now
    link = parse_link(query)
    if link is None:
        asked = asked_for(query)
        if asked is not None:
            what = "table code" if asked == "table" else "map"
            app._set_status(
                f"This page's link names no {what} the app knows: check the link.", bad=True
            )
        return
    if link.kind == "table":
        tables.follow_link(link.value)
        return
    app.links.forget()  # a reload does not start the game again
    if link.kind == "tutorial":
        try:
            app.start_tutorial(link.value)
        except ValueError:  # a map without a tutorial: a game on it instead
            pass
        else:
            app.first_screen.close()
            return
    if link.value not in [value for _, value in app.setup.map_picker.options]:
        return
    app.setup.map_picker.value = link.value
    app.first_screen.close()
    app.confirm_discard("Start a new game", app.start)
