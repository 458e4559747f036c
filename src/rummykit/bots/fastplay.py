"""Fast greedy playouts of one-deck hands (basic, traditional) on plain bit sets.

The search bot plays thousands of hands per decision, so this module plays them without the
engine's move objects: hands are card bit sets, the table is kept only as the cards it
accepts (split by where a card goes, so a lay-off on a run's end opens the next card), and
every seat follows the greedy policy (:mod:`rummykit.bots.greedy`). Stock rebuilds, the
re-discard ban, completability, ``must_discard_to_go_out``, ``max_melds_per_turn``, going
rummy and the deadlock draw follow the rules. tests/test_fastplay.py checks it against the
engine's greedy playout (:func:`rummykit.bots.playout.greedy_move`) on every position it is
used in: same results, rebuilds (replayed from ``restocks``) and deadlocks included.

A :class:`World` is one sampled deal of the hidden cards (:func:`sample_world`), consistent
with the seat's view: the others keep the cards they are known to hold, the rest of what
the seat has not seen is dealt to their hands and the stock, weighted by what their play
told. It reads the view only.

>>> import random
>>> from rummykit.core.engine import HandState
>>> from rummykit.variants import BASIC
>>> from rummykit.core.views import view
>>> state = HandState.deal(BASIC, num_players=2, dealer=0, rng=random.Random(3))
>>> state.push(state.legal_moves()[0])  # a draw
>>> seen = view(state, state.to_move)
>>> world = sample_world(seen, random.Random(1), None)
>>> sorted(bin(h).count("1") for h in world.hands)
[10, 11]
>>> value, won = play_out_world(world, seen, seen.legal[-1], random.Random(2), max_turns=200)
>>> won in (0, 1)
True
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from rummykit.bots.families import policies_for
from rummykit.bots.judge import judge_for, per_rules
from rummykit.core.cards import ALL_NATURALS, NUM_NATURALS, NUM_RANKS, SUIT_MASK, Card, mask_of
from rummykit.core.engine import DRAW_PHASE
from rummykit.core.melds import MeldTables, TableMeld, hand_card, position_card, tables_for
from rummykit.core.moves import Discard, Draw, Move, Take
from rummykit.core.rules import Rules
from rummykit.core.views import PlayerView, Weigh

UNLIKELY_MELD = 0.05  # odds of a hidden hand that could have melded or laid off
UNLIKELY_PASS = 0.3  # odds of a hidden hand that a discard it passed would have completed
WORLD_TRIES = 8  # samples tried before a world is kept regardless of its odds
# a drawn hand that ends the match with no winner (traditional Rummy): a loss for the seat
# in points (a 90-match arena, 3p traditional against greedy, same deals: at 0 the expert won
# 16.7% of matches and 65 ended drawn; at -20, 32.2% and 38; at -40, 35.6% and 35; at -80,
# 40.0% and 32; at -150, 24.4%)
DRAWN_MATCH_VALUE = -80.0
RACE_SHARPNESS = 0.8  # how surely the seat nearest to going out goes out first
MEMO_SIZE = 400_000  # entries a playout memo keeps before it starts afresh


def supports(view: PlayerView) -> bool:
    """Whether this module can play the view's hand: one deck, no jokers, a family that
    plays the generic greedy policy (:mod:`rummykit.bots.families`)."""
    rules = view.rules
    return rules.deck_config == "single" and policies_for(rules) is None


def fast_move(move: Move) -> bool:
    """Whether a first move can be played here (a draw, a single take or a discard)."""
    return type(move) is Discard or type(move) is Draw or (
        type(move) is Take and move.count == 1)


@dataclass(slots=True)
class World:
    """One sampled deal of the hidden cards: hands, and the stock (top last)."""

    hands: list[int]
    stock: list[Card]


Group = tuple[int, int, int, int, int]  # a meld to lay: cards, 1 for a run, suit, low, high


class _Rules:
    """A rule set's constants in the form the playout loop reads."""

    def __init__(self, rules: Rules) -> None:
        tables = tables_for(rules)
        self.tables: MeldTables = tables
        self.values = tuple(tables.values[c % NUM_RANKS] for c in range(52))
        # the greedy throw: highest value, then highest rank, then the lowest suit
        self.throw_key = tuple(
            (tables.values[c % NUM_RANKS] * 64 + c % NUM_RANKS) * 4 + 3 - c // NUM_RANKS
            for c in range(52))
        #: per suit, by the suit's 13-bit mask of cards: the greedy throw among them, as
        #: ``throw_key * 64 + card`` (-1 for no card)
        self.throw_in_suit = tuple(self._throws(suit) for suit in range(4))
        top = 14 if rules.ace_high else 13
        self.top = top
        # the card a run's end accepts next once card c is laid off on that end
        self.next_high = tuple(_next(c, +1, top) for c in range(52))
        self.next_low = tuple(_next(c, -1, top) for c in range(52))
        self.keep_top = rules.stock_rebuild == "shuffle_keep_top"
        self.shuffle_all = rules.stock_rebuild == "shuffle_all"
        self.turn_over = rules.stock_rebuild == "turn_over_all"
        self.max_rebuilds = rules.max_rebuilds
        self.max_melds = rules.max_melds_per_turn
        self.must_discard = rules.must_discard_to_go_out
        self.multiplier = rules.going_rummy_multiplier
        self.penalty = rules.scoring == "penalty"
        self.draw_ends_match = rules.draw_ends_match
        self.deadlock_draw = rules.deadlock_draw
        self.judge = judge_for(rules)
        self.run_cards = tables.suit_run_cards
        self.in_runs = tuple(_in_runs(tables, m) for m in range(1 << NUM_RANKS))
        self.rank_of = tuple(sum(1 << (s * NUM_RANKS + c % NUM_RANKS) for s in range(4))
                             for c in range(52))
        # the playouts' memos: the same hands come back in the worlds of one decision, and
        # in the candidates played in one world
        self.melded_memo: dict[int, int] = {}  # hand -> melded(hand)
        self.completes_memo: dict[int, bool] = {}  # hand << 6 | card -> completes(...)
        self.groups_memo: dict[int, list[Group]] = {}  # hand -> _groups(...)

    def trim_memos(self) -> None:
        """Empty a memo grown past :data:`MEMO_SIZE` (the memos only save time)."""
        for memo in (self.melded_memo, self.completes_memo, self.groups_memo):
            if len(memo) > MEMO_SIZE:
                memo.clear()

    def _throws(self, suit: int) -> tuple[int, ...]:
        best = [-1] * (1 << NUM_RANKS)
        for m in range(1, 1 << NUM_RANKS):
            low = m & -m
            card = suit * NUM_RANKS + low.bit_length() - 1
            best[m] = max(best[m ^ low], self.throw_key[card] * 64 + card)
        return tuple(best)

    def melded(self, hand: int) -> int:
        """:meth:`MeldTables.melded`, faster for the usual hand without three of a rank."""
        s0 = hand & SUIT_MASK
        s1 = hand >> 13 & SUIT_MASK
        s2 = hand >> 26 & SUIT_MASK
        s3 = hand >> 39 & SUIT_MASK
        if (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1)):
            return self.tables.melded(hand)
        runs = self.run_cards
        return runs[s0] | runs[s1] << 13 | runs[s2] << 26 | runs[s3] << 39

    def completes(self, hand: int, card: Card) -> bool:
        """Whether ``card`` makes a set or a run with cards of ``hand``."""
        if (hand & self.rank_of[card]).bit_count() >= 2:
            return True
        suit = card // NUM_RANKS
        rank = card % NUM_RANKS
        return bool(self.in_runs[(hand >> suit * NUM_RANKS & SUIT_MASK) | 1 << rank] >> rank & 1)


