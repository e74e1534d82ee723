"""The app driven the way a learner clicks it, without a browser (imported as ``app_steps``
by the widget tests)."""

from __future__ import annotations

from ttr_nb.widgets import GameApp


def keep_offered(app: GameApp) -> None:
    """Tick every ticket on offer (none is ticked at first) and press the keep button."""
    for box in app.offer.boxes:
        box.value = True
    app.offer.keep_button.click()
