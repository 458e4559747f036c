"""The action encoding of :mod:`rummykit.rl.actions`: every legal move has ids and back,
masks are the legal moves, and the layout is fixed."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from rummykit import (
    BASIC,
    CONTRACT,
    TRADITIONAL,
    Match,
    find_rules,
    make_meld,
    parse_move,
    view,
)
from rummykit.bots import make_bot
from rummykit.rl.actions import ActionSpace, group_codebook

CASES = [("basic", 2), ("basic", 4), ("basic", 6), ("traditional", 3), ("contract", 3),
         ("contract", 6)]


def _positions(name: str, players: int, seed: int, hands: int = 2):
    """Views of the seat to move along seeded matches of greedy and random play."""
    rules = dataclasses.replace(find_rules(name), max_turns_per_hand=150)
    match = Match(rules, [f"p{i}" for i in range(players)], seed=seed)
    rng, bot = random.Random(seed), make_bot("greedy")
    for _ in range(hands):
        if match.over:
            return
        state = match.start_hand()
        while not state.is_over:
            seen = view(state, state.to_move)
            yield seen
            match.push(bot.choose(seen, rng) if rng.random() < 0.5 else rng.choice(seen.legal))


@pytest.mark.parametrize(("name", "players"), CASES)
def test_every_legal_move_round_trips(name: str, players: int) -> None:
    space = ActionSpace(find_rules(name), players)
    for seen in _positions(name, players, seed=players):
        by_ids = {}
        for move in seen.legal:
            ids = space.actions(move)
            assert all(0 <= a < space.size for a in ids)
            assert ids not in by_ids, (move, by_ids.get(ids))
            by_ids[ids] = move
            decision = space.decision(seen)
            for a in ids[:-1]:
                assert decision.choose(a) is None
            assert decision.choose(ids[-1]) == move
            assert space.decode(ids[-1], seen, ids[:-1]) == move
        firsts = sorted({ids[0] for ids in by_ids})
        assert space.legal_ids(seen) == firsts
        mask = space.mask(seen)
        assert mask.dtype == np.int8 and list(np.flatnonzero(mask)) == firsts


def test_illegal_id_is_rejected_with_its_name() -> None:
    space = ActionSpace(BASIC, 2)
    seen = next(_positions("basic", 2, seed=1))
    with pytest.raises(ValueError, match="discard"):
        space.decode(space.encode("discard H8"), seen)


@pytest.mark.parametrize("rules", [BASIC, TRADITIONAL, CONTRACT,
                                   dataclasses.replace(BASIC, ace_mode="high_or_low")])
def test_codebook_groups_are_canonical_melds(rules) -> None:
    jokers = rules.pack_spec(rules.player_range[0])[1]
    groups = group_codebook(rules.ace_high, rules.run_min_length, jokers)
    assert len(set(groups)) == len(groups)
    for group in groups:
        meld = make_meld(group, rules)
        assert not isinstance(meld, str), meld
        assert meld.cards == group


def test_layout_is_pinned() -> None:
    """Sizes and block offsets: a change here breaks trained policies."""
    basic = ActionSpace(BASIC, 2)
    assert (basic.size, basic.discard_base, basic.lay_base, basic.swap_base,
            basic.group_base) == (2151, 2, 54, 1822, 1822)
    contract = ActionSpace(CONTRACT, 4)
    assert (contract.size, contract.max_take, contract.max_melds, len(contract.groups)) == (
        11924, 105, 35, 2665)
    assert ActionSpace(CONTRACT, 5).size == 23859
    assert basic.describe(basic.encode("lay HA on 2 high")) == "lay HA on 2 high"
    assert contract.describe(contract.encode("lay JK=H6 on 3")) == "lay JK=H6 on 3"
    assert contract.describe(contract.encode("swap H6 on 4")) == "swap H6 on 4"
    assert contract.describe(contract.encode("take 3")) == "take 3"
    with pytest.raises(ValueError, match="2 actions"):
        contract.encode("meld C8 D8 H8 / CK DK JK=SK")


@pytest.mark.parametrize(("name", "players"), [("basic", 2), ("contract", 5)])
def test_every_id_has_a_name_that_encodes_back(name: str, players: int) -> None:
    space = ActionSpace(find_rules(name), players)
    for action in range(space.size):
        text = space.describe(action)
        if text.startswith("meld-group "):
            assert space.group_id(parse_move("meld " + text[11:]).groups[0]) == action
        else:
            assert space.encode(text) == action, text
