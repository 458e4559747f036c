"""Property-based robustness (ARCHITECTURE.md §4): bad input never crashes, never corrupts.

Hypothesis runs derandomized and without an example database, so CI sees the same cases on
every run. What each part covers:

1. The notation parsers (``parse_move``, ``parse_card``, ``parse_cards``) on arbitrary text
   and on near-miss text built from the notation's own tokens: a value or ``NotationError``,
   nothing else; a parsed move's text parses back to an equal move; what is accepted is ASCII
   apart from its spaces (RULES.md §1.2 refuses "anything else"). ``HandState.play`` on the
   same text refuses it with a ``RummyError`` and changes nothing, or plays a legal move.
2. ``Rules.from_options`` on JSON-like option objects: ``Rules`` or a ``RecordError`` that
   names the bad knob, nothing else.
3. Records: every valid golden record, mutated, through ``record`` loading + ``replay`` and
   through ``replay_cmd.run``: a valid replay output or the FORMATS.md §3 error object, exit
   status 0 or 1, output that can be printed (UTF-8), never an exception.
4. A stateful test of ``HandState`` (basic, traditional, and a variant with high-or-low aces,
   turn_over_all, must_discard_to_go_out, one meld per turn): legal moves, rejected moves
   that change nothing, push/pop, diverging copies; cards conserved, views that resampling
   cannot tell apart, legal move lists without duplicates, empty exactly when the hand is over.
5. The terminal game fed random lines in a real process: exit status 0, no traceback.

A failing test here is a bug in the package: its minimal input is pinned with ``@example``.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import os
import random
import string
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, event, example, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from helpers import cards_in_play, deep_snapshot
from rummykit.cli.replay import run
from rummykit.core.cards import JOKER, RANKS, SUITS, format_card, parse_card, parse_cards
from rummykit.core.engine import HandState
from rummykit.core.errors import NotationError, RecordError, RummyError
from rummykit.core.melds import JOKER_AS
from rummykit.core.moves import Discard, Draw, LayOff, Meld, Move, Swap, Take, parse_move
from rummykit.core.record import from_json, replay, replay_text
from rummykit.core.rules import PRESETS, Rules
from rummykit.core.views import resample, view

Json = Any
GOLDEN = Path(__file__).parent / "data" / "golden"


def fuzz(max_examples: int, **extra: Any) -> settings:
    """Deterministic settings: derandomized, no database, no deadline."""
    return settings(max_examples=max_examples, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
                    **extra)


# -- the notation's own tokens, for near-miss text --------------------------------------

KEYWORDS = ["draw", "take", "meld", "lay", "swap", "discard", "DRAW", "Take", "MELD", "Lay",
            "sWaP", "DISCARD", "drew", "melds", "lay-off", "dis card"]
WORDS = ["on", "ON", "On", "onto", "low", "high", "HIGH", "Low", "end", "/", "//", "=", "==",
         "JK", "jk", "JK=", "=H6", "JK=H6", "jk=s10", "JK=h1", "JK=JK", "JK=X9", "H6=JK",
         "JK=H6=H7"]
NUMBERS = ["0", "1", "2", "3", "4", "9", "13", "52", "-1", "+1", "01", "007", "1.5", "1e3",
           "0x1", "²", "³", "\u0663", "\u0661", "\u0ae9", "\u2163", "½", "9" * 40]
_CASES = [s + r for s in SUITS for r in RANKS]
CARDS = (_CASES + [c.lower() for c in _CASES[::5]]
         + ["H10", "h1", "S0", "S11", "H01", "X9", "H", "HH", "K", "10", "HA ", "H 8", "8H",
            "AS", "JK", "\u017f8", "\uff288", "H\uff18"])  # long s, full-width H and 8
JUNK = ["", "?", "!", "x", "é", "\x00", "\x1b[2J", "🂡", ";", ",", "'", '"', "\\", "ß", "İ",
        "\u200b", "\u00a0"]
TOKENS = KEYWORDS + WORDS + NUMBERS + CARDS + JUNK
SEPARATORS = [" ", " ", " ", "  ", "\t", "/", " / ", "", "\u3000"]

tokens = st.sampled_from(TOKENS)
near_miss = st.builds(
    lambda head, rest: head + "".join(sep + tok for tok, sep in rest),
    st.one_of(st.sampled_from(KEYWORDS), tokens),
    st.lists(st.tuples(tokens, st.sampled_from(SEPARATORS)), max_size=7),
)
any_text = st.one_of(st.text(max_size=40), near_miss)


def random_line(rng: random.Random) -> str:
    """A near-miss line from a plain generator (for the real-process tests)."""
    words = [rng.choice(KEYWORDS if rng.random() < 0.7 else TOKENS)]
    for _ in range(rng.randrange(5)):
        words += [rng.choice(SEPARATORS), rng.choice(TOKENS)]
    return "".join(words)


# -- 1. the notation parsers ----------------------------------------------------------------

def check_parse_move(text: str) -> None:
    """``parse_move`` gives a move whose text parses back to it, or a ``NotationError``."""
    try:
        move = parse_move(text)
    except NotationError as error:
        assert str(error), text
        return
    assert isinstance(move, (Draw, Take, Meld, LayOff, Swap, Discard)), move
    # RULES.md §1.2: any case, 10 and 1 as ranks, "anything else" is refused; so an accepted
    # move is ASCII but for its spaces (a ligature or a long s is not a card's letter).
    assert "".join(text.split()).isascii(), f"{text!r} was read as {move}"
    written = str(move)
    assert parse_move(written) == move, (text, written)
    assert str(parse_move(written)) == written
    assert written == " ".join(written.split()) and written == written.strip()


@fuzz(400)
@given(any_text)
@example("take ²")
@example("lay H8 on ²")
@example("swap H8 on ³")
@example("take " + "1" * 5000)
@example("discard \ufb05")  # the ligature st
@example("ta\u212ae")  # a Kelvin sign for the k
@example("take \u0663")  # an Arabic-Indic digit three
def test_parse_move_returns_a_move_or_a_notation_error(text: str) -> None:
    check_parse_move(text)


@fuzz(200)
@given(st.lists(st.sampled_from([*CARDS, "JK=H6", "jk", "/"]), min_size=3, max_size=6),
       st.sampled_from(["meld", "MELD", "lay", "discard", "take", "swap"]))
def test_parse_move_near_miss_card_lists(cards: list[str], keyword: str) -> None:
    check_parse_move(" ".join([keyword, *cards]))
    check_parse_move(" ".join([keyword, cards[0], "on", *cards[1:]]))


@fuzz(300)
@given(any_text)
@example("H²")
@example("\u017f8")  # a long s, whose capital is S
def test_parse_card_and_cards(text: str) -> None:
    try:
        card = parse_card(text)
    except NotationError:
        pass
    else:
        assert 0 <= card <= JOKER
        assert parse_card(format_card(card)) == card
        assert text.strip().isascii(), f"{text!r} was read as {format_card(card)}"
    try:
        cards = parse_cards(text)
    except NotationError:
        return
    assert all(0 <= c <= JOKER for c in cards)
    assert "".join(text.split()).isascii(), f"{text!r} was read as {cards}"
    assert parse_cards(" ".join(format_card(c) for c in cards)) == cards


# -- 2. rule options ------------------------------------------------------------------------

KNOBS = sorted(({f.name for f in dataclasses.fields(Rules)} - {"name", "_options"})
               | {"hand_size"})
UNKNOWN_KNOBS = ["name", "_options", "Ace_Mode", "ace mode", "", "aceMode", "jokers", "hand_sizes",
                 "ace_mode ", "__class__", "²"]
json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 30), st.integers(-(10**30), 10**30),
    st.floats(), st.text(max_size=10), st.sampled_from(["low", "high_or_low", "penalty",
                                                        "target", "pagat", "2", "10"]),
)
json_values = st.recursive(
    json_scalars,
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=6), kids,
                                                               max_size=4),
    max_leaves=10,
)
PLAUSIBLE: dict[str, list[Json]] = {
    "ace_mode": ["low", "high_or_low", "High_or_low", "sideways", ""],
    "stock_rebuild": ["shuffle_keep_top", "shuffle_all", "turn_over_all", "shuffle"],
    "scoring": ["winner_collects", "penalty", "none"],
    "game_end": ["target", "fixed_hands", "never"],
    "first_dealer": ["random", "low_card", "high_card"],
    "final_deal_rule": ["none", "all_at_once_no_discard", "all_at_once_discard_ok", "x"],
    "deck_config": ["bicycle", "pagat", "single", "x"],
    "player_range": [[2, 6], [3, 2], [2], [2, 2, 2], [1, 9], ["2", "6"], [2.0, 6], [2, 60]],
    "hand_size": [{"2": 10}, {"2": 25}, {"2": 26}, {"2": 0}, {"x": 1}, {"²": 5}, {"02": 5},
                  {"-2": 5}, {"2": True}, [10] * 7, [10], [], [0] * 7],
    "target_score": [100, {"2": 50}, {"9": 1}, {"³": 100}, 0, -5, "100", 1.5],
    "contract_schedule": [[[2, 0]] * 7, [[1, 1]], [], [[1]], [[-1, 0]] * 7, "x", [[0, 0]] * 7],
}
_INTS: list[Json] = [0, 1, 2, 3, 7, 15, -1, 10**20, True, 1.0, "3", None]
_BOOLS: list[Json] = [True, False, 0, 1, "true", None]


def knob_values(knob: str) -> st.SearchStrategy[Json]:
    if knob in PLAUSIBLE:
        pool = PLAUSIBLE[knob]
    elif knob in ("must_discard_to_go_out", "deadlock_draw", "discard_dig", "joker_swap",
                  "draw_counts_as_loss", "draw_ends_match", "contract_runs_distinct_suits",
                  "extra_melds_after_contract"):
        pool = _BOOLS
    else:
        pool = _INTS
    return st.one_of(st.sampled_from(pool), json_values)


@st.composite
def option_objects(draw: st.DrawFn) -> dict[str, Json]:
    names = draw(st.lists(st.one_of(st.sampled_from(KNOBS), st.sampled_from(UNKNOWN_KNOBS),
                                    st.text(max_size=8)), max_size=4, unique=True))
    return {name: draw(knob_values(name)) for name in names}


preset_names = st.one_of(st.sampled_from(list(PRESETS)),
                         st.sampled_from(["Basic", "", "contract ", "gin"]), st.text(max_size=8))


@fuzz(500)
@given(preset_names, option_objects())
@example("basic", {"hand_size": {"²": 5}})
@example("traditional", {"target_score": {"³": 100}})
def test_rule_options_give_rules_or_a_record_error_naming_the_knob(
        name: str, options: dict[str, Json]) -> None:
    try:
        rules = Rules.from_options(name, options)
    except RecordError as error:
        message = str(error)
        if name not in PRESETS:
            assert repr(name) in message, message
        else:
            assert any(repr(k) in message or (k and k in message) for k in options), (
                options, message)
        return
    assert isinstance(rules, Rules) and rules.name == name
    assert Rules.from_options(name, rules.options) == rules


@fuzz(100)
@given(st.sampled_from(list(PRESETS)), json_values.filter(lambda v: not isinstance(v, dict)))
def test_rule_options_that_are_not_an_object(name: str, options: Json) -> None:
    try:
        rules = Rules.from_options(name, options)
    except RecordError as error:
        assert "options" in str(error)
    else:
        assert isinstance(rules, Rules)


# -- 3. records -----------------------------------------------------------------------------

def _expected(name: str) -> Json:
    return json.loads((GOLDEN / f"{name}.expected.json").read_text("utf-8"))


VALID = sorted(p.name.removesuffix(".rummy.json") for p in GOLDEN.glob("*.rummy.json")
               if "error" not in _expected(p.name.removesuffix(".rummy.json")))
RECORDS: dict[str, Json] = {n: json.loads((GOLDEN / f"{n}.rummy.json").read_text("utf-8"))
                            for n in VALID}
ERROR_KEYS = {"type", "hand", "move", "text", "message"}
ERROR_TYPES = {"syntax", "illegal", "ambiguous", "record"}
RESULTS = {"win", "draw", "aborted", "unfinished"}
REASONS = {"win": {None}, "draw": {"stock_exhausted", "deadlock", "blocked"},
           "aborted": {"max_turns"}, "unfinished": {None}}
RECORD_KEYS = ["format", "rules", "options", "players", "dealer", "seed", "hands", "result",
               "deck", "deal", "restocks", "moves", "upcard", "stock"]
card_tokens = st.one_of(st.sampled_from(CARDS), st.sampled_from(_CASES), st.text(max_size=3))
move_texts = st.one_of(near_miss, st.sampled_from(["draw", "take", "discard H8", "meld H7 H8 H9",
                                                   "lay H6 on 1", "lay HA on 1 high"]))


def _locations(value: Json, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _locations(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _locations(child, (*path, index))


def _get(value: Json, path: tuple[Any, ...]) -> Json:
    for step in path:
        value = value[step]
    return value


def _put(root: Json, path: tuple[Any, ...], new: Json) -> Json:
    if not path:
        return new
    _get(root, path[:-1])[path[-1]] = new
    return root


def _hands(record: Json) -> list[dict[str, Json]]:
    if isinstance(record, dict) and isinstance(record.get("hands"), list):
        return [h for h in record["hands"] if isinstance(h, dict)]
    return []


def _hand_list(draw: st.DrawFn, record: Json, key: str) -> list[Json] | None:
    """One hand's list under ``key`` (``deck`` may stand for the deal's stock)."""
    candidates = []
    for hand in _hands(record):
        if isinstance(hand.get(key), list):
            candidates.append(hand[key])
        elif key == "deck" and isinstance(hand.get("deal"), dict) and isinstance(
                hand["deal"].get("stock"), list):
            candidates.append(hand["deal"]["stock"])
    return draw(st.sampled_from(candidates)) if candidates else None


Mutation = Callable[[st.DrawFn, Json], Json]


def replace_anywhere(draw: st.DrawFn, record: Json) -> Json:
    path = draw(st.sampled_from(list(_locations(record))))
    return _put(record, path, draw(json_values))


def retype_anywhere(draw: st.DrawFn, record: Json) -> Json:
    path = draw(st.sampled_from(list(_locations(record))))
    old = _get(record, path)
    shown = json.dumps(old)[:20]
    return _put(record, path, draw(st.sampled_from(
        [shown, [old], {"value": old}, None, True, 0, -1, 1.5, "", [], {}])))


def _dict_slot(draw: st.DrawFn, record: Json) -> tuple[dict[str, Json], str] | None:
    slots = [(p[:-1], p[-1]) for p in _locations(record)
             if p and isinstance(_get(record, p[:-1]), dict)]
    if not slots:
        return None
    parent, key = draw(st.sampled_from(slots))
    return _get(record, parent), key


def delete_key(draw: st.DrawFn, record: Json) -> Json:
    slot = _dict_slot(draw, record)
    if slot:
        del slot[0][slot[1]]
    return record


def rename_key(draw: st.DrawFn, record: Json) -> Json:
    slot = _dict_slot(draw, record)
    if slot:
        parent, key = slot
        new = draw(st.one_of(st.sampled_from(RECORD_KEYS), st.text(max_size=6)))
        items = [(new if k == key else k, v) for k, v in parent.items()]
        parent.clear()
        parent.update(items)
    return record


def add_key(draw: st.DrawFn, record: Json) -> Json:
    dicts = [p for p in _locations(record) if isinstance(_get(record, p), dict)]
    if dicts:
        target = _get(record, draw(st.sampled_from(dicts)))
        target[draw(st.one_of(st.sampled_from(RECORD_KEYS), st.text(max_size=6)))] = draw(
            json_values)
    return record


def respellings(text: str) -> st.SearchStrategy[str]:
    """The same move written otherwise (case, 10 and 1 for T and A, spaces, card order, a
    superfluous or wrong END, another meld number), or a near neighbour of it."""
    words = text.split()

    def respell(word: str, how: int) -> str:
        if how == 0:
            return word.lower()
        if how == 1 and len(word) == 2 and word[1] in "TA":
            return word[0] + ("10" if word[1] == "T" else "1")
        return word

    return st.one_of(
        st.integers(0, 2).map(lambda how: "  ".join(respell(w, how) for w in words)),
        st.permutations(words[1:]).map(lambda rest: " ".join([words[0], *rest])),
        st.sampled_from(["low", "high", "/", "on", "1", "2", "9"]).map(
            lambda extra: f"{text} {extra}"),
        st.tuples(st.integers(0, len(words) - 1), tokens).map(
            lambda t: " ".join([*words[:t[0]], t[1], *words[t[0] + 1:]])),
    ) if words else st.just(text)


def edit_moves(draw: st.DrawFn, record: Json) -> Json:
    moves = _hand_list(draw, record, "moves")
    if moves is None:
        return record
    size = len(moves)
    op = draw(st.sampled_from(["truncate", "duplicate", "shuffle", "delete", "insert",
                               "replace_card", "swap_two", "append", "respell", "respell"]))
    at = draw(st.integers(0, max(size - 1, 0)))
    if op == "truncate":
        del moves[at:]
    elif op == "duplicate" and size:
        moves.insert(at, moves[at])
    elif op == "shuffle":
        moves[:] = draw(st.permutations(moves))
    elif op == "delete" and size:
        del moves[at]
    elif op == "insert":
        moves.insert(at, draw(move_texts))
    elif op == "replace_card" and size and isinstance(moves[at], str):
        words = moves[at].split()
        if len(words) > 1:
            words[draw(st.integers(1, len(words) - 1))] = draw(card_tokens)
            moves[at] = " ".join(words)
    elif op == "respell" and size and isinstance(moves[at], str):
        moves[at] = draw(respellings(moves[at]))
    elif op == "swap_two" and size > 1:
        other = draw(st.integers(0, size - 1))
        moves[at], moves[other] = moves[other], moves[at]
    else:
        moves.append(draw(st.one_of(move_texts, json_values)))
    return record


def edit_deck(draw: st.DrawFn, record: Json) -> Json:
    deck = _hand_list(draw, record, "deck")
    if not deck:
        return record
    at = draw(st.integers(0, len(deck) - 1))
    op = draw(st.sampled_from(["replace", "swap", "shuffle", "drop", "duplicate"]))
    if op == "replace":
        deck[at] = draw(card_tokens)
    elif op == "swap":
        other = draw(st.integers(0, len(deck) - 1))
        deck[at], deck[other] = deck[other], deck[at]
    elif op == "shuffle":
        deck[:] = draw(st.permutations(deck))
    elif op == "drop":
        del deck[at]
    else:
        deck.insert(at, deck[at])
    return record


def edit_restocks(draw: st.DrawFn, record: Json) -> Json:
    hands = _hands(record)
    if not hands:
        return record
    hand = draw(st.sampled_from(hands))
    entries = hand.get("restocks")
    op = draw(st.sampled_from(["null", "empty", "random", "permutation", "append", "alter"]))
    if op == "null":
        hand["restocks"] = None
    elif op == "empty":
        hand["restocks"] = []
    elif op == "random":
        hand["restocks"] = draw(st.lists(st.lists(card_tokens, max_size=6), max_size=3))
    elif op == "permutation":
        sample = draw(st.lists(st.sampled_from(_CASES), unique=True, max_size=30))
        hand["restocks"] = [*(entries if isinstance(entries, list) else []), sample]
    elif op == "append" and isinstance(entries, list):
        entries.append(draw(st.lists(st.sampled_from(_CASES), max_size=40)))
    elif isinstance(entries, list) and entries and isinstance(entries[0], list) and entries[0]:
        entry = entries[draw(st.integers(0, len(entries) - 1))]
        if isinstance(entry, list) and entry:
            at = draw(st.integers(0, len(entry) - 1))
            entry[at: at + 1] = draw(st.sampled_from([[], [entry[at]] * 2, [draw(card_tokens)],
                                                      [entry[-1]]]))
    return record


def edit_hands(draw: st.DrawFn, record: Json) -> Json:
    if not (isinstance(record, dict) and isinstance(record.get("hands"), list)):
        return record
    hands = record["hands"]
    op = draw(st.sampled_from(["append_copy", "append_foreign", "duplicate", "delete", "reverse",
                               "append_junk"]))
    if op == "append_copy" and hands:
        hands.append(copy.deepcopy(draw(st.sampled_from(hands))))
    elif op == "append_foreign":
        other = RECORDS[draw(st.sampled_from(VALID))]
        if other["hands"]:
            hands.append(copy.deepcopy(draw(st.sampled_from(other["hands"]))))
    elif op == "duplicate" and hands:
        at = draw(st.integers(0, len(hands) - 1))
        hands.insert(at, copy.deepcopy(hands[at]))
    elif op == "delete" and hands:
        del hands[draw(st.integers(0, len(hands) - 1))]
    elif op == "reverse":
        hands.reverse()
    else:
        hands.append(draw(st.one_of(json_values, st.just({"moves": []}),
                                    st.just({"deck": [], "moves": []}))))
    return record


def edit_top(draw: st.DrawFn, record: Json) -> Json:
    if not isinstance(record, dict):
        return record
    key = draw(st.sampled_from(["players", "players", "dealer", "seed", "rules", "options",
                                "options", "format", "result"]))
    if key == "players":
        players = record.get("players")
        if isinstance(players, list):
            op = draw(st.sampled_from(["add", "remove", "rename"]))
            if op == "add":
                players.append(draw(st.text(max_size=5)))
            elif op == "remove" and players:
                players.pop()
            elif players:
                players[0] = draw(st.one_of(st.text(max_size=5), st.sampled_from(
                    ["", " ", "A\ud800", "\udfff", "Ann\nBob", "\x1b[31m", "x" * 200])))
    elif key in ("dealer", "seed"):
        record[key] = draw(st.one_of(st.integers(-3, 10), st.integers(-(10**30), 10**30),
                                     json_values))
    elif key == "rules":
        record[key] = draw(st.one_of(preset_names, json_values))
    elif key == "options":
        record[key] = draw(st.one_of(option_objects(), json_values))
    elif key == "format":
        record[key] = draw(st.sampled_from(["rummykit/2", "RUMMYKIT/1", "", None]))
    else:
        record[key] = draw(json_values)
    return record


MUTATIONS: list[Mutation] = [replace_anywhere, retype_anywhere, delete_key, rename_key, add_key,
                             *[edit_moves] * 6, edit_deck, *[edit_restocks] * 2,
                             *[edit_hands] * 2, *[edit_top] * 2]


@st.composite
def mutated_records(draw: st.DrawFn) -> Json:
    record = copy.deepcopy(RECORDS[draw(st.sampled_from(VALID))])
    for _ in range(draw(st.integers(1, 3))):
        record = draw(st.sampled_from(MUTATIONS))(draw, record)
    return record


def small_record(moves: list[str], players: tuple[str, str] = ("Ann", "Bob")) -> Json:
    """A one-hand basic record dealt from the pack in its canonical order."""
    return {"format": "rummykit/1", "rules": "basic", "players": list(players), "dealer": 0,
            "hands": [{"deck": [format_card(c) for c in range(52)], "moves": moves}]}


def check_printable(text: str) -> None:
    """What the replay command prints must be writable to a UTF-8 stdout."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        around = text[max(error.start - 40, 0):error.end + 40]
        raise AssertionError(f"the replay command's output cannot be written to a UTF-8 "
                             f"stdout ({error.reason}): ...{around!r}...") from None


