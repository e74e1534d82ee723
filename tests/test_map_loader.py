"""The map loader: public API shape and clear refusals of malformed files."""

from __future__ import annotations

import json

import pytest

from ttr_nb import MapFormatError, UnknownVariantError, load_map, new_game
from ttr_nb.maps import MAPS_DIR


def test_public_map_api():
    usa = load_map("usa")
    route = usa.routes[0]
    assert {route.a, route.b} <= set(usa.city_by_id)
    assert isinstance(route.id, int) and route.length >= 1 and route.color and route.kind == "train"
    ticket = usa.tickets[0]
    assert len(ticket.cities) == 2 and ticket.points > 0
    assert usa.cities[0].name


def test_load_by_path_equals_by_name():
    assert load_map(MAPS_DIR / "usa.json") is load_map("usa")


def test_country_ticket_targets_are_its_spaces():
    germany = load_map("germany")
    assert germany.targets("frankreich") == {"frankreich-1", "frankreich-2", "frankreich-3"}
    assert germany.targets("berlin") == {"berlin"}
    assert "frankreich-1" in germany.dead_ends and "berlin" not in germany.dead_ends


def _write(tmp_path, data) -> str:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


@pytest.fixture
def usa_data() -> dict:
    return json.loads((MAPS_DIR / "usa.json").read_text(encoding="utf-8"))


def test_not_json(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{", encoding="utf-8")
    with pytest.raises(MapFormatError, match="bad.json: field \\$: is not valid JSON"):
        load_map(path)


def test_missing_file(tmp_path):
    with pytest.raises(MapFormatError, match="cannot be read"):
        load_map(tmp_path / "none.json")


def test_schema_error_names_file_path_and_reason(tmp_path, usa_data):
    usa_data["routes"][3]["length"] = "four"
    with pytest.raises(MapFormatError) as info:
        load_map(_write(tmp_path, usa_data))
    err = info.value
    assert err.file.endswith("bad.json") and err.field == "$.routes[3].length"
    assert "must be integer (got 'four')" in err.reason


def test_unknown_route_end(tmp_path, usa_data):
    usa_data["routes"][0]["b"] = "atlantis"
    with pytest.raises(MapFormatError, match=r"\$.routes\[0\].b: unknown place 'atlantis'"):
        load_map(_write(tmp_path, usa_data))


def test_duplicate_route_id(tmp_path, usa_data):
    usa_data["routes"][1]["id"] = usa_data["routes"][0]["id"]
    with pytest.raises(MapFormatError, match="duplicate id"):
        load_map(_write(tmp_path, usa_data))


def test_group_must_join_the_same_places(tmp_path, usa_data):
    usa_data["routes"][1]["group"] = usa_data["routes"][0]["group"]
    with pytest.raises(MapFormatError, match="joins other places"):
        load_map(_write(tmp_path, usa_data))


def test_unknown_ticket_place(tmp_path, usa_data):
    usa_data["tickets"][0]["cities"][1] = "gotham"
    with pytest.raises(MapFormatError, match="unknown place 'gotham'"):
        load_map(_write(tmp_path, usa_data))


def test_map_without_rules_is_not_playable_yet(tmp_path, usa_data):
    usa_data["id"] = "unplayable"
    usa_data["rules"] = "no-such-rules"
    with pytest.raises(UnknownVariantError, match="not implemented yet"):
        new_game(_write(tmp_path, usa_data), players=2, seed=1)


def test_a_file_that_is_not_utf8_is_a_map_error(tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes('{"name": "Zürich"}'.encode("latin-1"))
    with pytest.raises(MapFormatError, match="latin1.json: field \\$: is not UTF-8 text"):
        load_map(path)


def test_deep_nesting_is_a_map_error(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(MapFormatError, match="deep.json: field \\$: is nested too deeply"):
        load_map(path)
