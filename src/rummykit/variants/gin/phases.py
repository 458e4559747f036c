"""The steps of a gin hand and how it was knocked (the ``phase`` and ``kind`` values)."""

from __future__ import annotations

OFFER, DRAW_STEP, DISCARD_STEP = "offer", "draw", "discard"
WALL, WALL_KNOCK, SHOW, OVER = "wall", "wall_knock", "show", "over"
HAND_SIZE = 10
STOCK_SIZE = 31
WALL_STOCK = 2
#: how the hand ended by a knock: ``kind`` values
NO_KNOCK, PLAIN_KNOCK, GIN_KNOCK, BIG_GIN_KNOCK = 0, 1, 2, 3
