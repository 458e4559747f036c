"""The gin view in wire form (variants/gin/wire.py): the knock choices are legal, distinct
arrangements; a view's JSON names no card of the other seat's hidden hand; a knock's card
is left out of the move text for the others until the hand is over."""

from __future__ import annotations

import json
import random
import re

from rummykit.bots.gin_greedy import greedy_gin_move
from rummykit.core.cards import cards_of, format_card, mask_of, parse_card
from rummykit.variants.gin.hand import GinHand
from rummykit.variants.gin.moves import parse_gin_move
from rummykit.variants.gin.rules import GIN, OKLAHOMA
from rummykit.variants.gin.view import gin_view
from rummykit.variants.gin.wire import FACE_DOWN, knock_choices, move_for, view_json

CARD = re.compile(r"\b[CDHS][2-9TJQKA]\b")


def test_every_knock_choice_is_a_legal_distinct_arrangement() -> None:
    rng, offers, alternatives = random.Random(5), 0, 0
    for rules in (GIN, OKLAHOMA):
        for _ in range(150):
            hand = GinHand.deal(rules, dealer=0, rng=rng)
            while hand.result is None:
                seen = gin_view(hand, hand.to_move)
                for offer in knock_choices(seen):
                    offers += 1
                    moves = [c["move"] for c in offer["choices"]]
                    assert moves[0] in {str(m) for m in seen.legal}  # the implied one
                    assert len(set(moves)) == len(moves)
                    melds = [frozenset(mask_of(g) for g in parse_gin_move(m).groups or ())
                             for m in moves]
                    assert len(set(melds)) == len(melds)  # no arrangement twice
                    for choice in offer["choices"]:
                        move = parse_gin_move(choice["move"])
                        assert hand.is_legal(move), choice
                        rest = hand.hands[hand.to_move] & ~(
                            0 if offer["card"] is None else 1 << parse_card(offer["card"]))
                        loose = rest & ~sum(mask_of(g) for g in move.groups or ())
                        assert choice["deadwood"] == sum(min(c % 13 + 1, 10)
                                                         for c in cards_of(loose))
                    alternatives += len(moves) > 1
                hand.play(greedy_gin_move(seen))
    assert offers > 100 and alternatives > 20


def test_a_view_names_no_hidden_card_of_the_other_seat() -> None:
    rng = random.Random(9)
    for _ in range(60):
        hand = GinHand.deal(GIN, dealer=1, rng=rng)
        while hand.result is None:
            for viewer in (0, 1, -1):
                text = json.dumps(view_json(gin_view(hand, viewer)))
                named = set(CARD.findall(text))
                hidden = set(hand.stock)
                for seat in (0, 1):
                    if seat != viewer and hand.knocker != seat:
                        hidden |= set(cards_of(hand.hands[seat] & ~hand.known[seat]))
                hidden -= set(cards_of(hand.discarded[0] | hand.discarded[1]))
                assert not named & {format_card(c) for c in hidden}
            hand.play(greedy_gin_move(gin_view(hand, hand.to_move)))


def test_the_knock_card_is_face_down_in_the_move_text() -> None:
    move = "gin H4: SA S2 S3 S4 / CA C2 C3 / D2 D3 D4"
    assert move_for(move, 0, 1, over=False) == f"gin {FACE_DOWN}: SA S2 S3 S4 / CA C2 C3 / D2 D3 D4"
    assert move_for(move, 0, 0, over=False) == move
    assert move_for(move, 0, 1, over=True) == move
    assert move_for("gin: S2 S3 S4 S5 / C7 D7 H7 S7 / CK DK HK", 0, 1, False) \
        == "gin: S2 S3 S4 S5 / C7 D7 H7 S7 / CK DK HK"  # big gin discards nothing
    assert move_for("lay H6 on 1", 1, 0, over=False) == "lay H6 on 1"
