"""Shared tables: a class plays one game from many browsers.

The table service (:mod:`.service`, served over HTTP by :mod:`ttr_nb.table_service`) holds
the store (:mod:`.store`), the seeds and the referee (:mod:`.referee`) and moves the bots
(:mod:`.bot_runner`); a page holds only its client (:mod:`.remote`) and its seat's view
(:mod:`.seat_game`). Nothing here imports widgets; the app's table panel
(``ttr_nb.widgets.tables``), the teacher's page and the bench (``tools/bench_tables.py``)
build on it. The store (and with it SQLAlchemy) is imported on first use, so a page that
never opens a table never loads it (the static site has no database).
"""

from __future__ import annotations

from typing import Any

from .codes import normal_code, show_code

_LAZY = {
    "AWAY_AFTER_S",
    "Limits",
    "Move",
    "SeatInfo",
    "Seated",
    "TableInfo",
    "TableStore",
    "default_url",
    "open_store",
}

__all__ = [  # noqa: RUF022 - the lazy names, then the codes
    "AWAY_AFTER_S",
    "Limits",
    "Move",
    "SeatInfo",
    "Seated",
    "TableInfo",
    "TableStore",
    "default_url",
    "open_store",
    "normal_code",
    "show_code",
]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from . import store

        return getattr(store, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
