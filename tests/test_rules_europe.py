"""One test per rule of Ticket to Ride: Europe, on scripted positions."""

from __future__ import annotations

import json

import pytest
from positions import give_routes, route_between, set_hand, stack_deck, start

from ttr_nb import (
    ClaimRoute,
    DrawBlind,
    DrawTickets,
    Game,
    IllegalActionError,
    KeepTickets,
    MapFormatError,
    SaveFormatError,
    load_map,
    new_game,
)
from ttr_nb.bots import GreedyBot
from ttr_nb.maps import MAPS_DIR
from ttr_nb.rules.europe import (
    BORROW,
    TUNNEL,
    BorrowRoutes,
    BuildStation,
    GiveUpTunnel,
    PayTunnel,
)
from ttr_nb.teaching.scenarios import set_tickets, set_trains

LOCO = "locomotive"


def refused(game: Game, action) -> IllegalActionError:
    """Apply ``action``, expect a refusal and a byte-identical game; return the error."""
    before = game.snapshot()
    with pytest.raises(IllegalActionError) as info:
        game.apply(action)
    assert game.snapshot() == before, "a refused action changed the game"
    return info.value


def europe(players: int = 2, seed: int = 1) -> Game:
    """A Europe game past setup (every player kept all four tickets)."""
    return start(players, seed, "europe")


def rid(game: Game, a: str, b: str, color: str | None = None) -> int:
    return route_between(game, a, b, color).id


def empty_hands(game: Game) -> None:
    for seat in range(game.num_players):
        set_hand(game, seat)


def ticket(game: Game, a: str, b: str) -> int:
    return next(t.id for t in game.map.tickets if set(t.cities) == {a, b})


# ------------------------------------------------------------------ setup
def test_setup_deals_one_long_and_three_regular_tickets_keep_two_rest_to_the_box():
    game = new_game("europe", players=3, seed=4)
    decks = game.state.ticket_decks
    assert len(decks["box"]) == 6 - 3 and decks["long"] == []
    assert len(decks["regular"]) == 40 - 9
    for player in game.state.players:
        offered = [game.map.ticket_by_id[t].deck for t in player.offer]
        assert offered == ["long", "regular", "regular", "regular"]
        assert player.hand_size == 4 and player.pieces == {"train": 45}
        assert player.extras["stations_left"] == 3
    assert sum(c is not None for c in game.state.face_up) == 5
    offer = game.state.players[0].offer
    assert "at least 2" in refused(game, KeepTickets((offer[0],))).rule
    box_before = list(decks["box"])
    game.apply(KeepTickets((offer[1], offer[2])))
    # The long ticket and the regular one not kept go back to the box, not under the deck.
    assert decks["box"] == [*box_before, offer[0], offer[3]]
    assert offer[3] not in decks["regular"]
    assert game.rules.tickets_left(game.state) == 40 - 9


def test_tickets_drawn_in_play_are_three_regular_keep_one_rest_under_the_deck():
    game = europe(seed=2)
    game.apply(DrawTickets())
    offer = game.state.players[0].offer
    assert len(offer) == 3 and {game.map.ticket_by_id[t].deck for t in offer} == {"regular"}
    assert "at least 1" in refused(game, KeepTickets(())).rule
    game.apply(KeepTickets((offer[0],)))
    assert game.state.ticket_decks["regular"][-2:] == offer[1:]
    assert "dealt only at setup" in refused(game, DrawTickets(long=1)).rule


# ---------------------------------------------------------------- ferries
def test_a_ferry_takes_a_locomotive_for_each_locomotive_symbol():
    game = europe()
    ferry = rid(game, "amsterdam", "london")  # 2 spaces, 2 locomotive symbols
    set_hand(game, 0, red=4, locomotive=1)
    assert not [a for a in game.legal_actions() if getattr(a, "route", None) == ferry]
    error = refused(game, ClaimRoute(ferry, (("locomotive", 1), ("red", 1))))
    assert "2 locomotive symbols" in error.rule and "has 1" in error.rule
    set_hand(game, 0, red=4, locomotive=2)
    assert [a.cards for a in game.legal_actions() if getattr(a, "route", None) == ferry] == [
        ((LOCO, 2),)
    ]
    one = rid(game, "athina", "brindisi")  # 4 spaces, 1 locomotive symbol
    pays = [a.cards for a in game.legal_actions() if getattr(a, "route", None) == one]
    assert pays == [((LOCO, 1), ("red", 3)), ((LOCO, 2), ("red", 2))]
    game.apply(ClaimRoute(one, ((LOCO, 1), ("red", 3))))
    assert game.state.owner[one] == 0 and game.state.players[0].route_score == 7


