"""The board and the app without a browser: handlers in, engine state and widget values out."""

from __future__ import annotations

import json
import math

import pytest

pytest.importorskip("ipycanvas")
pytest.importorskip("ipyevents")

from ttr_nb import ClaimRoute, DrawBlind, DrawFaceUp, KeepTickets, available_maps, load_map
from ttr_nb.rules import playable_maps
from ttr_nb.widgets import (
    BoardPieces,
    BoardWidget,
    GameApp,
    board_geometry,
    board_size,
    panels,
    style,
)


def keep_all(app: GameApp) -> None:
    """The human keeps every starting ticket, then the bots keep theirs."""
    app._keep_tickets()
    app.bots_until_human()


def human_claim_ready(app: GameApp, limit: int = 40) -> ClaimRoute:
    """Draw blind cards (bots playing in between) until the human can claim a route."""
    for _ in range(limit):
        claims = [a for a in app.view.legal_actions() if isinstance(a, ClaimRoute)]
        if claims:
            return claims[0]
        assert app.act(DrawBlind())
        if app.view.state.pending == "second_card":
            assert app.act(DrawBlind())
        app.bots_until_human()
    raise AssertionError("the human never could afford a route")


@pytest.fixture
def app() -> GameApp:
    return GameApp(map_name="usa", players=3, seed=7, auto_bots=False)


# ------------------------------------------------------------------ geometry
@pytest.mark.parametrize("name", available_maps())
def test_every_route_has_its_spaces_on_the_canvas(name: str) -> None:
    game_map = load_map(name)
    width, height = board_size(game_map)
    geometry = board_geometry(game_map, width, height)
    assert set(geometry.routes) == set(game_map.route_by_id)
    for rid, shape in geometry.routes.items():
        assert len(shape.spaces) == game_map.route_by_id[rid].length
        for space in shape.spaces:
            assert -10 <= space.cx <= width + 10 and -10 <= space.cy <= height + 10
    for label in geometry.city_labels.values():
        assert 0 <= label.x <= width and 0 <= label.y <= height


@pytest.mark.parametrize("name", available_maps())
def test_hit_testing_finds_each_route_at_its_anchor(name: str) -> None:
    game_map = load_map(name)
    geometry = board_geometry(game_map, *board_size(game_map))
    misses = []
    for rid, shape in geometry.routes.items():
        x, y = shape.anchor
        if geometry.route_at(x, y) != rid:
            misses.append(rid)
    assert not misses, f"route_at missed {misses}"
    city = game_map.cities[0]
    assert geometry.hit(*geometry.positions[city.id]) == ("city", city.id)
    assert geometry.hit(1, 1) is None  # the corner is empty


def test_parallel_tracks_are_side_by_side() -> None:
    game_map = load_map("usa")
    geometry = board_geometry(game_map, *board_size(game_map))
    double = next(ids for ids in game_map.groups.values() if len(ids) == 2)
    (ax, ay), (bx, by) = (geometry.routes[r].anchor for r in double)
    assert math.hypot(ax - bx, ay - by) >= 8


def test_wrapping_routes_leave_one_edge_and_enter_the_other() -> None:
    game_map = load_map("world")
    geometry = board_geometry(game_map, *board_size(game_map))
    assert geometry.seam is not None
    west, east = geometry.seam
    wrapping = [r for r in game_map.routes if r.wraps]
    assert wrapping
    for route in wrapping:
        xs = [s.cx for s in geometry.routes[route.id].spaces]
        assert min(xs) < west + (east - west) * 0.25 and max(xs) > east - (east - west) * 0.25


def test_colours_have_letters_and_players_have_marks() -> None:
    letters = [style.swatch(c).letter for c in ("purple", "blue", "orange", "white", "green")]
    letters += [style.swatch(c).letter for c in ("yellow", "black", "red", "wild")]
    assert len(set(letters)) == len(letters) and all(letters)
    assert style.swatch("gray").letter == ""
    marks = [style.player_style(i).mark for i in range(5)]
    assert len(set(marks)) == 5


# --------------------------------------------------------------------- board
def test_board_hover_and_click_select_a_route() -> None:
    game_map = load_map("usa")
    board = BoardWidget(game_map)
    chosen = []
    board.on_select(chosen.append)
    route = game_map.routes[5]
    x, y = board.geometry.routes[route.id].anchor
    assert board.pointer(x, y) == ("route", route.id)
    assert game_map.place_name(route.a) in board.hover_label.value
    assert board.selected is None
    board.pointer(x, y, click=True)
    assert board.selected == route.id and chosen == [route.id]
    assert board.route_picker.value == route.id
    board.route_picker.value = -1  # the picker's "(no route selected)"
    assert board.selected is None and chosen[-1] is None


def test_keyboard_pickers_show_the_same_facts_as_hovering() -> None:
    game_map = load_map("germany")
    board = BoardWidget(game_map)
    route = game_map.routes[3]
    board.route_picker.value = route.id
    assert board.selected == route.id
    assert "Selected:" in board.hover_label.value
    assert game_map.place_name(route.a) in board.hover_label.value
    space = next(c for c in game_map.cities if c.kind == "country_space")
    board.place_picker.value = space.id
    assert "country space" in board.hover_label.value
    labels = [label for label, _ in board.place_picker.options]
    assert len(labels) == len(set(labels))  # country spaces are told apart by their city


