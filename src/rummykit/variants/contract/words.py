"""Contract Rummy in words: a deal's contract (the rules for players are :mod:`.help`).

>>> from rummykit.variants.contract.presets import CONTRACT
>>> contract_words(CONTRACT, 1), contract_words(CONTRACT, 2)
('1 set + 1 run', '2 runs (of different suits)')
>>> contract_words(CONTRACT, 6)
'3 runs (of different suits), all cards at once with no discard'
"""

from __future__ import annotations

from rummykit.core.rules import Rules


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def melds_words(sets: int, runs: int) -> str:
    """A contract's melds in words: ``1 set + 2 runs``."""
    return " + ".join(_plural(n, noun) for n, noun in ((sets, "set"), (runs, "run")) if n)


def contract_words(rules: Rules, deal_index: int) -> str:
    """A deal's contract in words: ``2 runs (of different suits)``."""
    schedule = rules.contract_schedule
    sets, runs = schedule[deal_index % len(schedule)]
    text = melds_words(sets, runs)
    if runs > 1 and rules.contract_runs_distinct_suits:
        text += " (of different suits)"
    if deal_index % len(schedule) == len(schedule) - 1:
        final = rules.final_deal_rule
        if final == "all_at_once_no_discard":
            text += ", all cards at once with no discard"
        elif final == "all_at_once_discard_ok":
            text += ", all cards at once (lay-offs and one discard allowed)"
    return text
