"""Move choosers for OpenSpiel's ``gin_rummy`` (the differential test's players).

Each policy picks one of ``hand.legal()`` for the player to move of an
:class:`~rummykit.rl.openspiel_gin.OsHand`, from OpenSpiel's state only:

- ``random``: uniform over the legal actions.
- ``greedy``: takes a card that lowers its minimum deadwood, discards to the lowest
  deadwood, knocks at once, lays its best meld group, lays off what lowers its deadwood.
- ``adversarial``: seeks the rules' edges: long take cycles (the 50-take limit), echo
  turns (the taken card discarded again: the repeated-move rule), knocks that stop laying
  melds as soon as the deadwood left is at most the limit (knocks at the limit, short
  melds left as lay-off targets), every lay-off it can, shows without melds, wall passes.
  Its appetite for each is drawn once per hand (:meth:`Adversarial.reset`).

>>> from rummykit.rl.openspiel_gin import Deal, OsHand
>>> rng = random.Random(3)
>>> hand = OsHand(False, Deal.shuffled(rng))
>>> players = [make_policy("greedy"), make_policy("adversarial")]
>>> for p in players:
...     p.reset(rng)
>>> while not hand.over:
...     hand.apply(players[hand.player].choose(hand, rng))
>>> hand.returns()[0] == -hand.returns()[1]
True
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from rummykit.rl.openspiel_gin import DRAW_STOCK, KNOCK, MELD_BASE, PASS, TAKE, OsHand, utils

__all__ = ["POLICIES", "Adversarial", "Greedy", "Policy", "Scripted", "Uniform", "make_policy"]


class Policy(Protocol):
    """Chooses OpenSpiel actions for one seat."""

    def reset(self, rng: random.Random) -> None:
        """Start a new hand."""

    def choose(self, hand: OsHand, rng: random.Random) -> int:
        """One of ``hand.legal()``."""


def _deadwood(cards: list[int]) -> int:
    """OpenSpiel's minimum deadwood (exact for 10 cards)."""
    return int(utils().min_deadwood(cards))


def _best_after_discard(cards: list[int]) -> tuple[int, int]:
    """(deadwood, card): the discard of 11 ``cards`` leaving the lowest deadwood (ties: the
    highest card value, then the highest index)."""
    u = utils()
    _, _, best = min((_deadwood([c for c in cards if c != x]), -int(u.card_value(x)) * 52 - x, x)
                     for x in cards)
    return _deadwood([c for c in cards if c != best]), best


def _improves(cards: list[int], card: int) -> bool:
    """Whether adding ``card`` and discarding the best card lowers the deadwood."""
    return _best_after_discard([*cards, card])[0] < _deadwood(cards)


def _best_melds(cards: list[int]) -> list[int]:
    """Meld actions of OpenSpiel's best meld group of ``cards``."""
    u = utils()
    return [MELD_BASE + int(u.meld_to_int(m)) for m in u.best_meld_group(cards)]


class Uniform:
    """Uniform over the legal actions."""

    def reset(self, rng: random.Random) -> None:
        pass

    def choose(self, hand: OsHand, rng: random.Random) -> int:
        return rng.choice(hand.legal())


class Greedy:
    """Lowest deadwood now; knocks as soon as it may."""

    def reset(self, rng: random.Random) -> None:
        pass

    def choose(self, hand: OsHand, rng: random.Random) -> int:
        legal = hand.legal()
        if len(legal) == 1:
            return legal[0]
        s: Any = hand.state
        cards = hand.hand(hand.player)
        phase = hand.phase
        if phase in ("FirstUpcard", "Draw"):
            if _improves(cards, int(s.upcard())):
                return TAKE
            return PASS if phase == "FirstUpcard" else DRAW_STOCK
        if phase == "Wall":
            return KNOCK if KNOCK in legal else PASS
        if phase == "Discard":
            return KNOCK if KNOCK in legal else _best_after_discard(cards)[1]
        if phase == "Knock":
            if len(cards) == 11:
                return min(legal, key=lambda x: (_deadwood([c for c in cards if c != x]), -x))
            for action in _best_melds(cards):
                if action in legal:
                    return action
            return PASS if PASS in legal else legal[-1]
        # Layoff: lay off what lowers the deadwood, then lay the best melds.
        if not s.finished_layoffs():
            now = _deadwood(cards)
            for action in legal:
                if action < TAKE and _deadwood([c for c in cards if c != action]) < now:
                    return action
            return PASS
        for action in _best_melds(cards):
            if action in legal:
                return action
        return PASS


