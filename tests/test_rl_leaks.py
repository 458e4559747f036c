"""Observations and masks leak nothing (ARCHITECTURE.md §3): for random states, dealing a
seat's hidden cards anew (``resample``) leaves that seat's observation and mask unchanged,
through the environments' own code path."""

from __future__ import annotations

import random

import numpy as np
import pytest

from rummykit import resample, view
from rummykit.rl.game import Game

CASES = [("basic", 2), ("basic", 5), ("traditional", 4), ("contract", 3), ("contract", 6)]


def _random_states(game: Game, rng: random.Random, count: int):
    """``count`` states along random play (several hands), each yielded mid-game."""
    game.reset(seed=rng.randrange(1 << 30))
    while count:
        if game.done:
            game.reset(seed=rng.randrange(1 << 30))
        game.act(rng.choice(game.legal_ids()))
        if rng.random() < 0.2:
            count -= 1
            yield


def _seen_by(game: Game, seat: int) -> tuple[np.ndarray, np.ndarray, list[int]]:
    game._forget()  # the cached view of the seat to move
    return game.observe(seat), game.mask(seat), game.legal_ids() \
        if seat == game.to_move else []


@pytest.mark.parametrize(("rules", "players"), CASES)
def test_resampling_hidden_cards_changes_no_observation_or_mask(rules: str,
                                                                players: int) -> None:
    game = Game(rules, players)
    rng = random.Random(players)
    changed = 0
    for _ in _random_states(game, rng, 25):
        if game.decision().prefix:
            continue  # mid-meld: the prefix is the agent's own choice, not in the state
        real = game.state
        for seat in range(players):
            obs, mask, legal = _seen_by(game, seat)
            other = resample(view(real, seat), random.Random(rng.random()))
            changed += other.hands != real.hands
            game.state = other
            try:
                obs2, mask2, legal2 = _seen_by(game, seat)
            finally:
                game.state = real
                game._forget()
            assert np.array_equal(obs, obs2)
            assert np.array_equal(mask, mask2)
            assert legal == legal2
    assert changed  # the hidden cards really moved
