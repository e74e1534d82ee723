"""The board and the app without a browser: handlers in, engine state and widget values out."""

from __future__ import annotations

import html
import json
import math
import re
from typing import Any

import pytest

pytest.importorskip("ipycanvas")
pytest.importorskip("ipyevents")

from app_steps import keep_offered
from positions import set_face_up, set_hand

from ttr_nb import (
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    KeepTickets,
    available_maps,
    load_map,
    new_game,
)
from ttr_nb.actions import action_to_dict
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
    keep_offered(app)
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
    offer = app.offer
    # Nothing is ticked: a click on the button cannot keep a ticket unread.
    assert len(offer.boxes) == 3 and not any(box.value for box in offer.boxes)
    assert offer.keep_button.disabled  # fewer than the minimum: the button says so
    assert offer.keep_button.description == "Tick at least 2 tickets to keep"
    assert "at least 2 tickets" in offer.keep_button.tooltip
    offer.keep_button.click()  # a click that slips through keeps nothing
    assert app.view.state.pending == "keep_tickets" and not app.view.state.players[0].tickets
    offer.boxes[0].value = True
    assert offer.keep_button.description == "Tick at least 2 tickets to keep (1 ticked)"
    offer.boxes[1].value = True
    assert not offer.keep_button.disabled and offer.keep_button.description == "Keep 2 tickets"
    offer.keep_button.click()
    assert len(app.view.state.players[0].tickets) == 2


def test_draw_blind_changes_the_hand(app: GameApp) -> None:
    keep_all(app)
    assert app.cards.other_box.layout.display == "none"  # every USA move has its own control
    before = app.view.state.players[0].hand_size
    deck = app.cards.deck_buttons["train"]
    assert deck.description == "Draw from the deck"
    deck.click()
    assert app.view.state.players[0].hand_size == before + 1
    assert "× <b>" in app.hand.hand_html.value
    assert "Second card" in app.cards.hint_html.value
    deck.click()
    assert app.view.state.players[0].hand_size == before + 2
    assert not app.human_to_move()  # the bots' turn now
    assert not app.bot_panel.step_button.disabled
    assert deck.disabled and deck.tooltip == "Wait for your turn."


def test_face_up_buttons_show_letters_and_obey_the_rules(app: GameApp) -> None:
    keep_all(app)
    set_face_up(app.game, ["red", "locomotive", "blue", "green", "white"])
    app.refresh()
    buttons = app.cards.face_up
    for slot, card_id in enumerate(app.view.state.face_up):
        letter = style.swatch(app.map.card_by_id[card_id].color).letter
        assert buttons[slot].description.startswith(letter)
    buttons[0].click()
    assert app.view.state.pending == "second_card"
    locomotive = next(i for i, c in enumerate(app.view.state.face_up) if app.map.card_by_id[c].wild)
    assert buttons[locomotive].disabled  # no locomotive as the second card, and it says why
    assert buttons[locomotive].tooltip == "A face-up locomotive cannot be your second card"


def test_refused_action_shows_the_rule_beside_the_control(app: GameApp) -> None:
    keep_all(app)
    assert not app.act(DrawFaceUp(42), app.cards.note)
    assert "Not allowed" in app.status.value
    assert "no face-up slot 43 (the slots are numbered 1 to 5)" in app.cards.note.text
    assert not app.act(KeepTickets((1,)))
    assert "you have not drawn any tickets" in app.status.value  # spoken to the player
    assert not app.guard.errors


def test_claim_flow_through_selection_and_payment(app: GameApp) -> None:
    keep_all(app)
    claim = human_claim_ready(app)
    app.board.select(claim.route)
    panel = app.claim
    assert not panel.claim_button.disabled
    assert claim.cards in [v for _, v in panel.payment_picker.options]
    assert str(claim.route) in panel.claimable_html.value
    panel.payment_picker.value = claim.cards
    panel.claim_button.click()
    assert app.view.state.owner[claim.route] == 0
    assert app.board.pieces.owner[claim.route] == 0
    assert "claims" in app.log_html.value
    assert not app.board.hover_label.value.startswith("Selected:")  # no stale selection line


def test_double_routes_are_named_once_in_the_claimable_list(app: GameApp) -> None:
    keep_all(app)
    set_hand(app.game, 0, red=1, blue=1, green=1, locomotive=2)
    app.refresh()
    text = app.claim.claimable_html.value
    doubles = [
        app.map.route_label(r)
        for r in app.map.routes
        if r.length <= 3 and app.map.parallel(r) and r.color == "gray"
    ]
    assert doubles and all(text.count(label) <= 1 for label in doubles)


