"""Whether a record's cards are the pack of its rules (the replay's deal check).

>>> from rummykit.core.rules import find_rules
>>> pack_problem(find_rules("basic"), 2, list(range(51)))
'not the basic pack for 2 players: 51 cards instead of 52; missing SK'
"""

from __future__ import annotations

from collections import Counter

from rummykit.core.cards import Card, format_card, standard_pack
from rummykit.variants.base import RulesLike


def pack_problem(rules: RulesLike, players: int, cards: list[Card]) -> str | None:
    """Why ``cards`` is not exactly the pack of the rules for this many players."""
    pack = Counter(standard_pack(*rules.pack_spec(players)))
    given = Counter(cards)
    if given == pack:
        return None

    def listing(counts: Counter[Card]) -> str:
        return " ".join(format_card(c) + (f" x{n}" if n > 1 else "")
                        for c, n in sorted(counts.items()))

    parts = []
    if given.total() != pack.total():
        parts.append(f"{given.total()} cards instead of {pack.total()}")
    if pack - given:
        parts.append("missing " + listing(pack - given))
    if given - pack:
        parts.append("extra " + listing(given - pack))
    return f"not the {rules.name} pack for {players} players: " + "; ".join(parts)
