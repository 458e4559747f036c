"""The server's bounds on a table's options: knobs the engine accepts at any size (a
match of ``num_hands: 1000000000``, a target of a billion points, no turn limit) would
make tables that never end, so a table asks for values in these ranges only.

>>> check_options({"num_hands": 10**9}, max_turns=1000)
Traceback (most recent call last):
...
rummykit.server.errors.ServerError: options.num_hands: 1000000000 is out of range: allowed 1 to 50
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rummykit.server.errors import ServerError

#: (lowest, highest) per numeric knob; a knob taking a map or list bounds each value
RANGES: dict[str, tuple[int, int]] = {
    "num_hands": (1, 50),
    "target_score": (1, 10_000),
    "hand_size": (1, 30),
    "player_range": (2, 8),
    "ace_points": (0, 1000),
    "joker_points": (0, 1000),
    "going_rummy_multiplier": (1, 10),
    "run_min_length": (3, 14),
    "max_melds_per_turn": (1, 50),
    "max_rebuilds": (0, 50),
    "contract_schedule": (0, 10),
}
#: the most entries a list or map knob may have
MAX_ENTRIES = 50


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check(knob: str, value: Any, low: int, high: int) -> None:
    if isinstance(value, (Mapping, list)) and len(value) > MAX_ENTRIES:
        raise ServerError("bad_request", f"options.{knob}: {len(value)} entries; at most "
                          f"{MAX_ENTRIES}")
    if isinstance(value, Mapping):
        values: list[Any] = list(value.values())
    elif isinstance(value, list):
        values = [v for item in value for v in (item if isinstance(item, list) else [item])]
    else:
        values = [value]
    for item in values:
        if _number(item) and not low <= item <= high:
            raise ServerError("bad_request", f"options.{knob}: {item!r} is out of range: "
                              f"allowed {low} to {high}")


def check_options(options: Mapping[str, Any], max_turns: int) -> None:
    """Refuse (``bad_request``, quoting the value and the range) a knob out of the
    server's bounds; ``max_turns`` is the server's turn limit, which a table may lower,
    not lift. Knobs the engine does not know are left to it to refuse."""
    for knob, value in options.items():
        if knob == "max_turns_per_hand":
            if not _number(value) or not 1 <= value <= max_turns:
                raise ServerError("bad_request", f"options.max_turns_per_hand: {value!r} "
                                  f"is out of range: allowed 1 to {max_turns}")
        elif knob in RANGES:
            _check(knob, value, *RANGES[knob])
