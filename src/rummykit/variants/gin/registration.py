"""Registers gin's readable replay account with the core records.

:mod:`rummykit` imports this module last, so ``rummykit replay`` writes gin's own account
(the replay itself goes through the family's hooks, as for every family). The family (rule
sets ``gin``, ``oklahoma``) is registered by :mod:`rummykit.variants` like every other; the
account imports the core's record module, which imports that package, so it is registered
here.
"""

from rummykit.core.record import register_account
from rummykit.variants.gin.replay import gin_account
from rummykit.variants.gin.variant import GIN_FAMILY

register_account(GIN_FAMILY.rule_sets, gin_account)

__all__ = ["GIN_FAMILY"]
