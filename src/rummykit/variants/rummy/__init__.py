"""The rummy family: basic and traditional (RULES.md §2, §3)."""

from rummykit.variants.rummy.presets import BASIC, TRADITIONAL
from rummykit.variants.rummy.variant import RUMMY

__all__ = ["BASIC", "RUMMY", "TRADITIONAL"]