# ---------------------------------------------------------------- tunnels
def tunnel_position(hand: dict[str, int], top: list[str]) -> tuple[Game, int]:
    """Paris–Zürich (a 3-space gray tunnel), the first player holding ``hand``, the deck's
    next cards ``top``."""
    game = europe(seed=5)
    empty_hands(game)
    set_hand(game, 0, **hand)
    stack_deck(game, top)
    return game, rid(game, "paris", "zuerich")


def test_a_tunnel_turns_up_three_seeded_cards_and_asks_for_matches_and_locomotives():
    game, tunnel = tunnel_position({"red": 5, LOCO: 1}, ["red", LOCO, "blue"])
    discards = len(game.state.discard)
    game.apply(ClaimRoute(tunnel, (("red", 3),)))
    state = game.state
    assert state.pending == TUNNEL and state.current == 0
    record = state.extras["tunnel"]
    assert record["revealed"] == ["red", LOCO, "blue"] and record["extra"] == 2
    # The turned-up cards are discarded at once; the cards laid down are still held.
    assert state.discard[discards:] == ["red", LOCO, "blue"]
    assert state.players[0].hand["red"] == 5 and tunnel not in state.owner
    assert game.legal_actions() == [
        PayTunnel((("red", 2),)),
        PayTunnel(((LOCO, 1), ("red", 1))),
        GiveUpTunnel(),
    ]
    game.apply(PayTunnel(((LOCO, 1), ("red", 1))))
    assert state.owner[tunnel] == 0 and state.pending is None and state.current == 1
    assert state.players[0].hand == {**state.players[0].hand, "red": 1, LOCO: 0}
    assert state.extras["last_tunnel"]["outcome"] == "built"
    assert "turning up red, locomotive and blue" in game.log[-1]


def test_a_replayed_tunnel_turns_up_the_same_cards():
    game = europe(seed=11)
    bot = GreedyBot(3)
    while not any("tunnel" in line for line in game.log) and not game.is_over:
        game.apply(bot.choose(game))
    assert any("tunnel" in line for line in game.log)
    assert game.replay().snapshot() == game.snapshot()


def test_a_tunnel_paid_with_locomotives_alone_asks_only_for_locomotives():
    game, tunnel = tunnel_position({LOCO: 5, "red": 3}, ["red", LOCO, LOCO])
    game.apply(ClaimRoute(tunnel, ((LOCO, 3),)))
    assert game.state.extras["tunnel"]["extra"] == 2
    assert game.legal_actions() == [PayTunnel(((LOCO, 2),)), GiveUpTunnel()]
    assert "must be locomotives, not red" in refused(game, PayTunnel((("red", 2),))).rule
    game.apply(PayTunnel(((LOCO, 2),)))
    assert game.state.players[0].hand[LOCO] == 0 and game.state.players[0].hand["red"] == 3


def test_giving_up_a_tunnel_takes_the_cards_back_and_ends_the_turn():
    game, tunnel = tunnel_position({"green": 3}, ["green", "white", "black"])
    game.apply(ClaimRoute(tunnel, (("green", 3),)))
    assert game.legal_actions() == [GiveUpTunnel()]  # no green card to spare
    error = refused(game, PayTunnel((("green", 1),)))
    assert "hold 0 green cards besides the cards laid down" in error.rule
    assert "pay the extra cards" in refused(game, DrawBlind()).rule
    game.apply(GiveUpTunnel())
    state = game.state
    assert state.players[0].hand["green"] == 3 and tunnel not in state.owner
    assert state.current == 1 and state.pending is None
    assert state.extras["last_tunnel"]["outcome"] == "given up"
    assert "gives up the tunnel" in game.log[-1] and "taking the cards back" in game.log[-1]


def test_a_tunnel_that_turns_up_nothing_it_needs_is_built_at_once():
    game, tunnel = tunnel_position({"yellow": 3}, ["red", "white", "black"])
    game.apply(ClaimRoute(tunnel, (("yellow", 3),)))
    assert game.state.owner[tunnel] == 0 and game.state.pending is None
    assert game.state.extras["last_tunnel"]["revealed"] == ["red", "white", "black"]


