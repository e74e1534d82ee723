"""My plan: the fewest spaces still to claim that complete the seat's open tickets.

The plan is a minimum Steiner forest (:func:`ttr_nb.algorithms.steiner_forest`) over
the routes the seat may still use, with its own routes free. It comes with what it
costs in cards and turns, the tickets it cannot reach any more, what each ticket adds
to it (a cheaper plan that drops a ticket), and, when the seat's pieces do not cover
it, the best set of tickets that fits.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..algorithms import SteinerForest, steiner_forest
from ..algorithms.steiner import MAX_EXACT_WORK
from ..game import Game
from ..maps import Map
from .hint import plural_s
from .lessons import ALGORITHMS, Algorithm
from .supply import pieces_words, shortfall
from .view import board_of, demand_of, unavailable_to

__all__ = ["CardNeed", "Drop", "Plan", "TicketNote", "my_plan", "ticket_name"]

CARDS_PER_TURN = 2  # a draw turn takes two cards (a face-up wild: one)
FIT_TRIES = 1  # plans tried in full for the tickets that fit (then small exact or approximate)
MAX_FIT_TRIES = 12  # sets of tickets tried, best first, when the pieces fit kind by kind only


def ticket_name(game_map: Map, ticket_id: int) -> str:
    """``Denver → El Paso``; a tour: ``Tehran → Lahore → ...`` (as the app writes tickets)."""
    ticket = game_map.ticket_by_id[ticket_id]
    return " → ".join(game_map.place_name(c) for c in ticket.cities)


@dataclass(frozen=True)
class TicketNote:
    """A ticket as the coach names it: id, words, points, and the routes of the plan
    that serve it."""

    id: int
    name: str
    points: int
    penalty: int
    routes: tuple[int, ...] = ()

    @classmethod
    def of(cls, game_map: Map, ticket_id: int, routes: tuple[int, ...] = ()) -> TicketNote:
        """The note for ticket ``ticket_id`` of ``game_map`` (a tour: its any-order value and
        penalty)."""
        ticket = game_map.ticket_by_id[ticket_id]
        tour = ticket.tour_values
        points = tour["any_order"] if tour else ticket.points
        penalty = tour["penalty"] if tour else ticket.points
        return cls(ticket_id, ticket_name(game_map, ticket_id), points, penalty, routes)

    def to_dict(self) -> dict[str, Any]:
        """The ticket as plain JSON data."""
        return {
            "id": self.id,
            "name": self.name,
            "points": self.points,
            "penalty": self.penalty,
            "routes": list(self.routes),
        }


@dataclass(frozen=True)
class CardNeed:
    """Cards of one deck and colour the plan needs (``any`` for gray routes: any one
    colour per route), and how many of them the seat holds."""

    deck: str
    colour: str
    cards: int
    held: int

    def to_dict(self) -> dict[str, Any]:
        """The need as plain JSON data."""
        return {"deck": self.deck, "colour": self.colour, "cards": self.cards, "held": self.held}


@dataclass(frozen=True)
class Drop:
    """A cheaper plan without one ticket: the spaces it saves (``exact`` False: at least
    this many, from the current plan)."""

    ticket: TicketNote
    saves: int
    exact: bool

    def to_dict(self) -> dict[str, Any]:
        """The drop as plain JSON data."""
        return {"ticket": self.ticket.to_dict(), "saves_spaces": self.saves, "exact": self.exact}


@dataclass(frozen=True)
class Plan:
    """The coach's plan for one seat (see the module text).

    Attributes
    ----------
    routes : tuple of int
        Routes still to claim, in board order.
    spaces : int
        Their total length.
    spaces_by_kind : dict
        Spaces by kind of piece (trains; ships on the World map).
    pieces : dict
        The seat's pieces left, by kind.
    cards : tuple of CardNeed
        Cards needed by deck and colour, with what the seat holds.
    wilds_held : int
        Wild cards in the seat's hand (they stand in for any colour).
    cards_missing : int
        About how many cards are still to draw.
    turns : int
        About how many turns the plan takes: one per claim, plus the draws.
    exact : bool
        The plan is the cheapest one (False: an approximation).
    lower_bound : int
        No plan needs fewer spaces.
    reachable, unreachable, completed : tuple of TicketNote
        Open tickets the plan completes, those no plan can complete any more, and
        those done already.
    drops : tuple of Drop
        What each reachable ticket adds to the plan completing them all, most first.
    fitting : tuple of int or None
        When the pieces do not cover the plan completing every reachable ticket: the
        tickets of the best plan that fits, which is then the plan (its routes, spaces,
        cards and turns); None when the pieces cover it.
    algorithm : Algorithm
    forest : SteinerForest
        The plan's forest; its demands are ``tickets``, by index.
    unavailable : frozenset
        Routes closed to the seat (claimed by others, closed double tracks).
    tickets : tuple of int
        The tickets the forest plans for (all those held, or the ones that fit).
    full_spaces : int
        Spaces of the cheapest plan completing every reachable ticket (``spaces`` when
        the pieces cover it).
    given_up : tuple of TicketNote
        Reachable tickets the plan that fits gives up.
    """

    seat: int
    routes: tuple[int, ...]
    spaces: int
    spaces_by_kind: dict[str, int]
    pieces: dict[str, int]
    cards: tuple[CardNeed, ...]
    wilds_held: int
    cards_missing: int
    turns: int
    exact: bool
    lower_bound: int
    reachable: tuple[TicketNote, ...]
    unreachable: tuple[TicketNote, ...]
    completed: tuple[TicketNote, ...]
    drops: tuple[Drop, ...]
    fitting: tuple[int, ...] | None
    algorithm: Algorithm
    forest: SteinerForest = field(repr=False)
    unavailable: frozenset = field(repr=False, default=frozenset())
    tickets: tuple[int, ...] = ()
    full_spaces: int = 0
    given_up: tuple[TicketNote, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The plan as plain JSON data."""
        return {
            "routes": list(self.routes),
            "spaces": self.spaces,
            "spaces_by_kind": dict(self.spaces_by_kind),
            "pieces": dict(self.pieces),
            "cards": [c.to_dict() for c in self.cards],
            "wilds_held": self.wilds_held,
            "cards_missing": self.cards_missing,
            "turns": self.turns,
            "exact": self.exact,
            "lower_bound": self.lower_bound,
            "tickets_reachable": [t.to_dict() for t in self.reachable],
            "tickets_unreachable": [t.to_dict() for t in self.unreachable],
            "tickets_completed": [t.to_dict() for t in self.completed],
            "drops": [d.to_dict() for d in self.drops],
            "fitting_tickets": None if self.fitting is None else list(self.fitting),
            "full_spaces": self.full_spaces,
            "tickets_given_up": [t.to_dict() for t in self.given_up],
            "algorithm": self.algorithm.to_dict(),
        }

    def lines(self, game: Game) -> list[str]:
        """The plan in words: what fits the seat's pieces first."""
        game_map = game.map
        out = []
        supply = pieces_words(self.pieces)
        if not self.reachable:
            if self.given_up:
                out.append(
                    f"Your {supply} cannot complete any of your open tickets: the cheapest "
                    f"plan needs {_spaces_words(self.full_spaces)}. Each ticket left open "
                    "costs its points at the end:"
                )
                out.append("  " + ", ".join(f"{t.name} (−{t.penalty})" for t in self.given_up))
            elif self.completed and not self.unreachable:
                out.append("Every ticket you hold is complete: nothing left to claim for them.")
            elif not self.completed and not self.unreachable:
                out.append("You hold no tickets yet.")
        else:
            if self.given_up:
                how = "the plan that keeps the most ticket points within your pieces"
                lead = f"Within your {supply}: claim"
            else:
                how = "the cheapest plan"
                lead = "Claim"
            if not self.exact:
                how = f"approximate: the best plan needs at least {self.lower_bound}"
            out.append(
                f"{lead} {len(self.routes)} route{plural_s(len(self.routes))}, "
                f"{_spaces_words(self.spaces)} ({how}), "
                f"about {self.turns} turn{plural_s(self.turns)}:"
            )
            out.append(
                "  " + ", ".join(game_map.route_label(game_map.route_by_id[r]) for r in self.routes)
            )
            if len(self.spaces_by_kind) > 1:
                kinds = ", ".join(
                    f"{n} {k} space{plural_s(n)}" for k, n in sorted(self.spaces_by_kind.items())
                )
                out.append(f"  That is {kinds}.")
            out.append(self._cards_line(game))
            left = _turns_left(game, self.seat)
            if left is not None and left < self.turns:
                out.append(
                    f"The last round has begun: you have {left} turn{plural_s(left)} left, fewer "
                    "than the plan takes; claim what you can pay for now."
                )
            done = ", ".join(f"{t.name} ({t.points})" for t in self.reachable)
            out.append(f"It completes: {done}.")
            if self.given_up:
                out.append(
                    f"It gives up {_names(self.given_up)} (−"
                    + ", −".join(str(t.penalty) for t in self.given_up)
                    + f" at the end): completing every ticket would take "
                    f"{_spaces_words(self.full_spaces)}, more than your pieces allow."
                )
        for t in self.unreachable:
            out.append(
                f"Out of reach: {t.name} (no usable routes join it; −{t.penalty} at the end)."
            )
        worth = [d for d in self.drops if d.saves > 0] if not self.given_up else []
        for d in worth[:2]:
            bound = "" if d.exact else "at least "
            out.append(
                f"A cheaper plan drops {d.ticket.name}: {bound}{d.saves} space{plural_s(d.saves)} "
                f"fewer, but its {d.ticket.points} points become −{d.ticket.penalty}."
            )
        if self.completed:
            out.append("Done already: " + _names(self.completed) + ".")
        return out

    def _cards_line(self, game: Game) -> str:
        """The cards the plan needs, by colour, against the hand."""
        decks = len(game.rules.deck_names) > 1
        needs = []
        for c in self.cards:
            deck = f" {c.deck}" if decks else ""
            if c.colour == "any":
                needs.append(
                    f"{c.cards}{deck} card{plural_s(c.cards)} for gray routes (each in one "
                    f"colour of your choice; you hold {c.held} of your commonest colour)"
                )
            else:
                needs.append(f"{c.cards} {c.colour}{deck} (you hold {c.held})")
        return (
            f"Cards: {'; '.join(needs)}; {self.wilds_held} wild card{plural_s(self.wilds_held)} "
            f"in hand; about {self.cards_missing} card{plural_s(self.cards_missing)} still to "
            "draw."
        )


