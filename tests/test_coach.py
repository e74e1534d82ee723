"""The coach: every kind of hint on hand-built positions whose right answer is known."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from positions import give_routes, set_hand, start, start_world

from ttr_nb import ClaimRoute, DrawBlind, new_game
from ttr_nb.algorithms import plan_ticket, ticket_completed
from ttr_nb.bots import GreedyBot, RandomBot
from ttr_nb.bots.search import SearchBot
from ttr_nb.coach import (
    ALGORITHMS,
    WhyRecord,
    coach,
    record_move,
    review,
    seat_view,
    why_from_replay,
)
from ttr_nb.coach.view import unavailable_to
from ttr_nb.rules.germany import HELD_KEY
from ttr_nb.teaching.scenarios import set_tickets

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"

# USA ids: ticket 7 Denver–El Paso (4); routes 99 Denver–Santa Fe (2), 48 Santa Fe–El Paso
# (2), 81 Phoenix–Santa Fe (3), 47 El Paso–Phoenix (3), 35 Denver–Phoenix (5); Miami's
# three routes: 2 Atlanta, 15 Charleston, 69 New Orleans; ticket 14 Los Angeles–Miami (20).
DENVER_EL_PASO, LA_MIAMI, BOSTON_MIAMI = 7, 14, 1


def usa(players: int = 2, tickets: tuple[int, ...] = (DENVER_EL_PASO,)):
    game = start(players=players, seed=1)
    set_tickets(game, 0, tickets)
    return game


def hint(advice, kind):
    found = [h for h in advice.hints if h.kind == kind]
    assert found, f"no {kind} hint in {[h.kind for h in advice.hints]}"
    return found[0]


def test_every_lesson_named_exists() -> None:
    for algorithm in ALGORITHMS.values():
        assert (NOTEBOOKS / algorithm.lesson).exists(), algorithm.lesson


def test_plan_is_the_cheapest_route_set_with_cards_and_turns() -> None:
    game = usa()
    set_hand(game, 0, red=1, locomotive=1)
    advice = coach(game, 0)
    plan = advice.plan
    assert set(plan.routes) == {48, 99} and plan.spaces == 4 and plan.exact
    assert [t.id for t in plan.reachable] == [DENVER_EL_PASO]
    # Two gray routes of 2: one takes the red card, the locomotive fills in: 2 cards to draw.
    assert plan.cards_missing == 2 and plan.turns == 2 + 1
    lines = hint(advice, "plan").lines
    assert "Claim 2 routes, 4 spaces (the cheapest plan)" in lines[0]
    assert hint(advice, "plan").algorithm.lesson == "graphs_5_steiner.ipynb"


def test_plan_avoids_claimed_routes_and_counts_owned_ones_free() -> None:
    game = usa()
    give_routes(game, 1, [48])  # the opponent took Santa Fe–El Paso
    plan = coach(game, 0).plan
    assert plan.spaces == 8 and 48 not in plan.routes
    game = usa()
    give_routes(game, 0, [99])
    assert coach(game, 0).plan.routes == (48,)


def test_tickets_share_routes_in_the_plan() -> None:
    # Los Angeles–Miami and Boston–Miami share the routes into Miami: the plan is
    # cheaper than the two tickets planned apart.
    game = usa(tickets=(LA_MIAMI, BOSTON_MIAMI))
    plan = coach(game, 0).plan
    board = [(r.id, r.a, r.b, r.length) for r in game.map.routes]
    apart = sum(
        plan_ticket(board, *game.map.ticket_by_id[t].cities).spaces
        for t in (LA_MIAMI, BOSTON_MIAMI)
    )
    assert plan.exact and plan.spaces < apart
    ends = [game.map.route_by_id[r].ends for r in plan.routes]
    for t in (LA_MIAMI, BOSTON_MIAMI):
        assert ticket_completed(ends, *game.map.ticket_by_id[t].cities)


def test_unreachable_tickets_are_named_and_left_out() -> None:
    game = usa(tickets=(DENVER_EL_PASO, LA_MIAMI))
    give_routes(game, 1, [2, 15, 69])  # every route into Miami
    advice = coach(game, 0)
    assert [t.id for t in advice.plan.unreachable] == [LA_MIAMI]
    assert set(advice.plan.routes) == {48, 99}
    assert any("Out of reach: Los Angeles → Miami" in line for line in hint(advice, "plan").lines)


def test_double_route_closed_with_two_players_open_with_four() -> None:
    two = usa(players=2)
    give_routes(two, 1, [31])  # one track of Denver–Kansas City
    assert 32 in unavailable_to(two, 0)
    four = usa(players=4)
    give_routes(four, 1, [31])
    assert 32 not in unavailable_to(four, 0)
    give_routes(four, 0, [32])
    assert 31 in unavailable_to(four, 0) and 32 not in unavailable_to(four, 0)


def test_a_cheaper_plan_drops_the_dearest_ticket_and_a_plan_that_fits_the_pieces() -> None:
    game = usa(tickets=(DENVER_EL_PASO, LA_MIAMI))
    plan = coach(game, 0).plan
    board = [(r.id, r.a, r.b, r.length) for r in game.map.routes]
    alone = plan_ticket(board, "los-angeles", "miami").spaces
    drops = {d.ticket.id: d.saves for d in plan.drops}
    assert drops[LA_MIAMI] == plan.spaces - 4  # without it, only Denver–El Paso's 4 spaces
    assert plan.fitting is None
    game.state.players[0].pieces["train"] = alone  # enough for one ticket only
    plan = coach(game, 0).plan
    assert plan.fitting == (LA_MIAMI,)  # 20 points kept beats 4


def test_weak_spots_give_the_detour_each_loss_forces() -> None:
    game = usa()
    advice = coach(game, 0)
    losses = {loss.route: loss.extra for loss in advice.losses}
    # The plan, Denver–Santa Fe–El Paso, is 4 spaces. Without Santa Fe–El Paso: Denver–
    # Santa Fe–Phoenix–El Paso, 8 (+4); without Denver–Santa Fe: Denver–Phoenix–El Paso, 8
    # (+4; keeping Santa Fe–El Paso, Denver–Oklahoma City–Santa Fe would be +5).
    assert losses == {99: 4, 48: 4}
    assert all(loss.exact for loss in advice.losses)
    lines = hint(advice, "weak-spots").lines
    assert lines[2] == (
        "  Denver–Santa Fe (2 gray): +4 spaces (the cheapest plan without it claims "
        "Denver–Phoenix (5 white), El Paso–Phoenix (3 gray) instead)"
    )


def test_a_detour_one_space_longer_reads_as_one_space() -> None:
    game = usa(tickets=(6,))  # Dallas–New York (11)
    lines = hint(coach(game, 0), "weak-spots").lines
    # Without New York–Pittsburgh (2): ...Nashville–Atlanta–Raleigh–Washington–New York,
    # one space more; without Little Rock–Nashville: ...Little Rock–Saint Louis–Pittsburgh,
    # as short.
    assert "  New York–Pittsburgh (2 white): +1 space (the cheapest plan " in "\n".join(lines)
    assert "+1 spaces" not in "\n".join(lines)
    assert "  Little Rock–Nashville (3 white): no loss (an equally short plan claims " in (
        "\n".join(lines)
    )


def test_a_route_whose_loss_makes_a_ticket_impossible_and_its_cut() -> None:
    game = usa(tickets=(LA_MIAMI,))
    give_routes(game, 1, [2, 15])  # Miami keeps one way in: New Orleans
    advice = coach(game, 0)
    worst = advice.losses[0]
    assert worst.route == 69 and worst.extra is None
    assert [t.id for t in worst.impossible] == [LA_MIAMI]
    cut = advice.cuts[0]
    assert cut.ticket.id == LA_MIAMI and cut.claims == 1
    assert "blocked by 1 claim" in hint(advice, "cuts").lines[0]
    assert hint(advice, "cuts").algorithm.lesson == "graphs_9_blocking.ipynb"


def test_a_cut_through_double_routes_says_whether_one_claim_closes_both_tracks() -> None:
    # Boston's two ways out are both double routes. With 2 players one claim closes a
    # double route, so 2 claims cut Boston off; with 4 each track needs its own claim, and
    # Miami's 3 single routes are the cheaper cut.
    two = coach(usa(players=2, tickets=(BOSTON_MIAMI,)), 0)
    assert two.cuts[0].claims == 2
    assert hint(two, "cuts").lines[0] == (
        "Boston → Miami can be blocked by 2 claims (Boston–Montréal (2 gray) or its other "
        "track, Boston–New York (2 yellow) or its other track)."
    )
    four = coach(usa(players=4, tickets=(BOSTON_MIAMI,)), 0)
    assert four.cuts[0].claims == 3
    assert "other track" not in hint(four, "cuts").lines[0]


def test_opponents_claims_suggest_where_they_head() -> None:
    game = usa()
    # The opponent builds from Los Angeles eastward along Los Angeles–El Paso–Dallas.
    give_routes(game, 1, [45, 24])
    advice = coach(game, 0)
    (heading,) = advice.heading
    assert heading.seat == 1 and heading.tickets
    covered = dict(heading.tickets)
    assert all(0.25 <= share < 1 for share in covered.values())
    names = hint(advice, "heading").lines[0]
    assert "may be heading for" in names


def test_the_coach_uses_only_what_the_seat_may_know() -> None:
    game = usa(players=3)
    give_routes(game, 1, [45])
    before = coach(game, 0).to_dict()
    # Change everything seat 1 cannot see: the others' tickets and cards, the deck order.
    set_tickets(game, 1, [3, 4, 5])
    set_hand(game, 2, blue=5, red=3)
    game.state.deck.reverse()
    assert coach(game, 0).to_dict() == before
    view = seat_view(game, 0)
    assert view.state.players[1].tickets == [] and sum(view.state.players[2].hand.values()) == 0


def test_why_a_greedy_move_names_the_ticket_only_to_its_own_seat() -> None:
    game = usa()
    set_hand(game, 0, red=2)
    bot = GreedyBot(0)
    action = bot.choose(game)
    assert isinstance(action, ClaimRoute) and action.route in (48, 99)
    record = record_move(bot, game, action)
    assert record.reason is not None and WhyRecord.from_data(record.to_data()) == record
    game.apply(action)
    own = record.hint(game, 0)
    assert any("its ticket Denver → El Paso" in line for line in own.lines)
    other = record.hint(game, 1)
    assert not any("Denver" in line and "El Paso" in line for line in other.lines[1:])
    assert any("one of its tickets" in line for line in other.lines)
    assert other.algorithm.lesson == "graphs_3_planning_1_dijkstra.ipynb"


def test_why_a_search_move_reports_its_look_ahead() -> None:
    game = new_game("usa", 2, seed=3)
    bot = SearchBot(seed=1, worlds=8, min_evidence=1)
    while game.phase == "setup":
        game.apply(game.legal_actions()[-1])
    action = bot.choose(game)
    record = record_move(bot, game, action)
    assert record.bot == "search" and record.candidates
    assert sum(c.chosen for c in record.candidates) == 1
    assert all(0 <= c.won <= c.tried for c in record.candidates)
    assert record.playouts == sum(child.visits for child in bot.last.root.children.values())
    text = record.hint(game, 1)
    assert any("won" in line and "← played" in line for line in text.lines)
    assert text.algorithm.lesson == "graphs_11_simulation_lab.ipynb"
    # A shared table stores the record as JSON with the move: read back, it says the same.
    stored = json.loads(json.dumps(record.to_data()))
    assert WhyRecord.from_data(stored) == record
    assert WhyRecord.from_data({"move": "three"}) is None  # a damaged row is ignored


def test_why_a_random_move_and_why_from_a_save() -> None:
    game = usa()
    bot = RandomBot(4)
    action = bot.choose(game)
    assert "at random" in " ".join(record_move(bot, game, action).hint(game, 0).lines)
    # A save does not say who moved: the greedy bot reads the position before the last move.
    real = new_game("usa", 2, seed=5)
    greedy = [GreedyBot(0), GreedyBot(1)]
    for _ in range(30):
        real.apply(greedy[real.current_player].choose(real))
    record = why_from_replay(real)
    assert record is not None and record.agrees is True and record.move == 30


def test_germany_passengers_on_the_way() -> None:
    game = start(players=2, seed=1, map_name="germany")
    game.state.players[0].tickets = [6]  # Berlin–Leipzig
    advice = coach(game, 0)
    assert advice.plan.routes == (10,)  # Berlin–Leipzig, 4 orange
    passengers = hint(advice, "passengers")
    rules = game.rules
    waiting = rules.passengers_at(game.state, "berlin")
    colours = ", ".join(f"{n} {c}" for c, n in sorted(waiting.items()))
    assert any(f"Berlin ({colours})" in line for line in passengers.lines)
    assert passengers.data["passengers_on_plan"] == 2  # one at each end
    assert passengers.algorithm.lesson == "rules_germany_1_setup_and_passengers.ipynb"


def test_germany_majority_race_shows_what_each_colour_scores_now() -> None:
    game = start(players=3, seed=1, map_name="germany")
    # Held passengers: red you 2, others 3 and 0 (second: 10); blue 1 each for you and one
    # other (tied first: 20); green only an opponent's (nothing); white nobody's (left out).
    for seat, held in enumerate([{"red": 2, "blue": 1}, {"red": 3, "green": 2}, {"blue": 1}]):
        game.state.players[seat].extras[HELD_KEY] = held
    line = hint(coach(game, 0), "passengers").lines[-1]
    assert line.startswith("Passenger majorities, you vs the best other player")
    assert "red 2 vs 3 (+10 now)" in line
    assert "blue 1 vs 1 (+20 now)" in line
    assert "green 0 vs 2 (+0 now)" in line
    assert "white" not in line


def test_germany_country_tickets_end_in_a_country_space() -> None:
    game = start(players=2, seed=1, map_name="germany")
    game.state.players[0].tickets = [9]  # Berlin–Schweiz
    plan = coach(game, 0).plan
    ends = [game.map.route_by_id[r].ends for r in plan.routes]
    schweiz = game.map.targets("schweiz")
    assert ticket_completed(ends, "berlin", schweiz, dead_ends=game.map.dead_ends)


def test_maerklin_best_passenger_move_now() -> None:
    from ttr_nb.rules.maerklin import BOARD_KEY, LEFT_KEY, STACKS_KEY

    game = start(players=2, seed=1, map_name="maerklin")
    berlin_magdeburg = 11
    magdeburg_leipzig = next(
        r.id for r in game.map.routes if {r.a, r.b} == {"magdeburg", "leipzig"}
    )
    give_routes(game, 0, [berlin_magdeburg, magdeburg_leipzig])
    game.state.extras[BOARD_KEY]["berlin"] = 0
    game.state.players[0].extras[LEFT_KEY] -= 1
    game.state.extras[STACKS_KEY]["magdeburg"] = [5]
    game.state.extras[STACKS_KEY]["leipzig"] = [7]
    journey = hint(coach(game, 0), "journey")
    assert journey.data["points"] == 12
    assert journey.data["path"] == [berlin_magdeburg, magdeburg_leipzig]
    assert "Berlin → Magdeburg → Leipzig" in journey.lines[0]


def test_world_harbors_pieces_and_tours() -> None:
    game = start_world(players=2, seed=1)
    player = game.state.players[0]
    player.tickets = [58]  # tour Casablanca → Al-Qahira → Tehran (9 in order, 6 joined)
    player.pieces = {"train": 2, "ship": 58}
    player.extras["box"] = {"train": 23, "ship": 0}
    advice = coach(game, 0)
    assert set(advice.plan.routes) == {79, 82} and advice.plan.spaces_by_kind["train"] == 4
    harbors = hint(advice, "harbors").lines
    assert any(line.startswith("Al-Qahira: named by 1") for line in harbors)
    assert any(line.startswith("Casablanca: named by 1") for line in harbors)
    pieces = hint(advice, "pieces").lines
    assert "exchanging 2 ships for trains costs 2 points" in pieces[0]
    tours = hint(advice, "tours").lines
    assert "travels it in order (+9)" in tours[0]


def _blocking_game():
    """A real 2-player USA game: seat 1 claims every route into Miami while seat 0,
    holding a Miami ticket, only draws cards."""
    miami = {2, 15, 69}
    for seed in range(40):
        game = new_game("usa", 2, seed=seed)
        offer = game.state.players[0].offer
        mine = [t for t in offer if "miami" in game.map.ticket_by_id[t].cities]
        if not mine:
            continue
        game.apply(game.legal_actions()[-1])  # seat 0 keeps all
        game.apply(game.legal_actions()[-1])
        for _ in range(400):
            if game.is_over or not miami - set(game.state.owner):
                break
            legal = game.legal_actions()
            claims = [a for a in legal if isinstance(a, ClaimRoute) and a.route in miami]
            if game.current_player == 1 and claims:
                game.apply(claims[0])
            else:
                draws = [a for a in legal if isinstance(a, DrawBlind)]
                game.apply(draws[0] if draws else legal[0])
        if not miami - set(game.state.owner):
            return game, mine
    raise AssertionError("no seed gave seat 0 a Miami ticket")


def test_review_names_the_move_and_the_claim_that_blocked_a_ticket() -> None:
    game, tickets = _blocking_game()
    last = len(game.history)  # the third route into Miami was the last move
    blocker = game.history[-1].action.route
    rows = review(game)
    missed = {m.ticket.id: m for m in rows[0].missed}
    for t in tickets:
        assert missed[t].move == last and missed[t].by == 1 and missed[t].route == blocker
    board = [(r.id, r.a, r.b, r.length) for r in game.map.routes]
    assert rows[0].best_spaces <= sum(
        plan_ticket(board, *game.map.ticket_by_id[t].cities).spaces
        for t in game.state.players[0].tickets
    )


@pytest.mark.parametrize("name", ["usa", "germany", "maerklin", "world"])
def test_every_map_gets_every_hint_kind_in_a_real_game(name: str) -> None:
    game = new_game(name, 3, seed=2)
    bots = [GreedyBot(i) for i in range(3)]
    for _ in range(60):
        game.apply(bots[game.current_player].choose(game))
    bot = bots[game.current_player]
    action = bot.choose(game)
    record = record_move(bot, game, action)
    game.apply(action)
    advice = coach(game, 0, record)
    kinds = {h.kind for h in advice.hints}
    assert {"plan", "why"} <= kinds
    expected = {"germany": "passengers", "maerklin": "journey", "world": "harbors"}
    if name in expected:
        assert expected[name] in kinds
    for h in advice.hints:
        assert h.lines and h.algorithm.lesson


def _offered(game, seat: int, tickets: tuple[int, ...]) -> None:
    """Seat ``seat`` holds no ticket and has ``tickets`` on offer (a ticket draw)."""
    set_tickets(game, seat, tickets)  # gathers them from the deck and other hands
    player = game.state.players[seat]
    player.offer, player.tickets = list(player.tickets), []


def test_tickets_on_offer_show_what_each_adds_and_the_cheapest_keep() -> None:
    game = start(players=2, seed=1)
    _offered(game, 0, (DENVER_EL_PASO, LA_MIAMI, BOSTON_MIAMI))
    offer = hint(coach(game, 0), "offer")
    board = [(r.id, r.a, r.b, r.length) for r in game.map.routes]
    shortest = {
        t: plan_ticket(board, *game.map.ticket_by_id[t].cities).spaces
        for t in (DENVER_EL_PASO, LA_MIAMI, BOSTON_MIAMI)
    }
    extras = {n["ticket"]["id"]: n["extra_spaces"] for n in offer.data["offer"]}
    assert extras == shortest  # with no ticket held, each adds its shortest path
    assert shortest[DENVER_EL_PASO] == 4
    # After the deal one ticket is the least a player keeps: Denver–El Paso, the cheapest.
    assert (
        "The fewest spaces the rules allow: Denver → El Paso (+4 spaces, 4 points)"
        in (offer.lines[-1])
    )
    assert offer.data["fewest_spaces_keep"] == {"tickets": [DENVER_EL_PASO], "extra_spaces": 4}
    assert offer.algorithm.lesson == "graphs_5_steiner.ipynb"


def test_an_offered_ticket_the_network_already_joins_adds_nothing() -> None:
    game = start(players=2, seed=1)
    give_routes(game, 0, [99, 48])  # Denver–Santa Fe–El Paso, built already
    _offered(game, 0, (DENVER_EL_PASO, LA_MIAMI))
    lines = hint(coach(game, 0), "offer").lines
    assert any("Denver → El Paso (4 points): adds no space" in line for line in lines)
    assert coach(start(players=2, seed=1), 0).hints[1].kind != "offer"  # no offer: no hint


def test_after_the_game_ends_the_coach_reviews_and_coaches_no_play(tmp_path, capsys) -> None:
    from ttr_nb.cli import main

    game = new_game("maerklin", 2, seed=5)
    bots = [GreedyBot(1), GreedyBot(2)]
    while True:
        bot = bots[game.current_player]
        action = bot.choose(game)
        record = record_move(bot, game, action)
        game.apply(action)
        if game.is_over:
            break
    advice = coach(game, 0, record)
    kinds = [h.kind for h in advice.hints]
    assert kinds[:2] == ["review", "review"] and kinds[-1] == "why"
    assert set(kinds) <= {"review", "blocked", "why"}
    assert advice.plan is None and not advice.losses and not advice.heading
    text = advice.text()
    for play in ("My plan", "Claim ", "Weak spots", "heading", "Best passenger move now"):
        assert play not in text
    assert "the game is over" in text.splitlines()[0]
    path = tmp_path / "over.json"
    path.write_text(game.to_json(), encoding="utf-8")
    assert main(["hint", str(path), "--seat", "2"]) == 0
    out = capsys.readouterr().out
    assert "End-of-game review" in out and "Review: " in out and "My plan" not in out


def test_a_held_ticket_out_of_reach_does_not_spoil_the_offer() -> None:
    game = start(players=2, seed=1)
    _offered(game, 0, (DENVER_EL_PASO, 6))  # Dallas–New York
    game.state.players[0].tickets = [LA_MIAMI]
    give_routes(game, 1, [2, 15, 69])  # every route into Miami: Los Angeles–Miami is lost
    advice = coach(game, 0)
    assert [t.id for t in advice.plan.unreachable] == [LA_MIAMI] and advice.plan.spaces == 0
    offer = hint(advice, "offer")
    extras = {n["ticket"]["id"]: n["extra_spaces"] for n in offer.data["offer"]}
    assert extras == {DENVER_EL_PASO: 4, 6: 11}
    assert "  Denver → El Paso (4 points): adds 4 spaces" in offer.lines
    assert not any("cannot be completed" in line for line in offer.lines)
    assert offer.data["fewest_spaces_keep"] == {"tickets": [DENVER_EL_PASO], "extra_spaces": 4}


def test_near_the_end_my_plan_leads_with_what_fits_the_pieces() -> None:
    game = usa(tickets=(DENVER_EL_PASO, LA_MIAMI))
    full = coach(game, 0).plan.spaces
    game.state.players[0].pieces["train"] = 5  # enough for Denver–El Paso (4) alone
    advice = coach(game, 0)
    plan = advice.plan
    assert set(plan.routes) == {48, 99} and plan.spaces == 4 and plan.full_spaces == full
    assert [t.id for t in plan.reachable] == [DENVER_EL_PASO]
    assert [t.id for t in plan.given_up] == [LA_MIAMI]
    lines = hint(advice, "plan").lines
    assert lines[0].startswith("Within your 5 trains: claim 2 routes, 4 spaces (the plan that ")
    assert lines[-1] == (
        f"It gives up Los Angeles → Miami (−20 at the end): completing every ticket would take "
        f"{full} spaces, more than your pieces allow."
    )
    assert {loss.route for loss in advice.losses} == {48, 99}  # weak spots of what fits
    game.state.players[0].pieces["train"] = 2
    advice = coach(game, 0)
    assert advice.plan.routes == () and not advice.plan.reachable
    lines = hint(advice, "plan").lines
    assert lines[0] == (
        f"Your 2 trains cannot complete any of your open tickets: the cheapest plan needs "
        f"{full} spaces. Each ticket left open costs its points at the end:"
    )
    assert lines[1] == "  Denver → El Paso (−4), Los Angeles → Miami (−20)"
    assert not any(line.startswith("Claim") for line in lines)


def test_world_my_plan_counts_trains_and_ships_apart() -> None:
    # Djibouti–Lahore takes 5 train spaces, Bangkok–Tokyo 4 ship spaces: 9 in all.
    game = start_world()
    set_tickets(game, 0, (6, 3))
    player = game.state.players[0]
    player.pieces.update(train=4, ship=30)
    player.extras["box"]["train"] = 0  # no train left to exchange a ship for
    advice = coach(game, 0)
    assert [t.id for t in advice.plan.reachable] == [3]
    assert [t.id for t in advice.plan.given_up] == [6]
    assert advice.plan.spaces_by_kind == {"ship": 4}
    assert (
        hint(advice, "plan")
        .lines[0]
        .startswith(
            "Within your 4 trains and 30 ships: claim 2 routes, 4 spaces (the plan that keeps the "
            "most ticket points within your pieces)"
        )
    )
    assert hint(advice, "pieces").lines[0].startswith("Your supply covers the plan")
    player.extras["box"]["train"] = 5  # one ship exchanged for a train makes it fit
    advice = coach(game, 0)
    assert advice.plan.fitting is None and advice.plan.spaces == 9
    assert hint(advice, "plan").lines[0].startswith("Claim ")
    assert "exchanging 1 ship for trains costs 1 point." in hint(advice, "pieces").lines[0]


def test_why_a_search_move_counts_add_up_to_the_games_played() -> None:
    game = new_game("usa", 2, seed=3)
    bot = SearchBot(seed=1, worlds=8, min_evidence=1)
    while game.phase == "setup":
        game.apply(game.legal_actions()[-1])
    action = bot.choose(game)
    record = record_move(bot, game, action)
    children = bot.last.root.children
    assert len(children) > len(record.candidates)  # some candidates are not listed
    lines = record.hint(game, 0).lines
    assert f"comparing {len(children)} possible moves" in lines[1]
    assert f"played {record.playouts} games to the end" in lines[1]
    listed = [int(re.search(r": played (\d+) time", line)[1]) for line in lines[2:-1]]
    others = int(re.search(r"the other \d+ moves: (\d+) games? in all", lines[-1])[1])
    assert len(listed) == len(record.candidates) and sum(listed) + others == record.playouts


@pytest.mark.parametrize("name", ["germany", "maerklin"])
def test_why_the_compulsory_opening_ticket_draw_is_no_choice(name: str) -> None:
    game = new_game(name, 2, seed=1)
    bot = GreedyBot(1)
    action = bot.choose(game)
    record = record_move(bot, game, action)
    game.apply(action)
    lines = record.hint(game, 1).lines
    assert "every player must draw tickets at the start of this game" in lines[1]
    assert not any("complete or planned" in line for line in lines)
    assert WhyRecord.from_data(record.to_data()) == record
    keep = bot.choose(game)
    assert not record_move(bot, game, keep).compulsory  # which tickets to keep is a choice
    game.apply(keep)
    assert record_move(bot, game, bot.choose(game)).compulsory  # the second seat's draw


def test_why_words_read_as_sentences() -> None:
    from ttr_nb.bots import Reason

    game = usa()
    record = WhyRecord(
        1, 0, "greedy", "Ann takes a card", Reason("card for plan", (6, 7), (48,), "orange")
    )
    own = record.hint(game, 0).lines
    assert own[1] == (
        "It took an orange card: its plan for its tickets Dallas → New York and Denver → El Paso "
        "needs that colour."
    )
    other = record.hint(game, 1).lines
    assert other[-1] == (
        "(Which of its tickets it serves stays hidden until the end of the game, or until you "
        "coach that seat.)"
    )


def test_plan_and_review_words_read_as_sentences() -> None:
    from ttr_nb.coach.plan import TicketNote
    from ttr_nb.coach.review import PlayerReview

    game = usa()
    set_hand(game, 0, red=1, locomotive=1)
    lines = hint(coach(game, 0), "plan").lines
    # Two gray routes of 2: each may be paid in a colour of its own.
    assert lines[2] == (
        "Cards: 4 cards for gray routes (each in one colour of your choice; you hold 1 of "
        "your commonest colour); 1 wild card in hand; about 2 cards still to draw."
    )
    notes = tuple(TicketNote.of(game.map, t) for t in (DENVER_EL_PASO, LA_MIAMI))
    row = PlayerReview(0, "Ann", (), 0, (), 24, True, notes, ())
    assert "the cheapest network completing both needed 24 spaces." in row.lines(game)[0]


def test_in_the_last_round_my_plan_says_how_many_turns_are_left() -> None:
    game = usa(players=3, tickets=(DENVER_EL_PASO, LA_MIAMI))
    game.state.final_turns_left = 4  # seats 1, 2, 3, then 1 again: two turns for seat 1
    lines = hint(coach(game, 0), "plan").lines
    assert (
        "The last round has begun: you have 2 turns left, fewer than the plan takes; claim what "
        "you can pay for now."
    ) in lines
    game.state.final_turns_left = None
    assert not any("last round" in line for line in hint(coach(game, 0), "plan").lines)
