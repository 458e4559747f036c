"""Gin rule sets (RULES.md §6.13, §6.13.1, §6.14.1) and gin move notation (FORMATS.md §4.1)."""

from __future__ import annotations

from typing import Any

import pytest

from rummykit.core.cards import parse_card, parse_cards
from rummykit.core.errors import NotationError, RecordError
from rummykit.core.moves import Discard, Draw, LayOff, Meld, Take
from rummykit.variants.gin.moves import BigGin, Done, Gin, Knock, Pass, move_text, parse_gin_move
from rummykit.variants.gin.rules import (
    GIN,
    OKLAHOMA,
    OPENSPIEL_OPTIONS,
    gin_rules_from_options,
    openspiel_profile,
)


def test_presets() -> None:
    assert (GIN.name, GIN.knock_limit, GIN.target_score, GIN.oklahoma) == ("gin", 10, 100, False)
    assert (OKLAHOMA.name, OKLAHOMA.target_score, OKLAHOMA.oklahoma) == ("oklahoma", 150, True)
    assert OKLAHOMA.spade_double and not GIN.spade_double
    assert GIN.rediscard_ban and GIN.tie_rule == "undercut" and GIN.big_gin_bonus is None
    assert (GIN.knock_test, GIN.layoff_rule, GIN.defender_melds) == ("exact", "standard", "auto")
    assert GIN.wall_knock and not GIN.repeated_move_draw and GIN.upcard_take_limit is None
    assert GIN.max_turns_per_hand == 1000 and GIN.options == {}
    on_gin = gin_rules_from_options("gin", {"oklahoma": True})
    assert on_gin.spade_double and on_gin.target_score == 100


def test_openspiel_profile_is_the_record_header() -> None:
    profile = openspiel_profile()
    assert profile.name == "gin" and profile.options == OPENSPIEL_OPTIONS
    assert (profile.tie_rule, profile.rediscard_ban, profile.knock_test) == (
        "no_score", False, "openspiel")
    assert (profile.layoff_rule, profile.defender_melds, profile.game_end) == (
        "openspiel", "explicit", "single_hand")
    assert profile.repeated_move_draw and profile.upcard_take_limit == 50
    oklahoma = openspiel_profile(oklahoma=True)
    assert oklahoma.name == "oklahoma" and not oklahoma.spade_double
    assert oklahoma.options == {**OPENSPIEL_OPTIONS, "oklahoma_spade_double": False}


@pytest.mark.parametrize(("upcard", "oklahoma_ace", "limit"), [
    (1, "gin_only", 0), (1, "one", 1), (2, "gin_only", 2), (9, "gin_only", 9),
    (10, "gin_only", 10), (13, "gin_only", 10),
])
def test_oklahoma_knock_limit_is_the_minimum(upcard: int, oklahoma_ace: str, limit: int) -> None:
    rules = gin_rules_from_options("oklahoma", {"oklahoma_ace": oklahoma_ace})
    assert rules.hand_knock_limit(upcard) == limit
    capped = gin_rules_from_options("oklahoma", {"oklahoma_ace": oklahoma_ace,
                                                 "knock_limit": 5})
    assert capped.hand_knock_limit(upcard) == min(limit, 5)
    assert GIN.hand_knock_limit(upcard) == 10


@pytest.mark.parametrize(("name", "options", "message"), [
    ("gin", {"knock_limit": 11}, "option 'knock_limit': expected an integer in 0..10, got 11"),
    ("gin", {"knock_limit": -1}, "expected an integer in 0..10, got -1"),
    ("gin", {"knock_limit": True}, "expected an integer in 0..10, got True"),
    ("gin", {"oklahoma_ace": "one"}, "option 'oklahoma_ace' requires oklahoma = true"),
    ("gin", {"oklahoma_spade_double": False}, "'oklahoma_spade_double' requires oklahoma"),
    ("oklahoma", {"oklahoma_ace": "two"}, "expected one of 'gin_only', 'one', got 'two'"),
    ("gin", {"repeated_move_draw": True}, "requires rediscard_ban = false"),
    ("gin", {"shutout_bonus": 50}, "'shutout_bonus' may be set only with shutout_rule 'flat'"),
    ("gin", {"game_end": "single_hand", "target_score": 100}, "'target_score' has no effect"),
    ("gin", {"game_end": "single_hand", "hollywood": False}, "'hollywood' has no effect"),
    ("gin", {"game_end": "single_hand", "next_dealer": "loser"}, "'next_dealer' has no"),
    ("gin", {"hollywood": True, "immediate_boxes": True}, "'hollywood' requires game_end"),
    ("gin", {"gin_bonus": -5}, "option 'gin_bonus': expected an integer >= 0, got -5"),
    ("gin", {"big_gin_bonus": "31"}, "option 'big_gin_bonus': expected an integer >= 0 or null"),
    ("gin", {"upcard_take_limit": 0}, "expected an integer >= 1 or null, got 0"),
    ("gin", {"target_score": 0}, "option 'target_score': expected an integer >= 1, got 0"),
    ("gin", {"tie_rule": "coin"}, "expected one of 'undercut', 'knocker_wins', 'no_score'"),
    ("gin", {"wall_knock": "yes"}, "option 'wall_knock': expected true or false, got 'yes'"),
    ("gin", {"game_end": "fixed_hands"}, "expected one of 'target', 'single_hand'"),
    ("gin", {"hand_size": 7}, "option 'hand_size' does not apply to the gin rule set"),
    ("oklahoma", {"stock_rebuild": "shuffle_all"}, "'stock_rebuild' does not apply"),
    ("gin", {"colour": "red"}, "unknown option 'colour'"),
    ("canasta", {}, "unknown rule set 'canasta'"),
])
def test_validation_quotes_the_option(name: str, options: dict[str, Any], message: str) -> None:
    with pytest.raises(RecordError) as caught:
        gin_rules_from_options(name, options)
    assert message in str(caught.value)


