"""What the rules use of a game: its state, its random generator and its history.

:class:`ttr_nb.game.Game` imports the rules to play them, so the rules never import the
game module: their hooks take any object with these attributes (in practice a
:class:`~ttr_nb.game.Game`, which the rule modules name ``Game`` in their annotations).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from ..state import GameState

__all__ = ["GameView"]


class GameView(Protocol):
    """A game as the rules see it."""

    @property
    def state(self) -> GameState:
        """The game's plain-data state, which the rules change in place."""

    @property
    def rng(self) -> random.Random:
        """The game's seeded generator: every shuffle and draw comes from it."""

    @property
    def history(self) -> Sequence[Any]:
        """The moves played so far, oldest first."""
