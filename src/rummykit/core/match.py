"""A match: hands in sequence, dealers, scores, end of match (RULES.md §1.9-§1.10).

The match knows no rule family: it asks the rules' family (the registry's variant) to
deal each hand and for a score sheet (``Variant.match_scorer``) that adds the hands up,
decides the end and the winners, and names each hand's dealer.

>>> m = Match(find_rules("basic"), ["Ann", "Bob"], seed=1)
>>> state = m.start_hand()
>>> m.dealer_of(0), state.to_move
(0, 1)
>>> m.play("draw")
Draw()
"""

from __future__ import annotations

import _random
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, Self, TypeVar

from rummykit.core.cards import JOKER, Card, rank_of, standard_pack
from rummykit.core.engine import HandState
from rummykit.core.errors import IllegalMoveError, RecordError
from rummykit.core.moves import Move
from rummykit.core.outcome import HandResult
from rummykit.core.rules import Rules, find_rules
from rummykit.variants.base import Hand, MatchScorer, RulesLike
from rummykit.variants.registry import AnyVariant, variant_of

__all__ = ["FamilyMatch", "ForkedRandom", "HandLog", "Match", "SeatResult", "find_rules"]
#: the generator's own methods, under the Python ones of :class:`ForkedRandom`
_CoreRandom = _random.Random

#: the match's rules type and hand type: core ``Rules`` and ``HandState``, or a family's own
R = TypeVar("R", bound=RulesLike)
H = TypeVar("H", bound=Hand)


class HandLog:
    """What a record keeps of one hand: how it was dealt, its rebuilds and its moves.

    Moves are kept as played and written in notation when :attr:`moves` is next read (a
    match stepped many times and read rarely, an environment's, writes none); moves are
    immutable, so the text is the one they had when played."""

    __slots__ = ("_played", "_written", "deal", "deck", "restocks", "result")

    def __init__(self, deck: tuple[Card, ...] | None,
                 deal: tuple[tuple[tuple[Card, ...], ...], Card, tuple[Card, ...]] | None,
                 moves: list[str] | None = None, result: HandResult | None = None,
                 restocks: list[tuple[Card, ...]] | None = None) -> None:
        self.deck = deck
        self.deal = deal
        self._written: list[str] = [] if moves is None else moves
        self._played: list[object] = []
        self.result = result
        self.restocks: list[tuple[Card, ...]] = [] if restocks is None else restocks  # shared

    @property
    def moves(self) -> list[str]:
        """The hand's moves in notation, in play order."""
        if self._played:
            self._written += map(str, self._played)
            self._played.clear()
        return self._written

    def add(self, move: object) -> None:
        """Log a move played (written in notation when :attr:`moves` is next read)."""
        self._played.append(move)

    def _fields(self) -> tuple[Any, ...]:
        return self.deck, self.deal, self.moves, self.result, self.restocks

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandLog):
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass it was

    def __repr__(self) -> str:
        return (f"HandLog(deck={self.deck!r}, deal={self.deal!r}, moves={self.moves!r}, "
                f"result={self.result!r}, restocks={self.restocks!r})")


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's result of a finished match, for a statistics store (RULES.md §1.10)."""

    seat: int
    name: str
    total: int
    won: bool
    drawn: bool  # the match ended with no winner (a drawn hand under draw_ends_match)
    lost: bool  # what a statistics store records as a loss (a drawn match: every seat)


class ForkedRandom(random.Random):
    """A generator that goes on from ``base`` as it stands now, taking ``base``'s state
    only when it first draws (or is seeded, or given a state). Nothing may draw from
    ``base`` itself any more: :meth:`FamilyMatch.copy` gives the original and the copy
    one fork each. Without ``base``: a generator seeded from the OS."""

    def __init__(self, base: random.Random | None = None) -> None:
        self.base: random.Random | None = base
        if base is None:
            super().__init__()
        else:
            self.gauss_next = getattr(base, "gauss_next", None)

    def _own(self) -> None:
        """Take the base's state (once) and draw on directly from then on."""
        base, self.base = self.base, None
        if base is not None:
            _, internal, _ = base.getstate()
            _CoreRandom.setstate(self, internal)
        self.random = _CoreRandom.random.__get__(self)  # type: ignore[method-assign]
        self.getrandbits = _CoreRandom.getrandbits.__get__(self)  # type: ignore[method-assign]

    def random(self) -> float:
        """The next float in [0, 1)."""
        self._own()
        return self.random()

    def getrandbits(self, k: int, /) -> int:
        """An int with ``k`` random bits."""
        self._own()
        return self.getrandbits(k)

    def seed(self, *args: Any, **kwargs: Any) -> None:
        """Seed as ``random.Random.seed`` (the base is no longer followed)."""
        if getattr(self, "base", None) is not None:
            self._own()
        super().seed(*args, **kwargs)

    def getstate(self) -> tuple[Any, ...]:
        """The state, as ``random.Random.getstate`` gives it."""
        if self.base is None:
            return super().getstate()
        _, internal, _ = self.base.getstate()
        return (self.VERSION, internal, self.gauss_next)

    def setstate(self, state: tuple[Any, ...]) -> None:
        """Take ``state`` (the base is no longer followed)."""
        self._own()
        super().setstate(state)


