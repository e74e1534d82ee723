"""Shared tables in the app, without a browser: several pages (apps) at one table.

Each GameApp stands for one browser page (one kernel); they share one SQLite store. The
hidden-information checks read every widget's state as a page would receive it.
"""

from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pytest

pytest.importorskip("ipycanvas")

from app_steps import keep_offered

from ttr_nb import DrawBlind, KeepTickets
from ttr_nb.coach.plan import ticket_name
from ttr_nb.tables import TableStore
from ttr_nb.tables.codes import show_code
from ttr_nb.widgets import GameApp

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tables_fixtures import client, pages, public, whole_game  # noqa: E402


@pytest.fixture
def store(tmp_path: Path) -> TableStore:
    return TableStore(f"sqlite:///{tmp_path / 'tables.sqlite'}")


def page(store: TableStore) -> GameApp:
    return GameApp(map_name="usa", players=3, seed=7, auto_bots=False, service_factory=pages(store))


def open_forms(page_app: GameApp) -> Any:
    """Open the Play with others panel (its forms are made then) and return the panel."""
    page_app.tables.forms_box.selected_index = 0
    return page_app.tables


def open_table(ann: GameApp, seats: list[str]) -> str:
    panel = open_forms(ann)
    panel.forms.seat_count.value = len(seats)
    for picker, kind in zip(panel.forms.seat_pickers, seats, strict=False):
        picker.value = kind
    panel.forms.creator_name.value = "Ann"
    panel.forms.open_button.click()
    assert panel.active, ann.status.value
    return panel.client.info.code


def join(page_app: GameApp, code: str, name: str, seat: int) -> None:
    panel = open_forms(page_app)
    panel.forms.join_code.value = code.lower()
    panel.forms.join_name.value = name
    panel.forms.find_button.click()
    sit = [b for b in panel.forms.free_seats.children if b.description == f"Sit in seat {seat + 1}"]
    assert sit, panel.forms.join_note.text
    sit[0].click()
    assert panel.active and panel.seat == seat


def tick(*pages: GameApp) -> None:
    for p in pages:
        p.tables.on_tick()


def widget_state_text(app: GameApp) -> str:
    """Everything the page's widgets would send to its browser, as one string: the state of
    every widget reachable from the app's root, as the page receives it."""
    return reachable_state_text(app.widget)


def reachable_state_text(root: Any) -> str:
    """The state of every widget reachable from ``root``, as one string."""
    from ipywidgets.widgets.widget import _instances

    seen: set[str] = set()
    todo = [root.model_id]
    states = []
    while todo:
        model_id = todo.pop()
        if model_id in seen or model_id not in _instances:
            continue
        seen.add(model_id)
        state = _instances[model_id].get_state()
        text = json.dumps(state, default=lambda _v: "", ensure_ascii=False)
        states.append(text)
        todo.extend(part.split('"')[0] for part in text.split("IPY_MODEL_")[1:])
    return html.unescape("\n".join(states))


def test_two_pages_play_one_table_and_see_each_others_moves(store):
    ann = page(store)
    code = open_table(ann, ["human", "human", "greedy"])
    assert "Waiting for 1 player" in ann.tables.panel.turn_banner.value
    ben = page(store)
    join(ben, code, "Ben", 1)
    tick(ann)
    assert ann.game is not None and ann.game is ann.tables.client.game
    assert "Your turn!" in ann.tables.panel.turn_banner.value
    assert "Ann's turn" in ben.tables.panel.turn_banner.value
    # Ann keeps her tickets: Ben's page shows it at its next look.
    keep_offered(ann)
    tick(ben)
    assert ben.game.log[-1].startswith("Ann keeps")
    assert "Your turn!" in ben.tables.panel.turn_banner.value
    # Ann cannot act on Ben's turn: refused, with whose turn it is.
    assert not ann.act(DrawBlind())
    assert "It is Ben&#x27;s turn, not yours" in ann.status.value
    keep_offered(ben)
    tick(ann, ben)  # one of the pages moves the greedy bot, once
    tick(ann, ben)
    assert [m.player for m in ann.game.history] == [0, 1, 2]
    assert public(ben.game) == public(ann.game)
    assert ann.act(DrawBlind()) and ann.act(DrawBlind())
    tick(ben)
    assert len(ben.game.history) == 5 and "Your turn!" in ben.tables.panel.turn_banner.value


