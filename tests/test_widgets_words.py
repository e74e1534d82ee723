"""What the app says, checked without a browser: the words of route facts, questions,
refusals, the status line and the end screen, on every map."""

from __future__ import annotations

import html
import re
from unittest.mock import MagicMock

import pytest

pytest.importorskip("ipycanvas")

from positions import set_face_up, set_hand, start_world

from ttr_nb import new_game
from ttr_nb.bots import make_bot
from ttr_nb.rules.maerklin import MovePassenger
from ttr_nb.teaching.scenarios import give_routes, route_id
from ttr_nb.widgets import GameApp


def text(value: str) -> str:
    """What a reader sees of an HTML fragment."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", value)).split())


def past_tickets(app: GameApp) -> None:
    """Every seat keeps all its starting tickets (the humans through the panel)."""
    while app.view.state.pending == "keep_tickets" and app.view.phase == "setup":
        if app.human_to_move():
            for box in app.offer.boxes:
                box.value = True
            app.offer.keep_button.click()
        else:
            app.bot_step()


def usa(players: int = 3) -> GameApp:
    app = GameApp(map_name="usa", players=players, seed=7, auto_bots=False)
    past_tickets(app)
    return app


# ------------------------------------------------------------ route facts
def test_a_one_space_route_is_worth_1_point_not_1_points() -> None:
    app = usa()
    short = next(r for r in app.map.routes if r.length == 1)
    app.board.select(short.id)
    facts = app.claim.selected_html.value
    assert "1 point" in facts and "1 points" not in facts


@pytest.mark.parametrize(("players", "closed"), [(3, True), (4, False)])
def test_a_double_route_closed_by_its_other_track_does_not_read_open(
    players: int, closed: bool
) -> None:
    app = usa(players)
    white = route_id(app.game, "new-york", "pittsburgh", "white")
    green = route_id(app.game, "new-york", "pittsburgh", "green")
    give_routes(app.game, 1, [white])  # Bruno took the white track
    app.refresh()
    app.board.select(green)
    facts = text(app.claim.selected_html.value)
    if closed:
        assert "double route · open" not in facts
        assert "closed: with 3 players only one track of a double route is used" in facts
        assert "Bruno took the white one" in facts
        assert "You cannot claim it" in facts  # the line under agrees
    else:
        assert "open, but not to Bruno" in facts


# ------------------------------------------------------------ cards, end screen
def test_a_face_up_locomotive_is_drawn_as_the_rainbow_not_a_dull_button() -> None:
    app = usa()
    set_face_up(app.game, ["red", "locomotive", "blue", "green", "white"])
    app.refresh()
    loco, red = app.cards.face_up[1], app.cards.face_up[0]
    assert "ttr-wild-card" in loco._dom_classes and "ttr-wild-card" not in red._dom_classes
    set_face_up(app.game, ["locomotive", "red", "blue", "green", "white"])
    app.refresh()  # the class follows the card, not the slot
    assert "ttr-wild-card" not in loco._dom_classes
    assert "ttr-wild-card" in app.cards.face_up[0]._dom_classes


def test_no_missed_ticket_is_not_shown_in_red() -> None:
    app = usa()
    app.play_to_end()
    page = app.result_html.value
    for item in re.findall(r"<li>.*?</li>", page):
        missed = re.search(r"<span class='([^']*)'>missed (\d+)", item)
        assert missed, item
        assert (missed.group(1) == "ttr-missed") == (missed.group(2) != "0"), item


# ------------------------------------------------------------------- World
def world_in_play() -> GameApp:
    game = start_world(players=2, seed=3)
    app = GameApp(map_name="world", players=2, seed=3, auto_bots=False)
    app.load_game(game, "a test position")
    return app


def test_world_pair_route_says_it_takes_two_train_cards_a_space_and_calls_wilds_wilds() -> None:
    app = world_in_play()
    set_hand(app.game, 0, **{"train-black": 3})
    app.refresh()
    pair = route_id(app.game, "anchorage", "vancouver")
    app.board.select(pair)
    advice = text(app.claim.selected_html.value)
    assert "it takes 4 Train cards: two of one colour for each of its 2 spaces" in advice
    assert "locomotive" not in advice.lower() and "Wild" in advice
    assert "2 cards of any one colour" not in advice


def test_world_refill_question_counts_the_cards_that_can_be_drawn() -> None:
    app = world_in_play()
    rules = app.game.rules
    pile, discard = rules.piles(app.game.state, "train")
    discard.extend(pile[:15])  # 15 of the train deck's cards lie in its discards
    del pile[:15]
    app.refresh()
    slot = next(
        i for i, c in enumerate(app.game.state.face_up) if c and not app.map.card_by_id[c].wild
    )
    app.cards.face_up[slot].click()  # several refills possible: the app asks
    labels = [label for label, _ in app.prompt.choices.options]
    train = next(label for label in labels if "train deck" in label)
    assert f"({len(pile)} cards in it; its 15 discards are shuffled in" in train
    supply = text(app.cards.supply_html.value).replace("( ", "(")
    assert f"Train deck: {len(pile)} cards (15 discarded)" in supply  # the same count
    discard.extend(pile)
    pile.clear()
    app.prompt.close()
    app.refresh()
    app.cards.face_up[slot].click()
    train = next(label for label, _ in app.prompt.choices.options if "train deck" in label)
    assert "(empty: its" in train and "discards are shuffled to make a new deck" in train


# ------------------------------------------------------------ the status line
def test_the_status_line_names_the_variants_own_moves() -> None:
    app = world_in_play()
    app.refresh()  # the status line says what to do next
    status = text(app.status.value)
    assert app.human_to_move() and "exchange pieces" in status, status
    assert "another move" not in status
    maerklin = maerklin_with_a_journey()
    maerklin.refresh()
    status = text(maerklin.status.value)
    assert "move a passenger" in status and "another move" not in status, status


def maerklin_with_a_journey() -> GameApp:
    """Märklin, the human to move with a passenger that can travel (greedy bots played)."""
    game = new_game("maerklin", players=2, seed=4)
    bots = [make_bot("greedy", seat) for seat in range(2)]
    while not any(isinstance(a, MovePassenger) for a in game.legal_actions()) or (
        game.current_player != 0
    ):
        game.apply(bots[game.current_player].choose(game))
        assert not game.is_over
    app = GameApp(map_name="maerklin", players=2, seed=4, auto_bots=False)
    app.prompt.close()  # the new game's first question
    app.load_game(game, "a test position")
    return app


# ------------------------------------------------------------ ticket decks
def test_germany_ticket_mix_names_the_card_printed_outside_the_rulebooks_range() -> None:
    app = GameApp(map_name="germany", players=2, seed=1, auto_bots=False)
    question = text(app.prompt.question.value)  # the first tickets are asked at once
    assert (
        "short ones 2–11 points (the rulebook says 3 to 11, but the Mannheim–Stuttgart card "
        "is printed with 2)" in question
    )
    assert "Long tickets are worth 12–22 points but" in question  # as the rulebook says
    maerklin = GameApp(map_name="maerklin", players=2, seed=1, auto_bots=False)
    assert "rulebook" not in text(maerklin.prompt.question.value)  # its cards agree


# ------------------------------------------------------------ end screens
@pytest.mark.parametrize(
    ("map_name", "scored"),
    [("usa", True), ("germany", False), ("maerklin", False), ("world", False)],
)
def test_longest_trails_are_shown_only_where_they_score(map_name: str, scored: bool) -> None:
    app = GameApp(map_name=map_name, players=2, seed=2, auto_bots=False)
    app.prompt.close()
    app.play_to_end()
    assert app.view.is_over
    page = text(app.result_html.value)
    assert ("longest path (spaces)" in page) == scored
    assert ("longest continuous trail is outlined" in page) == scored
    layer = MagicMock()
    app._paint_trails(layer, app.board.geometry, app.board.pieces)
    assert bool(layer.method_calls) == scored  # outlined on the board only where it scores


def test_a_triple_route_closed_by_another_track_says_triple() -> None:
    app = GameApp(map_name="germany", players=2, seed=7, auto_bots=False)
    tracks = sorted(r.id for r in app.game.map.routes if {r.a, r.b} == {"duesseldorf", "koeln"})
    give_routes(app.game, 1, [tracks[0]])
    app.refresh()
    app.board.select(tracks[1])
    facts = text(app.claim.selected_html.value)
    assert "closed: with 2 players only one track of a triple route is used" in facts
