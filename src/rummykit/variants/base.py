"""What a rule family is: the one object each family registers, and what faces ask it.

A family (``rummy`` for basic and traditional, ``contract``, ``gin``) is a :class:`Variant`:
its presets, how a hand of it is dealt and played (its hand class, with the hand protocol
:class:`Hand`), how a match of it is scored (:class:`MatchScorer`), how its moves are
parsed, and the words and facts a face shows. The engine and the faces look a family up
in :mod:`rummykit.variants.registry` by the rules' name and call these hooks; they never
test which family it is.

A new family implements every member of :class:`Variant` in ``variants/<family>/variant.py``
and registers one instance in its package's ``__init__`` (``registry.register``);
``rummykit.variants`` imports the package. The members, by job:

- **rules**: ``name``, ``rule_sets`` (its preset names), ``preset``, ``knobs`` (the knobs
  that apply, RULES.md §5.1) and ``rules_from_options`` (the preset with JSON-form
  overrides, checked by the core's common validation and then the family's own);
- **play**: ``check_supported`` (refuse a rule set and player count it cannot deal),
  ``deal`` (from a shuffled pack) and ``from_deal`` (from given hands, upcard and stock),
  both returning a :class:`Hand` whose first draw step has begun; ``parse_move``;
- **match**: ``match_scorer`` (a fresh :class:`MatchScorer`: totals, end of match, winners,
  the dealer of each hand);
- **seats**: ``view`` (what one seat sees: the only way hidden cards leave a hand);
- **records**: ``hand_json`` (a hand's object in the replay output), ``rebuilds_stock``;
- **words**: ``knob_reference``, ``terms``, ``deal_facts``, ``help_text``, ``options``.

A family on the engine's ``HandState`` whose hands keep state of their own (contract: who
is down, the turn's duties) gives it to every seat's view as one immutable, hashable value
of its own type (``HandState.family_view``, the view's ``family`` field) and answers the
faces' questions about it with :class:`TableHooks` (the shared defaults in
:mod:`rummykit.variants.common` answer for a family without one).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from rummykit.core.cards import Card
from rummykit.core.outcome import HandResult

if TYPE_CHECKING:
    from rummykit.core.views import PlayerView

R = TypeVar("R")
S = TypeVar("S")

#: a deal as given: one card list per seat, the upcard, the stock top first
Deal = tuple[Sequence[Sequence[Card]], Card, Sequence[Card]]


@dataclass(frozen=True, slots=True)
class Terms:
    """The words a face uses for one rule set's game."""

    hand: str  # one deal: "hand" or "deal"
    hands: str  # its plural
    score: str  # what a hand's score is called: "points" or "penalty points"
    lowest_wins: bool  # the lowest total wins the match
    match: str = "match"  # the whole: "match" or "game"
    title: str = ""  # the game's name for people: "Basic Rummy", "Contract Rummy"
    down: str = ""  # what a seat that has laid its contract is ("down"); "" where none is
    meld_owners: bool = True  # faces show who placed each table card (RULES.md §3.1: not
    # in traditional, where melds belong to nobody)


@dataclass(frozen=True, slots=True)
class Fact:
    """One fact of the deal in play that a face shows: ("Contract", "2 sets")."""

    label: str
    value: str


