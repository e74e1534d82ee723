"""Steps of a shared table in a real browser, shared by the table and JupyterHub tests."""

from __future__ import annotations

from typing import Any

from browser import WAIT_MS, total_moves


def open_forms(page: Any) -> None:
    """Open *Play with others* (its forms are made when first opened)."""
    if not page.locator(".ttr-table-open").is_visible():
        page.locator(".ttr-tables").get_by_text("Play with others").click()
        page.locator(".ttr-table-open").wait_for(state="visible", timeout=WAIT_MS)


def wait_text(page: Any, selector: str, text: str, timeout: int = WAIT_MS) -> None:
    """Wait until the element ``selector`` shows ``text``."""
    page.wait_for_function(
        "([s, t]) => { const e = document.querySelector(s); return e && e.innerText.includes(t); }",
        arg=[selector, text],
        timeout=timeout,
    )


def act(page: Any, selector: str) -> None:
    """Click, answer the app's question if it asks one (its first answer), and wait until
    the move is made. (The page also redraws when the table changes, so a redraw alone
    does not tell that the click was answered: the move count does.)"""
    moves = total_moves(page)
    page.locator(selector).click()
    page.wait_for_function(
        "(n) => Number(document.querySelector('.ttr-status-box [data-total]')"
        ".getAttribute('data-total')) > n || (document.querySelector('.ttr-prompt') "
        "&& document.querySelector('.ttr-prompt').offsetParent !== null)",
        arg=moves,
        timeout=WAIT_MS,
    )
    if total_moves(page) == moves:
        page.locator(".ttr-prompt-choices input").first.check()
        act(page, "button.ttr-prompt-ok")
