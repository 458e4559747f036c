"""The fast contract playout policy (:mod:`rummykit.bots.contract_playout`) against the
engine: every move of whole deals (the seventh included) is legal, deal 7 ends by going
out, and the deal-7 shape measures agree with :func:`contract_shape.coverage`."""

from __future__ import annotations

import random

import pytest

from rummykit.bots import contract_playout, contract_shape
from rummykit.core.engine import HandState
from rummykit.variants import CONTRACT


@pytest.mark.parametrize("players", [3, 4])
def test_every_move_of_whole_deals_is_legal(players: int) -> None:
    checked = 0
    for deal in range(7):
        for seed in range(2):
            state = HandState.deal(CONTRACT, players, dealer=seed,
                                   rng=random.Random(100 * players + 10 * deal + seed),
                                   deal_index=deal)
            while state.result is None:
                move = contract_playout.fast_move(state)
                assert state.is_legal(move), (str(move), deal, state.turn_count)
                state.push(move)
                checked += 1
            assert state.result.winner is not None or deal == 0, (deal, state.result)
    assert checked > 1000


def test_seventh_deal_playouts_end_by_going_out_without_listing_moves() -> None:
    for seed in range(8):
        state = HandState.deal(CONTRACT, 4, dealer=0, rng=random.Random(seed), deal_index=6)
        contract_playout.play_out(state, 1000)
        assert state.result is not None and state.result.winner is not None


def test_fast_shape_measures_agree_with_coverage() -> None:
    rng = random.Random(3)
    pack = list(range(52)) * 2 + [52] * 4
    for _ in range(400):
        cards = rng.sample(pack, rng.randint(4, 15))
        size = len(cards) + rng.choice((-1, 0, 1))
        assert contract_shape.held_count(cards, size) == contract_shape.coverage(cards, size)[0]
        without = contract_shape.coverage_without(cards, size)
        for card in set(cards):
            rest = list(cards)
            rest.remove(card)
            assert without[card] == contract_shape.coverage(rest, size)[0], (cards, card)


def _seventh_draw_step(seed: int) -> HandState:
    """A 4-player deal 7 played by greedy seats up to a draw step where both draws are
    legal and the discard top is a card three runs could use."""
    from rummykit.bots.greedy_contract import choose_contract
    from rummykit.core.moves import Draw, Take
    from rummykit.core.views import view

    state = HandState.deal(CONTRACT, 4, dealer=0, rng=random.Random(seed), deal_index=6)
    while state.result is None:
        seen = view(state, state.to_move)
        if state.turn_count > 8 and Draw() in seen.legal and Take(1) in seen.legal:
            return state
        state.play(choose_contract(seen))
    raise AssertionError("no draw step found")


def test_seventh_deal_hint_searches_both_draws() -> None:
    from rummykit.bots import contract_race, hints
    from rummykit.core.views import view

    state = _seventh_draw_step(4)
    seen = view(state, state.to_move)
    found = hints.analyse(seen, "hard", random.Random(2)).candidates
    assert {str(c.move) for c in found} == {"draw", "take"}
    assert all(c.simulations > 0 for c in found)
    assert found[0].move == contract_race.choose(seen)  # the race's draw is recommended
    assert any(c.value != 0 for c in found)  # real playout estimates, not placeholders


def test_deal_ends_count_every_deal_of_whole_matches() -> None:
    from rummykit.benchmark.contract_bots import ends

    found = ends(["greedy"], 3, 1, 5)
    longest = found.pop("longest")
    assert sum(found.values()) == 7 and found["valve"] == 0
    assert 0 < longest < 1000
