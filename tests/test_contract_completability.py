"""Completability (RULES.md §1.6) against a brute-force oracle.

The oracle below tries every sequence of plays the rules allow (``candidates``: every
rule but completability), with no memo and no pruning, so it is exact by construction. On
thousands of small seeded contract positions (two and three decks, jokers, digs, swaps,
duplicate cards, ``must_discard_to_go_out``, ``extra_melds_after_contract``, every deal)
the engine's draw and play moves must be exactly the oracle's, and a permutation of the
table melds must change nothing but the meld numbers.

``RUMMYKIT_ORACLE_POSITIONS`` sets the number of positions (default 2,000).
"""

from __future__ import annotations

import dataclasses
import os
import random

import pytest

from rummykit.core.cards import JOKER, NUM_RANKS
from rummykit.core.engine import HandState
from rummykit.core.melds import JOKER_AS, TableMeld, make_meld, position_card
from rummykit.core.moves import Discard, Draw, LayOff, Move, Swap, Take
from rummykit.core.rules import Rules
from rummykit.variants import CONTRACT
from rummykit.variants.contract import complete as contract_complete
from rummykit.variants.contract import play as contract_play

POSITIONS = int(os.environ.get("RUMMYKIT_ORACLE_POSITIONS", "2000"))


# -- the oracle ----------------------------------------------------------------------------------

def can_finish(state: HandState) -> bool:
    """Some sequence of plays allowed by the rules ends the turn (exhaustive)."""
    if state.result is not None:
        return True
    for move in contract_play.candidates(state):
        if type(move) is Discard:
            return True
        state.push(move)
        try:
            done = can_finish(state)
        finally:
            state.pop()
        if done:
            return True
    return False


def finishable_after(state: HandState, move: Move) -> bool:
    state.push(move)
    try:
        return can_finish(state)
    finally:
        state.pop()


def oracle_draws(state: HandState) -> set[Move]:
    found: set[Move] = set()
    if state.stock:
        found.add(Draw())
    deepest = len(state.discard) if state.rules.discard_dig else min(1, len(state.discard))
    for count in range(1, deepest + 1):
        move = Take() if count == 1 else Take(count)
        if finishable_after(state, move):
            found.add(move)
    return found


def oracle_plays(state: HandState) -> set[Move]:
    return {m for m in contract_play.candidates(state)
            if type(m) is Discard or finishable_after(state, m)}


# -- random small positions ----------------------------------------------------------------------

def variant(rng: random.Random) -> tuple[Rules, int]:
    rules = CONTRACT
    if rng.random() < 0.3:
        rules = dataclasses.replace(rules, must_discard_to_go_out=True,
                                    final_deal_rule=rng.choice(["none",
                                                                "all_at_once_discard_ok"]))
    elif rng.random() < 0.2:
        rules = dataclasses.replace(rules, final_deal_rule="all_at_once_discard_ok")
    if rng.random() < 0.25:
        rules = dataclasses.replace(rules, extra_melds_after_contract=True)
    if rng.random() < 0.5:
        return dataclasses.replace(rules, deck_config="pagat"), rng.choice([3, 4, 5])
    return rules, rng.choice([4, 5, 6])  # bicycle: two decks, three from five players


def random_run(rng: random.Random, rules: Rules, jokers: bool, longest: int = 6
               ) -> list[int]:
    suit = rng.randrange(4)
    length = rng.randint(rules.run_min_length, longest)
    low = rng.randint(1, 15 - length)
    codes = [position_card(suit, p) for p in range(low, low + length)]
    if jokers and rng.random() < 0.5:
        at = rng.randrange(length)
        codes[at] = JOKER_AS + codes[at]
        if all(c >= JOKER_AS for c in codes):
            codes[at] -= JOKER_AS
    return codes


def random_set(rng: random.Random, jokers: bool) -> list[int]:
    rank = rng.randrange(NUM_RANKS)
    suits = rng.sample(range(4), rng.choice([3, 3, 4]))
    codes = [s * NUM_RANKS + rank for s in suits]
    if jokers and rng.random() < 0.3:
        codes[0] += JOKER_AS
    return codes


def near_cards(table: list[TableMeld], rules: Rules, rng: random.Random, count: int
               ) -> list[int]:
    """Cards that could matter: next to a run's ends, a set's missing suits, a run joker's
    identity, or anything."""
    found = []
    for _ in range(count):
        meld = rng.choice(table) if table and rng.random() < 0.8 else None
        if meld is None:
            found.append(JOKER if rng.random() < 0.15 else rng.randrange(52))
        elif meld.kind == "set":
            found.append(rng.randrange(4) * NUM_RANKS + meld.rank - 1)
        else:
            jokers = [c - JOKER_AS for c in meld.cards if c >= JOKER_AS]
            if jokers and rng.random() < 0.3:
                found.append(rng.choice(jokers))
                continue
            top = 14 if rules.ace_high else 13
            step = rng.randint(1, 3)
            at = meld.low - step if rng.random() < 0.5 else meld.high + step
            found.append(position_card(meld.suit, min(max(at, 1), top)))
    return found


def contract_cards(rules: Rules, deal: int, rng: random.Random) -> list[int]:
    sets, runs = rules.contract_schedule[deal]
    found: list[int] = []
    for _ in range(sets):
        found += [JOKER if c >= JOKER_AS else c for c in random_set(rng, True)[:3]]
    for _ in range(runs):
        found += [JOKER if c >= JOKER_AS else c for c in random_run(rng, rules, True, 3)]
    return found