def test_board_draws_once_the_browser_is_ready() -> None:
    board = BoardWidget(load_map("world"))
    board.draw_static()
    assert board.draw_count == 0  # nothing is sent before the browser is there
    for layer in range(len(board._ready)):
        board._client_ready_handler(layer)()
    assert board.draw_count == 1
    board.set_pieces(BoardPieces(owner={1: 0, 2: 1}, player_names=["A", "B"]))
    assert "claimed by A" in board.describe("route", 1)


def test_board_hooks_for_variant_pieces_and_facts() -> None:
    board = BoardWidget(load_map("germany"))
    painted = []
    board.piece_painters.append(lambda layer, geometry, pieces: painted.append(pieces.owner))
    board.fact_providers.append(lambda kind, ident, pieces: [f"2 meeples at {ident}"])
    for layer in range(len(board._ready)):
        board._client_ready_handler(layer)()
    board.set_pieces(BoardPieces(owner={4: 1}, player_names=["A", "B"]))
    assert painted[-1] == {4: 1}
    assert "2 meeples at berlin" in board.describe("city", "berlin")


def test_board_describes_country_spaces_and_ports() -> None:
    germany = BoardWidget(load_map("germany"))
    space = next(c for c in germany.map.cities if c.kind == "country_space")
    assert "country space" in germany.describe("city", space.id)
    world = BoardWidget(load_map("world"))
    port = next(c for c in world.map.cities if c.port)
    assert "port" in world.describe("city", port.id)


# ----------------------------------------------------------------------- app
def test_app_starts_with_the_human_choosing_tickets(app: GameApp) -> None:
    assert app.view.phase == "setup" and app.human_to_move()
    assert len(app.offer_boxes) == 3 and not app.keep_button.disabled
    app.offer_boxes[0].value = app.offer_boxes[1].value = False
    assert app.keep_button.disabled  # fewer than the minimum: the button says so
    app.offer_boxes[1].value = True
    app._keep_tickets()
    assert len(app.view.state.players[0].tickets) == 2


def test_draw_blind_changes_the_hand(app: GameApp) -> None:
    keep_all(app)
    assert app.other_box.layout.display == "none"  # every USA move has its own control
    before = app.view.state.players[0].hand_size
    app.blind_button.click()
    assert app.view.state.players[0].hand_size == before + 1
    assert "× <b>" in app.hand_html.value
    app.blind_button.click()
    assert app.view.state.players[0].hand_size == before + 2
    assert not app.human_to_move()  # the bots' turn now
    assert not app.bot_step_button.disabled


def test_face_up_buttons_show_letters_and_obey_the_rules(app: GameApp) -> None:
    keep_all(app)
    state = app.view.state
    for slot, card_id in enumerate(state.face_up):
        letter = style.swatch(app.map.card_by_id[card_id].color).letter
        assert app.face_up_buttons[slot].description.startswith(letter)
    plain = next(i for i, c in enumerate(state.face_up) if not app.map.card_by_id[c].wild)
    app.face_up_buttons[plain].click()
    assert app.view.state.pending == "second_card"
    for slot, card_id in enumerate(app.view.state.face_up):
        if app.map.card_by_id[card_id].wild:
            assert app.face_up_buttons[slot].disabled  # no locomotive as the second card


def test_refused_action_shows_the_rule(app: GameApp) -> None:
    keep_all(app)
    assert not app.act(DrawFaceUp(42))
    assert (
        "Not allowed" in app.status.value
        and "no face-up slot 43 (the slots are numbered 1 to 5)" in app.status.value
    )
    assert not app.act(KeepTickets((1,)))
    assert "not drawn any tickets" in app.status.value
    assert not app.guard.errors


def test_claim_flow_through_selection_and_payment(app: GameApp) -> None:
    keep_all(app)
    claim = human_claim_ready(app)
    app.board.select(claim.route)
    assert not app.claim_button.disabled
    values = [v for _, v in app.payment_picker.options]
    assert claim in values
    assert str(claim.route) in app.claimable_html.value
    app.payment_picker.value = claim
    app.claim_button.click()
    assert app.view.state.owner[claim.route] == 0
    assert app.board.pieces.owner[claim.route] == 0
    assert "claims" in app.log_html.value


def test_draw_tickets_then_keep_one(app: GameApp) -> None:
    keep_all(app)
    held = len(app.view.state.players[0].tickets)
    app.tickets_button.click()
    assert app.offer_box.layout.display == "" and len(app.offer_boxes) == 3
    for box in app.offer_boxes[1:]:
        box.value = False
    assert not app.keep_button.disabled and app.keep_button.description == "Keep 1 ticket"
    app.keep_button.click()
    assert len(app.view.state.players[0].tickets) == held + 1
    assert app.offer_box.layout.display == "none"
    assert "✓" in app.tickets_html.value or "○" in app.tickets_html.value


