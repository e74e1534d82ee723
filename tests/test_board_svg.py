"""Boards leave an SVG picture in saved notebooks, so exported lessons are not blank."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

pytest.importorskip("ipycanvas")

from ttr_nb import available_maps, load_map  # noqa: E402
from ttr_nb.teaching import scenarios as sc  # noqa: E402
from ttr_nb.teaching.animation import BoardAnimation, Frame  # noqa: E402
from ttr_nb.teaching.search_animation import SearchAnimation, search_steps  # noqa: E402
from ttr_nb.widgets import BoardWidget  # noqa: E402
from ttr_nb.widgets.board_svg import (  # noqa: E402
    SVG_MIME,
    WIDGET_MIME,
    BoardSnapshot,
    SvgCanvas,
    board_svg,
)

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def texts(root: ET.Element) -> list[str]:
    return [t.text for t in root.iter(f"{NS}text")]


@pytest.mark.parametrize("name", available_maps())
def test_every_map_draws_as_valid_svg_with_every_label(name):
    game_map = load_map(name)
    view = BoardWidget(game_map, max_width=700, max_height=500)
    root = parse(board_svg(view))
    assert (root.get("width"), root.get("height")) == tuple(str(v) for v in view.size)
    labels = texts(root)
    for label in view.geometry.city_labels.values():
        assert label.text in labels
    # every route space is drawn: the space polygons are the subpaths of the fill paths
    spaces = sum(len(shape.spaces) for shape in view.geometry.routes.values())
    fills = [
        p
        for g in root.iter(f"{NS}g")
        if g.get("fill", "none") != "none"
        for p in g.iter(f"{NS}path")
    ]
    assert sum(p.get("d").count("M") for p in fills) >= spaces
    assert root.find(f"{NS}title").text == f"The {game_map.name} board"


def test_claims_highlights_and_selection_appear():
    game = sc.claiming()
    omaha = sc.route_id(game, "denver", "omaha")
    view = sc.board(game, highlight=[omaha])
    plain = board_svg(BoardWidget(game.map, max_width=760, max_height=600))
    shown = board_svg(view)
    assert shown != plain
    from ttr_nb.widgets import style

    for seat in set(game.state.owner.values()):
        r, g, b = style.hex_to_rgb(style.player_style(seat).fill)
        assert f"rgb({r},{g},{b})" in shown  # claimed spaces in the owner's colour
    assert style.CLAIMABLE in shown  # the halo of the highlighted route
    view.select(omaha)
    assert style.SELECTED in board_svg(view)


def test_display_bundle_has_the_widget_and_the_picture():
    view = BoardWidget(load_map("usa"), max_width=600, max_height=400)
    bundle = view._repr_mimebundle_()
    assert bundle[WIDGET_MIME]["model_id"] == view.widget.model_id
    assert bundle[SVG_MIME].startswith("<svg") and "text/plain" in bundle


def test_snapshot_is_invisible_live_and_a_picture_elsewhere():
    game = sc.claiming()
    view = sc.board(game)
    snapshot = sc.refresh(view, game, highlight=[1])
    assert isinstance(snapshot, BoardSnapshot)
    bundle = snapshot._repr_mimebundle_()
    assert WIDGET_MIME in bundle  # a live notebook shows this hidden placeholder
    assert bundle[SVG_MIME] == board_svg(view)
    assert "board" in bundle["text/plain"]


def test_animations_draw_their_frame_into_the_picture():
    usa = load_map("usa")
    steps = search_steps(usa, "denver", "omaha", method="bfs")
    animation = SearchAnimation(BoardWidget(usa), steps, goals=["omaha"])
    first = animation._repr_mimebundle_()[SVG_MIME]
    animation.show(len(steps) - 1)
    last = animation.snapshot()._repr_mimebundle_()[SVG_MIME]
    assert first != last and "Denver" in last
    frames = [Frame("a", route_colours={1: "#123456"}, place_labels={"denver": "7"})]
    board = BoardAnimation(BoardWidget(usa), frames)
    svg = board._repr_mimebundle_()[SVG_MIME]
    assert "#123456" in svg and ">7</text>" in svg


def test_svg_canvas_matches_the_canvas_calls_the_painters_use():
    canvas = SvgCanvas(100, 50)
    canvas.global_alpha = 0.5
    canvas.fill_style = "#ff0000"
    canvas.fill_circles([10, 20], [10, 20], 3)
    canvas.global_alpha = 1
    canvas.set_line_dash([4, 2])
    canvas.stroke_line_segments([[0, 0], [10, 10]], points_per_line_segment=[2])
    canvas.set_line_dash([])
    canvas.font = "italic bold 11px serif"
    canvas.text_align = "center"
    canvas.text_baseline = "middle"
    canvas.fill_text("A & B", 5, 5)
    root = parse(canvas.to_svg("t"))
    circles = list(root.iter(f"{NS}circle"))
    assert len(circles) == 2
    groups = list(root.iter(f"{NS}g"))
    assert groups[0].get("opacity") == "0.5" and groups[0].get("fill") == "#ff0000"
    assert groups[1].get("stroke-dasharray") == "4 2"
    text = groups[2]
    assert text.get("font-style") == "italic" and text.get("font-weight") == "bold"
    assert text.get("text-anchor") == "middle" and texts(root) == ["A & B"]
    with pytest.raises(AttributeError):
        canvas.draw_image(None)  # not supported: a painter needing it is noticed in tests


def test_a_painter_the_picture_cannot_draw_is_skipped_with_a_warning(caplog):
    view = BoardWidget(load_map("usa"), max_width=600, max_height=400)

    def painter(layer, geometry, pieces):
        layer.draw_image(None)

    view.piece_painters.append(painter)
    with caplog.at_level("WARNING"):
        bundle = view._repr_mimebundle_()
    assert bundle[SVG_MIME].startswith("<svg")  # the board still shows, without that layer
    assert "draw_image" in caplog.text


def test_exported_html_shows_the_board_picture(tmp_path):
    """An HTML export without widget state shows the pictures: the lesson is not blank."""
    import base64
    import re

    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nbconvert = pytest.importorskip("nbconvert")
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(
            "from ttr_nb import load_map\nfrom ttr_nb.widgets import BoardWidget\n"
            "view = BoardWidget(load_map('usa'), max_width=500, max_height=350)\nview"
        ),
        nbformat.v4.new_code_cell("view.select(1)\nview.snapshot()"),
    ]
    client = nbclient.NotebookClient(
        nb, timeout=120, kernel_name="python3", store_widget_state=False
    )
    client.execute()
    html, _ = nbconvert.HTMLExporter().from_notebook_node(nb)
    pictures = [
        base64.b64decode(data).decode()
        for data in re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', html)
    ]
    boards = [svg for svg in pictures if "The USA board" in svg]
    assert len(boards) == 2  # the board, then the snapshot after the selection
    assert boards[0] != boards[1]


# ------------------------------------------------- every painter, on every map
class _Recorder:
    """Stands in for an ipycanvas canvas: notes the drawing methods a painter calls."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        return lambda *args, **kwargs: self.calls.append(name)


