"""The registered rule families, looked up by rule-set name.

Each family's package registers its :class:`~rummykit.variants.base.Variant` when imported;
:mod:`rummykit.variants` imports the built-in ones. Registering also publishes the family's
presets to :mod:`rummykit.core.rules`, so ``find_rules`` and ``Rules.from_options`` know
them, and a family's ``hand_class`` (a ``HandState`` subclass) to :mod:`rummykit.core.engine`,
so ``HandState.deal`` of its rules builds it. Nothing here knows a family by name.

>>> variant_for("traditional").name
'rummy'
>>> variant_of(find_rules("contract")).terms(find_rules("contract")).hand
'deal'
"""

from __future__ import annotations

from typing import Any

from rummykit.core import engine
from rummykit.core import rules as rules_module
from rummykit.core.errors import RecordError
from rummykit.core.rules import find_rules
from rummykit.variants.base import RulesLike, Variant, with_presets

__all__ = ["AnyVariant", "all_rule_set_names", "families", "find_rules", "knob_options",
           "register", "rule_set_names", "variant_for", "variant_of"]

#: any family: its rules type and hand type are its own
AnyVariant = Variant[Any, Any]

_BY_RULE_SET: dict[str, AnyVariant] = {}
_FAMILIES: dict[str, AnyVariant] = {}


def register(variant: AnyVariant) -> AnyVariant:
    """Add a family; its family name and rule-set names must be new."""
    taken = [name for name in variant.rule_sets if name in _BY_RULE_SET]
    if taken or variant.name in _FAMILIES:
        raise ValueError(f"rule family {variant.name!r}: already registered ({taken})")
    _FAMILIES[variant.name] = variant
    hand_class = getattr(variant, "hand_class", None)  # a HandState subclass, if any
    for name in variant.rule_sets:
        _BY_RULE_SET[name] = variant
        rules_module.publish(name, variant)  # core Rules presets only (see publish)
        if isinstance(hand_class, type) and issubclass(hand_class, engine.HandState):
            engine.register_hand_class(name, hand_class)
    return variant


def variant_for(rule_set: str) -> AnyVariant:
    """The family that owns the rule set ``rule_set`` (a preset name such as ``basic``)."""
    try:
        return _BY_RULE_SET[rule_set]
    except KeyError:
        raise RecordError(
            f"unknown rule set {rule_set!r}: expected one of {', '.join(all_rule_set_names())}"
        ) from None


def knob_options(rule_set: str, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` for ``rule_set`` with its presets' choices (contract's ``deals``) made
    the knobs they set (:func:`~rummykit.variants.base.with_presets`); ValueError quoting a
    choice the preset does not offer.

    >>> knob_options("contract", {"deals": 1})["num_hands"]
    1
    """
    variant = variant_for(rule_set)
    return with_presets(variant.options(variant.preset(rule_set)), options)


def variant_of(rules: RulesLike) -> AnyVariant:
    """The family of a rules value."""
    return variant_for(rules.name)


def rule_set_names() -> tuple[str, ...]:
    """The registered rule sets on the core ``Rules`` (the draw-and-discard engine's), in
    registration order. A family with its own rules type (gin) is not among them;
    :func:`all_rule_set_names` has every rule set."""
    return tuple(name for name in _BY_RULE_SET if name in rules_module.PRESETS)


def all_rule_set_names() -> tuple[str, ...]:
    """Every registered rule-set name, in registration order."""
    return tuple(_BY_RULE_SET)


def families() -> tuple[AnyVariant, ...]:
    """Every registered family, in registration order."""
    return tuple(_FAMILIES.values())
