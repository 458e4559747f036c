"""What the draw-and-discard families share: dealing, parsing and scoring by knob.

:class:`DrawDiscardFamily` implements the play and match members of
:class:`~rummykit.variants.base.Variant` for families whose hand is an
:class:`~rummykit.core.engine.HandState` (or a subclass, :attr:`hand_class`) and whose
match is scored by :class:`~rummykit.core.scoring.RotationScorer`. A family subclasses it
and gives its rule sets, knobs, checks and words.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rummykit.core.cards import Card
from rummykit.core.engine import HandState
from rummykit.core.moves import Move, parse_move
from rummykit.core.rule_options import apply_options
from rummykit.core.rules import Rules
from rummykit.core.scoring import RotationScorer
from rummykit.core.views import PlayerView, view
from rummykit.variants.base import Deal, Duty, Hand, TableHooks


class DrawDiscardFamily:
    """The shared members of a draw-and-discard family (see the module docstring)."""

    name: ClassVar[str]
    rule_sets: ClassVar[tuple[str, ...]]
    hand_class: ClassVar[type[HandState]] = HandState

    def __init__(self, presets: Mapping[str, Rules],
                 knobs: Mapping[str, frozenset[str]]) -> None:
        self._presets = dict(presets)
        self._knobs = dict(knobs)

    def preset(self, rule_set: str) -> Rules:
        """The rules value of one of :attr:`rule_sets`."""
        return self._presets[rule_set]

    def knobs(self, rule_set: str) -> frozenset[str]:
        """The knobs that apply to ``rule_set``."""
        return self._knobs[rule_set]

    def rules_from_options(self, rule_set: str, options: Mapping[str, Any]) -> Rules:
        """The preset with JSON-form overrides: the common checks, then the family's."""
        rules = apply_options(self.preset(rule_set), options)
        self.validate(rules)
        return rules

    def validate(self, rules: Rules) -> None:
        """The family's own cross-knob constraints (none here)."""

    def check_supported(self, rules: Rules, num_players: int) -> None:
        """Refuse a player count or pack the rules cannot deal."""
        rules.check_players(num_players)
        HandState.check_supported(rules, num_players)

    def deal(self, rules: Rules, num_players: int, dealer: int, deck: Sequence[Card], *,
             rng: random.Random | None, deal_index: int,
             restocks: Sequence[Sequence[Card]] | None = None) -> HandState:
        """Deal a shuffled pack one card at a time from the dealer's left."""
        return self.hand_class.from_deck(rules, num_players, dealer, deck, rng=rng,
                                         deal_index=deal_index, restocks=restocks)

    def from_deal(self, rules: Rules, dealer: int, deal: Deal, *,
                  rng: random.Random | None, deal_index: int,
                  restocks: Sequence[Sequence[Card]] | None = None) -> HandState:
        """A hand dealt as given."""
        hands, upcard, stock = deal
        return self.hand_class.from_deal(rules, dealer, hands, upcard, stock, rng=rng,
                                         deal_index=deal_index, restocks=restocks)

    def match_scorer(self, rules: Rules, num_players: int) -> RotationScorer:
        """Totals by knob, dealer by rotation."""
        return RotationScorer(rules, num_players)

    rebuilds_stock = True

    # -- the view's family part (TableHooks): a family without one has nothing to say
    def seats_down(self, seen: PlayerView) -> int:
        """Nobody is ever down."""
        return 0

    def went_down(self, seen: PlayerView) -> bool:
        """Nobody goes down."""
        return False

    def duties(self, seen: PlayerView) -> tuple[Duty, ...]:
        """No duty: a discard is the turn's only end."""
        return ()

    def part_json(self, seen: PlayerView) -> dict[str, Any]:
        """No fields of its own."""
        return {}

    def part_text(self, seen: PlayerView) -> str:
        """No words of its own."""
        return ""

    def meld_quota(self, rules: Rules, deal_index: int) -> tuple[int, int] | None:
        """No quota: any meld may be laid."""
        return None

    def knob_reference(self) -> str:
        """Nothing: the core's knob reference covers the knobs of ``Rules``."""
        return ""

    def view(self, state: HandState, seat: int) -> PlayerView:
        """The core view (:func:`rummykit.core.views.view`)."""
        return view(state, seat)

    def hand_json(self, state: HandState) -> dict[str, Any]:
        """The hand's result object (FORMATS.md §3), ``unfinished`` while it lasts."""
        if state.result is not None:
            return state.result.to_json()
        return {"result": "unfinished", "winner": None, "rummy": False, "reason": None,
                "scores": [0] * state.num_players}

    def parse_move(self, text: str) -> Move:
        """The FORMATS.md §1 notation."""
        return parse_move(text)


#: the engine's hand has the hand protocol (checked by mypy)
_ENGINE_HAND: type[Hand] = HandState


#: the shared defaults answer every question of a table family's faces (checked by mypy)
_TABLE_HOOKS: type[TableHooks] = DrawDiscardFamily
