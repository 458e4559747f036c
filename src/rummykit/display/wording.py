"""Plain words for people: plurals, bot names, verbs, cards gained, drawn hands.

Shared by the line-mode game, the full-screen table, hints and replays.
"""

from __future__ import annotations

import textwrap
from collections import Counter

from rummykit.core import handset
from rummykit.core.outcome import BLOCKED, DEADLOCK, HandResult

#: names given to bot seats, skipping the human's
BOT_NAMES = ("Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy")


def wrapped(text: str, width: int = 88) -> str:
    r"""A rules text for a terminal: each long line folded to ``width`` columns, indented
    lines (examples, lists) kept as they are.

    >>> print(wrapped("Aim: be first to get rid of your cards.\n  draw", 20))
    Aim: be first to get
    rid of your cards.
      draw
    """
    return "\n".join(line if line.startswith(" ") else textwrap.fill(line, width)
                     for line in text.splitlines())


def bot_names(human: str, count: int) -> list[str]:
    """``count`` bot names that differ from the human's."""
    names = [n for n in BOT_NAMES if n.lower() != human.lower()]
    return names[:count] if count <= len(names) else [f"Bot {i + 1}" for i in range(count)]


def plural(count: int, noun: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def agree(name: str, verb: str) -> str:
    """``Ann plays``, but ``You play``: the verb agreeing with a player's name.

    >>> agree("Ann", "plays"), agree("You", "plays"), agree("you", "shares")
    ('Ann plays', 'You play', 'you share')
    >>> agree("You", "goes"), agree("You", "has"), agree("Ann", "goes")
    ('You go', 'You have', 'Ann goes')
    """
    if name.lower() == "you" and verb.endswith("s"):
        verb = _SECOND_PERSON.get(verb, verb[:-1])
    return f"{name} {verb}"


_SECOND_PERSON = {"goes": "go", "has": "have", "is": "are", "does": "do"}  # irregular


def gained(before: int, after: int) -> list[int]:
    """The cards in hand ``after`` that were not in hand ``before`` (multisets)."""
    extra = Counter(handset.cards(after))
    extra.subtract(handset.cards(before))
    return sorted(extra.elements())


def drawn_words(result: HandResult) -> str:
    """A hand that ended with no winner, in words: a blocked contract deal scores every
    hand (RULES.md §4.8.1), any other drawn hand scores nothing."""
    if result.reason == BLOCKED:
        return "blocked (no card can be placed any more), every hand scores its cards"
    why = "deadlock" if result.reason == DEADLOCK else "the stock ran out"
    return f"drawn ({why}), no points"