class Adversarial:
    """Edge-seeking choices (see the module docstring); appetites drawn per hand."""

    def __init__(self) -> None:
        self.take = self.echo = self.knock = self.stop = self.layoff = self.meld = 0.5
        self.wall_pass = self.sharp = 0.5

    def reset(self, rng: random.Random) -> None:
        self.take = rng.uniform(0.3, 0.97)
        self.echo = rng.choice((0.0, rng.uniform(0.0, 0.6)))
        self.sharp = rng.uniform(0.4, 1.0)
        self.knock = rng.uniform(0.5, 1.0)
        self.stop = rng.uniform(0.6, 1.0)
        self.layoff = rng.uniform(0.7, 1.0)
        self.meld = rng.uniform(0.0, 1.0)
        self.wall_pass = rng.uniform(0.0, 0.6)

    def choose(self, hand: OsHand, rng: random.Random) -> int:
        legal = hand.legal()
        if len(legal) == 1:
            return legal[0]
        s: Any = hand.state
        phase = hand.phase
        if phase == "FirstUpcard":
            return TAKE if rng.random() < 0.5 else PASS
        if phase == "Draw":
            return TAKE if rng.random() < self.take else DRAW_STOCK
        if phase == "Wall":
            return PASS if rng.random() < self.wall_pass else legal[-1]
        if phase == "Discard":
            if KNOCK in legal and rng.random() < self.knock:
                return KNOCK
            taken = s.prev_upcard()
            held = hand.hand(hand.player)
            cards = list(held)
            if taken is not None and taken in cards:
                if rng.random() < self.echo:
                    return int(taken)  # an echo turn
                cards.remove(taken)  # a take cycle: keep the card
            if rng.random() < self.sharp:
                return min(cards, key=lambda x: (_deadwood([c for c in held if c != x]), -x))
            return rng.choice(cards)
        if phase == "Knock":
            if PASS in legal and rng.random() < self.stop:
                return PASS
            melds = [a for a in legal if a >= MELD_BASE]
            if not melds:
                return rng.choice(legal)
            short = [a for a in melds if len(utils().int_to_meld[a - MELD_BASE]) == 3]
            return rng.choice(short if short and rng.random() < 0.7 else melds)
        # Layoff
        if not s.finished_layoffs():
            cards = [a for a in legal if a < TAKE]
            if cards and rng.random() < self.layoff:
                return rng.choice(cards)
            return PASS
        melds = [a for a in legal if a >= MELD_BASE]
        if melds and rng.random() < self.meld:
            return rng.choice(melds)
        return PASS


class Scripted:
    """Plays the given OpenSpiel actions in order, whoever is to move (a reproduction)."""

    def __init__(self, actions: list[int]) -> None:
        self.actions = list(actions)
        self.at = 0

    def reset(self, rng: random.Random) -> None:
        self.at = 0

    def choose(self, hand: OsHand, rng: random.Random) -> int:
        action = self.actions[self.at]
        self.at += 1
        return action


POLICIES = ("random", "greedy", "adversarial")


def make_policy(name: str) -> Policy:
    """A new policy by name (one of :data:`POLICIES`)."""
    if name == "random":
        return Uniform()
    if name == "greedy":
        return Greedy()
    if name == "adversarial":
        return Adversarial()
    raise ValueError(f"unknown policy {name!r}: expected one of {', '.join(POLICIES)}")
