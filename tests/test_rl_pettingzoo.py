"""The PettingZoo AEC environment passes PettingZoo's own tests and pays real points."""

from __future__ import annotations

import random
import warnings

import pytest
from pettingzoo.test import api_test, seed_test

from rummykit.rl import pettingzoo_env

CASES = [("basic", 2, "hand"), ("basic", 4, "match"), ("traditional", 2, "match"),
         ("traditional", 3, "hand"), ("contract", 3, "hand"), ("contract", 5, "match")]


@pytest.mark.parametrize(("rules", "players", "reward"), CASES)
def test_api_and_seed(rules: str, players: int, reward: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations, as in PettingZoo's classic envs
        api_test(pettingzoo_env(rules=rules, players=players, reward=reward), num_cycles=150)
        seed_test(lambda: pettingzoo_env(rules=rules, players=players, reward=reward),
                  num_cycles=60)


def _play(env, rng: random.Random) -> dict[str, float]:
    """Play random legal actions to the end; the rewards each agent collected."""
    got = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        got[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = [i for i, ok in enumerate(obs["action_mask"]) if ok]
        env.step(rng.choice(legal))
    return got


@pytest.mark.parametrize(("rules", "players", "options", "reward"), [
    ("basic", 3, {"target_score": 25}, "match"), ("contract", 3, {}, "hand")])
def test_rewards_are_the_match_points(rules: str, players: int, options: dict,
                                      reward: str) -> None:
    env = pettingzoo_env(rules=rules, players=players, options=options, reward=reward,
                         zero_sum=False)
    env.reset(seed=11)
    game = env.unwrapped.game
    got = _play(env, random.Random(11))
    assert not env.agents and (game.match.over or reward == "hand")
    sign = -1 if rules == "contract" else 1
    assert [got[a] for a in env.possible_agents] == [sign * t for t in game.match.totals]


def test_hand_rewards_zero_sum_and_terminal() -> None:
    env = pettingzoo_env(rules="basic", players=2, reward="hand", zero_sum=True)
    env.reset(seed=4)
    got = _play(env, random.Random(4))
    game = env.unwrapped.game
    assert len(game.match.hands) == 1 and game.result is not None
    assert sum(got.values()) == 0.0
    if game.result.winner is not None:
        assert got[f"player_{game.result.winner}"] == game.result.scores[game.result.winner] / 2


def test_illegal_action_is_refused_with_the_legal_ones() -> None:
    env = pettingzoo_env(rules="basic", players=2, wrapped=False)
    env.reset(seed=1)
    with pytest.raises(ValueError, match="legal: draw, take"):
        env.step(100)


def test_wrapped_env_ends_the_episode_on_an_illegal_action() -> None:
    """The default env wears PettingZoo's standard wrappers, like ``gin_rummy_v4.env()``."""
    env = pettingzoo_env(rules="basic", players=2)
    assert [type(w).__name__ for w in (env, env.env, env.env.env)] == [
        "OrderEnforcingWrapper", "AssertOutOfBoundsWrapper", "TerminateIllegalWrapper"]
    env.reset(seed=1)
    agent = env.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo warns of the illegal move
        env.step(100)
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1.0


def test_render_ansi() -> None:
    env = pettingzoo_env(rules="basic", players=2, render_mode="ansi")
    env.reset(seed=2)
    assert "to move" in env.render()


def test_match_mode_deals_the_next_hand_and_shows_the_totals() -> None:
    env = pettingzoo_env(rules="basic", players=2, options={"target_score": 500}, reward="match")
    env.reset(seed=5)
    game = env.unwrapped.game
    rng = random.Random(5)
    while len(game.match.hands) < 2:
        obs, *_ = env.last()
        legal = [i for i, ok in enumerate(obs["action_mask"]) if ok]
        env.step(rng.choice(legal))
    agent = env.agent_selection
    parts = game.observation.as_dict(env.observe(agent)["observation"])
    seat = int(agent.removeprefix("player_"))
    totals = game.match.totals
    assert parts["deal"].tolist() == [1.0]
    assert parts["scores"].tolist() == [totals[seat], totals[1 - seat]]
    assert not any(env.terminations.values())


@pytest.mark.parametrize(("rules", "players"), [("basic", 2), ("contract", 3)])
def test_compact_and_normalised_env_passes_the_api_test(rules: str, players: int) -> None:
    env = pettingzoo_env(rules=rules, players=players, compact=True, normalize=True)
    game = env.unwrapped.game
    assert env.action_space("player_0").n == game.compact.size < game.actions.size
    assert (env.observation_space("player_0")["observation"].high == 1).all()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=150)
