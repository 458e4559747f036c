"""What a contract seat would hold once down (bots.contract_leftover), and the search
levels' heuristics that use it: the going-down way, the dig, the discards before going
down and the joker of a seat that is down (bots.contract_expert, bots.contract_policy)."""

from __future__ import annotations

import dataclasses
import random

from rummykit.bots import contract_expert, contract_policy
from rummykit.bots.contract_leftover import laid_in_chain, left_after
from rummykit.bots.contract_levels import HEURISTICS
from rummykit.bots.greedy_contract import card_values, choose_contract, go_down
from rummykit.core import handset
from rummykit.core.cards import JOKER, parse_cards
from rummykit.core.engine import DRAW_PHASE, HandState
from rummykit.core.melds import JOKER_AS, SET, make_meld
from rummykit.core.moves import Discard, LayOff, Meld, Take
from rummykit.core.views import PlayerView, view
from rummykit.variants import CONTRACT

RULES = dataclasses.replace(CONTRACT, max_turns_per_hand=200)


def _states(deals: tuple[int, ...], seeds: range) -> list[tuple[HandState, PlayerView]]:
    """Every decision of seeded 4-player deals played by the levels' heuristics (seat 0,
    what ``medium`` plays) and greedy (the others), with the state before it."""
    found = []
    for seed in seeds:
        state = HandState.deal(RULES, 4, dealer=seed % 4, rng=random.Random(seed),
                               deal_index=deals[seed % len(deals)])
        while not state.is_over:
            seen = view(state, state.to_move)
            found.append((state.copy(), seen))
            move = contract_policy.choose(seen, HEURISTICS) if state.to_move == 0 \
                else choose_contract(seen)
            state.play(move)
    return found


def test_a_chain_of_lay_offs_and_a_set_that_fills() -> None:
    run = make_meld(parse_cards("H5 H6 H7"), CONTRACT)
    sevens = make_meld(parse_cards("C7 D7 S7"), CONTRACT)
    assert not isinstance(run, str) and not isinstance(sevens, str)
    # H9 only after H8; the run takes one H8 (the second copy stays); the set one H7
    laid = laid_in_chain(parse_cards("H9 H8 H8 H7 H7 C2 JK"), (run, sevens), CONTRACT)
    assert sorted(laid) == sorted(parse_cards("H7 H8 H9"))
    assert laid.index(parse_cards("H8")[0]) < laid.index(parse_cards("H9")[0])
    assert left_after(parse_cards("C4 D4 S4 H4 C2"), [parse_cards("C4 D4 S4")], (run,),
                      CONTRACT) == parse_cards("C2")  # H4 goes on the run
    assert laid_in_chain(parse_cards("H9 C2"), (), CONTRACT) == []


def test_the_chain_is_what_the_engine_lets_a_down_seat_lay_off() -> None:
    """Once down, laying off the chain's cards in its order is legal move after move, and
    afterwards the engine lists no lay-off of a natural card (the chain is maximal)."""
    checked = 0
    for state, seen in _states((1, 2, 4, 5), range(12)):
        if seen.phase == DRAW_PHASE or not contract_policy.is_down(seen):
            continue
        chain = laid_in_chain(handset.cards(seen.hand), seen.table, seen.rules)
        for card in chain:
            move = next((m for m in state.legal_moves() if isinstance(m, LayOff)
                         and m.card == card), None)
            assert move is not None, (card, [str(m) for m in seen.table])
            state.play(move)
        assert not any(isinstance(m, LayOff) and m.card < JOKER_AS
                       for m in state.legal_moves())
        checked += 1
    assert checked > 50


def _left(seen: PlayerView, move: Meld) -> tuple[int, int]:
    values = card_values(seen)
    left = left_after(handset.cards(seen.hand), move.groups, seen.table, seen.rules)
    return len(left), sum(values[c] for c in left)


