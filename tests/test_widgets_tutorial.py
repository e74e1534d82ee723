"""The app's first screen, its tutorial and the first game's reminders, driven through the
app's own controls without a browser (the browser tests are in test_browser_tutorial.py).

A scripted learner (``tutorial_steps``) walks each map's tutorial with the controls a
learner clicks; the figures (steps, moves, time) are printed, never asserted.
"""

from __future__ import annotations

import html
import json
import re
import time
from typing import Any

import pytest
from tutorial_steps import click_move, finish_step, frugal_move

from ttr_nb.actions import ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets
from ttr_nb.algorithms import TicketUnreachableError, plan_ticket
from ttr_nb.deals import give_routes, set_face_up, set_tickets, ticket_id
from ttr_nb.rules.europe_actions import BuildStation, GiveUpTunnel, PayTunnel
from ttr_nb.rules.world_actions import ChooseSupply, ExchangePieces
from ttr_nb.widgets import GameApp
from ttr_nb.widgets.tutorial import tutorial_for, tutorial_maps
from ttr_nb.widgets.tutorial.reminders import start_first_game
from ttr_nb.widgets.tutorial.runner import MARK_CLASS, checked_progress
from ttr_nb.widgets.tutorial.script import deal_of, jump, plan_networks, rebuilt


def make_app(**options: Any) -> GameApp:
    app = GameApp(auto_bots=False, **options)
    app.errors = []  # type: ignore[attr-defined]
    app.guard.listeners.append(app.errors.append)  # type: ignore[attr-defined]
    return app


def sent(widget: Any) -> list[dict[str, Any]]:
    """Record the custom messages a widget sends to the page."""
    messages: list[dict[str, Any]] = []
    widget.send = lambda content, buffers=None: messages.append(content)
    return messages


def step_index(app: GameApp, key: str) -> int:
    steps = tutorial_for(app.tutorial.tutorial.map_id).steps
    return next(i for i, s in enumerate(steps) if s.key == key)


# ------------------------------------------------------------------ whole tutorials
@pytest.mark.parametrize("map_id", ["usa", "germany", "maerklin", "world", "europe"])
def test_a_learner_completes_the_tutorial_with_the_apps_controls(map_id: str) -> None:
    app = make_app()
    kept = sent(app.tutorial.keeper)
    stored = sent(app.store)
    started = time.perf_counter()
    app.start_tutorial(map_id)
    steps = tutorial_for(map_id).steps
    moves = 0
    for i, step in enumerate(steps):
        assert app.tutorial.index == i
        assert f"Step {i + 1} of {len(steps)}" in app.tutorial.header.value
        assert step.title in app.tutorial.header.value
        assert "In depth:" in app.tutorial.lesson.value  # the lesson part for its rule
        moves += finish_step(app)
        assert app.tutorial.step_done, f"{step.key}: not done ({app.tutorial.feedback.text})"
        assert app.tutorial.feedback.text, step.key  # the move explained
        assert app.tutorial.next_button.description in ("Next step", "Finish")
        app.tutorial.next_button.click()
    elapsed = time.perf_counter() - started
    assert app.tutorial.finished
    assert not app.errors, app.errors
    last = [m["progress"] for m in kept if m.get("kind") == "keep"][-1]
    assert (last["map"], last["step"]) == (map_id, len(steps) - 1)
    assert last["done"] == list(range(len(steps)))  # every step done, kept for a reload
    assert not stored, "a tutorial position went into the browser's game store"
    print(
        f"\ntutorial {map_id}: {len(steps)} steps, {moves} moves by the scripted learner, "
        f"{elapsed:.2f} s in the kernel"
    )
    # Then the first real game: against a beginner bot, the coach open.
    app.tutorial.first_game_button.click()
    assert not app.tutorial.active
    assert app.map.id == map_id and app.seat_kinds == ["human", "beginner"]
    assert app.coach.toggle.value and app.reminders.active
    assert "first game" in app.status.value
    assert any(m.get("kind") == "start" for m in stored)  # a real game is stored again


def test_every_tutorial_step_opens_on_an_engine_position_with_its_marks() -> None:
    for map_id in tutorial_maps():
        tutorial = tutorial_for(map_id)
        for i in range(len(tutorial.steps)):
            opening = tutorial.open(i)
            step, game = opening.step, opening.game
            if step.goal is not None:
                assert step.goal.show_move(game) is not None, (map_id, step.key)
                assert game.legal_actions(), (map_id, step.key)
            marks = step.marks_for(game)
            assert marks.routes or marks.places or marks.controls, (map_id, step.key)
            assert all(r in game.map.route_by_id for r in marks.routes), (map_id, step.key)


