"""Contract Rummy meld arithmetic (RULES.md §1.3-§1.4, §4): can a hand go down, and how.

A hand is a multiset of cards (naturals ``0..51``, each at most three times, and any number
of jokers, card 52). A *way to go down* is a tuple of groups of placed codes (a joker standing
for natural ``X`` is ``JOKER_AS + X``), each group in canonical meld order as
:func:`~rummykit.core.melds.make_meld` gives it: first the sets, ordered by rank then by their
cards, then the runs, ordered by suit, low position, length, then cards.

>>> from rummykit.core.cards import parse_cards
>>> from rummykit.core.melds import format_placed
>>> from rummykit.core.rules import CONTRACT
>>> hand = parse_cards("D8 S8 JK H5 H6 H7 C2")
>>> can_make(hand, 1, 1, CONTRACT)
True
>>> for way in ways_to_go_down(hand, 1, 1, CONTRACT):
...     print(" / ".join(" ".join(format_placed(c) for c in g) for g in way))
D8 JK=H8 S8 / H5 H6 H7
JK=C8 D8 S8 / H5 H6 H7
>>> least_penalty(hand, 1, 1, CONTRACT)[0]
2

How it works. The hand is held as three bit sets ``l1, l2, l3`` (the cards held at least
once, twice, three times), so taking a group of distinct cards out is three mask operations.
Ways are built sets first (ascending rank), then runs (ascending suit), each candidate group in
ascending canonical order; a candidate is followed only if the rest of the hand can still
finish the contract. That test (:meth:`_Search.feasible`) needs only minimal melds (a set of 3,
a run of ``run_min_length``: every meld holds one with a natural card), and settles the runs
with a table, per suit, of the fewest jokers a run needs. :meth:`_Search.best` is the same
recursion maximizing the value put down, with a per-suit table of the best run for each joker
budget; :func:`least_penalty` follows the generator's order and keeps only candidates that can
still reach the optimum, so it returns the first optimal way in that order.

Ways placing a given natural card (a dug card, §4.4): :meth:`_Search.containing` tries each
smallest meld holding the card (a set of three of its rank, a run of the minimum length in its
suit over its position, every other card a held natural or a joker, since a joker standing in
for a held natural can free that natural for another meld), and asks :meth:`_Search.feasible`
whether the rest makes the contract less that meld (its runs kept out of the card's suit when
runs must be of distinct suits). Any meld holding the card shrinks to one of those, the cards
dropped only helping the rest, so the test is exact. :func:`first_way_containing` is the
generator's walk with that test as its pruning until the card is placed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from rummykit.core.cards import ALL_NATURALS, JOKER, NUM_NATURALS, NUM_RANKS, Card, card_points
from rummykit.core.melds import JOKER_AS, RUN, SET, make_meld
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
    """Per-rank values of naturals and the joker's value, and each suit key's best runs."""

    ranks: tuple[int, ...]
    joker: int
    runs: dict[int, list[int]] = field(default_factory=dict, compare=False, hash=False)


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
        self.multi_runs: dict[tuple[int, int, int, int], int] = {}
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


class _Search:
    """One hand's search: memo tables for feasibility and best value."""

    def __init__(self, kit: _Kit, vals: _Values | None = None) -> None:
        self.kit = kit
        self.vals = vals
        self.memo_ok: dict[tuple[int, ...], bool] = {}
        self.memo_best: dict[tuple[int, ...], int] = {}
        self.memo_suits: dict[tuple[int, ...], list[int]] = {}

    # -- can the rest be finished ---------------------------------------------------------
    def feasible(self, l1: int, l2: int, l3: int, jokers: int, sets: int, runs: int,
                 min_rank: int, min_suit: int, hide: int = 0) -> bool:
        """Can the hand give ``sets`` sets of rank index >= ``min_rank``, then ``runs`` runs
        of suit >= ``min_suit``, as minimal melds? The cards of ``hide`` (whole suits) may
        go into the sets but not into the runs."""
        if not sets:
            return self._runs_ok(l1 & ~hide, l2 & ~hide, l3 & ~hide, jokers, runs, min_suit)
        need = 3 * sets + self.kit.min_len * runs
        if l1.bit_count() + l2.bit_count() + l3.bit_count() + jokers < need:
            return False
        key = (l1, l2, l3, jokers, sets, runs, min_rank, min_suit, hide)
        found = self.memo_ok.get(key)
        if found is not None:
            return found
        result = False
        for r in range(min_rank, NUM_RANKS):
            h = _held(l1, r)
            if not h or _POP4[h] + jokers < 3:
                continue
            spread = _SPREAD[r]
            for q in _SUBMASKS[h]:
                n = _POP4[q]
                if n > 3:
                    continue
                if 3 - n > jokers:
                    break
                m = spread[q]
                if self.feasible(l1 & ~(m & ~l2), l2 & ~(m & ~l3), l3 & ~m, jokers - 3 + n,
                                 sets - 1, runs, r, min_suit, hide):
                    result = True
                    break
            if result:
                break
        self.memo_ok[key] = result
        return result

    def _runs_ok(self, l1: int, l2: int, l3: int, jokers: int, runs: int,
                 min_suit: int) -> bool:
        if not runs:
            return True
        kit = self.kit
        if kit.distinct:
            costs = sorted(kit.run_jokers(_suit_key(l1, l2, s)) for s in range(min_suit, 4))
            return len(costs) >= runs and sum(costs[:runs]) <= jokers
        # several runs may share a suit: fewest jokers for k runs over the suits so far
        least = [0] + [_BIG] * runs
        for s in range(min_suit, 4):
            shift = s * NUM_RANKS
            a, b, c = l1 >> shift & _SUIT, l2 >> shift & _SUIT, l3 >> shift & _SUIT
            costs = [0] + [self._suit_jokers(a, b, c, t) for t in range(1, runs + 1)]
            least = [min(least[k - t] + costs[t] for t in range(k + 1)) for k in range(runs + 1)]
        return least[runs] <= jokers

    def _suit_jokers(self, a: int, b: int, c: int, t: int) -> int:
        """Fewest jokers for ``t`` minimal runs in one suit (layers ``a, b, c`` of 13 bits)."""
        kit = self.kit
        if t == 1:
            return kit.run_jokers(a | (b & 1) << NUM_RANKS)
        key = (a, b, c, t)
        found = kit.multi_runs.get(key)
        if found is None:
            found = _BIG
            for _, _, _, once, twice, used in _suit_runs(kit, a, b, c, 0, kit.min_len, True):
                x, y, z = _take(a, b, c, once)
                if twice:
                    x, y, z = _take(x, y, z, twice)
                found = min(found, used + self._suit_jokers(x, y, z, t - 1))
            kit.multi_runs[key] = found
        return found

    def containing(self, l1: int, l2: int, l3: int, jokers: int, sets: int, runs: int,
                   min_rank: int, min_suit: int, target: int) -> bool:
        """:meth:`feasible`, with the natural ``target`` in one of the melds.

        Exact: a meld holding ``target`` shrinks to a set of three or a run of the minimum
        length still holding it (the cards dropped only help the rest), and every such small
        meld is tried, with each choice of held natural or joker for its other cards; the rest
        must then make the contract less that meld, its runs in other suits than a run
        holding ``target`` when runs must be of distinct suits."""
        if not l1 >> target & 1:
            return False
        s, r = divmod(target, NUM_RANKS)
        if sets and r >= min_rank:
            for m, used in _sets_with(l1, target, jokers):
                a, b, c = _take(l1, l2, l3, m)
                if self.feasible(a, b, c, jokers - used, sets - 1, runs, min_rank, min_suit):
                    return True
        if runs and s >= min_suit:
            hide = _SUIT << s * NUM_RANKS if self.kit.distinct else 0
            for once, twice, used in _runs_with(self.kit, l1, l2, l3, target, jokers):
                a, b, c = _take(l1, l2, l3, once)
                if twice:
                    a, b, c = _take(a, b, c, twice)
                if self.feasible(a, b, c, jokers - used, sets, runs - 1, min_rank, min_suit,
                                 hide):
                    return True
        return False

    # -- the most value that can be put down ------------------------------------------------
    def best(self, l1: int, l2: int, l3: int, jokers: int, sets: int, runs: int,
             min_rank: int, min_suit: int) -> int:
        """Most value the contract's melds can hold under the same order constraints as
        :meth:`feasible` (``_NEG`` when they cannot be made)."""
        key = (l1, l2, l3, jokers, sets, runs, min_rank, min_suit)
        found = self.memo_best.get(key)
        if found is not None:
            return found
        assert self.vals is not None
        if not sets:
            result = self._runs_best(l1, l2, l3, jokers, runs, min_suit)
        else:
            result = _NEG
            jv = self.vals.joker
            for r in range(min_rank, NUM_RANKS):
                h = _held(l1, r)
                if not h or _POP4[h] + jokers < 3:
                    continue
                v = self.vals.ranks[r]
                spread = _SPREAD[r]
                for q in _SUBMASKS[h]:
                    n = _POP4[q]
                    if 3 - n > jokers:
                        break
                    m = spread[q]
                    a, b, c = l1 & ~(m & ~l2), l2 & ~(m & ~l3), l3 & ~m
                    for t in range(max(0, 3 - n), min(jokers, 4 - n) + 1):
                        rest = self.best(a, b, c, jokers - t, sets - 1, runs, r, min_suit)
                        if rest > _NEG and n * v + t * jv + rest > result:
                            result = n * v + t * jv + rest
        self.memo_best[key] = result
        return result

    def _runs_best(self, l1: int, l2: int, l3: int, jokers: int, runs: int,
                   min_suit: int) -> int:
        if not runs:
            return 0
        assert self.vals is not None
        kit, vals = self.kit, self.vals
        if kit.distinct and runs == 1:
            return max(kit.run_values(vals, _suit_key(l1, l2, s), jokers)[jokers]
                       for s in range(min_suit, 4))
        # best[k][u]: most value of k runs in the suits so far with at most u jokers
        best = [[0] * (jokers + 1)] + [[_NEG] * (jokers + 1) for _ in range(runs)]
        for s in range(min_suit, 4):
            per_suit = [[0] * (jokers + 1)]
            for t in range(1, (1 if kit.distinct else runs) + 1):
                per_suit.append(self._suit_best(l1, l2, l3, s, t, jokers))
            new = [row[:] for row in best]
            for k in range(1, runs + 1):
                for t in range(1, min(k, len(per_suit) - 1) + 1):
                    got, row = per_suit[t], best[k - t]
                    for u in range(jokers + 1):
                        for w in range(u + 1):
                            if row[u - w] > _NEG and got[w] > _NEG \
                                    and row[u - w] + got[w] > new[k][u]:
                                new[k][u] = row[u - w] + got[w]
            best = new
        return best[runs][jokers]

    def _suit_best(self, l1: int, l2: int, l3: int, s: int, t: int, jokers: int) -> list[int]:
        """Best value of ``t`` runs in suit ``s``, for each joker budget 0..jokers."""
        assert self.vals is not None
        if t == 1:
            return self.kit.run_values(self.vals, _suit_key(l1, l2, s), jokers)
        shift = s * NUM_RANKS
        a, b, c = l1 >> shift & _SUIT, l2 >> shift & _SUIT, l3 >> shift & _SUIT
        key = (a, b, c, t, jokers)
        found = self.memo_suits.get(key)
        if found is not None:
            return found
        best = [_NEG] * (jokers + 1)
        ranks, jv = self.vals.ranks, self.vals.joker
        for _, _, cards, once, twice, used in _suit_runs(self.kit, a, b, c, 0, jokers, False):
            x, y, z = _take(a, b, c, once)
            if twice:
                x, y, z = _take(x, y, z, twice)
            gain = sum(jv if code >= JOKER_AS else ranks[code % NUM_RANKS] for code in cards)
            rest = self._suit_best(x, y, z, 0, t - 1, jokers - used)
            for u in range(used, jokers + 1):
                if rest[u - used] > _NEG and gain + rest[u - used] > best[u]:
                    best[u] = gain + rest[u - used]
        self.memo_suits[key] = best
        return best

    # -- the ways, in canonical order -------------------------------------------------------
    def walk(self, l1: int, l2: int, l3: int, jokers: int, sets: int, runs: int,
             last_set: tuple[int, int], last_run: tuple[int, int, int, Group] | None,
             acc: list[Group], need: int | None, target: int = -1) -> Iterator[Way]:
        """The ways to finish, after ``acc``, in canonical order; with ``need``, only those
        putting down exactly that much more value; with a ``target`` (no ``need``), only
        those placing that natural card."""
        if sets:
            r0, i0 = last_set
            for r in range(r0, NUM_RANKS):
                h = _held(l1, r)
                if not h or _POP4[h] + jokers < 3:
                    continue
                options = _SET_OPTIONS[r]
                for idx in range(i0 if r == r0 else 0, len(options)):
                    cards, nat, used = options[idx]
                    if nat & ~h or used > jokers:
                        continue
                    a, b, c = _take(l1, l2, l3, _SPREAD[r][nat])
                    rest_need = None
                    left = target if target < 0 or target not in cards else -1
                    if need is None:
                        if not (self.feasible(a, b, c, jokers - used, sets - 1, runs, r, 0)
                                if left < 0 else self.containing(
                                    a, b, c, jokers - used, sets - 1, runs, r, 0, left)):
                            continue
                    else:
                        assert self.vals is not None
                        rest_need = need - _POP4[nat] * self.vals.ranks[r] - used * self.vals.joker
                        rest = self.best(a, b, c, jokers - used, sets - 1, runs, r, 0)
                        if rest == _NEG or rest < rest_need:
                            continue
                    acc.append(cards)
                    yield from self.walk(a, b, c, jokers - used, sets - 1, runs, (r, idx),
                                         None, acc, rest_need, left)
                    acc.pop()
        elif runs:
            s0 = 0 if last_run is None else last_run[0] + (1 if self.kit.distinct else 0)
            for s in range(s0, 4):
                if target >= 0 and s != target // NUM_RANKS and (
                        runs == 1 or s > target // NUM_RANKS):
                    continue  # this run cannot hold the target, nor can the runs after it
                for lo, length, cards, once, twice, used in _suit_runs(
                        self.kit, l1, l2, l3, s, jokers, False):
                    if last_run is not None and s == last_run[0] \
                            and (lo, length, cards) < last_run[1:]:
                        continue
                    a, b, c = _take(l1, l2, l3, once)
                    if twice:
                        a, b, c = _take(a, b, c, twice)
                    next_suit = s + 1 if self.kit.distinct else s
                    rest_need = None
                    left = target if target < 0 or target not in cards else -1
                    if need is None:
                        if not (self.feasible(a, b, c, jokers - used, 0, runs - 1, 0, next_suit)
                                if left < 0 else self.containing(
                                    a, b, c, jokers - used, 0, runs - 1, 0, next_suit, left)):
                            continue
                    else:
                        assert self.vals is not None
                        rest_need = need - sum(self.vals.joker if code >= JOKER_AS
                                               else self.vals.ranks[code % NUM_RANKS]
                                               for code in cards)
                        rest = self.best(a, b, c, jokers - used, 0, runs - 1, 0, next_suit)
                        if rest == _NEG or rest < rest_need:
                            continue
                    acc.append(cards)
                    yield from self.walk(a, b, c, jokers - used, 0, runs - 1, (0, 0),
                                         (s, lo, length, cards), acc, rest_need, left)
                    acc.pop()
        elif need is None or need <= 0:
            yield tuple(acc)


