"""The observation layout is pinned (a change breaks trained policies): its parts, shapes and
offsets, and the observations of two fixed positions, part by part."""

from __future__ import annotations

import random

import numpy as np
import pytest

from rummykit import BASIC, CONTRACT, HandState, parse_cards, view
from rummykit.core.cards import format_card
from rummykit.rl.observation import Observation

BASIC_2P = [
    ("hand", (52,), 0), ("known", (1, 52), 52), ("discarded", (2, 52), 104),
    ("discard_top", (52,), 208), ("discard_pile", (52,), 260), ("taken", (52,), 312),
    ("table", (17, 52), 364), ("hand_sizes", (2,), 1248), ("stock_size", (1,), 1250),
    ("scores", (2,), 1251), ("dealer", (2,), 1253), ("to_move", (2,), 1255),
    ("phase", (2,), 1257), ("turn", (4,), 1259), ("placed", (2,), 1263), ("deal", (1,), 1265)]
CONTRACT_4P = [
    ("hand", (53,), 0), ("known", (3, 53), 53), ("discarded", (4, 53), 212),
    ("discard_top", (53,), 424), ("discard_pile", (53,), 477), ("taken", (53,), 530),
    ("table", (35, 53), 583), ("table_jokers", (35, 53), 2438), ("dig_duty", (53,), 4293),
    ("discard_depth", (53,), 4346), ("hand_sizes", (4,), 4399), ("stock_size", (1,), 4403),
    ("scores", (4,), 4404), ("dealer", (4,), 4408), ("to_move", (4,), 4412),
    ("phase", (2,), 4416), ("turn", (4,), 4418), ("placed", (4,), 4422), ("deal", (1,), 4426),
    ("contract", (2,), 4427), ("down", (4,), 4429), ("joker_duty", (1,), 4433)]


def _layout(obs: Observation) -> list[tuple[str, tuple[int, ...], int]]:
    return [(name, obs.shapes[name], obs.offsets[name]) for name in obs.shapes]


def test_layouts_are_pinned() -> None:
    assert _layout(Observation(BASIC, 2)) == BASIC_2P
    assert Observation(BASIC, 2).size == 1266
    assert _layout(Observation(CONTRACT, 4)) == CONTRACT_4P
    assert Observation(CONTRACT, 4).size == 4434


def _shown(obs: Observation, flat: np.ndarray) -> dict[str, object]:
    """Card planes as card lists (``HAx2`` = two copies), other parts as lists."""
    out: dict[str, object] = {}
    for name, part in obs.as_dict(flat).items():
        if part.shape[-1] != obs.num_cards:
            out[name] = part.tolist()
            continue
        rows = [" ".join(format_card(c) + ("" if row[c] == 1 else f"x{int(row[c])}")
                         for c in np.flatnonzero(row))
                for row in part.reshape(-1, obs.num_cards)]
        while len(rows) > 1 and not rows[-1]:
            rows.pop()
        out[name] = rows if part.ndim == 2 else rows[0]
    return out


def test_basic_observation_is_pinned() -> None:
    hands = [parse_cards("H7 H8 C2 D4 S9 SK CQ"), parse_cards("C3 C4 C5 D6 D7 D8 DA")]
    state = HandState.from_deal(BASIC, dealer=1, hands=hands, upcard=parse_cards("H9")[0],
                                stock_top_first=parse_cards("S2 S3 S4 S5"))
    for move in ("take", "meld H7 H8 H9", "discard SK", "draw"):
        state.play(move)
    obs = Observation(BASIC, 2)
    flat = obs.build(view(state, 1), totals=[12, 30])
    assert flat.dtype == np.float32 and flat.shape == (obs.size,)
    assert _shown(obs, flat) == {
        "hand": "C3 C4 C5 DA D6 D7 D8 S2", "known": [""], "discarded": ["", "SK"],
        "discard_top": "SK", "discard_pile": "SK", "taken": "", "table": ["H7 H8 H9"],
        "hand_sizes": [8.0, 4.0], "stock_size": [3.0], "scores": [30.0, 12.0],
        "dealer": [1.0, 0.0], "to_move": [1.0, 0.0], "phase": [0.0, 1.0],
        "turn": [0.0, 0.0, 1.0, 0.0], "placed": [0.0, 1.0], "deal": [0.0]}


def test_contract_observation_is_pinned() -> None:
    hands = [parse_cards("C8 D8 H8 CK DK JK C5 D6 H9 S2"),
             parse_cards("C3 C4 C5 D9 D9 H2 S7 S8 ST SQ"),
             parse_cards("HA HA SK SK D2 D3 D4 CJ CQ C7")]
    state = HandState.from_deal(CONTRACT, dealer=2, hands=hands, upcard=parse_cards("S3")[0],
                                stock_top_first=parse_cards("H4 H5 H6 H7 D9"))
    for move in ("draw", "meld C8 D8 H8 / CK DK JK=SK", "discard S2", "take", "discard SQ",
                 "draw"):
        state.play(move)
    obs = Observation(CONTRACT, 3)
    flat = obs.build(view(state, 2), totals=[0, 40, 15])
    assert _shown(obs, flat) == {
        "hand": "C7 CJ CQ D2 D3 D4 HAx2 H5 SKx2", "known": ["", "S2"],
        "discarded": ["", "S2", "SQ"], "discard_top": "SQ", "discard_pile": "S3 SQ",
        "taken": "", "table": ["C8 D8 H8", "CK DK SK"], "table_jokers": ["", "SK"],
        "dig_duty": "", "discard_depth": "S3x2 SQ", "hand_sizes": [11.0, 4.0, 10.0],
        "stock_size": [3.0], "scores": [15.0, 0.0, 40.0], "dealer": [1.0, 0.0, 0.0],
        "to_move": [1.0, 0.0, 0.0], "phase": [0.0, 1.0], "turn": [0.0, 0.0, 2.0, 0.0],
        "placed": [0.0, 1.0, 0.0], "deal": [0.0], "contract": [2.0, 0.0],
        "down": [0.0, 1.0, 0.0], "joker_duty": [0.0]}


