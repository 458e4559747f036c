"""The record format (FORMATS.md §2): typed reading with quoted errors, writing, round trips."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import pytest

from rummykit.bots import make_bot
from rummykit.core.cards import format_card, parse_card, standard_pack
from rummykit.core.errors import RecordError
from rummykit.core.match import Match
from rummykit.core.record import (
    FORMAT,
    Deal,
    HandRecord,
    Record,
    dump,
    dumps,
    from_json,
    load,
    loads,
    match_result,
    options_of,
    record_of,
    replay,
    to_json,
)
from rummykit.core.rules import Rules
from rummykit.core.views import view
from rummykit.variants import BASIC, CONTRACT

GOLDEN = Path(__file__).parent / "data" / "golden"


def golden(name: str) -> dict[str, Any]:
    value: dict[str, Any] = json.loads((GOLDEN / f"{name}.rummy.json").read_text("utf-8"))
    return value


def play_match(rules: Rules, players: int, seed: int, bots: tuple[str, ...]) -> Match:
    """A whole match of bots, fast path (the bots only pick legal moves)."""
    match = Match(rules, [f"P{i}" for i in range(players)], seed=seed)
    rng = random.Random(seed)
    seats = [make_bot(bots[i % len(bots)]) for i in range(players)]
    while not match.over:
        state = match.start_hand()
        while not state.is_over:
            match.push(seats[state.to_move].choose(view(state, state.to_move), rng))
    return match


# -- reading: every field's type, with the bad value quoted ----------------------------

def _set(path: tuple[Any, ...], value: Any) -> Any:
    def change(data: dict[str, Any]) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


def _delete(path: tuple[Any, ...]) -> Any:
    def change(data: dict[str, Any]) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]
    return change


BAD_FIELDS = [
    (_set(("format",), "rummykit/2"), "format: expected 'rummykit/1', got \"rummykit/2\""),
    (_set(("rules",), 3), "rules: expected a rule set name, got 3"),
    (_set(("players",), "Ann"), "players: expected a list of player names, got \"Ann\""),
    (_set(("players", 1), None), "players[1]: expected a name, got null"),
    (_set(("options",), []), "options: expected an object of knob names, got []"),
    (_set(("dealer",), True), "dealer: expected an integer >= 0, got true"),
    (_set(("dealer",), -1), "dealer: expected an integer >= 0, got -1"),
    (_set(("seed",), "7"), "seed: expected an integer >= 0, got \"7\""),
    (_set(("result",), [1]), "result: expected an object, got [1]"),
    (_set(("hands",), {}), "hands: expected a list of hands, got {}"),
    (_set(("hands", 0), "deck"), "hands[0]: expected an object, got \"deck\""),
    (_set(("colour",), "red"), "the record: unknown key 'colour'"),
    (_delete(("players",)), "the record: missing key 'players'"),
    (_set(("hands", 0, "notes"), ""), "hands[0]: unknown key 'notes'"),
    (_delete(("hands", 0, "moves")), "hands[0]: missing key 'moves'"),
    (_delete(("hands", 0, "deck")), "hands[0]: expected exactly one of 'deck' and 'deal'"),
    (_set(("hands", 0, "deal"), {}), "hands[0]: expected exactly one of 'deck' and 'deal'"),
    (_set(("hands", 0, "deck"), "H8 S3"), "hands[0].deck: expected a list of cards, got \"H8"),
    (_set(("hands", 0, "deck", 4), "ZZ"), "hands[0].deck[4]: bad card 'ZZ'"),
    (_set(("hands", 0, "deck", 4), 12), "hands[0].deck[4]: expected a card like \"H8\", got 12"),
    (_set(("hands", 0, "deck", 4), "JK=H6"), "hands[0].deck[4]: bad card 'JK=H6'"),
    (_set(("hands", 0, "restocks"), [["H8"], "S3"]),
     "hands[0].restocks[1]: expected a list of cards, got \"S3\""),
    (_set(("hands", 0, "restocks"), {}),
     "hands[0].restocks: expected a list of card lists, got {}"),
    (_set(("hands", 0, "moves"), "draw"), "hands[0].moves: expected a list of moves, got"),
    (_set(("hands", 0, "moves", 1), 5), "hands[0].moves[1]: expected a move like \"draw\", got 5"),
]


@pytest.mark.parametrize(("change", "message"), BAD_FIELDS)
def test_bad_field_is_a_record_error_quoting_the_value(change: Any, message: str) -> None:
    data = golden("basic_2p")
    change(data)
    with pytest.raises(RecordError) as caught:
        loads(json.dumps(data))
    assert str(caught.value).startswith(message)


def test_bad_deal_fields_are_quoted() -> None:
    data = golden("basic_deal_form")
    data["hands"][0]["deal"]["upcard"] = ["S9"]
    with pytest.raises(RecordError, match=r'hands\[0\]\.deal\.upcard: expected a card like '
                                          r'"H8", got \["S9"\]'):
        from_json(data)
    del data["hands"][0]["deal"]["upcard"]
    with pytest.raises(RecordError, match=r"hands\[0\]\.deal: missing key 'upcard'"):
        from_json(data)


def test_not_json_and_not_an_object() -> None:
    with pytest.raises(RecordError, match="bad JSON"):
        loads('{"format": ')
    with pytest.raises(RecordError, match=r"the record: expected an object, got \[\]"):
        loads("[]")


def test_optional_keys_may_be_left_out_or_null() -> None:
    data = {"format": FORMAT, "rules": "traditional", "players": ["A", "B"], "hands": [],
            "dealer": None, "seed": None, "options": None, "result": None}
    record = from_json(data)
    assert record == Record("traditional", ("A", "B"))
    assert record.options == {} and record.dealer is None and record.result is None


def test_lenient_card_text_is_read_and_written_canonically() -> None:
    data = golden("basic_2p")
    deck = data["hands"][0]["deck"]
    expected = list(deck)
    data["hands"][0]["deck"] = [c.lower().replace("t", "10") for c in deck]
    record = from_json(data)
    assert to_json(record)["hands"][0]["deck"] == expected


def test_load_and_dump_files(tmp_path: Path) -> None:
    record = load(GOLDEN / "basic_rebuild.rummy.json")
    dump(record, tmp_path / "copy.rummy.json")
    assert load(tmp_path / "copy.rummy.json") == record
    with pytest.raises(RecordError, match="cannot read"):
        load(tmp_path / "missing.rummy.json")
    (tmp_path / "latin1.rummy.json").write_bytes(b'{"players": ["Jos\xe9"]}')
    with pytest.raises(RecordError, match="is not UTF-8"):
        load(tmp_path / "latin1.rummy.json")


# -- writing ---------------------------------------------------------------------------

VALID = sorted(p.name.removesuffix(".rummy.json") for p in GOLDEN.glob("*.rummy.json")
               if not p.name.startswith("err_"))


@pytest.mark.parametrize("name", VALID)
def test_golden_records_are_what_dumps_writes(name: str) -> None:
    text = (GOLDEN / f"{name}.rummy.json").read_text("utf-8")
    record = loads(text)
    assert dumps(record) == text
    assert loads(dumps(record)) == record


def test_dumps_layout_is_readable_json() -> None:
    text = dumps(load(GOLDEN / "basic_2p.rummy.json"))
    assert text.endswith("}\n")
    assert max(len(line) for line in text.splitlines()) <= 100
    assert '"format": "rummykit/1",' in text.splitlines()[1]


def test_record_of_writes_every_chance_and_the_result() -> None:
    match = play_match(Rules.from_options("basic", {"target_score": 60}), 3, 5, ("greedy",))
    record = record_of(match)
    assert record.rules == "basic" and record.options == {"target_score": 60}
    assert record.players == ("P0", "P1", "P2")
    assert record.dealer == match.first_dealer and record.seed == 5
    assert len(record.hands) == len(match.hands)
    for hand, log in zip(record.hands, match.hands, strict=True):
        assert hand.deck is not None and sorted(hand.deck) == list(range(52))
        assert hand.deal is None
        assert hand.moves == tuple(log.moves)
        assert hand.restocks == tuple(log.restocks)
    assert record.result == match_result(match)
    assert record.result["over"] is True


def test_record_of_a_deal_form_hand_and_an_unfinished_one() -> None:
    match = Match(Rules.from_options("basic", {}), ["Ann", "Bob"], dealer=1)
    pack = list(standard_pack())
    hands = [pack[0:10], pack[10:20]]
    match.start_hand(deal=(hands, pack[20], pack[21:]))
    match.play("draw")
    record = record_of(match)
    assert record.seed is None and record.dealer == 1
    assert record.hands == (HandRecord(deal=Deal((tuple(pack[0:10]), tuple(pack[10:20])),
                                                 pack[20], tuple(pack[21:])),
                                       moves=("draw",)),)
    written = to_json(record)["hands"][0]
    assert list(written) == ["deal", "restocks", "moves"]
    assert written["deal"]["upcard"] == format_card(pack[20])
    assert record.result is not None
    assert record.result["hands"][0]["result"] == "unfinished"
    again = replay(loads(dumps(record)))
    assert again.to_json() == record.result
    assert again.hands[0].moves == [(0, "draw")]


def test_options_round_trip_in_json_form() -> None:
    options = {"ace_mode": "high_or_low", "hand_size": {"2": 9}, "max_melds_per_turn": 1}
    match = Match(Rules.from_options("basic", options), ["A", "B"], seed=2)
    match.start_hand()
    record = loads(dumps(record_of(match)))
    assert record.options == options
    assert replay(record).match is not None
    assert replay(record).hands[0].state.hands[0].bit_count() == 9


# -- round trip: record_of -> dumps -> loads -> replay ----------------------------------

VARIANTS: dict[str, list[dict[str, Any]]] = {
    "basic": [
        {},
        {"ace_mode": "high_or_low"},
        {"stock_rebuild": "turn_over_all"},
        {"stock_rebuild": "shuffle_all", "max_rebuilds": 2},
        {"must_discard_to_go_out": True},
        {"max_melds_per_turn": 1, "game_end": "fixed_hands", "num_hands": 3},
    ],
    "traditional": [
        {},
        {"draw_ends_match": False},
        {"max_melds_per_turn": 1},
    ],
}
PLAYERS = {"basic": (2, 6), "traditional": (2, 4)}


@pytest.mark.parametrize("preset", sorted(VARIANTS))
def test_round_trip_of_seeded_bot_matches(preset: str) -> None:
    low, high = PLAYERS[preset]
    features: set[str] = set()
    for seed in range(300):
        options = {"target_score": 40, "max_turns_per_hand": 150,
                   **VARIANTS[preset][seed % len(VARIANTS[preset])]}
        if options.get("game_end") == "fixed_hands":
            del options["target_score"]
        rules = Rules.from_options(preset, options)
        bots = ("greedy", "random") if seed % 3 == 0 else ("greedy",)
        match = play_match(rules, low + seed % (high - low + 1), seed, bots)
        record = loads(dumps(record_of(match)))
        replayed = replay(record)
        assert replayed.error is None, (seed, replayed.error)
        assert replayed.to_json() == match_result(match) == record.result, seed
        assert replayed.match is not None
        assert replayed.match.totals == match.totals
        assert replayed.match.winners == match.winners
        for mine, theirs in zip(replayed.match.hands, match.hands, strict=True):
            assert mine.moves == theirs.moves and mine.restocks == theirs.restocks
            features.add(theirs.result.result if theirs.result else "unfinished")
            if theirs.restocks:
                features.add("restocks")
    assert {"win", "restocks", "aborted" if preset == "basic" else "draw"} <= features


def test_contract_pack_is_checked_as_a_multiset() -> None:
    pack = [format_card(c) for c in standard_pack(2, 1)]
    data = {"format": FORMAT, "rules": "contract", "players": ["A", "B", "C"], "dealer": 0,
            "hands": [{"deck": pack[:52], "moves": []}]}
    error = replay(from_json(data)).error
    assert error is not None and (error.type, error.hand, error.move) == ("record", 0, None)
    assert "105" in error.message and "JK" in error.message
    data["hands"] = [{"deck": pack, "moves": ["draw"]}]
    replayed = replay(from_json(data))
    assert replayed.error is None, replayed.error
    assert replayed.to_json()["hands"][0]["result"] == "unfinished"
    assert parse_card("JK") == 52


def test_rules_made_with_replace_are_written_as_options() -> None:
    rules = dataclasses.replace(BASIC, ace_mode="high_or_low", target_score=((2, 30), (3, 40)))
    match = Match(rules, ["A", "B"], seed=4)
    match.start_hand()
    record = loads(dumps(record_of(match)))
    assert record.options == {"ace_mode": "high_or_low", "target_score": {"2": 30, "3": 40}}
    replayed = replay(record)
    assert replayed.match is not None and replayed.match.rules == rules
    contract = dataclasses.replace(CONTRACT, deal_hand_sizes=(10, 10, 10, 12, 12, 12, 12))
    assert options_of(contract) == {"hand_size": [10, 10, 10, 12, 12, 12, 12]}


def test_rules_no_options_can_express_are_refused() -> None:
    with pytest.raises(RecordError, match=r'not the basic preset with valid options: '
                                          r'\{"joker_points": 3\}'):
        options_of(dataclasses.replace(BASIC, joker_points=3))
