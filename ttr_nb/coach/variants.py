"""Each variant's own hints, on top of the plan.

* **Germany**: the passengers waiting along the plan (what each planned claim would
  take) and where the seat stands in each colour's majority race.
* **Märklin**: the best passenger move now (the most valuable journey of each of the
  seat's passengers: a maximum-weight trail), and where the plan could place one.
* **Rails & Sails World**: harbor cities on the plan named by the seat's tickets, the
  pieces the plan needs by kind against the supply (an exchange when one runs short),
  and whether each tour would be travelled in order.
* **Europe**: the tunnels on the plan with the extra cards each is expected to ask for
  (the plan's cards and turns counted with them), the ferries' locomotives, the tickets
  out of reach that a station would save, and what the stations built would borrow.

:func:`variant_hints` picks the variant's function by the rules' name, so a new
variant adds one function here and nothing elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable

from ..algorithms import tour_in_order
from ..game import Game
from .hint import Hint, plural_s
from .lessons import ALGORITHMS
from .plan import Plan, ticket_name

__all__ = ["variant_hints"]


def variant_hints(view: Game, seat: int, plan: Plan) -> list[Hint]:
    """The hints of the view's variant (none for the base rules)."""
    hints = VARIANT_HINTS.get(view.rules.name)
    return hints(view, seat, plan) if hints is not None else []


def germany(view: Game, seat: int, plan: Plan) -> list[Hint]:
    """Germany's hints: the passengers along the plan and the seat's place in each colour's majority
    race."""
    from ..rules.germany import GermanyRules, colour_majority

    rules = view.rules
    assert isinstance(rules, GermanyRules)
    state = view.state
    name = view.map.place_name
    lines = []
    routes = []
    left: dict[str, int] = {}  # passengers still waiting at a place, as the plan claims on
    taken = 0
    for rid in plan.routes:
        parts = []
        for place in rules.route_places[rid]:
            waiting = rules.passengers_at(state, place)
            left.setdefault(place, sum(waiting.values()))
            if waiting and left[place] > 0:
                left[place] -= 1
                taken += 1
                colours = ", ".join(f"{n} {c}" for c, n in sorted(waiting.items()))
                parts.append(f"{name(place)} ({colours})")
        if parts:
            routes.append(rid)
            label = view.map.route_label(view.map.route_by_id[rid])
            lines.append(f"{label}: one passenger at " + " and one at ".join(parts))
    if lines:
        lines.insert(0, f"Your plan passes {taken} passenger{plural_s(taken)}:")
    else:
        lines.append("No passenger waits at the ends of your planned routes.")
    held = [rules.held(state, s) for s in range(view.num_players)]
    race = []
    for colour in rules.passenger_colours:
        counts = [h.get(colour, 0) for h in held]
        points = colour_majority(colour, counts).points[seat]
        best_other = max(n for s, n in enumerate(counts) if s != seat)
        if counts[seat] or best_other:
            race.append(f"{colour} {counts[seat]} vs {best_other} (+{points} now)")
    if race:
        lines.append(
            "Passenger majorities, you vs the best other player (+N: what the colour would "
            "score you if the game ended now): " + "; ".join(race) + "."
        )
    return [
        Hint(
            "passengers",
            "Passengers on the way",
            tuple(lines),
            ALGORITHMS["passengers"],
            tuple(routes),
            {"passengers_on_plan": taken},
        )
    ]


def maerklin(view: Game, seat: int, plan: Plan) -> list[Hint]:
    """Märklin's hints: the best passenger move now and where the plan could place a passenger."""
    from ..algorithms import best_journey, journey_value
    from ..bots.variants.maerklin import CARD_COST, MAX_CARDS, top_values
    from ..rules.maerklin import LEFT_KEY, MaerklinRules, MovePassenger

    rules = view.rules
    assert isinstance(rules, MaerklinRules)
    state = view.state
    cards = min(state.players[seat].hand[rules.passenger_card], MAX_CARDS)
    values = top_values(view)
    network = rules.network(state, seat, paid=cards > 0)
    moves = []
    for start in rules.passengers_of(state, seat):
        journey = best_journey(network, start, values, cards, rules.dead)
        if journey is not None:
            worth = journey_value(journey, values)
            moves.append((worth - CARD_COST * journey.cards, worth, start, journey))
    moves.sort(key=lambda m: (-m[0], m[2]))
    lines = []
    routes: tuple[int, ...] = ()
    data: dict = {}
    if moves:
        net, worth, start, journey = moves[0]
        action = MovePassenger(start, tuple(journey.path))
        # The hint's title already says "best passenger move now".
        text = rules.journey_text(state, seat, action)
        lines.append(text[:1].upper() + text[1:] + ".")
        if journey.cards:
            lines.append(
                f"It spends {journey.cards} Passenger card{plural_s(journey.cards)} "
                f"(worth about {CARD_COST:g} points each to keep): {net:g} points net."
            )
        for _, other, other_start, _ in moves[1:]:
            lines.append(
                f"The passenger in {view.map.place_name(other_start)}: up to {other} points."
            )
        routes = tuple(journey.path)
        data = {"start": start, "path": list(journey.path), "points": worth}
    else:
        lines.append("None of your passengers stands on the board, or none can travel yet.")
    to_place = state.players[seat].extras[LEFT_KEY]
    if to_place:
        spots = []
        board = state.extras["passengers"]
        for rid in plan.routes:
            for end in view.map.route_by_id[rid].ends:
                if end in rules.stops and end not in board and end not in spots:
                    spots.append(end)
        if spots:
            names = ", ".join(
                f"{view.map.place_name(c)} (top token {values.get(c, 0)})" for c in spots[:5]
            )
            lines.append(
                f"You have {to_place} passenger{plural_s(to_place)} to place: a claim "
                f"on your plan can place one in {names}. A passenger collects nothing where it "
                "starts."
            )
    return [
        Hint(
            "journey", "Best passenger move now", tuple(lines), ALGORITHMS["journey"], routes, data
        )
    ]


