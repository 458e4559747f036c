"""A seat's view of either kind of table, and a full position made from it alone.

An agent's answer is checked on a position consistent with its view (the hidden cards
dealt at random), so nothing it sends can touch the real game and no hidden card decides
whether a move is legal.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from rummykit.core.views import PlayerView
from rummykit.core.views import resample as shared_resample
from rummykit.variants.gin.view import GinView
from rummykit.variants.gin.view import resample as knock_resample
from rummykit.variants.table_kinds import KNOCK, SHARED, table_kind

#: a seat's view: the engine's, or a knock family's
SeatView = PlayerView | GinView

_RESAMPLE: dict[str, Callable[[Any, random.Random], Any]] = {
    SHARED: shared_resample, KNOCK: knock_resample}


def position_of(view: SeatView) -> Any:
    """A hand consistent with ``view`` (the same unseen cards for the same view), on which
    a move of the seat can be checked and played."""
    return _RESAMPLE[table_kind(view.rules)](view, random.Random(0))
