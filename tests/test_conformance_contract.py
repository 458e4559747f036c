"""Random-simulation conformance for Contract Rummy (ARCHITECTURE.md §5, RULES.md §4).

Hands of every deal (indexes 0..6, so every contract, the seventh deal included) for 3 to
8 players, with the two-deck and three-deck packs of ``deck_config = bicycle`` and the
``pagat`` pack for 3 to 5 players, played by a random bot that prefers melds, lay-offs,
swaps and digs with some probability (so the hands reach going down, lay-offs, joker swaps
and digs), and a few by the greedy bot. Along the way:

- cards are conserved: hands, stock, discard pile and table are exactly the pack;
- push/pop of every legal move restores the state exactly (undo stack included);
- a copy is independent of its original, both ways;
- every seat's view is unchanged after resampling the hidden cards;
- every legal move passes ``is_legal`` and a sample of other moves fails it (and
  ``play`` then raises and changes nothing), a sample of legal moves passes ``play``;
- every hand ends (``max_turns_per_hand``);
- whole matches have exactly 7 deals, and the record round trip (``record_of`` →
  ``dumps`` → ``loads`` → ``replay``) gives the same hands and totals.

The counts reached (going down, lay-offs, swaps, digs, wins, rebuilds) are asserted to be
non-zero so that the interesting parts of the rules are really exercised.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

import pytest

from helpers import deep_snapshot
from rummykit.bots import make_bot
from rummykit.core import handset
from rummykit.core.cards import JOKER, standard_pack
from rummykit.core.engine import HandState
from rummykit.core.errors import RummyError
from rummykit.core.match import Match
from rummykit.core.melds import JOKER_AS, hand_card
from rummykit.core.moves import Discard, Draw, LayOff, Meld, Move, Swap, Take
from rummykit.core.record import dumps, loads, record_of, replay
from rummykit.core.rules import Rules
from rummykit.core.views import resample, view
from rummykit.variants import CONTRACT

MAX_TURNS = 150
WRONG_SAMPLE = 30  # wrong moves tried per deep position
PROBLEMS: list[str] = []  # engine faults found on the way, asserted at the end of a test
BICYCLE = dataclasses.replace(CONTRACT, max_turns_per_hand=MAX_TURNS)
PAGAT = dataclasses.replace(BICYCLE, deck_config="pagat")
# (pack name, rules, player counts): 2 decks + 1 joker for 3-4 players, 3 decks + 2 jokers
# for 5-8, and pagat's 2 decks + (players - 1) jokers for 3-5.
CONFIGS: list[tuple[str, Rules, tuple[int, ...]]] = [
    ("2deck", BICYCLE, (3, 4)),
    ("3deck", BICYCLE, (5, 6, 7, 8)),
    ("pagat", PAGAT, (3, 4, 5)),
]
DEALS = range(7)


def pack_of(rules: Rules, players: int) -> Counter[int]:
    return Counter(standard_pack(*rules.pack_spec(players)))


def cards_in_play(state: HandState) -> Counter[int]:
    """Every card of the hand, wherever it is, as a multiset."""
    found: Counter[int] = Counter()
    for hand in state.hands:
        found.update(handset.cards(hand))
    found.update(state.stock)
    found.update(state.discard)
    for meld in state.table:
        found.update(hand_card(c) for c in meld.cards)
    return found


def state_of(state: HandState) -> dict[str, Any]:
    """``deep_snapshot`` without the generator. Deep-copying a long undo stack dominates
    the run time, so only its top entries are copied, with its length and the identity of
    the entries below (one push/pop touches only the top)."""
    stack = state._stack
    state._stack = stack[-2:]
    try:
        fields = deep_snapshot(state)
    finally:
        state._stack = stack
    del fields["rng"]
    fields["stack_below"] = (len(stack), [id(entry) for entry in stack[:-2]])
    return fields


def interesting(move: Move) -> bool:
    return isinstance(move, (Meld, LayOff, Swap)) or (isinstance(move, Take) and move.count > 1)


def choose(state: HandState, rng: random.Random, prefer: float) -> Move:
    """Uniform over the legal moves, except that with probability ``prefer`` a move is
    drawn among the melds, lay-offs, swaps and digs when there are some."""
    moves = state.legal_moves()
    assert moves, "a hand that is not over has a legal move"
    wanted = [m for m in moves if interesting(m)]
    if wanted and rng.random() < prefer:
        return rng.choice(wanted)
    return rng.choice(moves)


# -- wrong moves -----------------------------------------------------------------------------

def candidate_moves(state: HandState, rng: random.Random) -> list[Move]:
    """Moves of every kind one could try here, legal or not (a random sample for the
    joker lay-offs and melds, which are too many to try all)."""
    seat = state.to_move
    hand = handset.cards(state.hands[seat])
    distinct = sorted(set(hand))
    identities = list(range(52))
    moves: list[Move] = [Draw(), *(Take(k) for k in range(1, len(state.discard) + 2))]
    moves += [Discard(c) for c in [*identities, JOKER]]
    targets = range(1, len(state.table) + 2)  # one past the last meld: no such meld
    for target in targets:
        for card in distinct:
            if card == JOKER:
                for ident in rng.sample(identities, 6):
                    moves += [LayOff(JOKER_AS + ident, target, end)
                              for end in (None, "low", "high")]
                continue
            moves += [LayOff(card, target, end) for end in (None, "low", "high")]
            moves.append(Swap(card, target))
    for meld in state.table:  # the identity a joker holds: the natural card to swap in
        for code in meld.cards:
            if code >= JOKER_AS:
                moves += [Swap(code - JOKER_AS, t) for t in targets]
    if len(hand) >= 3:
        for _ in range(4):
            group = tuple(rng.sample(hand, 3))
            moves.append(Meld((tuple(JOKER_AS + rng.randrange(52) if c == JOKER else c
                                     for c in group),)))
    return moves


def check_legality(state: HandState, rng: random.Random, stats: Counter[str]) -> None:
    legal = state.legal_moves()
    assert list(state.iter_legal_moves()) == legal
    texts = Counter(str(m) for m in legal)
    for text, times in texts.items():
        if times > 1:  # reported at the end of the test, so the other checks go on
            PROBLEMS.append(f"legal_moves lists {text!r} {times} times at {describe(state)}")
    legal_set = set(legal)
    for move in legal:
        assert state.is_legal(move), (describe(state), str(move))
    # going down with one group left out or a group added is never legal
    for move in legal:
        if isinstance(move, Meld) and len(move.groups) > 1:
            fewer = Meld(move.groups[1:])
            if fewer not in legal_set:
                assert not state.is_legal(fewer), (describe(state), str(fewer))
                stats["wrong"] += 1
    before = state_of(state)
    wrong = [m for m in candidate_moves(state, rng) if m not in legal_set]
    wrong = rng.sample(wrong, min(WRONG_SAMPLE, len(wrong)))
    for move in wrong:
        if isinstance(move, LayOff) and move.end is not None \
                and LayOff(move.card, move.target, None) in legal_set:
            continue  # a superfluous END: accepted and dropped by play (FORMATS.md §1)
        assert not state.is_legal(move), (describe(state), str(move))
        stats["wrong"] += 1
    for move in rng.sample(wrong, min(3, len(wrong))):
        if isinstance(move, LayOff) and move.end is not None:
            continue
        with pytest.raises(RummyError):
            state.play(move)
        assert state_of(state) == before, str(move)
    for move in rng.sample(legal, min(2, len(legal))):
        trial = state.copy()
        try:
            assert trial.play(move) == move, (describe(state), str(move))
        except RummyError as error:  # reported at the end of the test
            PROBLEMS.append(f"play refuses the legal {str(move)!r} ({error}) at "
                            f"{describe(state)}")
    assert state_of(state) == before


def check_position(state: HandState, pack: Counter[int], rng: random.Random, deep: bool,
                   stats: Counter[str]) -> None:
    assert cards_in_play(state) == pack, describe(state)
    if not deep:
        return
    stats["deep"] += 1
    before = state_of(state)
    for move in state.legal_moves():
        state.push(move)
        state.pop()
        assert state_of(state) == before, (describe(state), str(move))
    twin = state.copy()
    assert state_of(twin)["hands"] == before["hands"]
    twin_moves = twin.legal_moves()
    assert twin_moves == state.legal_moves()
    if twin_moves:  # moving the copy leaves the original alone, and the other way round
        twin.push(twin_moves[-1])
        assert state_of(state) == before
        twin_before = state_of(twin)
        state.push(twin_moves[0])
        assert state_of(twin) == twin_before
        state.pop()
        assert state_of(state) == before
    for seat in range(state.num_players):
        seen = view(state, seat)
        assert view(resample(seen, rng), seat) == seen, (describe(state), seat)
    check_legality(state, rng, stats)


def describe(state: HandState) -> str:
    return (f"deal={state.deal_index} to_move={state.to_move} phase={state.phase} "
            f"down={state.down:b} dig_duty={state.dig_duty} joker_duty={state.joker_duty} "
            f"hand={' '.join(str(c) for c in handset.cards(state.hands[state.to_move]))} "
            f"table=[{' | '.join(str(m) for m in state.table)}] "
            f"discard={state.discard[-6:]}")


def count_move(move: Move, stats: Counter[str]) -> None:
    if isinstance(move, Meld):
        stats["meld"] += 1
    elif isinstance(move, LayOff):
        stats["lay"] += 1
    elif isinstance(move, Swap):
        stats["swap"] += 1
    elif isinstance(move, Take) and move.count > 1:
        stats["dig"] += 1


def play_hand(rules: Rules, players: int, deal_index: int, seed: int, stats: Counter[str],
              *, bots: tuple[str, ...] = (), deep_every: int = 16,
              prefer: float = 0.6) -> HandState:
    rng = random.Random(seed)
    pack = pack_of(rules, players)
    state = HandState.deal(rules, players, seed % players, random.Random(seed * 31 + 7),
                           deal_index=deal_index)
    seats = [make_bot(bots[s % len(bots)]) for s in range(players)] if bots else []
    moves = 0
    while not state.is_over:
        check_position(state, pack, rng, moves % deep_every == 0
                       or state.dig_duty >= 0 or state.joker_duty > 0, stats)
        if seats:
            move = seats[state.to_move].choose(view(state, state.to_move), rng)
            assert state.is_legal(move), (describe(state), str(move))
        else:
            move = choose(state, rng, prefer)
        count_move(move, stats)
        state.push(move)
        moves += 1
        assert moves <= 4 * MAX_TURNS + 200, "the hand does not end"
    check_position(state, pack, rng, True, stats)
    assert state.result is not None and state.legal_moves() == []
    assert state.turn_count <= MAX_TURNS
    stats[state.result.result] += 1
    stats["hands"] += 1
    stats["rebuilds"] += state.rebuilds
    if state.result.result == "win":
        winner = state.result.winner
        assert winner is not None and state.hands[winner] == 0
        assert state.result.scores[winner] == 0
        assert list(state.result.scores) == [state.hand_value(s) for s in range(players)]
    return state


STATS: Counter[str] = Counter()


@pytest.mark.parametrize("deal_index", DEALS)
@pytest.mark.parametrize(("pack", "rules", "player_counts"), CONFIGS,
                         ids=[c[0] for c in CONFIGS])
def test_random_hands(pack: str, rules: Rules, player_counts: tuple[int, ...],
                      deal_index: int) -> None:
    stats: Counter[str] = Counter()
    PROBLEMS.clear()
    repeats = 1 if deal_index == 6 else 2  # seventh deals are slow: long discard piles
    for players in player_counts:
        for repeat in range(repeats):
            seed = 1000 * deal_index + 100 * players + repeat + len(pack)
            play_hand(rules, players, deal_index, seed, stats)
    assert stats["hands"] == repeats * len(player_counts)
    assert not PROBLEMS, "\n".join(PROBLEMS[:5])
    assert stats["meld"] > 0 or deal_index == 6, stats  # deal 7: going down is rare
    STATS.update(stats)


GREEDY_HANDS = [(3, 1, 3), (3, 3, 1), (3, 5, 5), (4, 0, 2), (5, 4, 4), (5, 5, 5)]


@pytest.mark.parametrize(("players", "deal_index", "seed"), GREEDY_HANDS)
def test_greedy_hands(players: int, deal_index: int, seed: int) -> None:
    stats: Counter[str] = Counter()
    PROBLEMS.clear()
    play_hand(BICYCLE, players, deal_index, seed, stats, bots=("greedy", "random"),
              deep_every=25)
    assert not PROBLEMS, "\n".join(PROBLEMS[:5])
    STATS.update(stats)


def test_the_simulation_reaches_the_interesting_parts() -> None:
    # Runs after the tests above (file order); alone it plays its own hands.
    if STATS["hands"] < 50:
        for deal_index in DEALS:
            for players in (3, 5):
                play_hand(BICYCLE, players, deal_index, 7 * deal_index + players, STATS,
                          deep_every=40)
    for what in ("meld", "lay", "swap", "dig", "win", "aborted", "rebuilds", "wrong"):
        assert STATS[what] > 0, (what, STATS)


# -- whole matches and the record round trip -------------------------------------------------

def play_match(rules: Rules, players: int, seed: int, prefer: float) -> Match:
    match = Match(rules, [f"P{i}" for i in range(players)], seed=seed)
    rng = random.Random(seed)
    while not match.over:
        state = match.start_hand()
        while not state.is_over:
            match.push(choose(state, rng, prefer))
    return match


@pytest.mark.parametrize(("deck_config", "players", "seed"), [
    ("bicycle", 3, 1), ("bicycle", 4, 2), ("bicycle", 5, 3), ("bicycle", 8, 4),
    ("pagat", 3, 5), ("pagat", 5, 6),
])
def test_whole_match_and_record_round_trip(deck_config: str, players: int,
                                           seed: int) -> None:
    rules = Rules.from_options("contract", {"max_turns_per_hand": MAX_TURNS,
                                            "deck_config": deck_config})
    match = play_match(rules, players, seed, prefer=0.7)
    assert match.over and len(match.hands) == 7
    assert all(log.result is not None for log in match.hands)
    assert [match.dealer_of(i) for i in range(7)] == [
        (match.first_dealer + i) % players for i in range(7)]
    assert match.totals == [sum(log.result.scores[s] for log in match.hands
                                if log.result is not None) for s in range(players)]
    best = min(match.totals)
    assert match.winners == tuple(s for s in range(players) if match.totals[s] == best)
    text = dumps(record_of(match))
    record = loads(text)
    assert dumps(record) == text
    result = replay(record)
    assert result.error is None
    out = result.to_json()
    assert out["totals"] == match.totals
    assert out["over"] is True and out["winners"] == list(match.winners)
    assert len(out["hands"]) == 7
    for got, log in zip(out["hands"], match.hands, strict=True):
        assert log.result is not None
        assert got["result"] == log.result.result
        assert got["winner"] == log.result.winner
        assert got["scores"] == list(log.result.scores)