def test_draw_tickets_then_keep_one(app: GameApp) -> None:
    keep_all(app)
    held = len(app.view.state.players[0].tickets)
    app.cards.tickets_button.click()
    offer = app.offer
    assert offer.widget.layout.display == "" and len(offer.boxes) == 3
    offer.boxes[0].value = True
    assert not offer.keep_button.disabled and offer.keep_button.description == "Keep 1 ticket"
    offer.keep_button.click()
    assert len(app.view.state.players[0].tickets) == held + 1
    assert offer.widget.layout.display == "none"
    assert "✓" in app.hand.tickets_html.value or "○" in app.hand.tickets_html.value


def test_selected_route_explains_why_it_cannot_be_claimed(app: GameApp) -> None:
    keep_all(app)
    expensive = max(app.map.routes, key=lambda r: r.length)
    app.board.select(expensive.id)
    assert app.claim.claim_button.disabled
    assert "cannot" in app.claim.selected_html.value


def test_back_forward_and_slider(app: GameApp) -> None:
    keep_all(app)
    app.act(DrawBlind())
    app.act(DrawBlind())
    total = len(app.game.history)
    hand_now = app.view.state.players[0].hand_size
    steps = app.timeline
    steps.back_button.click()
    assert app.position == total - 1
    assert app.view.state.players[0].hand_size == hand_now - 1
    assert "ttr-future" in app.log_html.value
    steps.slider.value = 0  # what a click on the slider's track sends
    assert app.position == 0 and app.view.phase == "setup"
    steps.forward_button.click()
    assert app.position == 1
    steps.last_button.click()
    assert app.position == total and app.view is app.game


def test_looking_at_the_past_never_drops_moves(app: GameApp) -> None:
    app.play_to_end()
    total = len(app.game.history)
    app.timeline.first_button.click()
    app.timeline.forward_button.click()
    assert app.bot_panel.step_button.disabled and app.bot_panel.to_end_button.disabled
    assert not app.bot_step() and not app.act(DrawBlind())
    assert len(app.game.history) == total  # nothing was dropped
    assert "Continue from here: drop" in app.timeline.continue_button.description
    assert app.timeline.continue_button.layout.display == ""


def test_continue_from_here_drops_later_moves_and_can_be_undone(app: GameApp) -> None:
    keep_all(app)
    app.act(DrawBlind())
    app.act(DrawBlind())
    app.bots_until_human()
    total = len(app.game.history)
    app.go_to(total - 4)
    app.timeline.continue_button.click()
    assert len(app.game.history) == total - 4 and len(app.dropped_moves) == 4
    assert "set aside" in app.status.value
    assert app.timeline.undo_button.layout.display == ""
    app.timeline.undo_button.click()
    assert len(app.game.history) == total and not app.dropped_moves
    app.go_to(total - 4)
    app.timeline.continue_button.click()
    if app.human_to_move():  # the next move commits the branch: no undo any more
        assert app.act(app.view.legal_actions()[0])
    else:
        assert app.bot_step()
    assert not app.dropped_moves and app.timeline.undo_button.layout.display == "none"


def test_replay_plays_the_game_back_one_move_per_tick(app: GameApp) -> None:
    keep_all(app)
    total = len(app.game.history)
    app.timeline.replay_button.click()
    assert app.position == 0 and app.timeline.replay_timer.playing
    for _ in range(total + 2):
        app.timeline.replay_timer.value += 1  # the browser's timer ticks
    assert app.position == total and not app.timeline.replay_timer.playing
    assert len(app.game.history) == total


def test_bots_move_one_at_a_time_and_until_my_turn(app: GameApp) -> None:
    keep_offered(app)
    moves = len(app.game.history)
    assert app.bot_step()
    assert len(app.game.history) == moves + 1
    assert "Bot:" in app.status.value
    app.bots_until_human()
    assert app.human_to_move()
    assert "Ann:" in app.status.value and "draw cards" in app.status.value


def test_auto_bots_use_the_browser_timer(app: GameApp) -> None:
    app.bot_panel.auto.value = True
    keep_offered(app)
    timer = app.bot_panel.timer
    assert timer.playing  # a bot is to move: the timer ticks in the browser
    while timer.playing:
        timer.value += 1  # what the browser does every BOT_DELAY_MS
    assert app.human_to_move()


