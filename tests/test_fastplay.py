"""The search bot's fast playouts and world sampling (bots/fastplay.py), checked against
the engine: the same greedy play gives the same hand results, and sampled worlds agree
with the view they came from."""

from __future__ import annotations

import dataclasses
import pickle
import random

import pytest

from rummykit.bots import fastplay
from rummykit.bots.expert import Budget, ExpertBot, _outcome
from rummykit.bots.greedy import GreedyBot
from rummykit.bots.inference import inference_weights
from rummykit.bots.judge import judge_for, per_rules
from rummykit.bots.playout import greedy_move
from rummykit.core.cards import ALL_NATURALS, mask_of
from rummykit.core.engine import HandState
from rummykit.core.melds import RULES_BY_ID, tables_for
from rummykit.core.moves import Discard, Move
from rummykit.core.outcome import DEADLOCK, DRAW
from rummykit.core.rules import Rules
from rummykit.core.views import PlayerView, view

CASES = [("basic", 2, {}), ("traditional", 3, {}), ("basic", 4, {"must_discard_to_go_out": True}),
         ("basic", 3, {"ace_mode": "high_or_low"}), ("traditional", 2, {"max_melds_per_turn": 1})]


def _position(rules: Rules, players: int, seed: int) -> HandState | None:
    state = HandState.deal(rules, num_players=players, dealer=0, rng=random.Random(seed))
    for _ in range(random.Random(seed).randrange(0, 14)):
        if state.is_over:
            return None
        state.push(greedy_move(state))
    return None if state.is_over else state


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_fast_playouts_give_the_engines_greedy_results(
        name: str, players: int, options: dict[str, object]) -> None:
    """Played from the true state, the fast playout ends every hand as the engine's greedy
    playout does: the same result on 100% of the positions it can start from (a first
    move that is a draw, a take or a discard), stock rebuilds included (the engine replays
    the fast playout's shuffles from ``restocks``), deadlocks and drawn hands included (a
    drawn hand that ends the match is worth DRAWN_MATCH_VALUE to both), and a hand still
    going after the same number of turns scored by the same estimate."""
    rules = dataclasses.replace(Rules.from_options(name, options), max_turns_per_hand=None)
    compared = rebuilt = drawn = 0
    for seed in range(150):
        state = _position(rules, players, seed)
        if state is None:
            continue
        first = greedy_move(state)
        if not fastplay.fast_move(first):
            continue
        seen = view(state, state.to_move)
        world = fastplay.World(list(state.hands), list(state.stock))
        restocks: list[tuple[int, ...]] = []
        fast = fastplay.play_out_world(world, seen, first, random.Random(seed), max_turns=400,
                                       restocks=restocks)
        engine = state.copy()
        engine.given_restocks = [*state.restocks, *restocks]
        stop = engine.turn_count + 400
        engine.push(first)
        while engine.result is None and engine.turn_count < stop:
            engine.push(greedy_move(engine))
        expected = _outcome(engine, seen.seat)
        result = engine.result
        if result is not None and result.result == DRAW:
            drawn += 1
            if rules.draw_ends_match:
                expected = (fastplay.DRAWN_MATCH_VALUE, 0)
        rebuilt += engine.rebuilds > state.rebuilds
        compared += 1
        assert fast == expected, (seed, fast, expected, result)
    assert compared >= 100
    assert rebuilt > 0, "no position rebuilt the stock"


@pytest.mark.parametrize("players", [2, 3])
def test_fast_playouts_end_the_deadlocked_hands_as_the_engine_does(players: int) -> None:
    """Greedy traditional hands that end in the deadlock draw (RULES.md §3.3, about one
    in 200): played out fast from the deal, with the engine's shuffles, they end drawn
    too, worth DRAWN_MATCH_VALUE (the draw ends the match)."""
    rules = dataclasses.replace(Rules.from_options("traditional", {}), max_turns_per_hand=None)
    found = 0
    for seed in range(400):
        state = HandState.deal(rules, num_players=players, dealer=0, rng=random.Random(seed))
        engine = state.copy()
        while engine.result is None and engine.turn_count < 400:
            engine.push(greedy_move(engine))
        if engine.result is None or engine.result.reason != DEADLOCK:
            continue
        found += 1
        seen = view(state, state.to_move)
        world = fastplay.World(list(state.hands), list(state.stock))
        restocks: list[tuple[int, ...]] = []
        fast = fastplay.play_out_world(world, seen, greedy_move(state), random.Random(seed),
                                       max_turns=400, restocks=restocks)
        again = state.copy()
        again.given_restocks = restocks
        while again.result is None and again.turn_count < 400:
            again.push(greedy_move(again))
        assert again.result is not None and again.result.reason == DEADLOCK, seed
        assert fast == (fastplay.DRAWN_MATCH_VALUE, 0), seed
    assert found >= 1


def _seen_elsewhere(seen: PlayerView) -> int:
    bits = mask_of(seen.discard)
    for meld in seen.table:
        bits |= meld.mask
    return bits


@pytest.mark.parametrize(("name", "players", "options"), CASES[:2])
def test_sampled_worlds_agree_with_the_view(
        name: str, players: int, options: dict[str, object]) -> None:
    rules = Rules.from_options(name, options)
    checked = 0
    for seed in range(60):
        state = _position(rules, players, seed)
        if state is None:
            continue
        seen = view(state, state.to_move)
        world = fastplay.sample_world(seen, random.Random(seed), None)
        assert world.hands[seen.seat] == seen.hand
        assert [h.bit_count() for h in world.hands] == list(seen.hand_sizes)
        assert len(world.stock) == seen.stock_size
        dealt = 0
        for seat, hand in enumerate(world.hands):
            assert hand & seen.known[seat] == seen.known[seat]
            assert not hand & dealt
            dealt |= hand
        stock = mask_of(world.stock)
        assert not stock & dealt and len(set(world.stock)) == len(world.stock)
        assert not (dealt | stock) & _seen_elsewhere(seen)
        assert dealt | stock | _seen_elsewhere(seen) == ALL_NATURALS
        checked += 1
    assert checked > 30


