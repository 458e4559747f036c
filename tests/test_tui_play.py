"""What a card player meets at the table (Textual Pilot), at 80x24 and 129x40: every card
drawn, the compact layout, confirmations, the command box keeping the focus, record files
per game, failed saves, cards written and typed as faces, marks, keys, rematch."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Button, Input

from rummykit.core.cards import card_points, format_card, parse_cards
from rummykit.core.moves import Discard, Draw, LayOff, Meld, Move
from rummykit.display.faces import card_face
from rummykit.tui import RummyApp, Setup
from rummykit.tui.actions import keyed, label
from rummykit.tui.game import Game
from rummykit.tui.screens.dialogs import ConfirmScreen, PathScreen
from rummykit.tui.screens.new_game import NewGameScreen
from rummykit.tui.screens.results import HandEndScreen, MatchEndScreen, winners_words
from rummykit.tui.widgets import HandView, Opponents
from rummykit.variants import BASIC, CONTRACT, TRADITIONAL
from test_tui_support import screen_text, settle, table, wait_for

SMALL, LARGE = (80, 24), (129, 40)
LONG_BASIC = dataclasses.replace(BASIC, target_score=1000)


def app_for(seed: int = 3, rules: object = LONG_BASIC, **kwargs: object) -> RummyApp:
    bots = ("greedy", "greedy") if rules is CONTRACT else ("greedy",)
    return RummyApp(Setup(rules, "Ann", bots, seed), bot_delay=0,  # type: ignore[arg-type]
                    **kwargs)  # type: ignore[arg-type]


def visible(app: RummyApp, widget_id: str) -> bool:
    """The widget is on screen, entirely inside the terminal."""
    region = app.screen.query_one(widget_id).region
    width, height = app.size
    return region.height > 0 and region.right <= width and region.bottom <= height


class HandOnly(App[None]):
    """A hand of cards alone, at a given width, as tall as it needs (like the table's)."""

    CSS = "HandView { height: auto; }"

    def __init__(self, cards: list[int], compact: bool) -> None:
        super().__init__()
        self.cards, self.compact = cards, compact

    def compose(self) -> ComposeResult:
        yield HandView(id="hand")

    def on_mount(self) -> None:
        hand = self.query_one(HandView)
        hand.compact, hand.cards = self.compact, tuple(self.cards)
        hand.cursor = len(self.cards) - 1
        hand.focus()


@pytest.mark.asyncio
@pytest.mark.parametrize("compact", [False, True], ids=["boxes", "compact"])
@pytest.mark.parametrize("count", [11, 17])
async def test_every_card_is_drawn_when_the_hand_needs_more_rows(compact: bool,
                                                                 count: int) -> None:
    cards = parse_cards("CA C2 C3 C4 C5 C6 C7 C8 C9 CT CJ CQ CK DA D2 D3 D4")[:count]
    app = HandOnly(cards, compact)
    async with app.run_test(size=(53, 24)) as pilot:
        await pilot.pause()
        shown = screen_text(app)  # type: ignore[arg-type]  # any app
        for card in cards:
            assert card_face(card) in shown, card_face(card)
        assert "▲" in shown  # the cursor, on the last card, is drawn too
        hand = app.query_one(HandView)
        rows = -(-count // hand.per_row())
        assert rows > 1 and hand.region.height == rows * hand.row_lines()


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "129x40"])
async def test_the_whole_table_fits_the_terminal(size: tuple[int, int]) -> None:
    app = app_for()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = table(app)
        assert screen.has_class("-compact") == (size == SMALL)
        await pilot.press("d")
        await settle(pilot)
        shown = screen_text(app)
        for card in screen.cards():  # all 11 cards
            assert card_face(card) in shown.split("Your hand")[1]
        screen.selected = frozenset({0})
        screen.show()
        await pilot.pause()
        for part in ("#hand", "#actions", "#message", "#command", "#melds", "#summary"
                     if size == SMALL else "#players"):
            assert visible(app, part), part
        assert "Discard" in str(app.screen.query_one("#action-0", Button).label)
        await pilot.press("question_mark")
        await pilot.pause()
        assert visible(app, "#close")  # the help dialog's buttons are on screen too