def test_with_fewer_than_three_cards_left_only_those_are_turned_up():
    game, tunnel = tunnel_position({"yellow": 3}, [])
    state = game.state
    keep = ["yellow", "blue"]
    # Everything else goes to the second player's hand: two cards left in all.
    for card in state.deck + state.discard + [c for c in state.face_up if c]:
        state.players[1].hand[card] += 1
    state.deck, state.discard, state.face_up = [], [], [None] * 5
    for card in keep:
        state.players[1].hand[card] -= 1
    state.discard = keep
    game.apply(ClaimRoute(tunnel, (("yellow", 3),)))
    record = state.extras["tunnel"]
    assert sorted(record["revealed"]) == ["blue", "yellow"] and record["extra"] == 1


def test_paying_a_tunnel_needs_exactly_the_cards_asked_for():
    game, tunnel = tunnel_position({"red": 6, "blue": 2}, ["red", "red", "blue"])
    game.apply(ClaimRoute(tunnel, (("red", 3),)))
    assert "ask for 2 more cards, not 1" in refused(game, PayTunnel((("red", 1),))).rule
    assert "red cards or locomotives, not blue" in refused(game, PayTunnel((("blue", 2),))).rule
    assert "no tunnel is waiting" not in refused(game, PayTunnel((("red", 3),))).rule


def test_tunnel_actions_are_refused_when_no_tunnel_waits():
    game = europe()
    assert "no tunnel is waiting" in refused(game, GiveUpTunnel()).rule
    assert "no tunnel is waiting" in refused(game, PayTunnel((("red", 1),))).rule


# --------------------------------------------------------------- stations
def test_stations_cost_one_then_two_then_three_cards_of_one_colour():
    game = europe(players=3)
    empty_hands(game)
    set_hand(game, 0, red=1, blue=2, locomotive=3)
    builds = [a for a in game.legal_actions() if isinstance(a, BuildStation)]
    cities = {a.city for a in builds}
    assert len(cities) == 47
    assert {a.cards for a in builds if a.city == "wien"} == {
        (("red", 1),),
        (("blue", 1),),
        ((LOCO, 1),),
    }
    game.apply(BuildStation("wien", (("blue", 1),)))
    assert game.state.extras["stations"] == {"wien": 0}
    assert game.state.players[0].extras["stations_left"] == 2
    assert game.log[-1] == "Player 1 builds a train station in Wien with 1 blue card"
    # The next player cannot build in Wien: one station per city.
    error = refused(game, BuildStation("wien", (("red", 1),)))
    assert "Wien already has Player 1's station" in error.rule
    game.apply(DrawBlind())
    game.apply(DrawBlind())
    game.apply(DrawBlind())
    game.apply(DrawBlind())
    set_hand(game, 0, red=1, blue=1, locomotive=3)
    error = refused(game, BuildStation("roma", (("red", 1), ("blue", 1))))
    assert "one colour" in error.rule
    assert (
        "second station costs 2 cards, not 1"
        in refused(game, BuildStation("roma", (("red", 1),))).rule
    )
    game.apply(BuildStation("roma", (("red", 1), (LOCO, 1))))
    assert game.state.players[0].extras["stations_left"] == 1


def test_a_player_builds_at_most_three_stations():
    game = europe()
    set_hand(game, 0, locomotive=12)
    for city in ("wien", "roma", "paris"):
        game.apply(next(a for a in game.legal_actions() if getattr(a, "city", None) == city))
        game.apply(DrawBlind())
        game.apply(DrawBlind())
    assert not [a for a in game.legal_actions() if isinstance(a, BuildStation)]
    assert "all 3 of their stations" in refused(game, BuildStation("madrid", ((LOCO, 1),))).rule


# ---------------------------------------------------------- double routes
@pytest.mark.parametrize(("players", "closed"), [(2, True), (3, True), (4, False), (5, False)])
def test_double_routes_close_with_two_or_three_players(players, closed):
    game = europe(players=players)
    first, second = (r.id for r in game.map.routes if {r.a, r.b} == {"berlin", "frankfurt"})
    give_routes(game, 1, [first])
    set_hand(game, 0, black=3, red=3)
    open_now = {a.route for a in game.legal_actions() if isinstance(a, ClaimRoute)}
    assert (second not in open_now) == closed
    give_routes(game, 0, [rid(game, "essen", "berlin")])
    if not closed:
        game.apply(ClaimRoute(second, (("black", 3),)))
        assert game.state.owner[second] == 0


# --------------------------------------------------------------- the end
def ended(game: Game, bot_seed: int = 0) -> Game:
    """Play on with greedy bots until the game waits for borrowed routes or is over."""
    bots = [GreedyBot(bot_seed + i) for i in range(game.num_players)]
    while not game.is_over and game.state.pending != BORROW:
        game.apply(bots[game.current_player].choose(game))
    return game