def _turns_left(game: Game, seat: int) -> int | None:
    """The seat's turns left in the last round, the current one included (None before
    the last round)."""
    state = game.state
    if state.final_turns_left is None:
        return None
    n = game.num_players
    return sum((state.current + k) % n == seat for k in range(state.final_turns_left))


def _spaces_words(n: int) -> str:
    return f"{n} space{plural_s(n)}"


def _names(tickets: Any) -> str:
    return ", ".join(t.name for t in tickets)


def my_plan(view: Game, seat: int) -> Plan:
    """The plan for ``seat`` in ``view`` (a :func:`~ttr_nb.coach.view.seat_view`).

    Examples
    --------
    >>> from ttr_nb import new_game
    >>> from ttr_nb.coach.view import seat_view
    >>> game = new_game("usa", 2, seed=3)
    >>> game.apply(game.legal_actions()[-1])  # the first player keeps all three tickets
    >>> plan = my_plan(seat_view(game, 0), 0)
    >>> plan.exact, len(plan.reachable), plan.spaces == sum(
    ...     game.map.route_by_id[r].length for r in plan.routes)
    (True, 3, True)
    """
    game_map = view.map
    state = view.state
    player = state.players[seat]
    tickets = list(player.tickets)
    unavailable = unavailable_to(view, seat)
    owned = frozenset(player.routes)

    def plan_for(ticket_ids: list[int], work: int = MAX_EXACT_WORK) -> SteinerForest:
        return steiner_forest(
            board_of(game_map),
            [demand_of(game_map, t) for t in ticket_ids],
            owned=owned,
            unavailable=unavailable,
            dead_ends=game_map.dead_ends,
            max_exact_work=work,
        )

    full = plan_for(tickets)
    open_ids = [i for i in range(len(tickets)) if i not in full.completed + full.unreachable]
    drops = _drops(full, tickets, game_map)
    forest, shown, fitting = full, tickets, None
    if open_ids and shortfall(view, seat, _by_kind(view, full.route_ids)):
        kept, forest = _fitting(view, seat, full, tickets, drops, plan_for)
        shown = [tickets[i] for i in kept]
        fitting = tuple(sorted(shown))
    routes = [game_map.route_by_id[r] for r in forest.route_ids]
    by_kind = _by_kind(view, forest.route_ids)
    cards, wilds, missing = card_needs(view, seat, forest.route_ids)
    reachable = tuple(
        TicketNote.of(game_map, shown[i], forest.demand_routes.get(i, ()))
        for i in range(len(shown))
        if i not in forest.completed and i not in forest.unreachable
    )
    given_up = tuple(
        TicketNote.of(game_map, tickets[i]) for i in open_ids if tickets[i] not in shown
    )
    return Plan(
        seat=seat,
        routes=forest.route_ids,
        spaces=forest.spaces,
        spaces_by_kind={k: n for k, n in by_kind.items() if n or len(by_kind) == 1},
        pieces=dict(player.pieces),
        cards=cards,
        wilds_held=wilds,
        cards_missing=missing,
        turns=len(routes) + math.ceil(missing / CARDS_PER_TURN),
        exact=forest.exact and full.exact,
        lower_bound=forest.lower_bound,
        reachable=reachable,
        unreachable=tuple(TicketNote.of(game_map, tickets[i]) for i in full.unreachable),
        completed=tuple(TicketNote.of(game_map, tickets[i]) for i in full.completed),
        drops=drops,
        fitting=fitting,
        algorithm=ALGORITHMS["steiner-exact" if forest.exact else "steiner-greedy"],
        forest=forest,
        unavailable=unavailable,
        tickets=tuple(shown),
        full_spaces=full.spaces,
        given_up=given_up,
    )