class FamilyMatch(Generic[R, H]):
    """A whole match of any family: deals hands, keeps the totals and decides the winners.

    ``R`` is the family's rules type (with :class:`~rummykit.variants.base.RulesLike`),
    ``H`` its hand type (with :class:`~rummykit.variants.base.Hand`); :class:`Match` is
    the one of core ``Rules`` and ``HandState``."""

    def __init__(self, rules: R, players: Sequence[str], *, seed: int | None = None,
                 dealer: int | None = None) -> None:
        self.variant: AnyVariant = variant_of(rules)
        self.variant.check_supported(rules, len(players))
        self.rules = rules
        self.players = list(players)
        self.seed = seed
        self.rng = random.Random(seed)
        self.first_dealer = self._choose_dealer() if dealer is None else dealer
        if not 0 <= self.first_dealer < len(players):
            raise RecordError(f"dealer {dealer}: expected a seat 0..{len(players) - 1}")
        self.hands: list[HandLog] = []
        self.states: list[H] = []  # every hand's state, the current one last
        self.state: H | None = None
        self.scorer: MatchScorer = self.variant.match_scorer(rules, len(players))

    def copy(self) -> Self:
        """An independent copy that plays on exactly as this match would (same generator
        state, same logs); the current hand's undo history is not copied."""
        new = type(self).__new__(type(self))
        new.rules = self.rules
        new.variant = self.variant
        new.players = self.players[:]
        new.seed = self.seed
        # both go on from the generator as it stands, whose state is taken only by the one
        # that draws first (copying a generator's state is most of a copy's cost)
        base = self.rng
        if isinstance(base, ForkedRandom) and base.base is not None:
            new.rng = ForkedRandom(base.base)  # a fork that has not drawn stands where its
            # base does: this match keeps it, the copy gets another
        else:
            self.rng, new.rng = ForkedRandom(base), ForkedRandom(base)
            if isinstance(self.state, HandState) and self.state.rng is not None:
                self.state.rng = self.rng
        new.first_dealer = self.first_dealer
        new.hands = self.hands[:]
        new.states = self.states[:]
        new.state = None
        if self.state is not None:
            new.state = new.states[-1] = self._copy_state(self.state, new.rng)
        if new.hands:
            last = self.hands[-1]
            new.hands[-1] = HandLog(last.deck, last.deal, last.moves[:], last.result,
                                    new.state.restocks if new.state is not None
                                    else last.restocks[:])
        new.scorer = self.scorer.copy()
        return new

    @staticmethod
    def _copy_state(state: H, rng: random.Random) -> H:
        """A copy of a hand; an engine hand that rebuilds its stock from the match's
        generator draws from the copy's generator."""
        copied = state.copy()
        if isinstance(state, HandState) and isinstance(copied, HandState):
            copied.rng = rng if state.rng is not None else None
            copied.detached = state.detached
        assert isinstance(copied, type(state))
        return copied

    @property
    def totals(self) -> list[int]:
        """Each seat's total so far."""
        return self.scorer.totals

    @property
    def over(self) -> bool:
        """True once the match has ended."""
        return self.scorer.over

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats of a finished match (empty: drawn)."""
        return self.scorer.winners

    @property
    def num_players(self) -> int:
        """The number of seats."""
        return len(self.players)

    def _choose_dealer(self) -> int:
        if self.rules.first_dealer == "random":
            return self.rng.randrange(self.num_players)
        decks, jokers = self.rules.pack_spec(self.num_players)
        pack = list(standard_pack(decks, jokers))
        self.rng.shuffle(pack)
        drawing = list(range(self.num_players))
        while True:
            ranks: dict[int, int] = {}
            waiting = drawing
            while waiting:  # a joker does not count: who drew one draws again
                if len(pack) < len(waiting):  # pragma: no cover - needs 100+ ties in a row
                    pack = list(standard_pack(decks, jokers))
                    self.rng.shuffle(pack)
                drawn = {seat: pack.pop() for seat in waiting}
                ranks.update({s: rank_of(c) for s, c in drawn.items() if c != JOKER})
                waiting = [s for s, c in drawn.items() if c == JOKER]
            low = min(ranks.values())
            drawing = [seat for seat, r in ranks.items() if r == low]
            if len(drawing) == 1:  # ties for lowest: only those players draw again
                return drawing[0]

    def dealer_of(self, hand_index: int) -> int:
        """The dealer of hand ``hand_index`` (0-based), as the family deals (by rotation:
        one seat left per hand)."""
        return self.scorer.dealer_of(self.first_dealer, hand_index,
                                     [log.result for log in self.hands])

    def start_hand(self, deck: Sequence[Card] | None = None, *,
                   deal: tuple[Sequence[Sequence[Card]], Card, Sequence[Card]] | None = None,
                   restocks: Sequence[Sequence[Card]] | None = None) -> H:
        """Deal the next hand from ``deck`` or ``deal`` (hands, upcard, stock top first),
        or from a pack shuffled with the match's generator."""
        if self.over:
            raise IllegalMoveError("the match is over")
        if self.state is not None and not self.state.is_over:
            raise IllegalMoveError("the current hand is not finished")
        index = len(self.hands)
        dealer = self.dealer_of(index)
        if deal is not None:
            hands, upcard, stock = deal
            state: H = self.variant.from_deal(self.rules, dealer, deal, rng=self.rng,
                                           deal_index=index, restocks=restocks)
            self.hands.append(HandLog(None, (tuple(tuple(h) for h in hands), upcard,
                                             tuple(stock))))
        else:
            if deck is None:
                decks, jokers = self.rules.pack_spec(self.num_players)
                shuffled = list(standard_pack(decks, jokers))
                self.rng.shuffle(shuffled)
                deck = shuffled
            state = self.variant.deal(self.rules, self.num_players, dealer, deck,
                                      rng=self.rng, deal_index=index, restocks=restocks)
            self.hands.append(HandLog(tuple(deck), None))
        self.hands[-1].restocks = state.restocks
        self.state = state
        self.states.append(state)
        if state.result is not None:  # ended by the checks made when the deal is complete
            self._finish_hand(state.result)
        return state

    def _current(self) -> H:
        if self.state is None:
            raise IllegalMoveError("no hand has been dealt")
        return self.state

    def play(self, move: Any) -> Any:
        """Check and make a move in the current hand; returns its canonical form."""
        state = self._current()
        canonical = state.play(move)
        self._after(canonical)
        return canonical

    def push(self, move: Any) -> None:
        """Make a move known to be legal (no check), keeping the log and the scores."""
        self._current().push(move)
        self._after(move)

    def _after(self, move: object) -> None:
        state = self._current()
        self.hands[-1].add(move)
        if state.result is not None:
            self._finish_hand(state.result)

    def _finish_hand(self, result: HandResult) -> None:
        self.hands[-1].result = result
        self.scorer.after_hand(result, len(self.hands))

    def results(self) -> tuple[SeatResult, ...]:
        """Per-seat results of a finished match: co-winners win; a drawn match is lost by all."""
        if not self.over:
            raise IllegalMoveError("the match is not over")
        drawn = not self.winners
        draw_loses = drawn and self.rules.draw_counts_as_loss
        totals = self.scorer.settled_totals
        return tuple(
            SeatResult(s, name, totals[s], s in self.winners, drawn,
                       s not in self.winners and (not drawn or draw_loses))
            for s, name in enumerate(self.players))


class Match(FamilyMatch[Rules, HandState]):
    """A match of core ``Rules`` (the draw-and-discard families), dealt as ``HandState``."""

    def play(self, move: Move | str) -> Move:
        """Check and make a move in the current hand; returns its canonical form."""
        canonical = self._current().play(move)
        self._after(canonical)
        return canonical
