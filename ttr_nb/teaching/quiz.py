"""Tiny multiple-choice quizzes for the lesson notebooks, answers kept out of sight.

A :class:`Quiz` is a list of :class:`Question`. The right answer of each
question is stored *sealed*: a short hash of the question and its answer
letter (see :func:`seal`), so neither the notebook nor this file shows it in
plain sight. The learner checks an answer with :meth:`Quiz.check`, which
prints right or wrong, and the explanation once it is right.

To write a quiz for another variant: build its questions, compute each key
once with ``seal(prompt, "b")`` in a scratch cell, paste the key in, and
register the quiz in :data:`QUIZZES` (a test checks every question has
exactly one right answer).

>>> q = Question("2 + 2?", (("a", "3"), ("b", "4")), seal("2 + 2?", "b"), "Count them.")
>>> quiz = Quiz("Sums", [q])
>>> quiz.is_correct(1, "B")
True
>>> quiz.check(1, "a")
Question 1: not quite, try again.
"""

from __future__ import annotations

import hashlib
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "GERMANY",
    "MAERKLIN",
    "QUIZZES",
    "USA",
    "WORLD",
    "Question",
    "Quiz",
    "check",
    "get",
    "seal",
    "show",
]

WIDTH = 88  # characters per printed line


def _normal(text: str) -> str:
    return " ".join(text.split())


def seal(prompt: str, answer: str) -> str:
    """The stored key of ``answer`` (a choice letter) to the question ``prompt``.

    Changing a question's wording changes its key, so an edited question
    cannot silently keep an answer that no longer fits.

    >>> seal("2 + 2?", "b") == seal("2 +  2?", "B")
    True
    """
    text = f"ttr-nb quiz|{_normal(prompt)}|{answer.strip().lower()}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


@dataclass(frozen=True)
class Question:
    """One multiple-choice question.

    Attributes
    ----------
    prompt : str
        The question.
    choices : tuple of (letter, text)
        The possible answers, in the order shown.
    key : str
        ``seal(prompt, right_letter)``: the answer, sealed.
    explanation : str
        Why the right answer is right (shown once it is found).
    hint : str
        A nudge shown after a wrong answer (must not give the answer away).
    """

    prompt: str
    choices: tuple[tuple[str, str], ...]
    key: str
    explanation: str
    hint: str = ""

    @property
    def letters(self) -> list[str]:
        """The answers' letters, in order (``['a', 'b', ...]``)."""
        return [letter for letter, _ in self.choices]

    def text(self, number: int) -> str:
        """The question as plain text, numbered ``number``, with its lettered answers."""
        head = f"{number}. "
        lines = [textwrap.fill(self.prompt, WIDTH, initial_indent=head, subsequent_indent="   ")]
        for letter, choice in self.choices:
            first, rest = f"   {letter}) ", "      "
            lines.append(textwrap.fill(choice, WIDTH, initial_indent=first, subsequent_indent=rest))
        return "\n".join(lines)


class Quiz:
    """A numbered list of questions (numbered from 1) with sealed answers."""

    def __init__(self, title: str, questions: Sequence[Question]) -> None:
        self.title = title
        self.questions = list(questions)

    def __len__(self) -> int:
        return len(self.questions)

    def question(self, number: int) -> Question:
        """Question ``number`` (numbered from 1); ValueError for a number the quiz has not."""
        if not 1 <= number <= len(self.questions):
            raise ValueError(f"there are questions 1 to {len(self.questions)}, not {number}")
        return self.questions[number - 1]

    def text(self) -> str:
        """Every question with its choices (never the answers)."""
        blocks = [f"{self.title}\n{'=' * len(self.title)}"]
        blocks += [q.text(i) for i, q in enumerate(self.questions, start=1)]
        return "\n\n".join(blocks)

    def show(self) -> None:
        """Print every question with its choices."""
        print(self.text())

    def is_correct(self, number: int, answer: str) -> bool:
        """True when ``answer`` (a letter, any case) is the right one for question ``number``."""
        question = self.question(number)
        letter = _letter(answer)
        return letter in question.letters and seal(question.prompt, letter) == question.key

    def verdict(self, number: int, answer: str) -> str:
        """What :meth:`check` prints."""
        question = self.question(number)
        letter = _letter(answer)
        if letter not in question.letters:
            options = ", ".join(question.letters)
            return f"Question {number}: answer with one of the letters {options}."
        if self.is_correct(number, letter):
            return f"Question {number}: right! {question.explanation}"
        hint = f" Hint: {question.hint}" if question.hint else ""
        return f"Question {number}: not quite, try again.{hint}"

    def check(self, number: int, answer: str) -> None:
        """Print whether ``answer`` is right for question ``number`` (with the explanation)."""
        print(textwrap.fill(self.verdict(number, answer), WIDTH))


