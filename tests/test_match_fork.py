"""A match copy's generator is taken lazily (core.match.ForkedRandom): the copy and the
original still draw exactly what the original alone would have, in any order."""

from __future__ import annotations

import pickle
import random

import pytest

from rummykit.core.match import ForkedRandom, Match
from rummykit.core.rules import Rules


def draws(rng: random.Random) -> list[object]:
    """Every kind of draw a generator makes (floats, bits, ranges, shuffles, gauss)."""
    pack = list(range(52))
    rng.shuffle(pack)
    return [rng.random(), rng.getrandbits(70), rng.randrange(1000), rng.gauss(0, 1), pack,
            rng.choice("abcdef"), rng.gauss(0, 1), rng.sample(range(100), 5)]


def test_a_fork_draws_what_its_base_would() -> None:
    expected = draws(random.Random(5))
    base = random.Random(5)
    first, second = ForkedRandom(base), ForkedRandom(base)
    assert first.getstate() == base.getstate()  # asked before drawing: the base's
    assert draws(first) == expected and draws(second) == expected
    assert draws(ForkedRandom(ForkedRandom(random.Random(5)))) == expected
    copied = pickle.loads(pickle.dumps(ForkedRandom(random.Random(5))))
    assert draws(copied) == expected
    seeded = ForkedRandom(random.Random(1))
    seeded.seed(5)
    assert draws(seeded) == expected


def play_out(match: Match, moves: random.Random, count: int) -> list[str]:
    """``count`` random moves (dealing as hands end); the moves made, deals as ``deal``."""
    made: list[str] = []
    while len(made) < count and not match.over:
        state = match.state
        assert state is not None
        if state.is_over:
            match.start_hand()
            made.append("deal")
            continue
        move = moves.choice(state.legal_moves())
        match.play(move)
        made.append(str(move))
    return made


def replay(match: Match, made: list[str]) -> None:
    for move in made:
        if move == "deal":
            match.start_hand()
        else:
            match.play(move)


@pytest.mark.parametrize("copy_first", [True, False])
def test_a_copy_and_its_original_deal_and_rebuild_alike(copy_first: bool) -> None:
    rules = Rules.from_options("basic", {"max_turns_per_hand": 120, "target_score": 60})
    alone = Match(rules, ["A", "B", "C"], seed=11)
    alone.start_hand()
    made = play_out(alone, random.Random(2), 3000)
    assert made.count("deal") >= 2 and sum(len(h.restocks) for h in alone.hands) >= 1
    for cut in (0, 7, len(made) // 2):
        match = Match(rules, ["A", "B", "C"], seed=11)
        match.start_hand()
        replay(match, made[:cut])
        twin = match.copy()
        order = (twin, match) if copy_first else (match, twin)
        for side in order:
            replay(side, made[cut:])
        for side in (match, twin):
            assert [(h.deck, h.restocks) for h in side.hands] == \
                [(h.deck, h.restocks) for h in alone.hands]
            assert side.totals == alone.totals


def test_a_refused_draft_leaves_the_original_drawing_as_before() -> None:
    """The server's use: a draft deals (its commit then fails and it is dropped); the
    table goes on from the original, which deals what it would have dealt."""
    rules = Rules.from_options("basic", {"max_turns_per_hand": 80, "target_score": 60})
    alone = Match(rules, ["A", "B"], seed=4)
    alone.start_hand()
    made = play_out(alone, random.Random(8), 2000)
    first_deal = made.index("deal")
    match = Match(rules, ["A", "B"], seed=4)
    match.start_hand()
    replay(match, made[:first_deal])
    for _ in range(3):  # drafts that deal, then are dropped
        replay(match.copy(), ["deal"])
    replay(match, made[first_deal:])
    assert [h.deck for h in match.hands] == [h.deck for h in alone.hands]


def test_copies_of_copies_keep_one_fork_each_and_draw_alike() -> None:
    """The server's chain (each move made on a copy, the copy adopted, some dropped): a
    match whose generator is a fork that has not drawn keeps it when copied (only the
    copy gets a new one), and the chain deals what one match alone deals."""
    rules = Rules.from_options("basic", {"max_turns_per_hand": 80, "target_score": 60})
    alone = Match(rules, ["A", "B"], seed=9)
    alone.start_hand()
    made = play_out(alone, random.Random(3), 1500)
    assert made.count("deal") >= 2
    live = Match(rules, ["A", "B"], seed=9)
    live.start_hand()
    for number, move in enumerate(made):
        if number % 5 == 0:
            replay(live.copy(), [move])  # a draft dropped (its commit failed)
        fork = live.rng
        draft = live.copy()
        if isinstance(fork, ForkedRandom) and fork.base is not None:
            assert live.rng is fork and draft.rng is not fork
        replay(draft, [move])
        live = draft  # adopted
    assert [(h.deck, h.restocks) for h in live.hands] == \
        [(h.deck, h.restocks) for h in alone.hands]
    assert live.totals == alone.totals
