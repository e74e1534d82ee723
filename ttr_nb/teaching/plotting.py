"""Boards as graphs, drawn with matplotlib for the graph lessons.

The board widget draws on a browser canvas, which a headless notebook run
never shows.  These figures are plain matplotlib, so a notebook run by nbval
(or printed) still shows what the lesson is about.

* :func:`board_graph` turns a map (or a player's routes) into a
  :class:`networkx.MultiGraph`.
* :func:`plot_board` draws a map: routes in their colours (ship routes dashed,
  double routes side by side), claimed routes in player colours, highlighted
  routes, coloured places and small labels.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

import networkx as nx

from ..maps import Map
from ..projection import board_frame, board_positions

__all__ = ["PLAYER_COLOURS", "ROUTE_COLOURS", "board_graph", "plot_board", "plot_positions"]

# The board widget's palette (ttr_nb.widgets.style), repeated so that drawing a
# figure does not need the widget packages.
ROUTE_COLOURS: dict[str, str] = {
    "purple": "#b160c9",
    "blue": "#2f6fd6",
    "orange": "#f08a1c",
    "white": "#d9d9cf",  # a little darker than the widget's, to show on white paper
    "green": "#3c9a3c",
    "yellow": "#e8c20c",
    "black": "#262626",
    "red": "#d63a32",
    "gray": "#a8a8a8",
}
PLAYER_COLOURS: tuple[str, ...] = ("#0b9a96", "#c2185b", "#7b4a1e", "#8bc34a", "#4a5fc1")
HIGHLIGHT = "#ff2d95"
_WIDTH, _HEIGHT = 1000.0, 620.0


def board_graph(game_map: Map, routes: Iterable[int] | None = None) -> nx.MultiGraph:
    """Return a map, or some of its routes, as a networkx multigraph.

    Parameters
    ----------
    game_map : Map
        A loaded map (``ttr_nb.load_map("usa")``).
    routes : iterable of int, optional
        Route ids to keep (a player's network).  By default every route.

    Returns
    -------
    networkx.MultiGraph
        One node per place, with attributes ``name``, ``kind`` (``city``,
        ``country_space`` or ``junction``), ``lat``, ``lon``, ``country`` and
        ``port``; one edge per route, keyed by route id, with attributes
        ``length``, ``color``, ``kind`` (``train`` or ``ship``) and ``wraps``.
        With `routes`, only the places those routes touch.

    Examples
    --------
    >>> from ttr_nb import load_map
    >>> g = board_graph(load_map("usa"))
    >>> g.number_of_nodes(), g.number_of_edges()
    (36, 100)
    >>> g.number_of_edges("new-york", "washington")
    2
    """
    keep = None if routes is None else set(routes)
    graph = nx.MultiGraph(name=game_map.name)
    chosen = [r for r in game_map.routes if keep is None or r.id in keep]
    touched = {p for r in chosen for p in r.ends}
    for city in game_map.cities:
        if keep is None or city.id in touched:
            graph.add_node(
                city.id,
                name=city.name,
                kind=city.kind,
                lat=city.lat,
                lon=city.lon,
                country=city.country,
                port=city.port,
            )
    for r in chosen:
        graph.add_edge(
            r.a, r.b, key=r.id, length=r.length, color=r.color, kind=r.kind, wraps=r.wraps
        )
    return graph


def plot_positions(game_map: Map) -> dict[str, tuple[float, float]]:
    """Positions of every place for matplotlib: x east, y north (board units).

    The projection is the board's own (``ttr_nb.projection``); y is flipped
    because matplotlib's y axis points up.
    """
    return {p: (x, _HEIGHT - y) for p, (x, y) in board_positions(game_map, _WIDTH, _HEIGHT).items()}


def _segments(
    game_map: Map, pos: Mapping[str, tuple[float, float]], route_id: int, offset: float
) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Line segments of one route; a route across the board's edge gives two pieces."""
    route = game_map.route_by_id[route_id]
    (ax, ay), (bx, by) = pos[route.a], pos[route.b]
    pieces = [((ax, ay), (bx, by))]
    if route.wraps:
        frame = board_frame(game_map, _WIDTH, _HEIGHT)
        if frame.wraps:
            shift = frame.width if bx < ax else -frame.width
            pieces = [((ax, ay), (bx + shift, by)), ((ax - shift, ay), (bx, by))]
    if not offset:
        return pieces
    out = []
    for (x1, y1), (x2, y2) in pieces:
        d = math.hypot(x2 - x1, y2 - y1) or 1.0
        nx_, ny_ = -(y2 - y1) / d * offset, (x2 - x1) / d * offset
        out.append(((x1 + nx_, y1 + ny_), (x2 + nx_, y2 + ny_)))
    return out


def plot_board(
    game_map: Map,
    ax: Any = None,
    *,
    owner: Mapping[int, int] | None = None,
    highlight: Iterable[int] = (),
    routes: Iterable[int] | None = None,
    place_colours: Mapping[str, str] | None = None,
    place_labels: Mapping[str, str] | None = None,
    names: bool | Iterable[str] = True,
    title: str | None = None,
    figsize: tuple[float, float] = (10.0, 6.2),
) -> Any:
    """Draw a map with matplotlib and return the axes.

    Parameters
    ----------
    game_map : Map
        The board.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure of size `figsize` by default.
    owner : mapping of route id to seat, optional
        Claimed routes, drawn thick in the seat's colour.
    highlight : iterable of int, optional
        Route ids drawn thick in magenta, on top (a path, a search tree...).
    routes : iterable of int, optional
        Only these routes are drawn in colour; the others are drawn faint.
        By default every route is drawn in colour (faint when `owner` or
        `highlight` is given, so that those stand out).
    place_colours : mapping of place id to colour, optional
        Fill colour of some places (search states...); others are white.
    place_labels : mapping of place id to str, optional
        A short text drawn next to a place (visit order, distance...).
    names : bool or iterable of str, default True
        Write every place's name, none, or only the listed places' names.
    title : str, optional
        Axes title.
    figsize : tuple, default (10, 6.2)
        Size of a new figure, in inches.

    Returns
    -------
    matplotlib.axes.Axes

    Notes
    -----
    Ship routes are dashed; the tracks of a double route are drawn side by
    side; a route that leaves one edge of a wrapping map (the World) is drawn
    to that edge and again from the opposite edge.  Country spaces are small
    squares, junctions small dots.
    """
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=figsize)
    pos = plot_positions(game_map)
    owner = dict(owner or {})
    highlight = set(highlight)
    shown = None if routes is None else set(routes)
    faint = bool(owner or highlight) or shown is not None

    for group in game_map.groups.values():
        tracks = sorted(group)
        for k, rid in enumerate(tracks):
            route = game_map.route_by_id[rid]
            offset = (k - (len(tracks) - 1) / 2) * 4.0
            colour = ROUTE_COLOURS.get(route.color, "#999999")
            style = (0, (3, 2)) if route.kind == "ship" else "solid"
            dim = faint and (shown is None or rid not in shown)
            for (x1, y1), (x2, y2) in _segments(game_map, pos, rid, offset):
                ax.plot(
                    [x1, x2],
                    [y1, y2],
                    color=colour,
                    linestyle=style,
                    linewidth=1.6 if dim else 2.6,
                    alpha=0.35 if dim else 0.95,
                    solid_capstyle="butt",
                    zorder=1,
                )
                if rid in owner:
                    ax.plot(
                        [x1, x2],
                        [y1, y2],
                        color=PLAYER_COLOURS[owner[rid] % len(PLAYER_COLOURS)],
                        linewidth=4.5,
                        alpha=0.9,
                        solid_capstyle="butt",
                        zorder=2,
                    )
                if rid in highlight:
                    ax.plot(
                        [x1, x2],
                        [y1, y2],
                        color=HIGHLIGHT,
                        linewidth=3.2,
                        alpha=0.9,
                        zorder=3,
                    )

    colours = dict(place_colours or {})
    wanted = {c.id for c in game_map.cities} if names is True else set(names or ())
    for city in game_map.cities:
        x, y = pos[city.id]
        marker, size = {"country_space": ("s", 36), "junction": (".", 30)}.get(city.kind, ("o", 42))
        ax.scatter(
            [x],
            [y],
            s=size,
            marker=marker,
            c=colours.get(city.id, "white"),
            edgecolors="#333333",
            linewidths=0.9,
            zorder=4,
        )
        if city.id in wanted and city.kind != "junction":
            ax.annotate(
                city.name,
                (x, y),
                xytext=(4, 3),
                textcoords="offset points",
                fontsize=6.5,
                color="#222222",
                zorder=5,
            )
    for place, text in (place_labels or {}).items():
        x, y = pos[place]
        ax.annotate(
            text,
            (x, y),
            xytext=(-4, -9),
            textcoords="offset points",
            fontsize=7,
            fontweight="bold",
            color="#b00060",
            ha="right",
            zorder=6,
        )
    frame = board_frame(game_map, _WIDTH, _HEIGHT)
    if frame.wraps:
        for x in (frame.left, frame.left + frame.width):
            ax.axvline(x, color="#c8bb95", linestyle=":", linewidth=1, zorder=0)
        ax.set_xlim(frame.left - 5, frame.left + frame.width + 5)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_visible(False)
    if title:
        ax.set_title(title, fontsize=10)
    return ax
