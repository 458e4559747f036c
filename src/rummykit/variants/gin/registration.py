"""Registers gin's record hooks: its replay (on the core match) and readable account.

:mod:`rummykit` imports this module last, so ``rummykit replay`` and the core record
reader and writer know gin records. The family itself (rule sets ``gin``, ``oklahoma``)
is registered by :mod:`rummykit.variants` like every other; these hooks import the core's
record module, which imports that package, so they are registered here.
"""

from rummykit.core.record import register_records
from rummykit.variants.gin.replay import GIN_RECORDS
from rummykit.variants.gin.variant import GIN_FAMILY

register_records(GIN_FAMILY.rule_sets, GIN_RECORDS)

__all__ = ["GIN_FAMILY"]