# ------------------------------------------------------------------ one consistent game
def _phase_after(game: Any, moves: int) -> str:
    """The phase after the first ``moves`` moves (replayed on the game's deal)."""
    trimmed = game.clone()
    trimmed.history = game.history[:moves]
    return rebuilt(trimmed).phase


def _turns_done(game: Any, start: int) -> int:
    """Completed turns since move ``start``: runs of one player's moves, counted from the
    history alone (the last run counts when the player to move is someone else, or no
    card or ticket choice is pending)."""
    runs = 0
    previous = None
    for move in game.history[start:]:
        if move.player != previous:
            runs += 1
            previous = move.player
    if runs and game.state.current == previous and game.state.pending is not None:
        runs -= 1  # a turn in progress
    return runs


def _pieces_expected(game: Any, seat: int) -> dict[str, int]:
    """A seat's pieces from its deal and its moves: the supply chosen, exchanges, and the
    routes it owns (each the claim of a move of its own)."""
    pieces = dict(deal_of(game).state.players[seat].pieces)
    for move in game.history:
        if move.player != seat:
            continue
        action = move.action
        if isinstance(action, ChooseSupply):
            pieces = {"train": action.trains, "ship": action.ships}
        elif isinstance(action, ExchangePieces):
            other = "ship" if action.take == "train" else "train"
            pieces[action.take] += action.count
            pieces[other] -= action.count
    for rid in game.state.players[seat].routes:
        route = game.map.route_by_id[rid]
        pieces[route.kind] -= route.length
    return pieces


def check_consistent(app: GameApp, where: str) -> None:
    """What the app shows of the tutorial's game agrees with its moves."""
    game = app.game
    # Every visible thing is the engine's doing: replayed from the deal, the same game.
    assert rebuilt(game).snapshot() == game.snapshot(), f"{where}: not the moves' position"
    # The log says each move, by its player.
    assert len(game.log) == len(game.history), where
    for move, line in zip(game.history, game.log, strict=True):
        assert line.startswith(game.names[move.player]), (where, line)
    shown_log = app.log_html.value
    if game.log:
        assert html.escape(game.log[-1]) in shown_log, (where, game.log[-1])
    # The round shown is the turns played (counted from the history) over the players.
    header = app.turn.widget.value
    if game.phase == "play":
        start = next(i for i in range(len(game.history) + 1) if _phase_after(game, i) == "play")
        expected = _turns_done(game, start) // game.num_players + 1
        assert f"round {expected}," in header, (where, expected, header)
    # Every route on the board was claimed by a move of its owner; the pieces shown are
    # the deal's less what the moves spent.
    claims = {(m.player, m.action.route) for m in game.history if isinstance(m.action, ClaimRoute)}
    table = app.scores_html.value
    rows = table.split("<tr")[2:]
    for seat, player in enumerate(game.state.players):
        for rid in player.routes:
            assert (seat, rid) in claims, (where, seat, rid)
        expected = _pieces_expected(game, seat)
        assert player.pieces == expected, (where, seat, player.pieces, expected)
        row = next(r for r in rows if html.escape(player.name) in r)
        for kind, n in expected.items():
            assert re.search(rf"\b{n} {kind}s?\b", row), (where, seat, kind, n, row)
    # The learner holds exactly the tickets their keeps chose.
    kept = [
        t
        for m in game.history
        if m.player == 0 and isinstance(m.action, KeepTickets)
        for t in m.action.tickets
    ]
    assert sorted(game.state.players[0].tickets) == sorted(kept), where


NEXT = re.compile(r"(\w+) plays next")