def test_a_page_shows_only_its_own_seats_cards(store):
    ann = page(store)
    code = open_table(ann, ["human", "human"])
    ben = page(store)
    join(ben, code, "Ben", 1)
    tick(ann)
    game = whole_game(store, ann.tables.client.table_id)
    ann_offer = [ann.ui.ticket_text(game, t) for t in game.state.players[0].offer]
    ben_offer = [ann.ui.ticket_text(game, t) for t in game.state.players[1].offer]
    assert ann_offer and ben_offer
    ann_page = widget_state_text(ann)
    assert all(t in ann_page for t in ann_offer) and "Ann's hand" in ann_page
    assert not any(t in ann_page for t in ben_offer) and "Ben's hand" not in ann_page
    keep_offered(ann)  # keeps at least her two first tickets
    game = whole_game(store, ann.tables.client.table_id)
    kept = [ann.ui.ticket_text(game, t) for t in game.state.players[0].tickets]
    tick(ben)
    ben_page = widget_state_text(ben)
    assert all(t in ben_page for t in ben_offer) and "Ben's hand" in ben_page
    assert not any(t in ben_page for t in kept + ann_offer) and "Ann's hand" not in ben_page
    assert ben.viewer() == 1 and ann.viewer() == 0


def test_a_stale_click_is_told_the_table_moved_on(store):
    ann = page(store)
    code = open_table(ann, ["human", "human"])
    ann_tab2 = page(store)
    ben = page(store)
    join(ben, code, "Ben", 1)
    tick(ann)
    # Ann opens the table in a second tab, which takes the seat: the first tab only watches.
    ann_tab2.tables._come_back_from_browser(
        {"token": ann.tables.client.token, "seat_code": ann.tables.seat_code}
    )
    assert ann_tab2.tables.seat == 0
    ann.tables._last_heartbeat = -1e9
    tick(ann)
    assert ann.tables.elsewhere and "another tab" in ann.status.value
    assert not ann.act(KeepTickets(tuple(ann.game.state.players[0].offer)))
    keep_offered(ann_tab2)
    assert len(ann_tab2.game.history) == 1


def test_saves_wait_for_the_end_of_a_table_game(store):
    ann = page(store)
    code = open_table(ann, ["human", "human"])
    ben = page(store)
    join(ben, code, "Ben", 1)
    tick(ann)
    ann.files.save_to_text()
    assert ann.files.save_text.value == ""
    assert "when its game is over" in ann.files.note.text


def test_leaving_a_table_and_coming_back_by_seat_code(store):
    ann = page(store)
    code = open_table(ann, ["human", "human"])
    ben = page(store)
    join(ben, code, "Ben", 1)
    seat_code = ben.tables.seat_code
    phone = page(store)
    open_forms(phone)
    phone.tables.forms.back_code.value = code
    phone.tables.forms.back_seat_code.value = seat_code
    phone.tables.forms.back_button.click()
    assert phone.tables.seat == 1 and phone.game is not None
    tick(ben)  # the laptop's token no longer holds the seat: it leaves, and shows nothing of it
    assert not ben.tables.active and "another device" in ben.status.value
    assert ben.game is None or ben.game.state.players[1].name != "Ben"


# ------------------------------------------------------------------ the teacher's page
def teacher_page(store: TableStore) -> Any:
    """The teacher's page in a kernel the teacher's server vouched for."""
    from ttr_nb.widgets.teacher import TeacherAccess, TeacherPage

    return TeacherPage(
        access=TeacherAccess(True, "token"), service_factory=pages(store, teacher=True)
    )


def test_the_teachers_page_lists_every_table(store):
    ann = page(store)
    code = open_table(ann, ["human", "human", "greedy"])
    teacher = teacher_page(store)
    listing = teacher.tables_html.value
    assert code[:3] in listing and "Ann" in listing and "open" in listing and "free" in listing
    assert teacher.picker.value == ann.tables.client.table_id  # the only table is picked
    ben = page(store)
    join(ben, code, "Ben", 1)
    teacher.refresh()
    assert "playing" in teacher.tables_html.value and "Ann" in teacher.tables_html.value


def test_a_teachers_page_the_server_did_not_vouch_for_holds_nothing_a_forged_message_opens(
    store, monkeypatch
):
    """Issue 39: the old page hid its table list behind a layout a browser can change. Now,
    unless the server says the visitor logged in, no table widget exists: showing every
    widget (what a forged update does) reveals nothing, and no action does anything."""
    from ttr_nb.widgets.teacher import TeacherPage

    monkeypatch.delenv("TTR_TEACHER_SERVER", raising=False)
    monkeypatch.delenv("TTR_TEACHER_KEY", raising=False)
    ann = page(store)
    code = open_table(ann, ["human", "human", "greedy"])
    teacher = TeacherPage(service_factory=pages(store))
    from ipywidgets.widgets.widget import _instances

    for widget in list(_instances.values()):  # every layout shown, as a forged update would
        if isinstance(widget, widgets.Layout):
            widget.display = ""
    for action in ("refresh", "export"):
        if hasattr(teacher, action):
            getattr(teacher, action)()
    for action in ("close", "switch_coach", "watch"):
        if hasattr(teacher, action):
            getattr(teacher, action)(ann.tables.client.table_id)
    state = reachable_state_text(teacher.widget)
    assert code[:3] not in state and "Ann" not in state
    assert "only on the teacher's server" in state
    info = store.table_by_id(ann.tables.client.table_id)
    assert info.status == "open" and info.coach


