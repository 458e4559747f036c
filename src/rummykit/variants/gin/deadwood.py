"""Card values, melds, arrangements and deadwood of gin hands (RULES.md §6.3, §6.14.2).

Hands are bit sets of core card codes (``suit * 13 + rank - 1``, suits C, D, H, S), so a
suit is a 13-bit block and a run is a block of adjacent bits. The minimum deadwood is exact:
every choice of sets (at most three ranks of a 10/11-card hand have 3+ cards) followed by
the best runs of each suit, read from a table of all 8,192 one-suit masks; results are
memoised per hand.

>>> from rummykit.core.cards import mask_of, parse_cards
>>> hand = mask_of(parse_cards("H7 H8 H9 C2 D2 S2 D5 D6 D7 CT"))
>>> min_deadwood(hand)
10
>>> format_arrangement(implied_arrangement(hand))
'C2 D2 S2 / D5 D6 D7 / H7 H8 H9'
>>> os_min_deadwood(mask_of(parse_cards("H4 C5 C6 H6 S6 C7 D7 H7 S7 CA C8")))
11
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from rummykit.core.cards import Card, cards_of, format_cards, mask_of

Group = tuple[Card, ...]
Arrangement = tuple[Group, ...]

SUIT_BITS = (1 << 13) - 1
#: one bit per suit at rank 0: shifted by r, the four cards of rank r + 1
RANK_COLUMN = 1 | 1 << 13 | 1 << 26 | 1 << 39
#: bits where a 3-card run may start (ranks A..J of each suit)
_RUN_STARTS = ((1 << 11) - 1) * RANK_COLUMN
#: card value by code: A = 1, 2-9 pip value, T/J/Q/K = 10
CARD_VALUES: tuple[int, ...] = tuple(min(c % 13 + 1, 10) for c in range(52))


def _suit_values() -> tuple[int, ...]:
    table = [0] * (1 << 13)
    for mask in range(1, 1 << 13):
        low = (mask & -mask).bit_length() - 1
        table[mask] = table[mask & (mask - 1)] + min(low + 1, 10)
    return tuple(table)


_SUIT_VALUE = _suit_values()
#: the largest card value of each one-suit 13-bit mask (0 for none)
_SUIT_MAX_VALUE = tuple(0 if not m else min(m.bit_length(), 10) for m in range(1 << 13))


def _suit_run_deadwood() -> tuple[int, ...]:
    """Minimum deadwood of every one-suit 13-bit mask using runs only."""
    table = [0] * (1 << 13)
    for mask in range(1, 1 << 13):
        low = (mask & -mask).bit_length() - 1
        best = table[mask ^ (1 << low)] + min(low + 1, 10)
        run = 1 << low
        for top in range(low + 1, 13):
            if not mask >> top & 1:
                break
            run |= 1 << top
            if top - low >= 2:
                best = min(best, table[mask ^ run])
        table[mask] = best
    return tuple(table)


#: built at the first use (12 ms: not at import)
_RUN_DEADWOOD: tuple[int, ...] = ()


def _run_deadwood_table() -> tuple[int, ...]:
    global _RUN_DEADWOOD
    _RUN_DEADWOOD = _suit_run_deadwood()
    return _RUN_DEADWOOD


def max_card_value(mask: int) -> int:
    """The largest card value in a bit set (0 if empty)."""
    t = _SUIT_MAX_VALUE
    return max(t[mask & SUIT_BITS], t[mask >> 13 & SUIT_BITS], t[mask >> 26 & SUIT_BITS],
               t[mask >> 39])


def mask_value(mask: int) -> int:
    """The sum of the card values of a bit set."""
    v = _SUIT_VALUE
    return v[mask & SUIT_BITS] + v[mask >> 13 & SUIT_BITS] + v[mask >> 26 & SUIT_BITS] + v[
        mask >> 39]


def _all_melds() -> tuple[int, ...]:
    melds: list[int] = []
    for rank in range(13):
        column = RANK_COLUMN << rank
        melds.append(column)
        melds.extend(column ^ (1 << (13 * suit + rank)) for suit in range(4))
    for suit in range(4):
        for low in range(13):
            for top in range(low + 2, 13):
                melds.append(((1 << (top - low + 1)) - 1) << (13 * suit + low))
    return tuple(melds)


#: every meld of one deck as a bit set: 65 sets and 264 runs
ALL_MELDS = _all_melds()
MELD_SET = frozenset(ALL_MELDS)
#: melds by their lowest card code
def _melds_by_low() -> tuple[tuple[int, ...], ...]:
    by_low: list[list[int]] = [[] for _ in range(52)]
    for meld in ALL_MELDS:
        by_low[(meld & -meld).bit_length() - 1].append(meld)
    return tuple(map(tuple, by_low))


_MELDS_BY_LOW = _melds_by_low()


def is_meld(mask: int) -> bool:
    """True for a set of 3-4 cards of one rank or a run of 3+ of one suit (ace low)."""
    return mask in MELD_SET


def is_set(mask: int) -> bool:
    """True for a meld whose cards share one rank."""
    low = (mask & -mask).bit_length() - 1
    return mask in MELD_SET and mask & (RANK_COLUMN << (low % 13)) == mask


def meldable(hand: int) -> int:
    """The cards of ``hand`` that lie in at least one meld within ``hand``."""
    starts = hand & hand >> 1 & hand >> 2 & _RUN_STARTS
    runs = starts | starts << 1 | starts << 2
    a, b, c, d = hand & SUIT_BITS, hand >> 13 & SUIT_BITS, hand >> 26 & SUIT_BITS, hand >> 39
    triples = (a & b & (c | d)) | (c & d & (a | b))
    return runs | (triples * RANK_COLUMN & hand)


def _suit_in_runs() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per one-suit 13-bit mask: its cards that lie in a run of 3+ within it, and the
    value of its other cards."""
    runs, rest = [], []
    for mask in range(1 << 13):
        starts = mask & mask >> 1 & mask >> 2
        in_runs = starts | starts << 1 | starts << 2
        runs.append(in_runs)
        rest.append(_SUIT_VALUE[mask & ~in_runs])
    return tuple(runs), tuple(rest)


