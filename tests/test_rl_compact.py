"""The compact action space of :mod:`rummykit.rl.compact`: every legal id of many random
games maps into it, the mapping goes both ways, and its bounds are reached."""

from __future__ import annotations

import random

import numpy as np
import pytest

from rummykit import BASIC, HandState, Rules, parse_cards, view
from rummykit.bots import make_bot
from rummykit.rl.actions import ActionSpace
from rummykit.rl.compact import CompactActions
from rummykit.rl.game import Game

CASES = [("basic", 2, {}), ("basic", 4, {"ace_mode": "high_or_low"}),
         ("basic", 6, {"must_discard_to_go_out": True}), ("traditional", 2, {}),
         ("traditional", 4, {}), ("contract", 3, {}), ("contract", 4, {"discard_dig": False}),
         ("contract", 5, {"extra_melds_after_contract": True}),
         ("contract", 4, {"final_deal_rule": "all_at_once_discard_ok", "run_min_length": 4})]


@pytest.mark.parametrize(("rules", "players", "options"), CASES)
def test_every_legal_id_of_random_games_is_compact(rules: str, players: int,
                                                   options: dict) -> None:
    """At every step of whole matches played half by the greedy bot, half at random (meld
    prefixes included), every legal id of the full space is one of the compact ids; the
    compact game's ids are those, renumbered. The games reach melds and lay-offs."""
    full = Game(rules, players, options=options, reward="match")
    small = Game(rules, players, options=options, reward="match", compact=True)
    compact = small.compact
    assert compact is not None and compact.size < full.actions.size
    reachable = set(compact.ids.tolist())
    rng = random.Random(players)
    greedy = make_bot("greedy")
    steps, seen = 0, set()
    budget = 1500 if rules == "contract" else 5000
    for seed in range(200):
        full.reset(seed=seed)
        small.reset(seed=seed)
        while not full.done and steps < budget:
            legal = full.legal_ids()
            assert set(legal) <= reachable, [full.actions.describe(a) for a in
                                              set(legal) - reachable]
            mask = small.mask(small.to_move)
            assert np.flatnonzero(mask).tolist() == small.legal_ids() == \
                [compact.to_compact(a) for a in legal]
            seen.update(legal)
            if rng.random() < 0.5 and not full.decision().prefix:
                move = greedy.choose(full.seen(full.to_move), rng)
                ids = full.actions.actions(move)
                full.play(move)
                for action in ids:
                    small.act(compact.to_compact(action))
            else:
                choice = rng.randrange(len(legal))
                full.act(legal[choice])
                small.act(small.legal_ids()[choice])
            steps += 1
        if steps >= budget:
            break
    space = full.actions
    assert any(space.lay_base <= a < space.swap_base for a in seen)  # lay-offs
    assert any(a >= space.group_base for a in seen)  # melds


def test_mapping_both_ways() -> None:
    compact = CompactActions(ActionSpace(BASIC, 2))
    assert [compact.to_compact(compact.to_full(c)) for c in range(compact.size)] == \
        list(range(compact.size))
    assert (compact.index[compact.ids] == np.arange(compact.size)).all()
    never = compact.full.encode("lay H5 on 7")  # 2 players hold 20 cards: 6 melds at most
    assert compact.index[never] == -1
    with pytest.raises(ValueError, match="never legal in basic with 2 players"):
        compact.to_compact(never)
    with pytest.raises(ValueError, match=r"expected 0\.\.682"):
        compact.to_full(683)
    assert compact.describe(compact.to_compact(compact.full.encode("lay H5 on 6"))) == \
        "lay H5 on 6"


def test_the_meld_bound_is_reached() -> None:
    """2-player basic: seat 0 melds 9 cards, seat 1 melds 9 and lays off on meld 6 (the
    most the compact space allows), going out."""
    hands = [parse_cards("C2 C3 C4 D2 D3 D4 H2 H3 H4 SK"),
             parse_cards("C6 C7 C8 D6 D7 D8 H6 H7 H8 S5")]
    state = HandState.from_deal(BASIC, dealer=1, hands=hands, upcard=parse_cards("SQ")[0],
                                stock_top_first=parse_cards("ST H9 S2 S3"))
    for move in ("draw", "meld C2 C3 C4", "meld D2 D3 D4", "meld H2 H3 H4", "discard ST",
                 "draw", "meld C6 C7 C8", "meld D6 D7 D8", "meld H6 H7 H8"):
        state.play(move)
    compact = CompactActions(ActionSpace(BASIC, 2))
    space = compact.full
    legal = [space.describe(a) for a in space.legal_ids(view(state, 1))]
    assert "lay H9 on 6" in legal and compact.max_melds == 6
    assert all(compact.index[a] >= 0 for a in space.legal_ids(view(state, 1)))


def test_the_high_end_bit_needs_ace_high_and_a_long_run() -> None:
    low = CompactActions(ActionSpace(BASIC, 2))
    high_rules = Rules.from_options("basic", {"ace_mode": "high_or_low"})
    high = CompactActions(ActionSpace(high_rules, 2))
    assert not any("high" in low.describe(c) for c in range(low.size))
    ends = [high.describe(c) for c in range(high.size) if "high" in high.describe(c)]
    # 20 cards: a 12-card run (3 melded + 9 laid off) leaves room for 2 more melds
    assert ends == [f"lay {s}A on {t} high" for s in "CDHS" for t in (1, 2, 3)]