def test_two_trains_or_fewer_give_everyone_one_last_turn():
    game = europe(players=3)
    set_trains(game, 0, 3)
    empty_hands(game)
    set_hand(game, 0, blue=2)
    game.apply(ClaimRoute(rid(game, "berlin", "essen"), (("blue", 2),)))
    assert game.state.final_turns_left == 3
    for _ in range(3):
        game.apply(DrawBlind())
        game.apply(DrawBlind())
    assert game.is_over and game.state.ended_by == "last_round"


def draw_to_the_end(game: Game) -> None:
    """Everyone draws cards until the last turns are over."""
    while not game.is_over and game.state.pending != BORROW:
        game.apply(DrawBlind())


def borrow_position(players: int = 3) -> Game:
    """The first player has stations in Wien and Roma, where the others own routes, and
    the second one in Zágráb, where nobody does."""
    game = europe(players=players, seed=7)
    empty_hands(game)
    wien_budapest = rid(game, "wien", "budapest", "red")
    wien_muenchen = rid(game, "wien", "muenchen")
    roma_venezia = rid(game, "roma", "venezia")
    give_routes(game, 1, [wien_budapest, roma_venezia])
    give_routes(game, 2, [wien_muenchen])
    game.state.extras["stations"] = {"wien": 0, "roma": 0, "zagrab": 1}
    game.state.players[0].extras["stations_left"] = 1
    game.state.players[1].extras["stations_left"] = 2
    return game


def test_at_the_end_each_station_owner_chooses_the_routes_it_borrows():
    game = borrow_position()
    set_trains(game, 0, 0)
    draw_to_the_end(game)
    state = game.state
    assert not game.is_over and state.pending == BORROW and state.current == 0
    wien = sorted(
        r for r in state.owner if "wien" in game.map.route_by_id[r].ends and state.owner[r]
    )
    roma = [r for r in state.owner if "roma" in game.map.route_by_id[r].ends]
    assert game.legal_actions() == [BorrowRoutes((("roma", roma[0]), ("wien", w))) for w in wien]
    assert "choose one for Roma" in refused(game, BorrowRoutes((("wien", wien[0]),))).rule
    assert (
        "no station in Paris"
        in refused(game, BorrowRoutes((("paris", 1), ("roma", roma[0]), ("wien", wien[0])))).rule
    )
    assert (
        "does not reach Wien"
        in refused(game, BorrowRoutes((("roma", roma[0]), ("wien", roma[0])))).rule
    )
    assert "stations borrow" in refused(game, DrawBlind()).rule
    game.apply(BorrowRoutes((("roma", roma[0]), ("wien", wien[0]))))
    # Player 2's station in Zágráb has no opponent's route into it: not asked.
    assert game.is_over and state.extras["borrowed"][0] == [["roma", roma[0]], ["wien", wien[0]]]
    assert "borrow: Roma: Roma–Venezia" in game.log[-1]


def test_a_borrowed_route_completes_tickets_but_not_the_longest_path():
    game = europe(players=2, seed=3)
    empty_hands(game)
    mine = [rid(game, "muenchen", "zuerich"), rid(game, "wien", "budapest", "red")]
    theirs = rid(game, "muenchen", "wien")
    give_routes(game, 0, mine)
    give_routes(game, 1, [theirs])
    game.state.extras["stations"] = {"muenchen": 0}
    game.state.players[0].extras["stations_left"] = 2
    zw = ticket(game, "zuerich", "budapest")
    set_tickets(game, 0, [zw])
    set_tickets(game, 1, [])
    set_trains(game, 0, 0)
    draw_to_the_end(game)
    assert game.legal_actions() == [BorrowRoutes((("muenchen", theirs),))]
    game.apply(BorrowRoutes((("muenchen", theirs),)))
    row = game.scores()[0]
    points = game.map.ticket_by_id[zw].points
    assert row["tickets"] == points
    assert row["stations"] == 2 * 4
    # The longest path counts the player's own routes only (2 spaces), not the borrowed 3.
    assert row["longest_path"] == 0 and game.scores()[1]["longest_path"] == 10


def test_several_players_may_borrow_the_same_route():
    game = europe(players=3, seed=9)
    empty_hands(game)
    route = rid(game, "paris", "bruxelles", "red")
    give_routes(game, 2, [route])
    game.state.extras["stations"] = {"paris": 0, "bruxelles": 1}
    for seat in (0, 1):
        game.state.players[seat].extras["stations_left"] = 2
    set_trains(game, 0, 0)
    draw_to_the_end(game)
    game.apply(BorrowRoutes((("paris", route),)))
    assert game.current_player == 1
    game.apply(BorrowRoutes((("bruxelles", route),)))
    assert game.is_over


