"""The Gin game level over a sequence of hand results (RULES.md §6.10-§6.12).

Pure bookkeeping, no hand engine: a :class:`ScoreSheet` is fed each finished hand's
:class:`~rummykit.core.outcome.HandResult`, whose ``scores`` are what the hand adds to the
running totals (FORMATS.md §4.3: the points of §6.9, plus the box under
``immediate_boxes``), and keeps the running totals, the next dealer, the end of the game
and its settlement (boxes, game bonus, shutout), or Hollywood's three games.

>>> from rummykit.variants.gin.rules import GIN
>>> sheet = ScoreSheet(GIN, dealer=0)
>>> for seat, points in [(0, 60), (0, 45)]:
...     sheet.add(won(seat, points))
>>> sheet.over, sheet.winners, sheet.final.totals if sheet.final else None
(True, (0,), (510, 0))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from rummykit.core.errors import IllegalMoveError
from rummykit.core.outcome import WIN, HandResult

SEATS = 2


class GameRules(Protocol):
    """The knobs the game level reads (RULES.md §6.13); ``GinRules`` has them all."""

    @property
    def game_end(self) -> str: ...
    @property
    def target_score(self) -> int: ...
    @property
    def box_bonus(self) -> int: ...
    @property
    def immediate_boxes(self) -> bool: ...
    @property
    def game_bonus(self) -> int: ...
    @property
    def shutout_rule(self) -> str: ...
    @property
    def shutout_bonus(self) -> int: ...
    @property
    def next_dealer(self) -> str: ...
    @property
    def hollywood(self) -> bool: ...


def won(seat: int, points: int, reason: str = "knock") -> HandResult:
    """A hand won by ``seat`` for ``points`` (a helper for tools and tests)."""
    scores = [0] * SEATS
    scores[seat] = points
    return HandResult(WIN, seat, False, reason, tuple(scores))


def next_dealer(rules: GameRules, dealer: int, result: HandResult) -> int:
    """Who deals after a hand dealt by ``dealer`` ended with ``result`` (§6.10, G-17):
    the same dealer after any drawn or aborted hand."""
    if result.result != WIN or result.winner is None:
        return dealer
    if rules.next_dealer == "winner":
        return result.winner
    if rules.next_dealer == "loser":
        return 1 - result.winner
    return 1 - dealer  # alternate


@dataclass(frozen=True, slots=True)
class Settlement:
    """A settled game (FORMATS.md §4.3 ``final``)."""

    boxes: tuple[int, ...]  # hands won per seat
    box_points: tuple[int, ...]
    game_bonus: tuple[int, ...]
    shutout: bool
    totals: tuple[int, ...]  # after boxes, the game bonus and the shutout rule

    def to_json(self) -> dict[str, Any]:
        """The ``final`` object of the replay output."""
        return {"boxes": list(self.boxes), "box_points": list(self.box_points),
                "game_bonus": list(self.game_bonus), "shutout": self.shutout,
                "totals": list(self.totals)}


def settle(rules: GameRules, running: Sequence[int], wins: Sequence[int],
           winner: int) -> Settlement:
    """Settle a game from each seat's running total and hands won (§6.10); the boxes are
    added unless ``immediate_boxes`` already credited them."""
    box_points = tuple(rules.box_bonus * n for n in wins)
    bonus = tuple(rules.game_bonus if seat == winner else 0 for seat in range(SEATS))
    late = (0,) * SEATS if rules.immediate_boxes else box_points
    totals = [running[s] + late[s] + bonus[s] for s in range(SEATS)]
    shutout = wins[1 - winner] == 0
    if shutout and rules.shutout_rule == "double_total":
        totals[winner] *= 2
    elif shutout and rules.shutout_rule == "flat":
        totals[winner] += rules.shutout_bonus
    return Settlement(tuple(wins), box_points, bonus, shutout, tuple(totals))


class Game:
    """One game's entries: running totals and wins per seat, its end and settlement."""

    __slots__ = ("final", "rules", "running", "winner", "wins")

    def __init__(self, rules: GameRules) -> None:
        self.rules = rules
        self.running = [0] * SEATS  # the points entered (with boxes under immediate_boxes)
        self.wins = [0] * SEATS  # entries (hands won) per seat
        self.winner: int | None = None
        self.final: Settlement | None = None

    @property
    def over(self) -> bool:
        """The game has ended."""
        return self.winner is not None

    @property
    def scores(self) -> tuple[int, ...]:
        """The running totals."""
        return tuple(self.running)

    def enter(self, seat: int, points: int) -> None:
        """Enter a won hand; the game ends when the seat's running total reaches the target."""
        self.running[seat] += points
        self.wins[seat] += 1
        if self.running[seat] >= self.rules.target_score:
            self.winner = seat
            self.final = settle(self.rules, self.running, self.wins, seat)

    def copy(self) -> Game:
        """An independent copy."""
        new = Game(self.rules)
        new.running, new.wins = self.running[:], self.wins[:]
        new.winner, new.final = self.winner, self.final
        return new

    def to_json(self) -> dict[str, Any]:
        """A Hollywood ``games`` entry (FORMATS.md §4.3)."""
        return {"scores": list(self.scores), "over": self.over, "winner": self.winner,
                "entries": list(self.wins),
                "final": None if self.final is None else self.final.to_json()}


