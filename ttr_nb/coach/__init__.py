"""The coach: the lessons' algorithms explaining a game while it is played.

For a position and a seat, using only what that seat may know
(:func:`~ttr_nb.coach.view.seat_view`): *My plan* (a minimum Steiner forest of the open
tickets), *Weak spots* (what losing each planned route costs, the tickets' cuts, where
the opponents seem headed), the variant's own hints, and *Why that move* for a bot's
move. At the end, :func:`review` sets each player's network beside the cheapest one
for their tickets and names the claims that blocked their tickets. Every hint names
its algorithm and the lesson that teaches it.
"""

from .hint import Hint
from .hints import Coaching, coach
from .lessons import ALGORITHMS, Algorithm
from .plan import Plan, my_plan
from .review import PlayerReview, review, review_hints
from .view import seat_view
from .why import WhyRecord, record_move, why_from_replay

__all__ = [
    "ALGORITHMS",
    "Algorithm",
    "Coaching",
    "Hint",
    "Plan",
    "PlayerReview",
    "WhyRecord",
    "coach",
    "my_plan",
    "record_move",
    "review",
    "review_hints",
    "seat_view",
    "why_from_replay",
]
