"""What crosses between a page and the table service: requests, answers, refusals, passes.

Both sides import this module: the service (:mod:`ttr_nb.table_service`) turns a refusal
into JSON with :func:`error_data`, and a page's client (:mod:`.remote`) turns it back into
the same typed error with :func:`error_from`, so the page reacts to a
:class:`~ttr_nb.errors.StaleMoveError` or a :class:`~ttr_nb.errors.SeatElsewhereError` as it
would to the store's own. Nothing else crosses: no traceback, no server path (those go to
the service's log).

A **page pass** tells the service who asks when there is no JupyterHub: the Voilà server
that serves the page signs ``{page, address, role}`` with the service's key (HMAC-SHA256)
and hands it to the page's kernel (a first cell, :func:`ttr_nb.serving.note_client`). The
kernel cannot make or change one (it never sees the key) and the page never sees it (Voilà
strips code cells). Behind JupyterHub the kernel shows the hub's own token instead.

Examples
--------
>>> key = b"k" * 32
>>> text = mint_pass(key, "page-1", "192.0.2.7", now=1000.0)
>>> read_pass(key, text, now=1001.0)
PagePass(page='page-1', address='192.0.2.7', teacher=False)
>>> read_pass(b"x" * 32, text, now=1001.0) is None  # another key: refused
True
>>> read_pass(key, text, now=1000.0 + PASS_TTL_S + 1) is None  # too old
True
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from typing import Any

from .. import errors

PASS_TTL_S = 7 * 86400.0  # a page pass is good this long (a page open for a week of lessons)
MAX_BODY = 64_000  # the longest request a page may send (a move is under 2,000 characters)

# The refusals a page may receive, by name: the table errors and the rules' refusal.
_ERRORS: dict[str, type[Exception]] = {
    cls.__name__: cls
    for cls in (
        errors.TableError,
        errors.UnknownTableError,
        errors.TableClosedError,
        errors.SeatError,
        errors.SeatTokenError,
        errors.StaleMoveError,
        errors.TooManyAttemptsError,
        errors.SeatElsewhereError,
        errors.CorruptMoveError,
        errors.StoreFaultError,
        errors.StoreUnavailableError,
        errors.StoreReadOnlyError,
        errors.StoreFullError,
        errors.IllegalActionError,
    )
}


def error_data(exc: Exception) -> dict[str, Any]:
    """A refusal as JSON data: its type and its sentence (and the fields of a rules refusal
    and of a damaged move, which pages show in their own words)."""
    data: dict[str, Any] = {"type": type(exc).__name__, "message": str(exc)}
    if isinstance(exc, errors.IllegalActionError):
        data.update(player=exc.player, action=str(exc.action), rule=exc.rule)
    elif isinstance(exc, errors.CorruptMoveError):
        data.update(table_id=exc.table_id, number=exc.number, reason=exc.reason, code=exc.code)
    if data["type"] not in _ERRORS:
        data["type"] = "TableError"
    return data


def error_from(data: Any) -> Exception:
    """The typed error :func:`error_data` described (a plain :class:`TableError` for
    anything unexpected).

    >>> error_from(error_data(errors.StaleMoveError("the table moved on")))
    StaleMoveError('the table moved on')
    >>> error_from({"type": "IllegalActionError", "player": "Ann", "action": "claim X",
    ...             "rule": "it is Ben's turn"})
    IllegalActionError("Ann cannot claim X: it is Ben's turn")
    """
    if not isinstance(data, dict):
        return errors.TableError("the table service gave an answer this page cannot read")
    kind = _ERRORS.get(str(data.get("type")), errors.TableError)
    message = str(data.get("message", ""))
    try:
        if kind is errors.IllegalActionError:
            return errors.IllegalActionError(
                str(data["player"]), str(data["action"]), str(data["rule"])
            )
        if kind is errors.CorruptMoveError:
            code = data.get("code")
            return errors.CorruptMoveError(
                int(data["table_id"]),
                int(data["number"]),
                str(data["reason"]),
                str(code) if code is not None else None,
            )
    except (KeyError, TypeError, ValueError):
        return errors.TableError(message or "the table service refused this")
    return kind(message)


@dataclass(frozen=True)
class PagePass:
    """Who a page is, as its server signed it (see the module)."""

    page: str
    address: str
    teacher: bool = False


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def mint_pass(
    key: bytes, page: str, address: str, teacher: bool = False, now: float | None = None
) -> str:
    """A page pass for ``page`` at client ``address`` (a teacher's page: ``teacher``),
    signed with the service's ``key``."""
    issued = time.time() if now is None else now
    body = json.dumps(
        {"page": page, "address": address, "teacher": bool(teacher), "at": issued},
        separators=(",", ":"),
    ).encode("utf-8")
    tag = hmac.new(key, body, hashlib.sha256).digest()
    return f"{_b64(body)}.{_b64(tag)}"


def read_pass(key: bytes, text: Any, now: float | None = None) -> PagePass | None:
    """The pass ``text`` describes, if ``key`` signed it less than :data:`PASS_TTL_S` ago;
    else None."""
    if not isinstance(text, str) or len(text) > 1000 or text.count(".") != 1:
        return None
    body_text, tag_text = text.split(".")
    try:
        body, tag = _unb64(body_text), _unb64(tag_text)
    except (ValueError, TypeError):
        return None
    if not hmac.compare_digest(hmac.new(key, body, hashlib.sha256).digest(), tag):
        return None
    try:
        data = json.loads(body)
        page, address, teacher, issued = (
            str(data["page"]),
            str(data["address"]),
            bool(data["teacher"]),
            float(data["at"]),
        )
    except (ValueError, KeyError, TypeError):
        return None
    current = time.time() if now is None else now
    if not issued - 60 <= current <= issued + PASS_TTL_S:
        return None
    return PagePass(page[:64], address[:64], teacher)
