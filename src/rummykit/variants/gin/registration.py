"""Registers gin's record hooks (always) and the gin family itself (on request).

:mod:`rummykit` imports this module last, so ``rummykit replay`` and the core record
reader and writer know gin records. The family (rule sets ``gin``, ``oklahoma``) joins the
registry only through :func:`register_family`: once registered, every face that lists the
registry offers gin, and the faces, the knob reference and the option fuzzing still expect
every rules value to be a core ``Rules`` (which ``GinRules`` is not), so enabling it is the
faces' step. Registering from ``rummykit.variants`` itself would be an import cycle (these
hooks import the core's record module, which imports that package).
"""

from rummykit.core.record import register_records
from rummykit.variants.gin.replay import GIN_RECORDS
from rummykit.variants.gin.variant import GIN_FAMILY
from rummykit.variants.registry import register, rule_set_names

register_records(GIN_FAMILY.rule_sets, GIN_RECORDS)


def register_family() -> None:
    """Add the gin family to the registry (once; later calls do nothing)."""
    if GIN_FAMILY.rule_sets[0] not in rule_set_names():
        # The protocol types rules as the core's Rules and moves as the core's Move union;
        # gin has its own (GinRules; pass, knock, gin, done): the protocol is to widen them.
        register(GIN_FAMILY)  # type: ignore[arg-type]


__all__ = ["GIN_FAMILY", "register_family"]