@pytest.mark.parametrize("learner", ["show-me", "frugal", "skipper"])
@pytest.mark.parametrize("map_id", ["usa", "germany", "maerklin", "world", "europe"])
def test_every_step_carries_on_one_consistent_game(map_id: str, learner: str) -> None:
    """Each learner walks every step: each carried step starts from the very game the
    learner left (their tickets kept, the round, the trains and the log agreeing with the
    moves), each new position says so, and a player promised to play next does."""
    app = make_app()
    app.start_tutorial(map_id)
    tutorial = app.tutorial.tutorial
    choose = frugal_move if learner == "frugal" else None
    ends: dict[int, Any] = {}
    first_kept: set[int] = set()
    promised: tuple[int, str] | None = None
    for i, step in enumerate(tutorial.steps):
        where = f"{map_id} {learner} step {i + 1} {step.key}"
        opening = app.tutorial.opening
        game = app.game
        check_consistent(app, where)
        source = tutorial.source(i)
        if source is None:
            assert i == 0 or opening.staged, f"{where}: a new position not said"
            assert "new position" in app.tutorial.since.value or i == 0, where
        else:
            before = ends[source]
            assert game.history[: len(before.history)] == before.history, where
            if source != i - 1:  # back to the learner's game after another position
                assert "Back to your own game" in app.tutorial.since.value, where
            assert game.state.players[0].tickets[: len(first_kept)] is not None
            assert first_kept <= set(game.state.players[0].tickets), where
            if opening.staged:
                assert "new position" in app.tutorial.since.value, where
            if promised is not None and promised[0] == source:
                mover = game.history[len(before.history)].player
                assert game.names[mover] == promised[1], f"{where}: {promised[1]} did not play"
        promised = None
        if learner == "skipper" and i % 2 == 1 and step.goal is not None:
            app.tutorial.next_button.click()  # Skip: the tutorial plays the step's move
            ends[i] = app.tutorial.ends[i]
            assert "skipped" in app.tutorial.since.value or i + 1 == len(tutorial.steps)
            continue
        finish_step(app, choose=choose)
        assert app.tutorial.step_done, where
        ends[i] = app.game.clone()
        if i == 0:
            first_kept = set(app.game.state.players[0].tickets)
            if learner == "frugal":
                rules = app.game.rules
                assert len(first_kept) == rules.setup_ticket_keep, where
        said = NEXT.search(app.tutorial.feedback.text)
        if said:
            promised = (i, said.group(1))
        app.tutorial.next_button.click()
    assert app.tutorial.finished and not app.errors, app.errors


# ------------------------------------------------------------------ the referee
def test_a_legal_move_that_does_something_else_is_explained_and_taken_back() -> None:
    app = make_app()
    app.start_tutorial("usa")
    app.tutorial.go(step_index(app, "two-cards"))
    before = app.game.snapshot()
    app.cards.tickets_button.click()  # legal, but the step asks for two cards
    assert app.game.snapshot() == before
    feedback = app.tutorial.feedback.text
    assert "allowed" in feedback and "take two cards" in feedback and "taken back" in feedback
    assert "taken back" in app.status.value
    assert not app.tutorial.step_done


def test_a_refused_move_gets_its_rule_in_words() -> None:
    app = make_app()
    app.start_tutorial("usa")
    app.tutorial.go(step_index(app, "locomotive-second"))
    app.cards.face_up[0].click()  # a locomotive turns up in slot 0
    assert app.game.state.face_up[0] == "locomotive"
    assert app.cards.face_up[0].disabled
    before = app.game.snapshot()
    app.act(DrawFaceUp(0), app.cards.note)  # what a forged click on the locomotive sends
    assert app.game.snapshot() == before
    assert "Not allowed" in app.tutorial.feedback.text
    assert "second card" in app.tutorial.feedback.text
    assert "Not allowed" in app.cards.note.text


def test_the_target_is_the_only_highlight_and_is_named() -> None:
    app = make_app()
    app.claim.show_claimable.value = True  # the learner's setting before the tutorial
    app.start_tutorial("usa")
    app.tutorial.go(step_index(app, "two-cards"))
    assert app.game.legal_actions() and any(
        isinstance(a, ClaimRoute) for a in app.game.legal_actions()
    ), "a route the learner could claim: it must not light up while the step asks for cards"
    assert app.board.pieces.highlighted == frozenset()
    assert app.claim.show_claimable.layout.display == "none"
    assert not app.tutorial.step.marks_for(app.game).routes

    app.tutorial.go(step_index(app, "pay-colour"))
    step = app.tutorial.step
    (route,) = step.marks_for(app.game).routes
    name = app.game.map.route_label(app.game.map.route_by_id[route])
    assert app.board.pieces.highlighted == frozenset()  # only the tutorial's orange ring
    assert name in step.task and name in step.goal.asks
    app.cards.tickets_button.click()  # legal, but the step asks for that claim
    assert f"not this step's: claim {name}, the marked route" in app.tutorial.feedback.text

    app.tutorial.leave_button.click()
    assert app.claim.show_claimable.value and app.claim.show_claimable.layout.display == ""


