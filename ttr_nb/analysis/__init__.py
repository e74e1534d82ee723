"""Research analyses on the real boards (a layer beside the bots: it reads maps and plays
games through the engine, and nothing below it imports it).

Best score (`best_score`)
    `best_score`: the highest score one player can reach alone within a train budget,
    a prize-collecting Steiner forest solved to a proven optimum among games whose
    tickets share one network (after Schaefer and Schaefer, 2025); `any_shape`, whether
    that is also the best game of any shape; and `check_best`, which recounts a stored
    answer independently.
Playtesting (`playtest`)
    `playtest`: many bot games and what winners did in them (routes claimed, cities
    ignored, route lengths, win rates by style), after de Mesentier Silva et al. (2017).
Rules gaps (`rules_gaps`)
    positions the rulebooks do not settle, built with the engine, and the house rule
    the engine applies in each.
"""
