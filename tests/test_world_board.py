"""World on the board without a browser: harbor marks, tour chains, hover facts."""

from __future__ import annotations

import pytest

pytest.importorskip("ipycanvas")

from positions import give_routes, route_between, start_world

from ttr_nb.widgets import BoardPieces, BoardWidget
from ttr_nb.widgets.world_board import (
    TourChain,
    harbor_facts,
    harbor_marks,
    install,
    paint_harbors,
    tour_chain,
)


@pytest.fixture
def world():
    game = start_world(players=3)
    give_routes(game, 1, [route_between(game, "caracas", "lima", "white").id])
    game.state.extras["harbors"]["lima"] = 1
    game.state.players[1].extras["harbors_left"] = 2
    return game


def ready_board(game) -> BoardWidget:
    board = BoardWidget(game.map)
    for layer in range(len(board._ready)):
        board._client_ready_handler(layer)()
    return board


def test_harbors_are_marked_at_their_city_with_the_owner(world):
    board = ready_board(world)
    (mark,) = harbor_marks(board.geometry, world)
    assert (mark.city, mark.seat) == ("lima", 1)
    assert (mark.x, mark.y) == board.geometry.positions["lima"]
    assert mark.badge_x < mark.x and mark.badge_y < mark.y  # the badge sits up-left
    assert harbor_marks(board.geometry, None) == []


def test_painters_and_facts_plug_into_the_board(world):
    board = ready_board(world)
    tours = install(board)
    assert paint_harbors in board.piece_painters and tours in board.piece_painters
    names = [p.name for p in world.state.players]
    board.set_pieces(BoardPieces(owner=dict(world.state.owner), player_names=names, game=world))
    tour = next(t.id for t in world.map.tickets if t.tour_values)
    tours.show(tour)  # draws without a browser error
    assert tours.cities == world.map.ticket_by_id[tour].cities
    assert "harbor of Player 2 (seat 2)" in board.describe("city", "lima")
    assert "no harbor yet" in board.describe("city", "valparaiso")
    assert "not a port" in board.describe("city", "beijing")
    assert harbor_facts("route", 1, board.pieces) == []
    tours.show(None)
    assert tours.cities == ()


def test_a_tour_is_an_ordered_chain_that_crosses_the_edge_the_short_way(world):
    board = ready_board(world)
    geometry = board.geometry
    west, east = geometry.seam
    cities = ("anchorage", "vancouver", "winnipeg", "cambridge-bay")
    segments, stops = tour_chain(geometry, cities)
    assert [s[0] for s in stops] == ["1", "2", "3", "4"]
    assert [(x, y) for _, x, y in stops] == [geometry.positions[c] for c in cities]
    # Anchorage (right edge) to Vancouver (left edge): two pieces, one leaving each edge.
    first, second = segments[0], segments[1]
    assert first[2] > east and second[0] < west
    assert len(segments) == 4
    # Winnipeg to Cambridge Bay stays on the board.
    assert all(west <= x <= east for x in segments[-1][::2])


def test_tour_chain_skips_a_board_without_the_cities(world):
    board = ready_board(world)
    chain = TourChain(board)
    chain.cities = ("nowhere", "lima")
    chain(board.canvas[1], board.geometry, board.pieces)  # nothing drawn, no error
