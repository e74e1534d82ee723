"""Watch a graph search move over the board, one place at a time.

:func:`search_steps` runs breadth-first search, depth-first search,
Dijkstra's algorithm or A* on a map and records every step: the place taken
from the frontier, the places already done, the frontier itself and the
search tree.  The same steps can then be

* printed (:func:`trace_text`, deterministic, so a notebook can check it),
* drawn with matplotlib (:func:`plot_step`, :func:`plot_steps`), which also
  shows in a headless run,
* played on the board widget (:class:`SearchAnimation`: a painter hook draws
  the dots, a slider and buttons move through the steps).

The searches are written out here in full (not taken from networkx) so that
every intermediate state can be recorded; the notebooks compare their answers
with networkx and with :mod:`ttr_nb.algorithms`.
"""

from __future__ import annotations

import heapq
import math
from collections import deque
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..maps import Map
from .animation import BoardAnimation, Frame

__all__ = [
    "METHODS",
    "SearchAnimation",
    "SearchStep",
    "plot_step",
    "plot_steps",
    "search_frame",
    "search_steps",
    "step_colours",
    "trace_text",
]

METHODS = ("bfs", "dfs", "dijkstra", "astar")

# Dot colours, shared by the matplotlib figures and the canvas painter.
DONE, WAITING, CURRENT, GOAL = "#4a78c2", "#f2a33a", "#e0312b", "#2ca02c"


@dataclass(frozen=True)
class SearchStep:
    """The state of a search just after it has taken one place from its frontier.

    Attributes
    ----------
    number : int
        0 for the state before the first place is taken, then 1, 2, ...
    current : str or None
        The place taken at this step (None at step 0).
    done : tuple of str
        Places taken so far, in the order they were taken (``current`` last).
        A place that A* re-opens (see `search_steps`) appears again when it
        is taken again.
    frontier : tuple of str
        Places discovered but not taken yet, in the order the search would
        take them next (for Dijkstra and A*: by priority).
    parents : mapping of str to (int, str)
        For every discovered place but a start: the route it was reached by
        and the place at the other end (the search tree so far).
    cost : mapping of str to float
        Best distance known so far: routes counted (BFS, DFS) or spaces
        (Dijkstra, A*).
    estimate : mapping of str to float
        A* only: the heuristic's estimate of the spaces still needed from
        each discovered place.  A* takes the place with the smallest
        ``cost + estimate`` next.
    note : str
        One line saying what happened.
    """

    number: int
    current: str | None
    done: tuple[str, ...]
    frontier: tuple[str, ...]
    parents: Mapping[str, tuple[int, str]]
    cost: Mapping[str, float]
    note: str
    estimate: Mapping[str, float] = field(default_factory=dict)

    @property
    def expanded(self) -> int:
        """How many places the search has taken from its frontier so far."""
        return len(self.done)

    @property
    def tree(self) -> frozenset[int]:
        """Route ids of the search tree so far."""
        return frozenset(rid for rid, _ in self.parents.values())

    def path_to(self, place: str) -> list[int]:
        """Route ids from the start to `place` along the search tree, in order.

        Raises
        ------
        ValueError
            If the search has not reached `place`.

        Examples
        --------
        >>> from ttr_nb import load_map
        >>> usa = load_map("usa")
        >>> step = search_steps(usa, "boston", "washington", method="dijkstra")[-1]
        >>> [usa.route_by_id[r].b for r in step.path_to("washington")]
        ['new-york', 'washington']
        """
        if place not in self.cost:
            raise ValueError(f"the search has not reached {place!r}")
        out = []
        while place in self.parents:
            rid, place = self.parents[place]
            out.append(rid)
        return out[::-1]


def _as_set(places: str | Collection[str] | None) -> frozenset[str]:
    if places is None:
        return frozenset()
    return frozenset((places,) if isinstance(places, str) else places)


