"""Registers the gin family (rule sets ``gin``, ``oklahoma``) and its record hooks.

Imported once, by :mod:`rummykit` after the core is loaded (the core's modules import
variant modules, so registering from ``rummykit.variants`` itself would be circular here).
"""

from rummykit.core.record import register_records
from rummykit.variants.gin.replay import GIN_RECORDS
from rummykit.variants.gin.variant import GIN_FAMILY
from rummykit.variants.registry import register, rule_set_names

if GIN_FAMILY.rule_sets[0] not in rule_set_names():
    # The draft protocol types moves as the core's Move union, which gin's moves (pass,
    # knock, gin, done) are not part of: the protocol is to widen it.
    register(GIN_FAMILY)  # type: ignore[arg-type]
    register_records(GIN_FAMILY.rule_sets, GIN_RECORDS)

__all__ = ["GIN_FAMILY"]
