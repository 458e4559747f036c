"""Gin's own moves and their notation (FORMATS.md §4.1); no game state here.

``draw``, ``take``, ``discard``, ``meld`` and ``lay`` are the core moves. A knock's groups
are written in table order (meld numbers 1, 2, ...), each group's cards ascending. The short
forms (``knock X``, ``gin X``, ``gin``, ``lay C``) leave the arrangement or the target
unset (``groups`` None, ``LayOff.target`` 0): only the hand can resolve them.

>>> str(parse_gin_move("KNOCK sk:h9 h8 h7/ c2 d2 s2"))
'knock SK: H7 H8 H9 / C2 D2 S2'
>>> parse_gin_move("gin"), move_text(parse_gin_move("lay h6"))
(BigGin(groups=None), 'lay H6')
>>> parse_gin_move("knock")
Traceback (most recent call last):
...
rummykit.core.errors.NotationError: bad move 'knock': expected 'knock CARD [: MELD / MELD ...]'
"""

from __future__ import annotations

from dataclasses import dataclass

from rummykit.core.cards import Card, format_card, format_cards, parse_card
from rummykit.core.errors import NotationError
from rummykit.core.moves import Discard, Draw, LayOff, Meld, Take, parse_move

Groups = tuple[tuple[Card, ...], ...]


def _groups_text(groups: Groups) -> str:
    return " / ".join(format_cards(g) for g in groups)


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline the first upcard, or pass at the wall (ends the hand, dead)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Knock:
    """Discard ``card`` face down and show ``groups``; the rest is deadwood.

    ``groups`` None is the short form ``knock X`` (the implied arrangement)."""

    card: Card
    groups: Groups | None = None

    def __str__(self) -> str:
        if self.groups is None:
            return f"knock {format_card(self.card)}"
        return f"knock {format_card(self.card)}: {_groups_text(self.groups)}".rstrip()


@dataclass(frozen=True, slots=True)
class Gin:
    """A knock with no deadwood; ``groups`` None is the short form ``gin X``."""

    card: Card
    groups: Groups | None = None

    def __str__(self) -> str:
        if self.groups is None:
            return f"gin {format_card(self.card)}"
        return f"gin {format_card(self.card)}: {_groups_text(self.groups)}"


@dataclass(frozen=True, slots=True)
class BigGin:
    """All 11 cards melded, nothing discarded; ``groups`` None is the short form ``gin``."""

    groups: Groups | None = None

    def __str__(self) -> str:
        if self.groups is None:
            return "gin"
        return f"gin: {_groups_text(self.groups)}"


@dataclass(frozen=True, slots=True)
class Done:
    """The defender ends the show; the hand is scored."""

    def __str__(self) -> str:
        return "done"


GinMove = Draw | Take | Discard | Meld | LayOff | Pass | Knock | Gin | BigGin | Done

_KEYWORDS = "draw, take, discard, knock, gin, pass, lay, meld or done"


def _parse_groups(tokens: list[str], text: str) -> Groups:
    if not tokens:
        return ()
    groups: list[tuple[Card, ...]] = [()]
    for token in tokens:
        if token == "/":
            groups.append(())
        else:
            groups[-1] += (parse_card(token),)
    for group in groups:
        if len(group) < 3:
            shown = format_cards(group) or "nothing"
            raise NotationError(
                f"bad meld group {shown!r} in {text.strip()!r}: a group needs 3 or more cards")
    return tuple(tuple(sorted(g)) for g in groups)


def _plain_card(token: str) -> Card:
    card = parse_card(token)
    if card >= 52:
        raise NotationError(f"bad card {token!r}: gin is played without jokers")
    return card


def parse_gin_move(text: str) -> GinMove:
    """Parse one gin move; raises :class:`NotationError` quoting the bad token."""
    words = text.replace(":", " : ").replace("/", " / ").split()
    for word in words:
        if not word.isascii():
            raise NotationError(f"bad token {word!r} in {text.strip()!r}: the notation is ASCII")
    if not words:
        raise NotationError(f"empty move: expected {_KEYWORDS}")
    keyword, args = words[0].lower(), words[1:]
    if keyword in ("pass", "done"):
        if args:
            raise NotationError(f"bad move {text.strip()!r}: expected {keyword!r} alone")
        return Pass() if keyword == "pass" else Done()
    if keyword == "knock":
        if not args or args[0] == ":" or (len(args) > 1 and args[1] != ":"):
            raise NotationError(
                f"bad move {text.strip()!r}: expected 'knock CARD [: MELD / MELD ...]'")
        card = _plain_card(args[0])
        if len(args) == 1:
            return Knock(card)
        return Knock(card, _parse_groups(args[2:], text))
    if keyword == "gin":
        if not args:
            return BigGin()
        if args[0] == ":":
            return BigGin(_parse_groups(args[1:], text))
        if len(args) > 1 and args[1] != ":":
            raise NotationError(
                f"bad move {text.strip()!r}: expected 'gin CARD [: MELD / ...]' or 'gin: MELD "
                "/ ...'")
        card = _plain_card(args[0])
        if len(args) == 1:
            return Gin(card)
        return Gin(card, _parse_groups(args[2:], text))
    if keyword == "lay" and len(args) == 1:
        return LayOff(_plain_card(args[0]), 0)
    if keyword in ("draw", "take", "discard", "meld", "lay"):
        if ":" in words:
            raise NotationError(f"bad token ':' in {text.strip()!r}")
        move = parse_move(text)
        if isinstance(move, (Draw, Take, Discard, Meld, LayOff)):
            return move
    raise NotationError(
        f"bad move {text.strip()!r}: unknown keyword {words[0]!r}; expected {_KEYWORDS}")


def move_text(move: GinMove) -> str:
    """The text of a gin move; ``lay C`` for a lay-off without a target."""
    if isinstance(move, LayOff) and move.target == 0:
        return f"lay {format_card(move.card)}"
    return str(move)
