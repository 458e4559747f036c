"""The full-screen terminal game (Textual): ``rummykit play`` in a terminal.

Needs the ``tui`` extra. :func:`run` plays one match; :class:`RummyApp` is the app.
"""

from __future__ import annotations

from rummykit.extras import MissingExtraError

try:
    import textual  # noqa: F401  (the tui extra)
except ImportError:
    raise MissingExtraError("tui", "textual", "rummykit.tui") from None

from rummykit.tui.app import RummyApp
from rummykit.tui.game import Game, Setup

__all__ = ["Game", "RummyApp", "Setup", "run"]


def run(setup: Setup | None, *, save_path: str | None = None, bot_delay: float = 0.6) -> int:
    """Play in the terminal until you quit; returns the exit status."""
    app = RummyApp(setup, save_path=save_path, bot_delay=bot_delay, autosave=True)
    app.run()
    return app.return_code or 0
