"""The action space of the environments: Gymnasium's ``Discrete`` with a cheaper
membership test.

``Discrete.contains`` builds ``np.iinfo`` and numpy scalars on every call (about 8-20
microseconds); PettingZoo's ``AssertOutOfBoundsWrapper`` calls it on every step.
:class:`ActionIds` answers a plain ``int`` with two comparisons, the same answer, and
leaves every other value to ``Discrete.contains``.

>>> space = ActionIds(241)
>>> space.contains(0), space.contains(240), space.contains(241), space.contains(-1)
(True, True, False, False)
>>> import numpy as np
>>> space.contains(np.int64(5)), space.contains(5.0), space.n
(True, False, np.int64(241))
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

__all__ = ["ActionIds"]


class ActionIds(spaces.Discrete):
    """``Discrete(n)`` (ids ``0 .. n - 1``) whose ``contains`` is quick for a plain int."""

    def __init__(self, n: int, seed: int | np.random.Generator | None = None) -> None:
        super().__init__(n, seed=seed)
        self._low = int(self.start)
        self._high = int(self.start) + int(self.n)

    def contains(self, x: Any) -> bool:
        """True when ``x`` is an id of the space (as ``Discrete.contains`` answers)."""
        if type(x) is int:
            return self._low <= x < self._high
        return bool(super().contains(x))
