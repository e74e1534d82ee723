"""The engine's fast path: the same legal actions, in the same order, for less work.

:meth:`Rules.legal_actions` runs before every move of every game, and a search bot
runs it hundreds of thousands of times per decision. The plain way to list the
claims (kept as the reference, see :meth:`Rules.reference_mode`) asks, for every
open route, for every way the hand can pay for it. This module lists the same
actions with less work:

* **Payment classes.** Routes with the same payment class (by default: the cards
  that fit them and their length) have the same payments for every hand, so the
  payments are computed once per class (:meth:`Rules.payment_class`), and a class the
  hand cannot pay rules out all its routes at once.
* **Memos by capped counts.** The base rules' payments for a class depend only on the
  counts of the fitting cards, each counted up to the route's length; those capped
  counts recur across turns and games, so the payments and the claim actions made of
  them are remembered (in a bounded memo).
* **Routes by length.** Only the classes no longer than the hand's reach are looked
  at; the routes are still listed in map order.
* **Prebuilt actions.** Card draws, ticket draws and kept-ticket choices are built
  once and shared (actions are immutable); they are marked as well formed, so
  :func:`~ttr_nb.actions.shape_problem` does not check their fields again (the
  rules still check every action before it is carried out).
* **Log lines by key.** A log line is decided by a few values (the player's name,
  the action, the face-up card taken, ...): :meth:`Rules.log_key` names them, and
  the line is built once per key.

Every list this module makes equals the reference's (same actions, same order):
``tests/test_fastpath.py`` compares them move by move on seeded games of every map,
and with digests recorded from the engine before the fast path existed.

A variant overrides the hooks it needs; where a variant changes how payments are
found (:meth:`Rules.payments`) without saying what they depend on
(:meth:`Rules.payment_class`), each route is its own class, and where it changes how
actions are described without overriding :meth:`Rules.log_key`, its lines are
built every time. So a new variant is correct first and fast when it says how.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from itertools import combinations
from typing import TYPE_CHECKING, Any

from ..actions import (
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
    Pickups,
    mark_well_formed,
)

if TYPE_CHECKING:
    from ..game import Game
    from ..maps import Route
    from ..state import GameState, PlayerState
    from .base import Rules

MEMO_LIMIT = 20_000  # hands (or log keys) remembered before a memo starts afresh

NO_PICKUPS: tuple[Pickups, ...] = ((),)
"""The pickup options of a claim with nothing to choose (compared by identity)."""

PASS_ONLY = mark_well_formed(Pass())


class HandMemo:
    """A variant's own lists remembered for one hand (World: its harbor payments)."""

    __slots__ = ("extra",)

    def __init__(self) -> None:
        self.extra: dict[Hashable, Any] = {}


class PaidClass:
    """The payments for one payment class and hand, and the claims made of them by route."""

    __slots__ = ("pays", "claims")

    def __init__(self, pays: tuple) -> None:
        self.pays = pays
        self.claims: dict[int, tuple[ClaimRoute, ...]] = {}


def _first(item: tuple[int, Any]) -> int:
    return item[0]


def defined_in(cls: type, name: str) -> type:
    """The class of ``cls``'s MRO that defines attribute ``name``."""
    for klass in cls.__mro__:
        if name in klass.__dict__:
            return klass
    raise AttributeError(name)


