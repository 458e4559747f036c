"""Pure meld arithmetic (RULES.md §1.3-§1.5): sets, runs, lay-offs, melds in a hand, deadwood.

A meld's cards are *placed codes*: a natural card ``0..51``, or a joker standing for natural
``X`` written as ``JOKER_AS + X`` (contract). Positions follow RULES.md §1.3: ace low = 1,
2..13 face, ace high = 14.

>>> from rummykit.core.cards import parse_cards, mask_of, format_cards
>>> from rummykit.variants import BASIC
>>> meld = make_meld(parse_cards("H3 HA H2"), BASIC)
>>> format_cards(meld.cards), meld.kind
('HA H2 H3', 'run')
>>> make_meld(parse_cards("HQ HK HA"), BASIC)
'HQ HK HA is not a meld: not a set (ranks differ) and not a run (cards are not ... low only)'
>>> min_deadwood(mask_of(parse_cards("HA H2 H3 C7 D7 S7 SK")), BASIC)
10
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rummykit.core.cards import (
    JOKER,
    NUM_RANKS,
    SUIT_MASK,
    SUITS,
    Card,
    card_points,
    cards_of,
    format_cards,
)
from rummykit.core.rules import Rules

JOKER_AS = 64
SET = "set"
RUN = "run"


def identity(placed: int) -> Card:
    """The natural card a placed code stands for."""
    return placed - JOKER_AS if placed >= JOKER_AS else placed


def hand_card(placed: int) -> Card:
    """The card that leaves the hand for a placed code (a joker for ``JK=..``)."""
    return JOKER if placed >= JOKER_AS else placed


def format_placed(placed: int) -> str:
    """``H6`` or ``JK=H6``."""
    if placed >= JOKER_AS:
        return "JK=" + format_cards([placed - JOKER_AS])
    return format_cards([placed])


def position_card(suit: int, position: int) -> Card:
    """The natural card at run position 1..14 of a suit (1 and 14 are both the ace)."""
    return suit * NUM_RANKS + (position - 1 if position <= NUM_RANKS else 0)


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table: its cards in meld order and who placed each one."""

    kind: str
    cards: tuple[int, ...]
    placed_by: tuple[int, ...]
    suit: int  # a run's suit; -1 for a set
    rank: int  # a set's rank 1..13; 0 for a run
    low: int  # a run's lowest position; the rank for a set
    high: int  # a run's highest position; the rank for a set
    accepts: int  # bit set of the natural cards that can be laid off on it

    def __str__(self) -> str:
        return " ".join(format_placed(c) for c in self.cards)

    @property
    def mask(self) -> int:
        """Bit set of the natural cards in the meld (jokers excluded)."""
        bits = 0
        for c in self.cards:
            if c < JOKER_AS:
                bits |= 1 << c
        return bits

    def ends_for(self, card: Card, rules: Rules) -> tuple[str, ...]:
        """Where a natural card can be laid off: ``()``, ``("low",)``, ``("high",)`` or both."""
        if not self.accepts >> card & 1:
            return ()
        if self.kind == SET:
            return ("high",)
        ends = []
        if self.low > 1 and position_card(self.suit, self.low - 1) == card:
            ends.append("low")
        top = 14 if rules.ace_high else 13
        if self.high < top and position_card(self.suit, self.high + 1) == card:
            ends.append("high")
        return tuple(ends)