def check_replay_output(output: Json) -> None:
    """A valid FORMATS.md §3 replay output, or exactly the §3 error object."""
    assert isinstance(output, dict)
    if "error" in output:
        assert list(output) == ["error"]
        error = output["error"]
        assert set(error) == ERROR_KEYS, error
        assert error["type"] in ERROR_TYPES
        assert error["hand"] is None or (type(error["hand"]) is int and error["hand"] >= 0)
        assert error["move"] is None or (type(error["move"]) is int and error["move"] >= 0)
        assert error["text"] is None or isinstance(error["text"], str)
        assert isinstance(error["message"], str) and error["message"]
        if error["type"] == "record":
            assert error["move"] is None and error["text"] is None
        else:
            assert None not in (error["hand"], error["move"], error["text"]), error
        return
    assert set(output) == {"hands", "totals", "over", "winners"}
    totals = output["totals"]
    seats = len(totals)
    sums = [0] * seats
    for hand in output["hands"]:
        assert set(hand) == {"result", "winner", "rummy", "reason", "scores"}
        assert hand["result"] in RESULTS and hand["reason"] in REASONS[hand["result"]]
        assert (hand["winner"] is not None) == (hand["result"] == "win")
        assert len(hand["scores"]) == seats
        sums = [a + b for a, b in zip(sums, hand["scores"], strict=True)]
    assert sums == totals
    assert isinstance(output["over"], bool)
    assert all(0 <= w < seats for w in output["winners"])
    assert output["over"] or output["winners"] == []


