"""Rules: every knob of RULES.md §5 in one frozen value, with presets and validation.

A variant is a value, not a subclass:

>>> import dataclasses
>>> high = dataclasses.replace(BASIC, ace_mode="high_or_low")
>>> high.ace_value, BASIC.ace_value
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
from typing import Any

from rummykit.core.errors import RecordError

PRESET_NAMES = ("basic", "traditional", "contract")
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

    name: str = "basic"
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
        if self.name == "contract" or self.ace_mode == "high_or_low":
            return 15
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
        """The preset ``name`` with the JSON-form knob overrides of RULES.md §5.1."""
        from rummykit.core.rule_options import apply_options

        return apply_options(find_rules(name), options or {})


BASIC = Rules()

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

CONTRACT = Rules(
    name="contract",
    player_range=(3, 8),
    hand_size=(),
    deal_hand_sizes=(10, 10, 10, 10, 12, 12, 12),
    deck_config="bicycle",
    ace_mode="high_or_low",
    going_rummy_multiplier=1,
    scoring="penalty",
    game_end="fixed_hands",
    num_hands=7,
    first_dealer="low_card",
    contract_schedule=((2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3)),
    discard_dig=True,
    joker_swap=True,
    final_deal_rule="all_at_once_no_discard",
    blocked_deal="score_hands",
)

PRESETS: dict[str, Rules] = {"basic": BASIC, "traditional": TRADITIONAL, "contract": CONTRACT}


def find_rules(name: str) -> Rules:
    """The preset called ``name`` (``basic``, ``traditional`` or ``contract``)."""
    try:
        return PRESETS[name]
    except KeyError:
        raise RecordError(
            f"unknown rule set {name!r}: expected one of {', '.join(PRESET_NAMES)}"
        ) from None

