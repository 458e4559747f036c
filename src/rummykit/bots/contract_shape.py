"""How close a hand is to the all-runs contract of the seventh deal (RULES.md §4.7).

Under ``all_at_once_no_discard`` a seat goes down in deal 7 only with three runs of
distinct suits that use every card it holds. :func:`coverage` measures a hand against that
target: the most of its cards that three runs of distinct suits, ``size`` cards long in
all, can hold (jokers filling gaps), and how many such targets reach it (flexibility).

>>> from rummykit.core.cards import parse_cards
>>> coverage(parse_cards("H5 H6 H7 C2 C3 C4 SQ SK SA D9 D9"), 13)[0]
9
>>> coverage(parse_cards("H5 H6 H7 C2 C3 C4 SQ SK SA H8 C5 SJ"), 13)[0]
12
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from rummykit.core.cards import JOKER, NUM_RANKS, Card

RUN_MIN = 3
SUITS = 4
TRIPLES = ((0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3))


def positions(cards: Sequence[Card]) -> list[int]:
    """Per suit, the bit set of run positions 1..14 held (an ace holds 1 and 14)."""
    held = [0] * SUITS
    for card in cards:
        if card == JOKER:
            continue
        suit, rank = divmod(card, NUM_RANKS)
        held[suit] |= 1 << (rank + 1)
        if rank == 0:
            held[suit] |= 1 << 14
    return held


@lru_cache(maxsize=1 << 16)
def _suit_table(held: int, longest: int) -> tuple[tuple[int, int], ...]:
    """Per run length 0..longest: (most positions held by one window, windows reaching it)."""
    table = [(0, 1)] * (longest + 1)
    for length in range(RUN_MIN, longest + 1):
        window = (1 << length) - 1
        best, ways = -1, 0
        for low in range(1, 15 - length + 1):
            got = (held & window << low).bit_count()
            if got > best:
                best, ways = got, 1
            elif got == best:
                ways += 1
        table[length] = (best, ways)
    return tuple(table)


def coverage(cards: Sequence[Card], size: int) -> tuple[int, int]:
    """(cards of ``cards`` that three distinct-suit runs of ``size`` cards in all can hold,
    the number of such run layouts that hold that many), jokers counted as held."""
    jokers = sum(1 for c in cards if c == JOKER)
    a, b, c, d = positions(cards)
    return _cover(a, b, c, d, jokers, size)


@lru_cache(maxsize=1 << 18)
def _cover(a: int, b: int, c: int, d: int, jokers: int, size: int) -> tuple[int, int]:
    """:func:`coverage` of the suits' held positions (memoised: playouts meet the same
    shapes again and again)."""
    longest = min(13, size - 2 * RUN_MIN)
    if longest < RUN_MIN:
        return 0, 0
    tables = [_suit_table(h, longest) for h in (a, b, c, d)]
    best, ways = -1, 0
    for x, y, z in TRIPLES:
        ta, tb, tc = tables[x], tables[y], tables[z]
        for la in range(RUN_MIN, longest + 1):
            for lb in range(RUN_MIN, min(longest, size - la - RUN_MIN) + 1):
                lc = size - la - lb
                if lc > longest:
                    continue
                got = ta[la][0] + tb[lb][0] + tc[lc][0]
                if got > best:
                    best, ways = got, ta[la][1] * tb[lb][1] * tc[lc][1]
                elif got == best:
                    ways += ta[la][1] * tb[lb][1] * tc[lc][1]
    return min(size, best + jokers), ways


_NEG = -100  # a run length no window can take


@lru_cache(maxsize=1 << 16)
def _lengths(held: int, longest: int) -> tuple[int, ...]:
    """Per run length 0..longest, the most positions one window of ``held`` covers
    (:data:`_NEG` below the shortest run)."""
    table = _suit_table(held, longest)
    return tuple(_NEG if length < RUN_MIN else table[length][0]
                 for length in range(longest + 1))


@lru_cache(maxsize=1 << 18)
def _pair(low: int, high: int, longest: int) -> tuple[int, ...]:
    """Per total length m, the most positions two runs (one per suit) of m cards cover."""
    a, b = _lengths(low, longest), _lengths(high, longest)
    found = [_NEG] * (2 * longest + 1)
    for la in range(RUN_MIN, longest + 1):
        va = a[la]
        for lb in range(RUN_MIN, longest + 1):
            if va + b[lb] > found[la + lb]:
                found[la + lb] = va + b[lb]
    return tuple(found)


def _triple(x: int, y: int, z: int, size: int, longest: int) -> int:
    """The most positions three runs (suits held as ``x``, ``y``, ``z``) of ``size``
    cards in all cover (symmetric: memoised on the sorted suits)."""
    if x > y:
        x, y = y, x
    if y > z:
        y, z = z, y
        if x > y:
            x, y = y, x
    return _sorted_triple(x, y, z, size, longest)


@lru_cache(maxsize=1 << 18)
def _sorted_triple(x: int, y: int, z: int, size: int, longest: int) -> int:
    pair, third = _pair(x, y, longest), _lengths(z, longest)
    best = _NEG
    for length in range(RUN_MIN, longest + 1):
        rest = size - length
        if 0 <= rest < len(pair) and pair[rest] + third[length] > best:
            best = pair[rest] + third[length]
    return best


@lru_cache(maxsize=1 << 16)
def _changed(held: int, longest: int) -> tuple[tuple[int, ...], ...]:
    """Per rank 0..12, :func:`_lengths` of ``held`` with that rank's position toggled (a
    rank held removed, one not held added; an ace at both ends)."""
    found = []
    for rank in range(NUM_RANKS):
        bit = 1 << (rank + 1) | (1 << 14 if rank == 0 else 0)
        found.append(_lengths(held ^ bit, longest))
    return tuple(found)


@lru_cache(maxsize=1 << 18)
def _beside(x: int, y: int, z: int, size: int, longest: int
            ) -> tuple[int, tuple[tuple[int, int], ...]]:
    """What three suits held as ``x <= y <= z`` give a fourth suit: (the most positions
    three runs in these three suits cover, then per length ``L`` of a run in the fourth
    suit the most two runs of these three cover in ``size - L`` cards).

    A hand's measures then read one suit at a time: with suit ``s`` changed to ``t``,
    the three runs hold ``max(best, max(pair + t[L] for L, pair in terms))``."""
    best = _sorted_triple(x, y, z, size, longest)
    pairs = (_pair(x, y, longest), _pair(x, z, longest), _pair(y, z, longest))
    terms = []
    for length in range(RUN_MIN, longest + 1):
        rest = size - length
        if 0 <= rest <= 2 * longest:
            most = max(p[rest] for p in pairs)
            if most > _NEG:
                terms.append((length, most))
    return best, tuple(terms)


def _trios(h: Sequence[int]) -> list[list[int]]:
    """Per suit, the other three suits' held positions, sorted (:func:`_beside`'s key)."""
    return [sorted(h[t] for t in range(SUITS) if t != suit) for suit in range(SUITS)]


@lru_cache(maxsize=1 << 18)
def _gains(x: int, y: int, z: int, held: int, size: int, longest: int) -> tuple[int, ...]:
    """Per rank 0..12, the most three runs cover once that rank is added to a suit held as
    ``held`` beside suits held as ``x <= y <= z`` (-1 for a rank already held)."""
    best, terms = _beside(x, y, z, size, longest)
    more = _changed(held, longest)
    return tuple(-1 if held >> (rank + 1) & 1 else _with(best, terms, more[rank])
                 for rank in range(NUM_RANKS))


def _with(best: int, terms: tuple[tuple[int, int], ...], lengths: tuple[int, ...]) -> int:
    """The most three runs cover given :func:`_beside`'s ``best`` and ``terms`` and the
    fourth suit's :func:`_lengths`."""
    for length, pair in terms:
        got = pair + lengths[length]
        if got > best:
            best = got
    return best


