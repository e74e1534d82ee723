"""Zoom and pan of the board without a browser: the view arithmetic, hit-testing under zoom
on every map, and the wheel, drag, buttons and keys as the board receives them."""

from __future__ import annotations

import pytest

pytest.importorskip("ipycanvas")

from ttr_nb import available_maps, load_map
from ttr_nb.widgets import BoardPieces, BoardWidget
from ttr_nb.widgets.viewport import MAX_ZOOM, Viewport


def ready(board: BoardWidget) -> BoardWidget:
    for layer in range(len(board._ready)):
        board._client_ready_handler(layer)()
    return board


def dom(kind: str, board: BoardWidget, x: float, y: float, **more) -> dict:
    """An ipyevents event at canvas point (x, y), the canvas shown at half size (CSS)."""
    width, height = board.size
    return {
        "type": kind,
        "relativeX": x / 2,
        "relativeY": y / 2,
        "boundingRectWidth": width / 2,
        "boundingRectHeight": height / 2,
        **more,
    }


def test_zooming_keeps_the_point_under_the_pointer() -> None:
    view = Viewport(960, 600)
    assert view.zoom_by(2.5, 300, 200)
    assert view.to_board(300, 200) == pytest.approx((300, 200))
    bx, by = view.to_board(700, 500)
    assert view.to_canvas(bx, by) == pytest.approx((700, 500))
    assert not view.zoom_by(100) or view.zoom == MAX_ZOOM
    assert view.zoom == MAX_ZOOM
    view.reset()
    assert (view.zoom, view.x, view.y) == (1.0, 0.0, 0.0)
    assert not view.pan_by(50, 50)  # the whole board shown: nothing to pan


def test_zooming_out_in_steps_returns_to_the_whole_board() -> None:
    view = Viewport(960, 600)
    for _ in range(5):
        view.zoom_by(1.25, 100, 100)
    for _ in range(5):
        view.zoom_by(1 / 1.25, 800, 500)
    assert view.is_whole_board and (view.x, view.y) == (0.0, 0.0)


def test_the_view_never_leaves_the_board() -> None:
    view = Viewport(960, 600, zoom=3.0)
    view.pan_by(10_000, 10_000)
    assert (view.x, view.y) == (0.0, 0.0)
    view.pan_by(-10_000, -10_000)
    assert view.x == pytest.approx(960 - 320) and view.y == pytest.approx(600 - 200)
    assert view.to_canvas(960, 600) == pytest.approx((960, 600))


