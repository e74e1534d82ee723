"""Players' names at a table: each has a visible character, no two look alike, none looks
like a bot's.

**Invisible and blank characters.** A name is first *cleaned*: characters that Unicode says
a reader never sees (the ``Default_Ignorable_Code_Point`` property: zero-width spaces and
joiners, variation selectors, the Hangul fillers U+3164, U+115F, U+1160 and U+FFA0, tag
characters ...) are dropped; blank ones (the ``White_Space`` property, plus the two
graphic characters that draw nothing although Unicode files them as symbols: U+2800
BRAILLE PATTERN BLANK and U+1D159 MUSICAL SYMBOL NULL NOTEHEAD) become one plain space;
runs of spaces become one, and the ends are trimmed. A name whose cleaned form has no
*visible* character (a letter, digit, punctuation mark or symbol: general categories L, N,
P and S, minus the above) is refused. So "ㅤ" and "⠀⠀" are no names, and "Ann⠀" is "Ann".
The character classes come from ICU's Unicode data (``icu.UnicodeSet`` with property
patterns, through PyICU), which follows each Unicode release.

**Look-alikes.** Two names look alike when their **look-alike keys** are equal: the cleaned
name in Unicode's compatibility form (NFKC), then its UTS #39 *skeleton* (every character
replaced by the prototype it is confusable with: Cyrillic "А" and Greek "Α" by Latin "A",
"1" and "I" by "l", "m" by "rn", "0" by "O"), case-folded (and the skeleton of that,
case-folded). So "Аnn" (Cyrillic А) is refused beside "Ann", "Al" beside "AI" and "A1",
"B0b" beside "Bob", and "Ann⠀" beside "Ann".

The skeleton comes from ICU's spoof checker (``icu.SpoofChecker.getSkeleton``): ICU is the
Unicode Consortium's own implementation of UTS #39 (see docs/tables.md for the libraries
compared).

A bot's seat is named ``Bot N (kind)``; a person may not take a name whose key starts with
the word "bot" (as in "Bot 2 (greedy)", "B0T 2", "⠀bot"), so a bot is never impersonated.
"Botond" and "Abbot" are people's names and stay allowed.

Examples
--------
>>> look_alike_key("Аnn") == look_alike_key("ann")  # Cyrillic А
True
>>> look_alike_key("Sam") == look_alike_key("Sarn")
True
>>> is_bot_name("B0t 2 (greedy)"), is_bot_name("Botond"), is_bot_name("\\u2800Bot 2")
(True, False, True)
>>> clean_name("\\u2800Ann\\u200b\\u3164 Lee\\u2800")
'Ann Lee'
>>> name_problem("\\u3164\\u2800"), name_problem("Ann")
('has no visible character (a letter, a digit or a sign)', None)
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Any

_BOT = re.compile(r"bot(?![^\W\d_])")  # "bot" not followed by a letter

# UnicodeSet patterns (ICU's syntax: property classes, set difference with "-").
_INVISIBLE = r"[:Default_Ignorable_Code_Point:]"
# Symbols that draw nothing: no Unicode property says so (they are "So", like a visible
# symbol), so they are named here.
_BLANK_SYMBOLS = r"\u2800\U0001D159"
_BLANK = rf"[[:White_Space:]{_BLANK_SYMBOLS}]"
_VISIBLE = rf"[[:L:][:N:][:P:][:S:]-{_INVISIBLE}-[{_BLANK_SYMBOLS}]]"


@functools.cache
def _checker() -> Any:
    import icu  # PyICU; imported on first use (a page that never joins a table never loads it)

    return icu.SpoofChecker()


@functools.cache
def _sets() -> tuple[Any, Any, Any]:
    """ICU's sets of invisible, blank and visible characters (frozen: read-only, fast)."""
    import icu

    sets = tuple(icu.UnicodeSet(pattern) for pattern in (_INVISIBLE, _BLANK, _VISIBLE))
    for made in sets:
        made.freeze()
    return sets


def clean_name(name: str) -> str:
    """``name`` without its invisible characters, its blanks as single spaces, trimmed."""
    invisible, blank, _visible = _sets()
    kept = []
    for ch in name:
        if invisible.contains(ch):
            continue
        kept.append(" " if blank.contains(ch) else ch)
    return " ".join("".join(kept).split())


def name_problem(name: str) -> str | None:
    """What makes ``name`` no name (as the end of "your name ..."), or None."""
    _invisible, _blank, visible = _sets()
    if not any(visible.contains(ch) for ch in clean_name(name)):
        return "has no visible character (a letter, a digit or a sign)"
    return None


def look_alike_key(name: str) -> str:
    """What ``name`` looks like to a reader: equal keys, names a reader may confuse."""
    # The skeleton tells "I" from "i" (only the first looks like "l"), so it comes before
    # the case is folded, and once more after (a folded letter may have a prototype too).
    # Cleaning comes first and after NFKC (which may turn one filler into another).
    text = clean_name(unicodedata.normalize("NFKC", clean_name(name)))
    checker = _checker()
    folded = checker.getSkeleton(0, text).casefold()
    return clean_name(unicodedata.normalize("NFKC", checker.getSkeleton(0, folded)).casefold())


def is_bot_name(name: str) -> bool:
    """Whether ``name`` reads as a bot's seat name ("Bot 2 (greedy)" and the like)."""
    return _BOT.match(look_alike_key(name)) is not None
