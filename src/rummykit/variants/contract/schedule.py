"""Where a deal stands in the contract schedule: its contract and its final-deal rule.

Both read a hand or a seat's view alike (anything with ``rules`` and ``deal_index``), so
a bot asks here instead of reading the schedule itself.
"""

from __future__ import annotations

from typing import Any, Protocol

from rummykit.core.rules import Rules


class Dealt(Protocol):
    """A hand or a view of one: its rules and which deal of the match it is."""

    @property
    def rules(self) -> Rules: ...

    @property
    def deal_index(self) -> int: ...


def contract_of(state: Dealt) -> tuple[int, int]:
    """(sets, runs) of the current deal's contract."""
    schedule = state.rules.contract_schedule
    return schedule[state.deal_index % len(schedule)]


def final_rule(state: Dealt) -> str:
    """The seventh-deal rule in force this deal: ``none`` except in the last deal."""
    schedule = state.rules.contract_schedule
    if state.deal_index % len(schedule) != len(schedule) - 1:
        return "none"
    return state.rules.final_deal_rule


def three_runs(state: Dealt) -> bool:
    """Whether the deal's contract is deal 7's: three runs of distinct suits."""
    return contract_of(state) == (0, 3) and state.rules.contract_runs_distinct_suits


def last_deals(rules: Rules, deals: int) -> dict[str, Any]:
    """The options of a shorter house game playing only the schedule's last ``deals``
    deals, with their hand sizes (so it still ends with the last contract and its rule;
    RULES.md §5.1); empty for the whole schedule.

    >>> from rummykit.variants.contract.presets import CONTRACT
    >>> last_deals(CONTRACT, 2)
    {'contract_schedule': [[1, 2], [0, 3]], 'num_hands': 2, 'hand_size': [12, 12]}
    """
    schedule = rules.contract_schedule
    if not 1 <= deals <= len(schedule):
        raise ValueError(f"{deals} deals: expected 1 to {len(schedule)}")
    if deals == len(schedule):
        return {}
    return {"contract_schedule": [list(pair) for pair in schedule[-deals:]],
            "num_hands": deals, "hand_size": list(rules.deal_hand_sizes[-deals:])}