def test_the_last_round_is_announced_with_who_started_it(app: GameApp) -> None:
    keep_all(app)
    app.act(DrawBlind())
    app.act(DrawBlind())
    app.game.state.players[1].pieces["train"] = 2
    app.bot_step()  # Bruno's turn ends with 2 trains or fewer: the last round starts
    assert "Last round! Bruno is down to" in app.turn.widget.value
    assert "Last round! Bruno" in app.status.value


def test_the_end_screen_explains_the_score(app: GameApp) -> None:
    app.play_to_end()
    assert app.view.is_over
    page = app.result_html.value
    result = app.view.result()
    assert "wins" in page or "Shared victory" in page
    assert html.escape(result["ended_by"]) in page
    assert "longest path (spaces)" in page and "longest trail" not in page
    assert "completed" in page and "missed" in page
    for player in app.view.state.players:  # the bots' tickets are revealed
        for ticket in player.tickets:
            assert html.escape(panels.ticket_text(app.map, ticket)) in page
    # A row per part of the score, a column per player; USA scores the longest trail.
    trail = re.search(r"<th>longest path \(spaces\)</th>(.*?)</tr>", page).group(1)
    lengths = [int(n) for n in re.findall(r">(-?\d+)</td>", trail)]
    assert lengths == app.view.rules.longest_paths(app.view.state)
    total = re.search(r"<tr class='ttr-total'><th>total</th>(.*?)</tr>", page).group(1)
    totals = [int(n) for n in re.findall(r">(-?\d+)</td>", total)]
    assert totals == [row["total"] for row in app.view.result()["scores"]]
    assert app.bot_panel.to_end_button.disabled


def test_save_and_load_round_trip(app: GameApp) -> None:
    keep_all(app)
    app.act(DrawBlind())
    app.act(DrawBlind())
    app.files.save_button.click()
    saved = app.files.save_text.value
    assert json.loads(saved)["seed"] == 7
    assert app.files.save_link.value == ""  # made on demand, not sent after every move
    app.files.download_button.click()
    assert "data:application/json;base64," in app.files.save_link.value
    other = GameApp(map_name="usa", players=2, seed=99, auto_bots=False)
    assert other.load_text(saved)
    assert other.game == app.game
    assert other.setup.player_count.value == 3 and other.setup.seed_box.value == 7


def test_malformed_save_shows_the_reason_beside_the_load_buttons(app: GameApp) -> None:
    assert not app.load_text("{not json", source="broken.json")
    assert "Could not load broken.json" in app.status.value
    assert "Could not load broken.json" in app.files.note.text
    data = json.loads(app.game.to_json())
    data["seed"] = "seven"
    assert not app.load_text(json.dumps(data), source="edited.json")
    assert "edited.json" in app.status.value and "seed" in app.status.value
    assert app.game.seed == 7  # the game on screen is untouched


def test_a_hostile_save_is_refused_briefly_and_the_game_survives(app: GameApp) -> None:
    keep_all(app)
    before = app.game.snapshot()
    data = json.loads(app.game.to_json())
    data["map"] = "/etc/passwd"
    app.files.save_text.value = json.dumps(data)
    app.files.load_text_button.click()
    assert "Could not load" in app.files.note.text and "root:" not in app.status.value
    app.files.save_text.value = "x" * 3_000_001
    app.files.load_text_button.click()
    assert "at most 2,000,000" in app.files.note.text
    upload = {"name": "big.json", "size": 50_000_000, "content": memoryview(b"{}")}
    app.files._on_upload({"new": [upload]})
    assert "it is 50.0 MB" in app.files.note.text
    assert app.game.snapshot() == before and not app.guard.errors


def test_upload_loads_a_file(app: GameApp) -> None:
    text = app.game.to_json()
    app.files._on_upload({"new": [{"name": "mine.json", "content": memoryview(text.encode())}]})
    assert "mine.json" in app.status.value
    assert len(app.game.history) == len(json.loads(text)["history"])


def test_a_game_in_progress_is_never_dropped_without_asking(app: GameApp) -> None:
    keep_all(app)
    game = app.game
    app.setup.start_button.click()
    assert app.game is game and app.prompt.is_open
    assert "will be closed" in app.prompt.question.value
    app.prompt.cancel_button.click()
    assert app.game is game and not app.prompt.is_open
    other = new_game("usa", players=2, seed=3).to_json()
    app.files.save_text.value = other
    app.files.load_text_button.click()
    assert app.game is game and app.prompt.is_open
    app.prompt.ok_button.click()
    assert app.game is not game and app.game.seed == 3


