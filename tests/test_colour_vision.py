"""Colour is never the only cue: the game's colours seen by colour-blind eyes (simulated),
the letters and numbers that tell the close ones apart, and the table the docs print.

The browser's side (the board's screenshot seen through each simulation) is in
``tests/test_browser_a11y.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("daltonlens")
pytest.importorskip("basic_colormath")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import colour_vision as cv  # noqa: E402
from basic_colormath import get_delta_e_lab  # noqa: E402

from ttr_nb import load_map  # noqa: E402
from ttr_nb.maps import available_maps  # noqa: E402
from ttr_nb.widgets import GameApp, style  # noqa: E402
from ttr_nb.widgets.board_art import static_art  # noqa: E402
from ttr_nb.widgets.geometry import board_geometry, board_size  # noqa: E402

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("lab1", "lab2", "expected"),
    [  # Sharma, Wu and Dalal (2005), the CIEDE2000 test data: pairs 1, 7 and 17
        ((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),
        ((50, 0, 0), (50, -1, 2), 2.3669),
        ((50, 2.5, 0), (73, 25, -18), 27.1492),
    ],
)
def test_the_distance_is_ciede2000(lab1: tuple, lab2: tuple, expected: float) -> None:
    assert get_delta_e_lab(lab1, lab2) == pytest.approx(expected, abs=1e-4)


def test_the_simulation_makes_red_and_green_alike_for_a_deuteranope() -> None:
    """The simulation does what it says: red and green are far apart for normal vision and
    close for a deuteranope; blue and yellow stay apart for both."""
    red, green = style.SWATCHES["red"].fill, style.SWATCHES["green"].fill
    normal = {p.a + p.b: p.distance for p in cv.pairs({"r": red, "g": green}, None)}
    deutan = {
        p.a + p.b: p.distance
        for p in cv.pairs({"r": red, "g": green}, cv.SIMULATIONS["deuteranopia"])
    }
    assert normal["gr"] > 40 and deutan["gr"] < 15


def test_close_colours_differ_in_their_letter_and_close_seats_in_their_number() -> None:
    """Under every simulation, two card or route colours closer than CLOSE carry different
    letters (gray alone has none), and two seats closer than CLOSE different numbers."""
    swatches = cv.card_colours()
    letters = [sw.letter for name, sw in swatches.items() if name != "gray"]
    assert all(letters) and len(set(letters)) == len(letters), letters
    marks = [p.mark for p in style.PLAYER_STYLES]
    assert len(set(marks)) == len(marks)
    for vision, deficiency in cv.SIMULATIONS.items():
        fills = {name: sw.fill for name, sw in swatches.items()}
        for pair in cv.pairs(fills, deficiency):
            if pair.distance < cv.CLOSE:
                assert swatches[pair.a].letter != swatches[pair.b].letter, (vision, pair)


def test_every_letter_reads_on_its_colour_for_every_eye() -> None:
    """The letter (a card's, a chip's, a space's) against its colour: WCAG AA's 4.5:1 for
    text as the colour is, and at least 3:1 as each dichromat sees both. (Purple, green and
    the locomotive were 3.6–4.2:1, and seat 1's teal 3.5:1.)"""
    inks = [(name, sw.fill, sw.ink) for name, sw in cv.card_colours().items()]
    inks += [(f"seat {p.mark}", p.fill, p.ink) for p in style.PLAYER_STYLES]
    for name, fill, ink in inks:
        assert cv.contrast(style.hex_to_rgb(fill), style.hex_to_rgb(ink)) >= 4.5, name
        for vision, deficiency in cv.SIMULATIONS.items():
            seen = cv.contrast(cv.seen(fill, deficiency), cv.seen(ink, deficiency))
            assert seen >= 3.0, f"{name} under {vision}: {seen:.2f}"


@pytest.mark.parametrize("map_name", available_maps())
def test_every_coloured_route_shows_its_letter_on_the_board(map_name: str) -> None:
    """Each coloured route has its letter on its spaces, at the size the app draws the
    board; the only exception is a space too short for a letter (World's one-space
    Hamburg–Marseille), whose colour is named when pointed at or in the Route list."""
    game_map = load_map(map_name)
    width, height = board_size(game_map, 960, 1000)
    geometry = board_geometry(game_map, width, height)
    art = static_art(game_map, width, height)
    placed = {(round(x, 3), round(y, 3)) for items in art.letters.values() for _, x, y in items}
    for rid, shape in geometry.routes.items():
        route = game_map.route_by_id[rid]
        if route.color == "gray":
            continue
        lettered = [s for s in shape.spaces if (round(s.cx, 3), round(s.cy, 3)) in placed]
        if all(s.half_length < 4 for s in shape.spaces):
            assert route.length == 1, route  # (a short single space only)
            continue
        assert lettered, f"{map_name}: {game_map.route_label(route)} shows no letter"


def test_the_key_shows_each_colour_with_its_letter() -> None:
    """The key above the board (the legend) has a chip per colour of the map: its letter on
    its colour, and its name."""
    app = GameApp("usa", seed=1)
    key = app.key_html.value
    for color in ("purple", "blue", "orange", "white", "green", "yellow", "black", "red"):
        sw = style.swatch(color)
        assert f'title="{sw.name}">{sw.letter}</span>{sw.name}' in key, color
    assert "gray (any one colour) (no letter)" in key


def test_the_docs_print_the_tables_the_code_computes() -> None:
    """docs/accessibility.md holds the tables as a generated region (written by
    tools/docs_generated.py, which the docs build checks), and they hold a row per simulation
    with its minimum."""
    page = (REPO / "docs" / "accessibility.md").read_text(encoding="utf-8")
    assert "<!-- gen:colour-vision.tables -->" in page
    text = cv.tables()
    for vision in cv.SIMULATIONS:
        assert f"| {vision} |" in text
    fills = {name: sw.fill for name, sw in cv.card_colours().items()}
    nearest = cv.pairs(fills, cv.SIMULATIONS["deuteranopia"])[0]
    assert f"| {nearest.distance:.1f} |" in text
