"""The lessons as a course: order, goals, prerequisites, time and exercises, for teachers.

:data:`LESSONS` lists every lesson notebook in teaching order.  The index
notebook shows it as the teacher's page (:func:`teacher_table`), and the tests
check that the page, the notebooks and this list agree: every lesson exists,
its exercises are in it, its prerequisites come before it, and its time
estimate is what :func:`estimate_minutes` computes from the notebook.

Times are estimates from the notebook's own content, by a fixed rule (see
:func:`estimate_minutes`), rounded up to 5 minutes; a class that discusses
a lot will take longer, one that skips the "Try it" cells less.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "LESSONS",
    "READING_WORDS_PER_MINUTE",
    "Lesson",
    "check",
    "course_list",
    "estimate_minutes",
    "teacher_table",
]

READING_WORDS_PER_MINUTE = 120  # careful reading of explanations
CODE_WORDS_PER_MINUTE = 80  # reading code is slower
MINUTES_PER_CELL = 0.5  # run a cell and read what it prints
MINUTES_PER_TRY_IT = 3  # change a value, predict, run again
MINUTES_PER_EXERCISE = 10  # write and check one function
MINUTES_PER_QUIZ_QUESTION = 1


@dataclass(frozen=True)
class Lesson:
    """One notebook of the course.

    Attributes
    ----------
    notebook : str
        File name in ``notebooks/``.
    title : str
        Short title.
    goals : tuple of str
        What a student can do afterwards.
    prerequisites : tuple of str
        Notebooks to take first (file names).
    exercises : tuple of str
        Exercise headings as they appear in the notebook (``"Exercise 2a"``).
    assign : str
        What to assign: in class, for homework, or to skip for a short course.
    """

    notebook: str
    title: str
    goals: tuple[str, ...]
    prerequisites: tuple[str, ...]
    exercises: tuple[str, ...]
    assign: str


RULES = "rules_usa_1_setup_and_cards.ipynb"
G21 = "graphs_2_connectivity_1_bfs_and_dfs.ipynb"  # lessons 2, 3 and 12 come in two parts each
G31 = "graphs_3_planning_1_dijkstra.ipynb"
G121 = "graphs_12_best_game_1_integer_programs.ipynb"  # lesson 12 too
LESSONS: tuple[Lesson, ...] = (
    Lesson(
        RULES,
        "Rules 1: setting up and drawing cards",
        ("state the goal and the three ways to score", "set up a game and draw cards correctly"),
        (),
        (),
        "In class: the Try it cells. No exercises.",
    ),
    Lesson(
        "rules_usa_2_locomotives.ipynb",
        "Rules 2: locomotives",
        ("apply the three locomotive rules", "predict a face-up reset"),
        (RULES,),
        (),
        "In class: the Try it cells.",
    ),
    Lesson(
        "rules_usa_3_claims_and_tickets.ipynb",
        "Rules 3: claiming, double routes, tickets",
        (
            "pay for a route in every legal way",
            "apply the double-route rule by player count",
            "draw and keep tickets",
        ),
        ("rules_usa_2_locomotives.ipynb",),
        (),
        "In class: the Try it cells; then let pairs play one game in the app.",
    ),
    Lesson(
        "rules_usa_4_the_end.ipynb",
        "Rules 4: the last round and scoring",
        ("tell when the last round starts and who plays", "score tickets and the longest path"),
        ("rules_usa_3_claims_and_tickets.ipynb",),
        (),
        "In class: the Try it cells.",
    ),
    Lesson(
        "rules_usa_5_ties_and_quiz.ipynb",
        "Rules 5: ties, house rules, quiz",
        ("break ties", "explain the engine's house rules", "pass the rules quiz"),
        ("rules_usa_4_the_end.ipynb",),
        ("quiz",),
        "The quiz as a short test (8 questions).",
    ),
    Lesson(
        "graphs_1_board.ipynb",
        "1 · The board as a graph",
        (
            "model a board as a multigraph",
            "use degree, bridges and cut points",
            "explain why country spaces stay separate",
        ),
        (RULES,),
        ("Exercise 1",),
        "Exercise 1 in class.",
    ),
    Lesson(
        G21,
        "2.1 · Is my ticket complete? BFS and DFS",
        (
            "write BFS and DFS",
            "tell a breadth-first from a depth-first order",
            "decide a ticket by searching a player's network",
        ),
        ("graphs_1_board.ipynb",),
        ("Exercise 2a",),
        "2a in class.",
    ),
    Lesson(
        "graphs_2_connectivity_2_union_find.ipynb",
        "2.2 · Is my ticket complete? Dead ends and union–find",
        ("decide tickets with dead ends", "use union–find as routes are claimed"),
        (G21,),
        ("Exercise 2b", "Exercise 2c"),
        "2b in class; 2c for homework.",
    ),
    Lesson(
        G31,
        "3.1 · Planning a ticket: Dijkstra",
        ("write Dijkstra's algorithm", "plan a ticket with owned and taken routes"),
        (G21,),
        ("Exercise 3a",),
        "3a in class.",
    ),
    Lesson(
        "graphs_3_planning_2_astar.ipynb",
        "3.2 · Planning a ticket: A* and its estimates",
        (
            "build an estimate that never overestimates",
            "tell admissible from consistent estimates",
            "explain when A* must re-open places",
        ),
        (G31,),
        ("Exercise 3b",),
        "3b in class or for homework (then improve it with landmarks).",
    ),
    Lesson(
        "graphs_4_longest_trail.ipynb",
        "4 · The longest continuous path",
        (
            "tell walks, trails and paths apart",
            "sketch why the problem is NP-hard",
            "write an exact search with pruning",
        ),
        (G21,),
        ("Exercise: an exact search",),
        "The exercise for homework (it takes longer than most).",
    ),
    Lesson(
        "graphs_5_steiner.ipynb",
        "5 · Several tickets at once",
        ("explain Steiner trees and forests", "compare approximations with exact answers"),
        (G31,),
        ("Exercise: brute force over Steiner points",),
        "The exercise in class; lesson 7 first makes this lesson easier.",
    ),
    Lesson(
        "graphs_6_tours.ipynb",
        "6 · World tours",
        ("model 'in this order' as a trail", "see why one leg at a time can fail"),
        ("graphs_4_longest_trail.ipynb",),
        ("Exercise: decide a tour yourself",),
        "The exercise for homework.",
    ),
    Lesson(
        "graphs_7_spanning_trees.ipynb",
        "7 · Spanning trees: Kruskal and Prim",
        (
            "state the cut and cycle rules",
            "write Kruskal with union–find and Prim with a heap",
            "explain why an MST is not a ticket plan",
        ),
        ("graphs_2_connectivity_2_union_find.ipynb", G31),
        ("Exercise 7a", "Exercise 7b"),
        "7a in class, 7b for homework. Can come right before lesson 5.",
    ),
    Lesson(
        "graphs_8_euler_trails.ipynb",
        "8 · Euler trails and Hierholzer's algorithm",
        (
            "prove Euler's theorem",
            "write Hierholzer's algorithm",
            "relate odd places to the longest-path bonus",
        ),
        ("graphs_4_longest_trail.ipynb",),
        ("Exercise 8a", "Exercise 8b"),
        "8a as a warm-up, 8b in class.",
    ),
    Lesson(
        "graphs_9_blocking.ipynb",
        "9 · Blocking: max-flow and min-cut",
        ("state Menger's theorem", "find augmenting paths", "find a ticket's bottlenecks"),
        (G31,),
        ("Exercise 9a", "Exercise 9b"),
        "9b as a warm-up, 9a in class (the trap of section 2 first).",
    ),
    Lesson(
        "graphs_10_centrality.ipynb",
        "10 · Which cities matter: betweenness",
        ("count shortest paths", "compute ticket betweenness", "test a prediction against play"),
        (G31,),
        ("Exercise 10a", "Exercise 10b"),
        "10a in class, 10b for homework.",
    ),
    Lesson(
        "graphs_11_simulation_lab.ipynb",
        "11 · The simulation lab",
        (
            "run tournaments",
            "put a confidence interval on a win rate and a mean",
            "size an experiment",
            "explain how a search bot decides by simulation",
        ),
        (RULES, G31),
        ("Exercise 11a", "Exercise 11b"),
        "11a in class; a tournament question of the students' own for homework.",
    ),
    Lesson(
        G121,
        "12.1 · The best possible game: linear and integer programs",
        (
            "state a linear program and an integer program, and read a solver's bound and gap",
            "write the best game within a budget as a mixed-integer program, variable by variable",
            "write connectivity as cuts or as flows, and explain why the relaxation's bound "
            "depends on it",
            "check a solver's answer independently",
        ),
        ("graphs_5_steiner.ipynb", "graphs_9_blocking.ipynb"),
        ("Exercise 12a",),
        "12a in class: the model of a board of five places, checked against every game.",
    ),
    Lesson(
        "graphs_12_best_game_2_cuts_and_budgets.ipynb",
        "12.2 · The best possible game: cuts, every budget, a proof",
        (
            "add cuts when violated",
            "tell a proven optimum from a bound",
            "prove a forest no better than one network by a knapsack over smaller budgets",
            "read counts over tied optima with care",
        ),
        (G121,),
        ("Exercise 12b", "Exercise 12c"),
        "12b in class, 12c for homework.",
    ),
    Lesson(
        "graphs_13_balance_by_simulation.ipynb",
        "13 · Balance by simulation: a playtesting study",
        (
            "reproduce a published simulation study and compare by rank correlation",
            "find the routes and cities that matter on a board",
            "act out positions the rules do not cover",
        ),
        ("graphs_11_simulation_lab.ipynb",),
        ("Exercise 13a",),
        "13a in class; the other maps' figures as a discussion.",
    ),
    Lesson(
        "rules_europe_1_setup_and_tickets.ipynb",
        "Europe 1: the board, a long ticket each, the turn",
        (
            "read tunnels and ferries on the board",
            "keep at least 2 of a long and 3 regular tickets",
        ),
        ("rules_usa_5_ties_and_quiz.ipynb",),
        (),
        "For a class that will play Europe: the Try it cells.",
    ),
    Lesson(
        "rules_europe_2_ferries_and_tunnels.ipynb",
        "Europe 2: ferries and tunnels",
        (
            "pay for a ferry's locomotive symbols",
            "count the extra cards a tunnel asks for, pay them or give the tunnel up",
        ),
        ("rules_europe_1_setup_and_tickets.ipynb",),
        (),
        "In class: the Try it cells.",
    ),
    Lesson(
        "rules_europe_3_stations_end_and_quiz.ipynb",
        "Europe 3: stations, the end, quiz",
        (
            "build stations at their cost",
            "choose the routes stations borrow and score them",
            "break ties; pass the Europe quiz",
        ),
        ("rules_europe_2_ferries_and_tunnels.ipynb",),
        ("quiz",),
        "The quiz as a short test (8 questions).",
    ),
    Lesson(
        "graphs_14_stations_and_tunnels.ipynb",
        "14 · Stations and tunnels",
        (
            "find a cheapest path with at most one borrowed route (Dijkstra on two layers)",
            "choose several stations' routes together, and show where greedy fails",
            "compute a tunnel's expected extra cards and check it by simulation",
        ),
        (G31, "graphs_11_simulation_lab.ipynb", "rules_europe_3_stations_end_and_quiz.ipynb"),
        ("Exercise 14a",),
        "14a in class or for homework; the Try it cells in class.",
    ),
    Lesson(
        "rules_germany_1_setup_and_passengers.ipynb",
        "Germany 1: setting up and passengers",
        (
            "choose a short/long ticket mix and keep at least 2",
            "claim a route and choose which passenger to take",
        ),
        ("rules_usa_5_ties_and_quiz.ipynb",),
        (),
        "For a class that will play Germany: the Try it cells.",
    ),
    Lesson(
        "rules_germany_2_routes_tickets_scoring.ipynb",
        "Germany 2: triple routes, tickets, majorities",
        (
            "apply the double/triple route rule by player count",
            "draw tickets from two decks",
            "score passenger majorities with every kind of tie, and the Globetrotter",
        ),
        ("rules_germany_1_setup_and_passengers.ipynb",),
        (),
        "In class: the Try it cells.",
    ),
    Lesson(
        "rules_germany_3_countries_and_quiz.ipynb",
        "Germany 3: countries as dead ends, quiz",
        (
            "tell why two routes into one country do not connect",
            "find a shortest path to any of several targets",
            "pass the Germany quiz",
        ),
        ("rules_germany_2_routes_tickets_scoring.ipynb",),
        ("quiz",),
        "The quiz as a short test (8 questions); the graph idea as a discussion.",
    ),
    Lesson(
        "rules_maerklin_1_cards_and_passengers.ipynb",
        "Märklin 1: cards, the face-up row, placing passengers",
        (
            "apply the rules for Locomotives, Locomotives +4 and Passenger cards",
            "predict both face-up resets",
            "place a passenger with a claim",
        ),
        ("rules_germany_1_setup_and_passengers.ipynb",),
        (),
        "For a class that will play Märklin: the Try it cells.",
    ),
    Lesson(
        "rules_maerklin_2_journeys_and_scoring.ipynb",
        "Märklin 2: moving passengers, scoring",
        (
            "move a passenger and count its tokens",
            "use Passenger cards on opponents' routes",
            "score merchandise, most tickets and ties",
        ),
        ("rules_maerklin_1_cards_and_passengers.ipynb",),
        (),
        "In class: the Try it cells.",
    ),
    Lesson(
        "rules_maerklin_3_best_journey_and_quiz.ipynb",
        "Märklin 3: the best journey as an algorithm, quiz",
        (
            "state the best journey as a maximum-weight trail",
            "explain why the number of trails explodes and greedy walks fail",
            "pass the Märklin quiz",
        ),
        ("rules_maerklin_2_journeys_and_scoring.ipynb", "graphs_4_longest_trail.ipynb"),
        ("quiz",),
        "The quiz as a short test (8 questions); sections 11–13 as a discussion of search.",
    ),
    Lesson(
        "rules_world_1_decks_and_supply.ipynb",
        "World 1: the board, the supply, two decks",
        (
            "choose a legal 60-piece supply",
            "draw from two decks and choose which deck refills a slot",
        ),
        ("rules_usa_5_ties_and_quiz.ipynb",),
        (),
        "For a class that will play World: the Try it cells.",
    ),
    Lesson(
        "rules_world_2_routes_and_harbors.ipynb",
        "World 2: ships, pair routes, harbors, the end",
        (
            "pay for ship, Double-Ship and pair routes",
            "build and score harbors",
            "tell when the two-turn ending starts",
        ),
        ("rules_world_1_decks_and_supply.ipynb",),
        (),
        "In class: the Try it cells.",
    ),
    Lesson(
        "rules_world_3_tours_and_quiz.ipynb",
        "World 3: tours as trails, quiz",
        ("score a tour in order, out of order or missed", "pass the World quiz"),
        ("rules_world_2_routes_and_harbors.ipynb",),
        ("quiz",),
        "The quiz as a short test (8 questions).",
    ),
)


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _source(cell: dict) -> str:
    source = cell["source"]
    return source if isinstance(source, str) else "".join(source)


def estimate_minutes(path: str | Path) -> int:
    """Minutes a class needs for a lesson notebook, estimated from its content.

    The rule: markdown words at 120 a minute, code words at 80, half a minute
    to run each code cell and read its output, 3 minutes per "Try it" cell,
    10 per exercise (a cell that still says ``return NotImplemented``) and 1 per
    quiz question; rounded up to a multiple of 5.

    Examples
    --------
    >>> from pathlib import Path
    >>> notebooks = Path(__file__).resolve().parents[2] / "notebooks"
    >>> estimate_minutes(notebooks / "rules_usa_1_setup_and_cards.ipynb") <= 30
    True
    """
    minutes = 0.0
    for cell in _cells(Path(path)):
        text = _source(cell)
        if cell["cell_type"] == "markdown":
            minutes += len(text.split()) / READING_WORDS_PER_MINUTE
            minutes += MINUTES_PER_TRY_IT * text.count("**Try it.**")
        elif "quiz.check(" in text and "# NBVAL_CHECK_OUTPUT" not in text:
            minutes += MINUTES_PER_QUIZ_QUESTION
        else:
            minutes += len(text.split()) / CODE_WORDS_PER_MINUTE + MINUTES_PER_CELL
            minutes += MINUTES_PER_EXERCISE * ("return NotImplemented" in text)
    return 5 * math.ceil(minutes / 5)


def _title_of(notebook: str) -> str:
    return next(lesson.title for lesson in LESSONS if lesson.notebook == notebook)


def teacher_table(notebooks: str | Path) -> str:
    """The teacher's page table (markdown), with the time estimated from each notebook."""
    rows = [
        "| Lesson | Goals: afterwards a student can | Before it | Time | Exercises to assign |",
        "| --- | --- | --- | --- | --- |",
    ]
    for lesson in LESSONS:
        before = ", ".join(_title_of(p).split(":")[0] for p in lesson.prerequisites) or "—"
        minutes = estimate_minutes(Path(notebooks) / lesson.notebook)
        rows.append(
            f"| [{lesson.title}]({lesson.notebook}) | {'; '.join(lesson.goals)} | {before} "
            f"| {minutes} min | {lesson.assign} |"
        )
    return "\n".join(rows)


