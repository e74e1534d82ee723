"""Colours, letters and text marks shared by the board and the panels.

Colour is never the only signal: every card/route colour has a letter and
every player has a number, drawn on the board and shown in the panels, so a
colour-blind learner can tell them apart.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Swatch:
    """How one card/route colour is shown: fill, text colour on it, letter, name."""

    fill: str
    ink: str
    letter: str
    name: str


# Keys are CardType.color / Route.color values; "wild" is the locomotive. Each fill takes its
# ink at a contrast of 4.5:1 or more (WCAG AA for text: the letters on cards and chips).
SWATCHES: dict[str, Swatch] = {
    "purple": Swatch("#9b4fc0", "#ffffff", "P", "purple"),
    "blue": Swatch("#2f6fd6", "#ffffff", "B", "blue"),
    "orange": Swatch("#f08a1c", "#1b1b1b", "O", "orange"),
    "white": Swatch("#fbfbf7", "#1b1b1b", "W", "white"),
    "green": Swatch("#2a7f2a", "#ffffff", "G", "green"),
    "yellow": Swatch("#f5d327", "#1b1b1b", "Y", "yellow"),
    "black": Swatch("#262626", "#ffffff", "K", "black"),
    "red": Swatch("#d63a32", "#ffffff", "R", "red"),
    "gray": Swatch("#a8a8a8", "#1b1b1b", "", "gray (any one colour)"),
    "wild": Swatch("#7d6c44", "#ffffff", "L", "locomotive (wild)"),
    "passenger": Swatch("#e9ddf7", "#3b2460", "Ps", "passenger card"),  # Märklin
}
UNKNOWN_SWATCH = Swatch("#cccccc", "#1b1b1b", "?", "unknown")

# The locomotive card is shown as a rainbow in HTML; the canvas uses its plain fill.
WILD_CSS_BACKGROUND = (
    "linear-gradient(135deg, #d63a32 0%, #f08a1c 20%, #f5d327 40%, #2a7f2a 60%, "
    "#2f6fd6 80%, #9b4fc0 100%)"
)


@dataclass(frozen=True)
class PlayerStyle:
    """A seat's colour and mark (the seat number, printed on its claimed routes)."""

    fill: str
    ink: str
    mark: str
    name: str


# Chosen away from the route colours, and each seat also carries its number.
PLAYER_STYLES: tuple[PlayerStyle, ...] = (
    PlayerStyle("#08807c", "#ffffff", "1", "teal"),
    PlayerStyle("#c2185b", "#ffffff", "2", "raspberry"),
    PlayerStyle("#7b4a1e", "#ffffff", "3", "brown"),
    PlayerStyle("#8bc34a", "#1b1b1b", "4", "lime"),
    PlayerStyle("#4a5fc1", "#ffffff", "5", "indigo"),
)

BOARD_BACKGROUND = "#f4efe1"
BOARD_EDGE = "#d9cfb4"
CITY_FILL = "#fffdf6"
CITY_STROKE = "#3b3b3b"
COUNTRY_FILL = "#e4d3ad"
COUNTRY_STROKE = "#8a6d3b"
PORT_RING = "#1f5f9e"
SPACE_OUTLINE = "#3a3a3a"
SELECTED = "#ff2d95"
HOVER = "#00b7ff"
CLAIMABLE = "#1e7bff"
LABEL_INK = "#222222"
LABEL_HALO = "#f4efe1"


def swatch(color: str) -> Swatch:
    """The swatch for a route or card colour (``"wild"`` for locomotives)."""
    return SWATCHES.get(color, UNKNOWN_SWATCH)


def player_style(seat: int) -> PlayerStyle:
    """Style of seat ``seat`` (0-based)."""
    return PLAYER_STYLES[seat % len(PLAYER_STYLES)]


def hex_to_rgb(color: str) -> tuple[int, int, int]:
    """``"#rrggbb"`` to an (r, g, b) tuple.

    >>> hex_to_rgb("#0b9a96")
    (11, 154, 150)
    """
    value = color.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)