# --- public API ------------------------------------------------------------------------------

def _values(rules: Rules) -> tuple[tuple[int, ...], int]:
    """Penalty value of each rank index and of a joker (RULES.md §1.11, §4.9)."""
    return (tuple(card_points(r, rules.ace_value) for r in range(NUM_RANKS)),
            rules.joker_points)


def _check_contract(sets: int, runs: int) -> None:
    if sets < 0 or runs < 0:
        raise ValueError(f"a contract needs non-negative counts, got {sets} sets, {runs} runs")


def can_make(hand: Iterable[Card], sets: int, runs: int, rules: Rules) -> bool:
    """Whether ``hand`` holds disjoint melds making exactly ``sets`` sets and ``runs`` runs.

    >>> from rummykit.core.cards import parse_cards
    >>> from rummykit.core.rules import CONTRACT
    >>> can_make(parse_cards("H4 H5 H6 H9 HT HJ"), 0, 2, CONTRACT)  # same suit
    False
    >>> can_make(parse_cards("H4 H5 H6 S9 ST JK"), 0, 2, CONTRACT)
    True
    """
    _check_contract(sets, runs)
    l1, l2, l3, jokers = _layers(hand)
    return _Search(_kit(rules)).feasible(l1, l2, l3, jokers, sets, runs, 0, 0)