def _by_kind(view: Game, route_ids: tuple[int, ...]) -> Counter[str]:
    """Spaces of the routes by kind of piece (every kind of the variant listed)."""
    by_kind = Counter({kind: 0 for kind in view.rules.deck_names})
    for rid in route_ids:
        route = view.map.route_by_id[rid]
        by_kind[route.kind] += route.length
    return by_kind


def card_needs(
    view: Game, seat: int, route_ids: tuple[int, ...]
) -> tuple[tuple[CardNeed, ...], int, int]:
    """Cards the routes need, by deck and colour, against the seat's hand: the needs,
    the wild cards held and about how many cards are still missing.

    A gray route takes any one colour: each is matched, longest first, with the colour
    the hand holds most of (after the coloured routes took theirs); wild cards fill in
    the rest. A World pair route takes two Train cards a space, and a Double-Ship card
    covers two spaces.
    """
    rules = view.rules
    hand = view.state.players[seat].hand
    held: Counter[tuple[str, str]] = Counter()
    wilds = 0
    for cid, n in hand.items():
        card = rules.cards[cid]
        if card.wild:
            wilds += n
        elif not card.passenger:
            held[(card.deck, card.color)] += n * card.spaces
    coloured: Counter[tuple[str, str]] = Counter()
    gray: list[tuple[str, int]] = []
    for rid in route_ids:
        route = view.map.route_by_id[rid]
        cards = route.length * (2 if route.pair else 1)
        if route.color == "gray":
            gray.append((route.kind, cards))
        else:
            coloured[(route.kind, route.color)] += cards
    spare = Counter(held)
    covered = 0
    for key, need in coloured.items():
        use = min(need, spare[key])
        covered += use
        spare[key] -= use
    for deck, need in sorted(gray, key=lambda g: -g[1]):
        options = [k for k in spare if k[0] == deck]
        best = max(options, key=lambda k: spare[k], default=None)
        if best is not None:
            use = min(need, spare[best])
            covered += use
            spare[best] -= use
    total = sum(coloured.values()) + sum(n for _, n in gray)
    missing = max(0, total - covered - wilds)
    needs = [CardNeed(d, c, n, held[(d, c)]) for (d, c), n in sorted(coloured.items())]
    gray_by_deck: Counter[str] = Counter()
    for deck, n in gray:
        gray_by_deck[deck] += n
    needs += [
        CardNeed(d, "any", n, max((held[k] for k in held if k[0] == d), default=0))
        for d, n in sorted(gray_by_deck.items())
    ]
    return tuple(needs), wilds, missing


