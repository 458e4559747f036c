"""The expert's Contract Rummy play: legal moves, view-only decisions, strength, hints."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rummykit.bots import contract_levels, contract_race, contract_shape
from rummykit.bots.contract_expert import Skill, ranked, skill_for
from rummykit.bots.expert import ExpertBot
from rummykit.bots.greedy_contract import choose_contract
from rummykit.core.cards import parse_cards
from rummykit.core.engine import HandState
from rummykit.core.views import resample, view
from rummykit.variants import CONTRACT
from rummykit.variants.contract.view import contract_part

RULES = dataclasses.replace(CONTRACT, max_turns_per_hand=160)


def _hand(players: int, deal: int, seed: int) -> HandState:
    return HandState.deal(RULES, players, dealer=seed % players, rng=random.Random(seed),
                          deal_index=deal)


@pytest.mark.parametrize("players", [3, 4])
def test_expert_moves_are_legal(players: int) -> None:
    bot = ExpertBot.for_level("medium")
    rng = random.Random(players)
    for deal in range(7):
        state = _hand(players, deal, 10 * players + deal)
        while not state.is_over:
            seat = state.to_move
            seen = view(state, seat)
            move = bot.choose(seen, rng) if seat != 1 else choose_contract(seen)
            assert move in seen.legal
            state.play(move)


def test_choice_depends_on_the_view_only() -> None:
    bot = ExpertBot.for_level("medium")
    checked = 0
    for deal in (1, 4, 6):
        state = _hand(4, deal, 70 + deal)
        while not state.is_over and state.turn_count < 40:
            seat = state.to_move
            seen = view(state, seat)
            if seat == 0 and len(seen.legal) > 1:
                other = resample(seen, random.Random(checked))
                seen_again = view(other, seat)
                assert seen_again == seen
                assert (bot.choose(seen, random.Random(5))
                        == bot.choose(seen_again, random.Random(5)))
                checked += 1
            state.play(choose_contract(seen))
    assert checked > 20


def test_medium_beats_greedy_in_the_seventh_deal() -> None:
    """Tripwire: counting the unseen draws that bring the hand closer to three runs
    (every level; ``medium`` without the search) against the greedy count of cards held."""
    bot = ExpertBot.for_level("medium")
    rules = dataclasses.replace(CONTRACT, max_turns_per_hand=240)
    expert = greedy = 0
    for seed in range(6):
        state = HandState.deal(rules, 4, dealer=seed % 4, rng=random.Random(seed),
                               deal_index=6)
        rng = random.Random(seed)
        while not state.is_over:
            seen = view(state, state.to_move)
            state.play(bot.choose(seen, rng) if state.to_move == 0 else choose_contract(seen))
        assert state.result is not None
        expert += state.result.scores[0]
        greedy += sum(state.result.scores[1:])
    assert expert * 3 < greedy / 2


def test_analyse_recommends_the_levels_move_then_the_others_best_first() -> None:
    """The hint's first move is the level's own (deal 7: the race's), whatever the
    playouts estimate; the other candidates follow best first, with real estimates."""
    bot = ExpertBot.for_level("medium")
    looked = 0
    estimated = set()
    for deal in (0, 2, 6):
        state = _hand(4, deal, 90 + deal)
        while not state.is_over and state.turn_count < 24:
            seen = view(state, state.to_move)
            analysis = bot.analyse(seen, random.Random(1))
            values = [c.value for c in analysis.candidates]
            if len(values) > 1:
                own = contract_race.choose(seen) if deal == 6 \
                    else bot.choose(seen, random.Random(1))
                assert analysis.best == own
                estimated.update(values)
                values = values[1:]
            assert values == sorted(values, reverse=True)
            assert all(c.move in seen.legal for c in analysis.candidates)
            looked += len(analysis.candidates) > 1
            state.play(bot.choose(seen, random.Random(1)))
    assert looked > 5 and len(estimated) > 3


def test_shape_counts_cards_three_runs_hold() -> None:
    hand = parse_cards("H5 H6 H7 C2 C3 C4 SQ SK SA H8 C5 SJ")
    assert contract_shape.coverage(hand, 13)[0] == 12
    left = [2] * 52 + [1]
    assert contract_shape.outs(hand, 13, left) > 0
    assert contract_shape.coverage(parse_cards("H5 H5 H9 CK DK SK"), 13)[0] <= 5


def test_all_greedy_seventh_deals_end_by_going_out() -> None:
    """The greedy bot, the baseline opponent, goes down (out) in deal 7 when it can."""
    for seed in range(4):
        state = HandState.deal(CONTRACT, 4, dealer=seed, rng=random.Random(seed),
                               deal_index=6)
        while not state.is_over:
            state.play(choose_contract(view(state, state.to_move)))
        assert state.result is not None and state.result.winner is not None, seed
        assert state.turn_count < 400


def test_levels_differ_by_what_they_know() -> None:
    levels = [contract_levels.level_for(ExpertBot.for_level(level).budget)
              for level in ("medium", "hard", "expert")]
    # the pairing takes and the race discards measured no better (module docstrings)
    assert all(level.skill == Skill(True, False, False) for level in levels)
    assert [level.draw_worlds for level in levels] == [0, 8, 24]
    assert skill_for(ExpertBot.for_level("expert").budget) == Skill(True, True, True)
    # medium and greedy draw (the top S2 only pairs with the loose D2); the searching
    # levels weigh the take in sampled worlds and may take it
    hand = parse_cards("C8 D8 H8 CK DK S4 D2 H5 C9 SJ")
    state = HandState.from_deal(CONTRACT, 2, [hand, parse_cards("CJ CQ DJ DQ SJ SQ C9 D9 S9 DT"),
                                              parse_cards("CT ST C5 D5 S5 C6 D6 S6 CA DA")],
                                parse_cards("S2")[0], parse_cards("C4 C7 D7 H9 HT HJ HQ SA"))
    seen = view(state, 0)
    moves = [ExpertBot.for_level(level).choose(seen, random.Random(1))
             for level in ("medium", "hard", "expert")]
    assert str(moves[0]) == "draw" and all(str(m) in ("draw", "take") for m in moves)
    assert str(choose_contract(seen)) == "draw"


def test_expert_race_discards_shed_points_without_feeding() -> None:
    """Seats 1 and 2 are down (sets of 9s and Js on the table): greedy throws H9 (a card
    they can lay off), the levels their low loose C3; the race discards (shed the highest
    loose card that feeds nobody: CK, breaking the K pair) are no level's any more (they
    measured worse in deals 1 and 4), but stay in the heuristics (``Skill``)."""
    from rummykit.bots import make_bot

    state = HandState.from_deal(
        CONTRACT, 2, [parse_cards("C8 D8 H8 CK DK HJ H9 S4 D4 S8"),
                      parse_cards("CJ DJ SJ C9 D9 S9 CQ DQ DT H2"),
                      parse_cards("CT ST C5 D5 S5 C6 D6 S6 CA DA")],
        parse_cards("S3")[0], parse_cards("C2 D2 H3 C3 D3 H4 D8"))
    greedy = make_bot("greedy")
    rng = random.Random(0)
    state.play("draw")
    while state.phase != "draw" or state.to_move != 0:
        if state.phase == "draw" and state.to_move != 0:
            state.play("draw")
        else:
            state.play(greedy.choose(view(state, state.to_move), rng))
    state.play("draw")
    seen = view(state, 0)
    assert contract_part(seen).down == 0b110
    found = {level: str(make_bot(level).choose(seen, random.Random(1)))
             for level in ("greedy", "medium", "hard", "expert")}
    assert found == {"greedy": "discard H9", "medium": "discard C3", "hard": "discard C3",
                     "expert": "discard C3"}
    assert str(ranked(seen, Skill(True, True, True))[0][0]) == "discard CK"
