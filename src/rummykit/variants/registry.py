"""The registered rule families, looked up by rule-set name.

Each family's package registers its :class:`~rummykit.variants.base.Variant` when imported;
:mod:`rummykit.variants` imports the built-in ones. Nothing here knows a family by name.
"""

from __future__ import annotations

from rummykit.core.errors import RecordError
from rummykit.variants.base import Variant

_BY_RULE_SET: dict[str, Variant] = {}
_FAMILIES: dict[str, Variant] = {}


def register(variant: Variant) -> Variant:
    """Add a family; its rule-set names must be new."""
    taken = [name for name in variant.rule_sets if name in _BY_RULE_SET]
    if taken or variant.name in _FAMILIES:
        raise ValueError(f"rule family {variant.name!r}: already registered ({taken})")
    _FAMILIES[variant.name] = variant
    for name in variant.rule_sets:
        _BY_RULE_SET[name] = variant
    return variant


def variant_for(rule_set: str) -> Variant:
    """The family that owns the rule set ``rule_set`` (a preset name such as ``basic``)."""
    try:
        return _BY_RULE_SET[rule_set]
    except KeyError:
        raise RecordError(
            f"unknown rule set {rule_set!r}: expected one of {', '.join(rule_set_names())}"
        ) from None


def rule_set_names() -> tuple[str, ...]:
    """Every registered rule-set name, in registration order."""
    return tuple(_BY_RULE_SET)


def families() -> tuple[Variant, ...]:
    """Every registered family, in registration order."""
    return tuple(_FAMILIES.values())
