"""Computer players: every bot, and what they need to look ahead.

* :mod:`~ttr_nb.bots.greedy`: the random and the greedy bot, and how a bot finds a
  variant's own advice (:mod:`ttr_nb.bots.variants`, one module per rules name).
* :mod:`~ttr_nb.bots.search`: the search bot (determinised Monte Carlo tree search),
  with its rollout policy (:mod:`~ttr_nb.bots.rollout`) and the worlds it imagines
  (:mod:`~ttr_nb.bots.determinise`, the opponents' tickets guessed from their claims:
  :mod:`~ttr_nb.bots.inference`).
* :mod:`~ttr_nb.bots.registry`: bots by name (``make_bot("search:0.3")``), as the
  app, the command line and tournaments pick them.
"""

from .greedy import (
    BeginnerBot,
    Bot,
    GreedyBot,
    RandomBot,
    Reason,
    board_planner,
    variant_advice,
    variant_hook,
    variant_module,
)
from .registry import BOTS, BUDGETED, MAX_BUDGET, bot_name_problem, make_bot, play_out

__all__ = [
    "BOTS",
    "BeginnerBot",
    "BUDGETED",
    "MAX_BUDGET",
    "Bot",
    "GreedyBot",
    "RandomBot",
    "Reason",
    "board_planner",
    "bot_name_problem",
    "make_bot",
    "play_out",
    "variant_advice",
    "variant_hook",
    "variant_module",
]
