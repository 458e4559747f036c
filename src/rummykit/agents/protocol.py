"""The wire messages of the JSON agent protocol ``rummykit-agent/2`` (docs/agents.md).

One JSON object per line each way. Everything an agent learns about a hand comes from
:func:`view_json`, built from the seat's :class:`~rummykit.core.views.PlayerView` only, so an
agent sees exactly what a bot sees. Cards and moves are in the notation of FORMATS.md.

>>> import random
>>> from rummykit.core.engine import HandState
>>> from rummykit.variants import BASIC
>>> from rummykit.core.views import view
>>> state = HandState.deal(BASIC, num_players=2, dealer=0, rng=random.Random(4))
>>> message = turn_message(1, view(state, 1))
>>> message["type"], message["legal"], len(message["view"]["hand"])
('turn', ['draw', 'take'], 10)
>>> parse_answer('{"move": "draw"}', 1)
'draw'
>>> parse_answer('{"move": "draw"}', 3, owed=(2,))  # turn 2 timed out: this answers it
Traceback (most recent call last):
...
rummykit.agents.protocol.LateAnswer: the late answer to turn 2 (given up after the timeout)
>>> is_ready('{"ready": true}'), is_ready('ready')
(True, False)
>>> parse_answer('draw', 1)
Traceback (most recent call last):
...
rummykit.agents.protocol.AnswerError: not a JSON object: 'draw'; answer like {"move": "draw"}
"""

from __future__ import annotations

import json
from typing import Any

from rummykit.agents.gin_wire import knock_view_json
from rummykit.core import handset
from rummykit.core.cards import ALL_NATURALS, JOKER, cards_of, format_card, format_cards
from rummykit.core.melds import format_placed
from rummykit.core.views import PlayerView
from rummykit.variants.table_hooks import table_hooks
from rummykit.variants.table_kinds import KNOCK, table_kind

PROTOCOL = "rummykit-agent/2"
MAX_LINE = 1 << 20  # bytes of one answer line

Message = dict[str, Any]


class AnswerError(ValueError):
    """An answer line that is not ``{"move": "..."}`` (kind ``malformed``)."""


class StaleAnswer(AnswerError):
    """An answer carrying the id of an earlier turn that was already settled (dropped)."""


class LateAnswer(AnswerError):
    """The answer to a turn given up after its timeout (``ident``): dropped, not played."""

    def __init__(self, ident: int) -> None:
        super().__init__(f"the late answer to turn {ident} (given up after the timeout)")
        self.ident = ident


def _cards(hand: int) -> list[str]:
    return format_cards(handset.cards(hand)).split()


def _seats(mask: int, players: int) -> list[int]:
    return [s for s in range(players) if mask >> s & 1]


def view_json(seen: Any) -> Message:
    """The JSON form of a seat's view (its fields are documented in docs/agents.md): the
    engine's :class:`PlayerView`, or a knock family's view (gin's, "The gin view")."""
    if table_kind(seen.rules) == KNOCK:
        return knock_view_json(seen)
    return _shared_view_json(seen)


def _shared_view_json(seen: PlayerView) -> Message:
    players = seen.num_players
    result = seen.result.to_json() if seen.result is not None else None
    discarded = [format_cards(cards_of(m & ALL_NATURALS)).split() + (["JK"] * (m >> JOKER & 1))
                 for m in seen.discarded]
    return {
        "rules": seen.rules.name,
        "seat": seen.seat,
        "players": players,
        "deal": seen.deal_index,
        "dealer": seen.dealer,
        "to_move": seen.to_move,
        "phase": seen.phase,
        "turn": seen.turn_count,
        "hand": _cards(seen.hand),
        "hand_sizes": list(seen.hand_sizes),
        "table": [{"number": n, "kind": meld.kind,
                   "cards": [format_placed(c) for c in meld.cards],
                   "placed_by": list(meld.placed_by)}
                  for n, meld in enumerate(seen.table, 1)],
        "discard": format_cards(seen.discard).split(),
        "stock_size": seen.stock_size,
        "known": [_cards(k) for k in seen.known],
        "discarded": discarded,
        "taken": format_card(seen.taken) if seen.taken >= 0 else None,
        "melds_this_turn": seen.melds_this_turn,
        "placed_this_turn": seen.placed_this_turn,
        "ever_placed": _seats(seen.ever_placed, players),
        **_family_fields(seen),
        "rebuilds": seen.rebuilds,
        "result": result,
        "revealed": [_cards(h) for h in seen.revealed],
    }


