"""A shared table in real Chromium: three pages, one game, to the end (issue 24).

One Voilà server (its tables in a fresh SQLite file), three pages in one browser profile
each (three players on three devices). Ann opens the table, Ben and Cleo join it by its
code, and the three play a whole USA game by clicking: the longest route they can claim,
else two cards from the deck. Ben's page is reloaded in the middle of the game and comes
back to his seat. Every frame Ben's page receives is kept, to check that none holds another
seat's tickets.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import (
    CHROMIUM,
    CHROMIUM_FLAGS,
    JS_CANVAS_PAINTED,
    VIEWPORT,
    WAIT_MS,
    serving,
    shoot,
    sync_api,
    total_moves,
)
from table_steps import act, open_forms, wait_text

from ttr_nb import load_map
from ttr_nb.widgets.board import route_choices

MAX_ACTIONS = 600  # a 3-player USA game takes about 200 actions


TEACHER_TOKEN = "a-token-for-the-tests-only-0123456789-abcdef"


@pytest.fixture(scope="module")
def tables_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('tables')}/t.sqlite"


@pytest.fixture(scope="module")
def server(tables_url: str) -> Iterator[str]:
    with serving(log_name="voila-tables.log", warm=3, env={"TTR_TABLES_URL": tables_url}) as v:
        yield v.url


@pytest.fixture(scope="module")
def teacher_server(tables_url: str) -> Iterator[str]:
    env = {"TTR_TABLES_URL": tables_url, "TTR_TEACHER_TOKEN": TEACHER_TOKEN}
    with serving("teacher.ipynb", "voila-teacher.log", warm=1, env=env, teacher=True) as v:
        yield v.url


@pytest.fixture(scope="module")
def browsers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Any]]:
    """Three browser profiles: three devices (each keeps its own seat token)."""
    executable = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    with sync_api.sync_playwright() as p:
        contexts = [
            p.chromium.launch_persistent_context(
                str(tmp_path_factory.mktemp(f"profile-{i}")),
                executable_path=executable,
                headless=True,
                args=CHROMIUM_FLAGS,
                viewport=VIEWPORT,
            )
            for i in range(3)
        ]
        try:
            yield contexts
        finally:
            for context in contexts:
                context.close()


def open_page(context: Any, url: str, frames: list[bytes | str] | None = None) -> Any:
    """A new tab at ``url``, its board drawn; ``frames`` keeps every websocket frame it
    receives (binary ones too: Jupyter's are all binary, see ``tests/frames.py``)."""
    page = context.new_page()
    if frames is not None:
        page.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.append(data)))
    page.goto(url, wait_until="domcontentloaded", timeout=60_000)
    page.wait_for_function(JS_CANVAS_PAINTED, timeout=90_000, polling=200)
    return page


def banner(page: Any) -> str:
    return page.locator(".ttr-table-turn").inner_text()


def play_turn(page: Any) -> None:
    """One action: the longest route this seat can claim, else a card (the turn loop comes
    back for the second card)."""
    if page.locator("button.ttr-keep").is_visible():
        boxes = page.locator(".ttr-offer .widget-checkbox input")
        for i in range(boxes.count()):  # nothing is ticked at first: keep them all
            boxes.nth(i).check()
        page.locator("button.ttr-keep:enabled").wait_for(timeout=WAIT_MS)
        act(page, "button.ttr-keep")
        return
    claimable = page.locator(".ttr-claimable [data-routes]")
    if not claimable.count():  # mid-turn: the second card
        draw_a_card(page)
        return
    routes = json.loads(claimable.get_attribute("data-routes"))
    if routes:
        lengths = {r.id: r.length for r in load_map("usa").routes}
        best = max(routes, key=lengths.__getitem__)
        picker = page.locator(".ttr-route-picker select")
        labels = [t.replace("\xa0", " ") for t in picker.locator("option").all_text_contents()]
        label = next(text for text, rid in route_choices(load_map("usa")) if rid == best)
        picker.select_option(index=labels.index(label))
        page.locator("button.ttr-claim:enabled").wait_for(timeout=WAIT_MS)
        act(page, "button.ttr-claim")
        return
    draw_a_card(page)  # the second card comes at this seat's next look


def draw_a_card(page: Any) -> None:
    """A card from the deck; once the deck and the discards are used up (players holding
    many cards), a face-up card this seat may take; with none, tickets."""
    if page.locator("button.ttr-draw-blind:enabled").count():
        act(page, "button.ttr-draw-blind")
        return
    for slot in range(5):
        if page.locator(f"button.ttr-face-up-{slot}:enabled").count():
            act(page, f"button.ttr-face-up-{slot}")
            return
    if page.locator("button.ttr-draw-tickets:enabled").count():
        act(page, "button.ttr-draw-tickets")
    # Else nothing is enabled: the banner still said "Your turn!" from before the move just
    # made (its update comes a moment after the move count's); the loop looks again.


