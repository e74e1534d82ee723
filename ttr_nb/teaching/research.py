"""Exercise checks and folded solutions of the research lessons (12 and 13).

Lesson 12 ("The best possible game") asks for the score of a set of routes, and for
the cut the solver adds when a ticket's places are not joined; lesson 13 ("Balance by
simulation") asks for the cities no player reached in a game. Each check compares
the learner's function with an independent reference on real boards and on small
traps, as :mod:`.exercises` does, and the solutions are shown folded in the lessons
(:func:`markdown`) and pasted back into them (:func:`paste`).
"""

from __future__ import annotations

import inspect
from collections import Counter
from collections.abc import Callable, Iterable
from types import SimpleNamespace
from typing import Any

import networkx as nx

from ..analysis import playtest
from ..analysis.best_score import map_score
from ..maps import Map, load_map
from .checking import CheckResult, _call, _run, _Wrong, case_rng

__all__ = [
    "agreement",
    "check_ignored",
    "fig3_rows",
    "gap_reach",
    "length_table",
    "route_label",
    "route_table",
    "check_leaving_routes",
    "check_network_score",
    "dry_in_play",
    "ignored",
    "leaving_routes",
    "markdown",
    "network_score",
    "paste",
]


# --------------------------------------------------------------- solutions
# The lessons show these functions' source as a student would write them (no docstrings).
__solutions__ = ("network_score", "leaving_routes", "ignored")


def network_score(game_map, routes):
    points = sum(game_map.route_points(game_map.route_by_id[r].length) for r in routes)
    graph = nx.MultiGraph()
    graph.add_edges_from(game_map.route_by_id[r].ends for r in routes)
    for ticket in game_map.tickets:
        a, b = ticket.cities
        if a in graph and b in graph and nx.has_path(graph, a, b):
            points += ticket.points
    return points


def leaving_routes(game_map, chosen, city):
    graph = nx.MultiGraph()
    graph.add_node(city)
    graph.add_edges_from(game_map.route_by_id[r].ends for r in chosen)
    reached = nx.node_connected_component(graph, city)
    return {r.id for r in game_map.routes if (r.a in reached) != (r.b in reached)}


def ignored(game_map, routes_by_seat):
    reached = set()
    for routes in routes_by_seat:
        for r in routes:
            reached.update(game_map.route_by_id[r].ends)
    return {c.id for c in game_map.cities} - reached


SOLUTIONS = {f.__name__: f for f in (network_score, leaving_routes, ignored)}


def markdown(solution: Callable, title: str) -> str:
    """The folded ``<details>`` block a lesson shows for one solution."""
    code = inspect.getsource(solution).rstrip()
    return "\n".join(
        [
            f"<details><summary><b>Solution to {title[0].lower() + title[1:]}</b> "
            "(click to open)</summary>",
            "",
            "```python",
            code,
            "```",
            "",
            "</details>",
        ]
    )


def paste(namespace: dict, *names: str) -> SimpleNamespace:
    """Run the shown solutions in a copy of a lesson's namespace, as a learner pasting
    them would (a name the lesson lacks fails with the learner's ``NameError``)."""
    scope = dict(namespace)
    for name in names:
        code = inspect.getsource(SOLUTIONS[name]).rstrip()
        exec(compile(code, f"<solution {name}>", "exec"), scope)  # our own shown code
    return SimpleNamespace(**{name: scope[name] for name in names})


# ------------------------------------------------------------------ checks
def _route_sets(game_map: Map, count: int, seed: int) -> list[list[int]]:
    """Sets of routes: a few random ones, and paths along tickets (which complete them)."""
    rng = case_rng(seed)
    ids = [r.id for r in game_map.routes]
    sets = [[], rng.sample(ids, 12), rng.sample(ids, 25)]
    graph = nx.Graph()
    for r in game_map.routes:
        graph.add_edge(r.a, r.b, route=r.id, weight=r.length)
    for ticket in rng.sample(list(game_map.tickets), count):
        path = nx.shortest_path(graph, *ticket.cities[:2], weight="weight")
        routes = [graph[a][b]["route"] for a, b in zip(path, path[1:], strict=False)]
        sets.append(routes + rng.sample(ids, 4))
    return sets


