"""Rules: every knob of RULES.md §5 in one frozen value, and the presets by name.

A rule set is a value, not a subclass. The presets belong to the rule families
(:mod:`rummykit.variants`), which publish them here when they register
(:func:`publish`), so :func:`find_rules` and :meth:`Rules.from_options` know every
registered rule set without this module knowing any:

>>> import dataclasses
>>> basic = find_rules("basic")
>>> high = dataclasses.replace(basic, ace_mode="high_or_low")
>>> high.ace_value, basic.ace_value
(15, 1)
>>> find_rules("traditional").target_for(3)
150
>>> Rules.from_options("basic", {"ace_mode": "up"})
Traceback (most recent call last):
...
rummykit.core.errors.RecordError: option 'ace_mode': expected one of 'low', 'high_or_low', got 'up'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from rummykit.core.errors import RecordError

ACE_MODES = ("low", "high_or_low")
STOCK_REBUILDS = ("shuffle_keep_top", "shuffle_all", "turn_over_all")
SCORINGS = ("winner_collects", "penalty")
GAME_ENDS = ("target", "fixed_hands")
FIRST_DEALERS = ("random", "low_card")
DECK_CONFIGS = ("single", "bicycle", "pagat", "seed")
BLOCKED_DEALS = ("score_hands", "none")
#: the engine safety valve of every preset (RULES.md §1.10)
DEFAULT_MAX_TURNS = 1000
#: a contract schedule holds 1 to this many deals (RULES.md §5.1)
MAX_CONTRACT_DEALS = 7
FINAL_DEAL_RULES = ("none", "all_at_once_no_discard", "all_at_once_discard_ok")

PlayerMap = tuple[tuple[int, int], ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class Rules:
    """One rule set: a preset name plus the value of every knob (RULES.md §5)."""

    name: str  # the preset it was made from (a registered rule set)
    player_range: tuple[int, int] = (2, 6)
    hand_size: PlayerMap = ((2, 10), (3, 7), (4, 7), (5, 6), (6, 6))
    deal_hand_sizes: tuple[int, ...] = ()
    deck_config: str = "single"
    ace_mode: str = "low"
    ace_points: int | None = None
    joker_points: int = 15
    run_min_length: int = 3
    max_melds_per_turn: int | None = None
    must_discard_to_go_out: bool = False
    going_rummy_multiplier: int = 2
    stock_rebuild: str = "shuffle_keep_top"
    max_rebuilds: int | None = None
    scoring: str = "winner_collects"
    game_end: str = "target"
    target_score: int | PlayerMap = 150
    num_hands: int = 10
    first_dealer: str = "random"
    deadlock_draw: bool = False
    draw_counts_as_loss: bool = False
    draw_ends_match: bool = False
    contract_schedule: tuple[tuple[int, int], ...] = ()
    contract_runs_distinct_suits: bool = True
    extra_melds_after_contract: bool = False
    discard_dig: bool = False
    joker_swap: bool = False
    final_deal_rule: str = "none"
    blocked_deal: str = "none"
    max_turns_per_hand: int | None = DEFAULT_MAX_TURNS
    _options: tuple[tuple[str, Any], ...] = field(default=(), compare=False, repr=False)

    # -- derived values -------------------------------------------------------------
    @property
    def ace_value(self) -> int:
        """Points of an ace (RULES.md §1.11, §5.1)."""
        if self.ace_points is not None:
            return self.ace_points
        if self.deck_config != "single" or self.ace_mode == "high_or_low":
            return 15  # a pack with jokers counts aces high
        return 1

    @property
    def ace_high(self) -> bool:
        """True when an ace may also stand above the king in a run."""
        return self.ace_mode == "high_or_low"

    def pack_spec(self, players: int) -> tuple[int, int]:
        """(decks, jokers) of the pack for this many players."""
        if self.deck_config == "single":
            return (1, 0)
        if self.deck_config == "pagat":
            return (2, players - 1)
        if self.deck_config == "seed":
            return (2, 1) if players <= 5 else (2, 2)
        return (2, 1) if players <= 4 else (3, 2)

    def hand_size_for(self, players: int, deal: int = 0) -> int:
        """Cards dealt to each player in deal number ``deal`` (0-based)."""
        if self.deal_hand_sizes:
            return self.deal_hand_sizes[deal % len(self.deal_hand_sizes)]
        return dict(self.hand_size)[players]

    def target_for(self, players: int) -> int:
        """The target score for this many players."""
        if isinstance(self.target_score, int):
            return self.target_score
        return dict(self.target_score)[players]

    @property
    def options(self) -> dict[str, Any]:
        """The knob overrides this value was built from (JSON form), for records."""
        return dict(self._options)

    def check_players(self, players: int) -> None:
        """Refuse a player count the rules cannot seat (RULES.md §2.5.23, §3.5.1, §5.1)."""
        low, high = self.player_range
        if not low <= players <= high:
            noun = "player" if players == 1 else "players"
            raise RecordError(f"{players} {noun}: {self.name} is for {low} to {high} players")
        if not self.deal_hand_sizes and players not in dict(self.hand_size):
            raise RecordError(f"{players} players: option 'hand_size' gives no size for them")
        if self.deck_config == "pagat" and not 3 <= players <= 5:
            raise RecordError(f"{players} players: deck_config 'pagat' is for 3 to 5 players")
        decks, jokers = self.pack_spec(players)
        sizes = self.deal_hand_sizes or (self.hand_size_for(players),)
        if decks * 52 + jokers < players * max(sizes) + 2:
            raise RecordError(
                f"{players} players: a pack of {decks * 52 + jokers} cards cannot deal "
                f"{max(sizes)} cards each plus an upcard and a stock"
            )

    @classmethod
    def from_options(cls, name: str, options: Mapping[str, Any] | None = None) -> Rules:
        """The preset ``name`` with the JSON-form knob overrides of RULES.md §5.1, checked by
        the family that owns it."""
        return _source(name).rules_from_options(name, options or {})


class RulesSource(Protocol):
    """What a rule family publishes here: its presets and its option validation."""

    def preset(self, rule_set: str) -> Rules: ...

    def rules_from_options(self, rule_set: str, options: Mapping[str, Any]) -> Rules: ...

    def knobs(self, rule_set: str) -> frozenset[str]:
        """The knobs that apply to ``rule_set`` (RULES.md §5.1)."""
        ...


#: every published preset by name, in registration order (filled by :func:`publish`)
PRESETS: dict[str, Rules] = {}
_SOURCES: dict[str, RulesSource] = {}


#: rule sets of families with their own rules type (not ``Rules``): name -> that type's name
OWN_RULES: dict[str, str] = {}


def publish(rule_set: str, source: RulesSource) -> None:
    """Make a registered family's preset ``rule_set`` known by name (the registry calls it).

    A family whose rules are its own type (not :class:`Rules`) is only noted: looking its
    rule sets up here is refused with a message saying so (ask the registry instead)."""
    preset = source.preset(rule_set)
    if not isinstance(preset, Rules):
        OWN_RULES[rule_set] = type(preset).__name__
        return
    _SOURCES[rule_set] = source
    PRESETS[rule_set] = preset


def preset_names() -> tuple[str, ...]:
    """Every published rule-set name, in registration order."""
    return tuple(PRESETS)


def _source(name: str) -> RulesSource:
    try:
        return _SOURCES[name]
    except KeyError:
        if name in OWN_RULES:
            raise RecordError(
                f"rule set {name!r}: its rules are {OWN_RULES[name]}, not the draw-and-discard "
                "engine's Rules; this part of rummykit does not play it yet") from None
        raise RecordError(
            f"unknown rule set {name!r}: expected one of {', '.join(PRESETS)}"
        ) from None


def applicable_knobs(name: str) -> frozenset[str]:
    """The knobs that apply to the rule set ``name``."""
    return _source(name).knobs(name)


def find_rules(name: str) -> Rules:
    """The preset called ``name`` (any registered rule set, e.g. ``basic``)."""
    _source(name)
    return PRESETS[name]
