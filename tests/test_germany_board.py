"""Passengers on the board widget (no browser: a mock layer records the drawing calls)."""

from __future__ import annotations

import math
from unittest.mock import MagicMock

import pytest

pytest.importorskip("ipycanvas")

from ttr_nb import ClaimRoute, new_game, payment
from ttr_nb.teaching import germany as gm
from ttr_nb.teaching.scenarios import route_id
from ttr_nb.widgets import BoardPieces, BoardWidget
from ttr_nb.widgets.geometry import CITY_RADIUS, LABEL_CHAR_PX, LABEL_FONT_PX
from ttr_nb.widgets.germany_board import (
    PASSENGER_RADIUS,
    RING,
    add_passengers,
    country_point,
    paint_passengers,
    passenger_board,
    passenger_facts,
    passenger_marks,
)


def pieces_of(game) -> BoardPieces:
    return BoardPieces(owner=dict(game.state.owner), game=game)


def test_every_passenger_has_a_disc_beside_its_place():
    game = gm.setup_position()
    view = passenger_board(game)
    marks = passenger_marks(game, view.geometry)
    assert len(marks) == 60
    assert sum(m.place == "berlin" for m in marks) == 5
    assert {m.letter for m in marks} == {"R", "K", "G", "Y", "B", "W"}
    rings = [RING + i * (PASSENGER_RADIUS + 2) for i in range(3)]  # a wider one if crowded
    for mark in marks:
        x, y = view.geometry.positions[mark.place]
        if mark.place in game.map.city_by_id:
            distance = math.hypot(mark.x - x, mark.y - y)
            assert any(distance == pytest.approx(ring) for ring in rings)
            assert RING - PASSENGER_RADIUS > CITY_RADIUS  # never on top of the city
        else:  # a country's passenger, at the country's point (moved off any name)
            assert mark.place in game.map.country_by_id
            assert (mark.x, mark.y) == country_point(view.geometry, mark.place)
            assert math.hypot(mark.x - x, mark.y - y) <= 24 * math.sqrt(2)
    berlin = [(m.x, m.y) for m in marks if m.place == "berlin"]
    for i, a in enumerate(berlin):
        for b in berlin[i + 1 :]:
            assert math.dist(a, b) >= 2 * PASSENGER_RADIUS  # discs do not overlap


def test_no_passenger_disc_hides_a_name_or_another_place():
    """At setup, with all 60 passengers out (Schweiz's disc sat on Konstanz's name, and
    Berlin's five went round the city over its own)."""
    game = gm.setup_position()
    geometry = passenger_board(game).geometry
    reach = PASSENGER_RADIUS + 1  # a disc and its halo
    hidden = []
    for mark in passenger_marks(game, geometry):
        for label in geometry.city_labels.values():
            left, top = label.x, label.y - LABEL_FONT_PX
            right, bottom = label.x + len(label.text) * LABEL_CHAR_PX, label.y + 2
            nearest = (min(max(mark.x, left), right), min(max(mark.y, top), bottom))
            if math.dist(nearest, (mark.x, mark.y)) < reach:
                hidden.append((mark.place, label.text))
        for place, point in geometry.positions.items():
            if place != mark.place and math.dist(point, (mark.x, mark.y)) < reach + CITY_RADIUS:
                hidden.append((mark.place, place))
    assert not hidden, hidden


def test_painter_draws_discs_in_colour_with_letters():
    game = gm.setup_position()
    view = passenger_board(game)
    layer = MagicMock()
    paint_passengers(layer, view.geometry, pieces_of(game))
    drawn = sum(len(call.args[0]) for call in layer.fill_circles.call_args_list)
    assert drawn == 60 and layer.fill_circles.call_count == 6  # one batch per colour
    letters = [call.args[0] for call in layer.fill_text.call_args_list]
    assert len(letters) == 60 and letters.count("R") == 10
    assert layer.stroke_line_segments.called  # countries linked to their spaces


def test_painter_follows_the_game_and_ignores_other_variants():
    game = gm.passenger_pickup()
    view = passenger_board(game)
    game.apply(
        ClaimRoute(route_id(game, "berlin", "magdeburg"), payment(red=3), (("berlin", "red"),))
    )
    assert len(passenger_marks(game, view.geometry)) == 58
    usa = new_game("usa", 2)
    layer = MagicMock()
    paint_passengers(layer, BoardWidget(usa.map).geometry, pieces_of(usa))
    assert not layer.method_calls
    assert passenger_facts("city", "denver", pieces_of(usa)) == []


def test_hover_facts_list_the_passengers_at_a_place_and_a_route():
    game = gm.passenger_pickup()
    view = passenger_board(game)
    berlin = view.describe("city", "berlin")
    assert "5 passengers: 2 red (R), 1 black (K), 1 yellow (Y), 1 white (W)" in berlin
    space = view.describe("city", "frankreich-2")
    assert "Frankreich's 1 passenger" in space and "shared by its 3 spaces" in space
    route = view.describe("route", route_id(game, "berlin", "magdeburg"))
    assert (
        "claiming takes one passenger from each end" in route and "Magdeburg: 1 passenger" in route
    )
    gm.collect_from(game, 1, "magdeburg")
    assert "no passenger left" in passenger_facts("city", "magdeburg", pieces_of(game))[0]


def test_add_passengers_registers_once():
    view = BoardWidget(gm.setup_position().map)
    add_passengers(add_passengers(view))
    assert view.piece_painters == [paint_passengers]
    assert view.fact_providers == [passenger_facts]
