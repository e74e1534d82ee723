"""How the app presents Ticket to Ride: Germany: passengers, their majorities, two ticket decks.

* The board draws every passenger waiting at a city or country (lettered discs,
  :mod:`ttr_nb.widgets.germany_board`) and hovering tells who waits where.
* Selecting a route says which passengers claiming it takes; where an end holds
  several colours, *Claim* asks which one, naming what each colour does to the
  race for that colour.
* Drawing tickets asks for the short/long split (:class:`TicketMixUI`).
* The players' table shows each player's passengers by colour, who leads each
  colour (★) and what the majorities would score now; the end screen shows the
  majority table (20 and 10 points, ties) and the Globetrotter.
"""

from __future__ import annotations

import html
from dataclasses import replace
from typing import Any

from ...actions import ClaimRoute
from ...game import Game
from ...rules.germany import FIRST_POINTS, SECOND_POINTS, ColourMajority, GermanyRules
from .. import panels, style
from ..board import FactProvider, PiecePainter
from ..controls import count
from ..germany_board import paint_passengers, passenger_facts
from ..rules_card import RulesText
from .base import register
from .ticket_mix import TicketMixUI


def _rules(view: Game) -> GermanyRules:
    assert isinstance(view.rules, GermanyRules)
    return view.rules


def either(words: list[str]) -> str:
    """``red``, ``red or blue``, ``red, blue or white``.

    >>> either(["red", "blue", "white"])
    'red, blue or white'
    """
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def standing(view: Game, seat: int, colour: str) -> str:
    """Where ``seat`` stands in the race for ``colour``: ``you have 1; Bruno leads with 3``."""
    rules = _rules(view)
    names = [p.name for p in view.state.players]
    majority = next(m for m in rules.majorities(view.state) if m.colour == colour)
    mine = majority.counts[seat]
    if not majority.first:
        return "nobody has one yet"
    top = majority.counts[majority.first[0]]
    if seat in majority.first:
        return (
            "you lead with " + str(mine)
            if len(majority.first) == 1
            else f"you share the lead ({mine})"
        )
    leaders = ", ".join(names[i] for i in majority.first)
    return (
        f"you have {mine}; {leaders} {'leads' if len(majority.first) == 1 else 'lead'} with {top}"
    )


def pickup_question(view: Game, claims: list[ClaimRoute]) -> str:
    """``Take which passenger at Berlin: red, black, yellow or white?`` for the ways one
    claim may pick up its passengers (the claims differ only in ``pickups``)."""
    rules = _rules(view)
    state = view.state
    route = view.map.route_by_id[claims[0].route]
    chosen = {place for claim in claims for place, _ in claim.pickups}
    choices = []
    fixed = []
    for place in rules.route_places[route.id]:
        waiting = rules.passengers_at(state, place)
        name = view.map.place_name(place)
        if place in chosen:
            choices.append((name, either(list(waiting))))
        elif waiting:
            fixed.append(f"the {next(iter(waiting))} passenger at {name}")
    if len(choices) == 1:
        name, colours = choices[0]
        question = f"Take which passenger at {name}: {colours}?"
    else:
        ends = " and ".join(f"one at {name} ({colours})" for name, colours in choices)
        question = f"Take which passengers: {ends}?"
    if fixed:
        question += f" The claim also takes {' and '.join(fixed)}."
    return question


def pickup_label(view: Game, claim: ClaimRoute) -> str:
    """An answer to :func:`pickup_question`: ``R red: you have 1; Bruno leads with 3``."""
    seat = view.state.current
    parts = []
    for place, colour in claim.pickups:
        letter = style.swatch(colour).letter
        if len(claim.pickups) == 1:
            return f"{letter} {colour}: {standing(view, seat, colour)}"
        parts.append(f"{letter} {colour} at {view.map.place_name(place)}")
    return " and ".join(parts)


