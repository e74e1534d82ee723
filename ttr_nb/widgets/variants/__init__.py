"""How the app presents each rules variant: one module per variant, the USA rules in ``base``.

The app never branches on the variant: it asks the variant's :class:`VariantUI`
for its board layers, extra panels, labels for choices and end-screen sections.
A variant module registers its class with :func:`register`.
"""

from __future__ import annotations

from . import europe, germany, maerklin, world  # noqa: F401  (they register their presentations)
from .base import VARIANT_UIS, CardRow, Shown, VariantUI, register, ui_class

__all__ = ["VARIANT_UIS", "CardRow", "Shown", "VariantUI", "register", "ui_class"]
