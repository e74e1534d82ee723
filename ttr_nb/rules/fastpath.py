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
  counts of the fitting cards, each counted up to the route's length (and a colour
  that cannot make the length even with every wild card counts as none); those
  capped counts recur across turns and games, so the payments and the claim actions
  made of them are remembered. A class of one colour and one kind of wild card is
  keyed by just the two counts (a few dozen entries); such classes are grouped by
  their two cards and sorted by length, so a hand reaches only the ones it can pay.
  The payments of a gray route are put together from remembered colour parts, so a
  hand never met before builds no new claim actions.
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

from collections.abc import Callable, Hashable, Iterator
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
from .claim_tables import COMPILED, ClaimTable, list_claims

if TYPE_CHECKING:
    from ..maps import Route
    from ..state import GameState, PlayerState
    from .game_view import GameView as Game  # the game imports the rules, not the reverse

MEMO_LIMIT = 20_000  # hands (or log keys) remembered before a memo starts afresh

NO_PICKUPS: tuple[Pickups, ...] = ((),)
"""The pickup options of a claim with nothing to choose (compared by identity)."""

PASS_ONLY = mark_well_formed(Pass())


class HandMemo:
    """A variant's own lists remembered for one hand (World: its harbor payments)."""

    __slots__ = ("extra",)

    def __init__(self) -> None:
        self.extra: dict[Hashable, Any] = {}

    def remember(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """``extra[key]``, made by ``make()`` on first use."""
        found = self.extra.get(key)
        if found is None:
            found = self.extra[key] = make()
        return found


class PaidClass:
    """The payments for one payment class and hand, and the claims made of them by route.

    ``parts`` (routes of several colours) names the colour segments the payments are
    made of, so that a route's claims are put together from claims already built."""

    __slots__ = ("pays", "claims", "parts")

    def __init__(self, pays: tuple, parts: tuple = ()) -> None:
        self.pays = pays
        self.parts = parts
        self.claims: dict[int, tuple[ClaimRoute, ...]] = {}


def defined_in(cls: type, name: str) -> type:
    """The class of ``cls``'s MRO that defines attribute ``name``."""
    for klass in cls.__mro__:
        if name in klass.__dict__:
            return klass
    raise AttributeError(name)


def base_rules(cls: type) -> type:
    """The class of ``cls``'s MRO that mixes :class:`FastHooks` in: the base rules,
    :class:`~ttr_nb.rules.base.Rules`, for every variant's rules."""
    for klass in cls.__mro__:
        if FastHooks in klass.__bases__:
            return klass
    raise TypeError(f"{cls.__name__} does not mix in FastHooks")


class FastPath:
    """Tables and memos for one :class:`~ttr_nb.rules.base.Rules` object (one map); see the
    module text. ``rules`` is typed by the hooks it mixes in, :class:`FastHooks`: this module
    never imports :mod:`ttr_nb.rules.base`, which imports it."""

    def __init__(self, rules: FastHooks) -> None:
        self.rules = rules
        game_map = rules.map
        cls = type(rules)
        # The base rules (rules.base.Rules), found from the class: importing them here
        # would close an import circle, as rules.base imports this module.
        base = base_rules(cls)
        self.card_ids = tuple(c.id for c in game_map.card_types)
        # Cards that end a draw when taken face up (refused as a second card): a property of
        # the card kind (Rules.ends_draw), looked up once.
        self.ends_draw = {c.id: rules.ends_draw(c.id) for c in game_map.card_types}
        # A variant that finds payments its own way but does not say what they depend on
        # gets one class per route (correct, if slower).
        by_route = (
            defined_in(cls, "payments") is not base
            and defined_in(cls, "payment_class") is FastHooks
        )
        keys = [
            ("route", route.id) if by_route else rules.payment_class(route)
            for route in game_map.routes
        ]
        numbers = {klass: n for n, klass in enumerate(dict.fromkeys(keys))}
        # (route, id, length, kind, parallel routes, payment class number)
        rows = [
            (route, route.id, route.length, route.kind, rules.parallel[route.id], numbers[klass])
            for route, klass in zip(game_map.routes, keys, strict=True)
        ]
        longest = max((r.length for r in game_map.routes), default=0)
        # rows_upto[n]: the routes of length n or less, in map order
        self.rows_upto = [tuple(row for row in rows if row[2] <= n) for n in range(longest + 1)]
        self.longest = longest
        self.hands: dict[tuple[int, ...], HandMemo] = {}
        # The base rules' payments depend only on the counts of the cards that fit a route,
        # each counted up to the route's length: those capped counts key the memo (a
        # variant with its own payments gets them computed once per class and call).
        self.plain_payments = defined_in(cls, "payments") is base
        self.capped = self.plain_payments or rules.payments_by_capped_counts
        self.fitting = {row[1]: rules.fitting[row[1]] for row in rows} if self.capped else {}
        self.paid: dict[Hashable, PaidClass] = {}
        # Colour parts of the payments of routes of several colours, and their claims by
        # route: bounded by colours x lengths x capped counts, so never cleared.
        self.segments: dict[tuple, tuple] = {}
        self.part_claims: dict[tuple[int, tuple], tuple[ClaimRoute, ...]] = {}
        # The payment classes, each with its routes (as indices of ``rows``, map order), by
        # length: a hand's payments are looked up once per class, and the routes of the
        # classes it cannot pay are never looked at.
        self.rows = rows
        members: dict[int, list[int]] = {}
        for i, row in enumerate(rows):
            members.setdefault(row[5], []).append(i)
        classes = []
        for klass, number in numbers.items():
            indices = members[number]
            route = rows[indices[0]][0]
            colour_ids, wild_ids = rules.fitting[route.id] if self.capped else ((), ())
            simple = len(colour_ids) == 1 and len(wild_ids) == 1
            classes.append(
                (
                    number,
                    klass,
                    route,
                    route.length,
                    colour_ids,
                    tuple(indices),
                    wild_ids[0] if simple else None,
                )
            )
        # Payments of the classes of one colour and one kind of wild card, by class number
        # and the two capped counts ((length + 1) squared entries a class at most: never cleared).
        self.simple_paid: dict[tuple[int, int, int], PaidClass] = {}
        self.plain_pickups = defined_in(cls, "pickup_options") is base
        self.plain_reach = defined_in(cls, "claim_reach") is base
        kinds = {route.kind for route in game_map.routes}
        self.one_kind = kinds.pop() if len(kinds) == 1 else None
        self.plain_ticket_draws = defined_in(cls, "ticket_draws") is base
        self.plain_extras = defined_in(cls, "extra_actions") is base
        self.colour_card_ids = tuple(c.id for c in rules.colour_cards)
        self.class_count = len(numbers)
        # The classes of one colour and one kind of wild card, grouped by those two cards
        # and sorted by length: a hand pays for the shortest of a group up to the sum of
        # its two counts, and the longer ones are never looked at.
        groups: dict[tuple[str, str], list[tuple]] = {}
        for number, _klass, route, need, colour_ids, indices, wild in classes:
            if wild is not None:
                groups.setdefault((colour_ids[0], wild), []).append((need, number, route, indices))
        self.simple_groups = tuple(
            (colour, wild, tuple(sorted(group, key=lambda c: (c[0], c[1]))))
            for (colour, wild), group in groups.items()
        )
        self.classes_upto = [
            tuple(c for c in classes if c[3] <= n and c[6] is None) for n in range(longest + 1)
        ]
        self.wild_ids = tuple(c.id for c in game_map.card_types if c.wild)
        self.keeps: dict[tuple[tuple[int, ...], int], tuple[KeepTickets, ...]] = {}
        self.face_up = {
            (slot, deck): mark_well_formed(DrawFaceUp(slot, deck))
            for slot in range(rules.face_up_slots)
            for deck in rules.deck_names
        }
        self.blind = {deck: mark_well_formed(DrawBlind(deck)) for deck in rules.deck_names}
        self.ticket_draws = {k: mark_well_formed(DrawTickets(k)) for k in range(8)}
        self.plain_draws = defined_in(cls, "card_draws") is base
        self.one_plain_deck = len(rules.deck_names) == 1 and all(
            defined_in(cls, name) is base for name in ("refill_choices", "can_draw_blind", "piles")
        )
        only = rules.deck_names[0]
        self.face_up_one = [self.face_up[slot, only] for slot in range(rules.face_up_slots)]
        self.blind_one = self.blind[only]
        self.plain_keeps = defined_in(cls, "keep_options") is base
        # Log lines are remembered only when log_key is at least as specific as every
        # method that words an action.
        key_owner = defined_in(cls, "log_key")
        if key_owner is FastHooks:
            key_owner = base
        self.log_by_key = all(
            issubclass(key_owner, defined_in(cls, name))
            for name in ("describe", "pickup_text", "describe_extra")
        )
        self.lines: dict[Hashable, str] = {}
        # Compiled, the base rules' claims are listed from flat tables (claim_tables).
        self.table = ClaimTable(self) if COMPILED and ClaimTable.fits(self) else None

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
        if self.plain_ticket_draws:
            if state.ticket_decks.get(rules.ticket_deck):
                actions.append(self.ticket_draws[0])
        else:
            actions.extend(rules.ticket_draws(state))
        actions.extend(self.claims(state, state.current, player.hand))
        if not self.plain_extras:
            actions.extend(rules.extra_actions(game))
        return actions or [PASS_ONLY]

    def claims(self, state: GameState, seat: int, hand: dict[str, int]) -> list[ClaimRoute]:
        """Every claim open to ``seat`` with ``hand``: routes in map order, then payments in
        :meth:`Rules.payments` order, then pickups in :meth:`Rules.pickup_options` order."""
        rules = self.rules
        table = self.table
        if table is not None:
            return list_claims(
                table,
                hand,
                state.owner,
                seat,
                len(state.players) <= table.closes_upto,
                state.players[seat].pieces.get(table.kind, 0),
            )
        wilds = 0
        for w in self.wild_ids:
            wilds += hand.get(w, 0)
        if self.plain_reach:  # Rules.claim_reach, without the call
            reach = max(map(hand.__getitem__, self.colour_card_ids), default=0) + wilds
        else:
            reach = rules.claim_reach(hand)
        if reach <= 0:
            return []
        owner = state.owner
        pieces = state.players[seat].pieces
        closes = len(state.players) <= rules.closed_parallel_max_players
        pickup_options = rules.pickup_options
        plain_pickups = self.plain_pickups
        class_payments = self.class_payments
        capped = self.capped
        # Rows (map order) of the classes the hand can pay, and each class's payments
        # by class number: the rows are then sorted as plain integers.
        payable: list[int] = []
        # (a list per call, not kept: a game in another thread may be listing too)
        paid_by_class: list[Any] = [None] * self.class_count
        most: dict[tuple[str, ...], int] = {}  # the largest count among some colours
        limit = min(reach, self.longest)
        simple_paid = self.simple_paid
        payments = rules.payments
        for colour, wild, group in self.simple_groups:
            held = hand[colour]
            spare = hand[wild]
            top = held + spare
            if top > limit:
                top = limit
            for need, number, route, members in group:
                if need > top:
                    break
                # The payments depend on the two counts, each capped at the length.
                key = (number, held if held < need else need, spare if spare < need else need)
                paid = simple_paid.get(key)
                if paid is None:
                    paid = simple_paid[key] = PaidClass(tuple(payments(hand, route)))
                if paid.pays:
                    payable.extend(members)
                    paid_by_class[number] = paid
        for number, klass, route, need, colour_ids, members, _wild in self.classes_upto[limit]:
            if capped and wilds < need:
                # A quick necessary condition: some fitting colour, with every wild card,
                # is enough (most classes fail it on most turns).
                if len(colour_ids) == 1:
                    held = hand[colour_ids[0]]
                else:
                    held = most.get(colour_ids)
                    if held is None:
                        held = most[colour_ids] = max(map(hand.__getitem__, colour_ids))
                if held + wilds < need:
                    continue
            paid = class_payments(hand, route, klass)
            if paid.pays:
                payable.extend(members)
                paid_by_class[number] = paid
        if not payable:
            return []
        payable.sort()
        rows = self.rows
        no_pickups = NO_PICKUPS
        out: list[ClaimRoute] = []
        taken = owner.keys()
        # On a map of one kind of route, with pieces for the longest route listed (most
        # of a game), pieces need not be counted route by route.
        count_pieces = self.one_kind is None or pieces.get(self.one_kind, 0) < limit
        for i in payable:
            route, rid, length, kind, parallel, number = rows[i]
            if rid in owner or (count_pieces and pieces.get(kind, 0) < length):
                continue
            if parallel:
                # A taken parallel route closes this one in small games; in larger
                # games only the player's own does.
                if closes:
                    if not taken.isdisjoint(parallel):
                        continue
                elif any(owner.get(other) == seat for other in parallel):
                    continue
            paid = paid_by_class[number]
            options = no_pickups if plain_pickups else pickup_options(state, route)
            if options is no_pickups:
                made = paid.claims.get(rid)
                if made is None:
                    made = paid.claims[rid] = self.route_claims(rid, paid)
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
        wilds = tuple([n if n < need else need for n in map(hand.__getitem__, wild_ids)])
        # A colour that cannot reach the length even with every wild card adds no payment:
        # counted as none, so that more hands share a key.
        short = need - sum(wilds)
        key = (
            klass,
            tuple(
                [
                    (n if n < need else need) if n >= short else 0
                    for n in map(hand.__getitem__, colour_ids)
                ]
            ),
            wilds,
        )
        paid = self.paid.get(key)
        if paid is None:
            if len(self.paid) >= MEMO_LIMIT:
                self.paid.clear()
            if len(colour_ids) > 1:
                paid = self.segmented(klass, route, key[1], key[2])
            else:
                paid = PaidClass(tuple(self.rules.payments(hand, route)))
            self.paid[key] = paid
        return paid

    # The base rules list a route's payments colour by colour, then those made of wild
    # cards alone; the part of one colour depends only on that colour's count and the
    # wild cards' counts (each capped at the route's length). A route of several colours
    # (gray) has too many hands to remember whole, but few such parts: they are
    # remembered instead, with the claims made of them, and a hand met for the first
    # time is put together from them.
    def segmented(
        self, klass: Hashable, route: Route, colours: tuple[int, ...], wilds: tuple[int, ...]
    ) -> PaidClass:
        """The payments of a route of several colours, from its colour parts (memoised)."""
        colour_ids, wild_ids = self.fitting[route.id]
        parts = [(klass, cid, n, wilds) for cid, n in zip(colour_ids, colours, strict=True) if n]
        parts.append((klass, None, 0, wilds))
        pays: list = []
        for part in parts:
            pays.extend(self.segment(route, part))
        return PaidClass(tuple(pays), tuple(parts))

    def segment(self, route: Route, part: tuple) -> tuple:
        """The payments of one colour part (colour None: wild cards alone)."""
        made = self.segments.get(part)
        if made is None:
            _klass, cid, count, wilds = part
            colour_ids, wild_ids = self.fitting[route.id]
            hand = dict.fromkeys(self.card_ids, 0)
            hand.update(zip(wild_ids, wilds, strict=True))
            alone = tuple(self.rules.payments(hand, route))
            if cid is None:
                made = alone
            else:
                hand[cid] = count
                with_colour = self.rules.payments(hand, route)
                made = tuple(with_colour[: len(with_colour) - len(alone)])
            self.segments[part] = made
        return made

    def route_claims(self, rid: int, paid: PaidClass) -> tuple[ClaimRoute, ...]:
        """The claims of route ``rid`` with each of ``paid``'s payments, in order."""
        if not paid.parts:
            return tuple(mark_well_formed(ClaimRoute.trusted(rid, pay)) for pay in paid.pays)
        claims: list[ClaimRoute] = []
        table = self.part_claims
        for part in paid.parts:
            made = table.get((rid, part))
            if made is None:
                made = table[rid, part] = tuple(
                    mark_well_formed(ClaimRoute.trusted(rid, pay)) for pay in self.segments[part]
                )
            claims.extend(made)
        return tuple(claims)

    def card_draws(self, state: GameState, second: bool) -> list[Any]:
        """The same list as :meth:`Rules.card_draws`, built once and shared."""
        rules = self.rules
        if not self.plain_draws:
            return rules.card_draws(state, second)
        if self.one_plain_deck:  # the base rules' one deck (state.deck): no calls needed
            try:
                if second:
                    ends_draw = self.ends_draw
                    draws = [
                        self.face_up_one[slot]
                        for slot, card in enumerate(state.face_up)
                        if card is not None and not ends_draw[card]
                    ]
                else:
                    draws = [
                        self.face_up_one[slot]
                        for slot, card in enumerate(state.face_up)
                        if card is not None
                    ]
            except (IndexError, KeyError):  # an unusual row (a hand-made position)
                return rules.card_draws(state, second)
            if state.deck or state.discard:
                draws.append(self.blind_one)
            return draws
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
        """The same list as :meth:`Rules.keep_options`, remembered by offer."""
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
                mark_well_formed(KeepTickets.trusted(tuple(sorted(combo))))
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
    payments_by_capped_counts = False
    """A variant whose own ``payments`` keep only some of the base rules' payments, by a
    rule of the payment itself (Europe's ferries: enough locomotives), sets this: its
    payments still depend only on the capped counts of the fitting cards, so the fast
    path remembers them as it does the base rules' (keyed by :meth:`payment_class`)."""

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