def test_three_pages_play_one_table_to_the_end(server, browsers):
    started = time.monotonic()
    ben_frames: list[bytes | str] = []
    ann = open_page(browsers[0], server)
    open_forms(ann)
    ann.locator(".ttr-table-creator-name input").fill("Ann")
    ann.locator(".ttr-table-creator-name input").press("Enter")
    ann.locator(".ttr-table-open").click()
    wait_text(ann, ".ttr-table-turn", "Waiting for 2 players")
    code = ann.locator(".ttr-table-code b").inner_text()
    shoot(ann, "table-open.png")

    pages = {"Ann": ann}
    for name, context, seat in (("Ben", browsers[1], 2), ("Cleo", browsers[2], 3)):
        page = open_page(context, server, ben_frames if name == "Ben" else None)
        open_forms(page)
        page.locator(".ttr-table-join-code input").fill(code.lower())
        page.locator(".ttr-table-join-name input").fill(name)
        page.locator(".ttr-table-join-name input").press("Enter")
        page.locator(".ttr-table-find").click()
        page.locator(f".ttr-table-sit-{seat - 1}").click()
        wait_text(page, ".ttr-table-code", f"you are seat {seat}")
        pages[name] = page
    for page in pages.values():
        wait_text(page, ".ttr-table-turn", "turn")
    assert "Your turn!" in banner(ann) and "Ann's turn" in banner(pages["Ben"])
    shoot(pages["Ben"], "table-joined-ben.png")

    reloaded = False
    turns = 0
    while turns < MAX_ACTIONS:
        mover = None
        deadline = time.monotonic() + 60
        while mover is None and time.monotonic() < deadline:
            if "over" in banner(ann):
                break
            for page in pages.values():
                if "Your turn!" in banner(page):
                    mover = page
                    break
            else:
                ann.wait_for_timeout(150)
        if mover is None:
            break
        try:
            play_turn(mover)
        except Exception:
            for name, page in pages.items():  # what each player saw, for the failure
                shoot(page, f"table-failure-{name.lower()}.png")
            raise
        turns += 1
        if turns == 60 and not reloaded:  # Ben reloads mid-game: back to his seat
            ben_tickets = pages["Ben"].locator(".ttr-hand").inner_text()
            pages["Ben"].reload(wait_until="domcontentloaded")
            pages["Ben"].wait_for_function(JS_CANVAS_PAINTED, timeout=90_000, polling=200)
            wait_text(pages["Ben"], ".ttr-table-code", "you are seat 2", timeout=60_000)
            assert pages["Ben"].locator(".ttr-hand").inner_text() == ben_tickets
            shoot(pages["Ben"], "table-reloaded-ben.png")
            reloaded = True
    assert reloaded and "over" in banner(ann), f"no end after {turns} turns: {banner(ann)}"
    for name, page in pages.items():
        wait_text(page, ".ttr-table-turn", "The game is over", timeout=60_000)
        page.locator(".ttr-result-box").wait_for(state="visible", timeout=WAIT_MS)
        shoot(page, f"table-end-{name.lower()}.png")
    totals = {n: p.locator(".ttr-result-box").inner_text() for n, p in pages.items()}
    assert len(set(totals.values())) == 1, "the end screens differ"
    assert total_moves(ann) == total_moves(pages["Ben"]) == total_moves(pages["Cleo"])
    print(f"\ntable game: {turns} turns, {time.monotonic() - started:.0f} s")


def leave_if_seated(page: Any) -> None:
    """A profile that sat at a table comes back to it on opening (its browser sends the
    seat's token once the page is up): leave it first."""
    try:
        page.locator(".ttr-table-box").wait_for(state="visible", timeout=15_000)
    except sync_api.TimeoutError:
        return  # this browser keeps no seat
    if not page.locator(".ttr-table-leave").is_visible():  # folded while a game runs
        page.locator(".ttr-table-details").get_by_text("The table:").click()
    page.locator(".ttr-table-leave").click()
    page.locator(".ttr-table-box").wait_for(state="hidden", timeout=WAIT_MS)


