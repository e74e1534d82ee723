"""What a tutorial is made of: rules with ids, steps of one game, goals, and the registry
of each map's tutorial.

A tutorial is one game, played by the engine (:mod:`.script`): each :class:`Step` carries
on the game the step before left (the learner's own choices stay) and plays the other
seats' turns up to the step's situation; a step that needs another position (a jump to
the last rounds, another game) says plainly what it is. A step says in a few sentences
what the rule is and what to do, names and marks where to look, and judges the learner's
moves with its :class:`Goal`. Every rule a tutorial teaches is a :class:`Rule` with an id;
the rules lessons' sections name the same ids (cell metadata ``ttr_rules``), and a test
checks that each of them is taught by some step of the map's tutorial.

A map's tutorial lives with its variant (``ttr_nb/widgets/variants/*_tutorial.py``) and
registers itself here with :func:`register_tutorial`: the app never branches on the map.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ...actions import ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets
from ...game import Game

LEARNER = 0
"""The learner's seat in every tutorial position."""


@dataclass(frozen=True)
class Rule:
    """A rule the tutorial teaches, and where a lesson teaches it in depth.

    ``id`` is what steps and the lessons' sections name (``face-up-locomotive``);
    ``lesson`` is the notebook's file name and ``section`` its heading there.
    """

    id: str
    name: str
    lesson: str
    section: str


@dataclass(frozen=True)
class Marks:
    """Where a step asks the learner to look.

    ``routes`` and ``places`` are ringed on the board; ``controls`` names controls of the
    page: ``face-up-N`` (a face-up card), ``deck-NAME`` (a deck's button) or the CSS class
    of a panel or button (``ttr-draw-tickets``, ``ttr-offer-box``, ``ttr-hand-box``, ...).
    """

    routes: tuple[int, ...] = ()
    places: tuple[str, ...] = ()
    controls: tuple[str, ...] = ()


def turn_over(game: Game) -> bool:
    """The learner's turn has ended (another seat is to move, or the game is over)."""
    return game.is_over or game.current_player != LEARNER


@dataclass(frozen=True)
class Goal:
    """What a step asks for.

    Parameters
    ----------
    asks : str
        The goal in a few words, for a legal move that does something else (*take two
        cards*).
    accepts : callable
        ``accepts(game, action)``: is this legal action on the way to the goal, in
        ``game`` before it is made?
    reached : callable
        ``reached(game)``: is the goal reached (by default when the learner's turn is over)?
    prefer : callable, optional
        ``prefer(game, action)``: a sort key among accepted moves for *Show me* (the
        smallest is played; by default the first legal one).
    then : str
        What to do next after a first move on the way (the second card, the tickets to keep).
    """

    asks: str
    accepts: Callable[[Game, Any], bool]
    reached: Callable[[Game], bool] = turn_over
    prefer: Callable[[Game, Any], Any] | None = None
    then: str = "Go on: finish your turn."

    def show_move(self, game: Game) -> Any | None:
        """The move *Show me* plays next in ``game`` (None: no legal move is on the way)."""
        moves = [a for a in game.legal_actions() if self.accepts(game, a)]
        if not moves:
            return None
        prefer = self.prefer
        return min(moves, key=lambda a: prefer(game, a)) if prefer else moves[0]


@dataclass(frozen=True)
class Step:
    """One step of a tutorial: a position, the rule in words, a task, marks and a goal.

    A step's position is the game of the steps before it, carried on: ``carry(game)``
    takes the game as the step named ``after`` (by default the step before) left it and
    plays on to this step's situation (the other seats' turns; see :mod:`.script`). A step
    without ``carry`` opens a new position, ``build()``, and ``staged`` says plainly what it
    is ("another game, ..."); a carried step that jumps ahead says so in ``staged`` too.

    ``bind(step, game)`` gives the step for the position opened: its target named in the
    words, its goal and marks (a route chosen on that board). ``goal`` None makes a step
    to read (an end screen, a recap): it is done as soon as it opens. ``done`` is said once
    the goal is reached (a function of the game, to quote its figures); ``marks`` may
    depend on the position.
    """

    key: str
    title: str
    rules: tuple[str, ...]
    text: str
    task: str
    build: Callable[[], Game] | None = None
    goal: Goal | None = None
    done: str | Callable[[Game], str] = ""
    marks: Marks | Callable[[Game], Marks] = field(default_factory=Marks)
    carry: Callable[[Game], Game] | None = None
    after: str | None = None
    staged: str | Callable[[Game], str] = ""
    bind: Callable[[Step, Game], Step] | None = None

    def marks_for(self, game: Game) -> Marks:
        """The marks of this step in ``game`` (the position as it is now)."""
        return self.marks(game) if callable(self.marks) else self.marks

    def done_text(self, game: Game) -> str:
        """What the step says once its goal is reached in ``game``."""
        return self.done(game) if callable(self.done) else self.done

    def staged_text(self, game: Game) -> str:
        """What is new about the position opened (empty: the game simply goes on)."""
        return self.staged(game) if callable(self.staged) else self.staged

    def opened(self, game: Game) -> Step:
        """This step for the position ``game`` it opens on (targets named)."""
        return self.bind(self, game) if self.bind is not None else self


