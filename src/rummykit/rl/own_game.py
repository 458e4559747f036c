"""The environments' match for a family with its own hand (``kind = "own"``, see
:mod:`rummykit.rl.encodings`): the family's encoding gives the action ids, the step-by-step
choice of a move and the observation's rows; this module makes them numpy arrays and keeps
the match, the masks and the rewards, with the interface of :class:`rummykit.rl.game.Game`.

Every observation comes from the seat's view (the family's ``view``, the only way hidden
cards leave its hand) and the public match totals. Rewards are the hand's points, signed
and zero-sum as in :mod:`rummykit.rl.game` (a hand won for 30 pays +15 and -15 by default;
``zero_sum=False``: the raw points, the loser's 0); with ``reward="match"`` the match's
settlement (boxes, game bonus, shutout) comes as the last hand's reward, so an episode's
rewards add up to the settled totals. ``compact`` changes nothing (every id of an own
encoding can be legal).

>>> import random
>>> game = OwnGame("gin", 2)
>>> game.reset(seed=3)
>>> game.num_actions, game.observation.size, int(game.mask(game.to_move).sum())
(241, 970, 2)
>>> rng = random.Random(0)
>>> while not game.done:
...     _ = game.act(rng.choice(game.legal_ids()))
>>> game.result.result in ("win", "draw", "aborted"), sum(game.rewards)
(True, 0.0)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import compress
from operator import ne
from typing import Any

import numpy as np

from rummykit.core.match import FamilyMatch
from rummykit.core.outcome import ABORTED, HandResult
from rummykit.rl.actions import Mask, fill_mask
from rummykit.rl.encodings import encoding_for
from rummykit.rl.layout import Array, Layout
from rummykit.variants.registry import variant_for

__all__ = ["OwnGame", "OwnObservation", "own_rules"]

CARDS = 52
_INT8 = np.dtype(np.int8)
#: masks of at most this many legal ids are kept (:meth:`OwnGame._mask_of`)
_FEW = 3


def own_rules(rules: Any, options: Mapping[str, Any] | None = None) -> Any:
    """A preset by name (with knob ``options``), or a rules value as is."""
    if isinstance(rules, str):
        variant = variant_for(rules)
        return variant.rules_from_options(rules, dict(options)) if options \
            else variant.preset(rules)
    if options:
        raise ValueError("options go with a rule set name, not with a rules value")
    return rules


class OwnObservation(Layout):
    """The observation layout of an own encoding: its card planes (52 columns each) then
    its scalars, as one flat ``float32`` array, with true upper bounds."""

    def __init__(self, encoding: Any, rules: Any, whole_match: bool) -> None:
        self.encoding = encoding
        self.shapes: dict[str, tuple[int, ...]] = {}
        self.offsets: dict[str, int] = {}
        self.meanings: dict[str, str] = {}
        at = 0
        for name, rows, meaning in encoding.planes:
            self.shapes[name] = (rows, CARDS) if rows > 1 else (CARDS,)
            self.offsets[name] = at
            self.meanings[name] = meaning
            at += rows * CARDS
        self.num_planes = at // CARDS
        for name, width, meaning in encoding.scalars:
            self.shapes[name] = (width,)
            self.offsets[name] = at
            self.meanings[name] = meaning
            at += width
        self.size = at
        self._card_size = self.num_planes * CARDS
        high = np.ones(at, dtype=np.float32)
        for name, bound in encoding.bounds(rules, whole_match).items():
            self.part(high, name)[...] = bound
        #: the upper bound of every entry (all entries are at least 0)
        self._set_high(high)
        self._rows = range(self.num_planes)
        #: each plane's first entry less one (``bit_length`` counts from 1)
        self._bases = [k * CARDS - 1 for k in self._rows]
        #: each seat's last observation (the incremental build)
        self._memo: dict[int, _Planes] = {}
        self._set_packer()
        self._scalars_at = 4 * self._card_size

    def build(self, seen: Any, totals: Sequence[int], choice: Any = None,
              out: Array | None = None) -> Array:
        """The flat observation of a seat's view (and the choice it is making): a new
        array, or ``out`` filled.

        Incremental: each seat's last observation is kept (its planes as bit sets and the
        ``float32`` bytes holding them); only the entries of planes whose bit set changed
        are written (a step changes a few cards), compared with what was written, so any
        order of views gives the observation built from scratch."""
        planes, scalars = self.encoding.rows(seen, choice, totals)
        memo = self._memo.get(seen.seat)
        if memo is None:
            memo = self._memo[seen.seat] = _Planes(self.size, self.num_planes)
        floats = memo.floats
        before = memo.planes
        bases = self._bases
        for k in compress(self._rows, map(ne, planes, before)):
            new = planes[k]
            diff = new ^ before[k]
            base = bases[k]
            if not diff & (diff - 1):  # one card in or out: the common case
                floats[base + diff.bit_length()] = 1.0 if new & diff else 0.0
                continue
            while diff:
                low = diff & -diff
                floats[base + low.bit_length()] = 1.0 if new & low else 0.0
                diff ^= low
        memo.planes = planes
        self._pack_into(memo.raw, self._scalars_at, *scalars)
        if out is None:
            return memo.flat.copy()
        out[:] = memo.flat
        return out


class _Planes:
    """One seat's last observation: its planes as bit sets and the bytes of its floats."""

    __slots__ = ("flat", "floats", "planes", "raw")

    def __init__(self, size: int, planes: int) -> None:
        self.planes = [0] * planes
        self.raw = bytearray(4 * size)
        self.flat: Array = np.frombuffer(self.raw, dtype=np.float32)
        #: a memoryview of format ``f`` (typeshed knows only bytes views)
        self.floats: Any = memoryview(self.raw).cast("f")

    def __getstate__(self) -> tuple[list[int], bytearray]:
        """The planes and the bytes (a memoryview cannot be copied or pickled)."""
        return self.planes, self.raw

    def __setstate__(self, state: tuple[list[int], bytearray]) -> None:
        self.planes, raw = state
        self.raw = bytearray(raw)
        self.flat = np.frombuffer(self.raw, dtype=np.float32)
        self.floats = memoryview(self.raw).cast("f")


