"""Who sits at the bot seats unless a player says: the ``medium`` level, or the family's
greedy bot where the family has no levels (yet).

>>> from rummykit.core.rules import find_rules
>>> default_bot(find_rules("basic"))
'medium'
"""

from __future__ import annotations

from rummykit.bots import make_bot_for
from rummykit.core.errors import RummyError
from rummykit.variants.base import RulesLike

LEVEL = "medium"
FALLBACK = "greedy"


def default_bot(rules: RulesLike) -> str:
    """The bot the faces seat by default for ``rules``."""
    try:
        make_bot_for(LEVEL, rules)
    except RummyError:
        return FALLBACK
    return LEVEL