def test_the_teacher_watches_the_public_table_and_sees_all_at_the_end(store):
    ann = page(store)
    open_table(ann, ["human", "greedy"])
    keep_offered(ann)  # the service's bot keeps its own tickets at once
    table_id = ann.tables.client.table_id
    teacher = teacher_page(store)
    teacher.watch(table_id)
    app = teacher.app
    tick(app)
    assert len(app.game.history) == 2 and app.viewer() is None
    state = widget_state_text(app)
    # nobody's hand nor tickets while the game runs (the page helper's words "the board's
    # handler" are no hand)
    assert not re.search(r"'s hand\b", state)
    running = whole_game(store, table_id)
    for seat in range(2):
        for ticket in running.state.players[seat].tickets + running.state.players[seat].offer:
            assert app.ui.ticket_text(running, ticket) not in state
    seat = ann.tables.client
    while not seat.game.is_over:  # Ann plays on; the bot answers each move
        legal = seat.game.legal_actions()
        seat.play(next((a for a in legal if isinstance(a, DrawBlind)), legal[0]))
    tick(app)
    game = app.game
    assert game.is_over and app.result_html.value
    end = html.unescape(app.result_html.value)  # once over: everyone's tickets
    for seat in range(2):
        for ticket in game.state.players[seat].tickets:
            first = game.map.place_name(game.map.ticket_by_id[ticket].cities[0])
            assert first in end
    csv_text = teacher.export()
    assert csv_text.splitlines()[0].startswith("table,map,status,seat,player")
    assert len(csv_text.splitlines()) == 3 and "download=" in teacher.export_link.value
    teacher.close(table_id)  # a finished table stays "over"
    assert store.table_by_id(table_id).status == "over"


def test_the_creator_starts_with_bots_and_gives_a_seat_to_a_bot_and_back(store):
    ann = page(store)
    code = open_table(ann, ["human", "human", "human", "human"])
    ben = page(store)
    join(ben, code, "Ben", 1)
    panel = ann.tables
    buttons = panel.panel
    assert (
        buttons.creator_box.layout.display == "" and buttons.start_now_button.layout.display == ""
    )
    buttons.start_now_button.click()
    tick(ann)
    info = panel.client.info
    assert info.status == "playing" and [s.kind for s in info.seats] == [
        "human",
        "human",
        "greedy",
        "greedy",
    ]
    assert "The game starts" in panel.table_note.text
    keep_offered(ann)
    # Ann steps away: her seat goes to a bot, which plays for her until Ben's turn comes.
    tick(ben)
    panel.panel.creator_seat.value = 0
    panel.panel.give_button.click()
    tick(ann)
    assert "(you; a greedy bot plays for you now)" in panel.panel.seat_list.value
    assert not ann.is_human(0)
    keep_offered(ben)  # the bots, Ann's stand-in among them, play round to Ben again
    tick(ann, ben)
    made_by = [m.made_by for m in store.moves(panel.client.table_id) if m.seat == 0]
    assert made_by[0] == "player" and "greedy" in made_by[1:]
    panel.panel.take_back_button.click()
    tick(ann)
    assert "plays for" not in panel.panel.seat_list.value and ann.is_human(0)


def test_a_hostile_page_gets_a_sentence_and_nothing_changes(store):
    ann = page(store)
    code = open_table(ann, ["human", "human"])
    mallory = page(store)
    panel = open_forms(mallory)
    panel.forms.join_code.value = "x" * 100_000
    panel.forms.find_button.click()
    assert "No table has this code" in panel.forms.join_note.text and not panel.active
    panel.forms.join_code.value = code
    panel.forms.join_name.value = "M" * 41
    panel.forms.find_button.click()
    sit = panel.forms.free_seats.children[0]
    sit.click()
    assert "at most 40" in panel.forms.join_note.text and not panel.active
    panel.forms.join_name.value = "Ann"
    sit.click()
    assert "already called Ann" in panel.forms.join_note.text and not panel.active
    for _ in range(10):
        panel.forms.join_code.value = "AAA AAA"
        panel.forms.find_button.click()
    assert "too many wrong codes" in panel.forms.join_note.text.lower()
    assert store.table(code).seats[1].free


