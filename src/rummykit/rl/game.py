"""The match an environment runs: seats, observations, masks, action steps and rewards.

Both environments drive one :class:`Game`; it sees the hands only through
:func:`~rummykit.core.views.view`, so a seat's observation and mask come from its
:class:`~rummykit.core.views.PlayerView` and the public match totals alone.

Rewards are real points: each seat's share of a hand's scores as the rule set gives them
(RULES.md §2.4, §4.9), signed so that more is better: ``winner_collects`` points count
positive, ``penalty`` points negative. ``zero_sum`` (the default) subtracts the mean over
the seats, so that a lost hand pays less than zero under both scorings: in 2-player
``basic`` a hand won for 20 points pays +10 to the winner and -10 to the loser; in
``contract`` each seat gets the mean penalty minus its own. ``zero_sum=False`` gives the
raw points (a ``winner_collects`` loss then pays 0).

The defaults teach: ``reward="hand"`` makes an episode one hand, with its rewards as it
ends; ``reward="match"`` plays the whole match, each hand's rewards coming as it ends.
``normalize=True`` scales observations into [0, 1] (:meth:`Observation.normalize`).
``compact=True`` numbers actions in the compact space (:mod:`rummykit.rl.compact`: only
the ids that can ever be legal); masks, :meth:`Game.legal_ids` and :meth:`Game.act` then
use compact ids, :attr:`Game.actions` staying the full space.

>>> import random
>>> game = Game("basic", 2, zero_sum=False)
>>> game.reset(seed=3)
>>> game.to_move, int(game.mask(game.to_move).sum()), game.done
(0, 2, False)
>>> rng = random.Random(0)
>>> while not game.done:
...     _ = game.act(rng.choice(game.legal_ids()))
>>> game.result.result, game.rewards
('win', [0.0, 4.0])
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from typing import Any

import numpy as np

from rummykit.core.cards import format_card
from rummykit.core.engine import HandState
from rummykit.core.match import Match
from rummykit.core.moves import Move
from rummykit.core.outcome import ABORTED, HandResult
from rummykit.core.rules import Rules, find_rules
from rummykit.core.views import PlayerView, view
from rummykit.display.terms import DEFAULT_RULE_SET
from rummykit.rl.actions import ActionSpace, Decision, Mask
from rummykit.rl.compact import CompactActions
from rummykit.rl.observation import Array, Observation

#: ``max_turns_per_hand`` set when the rules leave it unset (an engine safety valve, not a
#: rule: random players can otherwise prolong a hand for a very long time)
DEFAULT_MAX_TURNS = 1000
REWARDS = ("match", "hand")


def make_rules(rules: str | Rules, options: Mapping[str, Any] | None = None) -> Rules:
    """A preset by name (with knob ``options``, RULES.md §5), or a :class:`Rules` as is."""
    if isinstance(rules, str):
        made = Rules.from_options(rules, dict(options)) if options else find_rules(rules)
    else:
        if options:
            raise ValueError("options go with a rule set name, not with a Rules value")
        made = rules
    if made.max_turns_per_hand is None:
        made = dataclasses.replace(made, max_turns_per_hand=DEFAULT_MAX_TURNS)
    return made


class Game:
    """One hand (``reward="hand"``) or one match (``reward="match"``) played action by action."""

    #: the Gymnasium env's default opponent (:mod:`rummykit.rl.single_agent`)
    default_opponent = "easy"

    def __init__(self, rules: str | Rules = DEFAULT_RULE_SET, players: int = 2, *,
                 options: Mapping[str, Any] | None = None, reward: str = "hand",
                 zero_sum: bool = True, normalize: bool = False,
                 compact: bool = False) -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward {reward!r}: expected 'match' or 'hand'")
        self.rules = make_rules(rules, options)
        self.players = players
        self.actions = ActionSpace(self.rules, players)
        #: the compact space when ``compact``, else None
        self.compact = CompactActions(self.actions) if compact else None
        #: the number of action ids the agents choose among
        self.num_actions = self.compact.size if self.compact else self.actions.size
        self.observation = Observation(self.rules, players)
        self.reward = reward
        self.zero_sum = zero_sum
        self.normalize = normalize
        high = self.observation.high.copy()
        if reward == "hand":  # every episode is a new match's first hand: 0 (1 in the space)
            self.observation.part(high, "deal")[...] = 1.0
        #: the upper bounds of this game's observations (normalised or not; every entry
        #: is at least 0): finite but for the hands played in a ``target`` match
        self.high = np.ones_like(high) if normalize else high
        self.sign = -1.0 if self.rules.scoring == "penalty" else 1.0
        self.names = [f"player_{i}" for i in range(players)]
        self._seeds = random.Random()
        self.match: Match
        self.state: HandState
        #: the rewards of an action that ends no hand (shared: never changed in place)
        self.no_rewards: list[float] = [0.0] * players
        self.rewards = self.no_rewards
        self.done = False
        self.truncated = False
        self.result: HandResult | None = None
        self._seen: PlayerView | None = None
        self._decision: Decision | None = None
        #: the step loop's case (full action space, raw observations): its own path
        self._plain = not compact and not normalize
        self._build = self.observation.build

    def describe_action(self, action: int) -> str:
        """An action id in words (of the compact space when ``compact``)."""
        return self.compact.describe(action) if self.compact else self.actions.describe(action)

    # -- episode -----------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """Start a new match (and its first hand); a seed makes it the same match again,
        and seeds the next resets' matches."""
        if seed is not None:
            self._seeds.seed(seed)
        self.match = Match(self.rules, self.names, seed=self._seeds.getrandbits(64))
        self.rewards = self.no_rewards
        self.done = self.truncated = False
        self.result = None
        self._deal()

    def _deal(self) -> None:
        self.state = self.match.start_hand()
        self._forget()
        if self.state.result is not None:  # pragma: no cover - no preset ends at the deal
            self._hand_over(self.state.result)

    def _forget(self) -> None:
        self._seen = None
        self._decision = None

    @property
    def to_move(self) -> int:
        """The seat to move."""
        return self.state.to_move

    # -- what a seat sees ----------------------------------------------------------------
    def seen(self, seat: int) -> PlayerView:
        """The seat's view of the current hand."""
        if seat == self.state.to_move:
            if self._seen is None:
                self._seen = view(self.state, seat)
            return self._seen
        return view(self.state, seat)

    def decision(self) -> Decision:
        """The choice the seat to move is making (a ``meld`` of several groups takes
        several steps)."""
        if self._decision is None:
            self._decision = self.actions.decision(self.seen(self.state.to_move))
        return self._decision

    def observe(self, seat: int, out: Array | None = None) -> Array:
        """The seat's flat observation."""
        flat = self.observation.build(self.seen(seat), self.match.totals, out)
        if self.normalize:
            scaled = self.observation.normalize(flat)
            if out is None:
                return scaled
            out[:] = scaled
        return flat

    def mask(self, seat: int) -> Mask:
        """The seat's legal-action mask (all zero when it is not to move)."""
        if seat != self.state.to_move or self.done:
            return np.zeros(self.num_actions, dtype=np.int8)
        mask = (self._decision or self.decision()).mask()
        return self.compact.mask(mask) if self.compact else mask

    def observe_to_move(self) -> tuple[Array, Mask]:
        """The observation and mask of the seat to move (:meth:`observe` and :meth:`mask`
        in one call, the environments' step loop)."""
        if self.done or not self._plain:
            seat = self.state.to_move
            return self.observe(seat), self.mask(seat)
        seen = self._seen
        if seen is None:
            state = self.state
            seen = self._seen = view(state, state.to_move)
        decision = self._decision
        if decision is None:
            decision = self._decision = Decision(self.actions, seen.legal)
        return self._build(seen, self.match.totals), decision.mask()

    def legal_ids(self) -> list[int]:
        """The legal action ids of the seat to move."""
        if self.done:
            return []
        ids = self.decision().legal_ids()
        return [self.compact.to_compact(a) for a in ids] if self.compact else ids

    # -- acting --------------------------------------------------------------------------
    def act(self, action: int) -> Move | None:
        """One action of the seat to move; returns the move once it is complete. Sets
        :attr:`rewards` (this action's), :attr:`done` and :attr:`truncated`."""
        if self.compact:
            action = self.compact.to_full(action)
        elif not self.done:  # the step loop's case: act_full's steps, inline
            self.rewards = self.no_rewards
            decision = self._decision or self.decision()
            firsts = decision._firsts  # every move one id (else None): the id picks it
            if firsts is not None and action in firsts:
                return self._push(decision._moves[firsts.index(action)])
        return self.act_full(action)

    def play(self, move: Move) -> None:
        """A whole move of the seat to move (one action per meld group)."""
        for action in self.actions.actions(move):
            self.act_full(action)

    def act_full(self, action: int) -> Move | None:
        """:meth:`act` with an id of the full space."""
        if self.done:
            raise ValueError("the episode is over: reset the environment")
        self.rewards = self.no_rewards
        decision = self._decision or self.decision()
        try:
            move = decision.choose(action)
        except ValueError as exc:
            legal = ", ".join(self.actions.describe(a) for a in decision.legal_ids())
            raise ValueError(f"{exc}; legal: {legal}") from None
        if move is None:
            return None
        return self._push(move)

    def _push(self, move: Move) -> Move:
        """Play the complete ``move`` and score the hand if it ended."""
        self._seen = self._decision = None
        self.match.push(move)
        result = self.state.result
        if result is not None:
            self._hand_over(result)
        return move

    def _hand_over(self, result: HandResult) -> None:
        self.result = result
        points = [self.sign * s for s in result.scores]
        if self.zero_sum:
            mean = sum(points) / len(points)
            points = [p - mean for p in points]
        self.rewards = [float(p) for p in points]
        if self.reward == "hand":
            self.done = True
            self.truncated = result.result == ABORTED
        elif self.match.over:
            self.done = True
        else:
            self._deal()

    def describe(self, seat: int | None = None) -> str:
        """The hand in words, as ``seat`` sees it (the seat to move by default)."""
        seen = self.seen(self.state.to_move if seat is None else seat)
        lines = [f"hand {len(self.match.hands)}, seat {seen.to_move} to move ({seen.phase})",
                 f"totals: {list(self.match.totals)}",
                 f"discard top: {_card(seen.discard_top)}; stock: {seen.stock_size}",
                 f"hand sizes: {list(seen.hand_sizes)}"]
        lines += [f"meld {i + 1}: {meld}" for i, meld in enumerate(seen.table)]
        return "\n".join(lines)



def _card(card: int | None) -> str:
    return "-" if card is None else format_card(card)
