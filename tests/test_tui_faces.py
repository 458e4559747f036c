"""Cards written and typed the same way in the faces (faces.py): every card's face reads
back as the card, the engine's messages are rewritten, and both games take typed faces."""

from __future__ import annotations

import pytest

from rummykit.cli.play import PlaySession
from rummykit.core.cards import JOKER, format_card, parse_card
from rummykit.core.errors import NotationError
from rummykit.core.melds import JOKER_AS
from rummykit.core.moves import Discard, LayOff, Meld, parse_move
from rummykit.display.faces import card_face, faces_in, typed_card, typed_move
from rummykit.variants import BASIC

NATURALS = range(52)


@pytest.mark.parametrize("card", NATURALS, ids=format_card)
def test_every_face_reads_back_as_its_card(card: int) -> None:
    face = card_face(card)
    code = format_card(card)
    rank, symbol = face[:-1], face[-1]
    letter = code[0]
    for typed in (face, symbol + rank, rank + letter, rank.lower() + letter.lower(),
                  letter + rank, code, code.lower(), code[::-1]):
        assert typed_card(typed) == code, typed
    assert typed_card("JK=" + face) == "JK=" + code
    assert faces_in(f"cannot discard {code}: no") == f"cannot discard {face}: no"


def test_faces_look_like_the_cards_drawn() -> None:
    assert [card_face(parse_card(c)) for c in ("DT", "SA", "HK", "C2")] == \
        ["10♦", "A♠", "K♥", "2♣"]
    assert card_face(JOKER) == "JK"
    assert card_face(JOKER_AS + parse_card("H7")) == "JK=7♥"


def test_only_cards_are_rewritten() -> None:
    text = "bad meld group 'H7 H8' in 'meld H7 H8'; SAY JK=D6 JK THE 2 1 ON"
    assert faces_in(text) == "bad meld group '7♥ 8♥' in 'meld 7♥ 8♥'; SAY JK=6♦ JK THE 2 1 ON"
    for word in ("on", "2", "high", "low", "JK", "jk", "11s", "S11", "x9", "draw", "10"):
        assert typed_card(word) is None, word
    assert typed_move("lay 10♥ on 2 high") == "lay HT on 2 high"
    assert typed_move("meld 7h 8h 9h/2♠ 2♦ 2♣") == "meld H7 H8 H9 / S2 D2 C2"


def test_typed_moves_parse_as_the_notation() -> None:
    assert parse_move(typed_move("discard 10♦")) == Discard(parse_card("DT"))
    assert parse_move(typed_move("lay jk=Q♠ on 3")) == LayOff(JOKER_AS + parse_card("SQ"), 3)
    assert parse_move(typed_move("MELD ♣A 2c C3")) == Meld(((0, 1, 2),))
    with pytest.raises(NotationError, match="bad card '1♣♣': expected a rank then a suit"):
        typed_move("discard 1♣♣")
    with pytest.raises(NotationError, match="bad card 'X9'"):
        parse_move(typed_move("discard X9"))


def test_the_line_mode_takes_typed_faces() -> None:
    lines: list[str] = []
    answers = iter(["draw", "hand"])
    session = PlaySession(BASIC, "Ann", ["greedy"], seed=3, out=lines.append,
                          ask=lambda prompt: next(answers, "quit"))
    session.run()
    shown = next(line for line in reversed(lines) if line.startswith("Your hand: "))
    card = parse_card(shown.split()[2])
    lines.clear()
    answers = iter(["draw", f"discard {card_face(card)}"])
    PlaySession(BASIC, "Ann", ["greedy"], seed=3, out=lines.append,
                ask=lambda prompt: next(answers, "quit")).run()
    assert any(f"discarded {format_card(card)}" in line or f"discard {format_card(card)}"
               in line for line in lines), lines
