"""Scripted positions for the Rails & Sails World rules lessons (``notebooks/rules_world_*``).

Like :mod:`ttr_nb.teaching.scenarios` (whose editing helpers these positions use),
each function returns a game set up so that the next action shows one rule; the
text views print stable text for checked notebook cells.

>>> game = double_ship()
>>> print(attempt(game, ClaimRoute(route_id(game, "dar-es-salaam", "mumbai"),
...                                (("ship2-white", 2),))))
✔ Ada claims Dar Es Salaam–Mumbai (4 white ship) with 2 white Double-Ship cards
  → Turn 2 · Ben to play
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..actions import ClaimRoute, DrawBlind, KeepTickets
from ..game import Game, new_game
from ..rules.world import CHOOSE_SUPPLY, ChooseSupply
from .scenarios import attempt as plain_attempt
from .scenarios import (
    give_routes,
    route_id,
    set_face_up,
    set_hand,
    set_tickets,
    stack_deck,
    ticket_id,
    ticket_lines,
)

if TYPE_CHECKING:
    from ..widgets import BoardWidget

__all__ = [
    "NAMES",
    "attempt",
    "board",
    "cards_text",
    "claim",
    "claim_text",
    "draw_round",
    "describe",
    "double_ship",
    "exchange",
    "harbor_building",
    "harbor_scoring",
    "pair_route",
    "refill_choice",
    "route_id",
    "setup_position",
    "started",
    "ticket_label",
    "tour_id",
    "turn_text",
    "two_more_turns",
    "wild_reset",
]

NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eve")
SEED = 7
SUPPLY = (20, 40)  # the rulebook's advice for a first game


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _give(game: Game, seat: int, cards: dict[str, int]) -> None:
    """Give ``seat`` exactly ``cards`` (card ids may hold hyphens); every other hand goes
    back to the decks first, so that even the 4 Single-Ship cards of a colour are free."""
    for other in range(game.num_players):
        if other != seat:
            set_hand(game, other)
    set_hand(game, seat, **cards)


# ------------------------------------------------------------------ lookups
def tour_id(game: Game, first: str, size: int | None = None) -> int:
    """Id of the tour ticket starting at city ``first`` (and naming ``size`` cities)."""
    for ticket in game.map.tickets:
        fits = size is None or len(ticket.cities) == size
        if ticket.tour_values and ticket.cities[0] == first and fits:
            return ticket.id
    raise ValueError(f"no tour from {first}")


def ticket_label(game: Game, ticket: int) -> str:
    """``Rio De Janeiro–Valparaiso (6)``; a tour: ``Mexico > Caracas > ... (15/10/−21)``."""
    t = game.map.ticket_by_id[ticket]
    names = [game.map.place_name(c) for c in t.cities]
    if t.tour_values:
        v = t.tour_values
        return " > ".join(names) + f" ({v['in_order']}/{v['any_order']}/−{v['penalty']})"
    return "–".join(names) + f" ({t.points})"


# --------------------------------------------------------------- text views
def cards_text(game: Game, cards: dict[str, int]) -> str:
    """``2 white Double-Ship cards, 1 Wild`` in the map's card order; ``no cards``."""
    parts = [game.rules.count_text(c.id, cards[c.id]) for c in game.map.card_types if cards[c.id]]
    return ", ".join(parts) or "no cards"


def turn_text(game: Game) -> str:
    """Whose turn it is and what they must do, in one line."""
    state = game.state
    if state.phase == "over":
        return "Game over"
    name = state.players[state.current].name
    if state.pending == CHOOSE_SUPPLY:
        return f"Setup · {name} secretly chooses a supply of 60 pieces"
    if state.phase == "setup":
        return f"Setup · {name} chooses which tickets to keep (at least 3)"
    line = f"Turn {state.turn} · {name} to play"
    if state.pending == "second_card":
        line += " · must take a second card (not a face-up Wild)"
    elif state.pending == "keep_tickets":
        line += " · must keep at least 1 of the tickets drawn"
    if state.final_turns_left is not None:
        trigger = state.players[state.last_round_by].name
        left = state.final_turns_left
        line += f" · the end is near (started by {trigger}): {_plural(left, 'turn')} left"
    return line


