"""Jupyter widgets for ttr-nb: the board and the game app (needs the ``app`` extra).

``launch()`` displays the whole app; :class:`BoardWidget` is the board alone.
"""

from .app import GameApp, launch
from .board import BoardPieces, BoardWidget
from .geometry import BoardGeometry, board_geometry, board_size

__all__ = [
    "BoardGeometry",
    "BoardPieces",
    "BoardWidget",
    "GameApp",
    "board_geometry",
    "board_size",
    "launch",
]
