"""Gin rule sets: every knob of RULES.md §6.13 in one frozen value, presets, validation.

>>> GIN.knock_limit, OKLAHOMA.target_score, OKLAHOMA.spade_double
(10, 150, True)
>>> gin_rules_from_options("gin", {"tie_rule": "no_score"}).options
{'tie_rule': 'no_score'}
>>> gin_rules_from_options("gin", {"knock_limit": 11})
Traceback (most recent call last):
...
rummykit.core.errors.RecordError: option 'knock_limit': expected an integer in 0..10, got 11
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rummykit.core.errors import RecordError

GIN_RULE_SETS = ("gin", "oklahoma")
OKLAHOMA_ACES = ("gin_only", "one")
TIE_RULES = ("undercut", "knocker_wins", "no_score")
KNOCK_TESTS = ("exact", "openspiel")
LAYOFF_RULES = ("standard", "openspiel")
DEFENDER_MELDS = ("auto", "explicit")
GIN_GAME_ENDS = ("target", "single_hand")
SHUTOUT_RULES = ("double_total", "flat", "none")
NEXT_DEALERS = ("winner", "loser", "alternate")
FIRST_DEALERS = ("random", "low_card")
#: knobs a ``single_hand`` match refuses when given explicitly (RULES.md §6.13.1)
GAME_LEVEL_KNOBS = ("target_score", "box_bonus", "immediate_boxes", "game_bonus",
                    "shutout_rule", "shutout_bonus", "next_dealer", "hollywood")
#: the options of the OpenSpiel profile (RULES.md §6.14.1)
OPENSPIEL_OPTIONS: dict[str, Any] = {
    "tie_rule": "no_score", "rediscard_ban": False, "knock_test": "openspiel",
    "layoff_rule": "openspiel", "defender_melds": "explicit", "repeated_move_draw": True,
    "upcard_take_limit": 50, "game_end": "single_hand",
}


@dataclass(frozen=True, kw_only=True, slots=True)
class GinRules:
    """One gin rule set: ``gin`` or ``oklahoma`` plus the value of every §6.13 knob."""

    name: str = "gin"
    knock_limit: int = 10
    oklahoma: bool = False
    oklahoma_ace: str = "gin_only"
    oklahoma_spade_double: bool = True  # applies only with oklahoma (§6.13, "(true)")
    gin_bonus: int = 25
    undercut_bonus: int = 25
    tie_rule: str = "undercut"
    big_gin_bonus: int | None = None
    rediscard_ban: bool = True
    knock_test: str = "exact"
    layoff_rule: str = "standard"
    defender_melds: str = "auto"
    wall_knock: bool = True
    repeated_move_draw: bool = False
    upcard_take_limit: int | None = None
    game_end: str = "target"
    target_score: int = 100
    box_bonus: int = 25
    immediate_boxes: bool = False
    game_bonus: int = 100
    shutout_rule: str = "double_total"
    shutout_bonus: int = 100
    next_dealer: str = "winner"
    hollywood: bool = False
    first_dealer: str = "random"
    max_turns_per_hand: int | None = 1000
    _options: tuple[tuple[str, Any], ...] = field(default=(), compare=False, repr=False)

    @property
    def options(self) -> dict[str, Any]:
        """The knob overrides this value was built from (JSON form), for records."""
        return dict(self._options)

    @property
    def spade_double(self) -> bool:
        """True when a spade upcard doubles the hand's points (RULES.md §6.11)."""
        return self.oklahoma and self.oklahoma_spade_double

    @property
    def num_players(self) -> int:
        """Gin is for exactly two players."""
        return 2

    @property
    def draw_counts_as_loss(self) -> bool:
        """A drawn single hand is lost by both players (§6.10 statistics)."""
        return True

    def pack_spec(self, players: int) -> tuple[int, int]:
        """One 52-card deck, no jokers."""
        return 1, 0

    def hand_size_for(self, players: int, deal: int = 0) -> int:
        """Ten cards each."""
        return 10

    def check_players(self, players: int) -> None:
        """Gin is for exactly two players."""
        if players != 2:
            raise RecordError(f"players: {self.name} is for exactly 2 players, got {players}")

    def hand_knock_limit(self, upcard_rank: int) -> int:
        """K for a hand whose first upcard has ``upcard_rank`` (1..13), RULES.md §6.11."""
        if not self.oklahoma:
            return self.knock_limit
        if upcard_rank == 1:
            value = 0 if self.oklahoma_ace == "gin_only" else 1
        else:
            value = min(upcard_rank, 10)
        return min(self.knock_limit, value)


GIN = GinRules()
OKLAHOMA = GinRules(name="oklahoma", oklahoma=True, target_score=150)
GIN_PRESETS: dict[str, GinRules] = {"gin": GIN, "oklahoma": OKLAHOMA}


def _fail(knob: str, expected: str, value: Any) -> RecordError:
    return RecordError(f"option {knob!r}: expected {expected}, got {value!r}")


def _int(low: int, high: int | None = None, nullable: bool = False
         ) -> Callable[[str, Any], int | None]:
    def parse(knob: str, value: Any) -> int | None:
        if value is None and nullable:
            return None
        ok = not isinstance(value, bool) and isinstance(value, int) and value >= low
        if ok and (high is None or value <= high):
            return int(value)
        if high is not None:
            raise _fail(knob, f"an integer in {low}..{high}", value)
        raise _fail(knob, f"an integer >= {low}" + (" or null" if nullable else ""), value)

    return parse


