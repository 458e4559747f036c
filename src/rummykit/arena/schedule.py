"""The games of an arena: deal sets, seat rotations and the seeds derived from them.

Games come in *deal sets* of one game per seat rotation. In rotation ``r`` seat ``i`` is
played by ``bots[(i + r) % P]``, so over a set every bot sits at every seat. Every game
of a set is built from the set's seed alone: the match (first dealer, stock rebuilds) is
seeded with it and hand ``h`` is dealt from :func:`hand_deck` ``(seed, h)``; so the same
cards reach the same seats in every rotation and luck cancels between the bots. Only the
bots' own generator depends on the rotation as well (:func:`bot_rng`).

Seeds are derived with SHA-256 from their parts, never with ``hash()``, so they are the
same in every process and on every machine.

>>> [spec.bots for spec in schedule(["expert", "greedy"], 3, 4, seed=1)[:3]]
[('expert', 'greedy', 'greedy'), ('greedy', 'greedy', 'expert'), ('greedy', 'expert', 'greedy')]
>>> rounded_games(5, 2), seat_bots(["a", "b"], 4)
(6, ['a', 'b', 'b', 'b'])
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.core.cards import Card, standard_pack
from rummykit.variants.base import RulesLike


def derive(*parts: object) -> int:
    """A 63-bit seed from ``parts`` (their ``str`` forms), the same in every process."""
    text = "/".join(str(part) for part in parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game of the schedule: its place, its deal set's seed and a bot name per seat."""

    index: int
    deal_set: int
    rotation: int
    seed: int
    bots: tuple[str, ...]


def seat_bots(names: Sequence[str], players: int) -> list[str]:
    """One bot per seat: ``names`` in order, the last name filling the remaining seats."""
    return [names[min(seat, len(names) - 1)] for seat in range(players)]


def rounded_games(games: int, players: int) -> int:
    """``games`` rounded up to whole deal sets (a multiple of ``players``)."""
    return -(-games // players) * players


def schedule(bots: Sequence[str], players: int, games: int, *, seed: int) -> list[GameSpec]:
    """Every game, in order: deal set by deal set, rotation by rotation."""
    lineup = seat_bots(bots, players)
    specs: list[GameSpec] = []
    for deal_set in range(rounded_games(games, players) // players):
        set_seed = derive("arena", seed, "set", deal_set)
        for rotation in range(players):
            seats = tuple(lineup[(seat + rotation) % players] for seat in range(players))
            specs.append(GameSpec(len(specs), deal_set, rotation, set_seed, seats))
    return specs


def hand_deck(rules: RulesLike, players: int, seed: int, hand: int) -> list[Card]:
    """The shuffled pack of hand ``hand`` (0-based) of every game of the set ``seed``."""
    deck = list(standard_pack(*rules.pack_spec(players)))
    random.Random(derive("deck", seed, hand)).shuffle(deck)
    return deck


def bot_rng(seed: int, rotation: int) -> random.Random:
    """The generator the bots of one game share."""
    return random.Random(derive("bots", seed, rotation))
