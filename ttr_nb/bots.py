"""Computer players. A bot looks at a game and returns one legal action.

The greedy bot is generic; what it knows about a variant (how much a claim's
passengers are worth, which ticket split to ask for) comes from that variant's
:class:`Advisor`, found by the map's ``rules`` name in :data:`ADVISORS`.
"""

from __future__ import annotations

import importlib
import random
from typing import Any, Protocol

from .actions import ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets, Pass
from .algorithms import TicketUnreachableError, plan_ticket
from .game import Game


class Bot(Protocol):
    name: str

    def choose(self, game: Game) -> Any: ...


class RandomBot:
    """Picks uniformly among the legal actions, with its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Any:
        return self.rng.choice(game.legal_actions())


class Advisor:
    """What the greedy bot knows about a variant; this base knows nothing special.

    A variant's advisor (see :data:`ADVISORS`) overrides the methods it needs.
    """

    def claim_bonus(self, game: Game, action: ClaimRoute) -> float:
        """Points a claim is worth beyond its route points (0 here)."""
        return 0.0

    def ticket_draw(self, game: Game, draws: list[DrawTickets]) -> DrawTickets:
        """Which of the listed ticket draws to make (the first here)."""
        return draws[0]


ADVISORS: dict[str, str] = {"germany": "ttr_nb.bots_germany:GermanyAdvisor"}
"""Map ``rules`` name -> ``module:class`` of its greedy-bot advisor (imported when needed)."""


def advisor_for(rules_name: str) -> Advisor:
    """The advisor for a variant (the plain :class:`Advisor` when it has none)."""
    spec = ADVISORS.get(rules_name)
    if spec is None:
        return Advisor()
    module, cls = spec.split(":")
    advisor: Advisor = getattr(importlib.import_module(module), cls)()
    return advisor


class GreedyBot:
    """Plans each open ticket by shortest path and claims the routes on those plans.

    Each turn: keep the tickets that are cheapest to finish; claim the
    best-scoring affordable route that lies on a ticket plan; otherwise take
    face-up cards in the colours those routes need, else draw blind; with every
    ticket done and trains to spare, draw new tickets; late in the game, claim
    whatever scores most. A claim scores its route points plus the variant
    advisor's bonus (Germany: its passengers); the advisor also picks the
    ticket split where a variant has one.
    """

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self._advisors: dict[str, Advisor] = {}

    def advisor(self, game: Game) -> Advisor:
        rules = game.map.rules
        if rules not in self._advisors:
            self._advisors[rules] = advisor_for(rules)
        return self._advisors[rules]

    def choose(self, game: Game) -> Any:
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = game.current_player
        state = game.state
        if state.pending == "keep_tickets":
            return self._keep(game, legal)
        wanted = self._wanted_routes(game, me)
        claims = [a for a in legal if isinstance(a, ClaimRoute)]
        on_plan = [a for a in claims if a.route in wanted]
        if on_plan:
            return self._best_claim(game, on_plan)
        if state.pending is None:
            pieces = sum(state.players[me].pieces.values())
            open_tickets = not wanted and any(isinstance(a, DrawTickets) for a in legal)
            if open_tickets and pieces > 12:
                draws = [a for a in legal if isinstance(a, DrawTickets)]
                return self.advisor(game).ticket_draw(game, draws)
            late = state.final_turns_left is not None or pieces <= 12 or not wanted
            if claims and late:
                return self._best_claim(game, claims)
        needed = {game.map.route_by_id[r].color for r in wanted}
        for action in legal:
            if isinstance(action, DrawFaceUp):
                card = game.rules.cards[state.face_up[action.slot]]
                if card.color in needed or (card.wild and state.pending is None):
                    return action
        blind = [a for a in legal if isinstance(a, DrawBlind)]
        if blind:
            return blind[0]
        draws = [a for a in legal if isinstance(a, DrawFaceUp)]
        if draws:
            return self.rng.choice(draws)
        if claims:
            return self._best_claim(game, claims)
        others = [a for a in legal if not isinstance(a, Pass)]
        return self.rng.choice(others or legal)

    def _board(self, game: Game) -> list[tuple[int, str, str, int]]:
        return [(r.id, r.a, r.b, r.length) for r in game.map.routes]

    def _unavailable(self, game: Game, me: int) -> set[int]:
        state = game.state
        return {
            r.id
            for r in game.map.routes
            if state.owner.get(r.id, me) != me
            or (r.id not in state.owner and game.rules.route_problem(state, me, r) is not None)
        }

    def _plan_cost(self, game: Game, me: int, ticket_id: int, unavailable: set[int]) -> Any:
        ticket = game.map.ticket_by_id[ticket_id]
        owned = set(game.state.players[me].routes)
        spaces, routes = 0, []
        for a, b in zip(ticket.cities, ticket.cities[1:], strict=False):
            try:
                plan = plan_ticket(
                    self._board(game),
                    game.map.targets(a),
                    game.map.targets(b),
                    owned=owned,
                    unavailable=unavailable,
                    dead_ends=game.map.dead_ends,
                )
            except TicketUnreachableError:
                return None
            spaces += plan.spaces
            routes.extend(r for r in plan.route_ids if r not in owned)
        return spaces, routes

    def _wanted_routes(self, game: Game, me: int) -> set[int]:
        unavailable = self._unavailable(game, me)
        wanted: set[int] = set()
        for ticket_id, done in game.ticket_status(me):
            if done:
                continue
            plan = self._plan_cost(game, me, ticket_id, unavailable)
            if plan is not None:
                wanted.update(plan[1])
        return wanted

    def _keep(self, game: Game, legal: list[Any]) -> Any:
        me = game.current_player
        unavailable = self._unavailable(game, me)
        offer = game.state.players[me].offer
        cost = {}
        for t in offer:
            plan = self._plan_cost(game, me, t, unavailable)
            cost[t] = plan[0] if plan is not None else 10**6
        budget = sum(game.state.players[me].pieces.values()) * 0.6
        keeps = [a for a in legal if isinstance(a, KeepTickets)]

        def value(action: KeepTickets) -> tuple[float, int]:
            spaces = sum(cost[t] for t in action.tickets)
            points = sum(game.map.ticket_by_id[t].points for t in action.tickets)
            return (-max(0.0, spaces - budget) * 3 + points - spaces * 0.5, -len(action.tickets))

        return max(keeps, key=value)

    def _best_claim(self, game: Game, claims: list[ClaimRoute]) -> ClaimRoute:
        wild = set(game.rules.wild_ids)
        advisor = self.advisor(game)

        def value(action: ClaimRoute) -> tuple[float, int]:
            route = game.map.route_by_id[action.route]
            wilds = sum(n for card, n in action.cards if card in wild)
            points = game.map.route_points(route.length) + advisor.claim_bonus(game, action)
            return (points, -wilds)

        return max(claims, key=value)


BOTS: dict[str, type] = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(kind: str, seed: int = 0) -> Bot:
    """A bot by name (``random`` or ``greedy``)."""
    try:
        return BOTS[kind](seed)
    except KeyError:
        raise ValueError(f"unknown bot {kind!r}; choose from {', '.join(BOTS)}") from None


def play_out(game: Game, bots: list[Bot], max_actions: int = 100_000) -> Game:
    """Let ``bots`` (one per seat) play ``game`` to the end."""
    for _ in range(max_actions):
        if game.is_over:
            return game
        game.apply(bots[game.current_player].choose(game))
    raise RuntimeError(f"game did not end within {max_actions} actions")
