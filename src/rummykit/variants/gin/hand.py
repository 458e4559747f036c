"""One hand of gin or Oklahoma gin (RULES.md §6.2-§6.9, §6.11; FORMATS.md §4).

Seats 0 and 1; hands are bit sets of core card codes; the stock and the discard pile are
lists with the top last. Phases: ``offer`` (the first-upcard offer), ``draw``, ``discard``
(after the draw: discard, knock or gin), ``wall`` (pass or take to knock),
``wall_knock`` (after the wall take: only knocks), ``show`` (the defender lays off, melds,
says ``done``) and ``over``.

Knocks: after the draw :meth:`GinHand.legal_moves` lists, for each discard X that allows a
knock, ONE move with the implied arrangement of FORMATS.md §4.1 (``gin X: ...`` when it
leaves no deadwood, else ``knock X: ...``), and big gin when it is played and possible.
Any other declared arrangement whose deadwood is within the knock limit is accepted by
:meth:`GinHand.play` and :meth:`GinHand.is_legal` (RULES.md §6.16, G-5) but not listed.

>>> import random
>>> from rummykit.variants.gin.rules import GIN
>>> hand = GinHand.deal(GIN, dealer=0, rng=random.Random(3))
>>> hand.phase, hand.to_move, [str(m) for m in hand.legal_moves()]
('offer', 1, ['take', 'pass'])
>>> str(hand.play("pass")), hand.to_move
('pass', 0)
>>> hand.play("draw")
Traceback (most recent call last):
...
rummykit.core.errors.IllegalMoveError: cannot draw: the first upcard is on offer (take or pass)
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from rummykit.core.cards import Card, cards_of
from rummykit.core.errors import AmbiguousMoveError, IllegalMoveError, RecordError
from rummykit.core.moves import Discard, Draw, LayOff, Meld, Take
from rummykit.core.outcome import ABORTED, DRAW, WIN, HandResult
from rummykit.variants.gin import outcome as why
from rummykit.variants.gin.checks import resolve
from rummykit.variants.gin.deadwood import (
    RANK_COLUMN,
    Arrangement,
    arrangement_mask,
    implied_arrangement,
    is_set,
    knock_discards,
    loose_value,
    mask_value,
    melds_in,
    min_deadwood,
    os_min_deadwood,
)
from rummykit.variants.gin.hand_tables import (
    CARD_BITS,
    MAX_CARD_VALUE,
    Snapshot,
    Undo,
    check_deal,
    discards_of,
    run_ends,
)
from rummykit.variants.gin.moves import (
    BigGin,
    Done,
    Gin,
    GinMove,
    Knock,
    Pass,
    parse_gin_move,
)
from rummykit.variants.gin.outcome import GinOutcome
from rummykit.variants.gin.phases import (
    BIG_GIN_KNOCK,
    DISCARD_STEP,
    DRAW_STEP,
    GIN_KNOCK,
    HAND_SIZE,
    NO_KNOCK,
    OFFER,
    OVER,
    PLAIN_KNOCK,
    SHOW,
    STOCK_SIZE,
    WALL,
    WALL_KNOCK,
    WALL_STOCK,
)
from rummykit.variants.gin.rules import GinRules

# the phase and knock-kind names are part of this module's interface (defined in phases)
__all__ = [
    "BIG_GIN_KNOCK", "DISCARD_STEP", "DRAW_STEP", "GIN_KNOCK", "HAND_SIZE", "NO_KNOCK",
    "OFFER", "OVER", "PLAIN_KNOCK", "SHOW", "STOCK_SIZE", "WALL", "WALL_KNOCK", "WALL_STOCK",
    "GinHand",
]

_DRAW, _TAKE, _PASS, _DONE = Draw(), Take(), Pass(), Done()
_ZERO = (0, 0)
#: the kinds of undo record (see push)
_UNDO_DISCARD, _UNDO_DRAW, _UNDO_TAKE, _UNDO_FULL = 0, 1, 2, 3


class GinHand:
    """The state of one gin hand, its legal moves, and play with undo (push / pop)."""

    __slots__ = (
        "_undo", "deal_index", "dealer", "defender_groups", "discard", "discarded", "echo",
        "hands", "kind", "knock_card", "knock_groups", "knock_limit", "knocker",
        "knocker_deadwood", "known", "laid", "melded", "multiplier", "offer_step",
        "outcome", "phase", "result", "rules", "stock", "stock_only", "table",
        "take_count", "taken", "to_move", "turn_count", "upcard",
    )

    num_players = 2

    @property
    def restocks(self) -> list[tuple[Card, ...]]:
        """None: gin never rebuilds a stock (the wall ends the hand, §6.9)."""
        return []

    def __init__(self, rules: GinRules, dealer: int, hands: Sequence[int], upcard: Card,
                 stock: list[Card], deal_index: int = 0) -> None:
        self.rules = rules
        self.dealer = dealer
        self.deal_index = deal_index
        self.upcard = upcard
        self.hands = list(hands)
        self.stock = stock
        self.discard = [upcard]
        self.knock_limit = rules.hand_knock_limit(upcard % 13 + 1)
        self.multiplier = 2 if rules.spade_double and upcard // 13 == 3 else 1
        self.to_move = 1 - dealer
        self.phase = OFFER
        self.offer_step = 0
        self.taken = -1  # the card taken from the discard pile this turn, or -1
        self.stock_only = False  # the first draw after two passes: the upcard is dead
        self.echo = False  # the last turn took the discard top and discarded it again
        self.take_count = 0  # draw-step takes (RULES.md §6.8, upcard_take_limit)
        self.turn_count = 0
        self.knocker: int | None = None
        self.kind = NO_KNOCK
        self.knock_card = -1
        self.knock_groups: Arrangement = ()
        self.knocker_deadwood = 0
        self.table: tuple[int, ...] = ()  # the knocker's melds as they now stand
        self.laid = 0  # the cards the defender laid off
        self.defender_groups: Arrangement = ()
        self.melded = False
        self.known = _ZERO  # per seat: cards taken from the discard pile, still held
        self.discarded = _ZERO  # per seat: cards discarded face up this hand
        self.result: HandResult | None = None
        self.outcome: GinOutcome | None = None
        self._undo: list[Undo] = []

    # -- dealing ------------------------------------------------------------------
    @classmethod
    def from_deal(cls, rules: GinRules, dealer: int, hands: Sequence[Sequence[Card]],
                  upcard: Card, stock_top_first: Sequence[Card], *,
                  deal_index: int = 0) -> GinHand:
        """A hand from the record form ``deal`` (FORMATS.md §4.2): one list per seat."""
        check_deal(dealer, hands, upcard, stock_top_first)
        masks = [sum(1 << c for c in h) for h in hands]
        return cls(rules, dealer, masks, upcard, list(reversed(stock_top_first)), deal_index)

    @classmethod
    def from_deck(cls, rules: GinRules, dealer: int, deck: Sequence[Card], *,
                  deal_index: int = 0) -> GinHand:
        """A hand from the record form ``deck`` (FORMATS.md §4.2): elements 0, 2, ..., 18
        to the non-dealer, 1, ..., 19 to the dealer, 20 the upcard, 21-51 the stock."""
        if dealer not in (0, 1):
            raise RecordError(f"dealer {dealer!r}: expected seat 0 or 1")
        if len(deck) != 52:
            raise RecordError(f"deck: expected 52 cards, got {len(deck)}")
        hands: list[Sequence[Card]] = [(), ()]
        hands[1 - dealer] = deck[0:20:2]
        hands[dealer] = deck[1:20:2]
        return cls.from_deal(rules, dealer, hands, deck[20], deck[21:], deal_index=deal_index)

    @classmethod
    def deal(cls, rules: GinRules, dealer: int, rng: random.Random, *,
             deal_index: int = 0) -> GinHand:
        """A hand dealt from a deck shuffled with ``rng``."""
        if dealer not in (0, 1):
            raise RecordError(f"dealer {dealer!r}: expected seat 0 or 1")
        deck = list(range(52))
        rng.shuffle(deck)
        # the deal of from_deck, without its checks (a shuffled deck passes them all)
        bits = CARD_BITS
        first = sum(map(bits.__getitem__, deck[0:20:2]))
        second = sum(map(bits.__getitem__, deck[1:20:2]))
        hands = (first, second) if dealer else (second, first)  # [1 - dealer]: first
        return cls(rules, dealer, hands, deck[20], deck[:20:-1], deal_index)

    # -- queries --------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """True once the hand has a result."""
        return self.result is not None

    @property
    def defender(self) -> int | None:
        """The seat that shows after a knock, or None."""
        return None if self.knocker is None else 1 - self.knocker

    def copy(self) -> GinHand:
        """An independent copy (without the undo history)."""
        new = GinHand.__new__(GinHand)
        for name in GinHand.__slots__:
            setattr(new, name, getattr(self, name))
        new.hands = list(self.hands)
        new.stock = list(self.stock)
        new.discard = list(self.discard)
        new._undo = []
        return new

    def legal_moves(self) -> list[GinMove]:
        """Every legal move in a fixed order (one knock per discard, see the module doc)."""
        phase = self.phase
        if phase == DRAW_STEP:
            return [_DRAW] if self.stock_only else [_DRAW, _TAKE]
        if phase != DISCARD_STEP:
            return list(self.iter_legal_moves())
        hand = self.hands[self.to_move]
        taken = self.taken
        banned = 1 << taken if taken >= 0 and self.rules.rediscard_ban else 0
        moves = discards_of(hand & ~banned)
        if loose_value(hand) <= self.knock_limit + MAX_CARD_VALUE:
            moves.extend(self._knocks(hand, banned))
        return moves

    def iter_legal_moves(self) -> Iterator[GinMove]:
        """The legal moves, generated lazily, in the order of :meth:`legal_moves`."""
        phase = self.phase
        if phase == DISCARD_STEP:
            hand = self.hands[self.to_move]
            banned = 1 << self.taken if self.taken >= 0 and self.rules.rediscard_ban else 0
            yield from discards_of(hand & ~banned)
            yield from self._knocks(hand, banned)
        elif phase == DRAW_STEP:
            yield _DRAW
            if not self.stock_only:
                yield _TAKE
        elif phase == OFFER:
            yield _TAKE
            yield _PASS
        elif phase == WALL:
            yield _PASS
            if self.wall_take_ok():
                yield _TAKE
        elif phase == WALL_KNOCK:
            hand = self.hands[self.to_move]
            yield from self._knocks(hand, 1 << self.taken if self.rules.rediscard_ban else 0)
        elif phase == SHOW:
            yield from self._show_moves()

    def _knocks(self, hand: int, banned: int) -> Iterator[GinMove]:
        """The knocks of the 11 cards ``hand``. None when the cards in no meld are worth
        more than the limit plus the largest card value: every discard then leaves
        deadwood over the limit, and big gin needs every card in a meld."""
        limit = self.knock_limit
        if loose_value(hand) > limit + MAX_CARD_VALUE:
            return
        rules = self.rules
        discards = knock_discards(hand, limit, banned)
        big = rules.big_gin_bonus is not None and min_deadwood(hand) == 0
        if not discards and not big:
            return
        if rules.knock_test == "openspiel" and os_min_deadwood(hand) > limit:
            return
        for card in discards:
            rest = hand & ~(1 << card)
            groups = implied_arrangement(rest)
            if arrangement_mask(groups) == rest:
                yield Gin(card, groups)
            else:
                yield Knock(card, groups)
        if big:
            yield BigGin(implied_arrangement(hand))

    def may_meld_all_eleven(self, hand: int) -> bool:
        """True if big gin is played and the 11 cards ``hand`` have no deadwood."""
        return self.rules.big_gin_bonus is not None and min_deadwood(hand) == 0

    def knock_test_passes(self, hand: int) -> bool:
        """False when the rules' knock test refuses every knock of the 11 cards ``hand``
        (OpenSpiel's test, RULES.md §6.14.2; the exact test refuses none here)."""
        return self.rules.knock_test != "openspiel" or os_min_deadwood(hand) <= self.knock_limit

    def _knock_possible(self, hand: int, banned: int) -> bool:
        for _ in self._knocks(hand, banned):
            return True
        return False

    def wall_take_ok(self) -> bool:
        """At the wall: True if taking the discard top leaves a knock possible."""
        if not self.discard:
            return False
        top = self.discard[-1]
        hand = self.hands[self.to_move] | 1 << top
        return self._knock_possible(hand, 1 << top if self.rules.rediscard_ban else 0)

    def _show_moves(self) -> Iterator[GinMove]:
        hand = self.hands[self.to_move]
        if self.kind == PLAIN_KNOCK and not self.melded:
            for card in cards_of(hand):
                targets = self.layoff_targets(card)
                if self.rules.layoff_rule == "openspiel":
                    targets = targets[:1]
                for target in targets:
                    yield LayOff(card, target)
        for meld in melds_in(hand):
            yield Meld((tuple(cards_of(meld)),))
        yield _DONE

    def layoff_targets(self, card: Card) -> list[int]:
        """The knocker meld numbers ``card`` fits now (RULES.md §6.7, §6.14.3)."""
        bit = 1 << card
        found = []
        openspiel = self.rules.layoff_rule == "openspiel"
        for number, (base, now) in enumerate(zip(self.knock_groups, self.table, strict=True),
                                             start=1):
            meld = sum(1 << c for c in base) if openspiel else now
            if is_set(meld):
                column = RANK_COLUMN << (card % 13)
                if meld.bit_count() == 3 and meld & column == column & ~bit:
                    found.append(number)
                continue
            if openspiel:
                meld |= self.laid & run_ends(meld)
            if bit & run_ends(meld):
                found.append(number)
        return found

    def is_legal(self, move: GinMove) -> bool:
        """True if ``move`` may be played now (any declared arrangement, G-5)."""
        try:
            resolve(self, move)
        except (IllegalMoveError, AmbiguousMoveError):
            return False
        return True

    # -- playing ----------------------------------------------------------------------
    def play(self, move: GinMove | str) -> GinMove:
        """Check and play one move; returns its canonical form. Raises
        :class:`IllegalMoveError` (or ``NotationError`` / ``AmbiguousMoveError``) with the
        reason, leaving the state unchanged."""
        if isinstance(move, str):
            move = parse_gin_move(move)
        canonical = resolve(self, move)
        self.push(canonical)
        return canonical


    # -- unchecked play with undo ---------------------------------------------------
    # An undo record starts with its kind: a draw, a discard and a take (most moves) save
    # only the fields they change; every other move saves the whole snapshot.
    def _snapshot(self, show: bool) -> Snapshot:
        return (self.to_move, self.phase, self.hands[0], self.hands[1], self.offer_step,
                self.taken, self.stock_only, self.echo, self.take_count, self.turn_count,
                self.known, self.discarded, self.result, self.outcome,
                len(self.stock), self.stock[-1] if self.stock else -1, len(self.discard),
                self.discard[-1] if self.discard else -1,
                (self.knocker, self.kind, self.knock_card, self.knock_groups,
                 self.knocker_deadwood, self.table, self.laid, self.defender_groups,
                 self.melded) if show else None)

    def pop(self) -> None:
        """Undo the last :meth:`push`."""
        record = self._undo.pop()
        kind = record[0]
        if kind == _UNDO_DISCARD:
            (_, seat, card, self.phase, self.taken, self.stock_only, self.echo,
             self.turn_count, self.known, self.discarded) = record
            self.result = self.outcome = None  # push plays on a hand not over
            self.to_move = seat
            self.hands[seat] |= 1 << card
            self.discard.pop()
        elif kind == _UNDO_DRAW:
            _, seat, card, self.phase, self.taken = record
            self.hands[seat] &= ~(1 << card)
            self.stock.append(card)
        elif kind == _UNDO_TAKE:
            _, seat, phase, taken, self.take_count, self.known = record
            if self.result is None:  # the card left the pile (no take-limit draw)
                card = self.taken
                self.hands[seat] &= ~(1 << card)
                self.discard.append(card)
            self.phase, self.taken = phase, taken
            self.result = self.outcome = None
        else:
            self._restore(record[1])

    def _restore(self, snapshot: Snapshot) -> None:
        (self.to_move, self.phase, h0, h1, self.offer_step, self.taken, self.stock_only,
         self.echo, self.take_count, self.turn_count, self.known, self.discarded,
         self.result, self.outcome, stock_len, stock_top, discard_len, top,
         show) = snapshot
        if show is not None:
            (self.knocker, self.kind, self.knock_card, self.knock_groups,
             self.knocker_deadwood, self.table, self.laid, self.defender_groups,
             self.melded) = show
        self.hands[0], self.hands[1] = h0, h1
        stock = self.stock
        if len(stock) < stock_len:
            stock.append(stock_top)
        discard = self.discard
        if len(discard) > discard_len:
            discard.pop()
        elif len(discard) < discard_len:
            discard.append(top)

    def push(self, move: GinMove) -> None:
        """Play a canonical legal ``move`` without checking it (undo with :meth:`pop`)."""
        seat = self.to_move
        kind = move.__class__
        if kind is Discard:
            self._discard(seat, move.card)  # type: ignore[union-attr,arg-type]
            return
        if kind is Draw:
            card = self.stock.pop()
            self._undo.append((_UNDO_DRAW, seat, card, self.phase, self.taken))
            self.hands[seat] |= 1 << card
            self.taken = -1
            self.phase = DISCARD_STEP
            return
        if kind is Take:
            self._undo.append((_UNDO_TAKE, seat, self.phase, self.taken, self.take_count,
                               self.known))
            self._take(seat)
            return
        self._undo.append((_UNDO_FULL, self._snapshot(kind is not Pass)))
        if isinstance(move, Pass):
            self._pass(seat)
        elif isinstance(move, (Knock, Gin, BigGin)):
            self._knock(seat, move)
        elif isinstance(move, LayOff):
            bit = 1 << move.card
            self._leave(seat, bit)
            self.laid |= bit
            table = list(self.table)
            table[move.target - 1] |= bit
            self.table = tuple(table)
        elif isinstance(move, Meld):
            self._leave(seat, sum(1 << c for group in move.groups for c in group))
            self.defender_groups += tuple(move.groups)
            self.melded = True
        elif isinstance(move, Done):
            self._score()
        else:  # pragma: no cover - push takes canonical moves only
            self._undo.pop()
            raise IllegalMoveError(f"{move!r}: not a gin move")

    def _leave(self, seat: int, cards: int) -> None:
        """``cards`` leave ``seat``'s hand for the table or the pile."""
        self.hands[seat] &= ~cards
        known = self.known
        if known[seat] & cards:
            self.known = (known[0] & ~cards, known[1]) if seat == 0 else (
                known[0], known[1] & ~cards)

    def _take(self, seat: int) -> None:
        phase = self.phase
        if phase == DRAW_STEP:
            self.take_count += 1
            limit = self.rules.upcard_take_limit
            if limit is not None and self.take_count >= limit:
                self._end(DRAW, None, why.UPCARD_LIMIT, _ZERO)
                return
        card = self.discard.pop()
        bit = 1 << card
        self.hands[seat] |= bit
        self.taken = card
        known = self.known
        self.known = (known[0], known[1] | bit) if seat else (known[0] | bit, known[1])
        self.phase = WALL_KNOCK if phase == WALL else DISCARD_STEP

    def _pass(self, seat: int) -> None:
        if self.phase == WALL:
            self._end(DRAW, None, why.DEAD_HAND, _ZERO)
        elif self.offer_step == 0:
            self.offer_step = 1
            self.to_move = 1 - seat
        else:
            self.offer_step = 2
            self.to_move = 1 - seat
            self.phase = DRAW_STEP
            self.stock_only = True

    def _discard(self, seat: int, card: Card) -> None:
        known = self.known
        discarded = self.discarded
        taken = self.taken
        self._undo.append((_UNDO_DISCARD, seat, card, self.phase, taken, self.stock_only,
                           self.echo, self.turn_count, known, discarded))
        bit = 1 << card
        self.hands[seat] &= ~bit
        self.discard.append(card)
        if seat:
            if known[1] & bit:
                self.known = (known[0], known[1] & ~bit)
            self.discarded = (discarded[0], discarded[1] | bit)
        else:
            if known[0] & bit:
                self.known = (known[0] & ~bit, known[1])
            self.discarded = (discarded[0] | bit, discarded[1])
        rules = self.rules
        echo = card == taken
        self.taken = -1
        self.stock_only = False
        if echo and self.echo and rules.repeated_move_draw:
            self._end(DRAW, None, why.REPEATED_MOVE, _ZERO)
            return
        self.echo = echo
        self.to_move = 1 - seat
        if len(self.stock) == WALL_STOCK:
            if rules.wall_knock:
                self.phase = WALL
            else:
                self._end(DRAW, None, why.DEAD_HAND, _ZERO)
            return
        self.turn_count += 1
        limit = rules.max_turns_per_hand
        if limit is not None and self.turn_count >= limit:
            self._end(ABORTED, None, why.MAX_TURNS, _ZERO)
            return
        self.phase = DRAW_STEP

    def _knock(self, seat: int, move: Knock | Gin | BigGin) -> None:
        hand = self.hands[seat]
        if isinstance(move, BigGin):
            self.kind = BIG_GIN_KNOCK
        else:
            bit = 1 << move.card
            hand &= ~bit
            self._leave(seat, bit)
            self.discard.append(move.card)
            self.knock_card = move.card
            self.kind = GIN_KNOCK if isinstance(move, Gin) else PLAIN_KNOCK
        groups = move.groups or ()
        self.knock_groups = groups
        self.table = tuple(sum(1 << c for c in g) for g in groups)
        self.knocker_deadwood = mask_value(hand & ~arrangement_mask(groups))
        self.knocker = seat
        self.taken = -1
        self.to_move = 1 - seat
        self.phase = SHOW

    def _score(self) -> None:
        rules = self.rules
        knocker = self.knocker
        assert knocker is not None
        defender = 1 - knocker
        rest = self.hands[defender]
        dd = min_deadwood(rest) if rules.defender_melds == "auto" else mask_value(rest)
        dk = self.knocker_deadwood
        m = self.multiplier
        if self.kind == BIG_GIN_KNOCK:
            winner, points, reason = knocker, (dd + (rules.big_gin_bonus or 0)) * m, why.BIG_GIN
        elif dk == 0:
            winner, points, reason = knocker, (dd + rules.gin_bonus) * m, why.GIN
        elif dd < dk:
            winner, points, reason = defender, (dk - dd + rules.undercut_bonus) * m, why.UNDERCUT
        elif dd == dk and rules.tie_rule == "undercut":
            winner, points, reason = defender, rules.undercut_bonus * m, why.UNDERCUT
        elif dd == dk and rules.tie_rule == "knocker_wins":
            winner, points, reason = knocker, 0, why.KNOCK
        elif dd == dk:
            deadwood = (dk, dd) if knocker == 0 else (dd, dk)
            self._end(DRAW, None, why.KNOCK_TIE, _ZERO, deadwood)
            return
        else:
            winner, points, reason = knocker, (dd - dk) * m, why.KNOCK
        if rules.immediate_boxes:
            points += rules.box_bonus
        scores = (points, 0) if winner == 0 else (0, points)
        deadwood = (dk, dd) if knocker == 0 else (dd, dk)
        self._end(WIN, winner, reason, scores, deadwood)

    def _end(self, result: str, winner: int | None, reason: str, scores: tuple[int, int],
             deadwood: tuple[int, int] | None = None) -> None:
        self.result = HandResult(result, winner, False, reason, scores)
        self.outcome = GinOutcome(self.knocker, self.knock_limit, self.multiplier, deadwood)
        self.phase = OVER

    # -- facts for views and records ------------------------------------------------------
    @property
    def knocker_loose(self) -> int:
        """The knocker's deadwood cards (public at the show), as a bit set."""
        if self.knocker is None:
            return 0
        return self.hands[self.knocker] & ~arrangement_mask(self.knock_groups)

    def __repr__(self) -> str:
        return (f"GinHand({self.rules.name}, dealer={self.dealer}, phase={self.phase!r}, "
                f"to_move={self.to_move}, stock={len(self.stock)})")

