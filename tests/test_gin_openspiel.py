"""Our gin against OpenSpiel's gin_rummy (RULES.md §6.14): the differential test, seeded part.

The whole run (10,000 hands per variant) is `make gin-diff`. Here: a seeded part of it per
variant (RUMMYKIT_GIN_DIFF_HANDS hands, default 600), OpenSpiel's GameplayTest1 through the
mapping, the knock-test cases 30-31 of §6.15 on both engines, and checks that the harness
does see a difference when our rules differ from the profile.
"""

from __future__ import annotations

import dataclasses
import os
import random
import subprocess
import sys

import pyspiel
import pytest

from rummykit.core.cards import parse_card, parse_cards
from rummykit.rl.openspiel_gin import (
    KNOCK,
    MELD_BASE,
    PASS,
    TAKE,
    Deal,
    OsHand,
    game,
    new_state,
    os_card,
)
from rummykit.rl.openspiel_gin_diff import PAIRINGS, Lockstep, compare_hand, run
from rummykit.rl.openspiel_gin_policies import Scripted, make_policy
from rummykit.variants.gin.moves import Gin, Knock
from rummykit.variants.gin.rules import openspiel_profile

HANDS = int(os.environ.get("RUMMYKIT_GIN_DIFF_HANDS", "600"))


def _deal(seat0: str, seat1: str, upcard: str, stock_top: str = "") -> Deal:
    """A deal with the given hands and upcard; the stock starts with ``stock_top``."""
    used = [*parse_cards(seat0), *parse_cards(seat1), parse_card(upcard)]
    top = parse_cards(stock_top) if stock_top else []
    rest = [c for c in range(52) if c not in used and c not in top]
    random.Random(0).shuffle(rest)
    return Deal((tuple(parse_cards(seat0)), tuple(parse_cards(seat1))), parse_card(upcard),
                tuple([*top, *rest]))


def _failures(tally: object) -> str:
    examples = getattr(tally, "examples", [])
    return "\n".join("; ".join(r.disagreements) + "\n  " + r.reproduction() for r in examples)


@pytest.mark.parametrize("oklahoma", [False, True], ids=["gin", "oklahoma"])
def test_seeded_differential_run_has_no_disagreement(oklahoma: bool) -> None:
    tally = run(HANDS, seed=20261201, oklahoma_values=(oklahoma,))
    assert tally.disagreements == 0, _failures(tally)
    variant = "oklahoma" if oklahoma else "gin"
    assert tally.hands[variant] == HANDS
    assert tally.decisions > 40 * HANDS
    reasons = {key.split()[1] for key in tally.reasons}
    # every way a hand of the profile ends, but the tie (1-2 in 300 hands)
    assert {"knock", "gin", "undercut", "dead_hand", "repeated_move",
            "upcard_limit"} <= reasons, reasons
    assert {"firstupcard", "draw", "discard", "knock discard", "knock meld", "lay-off",
            "meld step", "wall", "edge: knock at the limit",
            "edge: lay-off two beyond a run's end"} <= set(tally.kinds), tally.kinds


def test_openspiel_gameplay_test_1_maps_onto_the_formats_example() -> None:
    # FORMATS.md §4.2: OpenSpiel's GameplayTest1 (gin_rummy_test.cc:142-210)
    deal = _deal("SQ S5 S6 S7 C9 CT CJ SK CK DK", "S2 C2 D2 H2 S8 C8 D8 S9 C7 CA", "DJ")
    cards = [os_card(parse_card(c)) for c in ("S8", "S9", "C8", "C7")]
    actions = [TAKE, KNOCK, os_card(parse_card("SQ")), 119, 125, 140, PASS,
               *cards, PASS, 65, PASS]
    script = Scripted(actions)
    report = compare_hand(deal, False, [script, script], random.Random(0))
    assert report.disagreements == []
    assert report.moves == ["take", "knock SQ: CK DK SK / S5 S6 S7 / C9 CT CJ",
                            "lay S8 on 2", "lay S9 on 2", "lay C8 on 3", "lay C7 on 3",
                            "meld C2 D2 H2 S2", "done"]
    assert report.reason == "undercut"
    step = Lockstep(deal, False)
    for action in actions:
        step.apply(action)
    assert step.os.returns() == (-26, 26)
    assert step.ours.result is not None and step.ours.result.scores == (0, 26)


def _at_discard(deal: Deal, oklahoma: bool) -> Lockstep:
    step = Lockstep(deal, oklahoma)
    for action in (PASS, PASS, 53):  # both pass, the non-dealer draws
        step.check_state()
        step.compare_legal()
        step.apply(action)
    step.check_state()
    step.compare_legal()
    assert step.report.disagreements == []
    return step


def test_case_30_knock_test_refuses_in_both_engines() -> None:
    deal = _deal("H4 C5 C6 H6 S6 C7 D7 H7 S7 CA", "SA S2 S3 D9 DT DJ HQ HK SJ SQ", "C2", "C8")
    step = _at_discard(deal, False)
    assert KNOCK not in step.os.legal()
    knock = Knock(parse_card("C8"), (tuple(parse_cards("C6 H6 S6")),
                                     tuple(parse_cards("C7 D7 H7 S7"))))
    assert not step.ours.is_legal(knock)
    exact = Lockstep(deal, False, dataclasses.replace(openspiel_profile(), knock_test="exact"))
    for action in (PASS, PASS, 53):
        exact.apply(action)
    assert exact.ours.is_legal(knock)