def check_record_everywhere(folder: Path, text: str | bytes, check: bool) -> None:
    """Library loading + replay, ``replay_text`` and both modes of ``replay_cmd.run``."""
    path = folder / "fuzz.rummy.json"
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    path.write_bytes(raw)
    status, out = run(str(path), as_json=True, check=check)
    assert status in (0, 1)
    check_printable(out)
    assert out.endswith("\n") and out.count("\n") == 1
    output = json.loads(out)
    event(f"replay: {output['error']['type'] if 'error' in output else 'valid'}")
    check_replay_output(output)
    assert status == (1 if "error" in output else 0)
    status_text, account = run(str(path), as_json=False, check=check)
    assert status_text == status
    check_printable(account)
    assert "Traceback" not in account
    if isinstance(text, str) and not check:
        assert replay_text(text).to_json() == output


@fuzz(300)
@given(mutated_records(), st.booleans())
@example(small_record(["take ²"]), False)
@example(small_record(["draw", "lay H8 on ³"]), False)
@example(small_record(["discard \ud800"]), False)  # JSON text "discard \ud800"
@example(small_record([], ("Ann\ud800", "Bob")), False)
def test_mutated_records_replay_or_report_an_error(
        tmp_path_factory: pytest.TempPathFactory, record: Json, check: bool) -> None:
    try:
        parsed = from_json(record)
    except RecordError as error:
        assert str(error)
    else:
        replayed = replay(parsed)
        output = replayed.to_json()
        check_replay_output(output)
        assert replayed.ok == ("error" not in output)
    text = json.dumps(record)  # ASCII: lone surrogates are written as \ud800 escapes
    check_record_everywhere(tmp_path_factory.mktemp("records"), text, check)


