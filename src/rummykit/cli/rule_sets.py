"""The rule sets the command line offers: every registered one, the first the default."""

from __future__ import annotations

from rummykit.display.terms import DEFAULT_RULE_SET
from rummykit.variants.registry import all_rule_set_names

#: every registered rule set, in registration order (``play``, ``hint`` and ``agent``
#: refuse one whose family has its own rules type, saying so)
SUPPORTED_RULES = all_rule_set_names()
#: what ``--rules`` is when not given
DEFAULT_RULES = DEFAULT_RULE_SET
#: the help of ``--rules``
RULES_HELP = f"The rule set: {', '.join(SUPPORTED_RULES)}."
