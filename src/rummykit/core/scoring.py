"""The match score sheet the knobs describe (RULES.md §1.9-§1.10): totals, end, winners.

Hands are added up; the match ends at the target score (``game_end = target``) or after
``num_hands`` hands (``fixed_hands``), or at once on a drawn hand under
``draw_ends_match`` (no winner). The highest total wins, the lowest under penalty
scoring; ties share the win. The dealer moves one seat left each hand. Families whose
matches are scored so return this sheet from ``Variant.match_scorer``.

>>> from rummykit.core.outcome import WIN, HandResult
>>> from rummykit.core.rules import find_rules
>>> sheet = RotationScorer(find_rules("basic"), 2)
>>> sheet.after_hand(HandResult(WIN, 1, False, None, (0, 160)), 1)
>>> sheet.totals, sheet.over, sheet.winners
([0, 160], True, (1,))
>>> sheet.dealer_of(1, 3, []), sheet.lowest_wins
(0, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rummykit.core.outcome import DRAW, HandResult
from rummykit.core.rules import Rules


class RotationScorer:
    """Totals by knob: target or fixed hands, highest or (penalty) lowest wins."""

    __slots__ = ("num_players", "over", "rules", "totals", "winners")

    def __init__(self, rules: Rules, num_players: int) -> None:
        self.rules = rules
        self.num_players = num_players
        self.totals = [0] * num_players
        self.over = False
        self.winners: tuple[int, ...] = ()

    @property
    def lowest_wins(self) -> bool:
        """True under penalty scoring."""
        return self.rules.scoring == "penalty"

    def after_hand(self, result: HandResult, hands_played: int) -> None:
        """Add a finished hand's scores; decide whether the match is over."""
        for seat, points in enumerate(result.scores):
            self.totals[seat] += points
        rules = self.rules
        if result.result == DRAW and rules.draw_ends_match:
            self.over, self.winners = True, ()
            return
        if rules.game_end == "target":
            if max(self.totals) >= rules.target_for(self.num_players):
                self._close()
        elif hands_played >= rules.num_hands:
            self._close()

    def _close(self) -> None:
        best = min(self.totals) if self.lowest_wins else max(self.totals)
        self.over = True
        self.winners = tuple(s for s, t in enumerate(self.totals) if t == best)

    def dealer_of(self, first_dealer: int, hand_index: int,
                  results: Sequence[HandResult | None]) -> int:
        """One seat left per hand."""
        return (first_dealer + hand_index) % self.num_players

    @property
    def settled_totals(self) -> list[int]:
        """The totals as they stand (nothing is settled on top)."""
        return self.totals

    def to_json(self) -> dict[str, Any]:
        """``totals``, ``over`` and ``winners`` of the replay output (FORMATS.md §3)."""
        return {"totals": list(self.totals), "over": self.over, "winners": list(self.winners)}

    def copy(self) -> RotationScorer:
        """An independent copy."""
        new = RotationScorer.__new__(RotationScorer)
        new.rules, new.num_players = self.rules, self.num_players
        new.totals, new.over, new.winners = self.totals[:], self.over, self.winners
        return new
