"""The table's widgets: each renders attributes set from above and posts messages up."""

from rummykit.tui.widgets.board import DealInfo, Melds, Opponents, PileView, Summary
from rummykit.tui.widgets.hand import HandView
from rummykit.tui.widgets.panels import ActionBar, MoveLog, ScoreSheet

__all__ = ["ActionBar", "DealInfo", "HandView", "Melds", "MoveLog", "Opponents", "PileView",
           "ScoreSheet", "Summary"]
