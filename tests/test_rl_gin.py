"""Gin and Oklahoma in the research interfaces: PettingZoo's api_test, Gymnasium's env
checker and OpenSpiel's random simulation pass; the action mapping of RULES.md §6.14.5
reaches every move and gives back the move; masks are the legal ids; observations stay in
their bounds and come from views alone; rewards are zero-sum with losses negative."""

from __future__ import annotations

import random
import warnings
from collections import Counter

import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from rummykit.core.moves import LayOff, Meld
from rummykit.rl import gym_env, openspiel_game, pettingzoo_env
from rummykit.rl.encodings import encoding_for, kind_of
from rummykit.rl.own_game import OwnGame
from rummykit.variants.gin.deadwood import arrangement_mask
from rummykit.variants.gin.encoding import KNOCK, Choice, move_of
from rummykit.variants.gin.hand import GinHand
from rummykit.variants.gin.moves import BigGin, Gin, Knock
from rummykit.variants.gin.rules import openspiel_profile
from rummykit.variants.gin.view import gin_view, resample

RULE_SETS = ("gin", "oklahoma")


def test_the_gin_family_is_hosted_by_its_own_encoding() -> None:
    assert [kind_of(name) for name in ("gin", "oklahoma", "basic", "contract")] == [
        "own", "own", "table", "table"]
    assert encoding_for("gin").num_actions == 241


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("reward", ["hand", "match"])
def test_pettingzoo_api_test_passes(rules: str, reward: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(pettingzoo_env(rules=rules, reward=reward), num_cycles=300)
        api_test(pettingzoo_env(rules=rules, reward=reward, normalize=True, compact=True,
                                options={"knock_limit": 7}), num_cycles=100)


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("normalize", [False, True])
def test_gymnasium_env_checker_passes(rules: str, normalize: bool) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(gym_env(rules=rules, normalize=normalize).unwrapped)


def test_normalised_observations_lie_in_the_unit_box() -> None:
    game = OwnGame("oklahoma", reward="match", normalize=True)
    rng = random.Random(3)
    game.reset(seed=2)
    steps = 0
    while not game.done and steps < 3000:
        obs, _ = game.observe_to_move()
        assert obs.min() >= 0 and obs.max() <= 1 and (game.high == 1).all()
        game.act(rng.choice(game.legal_ids()))
        steps += 1


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("match", [False, True])
def test_openspiel_random_simulation_passes(rules: str, match: bool) -> None:
    game = openspiel_game.load(rules, match=match, max_hands=2)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def _play_random(game: OwnGame, rng: random.Random, knock_bias: float) -> None:
    """One episode of random legal ids (knocking when it can, with ``knock_bias``),
    checking masks, bounds and the view-only observation at every step."""
    while not game.done:
        seat = game.to_move
        obs, mask = game.observe_to_move()
        ids = game.legal_ids()
        assert np.flatnonzero(mask).tolist() == ids and ids
        assert (obs >= 0).all() and (obs <= game.high).all(), game.observation.describe_entry(
            int(np.flatnonzero(obs > game.high)[0]))
        other = 1 - seat
        assert not game.mask(other).any()
        action = KNOCK if KNOCK in ids and rng.random() < knock_bias else rng.choice(ids)
        game.act(action)


@pytest.mark.parametrize("rules", RULE_SETS)
def test_random_hands_reach_every_kind_of_move_within_the_bounds(rules: str) -> None:
    game = OwnGame(rules, options={"big_gin_bonus": 31})
    rng = random.Random(5)
    kinds: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    for episode in range(120):
        game.reset(seed=episode)
        _play_random(game, rng, knock_bias=0.95)
        kinds.update(m.split()[0].rstrip(":") for m in game.match.hands[-1].moves)
        reasons[game.result.reason if game.result else "?"] += 1
        assert abs(sum(game.rewards)) < 1e-9
        if game.result is not None and game.result.winner is not None:
            loser = 1 - game.result.winner
            assert game.rewards[loser] < 0 < game.rewards[game.result.winner]
    assert {"draw", "take", "pass", "discard", "knock", "lay", "meld", "done"} <= set(kinds), \
        kinds
    assert reasons["knock"] + reasons["undercut"] + reasons["gin"] > 0, reasons


def _positions(rules_name: str, hands: int, seed: int) -> list[GinHand]:
    """Positions met along random hands that knock whenever they can."""
    game = OwnGame(rules_name)
    rng = random.Random(seed)
    found = []
    for episode in range(hands):
        game.reset(seed=seed + episode)
        while not game.done:
            found.append(game.state.copy())
            ids = game.legal_ids()
            game.act(KNOCK if KNOCK in ids else rng.choice(ids))
    return found


@pytest.mark.parametrize("rules", RULE_SETS)
def test_every_legal_move_maps_to_ids_that_give_it_back(rules: str) -> None:
    encoding = encoding_for(rules)
    checked: Counter[str] = Counter()
    for hand in _positions(rules, 40, 11):
        seen = gin_view(hand, hand.to_move)
        for move in seen.legal:
            if isinstance(move, Meld) and len(move.groups[0]) > 5:
                continue  # a 6+ card meld is declared as pieces
            ids = encoding.actions(move, seen)
            made = move_of(seen, ids)
            if isinstance(move, (Knock, Gin)):
                assert isinstance(made, (Knock, Gin)) and made.card == move.card
                assert arrangement_mask(made.groups or ()) == arrangement_mask(move.groups or ())
                assert hand.is_legal(made)
            elif isinstance(move, LayOff):
                assert isinstance(made, LayOff) and made.card == move.card
                assert made.target == min(hand.layoff_targets(move.card))
            else:
                assert made == move
            checked[type(move).__name__] += 1
    assert {"Knock", "LayOff", "Done", "Discard"} <= set(checked), checked


def _dealt(rules: object, first: str, upcard: str, stock_top: str = "") -> GinHand:
    """Seat 0 (the non-dealer) holds ``first``; the stock starts with ``stock_top``."""
    from rummykit.core.cards import parse_cards

    mine = parse_cards(first)
    theirs = parse_cards("D5 D6 D7 S9 ST SJ CK DK HK S4")
    up = parse_cards(upcard)[0]
    top = parse_cards(stock_top)
    used = {*mine, *theirs, up, *top}
    stock = [*top, *[c for c in range(52) if c not in used]]
    return GinHand.from_deal(rules, 1, [mine, theirs], up, stock)  # type: ignore[arg-type]


def test_a_knock_declares_any_legal_arrangement_meld_by_meld() -> None:
    from rummykit.core.cards import mask_of, parse_cards

    hand = _dealt(openspiel_profile(), "C2 D2 H2 S2 C3 C4 C5 HT HJ HQ", "S5")
    hand.play("take")
    choice = Choice(gin_view(hand, 0))
    assert KNOCK in choice.legal_ids()
    assert choice.choose(KNOCK) is None
    assert choice.choose(parse_cards("S5")[0]) is None
    # C2 belongs to the set of twos or to the run of clubs: both are offered
    four_twos, clubs = 56 + 5 * 1 + 4, 56 + 109 + 10 * 0 + 1
    assert {four_twos, clubs} <= set(choice.legal_ids())
    assert choice.choose(clubs) is None
    assert 54 not in choice.legal_ids()  # D2 H2 S2 and the hearts are still loose
    for meld in (56 + 5 * 1 + 0, 56 + 65 + 11 * 2 + 9):  # D2 H2 S2, HT HJ HQ
        assert choice.choose(meld) is None
    move = choice.choose(54)
    assert isinstance(move, Gin) and arrangement_mask(move.groups or ()) == mask_of(
        parse_cards("C2 C3 C4 C5 D2 H2 S2 HT HJ HQ"))
    assert hand.is_legal(move)


def test_big_gin_is_knock_then_end_when_the_rules_allow_it() -> None:
    from rummykit.variants.gin.rules import gin_rules_from_options

    rules = gin_rules_from_options("gin", {"big_gin_bonus": 31})
    hand = _dealt(rules, "C2 D2 H2 S2 C3 C4 C5 HT HJ HQ", "S5", stock_top="H9")
    for move in ("pass", "pass", "draw"):
        hand.play(move)
    seen = gin_view(hand, 0)
    assert any(isinstance(m, BigGin) for m in seen.legal)
    assert isinstance(move_of(seen, [KNOCK, 54]), BigGin)


@pytest.mark.parametrize("rules", RULE_SETS)
def test_observations_come_from_the_view_alone(rules: str) -> None:
    game = OwnGame(rules)
    layout = game.observation
    rng = random.Random(2)
    for hand in _positions(rules, 6, 3)[::7]:
        for seat in (0, 1):
            seen = gin_view(hand, seat)
            other = resample(seen, rng)  # the hidden cards dealt anew
            a = layout.build(seen, [0, 0])
            b = layout.build(gin_view(other, seat), [0, 0])
            assert np.array_equal(a, b)


def test_the_gym_env_defaults_to_a_documented_opponent_and_pays_losses_negative() -> None:
    env = gym_env(rules="gin")
    assert type(env.bots[1]).__name__ == "GinGreedyBot"
    rng = random.Random(4)
    paid = []
    for episode in range(12):
        _, info = env.reset(seed=episode)
        done = False
        total = 0.0
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            _, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
            total += reward
            done = terminated or truncated
        paid.append(total)
    assert min(paid) < 0  # random play loses hands to the greedy bot, and that costs


def test_a_match_episode_pays_the_settled_totals() -> None:
    game = OwnGame("gin", reward="match", zero_sum=False)
    rng = random.Random(9)
    game.reset(seed=1)
    earned = [0.0, 0.0]
    while not game.done:
        ids = game.legal_ids()
        game.act(KNOCK if KNOCK in ids else rng.choice(ids))
        earned = [e + r for e, r in zip(earned, game.rewards, strict=True)]
    assert game.match.over
    assert earned == [float(t) for t in game.match.scorer.settled_totals]


def test_the_incremental_build_equals_a_build_from_scratch_in_any_order() -> None:
    from rummykit.rl.own_game import OwnObservation

    game = OwnGame("gin")
    rng = random.Random(8)
    views = [(gin_view(h, seat), None) for h in _positions("gin", 4, 21) for seat in (0, 1)]
    rng.shuffle(views)
    kept = game.observation
    for seen, choice in views:
        fresh = OwnObservation(game.encoding, game.rules, False)
        assert np.array_equal(kept.build(seen, [3, 4], choice), fresh.build(seen, [3, 4]))


def _dealt_state(game: object, rng: random.Random) -> object:
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while state.is_chance_node():
        state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
    return state


def test_openspiel_resampling_keeps_the_information_state_and_deals_hidden_cards_anew() -> None:
    game = openspiel_game.load("gin")
    rng = random.Random(6)
    changed = 0
    for _ in range(6):
        state: object = _dealt_state(game, rng)
        for _ in range(rng.randrange(0, 40)):
            if state.is_terminal():  # type: ignore[attr-defined]
                break
            state.apply_action(rng.choice(state.legal_actions()))  # type: ignore[attr-defined]
        if state.is_terminal():  # type: ignore[attr-defined]
            continue
        player = state.current_player()  # type: ignore[attr-defined]
        sampled = state.resample_from_infostate(  # type: ignore[attr-defined]
            player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        for view in ("information_state_string", "information_state_tensor",
                     "observation_string", "observation_tensor"):
            assert getattr(sampled, view)(player) == getattr(state, view)(player)
        assert sampled.legal_actions() == state.legal_actions()  # type: ignore[attr-defined]
        other = 1 - player
        changed += sampled.hand.hands[other] != state.hand.hands[other]  # type: ignore
        with pytest.raises(TypeError, match="no history of its own"):
            pyspiel.serialize_game_and_state(game, sampled)
    assert changed >= 2


def test_openspiel_ismcts_plays_a_whole_hand_of_gin() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_rummykit_gin", {"max_turns": 30})
    rs = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(1, rs)
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 3, random_state=rs)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(int(rs.choice([o for o, _ in outcomes])))
        else:
            state.apply_action(int(bot.step(state)))
    assert abs(sum(state.returns())) < 1e-9


def test_the_knocks_face_down_discard_stays_out_of_the_defenders_information_state() -> None:
    game = openspiel_game.load("gin")
    rng = random.Random(12)
    seen_knocks = 0
    for _ in range(60):
        state: object = _dealt_state(game, rng)
        while not state.is_terminal():  # type: ignore[attr-defined]
            legal = state.legal_actions()  # type: ignore[attr-defined]
            if KNOCK in legal:
                knocker = state.current_player()  # type: ignore[attr-defined]
                state.apply_action(KNOCK)  # type: ignore[attr-defined]
                card = rng.choice(state.legal_actions())  # type: ignore[attr-defined]
                state.apply_action(card)  # type: ignore[attr-defined]
                text = state.information_state_string(1 - knocker)  # type: ignore
                tensor = state.information_state_tensor(1 - knocker)  # type: ignore
                assert text.rsplit("history ", 1)[1].split()[-2:] == ["55", "?"]
                length = game.history_length
                rows = np.array(tensor[-2 * length:]).reshape(length, 2)
                done = len(state.position.history)  # type: ignore[attr-defined]
                assert rows[done - 2].tolist() == [KNOCK + 1, 0]
                assert rows[done - 1].tolist() == [game.num_distinct_actions() + 1, 0]
                mine = state.information_state_string(knocker)  # type: ignore
                assert mine.rsplit("history ", 1)[1].split()[-1] == str(card)
                seen_knocks += 1
                break
            state.apply_action(rng.choice(legal))  # type: ignore[attr-defined]
        if seen_knocks >= 3:
            break
    assert seen_knocks >= 3


def test_an_illegal_id_is_refused_with_the_legal_ones_and_changes_nothing() -> None:
    game = OwnGame("gin")
    game.reset(seed=4)
    rng = random.Random(1)
    for _ in range(400):
        if game.done:
            game.reset()
        before, mask = game.observe_to_move()
        bad = rng.choice([a for a in range(-2, game.num_actions + 2)
                          if not 0 <= a < game.num_actions or not mask[a]])
        with pytest.raises(ValueError, match="not legal here; legal: "):
            game.act(bad)
        after, again = game.observe_to_move()
        assert np.array_equal(before, after) and np.array_equal(mask, again)
        game.act(rng.choice(game.legal_ids()))
