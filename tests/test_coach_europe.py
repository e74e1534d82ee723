"""The coach on Europe: the tunnels' expected extra cards counted in the plan, and the
stations that would save a ticket, each figure checked against an independent computation."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import networkx as nx
from positions import give_routes, route_between, set_face_up, set_hand, start

from ttr_nb import Game
from ttr_nb.coach import coach
from ttr_nb.coach.view import seat_view
from ttr_nb.rules.europe_stations import station_path
from ttr_nb.teaching.scenarios import set_tickets


def europe(seed: int = 6) -> Game:
    game = start(2, seed, "europe")
    for seat in range(2):
        set_hand(game, seat)
    return game


def rid(game: Game, a: str, b: str, colour: str | None = None) -> int:
    return route_between(game, a, b, colour).id


def ticket(game: Game, a: str, b: str) -> int:
    return next(t.id for t in game.map.tickets if set(t.cities) == {a, b})


def hint(advice, kind):
    return next(h for h in advice.hints if h.kind == kind)


def mean_matches_by_enumeration(unseen: Counter, matching: set[str], drawn: int = 3) -> float:
    """The mean number of matching cards over every set of ``drawn`` unseen cards."""
    cards = list(unseen.elements())
    total = count = 0
    for combo in combinations(range(len(cards)), drawn):
        total += sum(cards[i] in matching for i in combo)
        count += 1
    return total / count


def test_the_plans_tunnels_carry_their_expected_extra_cards():
    game = europe()
    set_tickets(game, 0, [ticket(game, "zuerich", "budapest")])
    give_routes(game, 0, [rid(game, "muenchen", "wien"), rid(game, "wien", "budapest", "red")])
    set_hand(game, 0, yellow=1, red=2)
    set_face_up(game, ["yellow", "locomotive", "blue", "green", "white"])
    advice = coach(game, 0)
    assert advice.plan.routes == (rid(game, "muenchen", "zuerich"),)  # a 2-space yellow tunnel
    tunnels = hint(advice, "tunnels")
    assert tunnels.routes == advice.plan.routes
    # The seat sees its hand and the face-up row: the other cards are unseen.
    unseen = Counter({c.id: c.count for c in game.map.card_types})
    unseen.subtract({"yellow": 1, "red": 2})
    unseen.subtract(["yellow", "locomotive", "blue", "green", "white"])
    want = mean_matches_by_enumeration(+unseen, {"yellow", "locomotive"})
    assert abs(tunnels.data["expected_extra_cards"] - want) < 0.005
    assert "about 0.7 extra cards" in tunnels.lines[1]
    missing = advice.plan.cards_missing
    assert f"about {missing + round(want)} more card" in tunnels.lines[0]


def test_a_ticket_out_of_reach_names_the_station_that_saves_it():
    game = europe()
    set_tickets(game, 0, [ticket(game, "paris", "wien")])
    give_routes(game, 0, [rid(game, "paris", "zuerich")])
    # Every way into Wien belongs to the other player: out of the first player's reach.
    into_wien = [r.id for r in game.map.routes if "wien" in r.ends]
    give_routes(game, 1, into_wien)
    advice = coach(game, 0)
    assert [t.id for t in advice.plan.unreachable] == [ticket(game, "paris", "wien")]
    stations = hint(advice, "stations")
    line = stations.lines[0]
    assert line.startswith("Paris → Wien is out of your own reach, but a station in")
    # Independently: for each of the other player's routes into Wien, the spaces still to
    # claim with it free (networkx), the cheapest of them.
    graph = nx.MultiGraph()
    for route in game.map.routes:
        owner = game.state.owner.get(route.id)
        if owner == 1 and route.id not in into_wien:
            continue
        cost = 0 if owner is not None else route.length
        graph.add_edge(route.a, route.b, key=route.id, weight=cost, rid=route.id)
    best = None
    for borrowed in into_wien:
        h = nx.MultiGraph()
        for u, v, data in graph.edges(data=True):
            theirs = data["rid"] in into_wien
            if theirs and data["rid"] != borrowed:
                continue
            h.add_edge(u, v, weight=data["weight"])
        spaces = nx.shortest_path_length(h, "paris", "wien", weight="weight")
        best = spaces if best is None else min(best, spaces)
    assert f"completes it after {best} more space" in line
    board = [(r.id, r.a, r.b, r.length) for r in game.map.routes]
    path = station_path(board, "paris", "wien", game.state.players[0].routes, into_wien)
    assert path.spaces == best and path.borrowed in into_wien
    assert "A station now costs 1 card" in stations.lines[1]


def test_the_europe_hints_use_only_what_the_seat_sees():
    game = europe(seed=8)
    set_tickets(game, 0, [ticket(game, "zuerich", "budapest")])
    set_hand(game, 0, yellow=1)
    before = [h.to_dict() for h in coach(game, 0).hints if h.kind in ("tunnels", "stations")]
    set_hand(game, 1, yellow=5, locomotive=4)  # the other hand changes; the deck too
    game.state.deck.reverse()
    after = [h.to_dict() for h in coach(game, 0).hints if h.kind in ("tunnels", "stations")]
    assert before == after
    assert seat_view(game, 0).state.players[1].hand_size == 0