def can_make_held(held: int, sets: int, runs: int, rules: Rules) -> bool:
    """:func:`can_make` for a hand given as a :mod:`rummykit.core.handset` multiset."""
    _check_contract(sets, runs)
    return _Search(_kit(rules)).feasible(held & ALL_NATURALS, held >> 64 & ALL_NATURALS,
                                         held >> 128 & ALL_NATURALS, held >> 192, sets, runs,
                                         0, 0)


def ways_to_go_down(hand: Iterable[Card], sets: int, runs: int, rules: Rules
                    ) -> Iterator[Way]:
    """Every distinct way to go down with the contract, lazily, in canonical order.

    A way is a tuple of groups (sets by rank, then runs by suit, low position and length),
    each group exactly as ``make_meld(group, rules).cards``. Ways come in ascending order
    of their groups (a set by rank then cards, a run by suit, low position, length, cards).

    >>> from rummykit.core.cards import parse_cards
    >>> from rummykit.core.melds import format_placed
    >>> from rummykit.core.rules import CONTRACT
    >>> [" ".join(map(format_placed, g)) for (g,) in
    ...  ways_to_go_down(parse_cards("H5 JK H7 H8"), 0, 1, CONTRACT)][:3]
    ['H5 JK=H6 H7', 'H5 JK=H6 H7 H8', 'JK=H6 H7 H8']
    """
    _check_contract(sets, runs)
    l1, l2, l3, jokers = _layers(hand)
    search = _Search(_kit(rules))
    if not search.feasible(l1, l2, l3, jokers, sets, runs, 0, 0):
        return iter(())
    return search.walk(l1, l2, l3, jokers, sets, runs, (0, 0), None, [], None)