def solo_tickets(page: Any, frames: list[bytes | str] | None = None) -> set[str]:
    """The tickets offered in the games a page starts by itself, before it sits: the seed in
    its *Seed* box, and every seed that box was sent in ``frames`` (a second tab may be back
    at its seat before the box is read, its own game's tickets already sent)."""
    from frames import frame_text

    from ttr_nb import new_game

    seeds = {int(page.locator(".ttr-seed input").input_value() or 0)}
    boxes: set[str] = set()  # the Seed boxes' model ids

    def walk(node: Any, model: str | None) -> None:
        if isinstance(node, dict):
            model = node.get("comm_id", model)
            if "ttr-seed" in node.get("_dom_classes", ()) and model:
                boxes.add(model)
            if model in boxes and isinstance(node.get("value"), int):
                seeds.add(node["value"])
            for key, value in node.items():
                walk(value, key if len(key) == 32 and key.isalnum() else model)
        elif isinstance(node, list):
            for value in node:
                walk(value, model)

    for _ in range(2):  # a box named after its value was sent is found the second time
        for text in map(frame_text, frames or []):
            for part in text.split("\n"):
                with contextlib.suppress(ValueError):  # not JSON: the channel, a buffer
                    walk(json.loads(part), None)
    tickets = set()
    for seed in seeds:
        game = new_game("usa", players=3, seed=seed)
        cities = (game.map.ticket_by_id[t].cities for t in game.state.players[0].offer)
        tickets |= {" → ".join(game.map.place_name(c) for c in ends) for ends in cities}
    return tickets


def ticket_forms(trip: str) -> list[str]:
    """The ways a page may write a ticket ("A → B", "A – B", "A–B", "A - B")."""
    a, b = trip.split(" → ")
    return [f"{a}{sep}{b}" for sep in (" → ", " – ", "–", " - ", " to ")]


def test_one_seat_never_receives_another_seats_tickets(server, browsers):
    """Checked on a fresh table, so Ann's tickets are still secret: every frame Ben's pages
    receive (decoded: Jupyter's frames are binary) and their DOM are searched for Ann's
    tickets, with Ben's coach open; then Ben opens a second tab, which takes his seat, and
    the first tab, which now only watches, opens the coach and picks every seat it offers
    (issue 39: it used to offer Ann's, plan included)."""
    from frames import decoded

    frames: list[bytes | str] = []
    ann = open_page(browsers[0], server)
    leave_if_seated(ann)
    open_forms(ann)
    ann.locator(".ttr-table-seats select").select_option(label="2")
    ann.locator(".ttr-table-creator-name input").fill("Ann")
    ann.locator(".ttr-table-creator-name input").press("Enter")
    ann.locator(".ttr-table-open").click()
    wait_text(ann, ".ttr-table-turn", "Waiting for 1 player")
    code = ann.locator(".ttr-table-code b").inner_text()
    ben = open_page(browsers[1], server, frames)
    leave_if_seated(ben)
    # This profile may have come back to its seat of an earlier test's table first, and
    # received that seat's tickets: they are not Ann's, and may match hers by chance.
    frames.clear()
    solo = solo_tickets(ben)  # the game a page starts on its own, before it sits
    open_forms(ben)
    ben.locator(".ttr-table-join-code input").fill(code)
    ben.locator(".ttr-table-join-name input").fill("Ben")
    ben.locator(".ttr-table-join-name input").press("Enter")
    ben.locator(".ttr-table-find").click()
    ben.locator(".ttr-table-sit-1").click()
    wait_text(ann, ".ttr-table-turn", "Your turn!")
    solo_frames = [(0, len(frames), solo)]
    offered = [t.strip() for t in ann.locator(".ttr-offer .widget-checkbox").all_inner_texts()]
    assert len(offered) == 3, offered
    ann.locator(".ttr-offer .widget-checkbox input").first.check()
    ann.locator(".ttr-offer .widget-checkbox input").nth(1).check()
    act(ann, "button.ttr-keep")
    wait_text(ben, ".ttr-table-turn", "Your turn!")
    bens = [t.strip() for t in ben.locator(".ttr-offer .widget-checkbox").all_inner_texts()]
    # Ben's coach speaks to his seat only: open, it is searched with the rest.
    ben.locator(".ttr-coach-toggle").click()
    wait_text(ben, ".ttr-coach-body", "My plan")
    seats = ben.locator(".ttr-coach-seat option").all_inner_texts()
    assert [s.replace("\xa0", " ") for s in seats] == ["2 Ben"]
    shoot(ben, "tables-coach-ben.png")
    # Ben opens a second tab: it comes back to his seat and takes it over.
    opened = len(frames)
    tab = open_page(browsers[1], server, frames)
    tab_solo = solo_tickets(tab)
    wait_text(tab, ".ttr-table-turn", "Your turn!", timeout=60_000)
    solo_frames.append((opened, len(frames), tab_solo))
    wait_text(ben, ".ttr-status-box", "another tab", timeout=60_000)  # its next heartbeat
    if not ben.locator(".ttr-coach-toggle").get_attribute("class").count("mod-active"):
        ben.locator(".ttr-coach-toggle").click()
    picker = ben.locator(".ttr-coach-seat select")
    offered_seats = picker.locator("option").all_inner_texts() if picker.count() else []
    for label in offered_seats:  # whatever the watching tab offers, pick it
        picker.select_option(label=label)
        ben.wait_for_timeout(1500)
    ben.wait_for_timeout(1000)
    shoot(ben, "tables-coach-second-tab.png")
    received = decoded(frames)
    dom = ben.evaluate("() => document.documentElement.outerHTML")
    # The decoding works: Ben's own tickets are in what his pages received.
    for text in bens:
        trip = text.split(" (")[0]
        assert any(form in received for form in ticket_forms(trip)), trip
    assert "Ben" in dom
    # Before a page sits it shows a game of its own (a random seed): its tickets may be
    # Ann's by chance, and only there may they appear.
    at_table = [f for i, f in enumerate(frames) if not any(a <= i < b for a, b, _ in solo_frames)]
    for text in offered:
        trip = text.split(" (")[0]
        for form in ticket_forms(trip):
            assert form not in decoded(at_table), f"Ben's pages received Ann's ticket {trip}"
            assert form not in dom, f"Ben's page shows Ann's ticket {trip}"
            for start, end, own in solo_frames:
                own = own | solo_tickets(ben, frames[start:end])
                if trip not in own:
                    assert form not in decoded(frames[start:end]), f"{trip} reached Ben"


