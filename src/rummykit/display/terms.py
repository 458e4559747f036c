"""What a face says about a game, asked of its rule family (:mod:`rummykit.variants`).

The line game, the terminal table, the server, replays and hints take the title, what a
hand is called, what a score means, who wins and the facts of the deal in play from here;
this module asks the rules' family (:func:`~rummykit.variants.registry.variant_of`) and
only puts its answers into sentences. Nothing here knows a family by name.

>>> from rummykit.core.rules import find_rules
>>> basic, contract = find_rules("basic"), find_rules("contract")
>>> unit(basic), unit(contract, capital=True), score_label(contract), sheet_title(basic)
('hand', 'Deal', 'Penalty points', 'Score sheet')
>>> facts_words(facts_of(contract, 3, 1)), facts_clause(facts_of(contract, 3, 0))
('1 set + 1 run', 'contract: 2 sets')
"""

from __future__ import annotations

from rummykit.core.rules import Rules
from rummykit.variants.base import Fact, RulesLike, Terms
from rummykit.variants.registry import rule_set_names, variant_of

#: the rule set a face starts with: the first registered
DEFAULT_RULE_SET = rule_set_names()[0]

__all__ = ["DEFAULT_RULE_SET", "Fact", "Terms", "facts_clause", "facts_of", "facts_words",
           "goal_words", "score_label", "sheet_title", "terms_of", "title_of", "unit"]


def terms_of(rules: RulesLike) -> Terms:
    """The family's words for ``rules``."""
    return variant_of(rules).terms(rules)


def title_of(rules: Rules) -> str:
    """The game's name for people: ``Basic Rummy``, ``Contract Rummy``."""
    return terms_of(rules).title


def unit(rules: Rules, *, plural: bool = False, capital: bool = False) -> str:
    """What one hand is called (``hand``, ``deal``), or its plural; capitalised if asked."""
    terms = terms_of(rules)
    word = terms.hands if plural else terms.hand
    return word[:1].upper() + word[1:] if capital else word


def score_label(rules: Rules) -> str:
    """What a hand's score is called, as a heading: ``Points``, ``Penalty points``."""
    score = terms_of(rules).score
    return score[:1].upper() + score[1:]


def sheet_title(rules: Rules) -> str:
    """The score sheet's heading: a sheet of penalties when the lowest total wins."""
    return "Penalty sheet" if terms_of(rules).lowest_wins else "Score sheet"


def goal_words(rules: Rules, players: int) -> str:
    """How the match is won: ``first to 150 wins``, ``7 deals, lowest total wins``."""
    terms = terms_of(rules)
    if rules.game_end == "target":
        return f"first to {rules.target_for(players)} wins"
    noun = terms.hand if rules.num_hands == 1 else terms.hands
    return f"{rules.num_hands} {noun}, {'lowest' if terms.lowest_wins else 'highest'} total wins"


def facts_of(rules: Rules, players: int, deal_index: int) -> tuple[Fact, ...]:
    """What the family shows about deal ``deal_index`` (its contract, ...)."""
    return variant_of(rules).deal_facts(rules, players, deal_index)


def facts_words(facts: tuple[Fact, ...]) -> str:
    """The facts' values: ``2 sets``."""
    return "; ".join(fact.value for fact in facts)


def facts_clause(facts: tuple[Fact, ...]) -> str:
    """The facts with their labels, inside a sentence: ``contract: 2 sets``."""
    return "; ".join(f"{fact.label.lower()}: {fact.value}" for fact in facts)