def _target(card: Card) -> int:
    if not (isinstance(card, int) and 0 <= card < NUM_NATURALS):
        raise ValueError(f"not a natural card: {card!r}")
    return card


def can_make_containing(hand: Iterable[Card], card: Card, sets: int, runs: int, rules: Rules
                        ) -> bool:
    """Whether some way to go down with the contract places the natural ``card`` (as itself,
    in one of the melds); ``False`` when ``hand`` does not hold ``card``.

    Exactly ``any(card in g for w in ways_to_go_down(hand, sets, runs, rules) for g in w)``,
    without enumerating the ways: each smallest meld holding ``card`` (set of three, run of
    ``run_min_length``, with each choice of held natural or joker for its other cards) is
    tried against the feasibility search for the rest of the contract.

    >>> from rummykit.core.cards import parse_card, parse_cards
    >>> from rummykit.core.rules import CONTRACT
    >>> hand = parse_cards("C8 D8 H8 S9 ST SJ H2")
    >>> can_make_containing(hand, parse_card("SJ"), 1, 1, CONTRACT)
    True
    >>> can_make_containing(hand, parse_card("H2"), 1, 1, CONTRACT)
    False
    >>> can_make_containing(parse_cards("C8 D8 JK JK JK JK"), parse_card("C8"), 2, 0,
    ...                     CONTRACT)  # C8 JK=D8 JK=H8 / D8 JK=H8 JK=S8
    True
    """
    _check_contract(sets, runs)
    target = _target(card)
    l1, l2, l3, jokers = _layers(hand)
    return _Search(_kit(rules)).containing(l1, l2, l3, jokers, sets, runs, 0, 0, target)