def claim_passengers_text(view: Game, route_id: int) -> str:
    """Which passengers claiming ``route_id`` would take, in words.

    For example ``Claiming it takes the green passenger at Magdeburg and one at Berlin
    (you choose: red, black, yellow or white).``
    """
    rules = _rules(view)
    taken, chosen, empty = [], [], []
    for place in rules.route_places[route_id]:
        waiting = rules.passengers_at(view.state, place)
        name = view.map.place_name(place)
        if not waiting:
            empty.append(name)
        elif len(waiting) == 1:
            colour = next(iter(waiting))
            taken.append(f"{'the' if waiting[colour] == 1 else 'a'} {colour} passenger at {name}")
        else:
            chosen.append(f"one at {name} (you choose: {either(list(waiting))})")
    if not taken and not chosen:
        return "No passenger is left at either end: claiming it takes none."
    if chosen and not taken:
        chosen[0] = chosen[0].replace("one at", "one passenger at", 1)
    text = "Claiming it takes " + " and ".join(taken + chosen) + "."
    if empty:
        text += f" No passenger is left at {empty[0]}."
    return text


# ---------------------------------------------------------------- scoring
def passengers_cell(view: Game, seat: int, majorities: list[ColourMajority]) -> str:
    """One player's passengers by colour as lettered chips; ★ marks a colour they lead."""
    chips = []
    for m in majorities:
        n = m.counts[seat]
        lead = seat in m.first
        text = f"{style.swatch(m.colour).letter}{n}{'★' if lead else ''}"
        faded = "opacity:0.35;" if not n else ""
        chips.append(
            f"<span class='ttr-passenger' data-colour='{m.colour}' "
            f"style='{faded}display:inline-block;white-space:nowrap'>"
            f"{panels.chip(m.colour, text)}</span>"
        )
    # The chips wrap between colours when the column is narrow (a phone).
    return f"<span class='ttr-passengers'>{''.join(chips)}</span>"


def who_scores(names: list[str], m: ColourMajority) -> str:
    """``Ada 20; Bruno and Chen 10 (tied second)`` for one colour."""
    firsts = " and ".join(names[i] for i in m.first)
    seconds = " and ".join(names[i] for i in m.second)
    if not m.first:
        return "nobody holds this colour"
    if len(m.first) > 1:
        return f"tied for most: {firsts} {FIRST_POINTS} each, so nobody scores {SECOND_POINTS}"
    text = f"{firsts} {FIRST_POINTS}"
    if not seconds:
        return text + "; nobody else holds one"
    return text + f"; {seconds} {SECOND_POINTS}" + (" (tied second)" if len(m.second) > 1 else "")


def majority_table_html(view: Game) -> str:
    """The majority table: passengers per colour and player, points, and why."""
    rules = _rules(view)
    names = [p.name for p in view.state.players]
    majorities = rules.majorities(view.state)
    head = "".join(
        f"<th class='ttr-num' style='overflow-wrap:anywhere'>{panels.player_chip(i)}"
        f"{html.escape(n)}</th>"
        for i, n in enumerate(names)
    )
    rows = []
    for m in majorities:
        cells = "".join(
            f"<td class='ttr-num' style='white-space:nowrap'>{n} → <b>{points}</b></td>"
            for n, points in zip(m.counts, m.points, strict=True)
        )
        # Who scores goes on a line under the colour's counts: as a column it pushed
        # the table out of a laptop's play column.
        rows.append(
            f"<tr data-colour='{m.colour}' class='ttr-has-more'><td style='white-space:nowrap'>"
            f"{panels.chip(m.colour)}{m.colour}</td>{cells}</tr>"
            f"<tr class='ttr-more' data-scores='{m.colour}'><td colspan='{len(names) + 1}'>"
            f"<span class='ttr-note'>{html.escape(who_scores(names, m))}</span></td></tr>"
        )
    totals = "".join(
        f"<td class='ttr-num'><b>{sum(m.points[i] for m in majorities)}</b></td>"
        for i in range(len(names))
    )
    rows.append(f"<tr class='ttr-total'><td><b>total</b></td>{totals}</tr>")
    return (
        "<h4>Passenger majorities</h4>"
        f"<div class='ttr-note'>Per colour: most passengers {FIRST_POINTS} points, second "
        f"{SECOND_POINTS}; tied leaders all score {FIRST_POINTS} and nobody scores "
        f"{SECOND_POINTS}; tied seconds all score {SECOND_POINTS}. Cells: passengers → "
        "points; under each colour, who scores.</div>"
        "<div class='ttr-fit'><table class='ttr-table ttr-majorities'>"
        f"<tr><th>colour</th>{head}</tr>{''.join(rows)}</table></div>"
    )


