"""Which family encodes how: each family's research encoding, from its own folder.

A family may give ``variants/<family>/encoding.py`` with an ``ENCODING`` object (the
protocols :class:`~rummykit.variants.base.TableEncoding` and
:class:`~rummykit.variants.base.OwnEncoding`). Its ``kind`` says how the environments host
the family: ``"table"`` (a family on the engine's ``HandState``: :class:`rummykit.rl.game.
Game`, with the encoding's extra observation parts and compact-space limits) or ``"own"``
(a family with its own hand, which encodes its actions and observation rows itself:
:class:`rummykit.rl.own_game.OwnGame`). A family with no such module is a plain table
family. Nothing here names a family.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from rummykit.core.errors import RecordError
from rummykit.variants.registry import variant_for

__all__ = ["encoding_for", "kind_of", "table_encoding"]


@cache
def encoding_for(rule_set: str) -> Any:
    """The ``ENCODING`` of the family that owns ``rule_set``, or None when it has none."""
    variant = variant_for(rule_set)
    package = type(variant).__module__.rpartition(".")[0]
    try:
        module = importlib.import_module(f"{package}.encoding")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.encoding":
            raise
        return None
    return module.ENCODING


def kind_of(rule_set: str) -> str:
    """How the environments host ``rule_set``: ``"table"`` or ``"own"``."""
    found = encoding_for(rule_set)
    return "table" if found is None else str(found.kind)


def table_encoding(rules: Any) -> Any:
    """The encoding of a table family's rules value, or None (no module, or rules named
    after no registered rule set: a plain table)."""
    try:
        found = encoding_for(rules.name)
    except RecordError:
        return None
    return found if found is not None and found.kind == "table" else None
