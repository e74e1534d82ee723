"""Actions a player can take, as small frozen dataclasses.

Each action serialises to a plain dict (``{"type": "ClaimRoute", ...}``) for
saves and history; :func:`action_from_dict` reverses it.

Actions may be built from untrusted values (a save file, a widget, a script):
construction never fails, and :func:`shape_problem` says which field has the
wrong type or size, so the game can refuse the action with a typed error
instead of crashing deep inside the rules.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields
from typing import Any

from .errors import SaveFormatError

Payment = tuple[tuple[str, int], ...]
"""Cards spent, as sorted ``(card_type_id, count)`` pairs."""

Pickups = tuple[tuple[str, str], ...]
"""Pieces chosen at a claimed route's ends, as sorted ``(place_id, kind)`` pairs
(Germany: the colour of the passenger taken where several colours wait)."""

MAX_ID_CHARS = 40  # card, deck and place ids are short words
MAX_PAYMENT_ENTRIES = 30
MAX_CARD_COUNT = 1000
MAX_LIST_ITEMS = 30  # tickets kept, choices listed in one action
MAX_PICKUPS = 2  # a route has two ends


def payment(**counts: int) -> Payment:
    """Build a payment of cards from keyword counts.

    Parameters
    ----------
    **counts : int
        Cards of each type (a map's card ids: ``red``, ``locomotive``, ...); a count
        of 0 is left out.

    Returns
    -------
    Payment
        ``(card, count)`` pairs sorted by card, as :class:`ClaimRoute` takes them.

    Examples
    --------
    >>> payment(red=2, locomotive=1, blue=0)
    (('locomotive', 1), ('red', 2))
    >>> ClaimRoute(3, payment(red=2)) == ClaimRoute(3, (("red", 2),))
    True
    """
    return tuple(sorted((k, v) for k, v in counts.items() if v))


def short(value: Any, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters, for messages about bad input.

    >>> short("x" * 100, 10)
    "'xxxxxx..."
    """
    try:
        text = repr(value)
    except Exception:  # a hostile object's repr may fail; the type name is enough then
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def whole_number(value: Any) -> bool:
    """True for an int that is not a bool (``True`` is an int in Python)."""
    return isinstance(value, int) and not isinstance(value, bool)


def word_problem(value: Any, what: str) -> str | None:
    """Why ``value`` is not a short identifier word, or None."""
    if not isinstance(value, str):
        return f"{what} must be text, not {short(value)}"
    if not 0 < len(value) <= MAX_ID_CHARS:
        return f"{what} must be 1 to {MAX_ID_CHARS} characters long (got {len(value)})"
    return None


def _frozen(value: Any, depth: int = 3) -> Any:
    """Lists become tuples (a few levels deep) so that an action stays hashable."""
    if isinstance(value, list | tuple):
        if depth == 0:
            return "<nested too deeply>"
        return tuple(_frozen(v, depth - 1) for v in value)
    return value


def normal_payment(cards: Any) -> Payment | None:
    """Sorted pairs with repeated card ids merged, or None if ``cards`` is malformed."""
    if not isinstance(cards, tuple | list) or len(cards) > MAX_PAYMENT_ENTRIES:
        return None
    totals: dict[str, int] = {}
    for pair in cards:
        if not (isinstance(pair, tuple | list) and len(pair) == 2):
            return None
        cid, n = pair
        if word_problem(cid, "") or not whole_number(n) or not 0 < n <= MAX_CARD_COUNT:
            return None
        totals[cid] = totals.get(cid, 0) + n
    return tuple(sorted(totals.items()))


def is_normal_payment(cards: Any) -> bool:
    """True when ``cards`` is already what :func:`normal_payment` would make of it.

    Cheap enough for the engine's hot path: :meth:`ClaimRoute.trusted` checks it, so
    a payment that repeats a colour or lists colours out of order is normalised
    instead of spending a card twice or changing the discard order.
    """
    if not isinstance(cards, tuple) or len(cards) > MAX_PAYMENT_ENTRIES:
        return False
    previous = ""
    for pair in cards:
        if not (isinstance(pair, tuple) and len(pair) == 2):
            return False
        cid, n = pair
        if (
            not isinstance(cid, str)
            or cid <= previous
            or type(n) is not int
            or not 0 < n <= MAX_CARD_COUNT
        ):
            return False
        previous = cid
    return True


@dataclass(frozen=True)
class DrawFaceUp:
    """Take a face-up card.

    Parameters
    ----------
    slot : int
        The card's place in the row, from 0 (shown to players from 1).
    refill : str, default "train"
        The deck that replaces the card taken: on a map with two travel-card decks
        (World: ``"train"`` or ``"ship"``) the player chooses it; with one deck it stays
        at its default (and is left out of saves).

    Examples
    --------
    >>> from ttr_nb import new_game
    >>> game = new_game("usa", players=["Ann", "Ben"], seed=7)
    >>> for seat in range(2):  # both keep their first tickets
    ...     game.apply(game.legal_actions()[0])
    >>> game.apply(DrawFaceUp(0))
    >>> game.log[-1]
    'Ann takes the face-up white'
    """

    slot: int
    refill: str = "train"

    def __post_init__(self) -> None:
        object.__setattr__(self, "slot", _frozen(self.slot))
        object.__setattr__(self, "refill", _frozen(self.refill))

    def field_problem(self) -> tuple[str, str] | None:
        """``(field, reason)`` for the first malformed field, or None when all are well formed."""
        if not whole_number(self.slot):
            return "slot", f"the face-up slot must be a whole number, not {short(self.slot)}"
        problem = word_problem(self.refill, "the deck that refills the slot")
        return ("refill", problem) if problem else None

    def __str__(self) -> str:
        slot = self.slot + 1 if whole_number(self.slot) else short(self.slot)
        return f"take face-up card {slot}"


@dataclass(frozen=True)
class DrawBlind:
    """Take the top card of a travel-card deck, unseen.

    Parameters
    ----------
    deck : str, default "train"
        The deck: ``"train"``, or ``"ship"`` on World's board.

    Examples
    --------
    >>> from ttr_nb import new_game
    >>> game = new_game("usa", players=["Ann", "Ben"], seed=7)
    >>> for seat in range(2):  # both keep their first tickets
    ...     game.apply(game.legal_actions()[0])
    >>> game.apply(DrawBlind())
    >>> game.log[-1], str(DrawBlind())
    ('Ann draws a card from the deck', 'draw from the deck')
    """

    deck: str = "train"

    def __post_init__(self) -> None:
        object.__setattr__(self, "deck", _frozen(self.deck))

    def field_problem(self) -> tuple[str, str] | None:
        """``(field, reason)`` for the first malformed field, or None when all are well formed."""
        problem = word_problem(self.deck, "the deck")
        return ("deck", problem) if problem else None

    def __str__(self) -> str:
        return "draw from the deck" if self.deck == "train" else f"draw from the {self.deck} deck"


@dataclass(frozen=True)
class ClaimRoute:
    """Claim a route, paying with cards.

    Equal payments compare equal whatever order they came in, and a card named
    twice counts once with both counts added (``(("blue", 1), ("blue", 1))`` is
    two blue cards), so a payment can never spend a card twice.

    Parameters
    ----------
    route : int
        The route's id on the map.
    cards : Payment
        ``(card, count)`` pairs (:func:`payment` builds them).
    pickups : tuple of (str, str), default ()
        The choices a variant asks for with a claim: in Germany, the colour of the
        passenger taken at each end where several colours wait, as ``(place, colour)``
        pairs (``(("berlin", "red"),)``). Ends with no choice to make are left out;
        most claims have no pickups at all.

    Examples
    --------
    >>> ClaimRoute(7, (("blue", 1), ("red", 2), ("blue", 1))).cards
    (('blue', 2), ('red', 2))
    >>> from ttr_nb import new_game
    >>> game = new_game("usa", players=["Ann", "Ben"], seed=7)
    >>> for seat in range(2):  # both keep their first tickets
    ...     game.apply(game.legal_actions()[0])
    >>> claim = next(a for a in game.legal_actions() if isinstance(a, ClaimRoute))
    >>> game.apply(claim)
    >>> claim, game.log[-1]
    (ClaimRoute(route=3, cards=(('blue', 1),), pickups=()), \
'Ann claims Atlanta–Nashville (1 gray) with 1 blue card')
    """

    route: int
    cards: Payment
    pickups: Pickups = ()

    def __post_init__(self) -> None:
        normal = normal_payment(self.cards)
        object.__setattr__(self, "cards", _frozen(self.cards) if normal is None else normal)
        object.__setattr__(self, "route", _frozen(self.route))
        pickups = _frozen(self.pickups)
        if _pickups_problem(pickups) is None:
            pickups = tuple(sorted(pickups))
        object.__setattr__(self, "pickups", pickups)

    @classmethod
    def trusted(cls, route: int, cards: Payment, pickups: Pickups = ()) -> ClaimRoute:
        """Build from an already sorted payment, skipping normalisation (the engine's hot path).

        A payment or pickups not in normal form (a colour repeated, colours or pickups out
        of order) are normalised as the plain constructor would.
        """
        if not is_normal_payment(cards) or (
            pickups and (not isinstance(pickups, tuple) or list(pickups) != sorted(pickups))
        ):
            return cls(route, cards, pickups)
        action = object.__new__(cls)
        object.__setattr__(action, "route", route)
        object.__setattr__(action, "cards", cards)
        object.__setattr__(action, "pickups", pickups)
        return action

    def field_problem(self) -> tuple[str, str] | None:
        """``(field, reason)`` for the first malformed field, or None when all are well formed."""
        if not whole_number(self.route):
            return "route", f"the route must be a route number, not {short(self.route)}"
        if normal_payment(self.cards) is None:
            return "cards", _payment_problem(self.cards)
        problem = _pickups_problem(self.pickups)
        return ("pickups", problem) if problem else None

    def __str__(self) -> str:
        text = f"claim route {short(self.route)} with {describe_cards(self.cards)}"
        if self.pickups:
            text += f", taking {short(self.pickups)}"
        return text


def _pickups_problem(pickups: Any) -> str | None:
    """Why ``pickups`` is not a short list of ``[place, choice]`` pairs, or None."""
    if not isinstance(pickups, tuple):
        return f"the pickups must be a list of [place, choice] pairs, not {short(pickups)}"
    if len(pickups) > MAX_PICKUPS:
        return f"{len(pickups)} pickups listed; a route has only {MAX_PICKUPS} ends"
    for pair in pickups:
        if not (isinstance(pair, tuple) and len(pair) == 2):
            return f"each pickup must be a [place, choice] pair, not {short(pair)}"
        for value, what in zip(pair, ("a pickup's place", "a pickup's choice"), strict=True):
            problem = word_problem(value, what)
            if problem:
                return problem
    return None


def _payment_problem(cards: Any) -> str:
    if not isinstance(cards, tuple | list):
        return f"the payment must be a list of [card, count] pairs, not {short(cards)}"
    if len(cards) > MAX_PAYMENT_ENTRIES:
        return f"the payment lists {len(cards)} entries; at most {MAX_PAYMENT_ENTRIES} are allowed"
    for pair in cards:
        if not (isinstance(pair, tuple | list) and len(pair) == 2):
            return f"each payment entry must be a [card, count] pair, not {short(pair)}"
        cid, n = pair
        problem = word_problem(cid, "a card name")
        if problem:
            return problem
        if not whole_number(n):
            return f"the count of {cid} cards must be a whole number, not {short(n)}"
        if not 0 < n <= MAX_CARD_COUNT:
            return f"the count of {cid} cards must be between 1 and {MAX_CARD_COUNT}, not {n}"
    return "the payment is malformed"


@dataclass(frozen=True)
class DrawTickets:
    """Draw destination tickets, then keep some of them (:class:`KeepTickets`).

    Parameters
    ----------
    long : int, default 0
        How many come from a deck of long tickets (Germany); the others come from the
        regular deck.

    Examples
    --------
    >>> from ttr_nb import new_game
    >>> game = new_game("usa", players=["Ann", "Ben"], seed=7)
    >>> for seat in range(2):  # both keep their first tickets
    ...     game.apply(game.legal_actions()[0])
    >>> game.apply(DrawTickets())
    >>> game.log[-1], game.observation(0)["offer"]
    ('Ann draws tickets', [29, 9, 7])
    """

    long: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "long", _frozen(self.long))

    def field_problem(self) -> tuple[str, str] | None:
        """``(field, reason)`` for the first malformed field, or None when all are well formed."""
        if not whole_number(self.long) or not 0 <= self.long <= MAX_LIST_ITEMS:
            return (
                "long",
                f"the number of long tickets must be a small whole number, not {short(self.long)}",
            )
        return None

    def __str__(self) -> str:
        return "draw tickets" if not self.long else f"draw tickets ({short(self.long)} long)"