def _accepts(kind: str, cards: Sequence[int], suit: int, low: int, high: int,
             rules: Rules) -> int:
    if kind == SET:
        if len(cards) >= 4:
            return 0
        present = {identity(c) // NUM_RANKS for c in cards}
        return sum(1 << (s * NUM_RANKS + low - 1) for s in range(4) if s not in present)
    bits = 0
    if low > 1:
        bits |= 1 << position_card(suit, low - 1)
    if high < (14 if rules.ace_high else 13):
        bits |= 1 << position_card(suit, high + 1)
    return bits


def _as_set(cards: Sequence[int]) -> tuple[int, ...] | str:
    ids = [identity(c) for c in cards]
    if len({c % NUM_RANKS for c in ids}) != 1:
        return "ranks differ"
    if len(cards) > 4:
        return "a set has at most 4 cards"
    if len({c // NUM_RANKS for c in ids}) != len(ids):
        return "a set needs different suits"
    return tuple(sorted(cards, key=identity))


def _as_run(cards: Sequence[int], rules: Rules) -> tuple[tuple[int, ...], int, int] | str:
    ids = [identity(c) for c in cards]
    suit = ids[0] // NUM_RANKS
    if any(c // NUM_RANKS != suit for c in ids):
        return "suits differ"
    if len(cards) < rules.run_min_length:
        return f"a run needs at least {rules.run_min_length} cards"
    ranks = [c % NUM_RANKS + 1 for c in ids]
    aces = [i for i, r in enumerate(ranks) if r == 1]
    others = sorted(r for r in ranks if r != 1)
    if len(set(others)) != len(others):
        return "a run cannot repeat a rank"
    choices: list[list[int]] = [[1]]
    if rules.ace_high:
        choices = [[1, 14]] if len(aces) == 1 else [[1], [14]]
    if not aces:
        positions = others
    elif len(aces) == 1:
        positions = []
        for ace_at in choices[0]:
            trial = sorted([*others, ace_at])
            if trial[-1] - trial[0] + 1 == len(trial):
                positions.append(ace_at)
        if not positions:
            return "cards are not consecutive" + ("" if rules.ace_high else ", ace is low only")
        if len(positions) == 2:  # A..K: the ace's place as written decides
            positions = [1 if aces[0] == 0 else 14]
        positions = sorted([*others, positions[0]])
    elif len(aces) == 2 and rules.ace_high:
        positions = sorted([1, *others, 14])
    else:
        return "a run cannot repeat a rank"
    if positions[-1] - positions[0] + 1 != len(positions):
        return "cards are not consecutive"
    by_position: dict[int, list[int]] = {}
    for c, r in zip(cards, ranks, strict=True):
        by_position.setdefault(r, []).append(c)
    ordered = []
    for p in positions:
        ordered.append(by_position[1 if p == 14 else p].pop(0))
    return tuple(ordered), positions[0], positions[-1]


def make_meld(cards: Sequence[int], rules: Rules, seat: int = 0) -> TableMeld | str:
    """The table meld that ``cards`` form, or a reason why they are not a meld.

    Cards are placed codes in any order; a natural ace that could stand low or high in a
    13-card run takes the place it has in ``cards`` (first = low, last = high).
    """
    text = " ".join(format_placed(c) for c in cards)
    if len(cards) < 3:
        return f"{text} is not a meld: a meld needs at least 3 cards"
    if all(c >= JOKER_AS for c in cards):
        return f"{text} is not a meld: a meld needs a natural card"
    as_set = _as_set(cards)
    if isinstance(as_set, tuple):
        rank = identity(as_set[0]) % NUM_RANKS + 1
        return TableMeld(SET, as_set, (seat,) * len(cards), -1, rank, rank, rank,
                         _accepts(SET, as_set, -1, rank, rank, rules))
    as_run = _as_run(cards, rules)
    if isinstance(as_run, tuple):
        ordered, low, high = as_run
        suit = identity(ordered[0]) // NUM_RANKS
        return TableMeld(RUN, ordered, (seat,) * len(cards), suit, 0, low, high,
                         _accepts(RUN, ordered, suit, low, high, rules))
    return f"{text} is not a meld: not a set ({as_set}) and not a run ({as_run})"


def lay_off(meld: TableMeld, placed: int, end: str, seat: int, rules: Rules) -> TableMeld:
    """``meld`` with one more card at ``end`` (checked by the caller with ``ends_for``)."""
    if meld.kind == SET:
        cards = tuple(sorted((*meld.cards, placed), key=identity))
        index = cards.index(placed)
        by = (*meld.placed_by[:index], seat, *meld.placed_by[index:])
        return TableMeld(SET, cards, by, -1, meld.rank, meld.low, meld.high,
                         _accepts(SET, cards, -1, meld.low, meld.high, rules))
    if end == "low":
        cards, by = (placed, *meld.cards), (seat, *meld.placed_by)
        low, high = meld.low - 1, meld.high
    else:
        cards, by = (*meld.cards, placed), (*meld.placed_by, seat)
        low, high = meld.low, meld.high + 1
    return TableMeld(RUN, cards, by, meld.suit, 0, low, high,
                     _accepts(RUN, cards, meld.suit, low, high, rules))


# --- tables per (ace mode, run length, ace value) ----------------------------------------

class MeldTables:
    """Precomputed per-suit tables: runs in a 13-bit suit mask, and its least deadwood."""

    def __init__(self, ace_high: bool, run_min_length: int, ace_value: int,
                 values: tuple[int, ...] | None = None) -> None:
        """Tables for one ace mode and run length; ``values`` weighs each rank (default:
        its points), e.g. a bot's own measure of what an unmatched card costs."""
        self._arguments = (ace_high, run_min_length, ace_value, values)
        self.ace_high = ace_high
        self.run_min_length = run_min_length
        self.values = values or tuple(card_points(r, ace_value) for r in range(NUM_RANKS))
        self.suit_deadwood = [0] * (1 << NUM_RANKS)
        self._suit_best_runs: list[tuple[tuple[int, int], ...]] = [()] * (1 << NUM_RANKS)
        for m in range(1 << NUM_RANKS):
            value, runs = self._best_runs(m)
            self.suit_deadwood[m] = sum(self.values[r] for r in range(NUM_RANKS)
                                        if m >> r & 1) - value
            self._suit_best_runs[m] = runs
        self.suit_run_cards = [
            sum(1 << ((p - 1) % NUM_RANKS if p <= NUM_RANKS else 0)
                for lo, hi in runs for p in range(lo, hi + 1))
            for runs in self._suit_best_runs]
        self._runs_in: dict[int, tuple[tuple[int, int], ...]] = {}
        #: least total value of the cards left out of melds (natural cards, one deck)
        self.min_deadwood: Callable[[int], int] = _make_solver(
            tuple(self.suit_deadwood), self._set_removals)

    def __reduce__(self) -> tuple[Callable[..., MeldTables], tuple[object, ...]]:
        """Pickled as its arguments (its solver is a closure); unpickled from the cache."""
        return _tables_of, self._arguments

    def _segments(self, m: int, ace_at: int) -> list[tuple[int, int]]:
        present = [False] * 16
        for p in range(2, 14):
            present[p] = bool(m >> (p - 1) & 1)
        present[ace_at] = bool(m & 1)
        segments, start = [], 0
        for p in range(1, 16):
            if present[p] and not start:
                start = p
            elif not present[p] and start:
                if p - start >= self.run_min_length:
                    segments.append((start, p - 1))
                start = 0
        return segments

    def _best_runs(self, m: int) -> tuple[int, tuple[tuple[int, int], ...]]:
        best: tuple[int, tuple[tuple[int, int], ...]] = (-1, ())
        for ace_at in ((1, 14) if self.ace_high else (1,)):
            segments = self._segments(m, ace_at)
            value = sum(self.values[(p - 1) % NUM_RANKS if p <= 13 else 0]
                        for lo, hi in segments for p in range(lo, hi + 1))
            if value > best[0]:
                best = (value, tuple(segments))
        return best

    def runs_in(self, m: int) -> tuple[tuple[int, int], ...]:
        """Every run (low, high positions) inside a 13-bit suit mask, in a fixed order."""
        found = self._runs_in.get(m)
        if found is None:
            present = [bool(m >> (p - 1) & 1) for p in range(1, 14)] + [bool(m & 1)]
            top = 14 if self.ace_high else 13
            length = self.run_min_length
            runs = []
            for lo in range(1, top + 1):
                for hi in range(lo + length - 1, top + 1):
                    if not present[hi - 1] or not all(present[lo - 1:hi]):
                        if not present[hi - 1]:
                            break
                        continue
                    if lo == 1 and hi == 14:
                        continue
                    runs.append((lo, hi))
            found = self._runs_in[m] = tuple(runs)
        return found

    def _set_removals(self, hand: int, triple: int) -> list[int]:
        """Every choice of sets among the ranks in ``triple``, as masks of the cards used."""
        combos = [0]
        while triple:
            bit = triple & -triple
            triple ^= bit
            held = [bit << (13 * k) for k in range(4) if hand >> (13 * k) & bit]
            every = sum(held)
            options = [0, every]
            if len(held) == 4:
                options += [every ^ card for card in held]
            combos = [c | o for c in combos for o in options]
        return combos


    def set_choices(self, hand: int) -> list[list[int]]:
        """For each rank held 3 or 4 times, the masks of the sets it could give (0 = none)."""
        s = [hand >> (13 * k) & SUIT_MASK for k in range(4)]
        triple = (s[0] & s[1] & (s[2] | s[3])) | (s[2] & s[3] & (s[0] | s[1]))
        choices = []
        for r in range(NUM_RANKS):
            if triple >> r & 1:
                cards = [k * NUM_RANKS + r for k in range(4) if s[k] >> r & 1]
                options = [0]
                options += [sum(1 << c for c in trio) for trio in itertools.combinations(cards, 3)]
                if len(cards) == 4:
                    options.append(sum(1 << c for c in cards))
                choices.append(options)
        return choices

    def _arrange(self, hand: int) -> tuple[int, int]:
        """(least deadwood, mask of the cards put in sets) over every choice of sets."""
        t = self.suit_deadwood
        best = (1 << 30, 0)
        s = [hand >> (13 * k) & SUIT_MASK for k in range(4)]
        triple = (s[0] & s[1] & (s[2] | s[3])) | (s[2] & s[3] & (s[0] | s[1]))
        for used in self._set_removals(hand, triple):
            rest = hand & ~used
            value = (t[rest & SUIT_MASK] + t[rest >> 13 & SUIT_MASK]
                     + t[rest >> 26 & SUIT_MASK] + t[rest >> 39 & SUIT_MASK])
            if value < best[0]:
                best = (value, used)
        return best

    def melded(self, hand: int) -> int:
        """Bit set of the cards that the best arrangement puts in melds."""
        _, used = self._arrange(hand)
        rest = hand & ~used
        runs = self.suit_run_cards
        return (used | runs[rest & SUIT_MASK] | runs[rest >> 13 & SUIT_MASK] << 13
                | runs[rest >> 26 & SUIT_MASK] << 26 | runs[rest >> 39 & SUIT_MASK] << 39)

    def completes(self, hand: int, card: Card) -> bool:
        """Whether ``card`` would make a meld with cards of ``hand`` (a set or a run)."""
        rank = card % NUM_RANKS
        same_rank = sum(hand >> (k * NUM_RANKS + rank) & 1 for k in range(4))
        if same_rank >= 2:
            return True
        suit = card // NUM_RANKS
        m = (hand >> (suit * NUM_RANKS) & SUIT_MASK) | 1 << rank
        return any(lo <= rank + 1 <= hi or (rank == 0 and hi == 14)
                   for lo, hi in self.runs_in(m))

    def best_arrangement(self, hand: int) -> Arrangement:
        """Melds that leave the least deadwood, and the cards left over."""
        deadwood, in_sets = self._arrange(hand)
        groups: list[tuple[int, ...]] = []
        used = in_sets
        if in_sets:
            for r in range(NUM_RANKS):
                cards = tuple(k * NUM_RANKS + r for k in range(4)
                              if in_sets >> (k * NUM_RANKS + r) & 1)
                if cards:
                    groups.append(cards)
        rest = hand & ~in_sets
        best_runs = self._suit_best_runs
        for suit in range(4):
            for lo, hi in best_runs[rest >> (13 * suit) & SUIT_MASK]:
                run = tuple(position_card(suit, p) for p in range(lo, hi + 1))
                groups.append(run)
                for c in run:
                    used |= 1 << c
        return Arrangement(tuple(groups), tuple(cards_of(hand & ~used)), deadwood)


def _make_solver(t: tuple[int, ...], removals: Callable[[int, int], list[int]]
                 ) -> Callable[[int], int]:
    """The least-deadwood function over one table, as a closure (no attribute look-ups)."""

    def solve(hand: int) -> int:
        s0 = hand & 8191
        s1 = hand >> 13 & 8191
        s2 = hand >> 26 & 8191
        s3 = hand >> 39  # a hand holds natural cards only (bits 0..51)
        triple = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
        if not triple:
            return t[s0] + t[s1] + t[s2] + t[s3]
        if triple & (triple - 1):  # two or more ranks held 3 or 4 times
            best = 1 << 30
            for used in removals(hand, triple):
                rest = hand & ~used
                value = (t[rest & 8191] + t[rest >> 13 & 8191] + t[rest >> 26 & 8191]
                         + t[rest >> 39 & 8191])
                if value < best:
                    best = value
            return best
        keep = 8191 ^ triple  # one such rank: the sets it can give, inline
        a0, a1, a2, a3 = t[s0 & keep], t[s1 & keep], t[s2 & keep], t[s3 & keep]
        b0, b1, b2, b3 = t[s0], t[s1], t[s2], t[s3]
        best = b0 + b1 + b2 + b3
        every = a0 + a1 + a2 + a3
        if every < best:
            best = every
        if s0 & s1 & s2 & s3 & triple:  # four cards: also the sets leaving one out
            for value in (every - a0 + b0, every - a1 + b1, every - a2 + b2, every - a3 + b3):
                if value < best:
                    best = value
        return best

    return solve


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A best arrangement of a hand: its melds, the unmatched cards and their value."""

    melds: tuple[tuple[int, ...], ...]
    deadwood_cards: tuple[Card, ...]
    deadwood: int

    def __str__(self) -> str:
        melds = ", ".join(format_cards(m) for m in self.melds) or "no melds"
        left = format_cards(self.deadwood_cards) or "nothing"
        return f"{melds}; deadwood {left} = {self.deadwood}"


_TABLES: dict[tuple[bool, int, int], MeldTables] = {}
RULES_BY_ID = 64  # rule objects a per-rules cache remembers by identity before forgetting
_BY_RULES: dict[int, tuple[Rules, MeldTables]] = {}


def _tables_of(ace_high: bool, run_min_length: int, ace_value: int,
               values: tuple[int, ...] | None) -> MeldTables:
    """The tables of these arguments: the shared ones unless ``values`` are a bot's own."""
    if values is not None:
        return MeldTables(ace_high, run_min_length, ace_value, values)
    key = (ace_high, run_min_length, ace_value)
    tables = _TABLES.get(key)
    if tables is None:
        tables = _TABLES[key] = MeldTables(*key)
    return tables


def tables_for(rules: Rules) -> MeldTables:
    """The (cached) meld tables of a rule set."""
    entry = _BY_RULES.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1]
    tables = _tables_of(rules.ace_high, rules.run_min_length, rules.ace_value, None)
    if len(_BY_RULES) >= RULES_BY_ID:
        _BY_RULES.clear()  # rule objects come and go (an arena worker unpickles one per game)
    _BY_RULES[id(rules)] = (rules, tables)
    return tables


def min_deadwood(hand: int, rules: Rules) -> int:
    """Least deadwood of a one-deck hand given as a bit set (see :mod:`rummykit.core.cards`)."""
    return tables_for(rules).min_deadwood(hand)


def best_arrangement(hand: int, rules: Rules) -> Arrangement:
    """The arrangement of a one-deck hand into melds that minimizes deadwood.

    >>> from rummykit.core.cards import parse_cards, mask_of
    >>> from rummykit.variants import BASIC
    >>> print(best_arrangement(mask_of(parse_cards("C7 D7 H7 S7 S8 S9 DK")), BASIC))
    C7 D7 H7, S7 S8 S9; deadwood DK = 10
    """
    return tables_for(rules).best_arrangement(hand)


def groups_in(hand: int, rules: Rules) -> list[tuple[int, ...]]:
    """Every meld contained in a one-deck hand, in canonical order: sets by rank, then runs.

    >>> from rummykit.core.cards import parse_cards, mask_of, format_cards
    >>> from rummykit.variants import BASIC
    >>> [format_cards(g) for g in groups_in(mask_of(parse_cards("H2 H3 H4 H5")), BASIC)]
    ['H2 H3 H4', 'H2 H3 H4 H5', 'H3 H4 H5']
    """
    tables = tables_for(rules)
    groups = []
    for options in tables.set_choices(hand):
        for mask in options[1:]:
            groups.append(tuple(cards_of(mask)))
    for suit in range(4):
        for lo, hi in tables.runs_in(hand >> (13 * suit) & SUIT_MASK):
            groups.append(tuple(position_card(suit, p) for p in range(lo, hi + 1)))
    return groups


__all__ = [
    "JOKER_AS", "RUN", "SET", "SUITS", "Arrangement", "MeldTables", "TableMeld",
    "best_arrangement", "format_placed", "groups_in", "hand_card", "identity", "lay_off",
    "make_meld", "min_deadwood", "position_card", "tables_for",
]
