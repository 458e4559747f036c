"""Where a deal stands in the contract schedule: its contract and its final-deal rule."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rummykit.variants.contract.hand import ContractHand


def contract_of(state: ContractHand) -> tuple[int, int]:
    """(sets, runs) of the current deal's contract."""
    schedule = state.rules.contract_schedule
    return schedule[state.deal_index % len(schedule)]


def final_rule(state: ContractHand) -> str:
    """The seventh-deal rule in force this deal: ``none`` except in the last deal."""
    schedule = state.rules.contract_schedule
    if state.deal_index % len(schedule) != len(schedule) - 1:
        return "none"
    return state.rules.final_deal_rule
