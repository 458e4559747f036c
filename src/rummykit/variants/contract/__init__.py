"""Contract Rummy: contracts, jokers, several decks, digs and swaps (RULES.md §4)."""

from rummykit.variants.contract.presets import CONTRACT
from rummykit.variants.contract.variant import CONTRACT_FAMILY

__all__ = ["CONTRACT", "CONTRACT_FAMILY"]