def test_the_teachers_page_lists_watches_and_exports(teacher_server, browsers):
    """After the tests above: one finished table and one running. The teacher opens the
    link with the server's token; the page lists both tables, shows the finished game's end
    screen and exports the results."""
    page = browsers[2].new_page()
    page.goto(f"{teacher_server}?token={TEACHER_TOKEN}", wait_until="domcontentloaded")
    page.locator(".ttr-teacher-table").wait_for(timeout=90_000)
    listing = page.locator(".ttr-teacher-table").inner_text()
    assert "over" in listing and "playing" in listing and "Cleo" in listing
    picker = page.locator(".ttr-teacher-picker select")
    labels = picker.locator("option").all_text_contents()
    rows = page.locator(".ttr-teacher-table tr").all_inner_texts()
    finished = next(r for r in rows if "\tover" in r or " over" in r).split()[0:2]
    index = next(
        i for i, t in enumerate(labels) if t.replace("\xa0", " ").startswith(" ".join(finished))
    )
    picker.select_option(index=index)
    page.locator(".ttr-teacher-watch").click()
    page.locator(".ttr-teacher-watch-box .ttr-result-box").wait_for(state="visible", timeout=90_000)
    page.wait_for_function(JS_CANVAS_PAINTED, timeout=90_000, polling=200)
    assert "wins" in page.locator(".ttr-teacher-watch-box .ttr-result-box").inner_text()
    page.locator(".ttr-teacher-export").click()
    link = page.locator(".ttr-teacher-export-link a")
    link.wait_for(timeout=WAIT_MS)
    assert link.get_attribute("href").startswith("data:text/csv;base64,")
    shoot(page, "teacher-page.png")


def _http(url: str, headers: dict[str, str] | None = None, method: str = "GET") -> tuple[int, str]:
    """Status and body (or, for a redirect, where it leads) of one request, not followed."""
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    conn.request(method, path, headers=headers or {})
    response = conn.getresponse()
    body = response.read().decode("utf-8", "replace")
    conn.close()
    return response.status, response.getheader("Location") or body


def test_a_stranger_at_the_teachers_port_reaches_no_kernel(teacher_server):
    """Issue 39: the teacher's server is behind Jupyter Server's login. Without the token a
    visitor gets the login form, never the page nor a kernel, so there is no widget to
    forge a message to; a wrong token is the same; the kernels' API and websocket say 403."""
    status, where = _http(teacher_server)
    assert status == 302 and where.startswith("/login")
    status, where = _http(f"{teacher_server}?token=not-the-token-{'x' * 40}")
    assert status == 302 and where.startswith("/login")
    status, body = _http(f"{teacher_server}login")
    assert status == 200 and "password" in body.lower() and "ttr-teacher" not in body
    for method in ("GET", "POST"):
        status, _ = _http(f"{teacher_server}api/kernels", method=method)
        assert status in (302, 403, 405), (method, status)
    upgrade = {
        "Connection": "Upgrade",
        "Upgrade": "websocket",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        "Origin": teacher_server.rstrip("/"),
    }
    status, _ = _http(
        f"{teacher_server}api/kernels/{'0' * 8}-0000-0000-0000-{'0' * 12}/channels", upgrade
    )
    assert status == 403
