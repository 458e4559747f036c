"""The variant layer: the registry, the built-in families' hooks, and a new family
registered from outside the core (in a fresh interpreter, so the registry of this one is
left as it is)."""

from __future__ import annotations

import dataclasses
import itertools
import random
import subprocess
import sys
import textwrap

import pytest

from rummykit.core.engine import HandState
from rummykit.core.errors import RecordError
from rummykit.core.match import Match
from rummykit.core.outcome import DRAW, WIN, HandResult
from rummykit.core.rules import PRESETS, Rules, find_rules, preset_names
from rummykit.variants import BASIC, CONTRACT, CONTRACT_FAMILY, GIN_FAMILY, RUMMY, TRADITIONAL
from rummykit.variants.contract.hand import ContractHand
from rummykit.variants.registry import (
    families,
    register,
    rule_set_names,
    variant_for,
    variant_of,
)


def test_every_rule_set_has_one_family_and_the_core_knows_them_all() -> None:
    assert rule_set_names() == preset_names() == ("basic", "traditional", "contract")
    assert families() == (RUMMY, CONTRACT_FAMILY, GIN_FAMILY)  # gin: its own rules type
    assert [variant_for(n) for n in rule_set_names()] == [RUMMY, RUMMY, CONTRACT_FAMILY]
    assert PRESETS == {"basic": BASIC, "traditional": TRADITIONAL, "contract": CONTRACT}
    assert all(variant_of(find_rules(n)).preset(n) is find_rules(n) for n in rule_set_names())


def test_an_unknown_rule_set_is_refused_by_name() -> None:
    # 'gin' is registered now (with its own rules type): 'canasta' is the unknown one
    with pytest.raises(RecordError, match="unknown rule set 'canasta': expected one of basic, "
                                          "traditional, contract, gin, oklahoma"):
        variant_for("canasta")
    with pytest.raises(RecordError, match="unknown rule set 'canasta'"):
        Rules.from_options("canasta", {})
    with pytest.raises(RecordError, match="unknown rule set 'canasta'"):
        find_rules("canasta")
    with pytest.raises(RecordError, match="rule set 'gin': its rules are GinRules"):
        find_rules("gin")


def test_a_family_cannot_register_twice() -> None:
    with pytest.raises(ValueError, match="rule family 'rummy': already registered"):
        register(RUMMY)
    assert rule_set_names() == ("basic", "traditional", "contract")


def test_the_contract_family_deals_its_own_hand_and_the_rummy_family_the_plain_one() -> None:
    assert type(HandState.deal(BASIC, 2, rng=random.Random(1))) is HandState
    dealt = HandState.deal(CONTRACT, 3, rng=random.Random(1))
    assert type(dealt) is ContractHand and type(dealt.copy()) is ContractHand
    assert type(Match(CONTRACT, ["A", "B", "C"], seed=2).start_hand()) is ContractHand


def test_each_family_checks_its_own_options() -> None:
    with pytest.raises(RecordError, match="'num_hands' must equal the length"):
        Rules.from_options("contract", {"num_hands": 3})
    with pytest.raises(RecordError, match="'discard_dig' and 'joker_swap' exist only"):
        Rules.from_options("basic", {"discard_dig": True})
    with pytest.raises(RecordError, match="'joker_swap' does not apply to the basic"):
        Rules.from_options("basic", {"joker_swap": True})


