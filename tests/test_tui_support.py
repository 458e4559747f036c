"""Helpers for the Textual table tests (Pilot): waiting for the bots, reading the screen,
and clicking cards. No tests here."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot

from rummykit.core.cards import Card
from rummykit.tui import RummyApp
from rummykit.tui.screens.table import TableScreen
from rummykit.tui.widgets import HandView

SIZE = (120, 36)
DATA = Path(__file__).parent / "data"
REGENERATE = os.environ.get("RUMMYKIT_REGENERATE_SNAPSHOTS") == "1"


def table(app: RummyApp) -> TableScreen:
    assert app.table is not None
    return app.table


async def settle(pilot: Pilot[None], rounds: int = 400) -> None:
    """Wait until no bot or hint is thinking and no bot is to move (or a dialog shows)."""
    app = pilot.app
    assert isinstance(app, RummyApp)
    for _ in range(rounds):
        await pilot.pause()
        screen = app.table
        if screen is None or app.screen is not screen:
            if screen is None or not screen.busy:
                return
            continue
        if not screen.busy and screen.game.bot_to_move is None:
            return
    raise AssertionError("the bots did not finish")


async def wait_for(pilot: Pilot[None], ready: Callable[[], bool], rounds: int = 400) -> None:
    """Pause until ``ready()`` holds."""
    for _ in range(rounds):
        if ready():
            return
        await pilot.pause()
    raise AssertionError("the app did not get there")


def screen_text(app: RummyApp) -> str:
    """The screen as plain text, one line per row, trailing spaces removed."""
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text.rstrip() for strip in strips) + "\n"


def check_snapshot(text: str, name: str) -> None:
    """Compare with ``tests/data/NAME`` (RUMMYKIT_REGENERATE_SNAPSHOTS=1 rewrites it)."""
    path = DATA / name
    if REGENERATE or not path.exists():
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


async def click_card(pilot: Pilot[None], index: int) -> None:
    """Click the card at display position ``index`` of your hand."""
    hand = pilot.app.screen.query_one(HandView)
    per_row = hand.per_row()
    x = index % per_row * hand.cell() + 2
    y = index // per_row * hand.row_lines()
    assert await pilot.click(HandView, offset=(x, y))


async def select_cards(pilot: Pilot[None], cards: list[Card], *, by_keys: bool) -> None:
    """Select ``cards`` of your hand, by clicks or by the cursor keys and space."""
    screen = table(pilot.app)  # type: ignore[arg-type]
    shown = screen.cards()
    wanted: list[int] = []
    for card in cards:
        wanted.append(next(i for i, c in enumerate(shown) if c == card and i not in wanted))
    for index in wanted:
        if by_keys:
            steps = index - screen.cursor
            for _ in range(abs(steps)):
                await pilot.press("right" if steps > 0 else "left")
            await pilot.press("space")
        else:
            await click_card(pilot, index)
    await pilot.pause()
    assert sorted(screen.chosen()) == sorted(cards)