def describe(game: Game, players: Iterable[int] | None = None) -> str:
    """Plain-text view: turn, the face-up row (slots 1–6), both decks, the players."""
    state, rules = game.state, game.rules
    seats = range(len(state.players)) if players is None else players
    row = " · ".join(
        f"{i + 1} {rules.card_name(c) if c else '—'}" for i, c in enumerate(state.face_up)
    )
    decks = " · ".join(
        f"{deck} deck {len(rules.piles(state, deck)[0])} (discards "
        f"{len(rules.piles(state, deck)[1])})"
        for deck in rules.deck_names
    )
    tickets_left = sum(len(d) for d in state.ticket_decks.values())
    lines = [turn_text(game), f"Face up: {row}", f"{decks} · tickets left {tickets_left}"]
    harbors = state.extras.get("harbors", {})
    for i in seats:
        p = state.players[i]
        built = sorted(game.map.place_name(c) for c, seat in harbors.items() if seat == i)
        box = p.extras["box"]
        lines.append(
            f"{p.name} · {p.pieces['train']} trains, {p.pieces['ship']} ships (in the box: "
            f"{box['train']} trains, {box['ship']} ships) · {p.route_score} points"
        )
        lines.append(
            f"    harbors: {', '.join(built) or 'none'} ({p.extras['harbors_left']} left to build)"
        )
        lines.append(f"    hand: {cards_text(game, p.hand)}")
        lines += ticket_lines(game, i, "    ", ticket_label)
    return "\n".join(lines)


def attempt(game: Game, action: Any) -> str:
    """Try ``action``: ``✔`` and the log line, or ``✘`` and the rule (nothing changes)."""
    return plain_attempt(game, action, turn_text)


def board(
    game: Game, highlight: Iterable[int] = (), tour: int | None = None, **options: Any
) -> BoardWidget:
    """The board widget with ``game``'s routes and harbors, ``highlight`` haloed and the
    tour ``tour`` drawn as a numbered chain. After changing the game, call
    :func:`ttr_nb.teaching.scenarios.refresh`."""
    from ..widgets.world_board import install
    from .scenarios import board as plain_board

    options.setdefault("max_width", 900)
    view = plain_board(game, highlight, **options)
    install(view).show(tour)
    return view


# ---------------------------------------------------------------- positions
def setup_position(players: int = 3, seed: int = SEED) -> Game:
    """A new 3-player game, before anyone has chosen tickets."""
    return new_game("world", players=list(NAMES[:players]), seed=seed)


def started(players: int = 3, seed: int = SEED, supply: tuple[int, int] = SUPPLY) -> Game:
    """Past setup: every player kept all five tickets and chose ``supply`` (trains, ships)."""
    game = setup_position(players, seed)
    while game.state.pending == "keep_tickets":
        game.apply(KeepTickets(tuple(game.state.players[game.current_player].offer)))
    while game.phase == "setup":
        game.apply(ChooseSupply(*supply))
    return game


def refill_choice() -> Game:
    """Ada wants the red Train card in slot 1; the next Train card is a Wild, the next
    Ship card a white Double-Ship card. She chooses which deck refills the slot."""
    game = started()
    for seat in range(3):
        set_hand(game, seat)
    set_face_up(
        game, ["train-red", "train-green", "train-black", "ship-red", "ship2-red", "ship-white"]
    )
    stack_deck(game, ["wild", "ship2-white"])
    return game


def wild_reset() -> Game:
    """Two Wilds face up; the next Train card is a third one. Taking the red Train card and
    refilling from the train deck turns it up: all six cards go, 3 + 3 new ones come."""
    game = started()
    for seat in range(3):
        set_hand(game, seat)
    set_face_up(game, ["wild", "wild", "train-red", "ship-red", "ship2-red", "ship-white"])
    stack_deck(game, ["wild", "train-green", "train-black", "train-white"])
    stack_deck(game, ["ship2-black", "ship-green", "ship2-white"])
    return game


def double_ship() -> Game:
    """Ada holds 2 white Double-Ship cards, 1 white Single-Ship card and 3 red Train cards."""
    game = started()
    _give(game, 0, {"ship2-white": 2, "ship-white": 1, "train-red": 3})
    return game


