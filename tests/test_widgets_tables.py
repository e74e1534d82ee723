"""Shared tables in the app, without a browser: several pages (apps) at one table.

Each GameApp stands for one browser page (one kernel); they share one SQLite store. The
hidden-information checks read every widget's state as a page would receive it.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pytest

pytest.importorskip("ipycanvas")

from app_steps import keep_offered

from ttr_nb import DrawBlind, KeepTickets
from ttr_nb.coach.plan import ticket_name
from ttr_nb.tables import TableStore
from ttr_nb.widgets import GameApp


@pytest.fixture
def store(tmp_path: Path) -> TableStore:
    return TableStore(f"sqlite:///{tmp_path / 'tables.sqlite'}")


def page(store: TableStore) -> GameApp:
    return GameApp(map_name="usa", players=3, seed=7, auto_bots=False, store_factory=lambda: store)


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
    assert ben.game.snapshot() == ann.game.snapshot()
    assert ann.act(DrawBlind()) and ann.act(DrawBlind())
    tick(ben)
    assert len(ben.game.history) == 5 and "Your turn!" in ben.tables.panel.turn_banner.value


def test_a_page_shows_only_its_own_seats_cards(store):
    ann = page(store)
    code = open_table(ann, ["human", "human"])
    ben = page(store)
    join(ben, code, "Ben", 1)
    tick(ann)
    game = ann.game
    ann_offer = [ann.ui.ticket_text(game, t) for t in game.state.players[0].offer]
    ben_offer = [ann.ui.ticket_text(game, t) for t in game.state.players[1].offer]
    ann_page = widget_state_text(ann)
    assert all(t in ann_page for t in ann_offer) and "Ann's hand" in ann_page
    assert not any(t in ann_page for t in ben_offer) and "Ben's hand" not in ann_page
    keep_offered(ann)  # keeps at least her two first tickets
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
    ben.tables._last_heartbeat = -1e9
    tick(ben)
    assert ben.tables.elsewhere


# ------------------------------------------------------------------ the teacher's page
def teacher_page(store: TableStore) -> Any:
    """The teacher's page in a kernel the teacher's server vouched for."""
    from ttr_nb.widgets.teacher import TeacherAccess, TeacherPage

    return TeacherPage(access=TeacherAccess(True, "token"), store_factory=lambda: store)


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
    teacher = TeacherPage(store_factory=lambda: store)
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

    made = store.create_table("usa", ["greedy", "greedy"], None, session="t", seed=5)
    teacher = teacher_page(store)
    teacher.watch(made.table_id)
    app = teacher.app
    tick(app)  # the watching page moves the bots, one move a look
    tick(app)
    assert len(app.game.history) == 2 and app.viewer() is None
    state = widget_state_text(app)
    assert "'s hand" not in state  # nobody's hand nor tickets while the game runs
    running = app.game
    for seat in range(2):
        for ticket in running.state.players[seat].tickets + running.state.players[seat].offer:
            assert app.ui.ticket_text(running, ticket) not in state
    from ttr_nb.tables.client import TableClient

    rest = TableClient(store, made.table_id)
    while not rest.game.is_over:
        rest.move_bots(max_moves=500)
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
    teacher.close(made.table_id)  # a finished table stays "over"
    assert store.table_by_id(made.table_id).status == "over"


def test_the_creator_starts_with_bots_and_gives_a_seat_to_a_bot_and_back(store):
    ann = page(store)
    open_table(ann, ["human", "human", "human"])
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
        "greedy",
        "greedy",
    ]
    assert "The game starts" in panel.table_note.text
    keep_offered(ann)
    # Ann steps away: her seat goes to a bot, which keeps playing while she is gone.
    panel.panel.creator_seat.value = 0
    panel.panel.give_button.click()
    for _ in range(6):
        tick(ann)
    assert "(you; a greedy bot plays for you now)" in panel.panel.seat_list.value
    assert not ann.is_human(0) and len(ann.game.history) > 3
    panel.panel.take_back_button.click()
    for _ in range(6):
        tick(ann)
    assert ann.is_human(ann.game.current_player) or ann.game.current_player != 0
    assert "plays for" not in panel.panel.seat_list.value


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
    assert ben.game.state.players[2].tickets
    for ticket in ben.game.state.players[2].tickets:
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


def _tickets_text(app: GameApp, seat: int) -> list[str]:
    game = app.game
    held = game.state.players[seat].tickets + game.state.players[seat].offer
    return [ticket_name(game.map, t) for t in held]


def _coach_leaks(app: GameApp, seat: int) -> list[str]:
    """The tickets of ``seat`` that ``app``'s page holds anywhere in its widgets' state."""
    state = widget_state_text(app)
    return [t for t in _tickets_text(app, seat) if t in state]


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
    assert _coach_leaks(ben, 0) == [] and _coach_leaks(ben, 2) == []
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
    assert cleo.coach.seat.options == () and _coach_leaks(cleo, 0) == []


def test_a_creator_who_watches_gets_no_coaching_while_the_game_runs(store):
    ann = page(store)
    panel = open_forms(ann)
    panel.forms.seat_count.value = 2
    panel.forms.seat_pickers[0].value = "greedy"
    panel.forms.seat_pickers[1].value = "greedy"
    panel.forms.creator_plays.value = False
    panel.forms.open_button.click()
    assert panel.active and panel.seat is None
    tick(ann)
    tick(ann)
    assert len(ann.game.history) == 2
    ann.coach.toggle.value = True
    assert ann.coach.seat.options == () and "plays none now" in ann.coach.body.value
    assert _coach_leaks(ann, 0) == [] and _coach_leaks(ann, 1) == []


def test_the_teachers_page_names_a_damaged_table_and_still_exports_the_others(store):
    """Issue 39: one damaged move row used to stop the class's whole export."""
    from test_tables_faults import bots_table, damage

    good = bots_table(store, 12, seed=1)
    bad = bots_table(store, 12, seed=2)
    damage(store, bad.table_id, 7, '{"type": "ClaimRoute", "rou')
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
