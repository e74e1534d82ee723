"""Märklin on the board: merchandise stacks, passengers, and a journey before it is made.

* :func:`paint_merchandise` draws each city's token stack beside it: a square in the
  stack's colour (black, red, yellow, white) with the top token's value, and one
  edge behind it for every token under it; an emptied city keeps a faint outline.
* :func:`paint_passengers` draws every passenger standing on the board as a disc in its
  owner's colour, marked with the owner's seat number (the Germany disc painter).
* :class:`JourneyPainter` shows one journey before the player confirms it: its routes
  outlined, its start ringed, and ``+7`` beside each city where it would collect.
* :func:`maerklin_facts` adds the stack and the passenger of a city to the hover text.
* :func:`add_maerklin` registers them on a board; :func:`maerklin_board` builds a
  board for a game with them (lessons).

Every painter does nothing unless ``pieces.game`` is a Märklin game.
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from ipycanvas import Canvas

from ..rules.maerklin import BOARD_KEY, STACKS_KEY, JourneyPlan, MaerklinRules
from . import style
from .board import BoardPieces, BoardWidget
from .game_board import game_board, refresh_board
from .geometry import CITY_RADIUS, BoardGeometry
from .germany_board import PASSENGER_RADIUS, PassengerMark, disc_spots, paint_discs

TOKEN_HALF = 7.5  # half the side of a token square
STACK_STEP = 2.0  # how far each token under the top one shows
TOKEN_PAINT = {  # fill, ink, edge of each stack colour
    "black": ("#262626", "#ffffff", "#000000"),
    "red": ("#d63a32", "#ffffff", "#7a1712"),
    "yellow": ("#f5d327", "#1b1b1b", "#8a7300"),
    "white": ("#fbfbf7", "#1b1b1b", "#555555"),
}
JOURNEY_INK = "#ff2d95"
JOURNEY_HALO = "#ffffff"
GAIN_FILL = "#fff3c4"


@dataclass(frozen=True)
class TokenMark:
    """One city's merchandise stack as drawn: where, its colour, top value, tokens left."""

    city: str
    colour: str
    x: float
    y: float
    top: int | None
    left: int


def _maerklin(pieces: BoardPieces) -> Any:
    game = pieces.game
    if game is None or not isinstance(getattr(game, "rules", None), MaerklinRules):
        return None
    return game


def _spots(geometry: BoardGeometry, city: str) -> tuple[tuple[float, float], ...]:
    """Where a city's stack and its passenger go: two spots beside it, away from its name."""
    first, second = disc_spots(geometry, city, 2)
    return first, second


def token_marks(game: Any, geometry: BoardGeometry) -> list[TokenMark]:
    """Every city's stack with its drawing position (no drawing: testable)."""
    stacks = game.state.extras.get(STACKS_KEY, {})
    marks = []
    for city in game.map.cities:
        if city.kind != "city" or city.id not in geometry.positions or not city.merchandise:
            continue
        tokens = stacks.get(city.id, [])
        x, y = _spots(geometry, city.id)[0]
        marks.append(
            TokenMark(city.id, city.merchandise, x, y, tokens[0] if tokens else None, len(tokens))
        )
    return marks


def _square(x: float, y: float, half: float) -> list[tuple[float, float]]:
    return [(x - half, y - half), (x + half, y - half), (x + half, y + half), (x - half, y + half)]


