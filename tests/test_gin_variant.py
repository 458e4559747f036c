"""The registered gin family (variants/gin/variant.py): presets, options, dealing, words."""

from __future__ import annotations

import random

import pytest

from rummykit.core.cards import format_card, parse_card
from rummykit.core.errors import NotationError, RecordError
from rummykit.core.moves import Draw
from rummykit.variants.base import Terms
from rummykit.variants.gin.moves import Knock
from rummykit.variants.gin.rules import GIN, OKLAHOMA, GinRules, gin_rules_from_options
from rummykit.variants.gin.variant import GIN_FAMILY, GIN_KNOBS


def test_presets_and_knobs() -> None:
    assert GIN_FAMILY.rule_sets == ("gin", "oklahoma")
    assert GIN_FAMILY.preset("gin") is GIN and GIN_FAMILY.preset("oklahoma") is OKLAHOMA
    assert {"knock_limit", "hollywood", "tie_rule", "max_turns_per_hand"} <= GIN_KNOBS
    assert "name" not in GIN_KNOBS and "ace_mode" not in GIN_KNOBS
    rules = GIN_FAMILY.rules_from_options("oklahoma", {"oklahoma_ace": "one"})
    assert rules.oklahoma_ace == "one" and rules.options == {"oklahoma_ace": "one"}
    with pytest.raises(RecordError, match="'knock_limit'"):
        GIN_FAMILY.rules_from_options("gin", {"knock_limit": 11})


def test_two_players_only() -> None:
    GIN_FAMILY.check_supported(GIN, 2)
    with pytest.raises(RecordError, match="exactly 2 players, got 3"):
        GIN_FAMILY.check_supported(GIN, 3)
    with pytest.raises(RecordError, match="exactly 2 players"):
        GIN_FAMILY.deal(GIN, 4, 0, list(range(52)), rng=None, deal_index=0)


def test_case_1_deal_order_of_a_deck() -> None:
    deck = list(range(52))
    random.Random(4).shuffle(deck)
    hand = GIN_FAMILY.deal(GIN, 2, 0, deck, rng=None, deal_index=3)
    assert hand.dealer == 0 and hand.to_move == 1 and hand.deal_index == 3
    assert hand.hands[1] == sum(1 << c for c in deck[0:20:2])  # the non-dealer's
    assert hand.hands[0] == sum(1 << c for c in deck[1:20:2])
    assert hand.upcard == deck[20] and hand.discard == [deck[20]]
    assert hand.stock[-1] == deck[21] and len(hand.stock) == 31  # the stock top is last


def test_a_deal_as_given_and_restocks_refused() -> None:
    deck = list(range(52))
    hands = [deck[1:20:2], deck[0:20:2]]
    hand = GIN_FAMILY.from_deal(GIN, 0, (hands, deck[20], deck[21:]), rng=None, deal_index=0)
    assert hand.hands[0] == sum(1 << c for c in hands[0])
    with pytest.raises(RecordError, match="restocks"):
        GIN_FAMILY.from_deal(GIN, 0, (hands, deck[20], deck[21:]), rng=None, deal_index=0,
                             restocks=[deck[21:]])
    with pytest.raises(RecordError, match="restocks"):
        GIN_FAMILY.deal(GIN, 2, 0, deck, rng=None, deal_index=0, restocks=[[1, 2]])


def test_parse_move_and_terms() -> None:
    assert GIN_FAMILY.parse_move("DRAW") == Draw()
    assert GIN_FAMILY.parse_move("knock sk") == Knock(parse_card("SK"))
    with pytest.raises(NotationError, match="'hop'"):
        GIN_FAMILY.parse_move("hop")
    assert GIN_FAMILY.terms(GIN) == Terms("hand", "hands", "points", False, "game",
                                          title="Gin Rummy")


def test_deal_facts_follow_the_rules_and_the_hand() -> None:
    facts = {f.label: f.value for f in GIN_FAMILY.deal_facts(GIN, 2, 0)}
    assert facts == {"Knock limit": "10", "Game": "100", "Boxes": "25 a hand won"}
    hollywood = gin_rules_from_options("gin", {"hollywood": True, "target_score": 125})
    facts = {f.label: f.value for f in GIN_FAMILY.deal_facts(hollywood, 2, 0)}
    assert facts["Game"] == "3 games (Hollywood) to 125"
    single = gin_rules_from_options("gin", {"game_end": "single_hand"})
    assert [f.value for f in GIN_FAMILY.deal_facts(single, 2, 0)] == ["10", "one hand"]
    for upcard, limit in (("S6", "6, spade upcard: points doubled"), ("HA", "0 (gin only)"),
                          ("DK", "10")):
        deck = [c for c in range(52) if c != parse_card(upcard)]
        deck.insert(20, parse_card(upcard))
        hand = GIN_FAMILY.deal(OKLAHOMA, 2, 0, deck, rng=None, deal_index=0)
        facts = {f.label: f.value for f in GIN_FAMILY.deal_facts(OKLAHOMA, 2, 0, hand)}
        assert facts["Knock limit"] == limit, format_card(hand.upcard)
        assert facts["Game"] == "150"


@pytest.mark.parametrize("rules", [GIN, OKLAHOMA])
def test_every_offered_option_takes_its_default_and_its_choices(rules: GinRules) -> None:
    specs = GIN_FAMILY.options(rules)
    assert "hollywood" in {s.knob for s in specs}
    assert ("oklahoma_spade_double" in {s.knob for s in specs}) == (rules is OKLAHOMA)
    for spec in specs:
        assert spec.default == getattr(rules, spec.knob)
        values = list(spec.choices) if spec.kind == "choice" else (
            [True, False] if spec.kind == "bool" else [spec.minimum or 1, spec.maximum or 200])
        for value in values:
            again = GIN_FAMILY.rules_from_options(rules.name, {spec.knob: value})
            assert getattr(again, spec.knob) == value


def test_help_text_follows_the_knobs() -> None:
    text = GIN_FAMILY.help_text(GIN)
    assert "Knock limit: 10" in text and "reaches 100" in text and "Hollywood" not in text
    assert "A card taken from the discard pile may not be discarded" in text
    text = GIN_FAMILY.help_text(gin_rules_from_options(
        "gin", {"hollywood": True, "rediscard_ban": False, "wall_knock": False,
                "tie_rule": "no_score"}))
    assert "Hollywood" in text and "A tie scores nothing" in text
    assert "may not be discarded" not in text and "ends the hand, dead" in text
    assert "spade" in GIN_FAMILY.help_text(OKLAHOMA) and "reaches 150" in GIN_FAMILY.help_text(
        OKLAHOMA)
    assert "one hand" in GIN_FAMILY.help_text(gin_rules_from_options(
        "gin", {"game_end": "single_hand"}))