def _letter(answer: str) -> str:
    return answer.strip().lower().rstrip(")").strip()


def _q(prompt: str, choices: Sequence[str], key: str, explanation: str, hint: str) -> Question:
    letters = "abcdefgh"
    return Question(
        _normal(prompt),
        tuple(zip(letters, choices, strict=False)),
        key,
        _normal(explanation),
        _normal(hint),
    )


USA = Quiz(
    "Ticket to Ride (USA): rules quiz",
    [
        _q(
            "You take the red card from the face-up row, and the card turned up in its place "
            "is a locomotive. What may your second card be?",
            [
                "That new locomotive.",
                "Any other face-up card that is not a locomotive, or the top card of the deck.",
                "Nothing: a locomotive turning up ends your turn.",
            ],
            "2e5413af6e6f",
            "A face-up locomotive can only be taken as the one and only card of a draw, so the "
            "replacement is out of reach as a second card. Everything else is still allowed.",
            "A face-up locomotive is worth a whole draw on its own.",
        ),
        _q(
            "The first card you draw blind from the deck is a locomotive. What now?",
            [
                "You draw a second card, as with any other first card.",
                "Your turn ends: a locomotive is always worth two cards.",
                "You draw two more cards.",
            ],
            "4bfff58d0253",
            "Only a locomotive picked from the face-up row costs the whole draw. A hidden one "
            "is just your first card, and a second card follows.",
            "Does the rule about locomotives talk about the face-up row or about every card?",
        ),
        _q(
            "In a 3-player game Ben has claimed the black track of Denver–Kansas City. Cleo "
            "holds 4 orange cards. May she claim the orange track next to it?",
            [
                "Yes, any player other than Ben may.",
                "Yes, but only if she pays with locomotives.",
                "No, that track is closed for the rest of the game.",
            ],
            "9a8955d02ae4",
            "With 2 or 3 players only one track of a double route is ever used: once one is "
            "claimed the other is closed. From 4 players on another player could take it, "
            "though never the player who owns the first track.",
            "How many players are at the table?",
        ),
        _q(
            "Which set of cards pays for a gray route of 4 spaces?",
            ["2 red and 2 blue", "3 green and 1 locomotive", "5 yellow"],
            "5eb0b800fdd5",
            "A gray route takes cards of any single colour, exactly as many as it has spaces; "
            "locomotives may stand in for any of them.",
            "Count the cards, and count the colours.",
        ),
        _q(
            "Ada ends her turn with 2 trains left. What happens next?",
            [
                "The game ends at once and is scored.",
                "Every other player gets one last turn, but Ada does not.",
                "Every player, Ada included, gets one last turn; then the game ends.",
            ],
            "e71f772ddb2b",
            "Ending a turn with 0, 1 or 2 trains starts the last round: going on around the "
            "table, everyone plays exactly one more turn, the player who started it too.",
            "Is the player who triggered the end left out?",
        ),
        _q(
            "The game is over and you still hold a 12-point ticket whose two cities your "
            "trains do not join. What does it do to your score?",
            ["It costs you 12 points.", "Nothing.", "It costs you 6 points."],
            "3932e4b5fa56",
            "A ticket you keep is a promise: joined, it adds its value; not joined, it takes "
            "the same value away.",
            "Tickets are not free to keep.",
        ),
        _q(
            "Ada and Ben both finish with 95 points. Ada completed 4 tickets; Ben completed 3 "
            "and has the longest-path bonus. Who wins?",
            ["Ada.", "Ben.", "They share the victory."],
            "349ed1d48dfc",
            "A tie on points goes first to the player with more completed tickets. The "
            "longest-path bonus only decides if that count is tied as well.",
            "There are two tie-breakers, and their order matters.",
        ),
        _q(
            "After a card is replaced, three of the five face-up cards are locomotives. What "
            "happens?",
            [
                "Nothing special: the next player may take one of them.",
                "The next player may take two locomotives.",
                "All five cards are discarded and five new ones are laid out.",
            ],
            "123724f6b400",
            "Three face-up locomotives wipe the row: all five go to the discard pile and five "
            "fresh cards are turned up (again, if three locomotives show once more).",
            "The row would be too generous if it stayed.",
        ),
    ],
)
"""The quiz at the end of the rules (``notebooks/rules_usa_5_ties_and_quiz.ipynb``)."""

