"""What the greedy bot does differently on Germany: passengers and the ticket split.

:class:`~ttr_nb.bots.GreedyBot` finds this module by the map's rules name and asks
:func:`claim_bonus` what a claim is worth beyond its route points, and
:func:`ticket_draw` which mix of short and long tickets to draw. Heuristic:

* **Passengers.** A claim is worth its route points plus, for the passengers it
  would take, half the majority points they would gain if the game ended now
  (20 for taking or sharing the lead of a colour, 10 for second place, computed
  with the real scoring rule on everyone's public collections) plus 1 point per
  passenger (a lead built early is worth more than today's table shows). So the
  bot prefers, among routes it wants anyway, those whose ends still hold
  passengers, and where it must choose a colour it takes the one that gains
  most (ties go to the colour it holds fewest of, to spread its chances).
* **Tickets.** Long tickets are worth more but need more trains. With 30 or more
  trains left the bot asks for 2 long tickets of 4, with 16 to 29 for 1, and
  with fewer for none; when the decks cannot supply that split, the nearest one
  they can. Which tickets to keep is the generic greedy choice (cheapest to
  finish for their value).
"""

from __future__ import annotations

from functools import lru_cache

from ...actions import ClaimRoute, DrawTickets
from ...game import Game
from ...rules.germany import HELD_KEY, GermanyRules, colour_majority

MAJORITY_WEIGHT = 0.5
PER_PASSENGER = 1.0


def claim_bonus(game: Game, action: ClaimRoute) -> float:
    """Points the passengers a claim takes are worth to the player claiming."""
    rules = game.rules
    if not isinstance(rules, GermanyRules):
        return 0.0
    state = game.state
    route = game.map.route_by_id[action.route]
    taken = rules.taken(state, route, action.pickups)
    if not taken:
        return 0.0
    me = state.current
    # Read the collections in place: a search asks this for every claim of every play-out.
    held = [player.extras.get(HELD_KEY, {}) for player in state.players]
    gain = 0.0
    for colour in {colour for _, colour in taken}:
        counts = [h.get(colour, 0) for h in held]
        before = _majority_points(tuple(counts))[me]
        counts[me] += sum(1 for _, c in taken if c == colour)
        gain += _majority_points(tuple(counts))[me] - before
    # A small nudge toward colours the bot holds few of breaks ties between choices.
    spread = -0.01 * sum(held[me].get(colour, 0) for _, colour in taken)
    return MAJORITY_WEIGHT * gain + PER_PASSENGER * len(taken) + spread


@lru_cache(maxsize=4096)
def _majority_points(counts: tuple[int, ...]) -> tuple[int, ...]:
    """Each player's majority points for one colour (the colour's name does not matter)."""
    return colour_majority("", counts).points


def ticket_draw(game: Game, draws: list[DrawTickets]) -> DrawTickets:
    """The mix to draw: 2 long tickets with 30+ trains, 1 with 16-29, else none (or the
    nearest mix the decks can supply)."""
    trains = sum(game.state.players[game.current_player].pieces.values())
    wish = 2 if trains >= 30 else 1 if trains >= 16 else 0
    return min(draws, key=lambda d: (abs(d.long - wish), d.long))
