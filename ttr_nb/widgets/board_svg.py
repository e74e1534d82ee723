"""A static SVG picture of a board, for notebooks read without a kernel.

The board widget draws on a browser canvas, and the drawing lives only in the
browser: a notebook exported to HTML (nbconvert) or shown by GitHub's viewer
has the widget's place in its output but nothing to draw it with, so the
board comes out blank.  Every board therefore also puts an ``image/svg+xml``
picture of itself in its display bundle.  A live notebook shows the widget
(the richer output); a static viewer, which has no widget state, falls back
to the picture.

The picture is drawn by the widget's own drawing code: :class:`SvgCanvas`
implements the part of the ipycanvas ``Canvas`` interface the board uses
(styles, batched polygons and circles, text), so routes, claims, highlights
and any variant's piece painters come out the same as on the canvas.

>>> from ttr_nb import load_map
>>> from ttr_nb.widgets import BoardWidget
>>> svg = board_svg(BoardWidget(load_map("usa"), max_width=600, max_height=400))
>>> svg.startswith("<svg") and "Denver" in svg
True
"""

from __future__ import annotations

import html
import logging
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

if TYPE_CHECKING:
    from ..maps import Map
    from .geometry import BoardGeometry

__all__ = ["SVG_MIME", "BoardSnapshot", "SvgCanvas", "board_bundle", "board_svg"]

log = logging.getLogger(__name__)

SVG_MIME = "image/svg+xml"
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"

_ANCHORS = {"left": "start", "start": "start", "center": "middle", "right": "end", "end": "end"}
_BASELINES = {
    "top": "hanging",
    "hanging": "hanging",
    "middle": "central",
    "alphabetic": "alphabetic",
    "ideographic": "ideographic",
    "bottom": "text-after-edge",
}
_FONT = re.compile(r"^\s*(?:(italic|oblique)\s+)?(?:(bold|normal|\d{3})\s+)?([\d.]+)px\s+(.+)$")


def _num(value: float) -> str:
    """A coordinate with one decimal, without a trailing ``.0``: keeps the file small."""
    text = f"{float(value):.1f}"
    return text[:-2] if text.endswith(".0") else text


def _colour(value: Any) -> str:
    if isinstance(value, str):
        return html.escape(value, quote=True)
    r, g, b = (round(float(c)) for c in value[:3])
    return f"rgb({r},{g},{b})"


