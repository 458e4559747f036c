"""Game records (FORMATS.md §2): a typed :class:`Record`, its JSON form, and replay (§3).

>>> from rummykit.core.cards import standard_pack
>>> from rummykit.core.rules import find_rules
>>> match = Match(find_rules("basic"), ["Ann", "Bob"], dealer=0)
>>> _ = match.start_hand(standard_pack())  # Bob gets CA C3 .. D6, the upcard is D8
>>> for text in ["draw", "discard d9"]:
...     _ = match.play(text)
>>> record = loads(dumps(record_of(match)))
>>> record.players, record.dealer, record.hands[0].moves
(('Ann', 'Bob'), 0, ('draw', 'discard D9'))
>>> replay(record).to_json()["hands"]
[{'result': 'unfinished', 'winner': None, 'rummy': False, 'reason': None, 'scores': [0, 0]}]
>>> error = replay_text('{"format": "rummykit/1", "rules": "basic", "players": []}').error
>>> error.type, error.hand, error.message
('record', None, "the record: missing key 'hands'")
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, TypeVar

from rummykit.core.cards import Card, format_card, parse_card
from rummykit.core.deal_checks import pack_problem
from rummykit.core.errors import RecordError, RummyError
from rummykit.core.match import FamilyMatch, Match
from rummykit.core.rules import Rules, find_rules
from rummykit.variants.base import RulesLike
from rummykit.variants.registry import variant_for, variant_of

__all__ = [
    "FORMAT", "Account", "Deal", "HandRecord", "HandReplay", "Record", "Replay",
    "ReplayError", "dump", "dumps", "from_json", "load", "loads", "match_result", "options_of",
    "record_of", "register_account", "replay", "replay_file", "replay_text", "to_json",
]

FORMAT = "rummykit/1"
_T = TypeVar("_T")
Json = Any  # a value decoded by the json module


#: a family's readable account of a replay (and of the error it stopped at, if any)
Account = Callable[["Replay", "ReplayError | None"], str]
_ACCOUNTS: dict[str, Account] = {}


def register_account(rule_sets: Iterable[str], account: Account) -> None:
    """Let a family write the readable account of its rule sets' replays itself (the
    replay, the JSON output and the check are the same hooks for every family)."""
    for name in rule_sets:
        _ACCOUNTS[name] = account


def _rebuilds_stock(rule_set: str) -> bool:
    """Whether records of ``rule_set`` may hold ``restocks`` (an unknown one: as the core)."""
    try:
        return bool(variant_for(rule_set).rebuilds_stock)
    except RecordError:
        return True


@dataclass(frozen=True, slots=True)
class Deal:
    """A hand given card by card: one list per seat, the upcard and the stock, top first."""

    hands: tuple[tuple[Card, ...], ...]
    upcard: Card
    stock: tuple[Card, ...]

    @property
    def cards(self) -> list[Card]:
        """Every card of the deal (to compare with the pack)."""
        return [c for hand in self.hands for c in hand] + [self.upcard, *self.stock]


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand of a record: exactly one of ``deck`` and ``deal``, rebuilds and moves."""

    deck: tuple[Card, ...] | None = None
    deal: Deal | None = None
    restocks: tuple[tuple[Card, ...], ...] = ()
    moves: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Record:
    """A whole match as FORMATS.md §2 writes it; ``result`` is the writer's §3 output."""

    rules: str
    players: tuple[str, ...]
    hands: tuple[HandRecord, ...] = ()
    options: dict[str, Json] = field(default_factory=dict)
    dealer: int | None = None
    seed: int | None = None
    result: dict[str, Json] | None = None
    format: str = FORMAT


# -- reading --------------------------------------------------------------------------

def _show(value: Json) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def _fail(path: str, expected: str, value: Json) -> RecordError:
    return RecordError(f"{path}: expected {expected}, got {_show(value)}")


def _object(path: str, value: Json, required: tuple[str, ...],
            optional: tuple[str, ...]) -> dict[str, Json]:
    if not isinstance(value, dict):
        raise _fail(path, "an object", value)
    for key in value:
        if key not in required and key not in optional:
            raise RecordError(f"{path}: unknown key {key!r}")
    for key in required:
        if key not in value:
            raise RecordError(f"{path}: missing key {key!r}")
    return value


