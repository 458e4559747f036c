"""The full-screen gin table through Textual's pilot: a whole game at 80x24 by keys, the
knock's arrangement menu, the show, the new-game screen, illegal keys, save and load."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.pilot import Pilot

from rummykit.bots.gin_greedy import greedy_gin_move
from rummykit.core.match import FamilyMatch
from rummykit.core.moves import Discard, Draw, LayOff, Take
from rummykit.tui import RummyApp
from rummykit.tui.game import Setup
from rummykit.tui.gin_game import GinGame
from rummykit.tui.screens.dialogs import TextScreen
from rummykit.tui.screens.gin_dialogs import GinHandEndScreen, KnockScreen
from rummykit.tui.screens.gin_table import GinTableScreen
from rummykit.tui.screens.new_game import NewGameScreen
from rummykit.tui.screens.results import MatchEndScreen
from rummykit.variants.gin.moves import BigGin, Done, Gin, Knock, Pass
from rummykit.variants.gin.rules import GIN, gin_rules_from_options
from test_tui_support import check_snapshot, screen_text, settle, wait_for

SMALL = (80, 24)


def gin_table(app: RummyApp) -> GinTableScreen:
    assert isinstance(app.table, GinTableScreen)
    return app.table


async def put_cursor(pilot: Pilot[None], screen: GinTableScreen, card: int) -> None:
    """Move the cursor onto ``card`` with the arrow keys."""
    steps = (screen.cards().index(card) - screen.cursor) % len(screen.cards())
    for _ in range(steps):
        await pilot.press("right")
    assert screen.target() == card


async def my_turn(pilot: Pilot[None], screen: GinTableScreen) -> str:
    """Play the greedy gin move by the table's keys; returns what was done."""
    seen = screen.game.view()
    move = greedy_gin_move(seen)
    if isinstance(move, (Pass, Draw, Take, Done)):
        key = {Pass: "p", Draw: "d", Take: "t", Done: "e"}[type(move)]
        await pilot.press(key)
        return key
    if isinstance(move, BigGin):
        await pilot.press("g")
        return "g"
    if isinstance(move, (Discard, Knock, Gin, LayOff)):
        await put_cursor(pilot, screen, move.card)
        key = {Discard: "x", Knock: "k", Gin: "g", LayOff: "l"}[type(move)]
        if isinstance(move, LayOff):
            key = str(move.target)
        await pilot.press(key)
        if isinstance(pilot.app.screen, KnockScreen):
            await pilot.press("1")
            return "k1"
        return key
    screen.attempt(move)  # a meld at the show: by its button's move
    return "meld"


async def play_to_the_end(pilot: Pilot[None], app: RummyApp, limit: int = 3000) -> list[str]:
    keys: list[str] = []
    for _ in range(limit):
        await settle(pilot)
        screen = app.screen
        if isinstance(screen, MatchEndScreen):
            return keys
        if isinstance(screen, GinHandEndScreen):
            keys.append("hand-end")
            await pilot.press("enter")
            continue
        table = gin_table(app)
        if table.game.bot_to_move is None and not table.game.hand_over:
            before = table.game.mark()
            keys.append(await my_turn(pilot, table))
            await wait_for(pilot, lambda t=table, b=before: t.game.mark() != b
                           or not isinstance(app.screen, GinTableScreen))
    raise AssertionError("the game did not end")


@pytest.mark.asyncio
async def test_a_whole_gin_game_by_keys_at_80x24(tmp_path: Path) -> None:
    path = tmp_path / "tui.rummy.json"
    rules = gin_rules_from_options("gin", {"target_score": 40})
    app = RummyApp(Setup(rules, "Ann", ("greedy",), 12), bot_delay=0, save_path=str(path),
                   autosave=True)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "Knock limit 10" in text and "Your hand, 1" in text  # 10 or 11 cards
        assert "Game to 40" in text
        keys = await play_to_the_end(pilot, app)
        assert ("hand-end" in keys and any(k in ("k", "k1", "g") for k in keys)) or \
            "e" in keys
        end = screen_text(app)
        assert "The match is over" in end and "Score sheet" in end
        assert "Game over: " in end and "boxes Ann" in end
        await pilot.press("q")
    record = json.loads(path.read_text())
    assert record["rules"] == "gin" and record["result"]["over"] is True