def ben_after_ann_chose(store: TableStore, trains: int) -> dict[str, str]:
    """A World table (seed fixed): Ann keeps her tickets and chooses a supply with
    ``trains`` trains; what Ben's page then shows, panel by panel."""
    from ttr_nb.rules.world_actions import ChooseSupply

    made = store.create_table("world", ["human", "human"], None, session="t", seed=11)
    ann, ben = page(store), page(store)
    join(ann, made.code, "Ann", 0)
    join(ben, made.code, "Ben", 1)
    tick(ann)
    keep_offered(ann)
    tick(ben)
    keep_offered(ben)
    tick(ann)
    assert ann.act(
        next(
            a
            for a in ann.game.legal_actions()
            if isinstance(a, ChooseSupply) and a.trains == trains
        )
    )
    tick(ben)
    assert ben.tables.plays(1) and ben.game.state.pending == "choose_supply"
    shown = {
        "players": ben.scores_html.value,
        "log": ben.log_html.value,
        "turn": ben.turn.widget.value if hasattr(ben.turn.widget, "value") else "",
        "status": ben.status.value.split(">", 1)[1],
    }
    for i, panel in enumerate(ben.variant_top_box.children + ben.variant_box.children):
        shown[f"panel {i}"] = widget_state_text_of(panel)
    # Then Ben chooses too: every choice is revealed together.
    assert ben.act(next(a for a in ben.game.legal_actions() if isinstance(a, ChooseSupply)))
    shown["revealed"] = ben.scores_html.value
    return shown


def widget_state_text_of(root: Any) -> str:
    from ipywidgets.widgets.widget import _instances

    seen: set[str] = set()
    todo, states = [root.model_id], []
    while todo:
        model_id = todo.pop()
        if model_id in seen or model_id not in _instances:
            continue
        seen.add(model_id)
        text = json.dumps(_instances[model_id].get_state(), default=lambda _v: "")
        states.append(text.split('"_view_count"')[0])
        todo.extend(part.split('"')[0] for part in text.split("IPY_MODEL_")[1:])
    # Model ids differ from page to page; what the widgets say must not.
    return "".join(part.split('"', 1)[-1] for part in "".join(states).split("IPY_MODEL_"))


def test_a_secret_world_supply_stays_on_its_own_page(store):
    """World: each player keeps 60 pieces secretly. At a table, what Ben's page shows is the
    same whatever Ann chose, until everyone has chosen."""
    few, many = ben_after_ann_chose(store, 10), ben_after_ann_chose(store, 25)
    assert few.pop("revealed") != many.pop("revealed")  # once all chose, the table shows it
    assert few.keys() == many.keys() and len(few) > 4
    for part in few:
        assert few[part] == many[part], f"Ben's {part} tells what Ann chose"


# ------------------------------------------------------------------ the coach at a table
def test_the_coach_at_a_table_speaks_to_its_own_seat_and_explains_the_bots(store):
    ann = page(store)
    code = open_table(ann, ["human", "human", "greedy"])
    ben = page(store)
    join(ben, code, "Ben", 1)
    tick(ann)
    keep_offered(ann)
    tick(ben)
    keep_offered(ben)
    tick(ann)  # Ann's page wins the bots' turn: the greedy bot keeps its tickets
    tick(ben)
    assert len(ben.game.history) == 3
    ben.coach.toggle.value = True
    assert ben.coach.seat.options == (("2 Ben", 1),)  # Ben's own seat, nobody else's
    body = ben.coach.body.value
    assert "My plan" in body
    # Ben's page did not move the bot, yet tells why it moved (stored with the move) ...
    assert "Why that move" in body and "Move 3:" in body
    # ... without naming the bot's tickets while the game runs.
    why = html.unescape(body.split("Why that move")[1])
    bots = whole_game(store, ben.tables.client.table_id).state.players[2].tickets
    assert bots and all(t < 0 for t in ben.game.state.players[2].tickets)  # Ben's page: none
    for ticket in bots:
        assert ticket_name(ben.map, ticket) not in why
    assert "stays hidden" in body
    # Ben's plan never uses Ann's hidden tickets: the coach's state holds only Ben's.
    assert "2 Ben" in widget_state_text(ben) and "1 Ann" not in str(ben.coach.seat.options)