def _in_runs(tables: MeldTables, m: int) -> int:
    """The ranks of a suit mask that belong to some run inside it."""
    bits = 0
    for lo, hi in tables.runs_in(m):
        for position in range(lo, hi + 1):
            bits |= 1 << (position - 1 if position <= NUM_RANKS else 0)
    return bits


def _next(card: Card, step: int, top: int) -> int:
    """The card after ``card`` in its suit going ``step`` (+1 up, -1 down), or -1."""
    rank = card % NUM_RANKS
    suit = card // NUM_RANKS
    if rank == 0:  # an ace ends a run at either end
        return -1
    position = rank + 1 + step
    if position < 1 or position > top:
        return -1
    return position_card(suit, position)


#: a rule set's playout constants (cached)
constants_for = per_rules(_Rules)


def table_accepts(table: tuple[TableMeld, ...] | list[TableMeld]) -> tuple[int, int, int]:
    """(cards sets accept, cards runs accept at their low end, at their high end)."""
    sets = low = high = 0
    for meld in table:
        if meld.suit < 0:
            sets |= meld.accepts
            continue
        below = position_card(meld.suit, meld.low - 1) if meld.low > 1 else -1
        bits = meld.accepts
        while bits:
            bit = bits & -bits
            bits ^= bit
            if bit.bit_length() - 1 == below:
                low |= bit
            else:
                high |= bit
    return sets, low, high


