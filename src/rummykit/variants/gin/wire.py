"""A gin view in wire form (JSON-ready values, standard library only), for the server.

Everything here is rendered from one seat's :class:`~rummykit.variants.gin.view.GinView`
(or a spectator's) and the match's public score sheet; nothing reads the hand itself, so a
message holds only what that viewer may see. The object's ``kind`` (:data:`KIND`) tells a
face which family's table to draw. Cards are in the notation of RULES.md §1.2, moves in
FORMATS.md §4.1.

The knocker's discard lies face down until the hand is over, so a knock's move text names
its card only to the knocker (and to everyone once the hand is over): :func:`move_for`
writes :data:`FACE_DOWN` in its place (``knock ??: ...``; ``gin: ...`` stays big gin).

>>> import random
>>> from rummykit.variants.gin.hand import GinHand
>>> from rummykit.variants.gin.rules import GIN
>>> from rummykit.variants.gin.view import gin_view
>>> seen = gin_view(GinHand.deal(GIN, dealer=0, rng=random.Random(3)), 1)
>>> out = view_json(seen)
>>> out["kind"], out["phase"], legal_json(seen), len(out["hand"]), out["revealed"]
('gin', 'offer', ['take', 'pass'], 10, None)
>>> move_for("knock SK: H7 H8 H9 / C2 D2 S2 / D5 D6 D7", mover=0, viewer=1, over=False)
'knock ??: H7 H8 H9 / C2 D2 S2 / D5 D6 D7'
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rummykit.core.cards import Card, cards_of, format_card, mask_of
from rummykit.core.errors import RummyError
from rummykit.variants.gin.deadwood import (
    Arrangement,
    arrangement_mask,
    arrangements,
    implied_arrangement,
    mask_value,
    min_deadwood,
)
from rummykit.variants.gin.game import ScoreSheet
from rummykit.variants.gin.moves import BigGin, Gin, Knock, parse_gin_move
from rummykit.variants.gin.phases import (
    BIG_GIN_KNOCK,
    DISCARD_STEP,
    GIN_KNOCK,
    HAND_SIZE,
    PLAIN_KNOCK,
    WALL_KNOCK,
)
from rummykit.variants.gin.view import GinView

#: the face key: which family's table a face draws for this view
KIND = "gin"
#: the knock kinds by name
KNOCK_KINDS = {PLAIN_KNOCK: "knock", GIN_KNOCK: "gin", BIG_GIN_KNOCK: "big_gin"}
#: what stands for a knock's face-down card in the move text others read
FACE_DOWN = "??"
#: arrangements offered per knock discard (the implied one first)
MAX_CHOICES = 8


def _cards(mask: int) -> list[str]:
    return [format_card(c) for c in cards_of(mask)]


def _groups(groups: Arrangement) -> list[list[str]]:
    return [[format_card(c) for c in sorted(g)] for g in groups]


def _hand_json(mask: int) -> dict[str, Any]:
    """A hand's cards with its implied arrangement: melds, deadwood cards, deadwood; for
    11 cards (after the draw) also the least deadwood one discard leaves."""
    melds = implied_arrangement(mask)
    loose = mask & ~arrangement_mask(melds)
    after = None
    if mask.bit_count() == HAND_SIZE + 1:
        after = min(min_deadwood(mask & ~(1 << c)) for c in cards_of(mask))
    return {"cards": _cards(mask), "melds": _groups(melds), "deadwood": _cards(loose),
            "deadwood_value": min_deadwood(mask), "after_discard": after}


def _arrangement_text(groups: tuple[int, ...]) -> str:
    return " / ".join(" ".join(format_card(c) for c in cards_of(m)) for m in groups)


def knock_choices(seen: GinView) -> list[dict[str, Any]]:
    """For the seat to move after its draw: per knock discard, the arrangements it may
    declare (the implied one first, then the others within the knock limit by deadwood),
    each as a move in canonical notation with its deadwood."""
    if not seen.legal or seen.phase not in (DISCARD_STEP, WALL_KNOCK):
        return []
    out: list[dict[str, Any]] = []
    for move in seen.legal:
        if not isinstance(move, (Knock, Gin, BigGin)):
            continue
        card = None if isinstance(move, BigGin) else move.card
        rest = seen.hand if card is None else seen.hand & ~(1 << card)
        implied = str(move)
        choices = [{"move": implied, "deadwood": mask_value(rest & ~arrangement_mask(
            move.groups or ()))}]
        shown = frozenset(mask_of(g) for g in move.groups or ())
        others = sorted(_alternatives(rest, seen.knock_limit, card is None))
        for value, text, melds in others:
            verb = "gin" if value == 0 else "knock"
            head = verb if card is None else f"{verb} {format_card(card)}"
            if melds != shown and len(choices) < MAX_CHOICES:
                choices.append({"move": f"{head}: {text}", "deadwood": value})
        out.append({"card": None if card is None else format_card(card), "choices": choices})
    return out


def _alternatives(rest: int, limit: int, big: bool
                  ) -> Iterator[tuple[int, str, frozenset[int]]]:
    """Each arrangement of ``rest`` within the limit: its deadwood, text and melds."""
    for groups in arrangements(rest, 0 if big else limit):
        loose = rest & ~sum(groups)
        if groups:
            yield mask_value(loose), _arrangement_text(groups), frozenset(groups)


def move_for(move: str, mover: int, viewer: int, over: bool) -> str:
    """``move`` (canonical notation, made by seat ``mover``) as ``viewer`` may read it: a
    knock's face-down card is left out for all but the knocker until the hand is over."""
    if over or viewer == mover:
        return move
    try:
        parsed = parse_gin_move(move)
    except RummyError:
        return move
    if isinstance(parsed, (Knock, Gin)):
        verb = "gin" if isinstance(parsed, Gin) else "knock"
        groups = " / ".join(" ".join(format_card(c) for c in g) for g in parsed.groups or ())
        return f"{verb} {FACE_DOWN}: {groups}".rstrip()
    return move


