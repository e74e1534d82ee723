"""The quiz at the end of ``notebooks/rules_germany.ipynb`` (answers sealed, see
:mod:`ttr_nb.teaching.quiz`).

>>> len(GERMANY)
8
>>> GERMANY.check(1, "z")
Question 1: answer with one of the letters a, b, c.
"""

from __future__ import annotations

from .quiz import Quiz, _q

__all__ = ["GERMANY", "check", "show"]

GERMANY = Quiz(
    "Ticket to Ride: Germany: rules quiz",
    [
        _q(
            "You claim Berlin–Magdeburg. Berlin holds 2 red and 1 black passenger, Magdeburg "
            "a single green one. What do you take?",
            [
                "Only one passenger, from the city of your choice.",
                "The green one from Magdeburg, and one passenger from Berlin whose colour you "
                "choose.",
                "Every red passenger in Berlin, and the green one.",
            ],
            "0e232e7b2df0",
            "A claim takes one passenger from each end that still has one. Where several "
            "colours wait, you pick the colour; where one passenger waits, there is nothing "
            "to choose.",
            "How many ends does a route have?",
        ),
        _q(
            "Your trains run from Freiburg into France and from Saarbrücken into France. Do "
            "they join Freiburg to Saarbrücken?",
            [
                "No: every route into a country is a dead end of its own.",
                "Yes: both end in France.",
                "Only if you also hold a ticket naming France.",
            ],
            "d3eb5e82510a",
            "A country is drawn as several separate spaces, one per route. A connection may "
            "end in a country but never pass through it.",
            "Look at how a country appears on the board.",
        ),
        _q(
            "In a 2-player game Ada claims one of the three Düsseldorf–Köln tracks. What may "
            "Ben do there?",
            [
                "Claim either of the two other tracks.",
                "Claim one of them, but only with locomotives.",
                "Nothing: with 2 or 3 players only one track of a double or triple route is "
                "ever used.",
            ],
            "e63fa860d03b",
            "With 2 or 3 players the first claim closes the other tracks of a double or triple "
            "route for everyone. With 4 or 5 another player could take one, but never a second "
            "one for the same player.",
            "How many players are at the table?",
        ),
        _q(
            "At the end Ada has 3 red passengers, Ben 1 and Cleo 1. Who scores what for red?",
            [
                "Ada 20, nobody else.",
                "Ada 20, Ben 10 and Cleo 10.",
                "Ada 20, Ben 5 and Cleo 5.",
            ],
            "4d7503df1106",
            "The most passengers of a colour score 20, the second most 10. Players tied for "
            "second place all score the full 10.",
            "Ties for second place are not split.",
        ),
        _q(
            "Black passengers at the end: Ada 2, Ben 2, Cleo 1. Who scores what for black?",
            [
                "Ada 20, Ben 20, Cleo 10.",
                "Ada 10, Ben 10, Cleo 0.",
                "Ada 20, Ben 20, Cleo 0.",
            ],
            "7a3147e0a3b2",
            "Players tied for the most all score 20, and then nobody scores for second place.",
            "What happens to second place when the lead is shared?",
        ),
        _q(
            "On your turn you draw destination tickets. How does it work?",
            [
                "You say how many of 4 tickets come from the long deck, draw them, and keep at "
                "least 1.",
                "You draw 3 tickets from one deck and keep at least 1.",
                "You draw 4 tickets from the deck of your choice and keep at least 2.",
            ],
            "0a705f7a1bb8",
            "There are two decks, short and long. You announce the split, draw 4 (fewer only "
            "if the decks run out), keep at least 1 and put the rest under their own deck. At "
            "setup you keep at least 2.",
            "Germany has two ticket decks.",
        ),
        _q(
            "Ada and Ben finish on the same points and both completed 5 tickets. Ada collected "
            "12 passengers, Ben 14. Who wins?",
            ["Ada.", "Ben.", "They share the victory."],
            "4ecd5170a1ec",
            "A tie on points goes to the player with more completed tickets, then to the "
            "player with more passengers. Only if both are equal is the victory shared.",
            "There are two tie-breakers; the first one is equal here.",
        ),
        _q(
            "Ada and Ben each completed 6 tickets, Cleo 4. Who gets the Globetrotter bonus?",
            [
                "Nobody, because it is a tie.",
                "The one of Ada and Ben whose tickets are worth more.",
                "Both Ada and Ben, 15 points each.",
            ],
            "c49b3643192d",
            "The Globetrotter (15) goes to the player with the most completed tickets; every "
            "player tied for the most gets it.",
            "Ties are generous in Germany.",
        ),
    ],
)


def show() -> None:
    """Print the questions."""
    GERMANY.show()


def check(number: int, answer: str) -> None:
    """Print whether ``answer`` is right for question ``number`` (with the explanation)."""
    GERMANY.check(number, answer)