def _seen_cards(view: PlayerView) -> int:
    seen = view.hand | mask_of(view.discard)
    for meld in view.table:
        seen |= mask_of(hand_card(c) for c in meld.cards)
    for seat, known in enumerate(view.known):
        if seat != view.seat:
            seen |= known
    return seen


def sample_world(view: PlayerView, rng: random.Random, weigh: Weigh | None) -> World:
    """A deal of the cards ``view``'s seat has not seen, consistent with the view
    (:meth:`Sampler.sample`; a search sampling many worlds of one view keeps a
    :class:`Sampler`)."""
    return Sampler(view, weigh).sample(rng)


class Sampler:
    """The worlds of one view: what they are dealt from is worked out once."""

    __slots__ = ("cards", "constants", "exponents", "layable", "view")

    def __init__(self, view: PlayerView, weigh: Weigh | None) -> None:
        self.view = view
        self.constants = constants_for(view.rules)
        sets, low, high = table_accepts(view.table)
        self.layable = sets | low | high
        self.cards: list[Card] = []  # the cards the seat has not seen
        bits = ALL_NATURALS & ~_seen_cards(view)
        while bits:
            bit = bits & -bits
            bits ^= bit
            self.cards.append(bit.bit_length() - 1)
        #: per seat, ``1 / weigh(seat, card)`` by card (``None``: no weights)
        self.exponents: list[list[float] | None] = [
            None if weigh is None or seat == view.seat
            else [1.0 / weigh(seat, card) for card in range(NUM_NATURALS)]
            for seat in range(view.num_players)]

    def sample(self, rng: random.Random) -> World:
        """A deal of the unseen cards: each other seat keeps its known cards and gets the
        rest of its hand from the unseen cards, card ``c`` weighted by ``weigh(seat, c)``;
        the stock is the rest, shuffled. Of up to :data:`WORLD_TRIES` deals one is kept
        with odds :data:`UNLIKELY_MELD` for each hidden hand that could already have melded
        or laid off (players meld and lay off what they can), which is rejection sampling
        of those odds."""
        self.constants.trim_memos()
        best: World | None = None
        best_odds = -1.0
        for _ in range(WORLD_TRIES):
            world, odds = self._deal(rng)
            if odds >= 1.0 or rng.random() < odds:
                return world
            if odds > best_odds:
                best, best_odds = world, odds
        assert best is not None
        return best

    def _deal(self, rng: random.Random) -> tuple[World, float]:
        view = self.view
        pool = self.cards[:]
        shuffle(pool, rng)
        hands = []
        odds = 1.0
        random_ = rng.random
        for seat, exponents in enumerate(self.exponents):
            if seat == view.seat:
                hands.append(view.hand)
                continue
            hand = view.known[seat]
            missing = view.hand_sizes[seat] - hand.bit_count()
            if missing > 0:
                if exponents is not None and missing < len(pool):
                    keys = [random_() ** exponents[card] for card in pool]
                    order = sorted(range(len(pool)), key=keys.__getitem__, reverse=True)
                    chosen = order[:missing]
                    taken = set(chosen)
                    dealt = [pool[i] for i in chosen]
                    pool = [card for i, card in enumerate(pool) if i not in taken]
                else:
                    dealt = pool[:missing]
                    del pool[:missing]
                hidden = 0
                for card in dealt:
                    hidden |= 1 << card
                hand |= hidden
                odds *= odds_of(self.constants, hand, hidden, self.layable,
                                view.passed[seat] if view.passed else 0)
            hands.append(hand)
        return World(hands, pool[:view.stock_size]), odds


