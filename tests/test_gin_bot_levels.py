"""The gin search levels' margin to play on past the policy's knock."""

from __future__ import annotations

import random

from rummykit.bots.gin_outs import lookahead_move
from rummykit.bots.gin_playout import policy_move
from rummykit.bots.gin_search import SEARCH_LEVELS, GinSearchBot, SearchLevel, decision_kind
from rummykit.core.moves import Discard
from rummykit.variants.gin.hand import GinHand
from rummykit.variants.gin.moves import BigGin, Gin, Knock
from rummykit.variants.gin.rules import openspiel_profile
from rummykit.variants.gin.view import GinView, gin_view

EAGER = SearchLevel("eager", worlds=4, searched=frozenset({"knock"}), margin=-1e9)


def _knock_views(count: int) -> list[GinView]:
    """Views at discard steps where the lookahead policy knocks and may play on instead."""
    found: list[GinView] = []
    rules = openspiel_profile()
    for seed in range(200):
        hand = GinHand.deal(rules, dealer=seed % 2, rng=random.Random(seed))
        while hand.result is None and len(found) < count:
            seen = gin_view(hand, hand.to_move)
            if decision_kind(seen) == "knock" and isinstance(
                    lookahead_move(seen, EAGER.feed), (Knock, Gin, BigGin)) and any(
                    isinstance(m, Discard) for m in seen.legal):
                found.append(seen)
            hand.play(policy_move(hand))
    return found


def test_the_wait_margin_keeps_the_policys_knock_against_playing_on() -> None:
    views = _knock_views(6)
    assert len(views) == 6
    rng = random.Random(2)
    # a negative margin takes any other candidate, so some knock is passed up for a discard
    eager = GinSearchBot(EAGER)
    assert any(isinstance(eager.choose(seen, rng), Discard) for seen in views)
    firm = GinSearchBot(SearchLevel("firm", worlds=4, searched=EAGER.searched,
                                    margin=-1e9, wait_margin=1e9))
    for seen in views:
        assert not isinstance(firm.choose(seen, rng), Discard)



def test_expert_plays_on_past_a_knock_only_by_a_wider_margin_than_its_own() -> None:
    expert = SEARCH_LEVELS["expert"]
    assert expert.wait_margin is not None and expert.wait_margin > expert.margin