@dataclass(frozen=True)
class KeepTickets:
    """Keep some of the tickets just drawn; the rest go under their deck.

    Parameters
    ----------
    tickets : tuple of int
        Ids of the tickets kept (any order: they are sorted).

    Examples
    --------
    >>> from ttr_nb import new_game
    >>> game = new_game("usa", players=["Ann", "Ben"], seed=7)
    >>> game.observation(0)["offer"]
    [18, 11, 17]
    >>> KeepTickets((18, 11)) == KeepTickets((11, 18))
    True
    >>> game.apply(KeepTickets((18, 11)))
    >>> game.log[-1], sorted(game.observation(0)["tickets"])
    ('Ann keeps 2 tickets', [11, 18])
    """

    tickets: tuple[int, ...]

    def __post_init__(self) -> None:
        tickets = _frozen(self.tickets)
        if isinstance(tickets, tuple) and all(whole_number(t) for t in tickets):
            tickets = tuple(sorted(tickets))
        object.__setattr__(self, "tickets", tickets)

    @classmethod
    def trusted(cls, tickets: tuple[int, ...]) -> KeepTickets:
        """Build from ticket ids already sorted, skipping normalisation (the engine's hot path)."""
        action = object.__new__(cls)
        object.__setattr__(action, "tickets", tickets)
        return action

    def field_problem(self) -> tuple[str, str] | None:
        """``(field, reason)`` for the first malformed field, or None when all are well formed."""
        if not isinstance(self.tickets, tuple):
            return "tickets", f"the tickets kept must be a list, not {short(self.tickets)}"
        if len(self.tickets) > MAX_LIST_ITEMS:
            return "tickets", f"{len(self.tickets)} tickets listed; at most {MAX_LIST_ITEMS}"
        for ticket in self.tickets:
            if not whole_number(ticket):
                return "tickets", f"a ticket must be a ticket number, not {short(ticket)}"
        return None

    def __str__(self) -> str:
        return f"keep tickets {', '.join(map(short, self.tickets)) or 'none'}"