@dataclass(frozen=True, slots=True)
class Duty:
    """Something the seat to move must still do this turn before it may discard."""

    brief: str  # a clause: "place the card you dug"
    sentence: str  # the full instruction, with the card: "You must place H7 this turn ..."


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """An option a face offers when a game is set up: one knob of the rules, or (kind
    ``preset``) a named choice that sets several knobs at once.

    A ``preset``'s ``knob`` names the control only; ``sets[i]`` is what ``choices[i]``
    puts in ``options`` (empty for the rule set's own values, the ``default``)."""

    knob: str
    label: str
    kind: str  # "bool", "int", "choice" or "preset"
    default: Any
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""
    sets: tuple[Mapping[str, Any], ...] = ()

    def chosen(self, choice: Any) -> dict[str, Any]:
        """The ``options`` a ``preset``'s ``choice`` sets; ValueError for one it does not
        offer."""
        if choice not in self.choices:
            offered = ", ".join(repr(c) for c in self.choices)
            raise ValueError(f"{self.label}: {choice!r}: expected one of {offered}")
        return dict(self.sets[self.choices.index(choice)])

    def named(self, value: Any) -> Any:
        """The choice ``value`` names: the choice itself or its first word (``3`` or
        ``"3"`` names ``"3 (from 2 sets + 1 run)"``); ValueError quoting ``value`` and the
        names offered when it names none."""
        for choice in self.choices:
            if value == choice or str(value).strip() == str(choice).split(" ", 1)[0]:
                return choice
        offered = ", ".join(str(c).split(" ", 1)[0] for c in self.choices)
        raise ValueError(f"{self.knob}={value!r}: expected one of {offered} "
                         f"({'; '.join(str(c) for c in self.choices)})")