class FastPath:
    """Tables and memos for one :class:`Rules` object (one map); see the module text."""

    def __init__(self, rules: Rules) -> None:
        from .base import Rules

        self.rules = rules
        game_map = rules.map
        cls = type(rules)
        self.card_ids = tuple(c.id for c in game_map.card_types)
        # Cards that end a draw when taken face up (refused as a second card): a property of
        # the card kind (Rules.ends_draw), looked up once.
        self.ends_draw = {c.id: rules.ends_draw(c.id) for c in game_map.card_types}
        # A variant that finds payments its own way but does not say what they depend on
        # gets one class per route (correct, if slower).
        by_route = (
            defined_in(cls, "payments") is not Rules
            and defined_in(cls, "payment_class") is FastHooks
        )
        rows = []
        for route in game_map.routes:
            klass = ("route", route.id) if by_route else rules.payment_class(route)
            rows.append(
                (route, route.id, route.length, route.kind, rules.parallel[route.id], klass)
            )
        longest = max((r.length for r in game_map.routes), default=0)
        # rows_upto[n]: the routes of length n or less, in map order
        self.rows_upto = [tuple(row for row in rows if row[2] <= n) for n in range(longest + 1)]
        self.longest = longest
        self.hands: dict[tuple[int, ...], HandMemo] = {}
        # The base rules' payments depend only on the counts of the cards that fit a route,
        # each counted up to the route's length: those capped counts key the memo (a
        # variant with its own payments gets them computed once per class and call).
        self.capped = defined_in(cls, "payments") is Rules
        self.fitting = {row[1]: rules.fitting[row[1]] for row in rows} if self.capped else {}
        self.paid: dict[Hashable, PaidClass] = {}
        # The payment classes, each with its routes (as indices of ``rows``, map order), by
        # length: a hand's payments are looked up once per class, and the routes of the
        # classes it cannot pay are never looked at.
        self.rows = rows
        members: dict[Hashable, list[int]] = {}
        for i, row in enumerate(rows):
            members.setdefault(row[5], []).append(i)
        classes = []
        for klass, indices in members.items():
            route = rows[indices[0]][0]
            colour_ids = rules.fitting[route.id][0] if self.capped else ()
            classes.append((klass, route, route.length, colour_ids, tuple(indices)))
        self.classes_upto = [tuple(c for c in classes if c[2] <= n) for n in range(longest + 1)]
        self.wild_ids = tuple(c.id for c in game_map.card_types if c.wild)
        self.keeps: dict[tuple[tuple[int, ...], int], tuple[KeepTickets, ...]] = {}
        self.face_up = {
            (slot, deck): mark_well_formed(DrawFaceUp(slot, deck))
            for slot in range(rules.face_up_slots)
            for deck in rules.deck_names
        }
        self.blind = {deck: mark_well_formed(DrawBlind(deck)) for deck in rules.deck_names}
        self.ticket_draws = {k: mark_well_formed(DrawTickets(k)) for k in range(8)}
        self.plain_draws = defined_in(cls, "card_draws") is Rules
        self.plain_keeps = defined_in(cls, "keep_options") is Rules
        # Log lines are remembered only when log_key is at least as specific as every
        # method that words an action.
        key_owner = defined_in(cls, "log_key")
        if key_owner is FastHooks:
            key_owner = Rules
        self.log_by_key = all(
            issubclass(key_owner, defined_in(cls, name))
            for name in ("describe", "pickup_text", "describe_extra")
        )
        self.lines: dict[Hashable, str] = {}

    # ----------------------------------------------------------------- hands
    def hand_memo(self, hand: dict[str, int]) -> HandMemo:
        """The memo of this hand (by its card counts), made on first use."""
        key = tuple(map(hand.__getitem__, self.card_ids))
        memo = self.hands.get(key)
        if memo is None:
            if len(self.hands) >= MEMO_LIMIT:
                self.hands.clear()
            memo = self.hands[key] = HandMemo()
        return memo

    # --------------------------------------------------------------- listing
    def legal_actions(self, game: Game) -> list[Any]:
        """:meth:`Rules.legal_actions` of the base rules, listed the fast way."""
        rules = self.rules
        state = game.state
        if state.phase == "over":
            return []
        player = state.players[state.current]
        if state.pending == "keep_tickets":
            return self.keep_options(state, player)
        if state.pending == "second_card":
            return self.card_draws(state, second=True)
        actions = self.card_draws(state, second=False)
        actions.extend(rules.ticket_draws(state))
        actions.extend(self.claims(state, state.current, player.hand))
        actions.extend(rules.extra_actions(game))
        return actions or [PASS_ONLY]

    def claims(self, state: GameState, seat: int, hand: dict[str, int]) -> list[ClaimRoute]:
        """Every claim open to ``seat`` with ``hand``: routes in map order, then payments in
        :meth:`Rules.payments` order, then pickups in :meth:`Rules.pickup_options` order."""
        rules = self.rules
        reach = rules.claim_reach(hand)
        if reach <= 0:
            return []
        owner = state.owner
        pieces = state.players[seat].pieces
        closes = len(state.players) <= rules.closed_parallel_max_players
        pickup_options = rules.pickup_options
        class_payments = self.class_payments
        capped = self.capped
        wilds = 0
        for w in self.wild_ids:
            wilds += hand.get(w, 0)
        payable: list[tuple[int, PaidClass]] = []
        for klass, route, need, colour_ids, members in self.classes_upto[min(reach, self.longest)]:
            if capped and wilds < need:
                # A quick necessary condition: some fitting colour, with every wild card,
                # is enough (most classes fail it on most turns).
                for c in colour_ids:
                    held = hand[c]
                    if held and held + wilds >= need:
                        break
                else:
                    continue
            paid = class_payments(hand, route, klass)
            if paid.pays:
                payable.extend((i, paid) for i in members)
        if not payable:
            return []
        payable.sort(key=_first)
        rows = self.rows
        no_pickups = NO_PICKUPS
        out: list[ClaimRoute] = []
        for i, paid in payable:
            route, rid, length, kind, parallel, _klass = rows[i]
            if rid in owner or pieces.get(kind, 0) < length:
                continue
            if parallel:
                blocked = False
                for other in parallel:
                    holder = owner.get(other)
                    if holder is not None and (closes or holder == seat):
                        blocked = True
                        break
                if blocked:
                    continue
            options = pickup_options(state, route)
            if options is no_pickups:
                made = paid.claims.get(rid)
                if made is None:
                    made = paid.claims[rid] = tuple(
                        mark_well_formed(ClaimRoute.trusted(rid, pay)) for pay in paid.pays
                    )
                out.extend(made)
            else:
                out.extend(
                    mark_well_formed(ClaimRoute.trusted(rid, pay, pick))
                    for pay in paid.pays
                    for pick in options
                )
        return out

    def class_payments(self, hand: dict[str, int], route: Route, klass: Hashable) -> PaidClass:
        """The payments of ``hand`` for the routes of payment class ``klass`` (``route`` is
        one of them), with the claims built from them so far."""
        if not self.capped:
            return PaidClass(tuple(self.rules.payments(hand, route)))
        need = route.length
        colour_ids, wild_ids = self.fitting[route.id]
        key = (
            klass,
            tuple([n if n < need else need for n in map(hand.__getitem__, colour_ids)]),
            tuple([n if n < need else need for n in map(hand.__getitem__, wild_ids)]),
        )
        paid = self.paid.get(key)
        if paid is None:
            if len(self.paid) >= MEMO_LIMIT:
                self.paid.clear()
            paid = self.paid[key] = PaidClass(tuple(self.rules.payments(hand, route)))
        return paid

    def card_draws(self, state: GameState, second: bool) -> list[Any]:
        rules = self.rules
        if not self.plain_draws:
            return rules.card_draws(state, second)
        refills = rules.refill_choices(state)
        table = self.face_up
        ends_draw = self.ends_draw
        try:
            draws: list[Any] = [
                table[slot, refill]
                for slot, card in enumerate(state.face_up)
                if card is not None and not (second and ends_draw[card])
                for refill in refills
            ]
        except KeyError:  # an unusual row (a hand-made position): build them plainly
            return rules.card_draws(state, second)
        blind = self.blind
        draws.extend(blind[d] for d in rules.deck_names if rules.can_draw_blind(state, d))
        return draws

    def keep_options(self, state: GameState, player: PlayerState) -> list[KeepTickets]:
        rules = self.rules
        if not self.plain_keeps:
            return rules.keep_options(state, player)
        least = rules.min_keep(state, player)
        key = (tuple(player.offer), least)
        made = self.keeps.get(key)
        if made is None:
            if len(self.keeps) >= MEMO_LIMIT:
                self.keeps.clear()
            made = self.keeps[key] = tuple(
                mark_well_formed(KeepTickets(combo))
                for size in range(least, len(player.offer) + 1)
                for combo in combinations(player.offer, size)
            )
        return list(made)

    def ticket_draw(self, long: int) -> DrawTickets:
        """The shared ``DrawTickets(long)`` action."""
        made = self.ticket_draws.get(long)
        return made if made is not None else mark_well_formed(DrawTickets(long))

    # ------------------------------------------------------------------- log
    def log_line(self, game: Game, action: Any) -> str:
        """The log line of ``action`` (legal, about to be carried out): :meth:`Rules.describe`,
        remembered by :meth:`Rules.log_key` where the rules allow it."""
        rules = self.rules
        key = rules.log_key(game, action) if self.log_by_key else None
        if key is None:
            return rules.describe(game, action)
        line = self.lines.get(key)
        if line is None:
            if len(self.lines) >= MEMO_LIMIT:
                self.lines.clear()
            line = self.lines[key] = rules.describe(game, action)
        return line