def test_every_unbuilt_station_scores_four_and_routes_score_by_the_board_table():
    game = europe()
    give_routes(game, 0, [rid(game, "petrograd", "stockholm")])
    give_routes(game, 1, [rid(game, "budapest", "kyiv")])
    assert [p.route_score for p in game.state.players] == [21, 15]
    rows = game.rules.score_components(game.state, final=True)
    assert [r["stations"] for r in rows] == [12, 12]


def test_ties_go_to_most_tickets_then_fewest_stations_then_the_european_express():
    game = europe(players=2)
    rows = [{"total": 50, "longest_path": 10}, {"total": 50, "longest_path": 0}]
    rules = game.rules
    game.state.players[0].extras["stations_left"] = 1
    labels = [label for label, _ in rules.tiebreaks(game.state, rows)]
    assert labels == ["most completed tickets", "fewest stations built", "European Express bonus"]
    values = dict(rules.tiebreaks(game.state, rows))
    assert values["fewest stations built"] == [-2, 0]
    assert values["European Express bonus"] == [10, 0]


# --------------------------------------------------------------- saves
@pytest.fixture(scope="module")
def played() -> Game:
    game = new_game("europe", players=3, seed=21)
    bots = [GreedyBot(i) for i in range(3)]
    while not game.is_over:
        game.apply(bots[game.current_player].choose(game))
    return game


def test_a_whole_game_with_tunnels_saves_and_replays_exactly(played):
    assert any("tunnel" in line for line in played.log)
    again = Game.from_json(played.to_json())
    assert again == played and again.snapshot() == played.snapshot()


def test_an_edited_tunnel_in_a_save_is_refused(played):
    data = json.loads(played.to_json())
    moves = data["history"]
    i = next(k for k, m in enumerate(moves) if "Tunnel" in m["action"]["type"])
    paid = moves[i]["action"]["type"] == "PayTunnel"
    moves[i]["action"] = {"type": "GiveUpTunnel"} if paid else {"type": "PayTunnel", "cards": []}
    with pytest.raises(SaveFormatError) as info:
        Game.from_json(json.dumps(data))
    assert f"$.history[{i}]" in str(info.value)
    # The cards a tunnel turned up are part of the saved position: an edit is named.
    data = json.loads(played.to_json())
    data["state"]["extras"]["last_tunnel"]["revealed"] = ["locomotive"] * 3
    with pytest.raises(SaveFormatError) as info:
        Game.from_json(json.dumps(data))
    assert "$.state.extras.last_tunnel" in str(info.value)


@pytest.mark.parametrize(
    ("action", "field"),
    [
        ({"type": "PayTunnel", "cards": "red"}, "cards"),
        ({"type": "BuildStation", "city": 7, "cards": [["red", 1]]}, "city"),
        ({"type": "BorrowRoutes", "routes": [["wien"]]}, "routes"),
        ({"type": "BorrowRoutes", "routes": [["wien", "x"]]}, "routes"),
    ],
)
def test_malformed_europe_actions_in_a_save_are_named(played, action, field):
    data = json.loads(played.to_json())
    data["history"][3]["action"] = action
    with pytest.raises(SaveFormatError) as info:
        Game.from_json(json.dumps(data))
    assert f"$.history[3].action.{field}" in str(info.value)


# ---------------------------------------------------------------- map
def test_the_map_has_its_tunnels_ferries_and_locomotive_symbols():
    game_map = load_map("europe")
    assert sum(r.tunnel for r in game_map.routes) == 18
    ferries = [r for r in game_map.routes if r.locomotives]
    assert len(ferries) == 13 and sum(r.locomotives for r in ferries) == 17
    assert game_map.components["stations_per_player"] == 3
    assert "Europe" in game_map.name and game_map.provenance["sources"]


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d["routes"][3].update(locomotives=5), "cannot have 5 locomotive symbols"),
        (lambda d: d["routes"][3].update(tunnel=True), "a tunnel or a ferry, not both"),
        (lambda d: d["components"].pop("stations_per_player"), "stations per player"),
    ],
)
def test_a_europe_map_that_breaks_the_rules_is_refused_at_load(tmp_path, change, words):
    data = json.loads((MAPS_DIR / "europe.json").read_text(encoding="utf-8"))
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(MapFormatError) as info:
        load_map(path)
    assert words in str(info.value)