@dataclass(frozen=True)
class Opening:
    """A step as it opens: the step bound to its position, the game, what the other
    seats (or the tutorial, for the learner) played since the step it continues, and what
    is new about the position."""

    index: int
    step: Step
    game: Game
    meanwhile: str = ""
    staged: str = ""
    resumed: str = ""  # the game of an earlier step, back after another position


@dataclass(frozen=True)
class Tutorial:
    """A map's guided tutorial: its rules (ids) and its steps, in the order a first game
    meets them. ``seats`` are the kinds shown for each seat (the learner is seat 0; the
    other seats never move by themselves in a tutorial)."""

    map_id: str
    title: str
    rules: tuple[Rule, ...]
    steps: tuple[Step, ...]
    seats: tuple[str, ...] = ("human", "beginner", "beginner")

    def __post_init__(self) -> None:
        ids = [r.id for r in self.rules]
        if len(set(ids)) != len(ids):
            raise ValueError(f"{self.map_id}: a rule id is defined twice")
        keys = [s.key for s in self.steps]
        if len(set(keys)) != len(keys):
            raise ValueError(f"{self.map_id}: two steps share a key")
        unknown = {r for s in self.steps for r in s.rules} - set(ids)
        if unknown:
            raise ValueError(f"{self.map_id}: steps name undefined rules {sorted(unknown)}")

    def rule(self, rule_id: str) -> Rule:
        """The rule with this id."""
        return next(r for r in self.rules if r.id == rule_id)

    def taught(self) -> set[str]:
        """The ids of the rules some step teaches."""
        return {r for step in self.steps for r in step.rules}

    def index_of(self, key: str) -> int:
        """The index of the step with this key."""
        return next(i for i, s in enumerate(self.steps) if s.key == key)

    def source(self, index: int) -> int | None:
        """The step whose end step ``index`` carries on from (None: a new position)."""
        step = self.steps[index]
        if step.carry is None or index == 0:
            return None
        return self.index_of(step.after) if step.after else index - 1

    def open(self, index: int, ends: Mapping[int, Game] | None = None) -> Opening:
        """Step ``index`` opened: carried on from the game the learner left at the step it
        follows (``ends``, by step index), or from the tutorial's own way through the steps
        before when the learner has no such game (a reload, a jump to a step)."""
        step = self.steps[index]
        source = self.source(index)
        meanwhile = ""
        if source is None:
            assert step.build is not None, f"{self.map_id}: step {step.key} opens on nothing"
            game = step.build()
        else:
            assert step.carry is not None
            before = (ends or {}).get(source) or self.default_end(source)
            game = before.clone()
            start = len(game.history)
            game = step.carry(game)
            meanwhile = between(game, start)
        resumed = (
            f"your own game, as you left it at step {source + 1}"
            if source is not None and source != index - 1
            else ""
        )
        return Opening(index, step.opened(game), game, meanwhile, step.staged_text(game), resumed)

    def finish(self, opening: Opening, game: Game | None = None) -> Game:
        """``game`` (by default the opening's position, copied) with the step's goal
        reached by its *Show me* moves: the tutorial's own way through the step."""
        game = (game or opening.game).clone()
        goal = opening.step.goal
        for _ in range(20):
            if goal is None or goal.reached(game):
                break
            action = goal.show_move(game)
            if action is None:
                break
            game.apply(action)
        return game

    def default_end(self, index: int) -> Game:
        """The game as the tutorial's own learner (who always plays *Show me*) leaves step
        ``index`` (made once; a copy)."""
        key = (self.map_id, index)
        if key not in _DEFAULT_ENDS:
            _DEFAULT_ENDS[key] = self.finish(self.open(index))
        return _DEFAULT_ENDS[key].clone()


_DEFAULT_ENDS: dict[tuple[str, int], Game] = {}


def _twice(lines: list[str]) -> list[str]:
    """A line said twice in a row once, with *twice* (two cards from the deck)."""
    out: list[str] = []
    for line in lines:
        if out and out[-1] == line:
            out[-1] = f"{line}, twice"
        else:
            out.append(line)
    return out


