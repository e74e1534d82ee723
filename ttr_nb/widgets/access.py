"""What the page needs for keyboards and screen readers beyond what ipywidgets gives.

:class:`PageAccess` is a hidden-looking widget whose page side

- makes the headers of collapsible sections (*New game*, *Play with others*, *Save and
  load*, *About this map*: ipywidgets' ``Accordion``) reachable with Tab and opened with
  Enter or Space, saying whether each is open (``aria-expanded``);
- names every form control that has no visible label: ipywidgets leaves an empty or hidden
  ``<label>`` beside a list or a text box without a description, and nothing on the move
  slider's handle. The name comes from the widget's tooltip (its ``title``) or its label's
  words;
- names the board's canvas and points it at the board's text description;
- keeps the phone's bottom panel from covering the page's end (its height is left free);
- holds a polite ``aria-live`` log: :meth:`PageAccess.announce` reads a line to a screen
  reader (the bots' moves, the other players' moves at a table, a refusal).

The page side watches the page for changes (a ``MutationObserver``), because ipywidgets
redraws its views at any time. Nothing is sent from the page to the kernel.
"""

from __future__ import annotations

import anywidget
import traitlets

MAX_LINES = 20  # the live log keeps this many lines in the page (older ones are read)

_ESM = """
const MAX_LINES = MAX_LINES_HERE;
const BOARD_NAME = 'The game board. With it focused: arrow keys step through the routes, '
  + 'Escape clears the selection, + and - zoom, 0 shows the whole board, Tab leaves it.';

function visible(el) { return el && el.getClientRects().length > 0; }

function labelWords(control) {
  if (!control.id) { return ''; }
  const label = document.querySelector(`label[for="${CSS.escape(control.id)}"]`);
  return label ? label.textContent.trim() : '';
}

function named(control) {
  if ((control.getAttribute('aria-label') || '').trim()) { return true; }
  if (control.closest('label') && control.closest('label').textContent.trim()) { return true; }
  if (!control.id) { return false; }
  const label = document.querySelector(`label[for="${CSS.escape(control.id)}"]`);
  return Boolean(label && visible(label) && label.textContent.trim());
}

function widgetName(control) {
  const widget = control.closest('.jupyter-widgets');
  if (!widget) { return ''; }
  const title = (widget.getAttribute('title') || '').trim();
  if (title) { return title; }
  const label = widget.querySelector('.widget-label');
  const words = (label ? label.textContent : '') || labelWords(control);
  return words.trim().replace(/:$/, '');
}

function nameControls(root) {
  for (const control of root.querySelectorAll('select, input, textarea, [role=slider]')) {
    if (control.type === 'hidden' || named(control)) { continue; }
    const name = widgetName(control);
    if (name) { control.setAttribute('aria-label', name); }
  }
}

function keyboardHeaders(root) {
  for (const header of root.querySelectorAll('.jupyter-widget-Collapse-header')) {
    if (!header.dataset.ttrKeys) {
      header.dataset.ttrKeys = '1';
      header.tabIndex = 0;
      header.setAttribute('role', 'button');
      header.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          header.click();
        }
      });
    }
    const open = header.parentElement &&
      header.parentElement.classList.contains('jupyter-widget-Collapse-open');
    if (header.getAttribute('aria-expanded') !== String(open)) {
      header.setAttribute('aria-expanded', String(open));
    }
  }
}

function nameBoards(root) {
  for (const box of root.querySelectorAll('.ttr-board-canvas')) {
    const text = box.closest('.ttr-board-column, .ttr-app, body')
      .querySelector('.ttr-board-text .widget-html-content');
    if (text && !text.id) { text.id = 'ttr-board-text-' + Math.random().toString(36).slice(2); }
    for (const canvas of box.querySelectorAll('canvas')) {
      if (canvas.getAttribute('aria-label') !== BOARD_NAME) {
        canvas.setAttribute('aria-label', BOARD_NAME);
        canvas.setAttribute('role', 'img');
      }
      if (text && canvas.getAttribute('aria-describedby') !== text.id) {
        canvas.setAttribute('aria-describedby', text.id);
      }
    }
  }
}

function fixedHeight(el) {
  if (!el || getComputedStyle(el).position !== 'fixed') { return 0; }
  return Math.ceil(el.getBoundingClientRect().height);
}

function setVar(el, name, value) {
  if (el.style.getPropertyValue(name) !== value) { el.style.setProperty(name, value); }
}

function dockSpace() {
  // The phone's bottom panels are fixed over the page: the claim panel sits on the dock,
  // and the page leaves both heights free at its end.
  for (const app of document.querySelectorAll('.ttr-app')) {
    const dock = fixedHeight(app.querySelector('.ttr-dock'));
    const claim = fixedHeight(app.querySelector('.ttr-claim-box'));
    setVar(app, '--ttr-dock-height', dock + 'px');
    setVar(app, '--ttr-dock-space', (dock + claim) + 'px');
  }
}

function fixAll() {
  const root = document.body;
  keyboardHeaders(root);
  nameControls(root);
  nameBoards(root);
  dockSpace();
}

let scheduled = false;
function schedule() {
  if (scheduled) { return; }
  scheduled = true;
  requestAnimationFrame(() => { scheduled = false; fixAll(); });
}

let watching = false;
function watch() {
  if (watching) { return; }
  watching = true;
  new MutationObserver(schedule).observe(document.body, {
    subtree: true, childList: true, attributes: true, attributeFilter: ['class', 'style'],
  });
  window.addEventListener('resize', schedule);
  schedule();
}

export default {
  initialize({ model }) { watch(); },
  render({ model, el }) {
    el.classList.add('ttr-access');
    const log = document.createElement('div');
    log.className = 'ttr-live';
    log.setAttribute('role', 'log');
    log.setAttribute('aria-live', 'polite');
    log.setAttribute('aria-label', 'What the other players did');
    el.appendChild(log);
    model.on('msg:custom', (msg) => {
      if (!msg || msg.kind !== 'say' || typeof msg.text !== 'string') { return; }
      const line = document.createElement('p');
      line.textContent = msg.text;
      log.appendChild(line);
      while (log.childElementCount > MAX_LINES) { log.firstElementChild.remove(); }
    });
    watch();
  },
};
""".replace("MAX_LINES_HERE", str(MAX_LINES))

# Seen by screen readers, not on screen (the page shows the same lines in its turn log).
ACCESS_CSS = """
/* ipywidgets' section headers: darker words (4.45:1 was under WCAG's 4.5:1). */
.jupyter-widget-Collapse-header { color: #2b2b2b !important; }
/* Where the keyboard is, always visible. */
.jupyter-widgets :focus-visible, .jupyter-widget-Collapse-header:focus-visible,
.ttr-app summary:focus-visible, .ttr-app a:focus-visible {
  outline: 3px solid #1a5fb4 !important; outline-offset: 2px; }
.ttr-access, .ttr-live { position: absolute !important; width: 1px; height: 1px;
  overflow: hidden; clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap; }
"""


class PageAccess(anywidget.AnyWidget):
    """The page's keyboard and screen-reader helper; :meth:`announce` speaks a line."""

    _esm = _ESM
    _css = ACCESS_CSS
    announced = traitlets.List(traitlets.Unicode()).tag(sync=False)

    def announce(self, text: str) -> None:
        """Have a screen reader read ``text`` (politely: after what it is reading)."""
        text = " ".join(text.split())
        if not text:
            return
        self.announced = [*self.announced[-(MAX_LINES - 1) :], text]
        self.send({"kind": "say", "text": text})