def with_presets(specs: Sequence[OptionSpec], options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` with each ``preset`` choice given under its knob (``deals=3``) replaced
    by the knobs it sets; a knob given beside it wins (and is validated with the rest)."""
    expanded: dict[str, Any] = {}
    rest = dict(options)
    for spec in specs:
        if spec.kind == "preset" and spec.knob in rest:
            expanded.update(spec.chosen(spec.named(rest.pop(spec.knob))))
    expanded.update(rest)
    return expanded


class RulesLike(Protocol):
    """What the core (match, records) needs of any family's rules value: its rule-set name,
    the overrides it was built from, who deals first, the pack and the deal size, the
    player-count check, and whether a drawn match counts as lost. Core ``Rules`` and a
    family's own rules type (gin's ``GinRules``) both have it."""

    @property
    def name(self) -> str: ...

    @property
    def options(self) -> dict[str, Any]: ...

    @property
    def first_dealer(self) -> str: ...

    @property
    def draw_counts_as_loss(self) -> bool: ...

    def pack_spec(self, players: int) -> tuple[int, int]: ...

    def hand_size_for(self, players: int, deal: int = 0) -> int: ...

    def check_players(self, players: int) -> None: ...


class Hand(Protocol):
    """One hand (deal) of any family: the state machine the match, bots and faces drive.

    Moves are the family's own values (core ``Move`` or, say, gin's knock); the core
    handles them only as values with a canonical ``str()`` (FORMATS.md), so they are typed
    ``Any`` here."""

    @property
    def rules(self) -> RulesLike: ...

    @property
    def num_players(self) -> int: ...

    @property
    def dealer(self) -> int: ...

    @property
    def deal_index(self) -> int: ...

    @property
    def to_move(self) -> int: ...

    @property
    def phase(self) -> str: ...

    @property
    def result(self) -> HandResult | None: ...

    @property
    def restocks(self) -> list[tuple[Card, ...]]: ...

    @property
    def is_over(self) -> bool: ...

    def legal_moves(self) -> Sequence[Any]: ...

    def iter_legal_moves(self) -> Iterator[Any]: ...

    def is_legal(self, move: Any) -> bool: ...

    def play(self, move: Any) -> Any: ...

    def push(self, move: Any) -> None: ...

    def pop(self) -> None: ...

    def copy(self) -> Hand: ...


class MatchScorer(Protocol):
    """A match's running score, kept by :class:`~rummykit.core.match.Match` for one family.

    The match calls :meth:`after_hand` once per finished hand, in order, and reads
    ``totals``, ``over`` and ``winners`` (empty when the match ended drawn). ``dealer_of``
    gives the dealer of hand ``hand_index`` from the first dealer and the results so far
    (a family that deals by rotation ignores the results; one where the hand's winner deals
    next reads them). ``copy`` is independent of the original.
    """

    @property
    def totals(self) -> list[int]: ...

    @property
    def over(self) -> bool: ...

    @property
    def winners(self) -> tuple[int, ...]: ...

    @property
    def lowest_wins(self) -> bool: ...

    def after_hand(self, result: HandResult, hands_played: int) -> None: ...

    def dealer_of(self, first_dealer: int, hand_index: int,
                  results: Sequence[HandResult | None]) -> int: ...

    @property
    def settled_totals(self) -> list[int]:
        """The totals a finished match is recorded with (a gin game's settlement adds
        its bonuses); the running totals where nothing is settled."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The match-level fields of the replay output (FORMATS.md §3: ``totals``,
        ``over``, ``winners``, and any the family adds, §4.3)."""
        ...

    def copy(self) -> MatchScorer: ...


class Variant(Protocol[R, S]):
    """A rule family: registered once, asked by the engine and every face.

    Generic in the family's rules type ``R`` (core ``Rules``, or its own with
    :class:`RulesLike`) and its hand type ``S`` (with :class:`Hand`)."""

    @property
    def name(self) -> str:
        """The family, e.g. ``contract``."""
        ...

    @property
    def rule_sets(self) -> tuple[str, ...]:
        """The preset names it owns, e.g. ``("contract",)``."""
        ...

    def preset(self, rule_set: str) -> R:
        """The rules value of one of :attr:`rule_sets`."""
        ...

    def knobs(self, rule_set: str) -> frozenset[str]:
        """The knobs that apply to ``rule_set`` (RULES.md §5.1)."""
        ...

    def rules_from_options(self, rule_set: str, options: Mapping[str, Any]) -> R:
        """The preset with JSON-form knob overrides, validated (RULES.md §5.1, §6.13.1)."""
        ...

    def check_supported(self, rules: R, num_players: int) -> None:
        """Raise a RecordError when ``rules`` cannot be played by ``num_players``."""
        ...

    def deal(self, rules: R, num_players: int, dealer: int, deck: Sequence[Card], *,
             rng: random.Random | None, deal_index: int,
             restocks: Sequence[Sequence[Card]] | None = None) -> S:
        """A hand dealt from a shuffled pack, as the family deals (its hand type, which
        has the :class:`Hand` protocol)."""
        ...

    def from_deal(self, rules: R, dealer: int, deal: Deal, *,
                  rng: random.Random | None, deal_index: int,
                  restocks: Sequence[Sequence[Card]] | None = None) -> S:
        """A hand dealt as given (hands, upcard, stock top first)."""
        ...

    def match_scorer(self, rules: R, num_players: int) -> MatchScorer:
        """A fresh score sheet for a match of ``rules``."""
        ...

    def parse_move(self, text: str) -> Any:
        """One move in the family's notation (FORMATS.md), or a NotationError."""
        ...

    def terms(self, rules: R) -> Terms:
        """The words for this rule set's hands, scores and winner."""
        ...

    def deal_facts(self, rules: R, num_players: int, deal_index: int) -> tuple[Fact, ...]:
        """What a face shows about deal ``deal_index`` (its contract, the target ...)."""
        ...

    def help_text(self, rules: R) -> str:
        """The rules of this rule set for players, as plain text."""
        ...

    def knob_reference(self) -> str:
        """Markdown for the documentation's knob page: the family's knobs that the core's
        reference (:mod:`rummykit.core.knobs`, the knobs of core ``Rules``) does not
        cover; empty when it covers them all."""
        ...

    def options(self, rules: R) -> tuple[OptionSpec, ...]:
        """The options a face offers for this rule set."""
        ...

    def view(self, state: S, seat: int) -> Any:
        """What ``seat`` may see of ``state`` (the family's view; hidden cards stay in)."""
        ...

    def hand_json(self, state: S) -> dict[str, Any]:
        """The hand's object in the replay output, finished or not (FORMATS.md §3, §4.3)."""
        ...

    @property
    def rebuilds_stock(self) -> bool:
        """False for a family that never rebuilds a stock: its records hold no
        ``restocks`` (FORMATS.md §4.2)."""
        ...


class TableHooks(Protocol):
    """What faces ask a family on the engine's ``HandState`` beyond :class:`Variant`: about
    the family's part of a seat's view (``PlayerView.family``) and a deal's meld quota.
    :func:`rummykit.variants.table_hooks.table_hooks` finds them; "down" is
    :attr:`Terms.down`, and a face shows it only where that word is set."""

    def seats_down(self, seen: PlayerView) -> int:
        """The bit set of the seats that are down (0 where no seat ever is)."""
        ...

    def went_down(self, seen: PlayerView) -> bool:
        """Whether the seat to move went down this turn."""
        ...

    def duties(self, seen: PlayerView) -> tuple[Duty, ...]:
        """What the seat to move must still do this turn before it may discard."""
        ...

    def part_json(self, seen: PlayerView) -> dict[str, Any]:
        """The part's fields of the agent protocol's view (docs/agents.md); ``{}`` where
        none (the protocol sends its documented defaults)."""
        ...

    def part_text(self, seen: PlayerView) -> str:
        """The part as words of a one-line observation; ``""`` where none."""
        ...

    def meld_quota(self, rules: Any, deal_index: int) -> tuple[int, int] | None:
        """The sets and runs a seat must meld at once to go down in deal ``deal_index``
        (the server wire's numbers of the deal's fact), or None where there are none."""
        ...


# -- research encodings (read by rummykit.rl; optional) -------------------------------
# A family may give ``variants/<family>/encoding.py`` with an ``ENCODING`` object: one of
# the two protocols below (its ``kind`` says which). rummykit.rl finds it from the
# family's package (``rummykit.rl.encodings``); a family without one is a plain table
# family on the engine's HandState. Encodings use only the standard library.


class TableEncoding(Protocol):
    """A family on the engine's ``HandState`` (``kind = "table"``): the observation parts
    it adds to the table's, their bounds, and the limits it puts on the compact action
    space (``rummykit.rl.compact``)."""

    kind: str

    def card_parts(self, rules: Any) -> tuple[str, ...]: ...

    def card_values(self, seen: Any) -> tuple[int, ...]: ...

    def scalar_parts(self, rules: Any, players: int) -> tuple[tuple[str, int], ...]: ...

    def scalar_values(self, seen: Any) -> tuple[int, ...]: ...

    def bounds(self, rules: Any, players: int) -> dict[str, float]: ...

    def meld_numbers(self, rules: Any, players: int, by_cards: int
                     ) -> tuple[int, set[int]] | None: ...

    def group_fits(self, rules: Any, players: int, size: int, is_set: bool, held: int,
                   room: int) -> bool | None: ...


class OwnEncoding(Protocol):
    """A family with its own hand that encodes itself (``kind = "own"``): its action ids,
    the step-by-step choice of a move from a seat's view (``choice(view)`` with
    ``legal_ids()``, ``choose(id)`` -> the move or None, ``checked``), the ids of a move,
    and the observation's rows: card planes (bit sets of the 52 cards) then scalars, each
    part named with its meaning and bounded (``bounds``, ``inf`` where none)."""

    kind: str
    num_actions: int
    planes: tuple[tuple[str, int, str], ...]
    scalars: tuple[tuple[str, int, str], ...]
    default_opponent: str

    @property
    def anchors(self) -> Mapping[str, str]:
        """Other libraries' environments of the same game, by library (for benchmarks)."""
        ...

    def describe(self, action: int) -> str: ...

    def choice(self, seen: Any) -> Any: ...

    def private(self, choice: Any, action: int) -> bool: ...

    def resample(self, seen: Any, rng: random.Random) -> Any: ...

    def actions(self, move: Any, seen: Any) -> list[int]: ...

    def bounds(self, rules: Any, whole_match: bool) -> dict[str, float | list[float]]: ...

    def rows(self, seen: Any, choice: Any, totals: Sequence[int]
             ) -> tuple[list[int], Sequence[float]]: ...
