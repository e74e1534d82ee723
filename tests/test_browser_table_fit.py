"""A class's table in real Chromium, at the sizes where issue 40 showed its faults: a laptop
(1366×768) and a phone (390×844); and joining by link and QR code (issue 41).

Ann opens a table on a laptop; its panel, its link and its QR code are in the window while
it waits (the QR code read back as a phone's camera would); Ben opens the link on a phone
and sits; on the laptop the tickets, *Keep*, *Pay with*, *Claim this route* and the coach's
plan are each in the window together with the whole board. The teacher's page picks the
table by itself, shows its link and QR code (big enough for a projector) and watches it
without a second title. Screenshots go to ``test-artifacts/table-fit-*.png``.
"""

from __future__ import annotations

import io
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import (
    CHROMIUM,
    CHROMIUM_FLAGS,
    JS_APP_SHOWN,
    JS_CANVAS_PAINTED,
    JS_SCROLL_TOP,
    WAIT_MS,
    canvas_point,
    geometry_for,
    no_errors,
    past_first_screen,
    pytestmark,
    serving,
    sync_api,
    window_shot,
)
from table_steps import act, open_forms, wait_text

from ttr_nb import load_map

__all__ = ["pytestmark"]

LAPTOP = (1366, 768)
PHONE = (390, 844)
TEACHER_TOKEN = "a-token-for-the-table-fit-tests-0123456789"

# In the window and not hidden by anything (a box that scrolls on its own clips what it
# holds: the point at the element's centre must reach the element itself).
JS_SEEN = """
(selector) => {
  const el = document.querySelector(selector);
  if (!el || el.offsetParent === null) return false;
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.top < 0 || r.bottom > window.innerHeight || r.left < 0
      || r.right > window.innerWidth) return false;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return hit !== null && (hit === el || el.contains(hit) || hit.contains(el));
}
"""

# Each checkbox of the Play with others forms: its words cut (an ellipsis, clipped) or not.
JS_FORM_CHECKBOXES = """
() => [...document.querySelectorAll('.ttr-tables .widget-checkbox')].map(box => {
  const all = [box, ...box.querySelectorAll('*')];
  return {
    text: box.innerText.replace(/\\u200b/g, '').trim(),
    cut: all.some(el => el.scrollWidth > el.clientWidth + 1 ||
                        el.scrollHeight > el.clientHeight + 1),
    right: Math.max(...all.map(el => el.getBoundingClientRect().right)),
  };
})
"""


@pytest.fixture(scope="module")
def tables_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('tables')}/fit.sqlite"


@pytest.fixture(scope="module")
def server(tables_url: str) -> Iterator[str]:
    env = {"TTR_TABLES_URL": tables_url}
    with serving(log_name="voila-table-fit.log", warm=3, env=env) as v:
        yield v.url


@pytest.fixture(scope="module")
def devices(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Two laptops and a phone: three browser profiles (each keeps its own seat)."""
    executable = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    with sync_api.sync_playwright() as p:
        made = {
            name: p.chromium.launch_persistent_context(
                str(tmp_path_factory.mktemp("profile-" + name.replace(" ", "-"))),
                executable_path=executable,
                headless=True,
                args=CHROMIUM_FLAGS,
                viewport={"width": size[0], "height": size[1]},
            )
            for name, size in (("laptop", LAPTOP), ("phone", PHONE), ("laptop 2", LAPTOP))
        }
        try:
            yield made
        finally:
            for context in made.values():
                context.close()


def open_page(context: Any, url: str) -> Any:
    page = context.new_page()
    page.goto(url, wait_until="domcontentloaded", timeout=60_000)
    page.wait_for_function(JS_APP_SHOWN, timeout=90_000, polling=200)
    return page


def seen(page: Any, selector: str) -> bool:
    return bool(page.evaluate(JS_SEEN, selector))


def board_whole(page: Any, height: int) -> bool:
    box = page.locator(".ttr-board-canvas canvas").bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def read_qr(page: Any, selector: str) -> list[str]:
    """What a phone's camera reads in the QR code the page shows (zxing-cpp)."""
    import zxingcpp
    from PIL import Image

    png = page.locator(selector).screenshot()
    return [r.text for r in zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))]


def test_without_a_table_the_whole_board_is_in_a_laptops_window(server, devices):
    """Item 6: the board's bottom edge was at 800 px of 768."""
    page = open_page(devices["laptop"], server)
    past_first_screen(page)  # Play against bots: a game of one's own
    page.evaluate(JS_SCROLL_TOP)
    window_shot(page, "table-fit-solo-1366.png")
    assert board_whole(page, LAPTOP[1]), page.locator(".ttr-board-canvas canvas").bounding_box()
    assert seen(page, ".ttr-offer input[type=checkbox]") and seen(page, "button.ttr-keep")
    page.close()