def paint_merchandise(canvas: Canvas, geometry: BoardGeometry, pieces: BoardPieces) -> None:
    """Pieces-layer painter: each city's token stack, top value readable."""
    game = _maerklin(pieces)
    if game is None:
        return
    marks = token_marks(game, geometry)
    empty = [m for m in marks if not m.left]
    if empty:
        canvas.stroke_style = "#9a9a9a"
        canvas.line_width = 1
        canvas.set_line_dash([2, 2])
        points = [p for m in empty for p in _square(m.x, m.y, TOKEN_HALF - 1)]
        canvas.stroke_polygons(np.array(points, dtype=float), np.full(len(empty), 4, dtype=int))
        canvas.set_line_dash([])
    for colour, (fill, ink, edge) in TOKEN_PAINT.items():
        group = [m for m in marks if m.colour == colour and m.left]
        if not group:
            continue
        # Deepest token first, so the top one is drawn last.
        for depth in range(max(m.left for m in group) - 1, -1, -1):
            layer = [m for m in group if m.left > depth]
            points = [
                p
                for m in layer
                for p in _square(m.x + depth * STACK_STEP, m.y - depth * STACK_STEP, TOKEN_HALF)
            ]
            polygons = np.array(points, dtype=float)
            counts = np.full(len(layer), 4, dtype=int)
            canvas.fill_style = fill
            canvas.fill_polygons(polygons, counts)
            canvas.stroke_style = edge
            canvas.line_width = 1.2
            canvas.stroke_polygons(polygons, counts)
        canvas.font = "bold 11px sans-serif"
        canvas.text_align = "center"
        canvas.text_baseline = "middle"
        canvas.fill_style = ink
        for m in group:
            canvas.fill_text(str(m.top), m.x, m.y + 0.5)


def passenger_marks(game: Any, geometry: BoardGeometry) -> list[PassengerMark]:
    """The passengers standing on the board, in their owner's colour and number."""
    marks = []
    for city, seat in game.state.extras.get(BOARD_KEY, {}).items():
        if city not in geometry.positions:
            continue
        x, y = _spots(geometry, city)[1]
        ps = style.player_style(seat)
        marks.append(PassengerMark(city, ps.name, x, y, ps.mark, ps.fill, ps.ink))
    return marks


def passenger_hit(x: float, y: float, geometry: BoardGeometry, pieces: BoardPieces) -> str | None:
    """The city whose passenger's disc is at board point (x, y), or None (a click on a
    disc means its city, though the disc stands beside it)."""
    game = _maerklin(pieces)
    if game is None:
        return None
    for mark in passenger_marks(game, geometry):
        if math.hypot(mark.x - x, mark.y - y) <= PASSENGER_RADIUS:
            return mark.place
    return None


def paint_passengers(canvas: Canvas, geometry: BoardGeometry, pieces: BoardPieces) -> None:
    """Pieces-layer painter: every passenger standing on the board."""
    game = _maerklin(pieces)
    if game is None:
        return
    paint_discs(canvas, passenger_marks(game, geometry))