WORLD = Quiz(
    "Rails & Sails World: rules quiz",
    [
        _q(
            "You take the red Train card from the face-up row. Which card replaces it?",
            [
                "The top card of the train deck, always.",
                "The top card of the deck you choose, train or ship.",
                "The top card of the ship deck, always.",
            ],
            "ee242ac23db1",
            "The taker chooses the deck that refills the slot, so the row can hold any mix of "
            "Train and Ship cards.",
            "Two decks lie beside the board. Who decides?",
        ),
        _q(
            "Which cards pay for a green ship route of 5 spaces?",
            [
                "3 green Double-Ship cards.",
                "2 green Double-Ship cards.",
                "5 green Train cards.",
            ],
            "cf813d4e3deb",
            "A Double-Ship card covers up to two spaces, so three of them pay for five: one is "
            "half used, as in the rulebook's own example. Two cover only four, and Train cards "
            "never pay for ship routes.",
            "Count the spaces each card covers.",
        ),
        _q(
            "Which cards pay for a pair route of 2 spaces?",
            [
                "1 red, 1 green, 1 black and 1 white Train card.",
                "2 red Ship cards and 2 green Ship cards.",
                "2 red Train cards and 2 green Train cards.",
            ],
            "770170c68103",
            "Each space of a pair route takes two Train cards of one colour; the colour may "
            "change from one space to the next, and a Wild can complete a pair.",
            "Pair up the cards, one pair per space.",
        ),
        _q(
            "Ada has a harbor in Lima. At the end she has completed two tickets naming Lima, one "
            "of them a tour, and failed a third. What does the harbor score?",
            ["20 points.", "30 points.", "40 points."],
            "2b6cf9918f13",
            "A harbor scores 20, 30 or 40 for 1, 2 or 3 and more completed tickets naming its "
            "city, tours included; failed tickets do not count.",
            "Count only the completed tickets.",
        ),
        _q(
            "Ben built only one of his three harbors. What do the other two cost him at the end?",
            ["8 points.", "Nothing: harbors are optional.", "4 points."],
            "84a53eca45fa",
            "Every harbor left unbuilt costs 4 points, so two cost 8.",
            "The cost is per harbor.",
        ),
        _q(
            "Cleo swaps 3 ships of her supply for 3 trains from the box. What does it cost?",
            [
                "Nothing, and she may still draw cards this turn.",
                "3 points, and it is her whole turn.",
                "3 points, and she may still claim a route this turn.",
            ],
            "c2ffe2f26622",
            "Exchanging costs 1 point per piece and is one of the five actions of a turn.",
            "A turn is exactly one action.",
        ),
        _q(
            "A tour's cities are all joined by your routes, but no trail visits them in the "
            "printed order. What does the tour score?",
            ["Its higher value.", "Its penalty, subtracted.", "Its lower value."],
            "89f1a14ffbab",
            "In order scores the higher value, joined in any order the lower one; only a tour "
            "whose cities are not all joined costs the penalty. (In order means a trail, each "
            "route used once: that is this engine's reading, a house rule; the rulebook does not "
            "say whether the route may use a track twice.)",
            "Three outcomes, three values.",
        ),
        _q(
            "Ben ends his turn with 5 pieces left in his supply. What happens?",
            [
                "Everyone, Ben included, takes two more turns.",
                "Every other player takes one more turn.",
                "The game ends at once.",
            ],
            "1acb0587c53c",
            "At 6 pieces or fewer the end begins: every player, the one who started it too, "
            "plays two more turns.",
            "The World map gives more than one last turn.",
        ),
    ],
)
"""The quiz at the end of the World rules lessons (``notebooks/rules_world_*.ipynb``)."""

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
"""The quiz at the end of the Germany rules lessons (``notebooks/rules_germany_*.ipynb``)."""

