"""The station lessons' figures (Graphs 14, Europe 3), recomputed here by independent code.

The lessons print these figures, and nbval holds each lesson to its recording in
``notebooks/expected/``; these tests hold the recordings to a plain Dijkstra written
below, which knows nothing of ``station_path`` or ``unavailable_routes``. A recording
that locked in a wrong figure fails here.
"""

from __future__ import annotations

import heapq
import inspect
import json
import re
from collections import Counter
from pathlib import Path

import networkx as nx

from ttr_nb import new_game
from ttr_nb.bots import GreedyBot
from ttr_nb.game import Game
from ttr_nb.rules import europe_stations
from ttr_nb.teaching import europe as eu
from ttr_nb.teaching import germany, maerklin, scenarios, world_scenarios

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
G14 = "graphs_14_stations_and_tunnels"
E3 = "rules_europe_3_stations_end_and_quiz"


def printed(name: str, cell: str) -> str:
    """What a lesson's marked cell printed, as recorded for nbval."""
    shown = json.loads((NOTEBOOKS / "expected" / f"{name}.json").read_text(encoding="utf-8"))
    return "".join(o.get("text", "") for o in shown["cells"][cell])


def markdown(name: str) -> str:
    nb = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8"))
    text = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    return " ".join(text.split())


# ------------------------------------------------------ an independent search
def open_to(game: Game, seat: int) -> set[int]:
    """Routes ``seat`` could still claim, from the rulebook: nobody's yet, not the twin of
    a track the seat holds (nor of anyone's with 2 or 3 players), and no longer than the
    trains the seat has left."""
    state = game.state
    trains = state.players[seat].pieces["train"]
    out = set()
    for route in game.map.routes:
        if route.id in state.owner or route.length > trains:
            continue
        twins = [state.owner.get(t) for t in game.map.parallel(route)]
        if seat in twins or (len(state.players) <= 3 and any(t is not None for t in twins)):
            continue
        out.add(route.id)
    return out


def fewest_spaces(game: Game, seat: int, a: str, b: str, borrow: bool) -> int | None:
    """Spaces still to claim joining ``a`` and ``b``: the seat's own routes free, open routes
    at their length, and with ``borrow`` one other player's route free (at most one)."""
    state = game.state
    mine = {r for r, s in state.owner.items() if s == seat}
    theirs = {r for r, s in state.owner.items() if s != seat} if borrow else set()
    usable = open_to(game, seat)
    best = {(a, False): 0}
    heap = [(0, a, False)]
    while heap:
        cost, city, used = heapq.heappop(heap)
        if city == b:
            return cost
        if cost > best[(city, used)]:
            continue
        for route in game.map.routes:
            if city not in route.ends or route.a == route.b:
                continue
            other = route.b if city == route.a else route.a
            if route.id in mine:
                step, ahead = 0, (other, used)
            elif route.id in usable:
                step, ahead = route.length, (other, used)
            elif route.id in theirs and not used:
                step, ahead = 0, (other, True)
            else:
                continue
            if cost + step < best.get(ahead, 10**9):
                best[ahead] = cost + step
                heapq.heappush(heap, (cost + step, *ahead))
    return None


def late_europe_game() -> Game:
    """The position of lesson 14, section 2: four greedy bots, seed 12, just before the
    last round."""
    late = new_game("europe", 4, seed=12)
    bots = [GreedyBot(i) for i in range(4)]
    while True:
        before = late.clone()
        late.apply(bots[late.current_player].choose(late))
        if late.state.final_turns_left is not None:
            return before


# ------------------------------------------------------------------ lesson 14
def test_graphs_14_without_a_station_ada_has_no_way_to_wien():
    game = eu.borrowing()
    assert fewest_spaces(game, 0, "paris", "wien", borrow=False) is None
    assert fewest_spaces(game, 0, "paris", "wien", borrow=True) == 0
    shown = printed(G14, "cell-05")
    assert "0 spaces; borrowed: München–Wien" in shown
    assert "without a station: no way" in shown


def test_graphs_14_counts_the_tickets_a_station_saves_against_a_plain_dijkstra():
    late = late_europe_game()
    trains = late.state.players[0].pieces["train"]
    cheaper, saved, lines = 0, 0, {}
    for ticket in late.map.tickets:
        a, b = ticket.cities
        alone = fewest_spaces(late, 0, a, b, borrow=False)
        helped = fewest_spaces(late, 0, a, b, borrow=True)
        if helped is None or (alone is not None and helped >= alone):
            continue
        cheaper += 1
        if (alone is None or alone > trains) and helped <= trains:
            saved += 1
            names = " – ".join(late.map.place_name(c) for c in ticket.cities)
            before = "no way" if alone is None else f"{alone} spaces"
            lines[names] = f"{names} ({ticket.points}): {before} → {helped}"
    shown = printed(G14, "cell-10")
    assert f"cheaper with one borrowed route: {cheaper} of {len(late.map.tickets)}" in shown
    assert f"within the {trains} trains left only with a station: {saved}" in shown
    listed = re.findall(r"^  (.+?) \(\d+\): ", shown, re.M)
    assert len(listed) == 6
    for names in listed:
        assert lines[names] in shown, lines[names]
    # The figures issue 52 named, recomputed (the lesson printed 28, 15 and "5 → 4").
    assert (cheaper, saved) == (37, 19)
    assert lines["Frankfurt – Smolensk"] == "Frankfurt – Smolensk (13): 16 spaces → 4"


