"""The contract family: Contract Rummy's rule set, its hand and its words.

>>> from rummykit.variants.contract.presets import CONTRACT
>>> CONTRACT_FAMILY.terms(CONTRACT).score, CONTRACT_FAMILY.terms(CONTRACT).lowest_wins
('penalty points', True)
>>> CONTRACT_FAMILY.deal_facts(CONTRACT, 4, 0)
(Fact(label='Contract', value='2 sets'),)
"""

from __future__ import annotations

from typing import Any, NamedTuple

from rummykit.core.errors import RecordError
from rummykit.core.rule_options import COMMON_KNOBS
from rummykit.core.rules import FINAL_DEAL_RULES, Rules
from rummykit.core.views import PlayerView
from rummykit.variants.base import Duty, Fact, OptionSpec, TableHooks, Terms
from rummykit.variants.common import DrawDiscardFamily
from rummykit.variants.contract import view as contract_view
from rummykit.variants.contract.hand import ContractHand
from rummykit.variants.contract.help import help_text as contract_help
from rummykit.variants.contract.presets import CONTRACT
from rummykit.variants.contract.schedule import contract_of, last_deals
from rummykit.variants.contract.words import contract_words, melds_words

KNOBS = {
    "contract": COMMON_KNOBS | {
        "deck_config", "joker_points", "contract_schedule", "contract_runs_distinct_suits",
        "extra_melds_after_contract", "joker_swap", "final_deal_rule", "blocked_deal"},
}


class ContractFamily(DrawDiscardFamily):
    """Contract Rummy (RULES.md §4): contracts, jokers, several decks, digs and swaps."""

    name = "contract"
    rule_sets = ("contract",)
    hand_class = ContractHand

    def validate(self, rules: Rules) -> None:
        """One deal per contract, one hand size per deal."""
        if rules.num_hands != len(rules.contract_schedule):
            raise RecordError("option 'num_hands' must equal the length of contract_schedule")
        if len(rules.deal_hand_sizes) != len(rules.contract_schedule):
            raise RecordError(
                "option 'hand_size' must give one size per deal of contract_schedule")
        _check_makeable(rules)

    def terms(self, rules: Rules) -> Terms:
        """A hand is a deal; the score follows ``scoring``."""
        penalty = rules.scoring == "penalty"
        return Terms("deal", "deals", "penalty points" if penalty else "points", penalty,
                     title="Contract Rummy", down="down")

    def deal_facts(self, rules: Rules, num_players: int, deal_index: int
                   ) -> tuple[Fact, ...]:
        """The deal's contract (the faces show the deal's number themselves)."""
        return (Fact("Contract", contract_words(rules, deal_index)),)

    def help_text(self, rules: Rules) -> str:
        """The rules for players, with this rule set's contracts (:mod:`.help`)."""
        return contract_help(rules)

    def options(self, rules: Rules) -> tuple[OptionSpec, ...]:
        """The knobs a game set-up screen offers, the match's length first."""
        return (
            deals_option(rules),
            OptionSpec("deck_config", "Pack", "choice", rules.deck_config,
                       ("bicycle", "pagat", "seed")),
            OptionSpec("discard_dig", "Digging", "bool", rules.discard_dig),
            OptionSpec("joker_swap", "Joker swaps", "bool", rules.joker_swap),
            OptionSpec("extra_melds_after_contract", "New melds once down", "bool",
                       rules.extra_melds_after_contract),
            OptionSpec("contract_runs_distinct_suits", "A contract's runs in different suits",
                       "bool", rules.contract_runs_distinct_suits),
            OptionSpec("final_deal_rule", "Last deal", "choice", rules.final_deal_rule,
                       FINAL_DEAL_RULES,
                       help="going down in the last deal: any way (none), all at once with "
                            "no discard, or all at once with one discard"),
        )

    # -- the view's family part (TableHooks; :mod:`.view`)
    def seats_down(self, seen: PlayerView) -> int:
        """The seats that have laid their contract."""
        return contract_view.seats_down(seen)

    def went_down(self, seen: PlayerView) -> bool:
        """Whether the seat to move laid its contract this turn."""
        return contract_view.went_down(seen)

    def duties(self, seen: PlayerView) -> tuple[Duty, ...]:
        """The dug card and the swapped jokers still to be placed."""
        return contract_view.duties(seen)

    def part_json(self, seen: PlayerView) -> dict[str, Any]:
        """``down``, ``went_down``, ``dig_duty``, ``joker_duty`` (docs/agents.md)."""
        return contract_view.part_json(seen)

    def part_text(self, seen: PlayerView) -> str:
        """Who is down and the turn's duties, in the observation string's words."""
        return contract_view.part_text(seen)

    def meld_quota(self, rules: Rules, deal_index: int) -> tuple[int, int] | None:
        """The deal's contract: (sets, runs)."""
        return contract_of(_Deal(rules, deal_index))