def capped(cards: list[int], decks: int, jokers: int) -> list[int]:
    kept: list[int] = []
    for c in cards:
        if kept.count(c) < (jokers if c == JOKER else decks):
            kept.append(c)
    return kept


def random_position(seed: int) -> HandState:
    """A draw-step position: seat 0 to move, a small table, a small hand and pile."""
    rng = random.Random(seed)
    rules, players = variant(rng)
    decks, jokers = rules.pack_spec(players)
    deal = rng.randrange(len(rules.contract_schedule))
    table = []
    for _ in range(rng.randint(1, 4)):
        codes = random_run(rng, rules, True) if rng.random() < 0.6 else random_set(rng, True)
        meld = make_meld(codes, rules, rng.randrange(players))
        if isinstance(meld, TableMeld):
            table.append(meld)
    down = rng.random() < 0.75
    last = deal == len(rules.contract_schedule) - 1 and rules.final_deal_rule != "none"
    if last:  # whoever goes down in that deal goes out in the same turn
        table, down = [], False
    if down:
        hand = near_cards(table, rules, rng, rng.randint(1, 4))
    else:  # the cards of the contract and a few more: the oracle tries every way down
        hand = contract_cards(rules, deal, rng) + near_cards(table, rules, rng,
                                                             rng.randint(0, 2))
    pile = near_cards(table, rules, rng, rng.randint(1, 4 if down else 2))
    both = capped(hand + pile, decks, jokers)  # a dig brings the pile into the hand
    hand, pile = both[:-len(pile)] or [13], both[-len(pile):] or [0]
    others = [[(seat * 7 + i) % 52 for i in range(3)] for seat in range(1, players)]
    state = HandState.from_deal(rules, players - 1, [hand, *others], pile[0], [5, 17, 30],
                                rng=random.Random(seed), deal_index=deal, automatic=False)
    state.discard = pile
    state.table = table
    state.down = 0 if last else (1 if down else 0) | (rng.getrandbits(players - 1) << 1)
    return state


def permuted(state: HandState, order: list[int]) -> HandState:
    copy = state.copy()
    copy.table = [state.table[i] for i in order]
    return copy


def renumbered(moves: set[Move], order: list[int]) -> set[Move]:
    """Moves on the original table as numbered on the permuted one."""
    where = {old: new for new, old in enumerate(order)}
    out: set[Move] = set()
    for m in moves:
        if isinstance(m, LayOff):
            out.add(LayOff(m.card, where[m.target - 1] + 1, m.end))
        elif isinstance(m, Swap):
            out.add(Swap(m.card, where[m.target - 1] + 1))
        else:
            out.add(m)
    return out


def check(seed: int) -> None:
    state = random_position(seed)
    rng = random.Random(seed * 31 + 7)
    draws = set(state.legal_moves())
    assert draws == oracle_draws(state), seed
    order = list(range(len(state.table)))
    rng.shuffle(order)
    assert set(permuted(state, order).legal_moves()) == renumbered(draws, order), seed
    for _ in range(3):  # the draw, then up to two plays of the turn
        if state.result is not None:
            return
        choices = sorted(state.legal_moves(), key=str)
        digs = [m for m in choices if isinstance(m, Take) and m.count > 1]
        plays = [m for m in choices if not isinstance(m, Discard)]
        pick = rng.choice(digs) if digs and rng.random() < 0.7 else \
            rng.choice(plays) if plays else None
        if pick is None:
            return
        state.push(pick)
        if state.result is not None or state.phase != "play":
            return
        legal = state.legal_moves()
        assert list(state.iter_legal_moves()) == legal, seed  # the lazy generator agrees
        assert set(legal) == oracle_plays(state), (seed, str(pick))
        assert all(state.is_legal(m) for m in legal), seed
        assert contract_complete.finishable(state) == can_finish(state), seed
        order = list(range(len(state.table)))
        rng.shuffle(order)
        assert set(permuted(state, order).legal_moves()) == renumbered(set(legal), order), seed


@pytest.mark.parametrize("block", range(10))
def test_completability_matches_the_brute_force_oracle(block: int) -> None:
    for seed in range(block, POSITIONS, 10):
        check(seed)


def test_random_positions_hold_digs_swaps_copies_and_jokers() -> None:
    """The generator covers what the oracle test is for."""
    seen = {"dig": 0, "swap": 0, "copies": 0, "joker": 0, "must_discard": 0, "refused_dig": 0}
    for seed in range(300):
        state = random_position(seed)
        legal = state.legal_moves()
        listed_digs = sum(1 for m in legal if isinstance(m, Take) and m.count > 1)
        seen["dig"] += listed_digs > 0
        seen["refused_dig"] += listed_digs < len(state.discard) - 1
        hand = state.hand_cards(0)
        seen["copies"] += len(set(hand)) < len(hand)
        seen["joker"] += JOKER in hand
        seen["must_discard"] += state.rules.must_discard_to_go_out
        seen["swap"] += any(c >= JOKER_AS and c - JOKER_AS in hand
                            for m in state.table if m.kind == "run" for c in m.cards)
    assert all(count >= 10 for count in seen.values()), seen
