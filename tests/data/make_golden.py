"""Write the golden records of ``tests/data/golden`` and the replay output expected of each.

Run from the repository root: ``.venv/bin/python tests/data/make_golden.py``. Valid records
come from seeded matches played by the bots (the first seed from 0 up whose match has the
wanted feature); invalid ones are those records with one defect put in, or written by hand.
Each ``NAME.rummy.json`` gets ``NAME.expected.json``: what ``rummykit replay --json``
prints. Re-running the script rewrites the same files.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rummykit.bots import make_bot
from rummykit.core.cards import format_card, parse_cards, standard_pack
from rummykit.core.errors import RecordError, RummyError
from rummykit.core.match import Match
from rummykit.core.record import dumps, from_json, record_of, replay_text, to_json
from rummykit.core.rules import Rules
from rummykit.core.views import view

GOLDEN = Path(__file__).parent / "golden"
MAX_MOVES_PER_HAND = 600  # a seed whose hand goes on longer is skipped (bots can cycle)


def play(rules: Rules, players: int, seed: int, bots: tuple[str, ...],
         deal_form: bool = False) -> Match | None:
    """A whole match of bots (seat i plays ``bots[i % len(bots)]``), or None if one cycles."""
    match = Match(rules, ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"][:players], seed=seed)
    rng = random.Random(seed)
    seats = [make_bot(bots[i % len(bots)]) for i in range(players)]
    while not match.over:
        if deal_form:
            pack = list(standard_pack(*rules.pack_spec(players)))
            match.rng.shuffle(pack)
            size = rules.hand_size_for(players, len(match.hands))
            hands = [pack[i * size:(i + 1) * size] for i in range(players)]
            state = match.start_hand(deal=(hands, pack[players * size],
                                           pack[players * size + 1:]))
        else:
            state = match.start_hand()
        for _ in range(MAX_MOVES_PER_HAND):
            if state.is_over:
                break
            match.play(seats[state.to_move].choose(view(state, state.to_move), rng))
        else:
            return None
    return match


def find(rules: Rules, players: int, bots: tuple[str, ...],
         wanted: Callable[[Match], bool], deal_form: bool = False) -> dict[str, Any]:
    """The record (JSON value) of the first seeded match with the wanted feature."""
    for seed in range(400):
        match = play(rules, players, seed, bots, deal_form)
        if match is not None and wanted(match):
            return to_json(record_of(match))
    raise SystemExit(f"no seed gives the wanted match for {rules.name} {rules.options}")


def short(limit: int) -> Callable[[Match], bool]:
    """A match of at most ``limit`` hands."""
    return lambda m: len(m.hands) <= limit


def rebuilt(m: Match) -> bool:
    """Some hand rebuilt its stock from the discards with a shuffle."""
    return any(log.restocks for log in m.hands) and len(m.hands) <= 6


def drawn(ends: bool) -> Callable[[Match], bool]:
    """A hand drawn by stock exhaustion; with ``ends`` it is the last, else others follow."""
    def test(m: Match) -> bool:
        draws = [i for i, log in enumerate(m.hands) if log.result is not None
                 and log.result.reason == "stock_exhausted"]
        if ends:
            return bool(draws) and draws[-1] == len(m.hands) - 1 and len(m.hands) <= 4
        return bool(draws) and draws[0] < len(m.hands) - 1 and len(m.hands) <= 8

    return test


def rules(name: str, **options: Any) -> Rules:
    return Rules.from_options(name, options)


def valid_records() -> dict[str, dict[str, Any]]:
    """The valid golden records."""
    found = {
        "basic_2p": find(rules("basic"), 2, ("greedy", "random"), short(3)),
        "basic_4p": find(rules("basic"), 4, ("greedy", "greedy", "random"), short(4)),
        "basic_high_or_low": find(rules("basic", ace_mode="high_or_low"), 3,
                                  ("greedy",), short(4)),
        "basic_rebuild": find(rules("basic"), 3, ("greedy",), rebuilt),
        "basic_turn_over_all": find(  # more draws than the 31 cards of the first stock
            rules("basic", stock_rebuild="turn_over_all"), 2, ("greedy", "random"),
            lambda m: len(m.hands) <= 4 and any(log.moves.count("draw") > 31 for log in m.hands)),
        "traditional_draw_ends_match": find(rules("traditional"), 3, ("greedy",),
                                            drawn(ends=True)),
        "traditional_draw_continues": find(rules("traditional", draw_ends_match=False), 3,
                                           ("greedy", "random"), drawn(ends=False)),
        "traditional_deadlock": find(rules("traditional"), 2, ("greedy",),
                                     lambda m: len(m.hands) <= 10 and m.hands[-1].result
                                     is not None and m.hands[-1].result.reason == "deadlock"),
        "basic_aborted": find(rules("basic", max_turns_per_hand=30, target_score=40), 2,
                              ("greedy", "random"),
                              lambda m: any(log.result is not None and log.result.result
                                            == "aborted" for log in m.hands)),
        "basic_deal_form": find(rules("basic", target_score=50), 2, ("greedy",), short(3),
                                deal_form=True),
    }
    found.update(contract_records())
    unfinished = json.loads(json.dumps(found["basic_4p"]))
    unfinished["hands"][-1]["moves"] = unfinished["hands"][-1]["moves"][:8]  # mid-turn
    unfinished["hands"][-1]["restocks"] = []  # no rebuild so early
    found["basic_unfinished"] = unfinished
    between = json.loads(json.dumps(found["basic_2p"]))
    between["hands"] = between["hands"][:1]
    found["basic_between_hands"] = between
    found["basic_no_hands"] = {"format": "rummykit/1", "rules": "basic", "players": ["A", "B"],
                               "hands": []}
    for name in ("basic_unfinished", "basic_between_hands", "basic_no_hands"):
        found[name]["result"] = replay_text(json.dumps(found[name])).to_json()
    return found


def contract_match(players: int, seed: int) -> Match | None:
    """A whole contract match of random bots that prefer melds, lay-offs, swaps and digs
    (seeded; every hand ends within ``max_turns_per_hand``)."""
    rules = Rules.from_options("contract", {"max_turns_per_hand": 150})
    match = Match(rules, ["Ann", "Bob", "Cy", "Dee", "Eve"][:players], seed=seed)
    rng = random.Random(seed)
    while not match.over:
        state = match.start_hand()
        while not state.is_over:
            legal = state.legal_moves()
            wanted = [m for m in legal if str(m).startswith(("meld", "lay", "swap", "take "))]
            try:
                match.play(rng.choice(wanted) if wanted and rng.random() < 0.7
                           else rng.choice(legal))
            except RummyError:  # a generated move the checked path refuses: skip the seed
                return None
    return match


def _has(m: Match, prefix: str) -> bool:
    return any(move.startswith(prefix) for log in m.hands for move in log.moves)


def contract_records() -> dict[str, dict[str, Any]]:
    """Contract matches of 3 and 5 players with a dig, a swap and a won hand."""
    found: dict[str, dict[str, Any]] = {}
    for name, players in (("contract_3p", 3), ("contract_5p", 5)):
        for seed in range(200):
            match = contract_match(players, seed)
            if match is not None and _has(match, "take ") and _has(match, "swap") and any(
                    log.result is not None and log.result.result == "win"
                    for log in match.hands):
                found[name] = to_json(record_of(match))
                break
        else:
            raise SystemExit(f"no seed gives the wanted contract match for {players} players")
    return found


def _cards(text: str) -> list[str]:
    return [format_card(c) for c in parse_cards(text)]


def ambiguous_record() -> dict[str, Any]:
    """Bob holds HA..HK, melds H2..HK and lays off HA: it fits both ends of the run."""
    clubs = _cards("CA C2 C3 C4 C5 C6 C7 C8 C9 CT CJ CQ CK")
    hearts = _cards("H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK HA")
    rest = _cards("D2 D3 D4 D5 D6 D7 D8 D9 DT DJ DQ DK DA S2 S3 S4 S5 S6 S7 S8 S9 ST SJ SQ SK SA")
    return {
        "format": "rummykit/1", "rules": "basic",
        "options": {"ace_mode": "high_or_low", "hand_size": {"2": 13}},
        "players": ["Ann", "Bob"], "dealer": 0,
        "hands": [{"deal": {"hands": [clubs, hearts], "upcard": rest[0], "stock": rest[1:]},
                   "restocks": [],
                   "moves": ["draw", "meld " + " ".join(hearts[:12]), "lay HA on 1"]}],
    }


def _copy(record: dict[str, Any]) -> dict[str, Any]:
    copy: dict[str, Any] = json.loads(json.dumps(record))
    copy.pop("result", None)
    return copy


def _first_take(record: dict[str, Any]) -> tuple[int, int]:
    """(hand, move) of the first discard that follows a take in the same turn."""
    for h, hand in enumerate(record["hands"]):
        moves = hand["moves"]
        for i, move in enumerate(moves):
            if move == "take":
                j = next(k for k in range(i + 1, len(moves)) if moves[k].startswith("discard"))
                return h, j
    raise SystemExit("no take in the record")


def invalid_records(valid: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any] | str]:
    """The invalid golden records: one defect each."""
    out: dict[str, dict[str, Any] | str] = {}
    base = valid["basic_2p"]
    out["err_bad_json"] = dumps_json(_copy(base))[:200]
    bad = _copy(base)
    bad["options"] = {"ace_mode": "high_or_low", "jokers_wild": True}
    out["err_unknown_knob"] = bad
    bad = _copy(base)
    bad["options"] = {"ace_mode": "sideways"}
    out["err_bad_knob_value"] = bad
    bad = _copy(base)
    bad["dealer"] = "0"
    out["err_wrong_type"] = bad
    bad = _copy(base)
    bad["players"] = [f"P{i}" for i in range(7)]
    out["err_too_many_players"] = bad
    bad = _copy(base)
    deck = bad["hands"][1]["deck"]
    deck[deck.index("S3")] = "H8"
    out["err_wrong_pack"] = bad
    bad = _copy(valid["basic_deal_form"])
    deal = bad["hands"][0]["deal"]
    deal["stock"].append(deal["hands"][0].pop())
    out["err_deal_sizes"] = bad
    bad = _copy(base)
    h, j = _first_take(bad)
    taken = next(m for m in reversed(bad["hands"][h]["moves"][:j]) if m.startswith("discard"))
    bad["hands"][h]["moves"][j] = taken  # discard again the card just taken
    out["err_illegal_move"] = bad
    bad = _copy(base)
    bad["hands"][0]["moves"][2] = "discrad " + bad["hands"][0]["moves"][2].split()[-1]
    out["err_syntax"] = bad
    out["err_ambiguous"] = ambiguous_record()
    bad = _copy(base)
    bad["hands"][0]["moves"].append("draw")
    out["err_move_after_hand_end"] = bad
    bad = _copy(base)
    bad["hands"].append(dict(bad["hands"][0], moves=[]))
    out["err_hand_after_match_over"] = bad
    bad = _copy(base)
    bad["hands"][0]["moves"] = bad["hands"][0]["moves"][:5]
    out["err_unfinished_followed"] = bad
    rebuild = valid["basic_rebuild"]
    h = next(i for i, hand in enumerate(rebuild["hands"]) if hand["restocks"])
    bad = _copy(rebuild)
    bad["hands"][0]["restocks"].append(bad["hands"][0]["deck"][:3])
    out["err_extra_restocks"] = bad
    bad = _copy(rebuild)
    bad["hands"][h]["restocks"][0] = bad["hands"][h]["restocks"][0][1:]
    out["err_bad_restocks"] = bad
    bad = _copy(rebuild)
    del bad["seed"]
    bad["hands"][h]["restocks"] = []
    out["err_missing_restocks_no_seed"] = bad
    return out


def dumps_json(value: dict[str, Any]) -> str:
    """Record JSON text laid out like the record writer's (plain JSON if it cannot be read)."""
    try:
        return dumps(from_json(value))
    except RecordError:  # a defect the typed Record cannot hold
        return json.dumps(value, ensure_ascii=False) + "\n"


def expected_text(value: dict[str, Any]) -> str:
    """The replay output, one hand per line."""
    if "error" in value:
        return json.dumps(value, indent=2, ensure_ascii=False) + "\n"
    hands = ",\n".join("    " + json.dumps(h) for h in value["hands"])
    rest = {k: v for k, v in value.items() if k != "hands"}
    tail = ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in rest.items())
    body = f'[\n{hands}\n  ]' if hands else "[]"
    return '{\n  "hands": ' + body + ",\n" + tail + "\n}\n"


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for old in GOLDEN.glob("*.json"):
        old.unlink()
    valid = valid_records()
    records: dict[str, dict[str, Any] | str] = {**valid, **invalid_records(valid)}
    for name, record in sorted(records.items()):
        text = record if isinstance(record, str) else dumps_json(record)
        (GOLDEN / f"{name}.rummy.json").write_text(text, encoding="utf-8")
        output = replay_text(text).to_json()
        (GOLDEN / f"{name}.expected.json").write_text(expected_text(output), encoding="utf-8")
        status = output["error"]["type"] if "error" in output else "ok"
        print(f"{name:32} {status}")


if __name__ == "__main__":
    main()