_BIT_LENGTHS = tuple(n.bit_length() for n in range(NUM_NATURALS + 2))


def shuffle(cards: list[Card], rng: random.Random) -> None:
    """Shuffle ``cards`` in place exactly as ``rng.shuffle`` does (the same draws, so the
    same order: seeded games do not change), without its per-card calls.

    >>> a, b = list(range(40)), list(range(40))
    >>> shuffle(a, random.Random(5)); random.Random(5).shuffle(b); a == b
    True
    """
    getrandbits = rng.getrandbits
    if len(cards) >= len(_BIT_LENGTHS):
        rng.shuffle(cards)
        return
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = _BIT_LENGTHS[n]
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def odds_of(constants: _Rules, hand: int, hidden: int, layable: int, passed: int) -> float:
    """How likely an opponent's sampled ``hand`` is given how players play: it would
    have melded a meld it holds and laid off a hidden card that fits the table
    (:data:`UNLIKELY_MELD` each), and it would have taken a discard it ``passed`` (drew
    from the stock instead) that makes a meld with its cards (:data:`UNLIKELY_PASS` each;
    its hand has changed since, so this says less)."""
    odds = 1.0
    if constants.melded(hand):
        odds *= UNLIKELY_MELD
    if hidden & layable:
        odds *= UNLIKELY_MELD
    passed &= ~hand
    completes = constants.completes
    while passed:
        bit = passed & -passed
        passed ^= bit
        if completes(hand, bit.bit_length() - 1):
            odds *= UNLIKELY_PASS
    return odds


