"""The rule families, one folder each; importing this package registers the built-in ones,
in the order faces list them.

>>> from rummykit.variants.registry import all_rule_set_names, rule_set_names
>>> all_rule_set_names()
('basic', 'traditional', 'contract', 'gin', 'oklahoma')
>>> rule_set_names()  # the ones on the core Rules
('basic', 'traditional', 'contract')
"""

from rummykit.variants.contract import CONTRACT, CONTRACT_FAMILY
from rummykit.variants.gin.variant import GIN_FAMILY
from rummykit.variants.registry import register
from rummykit.variants.rummy import BASIC, RUMMY, TRADITIONAL

register(RUMMY)
register(CONTRACT_FAMILY)
register(GIN_FAMILY)

__all__ = ["BASIC", "CONTRACT", "CONTRACT_FAMILY", "GIN_FAMILY", "RUMMY", "TRADITIONAL"]