def test_show_me_plays_the_step_and_explains_it() -> None:
    app = make_app()
    app.start_tutorial("usa")
    app.tutorial.go(step_index(app, "pay-colour"))
    app.tutorial.show_button.click()
    assert app.tutorial.step_done and app.tutorial.show_button.disabled
    assert app.tutorial.feedback.text.startswith("Shown:")
    assert "is yours" in app.tutorial.feedback.text
    assert app.game.state.owner  # the route is Ann's on the board


def test_back_skip_and_the_progress_line() -> None:
    app = make_app()
    app.start_tutorial("usa")
    assert app.tutorial.back_button.disabled and app.tutorial.next_button.description == "Skip"
    app.tutorial.next_button.click()
    app.tutorial.next_button.click()
    assert app.tutorial.index == 2 and "Step 3 of" in app.tutorial.header.value
    app.tutorial.back_button.click()
    assert app.tutorial.index == 1
    finish_step(app)
    assert "1 of " in app.tutorial.header.value.split("aria-label='")[1]  # one step done
    assert app.tutorial.next_button.description == "Next step"


def test_marks_on_the_cards_and_on_the_board() -> None:
    app = make_app()
    app.start_tutorial("usa")
    app.tutorial.go(step_index(app, "face-up-locomotive"))
    assert MARK_CLASS in app.cards.face_up[0]._dom_classes
    assert MARK_CLASS not in app.cards.face_up[1]._dom_classes
    app.tutorial.go(step_index(app, "pay-colour"))
    assert MARK_CLASS not in app.cards.face_up[0]._dom_classes  # the old marks are gone
    calls: list[str] = []

    class Layer:
        def __getattr__(self, name: str) -> Any:
            return lambda *a, **k: calls.append(name)

        def __setattr__(self, name: str, value: Any) -> None:
            calls.append(name)

    app.tutorial.paint(Layer(), app.board.geometry, app.board.pieces)
    assert "stroke_polygons" in calls  # the route to claim is ringed


def test_the_other_seats_never_move_and_timeline_and_saves_are_away() -> None:
    app = make_app()
    app.bot_panel.auto.value = True
    app.start_tutorial("usa")
    app.tutorial.go(step_index(app, "turn"))
    finish_step(app)
    assert not app.bot_panel.timer.playing  # Bruno waits
    assert app.timeline.widget.layout.display == "none"
    assert app.extras.layout.display == "none"
    assert app.coach.widget.layout.display == "none"
    assert not app.bot_step()


# ------------------------------------------------------------------ Europe's own controls
def test_europe_tunnel_the_question_comes_into_view_and_giving_up_is_taken_back() -> None:
    app = make_app()
    app.start_tutorial("europe")
    app.tutorial.go(step_index(app, "tunnel"))
    scrolled = sent(app.scroller)
    claim = app.tutorial.step.goal.show_move(app.game)
    click_move(app, claim)  # the route on the board, a payment, Claim this route
    assert app.game.state.pending == "tunnel"
    assert {"kind": "show", "selector": ".ttr-tunnel", "min_width": 0} in scrolled
    panel = app.ui.tunnel
    assert panel.widget.layout.display == "" and MARK_CLASS in panel.widget._dom_classes
    assert "tunnel panel" in app.tutorial.feedback.text  # where to answer
    answers = [value for _, value in panel.picker.options]
    assert GiveUpTunnel() in answers and any(isinstance(a, PayTunnel) for a in answers)
    before = app.game.snapshot()
    panel.picker.value = GiveUpTunnel()
    panel.button.click()  # legal, but this step asks to pay
    assert app.game.snapshot() == before and "taken back" in app.tutorial.feedback.text
    panel.picker.value = next(a for a in answers if isinstance(a, PayTunnel))
    panel.button.click()
    assert app.tutorial.step_done and "is yours" in app.tutorial.feedback.text


