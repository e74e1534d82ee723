"""Board animation frames for the spanning-tree and Euler lessons.

Each function turns the recorded steps of an algorithm from
:mod:`ttr_nb.algorithms` into :class:`~ttr_nb.teaching.animation.Frame`
objects for a :class:`~ttr_nb.teaching.animation.BoardAnimation`, with one
line of text per step.  Routes are the algorithms' tuples whose last item is
the route id.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..algorithms.euler import HierholzerStep
from ..algorithms.spanning import SpanningStep
from ..maps import Map
from .animation import Frame

__all__ = [
    "KEPT",
    "LOOKED_AT",
    "SKIPPED",
    "WALK",
    "euler_frames",
    "euler_legend",
    "route_tuples",
    "spanning_frames",
    "spanning_legend",
]

KEPT = "#0b9a96"  # routes of the tree (or the finished trail)
LOOKED_AT = "#f2a33a"  # the route looked at now, when kept
SKIPPED = "#e0312b"  # the route looked at now, when skipped
WALK = "#f6c36b"  # the unfinished walk of Hierholzer's algorithm
PLACE = "#4a78c2"


def route_tuples(game_map: Map) -> list[tuple[str, str, int, int]]:
    """Every route as ``(place_a, place_b, length, route_id)``, the algorithms' input."""
    return [(r.a, r.b, r.length, r.id) for r in game_map.routes]


def spanning_legend() -> str:
    """HTML legend for spanning-tree animations."""
    return (
        f'<span style="color:{KEPT}">■</span> tree so far &nbsp; '
        f'<span style="color:{LOOKED_AT}">□</span> route looked at, kept &nbsp; '
        f'<span style="color:{SKIPPED}">□</span> route looked at, skipped (it would close a '
        "cycle) &nbsp; dots: places in Prim's tree"
    )


def spanning_frames(
    game_map: Map, steps: Sequence[SpanningStep], start: str | None = None
) -> list[Frame]:
    """Frames for Kruskal's or Prim's steps (with `start`, the places of Prim's tree get dots)."""
    name = game_map.place_name
    tree: dict[int, str] = {}
    places = {start} if start else set()
    frames = [
        Frame(
            f"start: {name(start)} alone" if start else "start: every place is a piece of its own",
            place_colours=dict.fromkeys(places, PLACE),
        )
    ]
    for i, step in enumerate(steps, 1):
        a, b, length, rid = step.route[:4]
        label = f"{name(a)}–{name(b)} ({length})"
        if step.accepted:
            tree[rid] = KEPT
            if start:
                places |= {a, b}
            left = (
                f"{step.pieces} place{'s' if step.pieces != 1 else ''} outside"
                if start
                else (f"{step.pieces} piece{'s' if step.pieces != 1 else ''} left")
            )
            note = f"{i}. keep {label}: tree {step.total} spaces, {left}"
        else:
            note = f"{i}. skip {label}: its ends are joined already"
        frames.append(
            Frame(
                note,
                route_colours=dict(tree),
                route_outlines={rid: LOOKED_AT if step.accepted else SKIPPED},
                place_colours=dict.fromkeys(places, PLACE),
            )
        )
    return frames


def euler_frames(game_map: Map, steps: Sequence[HierholzerStep]) -> list[Frame]:
    """Frames for Hierholzer's moves: the finished trail, the walk still open, where we are."""
    name = game_map.place_name
    frames = []
    for i, step in enumerate(steps, 1):
        colours = {r[-1]: WALK for r in step.walk}
        colours.update({r[-1]: KEPT for r in step.trail})
        here = step.walk[-1][1] if step.walk else step.place
        if step.kind == "walk":
            a, b = step.route[:2]
            note = f"{i}. walk {name(a)} → {name(b)}"
        elif step.route is not None:
            a, b = step.route[:2]
            note = f"{i}. stuck at {name(b)}: {name(a)}–{name(b)} is final, step back"
        else:
            note = f"{i}. back at the start: the trail is complete"
        frames.append(
            Frame(
                note,
                route_colours=colours,
                place_colours={here: SKIPPED},
                big_places=frozenset({here}),
            )
        )
    return frames


def euler_legend() -> str:
    """HTML legend for Hierholzer animations."""
    return (
        f'<span style="color:{WALK}">■</span> the walk still open (the stack) &nbsp; '
        f'<span style="color:{KEPT}">■</span> finished part of the trail &nbsp; '
        f'<span style="color:{SKIPPED}">●</span> where the algorithm is'
    )