@pytest.mark.asyncio
async def test_the_command_box_keeps_the_focus_and_takes_faces() -> None:
    app = app_for()
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        game = table(app).game
        await pilot.press("colon")
        box = app.screen.query_one("#command", Input)
        assert app.focused is box
        await pilot.press("d", "r", "a", "w", "enter")
        await settle(pilot)
        assert game.log[-1].startswith("Ann drew ")
        assert app.focused is box  # typing on cannot fire the table's keys
        await pilot.press("q")  # typed into the box: no quitting, no dialog
        await pilot.pause()
        assert app.is_running and app.screen is table(app) and box.value == "q"
        box.value = ""
        card = game.view().hand_cards[-1]
        face = card_face(card)  # e.g. 10♦: rank then suit symbol, as drawn
        box.value = f"discard {face[-1]}{face[:-1]}"  # ♦10: the symbol first works too
        await pilot.press("enter")
        await settle(pilot)
        assert f"Ann discarded {face}" in game.log
        assert app.focused is box
        await pilot.press("escape")
        assert isinstance(app.focused, HandView)


@pytest.mark.asyncio
async def test_messages_write_cards_as_they_are_drawn() -> None:
    app = app_for()
    async with app.run_test(size=LARGE) as pilot:
        await settle(pilot)
        screen = table(app)
        game = screen.game
        top = game.view().discard_top
        assert top is not None
        await pilot.press("t")
        await pilot.pause()
        assert screen.message.plain == f"Ann took {card_face(top)} from the discard pile."
        screen.selected = frozenset({screen.cards().index(top)})
        await pilot.press("x")
        await pilot.pause()
        assert screen.message.plain.startswith(f"cannot discard {card_face(top)}: ")
        assert format_card(top) not in screen_text(app)
        assert "new" in screen_text(app)  # the card just taken is marked


@pytest.mark.asyncio
@pytest.mark.parametrize("key, question", [("q", "Leave the game?"),
                                           ("n", "Leave this match for a new game?"),
                                           ("ctrl+o", "Load a record in place")])
async def test_leaving_the_match_asks_first(key: str, question: str) -> None:
    app = app_for()
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        screen = table(app)
        before = screen.game.view()
        await pilot.press(key)
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert question in screen_text(app)
        assert visible(app, "#yes") and visible(app, "#no")
        await pilot.press("n")  # no: back at the same table, nothing changed
        await pilot.pause()
        assert app.screen is screen and app.is_running and screen.game.view() == before
        await pilot.press(key)
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        if key == "q":
            assert not app.is_running
        else:
            assert isinstance(app.screen, NewGameScreen if key == "n" else PathScreen)


@pytest.mark.asyncio
async def test_a_new_game_gets_its_own_record_file(tmp_path: Path) -> None:
    first = tmp_path / "match.rummy.json"
    app = app_for(save_path=str(first), autosave=True)
    async with app.run_test(size=LARGE) as pilot:
        await settle(pilot)
        assert json.loads(first.read_text())["seed"] == 3  # saved from the start
        await pilot.press("d")
        await settle(pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, PathScreen)
        await pilot.press("enter")  # saves to the same file: the game's own
        await pilot.pause()
        saved = first.read_bytes()
        app.open_table(Game(Setup(LONG_BASIC, "Ann", ("greedy",), 99)))
        await settle(pilot)
        second = tmp_path / "match-2.rummy.json"
        assert table(app).game.record_path == str(second)
        await pilot.press("d")
        await settle(pilot)
        await pilot.press("q", "y")
        await pilot.pause()
    assert first.read_bytes() == saved  # the first match was not overwritten
    assert json.loads(second.read_text())["seed"] == 99
    assert json.loads(second.read_text())["hands"][0]["moves"][-1] == "draw"


@pytest.mark.asyncio
async def test_a_failing_save_path_is_reported(tmp_path: Path) -> None:
    folder = tmp_path / "a-folder"
    folder.mkdir()
    app = app_for(save_path=str(folder), autosave=True)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        assert table(app).message.plain.startswith(f"Could not save to {folder}")
        assert "Could not save" in screen_text(app)
        await pilot.press("q", "y")
        await pilot.pause()
    assert app.return_code == 1  # and the reason is printed when the terminal is back


def play_out(game: Game) -> None:
    """Play your turns straight through the engine: meld, lay off, else discard the last."""
    seen = game.view()
    legal: list[Move] = list(seen.legal)
    move = (next((m for m in legal if isinstance(m, (Meld, LayOff))), None)
            or next((m for m in legal if isinstance(m, Draw)), None)
            or [m for m in legal if isinstance(m, Discard)][-1])
    game.play(move)