@st.composite
def damaged_files(draw: st.DrawFn) -> bytes:
    raw = (GOLDEN / f"{draw(st.sampled_from(VALID))}.rummy.json").read_bytes()
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(raw)))
        op = draw(st.sampled_from(["truncate", "insert", "delete", "replace"]))
        if op == "truncate":
            raw = raw[:at]
        elif op == "insert":
            raw = raw[:at] + draw(st.one_of(st.binary(max_size=6), st.sampled_from(
                [b"{", b"[", b"]", b",", b'"', b"\\", b"null", b"\xff", b"\xef\xbb\xbf",
                 b"\\ud800", b"1e999", b"NaN"]))) + raw[at:]
        elif op == "delete":
            raw = raw[:at] + raw[at + draw(st.integers(1, 20)):]
        else:
            raw = raw[:at] + draw(st.binary(min_size=1, max_size=3)) + raw[at + 1:]
    return raw


@fuzz(120)
@given(damaged_files(), st.booleans())
@example(b"[" * 5000, False)
@example(b'{"format": "rummykit/1", "seed": ' + b"1" * 5000 + b"}", False)
def test_damaged_record_files_replay_or_report_an_error(
        tmp_path_factory: pytest.TempPathFactory, raw: bytes, check: bool) -> None:
    check_record_everywhere(tmp_path_factory.mktemp("files"), raw, check)


