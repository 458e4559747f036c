"""The contract rule set (RULES.md §4): seven deals, each with a contract.

>>> CONTRACT.contract_schedule[0], CONTRACT.pack_spec(5)
((2, 0), (3, 2))
"""

from __future__ import annotations

from rummykit.core.rules import Rules

CONTRACT = Rules(
    name="contract",
    player_range=(3, 8),
    hand_size=(),
    deal_hand_sizes=(10, 10, 10, 10, 12, 12, 12),
    deck_config="bicycle",
    ace_mode="high_or_low",
    going_rummy_multiplier=1,
    scoring="penalty",
    game_end="fixed_hands",
    num_hands=7,
    first_dealer="low_card",
    contract_schedule=((2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3)),
    discard_dig=True,
    joker_swap=True,
    final_deal_rule="all_at_once_no_discard",
    blocked_deal="score_hands",
)
