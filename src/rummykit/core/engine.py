"""One hand of Rummy as a state machine (ARCHITECTURE.md §2).

Phases ``DRAW`` → ``PLAY`` → (next player's ``DRAW`` | ``OVER``). ``legal_moves()`` is the
single source of legality; ``play()`` checks a move against it and raises
:class:`~rummykit.core.errors.IllegalMoveError` with the reason, leaving the state unchanged;
``push()``/``pop()`` are the unchecked fast path with undo; ``copy()`` is cheap.

Hands are bit sets of natural cards (one deck). The stock is a list with its top card last.

>>> import random
>>> from rummykit.core.rules import BASIC
>>> state = HandState.deal(BASIC, num_players=2, dealer=0, rng=random.Random(1))
>>> state.to_move, state.phase, len(state.stock), [str(m) for m in state.legal_moves()]
(1, 'draw', 31, ['draw', 'take'])
>>> state.play("DRAW")
Draw()
>>> state.play("discard ZZ")
Traceback (most recent call last):
...
rummykit.core.errors.NotationError: bad card 'ZZ': expected a suit C, D, H or S then a rank ...
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from rummykit.core import closed_table, handset
from rummykit.core.cards import (
    JOKER,
    SUIT_MASK,
    Card,
    cards_of,
    points_table,
    standard_pack,
)
from rummykit.core.errors import IllegalMoveError, RecordError
from rummykit.core.melds import (
    JOKER_AS,
    MeldTables,
    TableMeld,
    hand_card,
    identity,
    lay_off,
    make_meld,
    tables_for,
)
from rummykit.core.move_tables import (
    DRAW_MOVE,
    TAKE_MOVE,
    SuitCaches,
    caches_for,
    lay_move,
    meld_move,
)
from rummykit.core.moves import Discard, Draw, LayOff, Meld, Move, Swap, Take, parse_move
from rummykit.core.outcome import (
    ABORTED,
    BLOCKED,
    DEADLOCK,
    DRAW,
    MAX_TURNS,
    STOCK_EXHAUSTED,
    WIN,
    HandResult,
)
from rummykit.core.rules import Rules
from rummykit.variants.contract import play as contract_play

DRAW_PHASE = "draw"
PLAY_PHASE = "play"
OVER_PHASE = "over"

Snapshot = tuple[int, str, int, int, bool, int, int, int, "HandResult | None", int, int, int,
                 bool, int, int]
Undo = tuple[Snapshot, int, Any]  # (what the move changes of the state, move kind, more)


class HandState:
    """The full state of one hand (deal) of a Rummy match."""

    __slots__ = (
        "_caches",
        "_stack",
        "_tables",
        "_values",
        "contract",
        "deal_index",
        "dealer",
        "detached",
        "dig_duty",
        "discard",
        "discarded",
        "down",
        "ever_placed",
        "given_restocks",
        "hands",
        "joker_duty",
        "known",
        "melds_this_turn",
        "multi",
        "num_players",
        "passed",
        "phase",
        "placed_this_turn",
        "rebuilds",
        "restocks",
        "result",
        "rng",
        "rules",
        "stock",
        "table",
        "taken",
        "to_move",
        "turn_count",
        "went_down",
    )

    rules: Rules
    num_players: int
    dealer: int
    deal_index: int
    to_move: int
    phase: str
    hands: list[int]
    stock: list[Card]
    discard: list[Card]
    table: list[TableMeld]
    known: list[int]
    discarded: list[int]
    passed: list[int]
    taken: int
    melds_this_turn: int
    placed_this_turn: bool
    ever_placed: int
    rebuilds: int
    turn_count: int
    result: HandResult | None
    restocks: list[tuple[Card, ...]]
    given_restocks: Sequence[Sequence[Card]] | None
    rng: random.Random | None
    multi: bool
    contract: bool
    detached: bool
    down: int
    went_down: bool
    dig_duty: int
    joker_duty: int
    _stack: list[Undo]
    _tables: MeldTables
    _caches: SuitCaches
    _values: tuple[int, ...]

    # -- construction --------------------------------------------------------------
    @staticmethod
    def check_supported(rules: Rules, num_players: int) -> None:
        """Refuse packs of several decks or jokers outside a contract rule set (their moves
        are the contract hooks of :mod:`rummykit.variants.contract.play`)."""
        if rules.pack_spec(num_players) != (1, 0) and not rules.contract_schedule:
            raise RecordError(
                f"the {rules.name} rule set cannot use a pack of several decks and jokers"
            )

    @classmethod
    def from_deal(cls, rules: Rules, dealer: int, hands: Sequence[Sequence[Card]],
                  upcard: Card, stock_top_first: Sequence[Card], *,
                  rng: random.Random | None = None, deal_index: int = 0,
                  restocks: Sequence[Sequence[Card]] | None = None,
                  automatic: bool = True) -> HandState:
        """A hand dealt as given: one card list per seat, the upcard, the stock top first.

        The first draw step begins when the deal is complete, so its automatic checks
        (RULES.md §1.8) run here unless ``automatic`` is false (a position being rebuilt).
        """
        state = cls.__new__(cls)
        state.rules = rules
        state.num_players = len(hands)
        state.dealer = dealer
        state.deal_index = deal_index
        state.to_move = (dealer + 1) % state.num_players
        state.phase = DRAW_PHASE
        state.multi = rules.pack_spec(len(hands)) != (1, 0)
        state.contract = bool(rules.contract_schedule)
        state.hands = [handset.of_cards(hand) for hand in hands]
        state.stock = list(reversed(stock_top_first))
        state.discard = [upcard]
        state.table = []
        state.known = [0] * state.num_players
        state.discarded = [0] * state.num_players
        state.passed = [0] * state.num_players
        state.down = 0
        state.went_down = False
        state.dig_duty = -1
        state.joker_duty = 0
        state.taken = -1
        state.melds_this_turn = 0
        state.placed_this_turn = False
        state.ever_placed = 0
        state.rebuilds = 0
        state.turn_count = 0
        state.result = None
        state.restocks = []
        state.given_restocks = restocks
        state.detached = False
        state.rng = rng
        state._stack = []
        state._tables = tables_for(rules)
        state._caches = caches_for(state._tables)
        state._values = points_table(rules.ace_value, rules.joker_points)
        if automatic:
            state._start_draw_step()
        return state

    @classmethod
    def from_deck(cls, rules: Rules, num_players: int, dealer: int, deck: Sequence[Card], *,
                  rng: random.Random | None = None, deal_index: int = 0,
                  restocks: Sequence[Sequence[Card]] | None = None) -> HandState:
        """Deal a shuffled pack: one card at a time from the seat left of the dealer."""
        size = rules.hand_size_for(num_players, deal_index)
        hands: list[list[Card]] = [[] for _ in range(num_players)]
        for i in range(size * num_players):
            hands[(dealer + 1 + i) % num_players].append(deck[i])
        dealt = size * num_players
        return cls.from_deal(rules, dealer, hands, deck[dealt], deck[dealt + 1:], rng=rng,
                             deal_index=deal_index, restocks=restocks)

    @classmethod
    def deal(cls, rules: Rules, num_players: int, dealer: int = 0,
             rng: random.Random | None = None, deal_index: int = 0) -> HandState:
        """Shuffle a fresh pack with ``rng`` and deal it."""
        rules.check_players(num_players)
        cls.check_supported(rules, num_players)
        rng = rng or random.Random()
        deck = list(standard_pack(*rules.pack_spec(num_players)))
        rng.shuffle(deck)
        return cls.from_deck(rules, num_players, dealer, deck, rng=rng, deal_index=deal_index)

    def copy(self) -> HandState:
        """An independent copy of this position (without the undo history)."""
        new = HandState.__new__(HandState)
        new.rules = self.rules
        new.num_players = self.num_players
        new.dealer = self.dealer
        new.deal_index = self.deal_index
        new.to_move = self.to_move
        new.phase = self.phase
        new.hands = self.hands[:]
        new.stock = self.stock[:]
        new.discard = self.discard[:]
        new.table = self.table[:]
        new.known = self.known[:]
        new.discarded = self.discarded[:]
        new.passed = self.passed[:]
        new.multi = self.multi
        new.contract = self.contract
        new.down = self.down
        new.went_down = self.went_down
        new.dig_duty = self.dig_duty
        new.joker_duty = self.joker_duty
        new.taken = self.taken
        new.melds_this_turn = self.melds_this_turn
        new.placed_this_turn = self.placed_this_turn
        new.ever_placed = self.ever_placed
        new.rebuilds = self.rebuilds
        new.turn_count = self.turn_count
        new.result = self.result
        new.restocks = self.restocks[:]
        new.given_restocks = self.given_restocks
        new.rng = None  # a copy never moves the original's generator (see _restock)
        new.detached = True
        new._stack = []
        new._tables = self._tables
        new._caches = self._caches
        new._values = self._values
        return new

    # -- queries --------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """True once the hand has a result."""
        return self.result is not None

    def hand_cards(self, seat: int) -> list[Card]:
        """The cards a seat holds, sorted by suit then rank."""
        return handset.cards(self.hands[seat])

    def hand_value(self, seat: int) -> int:
        """The points of the cards a seat holds (RULES.md §1.11)."""
        values = self._values
        return sum(values[c] for c in handset.cards(self.hands[seat]))

    @property
    def table_mask(self) -> int:
        """Bit set of the natural cards on the table."""
        bits = 0
        for meld in self.table:
            bits |= meld.mask
        return bits

    def legal_moves(self) -> list[Move]:
        """Every legal move, in a fixed order (draw, take, digs; melds, lay-offs, swaps,
        discards)."""
        if self.phase == PLAY_PHASE:
            if self.contract:
                return contract_play.play_move_list(self)
            return self._play_moves()
        if self.phase == DRAW_PHASE:
            return self._draw_moves()
        return []

    def iter_legal_moves(self) -> Iterator[Move]:
        """The legal moves lazily, in the order of :meth:`legal_moves` (contract going-down
        moves can be numerous)."""
        if self.phase == PLAY_PHASE and self.contract:
            return contract_play.play_moves(self)
        return iter(self.legal_moves())

    def is_legal(self, move: Move) -> bool:
        """Whether a canonical move is legal; agrees with :meth:`legal_moves`."""
        if self.contract:
            return contract_play.is_legal(self, move)
        return move in self.legal_moves()

    def _draw_moves(self) -> list[Move]:
        moves: list[Move]
        if self.stock or self.rules.stock_rebuild == "turn_over_all":
            moves = [DRAW_MOVE, TAKE_MOVE] if self.discard else [DRAW_MOVE]
        else:
            moves = [TAKE_MOVE]
        if self.contract:
            if TAKE_MOVE in moves and not contract_play.take_ok(self):
                moves.remove(TAKE_MOVE)
            moves += contract_play.digs(self)
        return moves

    def _can_finish_with(self, rest: int, table_accepts: int) -> bool:
        """Completability (RULES.md §1.6) of a play that leaves ``rest`` in hand."""
        if not rest:
            return not self.rules.must_discard_to_go_out
        taken = self.taken
        if taken < 0 or rest != 1 << taken:
            return True
        return not self.rules.must_discard_to_go_out and bool(table_accepts & rest)

    def _accepts_all(self) -> int:
        bits = 0
        for meld in self.table:
            bits |= meld.accepts
        return bits

    def _play_moves(self) -> list[Move]:
        hand = self.hands[self.to_move]
        caches = self._caches
        rules = self.rules
        moves: list[Move] = []
        strict = self.taken >= 0 or rules.must_discard_to_go_out
        if rules.max_melds_per_turn is None or self.melds_this_turn < rules.max_melds_per_turn:
            entries: list[tuple[Meld, int]] = []
            s0 = hand & SUIT_MASK
            s1 = hand >> 13 & SUIT_MASK
            s2 = hand >> 26 & SUIT_MASK
            s3 = hand >> 39 & SUIT_MASK
            if (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1)):
                for options in self._tables.set_choices(hand):
                    for mask in options[1:]:
                        entries.append((meld_move(tuple(cards_of(mask))), mask))
            entries += caches.run_moves(0, s0)
            entries += caches.run_moves(1, s1)
            entries += caches.run_moves(2, s2)
            entries += caches.run_moves(3, s3)
            if not strict:
                moves += [move for move, _ in entries]
            else:
                accepts = self._accepts_all()
                for move, mask in entries:
                    rest = hand & ~mask
                    stranded = not rest or (self.taken >= 0 and rest == 1 << self.taken)
                    if not stranded or self._can_finish_with(
                            rest, accepts | self._new_meld_accepts(move)):
                        moves.append(move)
        for index, meld in enumerate(self.table):
            fits = hand & meld.accepts
            while fits:
                low = fits & -fits
                fits ^= low
                card = low.bit_length() - 1
                ends = meld.ends_for(card, rules)
                for end in ends:
                    if strict and not self._lay_ok(hand & ~low, index, card, end):
                        continue
                    moves.append(lay_move(card, index + 1, end if len(ends) > 1 else None))
        if self.taken >= 0:  # the card just taken may not be thrown back
            hand &= ~(1 << self.taken)
        moves += caches.discard_moves(0, hand & SUIT_MASK)
        moves += caches.discard_moves(1, hand >> 13 & SUIT_MASK)
        moves += caches.discard_moves(2, hand >> 26 & SUIT_MASK)
        moves += caches.discard_moves(3, hand >> 39 & SUIT_MASK)
        return moves

    def _new_meld_accepts(self, move: Meld) -> int:
        bits = 0
        for group in move.groups:
            meld = self._make(group)
            bits |= meld.accepts
        return bits

    def _make(self, group: tuple[int, ...]) -> TableMeld:
        meld = make_meld(group, self.rules, self.to_move)
        if isinstance(meld, str):
            raise IllegalMoveError(meld)
        return meld

    def _lay_ok(self, rest: int, index: int, card: Card, end: str) -> bool:
        if rest and (self.taken < 0 or rest != 1 << self.taken):
            return True
        grown = lay_off(self.table[index], card, end, self.to_move, self.rules)
        accepts = grown.accepts
        for i, meld in enumerate(self.table):
            if i != index:
                accepts |= meld.accepts
        return self._can_finish_with(rest, accepts)

    # -- checked entry point --------------------------------------------------------
    def play(self, move: Move | str) -> Move:
        """Make a move after checking it and return its canonical form.

        Raises a :class:`~rummykit.core.errors.RummyError` and changes nothing when the move is
        not legal (or, replaying a record, when a rebuild's ``restocks`` entry is wrong).
        """
        from rummykit.core.legality import check_move

        checked = check_move(self, parse_move(move) if isinstance(move, str) else move)
        depth = len(self._stack)
        try:
            self.push(checked)
        except RecordError:
            while len(self._stack) > depth:
                self.pop()
            raise
        return checked

    # -- fast path ------------------------------------------------------------------
    def push(self, move: Move) -> None:
        """Make a legal move without checking it; ``pop()`` undoes it."""
        seat = self.to_move
        snapshot: Snapshot = (
            seat, self.phase, self.taken, self.melds_this_turn, self.placed_this_turn,
            self.ever_placed, self.rebuilds, self.turn_count, self.result, self.known[seat],
            self.hands[seat], self.down, self.went_down, self.dig_duty, self.joker_duty)
        kind = type(move)
        if kind is Discard:
            assert isinstance(move, Discard)
            old_discard = self.discard
            thrown = self.discarded[seat]
            self._stack.append((snapshot, 0, (None, thrown)))
            self._discard(seat, move.card)
            if self.discard is not old_discard:
                self._stack[-1] = (snapshot, 0, (old_discard, thrown))
        elif kind is Draw:
            rebuilt = None
            passed = self.passed[seat]
            if self.discard:
                self.passed[seat] = passed | 1 << self.discard[-1]
            if not self.stock:
                rebuilt = self.discard
                self.stock = self.discard[::-1]
                self.discard = []
                self.rebuilds += 1
            card = self.stock.pop()
            self.hands[seat] = handset.add(self.hands[seat], card) if self.multi \
                else self.hands[seat] | 1 << card
            self.phase = PLAY_PHASE
            self._stack.append((snapshot, 1, (card, rebuilt, passed)))
        elif kind is Take:
            assert isinstance(move, Take)
            if move.count == 1 and not self.multi:
                card = self.discard.pop()
                self.hands[seat] |= 1 << card
                self.known[seat] |= 1 << card
                self.taken = card
                self._stack.append((snapshot, 2, (card,)))
            else:
                taken = self.discard[-move.count:]
                del self.discard[-move.count:]
                for card in taken:
                    self.hands[seat] = handset.add(self.hands[seat], card)
                    self.known[seat] = handset.add(self.known[seat], card)
                if move.count == 1:
                    self.taken = taken[0]
                else:
                    self.dig_duty = taken[0]
                self._stack.append((snapshot, 2, tuple(taken)))
            self.phase = PLAY_PHASE
        elif kind is Meld:
            assert isinstance(move, Meld)
            for group in move.groups:
                self.table.append(self._make(group))
            self.melds_this_turn += len(move.groups)
            if self.contract and not self.down >> seat & 1:
                self.down |= 1 << seat
                self.went_down = True
            self._stack.append((snapshot, 3, len(move.groups)))
            self._placed(seat, [c for group in move.groups for c in group])
        elif kind is LayOff:
            assert isinstance(move, LayOff)
            index = move.target - 1
            old = self.table[index]
            end = move.end or old.ends_for(identity(move.card), self.rules)[0]
            self.table[index] = lay_off(old, move.card, end, seat, self.rules)
            self._stack.append((snapshot, 4, (index, old)))
            self._placed(seat, [move.card])
        elif kind is Swap:
            assert isinstance(move, Swap)
            index = move.target - 1
            old = self.table[index]
            at = old.cards.index(JOKER_AS + move.card)
            cards = (*old.cards[:at], move.card, *old.cards[at + 1:])
            by = (*old.placed_by[:at], seat, *old.placed_by[at + 1:])
            self.table[index] = TableMeld(old.kind, cards, by, old.suit, old.rank, old.low,
                                          old.high, old.accepts)
            self._stack.append((snapshot, 4, (index, old)))
            self.hands[seat] = handset.add(self.hands[seat], JOKER)
            self.joker_duty += 1
            self._placed(seat, [move.card])
        else:  # pragma: no cover - every move kind is handled above
            raise IllegalMoveError(f"{move}: not a move of this rule set")

    def _placed(self, seat: int, placed: list[int]) -> None:
        """Cards leave the hand for the table; duties met; going out."""
        hand = self.hands[seat]
        if not self.multi:
            used = 0
            for c in placed:
                used |= 1 << c
            hand &= ~used
            self.known[seat] &= ~used
        else:
            known = self.known[seat]
            for code in placed:
                card = hand_card(code)
                hand = handset.remove(hand, card)
                if handset.count(known, card) > handset.count(hand, card):
                    known = handset.remove(known, card)
                if code >= JOKER_AS:
                    if self.dig_duty == JOKER:
                        self.dig_duty = -1
                    elif self.joker_duty:
                        self.joker_duty -= 1
                elif code == self.dig_duty:
                    self.dig_duty = -1
            self.known[seat] = known
        self.hands[seat] = hand
        self.placed_this_turn = True
        if not hand:
            self._win(seat)

    def _discard(self, seat: int, card: Card) -> None:
        if self.multi:
            hand = self.hands[seat] = handset.remove(self.hands[seat], card)
            if handset.count(self.known[seat], card) > handset.count(hand, card):
                self.known[seat] = handset.remove(self.known[seat], card)
        else:
            self.hands[seat] &= ~(1 << card)
            self.known[seat] &= ~(1 << card)
        self.discard.append(card)
        self.discarded[seat] |= 1 << card
        if not self.hands[seat]:
            self._win(seat)
            return
        if self.placed_this_turn:
            self.ever_placed |= 1 << seat
        self.to_move = (seat + 1) % self.num_players
        self.phase = DRAW_PHASE
        self.taken = -1
        self.melds_this_turn = 0
        self.placed_this_turn = False
        self.went_down = False
        self.turn_count += 1
        self._start_draw_step()

    def _start_draw_step(self) -> None:
        """The automatic steps at the start of a draw step (RULES.md §1.8)."""
        rules = self.rules
        if rules.deadlock_draw and closed_table.deadlocked(self):
            self._end(HandResult(DRAW, None, False, DEADLOCK, (0,) * self.num_players))
            return
        if rules.blocked_deal == "score_hands" and closed_table.blocked(self):
            scores = tuple(self.hand_value(s) for s in range(self.num_players))
            self._end(HandResult(DRAW, None, False, BLOCKED, scores))
            return
        if not self.stock:
            if rules.max_rebuilds is not None and self.rebuilds >= rules.max_rebuilds:
                self._end(HandResult(DRAW, None, False, STOCK_EXHAUSTED,
                                     (0,) * self.num_players))
                return
            if rules.stock_rebuild == "shuffle_keep_top" and len(self.discard) > 1:
                moved = self.discard[:-1]
                self._restock(moved)
                self.discard = self.discard[-1:]
            elif rules.stock_rebuild == "shuffle_all":
                self._restock(self.discard)
                self.discard = []
        limit = rules.max_turns_per_hand
        if limit is not None and self.turn_count >= limit and self.result is None:
            self._end(HandResult(ABORTED, None, False, MAX_TURNS, (0,) * self.num_players))

    def _restock(self, moved: list[Card]) -> None:
        index = len(self.restocks)
        if self.given_restocks is not None and index < len(self.given_restocks):
            top_first = list(self.given_restocks[index])
            if sorted(top_first) != sorted(moved):
                raise RecordError(
                    f"restocks entry {index}: expected a permutation of the {len(moved)} "
                    "cards the rebuild moves"
                )
        elif self.rng is not None:
            top_first = moved[:]
            self.rng.shuffle(top_first)
        elif self.detached:  # a copy: shuffle with a generator seeded by its position
            top_first = moved[:]
            random.Random(hash((tuple(moved), self.turn_count, self.rebuilds))).shuffle(top_first)
        else:
            raise RecordError(f"restocks entry {index} is missing and there is no seed")
        self.restocks.append(tuple(top_first))
        self.stock = top_first[::-1]
        self.rebuilds += 1

    def _win(self, seat: int) -> None:
        rules = self.rules
        total = sum(self.hand_value(s) for s in range(self.num_players) if s != seat)
        rummy = rules.going_rummy_multiplier > 1 and not self.ever_placed >> seat & 1
        if rules.scoring == "penalty":
            scores = tuple(self.hand_value(s) for s in range(self.num_players))
            rummy = False
        else:
            gain = total * (rules.going_rummy_multiplier if rummy else 1)
            scores = tuple(gain if s == seat else 0 for s in range(self.num_players))
        self._end(HandResult(WIN, seat, rummy, None, scores))

    def _end(self, result: HandResult) -> None:
        self.result = result
        self.phase = OVER_PHASE

    def pop(self) -> None:
        """Undo the last pushed move."""
        snapshot, kind, extra = self._stack.pop()
        (seat, self.phase, self.taken, self.melds_this_turn, self.placed_this_turn,
         self.ever_placed, self.rebuilds, self.turn_count, self.result, known, hand,
         self.down, self.went_down, self.dig_duty, self.joker_duty) = snapshot
        self.to_move = seat
        self.known[seat] = known
        self.hands[seat] = hand
        if kind == 0:
            old_discard, self.discarded[seat] = extra
            if old_discard is not None:
                if self.rules.stock_rebuild != "turn_over_all":
                    self.restocks.pop()
                self.discard = old_discard
                self.stock = []
            self.discard.pop()
        elif kind == 1:
            card, rebuilt, self.passed[seat] = extra
            if rebuilt is not None:
                self.discard = rebuilt
                self.stock = []
            else:
                self.stock.append(card)
        elif kind == 2:
            self.discard.extend(extra)
        elif kind == 3:
            del self.table[-extra:]
        else:
            index, old = extra
            self.table[index] = old
