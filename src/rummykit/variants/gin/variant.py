"""The gin family as registered: rule sets ``gin`` and ``oklahoma`` (RULES.md §6).

Presets and options come from :mod:`~rummykit.variants.gin.rules`, hands from
:class:`~rummykit.variants.gin.hand.GinHand` (dealt as FORMATS.md §4.2 says), the match's
score sheet from :class:`~rummykit.variants.gin.game.ScoreSheet`.

>>> from rummykit.variants.gin.rules import GIN, OKLAHOMA
>>> GIN_FAMILY.terms(GIN).match, GIN_FAMILY.terms(GIN).lowest_wins
('game', False)
>>> GIN_FAMILY.deal_facts(OKLAHOMA, 2, 0)[0]
Fact(label='Knock limit', value='the first upcard (at most 10)')
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any

from rummykit.core.cards import Card
from rummykit.core.errors import RecordError
from rummykit.variants.base import Fact, OptionSpec, Terms
from rummykit.variants.gin.game import ScoreSheet
from rummykit.variants.gin.hand import GinHand
from rummykit.variants.gin.help import help_text
from rummykit.variants.gin.knob_meanings import knob_markdown
from rummykit.variants.gin.moves import GinMove, parse_gin_move
from rummykit.variants.gin.output import hand_object
from rummykit.variants.gin.rules import (
    GIN_PRESETS,
    GIN_RULE_SETS,
    NEXT_DEALERS,
    SHUTOUT_RULES,
    TIE_RULES,
    GinRules,
    gin_rules_from_options,
)
from rummykit.variants.gin.view import GinView, gin_view
from rummykit.variants.table_kinds import KNOCK, register_table_kind

#: every knob of RULES.md §6.13 (the fields of GinRules)
GIN_KNOBS = frozenset(f.name for f in dataclasses.fields(GinRules)
                      if f.name not in ("name", "_options"))
PLAYERS = 2
#: a deal as a record gives it: one card list per seat, the upcard, the stock top first
GinDeal = tuple[Sequence[Sequence[Card]], Card, Sequence[Card]]


def _no_restocks(restocks: Sequence[Sequence[Card]] | None) -> None:
    if restocks:
        raise RecordError("restocks: gin never rebuilds a stock, so a gin record has none")


class GinFamily:
    """Gin Rummy and Oklahoma Gin: two players, knocking, the show, games to a target."""

    name = "gin"
    rule_sets = GIN_RULE_SETS

    def preset(self, rule_set: str) -> GinRules:
        """The ``gin`` or ``oklahoma`` preset."""
        return GIN_PRESETS[rule_set]

    def knobs(self, rule_set: str) -> frozenset[str]:
        """The knobs of RULES.md §6.13 (the same for both rule sets)."""
        return GIN_KNOBS

    def rules_from_options(self, rule_set: str, options: Mapping[str, Any]) -> GinRules:
        """The preset with JSON-form overrides, checked as RULES.md §6.13.1."""
        return gin_rules_from_options(rule_set, options)

    def check_supported(self, rules: GinRules, num_players: int) -> None:
        """Gin is for exactly two players."""
        if num_players != PLAYERS:
            raise RecordError(f"players: {rules.name} is for exactly 2 players, "
                              f"got {num_players}")

    def deal(self, rules: GinRules, num_players: int, dealer: int, deck: Sequence[Card], *,
             rng: random.Random | None, deal_index: int,
             restocks: Sequence[Sequence[Card]] | None = None) -> GinHand:
        """Deal a shuffled 52-card deck as FORMATS.md §4.2 orders it."""
        self.check_supported(rules, num_players)
        _no_restocks(restocks)
        return GinHand.from_deck(rules, dealer, deck, deal_index=deal_index)

    def from_deal(self, rules: GinRules, dealer: int, deal: GinDeal, *,
                  rng: random.Random | None, deal_index: int,
                  restocks: Sequence[Sequence[Card]] | None = None) -> GinHand:
        """A hand dealt as given: one list per seat, the upcard, the stock top first."""
        _no_restocks(restocks)
        hands, upcard, stock = deal
        return GinHand.from_deal(rules, dealer, hands, upcard, stock, deal_index=deal_index)

    def match_scorer(self, rules: GinRules, num_players: int) -> ScoreSheet:
        """The game level: totals, boxes, game bonus, shutout, Hollywood, next dealer."""
        return ScoreSheet(rules)

    rebuilds_stock = False

    def knob_reference(self) -> str:
        """The gin knobs' table and meanings (:mod:`~rummykit.variants.gin.knob_meanings`)."""
        return knob_markdown()

    def view(self, state: GinHand, seat: int) -> GinView:
        """A seat's view of a gin hand (:func:`~rummykit.variants.gin.view.gin_view`)."""
        return gin_view(state, seat)

    def hand_json(self, state: GinHand) -> dict[str, Any]:
        """The gin hand object of the replay output (FORMATS.md §4.3)."""
        return hand_object(state)

    def parse_move(self, text: str) -> GinMove:
        """One move in gin's notation (FORMATS.md §4.1)."""
        return parse_gin_move(text)

    def terms(self, rules: GinRules) -> Terms:
        """Hands, points, the highest total wins, and the whole is a game."""
        title = "Oklahoma Gin" if rules.oklahoma else "Gin Rummy"
        return Terms("hand", "hands", "points", False, "game", title=title)

    def deal_facts(self, rules: GinRules, num_players: int, deal_index: int,
                   hand: GinHand | None = None) -> tuple[Fact, ...]:
        """The knock limit of the hand (from its first upcard under Oklahoma, when the hand
        is given), the target and the boxes."""
        if hand is not None:
            limit = str(hand.knock_limit) if hand.knock_limit else "0 (gin only)"
            if hand.multiplier > 1:
                limit += ", spade upcard: points doubled"
        elif rules.oklahoma:
            limit = f"the first upcard (at most {rules.knock_limit})"
        else:
            limit = str(rules.knock_limit)
        facts = [Fact("Knock limit", limit)]
        if rules.game_end == "single_hand":
            facts.append(Fact("Game", "one hand"))
        else:
            games = "3 games (Hollywood) to " if rules.hollywood else ""
            facts += [Fact("Game", f"{games}{rules.target_score}"),
                      Fact("Boxes", f"{rules.box_bonus} a hand won")]
        return tuple(facts)

    def help_text(self, rules: GinRules) -> str:
        """The rules of this rule set for players."""
        return help_text(rules)

    def options(self, rules: GinRules) -> tuple[OptionSpec, ...]:
        """The knobs a game set-up screen offers."""
        specs = [
            OptionSpec("knock_limit", "Knock limit", "int", rules.knock_limit,
                       minimum=0, maximum=10,
                       help="the most deadwood a knock may leave (Oklahoma: a cap)"),
            OptionSpec("target_score", "Game to", "int", rules.target_score, minimum=1),
            OptionSpec("tie_rule", "Knock ties", "choice", rules.tie_rule, TIE_RULES),
            OptionSpec("rediscard_ban", "No discarding the card just taken", "bool",
                       rules.rediscard_ban),
            OptionSpec("wall_knock", "Take and knock at the wall", "bool", rules.wall_knock),
            OptionSpec("shutout_rule", "Shutout", "choice", rules.shutout_rule, SHUTOUT_RULES),
            OptionSpec("next_dealer", "Next dealer", "choice", rules.next_dealer,
                       NEXT_DEALERS),
            OptionSpec("hollywood", "Hollywood (three games at once)", "bool",
                       rules.hollywood),
        ]
        if rules.oklahoma:
            specs.append(OptionSpec("oklahoma_spade_double", "Spade upcard doubles", "bool",
                                    rules.oklahoma_spade_double))
        return tuple(specs)


GIN_FAMILY = GinFamily()
register_table_kind(GIN_FAMILY.name, KNOCK)  # the faces host gin's own table
