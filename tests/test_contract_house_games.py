"""Shorter house games of Contract Rummy (RULES.md §5.1: a schedule of 1-7 deals): the
``Deals`` choice a set-up screen offers plays the schedule's last deals, and bots play
such a match to its end."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pexpect
import pytest

from rummykit.bots import make_bot
from rummykit.core.match import Match
from rummykit.core.views import view
from rummykit.variants.base import OptionSpec, with_presets
from rummykit.variants.contract.presets import CONTRACT
from rummykit.variants.contract.variant import CONTRACT_FAMILY
from rummykit.variants.contract.words import contract_words


def deals_option() -> OptionSpec:
    found = [o for o in CONTRACT_FAMILY.options(CONTRACT) if o.knob == "deals"]
    assert len(found) == 1
    return found[0]


def test_the_deals_choice_offers_each_last_part_of_the_schedule() -> None:
    option = deals_option()
    assert option.kind == "preset" and option.default == option.choices[0]
    assert len(option.choices) == len(option.sets) == 7
    for count, choice in zip(range(7, 0, -1), option.choices, strict=True):
        assert choice.startswith(f"{count} (")
        rules = CONTRACT_FAMILY.rules_from_options("contract", option.chosen(choice))
        CONTRACT_FAMILY.validate(rules)
        assert rules.num_hands == count
        assert rules.contract_schedule == CONTRACT.contract_schedule[-count:]
        assert rules.deal_hand_sizes == CONTRACT.deal_hand_sizes[-count:]
        assert contract_words(rules, count - 1) == contract_words(CONTRACT, 6)
    one = CONTRACT_FAMILY.rules_from_options("contract", option.chosen(option.choices[-1]))
    assert CONTRACT_FAMILY.help_text(one).startswith("Contract Rummy (a match of 1 deal, ")
    assert option.chosen(option.default) == {}  # the whole schedule: the preset itself
    assert option.choices[-1] == "1 (3 runs only)"


def test_a_choice_not_offered_is_refused_with_the_choices() -> None:
    option = deals_option()
    with pytest.raises(ValueError, match=r"Deals: '8 \(every contract\)': expected one of "
                                         r"'7 \(every contract\)'"):
        option.chosen("8 (every contract)")


@pytest.mark.parametrize("choice", ["1 (3 runs only)", "3 (from 2 sets + 1 run)"])
def test_bots_play_a_house_game_to_its_end(choice: str) -> None:
    rules = CONTRACT_FAMILY.rules_from_options("contract", deals_option().chosen(choice))
    kinds = ["medium", "expert", "greedy"]
    match = Match(rules, kinds, seed=19)
    bots = [make_bot(k) for k in kinds]
    rng = random.Random(19)
    contracts = []
    while not match.over:
        state = match.start_hand()
        contracts.append(contract_words(rules, state.deal_index))
        while state.result is None:
            match.play(bots[state.to_move].choose(view(state, state.to_move), rng))
        assert state.result.reason in (None, "blocked"), state.result
    count = int(choice[0])
    assert len(match.hands) == rules.num_hands == count
    assert contracts == [contract_words(CONTRACT, d) for d in range(7 - count, 7)]


def test_the_full_screen_game_names_one_deal_in_the_singular() -> None:
    from types import SimpleNamespace

    from rummykit.tui.screens.table import TableScreen

    option = deals_option()
    for choice, words in (("1 (3 runs only)", "1 deal, lowest wins"),
                          ("2 (from 1 set + 2 runs)", "2 deals, lowest wins")):
        rules = CONTRACT_FAMILY.rules_from_options("contract", option.chosen(choice))
        screen = SimpleNamespace(game=SimpleNamespace(match=Match(rules, ["a", "b", "c"])))
        assert TableScreen.goal(screen) == words  # type: ignore[arg-type]


def test_a_deals_choice_is_named_by_its_count_or_its_label() -> None:
    option = deals_option()
    three = option.choices[4]
    assert three.startswith("3 (")
    for value in (3, "3", " 3 ", three):
        assert option.named(value) == three
    for bad in (9, "three", "", None):
        with pytest.raises(ValueError) as error:
            option.named(bad)
        assert f"deals={bad!r}" in str(error.value)
        assert "7, 6, 5, 4, 3, 2, 1" in str(error.value)
    specs = CONTRACT_FAMILY.options(CONTRACT)
    assert with_presets(specs, {"deals": 3, "target_score": None}) == {
        **option.chosen(three), "target_score": None}
    beside = with_presets(specs, {"deals": 2, "hand_size": [11, 12]})
    assert beside["hand_size"] == [11, 12] and beside["num_hands"] == 2  # the knob given wins
    assert with_presets(specs, {"first_player": 1}) == {"first_player": 1}


def rummykit(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rummykit.cli.main", *args],
                          capture_output=True, text=True, timeout=120, check=False)


def test_the_command_line_plays_a_house_game_given_as_deals() -> None:
    done = rummykit("simulate", "--rules", "contract", "--players", "3", "--games", "2",
                    "--seed", "5", "-o", "deals=2", "--json", "--no-progress")
    assert done.returncode == 0, done.stderr
    stats = json.loads(done.stdout)
    assert stats["matches"] == 2 and stats["hands"] == 4
    assert stats["options"]["contract_schedule"] == [list(m) for m in
                                                     CONTRACT.contract_schedule[-2:]]
    bad = rummykit("simulate", "--rules", "contract", "--players", "3", "-o", "deals=9")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert "--option deals=9: expected one of 7, 6, 5, 4, 3, 2, 1" in bad.stderr
    basic = rummykit("simulate", "--rules", "basic", "--players", "3", "-o", "deals=2")
    assert basic.returncode == 2 and "unknown option 'deals'" in basic.stderr


def test_a_house_game_in_the_line_game() -> None:
    child = pexpect.spawn(sys.executable, ["-m", "rummykit.cli.main", "play", "--plain",
                                           "--rules", "contract", "--players", "3",
                                           "--seed", "4", "-o", "deals=1"],
                          encoding="utf-8", timeout=60, dimensions=(50, 200))
    child.expect("Type 'help'")
    child.expect_exact("=== Deal 1 of 1: 3 runs (of different suits), all cards at once")
    child.expect_exact("lowest total wins after deal 1)")
    child.sendline("quit")
    child.expect(pexpect.EOF)
