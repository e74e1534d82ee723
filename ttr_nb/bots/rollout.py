"""A fast playing policy for look-ahead: follow the shortest-path plans of one's tickets.

A search plays thousands of imagined games to their end; the moves in them must be
cheap, and good enough that the imagined games look like real ones. This policy
plays like the greedy bot (:class:`ttr_nb.bots.GreedyBot`), for a fraction of its
cost:

* each player's **plan** is the set of routes still to claim on the shortest paths
  (:class:`~ttr_nb.algorithms.TicketPlanner`) of their open tickets. It is kept
  between moves and planned again only when it breaks: a planned route taken by
  someone else (or closed), or new tickets kept. A route claimed elsewhere on the
  board leaves every shortest path that did not use it as short as it was;
* on a turn, it **claims** the longest planned route it can pay for (fewest wild
  cards first); with nothing planned (every ticket done), it draws tickets while it
  has pieces to spare, or claims what scores most;
* otherwise it **draws** a face-up card of a colour its plan needs (or a wild card
  as the first card), else a card from the deck its plan needs most;
* decisions that are not an ordinary turn (which tickets to keep, a variant's setup
  choices) go to the greedy bot itself: they are rare.

Everything goes through the generic game API (``legal_actions``/``apply``), so it
plays every variant; a variant's own moves (harbors, exchanges) are left out of the
ordinary turn.
"""

from __future__ import annotations

import random
from typing import Any

from ..actions import ClaimRoute, DrawBlind, DrawFaceUp, Pass
from ..algorithms import TicketUnreachableError
from ..game import Game
from .greedy import GreedyBot, plan_ticket_legs, variant_hook

__all__ = ["PlanFollower"]

TICKET_DRAW_PIECES = 12  # like the greedy bot: draw tickets only with more pieces than this