def between(game: Game, start: int) -> str:
    """What was played in ``game`` since move ``start``, in words: each turn's log lines
    (the learner's marked as played for them); many moves are summed up instead."""
    moves = game.history[start:]
    if not moves:
        return ""
    lines = game.log[start:]
    names = game.names
    if len(moves) > 12:
        claims: dict[int, int] = {}
        for move in moves:
            if isinstance(move.action, ClaimRoute):
                claims[move.player] = claims.get(move.player, 0) + 1
        seats = sorted({m.player for m in moves})
        parts = [f"{'you' if s == LEARNER else names[s]} {claims.get(s, 0)}" for s in seats]
        played_for = " Your own turns were played for you." if LEARNER in seats else ""
        return (
            f"{len(moves)} moves were played (the log lists them); routes claimed: "
            f"{', '.join(parts)}.{played_for}"
        )
    turns: list[tuple[int, list[str]]] = []
    for move, line in zip(moves, lines, strict=True):
        if turns and turns[-1][0] == move.player:
            turns[-1][1].append(line)
        else:
            turns.append((move.player, [line]))
    words = []
    for seat, said in turns:
        text = "; ".join(_twice(said))
        words.append(f"Played for you: {text}." if seat == LEARNER else f"{text}.")
    return " ".join(words)


# ------------------------------------------------------------------ the registry
TUTORIALS: dict[str, Callable[[], Tutorial]] = {}
LESSON_TITLES: dict[str, str] = {}
"""Each rules lesson's title (its notebook's first heading; a test compares them), by file
name: links to a lesson say its title, never its file name."""


def register_lessons(titles: dict[str, str]) -> None:
    """Name the lessons a variant's rules link to (file name -> title)."""
    LESSON_TITLES.update(titles)


def lesson_title(name: str) -> str:
    """The title of the lesson ``name`` (its file name, without the suffix, if unknown)."""
    return LESSON_TITLES.get(name) or name.removesuffix(".ipynb").replace("_", " ")


def register_tutorial(map_id: str) -> Callable[[Callable[[], Tutorial]], Callable[[], Tutorial]]:
    """Decorator: ``@register_tutorial("usa")`` on the function that makes a map's tutorial."""

    def add(factory: Callable[[], Tutorial]) -> Callable[[], Tutorial]:
        TUTORIALS[map_id] = factory
        return factory

    return add


@cache
def tutorial_for(map_id: str) -> Tutorial:
    """The tutorial of a map (made once).

    Raises
    ------
    KeyError
        For a map without a tutorial.
    """
    return TUTORIALS[map_id]()


def tutorial_maps() -> list[str]:
    """The ids of the maps that have a tutorial."""
    return list(TUTORIALS)


# ------------------------------------------------------------------ common goals
def is_card_draw(action: Any) -> bool:
    """Is ``action`` a card drawn, face up or from a deck?"""
    return isinstance(action, DrawFaceUp | DrawBlind)


def any_move(asks: str = "make one move of your choice") -> Goal:
    """Any legal move, until the learner's turn is over."""
    return Goal(asks, lambda _g, _a: True, prefer=_cards_first)


def draw_cards(asks: str = "take two cards") -> Goal:
    """Card draws, face up or from a deck, until the turn is over."""
    return Goal(
        asks,
        lambda _g, a: is_card_draw(a),
        prefer=_cards_first,
        then="Now take your second card.",
    )


def claim(
    routes: Iterable[int],
    asks: str,
    pays: Callable[[Game, Any], bool] = lambda _g, _cards: True,
) -> Goal:
    """Claiming one of ``routes`` with a payment that ``pays(game, cards)`` accepts."""
    wanted = frozenset(routes)
    return Goal(
        asks,
        lambda g, a: isinstance(a, ClaimRoute) and a.route in wanted and pays(g, a.cards),
        prefer=lambda g, a: sum(n for card, n in a.cards if g.map.card_by_id[card].wild),
    )


def draw_tickets(asks: str = "draw tickets and keep at least one") -> Goal:
    """Drawing tickets, then keeping some (any legal choice)."""
    return Goal(
        asks,
        lambda _g, a: isinstance(a, DrawTickets | KeepTickets),
        prefer=lambda _g, a: -len(getattr(a, "tickets", ())),
        then="Now tick the tickets to keep and press the keep button.",
    )


def keep_tickets(asks: str = "keep some of the tickets offered") -> Goal:
    """Keeping tickets from an offer (any legal choice)."""
    return Goal(
        asks,
        lambda _g, a: isinstance(a, KeepTickets),
        prefer=lambda _g, a: -len(a.tickets),
    )


def _cards_first(_game: Game, action: Any) -> tuple[int, int]:
    """*Show me* draws the first face-up card, else from the deck."""
    if isinstance(action, DrawFaceUp):
        return (0, action.slot)
    if isinstance(action, DrawBlind):
        return (1, 0)
    return (2, 0)