class SvgCanvas:
    """Records ipycanvas-style drawing commands as SVG elements.

    Supports the attributes ``fill_style``, ``stroke_style``, ``line_width``,
    ``font``, ``text_align``, ``text_baseline`` and ``global_alpha``, and the
    methods the board's painters use: ``clear``, ``fill_rect``,
    ``fill_circle(s)``, ``stroke_circle(s)``, ``fill_styled_circles``,
    ``stroke_styled_circles``, ``fill_polygons``,
    ``stroke_polygons``, ``fill_styled_polygons``, ``stroke_line_segments``,
    ``set_line_dash``, ``fill_text`` and ``stroke_text``.  Any other canvas
    method raises AttributeError, so a painter that needs more is noticed in
    the tests rather than drawn wrongly.

    Parameters
    ----------
    width, height : int
        Size of the picture in pixels (the canvas size).

    Notes
    -----
    To keep the file small, the polygons of one call that share a colour
    become one ``<path>``, and consecutive elements painted alike share one
    ``<g>`` that carries the paint.
    """

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = int(width), int(height)
        self.fill_style: Any = "#000000"
        self.stroke_style: Any = "#000000"
        self.line_width = 1.0
        self.font = "12px sans-serif"
        self.text_align = "start"
        self.text_baseline = "alphabetic"
        self.global_alpha = 1.0
        self._dash: list[float] = []
        self.elements: list[tuple[str, str]] = []  # (paint attributes, element)

    # --------------------------------------------------------------- state
    def clear(self) -> None:
        """Forget everything drawn so far."""
        self.elements.clear()

    def set_line_dash(self, segments: Sequence[float]) -> None:
        """As ipycanvas's ``Canvas.set_line_dash``: recorded as SVG."""
        self._dash = [float(s) for s in segments]

    def _alpha(self) -> str:
        return "" if self.global_alpha >= 1 else f' opacity="{_num(self.global_alpha)}"'

    def _stroke(self, colour: Any = None) -> str:
        dash = f' stroke-dasharray="{" ".join(_num(d) for d in self._dash)}"' if self._dash else ""
        colour = self.stroke_style if colour is None else colour
        return (
            f'fill="none" stroke="{_colour(colour)}"'
            f' stroke-width="{_num(self.line_width)}"{dash}{self._alpha()}'
        )

    def _fill(self, colour: Any = None) -> str:
        return f'fill="{_colour(self.fill_style if colour is None else colour)}"{self._alpha()}'

    def _add(self, paint: str, element: str) -> None:
        self.elements.append((paint, element))

    # ---------------------------------------------------------- rectangles
    def fill_rect(self, x: float, y: float, width: float, height: float | None = None) -> None:
        """As ipycanvas's ``Canvas.fill_rect``: recorded as SVG."""
        height = width if height is None else height
        self._add(
            self._fill(),
            f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(width)}" height="{_num(height)}"/>',
        )

    # ------------------------------------------------------------- circles
    def _circles(self, xs: Any, ys: Any, radius: Any, paint: str) -> None:
        xs = np.atleast_1d(np.asarray(xs, dtype=float))
        ys = np.atleast_1d(np.asarray(ys, dtype=float))
        radii = np.broadcast_to(np.asarray(radius, dtype=float), xs.shape)
        for x, y, r in zip(xs, ys, radii, strict=True):
            self._add(paint, f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(r)}"/>')

    def fill_circles(self, x: Any, y: Any, radius: Any) -> None:
        """As ipycanvas's ``Canvas.fill_circles``: recorded as SVG."""
        self._circles(x, y, radius, self._fill())

    def stroke_circles(self, x: Any, y: Any, radius: Any) -> None:
        """As ipycanvas's ``Canvas.stroke_circles``: recorded as SVG."""
        self._circles(x, y, radius, self._stroke())

    def _styled_circles(
        self, xs: Any, ys: Any, radius: Any, color: Any, alpha: Any, stroke: bool
    ) -> None:
        """Circles each in its own colour (an n x 3 array) and alpha, as ipycanvas draws them."""
        xs = np.atleast_1d(np.asarray(xs, dtype=float))
        ys = np.atleast_1d(np.asarray(ys, dtype=float))
        radii = np.broadcast_to(np.asarray(radius, dtype=float), xs.shape)
        colours = np.asarray(color, dtype=float).reshape(-1, 3)
        if len(colours) == 1:
            colours = np.repeat(colours, len(xs), axis=0)
        alphas = np.broadcast_to(np.asarray(alpha, dtype=float), xs.shape)
        saved = self.global_alpha
        for x, y, r, rgb, a in zip(xs, ys, radii, colours, alphas, strict=True):
            self.global_alpha = saved * float(a)
            paint = self._stroke(rgb) if stroke else self._fill(rgb)
            self._add(paint, f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(r)}"/>')
        self.global_alpha = saved

    def fill_styled_circles(
        self, x: Any, y: Any, radius: Any, color: Any, alpha: Any = 1.0
    ) -> None:
        """Fill circles, each in its own colour (ipycanvas's batch method)."""
        self._styled_circles(x, y, radius, color, alpha, stroke=False)

    def stroke_styled_circles(
        self, x: Any, y: Any, radius: Any, color: Any, alpha: Any = 1.0
    ) -> None:
        """Outline circles, each in its own colour (ipycanvas's batch method)."""
        self._styled_circles(x, y, radius, color, alpha, stroke=True)

    def fill_circle(self, x: float, y: float, radius: float) -> None:
        """As ipycanvas's ``Canvas.fill_circle``: recorded as SVG."""
        self._circles([x], [y], radius, self._fill())

    def stroke_circle(self, x: float, y: float, radius: float) -> None:
        """As ipycanvas's ``Canvas.stroke_circle``: recorded as SVG."""
        self._circles([x], [y], radius, self._stroke())

    # ------------------------------------------------------------ polygons
    @staticmethod
    def _split(points: Any, counts: Any) -> list[np.ndarray]:
        """Polygons from ipycanvas's two layouts: a 3-D array, or flat points plus counts."""
        array = np.asarray(points, dtype=float)
        if counts is None:
            return [array] if array.ndim == 2 else list(array)
        flat = array.reshape(-1, 2)
        ends = np.cumsum(np.asarray(counts, dtype=int))
        return list(np.split(flat, ends[:-1])) if len(ends) else []

    @staticmethod
    def _path(polygons: Sequence[np.ndarray], close: bool) -> str:
        parts = []
        for polygon in polygons:
            if len(polygon) == 0:
                continue
            points = " ".join(f"{_num(x)} {_num(y)}" for x, y in polygon)
            parts.append(f"M{points}{'Z' if close else ''}")
        return f'<path d="{" ".join(parts)}"/>'

    def fill_polygons(self, points: Any, points_per_polygon: Any = None) -> None:
        """As ipycanvas's ``Canvas.fill_polygons``: recorded as SVG."""
        self._add(self._fill(), self._path(self._split(points, points_per_polygon), True))

    def stroke_polygons(self, points: Any, points_per_polygon: Any = None) -> None:
        """As ipycanvas's ``Canvas.stroke_polygons``: recorded as SVG."""
        self._add(self._stroke(), self._path(self._split(points, points_per_polygon), True))

    def fill_styled_polygons(
        self, points: Any, color: Any, alpha: float = 1.0, points_per_polygon: Any = None
    ) -> None:
        """As ipycanvas's ``Canvas.fill_styled_polygons``: recorded as SVG."""
        polygons = self._split(points, points_per_polygon)
        colours = np.asarray(color, dtype=float).reshape(-1, 3)
        if len(colours) == 1:
            colours = np.repeat(colours, len(polygons), axis=0)
        by_colour: dict[str, list[np.ndarray]] = {}
        for polygon, rgb in zip(polygons, colours, strict=True):
            by_colour.setdefault(_colour(rgb), []).append(polygon)
        for colour, group in by_colour.items():
            self._add(self._fill(colour), self._path(group, True))

    def stroke_line_segments(self, points: Any, points_per_line_segment: Any = None) -> None:
        """As ipycanvas's ``Canvas.stroke_line_segments``: recorded as SVG."""
        lines = self._split(points, points_per_line_segment)
        self._add(self._stroke(), self._path(lines, False))

    # ---------------------------------------------------------------- text
    def _text(self, text: str, x: float, y: float, paint: str) -> None:
        match = _FONT.match(self.font)
        style, weight, size, family = match.groups() if match else (None, None, "12", "sans-serif")
        font = f'font-family="{html.escape(family, quote=True)}" font-size="{_num(float(size))}"'
        if weight and weight != "normal":
            font += f' font-weight="{weight}"'
        if style:
            font += f' font-style="{style}"'
        anchor = _ANCHORS.get(self.text_align, "start")
        baseline = _BASELINES.get(self.text_baseline, "alphabetic")
        self._add(
            f'{font} text-anchor="{anchor}" dominant-baseline="{baseline}" {paint}',
            f'<text x="{_num(x)}" y="{_num(y)}">{html.escape(str(text))}</text>',
        )

    def fill_text(self, text: str, x: float, y: float, max_width: float | None = None) -> None:
        """As ipycanvas's ``Canvas.fill_text``: recorded as SVG."""
        self._text(text, x, y, self._fill())

    def stroke_text(self, text: str, x: float, y: float, max_width: float | None = None) -> None:
        """As ipycanvas's ``Canvas.stroke_text``: recorded as SVG."""
        self._text(text, x, y, self._stroke() + ' stroke-linejoin="round"')

    # -------------------------------------------------------------- output
    def to_svg(self, title: str = "") -> str:
        """The picture as an SVG document (``title`` becomes its accessible name)."""
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" '
            f'height="{self.height}" viewBox="0 0 {self.width} {self.height}" role="img"'
        )
        if title:
            label = html.escape(title, quote=True)
            head += f' aria-label="{label}"><title>{label}</title>'
        else:
            head += ">"
        lines = [head]
        paint, group = None, []
        for element_paint, element in [*self.elements, (None, "")]:
            if element_paint != paint:
                if group:
                    lines.append(f"<g {paint}>{''.join(group)}</g>")
                paint, group = element_paint, []
            group.append(element)
        lines.append("</svg>")
        return "\n".join(lines)