# -- 4. the hand state machine --------------------------------------------------------------

def without_generator(snapshot: dict[str, Any]) -> dict[str, Any]:
    """A deep snapshot without the random generator's state."""
    return {k: v for k, v in snapshot.items() if k != "rng"}


def tried_moves(state: HandState) -> st.SearchStrategy[str]:
    """Move text that is mostly wrong here: random text, near misses, well-formed moves with
    cards from anywhere, meld numbers past the table, and slightly altered legal moves."""
    hand = state.hand_cards(state.to_move)
    anywhere = st.integers(0, 51)
    mine = st.sampled_from(hand) if hand else anywhere
    some_card = st.one_of(mine, anywhere, st.just(JOKER))
    placed = st.one_of(some_card, anywhere.map(lambda c: JOKER_AS + c))
    target = st.integers(1, len(state.table) + 2)
    group = st.lists(st.one_of(mine, mine, placed), min_size=3, max_size=5).map(tuple)
    structured: st.SearchStrategy[Move] = st.one_of(
        st.builds(Discard, some_card),
        st.builds(LayOff, placed, target, st.sampled_from([None, "low", "high"])),
        st.builds(lambda groups: Meld(tuple(groups)), st.lists(group, min_size=1, max_size=2)),
        st.builds(Take, st.integers(1, 3)),
        st.builds(lambda c: Take(card=c), some_card),
        st.builds(Swap, some_card, target),
        st.just(Draw()),
    )
    legal = state.legal_moves()
    altered = (st.tuples(st.sampled_from(legal), tokens, st.integers(0, 4)).map(
        lambda t: " ".join([*str(t[0]).split()[:t[2]], t[1], *str(t[0]).split()[t[2] + 1:]]))
        if legal else st.just("draw"))
    return st.one_of(structured.map(str), near_miss, st.text(max_size=20), altered)


