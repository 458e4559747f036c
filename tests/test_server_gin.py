"""Gin at the server: tables of ``gin`` and ``oklahoma`` played to the end over the
WebSocket. Every message a seat or a spectator receives is that viewer's gin view in wire
form (recomputed here from a mirror match on the same seed), and no message names a card
the other seat holds and has not shown; refusals are explained; the stored record replays
with ``rummykit replay --check``; a table restored from storage plays on."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from rummykit.bots.gin_greedy import GinGreedyBot
from rummykit.core.cards import cards_of, format_card
from rummykit.core.match import FamilyMatch
from rummykit.server.table import table_rules
from rummykit.variants.gin.deadwood import arrangement_mask
from rummykit.variants.gin.hand import GinHand
from rummykit.variants.gin.view import gin_view
from rummykit.variants.gin.wire import legal_json, move_for, view_json
from test_server_support import Player, create, humans, running, settings_for, without_identifiers

CARD = re.compile(r"\b[CDHS][2-9TJQKA]\b")
SPECTATOR = -1


def hidden_from(hand: GinHand, viewer: int) -> set[str]:
    """The cards ``viewer`` must not see now: the stock, the other seat's cards that it did
    not take from the pile or show, the knocker's face-down discard (unless the card lay
    face up on the pile before: a seat's face-up discards are public)."""
    if hand.result is not None:
        return {format_card(c) for c in hand.stock}
    hidden = set(hand.stock)
    for seat in (0, 1):
        if seat == viewer:
            continue
        held = hand.hands[seat] & ~hand.known[seat]
        if hand.knocker == seat:
            held &= ~(hand.knocker_loose | arrangement_mask(hand.knock_groups))
        hidden |= set(cards_of(held))
        if hand.knocker == seat and hand.knock_card >= 0:
            hidden.add(hand.knock_card)
    hidden -= set(cards_of(hand.discarded[0] | hand.discarded[1]))
    return {format_card(c) for c in hidden}


def check_event(message: dict[str, Any], match: FamilyMatch[Any, Any], viewer: int) -> None:
    state = match.state
    assert isinstance(state, GinHand)
    seen = gin_view(state, viewer)
    assert message["view"] == json.loads(json.dumps(view_json(seen, match.scorer)))
    assert message["legal"] == legal_json(seen)
    named = set(CARD.findall(json.dumps(without_identifiers(message))))
    leaked = named & hidden_from(state, viewer)
    assert not leaked, (viewer, leaked, message["move"])


def choose(match: FamilyMatch[Any, Any], seat: int, rng: random.Random,
           bot: GinGreedyBot, message: dict[str, Any]) -> str:
    """The greedy bot's move; now and then a knock with another declared arrangement."""
    state = match.state
    assert isinstance(state, GinHand)
    move = str(bot.choose(gin_view(state, seat), rng))
    if move.startswith(("knock", "gin")):
        card = move.split(":")[0].split()[1:] or [None]
        for offer in message["view"]["knocks"]:
            if offer["card"] == card[0] and len(offer["choices"]) > 1 and rng.random() < 0.5:
                return str(rng.choice(offer["choices"][1:])["move"])
    return move


def event_at(player: Player, version: int) -> dict[str, Any]:
    """The event of ``version`` this client received (read up to it first)."""
    player.catch_up(version)
    return next(m for m in player.log if m["type"] == "event" and m["version"] == version)


def play_table(client: Any, stack: ExitStack, rules: str, seed: int,
               options: dict[str, Any], max_turns: int) -> tuple[list[Player], Player, str,
                                                                  FamilyMatch[Any, Any]]:
    created = create(client, humans("Ann", "Bob"), rules=rules, seed=seed, options=options)
    players = []
    for token in (t["token"] for t in created["tokens"]):
        player = Player(stack.enter_context(client.websocket_connect("/ws")))
        player.hello(token=token)
        player.until("sync")
        players.append(player)
    watcher = Player(stack.enter_context(client.websocket_connect("/ws")))
    watcher.hello(table=created["table"]["id"])
    watcher.until("sync")
    mirror: FamilyMatch[Any, Any] = FamilyMatch(table_rules(rules, options, max_turns),
                                                ["Ann", "Bob"], seed=seed)
    mirror.start_hand()
    for viewer, p in enumerate((*players, watcher)):  # the first deal came in the sync
        assert p.view == json.loads(json.dumps(view_json(
            gin_view(mirror.state, viewer if viewer < 2 else SPECTATOR), mirror.scorer)))
    rng, bot, checked = random.Random(seed), GinGreedyBot(), 0
    while players[0].status != "over":
        state = mirror.state
        assert state is not None
        seat = state.to_move
        move = choose(mirror, seat, rng, bot, {"view": players[seat].view})
        reply = players[seat].move(move)
        assert reply["type"] == "ack", (move, reply)
        mirror.play(move)
        for viewer, p in enumerate((*players, watcher)):
            recipient = viewer if viewer < 2 else SPECTATOR
            mine = event_at(p, reply["version"])
            check_event(mine, mirror, recipient)
            checked += 1
            over = mirror.state is not None and mirror.state.is_over
            assert mine["move"] == move_for(move, seat, recipient, over)
        if mirror.state is not None and mirror.state.is_over and not mirror.over:
            mirror.start_hand()
            for viewer, p in enumerate((*players, watcher)):
                deal = event_at(p, reply["version"] + 1)
                assert deal["kind"] == "deal"
                check_event(deal, mirror, viewer if viewer < 2 else SPECTATOR)
    assert checked > 20
    return players, watcher, created["table"]["id"], mirror