class JourneyPainter:
    """A pieces-layer painter showing one journey before it is made (or nothing).

    Set :attr:`plan` (a :class:`~ttr_nb.rules.maerklin.JourneyPlan`) and :attr:`path`
    (its route ids) and redraw the pieces; set them back to None to clear it.
    """

    def __init__(self) -> None:
        self.plan: JourneyPlan | None = None
        self.path: tuple[int, ...] = ()
        self.reach: frozenset[str] = frozenset()  # cities to ring: where a passenger can go
        self.drawn: tuple[Any, ...] | None = None  # (plan, reach) as last drawn on the board

    def show(self, plan: JourneyPlan | None, path: Sequence[int] = ()) -> None:
        """Draw the journey ``plan`` along the routes of ``path`` (None: draw none)."""
        self.plan, self.path = plan, tuple(path)

    def __call__(self, canvas: Canvas, geometry: BoardGeometry, pieces: BoardPieces) -> None:
        game = _maerklin(pieces)
        if game is None:
            return
        self.drawn = (self.plan, self.reach)
        pos = geometry.positions
        if self.reach:
            rings = [pos[c] for c in sorted(self.reach) if c in pos]
            if rings:
                canvas.stroke_style = style.CLAIMABLE
                canvas.line_width = 2
                canvas.set_line_dash([3, 2])
                canvas.stroke_circles(
                    np.array([x for x, _ in rings], dtype=float),
                    np.array([y for _, y in rings], dtype=float),
                    CITY_RADIUS + 5,
                )
                canvas.set_line_dash([])
        if self.plan is None:
            return
        points = [p for city in self.plan.cities if city in pos for p in [pos[city]]]
        if len(points) > 1:
            segments = np.array(
                [q for a, b in zip(points, points[1:], strict=False) for q in (a, b)],
                dtype=float,
            )
            per_segment = np.full(len(segments) // 2, 2, dtype=int)
            # A light halo under the dashes lifts the path off the routes and the
            # claimable highlights it crosses (it was hard to see at 100 %).
            canvas.stroke_style = JOURNEY_HALO
            canvas.line_width = 10
            canvas.stroke_line_segments(segments, points_per_line_segment=per_segment)
            canvas.stroke_style = JOURNEY_INK
            canvas.line_width = 5
            canvas.set_line_dash([10, 5])
            canvas.stroke_line_segments(segments, points_per_line_segment=per_segment)
            canvas.set_line_dash([])
        start = self.plan.cities[0]
        if start in pos:
            canvas.stroke_style = JOURNEY_HALO
            canvas.line_width = 7
            canvas.stroke_circle(*pos[start], CITY_RADIUS + 6)
            canvas.stroke_style = JOURNEY_INK
            canvas.line_width = 4
            canvas.stroke_circle(*pos[start], CITY_RADIUS + 6)
        canvas.font = "bold 12px sans-serif"
        canvas.text_align = "center"
        canvas.text_baseline = "middle"
        for city, value in self.plan.tokens:
            if city not in pos:
                continue
            x, y = pos[city]
            canvas.fill_style = GAIN_FILL
            canvas.fill_circle(x, y - CITY_RADIUS - 10, 10)
            canvas.stroke_style = JOURNEY_INK
            canvas.line_width = 1.5
            canvas.stroke_circle(x, y - CITY_RADIUS - 10, 10)
            canvas.fill_style = "#1b1b1b"
            canvas.fill_text(f"+{value}", x, y - CITY_RADIUS - 9.5)


def stack_text(game: Any, city: str) -> str:
    """``black stack: 7 on top, 4 tokens (7, 6, 5, 4)`` or ``red stack: empty``."""
    colour = game.map.city_by_id[city].merchandise
    tokens = game.state.extras.get(STACKS_KEY, {}).get(city, [])
    if not tokens:
        return f"{colour} stack: empty"
    listed = ", ".join(map(str, tokens))
    n = len(tokens)
    return f"{colour} stack: {tokens[0]} on top, {n} token{'s' if n != 1 else ''} ({listed})"


def maerklin_facts(kind: str, ident: Any, pieces: BoardPieces) -> list[str]:
    """Hover facts: a city's merchandise and who has a passenger standing there."""
    game = _maerklin(pieces)
    if game is None or kind != "city" or ident not in game.map.city_by_id:
        return []
    city = game.map.city_by_id[ident]
    if city.kind != "city":
        return ["no passenger may stand in or travel through a country"]
    lines = [html.escape(stack_text(game, ident))]
    if city.estimated.get("merchandise"):
        lines[0] += " (the city's colour is a stand-in: see About this map)"
    seat = game.state.extras.get(BOARD_KEY, {}).get(ident)
    if seat is not None:
        name = html.escape(game.state.players[seat].name)
        lines.append(
            f"{name}'s passenger stands here (its owner clicks it to see where it can travel)"
        )
    return lines


def add_maerklin(view: BoardWidget, journey: JourneyPainter | None = None) -> BoardWidget:
    """Register the Märklin painters and facts on ``view`` (once) and return it."""
    for painter in (paint_merchandise, paint_passengers, journey):
        if painter is not None and painter not in view.piece_painters:
            view.piece_painters.append(painter)
    if maerklin_facts not in view.fact_providers:
        view.fact_providers.append(maerklin_facts)
    return view


def maerklin_board(
    game: Any,
    highlight: Iterable[int] = (),
    journey: Any = None,
    **options: Any,
) -> BoardWidget:
    """A board widget showing ``game`` with its stacks and passengers, and ``journey``
    (a :class:`~ttr_nb.rules.maerklin.MovePassenger` of the player to move) previewed."""
    options.setdefault("max_height", 1000)
    painter = JourneyPainter()
    if journey is not None:
        rules: MaerklinRules = game.rules
        painter.show(rules.plan(game.state, game.state.current, journey), journey.path)
    view = add_maerklin(game_board(game, **options), painter)
    refresh_board(view, game, highlight)
    return view