@pytest.mark.parametrize("name", available_maps())
def test_clicks_select_the_route_drawn_there_at_every_zoom(name: str) -> None:
    board = ready(BoardWidget(load_map(name)))
    width, height = board.size
    # Anchors that a click selects at zoom 1 (not inside a city's click radius).
    anchors = {
        rid: shape.anchor
        for rid, shape in board.geometry.routes.items()
        if board.geometry.hit(*shape.anchor) == ("route", rid)
    }
    checked = 0
    for zoom, at in ((1.0, None), (2.0, (0.3, 0.4)), (4.5, (0.7, 0.6)), (6.0, (0.5, 0.5))):
        board.reset_view()
        if at is not None:
            board.zoom(zoom, (at[0] * width, at[1] * height))
        assert board.view.zoom == zoom
        shown = [
            (rid, board.view.to_canvas(*anchor))
            for rid, anchor in anchors.items()
            if all(
                4 < c < limit - 4
                for c, limit in zip(board.view.to_canvas(*anchor), (width, height), strict=True)
            )
        ]
        assert shown, (name, zoom)
        for rid, (cx, cy) in shown[:: max(1, len(shown) // 10)]:
            board.select(None)
            board._on_dom_event(dom("click", board, cx, cy))
            assert board.selected == rid, (name, zoom, rid)
            checked += 1
    assert checked >= 20


def test_wheel_buttons_and_keys_zoom_and_pan() -> None:
    board = ready(BoardWidget(load_map("world")))
    static_draws = board.draw_count
    board._on_dom_event(dom("wheel", board, 400, 300, deltaY=-100))
    assert board.view.zoom == 1.25
    assert board.view.to_board(400, 300) == pytest.approx((400, 300))
    assert board.draw_count == static_draws + 1  # a new view redraws the board once
    assert "125 %" in board.zoom_level.value and "data-zoom='1.25'" in board.zoom_level.value
    assert "ttr-zoomed" in board.canvas_box._dom_classes
    board._on_dom_event(dom("wheel", board, 400, 300, deltaY=100))
    assert board.view.is_whole_board
    assert "ttr-zoomed" not in board.canvas_box._dom_classes

    buttons = {b._dom_classes[0]: b for b in board.zoom_row.children if hasattr(b, "click")}
    buttons["ttr-zoom-in"].click()
    buttons["ttr-zoom-in"].click()
    assert board.view.zoom == pytest.approx(1.5625)
    x = board.view.x
    buttons["ttr-pan-right"].click()
    assert board.view.x > x
    buttons["ttr-zoom-reset"].click()
    assert board.view.is_whole_board

    board._on_key("+", False, False, False)
    assert board.view.zoom == 1.25
    y = board.view.y
    board._on_key("ArrowDown", True, False, False)  # Shift+arrow pans ...
    assert board.view.y > y and board.selected is None
    board._on_key("ArrowDown", False, False, False)  # ... a plain arrow steps to a route
    assert board.selected is not None
    board._on_key("0", False, False, False)
    assert board.view.is_whole_board


def test_a_drag_pans_and_selects_nothing() -> None:
    board = ready(BoardWidget(load_map("usa")))
    board.zoom(3.0)
    x0, y0 = board.view.x, board.view.y
    board._on_dom_event(dom("mousedown", board, 500, 300, buttons=1))
    board._on_dom_event(dom("mousemove", board, 440, 270, buttons=1))
    assert board.view.x == pytest.approx(x0 + 20) and board.view.y == pytest.approx(y0 + 10)
    board._on_dom_event(dom("mouseup", board, 380, 240))
    board._on_dom_event(dom("click", board, 380, 240))
    assert board.view.x == pytest.approx(x0 + 40) and board.view.y == pytest.approx(y0 + 20)
    assert board.selected is None  # the click that ends a drag selects nothing
    # A late throttled move of the same drag changes nothing any more.
    board._on_dom_event(dom("mousemove", board, 100, 100, buttons=1))
    assert board.view.x == pytest.approx(x0 + 40)
    # A press without moving is a click again.
    route_id, shape = next(
        (rid, s)
        for rid, s in board.geometry.routes.items()
        if board.geometry.hit(*s.anchor) == ("route", rid)
        and all(0 < c < 900 for c in board.view.to_canvas(*s.anchor))
    )
    cx, cy = board.view.to_canvas(*shape.anchor)
    board._on_dom_event(dom("mousedown", board, cx, cy, buttons=1))
    board._on_dom_event(dom("mouseup", board, cx + 2, cy))
    board._on_dom_event(dom("click", board, cx + 2, cy))
    assert board.selected == route_id


def test_picking_a_route_out_of_view_brings_it_into_view() -> None:
    board = ready(BoardWidget(load_map("usa")))
    board.zoom(4.0, (0, 0))  # the north-west corner
    far = max(board.geometry.routes.values(), key=lambda s: s.anchor[0] + s.anchor[1])
    board.route_picker.value = far.route_id
    cx, cy = board.view.to_canvas(*far.anchor)
    width, height = board.size
    assert 0 <= cx <= width and 0 <= cy <= height


def test_state_changes_do_not_redraw_the_static_board() -> None:
    board = ready(BoardWidget(load_map("usa")))
    board.zoom(2.0)
    draws = board.draw_count
    for seat in range(3):
        board.set_pieces(BoardPieces(owner={1: seat}, player_names=["A", "B", "C"]))
        board.select(2)
    assert board.draw_count == draws
    board.set_map(load_map("world"))
    assert board.view.is_whole_board and board.view.width == board.size[0]
