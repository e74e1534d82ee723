"""What the greedy bot does differently on Rails & Sails World.

:class:`~ttr_nb.bots.GreedyBot` asks this module (found by the map's rules name)
before its generic plan: here it picks a supply of pieces that fits its tickets,
builds harbors in the cities its tickets name, and exchanges pieces when its ticket
plans need more of one kind than its supply holds.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from ...rules.world import CHOOSE_SUPPLY, BuildHarbor, ChooseSupply, ExchangePieces

if TYPE_CHECKING:
    from ...game import Game
    from ..greedy import GreedyBot

SUPPLY_MARGIN = 4  # pieces of the scarcer kind kept beyond what the plans need
# The greedy bot's hand limits here (HAND_LIMIT, CASH_IN): a harbor takes four cards of one
# colour with the harbor symbol, so a larger hand pays. Against the bot without hand
# limits (40 games): 18/24 won 62 %, the generic 14/20 won 52 % and built fewer harbors.
HAND_LIMITS = (18, 24)
LATE_PIECES = 14  # with this few pieces left, unbuilt harbors are built anywhere


def planned_spaces(bot: GreedyBot, game: Game, seat: int) -> Counter[str]:
    """Spaces still to claim on the bot's ticket plans, by route kind (train, ship)."""
    need: Counter[str] = Counter()
    for rid in bot.wanted_routes(game, seat):
        route = game.map.route_by_id[rid]
        need[route.kind] += route.length
    return need


def advise(bot: GreedyBot, game: Game, legal: list[Any]) -> Any | None:
    """A World-only move for the greedy bot, or None to let its generic plan decide."""
    state = game.state
    seat = state.current
    if state.pending == CHOOSE_SUPPLY:
        return choose_supply(bot, game, legal)
    if state.pending is not None:
        return None
    harbor = best_harbor(game, seat, legal)
    if harbor is not None:
        return harbor
    return exchange(bot, game, seat, legal)


def choose_supply(bot: GreedyBot, game: Game, legal: list[Any]) -> ChooseSupply:
    """Trains and ships in the proportion the ticket plans need, with a margin."""
    options = [a for a in legal if isinstance(a, ChooseSupply)]
    need = planned_spaces(bot, game, game.state.current)
    total = options[0].trains + options[0].ships
    if not need:
        want = total // 3
    else:
        share = need["train"] / (need["train"] + need["ship"])
        want = max(need["train"] + SUPPLY_MARGIN, round(total * share))
    return min(options, key=lambda a: abs(a.trains - want))


def best_harbor(game: Game, seat: int, legal: list[Any]) -> BuildHarbor | None:
    """A harbor in the city most of the bot's tickets name (late in the game: anywhere)."""
    builds = [a for a in legal if isinstance(a, BuildHarbor)]
    if not builds:
        return None
    player = game.state.players[seat]
    named = Counter(c for t in player.tickets for c in game.map.ticket_by_id[t].cities)
    late = game.state.final_turns_left is not None or sum(player.pieces.values()) <= LATE_PIECES
    wilds = set(game.rules.wild_ids)

    def value(action: BuildHarbor) -> tuple[int, int]:
        spent_wilds = sum(n for card, n in action.cards if card in wilds)
        return (named[action.city], -spent_wilds)

    best = max(builds, key=value)
    return best if named[best.city] or late else None


def exchange(bot: GreedyBot, game: Game, seat: int, legal: list[Any]) -> ExchangePieces | None:
    """Swap pieces with the box when the plans need more of one kind than the supply has."""
    swaps = [a for a in legal if isinstance(a, ExchangePieces)]
    if not swaps:
        return None
    player = game.state.players[seat]
    need = planned_spaces(bot, game, seat)
    for take, give in (("train", "ship"), ("ship", "train")):
        short = need[take] - player.pieces[take]
        spare = player.pieces[give] - need[give]
        count = min(short, spare)
        if short > 0 and spare > 0:
            fitting = [a for a in swaps if a.take == take and a.count <= count]
            if fitting:
                return max(fitting, key=lambda a: a.count)
    return None


def explain(game: Game, action: Any) -> str:
    """The World move's reason in words."""
    state = game.state
    seat = state.current
    if isinstance(action, ChooseSupply):
        return (
            f"chooses {action.trains} trains and {action.ships} ships, in the proportion "
            "its ticket plans need (with a margin of trains)"
        )
    if isinstance(action, BuildHarbor):
        player = state.players[seat]
        named = sum(action.city in game.map.ticket_by_id[t].cities for t in player.tickets)
        name = game.map.place_name(action.city)
        if named:
            return f"builds a harbor in {name}, a city {named} of its tickets name"
        return f"builds a harbor in {name} late in the game (an unbuilt harbor costs points)"
    if isinstance(action, ExchangePieces):
        return (
            f"exchanges pieces to take {action.count} {action.take}s: its plans need more "
            "of them than its supply holds"
        )
    return ""
