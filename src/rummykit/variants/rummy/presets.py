"""The basic and traditional rule sets (RULES.md §2, §3): pure data.

>>> BASIC.name, TRADITIONAL.target_for(3)
('basic', 150)
"""

from __future__ import annotations

from rummykit.core.rules import Rules

BASIC = Rules(name="basic")

TRADITIONAL = Rules(
    name="traditional",
    player_range=(2, 4),
    hand_size=((2, 10), (3, 7), (4, 7)),
    stock_rebuild="shuffle_all",
    max_rebuilds=1,
    target_score=((2, 100), (3, 150), (4, 200)),
    deadlock_draw=True,
    draw_counts_as_loss=True,
    draw_ends_match=True,
)
