"""Moves as frozen values and their notation (FORMATS.md §1); no game state here.

>>> parse_move("MELD h7 h8  h9/ c2 d2 s2")
Meld(groups=((32, 33, 34), (1, 14, 40)))
>>> str(parse_move("lay HA on 2 high")), str(parse_move("take"))
('lay HA on 2 high', 'take')
>>> parse_move("discard X9")
Traceback (most recent call last):
...
rummykit.core.errors.NotationError: bad card 'X9': expected a suit C, D, H or S then a rank ...
"""

from __future__ import annotations

from dataclasses import dataclass

from rummykit.core.cards import JOKER, Card, format_card, parse_card
from rummykit.core.errors import NotationError
from rummykit.core.melds import JOKER_AS, format_placed

ENDS = ("low", "high")


@dataclass(frozen=True, slots=True)
class Draw:
    """Take the top card of the stock."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Take:
    """Take the top ``count`` cards of the discard pile (``count`` > 1 is a contract dig).

    ``card`` is set only by the parser for ``take CARD``; the engine turns it into a count.
    """

    count: int = 1
    card: Card | None = None

    def __str__(self) -> str:
        if self.card is not None:
            return f"take {format_card(self.card)}"
        return "take" if self.count == 1 else f"take {self.count}"


@dataclass(frozen=True, slots=True)
class Meld:
    """Lay one or more new melds from hand as one action; cards are placed codes.

    A joker without a declared identity is the plain card ``JOKER`` until resolved.
    """

    groups: tuple[tuple[int, ...], ...]

    def __str__(self) -> str:
        return "meld " + " / ".join(" ".join(_placed_text(c) for c in g) for g in self.groups)


@dataclass(frozen=True, slots=True)
class LayOff:
    """Lay off one card from hand onto table meld number ``target`` (1-based)."""

    card: int
    target: int
    end: str | None = None

    def __str__(self) -> str:
        text = f"lay {_placed_text(self.card)} on {self.target}"
        return f"{text} {self.end}" if self.end else text


@dataclass(frozen=True, slots=True)
class Swap:
    """Contract joker swap: ``card`` replaces the joker standing for it in run ``target``."""

    card: Card
    target: int

    def __str__(self) -> str:
        return f"swap {format_card(self.card)} on {self.target}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard one card face up."""

    card: Card

    def __str__(self) -> str:
        return f"discard {format_card(self.card)}"


Move = Draw | Take | Meld | LayOff | Swap | Discard


def _placed_text(code: int) -> str:
    return "JK" if code == JOKER else format_placed(code)


def parse_placed(token: str) -> int:
    """A card of a meld or lay-off: natural, ``JK`` (identity to infer) or ``JK=H6``."""
    head, sep, tail = token.upper().partition("=")
    if not sep:
        return parse_card(token)
    if head != "JK":
        raise NotationError(f"bad card {token!r}: only a joker takes an identity (JK=H6)")
    natural = parse_card(tail)
    if natural == JOKER:
        raise NotationError(f"bad card {token!r}: a joker stands for a natural card")
    return JOKER_AS + natural


def _plain(token: str) -> Card:
    if "=" in token:
        raise NotationError(f"bad card {token!r}: a joker identity is allowed only in meld and lay")
    return parse_card(token)


def _number(token: str, what: str) -> int:
    if not (token.isascii() and token.isdigit() and len(token) <= 6) or int(token) < 1:
        raise NotationError(f"bad {what} {token!r}: expected a number 1, 2, ...")
    return int(token)


def parse_move(text: str) -> Move:
    """Parse one move of the notation; raises :class:`NotationError` quoting the bad token."""
    words = text.replace("/", " / ").split()
    for word in words:
        if not word.isascii():
            raise NotationError(f"bad token {word!r} in {text.strip()!r}: the notation is ASCII")
    if not words:
        raise NotationError("empty move: expected draw, take, meld, lay, swap or discard")
    keyword, args = words[0].lower(), words[1:]
    if keyword == "draw" and not args:
        return Draw()
    if keyword == "take" and len(args) <= 1:
        if not args:
            return Take()
        if args[0].isdigit():
            return Take(count=_number(args[0], "count"))
        return Take(card=_plain(args[0]))
    if keyword == "discard" and len(args) == 1:
        return Discard(_plain(args[0]))
    if keyword == "meld" and args:
        groups: list[tuple[int, ...]] = [()]
        for token in args:
            if token == "/":
                groups.append(())
            else:
                groups[-1] += (parse_placed(token),)
        for group in groups:
            if len(group) < 3:
                shown = " ".join(_placed_text(c) for c in group) or "nothing"
                raise NotationError(
                    f"bad meld group {shown!r} in {text.strip()!r}: a group needs 3 or more cards"
                )
        return Meld(tuple(groups))
    if keyword == "lay" and len(args) in (3, 4) and args[1].lower() == "on":
        end = args[3].lower() if len(args) == 4 else None
        if end is not None and end not in ENDS:
            raise NotationError(f"bad end {args[3]!r}: expected low or high")
        return LayOff(parse_placed(args[0]), _number(args[2], "meld number"), end)
    if keyword == "swap" and len(args) == 3 and args[1].lower() == "on":
        return Swap(_plain(args[0]), _number(args[2], "meld number"))
    if keyword in ("draw", "take", "discard", "meld", "lay", "swap"):
        usage = {
            "draw": "draw", "take": "take [COUNT | CARD]", "discard": "discard CARD",
            "meld": "meld CARD CARD CARD ... [/ CARD CARD CARD ...]",
            "lay": "lay CARD on N [low|high]", "swap": "swap CARD on N",
        }[keyword]
        raise NotationError(f"bad move {text.strip()!r}: expected {usage!r}")
    raise NotationError(
        f"bad move {text.strip()!r}: unknown keyword {words[0]!r}; expected draw, take, meld, "
        "lay, swap or discard"
    )