def test_a_table_opened_for_a_graded_game_has_no_coach(store):
    ann = page(store)
    panel = open_forms(ann)
    panel.forms.seat_count.value = 2
    panel.forms.seat_pickers[1].value = "greedy"
    panel.forms.creator_name.value = "Ann"
    panel.forms.coach_allowed.value = False
    panel.forms.open_button.click()
    assert panel.active
    assert ann.coach.toggle.disabled and "switched off" in ann.coach.body.value
    ann.tables.leave()
    assert not ann.coach.toggle.disabled  # a game of one's own: the coach is back


def test_the_creator_and_the_teacher_switch_a_tables_coach_during_the_game(store):

    ann = page(store)
    code = open_table(ann, ["human", "human"])
    ben = page(store)
    join(ben, code, "Ben", 1)
    tick(ann)
    assert not ben.coach.toggle.disabled
    ann.tables.panel.coach_button.click()  # the creator: a graded game from now on
    tick(ann, ben)
    assert ben.coach.toggle.disabled and "switched off" in ben.coach.body.value
    assert ann.tables.panel.coach_button.description == "Let players open the coach"
    teacher = teacher_page(store)
    assert "coach off" in teacher.tables_html.value
    teacher.picker.value = ann.tables.client.table_id
    teacher.coach_button.click()
    tick(ann, ben)
    assert not ben.coach.toggle.disabled
    assert "coach off" not in teacher.tables_html.value
    assert "may open the coach" in teacher.note.text


def _tickets_text(store: TableStore, app: GameApp, seat: int) -> list[str]:
    game = whole_game(store, app.tables.client.table_id)
    held = game.state.players[seat].tickets + game.state.players[seat].offer
    return [ticket_name(game.map, t) for t in held]


def _coach_leaks(store: TableStore, app: GameApp, seat: int) -> list[str]:
    """The tickets of ``seat`` that ``app``'s page holds anywhere in its widgets' state."""
    state = widget_state_text(app)
    return [t for t in _tickets_text(store, app, seat) if t in state]


def test_a_page_that_plays_no_seat_gets_no_coaching_for_any_seat(store):
    """Issue 39: a second tab, a creator who watches, a seat a bot stands in for: the coach
    offers no seat and its state holds no player's tickets while the game runs."""
    ann = page(store)
    code = open_table(ann, ["human", "human", "human"])
    ben = page(store)
    join(ben, code, "Ben", 1)
    cleo = page(store)
    join(cleo, code, "Cleo", 2)
    tick(ann, ben, cleo)
    for p in (ann, ben, cleo):
        keep_offered(p)
        tick(ann, ben, cleo)
    assert len(ann.game.history) == 3
    # Ben opens a second tab: it takes his seat over; his first tab only watches now.
    tab = page(store)
    tab.tables._come_back_from_browser({"token": ben.tables.client.token})
    assert tab.tables.active and tab.tables.seat == 1
    ben.tables._last_heartbeat = 0.0  # its next look tells it
    tick(ben)
    assert ben.tables.elsewhere
    ben.coach.toggle.value = True
    assert ben.coach.seat.options == ()
    assert "plays none now" in ben.coach.body.value
    assert _coach_leaks(store, ben, 0) == [] and _coach_leaks(store, ben, 2) == []
    # A forged pick of another seat gets nothing either (checked again in the kernel).
    ben.coach._updating = True
    ben.coach.seat.options = [("1 Ann", 0)]
    ben.coach.seat.value = 0
    ben.coach._updating = False
    assert ben.coach.coaching(ben.game) is None
    # The tab that holds the seat is coached for it, and for it only.
    tab.coach.toggle.value = True
    assert tab.coach.seat.options == (("2 Ben", 1),) and "My plan" in tab.coach.body.value
    # A bot stands in for Cleo: her page plays no seat until she takes it back.
    ann.tables.panel.creator_seat.value = 2
    ann.tables.panel.give_button.click()
    tick(cleo)
    cleo.coach.toggle.value = True
    assert cleo.coach.seat.options == () and _coach_leaks(store, cleo, 0) == []


def test_a_creator_who_watches_gets_no_coaching_while_the_game_runs(store):
    ann = page(store)
    panel = open_forms(ann)
    panel.forms.seat_count.value = 2
    panel.forms.seat_pickers[0].value = "human"
    panel.forms.seat_pickers[1].value = "greedy"
    panel.forms.creator_plays.value = False
    panel.forms.open_button.click()
    assert panel.active and panel.seat is None
    ben = page(store)
    join(ben, panel.client.info.code, "Ben", 0)
    keep_offered(ben)  # the bot keeps its tickets too
    tick(ann)
    assert len(ann.game.history) == 2
    ann.coach.toggle.value = True
    assert ann.coach.seat.options == () and "plays none now" in ann.coach.body.value
    assert _coach_leaks(store, ann, 0) == [] and _coach_leaks(store, ann, 1) == []


