"""One hand of Rummy as a state machine (ARCHITECTURE.md §2).

Phases ``DRAW`` → ``PLAY`` → (next player's ``DRAW`` | ``OVER``). ``legal_moves()`` is the
single source of legality; ``play()`` checks a move against it and raises
:class:`~rummykit.core.errors.IllegalMoveError` with the reason, leaving the state unchanged;
``push()``/``pop()`` are the unchecked fast path with undo; ``copy()`` is cheap.

Hands are bit sets of natural cards (one deck; multisets with several decks, see
:mod:`rummykit.core.handset`). The stock is a list with its top card last.

A rule family whose play differs subclasses :class:`HandState` and overrides its hooks
(``_play_move_list``, ``iter_legal_moves``, ``is_legal``, ``_draw_moves``, ``check_play``,
``refused_take``, ``_push_other``, ``_dug``, ``_blocked``, ``family_view``, ...); the
registry publishes the subclass for the family's rule sets (:func:`register_hand_class`), so
``HandState.deal`` and ``HandState.from_deal`` build the family's hand.

>>> import random
>>> from rummykit.variants import BASIC
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
from collections.abc import Hashable, Iterator, Sequence
from typing import Any, Self

from rummykit.core import closed_table, handset, legality, plain_moves
from rummykit.core.cards import (
    Card,
    points_table,
    standard_pack,
)
from rummykit.core.errors import IllegalMoveError, RecordError
from rummykit.core.melds import (
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
)
from rummykit.core.moves import Discard, Draw, LayOff, Meld, Move, Take, parse_move
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
from rummykit.core.phases import DRAW_PHASE, OVER_PHASE, PLAY_PHASE
from rummykit.core.rules import Rules, applicable_knobs

__all__ = ["DRAW_PHASE", "OVER_PHASE", "PLAY_PHASE", "HandState", "register_hand_class"]

Snapshot = tuple[int, str, int, int, bool, int, int, int, "HandResult | None", int, int]
Undo = tuple[Snapshot, int, Any]  # (what the move changes of the state, move kind, more)

_HAND_CLASSES: dict[str, type[HandState]] = {}


def register_hand_class(rule_set: str, hand_class: type[HandState]) -> None:
    """Make ``HandState.deal``/``from_deal`` of ``rule_set`` build ``hand_class`` (the
    registry calls it for a family that sets ``hand_class``)."""
    _HAND_CLASSES[rule_set] = hand_class


class HandState:
    """The full state of one hand (deal) of a Rummy match."""

    __slots__ = (
        "_caches",
        "_stack",
        "_tables",
        "_values",
        "deal_index",
        "dealer",
        "detached",
        "discard",
        "discarded",
        "ever_placed",
        "given_restocks",
        "hands",
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
    detached: bool
    _stack: list[Undo]
    _tables: MeldTables
    _caches: SuitCaches
    _values: tuple[int, ...]

    # -- construction --------------------------------------------------------------
    @staticmethod
    def check_supported(rules: Rules, num_players: int) -> None:
        """Refuse packs of several decks or jokers to a rule set whose family has no
        ``deck_config`` knob (its hand plays one deck)."""
        if rules.pack_spec(num_players) != (1, 0) and "deck_config" not in applicable_knobs(
                rules.name):
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
        if cls is HandState:
            cls = _HAND_CLASSES.get(rules.name, cls)
        state = cls.__new__(cls)
        state.rules = rules
        state.num_players = len(hands)
        state.dealer = dealer
        state.deal_index = deal_index
        state.to_move = (dealer + 1) % state.num_players
        state.phase = DRAW_PHASE
        state.multi = rules.pack_spec(len(hands)) != (1, 0)
        state.hands = [handset.of_cards(hand) for hand in hands]
        state.stock = list(reversed(stock_top_first))
        state.discard = [upcard]
        state.table = []
        state.known = [0] * state.num_players
        state.discarded = [0] * state.num_players
        state.passed = [0] * state.num_players
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
        state._start_family()
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

    def copy(self) -> Self:
        """An independent copy of this position (without the undo history)."""
        cls = type(self)
        new = cls.__new__(cls)
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
        self._copy_family(new)
        return new

    # -- family hooks (the defaults: one deck, no family state) -----------------------
    def _start_family(self) -> None:
        """Set the family's own fields of a new hand."""

    def _copy_family(self, new: HandState) -> None:
        """Copy the family's own fields into ``new``."""

    def family_view(self) -> Hashable | None:
        """The family's public part of every seat's view (``PlayerView.family``): an
        immutable, hashable value of the family's own type, or None (no family state)."""
        return None

    def restore_family_view(self, part: Hashable | None) -> None:
        """Set the family's fields from a view's part (a resampled position)."""

    def check_play(self, move: Move) -> Move:
        """The canonical form of a legal play-step move, or an IllegalMoveError."""
        return legality.check_plain_play(self, move)

    def refused_take(self, move: Take) -> str | None:
        """Why a take the generic checks allow is not legal here (None: no reason)."""
        return None

    def _push_other(self, move: Move, snapshot: Snapshot) -> None:
        raise IllegalMoveError(f"{move}: not a move of this rule set")

    def _dug(self, card: Card) -> None:
        raise IllegalMoveError(f"take: digging is not part of {self.rules.name} rummy")

    def _blocked(self) -> bool:
        """Whether the deal is blocked (RULES.md §4.8.1, asked under ``blocked_deal =
        score_hands``): never without the hook."""
        return False

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
            return self._play_moves()
        if self.phase == DRAW_PHASE:
            return self._draw_moves()
        return []

    def iter_legal_moves(self) -> Iterator[Move]:
        """The legal moves lazily, in the order of :meth:`legal_moves` (a family whose
        moves can be numerous generates them lazily)."""
        return iter(self.legal_moves())

    def is_legal(self, move: Move) -> bool:
        """Whether a canonical move is legal; agrees with :meth:`legal_moves`."""
        return move in self.legal_moves()

    def _draw_moves(self) -> list[Move]:
        moves: list[Move]
        if self.stock or self.rules.stock_rebuild == "turn_over_all":
            moves = [DRAW_MOVE, TAKE_MOVE] if self.discard else [DRAW_MOVE]
        else:
            moves = [TAKE_MOVE]
        return moves

    _play_moves = plain_moves.play_moves  # the one-deck play-step moves, as a method

    def _make(self, group: tuple[int, ...]) -> TableMeld:
        meld = make_meld(group, self.rules, self.to_move)
        if isinstance(meld, str):
            raise IllegalMoveError(meld)
        return meld

    # -- checked entry point --------------------------------------------------------
    def play(self, move: Move | str) -> Move:
        """Make a move after checking it and return its canonical form.

        Raises a :class:`~rummykit.core.errors.RummyError` and changes nothing when the move is
        not legal (or, replaying a record, when a rebuild's ``restocks`` entry is wrong).
        """
        checked = legality.check_move(self, parse_move(move) if isinstance(move, str) else move)
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
            self.hands[seat])
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
                    self._dug(taken[0])
                self._stack.append((snapshot, 2, tuple(taken)))
            self.phase = PLAY_PHASE
        elif kind is Meld:
            assert isinstance(move, Meld)
            for group in move.groups:
                self.table.append(self._make(group))
            self.melds_this_turn += len(move.groups)
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
        else:
            self._push_other(move, snapshot)

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
        self.turn_count += 1
        self._start_draw_step()

    def _start_draw_step(self) -> None:
        """The automatic steps at the start of a draw step (RULES.md §1.8)."""
        rules = self.rules
        if rules.deadlock_draw and closed_table.deadlocked(self):
            self._end(HandResult(DRAW, None, False, DEADLOCK, (0,) * self.num_players))
            return
        if rules.blocked_deal == "score_hands" and self._blocked():
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
         self.ever_placed, self.rebuilds, self.turn_count, self.result, known, hand) = snapshot
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
