"""Contract meld arithmetic, its tables: a hand as three bit sets, every set of a rank,
the fewest jokers and the best value of runs by suit (how they are used: the
docstring of :mod:`rummykit.variants.contract.melds`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from rummykit.core.cards import JOKER, NUM_NATURALS, NUM_RANKS, Card
from rummykit.core.melds import JOKER_AS
from rummykit.core.rules import Rules

Group = tuple[int, ...]
Way = tuple[Group, ...]

_NEG = -(1 << 40)  # "impossible" for values
_BIG = 1 << 20  # "impossible" for joker counts
_SUIT = (1 << NUM_RANKS) - 1

_POP4 = tuple(bin(p).count("1") for p in range(16))
# bit set of the cards of rank index r in the suits of a 4-bit suit pattern
_SPREAD = tuple(tuple(sum(1 << (s * NUM_RANKS + r) for s in range(4) if p >> s & 1)
                      for p in range(16)) for r in range(NUM_RANKS))
# non-empty sub-patterns of a suit pattern, most suits first
_SUBMASKS = tuple(tuple(sorted((q for q in range(1, 16) if q & p == q),
                               key=lambda q: (-_POP4[q], q))) for p in range(16))


def _set_options(r: int) -> tuple[tuple[Group, int, int], ...]:
    """Every set of rank index ``r``: (cards, natural suit pattern, jokers), by cards."""
    options = []
    for nat in range(1, 16):
        for jok in range(16):
            if nat & jok or not 3 <= _POP4[nat | jok] <= 4:
                continue
            cards = tuple(s * NUM_RANKS + r + (JOKER_AS if jok >> s & 1 else 0)
                          for s in range(4) if (nat | jok) >> s & 1)
            options.append((cards, nat, _POP4[jok]))
    return tuple(sorted(options))


_SET_OPTIONS = tuple(_set_options(r) for r in range(NUM_RANKS))


def _take(l1: int, l2: int, l3: int, m: int) -> tuple[int, int, int]:
    """The layers with one copy of each card of ``m`` (all held) taken out."""
    return l1 & ~(m & ~l2), l2 & ~(m & ~l3), l3 & ~m


def _held(l1: int, r: int) -> int:
    """4-bit pattern of the suits held at rank index ``r``."""
    return (l1 >> r & 1) | (l1 >> (r + 12) & 2) | (l1 >> (r + 24) & 4) | (l1 >> (r + 36) & 8)


def _suit_key(l1: int, l2: int, s: int) -> int:
    """A suit's 13 cards held, plus bit 13 when its ace is held twice (one run's view)."""
    shift = s * NUM_RANKS
    return (l1 >> shift & _SUIT) | (l2 >> shift & 1) << NUM_RANKS


def _rank_of_position(p: int) -> int:
    """Rank index 0..12 of run position 1..14."""
    return p - 1 if p <= NUM_RANKS else 0


@dataclass(frozen=True, slots=True)
class _Values:
    """Per-rank values of naturals and the joker's value, each suit key's best run, and
    the best of several runs in one suit by its layers (shared by every search with these
    values: they depend on nothing else)."""

    ranks: tuple[int, ...]
    joker: int
    runs: dict[int, list[int]] = field(default_factory=dict, compare=False, hash=False)
    suits: dict[tuple[int, ...], list[int]] = field(default_factory=dict, compare=False,
                                                   hash=False)


class _Kit:
    """What one (run length, ace mode, distinct run suits) combination precomputes."""

    def __init__(self, min_len: int, ace_high: bool, distinct: bool) -> None:
        self.min_len = min_len
        self.top = 14 if ace_high else 13
        self.distinct = distinct
        # every run window (low, length, key bits of its positions)
        self.windows: list[tuple[int, int, tuple[int, ...]]] = []
        for lo in range(1, self.top + 1):
            for length in range(min_len, self.top - lo + 2):
                hi = lo + length - 1
                bits = tuple(NUM_RANKS if p == 14 and lo == 1 else _rank_of_position(p)
                             for p in range(lo, hi + 1))
                self.windows.append((lo, length, bits))
        self.min_windows = [sum(1 << b for b in bits)
                            for _, length, bits in self.windows if length == min_len]
        self.one_run: list[int] = [-1] * (1 << (NUM_RANKS + 1))
        self.multi_runs: dict[tuple[int, int, int, int, int], int] = {}
        self.values: dict[tuple[tuple[int, ...], int], _Values] = {}

    def run_jokers(self, key: int) -> int:
        """Fewest jokers a run needs in a suit with this key (``_BIG`` if none can)."""
        cost = self.one_run[key]
        if cost < 0:
            cost = _BIG
            for w in self.min_windows:
                held = (key & w).bit_count()
                if held and self.min_len - held < cost:
                    cost = self.min_len - held
            self.one_run[key] = cost
        return cost

    def value_table(self, ranks: tuple[int, ...], joker: int) -> _Values:
        """The (cached) value tables for these card values."""
        found = self.values.get((ranks, joker))
        if found is None:
            found = self.values[ranks, joker] = _Values(ranks, joker)
        return found

    def run_values(self, vals: _Values, key: int, jokers: int) -> list[int]:
        """Best value of one run in a suit with this key, for each budget 0..jokers."""
        found = vals.runs.get(key)
        if found is not None and len(found) > jokers:
            return found
        best = [_NEG] * (jokers + 1)
        ranks, jv = vals.ranks, vals.joker
        for _, length, bits in self.windows:
            held = sorted((ranks[b % NUM_RANKS] for b in bits if key >> b & 1), reverse=True)
            n = len(held)
            if not n or length - n > jokers:
                continue
            total = sum(held)
            for used in range(length - n, min(jokers, length - 1) + 1):
                # jokers beyond the gaps stand in for the cheapest naturals
                value = total + used * jv
                if value > best[used]:
                    best[used] = value
                total -= held[n - 1 - (used - (length - n))]
        for j in range(1, jokers + 1):
            if best[j - 1] > best[j]:
                best[j] = best[j - 1]
        vals.runs[key] = best
        return best


_KITS: dict[tuple[int, bool, bool], _Kit] = {}


def _kit(rules: Rules) -> _Kit:
    key = (rules.run_min_length, rules.ace_high, rules.contract_runs_distinct_suits)
    kit = _KITS.get(key)
    if kit is None:
        kit = _KITS[key] = _Kit(*key)
    return kit


def _layers(hand: Iterable[Card]) -> tuple[int, int, int, int]:
    """(held once, twice, three times, jokers) of a hand; refuses anything else."""
    counts = Counter(hand)
    l1 = l2 = l3 = 0
    jokers = 0
    for card, n in counts.items():
        if card == JOKER:
            jokers = n
            continue
        if not (isinstance(card, int) and 0 <= card < NUM_NATURALS):
            raise ValueError(f"not a card: {card!r}")
        if n > 3:
            raise ValueError(f"card {card} held {n} times: at most three copies are supported")
        bit = 1 << card
        l1 |= bit
        if n >= 2:
            l2 |= bit
        if n == 3:
            l3 |= bit
    return l1, l2, l3, jokers


def _count(l1: int, l2: int, l3: int, s: int, p: int) -> int:
    """Copies held of the card at position ``p`` of suit ``s``."""
    c = s * NUM_RANKS + _rank_of_position(p)
    return (l1 >> c & 1) + (l2 >> c & 1) + (l3 >> c & 1)


def _fill(slots: list[tuple[int, bool, bool]], missing: list[int], i: int, budget: int,
          naturals: int, aces: int, chosen: list[int]) -> Iterator[tuple[Group, int]]:
    """Each way to fill run positions ``slots[i:]`` (code, is an ace, held), a natural
    before a joker; ``missing[i]`` bounds the jokers the positions from ``i`` on need."""
    if i == len(slots):
        if naturals:
            yield tuple(chosen), budget
        return
    if missing[i] > budget:
        return
    code, ace, held = slots[i]
    if aces if ace else held:
        chosen.append(code)
        yield from _fill(slots, missing, i + 1, budget, naturals + 1, aces - ace, chosen)
        chosen.pop()
    if budget:
        chosen.append(JOKER_AS + code)
        yield from _fill(slots, missing, i + 1, budget - 1, naturals, aces, chosen)
        chosen.pop()


def _suit_runs(kit: _Kit, l1: int, l2: int, l3: int, s: int, jokers: int, min_only: bool
               ) -> Iterator[tuple[int, int, Group, int, int, int]]:
    """Every run in suit ``s``: (low, length, cards, taken once, taken again, jokers used).

    In canonical order: by low position, length, then cards (a natural before a joker at
    each position). ``min_only`` gives only runs of the minimum length.
    """
    base = s * NUM_RANKS
    held = [0] + [_count(l1, l2, l3, s, p) for p in range(1, 15)]  # copies per position
    gaps = [0] * 15  # gaps[p]: positions 1..p that no card held can take
    for p in range(1, 15):
        gaps[p] = gaps[p - 1] + (not held[p])
    for lo, length, _ in kit.windows:
        if min_only and length != kit.min_len:
            continue
        hi = lo + length - 1
        if gaps[hi] - gaps[lo - 1] > jokers or gaps[hi] - gaps[lo - 1] == length:
            continue  # the same test as below, before building the slots
        slots = [(base + _rank_of_position(p), p in (1, 14), held[p] > 0)
                 for p in range(lo, hi + 1)]
        # missing[i]: positions from i on that no card held can take
        missing = [0] * (length + 1)
        for i in range(length - 1, -1, -1):
            missing[i] = missing[i + 1] + (not held[lo + i])
        if lo == 1 and hi == 14 and held[1] == 1:
            missing[0] += 1
        if missing[0] > jokers or missing[0] == length:
            continue
        for cards, left in _fill(slots, missing, 0, jokers, 0, held[1], []):
            once = twice = 0
            for c in cards:
                if c < JOKER_AS:
                    if once >> c & 1:
                        twice |= 1 << c
                    once |= 1 << c
            yield lo, length, cards, once, twice, jokers - left


def _sets_with(l1: int, target: int, jokers: int) -> Iterator[tuple[int, int]]:
    """Every set of three holding the natural ``target`` (held), with the held naturals of
    its rank it could use and jokers for the rest: (naturals taken, jokers used), fewest
    jokers first. A bigger set holding ``target`` only keeps more cards from the rest."""
    s, r = divmod(target, NUM_RANKS)
    spread = _SPREAD[r]
    for q in _SUBMASKS[_held(l1, r)]:
        n = _POP4[q]
        if n > 3 or not q >> s & 1:
            continue
        if 3 - n > jokers:
            break
        yield spread[q], 3 - n


def _runs_with(kit: _Kit, l1: int, l2: int, l3: int, target: int, jokers: int
               ) -> Iterator[tuple[int, int, int]]:
    """Every run of ``kit.min_len`` cards holding the natural ``target`` (held) at one of its
    positions: (taken once, taken again, jokers used), each once, a natural before a joker
    at each position. Every other position takes a held natural or a joker, so the joker
    standing in for a held natural (which the rest may need) is among them; a longer run
    holding ``target`` only keeps more cards from the rest."""
    s, r = divmod(target, NUM_RANKS)
    base, n = s * NUM_RANKS, kit.min_len
    spots = (1, 14) if r == 0 and kit.top == 14 else (r + 1,)
    seen: set[tuple[int, int, int]] = set()
    for spot in spots:
        for lo in range(max(1, spot - n + 1), min(spot, kit.top - n + 1) + 1):
            others = [base + _rank_of_position(p) for p in range(lo, lo + n) if p != spot]
            # copies held, less the one at ``spot`` (both aces of a run from 1 to 14)
            copies = {c: _count(l1, l2, l3, s, c - base + 1) - (c == target) for c in others}
            if sum(not copies[c] for c in others) > jokers:
                continue
            # (index, once, twice, jokers left), depth first, natural before joker
            stack = [(0, 1 << target, 0, jokers)]
            while stack:
                i, once, twice, budget = stack.pop()
                if i == len(others):
                    found = (once, twice, jokers - budget)
                    if found not in seen:
                        seen.add(found)
                        yield found
                    continue
                c = others[i]
                if budget:
                    stack.append((i + 1, once, twice, budget - 1))
                if copies[c] > (once >> c & 1) + (twice >> c & 1) - (c == target):
                    bit = 1 << c
                    stack.append((i + 1, once | bit, twice | (once & bit), budget))