def sheet_json(sheet: ScoreSheet) -> dict[str, Any]:
    """The match's score sheet (public): target, boxes, game bonus, each game's running
    totals and hands won (Hollywood: three games), settled once over."""
    rules = sheet.rules
    games = [g.to_json() for g in sheet.games]
    return {"target": rules.target_score, "box_bonus": rules.box_bonus,
            "game_bonus": rules.game_bonus, "hollywood": rules.hollywood,
            "single_hand": rules.game_end == "single_hand", "games": games,
            "totals": sheet.totals, "over": sheet.over, "winners": list(sheet.winners),
            "final": None if sheet.final is None else sheet.final.to_json()}


def _card(card: Card) -> str | None:
    return None if card < 0 else format_card(card)


def view_json(seen: GinView, sheet: ScoreSheet | None = None) -> dict[str, Any]:
    """The wire form of a gin view (spectator: seat null, no hand, no legal moves)."""
    own = seen.seat in (0, 1)
    result = seen.result
    laid = seen.laid
    table = [{"number": i + 1, "cards": _cards(m), "laid": _cards(m & laid)}
             for i, m in enumerate(seen.table)]
    first = len(table)
    table += [{"number": first + i + 1, "cards": [format_card(c) for c in sorted(g)],
               "laid": []} for i, g in enumerate(seen.defender_groups)]
    return {
        "kind": KIND,
        "rules": seen.rules.name,
        "seat": seen.seat if own else None,
        "hand_number": seen.deal_index,
        "dealer": seen.dealer,
        "to_move": seen.to_move,
        "phase": seen.phase,
        "hand": _cards(seen.hand) if own else [],
        "own": _hand_json(seen.hand) if own else None,
        "hand_sizes": list(seen.hand_sizes),
        "upcard": format_card(seen.upcard),
        "knock_limit": seen.knock_limit,
        "multiplier": seen.multiplier,
        "discard": [format_card(c) for c in seen.discard],
        "stock_size": seen.stock_size,
        "offer_step": seen.offer_step,
        "stock_only": seen.stock_only,
        "taken": _card(seen.taken) if own else None,
        "known": [_cards(k) for k in seen.known],
        "discarded": [_cards(d) for d in seen.discarded],
        "take_count": seen.take_count,
        "turn_count": seen.turn_count,
        "knocker": seen.knocker,
        "knock_kind": KNOCK_KINDS.get(seen.kind),
        "face_down": _card(seen.face_down),
        "knock_melds": _groups(seen.knock_groups),
        "knocker_deadwood": _cards(seen.knocker_deadwood),
        "knocker_deadwood_value": mask_value(seen.knocker_deadwood),
        "table": table,
        "laid": _cards(laid),
        "melded": seen.melded,
        "result": None if result is None else {
            "result": result.result, "winner": result.winner, "rummy": result.rummy,
            "reason": result.reason, "scores": list(result.scores)},
        "outcome": None if seen.outcome is None else seen.outcome.to_json(),
        "revealed": [_hand_json(h) for h in seen.revealed] if seen.revealed else None,
        "knocks": knock_choices(seen),
        "sheet": None if sheet is None else sheet_json(sheet),
    }


def legal_json(seen: GinView) -> list[str]:
    """The viewer's legal moves in canonical notation (empty unless it is to move)."""
    return [str(m) for m in seen.legal]