@pytest.mark.asyncio
async def test_the_knock_menu_shows_the_arrangements_and_plays_the_chosen_one() -> None:
    from rummykit.core.cards import parse_card
    from test_gin_play import KNOCK_DEAL
    app = RummyApp(Setup(GIN, "Ann", ("greedy",), 1), bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        screen = gin_table(app)
        match: FamilyMatch[object, object] = FamilyMatch(GIN, ["Ann", "Bob"], seed=1, dealer=1)
        match.start_hand(deal=KNOCK_DEAL)
        game = GinGame(screen.game.setup, match)  # type: ignore[arg-type]
        app.open_table(game)
        for key in ("p",):
            await pilot.press(key)
        await settle(pilot)
        if game.view().phase == "draw":
            await pilot.press("d")
        await settle(pilot)
        assert game.view().phase == "discard"
        await put_cursor(pilot, screen, parse_card("S2"))
        await pilot.press("k")
        await pilot.pause()
        assert isinstance(app.screen, KnockScreen)
        text = screen_text(app)
        assert "1. melds" in text and "2. melds" in text and "3. melds" in text
        assert "deadwood 6♥ = 6" in text or "deadwood 9♥ = 9" in text
        await pilot.press("3")
        await settle(pilot)
        state = game.state
        assert state.knocker == 0 and state.knock_card == parse_card("S2")
        assert len(state.knock_groups) == 3


@pytest.mark.asyncio
async def test_an_illegal_key_says_why_and_changes_nothing() -> None:
    app = RummyApp(Setup(GIN, "Ann", ("greedy",), 4), bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        screen = gin_table(app)
        mark = screen.game.mark()
        await pilot.press("x")  # no discard before the draw
        await pilot.press("e")  # no show yet
        assert screen.game.mark() == mark
        assert screen.message.plain and screen.message.style == "bold red"


@pytest.mark.asyncio
async def test_the_new_game_screen_starts_gin() -> None:
    app = RummyApp(None, bot_delay=0)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        select = app.screen.query_one("#rules")
        select.value = "oklahoma"  # type: ignore[attr-defined]
        await pilot.pause()
        await pilot.pause()
        assert app.screen.query_one("#bots").value in ("greedy", "medium")  # type: ignore[attr-defined]
        await pilot.click("#start")
        await settle(pilot)
        screen = gin_table(app)
        assert screen.game.match.rules.name == "oklahoma"
        assert "Knock limit " in screen_text(app)


@pytest.mark.asyncio
async def test_save_and_load_a_gin_game(tmp_path: Path) -> None:
    path = tmp_path / "saved.rummy.json"
    app = RummyApp(Setup(GIN, "Ann", ("greedy",), 9), bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        screen = gin_table(app)
        await my_turn(pilot, screen)
        await settle(pilot)
        screen.game.save(path)
        moves = list(screen.game.match.hands[-1].moves)
    again = RummyApp(None, bot_delay=0, load_path=str(path))
    async with again.run_test(size=SMALL) as pilot:
        await settle(pilot)
        loaded = gin_table(again)
        assert list(loaded.game.match.hands[-1].moves)[:len(moves)] == moves
        assert "Loaded " in " ".join(loaded.game.log)


@pytest.mark.asyncio
async def test_the_gin_table_at_80x24_snapshot() -> None:
    """The first decision of a seeded game, as a text snapshot (tests/data)."""
    app = RummyApp(Setup(GIN, "Ann", ("greedy",), 7), bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("p")  # pass the first upcard; the bot takes it and discards
        await settle(pilot)
        text = screen_text(app)
        assert "Draw (d)" in text and "Take K♠ (t)" in text
        check_snapshot(text, "tui_gin_table_80x24.txt")


@pytest.mark.asyncio
async def test_h_shows_the_search_bots_hint_and_changes_nothing() -> None:
    app = RummyApp(Setup(GIN, "Ann", ("greedy",), 7), bot_delay=0, hint_level="medium")
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        screen = gin_table(app)
        mark = screen.game.mark()
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(app.screen, TextScreen), rounds=2000)
        text = screen_text(app)
        assert "Recommended: " in text and "Candidates (level medium" in text
        assert screen.game.mark() == mark


@pytest.mark.asyncio
async def test_help_shows_the_gin_rules_the_cards_and_the_keys() -> None:
    app = RummyApp(Setup(GIN, "Ann", ("greedy",), 7), bot_delay=0)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, TextScreen))
        body = str(app.screen.query_one(".dialog-body Static").render())  # type: ignore[attr-defined]
        assert "First upcard" in body and "How cards are written" in body
        assert "k knock discarding it" in body


@pytest.mark.asyncio
async def test_k_on_a_card_that_allows_no_knock_says_why() -> None:
    app = RummyApp(Setup(GIN, "Ann", ("greedy",), 4), bot_delay=0)
    async with app.run_test(size=SMALL) as pilot:
        for _ in range(40):
            await settle(pilot)
            screen = gin_table(app)
            seen = screen.game.view()
            if seen.phase == "discard" and seen.to_move == 0:
                break
            await my_turn(pilot, screen)
        knocks = {m.card for m in seen.legal if isinstance(m, (Knock, Gin))}
        card = next(c for c in screen.cards() if c not in knocks)
        await put_cursor(pilot, screen, card)
        mark = screen.game.mark()
        await pilot.press("k")
        await pilot.pause()
        assert screen.game.mark() == mark and not isinstance(app.screen, KnockScreen)
        assert "cannot knock: deadwood" in screen.message.plain