def test_valid_combinations_and_their_options() -> None:
    rules = gin_rules_from_options("gin", {"shutout_rule": "flat", "shutout_bonus": 50,
                                           "big_gin_bonus": None, "max_turns_per_hand": None})
    assert rules.shutout_bonus == 50 and rules.max_turns_per_hand is None
    assert rules.options == {"big_gin_bonus": None, "max_turns_per_hand": None,
                             "shutout_bonus": 50, "shutout_rule": "flat"}
    single = gin_rules_from_options("oklahoma", {"game_end": "single_hand",
                                                 "oklahoma_ace": "one"})
    assert single.game_end == "single_hand" and single.oklahoma_ace == "one"
    assert gin_rules_from_options("gin", {"hollywood": True}).hollywood
    with pytest.raises(RecordError, match="expected an object"):
        gin_rules_from_options("gin", ["tie_rule"])  # type: ignore[arg-type]


H = parse_card


@pytest.mark.parametrize(("text", "move"), [
    ("pass", Pass()),
    ("  DONE ", Done()),
    ("draw", Draw()),
    ("take", Take()),
    ("take 2", Take(2)),
    ("take sq", Take(card=H("SQ"))),
    ("discard h10", Discard(H("HT"))),
    ("knock SK", Knock(H("SK"))),
    ("knock SK:", Knock(H("SK"), ())),
    ("knock sk : h9 h8 h7 / c2 d2 s2", Knock(H("SK"), (tuple(parse_cards("H7 H8 H9")),
                                                       tuple(parse_cards("C2 D2 S2"))))),
    ("gin H4", Gin(H("H4"))),
    ("gin H4:SA S2 S3 S4", Gin(H("H4"), (tuple(parse_cards("SA S2 S3 S4")),))),
    ("gin", BigGin()),
    ("gin: C7 D7 H7", BigGin((tuple(parse_cards("C7 D7 H7")),))),
    ("lay h6", LayOff(H("H6"), 0)),
    ("lay H6 on 2", LayOff(H("H6"), 2)),
    ("meld S4 S5 S6", Meld((tuple(parse_cards("S4 S5 S6")),))),
])
def test_parse(text: str, move: object) -> None:
    assert parse_gin_move(text) == move


@pytest.mark.parametrize(("move", "text"), [
    (Knock(H("SK"), (tuple(parse_cards("H7 H8 H9")), tuple(parse_cards("C2 D2 S2")))),
     "knock SK: H7 H8 H9 / C2 D2 S2"),
    (Knock(H("SK"), ()), "knock SK:"),
    (Knock(H("SK")), "knock SK"),
    (Gin(H("H4"), (tuple(parse_cards("SA S2 S3")),)), "gin H4: SA S2 S3"),
    (BigGin((tuple(parse_cards("C7 D7 H7")),)), "gin: C7 D7 H7"),
    (BigGin(), "gin"),
    (LayOff(H("H6"), 0), "lay H6"),
    (LayOff(H("H6"), 1), "lay H6 on 1"),
])
def test_texts_round_trip(move: Any, text: str) -> None:
    assert move_text(move) == text
    assert parse_gin_move(text) == move


@pytest.mark.parametrize(("text", "message"), [
    ("", "empty move"),
    ("knock", "expected 'knock CARD [: MELD / MELD ...]'"),
    ("knock : H7 H8 H9", "expected 'knock CARD"),
    ("knock SK H7 H8 H9", "expected 'knock CARD"),
    ("knock XK", "bad card 'XK'"),
    ("knock SK: H7 H8", "bad meld group 'H7 H8'"),
    ("gin H4 SA", "expected 'gin CARD"),
    ("gin JK", "gin is played without jokers"),
    ("pass now", "expected 'pass' alone"),
    ("done 1", "expected 'done' alone"),
    ("discard SK: H7", "bad token ':'"),
    ("swap H7 on 1", "unknown keyword 'swap'"),
    ("fold", "unknown keyword 'fold'"),
    ("pass \u00e9", "the notation is ASCII"),
])
def test_parse_errors_quote_the_input(text: str, message: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_gin_move(text)
    assert message in str(caught.value)