def test_the_teachers_page_names_a_damaged_table_and_still_exports_the_others(store):
    """Issue 39: one damaged move row used to stop the class's whole export."""
    from test_tables_faults import damage, played_table

    good = played_table(store, 12, "p1")
    bad = played_table(store, 12, "p2")
    damage(store, bad.table_id, 7, '{"type": "ClaimRoute", "rou')
    store.test_service = None  # the service as it starts after the damage
    teacher = teacher_page(store)
    listing = html.unescape(teacher.tables_html.value)
    assert "Move 7 is damaged in the table store" in listing and "stops after move 6" in listing
    csv_text = teacher.export()
    assert good.code[:3] in csv_text and bad.code[:3] not in csv_text
    assert len(csv_text.splitlines()) == 3  # the header and the good table's two seats
    assert "Left out of the export" in teacher.note.text and bad.code[:3] in teacher.note.text


def test_the_teachers_page_frees_a_squatted_seat_and_shows_the_stores_size(store):
    ann = page(store)
    code = open_table(ann, ["human", "human", "human"])
    ben = page(store)
    join(ben, code, "Ben", 1)  # Ben sits and never moves
    teacher = teacher_page(store)
    assert "MB of" in teacher.size_html.value and "1 table" in teacher.size_html.value
    assert dict(teacher.seat_picker.options) == {"1: Ann": 0, "2: Ben": 1}
    teacher.seat_picker.value = 1
    teacher.free_button.click()
    assert "Seat 2" in teacher.note.text and "free again" in teacher.note.text
    seats = store.table_by_id(ann.tables.client.table_id).seats
    assert seats[1].free and seats[0].name == "Ann"


# ------------------------------------------------------------------ issue 40: at a table
def test_a_table_waiting_for_players_shows_its_panel_and_nothing_of_a_game(store):
    """Items 1 and 2: from opening the table to its start, the play column shows the
    table's panel (code, seats, Start now, Close, Leave), and nothing says the rules are
    missing; Save game says why there is nothing to save."""
    ann = page(store)
    code = open_table(ann, ["human", "human", "human"])
    panel = ann.tables.panel
    assert ann.play_column.layout.display == "" and ann.tables.table_box.layout.display == ""
    assert ann.game_panels.layout.display == "none"  # no turn, cards or tickets yet
    assert panel.details.selected_index == 0  # unfolded: the seats and buttons in view
    for shown in (panel.creator_box, panel.start_now_button, panel.close_button):
        assert shown.layout.display in ("", None)
    assert "Leave the table" in panel.leave_button.description
    assert "not implemented" not in ann.explore_note.value and ann.explore_note.value == ""
    assert show_code(code) in ann.status.value and "Start now" in ann.status.value
    ann.files.save_to_text()
    assert "Nothing to save yet" in ann.files.note.text and "Nothing to save yet" in (
        ann.status.value
    )


def test_a_table_closed_while_waiting_shows_one_state(store):
    """Item 3: the teacher closes a table still waiting for players; its page says it was
    closed, and neither that the game starts nor whose turn it is."""
    ann = page(store)
    open_table(ann, ["human", "human"])
    teacher = teacher_page(store)
    teacher.close(ann.tables.client.table_id)
    tick(ann)
    assert ann.game is None and ann.game_panels.layout.display == "none"
    state = widget_state_text(ann)
    assert "This table was closed" in ann.tables.panel.turn_banner.value
    assert "Everyone is here" not in state and "To move" not in state
    assert "was closed" in ann.status.value
    assert ann.tables.panel.leave_button.description == "Back to a game of your own"
    assert ann.tables.panel.creator_box.layout.display == "none"


def test_the_creators_seat_list_and_notes_start_fresh_at_each_table(store):
    """Items 4 and 5: the creator's Seat list names a seat from the start; a give with no
    seat says to pick one; a note about one table is gone at the next."""
    ann = page(store)
    open_table(ann, ["human", "human", "human"])
    panel = ann.tables.panel
    assert panel.creator_seat.value == 0  # Ann's own seat, the only player's yet
    panel.start_now_button.click()
    tick(ann)
    panel.give_button.click()
    assert "A greedy bot plays seat 1" in panel.note.text
    panel.creator_seat.options = []  # as a page with no player seat listed
    panel.give_button.click()
    assert "Pick a seat" in panel.note.text and "could not be reached" not in panel.note.text
    ann.tables.leave()
    open_table(ann, ["human", "human"])
    assert ann.tables.panel.note.text == ""


