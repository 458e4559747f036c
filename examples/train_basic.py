"""Train a tiny policy on 2-player basic Rummy against the `random` bot, in plain numpy.

The Gymnasium environment of `rummykit.rl` plays one hand per episode (``reward="hand"``,
zero-sum: the points the hand's winner collects, counted against the loser). The policy
scores each legal action id with a per-action bias plus a few features of the action and
the agent's hand (what kind of move it is; for a discard or a take, how well the card
fits the hand and what it is worth), takes a softmax over the legal ids, and learns by
REINFORCE with a running-mean baseline. It then plays fresh hands greedily and reports
its win rate and mean points per hand next to an untrained (uniform) policy's.

    .venv/bin/python examples/train_basic.py --minutes 3

With ``--minutes 3`` (about 1,400 training hands on a shared 2-core machine) it won 81% of
300 evaluation hands against `random`, +10.8 points per hand; the untrained policy won 52%.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from rummykit.rl import gym_env

NUM_FEATURES = 9


class Policy:
    """Softmax over legal ids of ``bias[id] + features(id) @ theta``."""

    def __init__(self, env: Any, rng: np.random.Generator) -> None:
        game = env.unwrapped.game
        self.space = game.actions
        self.layout = game.observation
        self.bias = np.zeros(self.space.size)
        self.theta = np.zeros(NUM_FEATURES)
        self.rng = rng
        values = np.array([min(r, 10) for r in range(1, 14)] * 4, dtype=float) / 10
        self.values = values

    def features(self, obs: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """One row per legal id: kind one-hot (draw, take, discard, lay, meld), then
        fit / same rank / value of the card discarded or taken, and a constant."""
        space = self.space
        hand = self.layout.part(obs, "hand").reshape(4, 13)
        top = self.layout.part(obs, "discard_top")
        out = np.zeros((len(legal), NUM_FEATURES))
        for row, a in enumerate(legal):
            if a == 0:
                kind, card = 0, -1
            elif a < space.discard_base:
                kind, card = 1, int(np.argmax(top))
            elif a < space.lay_base:
                kind, card = 2, a - space.discard_base
            elif a < space.group_base:
                kind, card = 3, -1
            else:
                kind, card = 4, -1
            out[row, kind] = 1.0
            if card >= 0:
                suit, rank = divmod(card, 13)
                near = hand[suit, max(rank - 2, 0):rank + 3].sum() - hand[suit, rank]
                out[row, 5] = near / 4
                out[row, 6] = (hand[:, rank].sum() - hand[suit, rank]) / 3
                out[row, 7] = self.values[card]
            out[row, 8] = 1.0
        return out

    def act(self, obs: dict[str, np.ndarray], greedy: bool = False
            ) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
        legal = np.flatnonzero(obs["action_mask"])
        feats = self.features(obs["observation"], legal)
        logits = self.bias[legal] + feats @ self.theta
        probs = np.exp(logits - logits.max())
        probs /= probs.sum()
        pick = int(np.argmax(probs)) if greedy else int(self.rng.choice(len(legal), p=probs))
        return int(legal[pick]), legal, feats, probs - np.eye(len(legal))[pick]


def play_hand(env: Any, policy: Policy | None, seed: int, rng: np.random.Generator,
              greedy: bool = False) -> tuple[float, list[tuple[np.ndarray, ...]]]:
    """One hand; the agent's points and what REINFORCE needs of each decision."""
    obs, _ = env.reset(seed=seed)
    total, trace, done = 0.0, [], False
    while not done:
        if policy is None:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        else:
            action, legal, feats, minus_grad = policy.act(obs, greedy)
            trace.append((legal, feats, minus_grad))
        obs, reward, terminated, truncated, _ = env.step(action)
        total += reward
        done = terminated or truncated
    return total, trace


def evaluate(env: Any, policy: Policy | None, hands: int, seed: int) -> tuple[float, float]:
    """Win rate and mean points per hand over ``hands`` seeded hands."""
    rng = np.random.default_rng(seed)
    points = [play_hand(env, policy, seed + i, rng, greedy=True)[0] for i in range(hands)]
    return float(np.mean([p > 0 for p in points])), float(np.mean(points))


def train(env: Any, policy: Policy, seconds: float, episodes: int, seed: int,
          lr: float = 0.05) -> int:
    """REINFORCE until the time or episode budget is spent; returns the episodes played."""
    rng = np.random.default_rng(seed)
    baseline, done, deadline = 0.0, 0, time.perf_counter() + seconds
    while done < episodes and time.perf_counter() < deadline:
        points, trace = play_hand(env, policy, 10_000_000 + seed + done, rng)
        advantage = (points - baseline) / 50.0
        baseline += 0.05 * (points - baseline)
        for legal, feats, minus_grad in trace:
            policy.theta -= lr * advantage * (minus_grad @ feats)
            policy.bias[legal] -= lr * advantage * minus_grad
        done += 1
    return done


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="training time budget")
    parser.add_argument("--episodes", type=int, default=10**9, help="training hands at most")
    parser.add_argument("--eval", type=int, default=300, help="hands for each evaluation")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    env = gym_env("basic", 2, opponents="random", reward="hand", zero_sum=True)
    policy = Policy(env, np.random.default_rng(args.seed))
    before = evaluate(env, None, args.eval, seed=args.seed + 1)
    played = train(env, policy, args.minutes * 60, args.episodes, args.seed)
    after = evaluate(env, policy, args.eval, seed=args.seed + 1)
    print(f"trained on {played} hands against random")
    print(f"uniform policy: wins {before[0]:.0%} of hands, {before[1]:+.1f} points per hand")
    print(f"trained policy: wins {after[0]:.0%} of hands, {after[1]:+.1f} points per hand")
    return {"hands": played, "win_rate_before": before[0], "win_rate_after": after[0],
            "points_before": before[1], "points_after": after[1]}


if __name__ == "__main__":
    main()
