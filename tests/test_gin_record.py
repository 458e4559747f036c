"""Gin records and replay (FORMATS.md §4.2-§4.3): the OpenSpiel GameplayTest1 record, the
gin fields of the output, the match-level fields, errors, and seeded matches that replay
to the same result."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rummykit.bots.gin_greedy import greedy_gin_move
from rummykit.cli.replay import describe, run
from rummykit.core.cards import format_card, parse_card, standard_pack
from rummykit.core.record import dumps, loads, record_of, replay, replay_text
from rummykit.variants.gin.replay import GinMatch
from rummykit.variants.gin.rules import gin_rules_from_options
from rummykit.variants.gin.view import gin_view

DATA = Path(__file__).parent / "data" / "gin"
GAMEPLAY1 = DATA / "openspiel_gameplay1.rummy.json"


def gameplay1() -> dict[str, Any]:
    value: dict[str, Any] = json.loads(GAMEPLAY1.read_text("utf-8"))
    return value


def write(tmp_path: Path, data: dict[str, Any]) -> str:
    path = tmp_path / "gin.rummy.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def error_of(data: dict[str, Any]) -> dict[str, Any]:
    output = replay_text(json.dumps(data)).to_json()
    assert "error" in output, output
    error: dict[str, Any] = output["error"]
    return error


def test_openspiel_gameplay1_replays_to_an_undercut_of_26_for_seat_1() -> None:
    status, out = run(str(GAMEPLAY1), as_json=True, check=False)
    assert status == 0
    assert json.loads(out) == {
        "hands": [{"result": "win", "winner": 1, "rummy": False, "reason": "undercut",
                   "scores": [0, 26], "knocker": 0, "knock_limit": 10, "multiplier": 1,
                   "deadwood": [10, 9]}],
        "totals": [0, 26], "over": True, "winners": [1],
    }


def test_openspiel_gameplay1_readable_account() -> None:
    status, text = run(str(GAMEPLAY1), as_json=False, check=False)
    assert status == 0
    assert "First upcard DJ: os0 takes it" in text
    assert "knock SQ: CK DK SK / S5 S6 S7 / C9 CT CJ  (deadwood 10: DJ)" in text
    assert "lay S8 on 2, lay S9 on 2, lay C8 on 3, lay C7 on 3, meld C2 D2 H2 S2, done" in text
    assert "Hand 1: os1 undercuts os0 9 v 10 — os1 scores 26" in text
    assert "The match is over: os1 wins." in text


def test_a_gin_winner_named_you_wins_in_the_second_person(tmp_path: Path) -> None:
    record = gameplay1()
    record["players"][1] = "You"  # os1, the winner
    status, text = run(write(tmp_path, record), as_json=False, check=False)
    assert status == 0
    assert "The match is over: You win." in text and "You wins" not in text


def test_check_accepts_the_true_result_and_names_a_wrong_one(tmp_path: Path) -> None:
    data = gameplay1()
    data["result"] = json.loads(run(str(GAMEPLAY1), as_json=True, check=False)[1])
    assert run(write(tmp_path, data), as_json=True, check=True)[0] == 0
    data["result"]["hands"][0]["deadwood"] = [10, 8]
    status, out = run(write(tmp_path, data), as_json=True, check=True)
    assert status == 1
    error = json.loads(out)["error"]
    assert error["type"] == "record" and error["hand"] == 0
    assert "deadwood[1]" in error["message"]


def test_a_restocks_key_is_a_record_error() -> None:
    data = gameplay1()
    data["hands"][0]["restocks"] = []
    error = error_of(data)
    assert error["type"] == "record" and "restocks" in error["message"]


@pytest.mark.parametrize(("change", "words"), [
    (lambda d: d.update(players=["a", "b", "c"]), "2 players"),
    (lambda d: d["options"].update(knock_limit=11), "knock_limit"),
    (lambda d: d["options"].update(target_score=100), "single_hand"),
    (lambda d: d["hands"][0]["deal"]["stock"].pop(), "51 cards instead of 52; missing"),
])
def test_bad_records_are_record_errors_quoting_the_input(change: Any, words: str) -> None:
    data = gameplay1()
    change(data)
    error = error_of(data)
    assert error["type"] == "record" and words in error["message"]


def test_an_illegal_move_is_reported_at_that_move() -> None:
    data = gameplay1()
    data["hands"][0]["moves"][0] = "draw"
    error = error_of(data)
    assert (error["type"], error["hand"], error["move"], error["text"]) == (
        "illegal", 0, 0, "draw")
    assert "first upcard" in error["message"]


def test_a_knock_without_done_is_unfinished() -> None:
    data = gameplay1()
    data["hands"][0]["moves"] = data["hands"][0]["moves"][:4]
    out = replay_text(json.dumps(data)).to_json()
    assert out["hands"] == [{"result": "unfinished", "winner": None, "rummy": False,
                             "reason": None, "scores": [0, 0], "knocker": 0,
                             "knock_limit": 10, "multiplier": 1, "deadwood": None}]
    assert out["over"] is False and out["winners"] == []


def play_out(match: GinMatch, rng: random.Random, greedy: bool) -> None:
    """Play ``match`` to its end with random (or greedy) moves for both seats."""
    while not match.over:
        hand = match.start_hand()
        while not hand.is_over:
            if greedy:
                match.play(greedy_gin_move(gin_view(hand, hand.to_move)))
            else:
                match.play(rng.choice(hand.legal_moves()))


@pytest.mark.parametrize(("rule_set", "options", "seed"), [
    ("gin", {}, 1), ("gin", {"hollywood": True}, 2), ("oklahoma", {}, 3),
    ("gin", {"immediate_boxes": True, "next_dealer": "alternate"}, 4),
])
def test_a_seeded_greedy_match_replays_to_the_same_result(rule_set: str, options: dict[str, Any],
                                                          seed: int) -> None:
    rules = gin_rules_from_options(rule_set, options)
    match = GinMatch(rules, ["Ann", "Bob"], seed=seed)
    play_out(match, random.Random(seed), greedy=True)
    text = dumps(record_of(match))
    assert "restocks" not in text
    again = replay(loads(text))
    assert again.ok and again.check() is None
    out = again.to_json()
    assert out["over"] is True and len(out["winners"]) >= 1
    assert out["totals"] == match.totals
    if rules.hollywood:
        assert [g["over"] for g in out["games"]] == [True, True, True]
        assert "final" not in out
    else:
        final = out["final"]
        assert final["totals"][out["winners"][0]] >= rules.target_score
        assert final["boxes"] == [sum(1 for h in out["hands"] if h["winner"] == s)
                                  for s in (0, 1)]


def test_a_seeded_random_match_plays_to_the_end_and_replays() -> None:
    rules = gin_rules_from_options("gin", {"target_score": 30})
    match = GinMatch(rules, ["Ann", "Bob"], seed=5)
    play_out(match, random.Random(5), greedy=False)
    assert match.over
    again = replay(loads(dumps(record_of(match))))
    assert again.ok and again.check() is None
    assert again.to_json()["totals"] == match.totals


GAMES = ["gin_game", "oklahoma_game", "hollywood"]


@pytest.mark.parametrize("name", GAMES)
def test_recorded_games_replay_to_their_result(name: str) -> None:
    path = str(DATA / f"{name}.rummy.json")
    status, out = run(path, as_json=True, check=True)
    assert status == 0, out
    assert json.loads(out)["over"] is True


@pytest.mark.parametrize("name", ["gin_game", "oklahoma_game"])
def test_recorded_game_settlement_and_dealers_from_the_hands(name: str) -> None:
    data = json.loads((DATA / f"{name}.rummy.json").read_text("utf-8"))
    out = replay(loads(json.dumps(data))).to_json()
    hands = out["hands"]
    points = [sum(h["scores"][s] for h in hands) for s in (0, 1)]
    wins = [sum(1 for h in hands if h["winner"] == s) for s in (0, 1)]
    winner = out["winners"][0]
    assert points[winner] >= (150 if name == "oklahoma_game" else 100)
    assert points[1 - winner] < points[winner] and wins[1 - winner] > 0  # not a shutout
    final = out["final"]
    assert final["boxes"] == wins and final["box_points"] == [25 * n for n in wins]
    assert final["totals"] == [points[s] + 25 * wins[s] + (100 if s == winner else 0)
                               for s in (0, 1)]
    # next_dealer = winner: each hand after the first is dealt by the last hand's winner
    text = run(str(DATA / f"{name}.rummy.json"), as_json=False, check=False)[1]
    dealers = [line.split("dealt by ")[1].split(" ")[0] for line in text.splitlines()
               if line.startswith("Hand ") and "dealt by" in line]
    names = data["players"]
    assert dealers[1:] == [names[h["winner"]] if h["winner"] is not None else dealers[i]
                           for i, h in enumerate(hands[:-1])]
    assert f"Game over: {names[winner]} wins" in text


def test_recorded_hollywood_games() -> None:
    out = json.loads(run(str(DATA / "hollywood.rummy.json"), as_json=True, check=False)[1])
    games = out["games"]
    assert [g["over"] for g in games] == [True, True, True]
    assert out["totals"] == [sum(g["final"]["totals"][s] for g in games) for s in (0, 1)]
    # RULES.md §6.12 from the hand list: the 1st win opens game 1, the 2nd game 2 ...
    scores, entries = [[0, 0] for _ in games], [[0, 0] for _ in games]
    opened: list[list[int]] = [[], []]
    for hand in out["hands"]:
        seat = hand["winner"]
        if seat is None:
            continue
        live = [g for g in range(3) if max(scores[g]) < 100]
        fresh = [g for g in live if g not in opened[seat]]
        opened[seat] += fresh[:1]
        for g in live:
            if g in opened[seat]:
                scores[g][seat] += hand["scores"][seat]
                entries[g][seat] += 1
    assert [g["scores"] for g in games] == scores
    assert [g["entries"] for g in games] == entries
    assert out["winners"] == [max((0, 1), key=lambda s: out["totals"][s])]


def test_the_family_is_registered_by_default_and_found_by_its_rule_sets() -> None:
    # in a fresh interpreter: importing the variants registers gin like the others
    code = ("import rummykit.variants\n"
            "from rummykit.variants.gin.variant import GIN_FAMILY\n"
            "from rummykit.variants.registry import variant_for\n"
            "from rummykit.core.errors import RecordError\n"
            "from rummykit.core.rules import find_rules\n"
            "assert variant_for('oklahoma') is GIN_FAMILY\n"
            "assert variant_for('gin').preset('gin').knock_limit == 10\n"
            "rules = variant_for('oklahoma').rules_from_options('oklahoma',\n"
            "                                               {'oklahoma_ace': 'one'})\n"
            "assert rules.oklahoma_ace == 'one'\n"
            "try:\n    find_rules('gin')\n"
            "except RecordError as e:\n    assert 'GinRules' in str(e)\n"
            "else:\n    raise AssertionError('find_rules gave core Rules for gin')\n"
            "print('ok')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and done.stdout == "ok\n", done.stderr


def deck_record(rules: str, options: dict[str, Any], decks: list[list[str]],
                moves: list[list[str]]) -> dict[str, Any]:
    return {"format": "rummykit/1", "rules": rules, "options": options,
            "players": ["Ann", "Bob"], "dealer": 0,
            "hands": [{"deck": d, "moves": m} for d, m in zip(decks, moves, strict=True)]}


def spade_deck() -> list[str]:
    """A deck whose upcard (element 20) is S6; the rest in code order."""
    cards = [format_card(c) for c in standard_pack(1, 0) if c != parse_card("S6")]
    return [*cards[:20], "S6", *cards[20:]]


def test_oklahoma_hand_fields_knock_limit_and_multiplier() -> None:
    data = deck_record("oklahoma", {}, [spade_deck()], [["pass", "pass", "draw"]])
    hand = replay_text(json.dumps(data)).to_json()["hands"][0]
    assert hand["knock_limit"] == 6 and hand["multiplier"] == 2
    assert hand["result"] == "unfinished" and hand["knocker"] is None


def test_a_hand_after_an_unfinished_one_or_after_the_end_is_a_record_error() -> None:
    deck = spade_deck()
    data = deck_record("gin", {}, [deck, deck], [["pass"], []])
    error = error_of(data)
    assert (error["type"], error["hand"]) == ("record", 0)
    assert "unfinished" in error["message"]
    single = gameplay1()
    single["hands"].append(single["hands"][0])
    error = error_of(single)
    assert (error["type"], error["hand"]) == ("record", 1)
    assert "over" in error["message"]


def test_a_move_after_the_hand_ended_is_illegal() -> None:
    data = gameplay1()
    data["hands"][0]["moves"].append("draw")
    error = error_of(data)
    assert (error["type"], error["hand"], error["move"]) == ("illegal", 0, 8)


def test_a_dead_hand_keeps_the_dealer_and_is_read_as_a_draw() -> None:
    # Both pass, then every turn draws and discards the card drawn until the wall.
    rules = gin_rules_from_options("gin", {"wall_knock": False})
    match = GinMatch(rules, ["Ann", "Bob"], seed=9, dealer=0)
    hand = match.start_hand()
    match.play("pass")
    match.play("pass")
    while not hand.is_over:
        before = hand.hands[hand.to_move]
        match.play("draw")
        drawn = hand.hands[hand.to_move] & ~before
        match.play(f"discard {format_one(drawn)}")
    assert hand.result is not None and hand.result.reason == "dead_hand"
    assert match.dealer_of(1) == 0 and not match.over
    out = replay(loads(dumps(record_of(match)))).to_json()
    assert out["hands"][0]["result"] == "draw" and out["hands"][0]["deadwood"] is None
    assert out["totals"] == [0, 0] and out["over"] is False


def format_one(mask: int) -> str:
    return format_card(mask.bit_length() - 1)


_VALUES: list[Any] = [None, True, -1, 0, 2, 52, 10**20, "x", "", [], {}, ["SA"], "SA", "JK",
                      1.5, "take", "knock SA:", "gin", "lay SA on 9", "meld SA S2 S3", "pass"]


def _mutate(data: Any, rng: random.Random) -> None:
    """Replace, delete or repeat one value somewhere inside ``data``."""
    path: list[tuple[Any, Any]] = []
    node = data
    for _ in range(rng.randrange(1, 6)):
        if isinstance(node, (dict, list)) and node:
            key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
            path.append((node, key))
            node = node[key]
    if not path:
        return
    parent, key = path[-1]
    roll = rng.random()
    if roll < 0.3:
        del parent[key]
    elif roll < 0.4 and isinstance(parent, list):
        parent.insert(key, parent[key])
    else:
        parent[key] = rng.choice(_VALUES)


def test_mutated_gin_records_never_crash_the_replay() -> None:
    bases = [json.loads((DATA / f"{n}.rummy.json").read_text("utf-8"))
             for n in ("openspiel_gameplay1", "gin_game", "hollywood")]
    rng = random.Random(7)
    errors = 0
    for _ in range(300):
        data = json.loads(json.dumps(rng.choice(bases)))
        for _ in range(rng.randrange(1, 4)):
            _mutate(data, rng)
        replayed = replay_text(json.dumps(data))
        out = replayed.to_json()
        errors += "error" in out
        assert describe(replayed).endswith("\n")
        replayed.check()
    assert errors > 150  # most mutations break the record, and say so