def test_words_at_a_table(store):
    """Item 8: a bot's seat is named once; a joiner is not told to read the code out; the
    page that starts the game says so as the others do; the turn line counts rounds; the
    forms are not offered while seated; a finished table's page offers no seat to keep."""
    ann = page(store)
    code = open_table(ann, ["human", "human", "greedy"])
    seats = ann.tables.panel.seat_list.value
    assert "Bot 3 (greedy)" in seats and "greedy bot" not in seats
    assert ann.tables.forms_box.layout.display == "none"
    ben = page(store)
    join(ben, code, "Ben", 1)
    assert "Read" not in ben.status.value and "read out" not in ben.status.value.lower()
    assert "Everyone is here: the game starts." in ben.status.value
    tick(ann)
    assert "Everyone is here: the game starts." in ann.status.value
    keep_offered(ann)
    tick(ben)
    keep_offered(ben)
    for _ in range(3):
        tick(ann, ben)
    turn = ann.turn.widget.value
    assert "round 1, move" in turn and "turn 1" not in turn
    game = ann.game
    while game is not None and not game.is_over:
        mover = ann if game.current_player == 0 else ben if game.current_player == 1 else None
        if mover is None:
            tick(ann)
        else:
            mover.act(mover.game.legal_actions()[0])
        tick(ann, ben)
        game = ann.game
    assert ann.tables.panel.leave_button.description == "Back to a game of your own"


def test_the_coach_switched_off_at_a_table_says_who_can_switch_it_on(store):
    """Item 8: not "a setting of New game", and the disabled button says why."""
    ann = page(store)
    panel = open_forms(ann)
    panel.forms.seat_count.value = 2
    panel.forms.seat_pickers[1].value = "greedy"
    panel.forms.creator_name.value = "Ann"
    panel.forms.coach_allowed.value = False
    panel.forms.open_button.click()
    body = ann.coach.body.value
    assert "New game" not in body and "creator or the teacher" in body
    assert ann.coach.toggle.disabled and "creator or the teacher" in ann.coach.toggle.tooltip


def test_a_tables_csv_writes_tickets_as_the_page_does(store):
    """Item 8: tickets were "A → B" on the page and "A–B" in the CSV."""
    teacher = client(store, "teacher", teacher=True)
    teacher.create_table("usa", ["greedy", "greedy"], None)  # bots only: played to its end
    rows = teacher.results()["rows"]
    done = " ".join(r["tickets done"] + r["tickets missed"] for r in rows)
    assert " → " in done and "–" not in done


def test_the_route_list_names_routes_in_words(store):
    """Item 8: "Dallas–Houston (1 gray) #25": no internal number; the two tracks of a
    double route that read alike are told apart."""
    ann = page(store)
    labels = [label for label, _ in ann.board.route_picker.options]
    assert not [label for label in labels if "#" in label]
    assert "Dallas–Houston (1 gray), track 1 of 2" in labels
    assert len(set(labels)) == len(labels)


def test_the_teachers_picker_takes_the_first_table_and_the_watch_view_says_it_once(store):
    """Items 9 and 10: with one table, Watch works without picking; the watch view has no
    second title and no second "Watching table" line."""
    ann = page(store)
    code = open_table(ann, ["human", "human"])
    teacher = teacher_page(store)
    assert teacher.picker.value == ann.tables.client.table_id
    teacher.watch_button.click()
    assert teacher.app is not None and teacher.app.tables.active
    assert "Watching" not in teacher.note.text and "Watching" not in teacher.app.status.value
    assert show_code(code) in teacher.app.tables.panel.header.value
    shown = reachable_state_text(teacher.widget)
    assert ".ttr-teacher-watch-box .ttr-title-box { display: none" in shown
    teacher.picker.options = []  # no table left in the list
    teacher.watch_button.click()
    assert "Pick a table in the list first." in teacher.note.text


# ------------------------------------------------------------------ issue 41: links
def follow(app: GameApp, query: str, origin: str = "http://10.0.0.5:8866") -> None:
    """As the page's own script tells the kernel its address."""
    app.links._received(None, {"kind": "link", "query": query, "origin": origin, "path": "/"}, None)


def test_a_tables_link_opens_its_seat_choice(store):
    ann = page(store)
    code = open_table(ann, ["human", "human", "greedy"])
    follow(ann, "")  # the creator's page learns its own address: it shows the link
    link = f"http://10.0.0.5:8866/?table={code}"
    assert link in ann.tables.panel.link.words.value
    assert ann.tables.panel.link.qr.value.startswith("<svg")
    ben = page(store)
    follow(ben, f"?table={code[:3].lower()}-{code[3:].lower()}")
    forms = ben.tables.forms
    assert ben.tables.forms_box.selected_index == 0  # Play with others, open
    assert [b.description for b in forms.free_seats.children] == ["Sit in seat 2"]
    assert "Your link opens table" in ben.status.value
    forms.join_name.value = "Ben"
    forms.free_seats.children[0].click()
    assert ben.tables.seat == 1
    tick(ann)
    assert ann.game is not None  # everyone is here


