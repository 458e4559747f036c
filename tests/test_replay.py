"""Replay (FORMATS.md §2-§3): golden records, the replay command's exit status and output."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rummykit.cli.replay import describe, run
from rummykit.core.record import from_json, replay, replay_text

GOLDEN = Path(__file__).parent / "data" / "golden"
NAMES = sorted(p.name.removesuffix(".rummy.json") for p in GOLDEN.glob("*.rummy.json"))
ERROR_KEYS = ["type", "hand", "move", "text", "message"]


def expected(name: str) -> dict[str, Any]:
    value: dict[str, Any] = json.loads((GOLDEN / f"{name}.expected.json").read_text("utf-8"))
    return value


def golden(name: str) -> dict[str, Any]:
    value: dict[str, Any] = json.loads((GOLDEN / f"{name}.rummy.json").read_text("utf-8"))
    return value


def write(tmp_path: Path, data: dict[str, Any] | str) -> str:
    path = tmp_path / "game.rummy.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def error_of(data: dict[str, Any]) -> tuple[Any, ...]:
    """(type, hand, move, text, message) of replaying ``data``; fails if it is valid."""
    output = replay_text(json.dumps(data)).to_json()
    assert "error" in output, output
    assert list(output["error"]) == ERROR_KEYS
    return tuple(output["error"][k] for k in ERROR_KEYS)


# -- golden records ----------------------------------------------------------------------

def test_the_golden_set_covers_what_it_should() -> None:
    errors = {expected(n)["error"]["type"] for n in NAMES if "error" in expected(n)}
    assert errors == {"record", "illegal", "syntax", "ambiguous"}
    results = {h["result"] for n in NAMES for h in expected(n).get("hands", [])}
    assert results == {"win", "draw", "aborted", "unfinished"}
    reasons = {h["reason"] for n in NAMES for h in expected(n).get("hands", [])}
    assert reasons == {None, "stock_exhausted", "deadlock", "blocked", "max_turns"}


@pytest.mark.parametrize("name", NAMES)
def test_golden_replay_json(name: str) -> None:
    status, out = run(str(GOLDEN / f"{name}.rummy.json"), as_json=True, check=False)
    want = expected(name)
    assert json.loads(out) == want
    assert out.endswith("\n") and out.count("\n") == 1
    assert status == (1 if "error" in want else 0)
    if "error" in want:
        assert list(want["error"]) == ERROR_KEYS


@pytest.mark.parametrize("name", [n for n in NAMES if not n.startswith("err_")])
def test_golden_check_passes_and_matches_the_embedded_result(name: str) -> None:
    assert golden(name)["result"] == expected(name)
    status, out = run(str(GOLDEN / f"{name}.rummy.json"), as_json=True, check=True)
    assert (status, json.loads(out)) == (0, expected(name))


@pytest.mark.parametrize("name", NAMES)
def test_golden_replay_text(name: str) -> None:
    status, out = run(str(GOLDEN / f"{name}.rummy.json"), as_json=False, check=False)
    want = expected(name)
    if "error" in want:
        assert status == 1
        assert f"Invalid record ({want['error']['type']} error" in out
        assert want["error"]["message"] in out
    else:
        assert status == 0
        contract = golden(name)["rules"] == "contract"  # penalty points: lowest total wins
        assert ("Penalty sheet" if contract else "Score sheet") in out
        for player in golden(name)["players"]:
            assert player in out


def test_text_account_of_a_match() -> None:
    status, out = run(str(GOLDEN / "basic_2p.rummy.json"), as_json=False, check=False)
    record = golden("basic_2p")
    ann, bob = record["players"]
    lines = out.splitlines()
    assert status == 0
    assert lines[0] == f"basic rummy, options none; players: 0 {ann}, 1 {bob}"
    first_dealer = record["players"][record["dealer"]]
    assert f"Hand 1, dealt by {first_dealer}" in lines
    first_turn = next(ln for ln in lines if ln.strip().startswith("1."))
    moves = record["hands"][0]["moves"]
    assert first_turn.endswith(", ".join(moves[:moves.index(next(
        m for m in moves if m.startswith("discard"))) + 1]))
    assert "  Table:" in lines
    assert lines[-1] == f"The match is over: {ann} wins."
    assert lines[-2].split() == ["total", "159", "0"]


def test_a_winner_named_you_wins_in_the_second_person(tmp_path: Path) -> None:
    """The terminal game names its player "You": "You win.", never "You wins."."""
    record = golden("basic_2p")
    record["players"][0] = "You"  # the winner's seat, as in the record above
    status, out = run(write(tmp_path, record), as_json=False, check=False)
    assert status == 0
    assert out.splitlines()[-1] == "The match is over: You win."
    assert "  You go out." in out and "You goes" not in out


def test_text_account_of_unfinished_and_drawn_matches() -> None:
    out = run(str(GOLDEN / "basic_unfinished.rummy.json"), as_json=False, check=False)[1]
    assert "  Unfinished: " in out and out.endswith("The match is not over.\n")
    out = run(str(GOLDEN / "traditional_draw_ends_match.rummy.json"), False, False)[1]
    assert "  Draw (stock_exhausted): no points." in out
    assert out.endswith("The match is over with no winner (a drawn hand ended it).\n")


def test_text_error_shows_the_replay_so_far_then_the_error() -> None:
    status, out = run(str(GOLDEN / "err_illegal_move.rummy.json"), as_json=False, check=False)
    error = expected("err_illegal_move")["error"]
    assert status == 1
    assert "Hand 1, dealt by" in out and "Score sheet" not in out
    assert out.splitlines()[-1] == (
        f"Invalid record (illegal error at hand {error['hand'] + 1}, move {error['move'] + 1},"
        f" {error['text']!r}): {error['message']}")


# -- the check flag ----------------------------------------------------------------------

def test_check_reports_a_result_that_differs(tmp_path: Path) -> None:
    data = golden("basic_rebuild")
    data["result"]["hands"][2]["scores"][0] += 1
    path = write(tmp_path, data)
    assert run(path, as_json=True, check=False)[0] == 0
    status, out = run(path, as_json=True, check=True)
    assert status == 1
    assert json.loads(out) == {"error": {
        "type": "record", "hand": 2, "move": None, "text": None,
        "message": "the record's result differs from the replay: result.hands[2].scores[0]: "
                   "the record says 175, the replay gives 174"}}
    status, text = run(path, as_json=False, check=True)
    assert status == 1 and text.splitlines()[-1].startswith("Invalid record (record error at"
                                                             " hand 3): the record's result")


@pytest.mark.parametrize(("change", "message"), [
    (lambda r: r.update(over=False), "result.over: the record says false, the replay gives true"),
    (lambda r: r["hands"].pop(), "result.hands: the record has 2 entries, the replay 3"),
    (lambda r: r.update(winners=[0, 1]), "result.winners: the record has 2 entries, the replay 1"),
    (lambda r: r.update(extra=1), "result: unexpected key 'extra' in the record"),
    (lambda r: r.pop("totals"), "result: key 'totals' is missing from the record"),
    (lambda r: r["hands"][0].update(rummy=0), "result.hands[0].rummy: the record says 0, the "
                                              "replay gives false"),
])
def test_check_names_the_first_difference(change: Any, message: str) -> None:
    data = golden("basic_2p")
    change(data["result"])
    error = replay(from_json(data)).check()
    assert error is not None and error.type == "record" and error.move is None
    assert error.message == f"the record's result differs from the replay: {message}"


def test_check_needs_a_result_and_reports_replay_errors_first(tmp_path: Path) -> None:
    data = golden("basic_2p")
    del data["result"]
    status, out = run(write(tmp_path, data), as_json=True, check=True)
    assert status == 1
    assert json.loads(out)["error"]["message"] == "--check: the record has no \"result\" to check"
    status, out = run(str(GOLDEN / "err_syntax.rummy.json"), as_json=True, check=True)
    assert (status, json.loads(out)) == (1, expected("err_syntax"))


# -- file-level and hand-level record errors ---------------------------------------------

def test_missing_file_and_bad_encoding(tmp_path: Path) -> None:
    status, out = run(str(tmp_path / "nope.rummy.json"), as_json=True, check=False)
    error = json.loads(out)["error"]
    assert status == 1 and error["type"] == "record" and error["hand"] is None
    assert "cannot read" in error["message"]
    path = tmp_path / "bad.rummy.json"
    path.write_bytes(b"\xff\xfe{}")
    status, out = run(str(path), as_json=False, check=False)
    assert status == 1 and out.startswith("Invalid record (record error): ")


def test_move_of_the_wrong_type_is_a_file_level_error() -> None:
    data = golden("basic_2p")
    data["hands"][1]["moves"][3] = ["draw"]
    assert error_of(data) == ("record", None, None, None,
                              'hands[1].moves[3]: expected a move like "draw", got ["draw"]')


def test_dealer_out_of_range_and_unknown_rule_set() -> None:
    data = golden("basic_2p")
    data["dealer"] = 2
    assert error_of(data) == ("record", None, None, None, "dealer: expected a seat 0..1, got 2")
    data["rules"] = "canasta"
    assert error_of(data)[0:4] == ("record", None, None, None)
    assert "unknown rule set 'canasta'" in error_of(data)[4]


def test_option_not_for_this_rule_set() -> None:
    data = golden("basic_2p")
    data["options"] = {"draw_ends_match": True}
    assert error_of(data) == ("record", None, None, None,
                              "option 'draw_ends_match' does not apply to the basic rule set")


def test_missing_dealer_needs_a_seed() -> None:
    data = golden("basic_2p")
    del data["dealer"]
    data.pop("result")
    assert replay_text(json.dumps(data)).error is None  # the seed decides
    del data["seed"]
    assert error_of(data) == ("record", 0, None, None,
                              "the dealer is missing and there is no seed")
    data["hands"] = []
    assert replay_text(json.dumps(data)).error is None


def test_missing_restocks_entry_is_filled_from_the_seed() -> None:
    data = golden("basic_rebuild")
    for hand in data["hands"]:
        hand["restocks"] = []
    replayed = replay_text(json.dumps(data))
    assert replayed.match is not None
    rebuilt = [len(h.state.restocks) for h in replayed.hands]
    assert sum(rebuilt) > 0
    if replayed.error is not None:  # other shuffles may make a recorded move illegal
        assert replayed.error.type != "record"


def test_deal_problems_are_hand_level_record_errors() -> None:
    data = golden("basic_deal_form")
    deal = data["hands"][1]["deal"]
    deal["hands"].append([])
    assert error_of(data) == ("record", 1, None, None, "deal: 3 hands for 2 players")
    deal["hands"].pop()
    replaced = deal["upcard"]
    deal["upcard"] = "JK"
    assert error_of(data) == ("record", 1, None, None,
                              f"deal: not the basic pack for 2 players: missing {replaced}"
                              "; extra JK")


def test_deck_with_too_few_cards() -> None:
    data = golden("basic_2p")
    data["hands"][0]["deck"].pop()
    message = error_of(data)[4]
    assert message.startswith("deck: not the basic pack for 2 players: 51 cards instead of 52;"
                              " missing ")
    assert error_of(data)[:4] == ("record", 0, None, None)


def test_turn_over_all_rebuild_has_no_restocks_entry() -> None:
    data = golden("basic_turn_over_all")
    hand = next(i for i, h in enumerate(data["hands"]) if h["moves"].count("draw") > 31)
    data["hands"][hand]["restocks"] = [["H8"]]
    assert error_of(data) == ("record", hand, None, None,
                              "restocks holds 1 entry but the stock was rebuilt 0 times in this"
                              " hand")


def test_restocks_entry_with_other_cards_is_a_record_error() -> None:
    data = golden("basic_rebuild")
    hand = next(i for i, h in enumerate(data["hands"]) if h["restocks"])
    entry = data["hands"][hand]["restocks"][0]
    entry[0] = next(c for c in data["hands"][hand]["deck"] if c not in entry)
    kind, at, move, text, message = error_of(data)
    assert (kind, at, move, text) == ("record", hand, None, None)
    assert message.startswith("restocks entry 0: expected a permutation")


# -- move errors ---------------------------------------------------------------------------

def test_move_errors_carry_the_recorded_text_and_stop_the_replay() -> None:
    data = golden("basic_2p")
    data["hands"][1]["moves"][0] = "  DRAW  "
    data["hands"][1]["moves"][1] = "discard  S1"  # lenient notation, then not in hand
    kind, hand, move, text, message = error_of(data)
    assert (kind, hand, move, text) == ("illegal", 1, 1, "discard  S1")
    assert message == "cannot discard SA: SA is not in your hand"


def test_a_move_after_the_match_ended() -> None:
    data = golden("traditional_draw_ends_match")
    data["hands"][-1]["moves"].append("take")
    last = len(data["hands"]) - 1
    assert error_of(data) == ("illegal", last, len(data["hands"][-1]["moves"]) - 1, "take",
                              "cannot take: the hand is over")


def test_replay_keeps_moves_by_seat_and_final_tables() -> None:
    replayed = replay_text((GOLDEN / "basic_4p.rummy.json").read_text("utf-8"))
    record = replayed.record
    assert record is not None and replayed.match is not None and replayed.ok
    for number, (played, hand) in enumerate(zip(replayed.hands, record.hands, strict=True)):
        assert played.dealer == ((record.dealer or 0) + number) % 4
        assert [text for _, text in played.moves] == list(hand.moves)
        assert played.moves[0][0] == (played.dealer + 1) % 4
        assert played.state.is_over
    assert describe(replayed).startswith("basic rummy, options none; players: 0 Ann")


def test_a_hand_drawn_as_soon_as_it_is_dealt() -> None:
    # RULES.md §1.8 / FORMATS.md §3: the automatic checks run when the deal is complete. One
    # card each and an empty table is a deadlock (§3.3 D1 and D2) before any move is read.
    cards = [c + r for c in "CDHS" for r in "A23456789TJQK"]
    data = {"format": "rummykit/1", "rules": "traditional", "options": {"hand_size": {"2": 1}},
            "players": ["Ann", "Bob"], "dealer": 0,
            "hands": [{"deal": {"hands": [["CA"], ["C2"]], "upcard": "C3",
                                "stock": cards[3:]}, "moves": []}]}
    assert replay_text(json.dumps(data)).to_json() == {
        "hands": [{"result": "draw", "winner": None, "rummy": False, "reason": "deadlock",
                   "scores": [0, 0]}],
        "totals": [0, 0], "over": True, "winners": []}
    data["hands"][0]["moves"] = ["draw"]
    assert error_of(data) == ("illegal", 0, 0, "draw", "cannot draw: the hand is over")