class OwnGame:
    """One hand (``reward="hand"``) or one match (``reward="match"``) of a family with its
    own encoding, played action by action (the interface of :class:`rummykit.rl.game.Game`)."""

    def __init__(self, rules: Any, players: int = 2, *,
                 options: Mapping[str, Any] | None = None, reward: str = "hand",
                 zero_sum: bool = True, normalize: bool = False,
                 compact: bool = False) -> None:
        if reward not in ("match", "hand"):
            raise ValueError(f"reward {reward!r}: expected 'match' or 'hand'")
        self.rules = own_rules(rules, options)
        self.variant = variant_for(self.rules.name)
        self.encoding = encoding_for(self.rules.name)
        self.rules.check_players(players)
        self.players = players
        self.num_actions: int = self.encoding.num_actions
        self.observation = OwnObservation(self.encoding, self.rules, reward == "match")
        self.reward = reward
        self.zero_sum = zero_sum
        self.normalize = normalize
        self.high = np.ones_like(self.observation.high) if normalize \
            else self.observation.high
        self.names = [f"player_{i}" for i in range(players)]
        self.default_opponent: str = self.encoding.default_opponent
        self._seeds = random.Random()
        self.match: FamilyMatch[Any, Any]
        self.state: Any = None
        self.no_rewards: list[float] = [0.0] * players
        self.rewards = self.no_rewards
        self.done = False
        self.truncated = False
        self.result: HandResult | None = None
        self._seen: Any = None
        self._choice: Any = None
        #: the match totals before the hand in play (after it, once it is over)
        self.totals: list[int] = [0] * players
        self._masks: dict[tuple[int, ...], Mask] = {}  # the masks of a few ids, kept

    def describe_action(self, action: int) -> str:
        """An action id in words."""
        return str(self.encoding.describe(action))

    # -- episode -----------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """Start a new match (and its first hand); a seed makes it the same match again."""
        if seed is not None:
            self._seeds.seed(seed)
        self.match = FamilyMatch(self.rules, self.names, seed=self._seeds.getrandbits(64))
        self.rewards = self.no_rewards
        self.done = self.truncated = False
        self.result = None
        self._deal()

    def _deal(self) -> None:
        self.state = self.match.start_hand()
        self._seen = self._choice = None
        self.totals = list(self.match.totals)

    @property
    def to_move(self) -> int:
        """The seat to move."""
        return int(self.state.to_move)

    # -- what a seat sees ----------------------------------------------------------------
    def seen(self, seat: int) -> Any:
        """The seat's view of the current hand (the family's view)."""
        if seat == self.state.to_move:
            if self._seen is None:
                self._seen = self.variant.view(self.state, seat)
            return self._seen
        return self.variant.view(self.state, seat)

    def choice(self) -> Any:
        """The choice the seat to move is making (a knock takes several steps)."""
        if self._choice is None:
            self._choice = self.encoding.choice(self.seen(self.state.to_move))
        return self._choice

    def observe(self, seat: int, out: Array | None = None) -> Array:
        """The seat's flat observation."""
        mover = seat == self.state.to_move and not self.done
        flat = self.observation.build(self.seen(seat), self.totals,
                                      self.choice() if mover else None, out)
        if self.normalize:
            scaled = self.observation.normalize(flat)
            if out is None:
                return scaled
            out[:] = scaled
        return flat

    def mask(self, seat: int) -> Mask:
        """The seat's legal-action mask (all zero when it is not to move)."""
        if seat == self.state.to_move and not self.done:
            return self._mask_of(self.choice().legal_ids())
        return np.zeros(self.num_actions, _INT8)

    def _mask_of(self, ids: list[int]) -> Mask:
        """A new mask, 1 at ``ids``. The draw step's, the offer's and the wall's (a few
        ids, a few masks) are copied from the ones kept; the others are written anew."""
        if len(ids) <= _FEW:
            key = tuple(ids)
            found = self._masks.get(key)
            if found is None:
                if len(self._masks) >= 4096:  # a knock's few melds: many keys, kept bounded
                    self._masks.clear()
                found = self._masks[key] = fill_mask(self.num_actions, ids)
            return found.copy()
        return fill_mask(self.num_actions, ids)

    def observe_to_move(self) -> tuple[Array, Mask]:
        """The observation and mask of the seat to move (the environments' step loop)."""
        if self.done or self.normalize:
            seat = self.state.to_move
            return self.observe(seat), self.mask(seat)
        seen = self._seen
        if seen is None:
            state = self.state
            seen = self._seen = self.variant.view(state, state.to_move)
        choice = self._choice
        if choice is None:
            choice = self._choice = self.encoding.choice(seen)
        return self.observation.build(seen, self.totals, choice), \
            self._mask_of(choice.legal_ids())

    def legal_ids(self) -> list[int]:
        """The legal action ids of the seat to move."""
        return [] if self.done else list(self.choice().legal_ids())

    # -- acting --------------------------------------------------------------------------
    def act(self, action: int) -> Any:
        """One action of the seat to move; returns the move once it is complete."""
        if self.done:
            raise ValueError("the episode is over: reset the environment")
        self.rewards = self.no_rewards
        choice = self._choice or self.choice()
        try:
            move = choice.choose(int(action))
        except ValueError as exc:
            legal = ", ".join(self.describe_action(a) for a in choice.legal_ids())
            raise ValueError(f"{exc}; legal: {legal}") from None
        if move is None:
            return None
        if choice.checked:
            self.match.play(move)  # a knock assembled step by step: the hand checks it
        else:
            self.match.push(move)
        self._after()
        return move

    def play(self, move: Any) -> None:
        """A whole move of the seat to move (checked by the hand: short forms resolved)."""
        if self.done:
            raise ValueError("the episode is over: reset the environment")
        self.rewards = self.no_rewards
        self.match.play(move)
        self._after()

    def _after(self) -> None:
        self._seen = self._choice = None
        result = self.state.result
        if result is not None:
            self._hand_over(result)

    def _hand_over(self, result: HandResult) -> None:
        self.result = result
        points = [float(s) for s in result.scores]
        match = self.match
        last = self.reward == "hand" or match.over
        if self.reward == "match" and match.over:  # the settlement's bonuses, at the end
            settled = match.scorer.settled_totals
            points = [p + s - t for p, s, t in zip(points, settled, match.totals,
                                                   strict=True)]
        if self.zero_sum:
            mean = sum(points) / len(points)
            points = [p - mean for p in points]
        self.rewards = points
        self.totals = list(match.totals)
        if last:
            self.done = True
            self.truncated = result.result == ABORTED
        else:
            self._deal()

    def describe(self, seat: int | None = None) -> str:
        """The hand in words, as ``seat`` sees it (the seat to move by default)."""
        seen = self.seen(self.state.to_move if seat is None else seat)
        top = seen.discard[-1] if seen.discard else None
        from rummykit.core.cards import format_card, format_cards

        return "\n".join([
            f"hand {len(self.match.hands)}, seat {seen.to_move} to move ({seen.phase})",
            f"totals: {list(self.match.totals)}",
            f"your cards: {format_cards(seen.hand_cards)}",
            f"discard top: {'-' if top is None else format_card(top)}; "
            f"stock: {seen.stock_size}",
            f"legal: {', '.join(self.describe_action(a) for a in self.legal_ids())}"])
