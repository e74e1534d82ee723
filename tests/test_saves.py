"""Saves are JSON; broken or edited saves are refused with file, field and reason."""

from __future__ import annotations

import json

import pytest
from positions import start

from ttr_nb import DrawBlind, Game, SaveFormatError


@pytest.fixture
def saved() -> dict:
    game = start(3, seed=9)
    game.apply(DrawBlind())
    game.apply(DrawBlind())
    return json.loads(game.to_json())


def test_round_trip_restores_the_same_game(saved):
    game = Game.from_json(json.dumps(saved))
    assert game.to_dict() == saved
    assert game.current_player == 1
    assert game.log[-1] == "Player 1 draws a card from the deck"


def test_save_is_plain_json_with_history(saved):
    assert saved["format"] == "ttr-nb-save/1"
    assert saved["history"][-1] == {"player": 0, "action": {"type": "DrawBlind", "deck": "train"}}


def test_not_json_is_refused():
    with pytest.raises(SaveFormatError, match=r"game.json: field \$: is not valid JSON"):
        Game.from_json("{nope", source="game.json")


def test_missing_field_is_named(saved):
    del saved["seed"]
    with pytest.raises(SaveFormatError, match=r"lacks the required field\(s\) 'seed'") as info:
        Game.from_json(json.dumps(saved), source="x.json")
    assert info.value.file == "x.json"


def test_wrong_type_names_the_path(saved):
    saved["history"][0]["player"] = "zero"
    with pytest.raises(SaveFormatError) as info:
        Game.from_json(json.dumps(saved))
    assert info.value.field == "$.history[0].player"


def test_unknown_map_is_refused(saved):
    saved["map"] = "atlantis"
    with pytest.raises(SaveFormatError) as info:
        Game.from_json(json.dumps(saved))
    assert info.value.field == "$.map" and "atlantis" in info.value.reason


def test_illegal_history_is_refused(saved):
    saved["history"].append({"player": 1, "action": {"type": "KeepTickets", "tickets": [1]}})
    with pytest.raises(SaveFormatError, match="illegal action"):
        Game.from_json(json.dumps(saved))


def test_unknown_action_is_refused(saved):
    saved["history"][0]["action"] = {"type": "Teleport"}
    with pytest.raises(SaveFormatError, match="not a known action"):
        Game.from_json(json.dumps(saved))


def test_edited_state_is_refused(saved):
    saved["state"]["players"][0]["hand"]["locomotive"] += 5
    with pytest.raises(SaveFormatError, match="does not match") as info:
        Game.from_json(json.dumps(saved))
    assert info.value.field == "$.state.players"


def test_out_of_turn_history_is_refused(saved):
    saved["history"][-1]["player"] = 2
    with pytest.raises(SaveFormatError, match="player 0's turn"):
        Game.from_json(json.dumps(saved))


def test_game_on_a_custom_map_file_saves_its_path(tmp_path):
    from ttr_nb import new_game
    from ttr_nb.maps import MAPS_DIR

    custom = tmp_path / "usa.json"  # same id and file name as the shipped map
    custom.write_text((MAPS_DIR / "usa.json").read_text(encoding="utf-8"), encoding="utf-8")
    game = new_game(str(custom), players=2, seed=3)
    saved = json.loads(game.to_json())
    assert saved["map"] == str(custom.resolve())
    assert Game.from_json(game.to_json()).map.path == str(custom.resolve())
    assert json.loads(new_game("usa", players=2, seed=3).to_json())["map"] == "usa"
