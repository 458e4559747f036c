"""What a rule family is: the one object each family registers, and what faces ask it.

A family (``rummy`` for basic and traditional, ``contract``, ``gin``) is a :class:`Variant`:
its presets, how a hand of it is dealt and played (its hand class, with the hand protocol
:class:`Hand`), how its moves are parsed, and the words and facts a face shows. The engine
and the faces look a family up in :mod:`rummykit.variants.registry` by the rules' name and
call these hooks; they never test which family it is.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from rummykit.core.cards import Card
from rummykit.core.moves import Move
from rummykit.core.outcome import HandResult


@dataclass(frozen=True, slots=True)
class Terms:
    """The words a face uses for one rule set's game."""

    hand: str  # one deal: "hand" or "deal"
    hands: str  # its plural
    score: str  # what a total means: "points" or "penalty points"
    lowest_wins: bool  # the lowest total wins the match
    match: str = "match"  # the whole: "match" or "game"


@dataclass(frozen=True, slots=True)
class Fact:
    """One fact of the deal in play that a face shows: ("Contract", "2 sets")."""

    label: str
    value: str


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """An option a face offers when a game is set up (one knob of the rules)."""

    knob: str
    label: str
    kind: str  # "bool", "int" or "choice"
    default: Any
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""


class Hand(Protocol):
    """One hand (deal) of any family: the state machine the match, bots and faces drive."""

    num_players: int
    dealer: int
    deal_index: int
    to_move: int
    phase: str
    result: HandResult | None

    @property
    def is_over(self) -> bool: ...

    def legal_moves(self) -> list[Move]: ...

    def iter_legal_moves(self) -> Iterator[Move]: ...

    def is_legal(self, move: Move) -> bool: ...

    def play(self, move: Move | str) -> Move: ...

    def push(self, move: Move) -> None: ...

    def pop(self) -> None: ...

    def copy(self) -> Hand: ...


class Variant(Protocol):
    """A rule family: registered once, asked by the engine and every face."""

    name: str  # the family, e.g. "contract"
    rule_sets: tuple[str, ...]  # the preset names it owns, e.g. ("contract",)

    def preset(self, rule_set: str) -> Any:
        """The rules value of one of :attr:`rule_sets`."""
        ...

    def rules_from_options(self, rule_set: str, options: Mapping[str, Any]) -> Any:
        """The preset with JSON-form knob overrides, validated (RULES.md §5.1, §6.13.1)."""
        ...

    def deal(self, rules: Any, num_players: int, dealer: int, deck: Sequence[Card], *,
             rng: random.Random | None, deal_index: int,
             restocks: Sequence[Sequence[Card]] | None = None) -> Hand:
        """A hand dealt from a shuffled pack, as the family deals."""
        ...

    def parse_move(self, text: str) -> Move:
        """One move in the family's notation (FORMATS.md), or a NotationError."""
        ...

    def terms(self, rules: Any) -> Terms:
        """The words for this rule set's hands, scores and winner."""
        ...

    def deal_facts(self, rules: Any, num_players: int, deal_index: int) -> tuple[Fact, ...]:
        """What a face shows about deal ``deal_index`` (its contract, the target ...)."""
        ...

    def help_text(self, rules: Any) -> str:
        """The rules of this rule set for players, as plain text."""
        ...

    def options(self, rules: Any) -> tuple[OptionSpec, ...]:
        """The options a face offers for this rule set."""
        ...