def test_what_the_store_writes_into_the_browser_resumes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The copy the store's JavaScript keeps (a header, then moves) loads back as a save."""
    from ttr_nb.widgets.storage import BrowserStore

    kept: dict[str, Any] = {}

    def browser(_store: BrowserStore, message: dict[str, Any], *_: Any) -> None:
        if message["kind"] == "start":  # what the JavaScript does with each message
            kept["game"] = json.loads(json.dumps(message["game"]))
        elif message["kind"] == "moves":
            kept["game"]["history"].extend(message["moves"])

    monkeypatch.setattr(BrowserStore, "send", browser)
    app = GameApp(map_name="usa", players=3, seed=7, auto_bots=False)
    keep_all(app)
    app.act(DrawBlind())
    stored = json.dumps(kept["game"])  # read as the new page opens, before it stores its own
    fresh = GameApp(map_name="usa", players=3, seed=8, auto_bots=False)
    fresh.store._received(None, {"kind": "stored", "text": stored}, None)
    assert fresh.prompt.is_open and "Resume your last game?" in fresh.prompt.question.value
    fresh.prompt.ok_button.click()
    assert fresh.game == app.game


def test_a_reloaded_page_offers_to_resume_the_browsers_copy(app: GameApp) -> None:
    keep_all(app)
    app.act(DrawBlind())
    stored = {
        "format": "ttr-nb-save/2",
        "map": "usa",
        "players": app.game.names,
        "seed": app.game.seed,
        "history": [
            {"player": m.player, "action": action_to_dict(m.action)} for m in app.game.history
        ],
    }
    fresh = GameApp(map_name="usa", players=3, seed=7, auto_bots=False)
    fresh.store._received(None, {"kind": "stored", "text": json.dumps(stored)}, None)
    assert fresh.prompt.is_open and "Resume your last game?" in fresh.prompt.question.value
    fresh.prompt.ok_button.click()
    assert fresh.game == app.game
    # Junk in the browser's storage is ignored (and forgotten), never shown as an error.
    other = GameApp(map_name="usa", players=3, seed=7, auto_bots=False)
    other.store._received(None, {"kind": "stored", "text": "{]"}, None)
    assert not other.prompt.is_open and not other.guard.errors
    # A copy whose moves are a number or true (issue 25, item 27): a damaged save, forgotten.
    for history in (5, True):
        sent: list[dict] = []
        damaged = GameApp(map_name="usa", players=3, seed=7, auto_bots=False)
        damaged.store.send = lambda message, *_a, sent=sent: sent.append(message)
        text = json.dumps(dict(stored, history=history))
        damaged.store._received(None, {"kind": "stored", "text": text}, None)
        assert not damaged.prompt.is_open and not damaged.guard.errors
        assert {"kind": "forget"} in sent


def test_unusable_names_are_refused_at_the_name_field(app: GameApp) -> None:
    game = app.game
    app.setup.names[0].value = "x" * 41
    app.start()
    assert app.game is game
    assert "at most 40" in app.setup.note.text
    app.setup.names[0].value = "Ann\u0007"
    app.start()
    assert "printable" in app.setup.note.text and app.game is game


def test_a_map_without_rules_opens_in_explore_mode(
    monkeypatch: pytest.MonkeyPatch, app: GameApp
) -> None:
    # Every shipped map is playable now; a map whose rules are missing still opens to explore.
    import ttr_nb.widgets.app as app_module

    monkeypatch.setattr(app_module, "playable_maps", lambda: [])
    app.setup._playable = set()
    app.setup.map_picker.value = "world"
    app.setup._update_start_label()
    assert app.setup.start_button.description == "Explore this board"
    app.start()
    assert app.game is None and app.view is None
    assert "not implemented yet" in app.explore_note.value
    assert app.play_column.layout.display == "none"
    assert not app.act(DrawBlind())
    assert "explore mode" in app.status.value


@pytest.mark.parametrize("name", playable_maps())
def test_every_playable_map_starts_a_game(app: GameApp, name: str) -> None:
    app.setup.map_picker.value = name
    app.start()
    assert app.game is not None and app.game.map.id == name
    assert app.board.map.id == name