def check_network_score(score: Callable[[Map, list[int]], int]) -> CheckResult:
    """Check ``score(game_map, routes)``: route points plus the points of every USA ticket
    the routes join (no penalty for the others: a player alone keeps only those)."""

    def check(fn: Callable) -> int:
        usa = load_map("usa")
        cases = 0
        # A trap: two tickets share a city; and a double route's two tracks.
        double = next(r for r in usa.routes if usa.parallel(r))
        sets = [[double.id, *usa.parallel(double)], *_route_sets(usa, 12, 7)]
        for routes in sets:
            route_points, ticket_points, _ = map_score(usa, routes)
            want = route_points + ticket_points
            got = _call(fn, usa, list(routes), case=f"For routes {routes}")
            if got != want:
                hint = ""
                if got == route_points:
                    hint = " Did you add the tickets the routes complete?"
                elif isinstance(got, int) and got < want:
                    hint = " A ticket counts once its places are joined, by any path."
                raise _Wrong(f"for routes {sorted(routes)}: expected {want}, got {got!r}.{hint}")
            cases += 1
        return cases

    return _run(check, score, "scores a network: route points plus completed tickets")


def _in_order(values: Iterable[Any]) -> list:
    """Sorted, numbers first: a learner's answer may mix types."""
    return sorted(values, key=lambda v: (0, v, "") if isinstance(v, int) else (1, 0, str(v)))


def _leaving_hint(game_map: Map, chosen: list[int], city: str, got: set, want: set) -> str:
    """Name the mistake behind a wrong cut: which routes are extra or missing, and why."""
    graph = nx.MultiGraph()
    graph.add_node(city)
    graph.add_edges_from(game_map.route_by_id[r].ends for r in chosen)
    part = nx.node_connected_component(graph, city)
    name = game_map.place_name
    label = lambda r: game_map.route_label(game_map.route_by_id[r])  # noqa: E731
    extra, missing = _in_order(got - want), sorted(want - got)
    far = [r for r in missing if city not in game_map.route_by_id[r].ends]
    if far:  # the usual mistake: the part taken too small
        r = far[0]
        end = next(p for p in game_map.route_by_id[r].ends if p in part)
        return (
            f" {label(r)} leaves the part at {name(end)}: the part is every place the chosen "
            f"routes join to {name(city)} (by any path), not {name(city)} alone."
        )
    unknown = [r for r in extra if r not in game_map.route_by_id]
    if unknown:
        return f" {unknown[0]!r} is not a route id of the board."
    inside = {r: sum(p in part for p in game_map.route_by_id[r].ends) for r in extra}
    outside = [r for r in extra if inside[r] == 0]
    if outside:
        return (
            f" {label(outside[0])} does not touch the part reached from {name(city)}: take the "
            "places the chosen routes join to the city, not every place they touch."
        )
    if extra:
        return (
            f" {label(extra[0])} has both ends in the part reached from {name(city)}: it does "
            "not leave it (exactly one end inside)."
        )
    r = missing[0]
    if not got:
        return (
            f" You returned no route, yet {label(r)} leaves {name(city)}: every route of the "
            "board with exactly one end in the part counts, claimed or not."
        )
    return (
        f" {label(r)} leaves {name(city)} itself: every route of the board with exactly one "
        "end in the part counts, claimed or not."
    )