def first_way_containing(hand: Iterable[Card], card: Card, sets: int, runs: int,
                         rules: Rules) -> Way | None:
    """The first way of :func:`ways_to_go_down` (same canonical form, same order) that places
    the natural ``card`` in one of its melds, or ``None`` when there is none.

    >>> from rummykit.core.cards import parse_card, parse_cards
    >>> from rummykit.core.melds import format_placed
    >>> from rummykit.core.rules import CONTRACT
    >>> hand = parse_cards("C8 D8 H8 S8 S9 ST SJ")
    >>> def show(way):
    ...     return [" ".join(map(format_placed, g)) for g in way]
    >>> show(next(ways_to_go_down(hand, 1, 1, CONTRACT)))
    ['C8 D8 H8', 'S8 S9 ST']
    >>> show(first_way_containing(hand, parse_card("SJ"), 1, 1, CONTRACT))
    ['C8 D8 H8', 'S8 S9 ST SJ']
    >>> show(first_way_containing(hand, parse_card("S8"), 1, 0, CONTRACT))
    ['C8 D8 H8 S8']
    >>> first_way_containing(hand, parse_card("S8"), 2, 0, CONTRACT) is None
    True
    """
    _check_contract(sets, runs)
    target = _target(card)
    l1, l2, l3, jokers = _layers(hand)
    search = _Search(_kit(rules))
    if not search.containing(l1, l2, l3, jokers, sets, runs, 0, 0, target):
        return None
    return next(search.walk(l1, l2, l3, jokers, sets, runs, (0, 0), None, [], None, target))