def test_going_down_leaves_the_fewest_cards_once_every_lay_off_is_made() -> None:
    """Where the levels go down another way than greedy (the most points placed), theirs
    leaves fewer cards once down, or as many worth fewer points."""
    differ = 0
    for _, seen in _states((0, 1, 2, 3, 4, 5), range(140, 160)):  # seed 148 differs
        if seen.to_move != 0 or seen.phase == DRAW_PHASE:
            continue
        melds = [m for m in seen.legal if isinstance(m, Meld)]
        if len(melds) < 2:
            continue
        ours = contract_policy.choose(seen, HEURISTICS)
        assert ours in melds
        assert _left(seen, ours) <= min(_left(seen, m) for m in melds)
        greedy = go_down(seen, melds)
        if ours != greedy:
            assert _left(seen, ours) < _left(seen, greedy)
            differ += 1
    assert differ > 0


def test_a_down_seat_lays_its_joker_off_at_once_in_a_set_first() -> None:
    """A seat that is down holding a joker with no natural card to place lays the joker
    off at once, on a set whenever one has room (nobody can swap it out of a set), unless
    on a run it opens a place for a card the seat holds (greedy's rule, kept)."""
    jokers = sets = 0
    for state, seen in _states((0, 1, 2, 3, 4, 5), range(160)):
        if seen.to_move != 0 or seen.phase == DRAW_PHASE \
                or not contract_policy.is_down(seen) \
                or not handset.count(seen.hand, JOKER):
            continue
        lays = [m for m in seen.legal if isinstance(m, LayOff)]
        if any(m.card < JOKER_AS for m in lays) or not lays:
            continue
        move = contract_policy.choose(seen, HEURISTICS)
        assert isinstance(move, LayOff) and move.card >= JOKER_AS
        jokers += 1
        if seen.table[move.target - 1].kind != SET:
            state.play(move)
            opened = any(isinstance(m, LayOff) and m.card < JOKER_AS
                         for m in state.legal_moves())
            assert opened or not any(seen.table[m.target - 1].kind == SET for m in lays)
        else:
            sets += 1
    assert jokers > 0 and sets > 0


def test_a_seat_not_down_keeps_the_cards_the_table_takes_before_pairs() -> None:
    """Before going down, no discard breaks the contract's melds or throws a card the
    table takes while a card that is neither (nor a joker) is left; and such a card is
    thrown while loose pairs are kept."""
    kept_pairs = 0
    for _, seen in _states((1, 2, 4, 5), range(60)):
        if seen.to_move != 0 or seen.phase == DRAW_PHASE or contract_policy.is_down(seen):
            continue
        move = contract_policy.choose(seen, HEURISTICS)
        if not isinstance(move, Discard):
            continue
        hand = handset.cards(seen.hand)
        takes = set(laid_in_chain(hand, seen.table, seen.rules))
        if move.card in takes:
            loose = [c for c in hand if c not in takes and c != JOKER
                     and Discard(c) in seen.legal]
            kept, _ = contract_expert.kept_and_partners(hand, seen, False)
            assert all(c in kept for c in loose), (str(move), hand)
        elif takes and len(hand) > len(takes) + 3:
            kept_pairs += 1
    assert kept_pairs > 0


def test_a_dig_leaves_the_fewest_cards() -> None:
    """Deal 2 (a set and a run), the pile ``H7 H6 C5`` (C5 on top): both digs go down
    with the kings and a hearts run, but the deeper one also places the H8 held (the run
    H4-H8); it is taken, where greedy takes the shallowest."""
    hands = [parse_cards("C9 D9 H4 H5 DK SK CK DQ C2 H8"),
             parse_cards("C3 C4 C6 D2 D3 D4 D5 S2 S3 S4"),
             parse_cards("C7 C8 D6 D7 D8 S6 S7 S8 H2 H3"),
             parse_cards("CA DA SA CT DT ST HT HJ HQ HA")]
    state = HandState.from_deal(RULES, 3, hands, parse_cards("C5")[0],
                                parse_cards("H9 S5 C2 D2 S9 C3 D3"), deal_index=1)
    state.discard = parse_cards("H7 H6 C5")
    seen = view(state, 0)
    digs = sorted((m for m in seen.legal if isinstance(m, Take) and m.count > 1),
                  key=lambda m: m.count)
    assert [m.count for m in digs] == [2, 3]
    assert choose_contract(seen) == digs[0]
    assert contract_policy.choose(seen, HEURISTICS) == digs[1]