class BoardView(Protocol):
    """What a picture needs of a board (:class:`~ttr_nb.widgets.BoardWidget` has it all).

    The board widget imports this module to show its picture, so this module names
    only what it reads of the widget.
    """

    map: Map
    geometry: BoardGeometry
    pieces: Any  # a BoardPieces: claims, highlights and the game shown
    piece_painters: list[Callable[..., None]]
    selected: int | None

    @property
    def size(self) -> tuple[int, int]:
        """The canvas's width and height, in pixels."""


def board_svg(view: BoardView, title: str | None = None) -> str:
    """Draw a board widget, as it is now, into an SVG document.

    Parameters
    ----------
    view : BoardWidget
        The board: its map, pieces (claims, highlights), piece painters and
        selected route are all drawn, in the canvas's layer order.
    title : str, optional
        The picture's accessible name; by default the map's name.

    Returns
    -------
    str
        An ``<svg>`` document of the canvas's size.

    Notes
    -----
    Time and size grow linearly with the number of route spaces: a USA board
    is about 30 ms and 60 kB.
    """
    from .board_art import draw_claims, draw_highlights, draw_places, draw_routes, outline_route
    from .style import SELECTED

    width, height = view.size
    canvas = SvgCanvas(width, height)
    draw_routes(canvas, view.map, view.geometry, width, height)
    draw_highlights(canvas, view.geometry, view.pieces.highlighted)
    draw_claims(canvas, view.map, view.geometry, view.pieces.owner)
    for painter in view.piece_painters:
        try:
            painter(canvas, view.geometry, view.pieces)
        except AttributeError as exc:  # a canvas method SvgCanvas lacks: draw the rest
            name = getattr(painter, "__qualname__", repr(painter))
            log.warning("board picture drawn without painter %s: %s", name, exc)
    draw_places(canvas, view.map, view.geometry)
    if view.selected is not None:
        outline_route(canvas, view.geometry, view.selected, SELECTED, 3.5)
    return canvas.to_svg(title if title is not None else f"The {view.map.name} board")


