"""Apply and validate knob overrides given in JSON form (RULES.md §5, §5.1)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from rummykit.core.errors import RecordError
from rummykit.core.rules import (
    ACE_MODES,
    BLOCKED_DEALS,
    FINAL_DEAL_RULES,
    FIRST_DEALERS,
    GAME_ENDS,
    MAX_CONTRACT_DEALS,
    SCORINGS,
    STOCK_REBUILDS,
    Rules,
    applicable_knobs,
)

#: the knobs every rule family has (each family adds its own, RULES.md §5.1)
COMMON_KNOBS = frozenset({
    "player_range", "hand_size", "ace_mode", "ace_points", "run_min_length",
    "must_discard_to_go_out", "going_rummy_multiplier", "stock_rebuild", "max_rebuilds",
    "scoring", "game_end", "num_hands", "first_dealer", "deadlock_draw", "discard_dig",
    "max_turns_per_hand",
})


def _fail(knob: str, expected: str, value: Any) -> RecordError:
    return RecordError(f"option {knob!r}: expected {expected}, got {value!r}")


def _int(knob: str, value: Any, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise _fail(knob, f"an integer >= {low}", value)
    return value


def _opt_int(knob: str, value: Any, low: int = 0) -> int | None:
    return None if value is None else _int(knob, value, low)


def _bool(knob: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise _fail(knob, "true or false", value)
    return value


def _enum(choices: tuple[str, ...]) -> Callable[[str, Any], str]:
    def parse(knob: str, value: Any) -> str:
        if value not in choices:
            raise _fail(knob, "one of " + ", ".join(repr(c) for c in choices), value)
        return str(value)

    return parse


def _player_map(knob: str, value: Any, base: Any) -> Any:
    if not isinstance(value, dict):
        raise _fail(knob, "an object keyed by player count", value)
    merged = dict(base) if isinstance(base, tuple) else {}
    for key, size in value.items():
        if not (isinstance(key, str) and key.isascii() and key.isdigit() and len(key) <= 3):
            raise _fail(knob, "player counts as keys", key)
        merged[int(key)] = _int(knob, size, 1)
    return tuple(sorted(merged.items()))


def _parse(rules: Rules, knob: str, value: Any) -> dict[str, Any]:
    """The dataclass fields that one JSON knob sets."""
    simple: dict[str, Callable[[str, Any], Any]] = {
        "ace_mode": _enum(ACE_MODES),
        "stock_rebuild": _enum(STOCK_REBUILDS),
        "scoring": _enum(SCORINGS),
        "game_end": _enum(GAME_ENDS),
        "first_dealer": _enum(FIRST_DEALERS),
        "final_deal_rule": _enum(FINAL_DEAL_RULES),
        "deck_config": _enum(("bicycle", "pagat", "seed")),
        "blocked_deal": _enum(BLOCKED_DEALS),
        "ace_points": _int,
        "joker_points": _int,
        "going_rummy_multiplier": lambda k, v: _int(k, v, 1),
        "run_min_length": lambda k, v: _int(k, v, 3),
        "num_hands": lambda k, v: _int(k, v, 1),
        "max_melds_per_turn": lambda k, v: _opt_int(k, v, 1),
        "max_rebuilds": _opt_int,
        "max_turns_per_hand": lambda k, v: _opt_int(k, v, 1),
    }
    if knob in simple:
        return {knob: simple[knob](knob, value)}
    if knob in ("must_discard_to_go_out", "deadlock_draw", "discard_dig", "draw_counts_as_loss",
                "draw_ends_match", "contract_runs_distinct_suits",
                "extra_melds_after_contract", "joker_swap"):
        return {knob: _bool(knob, value)}
    if knob == "player_range":
        if not (isinstance(value, list) and len(value) == 2):
            raise _fail(knob, "[min, max]", value)
        low, high = (_int(knob, v, 2) for v in value)
        if low > high:
            raise _fail(knob, "min <= max", value)
        return {knob: (low, high)}
    if knob == "target_score":
        if isinstance(value, dict):
            return {knob: _player_map(knob, value, rules.target_score)}
        return {knob: _int(knob, value, 1)}
    if knob == "hand_size":
        if rules.deal_hand_sizes:  # sizes by deal, not by player count
            if not (isinstance(value, list) and value):
                raise _fail(knob, "a list of hand sizes, one per deal", value)
            return {"deal_hand_sizes": tuple(_int(knob, v, 1) for v in value)}
        return {knob: _player_map(knob, value, rules.hand_size)}
    if knob == "contract_schedule":
        if not (isinstance(value, list) and 1 <= len(value) <= MAX_CONTRACT_DEALS):
            raise _fail(knob, f"a list of 1 to {MAX_CONTRACT_DEALS} [sets, runs] pairs", value)
        pairs = []
        for pair in value:
            if not (isinstance(pair, list) and len(pair) == 2):
                raise _fail(knob, "[sets, runs] pairs", pair)
            sets, runs = _int(knob, pair[0]), _int(knob, pair[1])
            if sets + runs == 0:
                raise _fail(knob, "at least one meld in every contract", pair)
            pairs.append((sets, runs))
        return {knob: tuple(pairs)}
    raise RecordError(f"unknown option {knob!r}")  # pragma: no cover - filtered before


def apply_options(rules: Rules, options: Mapping[str, Any]) -> Rules:
    """``rules`` with the JSON-form ``options`` applied and checked (RULES.md §5.1)."""
    if not isinstance(options, Mapping):
        raise RecordError(f"options: expected an object of knob names, got {options!r}")
    known = {f.name for f in dataclasses.fields(Rules)} | {"hand_size"}
    changes: dict[str, Any] = {}
    for knob, value in options.items():
        if knob not in known or knob.startswith("_") or knob == "name":
            raise RecordError(f"unknown option {knob!r}")
        if knob not in applicable_knobs(rules.name):
            raise RecordError(f"option {knob!r} does not apply to the {rules.name} rule set")
        changes.update(_parse(rules, knob, value))
    merged = dict(rules.options)
    merged.update(options)
    result = dataclasses.replace(rules, **changes, _options=tuple(sorted(merged.items())))
    validate(result)
    return result  # the family checks its own constraints after this


def validate(rules: Rules) -> None:
    """The cross-knob constraints of RULES.md §5.1."""
    if rules.game_end == "target" and rules.scoring != "winner_collects":
        raise RecordError("option 'game_end': 'target' requires scoring 'winner_collects'")
    if rules.must_discard_to_go_out and rules.final_deal_rule == "all_at_once_no_discard":
        raise RecordError(
            "option 'must_discard_to_go_out' requires final_deal_rule other than "
            "'all_at_once_no_discard'"
        )
    if rules.deadlock_draw and (rules.discard_dig or rules.joker_swap):
        raise RecordError("option 'deadlock_draw' requires discard_dig and joker_swap false")