def test_reused_buffer_and_bounds() -> None:
    from rummykit.rl.game import Game

    game = Game("contract", 4)
    game.reset(seed=3)
    out = np.full(game.observation.size, 7.0, dtype=np.float32)
    for step in range(300):
        if game.done:
            break
        fresh = game.observe(step % 4)
        assert game.observe(step % 4, out) is out
        assert np.array_equal(out, fresh)
        assert (fresh >= 0).all() and (fresh <= game.observation.high).all()
        game.act(game.legal_ids()[step % len(game.legal_ids())])


def _fresh(obs: Observation) -> Observation:
    """The same layout, built without the one-deck fast path (from scratch every time)."""
    plain = Observation(obs.rules, obs.players)
    plain._bits_only = False
    return plain


@pytest.mark.parametrize(("rules", "players"), [("basic", 2), ("basic", 4), ("traditional", 3)])
def test_incremental_build_matches_a_fresh_build(rules: str, players: int) -> None:
    """The one-deck path updates each seat's previous observation in place: in any order of
    views (every seat, the seat to move, views of another match in between, a reused
    ``out``), it gives exactly the observation built from scratch, and the
    arrays it returned before are not changed afterwards."""
    from rummykit.rl.game import Game

    game, other = Game(rules, players, reward="hand"), Game(rules, players, reward="hand")
    game.reset(seed=11)
    other.reset(seed=12)
    obs = game.observation
    assert obs._bits_only
    plain = _fresh(obs)
    rng = random.Random(5)
    kept: list[tuple[np.ndarray, np.ndarray]] = []
    out = np.empty(obs.size, dtype=np.float32)
    for step in range(3000):
        for g in (game, other):
            if g.done:
                g.reset()
        seats = [game.to_move] if step % 3 else rng.sample(range(players), players)
        for seat in seats:
            seen = game.seen(seat)
            totals = list(game.match.totals)
            want = plain.build(seen, totals)
            got = obs.build(seen, totals)
            assert np.array_equal(got, want), (step, seat)
            if step % 50 == 0:
                kept.append((got, want.copy()))
        if step % 7 == 0:  # a view of another match, through the same builder
            seen = other.seen(other.to_move)
            assert np.array_equal(obs.build(seen, None, out), plain.build(seen))
            other.act(rng.choice(other.legal_ids()))
        game.act(rng.choice(game.legal_ids()))
    assert all(np.array_equal(got, want) for got, want in kept)


@pytest.mark.parametrize(("rules", "players", "options"), [
    ("basic", 2, {}), ("basic", 5, {"ace_mode": "high_or_low"}), ("traditional", 3, {}),
    ("traditional", 4, {}), ("contract", 3, {}), ("contract", 6, {"deck_config": "bicycle"}),
    ("contract", 4, {"deck_config": "pagat"})])
def test_observations_lie_within_the_space(rules: str, players: int, options: dict) -> None:
    """Every seat's observation at every step of random matches (whole matches: totals and
    hands played grow) lies within the environment's observation space, raw and normalised;
    the bounds are finite but for the hands played in a ``target`` match."""
    from gymnasium import spaces

    from rummykit.rl.game import Game

    raw = Game(rules, players, options=options, reward="match")
    scaled = Game(rules, players, options=options, reward="match", normalize=True)
    box = spaces.Box(low=0.0, high=raw.high, dtype=np.float32)
    unit = spaces.Box(low=0.0, high=scaled.high, dtype=np.float32)
    assert (unit.high == 1).all()
    infinite = {name for name in raw.observation.shapes
                if not np.isfinite(raw.observation.part(raw.high, name)).all()}
    assert infinite == (set() if raw.rules.game_end == "fixed_hands" else {"deal"})
    rng = random.Random(players)
    steps, most = 0, 600 if rules == "contract" else 2500
    for seed in range(40):
        raw.reset(seed=seed)
        scaled.reset(seed=seed)
        while not raw.done and steps < most:
            for seat in range(players):
                flat = raw.observe(seat)
                assert box.contains(flat), [
                    (raw.observation.describe_entry(int(i)), float(flat[i]))
                    for i in np.flatnonzero(flat > raw.high)]
                assert unit.contains(scaled.observe(seat))
            action = rng.choice(raw.legal_ids())
            raw.act(action)
            scaled.act(action)
            steps += 1
    assert steps == most or seed == 39


def test_bounds_are_those_of_the_rules() -> None:
    """A few bounds by hand: 2-player basic holds at most 11 cards, the stock at most
    52 - 20, the totals at most 149 + the ten dearest cards doubled (going rummy)."""
    obs = Observation(BASIC, 2)
    bound = {name: obs.part(obs.high, name) for name in obs.shapes}
    assert bound["hand_sizes"].tolist() == [11, 11] and bound["stock_size"].tolist() == [32]
    assert bound["scores"].tolist() == [149 + 200] * 2
    assert (bound["hand"] == 1).all() and (bound["table"] == 1).all()
    contract = Observation(CONTRACT, 3)  # 105 cards, digs: all but one card per other seat
    assert contract.part(contract.high, "hand_sizes").tolist() == [103] * 3
    assert contract.part(contract.high, "hand")[52] == 1  # one joker in a 3-player pack
    assert contract.part(contract.high, "deal").tolist() == [6]