@dataclass(frozen=True)
class Pass:
    """Do nothing, when no other action is legal.

    The rules do not say what a player who can do nothing does; by this house rule
    (``docs/house-rules.md``) they pass.

    Examples
    --------
    >>> from ttr_nb import new_game
    >>> game = new_game("usa", players=["Ann", "Ben"], seed=7)
    >>> for seat in range(2):  # both keep their first tickets
    ...     game.apply(game.legal_actions()[0])
    >>> game.problem(Pass())
    'passing is only allowed when no other action is possible'
    """

    def __str__(self) -> str:
        return "pass"


Action = DrawFaceUp | DrawBlind | ClaimRoute | DrawTickets | KeepTickets | Pass
ACTION_TYPES: dict[str, type] = {
    cls.__name__: cls for cls in (DrawFaceUp, DrawBlind, ClaimRoute, DrawTickets, KeepTickets, Pass)
}


_MARKABLE: set[type] = set(ACTION_TYPES.values())  # types whose marked instances skip checks


def register_action(cls: type) -> type:
    """Class decorator for variant actions, so saves can name them."""
    ACTION_TYPES[cls.__name__] = cls
    _MARKABLE.add(cls)
    return cls


WELL_FORMED = "_well_formed"  # attribute set on actions the engine built itself