def _choice_bounds() -> tuple[list[int], int, int]:
    """From the map file itself: tracks per city, and the two products of three."""
    data = json.loads((ROOT / "maps" / "europe.json").read_text(encoding="utf-8"))
    tracks, links = Counter(), Counter()
    for pair in {frozenset((r["a"], r["b"])) for r in data["routes"]}:
        links.update(pair)
    for r in data["routes"]:
        tracks.update((r["a"], r["b"]))
    top = sorted(tracks.values(), reverse=True)[:3]
    top_links = sorted(links.values(), reverse=True)[:3]
    return top, top[0] * top[1] * top[2], top_links[0] * top_links[1] * top_links[2]


def test_the_bound_on_borrowing_choices_is_the_product_of_the_three_busiest_cities():
    top, four_or_five, two_or_three = _choice_bounds()
    assert (top, four_or_five, two_or_three) == ([10, 8, 7], 560, 252)
    text = " ".join(inspect.getdoc(europe_stations).split())
    assert "10 * 8 * 7 = 560" in text and "7 * 6 * 6 = 252" in text
    assert "343" not in text and "343" not in markdown(G14)
    shown = printed(G14, "cell-15b")
    assert "10 tracks: Paris\n8 tracks: Frankfurt\n7 tracks: Berlin, Pamplona" in shown
    assert f"at most {four_or_five} choices with 4 or 5 players" in shown
    assert f"at most {two_or_three} choices with 2 or 3 players" in shown


def test_graphs_14_states_the_unseen_cards_model_as_an_assumption():
    text = markdown(G14)
    assert "Every other card, in the deck or in someone's hand, is equally likely" not in text
    assert "**An assumption:** every card you cannot see" in text
    assert "a card an opponent took from the face-up row is in their hand" in text


# ---------------------------------------------------------- legal scenes (Europe 3)
def _scripted_positions() -> list[tuple[str, Game]]:
    out = []
    for module in (scenarios, eu, germany, maerklin, world_scenarios):
        for name, fn in inspect.getmembers(module, inspect.isfunction):
            if fn.__module__ != module.__name__ or name.startswith("_"):
                continue
            signature = inspect.signature(fn)
            if signature.return_annotation not in ("Game", Game):
                continue
            if any(p.default is p.empty for p in signature.parameters.values()):
                continue
            out.append((f"{module.__name__}.{name}", fn()))
    return out


def test_every_scripted_position_keeps_the_double_route_rule():
    """No player holds two tracks of one double route, and with 2 or 3 players no two
    players hold tracks of the same one (the rule Europe 2 teaches)."""
    positions = _scripted_positions()
    assert "ttr_nb.teaching.europe.borrowing" in dict(positions)
    for name, game in positions:
        holders: dict[int, list[int]] = {}  # a double route's group -> who holds its tracks
        for rid, seat in game.state.owner.items():
            holders.setdefault(game.map.route_by_id[rid].group, []).append(seat)
        for group, seats in holders.items():
            assert len(set(seats)) == len(seats), (name, group)
            if len(game.state.players) <= 3:
                assert len(seats) == 1, (name, group, seats)
        # The engine agrees: each claimed route, taken back, could be claimed again.
        for rid, seat in sorted(game.state.owner.items()):
            trial = game.clone()
            del trial.state.owner[rid]
            trial.state.players[seat].pieces["train"] = 99
            problem = trial.rules.route_problem(trial.state, seat, trial.map.route_by_id[rid])
            assert problem is None, (name, trial.map.route_label(trial.map.route_by_id[rid]))


def test_europe_3_borrowing_choices_score_as_an_independent_count_says():
    game = eu.borrowing()
    eu.draw_to_the_end(game)
    ada = game.state.players[0]
    tickets = [game.map.ticket_by_id[t] for t in ada.tickets]
    shown = printed(E3, "cell-13")
    assert "white" not in shown and "white" not in printed(E3, "cell-10")
    for action in game.legal_actions():
        joined = nx.MultiGraph()
        joined.add_edges_from(game.map.route_by_id[r].ends for r in ada.routes)
        joined.add_edges_from(game.map.route_by_id[r].ends for _, r in action.routes)
        done = [set(t.cities) <= set(joined) and nx.has_path(joined, *t.cities) for t in tickets]
        points = sum(t.points if ok else -t.points for t, ok in zip(tickets, done, strict=True))
        chosen = "; ".join(
            f"{game.map.place_name(c)}: {game.map.route_label(game.map.route_by_id[r])}"
            for c, r in action.routes
        )
        assert f"{points:+4d}  {chosen}" in shown


def test_europe_3_prints_the_tie_breakers_in_words_and_flags_the_reading():
    shown = printed(E3, "cell-19")
    assert "[-2, 0, 0]" not in shown
    assert "2. fewest stations built: Ada 2, Ben 0, Cleo 0" in shown
    question = next(q for q in eu.EUROPE_QUIZ.questions if "Who wins?" in q.prompt)
    assert "each of them borrowed a route" in question.prompt
    assert "house rule" in question.explanation