def test_a_table_fits_a_laptop_and_a_phone_joins_it_by_its_link(server, devices):
    """Items 1, 6 and 8 at 1366×768, and issue 41's link and QR code: one table from its
    opening to a route claimed, the coach open."""
    ann = open_page(devices["laptop"], server)
    open_forms(ann)
    for width, height in (LAPTOP, PHONE):  # item 8: the coach's box reads whole
        ann.set_viewport_size({"width": width, "height": height})
        ann.locator(".ttr-table-coach").scroll_into_view_if_needed()
        boxes = ann.evaluate(JS_FORM_CHECKBOXES)
        window_shot(ann, f"table-fit-forms-{width}.png")
        assert any("untick for a graded game" in b["text"] for b in boxes), boxes
        for box in boxes:
            assert not box["cut"] and box["right"] <= width, f"cut at {width}: {box}"
    ann.set_viewport_size({"width": LAPTOP[0], "height": LAPTOP[1]})
    ann.locator(".ttr-table-seats select").select_option(label="3")
    ann.locator(".ttr-table-creator-name input").fill("Ann")
    ann.locator(".ttr-table-creator-name input").press("Enter")
    ann.locator(".ttr-table-open").click()
    wait_text(ann, ".ttr-table-turn", "Waiting for 2 players")
    ann.locator(".ttr-table-link .ttr-link-qr svg").wait_for(timeout=WAIT_MS)
    ann.evaluate(JS_SCROLL_TOP)
    window_shot(ann, "table-fit-waiting-1366.png")
    # Item 1: the waiting table's panel, the creator's buttons and the QR code, in view.
    for part in (".ttr-table-turn", ".ttr-table-seat-list", "button.ttr-table-start-now"):
        assert seen(ann, part), part
    assert seen(ann, "button.ttr-table-close") and seen(ann, ".ttr-table-link .ttr-link-qr svg")
    assert "not implemented" not in ann.locator(".ttr-app").inner_text()
    assert board_whole(ann, LAPTOP[1])
    link = ann.locator(".ttr-table-link .ttr-link-url").get_attribute("data-link")
    code = ann.locator(".ttr-table-code b").inner_text().replace(" ", "")
    assert link == f"{server}?table={code}"
    assert read_qr(ann, ".ttr-table-link .ttr-link-qr svg") == [link]

    # Ben opens the link on his phone: the seat choice, nothing to type but his name.
    ben = open_page(devices["phone"], link)
    ben.locator(".ttr-table-sit-1").wait_for(timeout=WAIT_MS)
    ben.locator(".ttr-table-join-name input").wait_for(state="visible", timeout=WAIT_MS)
    window_shot(ben, "table-fit-link-390.png")
    assert ben.locator(".ttr-table-join-code input").input_value().replace(" ", "") == code
    assert "Your link opens table" in ben.locator(".ttr-table-link-intro").inner_text()
    ben.locator(".ttr-table-join-name input").fill("Ben")
    ben.locator(".ttr-table-join-name input").press("Enter")
    ben.locator(".ttr-table-sit-1").click()
    wait_text(ben, ".ttr-table-code", "you are seat 2")
    assert not ben.locator(".ttr-tables").is_visible()  # item 8: no forms while seated
    # Cleo opens it on a laptop.
    cleo = open_page(devices["laptop 2"], link)
    cleo.locator(".ttr-table-sit-2").wait_for(timeout=WAIT_MS)
    cleo.evaluate(JS_SCROLL_TOP)
    window_shot(cleo, "table-fit-link-1366.png")
    assert seen(cleo, ".ttr-table-join-name input") and seen(cleo, ".ttr-table-sit-2")
    cleo.locator(".ttr-table-join-name input").fill("Cleo")
    cleo.locator(".ttr-table-join-name input").press("Enter")
    cleo.locator(".ttr-table-sit-2").click()
    wait_text(cleo, ".ttr-table-code", "you are seat 3")

    # Ann's turn: her tickets and Keep beside the whole board.
    wait_text(ann, ".ttr-table-turn", "Your turn!")
    ann.locator("button.ttr-keep").wait_for(timeout=WAIT_MS)
    ann.evaluate(JS_SCROLL_TOP)
    window_shot(ann, "table-fit-keep-1366.png")
    assert board_whole(ann, LAPTOP[1])
    assert seen(ann, ".ttr-offer input[type=checkbox]") and seen(ann, "button.ttr-keep")
    boxes = ann.locator(".ttr-offer .widget-checkbox input")
    for i in range(boxes.count()):
        boxes.nth(i).check()
    act(ann, "button.ttr-keep")
    wait_text(ben, ".ttr-table-turn", "Your turn!")
    ben.locator("button.ttr-keep").scroll_into_view_if_needed()
    window_shot(ben, "table-fit-keep-390.png")
    boxes = ben.locator(".ttr-offer .widget-checkbox input")
    for i in range(boxes.count()):
        boxes.nth(i).check()
    act(ben, "button.ttr-keep")
    wait_text(cleo, ".ttr-table-turn", "Your turn!")
    boxes = cleo.locator(".ttr-offer .widget-checkbox input")
    for i in range(boxes.count()):
        boxes.nth(i).check()
    act(cleo, "button.ttr-keep")
    no_errors(cleo)
    cleo.close()

    # Ann clicks a route she can claim on the board: Pay with and Claim, beside the board.
    wait_text(ann, ".ttr-table-turn", "Your turn!")
    routes = json.loads(ann.locator(".ttr-claimable [data-routes]").get_attribute("data-routes"))
    assert routes, "no route to claim after the first turn"
    geometry = geometry_for(ann, "usa")
    longest = max(routes, key=lambda r: load_map("usa").route_by_id[r].length)
    ann.evaluate(JS_SCROLL_TOP)
    ann.mouse.click(*canvas_point(ann, *geometry.routes[longest].anchor))
    ann.locator("button.ttr-claim:enabled").wait_for(timeout=WAIT_MS)
    ann.wait_for_function(JS_SEEN, arg="button.ttr-claim", timeout=WAIT_MS)
    window_shot(ann, "table-fit-claim-1366.png")
    assert seen(ann, ".ttr-payment select") and seen(ann, "button.ttr-claim")
    assert board_whole(ann, LAPTOP[1])
    act(ann, "button.ttr-claim")

    # The coach's plan, read beside the board it is drawn on.
    ann.locator(".ttr-coach-toggle").click()
    wait_text(ann, ".ttr-coach-body", "My plan")
    ann.evaluate("() => document.querySelector('.ttr-coach-body').scrollIntoView({block: 'start'})")
    ann.wait_for_timeout(300)
    window_shot(ann, "table-fit-coach-1366.png")
    assert board_whole(ann, LAPTOP[1]) and seen(ann, ".ttr-coach-body h4, .ttr-coach-body b")
    no_errors(ann)
    no_errors(ben)

    # Show big: the QR code fills most of the window, for a projector; still readable.
    ann.evaluate(JS_SCROLL_TOP)
    ann.locator(".ttr-table-details").get_by_text("The table:").click()
    ann.locator(".ttr-table-link .ttr-link-big").wait_for(timeout=WAIT_MS)
    ann.locator(".ttr-table-link .ttr-link-big").click()
    ann.locator(".ttr-table-link.ttr-qr-big").wait_for(timeout=WAIT_MS)
    ann.wait_for_timeout(300)
    window_shot(ann, "table-fit-qr-big-1366.png")
    big = ann.locator(".ttr-table-link .ttr-link-qr svg").bounding_box()
    assert big["height"] >= 0.7 * LAPTOP[1] and big["y"] >= 0
    assert big["y"] + big["height"] <= LAPTOP[1]
    assert read_qr(ann, ".ttr-table-link .ttr-link-qr svg") == [link]
    ann.locator(".ttr-table-link .ttr-link-big").click()


