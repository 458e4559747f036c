"""The search's ``keep_first``: the first candidate (the greedy move) stays the choice
unless another beats it clearly in the same worlds (``medium``'s setting), where a drawn
hand ends the match (traditional); elsewhere the best mean wins."""

from __future__ import annotations

import dataclasses
import random

from rummykit.bots import make_bot
from rummykit.bots.expert import LEVELS, Budget, ExpertBot, _beats
from rummykit.core.engine import PLAY_PHASE
from rummykit.core.views import view
from test_bots import _positions


def test_beats_asks_for_a_margin_in_standard_errors() -> None:
    first = [0.0, 1.0, 2.0, 3.0]
    assert _beats([5.0, 6.0, 7.0, 8.1], first, 3.0)  # 5 ahead, nearly no spread
    assert not _beats([2.0, -1.0, 3.0, 3.0], first, 1.0)  # 0.25 ahead, s.e. 0.85
    assert _beats([2.0, -1.0, 3.0, 3.0], first, 0.0)
    assert not _beats([9.0], [0.0], 0.0)  # one world says nothing


def test_keeping_the_first_candidate_plays_greedy_discards_unless_beaten() -> None:
    greedy = make_bot("greedy")
    plain = ExpertBot(Budget(worlds=12, candidates=3), "plain")
    keeps = ExpertBot(dataclasses.replace(plain.budget, keep_first=1.0), "keeps")
    stubborn = ExpertBot(dataclasses.replace(plain.budget, keep_first=1e9), "stubborn")
    differs = kept = 0
    for state in _positions(40, 41, "traditional"):
        if state.phase != PLAY_PHASE:
            continue
        seen = view(state, state.to_move)
        simple = greedy.choose(seen, random.Random(0))
        assert stubborn.choose(seen, random.Random(3)) == simple
        best = plain.choose(seen, random.Random(3))
        chosen = keeps.choose(seen, random.Random(3))  # the same worlds as plain's
        assert chosen in (simple, best)
        differs += best != simple
        kept += best != simple and chosen == simple
    assert differs > 3 and kept > 0  # the plain search leaves greedy, keep_first reins it in


def test_medium_keeps_the_first_candidate_and_hard_does_not() -> None:
    assert LEVELS["medium"].keep_first == 1.0
    assert LEVELS["hard"].keep_first == 0.0 and LEVELS["expert"].keep_first == 0.0


def test_keeping_the_first_candidate_is_off_where_a_drawn_hand_ends_nothing() -> None:
    plain = ExpertBot(Budget(worlds=12, candidates=3), "plain")
    stubborn = ExpertBot(dataclasses.replace(plain.budget, keep_first=1e9), "stubborn")
    for state in _positions(12, 43):  # basic: no drawn hands
        seen = view(state, state.to_move)
        assert stubborn.choose(seen, random.Random(3)) == plain.choose(seen, random.Random(3))
