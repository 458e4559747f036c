"""The event messages written directly (server.viewtext) are byte for byte what the wire
models write, for every viewer, over whole matches of every core rule set."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator

import pytest

from rummykit.core.engine import HandState
from rummykit.core.match import Match
from rummykit.core.rules import PRESETS
from rummykit.core.views import public_view, view
from rummykit.server import viewtext
from rummykit.server.eventtext import OWN_FIELDS, EventText
from rummykit.server.render import legal_out, view_out

HEAD = '{"type":"event","version":7,"kind":"move","seat":0,"move":"draw","bot":false,"match":{}'


def states(rules: str, players: int, seed: int, most: int = 350) -> Iterator[HandState]:
    """The states of a match played by a policy that melds and lays off when it can."""
    rng = random.Random(seed)
    short = dataclasses.replace(PRESETS[rules], max_turns_per_hand=80)  # hands end often
    match = Match(short, [f"P{i}" for i in range(players)], seed=seed)
    state = match.start_hand()
    for _ in range(most):
        yield state
        if state.result is not None:
            if match.over:
                return
            state = match.start_hand()
            continue
        legal = [str(m) for m in state.legal_moves()]
        eager = [m for m in legal if m.split()[0] in ("meld", "lay", "swap", "take")]
        match.play(rng.choice(eager) if eager and rng.random() < 0.8 else rng.choice(legal))
        assert match.state is not None
        state = match.state


def old_text(state: HandState, recipient: int) -> str:
    """An event message as the wire models write it (what the server sent before)."""
    seen = public_view(state) if recipient < 0 else view(state, recipient)
    shared = view_out(public_view(state)).model_dump_json(exclude=set(OWN_FIELDS))[1:]
    own = '"seat":null,"hand":[]' if recipient < 0 else \
        f'"seat":{recipient},"hand":{json.dumps(view_out(seen).hand, separators=(",", ":"))}'
    legal = json.dumps(legal_out(seen), separators=(",", ":"))
    return f'{HEAD},"view":{{{own},{shared},"legal":{legal}}}'


@pytest.mark.parametrize(("rules", "players", "seed"), [
    ("basic", 2, 1), ("basic", 4, 2), ("traditional", 3, 3), ("contract", 3, 4),
    ("contract", 5, 5)])
def test_messages_are_the_models_bytes(rules: str, players: int, seed: int) -> None:
    assert viewtext.WRITTEN_HERE
    seen_ends = seen_melds = seen_down = 0
    for state in states(rules, players, seed):
        event = EventText(7, HEAD, state)
        for recipient in (-1, *range(players)):
            assert event.text(recipient) == old_text(state, recipient)
        for seat in range(players):  # every field, seen from a seat too
            seen = view(state, seat)
            whole = json.loads(view_out(seen).model_dump_json())
            assert json.loads("{" + viewtext.shared_json(seen) + "}") == {
                k: v for k, v in whole.items() if k not in OWN_FIELDS}
        seen_ends += state.result is not None
        seen_melds += bool(state.table)
        seen_down += bool(view_out(public_view(state)).down)
    assert seen_ends and seen_melds
    assert seen_down or rules != "contract"


def test_cards_json_is_the_sorted_notation() -> None:
    state = next(states("basic", 2, 9))
    hand = state.hands[0]
    assert json.loads(viewtext.cards_json(hand)) == view_out(view(state, 0)).hand
    assert viewtext.cards_json(0) == "[]"
