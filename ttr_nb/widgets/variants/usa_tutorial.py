"""The USA map's tutorial: every rule of the original game, in the order a first game
meets them, each on a position the engine builds (see :mod:`ttr_nb.widgets.tutorial`).

The rule ids are defined here, once, with the part of the rules lessons that teaches each
in depth; the lessons' sections name the same ids (their ``ttr_rules`` metadata).
"""

from __future__ import annotations

from ..tutorial import claiming, common
from ..tutorial.model import Rule, Tutorial, register_lessons, register_tutorial

L1 = "rules_usa_1_setup_and_cards.ipynb"
L2 = "rules_usa_2_locomotives.ipynb"
L3 = "rules_usa_3_claims_and_tickets.ipynb"
L4 = "rules_usa_4_the_end.ipynb"
L5 = "rules_usa_5_ties_and_quiz.ipynb"
register_lessons(
    {
        L1: "Ticket to Ride (USA), part 1 of 5: setting up and drawing cards",
        L2: "Ticket to Ride (USA), part 2 of 5: locomotives",
        L3: "Ticket to Ride (USA), part 3 of 5: claiming routes, double routes and tickets",
        L4: "Ticket to Ride (USA), part 4 of 5: the last round, scoring and the longest path",
        L5: "Ticket to Ride (USA), part 5 of 5: ties, house rules and a quiz",
    }
)

USA_RULES = (
    Rule("aim", "What you are trying to do", L1, "1. What you are trying to do"),
    Rule("setup", "Setting up: cards, trains, first tickets", L1, "2. Setting up"),
    Rule(
        "turn-choices",
        "A turn is one of three things",
        L1,
        "3. A turn: exactly one of three things",
    ),
    Rule("two-cards", "Drawing two cards", L1, "4. Drawing two cards"),
    Rule("face-up-locomotive", "Face-up locomotives", L2, "5. Locomotives"),
    Rule("locomotive-any-colour", "Locomotives pay for any colour", L2, "5. Locomotives"),
    Rule("three-locomotive-reset", "Three locomotives face up", L2, "6. Three locomotives face up"),
    Rule("pay-colour", "Paying for a coloured route", L3, "7. Claiming a route"),
    Rule("pay-gray", "Paying for a gray route", L3, "7. Claiming a route"),
    Rule("double-routes", "Double routes and the number of players", L3, "8. Double routes"),
    Rule("later-tickets", "Drawing tickets later", L3, "9. Drawing destination tickets"),
    Rule("last-round", "The last round", L4, "10. The last round"),
    Rule("route-points", "Route points", L4, "11. Final scoring"),
    Rule("tickets-scored", "Tickets won and lost", L4, "11. Final scoring"),
    Rule("longest-path", "The longest path bonus", L4, "12. The longest continuous path"),
    Rule("ties", "Ties", L5, "13. When points are tied"),
    Rule(
        "house-rules",
        "Where the rulebook is silent",
        L5,
        "14. House rules: where the rulebook is silent",
    ),
)


@register_tutorial("usa")
def usa_tutorial() -> Tutorial:
    """The USA tutorial: 15 steps of one game, from the first tickets to its score, then a
    tie in another game and a recap."""
    m = "usa"
    return Tutorial(
        map_id=m,
        title="Learn to play: USA",
        rules=USA_RULES,
        steps=(
            common.first_tickets(m),
            common.turn_choices(m),
            common.two_cards(m),
            common.face_up_locomotive(m),
            common.locomotive_second(m),
            common.three_locomotives(m),
            claiming.pay_colour(m),
            claiming.pay_gray(m),
            claiming.locomotives_pay(m),
            claiming.double_routes(m),
            common.later_tickets(m),
            common.last_round(m),
            common.final_turn(m),
            common.ties(m),
            common.recap(m, common.USA_RECAP),
        ),
    )
