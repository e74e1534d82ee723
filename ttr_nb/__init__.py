"""ttr-nb: an unofficial teaching tool for Ticket to Ride and its graph algorithms.

The engine is pure Python: maps, rules, game state and algorithms. Widgets
live in :mod:`ttr_nb.widgets` and only call this API.
"""

from .actions import ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets, Pass, payment
from .errors import IllegalActionError, MapFormatError, SaveFormatError, UnknownVariantError
from .game import Game, Move, new_game
from .maps import Map, available_maps, load_map

__all__ = [
    "ClaimRoute",
    "DrawBlind",
    "DrawFaceUp",
    "DrawTickets",
    "Game",
    "IllegalActionError",
    "KeepTickets",
    "Map",
    "MapFormatError",
    "Move",
    "Pass",
    "SaveFormatError",
    "UnknownVariantError",
    "available_maps",
    "load_map",
    "new_game",
    "payment",
]
