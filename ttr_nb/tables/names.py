"""Players' names at a table: no two that look alike, and none that looks like a bot's.

Two names look alike when their **look-alike keys** are equal: the name in Unicode's
compatibility form (NFKC), then its UTS #39 *skeleton* (every character replaced by the
prototype it is confusable with: Cyrillic "А" and Greek "Α" by Latin "A", "1" and "I" by
"l", "m" by "rn", "0" by "O"), case-folded (and the skeleton of that, case-folded). So "Аnn"
(Cyrillic А) is refused beside "Ann", "Al" beside "AI" and "A1", "B0b" beside "Bob".

The skeleton comes from ICU's spoof checker (``icu.SpoofChecker.getSkeleton``, through
PyICU): ICU is the Unicode Consortium's own implementation of UTS #39, updated with each
Unicode release (see docs/tables.md for the libraries compared).

A bot's seat is named ``Bot N (kind)``; a person may not take a name whose key starts with
the word "bot" (as in "Bot 2 (greedy)", "B0T 2", "bot"), so a bot is never impersonated.
"Botond" and "Abbot" are people's names and stay allowed.

Examples
--------
>>> look_alike_key("Аnn") == look_alike_key("ann")  # Cyrillic А
True
>>> look_alike_key("Sam") == look_alike_key("Sarn")
True
>>> is_bot_name("B0t 2 (greedy)"), is_bot_name("Botond")
(True, False)
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Any

_BOT = re.compile(r"bot(?![^\W\d_])")  # "bot" not followed by a letter


@functools.cache
def _checker() -> Any:
    import icu  # PyICU; imported on first use (a page that never joins a table never loads it)

    return icu.SpoofChecker()


def look_alike_key(name: str) -> str:
    """What ``name`` looks like to a reader: equal keys, names a reader may confuse."""
    # The skeleton tells "I" from "i" (only the first looks like "l"), so it comes before
    # the case is folded, and once more after (a folded letter may have a prototype too).
    text = " ".join(unicodedata.normalize("NFKC", name).split())
    checker = _checker()
    folded = checker.getSkeleton(0, text).casefold()
    return unicodedata.normalize("NFKC", checker.getSkeleton(0, folded)).casefold()


def is_bot_name(name: str) -> bool:
    """Whether ``name`` reads as a bot's seat name ("Bot 2 (greedy)" and the like)."""
    return _BOT.match(look_alike_key(name)) is not None
