"""HTML for the app's panels: cards, hand, tickets, scores, log, result, map notes.

Pure functions of the game (no widgets), so they are easy to test and the app
only swaps HTML strings. Every colour shown also carries its letter.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

from ..game import Game
from ..maps import CardType, Map
from . import style

APP_CSS = """
<style>
.ttr-app { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #222; }
.ttr-app h2 { margin: 4px 0 2px 0; font-size: 22px; }
.ttr-app h3 { margin: 8px 0 4px 0; font-size: 15px; color: #4a4030; }
.ttr-note { color: #5b5140; font-size: 13px; }
.ttr-setup .widget-checkbox, .ttr-setup .widget-checkbox label { height: auto; }
.ttr-setup .widget-checkbox label { white-space: normal; } /* wrap on a phone, never cut */
.ttr-app .widget-html-content { line-height: 1.45; }
.ttr-chip { display: inline-block; min-width: 18px; padding: 0 5px; margin-right: 4px;
  line-height: 18px; vertical-align: middle;
  border-radius: 4px; border: 1px solid #555; font-weight: bold; text-align: center;
  font-family: monospace; font-size: 13px; }
.ttr-hand-row { display: inline-block; margin: 2px 10px 2px 0; font-size: 14px; }
/* A kind not held: its chip an outline (letter kept), its words grey but readable (a
   see-through row failed WCAG's text contrast). */
.ttr-hand-row.ttr-zero { color: #5f5a50; }
.ttr-hand-row.ttr-zero .ttr-chip { background: #fffdf6 !important; color: #3b3b3b !important;
  border-style: dashed; }
.ttr-table { border-collapse: collapse; font-size: 14px; }
.ttr-table th, .ttr-table td { padding: 3px 8px; border-bottom: 1px solid #ddd3bd;
  text-align: left; }
.ttr-table tr.ttr-current td { background: #fff4c2; font-weight: bold; }
.ttr-table .ttr-won { background: #fff4c2; }
.ttr-table tr.ttr-total th, .ttr-table tr.ttr-total td { font-weight: bold; font-size: 1.1em;
  border-top: 2px solid #8a7b52; }
.ttr-table tr.ttr-aside th, .ttr-table tr.ttr-aside td { color: #5b5140; font-weight: normal; }
.ttr-final-scores th { font-weight: normal; }
.ttr-final-scores tr:first-child th { font-weight: bold; overflow-wrap: anywhere; }
.ttr-players td.ttr-who { overflow-wrap: anywhere; }
.ttr-kind { font-size: 12px; font-weight: normal; }
/* A table fits its panel; a sideways scroll (very long names) shows its scrollbar. */
.ttr-fit { max-width: 100%; overflow-x: auto; }
.ttr-table td.ttr-num, .ttr-table th.ttr-num { text-align: right; }
.ttr-table tr.ttr-has-more td { border-bottom: none; }
.ttr-table tr.ttr-more td { padding-top: 0; font-weight: normal; }
.ttr-more-item { display: inline-block; margin-right: 12px; }
.ttr-tickets-list { list-style: none; padding-left: 0; margin: 2px 0; font-size: 14px; }
.ttr-tickets-list li { margin: 2px 0; }
.ttr-done { color: #1d7a1d; font-weight: bold; }
.ttr-open { color: #8a6d3b; }
/* column-reverse keeps the box scrolled to the newest move */
.ttr-log-box { max-height: 260px; overflow-y: auto; border: 1px solid #ddd3bd;
  background: #fffdf6; padding: 4px 8px; font-size: 13px; display: flex;
  flex-direction: column-reverse; }
.ttr-log-box ol { margin: 0; padding-left: 34px; }
.ttr-log-box li.ttr-future { color: #aaa; }
.ttr-log-box li.ttr-latest { font-weight: bold; }
.ttr-status { font-size: 15px; padding: 6px 10px; border-radius: 6px; background: #eef5ff;
  border: 1px solid #b8cff0; min-height: 1.4em; }
.ttr-status.ttr-bad { background: #fff0f0; border-color: #e0a0a0; }
.ttr-explore { background: #fff7e0; border: 1px solid #e8cf8a; padding: 8px 12px;
  border-radius: 6px; font-size: 15px; }
.ttr-result { background: #f1fbef; border: 1px solid #a8d8a0; padding: 8px 12px;
  border-radius: 6px; }
.ttr-winner { font-size: 17px; font-weight: bold; margin-bottom: 6px; }
.ttr-panel { background: #fbf8ef; border: 1px solid #e2d9c2; border-radius: 8px;
  padding: 6px 10px; margin: 4px 0; }
.ttr-connection .ttr-lost { display: none; }
.ttr-connection.jupyter-widgets-disconnected .ttr-lost { display: block; color: #fff;
  background: #b3261e; padding: 8px 12px; border-radius: 6px; font-weight: bold; }
a.ttr-download { color: #1a5fb4; text-decoration: underline; font-weight: bold; }
.ttr-face-up button, button.ttr-face-up { font-weight: bold; border: 1px solid #555; }
/* The wild card is the rainbow of the hand's chip, not a flat tan that reads as "off". */
.ttr-app button.ttr-wild-card:enabled { background-image: WILD_GRADIENT; color: #fff;
  text-shadow: 0 0 2px #000, 0 0 3px #000; border: 2px solid #333; }
/* Layout: the board (history and log under it) beside the play column when there is room;
   on a narrow screen one column: the board, then what to act on, then the history. The board
   scales to its column. */
.ttr-title { font-size: 17px; margin: 2px 0; }
.ttr-main { display: flex !important; flex-flow: row nowrap !important; align-items: flex-start;
  gap: 14px; width: 100%; }
.ttr-left { flex: 0 1 980px !important; min-width: 0 !important;
  flex-flow: row wrap !important; align-items: flex-start; gap: 0 14px; }
.ttr-history-column { flex: 1 1 320px !important; }
.ttr-play-column { flex: 1 1 380px !important; min-width: 300px !important; max-width: 520px; }
.ttr-board-column, .ttr-history-column { min-width: 0 !important; }
@media (max-width: 900px) {
  .ttr-main { flex-flow: column nowrap !important; align-items: stretch; }
  .ttr-left { display: contents !important; }
  /* In one column a flex basis is a height: every part keeps its own height (a basis of
     320px squeezed the history onto the stepping buttons and under Save and load). */
  .ttr-board-column { order: 1; flex: 0 0 auto !important; }
  .ttr-play-column { order: 2; min-width: 0 !important; flex: 0 0 auto !important; }
  .ttr-history-column { order: 3; flex: 0 0 auto !important; }
}
/* A tall board (Germany's) on a wide screen: the board takes the left edge from the top
   of the page, as tall as the window allows (with room for its hover line), the header,
   the history and the play column beside it. The play column scrolls on its own, in the
   window's height, so a panel far down (Märklin's Move a passenger) is seen beside the
   journey it draws; the page itself scrolls only to the board's lists under it. */
.ttr-app { --ttr-board-reserve: 175px; }
@media (min-width: 1200px) {
  .ttr-app.ttr-tall-board { --ttr-board-reserve: 80px; display: grid !important;
    column-gap: 14px; align-items: start;
    grid-template-columns: auto minmax(260px, 340px) minmax(380px, 1fr);
    grid-template-rows: repeat(5, auto) 1fr auto; /* the board's extra height: row 6 */
    grid-template-areas: "board title title" "board key key" "board lost lost"
      "board status status" "board setup setup" "board history play"
      "extras extras extras"; }
  .ttr-tall-board .ttr-main, .ttr-tall-board .ttr-left { display: contents !important; }
  .ttr-tall-board .ttr-title-box { grid-area: title; }
  .ttr-tall-board .ttr-key { grid-area: key; }
  .ttr-tall-board .ttr-connection { grid-area: lost; }
  .ttr-tall-board .ttr-status-box { grid-area: status; }
  .ttr-tall-board .ttr-new-game { grid-area: setup; }
  .ttr-tall-board .ttr-extras { grid-area: extras; }
  .ttr-tall-board .ttr-board-column { grid-area: board; }
  .ttr-tall-board .ttr-history-column { grid-area: history; max-width: none !important; }
  .ttr-tall-board .ttr-play-column { grid-area: play; max-width: none !important;
    max-height: calc(100vh - 210px); overflow-y: auto !important; padding-right: 6px; }
  .ttr-tall-board .ttr-play-column > *, .ttr-tall-board .ttr-game-panels > *,
  .ttr-dock > * { flex-shrink: 0 !important; }
  .ttr-tall-board .ttr-log-box { max-height: calc(100vh - 420px); }
}
/* A wide board on a wide screen (issue 40): New game and Play with others share one line,
   so the board's bottom edge is in the window (the board is as tall as the window less
   --ttr-board-reserve); the play column beside it is as tall as the board and scrolls on
   its own, so whatever the player reads there (the tickets, Pay with, the coach's plan)
   sits beside the whole board; the history goes under the board. */
@media (min-width: 901px) {
  .ttr-app:not(.ttr-tall-board) { flex-flow: row wrap !important; align-items: flex-start;
    column-gap: 8px; }
  .ttr-app:not(.ttr-tall-board) > * { flex: 0 0 100% !important; min-width: 0; }
  .ttr-app:not(.ttr-tall-board) > .ttr-new-game,
  .ttr-app:not(.ttr-tall-board) > .ttr-tables { flex: 1 1 300px !important; }
  /* Opened, either takes the whole line (its form is wide; the other stays beside it). */
  .ttr-app:not(.ttr-tall-board) > :is(.ttr-new-game, .ttr-tables):has(
    .jupyter-widget-Collapse-open) { flex-basis: 100% !important; }
  .ttr-app:not(.ttr-tall-board) .ttr-left { flex: 0 1 auto !important; width: min-content;
    flex-flow: column nowrap !important; } /* as wide as the board: the rest is play's */
  .ttr-app:not(.ttr-tall-board) .ttr-history-column { flex: 0 0 auto !important;
    max-width: 100%; }
  .ttr-app:not(.ttr-tall-board) .ttr-play-column { flex: 1 1 380px !important;
    max-width: 640px; max-height: calc(100vh - var(--ttr-board-reserve) + 8px);
    overflow-y: auto !important; padding-right: 6px; }
  .ttr-app:not(.ttr-tall-board) .ttr-play-column > *,
  .ttr-game-panels > *, .ttr-dock > * { flex-shrink: 0 !important; }
}
/* A laptop's height (1366×768): the title and the key share a line and the play column's
   panels are tighter, so what to press (Keep, the tunnel's question, Other move) is in the
   window beside the step's words, without scrolling the column. */
@media (min-width: 901px) and (max-height: 860px) {
  .ttr-app:not(.ttr-tall-board) > .ttr-title-box { flex: 0 1 auto !important; }
  .ttr-app:not(.ttr-tall-board) > .ttr-key { flex: 1 1 240px !important; align-self: center; }
  .ttr-app:not(.ttr-tall-board) > .ttr-key:has(details[open]) { flex-basis: 100% !important; }
  .ttr-title { font-size: 15px; }
  .ttr-title .ttr-note { font-size: 12px; }
  .ttr-status { padding: 3px 10px; }
  .ttr-play-column .ttr-panel { padding: 3px 8px; margin: 3px 0; }
  .ttr-play-column h3 { margin: 2px 0; }
  .ttr-play-column .ttr-turn-line { padding: 3px 8px; font-size: 14px; }
}
.ttr-key-line summary { cursor: pointer; color: #4a4030; }
.ttr-face-up-row, .ttr-deck-row { flex-flow: row wrap !important; }
.ttr-play-column .ttr-table th, .ttr-play-column .ttr-table td { padding: 3px 5px; }
.ttr-play-column .ttr-table { font-size: 13px; }
.ttr-play-column .ttr-table th { font-size: 12px; }
.ttr-app .widget-button, .ttr-app .jupyter-button { white-space: normal; height: auto;
  min-height: 28px; line-height: 1.25; padding: 3px 10px; }
.ttr-app .widget-dropdown, .ttr-app .widget-hbox, .ttr-app .widget-vbox { max-width: 100%; }
.ttr-app .widget-dropdown > select { min-width: 0; }
.ttr-app .widget-label { min-width: 0; }
.ttr-turn-line { font-size: 15px; padding: 6px 10px; background: #fbf8ef;
  border: 1px solid #e2d9c2; border-radius: 8px; }
.ttr-last-round { margin-top: 4px; padding: 6px 10px; border-radius: 8px; font-weight: bold;
  background: #fff1c9; border: 2px solid #e0a800; color: #5a4300; }
.ttr-past { background: #eef2ff; border: 1px solid #9fb0e8; border-radius: 6px;
  padding: 6px 10px; font-size: 14px; }
.ttr-prompt { border: 2px solid #1a5fb4 !important; background: #f3f8ff !important; }
/* A long answer wraps under its own text, its radio beside its first line (ipywidgets gives
   each answer one fixed-height line, so wrapped answers overlapped the next one). */
.ttr-prompt-choices, .ttr-prompt-choices .widget-radio-box { width: 100% !important;
  height: auto !important; }
.ttr-prompt-choices .widget-radio-box label { display: flex; align-items: flex-start;
  height: auto; line-height: 1.35; padding: 3px 0; white-space: normal; cursor: pointer; }
.ttr-prompt-choices .widget-radio-box input { float: none; flex: 0 0 auto; height: 1.35em;
  order: -1; margin: 0 8px 0 1px; }
.ttr-bad-note { color: #a61b12; font-size: 14px; font-weight: bold; }
.ttr-good-note { color: #1d6b1d; font-size: 14px; }
.ttr-result h4 { margin: 8px 0 2px 0; font-size: 14px; }
.ttr-result-box, .ttr-result { max-width: 100%; box-sizing: border-box; min-width: 0; }
.ttr-result-box .widget-html-content { max-width: 100%; }
.ttr-missed { color: #a61b12; }
.ttr-key-line { font-size: 12px; }
.ttr-legend-item { display: inline-block; margin: 2px 10px 2px 0; white-space: nowrap; }
/* The phone's dock (the step, the question, the turn) is no box at all on a wider screen. */
.ttr-dock { display: contents !important; }
@media (max-width: 600px) and (min-height: 560px) {
  /* The phone: the step's or the turn's words, the question and Claim in a panel fixed at
     the bottom, over the board's end (the page leaves its height free below). Not in a
     short window (a laptop at 200% zoom): there it would cover most of the page. */
  .ttr-dock { display: flex !important; flex-flow: column nowrap !important; position: fixed;
    left: 0; right: 0; bottom: 0; z-index: 20; max-height: 50vh; overflow-y: auto !important;
    background: #fffdf6; border-top: 3px solid #8a7b52; box-shadow: 0 -2px 8px #0004;
    padding: 2px 8px 4px 8px; box-sizing: border-box; margin: 0 !important; }
  .ttr-dock > * { flex-shrink: 0 !important; }
  .ttr-dock .ttr-panel, .ttr-dock .ttr-turn-line { margin: 2px 0; }
  /* A route chosen: the claim panel (its payment and Claim) sits on the dock. */
  .ttr-claim-box:not(.ttr-no-route) { position: fixed; left: 0; right: 0; z-index: 21;
    bottom: var(--ttr-dock-height, 0px); margin: 0 !important; max-height: 34vh;
    overflow-y: auto !important; box-shadow: 0 -2px 8px #0004; border-radius: 0;
    border-top: 3px solid #1a5fb4 !important; box-sizing: border-box; }
  .ttr-claim-box:not(.ttr-no-route) .ttr-show-claimable,
  .ttr-claim-box:not(.ttr-no-route) .ttr-claimable { display: none !important; }
  .ttr-app { padding-bottom: var(--ttr-dock-space, 0px); }
}
@media (max-width: 600px) {
  /* Tap targets of at least 44 px. */
  .ttr-app .widget-button, .ttr-app .jupyter-button { min-height: 44px !important; }
  .ttr-app .widget-dropdown, .ttr-app .widget-text, .ttr-app .widget-checkbox,
  .ttr-app .jupyter-widget-Collapse-header { height: auto !important; min-height: 44px; }
  .ttr-app .widget-dropdown select, .ttr-app .widget-text input { min-height: 44px; }
  .ttr-app .widget-checkbox label { display: flex !important; align-items: center;
    min-height: 44px; }
  .ttr-app .widget-checkbox input { width: 22px; height: 22px; }
  .ttr-app .widget-radio-box label { min-height: 44px; align-items: center; }
  .ttr-app summary { padding: 12px 0; }
  .ttr-zoom-row .widget-button { min-width: 44px !important; }
}
@media (max-width: 600px) {
  .ttr-title { font-size: 15px; }
  .ttr-table { font-size: 12px; }
  .ttr-table th, .ttr-table td { padding: 2px 4px; }
  .ttr-panel { padding: 4px 6px; }
}
</style>
""".replace("WILD_GRADIENT", style.WILD_CSS_BACKGROUND)


def chip(color: str, text: str | None = None) -> str:
    """A small coloured box with the colour's letter (colour is never the only signal)."""
    sw = style.swatch(color)
    label = html.escape(text if text is not None else (sw.letter or "·"))
    background = style.WILD_CSS_BACKGROUND if color == "wild" else sw.fill
    return (
        f'<span class="ttr-chip" style="background:{background};color:{sw.ink}" '
        f'title="{html.escape(sw.name)}">{label}</span>'
    )


def colour_legend_html(game_map: Map) -> str:
    """The key's colours: each card and route colour of ``game_map`` as its chip (its
    letter on its colour) and its name, so a letter on the board reads without knowing
    the colour."""
    used = {r.color for r in game_map.routes} | {c.color for c in game_map.card_types}
    order = [c for c in style.SWATCHES if c in used] + sorted(used - set(style.SWATCHES))
    items = []
    for color in order:
        sw = style.swatch(color)
        mark = "" if sw.letter else " (no letter)"
        items.append(
            f"<span class='ttr-legend-item'>{chip(color)}{html.escape(sw.name)}{mark}</span>"
        )
    return f"<div class='ttr-legend'>{''.join(items)}</div>"


def player_chip(seat: int) -> str:
    """The seat's coloured number chip, as HTML."""
    ps = style.player_style(seat)
    return (
        f'<span class="ttr-chip" style="background:{ps.fill};color:{ps.ink}" '
        f'title="seat {ps.mark} ({ps.name})">{ps.mark}</span>'
    )


def card_name(card: CardType) -> str:
    """Readable name of a card type: ``red``, ``locomotive``, ``ship ×2 red``, ``red harbor``."""
    if card.wild:
        return "locomotive"
    name = card.color
    if card.deck == "ship":
        name = f"ship{' ×' + str(card.spaces) if card.spaces > 1 else ''} {card.color}"
    if card.harbor and card.deck != "ship":
        name += " (harbor)"
    return name


def describe_payment(game_map: Map, cards: Sequence[tuple[str, int]]) -> str:
    """``3 × P purple + 1 × L locomotive`` for a payment."""
    parts = []
    for card_id, count in cards:
        card = game_map.card_by_id.get(card_id)
        if card is None:
            parts.append(f"{count} × {card_id}")
            continue
        letter = style.swatch(card.color).letter
        parts.append(f"{count} × {letter} {card_name(card)}")
    return " + ".join(parts) or "no cards"


MANY_CARD_KINDS = 12  # more kinds than this: the hand lists only the kinds held


def hand_html(
    game_map: Map,
    hand: dict[str, int],
    title: str,
    name: Callable[[CardType], str] = card_name,
) -> str:
    """The cards held, one kind per chip. A game of few kinds lists every kind (those not
    held dimmed); with many kinds (two decks) only the kinds held, one line per deck."""
    decks = list(dict.fromkeys(card.deck for card in game_map.card_types))
    many = len(game_map.card_types) > MANY_CARD_KINDS
    lines = []
    for deck in decks:
        rows = []
        for card in game_map.card_types:
            count = hand.get(card.id, 0)
            if card.deck != deck or (many and count == 0):
                continue
            cls = "ttr-hand-row" + (" ttr-zero" if count == 0 else "")
            rows.append(
                f'<span class="{cls}" data-card="{html.escape(card.id)}">'
                f"{chip(card.color)}{html.escape(name(card))} × <b>{count}</b></span>"
            )
        if len(decks) > 1:
            held = sum(hand.get(c.id, 0) for c in game_map.card_types if c.deck == deck)
            kind = html.escape(deck.capitalize())
            rows.insert(0, f"<span class='ttr-note'><b>{kind} cards ({held}):</b></span> ")
            if not held:
                rows.append("<span class='ttr-note'>none</span>")
        lines.append(f"<div>{''.join(rows)}</div>")
    total = sum(hand.values())
    return f"<h3>{html.escape(title)} ({total} card{'s' if total != 1 else ''})</h3>" + "".join(
        lines
    )


def ticket_text(game_map: Map, ticket_id: int) -> str:
    """A ticket in words: its places and its points."""
    ticket = game_map.ticket_by_id[ticket_id]
    places = " → ".join(game_map.place_name(p) for p in ticket.cities)
    return f"{places} ({ticket.points} points)"


def tickets_html(
    game: Game,
    seat: int,
    title: str,
    text: Callable[[int], str] | None = None,
    progress: Callable[[int], str | None] | None = None,
) -> str:
    """The tickets of ``seat`` with their state; ``text`` and ``progress`` (plain text per
    ticket id) let a variant word them, e.g. a tour's cities in order and how far it is."""
    status = game.ticket_status(seat)
    if not status:
        return f"<h3>{html.escape(title)}</h3><div class='ttr-note'>No tickets yet.</div>"
    items = []
    for ticket_id, done in status:
        mark = '<span class="ttr-done">✓ done</span>' if done else '<span class="ttr-open">○</span>'
        words = html.escape(text(ticket_id) if text else ticket_text(game.map, ticket_id))
        how = progress(ticket_id) if progress else None
        if how:
            words += (
                f' — <span class="{"ttr-done" if done else "ttr-open"}">{html.escape(how)}</span>'
            )
        items.append(f"<li data-ticket='{ticket_id}'>{mark} {words}</li>")
    done_count = sum(1 for _, d in status if d)
    return (
        f"<h3>{html.escape(title)} ({done_count} of {len(status)} completed)</h3>"
        f"<ul class='ttr-tickets-list'>{''.join(items)}</ul>"
    )


def board_text_html(
    game: Game,
    viewer: int | None,
    text: Callable[[int], str] | None = None,
    roles: Sequence[str] = (),
) -> str:
    """The board in words, for a reader who cannot see the canvas (the canvas points its
    screen-reader description here): whose routes, what is left, the viewer's tickets and
    their status. Folded under one line for everyone else."""
    game_map, state = game.map, game.state
    words = text or (lambda ticket_id: ticket_text(game_map, ticket_id))
    total = len(game_map.routes)
    claimed = len(state.owner)
    players = []
    for seat, player in enumerate(state.players):
        routes = sorted(game_map.route_label(game_map.route_by_id[r]) for r in player.routes)
        role = f" ({html.escape(roles[seat])})" if seat < len(roles) else ""
        listed = html.escape("; ".join(routes)) if routes else "no route yet"
        players.append(
            f"<li>{player_chip(seat)}<b>{html.escape(player.name)}</b>{role}: "
            f"{pieces_text(player.pieces)} left; {len(routes)} "
            f"route{'s' if len(routes) != 1 else ''}: {listed}</li>"
        )
    parts = [
        f"<p>{claimed} of {total} routes are claimed, {total - claimed} still open (the "
        "Route list under the board names each; selecting one says who holds it).</p>",
        f"<ul>{''.join(players)}</ul>",
        supply_html(game),
    ]
    if viewer is not None and viewer < len(state.players):
        status = game.ticket_status(viewer)
        name = html.escape(state.players[viewer].name)
        items = "".join(
            f"<li>{'completed' if done else 'not completed yet'}: {html.escape(words(t))}</li>"
            for t, done in status
        )
        parts.append(
            f"<p>{name}'s tickets: {sum(d for _, d in status)} of {len(status)} completed.</p>"
            + (f"<ul>{items}</ul>" if items else "")
        )
    return (
        "<details class='ttr-note'><summary>The board in words (for screen readers)</summary>"
        + "".join(parts)
        + "</details>"
    )


def pieces_text(pieces: dict[str, int]) -> str:
    """Pieces by kind in words (``45 trains, 1 ship``)."""
    return ", ".join(f"{n} {kind}{'s' if n != 1 else ''}" for kind, n in pieces.items())


def scores_html(
    game: Game,
    seat_kinds: Sequence[str],
    extra_columns: Sequence[tuple[str, list[str]]] = (),
) -> str:
    """The players' table: points, pieces, cards, tickets, routes.

    Each player's seat kind (human, greedy bot) is under their name, and a variant's
    ``extra_columns`` (title, HTML per player) go on a line under their row: the play
    column has no room for more columns.
    """
    state = game.state
    scores = game.scores()
    rows = []
    for seat, player in enumerate(state.players):
        current = seat == state.current and not game.is_over
        kind = seat_kinds[seat] if seat < len(seat_kinds) else "human"
        kind_text = "human" if kind == "human" else f"{kind} bot"
        cls = ("ttr-current " if current else "") + ("ttr-has-more" if extra_columns else "")
        pieces = "<br>".join(pieces_text({piece: n}) for piece, n in player.pieces.items())
        rows.append(
            f"<tr class='{cls.strip()}'>"
            f"<td class='ttr-who'>{'▶ ' if current else ''}{player_chip(seat)}"
            f"{html.escape(player.name)}<br><span class='ttr-note ttr-kind'>{kind_text}"
            "</span></td>"
            f"<td class='ttr-num'>{scores[seat]['total']}</td>"
            f"<td>{pieces}</td>"
            f"<td class='ttr-num'>{player.hand_size}</td>"
            f"<td class='ttr-num'>{len(player.tickets)}</td>"
            f"<td class='ttr-num'>{len(player.routes)}</td>"
            "</tr>"
        )
        if extra_columns:
            items = "".join(
                f"<span class='ttr-more-item'><span class='ttr-note'>{html.escape(title)}:</span> "
                f"{values[seat]}</span>"
                for title, values in extra_columns
            )
            more_cls = "ttr-more" + (" ttr-current" if current else "")
            rows.append(f"<tr class='{more_cls}'><td colspan='6'>{items}</td></tr>")
    return (
        "<h3>Players</h3><div class='ttr-fit'><table class='ttr-table ttr-players'><tr>"
        "<th>player</th><th class='ttr-num'>points</th><th>pieces left</th>"
        "<th class='ttr-num'>cards</th><th class='ttr-num'>tickets</th>"
        "<th class='ttr-num'>routes</th></tr>" + "".join(rows) + "</table></div>"
    )


def supply_html(game: Game) -> str:
    """Cards left in each deck and its discards, and tickets left."""
    state = game.state
    tickets = game.rules.tickets_left(state)
    decks = game.rules.deck_names
    parts = []
    for deck in decks:
        pile, discard = game.rules.piles(state, deck)
        if len(decks) == 1:
            parts += [f"Deck: <b>{len(pile)}</b> cards", f"discards: <b>{len(discard)}</b>"]
        else:
            parts.append(
                f"{deck.capitalize()} deck: <b>{len(pile)}</b> cards "
                f"(<b>{len(discard)}</b> discarded)"
            )
    parts.append(f"tickets left: <b>{tickets}</b>")
    return "<div class='ttr-note'>" + " · ".join(parts) + "</div>"


def last_round_text(game: Game) -> str:
    """`` Last round: Ada has 2 trains left; 3 turns to go.`` or ``""``."""
    state = game.state
    if not state.final_turns_left or game.is_over or state.last_round_by is None:
        return ""  # (0 turns left: Europe's stations are choosing their routes)
    who = state.players[state.last_round_by]
    left = pieces_text(who.pieces)
    turns = state.final_turns_left
    return (
        f" Last round! {who.name} is down to {left}: everyone, {who.name} included, plays "
        f"one more turn ({turns} turn{'s' if turns != 1 else ''} to go)."
    )


def last_round_html(game: Game) -> str:
    """The last round's notice (who started it), as HTML; empty before it."""
    text = last_round_text(game).strip()
    return f"<div class='ttr-last-round'>{html.escape(text)}</div>" if text else ""


COMMON_MOVES = {"DrawFaceUp", "DrawBlind", "ClaimRoute", "DrawTickets", "Pass"}


def options_text(legal: Sequence[Any], other_words: Callable[[Any], str] | None = None) -> str:
    """What the player can do now, from the legal actions: ``draw cards, claim a route ...``;
    ``other_words`` names a variant's own moves (``move a passenger``)."""
    kinds = {type(a).__name__ for a in legal}
    words = []
    if kinds & {"DrawFaceUp", "DrawBlind"}:
        words.append("draw cards")
    if "ClaimRoute" in kinds:
        words.append("claim a route")
    if "DrawTickets" in kinds:
        words.append("draw tickets")
    name = other_words or (lambda _action: "make another move")
    words += dict.fromkeys(name(a) for a in legal if type(a).__name__ not in COMMON_MOVES)
    if not words:
        return "no move is possible, so pass" if "Pass" in kinds else "wait"
    return ", ".join(words[:-1]) + (" or " if len(words) > 1 else "") + words[-1]


# The engine's rules speak of "they" (the acting player); the app speaks to that player.
_SECOND_PERSON = (
    ("they have not", "you have not"),
    ("they have", "you have"),
    ("they hold", "you hold"),
    ("they must", "you must"),
    ("they can", "you can"),
    ("they may", "you may"),
)


def second_person(rule: str) -> str:
    """The engine's refusal reason addressed to the player.

    >>> second_person("they have 3 trains left, not 4")
    'you have 3 trains left, not 4'
    """
    for they, you in _SECOND_PERSON:
        rule = rule.replace(they, you)
    return rule


def explore_html(game_map: Map) -> str:
    """The note of explore mode (a map whose rules are not implemented), as HTML."""
    from ..maps import load_map
    from ..rules import playable_maps

    names = ", ".join(load_map(m).name for m in playable_maps())
    return (
        f"<div class='ttr-explore'>The {html.escape(game_map.name)} rules are not implemented "
        "yet: explore the board (point at routes and cities, click a route or pick it from the "
        f"list). Playable maps: {html.escape(names)}.</div>"
    )


def log_html(full_game: Game, position: int, shown: int = 40, ahead: int = 3) -> str:
    """The turn log around the move shown (``position``): up to ``shown`` entries ending
    ``ahead`` entries after it; entries after ``position`` (not yet replayed) are greyed
    out. Stepping back brings the log back with it."""
    lines = full_game.log
    end = min(len(lines), position + ahead)
    start = max(0, end - shown)
    items = []
    for i in range(start, end):
        seat = full_game.history[i].player
        cls = "ttr-future" if i >= position else ("ttr-latest" if i == position - 1 else "")
        items.append(
            f"<li value='{i + 1}' class='{cls}'>{player_chip(seat)}{html.escape(lines[i])}</li>"
        )
    if start:
        items.insert(
            0,
            f"<li class='ttr-note' style='list-style:none'>{start} earlier "
            f"move{'s' if start != 1 else ''}: step back to see them.</li>",
        )
    if end < len(lines):
        later = len(lines) - end
        items.append(
            f"<li class='ttr-note ttr-future' style='list-style:none'>{later} later "
            f"move{'s' if later != 1 else ''}: step forward to see them.</li>"
        )
    if not items:
        body = "<div class='ttr-note'>No moves yet.</div>"
    else:
        body = f"<div><ol>{''.join(items)}</ol></div>"
    return f"<h3>Turn log</h3><div class='ttr-log-box'>{body}</div>"


COMPONENT_NAMES = {
    "routes": "routes",
    "tickets": "tickets (±)",
    "longest_path": "longest path bonus",
    "passengers": "passengers",
    "globetrotter": "globetrotter bonus",
    "merchandise": "merchandise",
    "most_tickets": "most tickets bonus",
    "stations": "stations not built",
    "total": "total",
}


def result_html(
    game: Game, sections: Sequence[str] = (), text: Callable[[int], str] | None = None
) -> str:
    """The end screen: who won and why, the score by parts, every player's tickets
    (the bots' too, revealed now; ``text`` words a ticket), the longest trails, how the
    game ended."""
    words = text or (lambda ticket_id: ticket_text(game.map, ticket_id))
    result = game.result()
    if result is None:
        return ""
    state = game.state
    names = [p.name for p in state.players]
    rows = result["scores"]
    components = [k for k in rows[0] if k != "total"] + ["total"]
    # One column per player and one row per part of the score, the total last: however
    # many parts a variant scores, the table keeps its width (the players') and the
    # total stays in view.
    won = [seat in result["winners"] for seat in range(len(rows))]
    head = "".join(
        f"<th class='ttr-num{' ttr-won' if won[seat] else ''}'>{'★ ' if won[seat] else ''}"
        f"{player_chip(seat)}{html.escape(names[seat])}</th>"
        for seat in range(len(rows))
    )

    def line(title: str, values: Sequence[Any], cls: str = "") -> str:
        cells = "".join(
            f"<td class='ttr-num{' ttr-won' if won[seat] else ''}'>{value}</td>"
            for seat, value in enumerate(values)
        )
        return f"<tr class='{cls}'><th>{html.escape(title)}</th>{cells}</tr>"

    body = [
        line(
            COMPONENT_NAMES.get(c, c.replace("_", " ")),
            [row.get(c, 0) for row in rows],
            "ttr-total" if c == "total" else "",
        )
        for c in components
    ]
    # The trail lengths only where they score (their bonus decides): elsewhere a
    # "longest path" row would look like part of the score.
    trails = game.rules.longest_paths(state) if scores_longest_trail(game) else None
    if trails is not None:
        body.append(line("longest path (spaces)", trails, "ttr-aside"))
    winners = [names[i] for i in result["winners"]]
    decided = result["decided_by"]
    if decided == "shared victory":
        headline = f"Shared victory: {', '.join(winners)} (every tie-breaker is equal)"
    elif decided == "points":
        headline = f"{winners[0]} wins on points"
    else:
        tied = ", ".join(
            names[i]
            for i, r in enumerate(rows)
            if r["total"] == rows[result["winners"][0]]["total"]
        )
        headline = (
            f"{winners[0]} wins: {tied} tied on points, and the tie-break ({decided}) decided"
        )
    tickets = []
    for seat, player in enumerate(state.players):
        done = [t for t, ok in game.ticket_status(seat) if ok]
        missed = [t for t, ok in game.ticket_status(seat) if not ok]
        done_text = ", ".join(html.escape(words(t)) for t in done) or "none"
        missed_text = ", ".join(html.escape(words(t)) for t in missed) or "none"
        missed_cls = "ttr-missed" if missed else "ttr-none-missed"  # red only for a loss
        tickets.append(
            f"<li>{player_chip(seat)}<b>{html.escape(player.name)}</b>: completed "
            f"{len(done)} — {done_text}; <span class='{missed_cls}'>missed {len(missed)} — "
            f"{missed_text}</span></li>"
        )
    return (
        f"<div class='ttr-result'><div class='ttr-winner'>{html.escape(headline)}</div>"
        f"<div class='ttr-note'>{html.escape(result['ended_by'])}</div>"
        f"<div class='ttr-fit'><table class='ttr-table ttr-final-scores'><tr><th></th>{head}"
        f"</tr>{''.join(body)}</table></div>"
        + (
            "<div class='ttr-note'>Each player's longest continuous trail is outlined on the "
            "board in their colour.</div>"
            if trails is not None
            else ""
        )
        + f"<h4>Tickets</h4><ul class='ttr-tickets-list'>{''.join(tickets)}</ul>"
        + "".join(sections)
        + "</div>"
    )


def scores_longest_trail(game: Game) -> bool:
    """Do these rules score the longest continuous trail (USA's bonus)? Germany, Märklin
    and World do not."""
    return "longest_path" in game.rules.bonus_points


def about_html(game_map: Map, playable: bool, moved_places: dict[str, str]) -> str:
    """*About this map*: its sources, counts and estimated values, as HTML."""
    prov: dict[str, Any] = dict(game_map.provenance)
    trains = sum(1 for r in game_map.routes if r.kind == "train")
    ships = len(game_map.routes) - trains
    estimated = sum(
        1
        for group in (game_map.cities, game_map.routes, game_map.tickets)
        for x in group
        if x.estimated
    )
    parts = [
        f"<p><b>{html.escape(game_map.name)}</b> · rules: {html.escape(game_map.rules)}"
        f" ({'playable' if playable else 'rules not implemented yet: explore only'})<br>"
        f"{len(game_map.cities)} places, {trains} train routes"
        + (f", {ships} ship routes" if ships else "")
        + f", {len(game_map.tickets)} tickets.</p>",
        "<p>Positions come from real latitude/longitude; "
        f"{estimated} places, routes or tickets carry an estimate (a derived value, not a "
        "published fact) recorded in the map file.</p>",
    ]
    if moved_places:
        names = sorted({game_map.place_name(p) for p in moved_places})
        parts.append(
            "<p>Drawn away from their derived positions so their routes fit: "
            + html.escape(", ".join(names))
            + ".</p>"
        )
    if game_map.stand_in:
        items = "".join(
            f"<li><b>{html.escape(str(k))}</b>: {html.escape(str(v))}</li>"
            for k, v in game_map.stand_in.items()
        )
        parts.append(f"<p>Stand-ins (placeholders for facts not found):</p><ul>{items}</ul>")
    for key, title in (("sources", "Sources"), ("notes", "Notes")):
        values = prov.get(key) or []
        if values:
            items = "".join(f"<li>{html.escape(str(v))}</li>" for v in values)
            parts.append(f"<p>{title}:</p><ul>{items}</ul>")
    if prov.get("licence"):
        parts.append(f"<p class='ttr-note'>{html.escape(str(prov['licence']))}</p>")
    return "<div class='ttr-note' style='font-size:13px'>" + "".join(parts) + "</div>"