def try_text(state: HandState, text: str) -> bool:
    """Play ``text``: refused with a ``RummyError`` and nothing changed (and it is not a
    listed legal move), or accepted as a listed legal move. True when it was played."""
    legal = state.legal_moves()
    before = deep_snapshot(state)
    try:
        made = state.play(text)
    except RummyError as error:
        assert deep_snapshot(state) == before, f"{text!r} was refused but changed the state"
        try:
            parsed = parse_move(text)
        except NotationError:
            assert isinstance(error, NotationError)
        else:
            assert parsed not in legal, f"{text!r} is listed as legal but was refused"
        return False
    assert made in legal, f"{text!r} was accepted as {made} but is not listed as legal"
    return True


@fuzz(150)
@given(near_miss, st.booleans())
@example("take ²", False)
@example("lay H8 on ²", True)
def test_hand_state_play_refuses_bad_text_and_changes_nothing(text: str, drawn: bool) -> None:
    state = HandState.deal(Rules.from_options("basic", {}), 2, 0, random.Random(3))
    if drawn:
        state.play("draw")
        state.play(str(next(m for m in state.legal_moves() if isinstance(m, Meld))))
    try_text(state, text)


class HandMachine(RuleBasedStateMachine):
    """One hand, driven by random legal moves, rejected moves, push/pop and copies."""

    preset = "basic"
    base_options: dict[str, Json] = {}  # noqa: RUF012 - read only
    max_players = 4

    def __init__(self) -> None:
        super().__init__()
        self.state: HandState | None = None
        self.before: list[dict[str, Any]] = []  # deep snapshots before each stacked move

    @initialize(data=st.data())
    def deal(self, data: st.DataObject) -> None:
        players = data.draw(st.integers(2, self.max_players), label="players")
        options = dict(self.base_options)
        if data.draw(st.booleans(), label="big hands"):  # a short stock: rebuilds come soon
            most = (52 - 2) // players
            size = data.draw(st.sampled_from([most, most, most - 1, most - 2, most - 5]),
                             label="hand size")
            options["hand_size"] = {str(players): size}
        turns = data.draw(st.sampled_from([None, None, 40]), label="max turns")
        if turns is not None:
            options["max_turns_per_hand"] = turns
        rules = Rules.from_options(self.preset, options)
        seed = data.draw(st.integers(0, 2**32), label="seed")
        dealer = data.draw(st.integers(0, players - 1), label="dealer")
        self.state = HandState.deal(rules, players, dealer, random.Random(seed))

    @property
    def hand(self) -> HandState:
        assert self.state is not None
        return self.state

    @precondition(lambda self: self.state is not None and not self.state.is_over)
    @rule(data=st.data(), count=st.integers(1, 12), checked=st.booleans())
    def play_legal_moves(self, data: st.DataObject, count: int, checked: bool) -> None:
        """A few legal moves, melds and lay-offs preferred (so that hands end); ``play`` on
        their text or ``push``; the invariants are checked after each one."""
        state = self.hand
        for _ in range(count):
            if state.is_over:
                return
            moves = state.legal_moves()
            placing = [m for m in moves if isinstance(m, (Meld, LayOff))]
            if placing and data.draw(st.integers(0, 9), label="eager") < 7:
                moves = placing
            move = data.draw(st.sampled_from(moves), label="move")
            before = deep_snapshot(state)
            if checked:
                assert state.play(str(move)) == move
            else:
                state.push(move)
            self.before.append(before)
            self.verify()

    @precondition(lambda self: self.state is not None)
    @rule(data=st.data())
    def try_a_wrong_move(self, data: st.DataObject) -> None:
        state = self.hand
        before = deep_snapshot(state)
        if try_text(state, data.draw(tried_moves(state), label="text")):
            self.before.append(before)

    @precondition(lambda self: bool(self.before))
    @rule()
    def pop(self) -> None:
        self.hand.pop()
        want = self.before.pop()
        assert without_generator(deep_snapshot(self.hand)) == without_generator(want)

    @precondition(lambda self: self.state is not None)
    @rule(steps=st.integers(1, 150), seed=st.integers(0, 2**16))
    def copy_then_diverge(self, steps: int, seed: int) -> None:
        """The copy starts equal and may diverge for up to a whole hand; the original's
        position never changes. (A copy shuffles with its own generator: see the test after
        this class.)"""
        state = self.hand
        before = deep_snapshot(state)
        twin = state.copy()
        assert without_generator(deep_snapshot(twin)) == {**without_generator(before),
                                                         "_stack": [], "detached": True}
        rng = random.Random(seed)
        for _ in range(steps):
            if twin.is_over:
                break
            twin.push(rng.choice(twin.legal_moves()))
        assert cards_in_play(twin) == list(range(52))
        assert without_generator(deep_snapshot(state)) == without_generator(before)

    @invariant()
    def invariants_hold(self) -> None:
        self.verify()

    def verify(self) -> None:
        """Cards conserved; legal moves distinct, empty exactly when the hand is over; every
        seat's view is the view of a state resampled from it."""
        state = self.state
        if state is None:
            return
        event(f"result {state.result.result}" if state.result else f"phase {state.phase}, "
              f"{min(state.rebuilds, 2)} rebuilds")
        assert cards_in_play(state) == list(range(52))
        moves = state.legal_moves()
        assert len(set(moves)) == len(moves), moves
        assert (not moves) == state.is_over
        for seat in range(state.num_players):
            seen = view(state, seat)
            assert view(resample(seen, random.Random(seat)), seat) == seen


