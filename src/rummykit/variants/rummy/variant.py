"""The rummy family: basic and traditional Rummy, two presets of one set of rules.

>>> from rummykit.variants.rummy.presets import TRADITIONAL
>>> RUMMY.terms(TRADITIONAL)
Terms(hand='hand', hands='hands', score='points', lowest_wins=False, match='match')
>>> RUMMY.deal_facts(TRADITIONAL, 3, 0)
(Fact(label='Target', value='150'),)
"""

from __future__ import annotations

from rummykit.core.errors import RecordError
from rummykit.core.rule_options import COMMON_KNOBS
from rummykit.core.rules import Rules
from rummykit.variants.base import Fact, OptionSpec, Terms
from rummykit.variants.common import DrawDiscardFamily
from rummykit.variants.rummy.presets import BASIC, TRADITIONAL

KNOBS = {
    "basic": COMMON_KNOBS | {"max_melds_per_turn", "target_score"},
    "traditional": (COMMON_KNOBS - {"num_hands"})
    | {"max_melds_per_turn", "target_score", "draw_counts_as_loss", "draw_ends_match"},
}

HELP = """\
{title}: be first to get rid of your cards by putting them on the table in melds.
  Sets: 3-4 cards of one rank, all suits different. Runs: 3+ cards of one suit in a row
  (aces {aces}).
A turn: draw from the stock or take the top discard; meld and lay off on any meld if you
like; discard one card (not the card you just took from the pile).
Going out: the first player with no cards wins the hand and scores {scored}.
{end}"""


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
        return Terms("hand", "hands", "penalty points" if penalty else "points", penalty)

    def deal_facts(self, rules: Rules, num_players: int, deal_index: int
                   ) -> tuple[Fact, ...]:
        """The target score, or the number of hands."""
        if rules.game_end == "target":
            return (Fact("Target", str(rules.target_for(num_players))),)
        return (Fact("Hand", f"{deal_index + 1} of {rules.num_hands}"),)

    def help_text(self, rules: Rules) -> str:
        """A short account of the rules, with this rule set's numbers."""
        penalty = rules.scoring == "penalty"
        scored = ("nothing: the others add the cards left in their hands" if penalty
                  else "the points left in the other hands")
        if rules.game_end == "target":
            end = "The match ends when a total reaches the target."
        else:
            end = f"The match lasts {rules.num_hands} hands."
        end += " Lowest total wins." if penalty else " Highest total wins."
        return HELP.format(title=rules.name.capitalize(),
                           aces="low or high" if rules.ace_high else "low",
                           scored=scored, end=end)

    def options(self, rules: Rules) -> tuple[OptionSpec, ...]:
        """The knobs a game set-up screen offers."""
        return (
            OptionSpec("ace_mode", "Aces", "choice", rules.ace_mode, ("low", "high_or_low")),
            OptionSpec("must_discard_to_go_out", "Discard to go out", "bool",
                       rules.must_discard_to_go_out),
        )


RUMMY = RummyFamily({"basic": BASIC, "traditional": TRADITIONAL}, KNOBS)