def test_europe_station_one_per_city_is_refused_with_its_rule() -> None:
    app = make_app()
    app.start_tutorial("europe")
    app.tutorial.go(step_index(app, "station"))
    assert "Bruno builds a train station in Wien" in app.tutorial.since.value  # played
    offered = [value for _, value in app.ui.stations.picker.options]
    assert "wien" not in offered and "berlin" in offered
    assert "first station costs 1" in app.ui.stations.info.value
    before = app.game.snapshot()
    app.act(BuildStation("wien", (("blue", 1),)), app.ui.stations.note)  # a forged choice
    assert app.game.snapshot() == before
    assert "one station per city" in app.tutorial.feedback.text
    click_move(app, app.tutorial.step.goal.show_move(app.game))
    assert app.tutorial.step_done and "Your station stands in" in app.tutorial.feedback.text


def test_europe_the_end_last_move_borrowed_route_then_the_score() -> None:
    app = make_app()
    app.start_tutorial("europe")
    app.tutorial.go(step_index(app, "the-end"))
    mine = [c for c, s in app.game.state.extras["stations"].items() if s == 0]
    assert mine, "the learner's station, built in an earlier step, is still there"
    click_move(app, DrawBlind())  # the last move: two cards
    click_move(app, DrawBlind())
    panel = app.ui.borrow
    assert panel.widget.layout.display == "" and MARK_CLASS in panel.widget._dom_classes
    proposed = panel.chosen()  # the app proposes the best choice for the tickets
    click_move(app, proposed)
    assert app.game.is_over and app.tutorial.step_done
    text = app.tutorial.feedback.text
    assert "borrowed" in text and "never count" in text and "European Express" in text
    assert app.game.scores()[0]["stations"] == 8  # two stations never built


# ------------------------------------------------------------------ progress in the browser
def test_a_reload_resumes_the_same_step_and_forged_progress_is_ignored() -> None:
    app = make_app(welcome=True)
    keeper = app.tutorial.keeper
    keeper._received(
        keeper, {"kind": "stored", "text": json.dumps({"map": "germany", "step": 4})}, []
    )
    assert app.tutorial.active and app.tutorial.index == 4 and app.map.id == "germany"
    assert not app.first_screen.showing
    for forged in (
        '{"map": "../../etc/passwd", "step": 1}',
        '{"map": "usa", "step": 999}',
        '{"map": "usa", "step": -1}',
        '{"map": "usa", "step": "3"}',
        '{"map": "usa", "step": true}',
        "[1, 2]",
        "not json",
        "x" * 10_000,
        None,
        42,
    ):
        assert checked_progress(forged) is None, forged
        other = make_app(welcome=True)
        other.tutorial.keeper._received(
            other.tutorial.keeper, {"kind": "stored", "text": forged}, []
        )
        assert not other.tutorial.active and other.first_screen.showing
    with pytest.raises(ValueError, match="no tutorial"):
        app.start_tutorial("atlantis")


def test_a_reload_keeps_the_done_marks_and_the_learners_own_game() -> None:
    app = make_app(welcome=True)
    kept = sent(app.tutorial.keeper)
    app.start_tutorial("usa")
    finish_step(app, choose=frugal_move)  # keeps 2 tickets of 3
    assert len(app.game.state.players[0].tickets) == 2
    app.tutorial.next_button.click()
    finish_step(app, choose=frugal_move)  # any move: tickets again, keeping 1
    mine = sorted(app.game.state.players[0].tickets)
    assert len(mine) == 3
    hand = dict(app.game.state.players[0].hand)
    app.tutorial.next_button.click()
    app.tutorial.next_button.click()  # step 3 skipped: played for the learner, not done
    assert app.tutorial.index == 3
    progress = [m["progress"] for m in kept if m.get("kind") == "keep"][-1]
    assert progress["done"] == [0, 1] and progress["step"] == 3

    reloaded = make_app(welcome=True)  # the page again: the browser sends what it kept
    keeper = reloaded.tutorial.keeper
    keeper._received(keeper, {"kind": "stored", "text": json.dumps(progress)}, [])
    tutorial = reloaded.tutorial
    assert tutorial.active and tutorial.index == 3
    assert tutorial.done_steps == {0, 1}
    assert "2 of 15 steps done" in tutorial.header.value
    assert tutorial.header.value.count("class='done'") == 2
    assert sorted(reloaded.game.state.players[0].tickets) == mine  # their own choice
    step_2_end = tutorial.ends[1]
    assert dict(step_2_end.state.players[0].hand) == hand  # the cards they drew
    assert reloaded.game.snapshot() == app.game.snapshot()  # the very same game

    forged = dict(progress, moves=[[{"type": "KeepTickets", "tickets": [999]}], "x"])
    other = make_app(welcome=True)
    other.tutorial.keeper._received(
        other.tutorial.keeper, {"kind": "stored", "text": json.dumps(forged)}, []
    )
    assert other.tutorial.active and other.tutorial.index == 3 and not other.errors
    kept_then = other.game.state.players[0].tickets
    assert 999 not in kept_then and len(kept_then) == 3  # the tutorial's own choice instead
    check_consistent(other, "a forged progress")