# No shrink phase: shrinking a failing run of this machine can take a minute, and every bug
# it has found is pinned as a plain test with its minimal example (see the one above).
STATEFUL = fuzz(40, stateful_step_count=50,
                phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target])


class BasicHand(HandMachine):
    preset = "basic"
    max_players = 6


class TraditionalHand(HandMachine):
    preset = "traditional"


class VariantHand(HandMachine):
    preset = "basic"
    base_options = {  # noqa: RUF012 - read only
        "ace_mode": "high_or_low", "stock_rebuild": "turn_over_all",
        "must_discard_to_go_out": True, "max_melds_per_turn": 1,
    }


TestBasicHand = BasicHand.TestCase
TestBasicHand.settings = STATEFUL
TestTraditionalHand = TraditionalHand.TestCase
TestTraditionalHand.settings = STATEFUL
TestVariantHand = VariantHand.TestCase
TestVariantHand.settings = STATEFUL


@fuzz(20)
@given(st.integers(0, 10**6), st.integers(10, 25))
@example(0, 10)
def test_a_diverging_copy_leaves_the_originals_generator_alone(seed: int, size: int) -> None:
    """``copy()`` is independent: playing the copy through a shuffled rebuild must not move
    the original's random generator (else the original's own later rebuilds, and the next
    deal of its match, depend on what was tried on copies)."""
    rules = Rules.from_options("basic", {"hand_size": {"2": size}})
    state = HandState.deal(rules, 2, 0, random.Random(seed))
    before = deep_snapshot(state)
    twin = state.copy()
    for _ in range(500):
        if twin.is_over or twin.restocks:
            break
        moves = twin.legal_moves()
        twin.push(moves[0] if twin.phase == "draw" else moves[-1])
    assert twin.restocks, "the copy never rebuilt its stock"
    assert without_generator(deep_snapshot(state)) == without_generator(before)
    same = deep_snapshot(state)["rng"] == before["rng"]
    assert same, "playing the copy moved the original's random generator"