MAERKLIN = Quiz(
    "Ticket to Ride: Märklin: rules quiz",
    [
        _q(
            "The face-up row shows a Locomotive +4. You take it as your first card. What next?",
            [
                "Your turn is over: it was a locomotive.",
                "You take a second card: any face-up card but a plain "
                "Locomotive, or the top of the deck.",
                "You may take a second card only from the deck.",
            ],
            "5bc3eef4c15d",
            "Only a plain Locomotive taken face up is a whole draw: the rulebook says that "
            "a player who takes a Locomotive +4 may still draw two cards. Whether a face-up "
            "Locomotive +4 may also be the second card it does not say; by this engine's "
            "house rule it may, as a colour card or a Passenger card may.",
            "Which locomotive is worth a whole draw?",
        ),
        _q(
            "Ada holds 2 red cards and a Locomotive +4. Which route can she claim with them?",
            [
                "Berlin–Magdeburg, 3 red spaces.",
                "Any 3-space route.",
                "Neither: a Locomotive +4 pays only on routes of 4 spaces or more.",
            ],
            "db7f802aff04",
            "A Locomotive +4 is wild, but only on routes of 4 or more spaces; "
            "on a 3-space route only plain Locomotives help.",
            "Read the +4 on the card.",
        ),
        _q(
            "Two Passenger cards lie face up. You take the blue card and the "
            "card turned up in its place is a third Passenger card. What "
            "happens?",
            [
                "All five face-up cards are discarded and five new ones are turned up.",
                "Nothing special.",
                "Only the new Passenger card is discarded.",
            ],
            "939727a23995",
            "Three face-up Passenger cards reset the row, exactly like three face-up Locomotives.",
            "Märklin has two kinds of reset.",
        ),
        _q(
            "Ada claims Hamburg–Schwerin; Ben's passenger stands in Schwerin. "
            "Where may Ada place one of her passengers?",
            [
                "In Hamburg or in Schwerin.",
                "Only in Hamburg (or nowhere: placing is optional).",
                "Only in Schwerin, next to Ben's.",
            ],
            "fe802ad581e5",
            "A claim may place a passenger on either city of the claimed route, "
            "but only one passenger may stand in a city, and never in a "
            "country.",
            "How many passengers may stand in one city?",
        ),
        _q(
            "Ada's passenger starts in Berlin (stack 7, 6, 5, 4), travels to "
            "Leipzig (4, 3, 2) and back to Berlin on another route. What does "
            "it collect?",
            [
                "The 4 at Leipzig and the 7 at Berlin.",
                "The 4 at Leipzig only.",
                "The 7 at Berlin, the 4 at Leipzig and the 6 at Berlin.",
            ],
            "4af30f0abd3e",
            "A passenger never collects in the city it started from, and takes "
            "one token per city it enters on a journey. (That a return to the start collects "
            "nothing is this engine's reading, a house rule: the rulebook only says no token is "
            "taken where the passenger starts.)",
            "Where did it start?",
        ),
        _q(
            "Ada's passenger wants to travel over a route that belongs to Ben. What does Ada need?",
            [
                "Nothing: any claimed route will do.",
                "Ben's agreement.",
                "One Passenger card for that route (spent when the passenger moves).",
            ],
            "92aef62c037a",
            "Each Passenger card played lets the passenger use one opponent's "
            "route on this journey.",
            "What are Passenger cards for?",
        ),
        _q(
            "Ada's passenger stands in Leipzig. One of her routes leads to "
            "Berlin (a 7 on top, and no route of hers goes on from there); "
            "another starts a chain of four cities worth 3 each. What does a "
            "greedy walk (always to the best next city) do?",
            [
                "It goes to Berlin and stops: 7 points, though the chain was worth 12.",
                "It goes to Berlin, then on along the chain: 19 points.",
                "It follows the chain: 12 points.",
            ],
            "06da2668b293",
            "A greedy walk only looks one step ahead. The best journey is a "
            "maximum-weight trail, and finding it means looking at whole "
            "trails, not single steps.",
            "A route cannot be used twice in one journey.",
        ),
        _q(
            "Ada and Ben finish on the same points and completed the same "
            "number of tickets. Ada's tokens are worth 14, Ben's 11. Who wins?",
            [
                "Ada.",
                "Ben.",
                "They share the victory.",
            ],
            "1b2eda11896a",
            "Ties go first to the most completed tickets, then to the highest merchandise total. "
            "(This engine adds up the tokens' values, a house rule: the rulebook does not say "
            "whether the total counts tokens or points.)",
            "There are two tie-breakers; the first one is equal here.",
        ),
    ],
)
"""The quiz at the end of the Märklin rules lessons (``notebooks/rules_maerklin_*.ipynb``)."""

QUIZZES: dict[str, Quiz] = {
    "usa": USA,
    "world": WORLD,
    "germany": GERMANY,
    "maerklin": MAERKLIN,
}
"""Every quiz, by the name a notebook passes to :func:`check` and :func:`show`."""


def get(name: str = "usa") -> Quiz:
    """The quiz registered as ``name``."""
    try:
        return QUIZZES[name]
    except KeyError:
        raise ValueError(f"no quiz {name!r}; there are: {', '.join(sorted(QUIZZES))}") from None


def show(name: str = "usa") -> None:
    """Print the questions of quiz ``name``."""
    get(name).show()


def check(number: int, answer: str, name: str = "usa") -> None:
    """Print whether ``answer`` is right for question ``number`` of quiz ``name``.

    >>> check(1, "z")
    Question 1: answer with one of the letters a, b, c.
    """
    get(name).check(number, answer)
