"""Step through an algorithm on the board widget: frames, controls and a static picture.

An algorithm lesson records what an algorithm does as a list of
:class:`Frame` objects (which routes to colour or outline, which places to
mark, one line of text), and :class:`BoardAnimation` plays them on a
:class:`~ttr_nb.widgets.BoardWidget` with a play button, a slider and
*Back*/*Next* buttons.  The frame shown is drawn by a painter hook on the
board's pieces layer, so the board's own claims and highlights stay visible.

Displayed in a notebook, an animation also leaves an SVG picture of the frame
shown (see :mod:`ttr_nb.widgets.board_svg`), so an exported notebook shows
the board instead of a blank space.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

__all__ = ["BoardAnimation", "Frame", "paint_frame"]

BADGE_OFFSET = 11  # a label's badge sits up and to the right of its place


@dataclass(frozen=True)
class Frame:
    """What the board shows at one step of an algorithm.

    Attributes
    ----------
    note : str
        One line saying what happened at this step.
    highlighted : frozenset of int
        Routes with a soft halo (the board's usual highlight).
    route_colours : mapping of int to str
        Routes whose spaces are filled with a colour (``"#rrggbb"``), for
        example the routes of a tree built so far.
    route_outlines : mapping of int to str
        Routes outlined in a colour, for example the route looked at now.
    place_colours : mapping of str to str
        Places marked with a coloured dot.
    place_labels : mapping of str to str
        Short text drawn on a place's dot (an order number, a distance).
    big_places : frozenset of str
        Places whose dot is drawn larger (the place acted on now).
    """

    note: str
    highlighted: frozenset[int] = frozenset()
    route_colours: Mapping[int, str] = field(default_factory=dict)
    route_outlines: Mapping[int, str] = field(default_factory=dict)
    place_colours: Mapping[str, str] = field(default_factory=dict)
    place_labels: Mapping[str, str] = field(default_factory=dict)
    big_places: frozenset[str] = frozenset()


def _space_polygons(geometry: Any, routes: Sequence[int], grow: float) -> tuple[Any, Any]:
    import numpy as np

    points: list[tuple[float, float]] = []
    counts: list[int] = []
    for rid in routes:
        shape = geometry.routes.get(rid)
        if shape is None:
            continue
        for space in shape.spaces:
            corners = space.corners(grow=grow)
            points.extend(corners)
            counts.append(len(corners))
    return np.array(points, dtype=float).reshape(-1, 2), np.array(counts, dtype=int)


def paint_frame(layer: Any, geometry: Any, frame: Frame) -> None:
    """Draw a frame's route colours, outlines and place marks on a canvas layer."""
    by_fill: dict[str, list[int]] = {}
    for rid, colour in sorted(frame.route_colours.items()):
        by_fill.setdefault(colour, []).append(rid)
    for colour, routes in by_fill.items():
        points, counts = _space_polygons(geometry, routes, grow=1.5)
        if len(counts):
            layer.fill_style = colour
            layer.fill_polygons(points, points_per_polygon=counts)
            layer.stroke_style = "#111111"
            layer.line_width = 1.5
            layer.stroke_polygons(points, points_per_polygon=counts)
    by_outline: dict[str, list[int]] = {}
    for rid, colour in sorted(frame.route_outlines.items()):
        by_outline.setdefault(colour, []).append(rid)
    for colour, routes in by_outline.items():
        points, counts = _space_polygons(geometry, routes, grow=3.0)
        if len(counts):
            layer.stroke_style = colour
            layer.line_width = 3.5
            layer.stroke_polygons(points, points_per_polygon=counts)
    # The city circles are drawn above this layer, so a marked place shows as a
    # thick coloured ring around its city, and its label as a badge beside it.
    by_colour: dict[tuple[str, int], list[tuple[float, float]]] = {}
    for place, colour in frame.place_colours.items():
        if place in geometry.positions:
            radius = 13 if place in frame.big_places else 11
            by_colour.setdefault((colour, radius), []).append(geometry.positions[place])
    for (colour, radius), points in by_colour.items():
        xs = [x for x, _ in points]
        ys = [y for _, y in points]
        layer.fill_style = colour
        layer.fill_circles(xs, ys, radius)
        layer.stroke_style = "#222222"
        layer.line_width = 1
        layer.stroke_circles(xs, ys, radius)
    if frame.place_labels:
        badges = [
            (geometry.positions[place], text)
            for place, text in frame.place_labels.items()
            if place in geometry.positions
        ]
        xs = [x + BADGE_OFFSET for (x, _), _ in badges]
        ys = [y - BADGE_OFFSET for (_, y), _ in badges]
        layer.fill_style = "#222222"
        layer.fill_circles(xs, ys, 7)
        layer.font = "bold 9px sans-serif"
        layer.text_align = "center"
        layer.text_baseline = "middle"
        layer.fill_style = "#ffffff"
        for x, y, (_, text) in zip(xs, ys, badges, strict=True):
            layer.fill_text(text, x, y)


class BoardAnimation:
    """Play frames on a board widget: play button, slider, Back/Next, a line of text.

    Parameters
    ----------
    view : BoardWidget
        The board to draw on.  A painter is added to ``view.piece_painters``;
        the pieces shown before (claimed routes) stay as they are.
    frames : sequence of Frame
        What to show at each step.
    legend : str, optional
        HTML shown under the controls (what the colours mean).
    interval : int, default 700
        Milliseconds per frame when playing.
    title : str, optional
        Text before the step counter (``"Step"`` by default).

    Notes
    -----
    Display the animation itself (``animation`` as the last line of a cell):
    a live notebook shows the widgets, a notebook exported without a kernel
    shows a picture of the frame shown.  :meth:`show` moves to a frame from
    code, and :meth:`snapshot` gives a picture of the frame shown now for a
    later cell.  Under a headless run nothing is drawn, but :meth:`show` and
    :attr:`text` work the same.
    """

    def __init__(
        self,
        view: Any,
        frames: Sequence[Frame],
        *,
        legend: str = "",
        interval: int = 700,
        title: str = "Step",
    ) -> None:
        import ipywidgets as widgets

        from ..widgets.safety import CallbackGuard

        if not frames:
            raise ValueError("there are no steps to show")
        self.view = view
        self.frames = list(frames)
        self.title = title
        self.index = 0
        self.base = view.pieces
        self.guard = CallbackGuard()
        view.piece_painters.append(self.paint)
        last = len(self.frames) - 1
        self.play = widgets.Play(value=0, min=0, max=last, step=1, interval=interval)
        self.slider = widgets.IntSlider(
            value=0, min=0, max=last, description=title, layout=widgets.Layout(width="420px")
        )
        widgets.jslink((self.play, "value"), (self.slider, "value"))
        self.back = widgets.Button(description="Back", layout=widgets.Layout(width="70px"))
        self.next = widgets.Button(description="Next", layout=widgets.Layout(width="70px"))
        self.back.on_click(self.guard(lambda _b: self.show(self.index - 1)))
        self.next.on_click(self.guard(lambda _b: self.show(self.index + 1)))
        self.slider.observe(self.guard(lambda change: self.show(change["new"])), names="value")
        self.label = widgets.HTML()
        self.widget = widgets.VBox(
            [
                view.widget,
                widgets.HBox([self.play, self.back, self.slider, self.next]),
                self.label,
                widgets.HTML(legend),
                self.guard.output,
            ]
        )
        self.show(0)

    @property
    def frame(self) -> Frame:
        """The frame shown."""
        return self.frames[self.index]

    @property
    def text(self) -> str:
        """The line under the controls, without markup."""
        return f"{self.title} {self.index} of {len(self.frames) - 1}: {self.frame.note}"

    def show(self, index: int) -> None:
        """Show frame `index` (clamped to the frames available)."""
        self.index = max(0, min(index, len(self.frames) - 1))
        if self.slider.value != self.index:
            self.slider.value = self.index  # comes back here through the observer
            return
        import html

        self.label.value = f"<b>{html.escape(self.text)}</b>"
        self.view.set_pieces(replace(self.base, highlighted=frozenset(self.frame.highlighted)))

    def paint(self, layer: Any, geometry: Any, pieces: Any) -> None:
        """Painter hook: the frame shown, on the board's pieces layer."""
        paint_frame(layer, geometry, self.frame)

    def snapshot(self, caption: str = "") -> Any:
        """A picture of the frame shown now, for notebooks read without a kernel."""
        return self.view.snapshot(caption or self.text)

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        from ..widgets.board_svg import board_bundle

        return board_bundle(self.view, self.widget._repr_mimebundle_(**kwargs))