def globetrotter_html(view: Game, title: str = "Globetrotter", points: int | None = None) -> str:
    """Who completed the most tickets and gets the bonus for it (Germany's Globetrotter;
    Märklin passes its own ``title`` and ``points``)."""
    rules: Any = view.rules
    bonus = rules.globetrotter if points is None else points
    names = [p.name for p in view.state.players]
    completed = rules.completed_counts(view.state)
    best = max(completed, default=0)
    counts = ", ".join(f"{n} {c}" for n, c in zip(names, completed, strict=True))
    if not best:
        verdict = "Nobody completed a ticket, so nobody gets it."
    else:
        winners = [names[i] for i, c in enumerate(completed) if c == best]
        who = " and ".join(winners)
        each = " each" if len(winners) > 1 else ""
        verdict = f"{who} completed the most ({count(best, 'ticket')}): {bonus} points{each}."
    return (
        f"<h4>{html.escape(title)}</h4>"
        f"<div class='ttr-globetrotter'>Completed tickets: {html.escape(counts)}. "
        f"{html.escape(verdict)}</div>"
    )


@register("germany")
class GermanyUI(TicketMixUI):
    """Germany's presentation; see the module docstring."""

    rulebook_points = {"short": (3, 11), "long": (12, 22)}  # as the rulebook lists them

    def board_painters(self) -> list[PiecePainter]:
        return [paint_passengers]

    def fact_providers(self) -> list[FactProvider]:
        return [passenger_facts]

    def choice_question(self, view: Game, actions: list[Any]) -> str:
        if actions and all(isinstance(a, ClaimRoute) and a.pickups for a in actions):
            return pickup_question(view, actions)
        return super().choice_question(view, actions)

    def label(self, view: Game, action: Any) -> str:
        if isinstance(action, ClaimRoute) and action.pickups:
            return pickup_label(view, action)
        return super().label(view, action)

    def claim_note(self, view: Game, route_id: int) -> str:
        return claim_passengers_text(view, route_id)

    def colour_key(self) -> str:
        return (
            super().colour_key() + " Discs beside a city (or on a country's ring) are "
            "passengers waiting there, lettered like the cards (their colours are a stand-in: "
            "see About this map)."
        )

    def player_columns(self, view: Game) -> list[tuple[str, list[str]]]:
        rules = _rules(view)
        majorities = rules.majorities(view.state)
        seats = range(len(view.state.players))
        points = [str(sum(m.points[i] for m in majorities)) for i in seats]
        return [
            ("passengers (★ most)", [passengers_cell(view, i, majorities) for i in seats]),
            ("majorities" if view.is_over else "majorities now", points),
        ]

    def end_sections(self, view: Game) -> list[str]:
        return [majority_table_html(view), globetrotter_html(view)]

    # ------------------------------------------------------------ the rules card
    def rules_card(self) -> RulesText:
        card = super().rules_card()
        return replace(
            card,
            setup=(
                card.setup[0],
                "4 tickets drawn, in any mix of the short and the long deck (say the mix "
                "first): keep at least 2.",
                "60 passengers wait on the cities and countries.",
            ),
            turn=(
                card.turn[0],
                "Or claim 1 route, and take one passenger from each of its ends where one "
                "waits (your choice of colour).",
                "Or draw 4 tickets from the two decks (say the mix first) and keep at least 1.",
            ),
            claiming=(
                *card.claiming[:4],
                "Double and triple routes: one player never owns two tracks; with 2 or 3 "
                "players only one track is used.",
                "A country joins no two routes: it only completes the tickets naming it.",
                card.claiming[-1],
            ),
            scoring=(
                card.scoring[0],
                "15 points (the Globetrotter) for the most completed tickets; a tie: each.",
                "Each passenger colour: 20 points for the most, 10 for the second most "
                "(a tie for the most: 20 each and no 10).",
                "No longest-path bonus.",
                "Equal points: the most completed tickets, then the most passengers; then "
                "a shared victory.",
            ),
        )

    def house_rules(self) -> list[str]:
        return [
            *super().house_rules(),
            "The Globetrotter needs at least one completed ticket.",
            "A ticket draw takes 4 tickets unless both decks together hold fewer; a mix the "
            "decks cannot supply is refused (choose again).",
            "A claim always takes a passenger from each end that has one (taking one never "
            "costs the taker).",
        ]
