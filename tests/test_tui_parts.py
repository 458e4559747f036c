"""The table's pure parts, without an app: card faces, move words, offered actions and the
new-game setup, each checked against the real engine."""

from __future__ import annotations

import pytest

from rummykit.core.cards import parse_card, parse_cards
from rummykit.core.engine import HandState
from rummykit.core.moves import Discard, Draw, LayOff, Meld, Take
from rummykit.core.outcome import DEADLOCK, DRAW, WIN, HandResult
from rummykit.core.views import view
from rummykit.tui.actions import guidance, offered, ordered
from rummykit.tui.cardart import card_box, face, inline
from rummykit.tui.game import Game, Setup
from rummykit.tui.screens.new_game import build_setup
from rummykit.tui.screens.results import outcome_words, winners_words
from rummykit.tui.words import describe
from rummykit.variants import BASIC, CONTRACT


def readme_state() -> HandState:
    hands = [parse_cards("H7 H8 C2 D4 S9 SK CQ"), parse_cards("C3 C4 C5 D6 D7 D8 DA")]
    return HandState.from_deal(BASIC, dealer=1, hands=hands, upcard=parse_card("H9"),
                               stock_top_first=parse_cards("S2 S3 S4 S5"))


def test_cards_show_rank_and_suit_in_red_or_black() -> None:
    for text, symbol, colour in [("H7", "7♥", "red"), ("DT", "10♦", "red"),
                                 ("CA", "A♣", "black"), ("SK", "K♠", "black")]:
        shown = face(parse_card(text))
        assert shown.plain == symbol
        assert colour in str(shown.style)
    assert inline(parse_cards("HQ S2")).plain == "Q♥ 2♠"
    assert [line.plain for line in card_box(parse_card("HT"))] == ["╭───╮", "│10♥│", "╰───╯"]


def test_moves_are_logged_in_words() -> None:
    state = readme_state()
    names = ["Ann", "Bob"]

    def made(move: str, own: bool = True) -> str:
        seat = state.to_move
        before = view(state, seat)
        done = state.play(move)
        return describe(names[seat], done, before, view(state, seat), own=own)

    assert made("take") == "Ann took 9♥ from the discard pile"
    assert made("meld H7 H8 H9") == "Ann melded 7♥ 8♥ 9♥ (meld 1)"
    assert made("discard SK") == "Ann discarded K♠"
    assert made("draw", own=False) == "Bob drew from the stock"
    assert made("discard S2") == "Bob discarded 2♠"
    assert made("draw") == "Ann drew 3♠ from the stock"
    assert made("discard S3") == "Ann discarded 3♠"
    assert made("take") == "Bob took 3♠ from the discard pile"


def test_only_legal_actions_are_offered() -> None:
    state = readme_state()
    seen = view(state, 0)
    assert offered(seen, []) == [Draw(), Take()]
    assert offered(view(state, 1), []) == []
    state.play("take")
    seen = view(state, 0)
    h7, h8, h9 = parse_cards("H7 H8 H9")
    assert offered(seen, [h9, h7, h8]) == [Meld(((h7, h8, h9),))]
    assert offered(seen, [h9]) == []  # the card just taken may not be discarded
    assert offered(seen, [parse_card("SK")]) == [Discard(parse_card("SK"))]
    assert "No legal move" in guidance(seen, [h9])
    state.play("meld H7 H8 H9")
    state.play("discard SK")
    state.play("draw")
    state.play("discard S2")
    state.play("draw")
    seen = view(state, 0)
    assert [str(m) for m in offered(seen, parse_cards("S3"))] == ["discard S3"]
    state.play("discard S3")
    state.play("draw")
    state.play("discard S4")
    state.play("draw")  # Ann draws S5
    seen = view(state, 0)
    assert all(isinstance(m, (Discard, LayOff)) for m in offered(seen, parse_cards("S5")))


def test_the_hand_sorts_by_suit_or_by_rank() -> None:
    seen = view(readme_state(), 0)
    assert ordered(seen, "suit") == parse_cards("C2 CQ D4 H7 H8 S9 SK")
    assert ordered(seen, "rank") == parse_cards("C2 D4 H7 H8 S9 CQ SK")


def test_the_new_game_setup_is_checked_by_the_rules() -> None:
    setup = build_setup("contract", "4", "Zed", "easy", {}, "9")
    assert setup == Setup(CONTRACT, "Zed", ("easy", "easy", "easy"), 9)
    chosen = {"ace_mode": "high_or_low", "max_melds_per_turn": 1,
              "must_discard_to_go_out": True, "target_score": 200}
    basic = build_setup("basic", "2", "Ann", "hard", chosen, "1")
    assert basic.rules.ace_mode == "high_or_low" and basic.rules.max_melds_per_turn == 1
    assert basic.rules.must_discard_to_go_out and basic.rules.target_score == 200
    with pytest.raises(ValueError, match="contract is for 3 to 8 players"):
        build_setup("contract", "2", "Ann", "easy", {}, "1")
    with pytest.raises(ValueError, match="2 bots named for 1 bot seats"):
        build_setup("basic", "2", "Ann", "easy,hard", {}, "1")
    with pytest.raises(ValueError, match="target_score"):  # a knob contract does not have
        build_setup("contract", "3", "Ann", "easy", {"target_score": 200}, "1")


def test_the_game_refuses_a_move_out_of_turn_and_hides_bot_draws() -> None:
    game = Game(Setup(BASIC, "Ann", ("greedy",), 3))
    assert game.state.to_move == 1
    with pytest.raises(ValueError, match="it is Bob's turn, not yours"):
        game.play("draw")
    seat, move = game.bot_choice()
    game.bot_play(seat, move)
    assert seat == 1
    if isinstance(move, Draw):  # the card Bob drew stays hidden
        assert game.log[-1] == "Bob drew from the stock"
    else:
        assert game.log[-1].startswith("Bob took ")


def test_the_end_of_a_hand_in_words() -> None:
    names = ("Ann", "Bob")
    rummy = HandResult(WIN, 1, True, None, (0, 40))
    assert outcome_words(rummy, names) == "Bob went out - going rummy, points doubled"
    assert outcome_words(rummy, names, 1) == "Bob went out - going rummy"
    plain = HandResult(WIN, 0, False, None, (12, 0))
    assert outcome_words(plain, names) == "Ann went out"
    drawn = HandResult(DRAW, None, False, DEADLOCK, (0, 0))
    assert outcome_words(drawn, names) == "drawn (deadlock), no points"
    assert winners_words((0, 1), names) == "Ann and Bob share the win!"
    assert winners_words((), names) == "No winner: a drawn hand ends the match."
