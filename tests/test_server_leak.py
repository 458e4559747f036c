"""Leak test: over many seeded matches, every message to a seat holds exactly that seat's
view (recomputed here with the engine from the same seed) and no card it does not show."""

from __future__ import annotations

import json
import random
import re
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit.core import handset
from rummykit.core.cards import format_card
from rummykit.core.match import Match
from rummykit.core.melds import format_placed
from rummykit.core.views import PlayerView, public_view, view
from rummykit.server.render import legal_out, view_out
from rummykit.server.table import table_rules
from test_server_support import (
    Player,
    create,
    humans,
    play_out,
    running,
    settings_for,
    without_identifiers,
)

CARD = re.compile(r"\b(?:JK(?:=[CDHS][2-9TJQKA])?|[CDHS][2-9TJQKA])\b")
HIDDEN_KEYS = ('"deck":', '"seed":', '"stock":', '"restocks":', '"deal":')

MATCHES = [  # rules, seats, seed, moves to play (None: the whole match), options
    ("basic", 2, 1, None, {"target_score": 30}),
    ("basic", 2, 2, None, {"target_score": 30}),
    ("basic", 3, 3, None, {"target_score": 20}),
    ("basic", 4, 4, 200, {}),
    ("traditional", 2, 5, None, {}),
    ("traditional", 3, 6, 200, {}),
    ("contract", 3, 7, 150, {}),
    ("contract", 4, 8, 120, {}),
]


def visible(seen: PlayerView) -> set[str]:
    """Every card the view shows, in notation (jokers also as plain JK)."""
    cards = {format_card(c) for c in handset.cards(seen.hand)}
    cards |= {format_card(c) for c in seen.discard}
    for meld in seen.table:
        for placed in meld.cards:
            cards |= {format_placed(placed), *format_placed(placed).split("=")}
    for group in (seen.known, seen.discarded, seen.revealed):
        for held in group:
            cards |= {format_card(c) for c in handset.cards(held)}
    cards |= {c.split("=")[0] for c in cards}
    return cards


def check_message(message: dict[str, Any], seen: PlayerView | None) -> None:
    """No hidden key, and every card named is one the viewer sees (random identifiers
    aside)."""
    text = json.dumps(without_identifiers(message))
    for key in HIDDEN_KEYS:
        assert key not in text, (key, text[:200])
    shown = visible(seen) if seen is not None else set()
    for card in CARD.findall(text):
        assert card in shown or card.split("=")[0] in shown, (card, text[:300])


def play(client: TestClient, stack: ExitStack, rules: str, seats: int, seed: int,
         limit: int | None, options: dict[str, Any]) -> tuple[list[Player], Player]:
    created = create(client, humans(*(f"P{i}" for i in range(seats))), rules=rules,
                     seed=seed, options=options)
    players = []
    for token in (t["token"] for t in created["tokens"]):
        player = Player(stack.enter_context(client.websocket_connect("/ws")))
        player.hello(token=token)
        player.until("sync")
        players.append(player)
    watcher = Player(stack.enter_context(client.websocket_connect("/ws")))
    watcher.hello(table=created["table"]["id"])
    watcher.until("sync")
    play_out(players, random.Random(seed), limit=limit or 100000)
    watcher.catch_up(players[0].version)
    for player in (*players, watcher):  # a resync at the end: its move log is checked too
        player.send({"type": "sync"})
        player.until("sync")
    return players, watcher


@pytest.mark.parametrize(("rules", "seats", "seed", "limit", "options"), MATCHES)
def test_no_message_shows_a_card_its_view_hides(tmp_path: Path, rules: str, seats: int,
                                                seed: int, limit: int | None,
                                                options: dict[str, Any]) -> None:
    settings = settings_for("sqlite", tmp_path)
    with running(settings) as client, ExitStack() as stack:
        players, watcher = play(client, stack, rules, seats, seed, limit, options)
    mirror = Match(table_rules(rules, options, settings.max_turns_per_hand),
                   [f"P{i}" for i in range(seats)], seed=seed)
    # index each recipient's messages by the version they follow
    by_version = [{m["version"]: m for m in p.log if m["type"] == "event"}
                  for p in (*players, watcher)]
    events = sorted(by_version[0].values(), key=lambda m: m["version"])
    assert [e["version"] for e in events] == list(range(2, players[0].version + 1))
    checked = 0
    for version in range(1, players[0].version + 1):
        if version == 1:
            mirror.start_hand()
        else:
            event = by_version[0][version]
            if event["kind"] == "deal":
                mirror.start_hand()
            else:
                assert mirror.state is not None
                assert event["seat"] == mirror.state.to_move
                mirror.play(event["move"])
        state = mirror.state
        assert state is not None
        for recipient, messages in enumerate(by_version):
            seen = public_view(state) if recipient == seats else view(state, recipient)
            if version == 1:
                continue  # the first deal came in the sync, checked below
            message = messages[version]
            assert message["view"] == json.loads(view_out(seen).model_dump_json())
            assert message["legal"] == legal_out(seen)
            check_message(message, seen)
            checked += 1
    assert checked >= len(events) * (seats + 1)
    # the final resync's move log: the moves of the hand its view shows, as the events
    # told them
    final = mirror.state
    assert final is not None
    start = max((e["version"] for e in events if e["kind"] == "deal"), default=1)
    hand_moves = [{"version": e["version"], "seat": e["seat"], "move": e["move"],
                   "bot": e["bot"]}
                  for e in events if e["kind"] == "move" and e["version"] > start]
    assert hand_moves or limit is None  # a match stopped midway has a hand in progress
    for recipient, p in enumerate((*players, watcher)):
        resync = [m for m in p.log if m["type"] == "sync"][-1]
        assert resync["version"] == players[0].version
        seen = public_view(final) if recipient == seats else view(final, recipient)
        assert resync["view"] == json.loads(view_out(seen).model_dump_json())
        assert resync["log"] == hand_moves  # (after the match: its last hand's moves)
        check_message(resync, seen)  # the log names no card the view hides
    # the other messages (welcome, sync of the first deal, seats, acks) show nothing more
    first = Match(table_rules(rules, options, settings.max_turns_per_hand),
                  [f"P{i}" for i in range(seats)], seed=seed)
    first_state = first.start_hand()
    for recipient, p in enumerate((*players, watcher)):
        seen = public_view(first_state) if recipient == seats else view(first_state, recipient)
        for message in p.log:
            if message["type"] == "sync" and message["version"] > 1:
                continue  # the final resync, checked above
            if message["type"] == "sync":
                assert message["view"] == json.loads(view_out(seen).model_dump_json())
            if message["type"] != "event":
                check_message(message, seen)
