"""Determinisation: one possible world, consistent with what a player has seen.

A player never sees the others' cards and tickets, nor the order of the decks. A
search that looks ahead needs a complete game to play on, so it *samples* the
hidden part: :func:`determinise` returns a copy of the game in which everything
``seat`` cannot see is drawn at random, among the worlds that fit everything
``seat`` has seen since the deal. Searching many such worlds, and keeping what is
good in most of them, is how a program plays a game of hidden information.

What the seat knows, and every sample keeps:

* Everything public: the board, the face-up cards, the discard piles, every
  player's number of cards (per deck), tickets and pieces, the sizes of all decks.
* Its own hand, tickets and offer.
* **Cards an opponent took face up**: they are in that opponent's hand until the
  opponent spends cards of that colour (spending uses known cards first: cards of
  one kind are alike, so which of them was spent makes no difference).
* **Cards spent**: an opponent who pays more cards of a colour than they were known
  to hold shows that some of their hidden cards were of that colour, and those
  cards are gone.
* **Deck epochs**: when a deck runs out, its discards are shuffled into a new deck.
  The seat saw those discards, so it knows exactly which cards the new deck holds;
  the cards an opponent drew blind before that came from the old deck. Each hidden
  card is sampled from the deck "epoch" it was drawn in.
* **Tickets**: its own tickets, and those it gave back (at the bottom of their deck,
  in known places, until someone draws them again); the tickets an opponent drew
  are not seen, but where they go is: kept ones into the opponent's hand, returned
  ones under the deck. A ticket the seat later draws again was among those returned.

The model behind it: every hidden card or ticket is an unknown element of a
*bag* (the cards of one deck epoch, the tickets an opponent drew at once, a
reshuffled ticket deck); observing an element removes it from its bag. A sample
deals each bag's remaining elements at random to the places that hold its unknown
elements, oldest bags first. Opponents are assumed to keep and return tickets and
to hold cards without preference (a search cannot know their minds), which makes
every world consistent with the seat's observations equally likely. A search may
still prefer worlds whose opponents hold tickets their claims fit
(:mod:`~ttr_nb.bots.inference`): :meth:`Knowledge.sample` takes weights for that.

The knowledge is gathered by replaying the game's history from its seed (the
engine replays exactly) and watching each move as the seat would. A game whose
state was edited by hand (a lesson's staged position) no longer matches its
history: then the seat is taken to know only what it sees now (its own cards and
tickets and everything public).

A variant with hidden choices of its own hides them through
:meth:`Rules.determinise_extras` (World: the supplies chosen before the reveal).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..game import Game
    from ..state import GameState

__all__ = ["Knowledge", "determinise"]

SWAPS_PER_TICKET = 24  # proposed exchanges per hidden opponent ticket in a weighted sample


def determinise(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy of ``game`` with everything ``seat`` cannot see sampled at random.

    Parameters
    ----------
    game : Game
        The real game (left untouched).
    seat : int
        The player whose point of view is kept.
    rng : random.Random
        Where the randomness of the sample comes from (also seeds the copy's own
        generator, so the sampled world's future draws are not the real ones).

    Returns
    -------
    Game
        A playable copy: ``copy.observation(seat) == game.observation(seat)``, and
        every hidden card, ticket and deck order is drawn consistently with what
        ``seat`` has seen (see the module text). It cannot be saved or replayed (its
        seed does not deal it): ``copy.sampled_for`` is ``seat``.

    Notes
    -----
    Gathering the knowledge replays the game once: O(moves). A search that samples
    many worlds of one position builds :class:`Knowledge` once and calls
    :meth:`Knowledge.sample` for each: O(cards + tickets) per sample.

    Examples
    --------
    >>> from ttr_nb import new_game
    >>> game = new_game("usa", 2, seed=4)
    >>> world = determinise(game, 0, random.Random(1))
    >>> world.observation(0) == game.observation(0)
    True
    >>> world.state.players[1].offer == game.state.players[1].offer  # hidden: resampled
    False
    """
    return Knowledge.of(game, seat).sample(rng)