def check_leaving_routes(leaving: Callable[[Map, list[int], str], set]) -> CheckResult:
    """Check ``leaving(game_map, chosen, city)``: the routes with one end among the places
    the chosen routes join to `city` and the other end outside (the cut the solver adds)."""

    def check(fn: Callable) -> int:
        usa = load_map("usa")
        cases = 0
        for routes in _route_sets(usa, 8, 11):
            for city in ("los-angeles", "denver", "new-york"):
                want = leaving_routes(usa, routes, city)
                got = _call(fn, usa, list(routes), city, case=f"From {city}")
                if not isinstance(got, set | frozenset | list | tuple):
                    raise _Wrong(
                        f"from {city} with routes {sorted(routes)}: expected a set of route "
                        f"ids, got {got!r}."
                    )
                if set(got) != want:
                    hint = _leaving_hint(usa, routes, city, set(got), want)
                    raise _Wrong(
                        f"from {city} with routes {sorted(routes)}: expected {sorted(want)}, "
                        f"got {_in_order(got)}.{hint}"
                    )
                cases += 1
        return cases

    return _run(check, leaving, "finds the routes leaving a city's part of the network")


def _ignored_hint(game_map: Map, seats: list[list[int]], got: set, want: set) -> str:
    """Name the mistake behind a wrong set of ignored cities."""
    ids = {c.id for c in game_map.cities}
    names = {c.name for c in game_map.cities}
    if got and not got & ids and got & names:
        return " Return the places' ids (such as 'new-york'), not their names."
    if got == ids - want:
        return " Those are the cities reached: the exercise asks for the others."
    for i in range(len(seats)):
        if seats[i] and got == ignored(game_map, seats[i : i + 1]):
            return " A city counts as reached when a route of any seat touches it, not one seat."
    extra = sorted(got - want)
    if extra:
        place = extra[0]
        by = next(
            (r for routes in seats for r in routes if place in game_map.route_by_id[r].ends), None
        )
        if place in ids and by is not None:
            route = game_map.route_label(game_map.route_by_id[by])
            return f" {game_map.place_name(place)} is an end of {route}: both ends count."
        return f" {place!r} is not a place of the map."
    place = sorted(want - got)[0]
    return f" No route of any seat touches {game_map.place_name(place)}: it is ignored too."


