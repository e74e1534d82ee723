"""Zoom and pan of a board: which part of the board the canvas shows, and at what scale.

Pure arithmetic (no widgets), so hit-testing under zoom is tested without a
browser. Board coordinates are those of :mod:`~ttr_nb.widgets.geometry`;
canvas coordinates are pixels of the canvas (before any CSS scaling). The canvas
shows the board from ``(x, y)`` (its top-left corner) at ``zoom`` canvas pixels
per board unit::

    canvas = (board - origin) * zoom        board = origin + canvas / zoom

The view never leaves the board: the origin is clamped so that the canvas is
always covered, which also makes zoom 1 the whole board.
"""

from __future__ import annotations

from dataclasses import dataclass

MIN_ZOOM = 1.0
MAX_ZOOM = 6.0
ZOOM_STEP = 1.25  # one wheel notch, one button press, one key press
PAN_STEP = 0.2  # a pan button or key moves the view by this share of what is shown


@dataclass
class Viewport:
    """The shown part of a ``width`` × ``height`` board.

    Examples
    --------
    >>> view = Viewport(800, 600)
    >>> view.zoom_by(2.0, 400, 300)  # zoom in on the middle of the canvas
    True
    >>> view.zoom, view.x, view.y
    (2.0, 200.0, 150.0)
    >>> view.to_board(0, 0), view.to_canvas(400, 300)
    ((200.0, 150.0), (400.0, 300.0))
    >>> view.pan_by(-1000, 0)  # far to the right: stops at the board's edge
    True
    >>> view.x
    400.0
    """

    width: float
    height: float
    zoom: float = 1.0
    x: float = 0.0
    y: float = 0.0

    def to_board(self, cx: float, cy: float) -> tuple[float, float]:
        """The board point shown at canvas point (cx, cy)."""
        return self.x + cx / self.zoom, self.y + cy / self.zoom

    def to_canvas(self, bx: float, by: float) -> tuple[float, float]:
        """Where board point (bx, by) is shown on the canvas (may be outside it)."""
        return (bx - self.x) * self.zoom, (by - self.y) * self.zoom

    def transform(self) -> tuple[float, float, float, float, float, float]:
        """The canvas transform ``(a, b, c, d, e, f)`` that draws board coordinates."""
        z = self.zoom
        return (z, 0.0, 0.0, z, -self.x * z, -self.y * z)

    @property
    def is_whole_board(self) -> bool:
        """Whether the whole board is in view (not zoomed in)."""
        return self.zoom == MIN_ZOOM

    def zoom_by(self, factor: float, cx: float | None = None, cy: float | None = None) -> bool:
        """Zoom by ``factor`` keeping the board point under canvas point (cx, cy) in place
        (default: the middle of the canvas). Returns whether the view changed."""
        cx = self.width / 2 if cx is None else cx
        cy = self.height / 2 if cy is None else cy
        bx, by = self.to_board(cx, cy)
        zoom = min(MAX_ZOOM, max(MIN_ZOOM, self.zoom * factor))
        if abs(zoom - 1.0) < 1e-9:
            zoom = 1.0  # steps of 1.25 back down land on 1 up to rounding
        return self._set(zoom, bx - cx / zoom, by - cy / zoom)

    def pan_by(self, dx: float, dy: float) -> bool:
        """Move what is shown by (dx, dy) canvas pixels: the board slides the other way."""
        return self._set(self.zoom, self.x - dx / self.zoom, self.y - dy / self.zoom)

    def move_to(self, x: float, y: float) -> bool:
        """Show the board from board point (x, y) at the top-left corner (within the edges)."""
        return self._set(self.zoom, x, y)

    def pan_step(self, right: int, down: int) -> bool:
        """Look ``right`` (−1, 0, 1) and ``down`` by one step (a share of the shown part)."""
        return self.pan_by(-right * PAN_STEP * self.width, -down * PAN_STEP * self.height)

    def centre_on(self, bx: float, by: float) -> bool:
        """Put board point (bx, by) in the middle of the canvas (as far as the edges allow)."""
        return self._set(
            self.zoom, bx - self.width / 2 / self.zoom, by - self.height / 2 / self.zoom
        )

    def reset(self) -> bool:
        """Show the whole board."""
        return self._set(MIN_ZOOM, 0.0, 0.0)

    def _set(self, zoom: float, x: float, y: float) -> bool:
        x = min(max(0.0, x), self.width - self.width / zoom)
        y = min(max(0.0, y), self.height - self.height / zoom)
        changed = (zoom, x, y) != (self.zoom, self.x, self.y)
        self.zoom, self.x, self.y = zoom, x, y
        return changed
