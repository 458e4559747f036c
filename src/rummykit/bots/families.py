"""The bots of the rule families that play their own way, found through the variant.

A family whose hands need their own policy (its contracts, its jokers) registers here its
greedy move and its search, keyed by the family's name; the generic bots
(:mod:`rummykit.bots.greedy`, :mod:`rummykit.bots.expert`, the playouts) ask
:func:`policies_for` instead of testing a family's knob. A family not in the table plays
the generic policies.

>>> from rummykit.variants import BASIC, CONTRACT
>>> policies_for(BASIC) is None, policies_for(CONTRACT) is not None
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rummykit.bots import contract_levels
from rummykit.bots.analysis import Analysis
from rummykit.bots.greedy_contract import choose_contract
from rummykit.core.errors import RummyError
from rummykit.core.moves import Move
from rummykit.core.views import PlayerView
from rummykit.variants.base import RulesLike
from rummykit.variants.contract.variant import CONTRACT_FAMILY
from rummykit.variants.registry import variant_of


@dataclass(frozen=True, slots=True)
class FamilyPolicies:
    """A family's own bots: the greedy move, and the search's choice and hint (given the
    search bot's :class:`~rummykit.bots.expert.Budget`)."""

    greedy: Callable[[PlayerView], Move]
    choose: Callable[[PlayerView, random.Random, Any], Move]
    analyse: Callable[[PlayerView, random.Random, Any], Analysis]


#: the families with their own bots, by family name
FAMILY_POLICIES: dict[str, FamilyPolicies] = {
    CONTRACT_FAMILY.name: FamilyPolicies(choose_contract, contract_levels.choose,
                                         contract_levels.analyse),
}

_BY_RULE_SET: dict[str, FamilyPolicies | None] = {}


def policies_for(rules: RulesLike) -> FamilyPolicies | None:
    """The own bots of the family of ``rules``, or ``None`` for the generic ones (also for
    rules of no registered rule set)."""
    name = rules.name
    try:
        return _BY_RULE_SET[name]
    except KeyError:
        pass
    try:
        found = FAMILY_POLICIES.get(variant_of(rules).name)
    except RummyError:
        found = None
    _BY_RULE_SET[name] = found
    return found