def test_leaving_the_tutorial_forgets_its_progress() -> None:
    app = make_app(welcome=True)
    app.first_screen.learn_button.click()
    kept = sent(app.tutorial.keeper)
    app.tutorial.leave_button.click()
    assert {"kind": "forget"} in kept
    assert not app.tutorial.active and app.first_screen.showing


# ------------------------------------------------------------------ the first screen
def test_the_first_screen_asks_what_the_visitor_came_for() -> None:
    app = make_app(welcome=True)
    screen = app.first_screen
    assert screen.showing and "ttr-away" in app.main._dom_classes
    labels = [
        b.description for b in (screen.learn_button, screen.bots_button, screen.others_button)
    ]
    assert labels == ["Learn to play", "Play against bots", "Play with others"]
    screen.map_picker.value = "germany"
    screen.learn_button.click()
    assert app.tutorial.active and app.map.id == "germany"
    assert "ttr-away" not in app.main._dom_classes

    app = make_app(welcome=True)
    app.first_screen.map_picker.value = "world"
    app.first_screen.bots_button.click()
    assert not app.first_screen.showing and app.map.id == "world" and app.game is not None

    app = make_app(welcome=True)
    app.first_screen.others_button.click()
    assert not app.first_screen.showing and app.tables.forms_box.selected_index == 0


def test_a_visitor_with_a_game_in_progress_goes_back_to_it() -> None:
    source = make_app()
    keep_tickets = [a for a in source.game.legal_actions()][0]
    source.game.apply(keep_tickets)
    stored = source.game.to_json()
    app = make_app(welcome=True)
    app.store._received(app.store, {"kind": "stored", "text": stored}, [])
    assert not app.first_screen.showing
    assert app.prompt.is_open and "Resume your last game" in app.prompt.question.value
    app.prompt.choose(0)
    assert len(app.game.history) == 1


# ------------------------------------------------------------------ the rules card
CARD_WORDS = {  # a line each variant's card has and the others do not
    "usa": "longest continuous path",
    "germany": "Globetrotter",
    "maerklin": "Locomotive +4",
    "europe": "train station",
    "world": "harbor",
}


@pytest.mark.parametrize("map_id", list(CARD_WORDS))
def test_the_rules_card_opens_at_any_time_with_the_maps_own_rules(map_id: str) -> None:
    app = make_app(map_name=map_id, welcome=True)
    card = app.rules_card
    assert card.widget in app.widget.children  # above the board, outside the first screen
    assert card.panel.layout.display == "none" and card.toggle.description == "Rules"
    card.toggle.value = True  # the button (a native button: Enter or Space opens it)
    assert card.panel.layout.display == "" and card.toggle.description == "Close the rules"
    body = html.unescape(card.body.value)
    for part in ("On your turn", "Claiming a route", "The end and the score"):
        assert part in body
    game_map, rules = app.map, app.game.rules
    lengths = sorted({r.length for r in game_map.routes})
    assert "".join(f"<td>{game_map.route_points(n)}</td>" for n in lengths) in card.body.value
    assert f"ends a turn with {rules.end_trigger_pieces} " in body  # the end trigger
    assert CARD_WORDS[map_id] in body
    assert not [w for m, w in CARD_WORDS.items() if m != map_id and w in body]
    card.pages.value = "house"
    house = html.unescape(card.body.value)
    assert "pass" in house and "share the victory" in house
    card.close_button.click()
    assert card.panel.layout.display == "none" and card.toggle.description == "Rules"
    app.start_tutorial(map_id)  # and during the tutorial
    card.open("house")
    assert card.panel.layout.display == "" and "rulebook is silent" in card.body.value