class Bag:
    """Unknown things of which the seat knows the possible values.

    ``items`` holds values (ticket ids) and other bags (one unknown element of that
    bag); ``truth`` holds, item by item, what the item really is (the engine knows),
    used only to settle which of two bags an observed value came from when the seat
    could not tell (see :meth:`remove`).
    """

    __slots__ = ("items", "truth", "order")

    def __init__(self, items: list[Any], truth: list[Any], order: int) -> None:
        self.items = items
        self.truth = truth
        self.order = order

    def remove(self, value: Hashable) -> None:
        """The seat saw ``value`` come out of this bag: take that element out (and out of
        the bag it came from in turn)."""
        try:
            i = self.truth.index(value)
        except ValueError:
            raise _Inconsistent(f"{value!r} cannot come from this bag") from None
        item = self.items.pop(i)
        del self.truth[i]
        if isinstance(item, Bag):
            item.remove(value)
        elif item != value:
            raise _Inconsistent(f"{value!r} was expected to be {item!r}")


class _Inconsistent(Exception):
    """The history does not explain the position (it was edited by hand)."""


class Knowledge:
    """What one seat knows about a position's hidden information.

    Build it with :meth:`of`; draw worlds with :meth:`sample`.

    Attributes
    ----------
    seat : int
        The player whose knowledge this is.
    known : list of Counter
        Per player, cards known to be in their hand (empty for the seat itself,
        whose whole hand is known).
    from_history : bool
        True when the history explains the position; False when the position was
        edited by hand and only what the seat sees now is used.
    """

    def __init__(self, game: Game, seat: int) -> None:
        self.game = game
        self.seat = seat
        rules = game.rules
        self.rules = rules
        self.card_deck = {c.id: c.deck for c in game.map.card_types}
        self.ticket_deck = {t.id: t.deck for t in game.map.tickets}
        self.bags: list[Bag] = []
        n = len(game.state.players)
        # Cards: per deck, its epoch bags (unseen cards, by kind) and the current epoch;
        # per player, their unseen cards by (deck, epoch), the cards known in their hand,
        # and where their unseen cards really came from (see spend_unknown).
        self.epochs: dict[str, list[Counter[str]]] = {d: [] for d in rules.deck_names}
        self.current: dict[str, int] = {}
        self.unknown: list[Counter[tuple[str, int]]] = [Counter() for _ in range(n)]
        self.known: list[Counter[str]] = [Counter() for _ in range(n)]
        self.provenance: list[Counter[tuple[str, int]]] = [Counter() for _ in range(n)]
        # Tickets: per deck, its slots from the top (an id or a Bag); per player, their
        # tickets and their offer (offered items with the deck and the real ticket).
        self.decks: dict[str, list[Any]] = {}
        self.tickets: list[list[Any]] = [[] for _ in range(n)]
        self.offers: list[list[tuple[str, Any, int]]] = [[] for _ in range(n)]
        self.places: dict[int, list[tuple[Any, int]]] = {}
        self.from_history = True

    # ------------------------------------------------------------- building
    @classmethod
    def of(cls, game: Game, seat: int) -> Knowledge:
        """What ``seat`` knows in ``game``'s current position (replays its history once)."""
        from ..game import Game

        if not 0 <= seat < game.num_players:
            raise ValueError(f"there is no seat {seat} in a {game.num_players}-player game")
        try:
            replay = Game(game.map, game.names, game.seed)
            knowledge = cls(game, seat)
            knowledge.start(replay.state)
            tracer = _TracingRandom()
            tracer.setstate(replay.rng.getstate())
            replay.rng = tracer
            for move in game.history:
                before = _Before(replay.state, replay.rules)
                replay.apply(move.action)
                knowledge.watch(move.player, move.action, before, replay.state, tracer.shuffled)
                tracer.shuffled = []
            if replay.state.to_dict() != game.state.to_dict():
                raise _Inconsistent("the position is not the one its history leads to")
            knowledge.check(game.state)
        except (_Inconsistent, ValueError):
            knowledge = cls(game, seat)
            knowledge.start(game.state)
            knowledge.from_history = False
            knowledge.check(game.state)
        return knowledge

    def new_bag(self, items: list[Any], truth: list[Any]) -> Bag:
        """A new bag of unknowns holding ``items`` (really ``truth``), remembered with the
        others."""
        bag = Bag(list(items), list(truth), len(self.bags))
        self.bags.append(bag)
        return bag

    def start(self, state: GameState) -> None:
        """Knowledge at a position seen for the first time: everything visible, nothing more."""
        rules = self.rules
        seat = self.seat
        cards = Counter({c.id: c.count for c in self.game.map.card_types})
        seen = Counter({cid: n for cid, n in state.players[seat].hand.items() if n})
        seen.update(c for c in state.face_up if c is not None)
        for deck in rules.deck_names:
            seen.update(rules.piles(state, deck)[1])
        for deck in rules.deck_names:
            bag = Counter(
                {cid: n - seen[cid] for cid, n in cards.items() if self.card_deck[cid] == deck}
            )
            self.epochs[deck] = [+bag]
            self.current[deck] = 0
        for p, player in enumerate(state.players):
            if p != seat:
                for cid, n in player.hand.items():
                    if n:
                        self.unknown[p][self.card_deck[cid], 0] += n
                        self.provenance[p][cid, 0] += n
        me = state.players[seat]
        visible = set(me.tickets) | set(me.offer)
        pools: dict[str, list[int]] = {d: [] for d in state.ticket_decks}
        for t in self.game.map.tickets:
            if t.id not in visible:
                pools.setdefault(t.deck, []).append(t.id)
        first = {d: self.new_bag(ids, ids) for d, ids in pools.items()}
        deck_of = self.ticket_deck
        decks = set(deck_of.values())
        self.decks = {
            d: [first[d]] * len(pile) for d, pile in state.ticket_decks.items() if d in decks
        }
        for p, player in enumerate(state.players):
            if p != seat:
                self.tickets[p] = [first[deck_of[t]] for t in player.tickets]
                self.offers[p] = [(deck_of[t], first[deck_of[t]], t) for t in player.offer]
        # A pile that is no deck of the map (Europe's box) holds what is left of each deck.
        placed = Counter(
            deck_of[t]
            for p, player in enumerate(state.players)
            if p != seat
            for t in player.tickets
        )
        placed.update(
            deck_of[t] for p, pl in enumerate(state.players) if p != seat for t in pl.offer
        )
        placed.update({d: len(slots) for d, slots in self.decks.items()})
        for d, pile in state.ticket_decks.items():
            if d not in decks:
                self.decks[d] = [first[k] for k in pools for _ in range(len(pools[k]) - placed[k])]
                placed.update({k: len(pools[k]) - placed[k] for k in pools})
                if len(self.decks[d]) != len(pile):
                    raise _Inconsistent(f"the {d} ticket pile does not add up")

    def watch(
        self,
        actor: int,
        action: Any,
        before: _Before,
        after: GameState,
        shuffled: list[tuple[list[Any], list[Any]]],
    ) -> None:
        """Update the knowledge with one move, as the seat sees it."""
        self.watch_cards(actor, action, before, after, shuffled)
        self.watch_tickets(actor, before, after, shuffled)

    def watch_cards(
        self,
        actor: int,
        action: Any,
        before: _Before,
        after: GameState,
        shuffled: list[tuple[list[Any], list[Any]]],
    ) -> None:
        """Update what the seat knows of the cards after one move: hands, decks and discards."""
        rules = self.rules
        seat = self.seat
        deck_of = self.card_deck
        hand_before = before.hands[actor]
        taken = before.face_up_taken(action)
        gained: Counter[str] = Counter()
        spent: Counter[str] = Counter()
        for cid, n in after.players[actor].hand.items():
            change = n - hand_before.get(cid, 0)
            if change > 0:
                gained[cid] = change
            elif change < 0:
                spent[cid] = -change
        if taken is not None:
            gained[taken] -= 1
        blind: Counter[str] = Counter()  # cards drawn unseen, by deck
        for cid, n in gained.items():
            if n > 0:
                blind[deck_of[cid]] += n
        for deck in rules.deck_names:
            pops = self.popped(deck, before.piles[deck], after, shuffled)
            hidden = blind[deck] if actor != seat else 0
            if hidden > len(pops):
                raise _Inconsistent("more cards drawn unseen than left the deck")
            for i, (epoch, cid) in enumerate(pops):
                if i >= len(pops) - hidden:  # a blind draw: the last card(s) drawn
                    self.unknown[actor][deck, epoch] += 1
                    self.provenance[actor][cid, epoch] += 1
                else:
                    self.epochs[deck][epoch][cid] -= 1
                    if self.epochs[deck][epoch][cid] < 0:
                        raise _Inconsistent(f"a {cid} card the seat could not have seen")
        if actor == seat:
            return
        known = self.known[actor]
        if taken is not None:
            known[taken] += 1
        for cid, n in spent.items():
            use = min(known[cid], n)
            known[cid] -= use
            for _ in range(n - use):
                self.spend_unknown(actor, cid)
        self.known[actor] = +known

    def popped(
        self,
        deck: str,
        pile_before: list[str],
        after: GameState,
        shuffled: list[tuple[list[Any], list[Any]]],
    ) -> list[tuple[int, str]]:
        """(epoch, card) of every card drawn from ``deck`` during the move, in order; a
        reshuffle of the discards starts a new epoch."""
        live = self.rules.piles(after, deck)[0]
        out = []
        pile = pile_before
        for target, content in shuffled:
            if target is not live:
                continue
            out.extend((self.current[deck], c) for c in reversed(pile))
            self.epochs[deck].append(Counter(content))
            self.current[deck] = len(self.epochs[deck]) - 1
            pile = content
        if pile[: len(live)] != live:
            raise _Inconsistent(f"the {deck} deck changed in an unknown way")
        out.extend((self.current[deck], c) for c in reversed(pile[len(live) :]))
        return out

    def spend_unknown(self, actor: int, cid: str) -> None:
        """``actor`` spent a ``cid`` card the seat did not know they held: one of their
        unseen cards was a ``cid``, and it is gone.

        When their unseen cards come from several deck epochs that could each have held
        it, the seat cannot tell which; the engine's record of where the card really came
        from settles it (otherwise a later draw could contradict the choice). It only
        decides which epoch's leftovers the opponent's other unseen cards are drawn from.
        """
        deck = self.card_deck[cid]
        held = self.unknown[actor]
        choices = [
            epoch
            for (d, epoch), n in held.items()
            if d == deck and n > 0 and self.epochs[deck][epoch][cid] > 0
        ]
        if not choices:
            raise _Inconsistent(f"a {cid} card spent that no unseen card could be")
        real = [e for e in choices if self.provenance[actor][cid, e] > 0]
        epoch = (real or choices)[0]
        held[deck, epoch] -= 1
        self.epochs[deck][epoch][cid] -= 1
        if self.provenance[actor][cid, epoch] > 0:
            self.provenance[actor][cid, epoch] -= 1

    def watch_tickets(
        self,
        actor: int,
        before: _Before,
        after: GameState,
        shuffled: list[tuple[list[Any], list[Any]]],
    ) -> None:
        """Update what the seat knows of the tickets after one move: offers, keeps and returns."""
        seat = self.seat
        player = after.players[actor]
        offer_before = before.offer
        shuffles = {
            d: content
            for target, content in shuffled
            for d, pile in after.ticket_decks.items()
            if target is pile
        }
        for d in after.ticket_decks:
            self.decks.setdefault(d, [])
        # The real deck (top first) before any shuffle of this move, slot for slot.
        real = {d: list(before.tickets.get(d, ())) for d in after.ticket_decks}
        if player.offer and not offer_before:  # a draw: from the tops of the decks
            for d, pile in after.ticket_decks.items():
                drawn = len(real[d]) - len(pile)
                if drawn < 0:
                    raise _Inconsistent("a ticket deck grew during a draw")
                slots, self.decks[d] = self.decks[d][:drawn], self.decks[d][drawn:]
                for slot, ticket in zip(slots, real[d][:drawn], strict=True):
                    if actor == seat:
                        self.observe(slot, ticket)
                    else:
                        self.offers[actor].append((d, slot, ticket))
                real[d] = real[d][drawn:]
        elif offer_before and not player.offer:  # a keep: the rest go under their decks
            kept = set(player.tickets)
            back = [t for t in offer_before if t not in kept]
            pile_of = {t: self.rules.return_pile(before.phase, t) for t in back}
            if actor == seat:
                for t in back:
                    self.decks[pile_of[t]].append(t)
                    real[pile_of[t]].append(t)
            else:
                offered = self.offers[actor]
                self.offers[actor] = []
                for d in after.ticket_decks:
                    items = [(slot, t) for src, slot, t in offered if src == d]
                    returned = [t for t in back if self.ticket_deck[t] == d]
                    if not items:
                        continue
                    keep = len(items) - len(returned)
                    if not returned:
                        self.tickets[actor].extend(slot for slot, _ in items)
                        continue
                    bag = self.new_bag([slot for slot, _ in items], [t for _, t in items])
                    self.tickets[actor].extend([bag] * keep)
                    for t in returned:  # under their deck (Europe's setup: into the box)
                        self.decks[pile_of[t]].append(bag)
                        real[pile_of[t]].append(t)
        for d, content in shuffles.items():
            if len(real[d]) != len(content):
                raise _Inconsistent(f"the {d} ticket deck changed in an unknown way")
            bag = self.new_bag(self.decks[d], real[d])
            self.decks[d] = [bag] * len(content)
        for d, pile in after.ticket_decks.items():
            if len(self.decks[d]) != len(pile):
                raise _Inconsistent(f"the {d} ticket deck changed in an unknown way")

    def observe(self, slot: Any, value: Hashable) -> None:
        """Record that ``slot`` (a bag, or a value already known) turned out to hold ``value``."""
        if isinstance(slot, Bag):
            slot.remove(value)
        elif slot != value:
            raise _Inconsistent(f"ticket {value} was expected to be {slot}")

    def check(self, state: GameState) -> None:
        """Every bag holds as many values as there are unknown places it fills."""
        rules = self.rules
        for deck in rules.deck_names:
            pile = rules.piles(state, deck)[0]
            for epoch, bag in enumerate(self.epochs[deck]):
                if min(bag.values(), default=0) < 0:
                    raise _Inconsistent("a card was seen more often than it exists")
                places = sum(u[deck, epoch] for u in self.unknown)
                if epoch == self.current[deck]:
                    places += len(pile)
                if sum(bag.values()) != places:
                    raise _Inconsistent(f"the {deck} cards do not add up")
        for p, player in enumerate(state.players):
            if p == self.seat:
                continue
            if sum(self.unknown[p].values()) + sum(self.known[p].values()) != player.hand_size:
                raise _Inconsistent("a hand does not add up")
            if any(player.hand.get(c, 0) < n for c, n in self.known[p].items()):
                raise _Inconsistent("a known card is not in the hand")
            if len(self.tickets[p]) != len(player.tickets):
                raise _Inconsistent("a player's tickets do not add up")
            if len(self.offers[p]) != len(player.offer):
                raise _Inconsistent("a player's offer does not add up")
        self.places = self._ticket_places()

    def _ticket_places(self) -> dict[int, list[tuple[Any, int]]]:
        """Per bag (by order): the places holding one of its unknown elements, as (holder,
        index); a holder is a deck name, ``("tickets", p)``, ``("offer", p)`` or a bag."""
        places: dict[int, list[tuple[Any, int]]] = {bag.order: [] for bag in self.bags}
        holders: list[tuple[Any, list[Any]]] = [(d, slots) for d, slots in self.decks.items()]
        holders += [(("tickets", p), items) for p, items in enumerate(self.tickets)]
        holders += [(("offer", p), [s for _, s, _ in items]) for p, items in enumerate(self.offers)]
        holders += [(bag, bag.items) for bag in self.bags]
        for holder, items in holders:
            for i, item in enumerate(items):
                if isinstance(item, Bag):
                    places[item.order].append((holder, i))
        for bag in self.bags:
            if len(places[bag.order]) != len(bag.items):
                raise _Inconsistent("a ticket bag does not add up")
        return places

    # ------------------------------------------------------------- sampling
    def sample(
        self, rng: random.Random, weights: list[dict[int, float] | None] | None = None
    ) -> Game:
        """One world consistent with this knowledge, drawn with ``rng`` (see
        :func:`determinise`).

        ``weights`` (per player: ticket id -> likelihood, or None) make worlds whose
        opponents hold tickets that fit their claims likelier
        (:mod:`~ttr_nb.bots.inference`): after a resolution of the tickets drawn as
        usual, ``SWAPS_PER_TICKET`` Metropolis steps per hidden opponent ticket move it
        towards resolutions in proportion to the product of its opponents' ticket
        weights."""
        game = self.game
        rules = self.rules
        seat = self.seat
        world = game.clone(rng=random.Random(rng.getrandbits(64)))
        world.sampled_for = seat
        state = world.state
        # Cards: deal each epoch's unseen cards to the hidden places it fills.
        hands = [Counter(known) for known in self.known]
        for deck in rules.deck_names:
            for epoch, bag in enumerate(self.epochs[deck]):
                values = list(bag.elements())
                if not values:
                    continue
                rng.shuffle(values)
                for p, unknown in enumerate(self.unknown):
                    n = unknown[deck, epoch] if p != seat else 0
                    if n:
                        hands[p].update(values[:n])
                        del values[:n]
                if epoch == self.current[deck]:
                    rules.piles(state, deck)[0][:] = values
        for p, player in enumerate(state.players):
            if p != seat:
                player.hand = {cid: hands[p][cid] for cid in player.hand}
        # Tickets: resolve the bags, then (with ``weights``) let the opponents' hidden
        # tickets drift towards those their claims fit.
        if weights is not None and any(weights):
            origins: dict[tuple[Any, int], Bag] = {}
            value_at = self._resolve_tickets(rng, origins)
            self._guess_tickets(value_at, origins, weights, rng)
        else:
            value_at = self._resolve_tickets(rng)

        def resolved(holder: Any, items: list[Any]) -> list[Any]:
            return [value_at[holder, i] if isinstance(x, Bag) else x for i, x in enumerate(items)]

        for d, slots in self.decks.items():
            state.ticket_decks[d] = resolved(d, slots)
        for p, player in enumerate(state.players):
            if p != seat:
                player.tickets = resolved(("tickets", p), self.tickets[p])
                player.offer = resolved(("offer", p), [s for _, s, _ in self.offers[p]])
        rules.determinise_extras(state, seat, rng)
        return world

    def _resolve_tickets(
        self, rng: random.Random, origins: dict[tuple[Any, int], Bag] | None = None
    ) -> dict[tuple[Any, int], Any]:
        """Each ticket bag's remaining tickets dealt at random to its places, oldest
        bags first: place -> ticket. With ``origins``, also the bag each place's
        ticket was first an element of (the bag whose shuffle placed it first)."""
        value_at: dict[tuple[Any, int], Any] = {}
        for bag in self.bags:
            items = [
                (value_at[bag, i], origins[bag, i] if origins is not None else None)
                if isinstance(item, Bag)
                else (item, bag)
                for i, item in enumerate(bag.items)
            ]
            rng.shuffle(items)
            for place, (value, origin) in zip(self.places[bag.order], items, strict=True):
                value_at[place] = value
                if origins is not None:
                    origins[place] = origin
        return value_at

    def _guess_tickets(
        self,
        value_at: dict[tuple[Any, int], Any],
        origins: dict[tuple[Any, int], Bag],
        weights: list[dict[int, float] | None],
        rng: random.Random,
    ) -> None:
        """Metropolis steps on a resolution, in place. A step picks an opponent's hidden
        ticket and another final place (a deck's, a hand's or an offer's) whose ticket
        came from the same bag, and exchanges the two tickets with probability
        ``min(1, new weight / old weight)``.

        The exchange is the same resolution with that bag's shuffle changed by one
        transposition, so it is as likely as the first; the steps therefore draw
        resolutions in proportion to the product of the opponents' ticket weights
        (``SWAPS_PER_TICKET`` steps per hidden opponent ticket: an approximation of
        that distribution, not an exact draw)."""
        groups: dict[Bag, list[tuple[Any, int]]] = {}
        moving = []
        for places in self.places.values():
            for place in places:
                holder = place[0]
                if isinstance(holder, Bag):
                    continue  # dealt on into a later bag: not where a ticket ends
                groups.setdefault(origins[place], []).append(place)
                if holder[0] == "tickets" and weights[holder[1]] is not None:
                    moving.append(place)
        if not moving:
            return

        def weight(place: tuple[Any, int]) -> float:
            holder = place[0]
            if holder[0] == "tickets":
                table = weights[holder[1]]
                if table is not None:
                    return table.get(value_at[place], 1.0)
            return 1.0

        for _ in range(SWAPS_PER_TICKET * len(moving)):
            place = moving[int(rng.random() * len(moving))]
            group = groups[origins[place]]
            if len(group) < 2:
                continue
            other = group[int(rng.random() * len(group))]
            if other == place:
                continue
            before = weight(place) * weight(other)
            value_at[place], value_at[other] = value_at[other], value_at[place]
            after = weight(place) * weight(other)
            if after < before and rng.random() * before >= after:
                value_at[place], value_at[other] = value_at[other], value_at[place]


class _Before:
    """What the knowledge needs of the position before a move."""

    __slots__ = ("hands", "face_up", "piles", "tickets", "offer", "kept", "phase")

    def __init__(self, state: GameState, rules: Any) -> None:
        self.phase = state.phase
        self.hands = [dict(p.hand) for p in state.players]
        self.face_up = list(state.face_up)
        self.piles = {d: list(rules.piles(state, d)[0]) for d in rules.deck_names}
        self.tickets = {d: list(pile) for d, pile in state.ticket_decks.items()}
        player = state.players[state.current]
        self.offer = list(player.offer)
        self.kept = len(player.tickets)

    def face_up_taken(self, action: Any) -> str | None:
        """The face-up card a ``DrawFaceUp`` takes (None for any other action)."""
        from ..actions import DrawFaceUp

        if isinstance(action, DrawFaceUp):
            return self.face_up[action.slot]
        return None


class _TracingRandom(random.Random):
    """A generator that notes every list it shuffles (the reshuffles the seat sees)."""

    def __init__(self) -> None:
        super().__init__()
        self.shuffled: list[tuple[list[Any], list[Any]]] = []

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        super().shuffle(x)
        self.shuffled.append((x, list(x)))