def _int(path: str, value: Json, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise _fail(path, f"an integer >= {low}", value)
    return value


def _list(path: str, value: Json, what: str) -> list[Json]:
    if not isinstance(value, list):
        raise _fail(path, f"a list of {what}", value)
    return value


def _card(path: str, value: Json) -> Card:
    if not isinstance(value, str):
        raise _fail(path, "a card like \"H8\"", value)
    try:
        return parse_card(value)
    except RummyError as exc:
        raise RecordError(f"{path}: {exc}") from None


def _cards(path: str, value: Json) -> tuple[Card, ...]:
    return tuple(_card(f"{path}[{i}]", v) for i, v in enumerate(_list(path, value, "cards")))


def _deal(path: str, value: Json) -> Deal:
    data = _object(path, value, ("hands", "upcard", "stock"), ())
    hands = _list(f"{path}.hands", data["hands"], "card lists")
    return Deal(tuple(_cards(f"{path}.hands[{i}]", h) for i, h in enumerate(hands)),
                _card(f"{path}.upcard", data["upcard"]), _cards(f"{path}.stock", data["stock"]))


def _hand(path: str, value: Json) -> HandRecord:
    data = _object(path, value, ("moves",), ("deck", "deal", "restocks"))
    if ("deck" in data) == ("deal" in data):
        raise RecordError(f"{path}: expected exactly one of 'deck' and 'deal'")
    moves = _list(f"{path}.moves", data["moves"], "moves")
    for i, move in enumerate(moves):
        if not isinstance(move, str):
            raise _fail(f"{path}.moves[{i}]", "a move like \"draw\"", move)
    restocks = data.get("restocks")
    restocks = _list(f"{path}.restocks", [] if restocks is None else restocks, "card lists")
    return HandRecord(
        deck=_cards(f"{path}.deck", data["deck"]) if "deck" in data else None,
        deal=_deal(f"{path}.deal", data["deal"]) if "deal" in data else None,
        restocks=tuple(_cards(f"{path}.restocks[{i}]", r) for i, r in enumerate(restocks)),
        moves=tuple(moves),
    )


def from_json(data: Json) -> Record:
    """The :class:`Record` of a decoded JSON value; :class:`RecordError` quotes what is bad.

    An optional key (``options``, ``dealer``, ``seed``, ``result``, ``restocks``) that is
    ``null`` counts as left out; unknown keys are errors.
    """
    top = _object("the record", data, ("format", "rules", "players", "hands"),
                  ("options", "dealer", "seed", "result"))
    if top["format"] != FORMAT:
        raise _fail("format", repr(FORMAT), top["format"])
    if not isinstance(top["rules"], str):
        raise _fail("rules", "a rule set name", top["rules"])
    if not _rebuilds_stock(top["rules"]) and isinstance(top["hands"], list):
        for index, hand in enumerate(top["hands"]):
            if isinstance(hand, dict) and "restocks" in hand:
                raise RecordError(f"hands[{index}]: unknown key 'restocks' ({top['rules']} "
                                  "never rebuilds a stock)")
    players = _list("players", top["players"], "player names")
    for i, name in enumerate(players):
        if not isinstance(name, str):
            raise _fail(f"players[{i}]", "a name", name)
    options = {} if top.get("options") is None else top["options"]
    if not isinstance(options, dict):
        raise _fail("options", "an object of knob names", options)
    result = top.get("result")
    if result is not None and not isinstance(result, dict):
        raise _fail("result", "an object", result)
    hands = _list("hands", top["hands"], "hands")
    return Record(
        rules=top["rules"], players=tuple(players),
        hands=tuple(_hand(f"hands[{i}]", h) for i, h in enumerate(hands)),
        options=dict(options),
        dealer=None if top.get("dealer") is None else _int("dealer", top["dealer"]),
        seed=None if top.get("seed") is None else _int("seed", top["seed"]),
        result=result,
    )


def loads(text: str) -> Record:
    """Parse a record from JSON text."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError, ValueError) as exc:
        raise RecordError(f"bad JSON: {str(exc)[:200]}") from None
    return from_json(data)


def load(path: str | Path) -> Record:
    """Read a record file (UTF-8)."""
    try:
        text = Path(path).read_bytes().decode("utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read {str(path)!r}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise RecordError(f"{str(path)!r} is not UTF-8: {exc}") from None
    return loads(text)


# -- writing --------------------------------------------------------------------------

def _texts(cards: tuple[Card, ...]) -> list[str]:
    return [format_card(c) for c in cards]


def to_json(record: Record) -> dict[str, Json]:
    """The JSON value of a record (keys in the order of FORMATS.md §2)."""
    hands = []
    restocks = _rebuilds_stock(record.rules)
    for hand in record.hands:
        item: dict[str, Json] = {}
        if hand.deck is not None:
            item["deck"] = _texts(hand.deck)
        if hand.deal is not None:
            item["deal"] = {"hands": [_texts(h) for h in hand.deal.hands],
                            "upcard": format_card(hand.deal.upcard),
                            "stock": _texts(hand.deal.stock)}
        if restocks:
            item["restocks"] = [_texts(r) for r in hand.restocks]
        item["moves"] = list(hand.moves)
        hands.append(item)
    data: dict[str, Json] = {"format": record.format, "rules": record.rules,
                             "options": record.options, "players": list(record.players)}
    if record.dealer is not None:
        data["dealer"] = record.dealer
    if record.seed is not None:
        data["seed"] = record.seed
    data["hands"] = hands
    if record.result is not None:
        data["result"] = record.result
    return data


def _pretty(value: Json, indent: int) -> str:
    """JSON with nested objects on their own lines and scalar lists filled to ~96 columns."""
    flat = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, (dict, list)) or indent + len(flat) <= 96:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {_pretty(v, indent + 2)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    if any(isinstance(v, (dict, list)) for v in value):
        items = [pad + _pretty(v, indent + 2) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"
    lines, line = [], ""
    for v in value:
        word = json.dumps(v, ensure_ascii=False) + ","
        if line and len(pad) + len(line) + len(word) > 96:
            lines.append(line)
            line = ""
        line = f"{line} {word}" if line else word
    lines.append(line[:-1])
    return "[\n" + "\n".join(pad + ln for ln in lines) + "\n" + " " * indent + "]"


def dumps(record: Record) -> str:
    """The record as JSON text (UTF-8 safe, ends with a newline)."""
    return _pretty(to_json(record), 0) + "\n"


def dump(record: Record, path: str | Path) -> None:
    """Write a record file."""
    Path(path).write_text(dumps(record), encoding="utf-8")


def match_result(match: FamilyMatch[Any, Any]) -> dict[str, Json]:
    """The replay output of FORMATS.md §3 for a match as it stands: each hand's object and
    the match-level fields, as the family writes them."""
    hands = [match.variant.hand_json(state) for state in match.states]
    return {"hands": hands, **match.scorer.to_json()}


def _knob_json(knob: str, value: Json) -> Json:
    """A knob value in the JSON form of RULES.md §5.1."""
    if knob in ("hand_size", "target_score") and isinstance(value, tuple):
        return {str(players): size for players, size in value}
    if isinstance(value, tuple):
        return [list(v) if isinstance(v, tuple) else v for v in value]
    return value


def options_of(rules: RulesLike) -> dict[str, Json]:
    """The JSON ``options`` that rebuild ``rules`` from its preset, however it was made.

    >>> import dataclasses
    >>> from rummykit.variants import BASIC
    >>> options_of(dataclasses.replace(BASIC, ace_mode="high_or_low", max_rebuilds=2))
    {'ace_mode': 'high_or_low', 'max_rebuilds': 2}
    """
    if variant_of(rules).rules_from_options(rules.name, rules.options) == rules:
        return rules.options
    if not isinstance(rules, Rules):
        raise RecordError(f"these {rules.name} rules are not the preset with their options")
    preset = find_rules(rules.name)
    options = {}
    for knob in (f.name for f in fields(Rules) if f.name not in ("name", "_options")):
        value = getattr(rules, knob)
        if value != getattr(preset, knob):
            key = "hand_size" if knob == "deal_hand_sizes" else knob
            options[key] = _knob_json(knob, value)
    try:
        rebuilt: Rules | None = Rules.from_options(rules.name, options)
    except RecordError:
        rebuilt = None
    if rebuilt != rules:
        raise RecordError(f"these rules are not the {rules.name} preset with valid options: "
                          f"{_show(options)}")
    return options


def record_of(match: FamilyMatch[Any, Any]) -> Record:
    """The portable record of a live match of any family: dealer, every deck or deal,
    restocks, moves, and the replay output as ``result``."""
    hands = []
    for log in match.hands:
        deal = None
        if log.deal is not None:
            seats, upcard, stock = log.deal
            deal = Deal(tuple(tuple(h) for h in seats), upcard, tuple(stock))
        hands.append(HandRecord(deck=log.deck, deal=deal,
                                restocks=tuple(tuple(r) for r in log.restocks),
                                moves=tuple(log.moves)))
    return Record(rules=match.rules.name, players=tuple(match.players), hands=tuple(hands),
                  options=options_of(match.rules), dealer=match.first_dealer, seed=match.seed,
                  result=match_result(match))


# -- replay ---------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class ReplayError:
    """The first error of a record, as FORMATS.md §3 reports it (indexes 0-based)."""

    type: str
    hand: int | None
    move: int | None
    text: str | None
    message: str

    def to_json(self) -> dict[str, Json]:
        """``{"error": {...}}``."""
        return {"error": {"type": self.type, "hand": self.hand, "move": self.move,
                          "text": self.text, "message": self.message}}


@dataclass(slots=True)
class HandReplay:
    """One replayed hand: its dealer, the moves as (seat, canonical text), its last state."""

    dealer: int
    state: Any  # the family's hand: a HandState for core Rules
    moves: list[tuple[int, str]] = field(default_factory=list)


@dataclass(slots=True)
class Replay:
    """The outcome of replaying a record: the match as far as it went, or the first error."""

    record: Record | None
    match: FamilyMatch[Any, Any] | None = None
    hands: list[HandReplay] = field(default_factory=list)
    error: ReplayError | None = None

    @property
    def engine_match(self) -> Match | None:
        """The match as a core :class:`Match` (the faces that run on the draw-and-discard
        engine resume it); None for a family with its own rules type, or no match."""
        return self.match if isinstance(self.match, Match) else None

    @property
    def ok(self) -> bool:
        """True for a valid record (finished or not)."""
        return self.error is None

    def to_json(self) -> dict[str, Json]:
        """The replay output of FORMATS.md §3 (the error object for an invalid record)."""
        if self.error is not None:
            return self.error.to_json()
        assert self.match is not None
        return match_result(self.match)

    def check(self) -> ReplayError | None:
        """For ``--check``: the replay's error, or how the embedded ``result`` differs."""
        if self.error is not None:
            return self.error
        assert self.record is not None
        if self.record.result is None:
            return ReplayError("record", None, None, None,
                               "--check: the record has no \"result\" to check")
        found = _difference("result", self.record.result, self.to_json())
        if found is None:
            return None
        path, message = found
        hand = None
        if path.startswith("result.hands["):
            hand = int(path[len("result.hands["):].split("]")[0])
        return ReplayError("record", hand, None, None,
                           f"the record's result differs from the replay: {message}")

    def account(self, error: ReplayError | None = None) -> str | None:
        """A family's own readable account (see :func:`register_account`); None: the
        common one of :func:`rummykit.cli.replay.describe`."""
        if self.record is None or self.record.rules not in _ACCOUNTS:
            return None
        return _ACCOUNTS[self.record.rules](self, error or self.error)


def _difference(path: str, want: Json, got: Json) -> tuple[str, str] | None:
    """The first place where the recorded ``want`` differs from the replayed ``got``."""
    if isinstance(want, dict) and isinstance(got, dict):
        for key in [*want, *(k for k in got if k not in want)]:
            if key not in got:
                return path, f"{path}: unexpected key {key!r} in the record"
            if key not in want:
                return path, f"{path}: key {key!r} is missing from the record"
            found = _difference(f"{path}.{key}", want[key], got[key])
            if found:
                return found
        return None
    if isinstance(want, list) and isinstance(got, list):
        if len(want) != len(got):
            return path, (f"{path}: the record has {len(want)} entries, "
                          f"the replay {len(got)}")
        for i, (a, b) in enumerate(zip(want, got, strict=True)):
            found = _difference(f"{path}[{i}]", a, b)
            if found:
                return found
        return None
    if type(want) is type(got) and want == got:
        return None
    return path, f"{path}: the record says {_show(want)}, the replay gives {_show(got)}"


def _deal_problem(rules: RulesLike, players: int, index: int, hand: HandRecord) -> str | None:
    """Why a hand's deck or deal cannot be this deal of the match."""
    if hand.deal is None:
        assert hand.deck is not None
        problem = pack_problem(rules, players, list(hand.deck))
        return None if problem is None else f"deck: {problem}"
    seats = hand.deal.hands
    if len(seats) != players:
        return f"deal: {len(seats)} hands for {players} players"
    size = rules.hand_size_for(players, index)
    for seat, cards in enumerate(seats):
        if len(cards) != size:
            return f"deal: hand {seat} has {len(cards)} cards, the rules deal {size}"
    problem = pack_problem(rules, players, hand.deal.cards)
    return None if problem is None else f"deal: {problem}"


def _start(match: FamilyMatch[Any, Any], hand: HandRecord) -> Any:
    if hand.deal is not None:
        deal = (hand.deal.hands, hand.deal.upcard, hand.deal.stock)
        return match.start_hand(deal=deal, restocks=hand.restocks)
    return match.start_hand(hand.deck, restocks=hand.restocks)


def _replay_hand(out: Replay, match: FamilyMatch[Any, Any], index: int,
                 hand: HandRecord) -> ReplayError | None:
    def fail(message: str) -> ReplayError:
        return ReplayError("record", index, None, None, message)

    if match.over:
        return fail("the match is already over: no hand may follow")
    problem = _deal_problem(match.rules, match.num_players, index, hand)
    if problem:
        return fail(problem)
    if hand.restocks and not match.variant.rebuilds_stock:
        return fail(f"restocks: {match.rules.name} never rebuilds a stock, so its records "
                    "have none")
    try:
        state = _start(match, hand)
    except RecordError as exc:
        return fail(str(exc))
    played = HandReplay(match.dealer_of(index), state)
    out.hands.append(played)
    for number, text in enumerate(hand.moves):
        seat = state.to_move
        try:
            move = match.play(text)
        except RecordError as exc:
            return fail(str(exc))
        except RummyError as exc:
            return ReplayError(exc.kind.value, index, number, text, str(exc))
        played.moves.append((seat, str(move)))
        if match.seed is None and len(state.restocks) > len(hand.restocks):
            return fail(f"restocks entry {len(hand.restocks)} is missing and there is no seed")
    if len(hand.restocks) > len(state.restocks):
        given, done = len(hand.restocks), len(state.restocks)
        return fail(f"restocks holds {given} entr{'y' if given == 1 else 'ies'} but the stock "
                    f"was rebuilt {done} time{'' if done == 1 else 's'} in this hand")
    return None


def replay(record: Record) -> Replay:
    """Replay a record with the engine, stopping at the first error (FORMATS.md §2-§3)."""
    out = Replay(record)
    try:
        rules = variant_for(record.rules).rules_from_options(record.rules, record.options)
        rules.check_players(len(record.players))
    except RecordError as exc:
        out.error = ReplayError("record", None, None, None, str(exc))
        return out
    players = len(record.players)
    if record.dealer is not None and record.dealer >= players:
        out.error = ReplayError("record", None, None, None,
                                f"dealer: expected a seat 0..{players - 1}, got {record.dealer}")
        return out
    if record.dealer is None and record.seed is None and record.hands:
        out.error = ReplayError("record", 0, None, None,
                                "the dealer is missing and there is no seed")
        return out
    try:
        match: FamilyMatch[Any, Any] = (
            Match(rules, record.players, seed=record.seed, dealer=record.dealer)
            if isinstance(rules, Rules)
            else FamilyMatch(rules, record.players, seed=record.seed, dealer=record.dealer))
        out.match = match
    except RummyError as error:
        out.error = ReplayError("record", None, None, None, str(error))
        return out
    for index, hand in enumerate(record.hands):
        if index and match.state is not None and not match.state.is_over:
            out.error = ReplayError("record", index - 1, None, None,
                                    "this hand is unfinished but another hand follows")
            break
        out.error = _replay_hand(out, match, index, hand)
        if out.error:
            break
    return out


def replay_text(text: str) -> Replay:
    """Parse and replay JSON text; a file-level problem becomes the replay's error."""
    return _replay_with(loads, text)


def replay_file(path: str | Path) -> Replay:
    """Read and replay a record file; a file-level problem becomes the replay's error."""
    return _replay_with(load, path)


def _replay_with(reader: Callable[[_T], Record], source: _T) -> Replay:
    try:
        record = reader(source)
    except RecordError as exc:
        return Replay(None, error=ReplayError("record", None, None, None, str(exc)))
    return replay(record)