def test_terms_and_deal_facts_follow_the_rules() -> None:
    penalty_basic = Rules.from_options("basic", {"scoring": "penalty",
                                                 "game_end": "fixed_hands", "num_hands": 4})
    assert RUMMY.terms(penalty_basic).score == "penalty points"
    assert RUMMY.terms(penalty_basic).lowest_wins
    # a deal's facts are what differs from deal to deal (the faces show the hand's number
    # and the goal themselves): nothing in rummy, the contract in contract
    assert RUMMY.deal_facts(penalty_basic, 2, 1) == ()
    assert RUMMY.deal_facts(TRADITIONAL, 4, 0) == ()
    assert CONTRACT_FAMILY.terms(CONTRACT).hand == "deal"
    facts = CONTRACT_FAMILY.deal_facts(CONTRACT, 3, 6)
    assert [f.label for f in facts] == ["Contract"]
    assert facts[0].value == "3 runs (of different suits), all cards at once with no discard"
    assert "Penalty points: " in CONTRACT_FAMILY.help_text(CONTRACT)
    assert "reaches 150 points" in RUMMY.help_text(BASIC)
    assert "4 hands; the lowest total wins" in RUMMY.help_text(penalty_basic)
    assert "Match: 1 hand; the lowest total wins" in RUMMY.help_text(
        dataclasses.replace(penalty_basic, num_hands=1))
    assert "200 with four" in RUMMY.help_text(TRADITIONAL)
    for family in families():
        for name in family.rule_sets:
            rules = family.preset(name)
            for option in family.options(rules):
                if option.kind == "preset":  # it sets knobs of the family, each choice valid
                    for chosen in option.sets:
                        assert set(chosen) <= family.knobs(name)
                        family.rules_from_options(name, chosen)
                    continue
                assert option.knob in family.knobs(name)
                family.rules_from_options(name, {option.knob: option.default})


def test_the_score_sheet_ends_and_decides_as_the_knobs_say() -> None:
    sheet = RUMMY.match_scorer(TRADITIONAL, 2)
    sheet.after_hand(HandResult(WIN, 0, False, None, (60, 0)), 1)
    copy = sheet.copy()
    sheet.after_hand(HandResult(DRAW, None, False, "stock_exhausted", (0, 0)), 2)
    assert sheet.over and sheet.winners == () and not copy.over
    copy.after_hand(HandResult(WIN, 1, False, None, (0, 100)), 2)
    assert copy.over and copy.winners == (1,) and copy.totals == [60, 100]
    contract = CONTRACT_FAMILY.match_scorer(CONTRACT, 3)
    for hand in range(1, 8):
        contract.after_hand(HandResult(WIN, 0, False, None, (0, 5, 5)), hand)
        assert contract.over == (hand == 7)
    assert contract.winners == (0,) and contract.lowest_wins
    assert [contract.dealer_of(2, i, []) for i in range(4)] == [2, 0, 1, 2]


NEW_FAMILY = textwrap.dedent('''
    import dataclasses, random
    from rummykit.core.match import Match
    from rummykit.core.rules import Rules, find_rules
    from rummykit.core.scoring import RotationScorer
    from rummykit.variants.registry import register, rule_set_names
    from rummykit.variants.rummy.variant import KNOBS, RummyFamily

    class WinnerDeals(RotationScorer):
        def dealer_of(self, first_dealer, hand_index, results):
            winner = results[hand_index - 1].winner if hand_index else None
            return first_dealer if winner is None else winner

    class Toy(RummyFamily):
        name = "toy"
        rule_sets = ("toy",)
        def match_scorer(self, rules, num_players):
            return WinnerDeals(rules, num_players)

    toy = dataclasses.replace(find_rules("basic"), name="toy", target_score=30)
    register(Toy({"toy": toy}, {"toy": KNOBS["basic"]}))
    print(rule_set_names())
    print(Rules.from_options("toy", {"ace_mode": "high_or_low"}).ace_value)
    match = Match(find_rules("toy"), ["Ann", "Bob"], seed=3, dealer=0)
    rng = random.Random(4)
    while not match.over:
        state = match.start_hand()
        while not state.is_over:
            match.play(rng.choice(state.legal_moves()))
        print(match.dealer_of(len(match.hands) - 1), state.result.winner)
    print(match.winners, match.totals)
''')


def test_a_new_family_is_known_everywhere_once_registered() -> None:
    run = subprocess.run([sys.executable, "-c", NEW_FAMILY], capture_output=True, text=True,
                         timeout=120, check=True)
    lines = run.stdout.splitlines()
    assert lines[0] == "('basic', 'traditional', 'contract', 'toy')"
    assert lines[1] == "15"
    hands = [tuple(int(x) if x != "None" else None for x in line.split())
             for line in lines[2:-1]]
    assert hands
    for (_, winner), (dealer, _) in itertools.pairwise(hands):
        assert winner is None or dealer == winner  # the winner of a hand deals the next
    assert lines[-1].startswith("(") and "[" in lines[-1]