class ScoreSheet:
    """A whole gin match from its hand results: one game to the target, one hand
    (``game_end = single_hand``), or Hollywood's three games (§6.12)."""

    __slots__ = ("dealer", "games", "hands", "opened", "rules", "single")

    def __init__(self, rules: GameRules, dealer: int = 0) -> None:
        self.rules = rules
        self.dealer = dealer  # the dealer of the next hand
        self.hands: list[HandResult] = []
        self.single: HandResult | None = None  # the hand of a single_hand match
        self.games = [Game(rules) for _ in range(3 if rules.hollywood else 1)]
        self.opened: list[set[int]] = [set() for _ in range(SEATS)]  # Hollywood games

    @property
    def over(self) -> bool:
        """The match has ended (the game, the single hand, or all three Hollywood games)."""
        if self.rules.game_end == "single_hand":
            return self.single is not None
        return all(game.over for game in self.games)

    @property
    def lowest_wins(self) -> bool:
        """The highest total wins a gin game."""
        return False

    def after_hand(self, result: HandResult, hands_played: int) -> None:
        """The match's hook: :meth:`add` (``hands_played`` is not needed)."""
        self.add(result)

    def dealer_of(self, first_dealer: int, hand_index: int,
                  results: Sequence[HandResult | None]) -> int:
        """The dealer of hand ``hand_index`` from the first dealer and the results so far."""
        dealer = first_dealer
        for result in results[:hand_index]:
            if result is not None:
                dealer = next_dealer(self.rules, dealer, result)
        return dealer

    def add(self, result: HandResult) -> None:
        """Score a finished hand and move the deal on; refused once the match is over."""
        if self.over:
            raise IllegalMoveError("the match is over")
        self.hands.append(result)
        self.dealer = next_dealer(self.rules, self.dealer, result)
        if self.rules.game_end == "single_hand":
            self.single = result
            return
        if result.result != WIN or result.winner is None:
            return
        seat, points = result.winner, result.scores[result.winner]
        if not self.rules.hollywood:
            self.games[0].enter(seat, points)
            return
        playing = [g for g in range(3) if not self.games[g].over]
        fresh = [g for g in playing if g not in self.opened[seat]]
        if fresh:
            self.opened[seat].add(fresh[0])
        for g in playing:
            if g in self.opened[seat]:
                self.games[g].enter(seat, points)

    @property
    def totals(self) -> list[int]:
        """Running totals; under Hollywood the sum over the games, settled once over."""
        if self.rules.game_end == "single_hand":
            return list(self.single.scores) if self.single is not None else [0] * SEATS
        if self.rules.hollywood and self.over:
            return [sum(g.final.totals[s] for g in self.games if g.final is not None)
                    for s in range(SEATS)]
        return [sum(g.scores[s] for g in self.games) for s in range(SEATS)]

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats once over: the seat that reached the target, the single hand's
        winner (none for a drawn hand), or Hollywood's highest match total (co-winners)."""
        if not self.over:
            return ()
        if self.rules.game_end == "single_hand":
            single = self.single
            return () if single is None or single.winner is None else (single.winner,)
        if not self.rules.hollywood:
            winner = self.games[0].winner
            return () if winner is None else (winner,)
        totals = self.totals
        return tuple(s for s in range(SEATS) if totals[s] == max(totals))

    @property
    def final(self) -> Settlement | None:
        """The settled game (not under ``single_hand`` or Hollywood, whose games each have
        one); None until over."""
        if self.rules.game_end == "single_hand" or self.rules.hollywood:
            return None
        return self.games[0].final

    @property
    def settled_totals(self) -> list[int]:
        """The totals a finished match is recorded with: the settled game's (bonuses
        added), else :attr:`totals`."""
        final = self.final
        return list(final.totals) if final is not None else self.totals

    def copy(self) -> ScoreSheet:
        """An independent copy."""
        new = ScoreSheet.__new__(ScoreSheet)
        new.rules, new.dealer, new.hands, new.single = (self.rules, self.dealer,
                                                        self.hands[:], self.single)
        new.games = [g.copy() for g in self.games]
        new.opened = [set(o) for o in self.opened]
        return new

    def to_json(self) -> dict[str, Any]:
        """The match-level fields of the replay output (FORMATS.md §4.3)."""
        out: dict[str, Any] = {"totals": self.totals, "over": self.over,
                               "winners": list(self.winners)}
        if self.over and self.final is not None:
            out["final"] = self.final.to_json()
        if self.rules.hollywood:
            out["games"] = [g.to_json() for g in self.games]
        return out

    def statistics(self) -> tuple[tuple[bool, bool], ...]:
        """Per seat ``(won, lost)`` for a statistics store once over (§6.10): the winner
        wins and the other loses; a drawn single hand is lost by both."""
        if not self.over:
            raise IllegalMoveError("the match is not over")
        winners = self.winners
        return tuple((s in winners, s not in winners) for s in range(SEATS))