def test_a_link_is_untrusted_input(store):
    """A malformed code reaches no store; a well-formed wrong one goes through the store's
    rate-limited lookup (it counts as a wrong code); no link gives a seat."""
    from ttr_nb.tables.schema import events_t

    ann = page(store)
    follow(ann, "?table=../../etc/passwd")
    assert "names no table code" in ann.status.value and not ann.tables.active
    import sqlalchemy as sa

    with store.engine.begin() as conn:
        before = conn.execute(sa.select(sa.func.count()).select_from(events_t)).scalar()
    bob = page(store)
    follow(bob, "?table=AAAAAA")
    assert "No table has this code" in bob.tables.forms.join_note.text
    with store.engine.begin() as conn:
        after = conn.execute(sa.select(sa.func.count()).select_from(events_t)).scalar()
    assert after == before + 1 and not bob.tables.active
    mallory = page(store)
    follow(mallory, "?map=usa", origin="javascript:alert(1)")
    assert mallory.tables.page_base is None  # no address to make links with


def test_a_map_link_starts_a_game_on_that_map(store):
    app = page(store)
    follow(app, "?map=germany")
    assert app.game is not None and app.game.map.id == "germany"


def test_a_tutorials_link_opens_the_tutorial_of_its_map(store):
    app = GameApp(map_name="usa", players=3, seed=7, auto_bots=False, service_factory=pages(store))
    app.first_screen.show()
    follow(app, "?tutorial=germany")
    assert app.tutorial.active and app.tutorial.tutorial.map_id == "germany"
    assert app.game.map.id == "germany"
    other = GameApp(map_name="usa", players=3, seed=7, auto_bots=False)
    follow(other, "?tutorial=atlantis")  # no such map: nothing opens, the page says so
    assert not other.tutorial.active and "no map" in other.status.value


def test_a_freed_seats_old_page_shows_nothing_of_its_new_player(store):
    """Issue 49, item 3: Dan sits and never moves, the creator frees his seat, Fay takes
    it. Dan's open page went on showing Fay's hand and tickets, live."""
    ann = page(store)
    code = open_table(ann, ["human", "human"])
    dan = page(store)
    join(dan, code, "Dan", 1)
    tick(ann)
    keep_offered(ann)
    ann.tables.panel.creator_seat.value = 1
    ann.tables.panel.free_seat_button.click()
    assert "Seat 2 is free again" in ann.tables.table_note.text
    fay = page(store)
    join(fay, code, "Fay", 1)
    for _ in range(2):
        tick(dan)
    game = whole_game(store, ann.tables.client.table_id)
    fays = [ticket_name(game.map, t) for t in game.state.players[1].offer]
    assert fays and not dan.tables.active and "freed" in dan.status.value
    state = widget_state_text(dan)
    own = set()  # Dan's page is back at a game of its own, which deals its own tickets
    if dan.game is not None:
        for player in dan.game.state.players:
            own |= {ticket_name(dan.game.map, t) for t in player.tickets + player.offer}
    assert "Fay" not in state and not any(t in state for t in fays if t not in own)
    assert dan.tables.client is None  # the kernel holds no view of the table any more


def test_stepping_back_at_a_table_shows_the_seats_own_past_and_no_one_elses(store):
    ann = page(store)
    code = open_table(ann, ["human", "human"])
    ben = page(store)
    join(ben, code, "Ben", 1)
    tick(ann)
    keep_offered(ann)
    tick(ben)
    keep_offered(ben)
    tick(ann)
    assert ann.act(DrawBlind()) and ann.act(DrawBlind())
    tick(ben)
    ben.go_to(1)  # right after Ann kept her tickets: Ben still chooses his
    past = ben.view
    assert len(past.history) == 1 and past.state.players[1].offer
    whole = whole_game(store, ben.tables.client.table_id).replay(1)
    assert past.state.players[1].offer == whole.state.players[1].offer  # his own, as it was
    assert all(t < 0 for t in past.state.players[0].tickets)  # Ann's: how many, not which
    assert past.state.players[0].hand["?"] == whole.state.players[0].hand_size
    state = widget_state_text(ben)
    for ticket in whole.state.players[0].tickets:
        assert ticket_name(whole.map, ticket) not in state
    ben.go_to(len(ben.game.history))
    assert ben.view is ben.game