@pytest.fixture(scope="module")
def teacher_server(tables_url: str, server: str) -> Iterator[str]:
    # The app's port, as `make teacher` passes it: the teacher's link names the app.
    port = server.rstrip("/").rsplit(":", 1)[1]
    env = {"TTR_TABLES_URL": tables_url, "TTR_TEACHER_TOKEN": TEACHER_TOKEN, "TTR_APP_PORT": port}
    with serving(
        "teacher.ipynb", "voila-table-fit-teacher.log", warm=1, env=env, teacher=True
    ) as v:
        yield v.url


def test_the_teachers_page_picks_the_table_shows_its_link_and_watches_once(
    teacher_server, server, devices
):
    """Items 9 and 10, and issue 41: with the table above listed, the picker names it
    from the start, its link (the app's address, not the teacher's) and QR code show, and
    Watch opens it with no second title."""
    page = devices["laptop"].new_page()
    page.goto(f"{teacher_server}?token={TEACHER_TOKEN}", wait_until="domcontentloaded")
    page.locator(".ttr-teacher-table").wait_for(timeout=90_000)
    picked = page.evaluate(
        "() => { const s = document.querySelector('.ttr-teacher-picker select');"
        " return s.selectedIndex >= 0 ? s.options[s.selectedIndex].text : ''; }"
    )
    assert picked.strip(), "the Table picker is blank"
    page.locator(".ttr-teacher-link .ttr-link-qr svg").wait_for(timeout=WAIT_MS)
    window_shot(page, "table-fit-teacher-1366.png")
    link = page.locator(".ttr-teacher-link .ttr-link-url").get_attribute("data-link")
    code = picked.replace("\xa0", " ").split(" (")[0].replace(" ", "")
    assert link == f"{server}?table={code}" and "token" not in link
    assert read_qr(page, ".ttr-teacher-link .ttr-link-qr svg") == [link]
    window_shot(page, "table-fit-teacher-1366.png")
    page.locator(".ttr-teacher-watch").click()
    page.locator(".ttr-teacher-watch-box .ttr-table-code").wait_for(timeout=90_000)
    page.wait_for_function(JS_CANVAS_PAINTED, timeout=90_000, polling=200)
    assert not page.locator(".ttr-teacher-watch-box .ttr-title-box").is_visible()
    assert page.locator(".ttr-title").count() == 2  # the teacher's, and the hidden one
    text = page.locator(".ttr-app.ttr-teacher").inner_text()
    assert "Watching table" not in text
    page.locator(".ttr-teacher-watch-box").scroll_into_view_if_needed()
    window_shot(page, "table-fit-teacher-watch-1366.png")
    page.close()