def is_way_to_go_down(hand: Iterable[Card], groups: Iterable[Iterable[int]], sets: int,
                      runs: int, rules: Rules) -> bool:
    """Whether ``groups`` (placed codes, in any order) is a way to go down from ``hand``.

    >>> from rummykit.core.cards import parse_cards
    >>> from rummykit.core.melds import JOKER_AS
    >>> from rummykit.core.rules import CONTRACT
    >>> d8, s8, h8 = parse_cards("D8 S8 H8")
    >>> is_way_to_go_down([d8, s8, 52], [[s8, JOKER_AS + h8, d8]], 1, 0, CONTRACT)
    True
    >>> is_way_to_go_down([d8, s8, 52], [[s8, JOKER_AS + s8, d8]], 1, 0, CONTRACT)
    False
    """
    _check_contract(sets, runs)
    l1, l2, l3, jokers = _layers(hand)
    held = {c: (l1 >> c & 1) + (l2 >> c & 1) + (l3 >> c & 1) for c in range(NUM_NATURALS)}
    made_sets = 0
    run_suits: list[int] = []
    for group in groups:
        cards = tuple(group)
        for code in cards:
            if not isinstance(code, int):
                return False
            if JOKER_AS <= code < JOKER_AS + NUM_NATURALS:
                jokers -= 1
            elif 0 <= code < NUM_NATURALS:
                held[code] -= 1
                if held[code] < 0:
                    return False
            else:
                return False
        if jokers < 0:
            return False
        meld = make_meld(cards, rules)
        if isinstance(meld, str):
            return False
        if meld.kind == SET:
            made_sets += 1
        else:
            assert meld.kind == RUN
            run_suits.append(meld.suit)
    if made_sets != sets or len(run_suits) != runs:
        return False
    return not (rules.contract_runs_distinct_suits and len(set(run_suits)) != len(run_suits))