class FastHooks:
    """The hooks of :class:`~ttr_nb.rules.base.Rules` that the fast path uses (a base
    class of it, kept here beside the fast path): its tables, the reference switch, the
    payment classes and the log-line keys."""

    reference: bool
    _fast: FastPath | None
    fitting: dict[int, tuple[tuple[str, ...], tuple[str, ...]]]

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return self  # shared by every game on the map: it holds no game state, only caches

    @property
    def fast(self) -> FastPath:
        """The fast path's tables and memos (this module), made on first use."""
        if self._fast is None:
            self._fast = FastPath(self)  # type: ignore[arg-type]
        return self._fast

    @contextmanager
    def reference_mode(self) -> Iterator[None]:
        """List actions the plain way while inside: every open route, every payment.

        The plain listing is the reference the fast path is compared with (the tests
        check that both give the same actions in the same order); it also skips the
        log-line memo.
        """
        before = self.reference
        self.reference = True
        try:
            yield
        finally:
            self.reference = before

    def payment_class(self, route: Route) -> Hashable:
        """A key shared by routes that have the same :meth:`Rules.payments` for every hand.

        The fast path computes payments once per class and hand. Base rules: the cards
        that fit the route and its length. A variant that overrides ``payments``
        overrides this too (otherwise every route is its own class).
        """
        return (self.fitting[route.id], route.length)

    def log_key(self, game: Game, action: Any) -> Hashable | None:
        """Values that decide the log line of ``action`` (legal, not yet carried out), or
        None when only :meth:`Rules.describe` itself can tell.

        The game builds a line once per key. A variant that words actions its own way
        (overriding ``describe``, ``pickup_text`` or ``describe_extra``) must override
        this too, or its lines are built every time.
        """
        kind = type(action)
        state = game.state
        name = state.players[state.current].name
        if kind is DrawFaceUp:
            return (name, action, state.face_up[action.slot])
        if kind in LOGGED_AS_IS:
            return (name, action)
        return None

    def log_line(self, game: Game, action: Any) -> str:
        """The log line of ``action`` (legal, about to be carried out): ``describe``."""
        if self.reference:
            return self.describe(game, action)  # type: ignore[attr-defined]
        return (self._fast or self.fast).log_line(game, action)


# Actions whose log line depends on nothing but the player's name and the action itself
# (for the base rules' wording).
LOGGED_AS_IS = frozenset({DrawBlind, ClaimRoute, DrawTickets, KeepTickets, Pass})