#: built at the first use (not at import)
_IN_RUNS: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())


def loose_value(hand: int) -> int:
    """The value of the cards of ``hand`` in no meld within it (deadwood in every
    arrangement): :func:`mask_value` of ``hand & ~meldable(hand)``, by per-suit tables."""
    runs, off_runs = _IN_RUNS if _IN_RUNS[0] else _in_runs_table()
    a, b, c, d = hand & SUIT_BITS, hand >> 13 & SUIT_BITS, hand >> 26 & SUIT_BITS, hand >> 39
    triples = (a & b & (c | d)) | (c & d & (a | b))
    if not triples:
        return off_runs[a] + off_runs[b] + off_runs[c] + off_runs[d]
    v = _SUIT_VALUE
    return (v[a & ~(runs[a] | triples)] + v[b & ~(runs[b] | triples)]
            + v[c & ~(runs[c] | triples)] + v[d & ~(runs[d] | triples)])


def _in_runs_table() -> tuple[tuple[int, ...], tuple[int, ...]]:
    global _IN_RUNS
    _IN_RUNS = _suit_in_runs()
    return _IN_RUNS


def _runs_only(hand: int) -> int:
    t = _RUN_DEADWOOD or _run_deadwood_table()
    return t[hand & SUIT_BITS] + t[hand >> 13 & SUIT_BITS] + t[hand >> 26 & SUIT_BITS] + t[
        hand >> 39]


_CACHE: dict[int, int] = {}
_CACHE_LIMIT = 1 << 18


