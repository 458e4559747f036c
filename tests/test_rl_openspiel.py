"""The OpenSpiel games: OpenSpiel's own checks, its Python ISMCTS and MCTS bots playing
whole hands on every rule set, and resampling that keeps the player's information state."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from rummykit.core.views import view
from rummykit.rl import openspiel_game
from rummykit.rl.actions import ActionSpace

SETUPS = {"basic": 2, "traditional": 3, "contract": 3}


def dealt(game: openspiel_game.RummyGame, rng: random.Random) -> openspiel_game.RummyState:
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
    return state


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_openspiel_random_simulation_checks_pass(name: str) -> None:
    game = openspiel_game.load(name, players=SETUPS[name], max_turns=40)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_ismcts_and_mcts_bots_play_a_whole_hand(name: str) -> None:
    players = SETUPS[name]
    game = pyspiel.load_game(openspiel_game.GAME_NAMES[name],
                             {"players": players, "max_turns": 12 if name == "contract" else 24})
    rs = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(1, rs)
    bots = [ismcts.ISMCTSBot(game, evaluator, 2.0, 4, random_state=rs),
            mcts.MCTSBot(game, 2.0, 4, evaluator, random_state=rs),
            ismcts.ISMCTSBot(game, evaluator, 2.0, 2, random_state=rs)][:players]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(int(rs.choice([o for o, _ in outcomes],
                                             p=[p for _, p in outcomes])))
        else:
            state.apply_action(int(bots[state.current_player()].step(state)))
    assert state.hand is not None and state.hand.result is not None
    assert abs(sum(state.returns())) < 1e-9


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_resampling_keeps_the_players_information_and_deals_hidden_cards_anew(
        name: str) -> None:
    players = SETUPS[name]
    game = openspiel_game.load(name, players=players)
    rng = random.Random(5)
    changed = 0
    for _ in range(4):
        state = dealt(game, rng)
        for _ in range(rng.randrange(0, 30)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        player = state.current_player()
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        sampled = state.resample_from_infostate(player, sampler)
        assert sampled.information_state_string(player) == state.information_state_string(player)
        assert sampled.information_state_tensor(player) == state.information_state_tensor(player)
        assert sampled.observation_string(player) == state.observation_string(player)
        assert sampled.legal_actions() == state.legal_actions()
        other = (player + 1) % players
        changed += sampled.hand.hands[other] != state.hand.hands[other]
    assert changed >= 2


def test_a_state_serializes_as_its_deal_and_moves_but_a_resampled_world_does_not() -> None:
    game = openspiel_game.load("basic", players=2)
    rng = random.Random(4)
    state = dealt(game, rng)
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))
    _, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(again) == str(state) and again.history() == state.history()
    assert again.information_state_string(1) == state.information_state_string(1)
    sampled = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    with pytest.raises(TypeError, match="no history of its own"):
        pyspiel.serialize_game_and_state(game, sampled)


def test_actions_are_the_shared_encoding_and_a_contract_meld_takes_one_step_per_group() -> None:
    game = openspiel_game.load("contract", players=3)
    space = ActionSpace(game.rules, 3)
    assert game.num_distinct_actions() == space.size
    rng = random.Random(2)
    steps = 0
    for _ in range(40):
        state = dealt(game, rng)
        while not state.is_terminal() and state.hand.turn_count < 30:
            seen = view(state.hand, state.current_player())
            if not state.position.prefix:
                assert state.legal_actions() == space.legal_ids(seen)
            groups = [a for a in state.legal_actions() if a >= space.group_base]
            action = rng.choice(groups or state.legal_actions())
            player = state.current_player()
            state.apply_action(action)
            if state.position.prefix:
                steps += 1
                assert state.current_player() == player
                assert "choosing meld-group" in state.information_state_string(player)
        if steps:
            break
    assert steps > 0


def test_returns_are_relative_or_real_points() -> None:
    rng = random.Random(8)
    for returns in ("relative", "points"):
        game = openspiel_game.load("basic", players=3, returns=returns)
        state = dealt(game, rng)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        assert state.hand.result is not None
        scores = [float(s) for s in state.hand.result.scores]
        expected = scores if returns == "points" else [s - sum(scores) / 3 for s in scores]
        assert state.returns() == pytest.approx(expected)
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM


def test_information_strings_hide_the_other_hands() -> None:
    game = openspiel_game.load("basic", players=2)
    state = dealt(game, random.Random(1))
    text = state.information_state_string(0)
    mine = " ".join(text.split(" | ")[1].split()[1:])
    assert mine == " ".join(c for c in str(state).split(" | ")[0].split("; ")[0].split()[1:])
    theirs = str(state).split(" | ")[0].split("; ")[1].split()[1:]
    assert not any(card in text.split(" | ")[1] for card in theirs)


def test_only_a_seats_own_observer_is_offered() -> None:
    game = openspiel_game.load("basic", players=2)
    public = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE)
    with pytest.raises(ValueError, match="single-player observers"):
        game.make_py_observer(public)


def test_the_ismcts_versus_bots_example_plays_a_hand() -> None:
    import argparse
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "examples" / "openspiel_ismcts_vs_bots.py"
    spec = importlib.util.spec_from_file_location("ismcts_vs_bots", path)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    args = argparse.Namespace(rules="basic", opponent="greedy", evaluator="greedy",
                              simulations=2, uct_c=20.0, max_turns=16, seed=1)
    games = [example.play_hand(args, 0, 1)]
    summary = example.summarize(args, games, 1.0)
    assert summary["hands"] == 1 and summary["deals"] == 1
    assert summary["ismcts_wins"] + summary["bot_wins"] + summary["no_winner"] == 1


def _dealt_in_order(game: openspiel_game.RummyGame, deck: list[int],
                    moves: list[str]) -> openspiel_game.RummyState:
    """A hand dealt from ``deck`` (in dealing order), then ``moves`` played."""
    state = game.new_initial_state()
    for card in deck:
        state.apply_action(card)
    space = game.space
    for move in moves:
        state.apply_action(space.encode(move))
    return state


def test_the_information_state_recalls_the_order_of_public_moves() -> None:
    """Seat 1 discards CA then C3, or C3 then CA: every view after is the same (the pile's
    cards, each seat's discards, the top), so the observation tensors are, but the
    information states differ for both seats (perfect recall), and stay the same length."""
    game = openspiel_game.load("basic", players=2)
    deck = list(range(52))  # seat 1 gets 0, 2, .. 18 (CA C3 ..), seat 0 gets 1, 3, .. 19
    first = _dealt_in_order(game, deck, ["draw", "discard CA", "draw", "discard C2",
                                         "draw", "discard C3", "draw", "discard C4"])
    second = _dealt_in_order(game, deck, ["draw", "discard C3", "draw", "discard C2",
                                          "draw", "discard CA", "draw", "discard C4"])
    for player in (0, 1):
        assert first.observation_tensor(player) == second.observation_tensor(player)
        a = first.information_state_tensor(player)
        b = second.information_state_tensor(player)
        assert len(a) == len(b) == game.information_state_tensor_size() and a != b
        assert first.information_state_string(player) != \
            second.information_state_string(player)


def test_the_information_state_shows_a_seats_own_draws_only() -> None:
    """Seat 0's first draw differs (two stock cards swapped), seat 0 discards the same card
    either way: seat 1's information state is the same (the draw is hidden), seat 0's is
    not; the history lists the draws' cards to their own seat only."""
    game = openspiel_game.load("basic", players=2)
    deck = list(range(52))
    other = deck[:]
    other[22], other[45] = other[45], other[22]  # seat 0's first draw from the stock
    moves = ["draw", "discard CA", "draw", "discard C2", "draw"]
    first, second = (_dealt_in_order(game, d, moves) for d in (deck, other))
    assert first.information_state_tensor(1) == second.information_state_tensor(1)
    assert first.information_state_string(1) == second.information_state_string(1)
    assert first.information_state_tensor(0) != second.information_state_tensor(0)
    history = first.position.history
    assert [(a.seat, game.space.describe(a.action), a.drawn) for a in history] == [
        (1, "draw", 21), (1, "discard CA", -1), (0, "draw", 22), (0, "discard C2", -1),
        (1, "draw", 23)]
    rows = np.array(first.information_state_tensor(1))[-2 * game.history_length:]
    assert rows.reshape(-1, 2)[:6].tolist() == [
        [1, 22], [1 + game.space.encode("discard CA"), 0], [1, 0],
        [1 + game.space.encode("discard C2"), 0], [1, 24], [0, 0]]


def test_resampling_keeps_the_history_and_hides_the_others_draws() -> None:
    game = openspiel_game.load("basic", players=2)
    state = _dealt_in_order(game, list(range(52)), ["draw", "discard CA", "draw"])
    sampled = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert sampled.information_state_tensor(1) == state.information_state_tensor(1)
    assert [a.drawn for a in sampled.position.history] == [21, -1, -1]


@pytest.mark.parametrize(("name", "players", "options"), [
    ("basic", 2, '{"target_score": 40}'), ("traditional", 3, "{}"), ("contract", 3, "{}")])
def test_a_whole_match_game(name: str, players: int, options: str) -> None:
    """``match=True``: hand after hand, dealt by chance nodes, the deal passing left, to
    the match's end; the returns are the match totals; OpenSpiel's random simulation
    checks (serialization included) pass."""
    game = openspiel_game.load(name, players=players, match=True, options=options,
                               max_turns=12 if name == "contract" else 40,
                               returns="points", max_hands=4)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    rng = random.Random(3)
    state = game.new_initial_state()
    dealers, hands = [], 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([o for o, _ in outcomes],
                                           [p for _, p in outcomes])[0])
            if state.hand is not None and state.hand.turn_count == 0 and \
                    len(dealers) == state.position.deal_index:
                dealers.append(state.hand.dealer)
            continue
        state.apply_action(rng.choice(state.legal_actions()))
    hands = state.position.deal_index + 1
    assert hands > 1 and dealers == [h % players for h in range(hands)]
    totals = state.position.totals
    sign = -1 if name == "contract" else 1
    assert state.returns() == [sign * float(t) for t in totals]
    assert game.max_hands == (7 if name == "contract" else 4)  # contract: its seven deals
    if name == "contract":
        assert hands == 7
    elif name == "basic":
        assert max(totals) >= 40 or hands == 4