def test_selected_route_explains_why_it_cannot_be_claimed(app: GameApp) -> None:
    keep_all(app)
    expensive = max(app.map.routes, key=lambda r: r.length)
    app.board.select(expensive.id)
    assert app.claim_button.disabled
    assert "cannot" in app.selected_html.value


def test_back_forward_and_slider(app: GameApp) -> None:
    keep_all(app)
    app.act(DrawBlind())
    app.act(DrawBlind())
    total = len(app.game.history)
    hand_now = app.view.state.players[0].hand_size
    app.back_button.click()
    assert app.position == total - 1
    assert app.view.state.players[0].hand_size == hand_now - 1
    assert "ttr-future" in app.log_html.value
    app.history_slider.value = 0
    assert app.position == 0 and app.view.phase == "setup"
    app.forward_button.click()
    assert app.position == 1
    app.last_button.click()
    assert app.position == total and app.view is app.game


def test_acting_in_the_past_drops_the_later_moves(app: GameApp) -> None:
    keep_all(app)
    app.act(DrawBlind())
    app.act(DrawBlind())
    app.go_to(len(app.game.history) - 2)
    app.act(DrawBlind())
    assert len(app.game.history) == app.position
    assert "dropped" in app.status.value


def test_bots_move_one_at_a_time_and_until_my_turn(app: GameApp) -> None:
    app._keep_tickets()
    moves = len(app.game.history)
    assert app.bot_step()
    assert len(app.game.history) == moves + 1
    assert "Bot:" in app.status.value
    app.bots_until_human()
    assert app.human_to_move()


def test_auto_bots_use_the_browser_timer(app: GameApp) -> None:
    app.auto_bots.value = True
    app._keep_tickets()
    assert app.timer.playing  # a bot is to move: the timer ticks in the browser
    while app.timer.playing:
        app.timer.value += 1  # what the browser does every BOT_DELAY_MS
    assert app.human_to_move()


def test_play_to_the_end_shows_the_winner_and_breakdown(app: GameApp) -> None:
    app.play_to_end()
    assert app.view.is_over
    result = app.view.result()
    assert result["decided_by"] in app.result_html.value or "on points" in app.result_html.value
    assert (
        "tickets" in app.result_html.value
        and "Winner" in app.result_html.value
        or ("Shared victory" in app.result_html.value)
    )
    assert app.to_end_button.disabled


def test_save_and_load_round_trip(app: GameApp) -> None:
    keep_all(app)
    app.act(DrawBlind())
    app.act(DrawBlind())
    app.save_button.click()
    saved = app.save_text.value
    assert json.loads(saved)["seed"] == 7
    assert "data:application/json;base64," in app.save_link.value
    other = GameApp(map_name="usa", players=2, seed=99, auto_bots=False)
    assert other.load_text(saved)
    assert other.game == app.game
    assert other.player_count.value == 3 and other.seed_box.value == 7


def test_malformed_save_shows_the_reason(app: GameApp) -> None:
    assert not app.load_text("{not json", source="broken.json")
    assert "Could not load broken.json" in app.status.value
    data = json.loads(app.game.to_json())
    data["seed"] = "seven"
    assert not app.load_text(json.dumps(data), source="edited.json")
    assert "edited.json" in app.status.value and "seed" in app.status.value
    assert app.game.seed == 7  # the game on screen is untouched


def test_upload_loads_a_file(app: GameApp) -> None:
    keep_all(app)
    text = app.game.to_json()
    app._on_upload({"new": [{"name": "mine.json", "content": memoryview(text.encode())}]})
    assert "mine.json" in app.status.value
    assert len(app.game.history) == len(json.loads(text)["history"])


@pytest.mark.parametrize("name", [m for m in available_maps() if m not in playable_maps()])
def test_unplayable_maps_open_in_explore_mode(app: GameApp, name: str) -> None:
    app.map_picker.value = name
    assert app.start_button.description == "Explore this board"
    app.start_button.click()
    assert app.game is None and app.view is None
    assert "not implemented yet" in app.explore_note.value
    assert app.claim_box.layout.display == "none"
    assert not app.act(DrawBlind())
    assert "explore mode" in app.status.value


@pytest.mark.parametrize("name", playable_maps())
def test_every_playable_map_starts_a_game(app: GameApp, name: str) -> None:
    app.map_picker.value = name
    app.start_button.click()
    assert app.game is not None and app.game.map.id == name
    assert app.board.map.id == name


def test_callback_errors_are_shown_not_lost(app: GameApp) -> None:
    def broken(_button: object) -> None:
        raise RuntimeError("boom")

    app.save_button.on_click(app.guard(broken))
    app.save_button.click()
    assert app.guard.errors and "boom" in app.guard.errors[-1]
    assert "boom" in app.status.value
    assert app.guard.output.outputs  # the traceback is in the page's error area


def test_panels_use_letters_with_colours() -> None:
    game_map = load_map("usa")
    assert ">R<" in panels.chip("red")
    text = panels.describe_payment(game_map, (("locomotive", 1), ("red", 2)))
    assert text == "1 × L locomotive + 2 × R red"