def play_out_world(world: World, view: PlayerView, first: Move, rng: random.Random, *,
                   max_turns: int, restocks: list[tuple[Card, ...]] | None = None
                   ) -> tuple[float, int]:
    """Play ``first`` for the view's seat in ``world``, then greedy play for everyone until
    the hand ends or ``max_turns`` turns have passed; (the seat's hand score less the
    others' mean, 1 if it won). A hand cut short is scored by :func:`estimate`. Each
    shuffled rebuild's stock is appended to ``restocks`` (top first, as in a record), so
    the engine can replay the same hand (the check in tests/test_fastplay.py)."""
    c = constants_for(view.rules)
    tables = c.tables
    melded_of = c.melded
    completes = c.completes
    melded_memo = c.melded_memo
    completes_memo = c.completes_memo
    groups_memo = c.groups_memo
    throw0, throw1, throw2, throw3 = c.throw_in_suit
    next_high = c.next_high
    next_low = c.next_low
    n = view.num_players
    me = view.seat
    hands = world.hands[:]
    stock = world.stock[:]
    discard = list(view.discard)
    sets, low, high = table_accepts(view.table)
    on_table = 0
    for meld in view.table:
        on_table |= meld.mask
    seat = view.to_move
    ever_placed = view.ever_placed
    rebuilds = view.rebuilds
    taken = view.taken
    melds_done = view.melds_this_turn
    placed = view.placed_this_turn
    drawing = view.phase == DRAW_PHASE
    turns = 0
    pending: Move | None = first
    while True:
        hand = hands[seat]
        if drawing:
            if pending is not None:
                move, pending = pending, None
                take = type(move) is Take
            else:
                top = discard[-1] if discard else -1
                if not discard:
                    take = False
                elif not stock and not c.turn_over:
                    take = True
                else:
                    take = bool((sets | low | high) >> top & 1)
                    if not take:
                        key = hand << 6 | top
                        known = completes_memo.get(key)
                        if known is None:
                            known = completes_memo[key] = completes(hand, top)
                        take = known
            if take:
                top = discard.pop()
                hand |= 1 << top
                taken = top
            else:
                if not stock:
                    if not discard:  # nothing left to draw: score the hand as it stands
                        break
                    stock = discard[::-1]
                    discard = []
                    rebuilds += 1
                hand |= 1 << stock.pop()
                taken = -1
            drawing = False
        meldless = False
        if pending is None or type(pending) is not Discard:
            # meld the best arrangement, one group at a time, while it stays completable
            layable = sets | low | high
            max_melds = c.max_melds
            if max_melds is None or melds_done < max_melds:
                in_melds = melded_memo.get(hand, -1)
                if in_melds < 0:
                    in_melds = melded_memo[hand] = melded_of(hand)
                meldless = not in_melds  # and stays so: lay-offs only take cards away
                if in_melds:
                    groups = groups_memo.get(hand)
                    if groups is None:
                        groups = groups_memo[hand] = _groups(tables, hand, c.top)
                    for group, kind, suit, lo, hi in groups:
                        if max_melds is not None and melds_done >= max_melds:
                            break
                        rest = hand & ~group
                        if not rest and c.must_discard:
                            continue
                        if kind:
                            g_low = position_card(suit, lo - 1) if lo > 1 else -1
                            g_high = position_card(suit, hi + 1) if hi < c.top else -1
                            g_sets = 0
                        else:
                            g_low = g_high = -1
                            g_sets = ALL_NATURALS & ~group & _rank_mask(lo) & ~on_table
                            if group.bit_count() >= 4:
                                g_sets = 0
                        if taken >= 0 and rest == 1 << taken:
                            fits = layable | g_sets
                            if g_low >= 0:
                                fits |= 1 << g_low
                            if g_high >= 0:
                                fits |= 1 << g_high
                            if c.must_discard or not fits >> taken & 1:
                                continue
                        hand = rest
                        on_table |= group
                        sets |= g_sets
                        if g_low >= 0 and not on_table >> g_low & 1:
                            low |= 1 << g_low
                        if g_high >= 0 and not on_table >> g_high & 1:
                            high |= 1 << g_high
                        melds_done += 1
                        placed = True
                        if not hand:
                            break
            # lay off every card that fits
            fits = hand & (sets | low | high)
            while fits and hand:
                bit = fits & -fits
                card = bit.bit_length() - 1
                rest = hand & ~bit
                if not rest and c.must_discard:
                    break
                if taken >= 0 and rest == 1 << taken and taken != card and (
                        c.must_discard or not (sets | low | high) >> taken & 1):
                    fits ^= bit
                    continue
                hand = rest
                on_table |= bit
                if high & bit:
                    nxt = next_high[card]
                    if nxt >= 0 and not on_table >> nxt & 1:
                        high |= 1 << nxt
                elif low & bit:
                    nxt = next_low[card]
                    if nxt >= 0 and not on_table >> nxt & 1:
                        low |= 1 << nxt
                sets &= ~bit
                low &= ~bit
                high &= ~bit
                placed = True
                fits = hand & (sets | low | high)
            if not hand:
                hands[seat] = hand
                return _won(c, hands, seat, me, n, not ever_placed >> seat & 1)
        # discard
        if pending is not None:
            assert isinstance(pending, Discard)
            throw = pending.card
            pending = None
        else:
            if meldless:
                loose = hand
            else:
                in_melds = melded_memo.get(hand, -1)
                if in_melds < 0:
                    in_melds = melded_memo[hand] = melded_of(hand)
                loose = hand & ~in_melds
            if taken >= 0:
                loose &= ~(1 << taken)
            if not loose:
                loose = hand & ~(1 << taken) if taken >= 0 else hand
                if not loose:
                    loose = hand
            throw = max(throw0[loose & SUIT_MASK], throw1[loose >> 13 & SUIT_MASK],
                        throw2[loose >> 26 & SUIT_MASK], throw3[loose >> 39]) & 63
        hand &= ~(1 << throw)
        discard.append(throw)
        hands[seat] = hand
        if not hand:
            return _won(c, hands, seat, me, n, not ever_placed >> seat & 1)
        if placed:
            ever_placed |= 1 << seat
        seat = (seat + 1) % n
        drawing = True
        taken = -1
        melds_done = 0
        placed = False
        turns += 1
        if c.deadlock_draw and not hand & (hand - 1) and all(
                h and not h & (h - 1) for h in hands) and not (
                ALL_NATURALS & ~on_table & (sets | low | high)):
            return (DRAWN_MATCH_VALUE if c.draw_ends_match else 0.0), 0  # RULES.md §3.3
        if not stock:
            if c.max_rebuilds is not None and rebuilds >= c.max_rebuilds:
                # a drawn hand: nobody scores, but it may end the match with no winner
                return (DRAWN_MATCH_VALUE if c.draw_ends_match else 0.0), 0
            if c.keep_top and len(discard) > 1:
                stock = discard[:-1]
                shuffle(stock, rng)
                discard = discard[-1:]
                rebuilds += 1
                if restocks is not None:
                    restocks.append(tuple(stock[::-1]))
            elif c.shuffle_all:
                stock = discard
                shuffle(stock, rng)
                discard = []
                rebuilds += 1
                if restocks is not None:
                    restocks.append(tuple(stock[::-1]))
        if turns >= max_turns:
            break
    return estimate(c, hands, me, sets | low | high, on_table | mask_of(discard)), 0


