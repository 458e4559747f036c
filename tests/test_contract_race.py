"""The expert's seventh deal as a race (bots.contract_race): legal moves, the estimate,
shedding high cards when going out is far off, keeping them when it is near."""

from __future__ import annotations

import random

import pytest

from rummykit.bots import contract_race, contract_shape, make_bot
from rummykit.core.cards import JOKER, parse_cards, standard_pack
from rummykit.core.engine import HandState
from rummykit.core.views import view
from rummykit.variants import CONTRACT

FILLER = ("C2 C3 C4 D2 D3 D4 S2 S3 S4 H2 H3 H4", "C6 C7 C8 D6 D7 D8 S6 S7 S8 H6 H7 H8",
          "CT CJ CQ DT DJ DQ ST SJ SQ HT HJ HQ")


def _seventh(hand: str, stock: str, turns: int = 0) -> HandState:
    """A 4-player deal 7 ``turns`` turns in, seat 1 to draw ``hand``, the stock top first
    ``stock``."""
    hands = [parse_cards(FILLER[0]), parse_cards(hand), parse_cards(FILLER[1]),
             parse_cards(FILLER[2])]
    state = HandState.from_deal(CONTRACT, 0, hands, parse_cards("D5")[0],
                                parse_cards(stock), deal_index=6)
    state.turn_count = turns
    return state


@pytest.mark.parametrize("players", [3, 4])
def test_race_moves_are_legal_and_deals_end(players: int) -> None:
    bots = [make_bot("expert")] + [make_bot("greedy")] * (players - 1)
    rng = random.Random(3)
    state = HandState.deal(CONTRACT, players, dealer=0, rng=random.Random(20 + players),
                           deal_index=6)
    while not state.is_over:
        seen = view(state, state.to_move)
        move = bots[state.to_move].choose(seen, rng)
        assert move in seen.legal
        state.play(move)
    assert state.result is not None and state.result.winner is not None


def test_draw_counts_are_improving_and_outs() -> None:
    rng = random.Random(5)
    deck = [c for c in range(52) for _ in range(2)] + [JOKER]
    for _ in range(150):
        cards = rng.sample(deck, 12)
        left = [2] * 52 + [1]
        for card in cards:
            left[card] -= 1
        for card in rng.sample(range(53), 8):
            left[card] = 0
        assert contract_shape.draw_counts(cards, 13, left) == (
            contract_shape.improving(cards, 13, left), contract_shape.outs(cards, 13, left))
    near = parse_cards("HA HK HQ HJ S2 S3 S4 S5 D6 D7 D8")  # 11 held, two cards to draw
    left = [2] * 52 + [1]
    assert contract_shape.draw_counts(near, 12, left)[1] > 0


def test_far_from_three_runs_the_race_sheds_a_high_card_that_fits() -> None:
    """A scattered hand ten rounds in: greedy and medium keep the run HA HK HQ and throw a
    low loose card; the race, far from going out, throws the ace (15 points). In the first
    round it races (the drawn S9, as loose as any)."""
    state = _seventh("HA HK HQ C5 D9 S3 C8 D2 S6 H5 C9 D7", "S9 CA", turns=40)
    state.play("draw")
    seen = view(state, 1)
    assert str(contract_race.choose(seen)) == "discard HA"
    early = _seventh("HA HK HQ C5 D9 S3 C8 D2 S6 H5 C9 D7", "S9 CA")
    early.play("draw")
    assert str(contract_race.choose(view(early, 1))) == "discard S9"
    for level in ("greedy", "medium"):
        assert str(make_bot(level).choose(seen, random.Random(1))) != "discard HA"


def test_one_card_from_three_runs_the_race_keeps_its_high_cards() -> None:
    """Three runs but for C9: the race throws C9 and keeps the ace and king."""
    state = _seventh("HA HK HQ HJ S2 S3 S4 S5 D6 D7 D8 C9", "D9 CA", turns=40)
    state.play("draw")
    assert str(contract_race.choose(view(state, 1))) == "discard C9"


