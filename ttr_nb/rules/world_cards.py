"""Paying with Rails & Sails travel cards: train, ship and pair routes, and harbors.

Pure functions of a hand (``{card_id: count}``) and the map's card types, so the
rules can list every way to pay (``legal_actions`` must list them all) and check a
payment with the same reading of the rulebook:

* a **train route** takes Train cards of one colour (any one colour on a gray
  route), one per space; Wilds join any set;
* a **ship route** takes Ship cards of one colour; a Single-Ship card covers one
  space, a Double-Ship card two, a Wild one. Paying one space too many is allowed
  only when no card could be left out (a Double-Ship card half used): no card may
  be superfluous;
* a **pair route** takes two Train cards of one colour per space; the colours may
  differ from space to space, and a Wild stands in for either card of a pair;
* a **harbor** takes 2 Train and 2 Ship cards of one colour, all with the harbor
  symbol; Wilds replace any of the four.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ..actions import Payment
from ..maps import CardType, Route

__all__ = ["HARBOR_SHIP_CARDS", "HARBOR_TRAIN_CARDS", "WorldCards"]

HARBOR_TRAIN_CARDS = 2
HARBOR_SHIP_CARDS = 2


class WorldCards:
    """The card types of a Rails & Sails map, grouped for paying.

    Parameters
    ----------
    card_types : iterable of CardType
        The map's cards; exactly one wild type (checked by the rules at map load).
    """

    def __init__(self, card_types: tuple[CardType, ...]) -> None:
        self.cards: dict[str, CardType] = {c.id: c for c in card_types}
        wilds = [c.id for c in card_types if c.wild]
        self.wild = wilds[0] if wilds else ""
        self.colours = sorted({c.color for c in card_types if not c.wild})
        # (deck, colour) -> card ids, fewest spaces first
        self.by_kind: dict[tuple[str, str], tuple[str, ...]] = {}
        for card in sorted(card_types, key=lambda c: (c.spaces, c.id)):
            if not card.wild:
                key = (card.deck, card.color)
                self.by_kind[key] = (*self.by_kind.get(key, ()), card.id)
        self._capacity_keys: dict[int, tuple[tuple[str, str], ...]] = {}  # by route id
        # (is a train kind, ((card id, spaces), ...)) per (deck, colour): reach's loop
        self._reach_kinds = tuple(
            (deck == "train", tuple((c, self.cards[c].spaces) for c in ids))
            for (deck, _), ids in self.by_kind.items()
        )
        self.harbor_ids: dict[tuple[str, str], tuple[str, ...]] = {
            key: tuple(cid for cid in ids if self.cards[cid].harbor)
            for key, ids in self.by_kind.items()
        }

    # ------------------------------------------------------------- naming
    def card_name(self, card_id: str) -> str:
        """``red Train card``, ``red harbor Train card``, ``red Double-Ship card``, ``Wild``."""
        card = self.cards.get(card_id)
        if card is None:
            return card_id
        if card.wild:
            return "Wild"
        if card.deck == "ship":
            return f"{card.color} {'Double' if card.spaces == 2 else 'Single'}-Ship card"
        return f"{card.color} {'harbor ' if card.harbor else ''}Train card"

    # ---------------------------------------------------------- routes
    def route_colours(self, route: Route) -> list[str]:
        """The colours that can pay for ``route``: its own, or any for a gray route."""
        return self.colours if route.color == "gray" else [route.color]

    def reach(self, hand: Mapping[str, int]) -> int:
        """An upper bound of the longest route ``hand`` can pay for (cheap)."""
        wilds = hand.get(self.wild, 0)
        best = 0
        trains = 0
        for is_train, cards in self._reach_kinds:
            covered = 0
            for cid, spaces in cards:
                covered += hand[cid] * spaces
            if covered > best:
                best = covered
            if is_train:
                trains += covered
        return max(best + wilds, (trains + wilds) // 2)

    def capacity(self, hand: Mapping[str, int]) -> dict[tuple[str, str], int]:
        """Spaces ``hand`` covers per (deck, colour) without Wilds; ``("train", "")``: all
        Train cards; ``("wild", "")``: the Wilds."""
        out = {
            key: sum(hand[c] * self.cards[c].spaces for c in ids)
            for key, ids in self.by_kind.items()
        }
        out["train", ""] = sum(n for (deck, _), n in out.items() if deck == "train")
        out["wild", ""] = hand.get(self.wild, 0)
        return out

    def could_pay(self, capacity: Mapping[tuple[str, str], int], route: Route) -> bool:
        """A quick necessary condition for :meth:`route_payments` to find a payment."""
        keys = self._capacity_keys.get(route.id)
        if keys is None:
            if route.pair:
                keys = self._capacity_keys[route.id] = (("train", ""),)
            else:
                colours = self.route_colours(route)
                keys = self._capacity_keys[route.id] = tuple((route.kind, c) for c in colours)
        need = 2 * route.length if route.pair else route.length
        return max(capacity.get(k, 0) for k in keys) + capacity["wild", ""] >= need

    def paying_cards(self, route: Route) -> tuple[str, ...]:
        """The card ids whose counts in a hand decide :meth:`route_payments` of ``route``."""
        deck = "train" if route.pair else route.kind
        ids = [
            c for colour in self.route_colours(route) for c in self.by_kind.get((deck, colour), ())
        ]
        return (*ids, self.wild) if self.wild else tuple(ids)

    def route_payments(self, hand: Mapping[str, int], route: Route) -> list[Payment]:
        """Every distinct payment from ``hand`` that claims ``route`` (see the module text)."""
        wilds = hand.get(self.wild, 0)
        if route.pair:
            return self._pair_payments(hand, route, wilds)
        need = route.length
        out: list[Payment] = []
        for colour in self.route_colours(route):
            ids = [c for c in self.by_kind.get((route.kind, colour), ()) if hand[c]]
            spaces = [self.cards[c].spaces for c in ids]
            if sum(hand[c] * k for c, k in zip(ids, spaces, strict=True)) + wilds < need:
                continue
            for pay, covered, least in self._colour_sets(hand, ids, spaces, need):
                w = max(0, need - covered)  # Wilds fill the rest, one space each
                if w > wilds or (not w and covered - least >= need):
                    continue  # too few Wilds, or a card left over
                if w:
                    pay[self.wild] = w
                out.append(tuple(sorted(pay.items())))
        if wilds >= need:
            out.append(((self.wild, need),))
        return out

    def _colour_sets(
        self, hand: Mapping[str, int], ids: list[str], spaces: list[int], need: int
    ) -> Iterator[tuple[dict[str, int], int, int]]:
        """(counts, spaces covered, fewest spaces of a card used) for every non-empty set of
        ``ids`` cards that does not already cover ``need`` before its last card."""

        def walk(i: int, covered: int) -> Iterator[tuple[dict[str, int], int, int]]:
            if i == len(ids):
                yield {}, covered, 99
                return
            cid, k = ids[i], spaces[i]
            most = 0 if covered >= need else -(-(need - covered) // k)
            for n in range(min(hand[cid], most), -1, -1):
                for pay, total, least in walk(i + 1, covered + n * k):
                    if n:
                        pay[cid] = n
                        least = min(least, k)
                    yield pay, total, least

        for pay, covered, least in walk(0, 0):
            if pay:
                yield pay, covered, least

    def _pair_payments(self, hand: Mapping[str, int], route: Route, wilds: int) -> list[Payment]:
        need = 2 * route.length
        ids = [
            c
            for colour in self.route_colours(route)
            for c in self.by_kind.get(("train", colour), ())
            if hand[c]
        ]
        out: list[Payment] = []
        for pay in _multisets(ids, hand, need, wilds):
            w = need - sum(pay.values())
            if self._unpaired(pay) <= w:
                if w:
                    pay[self.wild] = w
                out.append(tuple(sorted(pay.items())))
        if wilds >= need:
            out.append(((self.wild, need),))
        return out

    def _unpaired(self, pay: Mapping[str, int]) -> int:
        """Colours with an odd number of cards: each needs a Wild to complete its pair."""
        per_colour: dict[str, int] = {}
        for cid, n in pay.items():
            colour = self.cards[cid].color
            per_colour[colour] = per_colour.get(colour, 0) + n
        return sum(n % 2 for n in per_colour.values())

    def route_problem(self, route: Route, cards: Payment) -> str | None:
        """Why ``cards`` (known cards, held) do not pay for ``route``, or None."""
        wilds = sum(n for cid, n in cards if self.cards[cid].wild)
        plain = [(self.cards[cid], n) for cid, n in cards if not self.cards[cid].wild]
        for card, _ in plain:
            if card.deck != route.kind:
                return (
                    f"{card.deck.title()} cards cannot pay for a {route.kind} route "
                    f"(only {route.kind.title()} cards and Wilds can)"
                )
            if route.color not in ("gray", card.color):
                return f"{card.color} cards cannot pay for a {route.color} route"
        total = sum(n for _, n in plain) + wilds
        if route.pair:
            if total != 2 * route.length:
                return (
                    f"a pair route of {route.length} spaces takes two Train cards per space, "
                    f"{2 * route.length} cards in all, not {total}"
                )
            pay = {card.id: n for card, n in plain}
            if self._unpaired(pay) > wilds:
                odd = sorted({c.color for c, _ in plain if _colour_count(plain, c.color) % 2})
                return (
                    "on a pair route every space takes two Train cards of one colour (a Wild "
                    f"can stand in for either): the {', '.join(odd)} cards do not make pairs"
                )
            return None
        if len({card.color for card, _ in plain}) > 1:
            return "all the cards must be one colour (plus Wilds)"
        covered = sum(card.spaces * n for card, n in plain) + wilds
        unit = "spaces" if route.kind == "ship" else "cards"
        if covered < route.length:
            if route.kind == "ship":
                return f"the cards cover {covered} of the route's {route.length} spaces"
            return (
                f"a route of {route.length} spaces takes exactly {route.length} cards, not {total}"
            )
        least = min([card.spaces for card, _ in plain] + ([1] if wilds else []))
        if covered - least >= route.length:
            if route.kind == "ship":
                return (
                    f"the cards cover {covered} spaces of {route.length}: a card is left over "
                    "(only a Double-Ship card may cover one space more than needed)"
                )
            return (
                f"a route of {route.length} spaces takes exactly {route.length} {unit}, not {total}"
            )
        return None

    # ---------------------------------------------------------- harbors
    def harbor_payments(self, hand: Mapping[str, int]) -> list[Payment]:
        """Every distinct payment from ``hand`` for a harbor."""
        wilds = hand.get(self.wild, 0)
        need = HARBOR_TRAIN_CARDS + HARBOR_SHIP_CARDS
        out: list[Payment] = []
        for colour in self.colours:
            trains = [c for c in self.harbor_ids.get(("train", colour), ()) if hand[c]]
            ships = [c for c in self.harbor_ids.get(("ship", colour), ()) if hand[c]]
            for t_pay in _multisets_upto(trains, hand, HARBOR_TRAIN_CARDS):
                for s_pay in _multisets_upto(ships, hand, HARBOR_SHIP_CARDS):
                    used = sum(t_pay.values()) + sum(s_pay.values())
                    if not used or need - used > wilds:
                        continue
                    pay = {**t_pay, **s_pay}
                    if need - used:
                        pay[self.wild] = need - used
                    out.append(tuple(sorted(pay.items())))
        if wilds >= need:
            out.append(((self.wild, need),))
        return out

    def harbor_problem(self, cards: Payment) -> str | None:
        """Why ``cards`` (known cards, held) do not pay for a harbor, or None."""
        need = HARBOR_TRAIN_CARDS + HARBOR_SHIP_CARDS
        total = sum(n for _, n in cards)
        if total != need:
            return (
                f"a harbor takes exactly {need} cards ({HARBOR_TRAIN_CARDS} Train and "
                f"{HARBOR_SHIP_CARDS} Ship cards, Wilds replacing any), not {total}"
            )
        plain = [(self.cards[cid], n) for cid, n in cards if not self.cards[cid].wild]
        for card, _ in plain:
            if not card.harbor:
                return f"a {self.card_name(card.id)} has no harbor symbol"
        if len({card.color for card, _ in plain}) > 1:
            return "all the cards of a harbor must be one colour (plus Wilds)"
        for deck, most in (("train", HARBOR_TRAIN_CARDS), ("ship", HARBOR_SHIP_CARDS)):
            n = sum(k for card, k in plain if card.deck == deck)
            if n > most:
                return (
                    f"a harbor takes {HARBOR_TRAIN_CARDS} Train and {HARBOR_SHIP_CARDS} Ship "
                    f"cards, not {n} {deck.title()} cards"
                )
        return None


def _colour_count(plain: list[tuple[CardType, int]], colour: str) -> int:
    return sum(n for card, n in plain if card.color == colour)


def _multisets(
    ids: list[str], hand: Mapping[str, int], total: int, spare: int
) -> Iterator[dict[str, int]]:
    """Counts of ``ids`` (each at most what ``hand`` holds, at least one card in all)
    adding up to between ``total - spare`` and ``total``."""
    if not ids:
        return

    def walk(i: int, left: int) -> Iterator[dict[str, int]]:
        if i == len(ids):
            if left <= spare:
                yield {}
            return
        cid = ids[i]
        for n in range(min(hand[cid], left), -1, -1):
            for rest in walk(i + 1, left - n):
                if n:
                    rest[cid] = n
                yield rest

    for pay in walk(0, total):
        if pay:
            yield pay


def _multisets_upto(ids: list[str], hand: Mapping[str, int], most: int) -> Iterator[dict[str, int]]:
    """Counts of ``ids`` (each at most what ``hand`` holds) adding up to at most ``most``."""

    def walk(i: int, left: int) -> Iterator[dict[str, int]]:
        if i == len(ids):
            yield {}
            return
        cid = ids[i]
        for n in range(min(hand[cid], left), -1, -1):
            for rest in walk(i + 1, left - n):
                if n:
                    rest[cid] = n
                yield rest

    yield from walk(0, most)