def test_callback_errors_are_logged_and_shown_briefly(app: GameApp) -> None:
    def broken(_button: object) -> None:
        raise RuntimeError("boom at /srv/secret/path.py")

    app.files.save_button.on_click(app.guard(broken))
    app.files.save_button.click()
    assert app.guard.errors and "boom" in app.guard.errors[-1]  # kept for the server log
    assert "Something went wrong inside the app (error" in app.status.value
    assert "boom" not in app.status.value and "Traceback" not in app.status.value
    assert "/srv" not in app.status.value


def test_one_click_with_several_meanings_asks_which(app: GameApp) -> None:
    keep_all(app)
    actions = [DrawBlind(), DrawFaceUp(0)]
    app.act_one_of(actions, app.cards.note)
    assert app.prompt.is_open and len(app.prompt.choices.options) == 2
    app.prompt.choose(1)
    assert app.game.history[-1].action == DrawFaceUp(0)


def test_variants_get_the_default_presentation_until_they_have_their_own() -> None:
    from ttr_nb.widgets.variants import VariantUI, ui_class

    assert ui_class("usa") is VariantUI and ui_class("no-such-rules") is VariantUI


def test_panels_use_letters_with_colours() -> None:
    game_map = load_map("usa")
    assert ">R<" in panels.chip("red")
    text = panels.describe_payment(game_map, (("locomotive", 1), ("red", 2)))
    assert text == "1 × L locomotive + 2 × R red"


def test_the_save_panel_never_shows_an_earlier_game(app: GameApp) -> None:
    keep_all(app)
    files = app.files
    files.save_button.click()
    assert "Saved the USA game at move" in app.status.value  # confirmed where one looks
    assert '"map": "usa"' in files.save_text.value
    files.download_button.click()
    assert "The link downloads the game at move" in files.note.text
    app.act(DrawBlind())  # the game moves on: the link and its note go
    assert files.save_link.value == "" and "link" not in files.note.text
    assert "The text box holds the game at move" in files.note.text
    app.setup.map_picker.value = "germany"
    app.request_start()
    app.prompt.choose(0)  # yes, close the game in progress
    assert app.map.id == "germany"
    assert files.save_text.value == "" and files.save_link.value == "" and not files.note.text


def test_the_turn_log_follows_the_move_looked_at(app: GameApp) -> None:
    app.play_to_end()
    total = len(app.game.history)
    app.go_to(72)
    log = app.log_html.value
    assert "<li value='72' class='ttr-latest'>" in log  # the move shown, in bold
    assert html.escape(app.game.log[71]) in log
    shown = [int(n) for n in re.findall(r"<li value='(\d+)'", log)]
    assert max(shown) <= 75 and min(shown) >= 36  # around it, not the game's end
    assert f"{total - 75} later moves: step forward to see them" in log
    assert "35 earlier moves" in log
    app.go_to(total)
    assert f"<li value='{total}' class='ttr-latest'>" in app.log_html.value


def test_play_to_end_asks_before_playing_a_human_seat(app: GameApp) -> None:
    keep_all(app)
    moves = len(app.game.history)
    bots = app.bot_panel
    bots.to_end_button.click()
    # Asked beside the button (it sits at the bottom of the play column), nothing played yet.
    assert bots.asking_to_end and len(app.game.history) == moves
    question = html.unescape(bots.end_question.value)
    assert "the greedy bot plays Ann's too" in question and "only the bots" in question
    assert "Answer under the bots' buttons" in html.unescape(app.status.value)
    bots.end_cancel_button.click()  # nothing happens
    assert not bots.asking_to_end and len(app.game.history) == moves
    app.act(DrawBlind())
    app.act(DrawBlind())
    bots.to_end_button.click()
    bots.end_bots_button.click()  # only the bots: they stop at Ann's turn
    assert app.human_to_move() and not app.view.is_over and not bots.asking_to_end
    bots.to_end_button.click()
    assert bots.end_all_button.description == "Play every seat to the end, Ann's too"
    bots.end_all_button.click()  # every seat, Ann's too
    assert app.view.is_over
    assert re.search(
        r"Bots made \d+ moves \(\d+ for Ann, played by the greedy bot\)", app.status.value
    )


def test_play_to_end_with_bots_only_asks_nothing() -> None:
    app = GameApp(map_name="usa", players=2, seats=["greedy", "greedy"], seed=4, auto_bots=False)
    app.bot_panel.to_end_button.click()
    assert not app.bot_panel.asking_to_end and app.view.is_over
    assert "played by the greedy bot" not in app.status.value