def min_deadwood(hand: int) -> int:
    """The smallest deadwood count over all arrangements of ``hand`` (exact)."""
    found = _CACHE.get(hand)
    if found is not None:
        return found
    a, b, c, d = hand & SUIT_BITS, hand >> 13 & SUIT_BITS, hand >> 26 & SUIT_BITS, hand >> 39
    triples = (a & b & (c | d)) | (c & d & (a | b))
    if not triples:
        best = _runs_only(hand)
    else:
        choices: list[tuple[int, ...]] = []
        while triples:
            low = triples & -triples
            triples ^= low
            column = hand & (RANK_COLUMN << (low.bit_length() - 1))
            if column.bit_count() == 4:
                options = [0, column]
                rest = column
                while rest:
                    one = rest & -rest
                    rest ^= one
                    options.append(column ^ one)
                choices.append(tuple(options))
            else:
                choices.append((0, column))
        best = _best_with_sets(hand, choices, 0)
    if len(_CACHE) >= _CACHE_LIMIT:
        _CACHE.clear()
    _CACHE[hand] = best
    return best


def _best_with_sets(hand: int, choices: list[tuple[int, ...]], index: int) -> int:
    if index == len(choices):
        return _runs_only(hand)
    return min(_best_with_sets(hand ^ removed, choices, index + 1)
               for removed in choices[index])


def knock_deadwood(hand: int, card: Card) -> int:
    """The minimum deadwood of ``hand`` once ``card`` is discarded from it."""
    return min_deadwood(hand & ~(1 << card))


def knock_discards(hand: int, limit: int, banned: int = 0) -> list[Card]:
    """The cards of an 11-card ``hand`` (not in ``banned``) whose discard leaves minimum
    deadwood at most ``limit``, in code order. A quick bound skips most hands: a card in
    no meld of the hand is deadwood in every arrangement."""
    loose = hand & ~meldable(hand)
    loose_value = mask_value(loose)
    if loose_value - max_card_value(loose) > limit:
        return []
    found = []
    rest = hand & ~banned
    while rest:
        low = rest & -rest
        rest ^= low
        card = low.bit_length() - 1
        if loose_value - (CARD_VALUES[card] if loose & low else 0) > limit:
            continue
        if min_deadwood(hand ^ low) <= limit:
            found.append(card)
    return found


# -- arrangements -------------------------------------------------------------------


def melds_in(hand: int) -> list[int]:
    """Every meld contained in ``hand``, as bit sets, in the order of :data:`ALL_MELDS`."""
    return [m for m in ALL_MELDS if m & hand == m]


def arrangements(hand: int, max_deadwood: int | None = None) -> Iterator[tuple[int, ...]]:
    """Every arrangement of ``hand`` (tuples of meld bit sets), optionally only those with
    deadwood at most ``max_deadwood``. Each arrangement comes once (melds by lowest card)."""
    yield from _arrange(hand, 0, () if max_deadwood is None else (max_deadwood,), ())


def _arrange(hand: int, spent: int, cap: tuple[int, ...], chosen: tuple[int, ...]
             ) -> Iterator[tuple[int, ...]]:
    if not hand:
        yield chosen
        return
    low = hand & -hand
    card = low.bit_length() - 1
    value = CARD_VALUES[card]
    if not cap or spent + value <= cap[0]:
        yield from _arrange(hand ^ low, spent + value, cap, chosen)
    for meld in _MELDS_BY_LOW[card]:
        if meld & hand == meld:
            yield from _arrange(hand ^ meld, spent, cap, (*chosen, meld))


def group_text(group: Iterable[Card]) -> str:
    """A group in meld notation (cards ascending: runs by rank, sets in suit order)."""
    return format_cards(sorted(group))


def format_arrangement(groups: Arrangement) -> str:
    """Groups joined by `` / `` as in a knock move."""
    return " / ".join(group_text(g) for g in groups)


