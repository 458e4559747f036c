"""Cards as people write them, for the faces (terminal and web): ``10♦``, ``A♠``, ``JK``.

The notation of FORMATS.md (``DT``, ``SA``) stays the canonical form of moves and records;
this module only translates at the face. :func:`card_face` writes a card as it is drawn,
:func:`faces_in` rewrites the cards of an engine message that way, and :func:`typed_move`
turns what a person types (``discard 10♦``, ``lay t♥ on 2``, ``meld 7h 8h 9h``) into the
canonical move text, leaving any other word for the move parser to judge.

>>> card_face(22), faces_in("cannot discard DT: it was taken this turn")
('10♦', 'cannot discard 10♦: it was taken this turn')
>>> typed_move("meld 10♦ j♦ ♦Q"), typed_move("lay JK=10h on 2"), typed_move("discard 1s")
('meld DT DJ DQ', 'lay JK=HT on 2', 'discard SA')
"""

from __future__ import annotations

import re

from rummykit.core.cards import JOKER, RANKS, SUITS, Card, rank_of, suit_of
from rummykit.core.errors import NotationError
from rummykit.core.melds import JOKER_AS

#: the suit symbols in the order of the suit letters C, D, H, S
SUIT_SYMBOLS = "♣♦♥♠"
RANK_FACES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


_CODE = re.compile(r"(?<![A-Za-z0-9=])(JK=)?([CDHS][A2-9TJQK])(?![A-Za-z0-9])")
_SUIT_OF = {**{s: s for s in SUITS}, **dict(zip(SUIT_SYMBOLS, SUITS, strict=True))}
_RANK_OF = {**{r: r for r in RANKS}, "10": "T", "1": "A"}
_RANK = "10|[1-9AaTtJjQqKk]"
_SUIT = "[CDHScdhs♣♦♥♠]"
_TYPED = re.compile(rf"^(?P<joker>[Jj][Kk]=)?(?:(?P<suit1>{_SUIT})(?P<rank1>{_RANK})|"
                    rf"(?P<rank2>{_RANK})(?P<suit2>{_SUIT}))$")


def card_face(card: Card) -> str:
    """``10♦``, ``A♠`` or ``JK``; a table joker standing for a card is ``JK=7♥``."""
    if card == JOKER:
        return "JK"
    if card >= JOKER_AS:
        return "JK=" + card_face(card - JOKER_AS)
    return RANK_FACES[rank_of(card) - 1] + SUIT_SYMBOLS[suit_of(card)]


def cards_face(cards: list[Card] | tuple[Card, ...]) -> str:
    """Cards as faces separated by spaces."""
    return " ".join(card_face(c) for c in cards)


def face_of_code(code: str) -> str:
    """``DT`` -> ``10♦``; anything that is not a natural card's code is returned as is."""
    if len(code) == 2 and code[0] in SUITS and code[1] in RANKS:
        return RANK_FACES[RANKS.index(code[1])] + SUIT_SYMBOLS[SUITS.index(code[0])]
    return code


def faces_in(text: str) -> str:
    """``text`` with every canonical card code (``DT``, ``JK=H6``) written as a face."""
    return _CODE.sub(lambda m: (m.group(1) or "") + face_of_code(m.group(2)), text)


def typed_card(token: str) -> str | None:
    """The canonical code of a typed card (``10♦``, ``♦10``, ``d10``, ``TD``, ``JK=7h``), or
    None when ``token`` is not written as a card (``JK`` alone is left to the parser)."""
    found = _TYPED.match(token)
    if found is None:
        return None
    suit = found.group("suit1") or found.group("suit2")
    rank = (found.group("rank1") or found.group("rank2")).upper()
    return ("JK=" if found.group("joker") else "") + _SUIT_OF[suit.upper()] + _RANK_OF[rank]


def typed_move(text: str) -> str:
    """What a person typed, with every card written in the canonical notation; other words
    are kept so that the move parser can name what is wrong with them (a word with a suit
    symbol that is no card raises :class:`NotationError` here)."""
    words = text.replace("/", " / ").split()
    for word in words:
        if typed_card(word) is None and any(symbol in word for symbol in SUIT_SYMBOLS):
            raise NotationError(f"bad card {word!r}: expected a rank then a suit, like "
                                "10♦, 7♥ or A♠ (or DT, H7, SA), or JK")
    return " ".join(typed_card(word) or word for word in words)