def mark_well_formed(action: Any) -> Any:
    """Mark ``action``, built by the engine from checked values, as well formed, so that
    :func:`shape_problem` does not check its fields again; returns ``action``.

    Only the engine's own lists use it (an action built from outside values never
    carries the mark: a copy, a replacement or a loaded action is checked in full).
    The rules themselves are still checked for every action carried out.

    >>> shape_problem(mark_well_formed(DrawFaceUp(0))) is None
    True
    """
    object.__setattr__(action, WELL_FORMED, True)
    return action


def shape_problem(action: Any) -> tuple[str, str] | None:
    """(field, reason) when ``action`` is not an action or a field has the wrong type or size.

    >>> shape_problem(DrawFaceUp("0"))
    ('slot', "the face-up slot must be a whole number, not '0'")
    >>> shape_problem(DrawFaceUp(0)) is None
    True
    """
    if getattr(action, WELL_FORMED, False) is True and type(action) in _MARKABLE:
        return None
    if ACTION_TYPES.get(type(action).__name__) is not type(action):
        return "type", f"{short(action)} is not an action"
    check: Callable[[], tuple[str, str] | None] | None = getattr(action, "field_problem", None)
    return check() if check is not None else None


def describe_cards(cards: Payment) -> str:
    """``2 red + 1 locomotive`` style text for a payment."""
    try:
        return " + ".join(f"{n} {card}" for card, n in cards) or "no cards"
    except (TypeError, ValueError):
        return short(cards)