@pytest.mark.asyncio
async def test_the_match_end_offers_save_and_rematch(tmp_path: Path) -> None:
    rules = dataclasses.replace(BASIC, target_score=1)
    app = app_for(seed=1, rules=rules)
    async with app.run_test(size=SMALL) as pilot:
        screen = table(app)
        game = screen.game
        for _ in range(300):
            await settle(pilot)
            if isinstance(app.screen, HandEndScreen):
                assert visible(app, "#next")
                await pilot.press("enter")
                await pilot.pause()
            if isinstance(app.screen, MatchEndScreen):
                break
            play_out(game)
            screen.show()
            screen.advance()
        assert isinstance(app.screen, MatchEndScreen)
        for button in ("#rematch", "#new", "#save", "#quit"):
            assert visible(app, button), button
        path = tmp_path / "done.rummy.json"
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, PathScreen)
        app.screen.query_one("#path", Input).value = str(path)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MatchEndScreen)
        assert json.loads(path.read_text())["players"] == ["Ann", "Bob"]
        await pilot.press("r")
        await wait_for(pilot, lambda: table(app).game is not game)
        await settle(pilot)
        again = table(app).game
        assert again.names == game.names and again.setup.rules == rules
        assert again.setup.seed != game.setup.seed and again.hand_no == 1


def test_you_is_spoken_to_in_the_second_person() -> None:
    game = Game(Setup(TRADITIONAL, "You", ("greedy",), 5))
    assert game.log[0] in ("Hand 1: You deal, Bob plays first.",
                           "Hand 1: Bob deals, You play first.")
    assert winners_words((0,), ("You", "Bob")) == "You win!"
    assert winners_words((1,), ("You", "Bob")) == "Bob wins!"


@pytest.mark.asyncio
async def test_you_are_not_called_you_you() -> None:
    app = RummyApp(Setup(LONG_BASIC, "You", ("greedy",), 3), bot_delay=0)
    async with app.run_test(size=LARGE) as pilot:
        await settle(pilot)
        text = app.screen.query_one(Opponents).render()
        assert "You (you)" not in str(text) and "You: 10 cards" in str(text)


@pytest.mark.asyncio
async def test_a_dig_button_names_the_card_and_swap_explains_itself() -> None:
    app = app_for(seed=10, rules=CONTRACT)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        screen = table(app)
        game = screen.game
        await pilot.press("d")
        seen = game.view()
        game.play(max((m for m in seen.legal if isinstance(m, Discard)),
                      key=lambda m: card_points(m.card, 15)))
        screen.show()
        screen.advance()
        await settle(pilot)
        seen = game.view()
        await pilot.press("p")
        await pilot.pause()
        labels = [str(b.label) for b in app.screen.query(Button)]
        dug = seen.discard[-3]
        assert f"Dig {card_face(dug)} (3 cards)" in labels
        assert f"Take {card_face(seen.discard[-1])}" in labels
        assert "must be placed on the table this turn" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        card = seen.hand_cards[0]
        screen.selected = frozenset({screen.cards().index(card)})
        await pilot.press("w")
        await pilot.pause()
        assert screen.message.plain == f"No joker on the table stands for {card_face(card)}."
        assert game.view() == seen


@pytest.mark.asyncio
async def test_buttons_show_a_key_only_when_it_is_theirs_alone() -> None:
    app = app_for()
    async with app.run_test(size=LARGE) as pilot:
        await settle(pilot)
        screen = table(app)
        await pilot.press("d")
        await settle(pilot)
        for size in range(1, 4):
            for start in range(len(screen.cards()) - size + 1):
                screen.selected = frozenset(range(start, start + size))
                screen.show()
                await pilot.pause()
                labels = [str(b.label) for b in screen.query("#actions Button").results(Button)]
                keys = [label[-2] for label in labels if label.endswith(")")]
                assert len(keys) == len(set(keys)), labels


def test_two_moves_never_share_a_key() -> None:
    card, other = parse_cards("HA H5")
    moves: list[Move] = [LayOff(card, 2, "low"), LayOff(card, 2, "high"), LayOff(card, 3),
                         Discard(card), Meld(((card, other, other),)),
                         Meld(((card, other, card),))]
    assert keyed(moves) == ["", "", "3", "x", "", ""]
    assert [label(m, None, k) for m, k in zip(moves[2:4], keyed(moves)[2:4], strict=True)] \
        == ["Lay A♥ on 3 (3)", "Discard A♥ (x)"]
