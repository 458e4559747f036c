
"""The stronger contract policy (bots.contract_policy) and the search's sampled worlds
(bots.contract_worlds): legal moves, the down seat's draw, down seats' sampled hands."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rummykit.bots import contract_policy, contract_worlds
from rummykit.bots.greedy_contract import card_values, choose_contract
from rummykit.core import handset
from rummykit.core.engine import HandState
from rummykit.core.moves import Take
from rummykit.core.views import PlayerView, resample, view
from rummykit.variants import CONTRACT
from rummykit.variants.contract.view import seats_down

RULES = dataclasses.replace(CONTRACT, max_turns_per_hand=200)


def _hand(players: int, deal: int, seed: int) -> HandState:
    return HandState.deal(RULES, players, dealer=seed % players, rng=random.Random(seed),
                          deal_index=deal)


def test_policy_moves_are_legal_in_every_deal() -> None:
    for players in (3, 4):
        for deal in range(7):
            state = _hand(players, deal, 40 * players + deal)
            while not state.is_over:
                seen = view(state, state.to_move)
                move = contract_policy.choose(seen) if state.to_move % 2 == 0 \
                    else choose_contract(seen)
                assert move in seen.legal
                state.play(move)


def test_a_down_seat_takes_only_a_top_lower_than_its_highest_card() -> None:
    """Over seeded deals 1 and 4, every top a down seat takes that it cannot lay off is
    worth fewer points than its highest card, and it draws from the stock at least once
    when the top is low too (the stock may bring a card it lays off)."""
    takes = draws = 0
    for seed in range(12):
        state = _hand(4, (0, 3)[seed % 2], 500 + seed)
        while not state.is_over:
            seen = view(state, state.to_move)
            move = contract_policy.choose(seen)
            top = seen.discard_top
            if (seen.phase == "draw" and contract_policy.is_down(seen) and top is not None
                    and not contract_worlds.layable(top, seen.table)):
                values = card_values(seen)
                highest = max(values[c] for c in handset.cards(seen.hand))
                if isinstance(move, Take):
                    assert values[top] < highest
                    takes += 1
                elif values[top] < highest:
                    draws += 1
            state.play(move)
    assert takes > 0 and draws > 0


def test_sampled_down_hands_hold_few_cards_the_table_takes() -> None:
    """Once a seat is down, the search's worlds give it cards the table would take far
    less often than uniform sampling does."""
    state = _hand(4, 0, 7)
    seen = view(state, state.to_move)
    while not (seats_down(seen) & ~1 and seen.to_move == 0 and seen.phase == "draw"):
        state.play(choose_contract(seen))
        seen = view(state, state.to_move)
    weigh = contract_worlds.weigh_for(seen)
    assert weigh is not None
    down = [s for s in range(1, 4) if seats_down(seen) >> s & 1]

    def layable_held(weighed: bool) -> int:
        rng = random.Random(3)
        found = 0
        for _ in range(200):
            world = resample(seen, rng, weigh if weighed else None)
            found += sum(contract_worlds.layable(c, seen.table)
                         for s in down for c in handset.cards(world.hands[s]))
        return found

    assert layable_held(True) * 3 < layable_held(False)
    for seat in set(range(1, 4)) - set(down):  # a seat not down: every card as likely
        assert weigh(seat, 0) == 1.0


def test_nobody_down_weighs_nothing() -> None:
    state = _hand(4, 2, 9)
    assert contract_worlds.weigh_for(view(state, state.to_move)) is None


def test_where_the_points_go_has_a_line_per_deal() -> None:
    from rummykit.benchmark.contract_bots import where

    lines = where(["greedy"], 4, 2, 1)
    assert len(lines) == 8 and [line.split()[0] for line in lines[1:]] == list("1234567")
    assert all("|" in line for line in lines[1:])


def test_a_seat_not_down_digs_shallow_in_a_deal_of_sets() -> None:
    """Deals 1 and 4 (sets only): the policy never digs deeper than SET_DIG_DEPTH while
    greedy, on the same positions, does; in deal 3 (runs) deeper digs stay."""
    deep = {0: 0, 2: 0}
    greedy_deep = 0
    for seed in range(16):
        deal = (0, 3, 2)[seed % 3]
        state = _hand(4, deal, 700 + seed)
        while not state.is_over:
            seen = view(state, state.to_move)
            move = contract_policy.choose(seen)
            if seen.phase == "draw" and not contract_policy.is_down(seen):
                if isinstance(move, Take) and move.count > contract_policy.SET_DIG_DEPTH:
                    deep[2 if deal == 2 else 0] += 1
                greedy = choose_contract(seen)
                if deal != 2 and isinstance(greedy, Take) \
                        and greedy.count > contract_policy.SET_DIG_DEPTH:
                    greedy_deep += 1
            state.play(move)
    assert deep[0] == 0 and greedy_deep > 0 and deep[2] > 0


def _deep_dig_positions(deals: tuple[int, ...], wanted: int) -> list[tuple[int, PlayerView]]:
    """Views of seats not down, in greedy play, where a dig deeper than SET_DIG_DEPTH is
    legal (each with its deal number)."""
    found: list[tuple[int, PlayerView]] = []
    for seed in range(60):
        deal = deals[seed % len(deals)]
        state = _hand(4, deal, 900 + seed)
        while not state.is_over and len(found) < wanted:
            seen = view(state, state.to_move)
            if seen.phase == "draw" and not contract_policy.is_down(seen) and any(
                    isinstance(m, Take) and m.count > contract_policy.SET_DIG_DEPTH
                    for m in seen.legal):
                found.append((deal, seen))
            state.play(choose_contract(seen))
        if len(found) >= wanted:
            break
    return found


def test_the_draw_search_and_the_hint_never_weigh_a_deep_dig_in_a_deal_of_sets() -> None:
    """Deals 1 and 4: the searched draw candidates, the search level's draw and the hint's
    alternatives hold no dig deeper than SET_DIG_DEPTH, although one is legal; in a deal
    with runs every legal draw stays a candidate."""
    from rummykit.bots import contract_expert, contract_levels
    from rummykit.bots.expert import LEVELS

    deep = contract_policy.SET_DIG_DEPTH
    positions = _deep_dig_positions((0, 3), 6)
    assert len(positions) == 6
    for number, (_, seen) in enumerate(positions):
        choices = contract_expert.draw_choices(seen)
        assert [m for m in seen.legal if m not in choices] == [
            m for m in seen.legal if isinstance(m, Take) and m.count > deep]
        hinted = contract_expert.alternatives(seen)
        assert hinted and all(m in choices for m in hinted)
        move = contract_levels.choose(seen, random.Random(number), LEVELS["expert"])
        assert move in choices
    with_runs = _deep_dig_positions((2,), 2)
    assert with_runs
    for _, seen in with_runs:
        assert contract_expert.draw_choices(seen) == seen.legal


def test_ends_prints_each_match_and_counts_the_same_with_two_processes(
        capsys: pytest.CaptureFixture[str]) -> None:
    from rummykit.benchmark.contract_bots import ends

    one = ends(["greedy"], 3, 2, 5)
    two = ends(["greedy"], 3, 2, 5, jobs=2, progress=True)
    assert one == two and sum(v for k, v in one.items() if k != "longest") == 14
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[1] for line in lines] == ["1/2:", "2/2:"]


def test_table_gives_the_same_figures_in_two_processes() -> None:
    from rummykit.benchmark.contract_bots import table

    one = table(["easy", "greedy"], 3, [1, 6], 2, 5)
    two = table(["easy", "greedy"], 3, [1, 6], 2, 5, jobs=2)
    assert one == two and len(one["easy"]) == 2 * 2 * 3  # sets x deals x rotations


def test_versus_pairs_two_lineups_deal_by_deal(capsys: pytest.CaptureFixture[str]) -> None:
    """``--versus``: the same deals with a second lineup, paired by deal; a lineup against
    itself changes nothing, and lineups of unequal length are refused by name."""
    from rummykit.benchmark.contract_bots import main, table, versus

    first = table(["easy", "greedy"], 3, [0, 6], 2, 5)
    second = table(["medium", "greedy"], 3, [0, 6], 2, 5)
    paired = versus(first, second, ["easy", "greedy"], ["medium", "greedy"])
    assert len(paired["own"]) == len(first["easy"]) == 12
    assert paired["own"] == [b - a for a, b in zip(first["easy"], second["medium"], strict=True)]
    assert paired["gap"][0] == pytest.approx(
        (second["medium"][0] - second["greedy"][0]) - (first["easy"][0] - first["greedy"][0]))
    same = versus(first, first, ["easy", "greedy"], ["easy", "greedy"])
    assert set(same["own"]) == set(same["gap"]) == {0.0}
    with pytest.raises(ValueError, match="'medium' must name as many bots"):
        versus(first, second, ["easy", "greedy"], ["medium"])
    main(["--table", "easy,greedy", "--versus", "medium,greedy", "--only", "1,7",
          "--sets", "2", "--seed", "5", "--players", "3"])
    out = capsys.readouterr().out.splitlines()
    assert out[2].startswith("medium against easy in the same seats, 12 deals: own ")
    assert [line.split()[0] for line in out[3:]] == ["own", "gap"]
    with pytest.raises(SystemExit):
        main(["--table", "easy,greedy", "--versus", "medium"])
    assert "must name as many bots as --table 'easy,greedy'" in capsys.readouterr().err
