"""How far apart the game's colours stay for colour-blind eyes, and what tells the close ones
apart (docs/accessibility.md includes the tables this writes; ``tests/test_colour_vision.py``
holds the cues to them).

Each card and route colour (and each seat's colour) is seen as by a dichromat, simulated
with daltonlens (Brettel, Viénot and Mollon 1997, full severity: the model that also holds
for tritanopia), and every pair is compared by CIEDE2000 (basic-colormath, checked in the
tests against Sharma, Wu and Dalal's published pairs). A pair closer than ``CLOSE`` is one
to tell apart by the second cue, never by hue: the letter printed on every space, card and
chip (a seat's number on its claimed routes).

    python tools/colour_vision.py            # prints the tables (Markdown)
"""

from __future__ import annotations

import itertools
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from basic_colormath import get_delta_e, rgb_to_lab
from daltonlens import simulate

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from ttr_nb.widgets import style  # noqa: E402

SIMULATIONS: dict[str, simulate.Deficiency | None] = {
    "normal vision": None,
    "deuteranopia": simulate.Deficiency.DEUTAN,
    "protanopia": simulate.Deficiency.PROTAN,
    "tritanopia": simulate.Deficiency.TRITAN,
}
CLOSE = 12.0
"""A CIEDE2000 distance under which two small marks (a 6-pixel-wide space, a chip) are not
told apart at a glance: such pairs must differ in their letter or number."""

_SIMULATOR = simulate.Simulator_Brettel1997()


@dataclass(frozen=True)
class Pair:
    """Two game colours and their CIEDE2000 distance under one simulation."""

    distance: float
    a: str
    b: str


def card_colours() -> dict[str, style.Swatch]:
    """Every card and route colour the game shows, by name (the locomotive included)."""
    return dict(style.SWATCHES)


def seat_colours() -> dict[str, style.PlayerStyle]:
    """Every seat's colour, by its number."""
    return {f"seat {p.mark} ({p.name})": p for p in style.PLAYER_STYLES}


def seen(fill: str, deficiency: simulate.Deficiency | None) -> tuple[int, int, int]:
    """The sRGB colour ``fill`` looks like under ``deficiency`` (None: as it is)."""
    rgb = style.hex_to_rgb(fill)
    if deficiency is None:
        return rgb
    image = np.array([[rgb]], dtype=np.uint8)
    r, g, b = _SIMULATOR.simulate_cvd(image, deficiency, severity=1.0)[0, 0]
    return int(r), int(g), int(b)


def pairs(fills: dict[str, str], deficiency: simulate.Deficiency | None) -> list[Pair]:
    """Every pair of ``fills`` with its CIEDE2000 distance under ``deficiency``, closest
    first."""
    looks = {name: seen(fill, deficiency) for name, fill in fills.items()}
    found = [
        Pair(float(get_delta_e(looks[a], looks[b])), a, b)
        for a, b in itertools.combinations(sorted(fills), 2)
    ]
    return sorted(found, key=lambda p: (p.distance, p.a, p.b))


def contrast(fill: tuple[int, int, int], ink: tuple[int, int, int]) -> float:
    """WCAG's contrast ratio of two sRGB colours."""

    def luminance(rgb: tuple[int, int, int]) -> float:
        channels = [c / 255 for c in rgb]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(fill), luminance(ink)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def lightness(fill: str) -> float:
    """CIELAB lightness L* of a colour (what a gray-scale print keeps)."""
    return float(rgb_to_lab(style.hex_to_rgb(fill))[0])


def _cue(name: str) -> str:
    swatches = card_colours()
    if name in swatches:
        letter = swatches[name].letter
        return f"**{letter}**" if letter else "no letter"
    return f"**{name.split()[1]}**"  # a seat: its number


def _table(fills: dict[str, str], what: str) -> str:
    lines = [
        f"| seen with | closest two {what} | CIEDE2000 | pairs under {CLOSE:g}, told apart by |",
        "| --- | --- | ---: | --- |",
    ]
    for vision, deficiency in SIMULATIONS.items():
        found = pairs(fills, deficiency)
        nearest = found[0]
        close = [p for p in found if p.distance < CLOSE]
        told = "; ".join(f"{p.a} {_cue(p.a)} / {p.b} {_cue(p.b)} ({p.distance:.1f})" for p in close)
        lines.append(
            f"| {vision} | {nearest.a} and {nearest.b} | {nearest.distance:.1f} | "
            f"{told or 'none'} |"
        )
    return "\n".join(lines) + "\n"


def tables() -> str:
    """The Markdown tables of docs/accessibility.md: card and route colours, then seats."""
    cards = {name: sw.fill for name, sw in card_colours().items()}
    seats = {name: p.fill for name, p in seat_colours().items()}
    return (
        "<!-- Written by tools/colour_vision.py at each docs build; do not edit. -->\n\n"
        "Card and route colours (the locomotive's plain fill; its cards also show a "
        "rainbow):\n\n" + _table(cards, "colours") + "\nSeat colours (on claimed routes, "
        "stations, harbors and chips):\n\n" + _table(seats, "seats")
    )


if __name__ == "__main__":
    print(tables())
