"""The faces take their words from the rule family (issue 17 item 2): a hand's score is
called what ``scoring`` makes it, whatever the rule set, in the line game, the replay
account, the terminal table's hand-end text and the server's rule-set entry; a family's
facts reach every face."""

from __future__ import annotations

import random

import pytest

from rummykit.bots import make_bot
from rummykit.cli.play import PlaySession
from rummykit.cli.replay import describe
from rummykit.core.match import Match
from rummykit.core.record import record_of, replay
from rummykit.core.rules import Rules, find_rules
from rummykit.core.views import view
from rummykit.display.terms import (
    facts_of,
    goal_words,
    score_label,
    sheet_title,
    terms_of,
    title_of,
    unit,
)
from rummykit.tui.screens.results import hand_end_text
from rummykit.variants.registry import rule_set_names, variant_for

PENALTY_BASIC = Rules.from_options("basic", {"scoring": "penalty", "game_end": "fixed_hands",
                                             "num_hands": 2})


def played_match(rules: Rules, seed: int) -> Match:
    """A match of greedy bots played to its end."""
    match = Match(rules, ["Ann", "Bob"], seed=seed)
    bot, rng = make_bot("greedy"), random.Random(seed)
    while not match.over:
        state = match.start_hand()
        while not state.is_over:
            match.push(bot.choose(view(state, state.to_move), rng))
    return match


def test_the_score_follows_scoring_not_the_family() -> None:
    terms = terms_of(PENALTY_BASIC)
    assert (terms.score, terms.lowest_wins) == ("penalty points", True)
    assert score_label(PENALTY_BASIC) == "Penalty points"
    assert sheet_title(PENALTY_BASIC) == "Penalty sheet"
    assert goal_words(PENALTY_BASIC, 2) == "2 hands, lowest total wins"
    plain = find_rules("basic")
    assert (score_label(plain), sheet_title(plain)) == ("Points", "Score sheet")
    assert unit(PENALTY_BASIC) == "hand"  # the family's word for a hand stays


def test_the_replay_account_of_penalty_basic_says_penalty() -> None:
    match = played_match(PENALTY_BASIC, 5)
    text = describe(replay(record_of(match)))
    assert "Penalty sheet (lowest total wins)" in text
    assert "Score sheet" not in text
    assert "Penalty points: " in text and "Points: " not in text.replace("Penalty points", "")


def test_the_line_game_of_penalty_basic_says_penalty() -> None:
    lines: list[str] = []
    session = PlaySession(PENALTY_BASIC, "Ann", ["greedy"], seed=4, out=lines.append,
                          ask=lambda prompt: "quit")
    session.match = played_match(PENALTY_BASIC, 4)  # both hands over: the account only
    session._show_scores()
    assert lines[0] == "Penalty sheet (lowest total wins after hand 2):"
    assert lines[1].split()[:3] == ["hand", "Ann", "Bob"]
    assert len(lines) == 5 and lines[-1].split()[0] == "total"


def test_the_table_hand_end_of_penalty_basic_says_penalty() -> None:
    first = replay(record_of(played_match(PENALTY_BASIC, 6))).hands[0].state
    text = hand_end_text(view(first, 0), ("Ann", "Bob")).plain
    assert "Penalty points this hand: " in text


@pytest.mark.parametrize("name", rule_set_names())
def test_every_rule_set_has_words_and_help(name: str) -> None:
    rules = find_rules(name)
    terms = terms_of(rules)
    assert terms.title and terms.hand and terms.hands and terms.score
    assert title_of(rules) == terms.title
    assert variant_for(name).help_text(rules).strip()
    low, _ = rules.player_range
    for deal in range(min(rules.num_hands, 7)):
        for fact in facts_of(rules, low, deal):
            assert fact.label and fact.value