def _fmt(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def _plural(value: float, word: str) -> str:
    return f"{_fmt(value)} {word}{'' if value == 1 else 's'}"


def search_steps(
    game_map: Map,
    start: str | Collection[str],
    goal: str | Collection[str] | None = None,
    *,
    method: str = "bfs",
    routes: Iterable[int] | None = None,
    owned: Iterable[int] = (),
    unavailable: Iterable[int] = (),
    heuristic: Callable[[str, str], float] | None = None,
    dead_ends: Iterable[str] | None = None,
    reopen: bool = True,
) -> list[SearchStep]:
    """Run a search on a map and return every step.

    Parameters
    ----------
    game_map : Map
        The board.
    start : str or collection of str
        The place the search starts from, or several (a country's border
        spaces): they all start at distance 0.
    goal : str or collection of str, optional
        Stop as soon as one of these places is taken from the frontier.  By
        default the search runs until the frontier is empty.
    method : {"bfs", "dfs", "dijkstra", "astar"}
        Breadth-first (a FIFO queue), depth-first (a stack; a place counts as
        visited when it is taken, so the order is a true depth-first order),
        Dijkstra's algorithm, or A* (needs `heuristic` and `goal`).
    routes : iterable of int, optional
        Route ids the search may use (a player's network); default all.
    owned : iterable of int, optional
        Routes that cost 0 spaces (Dijkstra and A*).
    unavailable : iterable of int, optional
        Routes left out (claimed by someone else).
    heuristic : callable, optional
        ``heuristic(place, goal_place)``: an estimate of the spaces still
        needed, for A*.  With several goal places the smallest estimate is used.
    dead_ends : iterable of str, optional
        Places that are reached but never passed through; default the map's
        country spaces.  A start is always left.
    reopen : bool, default True
        A* only: when a cheaper way to a place already taken turns up, put the
        place back into the frontier (and take it again later).  That keeps A*
        exact with any admissible heuristic.  With ``reopen=False`` a place is
        never taken twice, which is only exact when the heuristic is
        *consistent*: ``h(u) <= length(u, v) + h(v)`` for every route u-v.

    Returns
    -------
    list of SearchStep
        Step 0 (only the starts in the frontier) and one step per place taken.
        Neighbours are taken in alphabetical order of their ids, so the steps
        are the same on every run.

    Raises
    ------
    ValueError
        For an unknown method or place, or A* without a goal or a heuristic.

    Notes
    -----
    BFS and DFS take O(P + R) time for P places and R routes once each
    place's neighbours are sorted (done once, O(R log R), so that the steps
    are the same on every run); Dijkstra and A* take O((P + R) log P) with a
    binary heap (A* with re-opening can take a place more than once:
    exponentially often in contrived graphs, never with a consistent
    heuristic).  Recording the steps copies the search state at every step,
    which adds O(P) per step: fine on a board, wasteful on large graphs.

    Examples
    --------
    >>> from ttr_nb import load_map
    >>> usa = load_map("usa")
    >>> steps = search_steps(usa, "denver", "omaha", method="bfs")
    >>> [step.current for step in steps[:3]]
    [None, 'denver', 'helena']
    >>> steps[-1].note
    'take Omaha (1 route from the start) - goal reached'
    >>> last = search_steps(usa, "los-angeles", "new-york", method="dijkstra")[-1]
    >>> last.cost["new-york"], last.expanded
    (20, 34)
    """
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose from {', '.join(METHODS)}")
    places = {c.id for c in game_map.cities}
    starts, goals = sorted(_as_set(start)), _as_set(goal)
    if not starts:
        raise ValueError("the search needs a start")
    for place in (*starts, *sorted(goals)):
        if place not in places:
            raise ValueError(f"there is no place {place!r} on the {game_map.name} map")
    if method == "astar" and (heuristic is None or not goals):
        raise ValueError("A* needs a goal and a heuristic")
    dead = game_map.dead_ends if dead_ends is None else frozenset(dead_ends)
    keep = None if routes is None else set(routes)
    owned, unavailable = set(owned), set(unavailable)

    # Cheapest usable route between each pair of places (parallel routes collapse).
    best: dict[str, dict[str, tuple[float, int]]] = {}
    for r in game_map.routes:
        if (keep is not None and r.id not in keep) or (r.id in unavailable and r.id not in owned):
            continue
        cost = 0 if r.id in owned else r.length
        for u, v in ((r.a, r.b), (r.b, r.a)):
            old = best.setdefault(u, {}).get(v)
            if old is None or (cost, r.id) < old:
                best[u][v] = (cost, r.id)
    neighbours = {u: sorted(vs.items()) for u, vs in best.items()}

    def estimate(place: str) -> float:
        if heuristic is None:
            return 0.0
        return min(heuristic(place, g) for g in goals)

    cost: dict[str, float] = dict.fromkeys(starts, 0)
    parents: dict[str, tuple[int, str]] = {}
    done: list[str] = []
    finished: set[str] = set()
    names = " or ".join(game_map.place_name(p) for p in starts)
    steps = [SearchStep(0, None, (), tuple(starts), {}, dict(cost), f"start at {names}")]
    weighted = method in ("dijkstra", "astar")
    queue: deque[str] = deque(starts)  # breadth-first
    # depth-first: (place, route, from), the first start on top
    stack: list[tuple[str, int, str]] = [(p, -1, "") for p in reversed(starts)]
    heap = [(estimate(p), i, p) for i, p in enumerate(starts)]  # Dijkstra, A*
    pushes = len(heap)

    def frontier() -> tuple[str, ...]:
        if method == "bfs":
            return tuple(queue)
        if method == "dfs":
            order = [p for p, _, _ in reversed(stack)]
        else:
            order = [p for _, _, p in sorted(heap)]
        return tuple(dict.fromkeys(p for p in order if p not in finished))

    while True:
        if method == "bfs":
            if not queue:
                break
            u = queue.popleft()
        elif method == "dfs":
            while stack and stack[-1][0] in finished:
                stack.pop()
            if not stack:
                break
            u, rid, via = stack.pop()
            if via:  # fixed now: the newest way in is the depth-first one
                parents[u] = (rid, via)
                cost[u] = cost[via] + 1
        else:
            while heap and heap[0][2] in finished:
                heapq.heappop(heap)
            if not heap:
                break
            u = heapq.heappop(heap)[2]
        finished.add(u)
        done.append(u)
        found: list[str] = []
        pushed_again: set[str] = set()  # depth-first: waiting already, pushed once more
        reopened: list[str] = []
        # A goal ends the search (nothing more is expanded); a dead end is not passed through.
        if u not in goals and (u in starts or u not in dead):
            for v, (w, rid) in neighbours.get(u, []):
                if v in finished and not (method == "astar" and reopen and cost[u] + w < cost[v]):
                    continue
                if method == "bfs":
                    if v not in cost:
                        cost[v], parents[v] = cost[u] + 1, (rid, u)
                        queue.append(v)
                        found.append(v)
                elif method == "dfs":
                    if v in cost:
                        pushed_again.add(v)
                    cost[v], parents[v] = cost[u] + 1, (rid, u)  # for now
                    found.append(v)
                else:
                    new = cost[u] + w
                    if v not in cost or new < cost[v]:
                        if v in finished:  # A*, a cheaper way to a place taken already
                            finished.discard(v)
                            reopened.append(v)
                        cost[v], parents[v] = new, (rid, u)
                        heapq.heappush(heap, (new + estimate(v), pushes, v))
                        pushes += 1
                        found.append(v)
            if method == "dfs":
                # Push in reverse so that the alphabetically first neighbour is on top.
                stack.extend((v, parents[v][0], u) for v in reversed(found))
        name = game_map.place_name(u)
        if weighted:
            if method == "astar":
                guess = estimate(u)
                extra = f" + {_fmt(guess)} estimated = {_fmt(cost[u] + guess)}"
            else:
                extra = ""
            note = f"take {name} ({_plural(cost[u], 'space')}{extra})"
        else:
            note = f"take {name} ({_plural(cost[u], 'route')} from the start)"
        if u in goals:
            note += " - goal reached"
        elif u in dead and u not in starts:
            note += ": a dead end, not passed through"
        elif found and method == "bfs":
            note += "; new: " + ", ".join(game_map.place_name(v) for v in found)
        elif found and method == "dfs":
            # Not an improvement: the newest way in is the one depth-first search follows.
            note += "; pushed: " + ", ".join(
                f"{game_map.place_name(v)} (again, now {_plural(cost[v], 'route')} deep)"
                if v in pushed_again
                else game_map.place_name(v)
                for v in found
            )
        elif found:
            note += "; new or improved: " + ", ".join(game_map.place_name(v) for v in found)
        if reopened:
            note += " (taken before, now back in the frontier: "
            note += ", ".join(game_map.place_name(v) for v in reopened) + ")"
        steps.append(
            SearchStep(
                len(steps),
                u,
                tuple(done),
                frontier(),
                dict(parents),
                dict(cost),
                note,
                {p: estimate(p) for p in cost} if method == "astar" else {},
            )
        )
        if u in goals:
            break
    return steps


def trace_text(
    steps: Sequence[SearchStep], game_map: Map, *, limit: int | None = None, frontier: int = 6
) -> str:
    """One line per step: the place taken and the first places of the frontier.

    Parameters
    ----------
    steps : sequence of SearchStep
        From :func:`search_steps`.
    game_map : Map
        For place names.
    limit : int, optional
        Print at most this many steps (and say how many were left out).
    frontier : int, default 6
        How many frontier places to list per line.  Each comes with its cost
        so far (and, for A*, ``+`` the estimate still to go).
    """
    name = game_map.place_name
    lines = []
    shown = steps if limit is None else steps[: limit + 1]
    for step in shown:
        waiting = [
            f"{name(p)} {_fmt(step.cost[p])}"
            + (f"+{_fmt(step.estimate[p])}" if p in step.estimate else "")
            for p in step.frontier[:frontier]
        ]
        more = len(step.frontier) - frontier
        if more > 0:
            waiting.append(f"+{more} more")
        lines.append(f"{step.number:>3}. {step.note}")
        lines.append(f"     frontier: {', '.join(waiting) if waiting else '(empty)'}")
    if limit is not None and len(steps) > limit + 1:
        lines.append(f"... {len(steps) - limit - 1} more steps")
    return "\n".join(lines)


def step_colours(step: SearchStep, goals: Iterable[str] = ()) -> dict[str, str]:
    """Place colours for one step: done blue, frontier orange, current red, goals green."""
    colours = dict.fromkeys(step.done, DONE)
    colours.update(dict.fromkeys(step.frontier, WAITING))
    for g in goals:
        colours.setdefault(g, GOAL)
    if step.current is not None:
        colours[step.current] = CURRENT
    return colours


def plot_step(
    game_map: Map,
    step: SearchStep,
    ax: Any = None,
    *,
    goals: Iterable[str] = (),
    title: str | None = None,
    **options: Any,
) -> Any:
    """Draw one step with matplotlib: the search tree in magenta, numbered places.

    Blue places are done (numbered in the order taken), orange ones wait in
    the frontier, the red one was taken at this step, green ones are goals
    not reached yet.  `options` go to :func:`ttr_nb.teaching.plotting.plot_board`.
    """
    from .plotting import plot_board

    labels = {p: str(i + 1) for i, p in enumerate(step.done)}
    options.setdefault("names", False)
    return plot_board(
        game_map,
        ax,
        highlight=step.tree,
        place_colours=step_colours(step, goals),
        place_labels=labels,
        title=title or f"step {step.number}: {len(step.done)} taken, {len(step.frontier)} waiting",
        **options,
    )


def plot_steps(
    game_map: Map,
    steps: Sequence[SearchStep],
    numbers: Sequence[int],
    *,
    goals: Iterable[str] = (),
    ncols: int = 2,
    width: float = 11.0,
    **options: Any,
) -> Any:
    """Small multiples: several steps side by side; returns the figure."""
    import matplotlib.pyplot as plt

    numbers = [min(n, len(steps) - 1) for n in numbers]
    nrows = math.ceil(len(numbers) / ncols)
    fig, axes = plt.subplots(
        nrows, ncols, figsize=(width, width / ncols * 0.66 * nrows), squeeze=False
    )
    goals = list(goals)
    for ax, n in zip(axes.flat, numbers, strict=False):
        plot_step(game_map, steps[n], ax, goals=goals, **options)
    for ax in list(axes.flat)[len(numbers) :]:
        ax.set_visible(False)
    fig.tight_layout()
    return fig


def search_frame(step: SearchStep, goals: Iterable[str] = ()) -> Frame:
    """A board animation frame for one search step: dots, order numbers, the tree."""
    return Frame(
        note=step.note,
        highlighted=step.tree,
        place_colours=step_colours(step, goals),
        place_labels={p: str(i + 1) for i, p in enumerate(step.done)},
        big_places=frozenset(() if step.current is None else (step.current,)),
    )


class SearchAnimation(BoardAnimation):
    """Play a recorded search on a board widget: dots on the places, the tree highlighted.

    Parameters
    ----------
    view : BoardWidget
        The board to draw on.  A painter is added to ``view.piece_painters``;
        the pieces shown (claimed routes) stay as they are, and the search
        tree becomes the highlighted routes.
    steps : sequence of SearchStep
        From :func:`search_steps`.
    goals : iterable of str, optional
        Places to mark in green until they are reached.
    interval : int, default 700
        Milliseconds per step when playing.

    Notes
    -----
    Display the animation (``animation`` as the last line of a cell).  The
    play button, the slider and the *Back*/*Next* buttons all move through
    the steps; the text under them says what the current step did.  A
    notebook exported without a kernel shows a picture of the step shown.
    Under a headless run nothing is drawn, but :meth:`show` and :attr:`text`
    work the same.
    """

    def __init__(
        self,
        view: Any,
        steps: Sequence[SearchStep],
        *,
        goals: Iterable[str] = (),
        interval: int = 700,
    ) -> None:
        if not steps:
            raise ValueError("there are no steps to show")
        self.steps = list(steps)
        self.goals = tuple(goals)
        legend = (
            f'<span style="color:{CURRENT}">●</span> taken now &nbsp; '
            f'<span style="color:{DONE}">●</span> done (numbered in order) &nbsp; '
            f'<span style="color:{WAITING}">●</span> in the frontier &nbsp; '
            f'<span style="color:{GOAL}">●</span> goal &nbsp; halo: search tree'
        )
        frames = [search_frame(step, self.goals) for step in self.steps]
        super().__init__(view, frames, legend=legend, interval=interval)

    @property
    def step(self) -> SearchStep:
        """The step shown."""
        return self.steps[self.index]
