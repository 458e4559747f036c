"""The greedy bot in Contract Rummy (RULES.md §4): whole matches with greedy and random
seats, legality of every choice, information hiding (resampled views) and a strength
tripwire against the random bot."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from rummykit import handset
from rummykit.bots import GreedyBot, RandomBot, make_bot
from rummykit.bots.greedy_contract import choose_contract, progress
from rummykit.cards import JOKER, parse_cards
from rummykit.engine import HandState
from rummykit.match import Match
from rummykit.melds import JOKER_AS
from rummykit.moves import Discard, LayOff, Meld, Move, Take
from rummykit.rules import BASIC, CONTRACT
from rummykit.views import resample, view

RULES = dataclasses.replace(CONTRACT, max_turns_per_hand=100)


def play_match(players: int, seed: int, kinds: list[str], *, resample_every: int = 0,
               seen_kinds: Counter[str] | None = None) -> tuple[Match, int]:
    """Play a whole match; every choice is checked legal; returns the match and the
    number of greedy decisions. With ``resample_every``, every that-many-th greedy decision
    is also made on a view of a resampled state and must not change."""
    match = Match(RULES, [f"{k}{i}" for i, k in enumerate(kinds)], seed=seed)
    bots = [make_bot(k) for k in kinds]
    rng = random.Random(seed)
    decisions = 0
    while not match.over:
        state = match.start_hand()
        while state.result is None:
            seat = state.to_move
            seen = view(state, seat)
            move = bots[seat].choose(seen, rng)
            assert move in seen.legal, (str(move), [str(m) for m in seen.legal])
            if isinstance(bots[seat], GreedyBot):
                decisions += 1
                if move == Discard(JOKER):  # only when forced
                    assert all(m == move for m in seen.legal if isinstance(m, Discard))
                if seen_kinds is not None:
                    seen_kinds[kind_of(move)] += 1
                if resample_every and decisions % resample_every == 0:
                    other = view(resample(seen, random.Random(decisions)), seat)
                    assert bots[seat].choose(other, random.Random(0)) == move
            match.play(move)
    assert len(match.hands) == 7
    return match, decisions


def kind_of(move: Move) -> str:
    if isinstance(move, Take):
        return "dig" if move.count > 1 else "take"
    if isinstance(move, LayOff):
        return "lay joker" if move.card >= JOKER_AS else "lay"
    return type(move).__name__.lower()


@pytest.mark.parametrize("players", [3, 4, 6, 8])
def test_whole_matches_legal_and_hidden(players: int) -> None:
    total = 0
    for seed in range(2):
        kinds = ["greedy" if (i + seed) % 2 == 0 else "random" for i in range(players)]
        _, decisions = play_match(players, seed, kinds, resample_every=7)
        total += decisions
    assert total > 500


def test_all_greedy_matches_end_by_going_out() -> None:
    decisions = 0
    out = 0
    kinds: Counter[str] = Counter()
    # seeds 102 and 103: since blocked deals end (RULES.md §4.8.1) the matches of seeds 100
    # and 101 hold no swap; these two do (and 10 deals gone out of 14)
    for seed in range(2):
        match, made = play_match(4, 102 + seed, ["greedy"] * 4, seen_kinds=kinds)
        decisions += made
        out += sum(log.result is not None and log.result.winner is not None
                   for log in match.hands)
    assert decisions > 300
    assert out >= 10  # of 14 deals; the rest are blocked or hit the turn cap
    for kind in ("meld", "lay", "take", "dig", "swap", "lay joker"):
        assert kinds[kind] > 0, kinds
    assert kinds["discard"] > 0


def test_greedy_beats_random_on_penalty() -> None:
    greedy: list[int] = []
    rand: list[int] = []
    for seed in range(6):
        kinds = ["greedy", "random"] * 2 if seed % 2 else ["random", "greedy"] * 2
        match, _ = play_match(4, 200 + seed, kinds)
        for seat, kind in enumerate(kinds):
            (greedy if kind == "greedy" else rand).append(match.totals[seat])
    mean_greedy = sum(greedy) / len(greedy)
    mean_random = sum(rand) / len(rand)
    assert mean_greedy * 2 < mean_random, (mean_greedy, mean_random)


def test_goes_down_leaving_least_penalty() -> None:
    hand = parse_cards("C8 D8 H8 S8 CK DK HK C2 D3 H5")
    state = HandState.from_deal(CONTRACT, 2, [hand, parse_cards("C3 C4 C5 C6 C7 C9 CT CJ CQ CA"),
                                             parse_cards("D4 D5 D6 D7 D9 DT DJ DQ DA H2")],
                                parse_cards("SK")[0], parse_cards("S2 S3 S4 S5 S6 S7"))
    state.play("take")
    seen = view(state, 0)
    move = choose_contract(seen)
    assert isinstance(move, Meld)
    placed = sorted(len(g) for g in move.groups)
    assert placed == [4, 4]  # C8 D8 H8 S8 / CK DK HK SK: least left in hand


def test_discards_loose_high_card_never_joker() -> None:
    hand = parse_cards("C8 D8 JK H5 SK C2 D3 S9 CQ DQ")
    state = HandState.from_deal(CONTRACT, 2, [hand, parse_cards("C3 C4 C5 C6 C7 C9 CT CJ DK CA"),
                                             parse_cards("D4 D5 D6 D7 D9 DT DJ HQ DA H2")],
                                parse_cards("S4")[0], parse_cards("S2 S3 S5 S6 S7 S8"))
    state.play("draw")  # S2: no set completed, the contract (2 sets) is out of reach
    seen = view(state, 0)
    made, _, way = progress(handset.cards(seen.hand), seen)
    assert made == 1 and len(way) == 1  # one joker: CQ DQ JK=.. is the best single set
    move = choose_contract(seen)
    assert move == Discard(parse_cards("SK")[0])  # loose, no partner, highest; C8 D8 kept


def test_basic_rules_still_use_the_classic_policy() -> None:
    state = HandState.deal(BASIC, num_players=2, dealer=0, rng=random.Random(3))
    seen = view(state, state.to_move)
    assert GreedyBot().choose(seen, random.Random(0)) in seen.legal
    assert RandomBot().choose(seen, random.Random(0)) in seen.legal
    assert handset.size(seen.hand) == 10