def world(view: Game, seat: int, plan: Plan) -> list[Hint]:
    """World's hints: harbors on the plan, the pieces it needs against the supply, tours in
    order."""
    from ..rules.world import WorldRules

    rules = view.rules
    assert isinstance(rules, WorldRules)
    state = view.state
    player = state.players[seat]
    game_map = view.map
    out = []
    # Harbors: port cities of the network and the plan, by the tickets naming them.
    reached = {
        end for rid in (*player.routes, *plan.routes) for end in game_map.route_by_id[rid].ends
    }
    built = state.extras.get("harbors", {})
    named: dict[str, int] = {}
    for t in player.tickets:
        for city in game_map.ticket_by_id[t].cities:
            if city in rules.ports and city in reached and city not in built:
                named[city] = named.get(city, 0) + 1
    left = player.extras["harbors_left"]
    lines = []
    points = rules.harbor_points
    if left and named:
        best = sorted(named.items(), key=lambda kv: (-kv[1], kv[0]))
        for city, n in best[:left]:
            value = points[min(n, len(points) - 1)]
            lines.append(
                f"{game_map.place_name(city)}: named by {n} of your tickets; a harbor there "
                f"scores {value} if {'it is' if n == 1 else 'they are'} completed."
            )
    if left:
        lines.append(
            f"{left} harbor{plural_s(left)} left to build; each unbuilt one costs "
            f"{rules.unbuilt_harbor_penalty} points at the end."
        )
    mine = [c for c, owner in built.items() if owner == seat]
    if mine:
        lines.append("Your harbors: " + ", ".join(game_map.place_name(c) for c in mine) + ".")
    out.append(Hint("harbors", "Harbors", tuple(lines), ALGORITHMS["harbors"]))
    # Pieces by kind: the plan against the supply (exchanges cost a point a piece).
    need = plan.spaces_by_kind
    lines = []
    for take, give in (("train", "ship"), ("ship", "train")):
        short = need.get(take, 0) - player.pieces.get(take, 0)
        spare = player.pieces.get(give, 0) - need.get(give, 0)
        in_box = player.extras["box"][take]
        if short > 0:
            count = min(short, spare, in_box)
            if count > 0:
                lines.append(
                    f"Your plan needs {need.get(take, 0)} {take} "
                    f"space{plural_s(need.get(take, 0))} and your supply holds "
                    f"{player.pieces.get(take, 0)} {take}{plural_s(player.pieces.get(take, 0))}: "
                    f"exchanging {count} {give}{plural_s(count)} for {take}s costs "
                    f"{count * rules.exchange_cost} point{plural_s(count * rules.exchange_cost)}."
                )
            else:
                lines.append(
                    f"Your plan needs {short} more {take}{plural_s(short)} than your supply "
                    "holds, and no exchange can make that up."
                )
    if not lines:
        lines.append(
            "Your supply covers the plan: "
            + ", ".join(
                f"{need.get(k, 0)} of {player.pieces.get(k, 0)} {k}s" for k in ("train", "ship")
            )
            + "."
        )
    out.append(
        Hint(
            "pieces",
            "Trains and ships",
            tuple(lines),
            ALGORITHMS["steiner-exact" if plan.exact else "steiner-greedy"],
        )
    )
    # Tours: in order (a trail) or only joined.
    lines = []
    ends = [game_map.route_by_id[r].ends for r in (*player.routes, *plan.routes)]
    for note in plan.reachable:
        values = rules.tours.get(note.id)
        if values is None:
            continue
        cities = game_map.ticket_by_id[note.id].cities
        if tour_in_order(ends, cities):
            lines.append(
                f"{ticket_name(game_map, note.id)}: the plan travels it in order "
                f"(+{values['in_order']})."
            )
        else:
            lines.append(
                f"{ticket_name(game_map, note.id)}: the plan only joins its cities "
                f"(+{values['any_order']}); in order it would score +{values['in_order']}."
            )
    if lines:
        out.append(Hint("tours", "Tours", tuple(lines), ALGORITHMS["tours"]))
    return out


