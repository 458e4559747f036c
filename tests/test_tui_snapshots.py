"""Text snapshots of the table screen for seeded positions (basic and contract).

The golden files are ``tests/data/tui_*.txt``; after a deliberate change to the layout,
regenerate them with ``RUMMYKIT_REGENERATE_SNAPSHOTS=1 pytest tests/test_tui_snapshots.py``
and review the diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rummykit.core.cards import card_points
from rummykit.core.moves import Discard
from rummykit.tui import RummyApp, Setup
from rummykit.variants import BASIC, CONTRACT
from test_tui_support import SIZE, check_snapshot, click_card, screen_text, settle, table


@pytest.mark.asyncio
async def test_basic_table_snapshot() -> None:
    app = RummyApp(Setup(BASIC, "Ann", ("greedy",), 3), bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("d")
        await click_card(pilot, 3)
        await pilot.pause()
        text = screen_text(app)
        check_snapshot(text, "tui_basic_table.txt")
    assert "1. 2♣ 3♣ 4♣  by Bob" in text
    assert "Discard 6♦ (x)" in text
    assert "Turn 2: your play" in text


@pytest.mark.asyncio
async def test_contract_table_snapshot() -> None:
    app = RummyApp(Setup(CONTRACT, "Ann", ("greedy", "greedy"), 4), bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        game = table(app).game
        for _ in range(3):
            await settle(pilot)
            await pilot.press("d")
            await pilot.pause()
            seen = game.view()
            if len(seen.table) >= 2:
                break
            worst = max((m for m in seen.legal if isinstance(m, Discard)),
                        key=lambda m: card_points(m.card, 15))
            game.play(worst)  # the engine directly: these turns only set the position up
            table(app).show()
            table(app).advance()
        await settle(pilot)
        text = screen_text(app)
        check_snapshot(text, "tui_contract_table.txt")
    assert "Contract: 2 sets" in text
    assert "JK=K♥" in text
    assert ", down" in text


def test_the_readme_shows_the_basic_snapshot() -> None:
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### The full-screen table"):]
    start = section.index("```text\n") + len("```text\n")
    capture = section[start:section.index("\n```", start)]
    golden = (Path(__file__).parent / "data" / "tui_basic_table.txt").read_text("utf-8")
    assert capture == golden.rstrip("\n")