def _drops(forest: SteinerForest, tickets: list[int], game_map: Map) -> tuple[Drop, ...]:
    """What each reachable ticket adds to the plan. Exact plans give it for free (the
    best forest of every subset of the tickets); otherwise the plan's routes that only
    this ticket needs (at least that much is saved)."""
    open_ids = [
        i for i in range(len(tickets)) if i not in forest.completed and i not in forest.unreachable
    ]
    if len(open_ids) < 2:
        return ()
    everything = frozenset(open_ids)
    shared: Counter[int] = Counter(r for i in open_ids for r in forest.needs.get(i, ()))
    out = []
    for i in open_ids:
        if forest.exact:
            saves = forest.spaces - forest.subset_spaces[everything - {i}]
        else:  # the routes only this ticket needs: at least that much is saved
            alone = [r for r in forest.needs.get(i, ()) if shared[r] == 1]
            saves = sum(game_map.route_by_id[r].length for r in alone)
        note = TicketNote.of(game_map, tickets[i], forest.demand_routes.get(i, ()))
        out.append(Drop(note, saves, forest.exact))
    out.sort(key=lambda d: (-d.saves / max(d.ticket.points + d.ticket.penalty, 1), d.ticket.id))
    return tuple(out)


def _fitting(
    view: Game,
    seat: int,
    full: SteinerForest,
    tickets: list[int],
    drops: tuple[Drop, ...],
    plan_for: Callable[[list[int], int], SteinerForest],
) -> tuple[tuple[int, ...], SteinerForest]:
    """When the pieces do not cover ``full``: the tickets (indices) of the best plan that
    fits, most points kept (plus the penalties avoided) first, and that plan.

    Exact plans know the spaces of every subset of the tickets: the subsets within the
    seat's pieces in all are tried, best first, until one's plan fits kind by kind (one
    kind of piece: the first). Otherwise tickets are given up, those saving most spaces
    a point first, until the plan without their own routes fits in all, and from there
    until the plan made again for the rest fits kind by kind."""
    total = sum(view.state.players[seat].pieces.values())
    value = {i: _stake(view.map, tickets[i]) for i in full.needs}
    if full.exact:
        candidates = sorted(
            (s for s, spaces in full.subset_spaces.items() if spaces <= total),
            key=lambda s: (-sum(value[i] for i in s), full.subset_spaces[s], sorted(s)),
        )
    else:
        # The plan without a ticket's own routes still serves the others: give up tickets
        # until that fits, then plan the rest again (a plan per candidate would cost a
        # greedy forest of many tickets each).
        kept = list(value)
        candidates = []
        spaces = full.spaces
        index = {t: i for i, t in enumerate(tickets)}
        for drop in sorted(drops, key=lambda d: -d.saves / max(value[index[d.ticket.id]], 1)):
            kept.remove(index[drop.ticket.id])
            spaces -= drop.saves
            if spaces <= total:
                candidates.append(frozenset(kept))
    if len(candidates) > MAX_FIT_TRIES:  # then the single tickets, cheap to plan exactly
        candidates = candidates[:MAX_FIT_TRIES] + [c for c in candidates if len(c) <= 1]
    for tried, subset in enumerate(candidates):
        kept_ids = sorted(subset)
        # Past FIT_TRIES plans, exact ones only while small (a plan that fits still fits).
        work = MAX_EXACT_WORK if tried < FIT_TRIES else MAX_EXACT_WORK // 8
        forest = plan_for([tickets[i] for i in kept_ids], work)
        if not shortfall(view, seat, _by_kind(view, forest.route_ids)):
            return tuple(kept_ids), forest
    return (), plan_for([], 0)


def _stake(game_map: Map, ticket_id: int) -> int:
    """What completing a ticket is worth against leaving it open: points plus penalty."""
    note = TicketNote.of(game_map, ticket_id)
    return note.points + note.penalty
