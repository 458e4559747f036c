"""The compact action space: only the ids of :class:`~rummykit.rl.actions.ActionSpace` that
can ever be legal for the rule set and player count, derived from the rules (not sampled),
with the mapping both ways.

The full space is laid out for the most melds a pack could make (``pack // 3``); the rules
allow far fewer. The arguments, block by block (``n`` players, ``h`` the largest hand dealt,
``P`` the pack size):

- ``draw``, ``take``, every ``discard``: always possible. Digs (``take k``, ``k > 1``) reach
  as deep as the discard pile can be at a draw step: stock + pile never exceeds
  ``P - n * h_min`` (:mod:`rummykit.rl.bounds`), and the stock holds a card at a draw step
  unless the pile is turned over (``turn_over_all``).
- **Meld numbers.** Without digs a seat's hand at its turn's start is ``h`` less the cards
  it placed, so before a lay-off the seat laying off has placed at most ``h`` cards (it
  still holds the card it lays; ``h - 1`` under ``must_discard_to_go_out``) and every other
  seat at most ``h - 1`` (it still holds a card); each meld takes 3 cards of one seat, so
  the table holds at most ``sum(cap // 3)`` melds when a card is laid off. With digs the
  hands can grow: ``(P - n) // 3``. In contract, melds come only with going down (unless
  ``extra_melds_after_contract``): at most ``n`` times the largest contract, each seat's
  melds in a row, sets before runs (the engine's order), and no lay-off follows the
  all-at-once final deal.
- **Lay-offs** ``lay p on t``: every identity ``p`` on every meld number ``t`` that can
  exist. The END bit (``high``) is written only for an ace identity laid on a run from 2 to
  king, in ``high_or_low`` rules: the meld ``t`` must be a run position, and the 12-card
  run costs 9 cards beyond its 3, so ``t <= (sum(cap) - 9) // 3``.
- **Swaps** ``swap c on t``: every natural card, on meld numbers that can hold a run.
- **Meld groups**: without a contract, every group of at most the cards a seat can hold
  (``h + 1``, less one under ``must_discard_to_go_out``; with digs all). In contract, a
  group of a kind that some deal's contract asks for, with room left for that contract's
  other melds at their least (3 cards a set, ``run_min_length`` a run).

Every legal move of every game maps into the compact ids (``tests/test_rl_actions.py``
checks it over many random games of each rule set).

>>> from rummykit import BASIC
>>> from rummykit.rl.actions import ActionSpace
>>> compact = CompactActions(ActionSpace(BASIC, 2))
>>> compact.full.size, compact.size, compact.max_melds
(2151, 683, 6)
>>> c = compact.to_compact(compact.full.encode("discard H8"))
>>> compact.full.describe(compact.to_full(c))
'discard H8'
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from rummykit.core.cards import NUM_NATURALS, NUM_RANKS
from rummykit.core.melds import JOKER_AS
from rummykit.core.rules import Rules
from rummykit.rl.actions import ActionSpace, Mask
from rummykit.rl.bounds import hand_limit, hand_sizes, pile_limit
from rummykit.rl.encodings import table_encoding

__all__ = ["CompactActions", "meld_numbers", "reachable_ids"]

Ids = npt.NDArray[np.int64]


def _capacity(rules: Rules, players: int) -> list[int]:
    """Cards each seat can have placed before a lay-off (the seat laying off last)."""
    decks, jokers = rules.pack_spec(players)
    if rules.discard_dig:  # hands grow: every seat but holds a card
        return [decks * NUM_NATURALS + jokers - players]
    h = max(hand_sizes(rules, players))
    layer = h - 1 if rules.must_discard_to_go_out else h
    return [h - 1] * (players - 1) + [layer]


def meld_numbers(rules: Rules, players: int, most: int) -> tuple[int, set[int], int]:
    """(the most melds on the table when a card is laid off or swapped, the meld numbers
    that can be runs then, the most melds beside a run from 2 to king); ``most`` caps them
    (the full space's meld numbers)."""
    caps = _capacity(rules, players)
    by_cards = min(most, sum(c // 3 for c in caps))
    with_long_run = min(by_cards, (sum(caps) - 9) // 3)
    extra = table_encoding(rules)  # the family's limits (a contract's schedule), if any
    limited = extra.meld_numbers(rules, players, by_cards) if extra is not None else None
    if limited is None:
        return by_cards, set(range(1, by_cards + 1)), with_long_run
    count, runs = limited
    return count, runs, with_long_run


def _group_ok(group: tuple[int, ...], rules: Rules, players: int) -> bool:
    """Can this meld group ever be part of a legal meld?"""
    size = len(group)
    natural = [c - JOKER_AS if c >= JOKER_AS else c for c in group]
    is_set = len({c % NUM_RANKS for c in natural}) == 1 and size <= 4 and \
        len({c // NUM_RANKS for c in natural}) == size
    held = hand_limit(rules, players)
    room = held - 1 if rules.must_discard_to_go_out else held
    extra = table_encoding(rules)
    fits = extra.group_fits(rules, players, size, is_set, held, room) \
        if extra is not None else None
    return size <= room if fits is None else bool(fits)


def reachable_ids(space: ActionSpace) -> list[int]:
    """The ids of ``space`` that can ever be legal, ascending (see the module docstring)."""
    rules, n = space.rules, space.players
    ids = [0]
    depth = 1
    if rules.discard_dig:
        turned = rules.stock_rebuild == "turn_over_all"
        depth = min(space.max_take, pile_limit(rules, n) - (0 if turned else 1))
    ids += range(space.take_base, space.take_base + depth)
    ids += range(space.discard_base, space.discard_base + space.num_cards)
    count, runs, long_run = meld_numbers(rules, n, space.max_melds)
    aces = {suit * NUM_RANKS for suit in range(4)}
    for slot in range(space.num_placed):
        ace = slot % NUM_NATURALS in aces
        for t in range(count):
            at = space.lay_base + (slot * space.max_melds + t) * 2
            ids.append(at)
            if ace and rules.ace_high and t + 1 in runs and t + 1 <= long_run:
                ids.append(at + 1)
    if rules.joker_swap:
        ids += [space.swap_base + card * space.max_melds + t - 1
                for card in range(NUM_NATURALS) for t in sorted(runs)]
    ids += [space.group_base + i for i, g in enumerate(space.groups) if _group_ok(g, rules, n)]
    return sorted(ids)


class CompactActions:
    """The reachable ids of a full :class:`ActionSpace`, numbered ``0 .. size - 1`` in the
    full space's order, with the mapping both ways."""

    def __init__(self, full: ActionSpace) -> None:
        self.full = full
        self.max_melds = meld_numbers(full.rules, full.players, full.max_melds)[0]
        #: the full id of each compact id
        self.ids: Ids = np.array(reachable_ids(full), dtype=np.int64)
        self.size = len(self.ids)
        #: the compact id of each full id, -1 where it can never be legal
        self.index: Ids = np.full(full.size, -1, dtype=np.int64)
        self.index[self.ids] = np.arange(self.size)
        self._full = self.ids.tolist()
        self._compact = self.index.tolist()

    def to_full(self, action: int) -> int:
        """The full id of a compact id."""
        if not 0 <= action < self.size:
            raise ValueError(f"action {action}: expected 0..{self.size - 1}")
        return int(self._full[action])

    def to_compact(self, action: int) -> int:
        """The compact id of a full id; ``ValueError`` when it can never be legal."""
        found = self._compact[action] if 0 <= action < self.full.size else -1
        if found < 0:
            raise ValueError(f"action {action}: never legal in {self.full.rules.name} "
                             f"with {self.full.players} players")
        return int(found)

    def mask(self, full_mask: Mask) -> Mask:
        """A full mask in compact ids (a new array)."""
        return full_mask[self.ids]

    def describe(self, action: int) -> str:
        """A compact id in words."""
        return self.full.describe(self.to_full(action))
