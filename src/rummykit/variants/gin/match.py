"""A gin match: hands dealt in sequence, dealers by ``next_dealer``, the game's score sheet.

The same public shape as :class:`rummykit.core.match.Match` (``start_hand``, ``play``,
``push``, ``hands`` logs, ``totals``, ``over``, ``winners``, ``results``), with
:class:`~rummykit.variants.gin.game.ScoreSheet` behind it and every hand's final state kept
for the replay output (its gin fields).

>>> match = GinMatch(GIN, ["Ann", "Bob"], seed=1, dealer=0)
>>> hand = match.start_hand()
>>> hand.to_move, str(match.play("pass")), match.totals
(1, 'pass', [0, 0])
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rummykit.core.cards import Card
from rummykit.core.errors import IllegalMoveError, RecordError
from rummykit.core.match import HandLog, SeatResult
from rummykit.variants.gin.game import ScoreSheet
from rummykit.variants.gin.hand import GinHand
from rummykit.variants.gin.moves import GinMove
from rummykit.variants.gin.rules import GIN, GinRules

__all__ = ["GIN", "GinMatch"]

GinDeal = tuple[Sequence[Sequence[Card]], Card, Sequence[Card]]


def _low_card_dealer(rng: random.Random) -> int:
    """Both players cut; the lower rank deals, ties cut again (RULES.md §4.2 ``low_card``)."""
    while True:
        pack = list(range(52))
        rng.shuffle(pack)
        ranks = [pack[0] % 13, pack[1] % 13]
        if ranks[0] != ranks[1]:
            return 0 if ranks[0] < ranks[1] else 1


class GinMatch:
    """A whole gin match (a game, one hand, or Hollywood's three games)."""

    def __init__(self, rules: GinRules, players: Sequence[str], *, seed: int | None = None,
                 dealer: int | None = None) -> None:
        if len(players) != 2:
            raise RecordError(f"players: {rules.name} is for exactly 2 players, "
                              f"got {len(players)}")
        if dealer is not None and dealer not in (0, 1):
            raise RecordError(f"dealer {dealer}: expected a seat 0..1")
        self.rules = rules
        self.players = list(players)
        self.seed = seed
        self.rng = random.Random(seed)
        if dealer is None:
            dealer = (self.rng.randrange(2) if rules.first_dealer == "random"
                      else _low_card_dealer(self.rng))
        self.first_dealer = dealer
        self.sheet = ScoreSheet(rules, dealer)
        self.hands: list[HandLog] = []
        self.states: list[GinHand] = []  # every hand's state, the current one last
        self.state: GinHand | None = None

    def copy(self) -> GinMatch:
        """An independent copy that plays on exactly as this match would (same generator
        state, logs and score sheet); the current hand's undo history is not copied."""
        new = GinMatch.__new__(GinMatch)
        new.rules, new.players, new.seed = self.rules, self.players[:], self.seed
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        new.first_dealer, new.sheet = self.first_dealer, self.sheet.copy()
        new.hands = [HandLog(log.deck, log.deal, log.moves[:], log.result)
                     for log in self.hands]
        new.states = self.states[:]
        new.state = None
        if self.state is not None:
            new.state = new.states[-1] = self.state.copy()
        return new

    @property
    def num_players(self) -> int:
        """Two."""
        return 2

    @property
    def totals(self) -> list[int]:
        """The running totals (FORMATS.md §4.3)."""
        return self.sheet.totals

    @property
    def over(self) -> bool:
        """The game (or the single hand, or the Hollywood match) has ended."""
        return self.sheet.over

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats once over (none for a drawn single hand)."""
        return self.sheet.winners

    def dealer_of(self, hand_index: int) -> int:
        """The dealer of hand ``hand_index``: ``next_dealer`` after each scored hand, the
        same dealer after a drawn or aborted one."""
        return self.sheet.dealer_of(self.first_dealer, hand_index,
                                    [log.result for log in self.hands])

    def start_hand(self, deck: Sequence[Card] | None = None, *,
                   deal: GinDeal | None = None) -> GinHand:
        """Deal the next hand from ``deck`` (FORMATS.md §4.2 order) or ``deal``, or from a
        deck shuffled with the match's generator."""
        if self.over:
            raise IllegalMoveError("the match is over")
        if self.state is not None and not self.state.is_over:
            raise IllegalMoveError("the current hand is not finished")
        index = len(self.hands)
        dealer = self.dealer_of(index)
        if deal is not None:
            hands, upcard, stock = deal
            state = GinHand.from_deal(self.rules, dealer, hands, upcard, stock,
                                      deal_index=index)
            self.hands.append(HandLog(None, (tuple(tuple(h) for h in hands), upcard,
                                             tuple(stock))))
        else:
            if deck is None:
                shuffled = list(range(52))
                self.rng.shuffle(shuffled)
                deck = shuffled
            state = GinHand.from_deck(self.rules, dealer, deck, deal_index=index)
            self.hands.append(HandLog(tuple(deck), None))
        self.state = state
        self.states.append(state)
        return state

    def _current(self) -> GinHand:
        if self.state is None:
            raise IllegalMoveError("no hand has been dealt")
        return self.state

    def play(self, move: GinMove | str) -> GinMove:
        """Check and make a move in the current hand; returns its canonical form."""
        canonical = self._current().play(move)
        self._after(canonical)
        return canonical

    def push(self, move: GinMove) -> None:
        """Make a move known to be legal (no check), keeping the log and the scores."""
        self._current().push(move)
        self._after(move)

    def _after(self, move: GinMove) -> None:
        state = self._current()
        log = self.hands[-1]
        log.moves.append(str(move))
        if state.result is not None and log.result is None:
            log.result = state.result
            self.sheet.add(state.result)

    def results(self) -> tuple[SeatResult, ...]:
        """Per-seat results of a finished match (RULES.md §6.10 statistics), with the
        settled totals of a game."""
        stats = self.sheet.statistics()
        drawn = not self.winners
        final = self.sheet.final
        totals = list(final.totals) if final is not None else self.totals
        return tuple(SeatResult(s, name, totals[s], stats[s][0], drawn, stats[s][1])
                     for s, name in enumerate(self.players))