def deals_option(rules: Rules) -> OptionSpec:
    """The ``Deals`` preset: the whole schedule, or a house game of its last deals
    (:func:`~rummykit.variants.contract.schedule.last_deals`), each choice named by its
    count and first contract.

    >>> option = deals_option(CONTRACT)
    >>> option.choices[0], option.choices[-3], option.choices[-1]
    ('7 (every contract)', '3 (from 2 sets + 1 run)', '1 (3 runs only)')
    >>> option.chosen("2 (from 1 set + 2 runs)")["num_hands"]
    2
    """
    schedule = rules.contract_schedule
    counts = range(len(schedule), 0, -1)

    def name(deals: int) -> str:
        if deals == len(schedule):
            return f"{deals} (every contract)"
        melds = melds_words(*schedule[-deals])
        return f"{deals} (from {melds})" if deals > 1 else f"1 ({melds} only)"

    choices = tuple(name(n) for n in counts)
    return OptionSpec("deals", "Deals", "preset", choices[0], choices,
                      help="a house game plays only the last deals of the schedule, "
                           "ending with the last contract",
                      sets=tuple(last_deals(rules, n) for n in counts))


SUITS = 4
SET_MOST = 4  # cards a set holds at most, jokers included (distinct suits, RULES.md §1.4)


def _check_makeable(rules: Rules) -> None:
    """Refuse a schedule with a contract nobody can ever make: more runs of distinct suits
    than there are suits, or a last deal whose all-at-once rule (§4.7) needs more cards in
    its melds than they can hold (the deal could only end by the turn valve)."""
    schedule = rules.contract_schedule
    for sets, runs in schedule:
        if runs > SUITS and rules.contract_runs_distinct_suits:
            raise RecordError(
                f"option 'contract_schedule': the contract {[sets, runs]} needs {runs} runs "
                f"of different suits, and there are {SUITS} suits; use at most {SUITS} runs, "
                "or set contract_runs_distinct_suits to false")
    if rules.final_deal_rule == "none":
        return
    sets, runs = schedule[-1]
    size = rules.deal_hand_sizes[len(schedule) - 1]
    needed = size + 1 if rules.final_deal_rule == "all_at_once_no_discard" else size
    most = SET_MOST * sets + (14 if rules.ace_high else 13) * runs
    if most < needed:
        raise RecordError(
            f"option 'contract_schedule': the last deal's contract {[sets, runs]} must take "
            f"{needed} cards at once under final_deal_rule {rules.final_deal_rule!r}, and "
            f"its melds hold at most {most}; end the schedule with a contract that holds "
            "them (deal 7's is 3 runs), or set final_deal_rule to 'none'")


class _Deal(NamedTuple):
    rules: Rules
    deal_index: int


CONTRACT_FAMILY = ContractFamily({"contract": CONTRACT}, KNOBS)
_TABLE_HOOKS: TableHooks = CONTRACT_FAMILY  # its overrides keep the hooks' types (mypy)