def europe(view: Game, seat: int, plan: Plan) -> list[Hint]:
    """Europe's own hints: tunnels on the plan, ferries' locomotives, stations."""
    from ..rules.europe import EuropeRules
    from ..rules.europe_stations import best_borrowing, station_path
    from ..rules.europe_tunnels import expected_extra, extra_card_odds, matching_unseen

    rules = view.rules
    assert isinstance(rules, EuropeRules)
    state = view.state
    player = state.players[seat]
    game_map = view.map
    hand = player.hand
    out = []
    # Tunnels on the plan: the extra cards each is expected to ask for, from the cards the
    # seat sees (its hand and the face-up row: the coach's view keeps no discard pile).
    lines = []
    expected_total = 0.0
    tunnels = [r for r in plan.routes if game_map.route_by_id[r].tunnel]
    for rid in tunnels:
        route = game_map.route_by_id[rid]
        colour = route.color
        if colour == "gray":
            colour = max(
                (c.id for c in rules.colour_cards), key=lambda c: (hand[c], c), default=None
            )
        matching, unseen = matching_unseen(view, seat, colour)
        mean = expected_extra(matching, unseen, rules.tunnel_cards)
        none = extra_card_odds(matching, unseen, rules.tunnel_cards)[0]
        expected_total += mean
        lines.append(
            f"{game_map.route_label(route)} (paid in {colour}): about {mean:.1f} extra "
            f"card{'' if round(mean, 1) == 1 else 's'}; none {none:.0%} of the time."
        )
    if tunnels:
        extra = round(expected_total)
        cards = plan.cards_missing + extra
        lines.insert(
            0,
            f"Your plan crosses {len(tunnels)} tunnel{plural_s(len(tunnels))}: counting the "
            f"cards {'it is' if len(tunnels) == 1 else 'they are'} expected to ask for, it "
            f"needs about {cards} more "
            f"card{plural_s(cards)} (not {plan.cards_missing}), about "
            f"{plan.turns + (cards + 1) // 2 - (plan.cards_missing + 1) // 2} turns.",
        )
    else:
        lines.append("No tunnel on your plan: its cards are exactly what it shows.")
    ferries = [r for r in plan.routes if game_map.route_by_id[r].locomotives]
    if ferries:
        locos = sum(game_map.route_by_id[r].locomotives for r in ferries)
        lines.append(
            f"Its ferries need {locos} locomotive{plural_s(locos)} (you hold "
            f"{hand[rules.locomotive]})."
        )
    out.append(
        Hint(
            "tunnels",
            "Tunnels and ferries on the plan",
            tuple(lines),
            ALGORITHMS["tunnel-odds"],
            tuple(tunnels),
            {"tunnels": list(tunnels), "expected_extra_cards": round(expected_total, 2)},
        )
    )
    # Stations: tickets out of reach that one borrowed route would save, and what the
    # stations built would borrow if the game ended now.
    lines = []
    board = [(r.id, r.a, r.b, r.length) for r in game_map.routes]
    others = [r for r, s in state.owner.items() if s != seat]
    closed = [r for r in plan.unavailable if r not in state.owner]
    routes: list[int] = []
    left = player.extras["stations_left"]
    for note in plan.unreachable:
        a, b = game_map.ticket_by_id[note.id].cities
        path = station_path(board, a, b, player.routes, others, closed)
        if path is None or path.borrowed is None:
            continue
        borrowed = game_map.route_by_id[path.borrowed]
        owner = state.players[state.owner[path.borrowed]].name
        ends = " or ".join(game_map.place_name(c) for c in borrowed.ends)
        lines.append(
            f"{note.name} is out of your own reach, but a station in {ends} borrowing "
            f"{game_map.route_label(borrowed)} ({owner}'s) completes it after "
            f"{path.spaces} more space{plural_s(path.spaces)}: +{note.points} instead of "
            f"−{note.penalty}."
        )
        routes += [*path.claims, path.borrowed]
    if left:
        cost = rules.station_cost(player)
        lines.append(
            f"A station now costs {cost} card{plural_s(cost)}"
            f"{' of one colour' if cost > 1 else ''}; each one not built scores "
            f"{rules.unbuilt_station_points} ({left} left)."
        )
    options = rules.borrow_choices(state, seat)
    if options:
        tickets = [
            (*game_map.ticket_by_id[t].cities, game_map.ticket_by_id[t].points)
            for t in player.tickets
        ]
        own = [rules.route_ends[r] for r in player.routes]
        best = best_borrowing(own, tickets, options, rules.route_ends)
        chosen = "; ".join(
            f"{game_map.place_name(c)}: {game_map.route_label(game_map.route_by_id[r])}"
            for c, r in best.routes
        )
        lines.append(
            f"If the game ended now, your stations would best borrow {chosen} "
            f"(tickets {best.points:+d})."
        )
        routes += [r for _, r in best.routes]
    if not lines:
        lines.append("No station is needed: every ticket is still within your own reach.")
    out.append(
        Hint(
            "stations",
            "Train stations",
            tuple(lines),
            ALGORITHMS["station-path"],
            tuple(dict.fromkeys(routes)),
        )
    )
    return out


VARIANT_HINTS: dict[str, Callable[[Game, int, Plan], list[Hint]]] = {
    "germany": germany,
    "maerklin": maerklin,
    "world": world,
    "europe": europe,
}