def _busy_app(name: str):
    """The app on map ``name`` with something for every painter to draw."""
    from ttr_nb.rules.maerklin import BOARD_KEY, JourneyPlan
    from ttr_nb.widgets import GameApp

    app = GameApp(map_name=name, players=3, seed=7, auto_bots=False)
    game = app.game
    state = game.state
    if "harbors" in state.extras:  # World: a built harbor, and a tour shown in order
        port = next(c.id for c in game.map.cities if c.port)
        state.extras["harbors"][port] = 1
        tour = next(t for t in game.map.tickets if len(t.cities) > 2)
        app.ui.tours.chain.cities = tour.cities
    journey = getattr(app.ui, "journey", None)
    if journey is not None:  # Märklin: a passenger standing, a journey previewed
        cities = [c.id for c in game.map.cities if c.kind == "city"]
        state.extras[BOARD_KEY][cities[0]] = 1
        journey.reach = frozenset(cities[:3])
        journey.show(JourneyPlan(tuple(cities[:2]), ((cities[1], 4),), ()))
    app.board.pieces = app.board.pieces  # (unchanged: painters read the game itself)
    return app


@pytest.mark.parametrize("name", available_maps())
def test_every_board_painter_draws_on_the_svg_canvas_too(name, caplog):
    """Whatever a painter draws on the live canvas, the saved picture of the board has too."""
    app = _busy_app(name)
    board = app.board
    variant = board.piece_painters[:-2]  # the app adds its trails and the coach's plan last
    assert [p for p in board.piece_painters if p not in variant] == [
        app._paint_trails,
        app.coach.paint,
    ]
    for painter in board.piece_painters:
        label = getattr(painter, "__qualname__", type(painter).__qualname__)
        recorder = _Recorder()
        painter(recorder, board.geometry, board.pieces)
        drawn = [c for c in recorder.calls if c.startswith(("fill_", "stroke_"))]
        if painter not in variant and not drawn:
            continue  # the app's own painters draw at the end of a game or on a plan
        assert drawn, f"{label} drew nothing on {name}: the test's position gives it nothing"
        canvas = SvgCanvas(*board.size)
        for method in set(recorder.calls):
            assert hasattr(canvas, method), f"{label} uses {method}, which SvgCanvas lacks"
        painter(canvas, board.geometry, board.pieces)
        assert canvas.elements, f"{label} left nothing in the picture of the {name} board"
    with caplog.at_level("WARNING"):
        svg = board_svg(board)
    assert "without painter" not in caplog.text, caplog.text
    parse(svg)


def test_styled_circles_take_each_circle_its_own_colour():
    canvas = SvgCanvas(50, 50)
    canvas.line_width = 4
    canvas.stroke_styled_circles([10, 30], [10, 30], 6, [[255, 0, 0], [0, 0, 255]])
    canvas.fill_styled_circles([20], [20], 3, [[0, 128, 0]], alpha=0.5)
    root = parse(canvas.to_svg())
    groups = list(root.iter(f"{NS}g"))
    assert [g.get("stroke") for g in groups[:2]] == ["rgb(255,0,0)", "rgb(0,0,255)"]
    assert all(g.get("fill") == "none" and g.get("stroke-width") == "4" for g in groups[:2])
    assert groups[2].get("fill") == "rgb(0,128,0)" and groups[2].get("opacity") == "0.5"
    assert len(list(root.iter(f"{NS}circle"))) == 3