def test_one_card_from_three_runs_late_the_race_still_waits_for_its_outs() -> None:
    """Round 20, three runs but for CQ once D2 goes: the race throws D2. On the logistic
    alone (no ``ready_chance``) it threw CK, breaking the run for 8 points fewer."""
    state = _seventh("CT CJ CK HA H2 H3 H4 S2 S3 S4 S5 C9", "D2 CA", turns=80)
    state.play("draw")
    seen = view(state, 1)
    assert str(contract_race.choose(seen)) == "discard D2"
    left = contract_race.unseen(seen)
    kept = parse_cards("C9 CT CJ CK HA H2 H3 H4 S2 S3 S4 S5")
    outs = contract_shape.draw_counts(kept, 13, left)[1]
    assert outs == 3  # the two CQ and the joker
    ready = contract_race.ready_chance(outs, sum(left), 20, 3)
    assert ready > contract_race.win_chance(0, outs, 20)


def test_the_ready_chance_rises_with_the_outs_and_falls_with_rounds_and_seats() -> None:
    by_outs = [contract_race.ready_chance(n, 70, 10, 3) for n in range(0, 13, 2)]
    assert by_outs[0] == 0 and by_outs == sorted(by_outs) and by_outs[-1] < 1
    assert contract_race.ready_chance(4, 70, 20, 3) < contract_race.ready_chance(4, 70, 2, 3)
    assert contract_race.ready_chance(4, 70, 10, 3) < contract_race.ready_chance(4, 70, 10, 2)
    assert contract_race.ready_chance(4, 0, 10, 3) > 0  # every unseen card completes it


def test_the_chance_falls_with_the_cards_missing_and_the_rounds() -> None:
    chances = [contract_race.win_chance(m, 8, 4) for m in range(6)]
    assert chances == sorted(chances, reverse=True) and 0 < chances[-1] < chances[0] < 1
    assert contract_race.win_chance(1, 8, 20) < contract_race.win_chance(1, 8, 2)


def test_a_deal_past_long_rounds_counts_its_rounds_from_zero_again() -> None:
    """The scattered hand above: at round LONG_ROUNDS it races again as in round 0 (throws
    the drawn S9), and ten rounds later it sheds the ace as at round 10."""
    long = 4 * contract_race.LONG_ROUNDS
    for turns, thrown in ((long, "discard S9"), (long + 40, "discard HA"),
                          (long - 4, "discard HA")):
        state = _seventh("HA HK HQ C5 D9 S3 C8 D2 S6 H5 C9 D7", "S9 CA", turns=turns)
        state.play("draw")
        assert str(contract_race.choose(view(state, 1))) == thrown, turns


#: three experts' hands 900 turns into a deal 7 that ran to the 1,000-turn valve (seed 43,
#: match 9 of ``contract_bots --ends expert --players 3``): each held twelve low cards,
#: three or four short of three runs, and threw every card it drew, jokers included
STALLED = ("C2 C3 D3 D3 D5 H2 H3 H5 H5 S2 S5 S6", "C5 C5 C6 D2 D2 D5 D6 H2 H3 H4 H6 S3",
           "C2 C3 C4 C4 D4 D4 H4 S2 S3 S4 S4 S5")


def test_three_races_that_shed_everything_end_the_deal_by_going_out() -> None:
    hands = [parse_cards(h) for h in STALLED]
    rest = list(standard_pack(*CONTRACT.pack_spec(3)))
    for card in (c for h in hands for c in h):
        rest.remove(card)
    random.Random(9).shuffle(rest)
    state = HandState.from_deal(CONTRACT, 0, hands, rest[0], rest[1:], deal_index=6,
                                rng=random.Random(9))
    state.turn_count = 3 * 50  # round 50: each race still sheds (its chance is tiny)
    bots = [make_bot("expert") for _ in range(3)]
    rng = random.Random(4)
    while not state.is_over:
        state.play(bots[state.to_move].choose(view(state, state.to_move), rng))
    assert state.result is not None and state.result.winner is not None
    assert state.turn_count < 3 * (contract_race.LONG_ROUNDS + 40)
