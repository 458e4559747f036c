"""Which kind of table a family's faces set up, filled in by each family's folder.

A face (the line game, the terminal table, the agent protocol) asks :func:`table_kind`
which game it hosts, never the family's name: ``shared`` for the draw-and-discard engine's
hands (melds laid on a shared table, core ``HandState`` and ``PlayerView``), ``knock`` for
a family whose melds stay in hand until a knock and the show (gin's hand and view). A
family folder whose hands are not the engine's registers its kind when imported.

>>> from rummykit.core.rules import find_rules
>>> table_kind(find_rules("basic"))
'shared'
"""

from __future__ import annotations

from rummykit.variants.base import RulesLike
from rummykit.variants.registry import variant_of

SHARED = "shared"
KNOCK = "knock"
KINDS = (SHARED, KNOCK)

_BY_FAMILY: dict[str, str] = {}


def register_table_kind(family: str, kind: str) -> None:
    """Set the kind of table of the family named ``family``."""
    if kind not in KINDS:
        raise ValueError(f"table kind {kind!r}: expected one of {', '.join(KINDS)}")
    _BY_FAMILY[family] = kind


def table_kind(rules: RulesLike) -> str:
    """The kind of table the faces set up for ``rules`` (``shared`` unless registered)."""
    return _BY_FAMILY.get(variant_of(rules).name, SHARED)