def held_count(cards: Sequence[Card], size: int) -> int:
    """``coverage(cards, size)[0]``, faster (no count of the layouts)."""
    longest = min(13, size - 2 * RUN_MIN)
    if longest < RUN_MIN:
        return 0
    h = positions(cards)
    jokers = sum(1 for c in cards if c == JOKER)
    best = max(_triple(h[x], h[y], h[z], size, longest) for x, y, z in TRIPLES)
    return min(size, best + jokers)


def coverage_without(cards: Sequence[Card], size: int) -> dict[Card, int]:
    """Per distinct card of ``cards``: ``coverage(cards less one copy of it, size)[0]``,
    all at once (only the card's suit changes)."""
    counts: dict[Card, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    longest = min(13, size - 2 * RUN_MIN)
    if longest < RUN_MIN:
        return dict.fromkeys(counts, 0)
    jokers = counts.get(JOKER, 0)
    h = positions(cards)
    beside = [_beside(x, y, z, size, longest) for x, y, z in _trios(h)]
    full = max(b[0] for b in beside)
    found: dict[Card, int] = {}
    for card, copies in counts.items():
        if card == JOKER:
            found[card] = min(size, full + jokers - 1)
        elif copies > 1:
            found[card] = min(size, full + jokers)
        else:
            suit, rank = divmod(card, NUM_RANKS)
            best, terms = beside[suit]
            less = _changed(h[suit], longest)[rank]
            found[card] = min(size, _with(best, terms, less) + jokers)
    return found


def outs(cards: Sequence[Card], size: int, unseen: Sequence[int]) -> int:
    """Copies still unseen (``unseen[card]``, the joker at 52) of the cards that would
    complete ``cards`` to ``size`` cards three runs hold exactly."""
    found = 0
    base = list(cards)
    for card, copies in enumerate(unseen):
        if copies and held_count([*base, card], size) == size:
            found += copies
    return found


def improving(cards: Sequence[Card], size: int, unseen: Sequence[int]) -> int:
    """Copies still unseen of the cards that would raise :func:`coverage` of ``cards``
    (how many draws bring the hand a card closer to three runs of ``size`` cards)."""
    held = held_count(cards, size)
    found = 0
    base = list(cards)
    for card, copies in enumerate(unseen):
        if copies and held_count([*base, card], size) > held:
            found += copies
    return found


def draw_counts(cards: Sequence[Card], size: int, unseen: Sequence[int]) -> tuple[int, int]:
    """(:func:`improving`, :func:`outs`) of ``cards`` at once, faster: a drawn card changes
    one suit's positions only, and a card whose position is held changes nothing."""
    longest = min(13, size - 2 * RUN_MIN)
    if longest < RUN_MIN:
        return 0, 0
    h = positions(cards)
    jokers = sum(1 for c in cards if c == JOKER)
    trios = _trios(h)
    held = min(size, max(_beside(x, y, z, size, longest)[0] for x, y, z in trios) + jokers)
    better = complete = 0
    if unseen[JOKER]:
        with_joker = min(size, held + 1)  # a joker is held wherever it goes
        if with_joker > held:
            better += unseen[JOKER]
        if with_joker == size:
            complete += unseen[JOKER]
    for suit, (x, y, z) in enumerate(trios):
        gains = _gains(x, y, z, h[suit], size, longest)
        base = NUM_RANKS * suit
        for rank in range(NUM_RANKS):
            copies = unseen[base + rank]
            if not copies or gains[rank] < 0:
                continue
            got = min(size, jokers + gains[rank])
            if got > held:
                better += copies
            if got == size:
                complete += copies
    return better, complete


__all__ = ["coverage", "coverage_without", "draw_counts", "held_count", "improving", "outs",
           "positions"]