def test_sampled_worlds_rarely_give_an_opponent_a_meld_it_would_have_played() -> None:
    rules = Rules.from_options("basic", {})
    state = HandState.deal(rules, 2, dealer=0, rng=random.Random(12))
    seen = view(state, state.to_move)
    melded = tables_for(rules).melded
    opponent = 1 - seen.seat
    original = fastplay.WORLD_TRIES
    counts = []
    try:
        for tries in (1, original):
            fastplay.WORLD_TRIES = tries
            counts.append(sum(bool(melded(fastplay.sample_world(
                seen, random.Random(seed), None).hands[opponent])) for seed in range(300)))
    finally:
        fastplay.WORLD_TRIES = original
    plain, chosen = counts
    assert plain > 30  # ten random cards often hold a meld
    assert chosen < plain / 3


def test_search_drops_candidates_clearly_behind() -> None:
    """With a budget of many worlds, a clearly worse discard stops being played early,
    while the leader is played in every world."""
    bot = ExpertBot(Budget(worlds=32, candidates=4))
    pruned = 0
    for seed in range(30):
        state = _position(Rules.from_options("basic", {}), 2, seed)
        if state is None or state.phase != "play":
            continue
        seen = view(state, state.to_move)
        discards: list[Move] = [m for m in seen.legal if isinstance(m, Discard)]
        if len(discards) < 4:
            continue
        analysis = bot.search(seen, discards[:4], random.Random(seed))
        best = analysis.candidates[0]
        assert best.simulations == 32
        assert all(c.simulations <= 32 and c.simulations % 8 == 0
                   for c in analysis.candidates)
        assert analysis.simulations == sum(c.simulations for c in analysis.candidates)
        pruned += analysis.simulations < 32 * 4
    assert pruned >= 3


def test_a_cycling_hand_is_played_greedily() -> None:
    bot = ExpertBot(Budget(worlds=8, candidates=3, long_hand=10))
    greedy = GreedyBot()
    for seed in range(20):
        state = _position(Rules.from_options("basic", {}), 2, seed)
        if state is None:
            continue
        seen = view(state, state.to_move)._replace(turn_count=10)
        assert bot.candidates(seen) == [greedy.choose(seen, random.Random(0))]


def test_a_hand_drawn_for_the_match_counts_as_a_loss_in_the_search() -> None:
    """In traditional Rummy a second empty stock draws the hand and ends the match with no
    winner; a playout that gets there is scored DRAWN_MATCH_VALUE (0 when the match goes
    on, ``draw_ends_match = false``)."""
    for ends, expected in ((True, fastplay.DRAWN_MATCH_VALUE), (False, 0.0)):
        rules = Rules.from_options("traditional", {"draw_ends_match": ends})
        state = HandState.deal(rules, num_players=3, dealer=0, rng=random.Random(4))
        state.push(greedy_move(state))  # a draw: now the play step
        seen = view(state, state.to_move)._replace(rebuilds=1, stock_size=0)
        world = fastplay.World(list(state.hands), [])
        throw = next(m for m in seen.legal if isinstance(m, Discard))
        assert fastplay.play_out_world(world, seen, throw, random.Random(1),
                                       max_turns=50) == (expected, 0)
    assert fastplay.DRAWN_MATCH_VALUE < 0


def test_shuffle_draws_as_random_shuffle_does() -> None:
    """The inline shuffle gives ``random.Random.shuffle``'s order for every pack length
    (seeded searches, and the games and arena journals made with them, stay the same)."""
    for length in range(0, 60):
        for seed in range(5):
            mine, theirs = list(range(length)), list(range(length))
            rng_mine, rng_theirs = random.Random(seed), random.Random(seed)
            fastplay.shuffle(mine, rng_mine)
            rng_theirs.shuffle(theirs)
            assert mine == theirs, (length, seed)
            assert rng_mine.random() == rng_theirs.random()  # the same draws were used


@pytest.mark.parametrize(("name", "players", "options"), CASES[:3])
def test_a_sampler_deals_what_sample_world_deals(
        name: str, players: int, options: dict[str, object]) -> None:
    """A :class:`fastplay.Sampler` kept for many worlds deals what fresh calls deal."""
    rules = Rules.from_options(name, options)
    for seed in range(30):
        state = _position(rules, players, seed)
        if state is None:
            continue
        seen = view(state, state.to_move)
        weigh = inference_weights(seen)
        sampler = fastplay.Sampler(seen, weigh)
        kept, fresh = random.Random(seed), random.Random(seed)
        for _ in range(4):
            a, b = sampler.sample(kept), fastplay.sample_world(seen, fresh, weigh)
            assert (a.hands, a.stock) == (b.hands, b.stock)


def test_equal_rules_share_one_set_of_playout_constants() -> None:
    """An arena worker unpickles a new copy of the rules for every game: the copies must
    find the same judge and playout constants (their memos grew a worker to 16 GB)."""
    rules = Rules.from_options("traditional", {})
    builds: list[Rules] = []

    def build(given: Rules) -> int:
        builds.append(given)
        return len(builds)

    made = per_rules(build)
    copies = [pickle.loads(pickle.dumps(rules)) for _ in range(RULES_BY_ID * 3)]
    assert {made(copy) for copy in copies} == {1} and builds == [rules]
    assert judge_for(copies[0]) is judge_for(copies[-1]) is judge_for(rules)
