"""The full-screen table (Textual Pilot): a hand played by keys and clicks, an illegal
attempt, save and reload, the dialogs. Bots are greedy and move without a pause."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, Select

from rummykit.core.cards import card_points, format_card, rank_of
from rummykit.core.engine import DRAW_PHASE
from rummykit.core.moves import Discard, LayOff, Meld, Take
from rummykit.core.record import replay_file
from rummykit.core.rules import Rules
from rummykit.display.faces import card_face
from rummykit.tui import RummyApp, Setup
from rummykit.tui.screens.dialogs import ConfirmScreen, PathScreen, TextScreen
from rummykit.tui.screens.help import HelpScreen
from rummykit.tui.screens.new_game import NewGameScreen
from rummykit.tui.screens.pile import PileScreen
from rummykit.tui.screens.results import HandEndScreen, MatchEndScreen
from rummykit.tui.widgets import Melds
from rummykit.variants import BASIC, CONTRACT, TRADITIONAL
from test_tui_support import SIZE, screen_text, select_cards, settle, table, wait_for

LONG_BASIC = dataclasses.replace(BASIC, target_score=1000)


def basic_app(seed: int = 7, **kwargs: object) -> RummyApp:
    return RummyApp(Setup(LONG_BASIC, "Ann", ("greedy",), seed), bot_delay=0,
                    **kwargs)  # type: ignore[arg-type]


async def type_text(pilot: Pilot[None], text: str) -> None:
    await pilot.press(*("space" if ch == " " else ch for ch in text))


async def play_one_turn(pilot: Pilot[None], turn: int) -> None:
    """Draw (key or button), then meld / lay off / discard by clicks and keys."""
    screen = table(pilot.app)  # type: ignore[arg-type]
    game = screen.game
    moves_before = len(game.match.hands[-1].moves)
    if turn % 2:
        await pilot.press("d")
    else:
        await pilot.click("#action-0")  # the first offered action: draw from the stock
    await pilot.pause()
    assert len(game.match.hands[-1].moves) == moves_before + 1
    assert "drew" in game.log[-1]
    for _ in range(20):
        seen = game.view()
        if seen.result is not None or seen.to_move != 0:
            return
        melds = [m for m in seen.legal if isinstance(m, Meld)]
        lays = [m for m in seen.legal if isinstance(m, LayOff)]
        if melds:
            cards = [c for group in melds[0].groups for c in group]
            await select_cards(pilot, cards, by_keys=False)
            await pilot.press("m")
            await pilot.pause()
            assert " melded " in game.log[-1], game.log[-1]
        elif lays:
            await select_cards(pilot, [lays[0].card], by_keys=True)
            if turn % 2:
                await pilot.press(str(lays[0].target))
            else:
                await pilot.click(Melds, offset=(4, lays[0].target))
            await pilot.pause()
            assert f"laid off {card_face(lays[0].card)} on meld {lays[0].target}" in game.log[-1]
        else:
            discards = [m for m in seen.legal if isinstance(m, Discard)]
            worst = max(discards, key=lambda m: (card_points(m.card, 1), rank_of(m.card)))
            await select_cards(pilot, [worst.card], by_keys=turn % 4 == 1)
            start = len(game.log)
            if turn % 3:
                await pilot.press("x")
            else:
                offered = screen.query_one("#action-0")
                assert "Discard" in str(offered.render())
                await pilot.click("#action-0")
            await pilot.pause()
            assert game.log[start].startswith(f"Ann discarded {card_face(worst.card)}")
            return


@pytest.mark.asyncio
@pytest.mark.parametrize("rules", [LONG_BASIC, TRADITIONAL], ids=["basic", "traditional"])
async def test_a_hand_is_played_to_its_end_by_keys_and_clicks(rules: Rules) -> None:
    # seed 1: a short hand, with melds and lay-offs, that Ann wins
    app = RummyApp(Setup(rules, "Ann", ("greedy",), 1), bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = table(app)
        game = screen.game
        for turn in range(200):
            await settle(pilot)
            if isinstance(app.screen, HandEndScreen):
                break
            await play_one_turn(pilot, turn)
        else:  # pragma: no cover
            pytest.fail("the hand did not end")
        result = game.match.hands[0].result
        assert result is not None
        shown = screen_text(app)
        assert "Hand 1 is over" in shown
        assert "Points this hand: Ann" in shown
        assert f"Ann {result.scores[0]}, Bob {result.scores[1]}" in shown
        for name in ("Ann", "Bob"):
            assert any(line.lstrip("│ ").startswith(name) for line in shown.splitlines())
        assert any(line.startswith("Bob ") for line in game.log)
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is screen
        assert game.hand_no == 2
        assert game.log[-1].startswith("Bob") or "Hand 2:" in "\n".join(game.log[-6:])


@pytest.mark.asyncio
async def test_an_illegal_attempt_shows_the_engine_reason_and_changes_nothing() -> None:
    app = basic_app(seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = table(app)
        game = screen.game
        top = game.view().discard_top
        assert top is not None
        await pilot.press("t")
        await pilot.pause()
        assert game.log[-1] == f"Ann took {card_face(top)} from the discard pile"
        before, log, moves = game.view(), list(game.log), list(game.match.hands[-1].moves)
        await select_cards(pilot, [top], by_keys=True)
        await pilot.press("x")
        await pilot.pause()
        reason = f"cannot discard {card_face(top)}: it was taken from the discard pile " \
                 "this turn"
        assert table(app).message.plain == reason
        assert "cannot discard" in screen_text(app)
        assert game.view() == before
        assert game.log == log and game.match.hands[-1].moves == moves
        # the command box: an impossible move and a typo, each refused with a reason
        await pilot.press("colon")
        assert isinstance(app.focused, Input)
        await type_text(pilot, "draw")
        await pilot.press("enter")
        await pilot.pause()
        assert table(app).message.plain == "cannot draw: you have already drawn this turn"
        await type_text(pilot, "meld H7 H8")
        await pilot.press("enter")
        await pilot.pause()
        assert "bad meld group '7♥ 8♥'" in table(app).message.plain
        assert game.view() == before and game.log == log


@pytest.mark.asyncio
async def test_the_command_box_plays_the_notation() -> None:
    app = basic_app(seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = table(app).game
        await pilot.press("colon")
        await type_text(pilot, "draw")
        await pilot.press("enter")
        await pilot.pause()
        assert game.log[-1].startswith("Ann drew ")
        card = game.view().hand_cards[0]
        await pilot.press("colon")
        await type_text(pilot, f"discard {format_card(card).lower()}")
        await pilot.press("enter")
        await settle(pilot)
        assert f"Ann discarded {card_face(card)}" in game.log
        await pilot.press("colon")
        await type_text(pilot, "sort")
        await pilot.press("enter")
        await pilot.pause()
        assert table(app).sort == "rank"
        assert "(s: by suit)" in screen_text(app)
        await pilot.press("colon")
        await type_text(pilot, "help")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)


@pytest.mark.asyncio
async def test_save_and_reload(tmp_path: Path) -> None:
    path = tmp_path / "match.rummy.json"
    app = basic_app(seed=5, save_path=str(path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = table(app).game
        await pilot.press("d")
        await select_cards(pilot, [game.view().hand_cards[-1]], by_keys=True)
        await pilot.press("x")
        await settle(pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, PathScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert table(app).message.plain == f"Saved the match record to {path}."
        saved = game.view()
        assert replay_file(path).ok
        # go on playing, then load the saved position back in this app (ctrl+o)
        await pilot.press("d")
        await pilot.pause()
        assert game.view() != saved
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)  # the match under way would be left
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, PathScreen)
        await pilot.press("enter")
        await settle(pilot)
        assert table(app).game is not game
        assert table(app).game.view() == saved
        assert table(app).game.names == ["Ann", "Bob"]
    reloaded = RummyApp(load_path=str(path), bot_delay=0)
    async with reloaded.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert table(reloaded).game.view() == saved
        assert "Loaded" in screen_text(reloaded)


@pytest.mark.asyncio
async def test_a_bad_record_is_refused_with_its_reason(tmp_path: Path) -> None:
    path = tmp_path / "bad.rummy.json"
    path.write_text('{"format": "rummykit/1", "rules": "basic", "players": []}')
    app = basic_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = table(app).game
        app.load(str(path))
        await pilot.pause()
        assert table(app).game is game
        assert "missing key 'hands'" in table(app).message.plain


@pytest.mark.asyncio
async def test_sort_pile_help_and_hint_keys() -> None:
    app = basic_app(seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = table(app)
        seen = screen.game.view()
        assert screen.cards() == seen.hand_cards
        await pilot.press("s")
        assert [rank_of(c) for c in screen.cards()] == sorted(rank_of(c) for c in seen.hand_cards)
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, PileScreen)
        assert "1: " in screen_text(app)
        await pilot.press("escape")
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert "Rummy, basic rules" in screen_text(app)  # this game's rules come first
        await pilot.press("k")
        await pilot.pause()
        assert "lay off the selected card" in screen_text(app)
        assert "10♦, ♦10, 10d, d10, DT and td" in screen_text(app)
        for key, title in (("t", "Rummy, traditional rules"), ("c", "Contract Rummy"),
                           ("b", "Rummy, basic rules")):
            await pilot.press(key)
            await pilot.pause()
            assert title in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen
        screen.hint_level = "medium"
        await pilot.press("h")
        await settle(pilot, rounds=3000)
        assert isinstance(app.screen, TextScreen)
        assert "Recommended: " in screen_text(app)
        await pilot.press("escape")
        assert screen.game.view() == seen


@pytest.mark.asyncio
async def test_the_new_game_dialog_offers_the_familys_options() -> None:
    app = RummyApp(None, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        melds = app.screen.query_one("#opt-max_melds_per_turn", Select)
        assert melds.value is None and "no limit" in screen_text(app)
        melds.value = 1
        app.screen.query_one("#opt-target_score", Input).value = "60"
        app.screen.query_one("#seed", Input).value = "5"
        await pilot.click("#start")
        await wait_for(pilot, lambda: app.table is not None)
        rules = table(app).game.match.rules
        assert (rules.max_melds_per_turn, rules.target_score) == (1, 60)
        assert rules.ace_mode == "low"  # left as the preset has it


@pytest.mark.asyncio
async def test_the_new_game_dialog_starts_a_contract_game() -> None:
    app = RummyApp(None, bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        offered = {w.id for w in app.screen.query("#new-game-options > *") if w.id}
        assert "opt-target_score" in offered
        app.screen.query_one("#rules", Select).value = "contract"
        await pilot.pause()
        assert app.screen.query_one("#players", Input).value == "3"
        offered = {w.id for w in app.screen.query("#new-game-options > *") if w.id}
        assert offered == {f"opt-{o.knob}" for o in NewGameScreen.specs("contract")}
        assert "opt-target_score" not in offered
        app.screen.query_one("#opt-discard_dig", Checkbox).value = False
        app.screen.query_one("#opt-deals", Select).value = "3 (from 2 sets + 1 run)"
        app.screen.query_one("#bots", Input).value = "wizard"
        await pilot.click("#start")
        await pilot.pause()
        assert "unknown bot 'wizard'" in screen_text(app)
        start = app.screen.query_one("#start")
        await wait_for(pilot, lambda: not start.has_class("-active"))  # a button's press effect
        app.screen.query_one("#bots", Input).value = "greedy"
        app.screen.query_one("#seed", Input).value = "11"
        app.screen.query_one("#name", Input).value = "Zed"
        await pilot.click("#start")
        await wait_for(pilot, lambda: app.table is not None)
        await settle(pilot)
        game = table(app).game
        assert game.match.rules == Rules.from_options("contract", {
            "discard_dig": False, "contract_schedule": [[2, 1], [1, 2], [0, 3]],
            "num_hands": 3, "hand_size": [12, 12, 12]})
        assert game.names == ["Zed", "Bob", "Cy"]
        assert "Contract: 2 sets + 1 run" in screen_text(app)


@pytest.mark.asyncio
async def test_a_contract_deal_is_played_to_its_end() -> None:
    rules = dataclasses.replace(CONTRACT, max_turns_per_hand=300)
    app = RummyApp(Setup(rules, "Ann", ("greedy", "greedy"), 27), bot_delay=0)  # Bob goes out
    async with app.run_test(size=SIZE) as pilot:
        game = table(app).game
        for _ in range(400):
            await settle(pilot)
            if isinstance(app.screen, HandEndScreen):
                break
            seen = game.view()
            if seen.phase == DRAW_PHASE:
                await pilot.press("d")
                continue
            melds = [m for m in seen.legal if isinstance(m, Meld)]
            lays = [m for m in seen.legal if isinstance(m, LayOff)]
            if melds:
                await select_cards(pilot, [c for g in melds[0].groups for c in g
                                           if c < 64] + [52] * sum(c >= 64 for g in
                                                                   melds[0].groups for c in g),
                                   by_keys=False)
                await pilot.press("m")
            elif lays and lays[0].card < 64:
                await select_cards(pilot, [lays[0].card], by_keys=False)
                await pilot.click("#action-0")
            else:
                discard = next(m for m in seen.legal if isinstance(m, Discard))
                await select_cards(pilot, [discard.card], by_keys=True)
                await pilot.press("x")
            await pilot.pause()
        else:  # pragma: no cover
            pytest.fail("the deal did not end")
        assert "Deal 1 is over" in screen_text(app)
        assert "Penalty points this deal" in screen_text(app)
        await pilot.press("enter")
        await settle(pilot)
        assert game.hand_no == 2
        assert "Contract: 1 set + 1 run" in screen_text(app)


@pytest.mark.asyncio
async def test_the_match_end_screen_offers_a_new_game() -> None:
    rules = dataclasses.replace(BASIC, target_score=1)
    app = RummyApp(Setup(rules, "Ann", ("greedy",), 1), bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        game = table(app).game
        for turn in range(300):
            await settle(pilot)
            if not isinstance(app.screen, type(table(app))):
                if isinstance(app.screen, HandEndScreen):
                    await pilot.press("enter")
                    await pilot.pause()
                if isinstance(app.screen, MatchEndScreen):
                    break
                continue
            await play_one_turn(pilot, turn)
        assert isinstance(app.screen, MatchEndScreen)
        assert game.match.over
        assert "The match is over" in screen_text(app)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)


@pytest.mark.asyncio
async def test_a_contract_dig_from_the_pile_screen() -> None:
    app = RummyApp(Setup(CONTRACT, "Ann", ("greedy", "greedy"), 10), bot_delay=0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = table(app)
        game = screen.game
        await pilot.press("d")
        seen = game.view()
        worst = max((m for m in seen.legal if isinstance(m, Discard)),
                    key=lambda m: card_points(m.card, 15))
        await select_cards(pilot, [worst.card], by_keys=False)
        await pilot.press("x")
        await settle(pilot)
        seen = game.view()
        digs = [m for m in seen.legal if isinstance(m, Take)]
        assert Take(count=3) in digs
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, PileScreen)
        assert "3: " in screen_text(app)
        dug = seen.discard[-3]
        await pilot.click(f"#take-{digs.index(Take(count=3))}")
        await settle(pilot)
        assert app.screen is screen
        assert game.log[-1].startswith(
            f"Ann dug {card_face(dug)} from depth 3 of the discard pile")
        assert "You must place the card you dug" in screen_text(app)
        before = game.view()
        other = next(c for c in before.hand_cards if c != dug)
        await select_cards(pilot, [other], by_keys=False)
        await pilot.press("x")
        await pilot.pause()
        assert screen.message.plain.startswith(f"cannot discard {card_face(other)}")
        assert game.view() == before