def _canonical_order(meld: int) -> tuple[bool, int, int]:
    low = (meld & -meld).bit_length() - 1
    if is_set(meld):
        return (False, low % 13, low // 13)
    return (True, low % 13, low // 13)


_IMPLIED_CACHE: dict[int, Arrangement] = {}


def implied_arrangement(hand: int) -> Arrangement:
    """The implied arrangement of FORMATS.md §4.1: minimum deadwood, then the most cards in
    sets, then the smallest sorted list of group texts; written sets first, then runs, each
    by its lowest card (rank, then suit C, D, H, S)."""
    found = _IMPLIED_CACHE.get(hand)
    if found is not None:
        return found
    target = min_deadwood(hand)
    best: tuple[int, list[str]] | None = None
    best_melds: tuple[int, ...] = ()
    for melds in arrangements(hand, target):
        in_sets = sum(m.bit_count() for m in melds if is_set(m))
        key = (-in_sets, sorted(group_text(cards_of(m)) for m in melds))
        if best is None or key < best:
            best, best_melds = key, melds
    ordered = sorted(best_melds, key=_canonical_order)
    result = tuple(tuple(cards_of(m)) for m in ordered)
    if len(_IMPLIED_CACHE) >= _CACHE_LIMIT:
        _IMPLIED_CACHE.clear()
    _IMPLIED_CACHE[hand] = result
    return result


def arrangement_error(hand: int, groups: Arrangement) -> str | None:
    """Why ``groups`` is not an arrangement of cards of ``hand``, or None if it is."""
    used = 0
    for group in groups:
        mask = mask_of(group)
        text = group_text(group)
        if mask.bit_count() != len(group):
            return f"{text} repeats a card"
        if mask & ~hand:
            return f"{format_cards(cards_of(mask & ~hand))} not in hand"
        if mask & used:
            return f"{format_cards(cards_of(mask & used))} in two melds"
        if not is_meld(mask):
            return f"{text} is not a meld (a set of 3-4 of a rank or a run of 3+ of a suit)"
        used |= mask
    return None


def arrangement_mask(groups: Arrangement) -> int:
    """The cards of all the groups."""
    mask = 0
    for group in groups:
        mask |= mask_of(group)
    return mask


# -- OpenSpiel's 11-card knock test (RULES.md §6.14.2) --------------------------------


def os_index(card: Card) -> int:
    """OpenSpiel's card index: 13 * suit + rank with suits S, C, D, H."""
    return 13 * ((card // 13 + 1) % 4) + card % 13


def _os_rank_key(card: Card) -> tuple[int, int]:
    return (card % 13, os_index(card))


def _os_meld_list(cards: list[Card]) -> list[int]:
    melds: list[int] = []
    by_rank = sorted(cards, key=_os_rank_key)
    n = len(by_rank)
    for i in range(n - 3):
        if by_rank[i] % 13 == by_rank[i + 3] % 13:
            c = by_rank[i:i + 4]
            melds += [mask_of(c), mask_of((c[0], c[1], c[3])), mask_of((c[0], c[2], c[3]))]
    for i in range(n - 2):
        if by_rank[i] % 13 == by_rank[i + 2] % 13:
            melds.append(mask_of(by_rank[i:i + 3]))
    by_index = sorted(cards, key=os_index)
    for size in (5, 4, 3):
        for i in range(n - size + 1):
            first, last = by_index[i], by_index[i + size - 1]
            if os_index(last) == os_index(first) + size - 1 and first // 13 == last // 13:
                melds.append(mask_of(by_index[i:i + size]))
    return melds


_OS_CACHE: dict[int, int] = {}


def os_min_deadwood(hand: int) -> int:
    """OpenSpiel's ``MinDeadwood`` of a hand (10 cards: exact; 11 cards: the heuristic of
    RULES.md §6.14.2, steps 1-4, order included)."""
    found = _OS_CACHE.get(hand)
    if found is not None:
        return found
    cards = cards_of(hand)
    melds = _os_meld_list(cards)
    best = [0, 0]  # melded value, melded cards

    def visit(path_cards: int, path_value: int, last: int, pool: list[int]) -> None:
        children = [m for m in pool if not m & last]
        if not children:
            if path_value > best[0]:
                best[0], best[1] = path_value, path_cards
            return
        for child in children:
            visit(path_cards | child, path_value + mask_value(child), child, children)

    for meld in melds:
        visit(meld, mask_value(meld), meld, melds)
    left = hand & ~best[1]
    if hand.bit_count() == 11 and left:
        left ^= 1 << max(cards_of(left), key=_os_rank_key)
    result = mask_value(left)
    if len(_OS_CACHE) >= _CACHE_LIMIT:
        _OS_CACHE.clear()
    _OS_CACHE[hand] = result
    return result