def test_the_recap_points_at_the_rules_card_and_the_house_rules() -> None:
    for map_id in tutorial_maps():
        tutorial = tutorial_for(map_id)
        last = tutorial.steps[-1]
        assert last.key == "recap" and last.goal is None
        assert "Rules button" in last.text and "House rules" in last.text
        assert not any(s.key == "passing" for s in tutorial.steps)  # on its own page now
    app = make_app()
    app.start_tutorial("usa", len(tutorial_for("usa").steps) - 1)
    assert MARK_CLASS in app.rules_card.toggle._dom_classes
    assert app.game.is_over  # the learner's own game, over


# ------------------------------------------------------------------ the first game
def first_game(map_id: str = "usa", seed: int = 7) -> GameApp:
    app = make_app()
    app.setup.fresh_seed_box.value = False  # the same game every run
    app.setup.seed_box.value = seed
    start_first_game(app, map_id)
    while app.game.phase == "setup":  # tickets kept, by Ann and by the bot
        if app.is_human(app.game.current_player):
            click_move(app, app.game.legal_actions()[0])
        else:
            app.bot_step()
    return app


def reminders(app: GameApp) -> str:
    return app.reminders.widget.value


def test_first_game_reminds_a_face_up_locomotive_once() -> None:
    app = first_game()
    assert app.is_human(app.game.current_player)
    set_face_up(app.game, ["locomotive", "red", "blue", "green", "white"])
    app.refresh()
    assert "face-up-wild" in reminders(app) and "whole draw" in reminders(app)
    app.act(DrawBlind())
    app.act(DrawBlind())
    for _ in range(6):  # a round and more later, the same situation: no second reminder
        while not app.is_human(app.game.current_player):
            app.bot_step()
        set_face_up(app.game, ["locomotive", "red", "blue", "green", "white"])
        app.refresh()
        app.act(DrawBlind())
        app.act(DrawBlind())
    assert "face-up-wild" not in reminders(app)
    assert [r.key for r in app.reminders.said].count("face-up-wild") == 1


def test_first_game_reminds_a_closed_double_route_the_last_round_and_a_lost_ticket() -> None:
    app = first_game()
    game = app.game
    twins = next(r for r in game.map.routes if game.rules.parallel[r.id])
    give_routes(game, 1, [twins.id])
    app.refresh()
    assert "double-closed" in reminders(app) and "closed now" in reminders(app)

    set_tickets(game, 0, [ticket_id(game, "seattle", "new-york")])
    for route in game.map.routes:  # every route into Seattle goes to the bot
        if "seattle" in route.ends and route.id not in game.state.owner:
            give_routes(game, 1, [route.id])
    game.state.final_turns_left, game.state.last_round_by = 2, 1
    app.refresh()
    text = reminders(app)
    assert "ticket-lost" in text and "Seattle" in text and "cannot be completed" in text
    assert "last-round" in app.reminders.widget.value or "last round" in text


def _cheapest(game: Any, ticket: int) -> Any:
    """The cheapest way Ann can still join ``ticket`` (her routes free)."""
    game_map = game.map
    board = [(r.id, r.a, r.b, r.length) for r in game_map.routes]
    mine = set(game.state.players[0].routes)
    closed = {
        r.id
        for r in game_map.routes
        if r.id not in mine and game.rules.route_problem(game.state, 0, r) is not None
    }
    a, b = (game_map.targets(c) for c in game_map.ticket_by_id[ticket].cities)
    return plan_ticket(board, a, b, owned=mine, unavailable=closed)


def test_first_game_reminds_a_ticket_its_trains_can_no_longer_reach() -> None:
    """The fourth reminder, reached by play: Ann spends her trains away from her longest
    ticket (every move a legal one; the bot keeps off that ticket's routes too) until one
    of her tickets needs more spaces than she has trains; the reminder names it, once."""
    app = first_game()
    game = app.game
    ticket = max(game.state.players[0].tickets, key=lambda t: game.map.ticket_by_id[t].points)
    path = _cheapest(game, ticket).route_ids
    near = {p for rid in path for p in game.map.route_by_id[rid].ends}
    far = [r.id for r in game.map.routes if set(r.ends) & near]
    plans = plan_networks(game, {0: 42}, toward_tickets=(), avoid=far)

    def out_of_reach(g: Any) -> list[int]:
        left = sum(g.state.players[0].pieces.values())
        found = []
        for t, done in g.ticket_status(0):
            try:
                if not done and _cheapest(g, t).spaces > left:
                    found.append(t)
            except TicketUnreachableError:
                found.append(t)
        return found

    assert not out_of_reach(game) and "ticket-lost" not in reminders(app)
    jump(
        game,
        plans,
        lambda g: g.state.current == 0 and g.state.pending is None and bool(out_of_reach(g)),
        avoid=far,
    )
    app.position = len(game.history)  # the app shows the latest move, as after its own
    app.refresh()
    text = html.unescape(reminders(app))
    names = [
        " → ".join(game.map.place_name(c) for c in game.map.ticket_by_id[t].cities)
        for t in out_of_reach(game)
    ]
    assert "ticket-lost" in text and "cannot be completed any more" in text
    assert any(name in text for name in names), (names, text)
    assert "more spaces and you have" in text  # (this game: too few trains, not taken)
    app.act(DrawBlind())
    app.act(DrawBlind())
    assert [r.key for r in app.reminders.said].count("ticket-lost") == 1


