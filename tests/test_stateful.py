"""A Hypothesis state machine plays every playable map with legal, illegal and malformed
actions, checking after each step: no negative count, cards, pieces and tickets
conserved, a refused action changes nothing (byte for byte), save and load round-trip.

Run the long profile (about 10^5 actions per map) outside CI with
``HYPOTHESIS_PROFILE=long pytest tests/test_stateful.py`` (see ``tools/fuzz_profile.py``).
"""

from __future__ import annotations

import os
from dataclasses import fields
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from invariants import check_invariants, starting_totals

from ttr_nb import (
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    Game,
    IllegalActionError,
    KeepTickets,
    Pass,
    new_game,
)
from ttr_nb.actions import ACTION_TYPES, shape_problem
from ttr_nb.rules import playable_maps

# In CI a failure is reported with its seed rather than shrunk (shrinking a long
# game can take minutes); the long profile shrinks.
settings.register_profile(
    "ci",
    max_examples=25,
    stateful_step_count=60,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "long",
    max_examples=500,
    stateful_step_count=200,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# Values a hostile caller might put in any field.
junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True),
    st.text(max_size=60),
    st.lists(st.integers(), max_size=4),
    st.recursive(st.integers(), lambda inner: st.lists(inner, max_size=2), max_leaves=8),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)
small = st.integers(min_value=-2, max_value=8)


def card_names(game_map: Any) -> st.SearchStrategy[str]:
    return st.sampled_from([c.id for c in game_map.card_types]) | st.text(max_size=45)


def variant_actions(game: Game, words: st.SearchStrategy[Any]) -> list[st.SearchStrategy[Any]]:
    """Every registered action type beyond the base ones (a variant's harbors, exchanges,
    supply choices, ...), its fields filled with map words, small numbers, payments or junk."""
    pay = st.lists(st.tuples(card_names(game.map), small | junk), max_size=5)
    value = words | small | st.integers(-5, 70) | pay | junk
    return [
        st.builds(cls, **{f.name: value for f in fields(cls)})
        for name, cls in sorted(ACTION_TYPES.items())
        if name not in BASE_ACTIONS
    ]


def candidate_actions(game: Game) -> st.SearchStrategy[Any]:
    """Actions that are often illegal and sometimes malformed."""
    routes = st.sampled_from([r.id for r in game.map.routes]) | st.integers() | junk
    pair = st.tuples(card_names(game.map), small | junk) | junk
    tickets = st.sampled_from([t.id for t in game.map.tickets]) | junk
    places = [c.id for c in game.map.cities] + [c.id for c in game.map.countries]
    colours = list(game.map.components.get("passenger_colors") or ["red", "blue"])
    pickup = st.tuples(st.sampled_from(places) | junk, st.sampled_from(colours) | junk) | junk
    words = st.sampled_from(
        ["train", "ship", "box"] + [c.id for c in game.map.cities] + list(game.rules.deck_names)
    )
    return st.one_of(
        st.builds(DrawFaceUp, small | junk, words | junk),
        st.builds(DrawBlind, st.sampled_from(["train", "ship"]) | junk),
        st.builds(ClaimRoute, routes, st.lists(pair, max_size=6) | junk),
        st.builds(
            ClaimRoute, routes, st.lists(pair, max_size=6), st.lists(pickup, max_size=3) | junk
        ),
        st.builds(DrawTickets, st.integers(0, 4) | junk),
        st.builds(KeepTickets, st.lists(tickets, max_size=5) | junk),
        st.just(Pass()),
        *variant_actions(game, words),
        junk,
    )


BASE_ACTIONS = {"DrawFaceUp", "DrawBlind", "ClaimRoute", "DrawTickets", "KeepTickets", "Pass"}
STATS = {"accepted": 0, "refused": 0, "saves": 0}  # read by tools/fuzz_profile.py


class PlayAnything(RuleBasedStateMachine):
    """One game; each step is a legal move, a refused move, or a save and reload."""

    map_name = "usa"

    @initialize(players=st.integers(2, 5), seed=st.integers(0, 10**6))
    def deal(self, players: int, seed: int) -> None:
        self.game = new_game(self.map_name, players=players, seed=seed)
        self.totals = starting_totals(self.game)

    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data())
    def legal_move(self, data: st.DataObject) -> None:
        legal = self.game.legal_actions()
        self.game.apply(data.draw(st.sampled_from(legal), label="legal"))
        STATS["accepted"] += 1

    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data())
    def several_legal_moves(self, data: st.DataObject) -> None:
        for _ in range(data.draw(st.integers(1, 30), label="moves")):
            if self.game.is_over:
                return
            legal = self.game.legal_actions()
            self.game.apply(legal[data.draw(st.integers(0, len(legal) - 1), label="pick")])
            STATS["accepted"] += 1

    @rule(data=st.data())
    def any_move(self, data: st.DataObject) -> None:
        action = data.draw(candidate_actions(self.game), label="candidate")
        before = self.game.snapshot()
        # Malformed actions are never legal, even when they compare equal to a legal one
        # (DrawFaceUp(False) == DrawFaceUp(0), since False == 0 in Python).
        legal = shape_problem(action) is None and action in set(self.game.legal_actions())
        try:
            self.game.apply(action)
        except IllegalActionError as exc:
            assert not legal, f"a listed action was refused: {exc}"
            assert self.game.snapshot() == before, "a refused action changed the game"
            assert len(str(exc)) < 400
            STATS["refused"] += 1
            return
        # A variant may list some kinds only in part (Märklin: one path per set of cities).
        listed_in_part = self.game.rules.listed_in_part(action)
        assert legal or listed_in_part, (
            f"an action outside legal_actions() was accepted: {action!r}"
        )
        STATS["accepted"] += 1

    @rule()
    def save_and_load(self) -> None:
        text = self.game.to_json()
        again = Game.from_json(text)
        assert again == self.game
        assert again.to_json() == text
        assert again.snapshot() == self.game.snapshot()
        STATS["saves"] += 1

    @invariant()
    def counts_hold(self) -> None:
        if hasattr(self, "game"):
            check_invariants(self.game, self.totals)


def machine_for(map_name: str) -> type[PlayAnything]:
    return type(f"PlayAnything_{map_name}", (PlayAnything,), {"map_name": map_name})


@pytest.mark.parametrize("map_name", playable_maps())
def test_play_anything(map_name: str) -> None:
    machine_for(map_name).TestCase().runTest()