@pytest.mark.parametrize(("rules", "seed", "options"), [
    ("gin", 11, {"target_score": 60}),
    ("oklahoma", 12, {"target_score": 60}),
    ("gin", 13, {"hollywood": True, "target_score": 40}),
])
def test_a_gin_match_to_the_end_shows_each_seat_only_its_view(
        tmp_path: Path, rules: str, seed: int, options: dict[str, Any]) -> None:
    settings = settings_for("sqlite", tmp_path)
    with running(settings) as client, ExitStack() as stack:
        players, watcher, table_id, mirror = play_table(
            client, stack, rules, seed, options, settings.max_turns_per_hand)
        assert mirror.over
        final = [m for m in players[0].log if m["type"] == "event"][-1]
        assert final["match"]["over"] and final["view"]["sheet"]["over"]
        assert final["match"]["winners"] == list(mirror.winners)
        # the resync at the end: the view, and the last hand's moves in full
        for viewer, p in enumerate((*players, watcher)):
            p.send({"type": "sync"})
            sync = p.until("sync")
            recipient = viewer if viewer < 2 else SPECTATOR
            assert sync["view"] == json.loads(json.dumps(view_json(
                gin_view(mirror.state, recipient), mirror.scorer)))
            assert [m["move"] for m in sync["log"]] == mirror.hands[-1].moves
        record = client.get(f"/api/tables/{table_id}/matches/0/record")
        assert record.status_code == 200, record.text
        shown = client.get(f"/api/tables/{table_id}/matches/0/replay?seat=all")
        assert shown.status_code == 200, shown.text
        frames = shown.json()["frames"]
        assert len(frames) == len(mirror.hands) + sum(len(h.moves) for h in mirror.hands)
        assert frames[-1]["view"]["kind"] == "gin" and frames[-1]["view"]["result"]
        last = mirror.states[-1]
        assert isinstance(last, GinHand)
        assert frames[-1]["hands"] == [[format_card(c) for c in cards_of(h)]
                                       for h in last.hands]
    path = tmp_path / "match.rummy.json"
    path.write_text(record.text)
    checked = subprocess.run([sys.executable, "-m", "rummykit.cli.main", "replay", "--check",
                              str(path)], capture_output=True, text=True, timeout=120,
                             check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert json.loads(record.text)["rules"] == rules


def test_the_knock_card_stays_face_down_for_the_defender_until_the_show_ends(
        tmp_path: Path) -> None:
    """Seat 1 sees the knock move without its card; the knocker sees it; once ``done``
    is played everyone sees it."""
    assert move_for("knock SK: H7 H8 H9 / C2 D2 S2 / D5 D6 D7", 0, 1, over=False) \
        == "knock ??: H7 H8 H9 / C2 D2 S2 / D5 D6 D7"
    assert move_for("gin H4: SA S2 S3 S4 / CA C2 C3 / D2 D3 D4", 0, SPECTATOR, False) \
        == "gin ??: SA S2 S3 S4 / CA C2 C3 / D2 D3 D4"
    assert move_for("knock SK: H7 H8 H9", 0, 0, over=False) == "knock SK: H7 H8 H9"
    assert move_for("knock SK: H7 H8 H9", 0, 1, over=True) == "knock SK: H7 H8 H9"
    assert move_for("discard SK", 0, 1, over=False) == "discard SK"


def test_refusals_are_explained_and_change_nothing(tmp_path: Path) -> None:
    settings = settings_for("sqlite", tmp_path)
    with running(settings) as client, ExitStack() as stack:
        created = create(client, humans("Ann", "Bob"), rules="gin", seed=5)
        players = []
        for token in (t["token"] for t in created["tokens"]):
            player = Player(stack.enter_context(client.websocket_connect("/ws")))
            player.hello(token=token)
            player.until("sync")
            players.append(player)
        seat = players[0].view["to_move"] if players[0].view else 0
        mover = players[seat]
        assert mover.legal == ["take", "pass"]
        version = mover.version
        refused = mover.move("draw")
        assert refused["type"] == "error" and refused["code"] == "illegal"
        assert "first upcard is on offer" in refused["message"]
        refused = mover.move("knock zz")
        assert refused["type"] == "error" and "zz" in refused["message"].lower()
        refused = players[1 - seat].move("pass")
        assert refused["code"] == "not_your_turn"
        assert mover.version == version
        assert mover.move("pass")["type"] == "ack"


def test_a_bot_seat_plays_gin_and_a_bad_level_is_refused_by_name(tmp_path: Path) -> None:
    settings = settings_for("sqlite", tmp_path)
    with running(settings) as client:
        bad = client.post("/api/tables", json={"rules": "gin", "seats": [
            {"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "nonsense"}]})
        assert bad.status_code == 400 and "nonsense" in bad.text and "greedy" in bad.text
        three = client.post("/api/tables", json={"rules": "gin", "seats": humans("A", "B", "C")})
        assert three.status_code == 400 and "exactly 2 players" in three.text
        sets = {s["name"]: s for s in client.get("/api/rule-sets").json()}
        assert sets["gin"]["terms"]["title"] == "Gin Rummy"
        assert sets["oklahoma"]["terms"]["title"] == "Oklahoma Gin"
        assert sets["gin"]["players"] == [2, 2]
        assert "hollywood" in {o["knob"] for o in sets["gin"]["options"]}
        assert sets["gin"]["default_bot"] in sets["gin"]["bots"]
        created = create(client, [{"kind": "human", "name": "Ann"}, {"kind": "bot"}],
                         rules="gin", seed=8, options={"target_score": 30})
        token = created["tokens"][0]["token"]
        with client.websocket_connect("/ws") as socket:
            me = Player(socket)
            me.hello(token=token)
            me.until("sync")
            rng, moves = random.Random(8), 0
            while me.status != "over" and moves < 3000:
                if me.view and me.view["to_move"] == 0 and me.legal:
                    quick = [m for m in me.legal if m.startswith(("gin", "knock"))]
                    move = quick[0] if quick else "done" if "done" in me.legal else \
                        rng.choice([m for m in me.legal if m != "pass"] or me.legal)
                    assert me.move(move)["type"] == "ack"
                    moves += 1
                else:
                    me.receive()
            assert me.status == "over"
            assert any(m["type"] == "event" and m["bot"] for m in me.log)


def test_a_gin_table_is_restored_from_storage_after_a_restart(tmp_path: Path) -> None:
    settings = settings_for("sqlite", tmp_path)
    with running(settings) as client, ExitStack() as stack:
        created = create(client, humans("Ann", "Bob"), rules="oklahoma", seed=21)
        tokens = [t["token"] for t in created["tokens"]]
        players = []
        for token in tokens:
            player = Player(stack.enter_context(client.websocket_connect("/ws")))
            player.hello(token=token)
            player.until("sync")
            players.append(player)
        for _ in range(12):
            view = players[0].view
            assert view is not None
            mover = players[view["to_move"]]
            move = next((m for m in mover.legal if m.startswith("discard")), mover.legal[-1])
            reply = mover.move(move)
            assert reply["type"] == "ack"
            for p in players:
                p.catch_up(reply["version"])
        before = [p.view for p in players]
        version = players[0].version
    with running(settings) as client, ExitStack() as stack:
        again = []
        for seat, token in enumerate(tokens):
            back = Player(stack.enter_context(client.websocket_connect("/ws")))
            back.hello(token=token)
            sync = back.until("sync")
            assert sync["version"] == version and sync["view"] == before[seat]
            again.append(back)
        mover = again[sync["view"]["to_move"]]
        assert mover.move(mover.legal[0])["type"] == "ack"


def test_a_gin_seat_gets_a_hint_from_its_own_view(tmp_path: Path) -> None:
    settings = settings_for("sqlite", tmp_path)
    with running(settings) as client, ExitStack() as stack:
        created = create(client, [{"kind": "human", "name": "Ann"},
                                  {"kind": "bot", "level": "easy"}], rules="gin", seed=4)
        token = created["tokens"][0]["token"]
        me = Player(stack.enter_context(client.websocket_connect("/ws")))
        me.hello(token=token)
        me.until("sync")
        while not me.legal:
            me.receive()
        table_id = created["table"]["id"]
        hint = client.get(f"/api/tables/{table_id}/hint", headers={"X-Seat-Token": token})
        assert hint.status_code == 200, hint.text
        advice = hint.json()
        assert advice["move"] in me.legal
        assert advice["text"] and advice["lines"][0].startswith("Recommended: ")
        assert me.move(advice["move"])["type"] == "ack"