# An exercise's heading in a notebook ("### Exercise 12a: ...", "**Exercise 14a: ...**").
EXERCISE_HEADING = re.compile(r"^(?:#+ |\*\*)Exercise (\d+[a-z])\b", re.M)


def course_list() -> str:
    """Every lesson in teaching order as a numbered Markdown list: title, notebook and goals.

    The documentation's lesson page includes it (written at each docs build), so the page
    names every lesson of :data:`LESSONS` and no other.

    Examples
    --------
    >>> course_list().splitlines()[0]
    '1. **Rules 1: setting up and drawing cards** (`rules_usa_1_setup_and_cards`): state the \
goal and the three ways to score; set up a game and draw cards correctly.'
    """
    lines = []
    for lesson in LESSONS:
        stem = lesson.notebook.removesuffix(".ipynb")
        lines.append(f"1. **{lesson.title}** (`{stem}`): {'; '.join(lesson.goals)}.")
    return "\n".join(lines) + "\n"


# The pages that are not lessons: the app, the index, the teacher's page over shared tables.
NOT_LESSONS = ("app.ipynb", "index.ipynb", "teacher.ipynb")


def check(notebooks: str | Path, *, rules_limit: int = 30, graph_limit: int = 70) -> str:
    """Check the course against the notebooks; return a summary, raise ValueError if wrong.

    Every notebook but the pages of :data:`NOT_LESSONS` is a lesson, in :data:`LESSONS`; each listed
    exercise heading appears in its notebook, and each exercise heading of a notebook is
    listed; prerequisites come earlier in the
    course; every rules part fits in `rules_limit` minutes and every graph
    lesson (or part of one) in `graph_limit`, one class.
    """
    folder = Path(notebooks)
    names = [lesson.notebook for lesson in LESSONS]
    found = sorted(p.name for p in folder.glob("*.ipynb") if p.name not in NOT_LESSONS)
    if sorted(names) != found:
        raise ValueError(f"lessons and notebooks differ: {sorted(set(names) ^ set(found))}")
    problems = []
    for i, lesson in enumerate(LESSONS):
        text = "\n".join(_source(c) for c in _cells(folder / lesson.notebook))
        for heading in lesson.exercises:
            if heading.lower() not in text.lower():
                problems.append(f"{lesson.notebook}: no {heading!r}")
        for found in EXERCISE_HEADING.findall(text):
            if f"Exercise {found}" not in lesson.exercises:
                problems.append(f"{lesson.notebook}: Exercise {found} is not listed")
        for before in lesson.prerequisites:
            if before not in names[:i]:
                problems.append(f"{lesson.notebook}: prerequisite {before} does not come earlier")
        limit = rules_limit if lesson.notebook.startswith("rules_") else graph_limit
        if estimate_minutes(folder / lesson.notebook) > limit:
            problems.append(f"{lesson.notebook}: more than {limit} minutes")
    if problems:
        raise ValueError("; ".join(problems))
    parts = sum(name.startswith("rules_") for name in names)
    graphs = sum(name.startswith("graphs_") for name in names)
    return (
        f"{len(LESSONS)} lessons; every exercise named is in its notebook; prerequisites come "
        f"first; each of the {parts} rules parts takes at most {rules_limit} minutes, each of "
        f"the {graphs} graph lessons at most {graph_limit}"
    )