def action_to_dict(action: Any) -> dict[str, Any]:
    """Plain JSON-ready form of an action (fields left at their default are omitted)."""
    out: dict[str, Any] = {"type": type(action).__name__}
    for f in fields(action):
        value = getattr(action, f.name)
        if f.default is not MISSING and value == f.default:
            continue
        out[f.name] = _to_json(value)
    return out


def _to_json(value: Any) -> Any:
    return [_to_json(v) for v in value] if isinstance(value, tuple) else value


def action_from_dict(data: Any, where: str = "action", source: str = "<save>") -> Any:
    """Rebuild an action from :func:`action_to_dict` output.

    Raises
    ------
    SaveFormatError
        If the dict names no known action, has unknown or missing fields, or a
        field of the wrong type or size (naming ``where`` and the field).
    """
    kind = data.get("type") if isinstance(data, dict) else None
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise SaveFormatError(source, where, f"not a known action: {short(data, 80)}")
    cls = ACTION_TYPES[kind]
    names = {f.name for f in fields(cls)}
    unknown = sorted(str(k) for k in data if k != "type" and k not in names)
    if unknown:
        raise SaveFormatError(source, where, f"{kind} has no field {short(unknown[0])}")
    try:
        action = cls(**{k: v for k, v in data.items() if k != "type"})
    except TypeError:  # a required field is missing
        missing = sorted(n for n in names if n not in data)
        raise SaveFormatError(source, where, f"{kind} needs the field(s) {missing}") from None
    problem = shape_problem(action)
    if problem is not None:
        raise SaveFormatError(source, f"{where}.{problem[0]}", problem[1])
    return action


@dataclass(frozen=True)
class BuildInCity:
    """Base of the actions that build a piece in a city for cards (Europe's train station,
    World's harbor): ``city`` and a ``cards`` payment, checked and described alike.

    A subclass names its piece in ``building`` (``"station"``) and registers itself with
    :func:`register_action`.
    """

    city: str
    cards: Payment

    building = "piece"

    def __post_init__(self) -> None:
        normal = normal_payment(self.cards)
        object.__setattr__(self, "cards", _frozen(self.cards) if normal is None else normal)
        object.__setattr__(self, "city", _frozen(self.city))

    @classmethod
    def trusted(cls, city: str, cards: Payment) -> Any:
        """Build from an already sorted payment (the engine's hot path); a payment not in
        normal form is normalised as the plain constructor would."""
        if not is_normal_payment(cards):
            return cls(city, cards)
        action = object.__new__(cls)
        object.__setattr__(action, "city", city)
        object.__setattr__(action, "cards", cards)
        return action

    def field_problem(self) -> tuple[str, str] | None:
        """``(field, reason)`` for the first malformed field, or None when all are well formed."""
        problem = word_problem(self.city, f"the {self.building}'s city")
        if problem:
            return "city", problem
        if normal_payment(self.cards) is None:
            return "cards", _payment_problem(self.cards)
        return None

    def __str__(self) -> str:
        return f"build a {self.building} in {short(self.city)} with {describe_cards(self.cards)}"