def test_first_game_reminds_a_ticket_whose_routes_are_taken() -> None:
    """The fourth reminder, reached by play: the bot claims every route into a city of
    Ann's ticket (legal claims, cards drawn for them)."""
    app = first_game()
    game = app.game
    ticket = game.state.players[0].tickets[0]
    city = game.map.ticket_by_id[ticket].cities[0]
    into = [r.id for r in game.map.routes if city in r.ends]
    plans = {1: into}
    jump(game, plans, lambda g: not plans[1] and g.state.current == 0)
    assert all(
        game.state.owner.get(r) == 1
        or game.rules.route_problem(game.state, 0, game.map.route_by_id[r])
        for r in into
    )
    app.position = len(game.history)
    app.refresh()
    text = html.unescape(reminders(app))
    assert "ticket-lost" in text and "are taken" in text


def test_first_game_coach_speaks_plainly_near_the_board() -> None:
    app = first_game()
    coach = app.coach
    assert coach.toggle.value and coach.plain_widget in app.game_panels.children[:4]  # on top
    assert coach.plain_widget.layout.display == ""
    first_view = coach.plain_html.value
    assert "Coach:" in first_view and coach.why_html.value == ""  # the reasons wait
    for jargon in ("Steiner", "union", "Dreyfus", ".ipynb", "Dijkstra", "forest", "algorithm"):
        assert jargon not in first_view, jargon
    advice = coach.coaching(app.view)
    label = app.map.route_label
    named = [label(app.map.route_by_id[r]) for r in advice.plan.routes]
    line = re.search(
        r"<li>(?:Claim (.+?) now: your cards pay for it|Collect (\d+) more (\w+)[^<]*? for (.+?))"
        r"\.</li>",
        first_view,
    )
    assert line, first_view
    route = html.unescape(line.group(1) or line.group(4))
    assert route in named  # a route of the coach's own plan, by name
    planned = app.map.route_by_id[advice.plan.routes[named.index(route)]]
    if line.group(3):  # the colour to collect: the route's, or for gray the commonest held
        assert line.group(3) == planned.color or planned.color == "gray"
    coach.why_toggle.value = True  # Why? (a button: a bot's move keeps it open)
    why = coach.why_html.value
    assert "Steiner" in why and "Graphs 5" in why and ".ipynb" not in why  # algorithm, lesson
    app.bot_step()
    assert coach.why_toggle.value and "Steiner" in coach.why_html.value
    assert "beside the board" in coach.body.value
    app.start()  # a later game: the coach as it always was
    coach.toggle.value = True
    assert coach.plain_widget.layout.display == "none" and "My plan" in coach.body.value


def test_reminders_follow_only_the_first_game() -> None:
    app = first_game()
    app.start()  # another game
    set_face_up(app.game, ["locomotive", "red", "blue", "green", "white"])
    app.refresh()
    assert not app.reminders.active and reminders(app) == ""


def test_start_tutorial_over_a_game_in_progress_then_a_new_game_leaves_it() -> None:
    app = make_app()
    app.act(app.game.legal_actions()[0])
    app.start_tutorial("usa", 3)
    assert app.tutorial.step.key == "face-up-locomotive"
    app.start()
    assert not app.tutorial.active and app.tutorial.widget.layout.display == "none"
    assert app.timeline.widget.layout.display == ""
    assert DrawTickets() in app.game.legal_actions() or app.game.phase == "setup"