def test_case_31_oklahoma_ace_gin_refused_by_the_knock_test_in_both() -> None:
    deal = _deal("SA S2 S3 S4 CA C2 C3 D2 D3 D4", "S9 ST SJ C9 CT CJ H9 HT HJ HQ", "DA", "H4")
    step = _at_discard(deal, True)
    assert int(step.os.state.knock_card()) == 0 == step.ours.knock_limit
    assert KNOCK not in step.os.legal()
    gin = Gin(parse_card("H4"), (tuple(parse_cards("SA S2 S3 S4")),
                                 tuple(parse_cards("CA C2 C3")), tuple(parse_cards("D2 D3 D4"))))
    assert not step.ours.is_legal(gin)


def test_a_knock_sequence_is_compared_meld_by_meld() -> None:
    # After the knock's discard, each meld OpenSpiel offers is one we can complete.
    deal = _deal("SQ S5 S6 S7 C9 CT CJ SK CK DK", "S2 C2 D2 H2 S8 C8 D8 S9 C7 CA", "DJ")
    step = Lockstep(deal, False)
    for action in (TAKE, KNOCK, os_card(parse_card("SQ")), 119):
        step.check_state()
        step.compare_legal()
        step.apply(action)
    step.compare_legal()
    legal = step.os.legal()
    assert sorted(a - MELD_BASE for a in legal if a >= MELD_BASE) == [69, 84]  # S5-S7, C9-CJ
    assert PASS not in legal
    assert step.report.disagreements == []


@pytest.mark.parametrize(("knob", "value", "found"), [
    ("rediscard_ban", True, "discards"),
    ("tie_rule", "undercut", "returns"),
    ("defender_melds", "auto", "returns"),
    ("wall_knock", False, "our hand is over"),
    ("layoff_rule", "standard", "lay"),
    ("repeated_move_draw", False, "OpenSpiel's hand is over"),
    ("upcard_take_limit", 49, "our hand is over (draw upcard_limit)"),
    ("undercut_bonus", 20, "returns"),
])
def test_the_harness_sees_a_rule_difference(knob: str, value: object, found: str) -> None:
    rules = dataclasses.replace(openspiel_profile(), **{knob: value})
    rng = random.Random(7)
    seen: list[str] = []
    for i in range(2000):  # ties and undercuts are rare (about 1 hand in 150)
        pairing = PAIRINGS[i % len(PAIRINGS)]
        report = compare_hand(Deal.shuffled(rng), False, [make_policy(p) for p in pairing],
                              rng, rules)
        if report.disagreements:
            seen = report.disagreements
            break
    assert seen and found in seen[0], seen


def test_os_hand_feeds_the_stock_in_deal_order() -> None:
    deal = Deal.shuffled(random.Random(11))
    hand = OsHand(False, deal)
    for action in (PASS, PASS, 53):
        hand.apply(action)
    hand.apply(hand.legal()[0])  # a discard
    hand.apply(53)
    assert os_card(deal.stock[1]) in hand.hand(1)
    assert int(hand.state.stock_size()) == 29


@pytest.mark.parametrize("oklahoma", [False, True], ids=["gin", "oklahoma"])
def test_games_openspiel_played_alone_replay_on_our_engine(oklahoma: bool) -> None:
    # OpenSpiel plays whole games in C++ with its own chance (SimpleGinRummyBot against a
    # uniform random bot); the deal is read back from the chance outcomes and both engines
    # replay the actions.
    params = game(oklahoma).get_parameters()
    for seed in range(12):
        simple = seed % 2  # the seat SimpleGinRummyBot plays
        bots = [pyspiel.make_simple_gin_rummy_bot(params, p) if p == simple else
                pyspiel.make_uniform_random_bot(p, seed) for p in (0, 1)]
        state = new_state(oklahoma)
        returns = pyspiel.evaluate_bots(state, bots, seed)
        deal, actions = Deal.from_openspiel(state)
        script = Scripted(actions)
        report = compare_hand(deal, oklahoma, [script, script], random.Random(0))
        assert report.disagreements == [], report.reproduction()
        step = Lockstep(deal, oklahoma)
        for action in actions:
            step.apply(action)
        assert step.os.returns() == tuple(int(r) for r in returns)
        assert step.ours.result is not None
        scores = step.ours.result.scores
        assert scores[0] - scores[1] == int(returns[0])


def test_without_open_spiel_the_harness_names_the_extra() -> None:
    code = ("import sys\nsys.modules['pyspiel'] = None\n"
            "try:\n    import rummykit.rl.openspiel_gin_diff\n"
            "except ImportError as error:\n    print(type(error).__name__, error)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("MissingExtraError rummykit.rl.openspiel_gin needs the 'rl'")


def test_the_cpu_time_comparison_runs_all_three_loops() -> None:
    from rummykit.benchmark.gin import cpu_rounds

    (found,) = cpu_rounds(1, 0.05, seed=3)
    assert all(value > 0 for value in found.values()), found
    assert found["moves/s ours / OpenSpiel Python"] == pytest.approx(
        found["ours moves/s"] / found["OpenSpiel Python moves/s"])