def least_penalty(hand: Iterable[Card], sets: int, runs: int, rules: Rules
                  ) -> tuple[int, Way | None]:
    """(penalty left in hand, way) for the way to go down leaving the least penalty.

    Among equal penalties, the first way in :func:`ways_to_go_down` order. When the
    contract cannot be made: (value of the whole hand, ``None``).

    >>> from rummykit.core.cards import parse_cards
    >>> from rummykit.core.melds import format_placed
    >>> from rummykit.core.rules import CONTRACT
    >>> penalty, way = least_penalty(parse_cards("C8 D8 H8 S8 H9 HT SA"), 1, 0, CONTRACT)
    >>> penalty, [" ".join(map(format_placed, g)) for g in way]
    (34, ['C8 D8 H8 S8'])
    >>> least_penalty(parse_cards("C8 D8 SA"), 1, 0, CONTRACT)
    (31, None)
    """
    _check_contract(sets, runs)
    cards = list(hand)
    l1, l2, l3, jokers = _layers(cards)
    kit = _kit(rules)
    ranks, joker = _values(rules)
    total = sum(joker if c == JOKER else ranks[c % NUM_RANKS] for c in cards)
    search = _Search(kit, kit.value_table(ranks, joker))
    most = search.best(l1, l2, l3, jokers, sets, runs, 0, 0)
    if most == _NEG:
        return total, None
    way = next(search.walk(l1, l2, l3, jokers, sets, runs, (0, 0), None, [], most))
    return total - most, way


def uses_every_card(hand: Iterable[Card], sets: int, runs: int, rules: Rules) -> bool:
    """Whether one way to go down with the contract places every card of ``hand``.

    >>> from rummykit.core.cards import parse_cards
    >>> from rummykit.core.rules import CONTRACT
    >>> uses_every_card(parse_cards("H5 H6 H7 C2 C3 C4 JK SK SQ"), 0, 3, CONTRACT)
    True
    """
    _check_contract(sets, runs)
    cards = list(hand)
    l1, l2, l3, jokers = _layers(cards)
    kit = _kit(rules)
    search = _Search(kit, kit.value_table((1,) * NUM_RANKS, 1))
    return search.best(l1, l2, l3, jokers, sets, runs, 0, 0) == len(cards)


def deal_seven_ok(hand: Iterable[Card], rules: Rules) -> bool:
    """Whether three runs (of distinct suits under ``contract_runs_distinct_suits``) use every
    card of ``hand``: going down in deal 7 under ``all_at_once_no_discard`` (RULES.md §4.7).

    >>> from rummykit.core.cards import parse_cards
    >>> from rummykit.core.rules import CONTRACT
    >>> deal_seven_ok(parse_cards("H5 H6 H7 C2 C3 C4 SQ SK SA"), CONTRACT)
    True
    >>> deal_seven_ok(parse_cards("H5 H6 H7 C2 C3 C4 SQ SK SA D9"), CONTRACT)
    False
    """
    return uses_every_card(hand, 0, 3, rules)


__all__ = ["Group", "Way", "can_make", "can_make_containing", "deal_seven_ok",
           "first_way_containing", "is_way_to_go_down", "least_penalty", "uses_every_card",
           "ways_to_go_down"]