class PlanFollower:
    """The rollout policy (see the module text); one per imagined game or per search.

    Parameters
    ----------
    seed : int
        Seeds the policy's own choices among equals.
    """

    name = "plan-follower"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.greedy = GreedyBot(seed)
        # seat -> (tickets planned for, wanted routes)
        self.plans: dict[int, tuple[tuple[int, ...], set[int]]] = {}

    def reset(self) -> None:
        """Forget the plans (before playing another game)."""
        self.plans.clear()

    # ----------------------------------------------------------------- plans
    def wanted(self, game: Game, seat: int) -> set[int]:
        """Routes still to claim on ``seat``'s ticket plans (kept while they hold)."""
        state = game.state
        player = state.players[seat]
        tickets = tuple(player.tickets)
        known = self.plans.get(seat)
        if known is not None and known[0] == tickets:
            wanted = known[1]
            owner = state.owner
            mine = {rid for rid in wanted if owner.get(rid) == seat}
            if mine:
                wanted -= mine
            if self._intact(game, seat, wanted):
                return wanted
        wanted = self._plan(game, seat)
        self.plans[seat] = (tickets, wanted)
        return wanted

    def _intact(self, game: Game, seat: int, wanted: set[int]) -> bool:
        """No planned route is taken by another player or closed to ``seat``."""
        state = game.state
        owner = state.owner
        parallel = game.rules.parallel
        closes = len(state.players) <= game.rules.closed_parallel_max_players
        for rid in wanted:
            holder = owner.get(rid)
            if holder is not None and holder != seat:
                return False
            for other in parallel[rid]:
                held = owner.get(other)
                if held is not None and (closes or held == seat):
                    return False
        return True

    def _plan(self, game: Game, seat: int) -> set[int]:
        state = game.state
        game_map = game.map
        player = state.players[seat]
        owned = set(player.routes)
        open_ids = {r.id for r in game.rules.claimable_routes(state, seat)}
        unavailable = {r.id for r in game_map.routes if r.id not in open_ids and r.id not in owned}
        wanted: set[int] = set()
        for ticket_id in player.tickets:
            try:
                wanted.update(plan_ticket_legs(game_map, ticket_id, owned, unavailable)[1])
            except TicketUnreachableError:
                continue
        return wanted

    # ---------------------------------------------------------------- moves
    def choose(self, game: Game) -> Any:
        """The policy's move in ``game``.

        An ordinary turn looks only at the planned routes and the card draws (through
        the rules' own hooks: ``route_problem``, ``payments``, ``pickup_options``,
        ``card_draws``, ``ticket_draws``) instead of listing every legal action: a
        player holding many cards has hundreds of ways to pay for the routes it does
        not want. Anything unusual goes through ``legal_actions``.
        """
        state = game.state
        pending = state.pending
        if state.phase != "play" or pending not in (None, "second_card"):
            return self.greedy.choose(game)  # tickets to keep, setup choices: rare
        rules = game.rules
        seat = state.current
        wanted = self.wanted(game, seat)
        if pending is None:
            claim = self._planned_claim(game, seat, wanted)
            if claim is not None:
                return claim
            if not wanted or state.final_turns_left is not None:
                pieces = sum(state.players[seat].pieces.values())
                if not wanted and pieces > TICKET_DRAW_PIECES:
                    draws = rules.ticket_draws(state)
                    if draws:
                        return draws[0]
                claim = self._best_scoring(game, seat)
                if claim is not None:
                    return claim
        # The fast path's shared draw actions (made and checked once), unless in reference mode.
        listing = rules.card_draws if rules.reference else rules.fast.card_draws
        draws = listing(state, second=pending == "second_card")
        action = self._card_draw(game, wanted, draws)
        if action is not None:
            return action
        if pending is None:  # no card to draw: any claim rather than listing every move
            claim = self._best_scoring(game, seat)
            if claim is not None:
                return claim
        legal = game.legal_actions()
        others = [a for a in legal if type(a) in (DrawFaceUp, ClaimRoute)]
        if others:
            return self.rng.choice(others)
        return self.rng.choice([a for a in legal if type(a) is not Pass] or legal)

    def _planned_claim(self, game: Game, seat: int, wanted: set[int]) -> ClaimRoute | None:
        """The longest planned route ``seat`` can claim now, paid with the fewest wilds."""
        if not wanted:
            return None
        state = game.state
        rules = game.rules
        hand = state.players[seat].hand
        reach = rules.claim_reach(hand)
        wild = rules.cards
        best = None
        best_key = None
        route_by_id = game.map.route_by_id
        # Longest first (ties: by id, as before), so that once one can be paid for no
        # shorter route's payments are listed (World's pair routes have many).
        for rid in sorted(wanted, key=lambda r: (-route_by_id[r].length, r)):
            route = route_by_id[rid]
            if best_key and route.length < best_key[0]:
                break
            if route.length > reach:
                continue
            if rules.route_problem(state, seat, route) is not None:
                continue
            for pay in rules.payments(hand, route):
                key = (route.length, -sum(n for c, n in pay if wild[c].wild))
                if best_key is None or key > best_key:
                    best, best_key = (route, pay), key
                    if not key[1]:
                        break  # no wild at all: no later payment can beat it
            if best_key is not None and not best_key[1]:
                break  # nor can a later route of this length: skip listing its payments
        if best is None:
            return None
        route, pay = best
        return self.with_pickups(game, route, pay)

    def with_pickups(self, game: Game, route: Any, pay: Any) -> ClaimRoute:
        """The claim of ``route`` paid with ``pay``, taking what the variant values most
        (Germany: the passengers its ``claim_bonus`` rates best; the first option when the
        variant has no such hook or nothing to choose)."""
        options = game.rules.pickup_options(game.state, route)
        claim = ClaimRoute.trusted  # the rules' own payments: already in normal form
        if len(options) == 1:
            return claim(route.id, pay, options[0])
        bonus = variant_hook(game.rules.name, "claim_bonus")
        claims = [claim(route.id, pay, pick) for pick in options]
        if bonus is None:
            return claims[0]
        return max(claims, key=lambda claim: bonus(game, claim))

    def _card_draw(self, game: Game, wanted: set[int], draws: list[Any]) -> Any:
        """A face-up card the plan needs (or a wild first card), else the deck it needs most."""
        state = game.state
        rules = game.rules
        cards = rules.cards
        route_by_id = game.map.route_by_id
        needed = set()
        need_deck: dict[str, int] = dict.fromkeys(rules.deck_names, 0)
        for rid in wanted:
            route = route_by_id[rid]
            needed.add((route.kind, route.color))
            need_deck[route.kind] = need_deck.get(route.kind, 0) + route.length
        first = state.pending is None
        face_up = state.face_up
        blind = None
        for action in draws:
            kind = type(action)
            if kind is DrawFaceUp:
                card = cards[face_up[action.slot]]
                if (card.deck, card.color) in needed or (card.wild and first):
                    return action
            elif kind is DrawBlind and (
                blind is None or need_deck.get(action.deck, 0) > need_deck.get(blind.deck, 0)
            ):
                blind = action
        return blind

    def _best_scoring(self, game: Game, seat: int) -> ClaimRoute | None:
        """The longest route ``seat`` can claim now, paid with the fewest wild cards (routes
        looked at longest first, so that a board's many ways to pay for short routes, World's
        pair routes above all, are not listed)."""
        state = game.state
        rules = game.rules
        hand = state.players[seat].hand
        wild = rules.cards
        routes = rules.claimable_routes(state, seat, rules.claim_reach(hand))
        routes.sort(key=lambda r: -r.length)  # stable: map order among equals
        for route in routes:  # the first (longest, map order) that can be paid for
            pays = rules.payments(hand, route)
            if pays:
                pay = min(pays, key=lambda p: sum(n for c, n in p if wild[c].wild))
                return self.with_pickups(game, route, pay)
        return None

    def play_out(self, game: Game, max_actions: int = 2000) -> Game:
        """Play ``game`` to its end with this policy for every seat (in place)."""
        apply = game.apply
        choose = self.choose
        for _ in range(max_actions):
            if game.is_over:
                break
            apply(choose(game))
        return game