def _bool(knob: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise _fail(knob, "true or false", value)
    return value


def _enum(choices: tuple[str, ...]) -> Callable[[str, Any], str]:
    def parse(knob: str, value: Any) -> str:
        if not isinstance(value, str) or value not in choices:
            raise _fail(knob, "one of " + ", ".join(repr(c) for c in choices), value)
        return value

    return parse


_PARSERS: dict[str, Callable[[str, Any], Any]] = {
    "knock_limit": _int(0, 10),
    "oklahoma": _bool,
    "oklahoma_ace": _enum(OKLAHOMA_ACES),
    "oklahoma_spade_double": _bool,
    "gin_bonus": _int(0),
    "undercut_bonus": _int(0),
    "tie_rule": _enum(TIE_RULES),
    "big_gin_bonus": _int(0, nullable=True),
    "rediscard_ban": _bool,
    "knock_test": _enum(KNOCK_TESTS),
    "layoff_rule": _enum(LAYOFF_RULES),
    "defender_melds": _enum(DEFENDER_MELDS),
    "wall_knock": _bool,
    "repeated_move_draw": _bool,
    "upcard_take_limit": _int(1, nullable=True),
    "game_end": _enum(GIN_GAME_ENDS),
    "target_score": _int(1),
    "box_bonus": _int(0),
    "immediate_boxes": _bool,
    "game_bonus": _int(0),
    "shutout_rule": _enum(SHUTOUT_RULES),
    "shutout_bonus": _int(0),
    "next_dealer": _enum(NEXT_DEALERS),
    "hollywood": _bool,
    "first_dealer": _enum(FIRST_DEALERS),
    "max_turns_per_hand": _int(1, nullable=True),
}

#: §5 knobs that exist for other rule sets but not for gin (RULES.md §6.13, "—")
_FOREIGN_KNOBS = frozenset({
    "player_range", "hand_size", "deck_config", "ace_mode", "ace_points", "joker_points",
    "run_min_length", "max_melds_per_turn", "must_discard_to_go_out",
    "going_rummy_multiplier", "stock_rebuild", "max_rebuilds", "scoring", "num_hands",
    "deadlock_draw", "draw_counts_as_loss", "draw_ends_match", "contract_schedule",
    "contract_runs_distinct_suits", "extra_melds_after_contract", "discard_dig", "joker_swap",
    "final_deal_rule", "blocked_deal",
})


def gin_rules_from_options(name: str, options: Mapping[str, Any] | None = None) -> GinRules:
    """The preset ``name`` with the JSON-form knob overrides, checked as RULES.md §6.13.1."""
    if name not in GIN_PRESETS:
        raise RecordError(f"unknown rule set {name!r}: expected one of 'gin', 'oklahoma'")
    options = {} if options is None else options
    if not isinstance(options, Mapping):
        raise RecordError(f"options: expected an object of knob names, got {options!r}")
    changes: dict[str, Any] = {}
    for knob, value in options.items():
        if knob in _FOREIGN_KNOBS:
            raise RecordError(f"option {knob!r} does not apply to the {name} rule set")
        if knob not in _PARSERS:
            raise RecordError(f"unknown option {knob!r}")
        changes[knob] = _PARSERS[knob](knob, value)
    rules = dataclasses.replace(GIN_PRESETS[name], **changes,
                                _options=tuple(sorted(options.items())))
    _validate(rules, options)
    return rules


def _validate(rules: GinRules, given: Mapping[str, Any]) -> None:
    """The cross-knob constraints of RULES.md §6.13.1."""
    for knob in ("oklahoma_ace", "oklahoma_spade_double"):
        if knob in given and not rules.oklahoma:
            raise RecordError(f"option {knob!r} requires oklahoma = true")
    if rules.repeated_move_draw and rules.rediscard_ban:
        raise RecordError("option 'repeated_move_draw' requires rediscard_ban = false "
                          "(under the ban no turn can repeat the taken card)")
    if "shutout_bonus" in given and rules.shutout_rule != "flat":
        raise RecordError("option 'shutout_bonus' may be set only with shutout_rule 'flat'")
    if rules.game_end == "single_hand":
        for knob in GAME_LEVEL_KNOBS:
            if knob in given:
                raise RecordError(f"option {knob!r} has no effect with game_end "
                                  "'single_hand' (one hand, no game): leave it out")
    if rules.hollywood and (rules.game_end != "target" or rules.immediate_boxes):
        raise RecordError("option 'hollywood' requires game_end 'target' and "
                          "immediate_boxes false")


def openspiel_profile(oklahoma: bool = False) -> GinRules:
    """The rules that reproduce OpenSpiel's ``gin_rummy`` (RULES.md §6.14.1)."""
    if oklahoma:
        return gin_rules_from_options(
            "oklahoma", {**OPENSPIEL_OPTIONS, "oklahoma_spade_double": False})
    return gin_rules_from_options("gin", OPENSPIEL_OPTIONS)


#: OpenSpiel's name of the game the profile reproduces (its game and its module in pyspiel)
OPENSPIEL_GAME = "gin_rummy"


def openspiel_parameters(oklahoma: bool = False) -> dict[str, Any]:
    """OpenSpiel's ``gin_rummy`` parameters matching :func:`openspiel_profile`."""
    return {"oklahoma": oklahoma, "knock_card": 10, "gin_bonus": 25, "undercut_bonus": 25}
