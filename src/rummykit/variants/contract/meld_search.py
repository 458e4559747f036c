"""Contract meld arithmetic, its search: feasibility, the generator of ways to go down,
the best value and the ways placing a given card (the docstring of
:mod:`rummykit.variants.contract.melds` says how).
"""

from __future__ import annotations

from collections.abc import Iterator

from rummykit.core.cards import NUM_RANKS
from rummykit.core.melds import JOKER_AS
from rummykit.variants.contract.meld_tables import (
    _BIG,
    _NEG,
    _POP4,
    _SET_OPTIONS,
    _SPREAD,
    _SUBMASKS,
    _SUIT,
    Group,
    Way,
    _held,
    _Kit,
    _runs_with,
    _sets_with,
    _suit_key,
    _suit_runs,
    _take,
    _Values,
)

SUITS_MEMO_MOST = 1 << 16  # several runs in one suit: entries shared by the searches of
# one value table at most (the memo is cleared when full)


class _Search:
    """One hand's search: memo tables for feasibility and best value (the best of several
    runs in one suit is memoised in the value table, shared by every search using it)."""

    def __init__(self, kit: _Kit, vals: _Values | None = None) -> None:
        self.kit = kit
        self.vals = vals
        self.memo_ok: dict[tuple[int, ...], bool] = {}
        self.memo_best: dict[tuple[int, ...], int] = {}

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
            costs = [0] + [self._suit_jokers(a, b, c, t, jokers) for t in range(1, runs + 1)]
            least = [min(least[k - t] + costs[t] for t in range(k + 1)) for k in range(runs + 1)]
        return least[runs] <= jokers

    def _suit_jokers(self, a: int, b: int, c: int, t: int, budget: int) -> int:
        """Fewest jokers for ``t`` minimal runs in one suit (layers ``a, b, c`` of 13 bits),
        or ``_BIG`` when that is more than ``budget`` (only runs within it are tried)."""
        kit = self.kit
        if t == 1:
            least = kit.run_jokers(a | (b & 1) << NUM_RANKS)
            return least if least <= budget else _BIG
        key = (a, b, c, t, budget)
        found = kit.multi_runs.get(key)
        if found is None:
            found = _BIG
            for _, _, _, once, twice, used in _suit_runs(kit, a, b, c, 0, budget, True):
                x, y, z = _take(a, b, c, once)
                if twice:
                    x, y, z = _take(x, y, z, twice)
                found = min(found, used + self._suit_jokers(x, y, z, t - 1, budget - used))
            if found > budget:
                found = _BIG
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
        memo = self.vals.suits
        found = memo.get(key)
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
        if len(memo) >= SUITS_MEMO_MOST:
            memo.clear()
        memo[key] = best
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
