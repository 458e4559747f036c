"""A flat observation's layout: named parts (shape and offset), true upper bounds, and the
scaling into [0, 1]; shared by :class:`rummykit.rl.observation.Observation` and
:class:`rummykit.rl.own_game.OwnObservation`."""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["Array", "Layout"]

Array = npt.NDArray[np.float32]


class Layout:
    """Named parts of a flat ``float32`` observation: ``shapes`` and ``offsets`` by name,
    ``size`` entries, each entry bounded by ``high`` (all entries are at least 0)."""

    shapes: dict[str, tuple[int, ...]]
    offsets: dict[str, int]
    size: int
    high: Array
    _card_size: int  # the card planes' entries, before the scalars
    _pack_into: Callable[..., None]

    def _set_packer(self) -> None:
        """The writer of the scalars (the entries from ``_card_size`` on) into the bytes."""
        self._pack_into = struct.Struct(f"<{self.size - self._card_size}f").pack_into

    def __getstate__(self) -> dict[str, Any]:
        """Everything but the writer (a ``struct.Struct`` cannot be copied or pickled)."""
        state = self.__dict__.copy()
        del state["_pack_into"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._set_packer()

    def _set_high(self, high: Array) -> None:
        """Keep ``high`` as the bounds, and the scaling :meth:`normalize` applies."""
        self.high = high
        finite = np.isfinite(high)
        #: the entries with no finite bound, squashed by ``x / (1 + x)`` when normalised
        self._unbounded = np.flatnonzero(~finite)
        positive = finite & (high > 0)
        inverse = 1.0 / np.where(positive, high, 1.0)
        self._scale = np.where(positive, inverse, np.where(finite, 0.0, 1.0)).astype(np.float32)

    def part(self, flat: Array, name: str) -> Array:
        """One named part of a flat observation, as a view with its shape."""
        shape = self.shapes[name]
        start = self.offsets[name]
        return flat[start:start + int(np.prod(shape))].reshape(shape)

    def normalize(self, flat: Array) -> Array:
        """A new array of ``flat`` scaled into [0, 1]: each entry over its bound, or
        ``x / (1 + x)`` for the counts with no bound."""
        out: Array = flat * self._scale
        if len(self._unbounded):
            squashed = out[self._unbounded]
            out[self._unbounded] = squashed / (1.0 + squashed)
        return out

    def describe_entry(self, index: int) -> str:
        """The part and place of one entry of the flat observation (``"table[3, 17]"``)."""
        for name, start in reversed(self.offsets.items()):
            if index >= start:
                at = np.unravel_index(index - start, self.shapes[name])
                return f"{name}[{', '.join(str(int(i)) for i in at)}]"
        raise ValueError(f"entry {index}: expected 0..{self.size - 1}")

    def as_dict(self, flat: Array) -> dict[str, Array]:
        """Every named part of a flat observation (views, not copies)."""
        return {name: self.part(flat, name) for name in self.shapes}