# -- 5. the terminal game -------------------------------------------------------------------

REAL_LINES = ["draw", "take", "moves", "hand", "table", "score", "help", "", "", "  "]


def input_lines(seed: int) -> list[str]:
    """Random lines: real moves (a draw, then discards of random cards until one is in the
    hand), commands, empty lines, near misses and garbage."""
    rng = random.Random(seed)
    lines: list[str] = []
    while len(lines) < 300:
        roll = rng.random()
        if roll < 0.3:
            lines += ["draw" if rng.random() < 0.8 else "take"]
            lines += [f"discard {c}" for c in rng.sample(_CASES, 6)]
        elif roll < 0.45:
            lines.append(rng.choice(REAL_LINES))
        elif roll < 0.55:
            lines.append(f"meld {' '.join(rng.sample(_CASES, rng.randrange(2, 5)))}")
        elif roll < 0.6:
            lines.append(f"lay {rng.choice(_CASES)} on {rng.choice(NUMBERS)}")
        elif roll < 0.65:
            lines.append(f"take {rng.choice(NUMBERS + CARDS)}")
        elif roll < 0.75:
            lines.append("".join(rng.choice(string.printable + "²é\u3000") for _ in range(9)))
        else:
            lines.append(random_line(rng))
    lines = [line.replace("\n", " ").replace("\r", " ").replace("\x0b", " ").replace("\x0c", " ")
             for line in lines]
    return [line for line in lines if line.strip().lower() not in ("quit", "exit")] + ["quit"]


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_terminal_game_survives_random_lines(seed: int) -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run(
        [sys.executable, "-m", "rummykit.cli.main", "play", "--seed", str(seed), "--players", "2",
         "-o", "target_score=5000"],  # the match outlasts the lines: they end with quit
        input="\n".join(input_lines(seed)) + "\n", capture_output=True, encoding="utf-8",
        errors="replace", timeout=120, check=False, env=env,
    )
    shown = done.stdout + done.stderr
    assert "Traceback" not in shown, shown[-3000:]
    assert done.returncode == 0, shown[-3000:]
    assert "You left the game." in done.stdout
