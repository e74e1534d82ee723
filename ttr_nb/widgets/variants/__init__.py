"""How the app presents each rules variant: one module per variant, the USA rules in ``base``.

The app never branches on the variant: it asks the variant's :class:`VariantUI`
for its board layers, extra panels, labels for choices and end-screen sections.
A variant module registers its class with :func:`register`; a map's tutorial lives beside
it (``*_tutorial.py``) and registers itself with
:func:`~ttr_nb.widgets.tutorial.register_tutorial`.
"""

from __future__ import annotations

# Importing a variant's modules registers its presentation and its map's tutorial.
from . import (  # noqa: F401
    europe,
    europe_tutorial,
    germany,
    germany_tutorial,
    maerklin,
    maerklin_tutorial,
    usa_tutorial,
    world,
    world_tutorial,
)
from .base import VARIANT_UIS, CardRow, Shown, VariantUI, register, ui_class

__all__ = ["VARIANT_UIS", "CardRow", "Shown", "VariantUI", "register", "ui_class"]