def _rank_mask(rank: int) -> int:
    return sum(1 << (suit * NUM_RANKS + rank - 1) for suit in range(4))


def _groups(tables: MeldTables, hand: int, top: int) -> list[Group]:
    """The best arrangement's melds as (cards, 1 for a run, suit, low, high); a set's
    low and high are its rank 1..13."""
    found = []
    for group in tables.best_arrangement(hand).melds:
        mask = 0
        for card in group:
            mask |= 1 << card
        first, second = group[0], group[1]
        if first % NUM_RANKS == second % NUM_RANKS:
            found.append((mask, 0, -1, first % NUM_RANKS + 1, first % NUM_RANKS + 1))
        else:
            suit = first // NUM_RANKS
            ranks = [c % NUM_RANKS + 1 for c in group]
            if 1 in ranks and 13 in ranks:  # the ace is high: positions 14 and down
                ranks = [14 if r == 1 else r for r in ranks]
            found.append((mask, 1, suit, min(ranks), min(max(ranks), top)))
    found.sort(key=lambda entry: -entry[0].bit_count())
    return found


def _won(c: _Rules, hands: list[int], winner: int, me: int, n: int,
         rummy: bool) -> tuple[float, int]:
    held = [c.judge.value(h) for h in hands]
    if c.penalty:
        scores = held
        mine = scores[me] - (sum(scores) - scores[me]) / (n - 1)
        return -mine, int(winner == me)
    gain = sum(held) * (c.multiplier if rummy and c.multiplier > 1 else 1)
    if winner == me:
        return float(gain), 1
    return -gain / (n - 1), 0


def estimate(c: _Rules, hands: list[int], me: int, layable: int, shown: int) -> float:
    """The seat's expected score less the others' mean in a hand still going: each seat
    goes out first with a chance that falls with its distance from going out, and then
    collects the points the others hold."""
    judge = c.judge
    layable &= ALL_NATURALS
    chances = [math.exp(-RACE_SHARPNESS * judge.distance(h, layable, ALL_NATURALS & ~(shown | h)))
               for h in hands]
    total_chance = sum(chances)
    worth = [judge.value(h) for h in hands]
    total = sum(worth)
    scores = [chances[s] / total_chance * (total - worth[s]) for s in range(len(hands))]
    mine = scores[me]
    return mine - (sum(scores) - mine) / (len(scores) - 1)