def pair_route() -> Game:
    """Ada holds Train cards of several colours and a Wild; Beijing–Lahore is a 3-space
    pair route (two cards per space)."""
    game = started()
    hand = {"train-red": 2, "train-green": 1, "train-black": 2, "train-yellow": 1, "wild": 1}
    _give(game, 0, hand)
    return game


def harbor_building() -> Game:
    """Ada owns Caracas–Lima; she holds the cards for a yellow harbor (one Wild among them)."""
    game = started()
    give_routes(game, 0, [route_id(game, "caracas", "lima", "white")])
    _give(game, 0, {"train-yellow-harbor": 2, "ship-yellow": 1, "ship2-yellow": 1, "wild": 1})
    return game


ADA_ROUTES = [
    ("los-angeles", "mexico", "white"),
    ("caracas", "mexico", "red"),
    ("caracas", "lima", "white"),
    ("lima", "valparaiso", None),
    ("caracas", "rio-de-janeiro", "green"),
    ("los-angeles", "tokyo", "green"),
]
ADA_TICKETS = [
    ("rio-de-janeiro", "valparaiso"),
    ("los-angeles", "rio-de-janeiro"),
    ("rio-de-janeiro", "tokyo"),
    ("jakarta", "lima"),
]


def harbor_scoring() -> Game:
    """A finished game: Ada built harbors in Rio de Janeiro, Valparaiso and Lima; Ben built
    one in Lagos; Cleo none.

    Ada's network joins Los Angeles, Mexico, Caracas, Lima, Valparaiso, Rio de Janeiro and
    Tokyo. She completed Rio–Valparaiso (naming two of her harbors), Los Angeles–Rio,
    Rio–Tokyo and the tour Mexico > Caracas > Lima > Valparaiso; Jakarta–Lima is missed.
    """
    game = started()
    give_routes(game, 0, [route_id(game, a, b, c) for a, b, c in ADA_ROUTES])
    tickets = [ticket_id(game, a, b) for a, b in ADA_TICKETS] + [tour_id(game, "mexico")]
    set_tickets(game, 0, tickets)
    game.state.extras["harbors"].update({"rio-de-janeiro": 0, "valparaiso": 0, "lima": 0})
    game.state.players[0].extras["harbors_left"] = 0
    give_routes(game, 1, [route_id(game, "casablanca", "lagos")])
    game.state.extras["harbors"]["lagos"] = 1
    game.state.players[1].extras["harbors_left"] = 2
    game.state.phase = "over"
    game.state.ended_by = "last_round"
    game.state.last_round_by = 0
    return game


def exchange(supply: tuple[int, int] = SUPPLY) -> Game:
    """Past setup with ``supply`` chosen by everyone: with 20 trains and 40 ships, 5 trains
    and 10 ships wait in each box; with 25 trains and 35 ships, no train is left there."""
    return started(supply=supply)


def two_more_turns() -> Game:
    """Ada has 8 pieces left and can claim Athina–Tehran (2 trains): 6 left ends the game
    after two more turns for everyone, Ada included."""
    game = started()
    game.state.players[0].pieces = {"train": 4, "ship": 4}
    _give(game, 0, {"train-red": 2})
    return game


def draw_round(game: Game) -> list[str]:
    """Every player still to move draws two cards from the ship deck; their log lines."""
    lines = []
    while not game.is_over:
        game.apply(DrawBlind("ship"))
        game.apply(DrawBlind("ship"))
        lines.append(game.log[-2] + " / " + game.log[-1].split(" ", 1)[1])
    return lines


def claim_text(game: Game, a: str, b: str, color: str | None = None) -> str:
    """Label of the route ``a``–``b``."""
    route = game.map.route_by_id[route_id(game, a, b, color)]
    return game.map.route_label(route)


def claim(game: Game, a: str, b: str, cards: dict[str, int], color: str | None = None) -> str:
    """:func:`attempt` to claim ``a``–``b`` with ``cards`` (ids with hyphens)."""
    return attempt(game, ClaimRoute(route_id(game, a, b, color), tuple(cards.items())))
