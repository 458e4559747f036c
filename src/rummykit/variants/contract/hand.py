"""A hand of Contract Rummy: the engine's hand with the contract's state and hooks.

:class:`ContractHand` owns what only contract has: who is down (``down``), whether the
seat to move went down this turn (``went_down``), the dug card still to be placed
(``dig_duty``) and the jokers taken by swaps still to be placed (``joker_duty``). It
overrides the engine's hooks with the contract turns of :mod:`.play` and :mod:`.legality`;
every seat's view carries those four as one :class:`~.view.ContractView` (``family``).

>>> import random
>>> from rummykit.core.engine import HandState
>>> from rummykit.variants.contract.presets import CONTRACT
>>> state = HandState.deal(CONTRACT, num_players=3, dealer=0, rng=random.Random(2))
>>> type(state).__name__, state.down, state.dig_duty
('ContractHand', 0, -1)
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator

from rummykit.core import handset
from rummykit.core.cards import JOKER, Card, format_card
from rummykit.core.engine import HandState, Snapshot
from rummykit.core.melds import JOKER_AS, TableMeld
from rummykit.core.move_tables import TAKE_MOVE
from rummykit.core.moves import Discard, Meld, Move, Swap, Take
from rummykit.core.phases import PLAY_PHASE
from rummykit.variants.contract import play as contract_play
from rummykit.variants.contract.blocked import blocked
from rummykit.variants.contract.legality import check_contract_play
from rummykit.variants.contract.view import ContractView

Duties = tuple[int, bool, int, int]  # (down, went_down, dig_duty, joker_duty)
_new_part = tuple.__new__  # ContractView's fields in order, without its __new__'s frame
#: the view parts made so far, by value: a view takes one of these instead of a new one
#: (few distinct values occur; the table stops growing at :data:`_MAX_PARTS`)
_PARTS: dict[Duties, ContractView] = {}
_MAX_PARTS = 4096


class ContractHand(HandState):
    """One deal of Contract Rummy (RULES.md §4)."""

    __slots__ = ("_duties", "dig_duty", "down", "joker_duty", "went_down")

    down: int
    went_down: bool
    dig_duty: int
    joker_duty: int
    _duties: list[Duties]

    # -- the family's state ---------------------------------------------------------
    def _start_family(self) -> None:
        self.down = 0
        self.went_down = False
        self.dig_duty = -1
        self.joker_duty = 0
        self._duties = []

    def _copy_family(self, new: HandState) -> None:
        assert isinstance(new, ContractHand)
        new.down, new.went_down = self.down, self.went_down
        new.dig_duty, new.joker_duty = self.dig_duty, self.joker_duty
        new._duties = []

    def family_view(self) -> ContractView:
        key = (self.down, self.went_down, self.dig_duty, self.joker_duty)
        part = _PARTS.get(key)
        if part is None:
            part = _new_part(ContractView, key)
            if len(_PARTS) < _MAX_PARTS:
                _PARTS[key] = part
        return part

    def restore_family_view(self, part: Hashable | None) -> None:
        if type(part) is ContractView:
            self.down, self.went_down, self.dig_duty, self.joker_duty = part

    # -- legal moves ----------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        if self.phase == PLAY_PHASE:
            return contract_play.play_move_list(self)
        return super().legal_moves()

    def iter_legal_moves(self) -> Iterator[Move]:
        if self.phase == PLAY_PHASE:
            return contract_play.play_moves(self)
        return iter(super().legal_moves())

    def is_legal(self, move: Move) -> bool:
        return contract_play.is_legal(self, move)

    def _draw_moves(self) -> list[Move]:
        moves = super()._draw_moves()
        if TAKE_MOVE in moves and not contract_play.take_ok(self):
            moves.remove(TAKE_MOVE)
        moves += contract_play.digs(self)
        return moves

    def candidates(self) -> Iterator[Move]:
        """The play-step moves before the completability filter (the search's steps)."""
        return contract_play.candidates(self)

    def can_discard_now(self) -> bool:
        """Whether some discard is allowed now (no unmet duty, a card that may be thrown)."""
        return contract_play.can_discard_now(self)

    def check_play(self, move: Move) -> Move:
        return check_contract_play(self, move)

    def refused_take(self, move: Take) -> str | None:
        if move.count > 1:
            shown = format_card(self.discard[-move.count])
            return (f"the dug card {shown} could not be placed on the table this turn "
                    "(RULES.md §4.4)")
        return "the turn could not be finished after it (RULES.md §1.6)"

    # -- making moves ---------------------------------------------------------------
    def push(self, move: Move) -> None:
        seat = self.to_move
        self._duties.append((self.down, self.went_down, self.dig_duty, self.joker_duty))
        super().push(move)
        kind = type(move)
        if kind is Meld and not self.down >> seat & 1:
            self.down |= 1 << seat
            self.went_down = True
        elif kind is Discard and self.to_move != seat:  # the turn passed
            self.went_down = False

    def pop(self) -> None:
        super().pop()
        self.down, self.went_down, self.dig_duty, self.joker_duty = self._duties.pop()

    def _push_other(self, move: Move, snapshot: Snapshot) -> None:
        if type(move) is not Swap:
            super()._push_other(move, snapshot)
        assert isinstance(move, Swap)
        seat = self.to_move
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

    def _dug(self, card: Card) -> None:
        self.dig_duty = card

    def _placed(self, seat: int, placed: list[int]) -> None:
        for code in placed:  # the turn's duties met by the cards placed
            if code >= JOKER_AS:
                if self.dig_duty == JOKER:
                    self.dig_duty = -1
                elif self.joker_duty:
                    self.joker_duty -= 1
            elif code == self.dig_duty:
                self.dig_duty = -1
        super()._placed(seat, placed)

    def _blocked(self) -> bool:
        return blocked(self)