def _family_fields(seen: PlayerView) -> Message:
    """The shared view's fields that a family's part fills (docs/agents.md): the family's
    values over those of a family without a part (nobody down, no duty)."""
    return {"down": [], "went_down": False, "dig_duty": None, "joker_duty": 0,
            **table_hooks(seen.rules).part_json(seen)}


def hello_message(seen: Any, timeout: float, retries: int,
                  startup_timeout: float) -> Message:
    """The first message: protocol version, seat, rules and the limits the agent runs under.
    The agent answers it with one JSON object (``{"ready": true}``) before its first turn."""
    return {"type": "hello", "protocol": PROTOCOL, "seat": seen.seat,
            "players": len(seen.hand_sizes), "rules": seen.rules.name,
            "options": seen.rules.options, "timeout": timeout, "retries": retries,
            "startup_timeout": startup_timeout}


def is_ready(line: str) -> bool:
    """Whether ``line`` is a reply to ``hello``: any JSON object."""
    try:
        return isinstance(json.loads(line), dict)
    except json.JSONDecodeError:
        return False


def turn_message(ident: int, seen: Any) -> Message:
    """A request for a move: the view and the legal moves in canonical notation."""
    return {"type": "turn", "id": ident, "view": view_json(seen),
            "legal": [str(move) for move in seen.legal]}


def error_message(ident: int, kind: str, message: str, answer: str | None,
                  retries_left: int) -> Message:
    """A rejected answer; the agent answers the same turn again while ``retries_left`` >= 0."""
    return {"type": "error", "id": ident, "kind": kind, "message": message, "answer": answer,
            "retries_left": retries_left}


def fallback_message(ident: int, move: str, reason: str) -> Message:
    """The move played for the agent after too many bad answers (no answer expected)."""
    return {"type": "fallback", "id": ident, "move": move, "reason": reason}


def hand_over_message(seen: Any) -> Message:
    """The end of a hand: the view with its result and every hand revealed."""
    return {"type": "hand_over", "view": view_json(seen)}


def end_message(totals: list[int], winners: list[int]) -> Message:
    """The end of the match (no answer expected; stdin closes next)."""
    return {"type": "end", "totals": totals, "winners": winners}


def encode(message: Message) -> bytes:
    """One message as a line of compact JSON."""
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


def parse_answer(line: str, ident: int, owed: tuple[int, ...] = ()) -> str:
    """The move text of an answer to turn ``ident``; raises :class:`AnswerError` saying what
    is wrong, :class:`LateAnswer` when the line answers a turn of ``owed`` (turns given up
    after their timeout: an answer without an id settles the oldest)."""
    shown = line.strip()
    if len(shown) > 80:
        shown = shown[:77] + "..."
    try:
        answer = json.loads(line)
    except json.JSONDecodeError:
        answer = None
    if not isinstance(answer, dict):
        raise AnswerError(f'not a JSON object: {shown!r}; answer like {{"move": "draw"}}')
    given = answer.get("id")
    if given in owed or (owed and "id" not in answer):
        raise LateAnswer(given if given in owed else min(owed))
    move = answer.get("move")
    if not isinstance(move, str):
        raise AnswerError(f'no "move" string in {shown!r}; answer like {{"move": "draw"}}')
    if "id" in answer and answer["id"] != ident:
        late = isinstance(answer["id"], int) and 0 < answer["id"] < ident
        kind = StaleAnswer if late else AnswerError
        raise kind(f"answer for id {answer['id']!r} while turn {ident} waits")
    return move
