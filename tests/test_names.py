"""Names at a shared table with invisible or blank characters (issue 49, item 6).

U+2800 (braille blank) and the Hangul fillers print as nothing, yet Python calls them
printable: "Ann⠀" sat beside "Ann", "⠀Bot 2 (greedy)" got round the bots' names, and a
name of "⠀" or "ㅤ" alone was taken. Every test runs on SQLite and on PostgreSQL, through
the store's own calls; a refused seat changes nothing.
"""

from __future__ import annotations

import re
import sys
import unicodedata

import pytest
from tables_fixtures import postgres_url, store  # noqa: F401 - fixtures

from ttr_nb.errors import SeatError
from ttr_nb.tables.names import clean_name, look_alike_key, name_problem

BRAILLE_BLANK = "\u2800"
HANGUL_FILLERS = ["\u3164", "\u115f", "\u1160", "\uffa0"]
# Characters a reader cannot see, each with a reason Unicode gives (or the blank symbols).
UNSEEN = [
    BRAILLE_BLANK,
    *HANGUL_FILLERS,
    "\ufe0f",  # variation selector 16 (a Default_Ignorable mark)
    "\u034f",  # combining grapheme joiner
    "\u17b4",  # Khmer vowel inherent AQ
    "\U0001d159",  # musical symbol null notehead
]


def two_seats(store, first: str = "Ann") -> tuple:  # noqa: F811
    made = store.create_table("usa", ["human", "human", "human"], first, session="a")
    return made, store.table(made.code)


@pytest.mark.parametrize("unseen", UNSEEN, ids=lambda c: f"U+{ord(c):04X}")
def test_a_name_with_an_unseen_character_looks_like_the_name_without_it(store, unseen):  # noqa: F811
    made, before = two_seats(store)
    for name in (f"Ann{unseen}", f"{unseen}Ann", f"{unseen}Ann{unseen}{unseen}"):
        with pytest.raises(SeatError, match="already called|looks too much like"):
            store.join(made.code, name, 1, session=f"b-{name}")
    after = store.table(made.code)
    assert (after.seats, after.status) == (before.seats, before.status)


@pytest.mark.parametrize(
    "name",
    [
        f"{BRAILLE_BLANK}Bot 2 (greedy)",
        "\u3164Bot 2 (greedy)",
        f"Bot{BRAILLE_BLANK}",
        "B\ufe0fot 3",
    ],
)
def test_an_unseen_character_does_not_get_round_the_bots_names(store, name):  # noqa: F811
    made, _ = two_seats(store)
    with pytest.raises(SeatError, match="reads as a bot's name"):
        store.join(made.code, name, 1, session="b")
    with pytest.raises(SeatError, match="reads as a bot's name"):
        store.create_table("usa", ["human", "human"], name, session="c")


@pytest.mark.parametrize(
    "name",
    [
        BRAILLE_BLANK,
        BRAILLE_BLANK * 5,
        "\u3164",
        "\u3164" * 3,
        "\u115f\u1160",
        "\uffa0",
        f"{BRAILLE_BLANK} \u3164",
        "\U0001d159",
        "\ufe0f",
        "\u0301\u0301",  # combining marks with nothing to sit on
    ],
    ids=lambda n: "+".join(f"U+{ord(c):04X}" for c in n),
)
def test_a_name_with_no_visible_character_is_refused(store, name):  # noqa: F811
    made, before = two_seats(store)
    with pytest.raises(SeatError, match=re.escape("your name has no visible character")):
        store.join(made.code, name, 1, session="b")
    with pytest.raises(SeatError, match=re.escape("your name has no visible character")):
        store.create_table("usa", ["human", "human"], name, session="c")
    after = store.table(made.code)
    assert (after.seats, after.status) == (before.seats, before.status)


def test_a_name_is_kept_as_it_is_seen(store):  # noqa: F811
    """Blanks and invisible characters are not kept: the others see the name they read."""
    made, _ = two_seats(store, f"{BRAILLE_BLANK}Ann\u3164 \u2800Lee{BRAILLE_BLANK}")
    store.join(made.code, "Ben\ufe0f", 1, session="b")
    assert store.table(made.code).seats[0].name == "Ann Lee"
    assert store.table(made.code).seats[1].name == "Ben"


@pytest.mark.parametrize("name", ["Zoë", "李雷", "O'Brien", "Ann-Marie", "😀 Sam", "Ω", "42"])
def test_people_s_names_still_sit(store, name):  # noqa: F811
    made, _ = two_seats(store)
    seated = store.join(made.code, name, 1, session="b")
    assert seated.seat == 1 and store.table(made.code).seats[1].name == name


@pytest.mark.parametrize("unseen", ["\ufe0f", "\u034f", *HANGUL_FILLERS], ids=ascii)
def test_an_invisible_character_inside_a_name_is_dropped(unseen):
    assert clean_name(f"A{unseen}nn") == "Ann"
    assert look_alike_key(f"A{unseen}nn") == look_alike_key("Ann")


def test_every_space_alone_is_no_name():
    """Checked against Python's own Unicode tables, not ICU's: each space separator (Zs),
    alone or around a name, is no name and no part of one."""
    spaces = [chr(p) for p in range(sys.maxunicode + 1) if unicodedata.category(chr(p)) == "Zs"]
    assert len(spaces) == 17
    for ch in spaces:
        assert name_problem(ch * 2) is not None, f"U+{ord(ch):04X}"
        assert clean_name(f"{ch}Ann{ch}") == "Ann", f"U+{ord(ch):04X}"
        assert look_alike_key(f"{ch}Ann") == look_alike_key("Ann"), f"U+{ord(ch):04X}"
