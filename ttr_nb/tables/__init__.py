"""Shared tables: a class plays one game from many browsers (see :mod:`.store`, :mod:`.client`).

Nothing here imports widgets; the app's table panels (``ttr_nb.widgets.tables``) and the
bench (``tools/bench_tables.py``) build on it.
"""

from .codes import normal_code, show_code
from .store import AWAY_AFTER_S, Move, Seated, SeatInfo, TableInfo, TableStore, default_url

__all__ = [
    "AWAY_AFTER_S",
    "Move",
    "SeatInfo",
    "Seated",
    "TableInfo",
    "TableStore",
    "default_url",
    "normal_code",
    "show_code",
]