def board_bundle(view: BoardView, bundle: dict[str, Any], title: str | None = None) -> dict:
    """Add the board's SVG picture to a widget's display bundle (a new dict)."""
    out = dict(bundle)
    out[SVG_MIME] = board_svg(view, title)
    return out


class BoardSnapshot:
    """The board as it is now, for notebooks read without a kernel; invisible in a live one.

    A cell that changes a board shown further up (highlights, claims) can end
    with ``view.snapshot()``.  In a live notebook the board above has already
    changed and this output shows nothing: it carries an empty placeholder
    widget, which a live notebook prefers.  A static viewer (nbconvert,
    GitHub) has no widgets, so it shows the picture instead, right under the
    cell that made the change.

    Parameters
    ----------
    svg : str
        The picture, from :func:`board_svg`.
    caption : str
        Plain-text stand-in, for viewers that show neither.
    """

    def __init__(self, svg: str, caption: str = "") -> None:
        self.svg = svg
        self.caption = caption or "(the board, as changed above)"
        self._placeholder: Any = None

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        import ipywidgets as widgets

        if self._placeholder is None:
            self._placeholder = widgets.HTML("", layout=widgets.Layout(display="none"))
        data = self._placeholder._repr_mimebundle_(**kwargs)
        data["text/plain"] = self.caption
        data[SVG_MIME] = self.svg
        return data

    def __repr__(self) -> str:
        return self.caption
