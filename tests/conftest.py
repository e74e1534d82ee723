"""Fixtures for the tests (helpers for scripted positions live in ``positions.py``)."""

from __future__ import annotations

import pytest
from positions import start

from ttr_nb.game import Game


@pytest.fixture
def game2() -> Game:
    """A two-player USA game just past setup."""
    return start(2)
