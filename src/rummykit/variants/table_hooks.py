"""The family's answers about a shared-table view, for the faces (no family named here).

A face that shows who is down, what the seat to move must still place, or the family's
fields of a wire, asks :func:`table_hooks` of the view's rules (a family on the engine's
``HandState``, :class:`~rummykit.variants.base.TableHooks`); :func:`is_down` is the
question most faces ask.

>>> import random
>>> from rummykit.core.engine import HandState
>>> from rummykit.core.rules import find_rules
>>> from rummykit.core.views import view
>>> seen = view(HandState.deal(find_rules("basic"), 2, rng=random.Random(1)), 0)
>>> table_hooks(seen.rules).seats_down(seen), is_down(seen, 0), seen.family
(0, False, None)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rummykit.variants.base import RulesLike, TableHooks
from rummykit.variants.registry import variant_of

if TYPE_CHECKING:
    from rummykit.core.views import PlayerView

__all__ = ["is_down", "table_hooks"]


def table_hooks(rules: RulesLike) -> TableHooks:
    """The hooks of the family of ``rules`` (a family whose views are ``PlayerView``)."""
    return cast(TableHooks, variant_of(rules))


def is_down(seen: PlayerView, seat: int) -> bool:
    """Whether ``seat`` is down in ``seen``."""
    return bool(table_hooks(seen.rules).seats_down(seen) >> seat & 1)