def check_ignored(fn_ignored: Callable[[Map, list[list[int]]], set]) -> CheckResult:
    """Check ``ignored(game_map, routes_by_seat)``: the cities no seat's route touches."""

    def check(fn: Callable) -> int:
        cases = 0
        for name in ("usa", "germany"):
            game_map = load_map(name)
            rng = case_rng(3)
            ids = [r.id for r in game_map.routes]
            for n in (0, 5, 30):
                seats = [rng.sample(ids, n), rng.sample(ids, n // 2)]
                want = ignored(game_map, seats)
                got = _call(fn, game_map, seats, case=f"On {name}")
                label = f"on {name} with {n} and {n // 2} routes"
                if not isinstance(got, set | frozenset | list | tuple):
                    raise _Wrong(f"{label}: expected a set of place ids, got {got!r}.")
                if set(got) != want:
                    hint = _ignored_hint(game_map, seats, set(got), want)
                    raise _Wrong(
                        f"{label}: expected {len(want)} cities, got {len(set(got))}.{hint}"
                    )
                cases += 1
        return cases

    return _run(check, fn_ignored, "finds the cities nobody reached")


# ------------------------------------------- the study's data (lesson 13)
def route_label(game_map: Map, group: int) -> str:
    """``Atlanta–Nashville (1)``: a route group by its places and our length."""
    r = game_map.route_by_id[game_map.groups[group][0]]
    return f"{game_map.place_name(r.a)}–{game_map.place_name(r.b)} ({r.length})"


def fig3_rows(paper: dict, game_map: Map) -> list[dict]:
    """For each route length: the board's share and the winners' share from the study's
    published counts, computed with the study's board lengths and with ours, beside the
    values its Fig. 3 plots (cut off after the digits written), and whether they agree."""
    counts = playtest.study_counts(paper, game_map)
    theirs = playtest.study_lengths(paper, game_map)
    ours = {g: game_map.route_by_id[ids[0]].length for g, ids in game_map.groups.items()}
    fig = paper["fig3"]
    rows = []
    for i, length in enumerate(range(1, 7)):
        row = {"length": length, "fig3_board": fig["board"][i], "fig3_winners": fig["winners"][i]}
        for name, lengths in (("study", theirs), ("ours", ours)):
            claims = sum(n for g, n in counts.items() if lengths[g] == length)
            board = sum(1 for g in counts if lengths[g] == length)
            row[f"{name}_board"] = board / len(counts)
            row[f"{name}_winners"] = claims / sum(counts.values())
            row[f"{name}_matches"] = (
                playtest.truncate(row[f"{name}_board"], row["fig3_board"]) == row["fig3_board"]
                and playtest.truncate(row[f"{name}_winners"], row["fig3_winners"])
                == row["fig3_winners"]
            )
        rows.append(row)
    return rows


def route_table(games: list, game_map: Map, paper: dict) -> dict:
    """Routes by how many games their winners claimed them: each route's place (1 = most)
    in our games and in the study's, and the counts."""
    theirs = playtest.study_counts(paper, game_map)
    ours = playtest.route_counts(games, game_map, "winners")
    return {
        "ours": dict(ours),
        "theirs": theirs,
        "our_rank": playtest.competition_ranks(ours),
        "their_rank": playtest.competition_ranks(theirs),
        "games": len(games),
        "their_games": paper["published_winner_routes"]["games"],
    }


def agreement(games: list, game_map: Map, paper: dict, resamples: int = 200) -> dict:
    """Spearman's rho (with its bootstrap interval) between the study's winners' route
    counts and ours, for our winners, our losers and all our players: the last two are
    the baselines that say whether *winning* play is what agrees."""
    theirs = playtest.study_counts(paper, game_map)
    n = paper["published_winner_routes"]["games"]
    return {
        seats: playtest.bootstrap_spearman(
            games, game_map, theirs, n, seats=seats, resamples=resamples, seed=13
        )
        for seats in playtest.SEATS
    }


def length_table(games: list, game_map: Map, paper: dict) -> list[dict]:
    """For each length: the board's share (ours), the study's winners' share (its lengths),
    and the shares among our winners' and our losers' routes."""
    counts = playtest.study_counts(paper, game_map)
    lengths = playtest.study_lengths(paper, game_map)
    total = sum(counts.values())
    winners, board = playtest.length_shares(games, game_map, "winners")
    losers, _ = playtest.length_shares(games, game_map, "losers")
    return [
        {
            "length": n,
            "board": board[n],
            "study_winners": sum(c for g, c in counts.items() if lengths[g] == n) / total,
            "our_winners": winners[n],
            "our_losers": losers[n],
        }
        for n in sorted(board)
    ]


def gap_reach(runs: dict) -> list[dict]:
    """How often stored play reached the rules gaps: per run, its games, the games that
    ended because nobody could move, and the games with a turn taken with no card left to
    draw, or with only locomotives left to deal. Runs stored without these fields (an
    older tool's) are left out."""
    runs = {name: games for name, games in runs.items() if games[0].ended_by is not None}
    return [
        {
            "run": name,
            "games": len(games),
            "no_moves": sum(g.ended_by == "no_moves" for g in games),
            "dry": sum(bool(g.dry) for g in games),
            "wild_only": sum(bool(g.wild_only) for g in games),
        }
        for name, games in runs.items()
    ]


def dry_in_play(header: dict, games: list) -> dict | None:
    """The first stored game in which a player had to move with no card left to draw
    (deck and discards empty), replayed to that turn: who moves, the cards in each hand,
    the face-up row, the moves offered, and how the game went on to end. None if no stored
    game got there."""
    from ..actions import DrawBlind, DrawFaceUp

    number = next((i for i, g in enumerate(games) if g.dry), None)
    if number is None:
        return None

    def dry(game) -> bool:
        return not game.state.deck and not game.state.discard

    game = playtest.replay_until(header["bots"], header["map"], number, header["seed"], dry)
    legal = game.legal_actions()
    return {
        "game": number,
        "turn": game.state.turn,
        "player": game.current_player,
        "hands": [p.hand_size for p in game.state.players],
        "face_up": list(game.state.face_up),
        "offered": Counter(type(a).__name__ for a in legal),
        "blind_draw_offered": any(isinstance(a, DrawBlind) for a in legal),
        "face_up_draws": sum(isinstance(a, DrawFaceUp) for a in legal),
        "ended_by": games[number].ended_by,
        "dry_turns": games[number].dry,
    }


# -------------------------------------------------- rules gaps (lesson 13)
def _hold_everything(game, player: int, keep_locomotives: bool = False) -> None:
    """Move every card of the deck and the discards into ``player``'s hand (a player
    hoarding cards), keeping the locomotives in the deck when asked."""
    state = game.state
    hand = state.players[player].hand
    wild = set(game.rules.wild_ids)
    for pile in (state.deck, state.discard):
        kept = [c for c in pile if keep_locomotives and c in wild]
        for card in pile:
            if not (keep_locomotives and card in wild):
                hand[card] += 1
        pile[:] = kept


def gap_dry_deck() -> dict:
    """The train deck and the discards run dry: one player hoards every card.

    Returns what the next player may do then, and after taking the whole face-up row:
    the engine's house rule leaves an emptied slot empty (no blind draw is offered) until
    a claim puts cards back on the discard pile.
    """
    from ..actions import DrawBlind, DrawFaceUp
    from .scenarios import started

    game = started(players=2)
    _hold_everything(game, 1)
    kinds = {type(a).__name__ for a in game.legal_actions()}
    blind_before = any(isinstance(a, DrawBlind) for a in game.legal_actions())
    taken = 0
    while True:
        draws = [a for a in game.legal_actions() if isinstance(a, DrawFaceUp)]
        if not draws:
            break
        game.apply(draws[0])
        taken += 1
        if game.state.pending is None and game.current_player != 0:
            # Ada's turn is over; Bea (the hoarder) draws nothing: she claims or passes.
            game.state.current = 0
    return {
        "game": game,
        "first_actions": sorted(kinds),
        "blind_draw_offered": blind_before,
        "face_up_taken": taken,
        "row_after": list(game.state.face_up),
    }


def gap_locomotive_row() -> dict:
    """Only locomotives are left to deal: the three-locomotive reset would never end.

    The engine resets the row at most ``max_face_up_resets`` times in a row, then leaves
    it as it is (locomotives included) and play goes on.
    """
    from .scenarios import started

    game = started(players=2)
    _hold_everything(game, 1, keep_locomotives=True)
    state = game.state
    rules = game.rules
    wild = set(rules.wild_ids)
    for card in state.face_up:
        if card in wild:
            state.discard.append(card)
        elif card is not None:
            state.players[1].hand[card] += 1
    state.face_up = [None] * len(state.face_up)
    before = len(state.deck) + len(state.discard)
    rules.refill_face_up(state, game.rng)
    return {
        "game": game,
        "row": list(state.face_up),
        "locomotives_left": before,
        "resets_allowed": rules.max_face_up_resets,
        "still_due": rules.face_up_reset_due(state),
        "actions": sorted({type(a).__name__ for a in game.legal_actions()}),
    }


def gap_stuck_trains() -> dict:
    """Trains left but nothing to spend them on: no card to draw, no ticket to take, no
    route a player can pay for. Each player may then only pass; when every player has
    passed in a row the engine ends the game and scores it (``ended_by == "no_moves"``)."""
    from .scenarios import started

    game = started(players=2)
    state = game.state
    for player in state.players:
        for card in player.hand:
            state.discard.extend([card] * player.hand[card])
            player.hand[card] = 0
    state.discard.extend(c for c in state.face_up if c is not None)
    state.face_up = [None] * len(state.face_up)
    # The cards go out of play (as if hoarded by a third party), and so do the tickets.
    state.discard.clear()
    state.deck.clear()
    for deck in state.ticket_decks.values():
        deck.clear()
    moves = []
    while not game.is_over and len(moves) < 10:
        legal = game.legal_actions()
        moves.append((game.current_player, [str(a) for a in legal]))
        game.apply(legal[0])
    return {
        "game": game,
        "moves": moves,
        "trains_left": [p.pieces.get("train", 0) for p in state.players],
        "ended_by": state.ended_by,
        "over": game.is_over,
    }
