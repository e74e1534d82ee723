"""Join codes, seat codes and seat tokens: made hard to guess, stored only as hashes.

A **join code** is read out in class or written on the board, so it is short, has no
look-alike characters (no 0/O, 1/I/L) and is typed in any case, with or without the space.
A **seat code** brings a player back to their seat from another device. A **seat token** is
the long secret a page keeps in its browser to come back without typing anything.

With 6 characters from 31, a code is one of 887 million; at the rate the store lets one client
address try codes (100 wrong ones an hour, :mod:`.limits`), finding any of 500 open tables
takes about 2 years on average.

Examples
--------
>>> code = new_code()
>>> len(code), code == normal_code(code.lower()[:3] + " " + code[3:])
(6, True)
>>> show_code("K7QX4M")
'K7Q X4M'
>>> normal_code("k7q-x4m")
'K7QX4M'
"""

from __future__ import annotations

import hashlib
import secrets

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0, O, 1, I, L
CODE_LENGTH = 6
MAX_TYPED_CODE = 20  # anything longer typed into a code box is refused before any work


def new_code() -> str:
    """A fresh random code (join code or seat code)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def new_token() -> str:
    """A fresh seat token (kept by the browser; 192 random bits)."""
    return secrets.token_urlsafe(24)


def digest(secret: str) -> str:
    """What the store keeps of a token or a seat code: its SHA-256, never the secret."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def normal_code(typed: str) -> str | None:
    """The code a player meant (case, spaces and dashes ignored), or None if it cannot be one.

    >>> normal_code("abc-def")
    'ABCDEF'
    >>> normal_code("IO1L00") is None  # look-alike characters are never in a code
    True
    """
    if not isinstance(typed, str) or len(typed) > MAX_TYPED_CODE:
        return None
    code = "".join(ch for ch in typed.upper() if ch not in " -")
    if len(code) != CODE_LENGTH or any(ch not in ALPHABET for ch in code):
        return None
    return code


def show_code(code: str) -> str:
    """A code as shown on screen and read out: two groups of three."""
    return f"{code[:3]} {code[3:]}"
