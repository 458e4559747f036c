"""The rummy family: basic and traditional Rummy, two presets of one set of rules.

>>> from rummykit.variants.rummy.presets import TRADITIONAL
>>> RUMMY.terms(TRADITIONAL).title, RUMMY.terms(TRADITIONAL).score
('Traditional Rummy', 'points')
>>> RUMMY.deal_facts(TRADITIONAL, 3, 0)
()
"""

from __future__ import annotations

from rummykit.core.errors import RecordError
from rummykit.core.knobs import json_value
from rummykit.core.rule_options import COMMON_KNOBS
from rummykit.core.rules import Rules
from rummykit.variants.base import Fact, OptionSpec, Terms
from rummykit.variants.common import DrawDiscardFamily
from rummykit.variants.rummy.help import help_text as rummy_help
from rummykit.variants.rummy.presets import BASIC, TRADITIONAL

KNOBS = {
    "basic": COMMON_KNOBS | {"max_melds_per_turn", "target_score"},
    "traditional": (COMMON_KNOBS - {"num_hands"})
    | {"max_melds_per_turn", "target_score", "draw_counts_as_loss", "draw_ends_match"},
}

class RummyFamily(DrawDiscardFamily):
    """Basic and traditional Rummy (RULES.md §2, §3)."""

    name = "rummy"
    rule_sets = ("basic", "traditional")

    def validate(self, rules: Rules) -> None:
        """No digs or joker swaps: they need the contract family's jokers."""
        if rules.discard_dig or rules.joker_swap:
            raise RecordError("options 'discard_dig' and 'joker_swap' exist only in contract")

    def terms(self, rules: Rules) -> Terms:
        """A hand is a hand; the score follows ``scoring``."""
        penalty = rules.scoring == "penalty"
        return Terms("hand", "hands", "penalty points" if penalty else "points", penalty,
                     title=f"{rules.name.capitalize()} Rummy",
                     meld_owners=rules.name != TRADITIONAL.name)

    def deal_facts(self, rules: Rules, num_players: int, deal_index: int
                   ) -> tuple[Fact, ...]:
        """None: every hand is alike (the faces show the hand's number and the goal)."""
        return ()

    def help_text(self, rules: Rules) -> str:
        """The rules for players, with this rule set's numbers (:mod:`.help`)."""
        return rummy_help(rules)

    def options(self, rules: Rules) -> tuple[OptionSpec, ...]:
        """The knobs a game set-up screen offers."""
        return (
            OptionSpec("ace_mode", "Aces", "choice", rules.ace_mode, ("low", "high_or_low")),
            OptionSpec("must_discard_to_go_out", "Discard to go out", "bool",
                       rules.must_discard_to_go_out),
            OptionSpec("max_melds_per_turn", "Melds per turn", "choice",
                       rules.max_melds_per_turn, (None, 1, 2, 3),
                       help="None: no limit (RULES.md §5.1)"),
            OptionSpec("target_score", "Play to (points)", "int",
                       json_value(rules, "target_score"), minimum=1, maximum=100_000),
        )


RUMMY = RummyFamily({"basic": BASIC, "traditional": TRADITIONAL}, KNOBS)
