"""The bot ladder: every level plays only legal moves from views, in every rule set and
player count; the search bot's choice depends on its view alone; a statistical tripwire."""

from __future__ import annotations

import random

import pytest

from rummykit.bots import LEVELS, make_bot
from rummykit.bots.expert import ALWAYS, Budget, ExpertBot
from rummykit.bots.holding import holds_for_rummy
from rummykit.bots.inference import inference_weights
from rummykit.core.cards import parse_card, parse_cards
from rummykit.core.engine import HandState
from rummykit.core.match import Match
from rummykit.core.moves import Discard, Draw, Meld
from rummykit.core.rules import Rules
from rummykit.core.views import resample, view

CASES = [("basic", 2), ("basic", 4), ("basic", 6), ("traditional", 2), ("traditional", 3),
         ("traditional", 4), ("contract", 3), ("contract", 5)]


def _rules(name: str) -> Rules:
    return Rules.from_options(name, {"max_turns_per_hand": 150})


@pytest.mark.parametrize(("name", "players"), CASES)
def test_every_level_plays_only_legal_moves(name: str, players: int) -> None:
    rules = _rules(name)
    hands = 40 if name != "contract" else 4
    rng = random.Random(players)
    moves = 0
    for index in range(hands):
        seats = [LEVELS[(index + s) % len(LEVELS)] for s in range(players)]
        bots = [ExpertBot(Budget(worlds=2, candidates=2), level) if level != "easy"
                else make_bot(level) for level in seats]
        state = HandState.deal(rules, players, dealer=index % players,
                               rng=random.Random(index), deal_index=index % 7)
        while not state.is_over:
            seen = view(state, state.to_move)
            move = bots[state.to_move].choose(seen, rng)
            assert move in seen.legal, (name, players, index, str(move))
            state.push(move)
            moves += 1
    assert moves > hands * 10


def _positions(count: int, seed: int, name: str = "basic") -> list[HandState]:
    rules = _rules(name)
    greedy = make_bot("greedy")
    rng = random.Random(seed)
    found = []
    for index in range(count):
        state = HandState.deal(rules, 2 + index % 2, dealer=0, rng=random.Random(seed + index))
        for _ in range(rng.randrange(1, 40)):
            if state.is_over:
                break
            state.push(greedy.choose(view(state, state.to_move), rng))
        if not state.is_over:
            found.append(state)
    return found


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_search_bot_choice_depends_only_on_the_view(level: str) -> None:
    bot = make_bot(level)
    for state in _positions(40, 11):
        seen = view(state, state.to_move)
        first = bot.choose(seen, random.Random(5))
        twin = resample(seen, random.Random(6))
        assert twin.hands != state.hands or twin.stock != state.stock or not state.stock
        assert bot.choose(view(twin, twin.to_move), random.Random(5)) == first
        assert first in state.legal_moves()


def test_analysis_ranks_candidates_and_respects_the_budget() -> None:
    bot = ExpertBot(Budget(worlds=6, candidates=3))
    analysed = 0
    for state in _positions(30, 21):
        seen = view(state, state.to_move)
        analysis = bot.analyse(seen, random.Random(1))
        values = [c.value for c in analysis.candidates]
        assert values == sorted(values, reverse=True)
        assert all(0.0 <= c.win_rate <= 1.0 for c in analysis.candidates)
        assert {c.move for c in analysis.candidates} <= set(seen.legal)
        if len(analysis.candidates) > 1:
            assert analysis.simulations == 6 * len(analysis.candidates)
            analysed += 1
    assert analysed > 10


def test_time_budget_stops_the_search_early() -> None:
    bot = ExpertBot(Budget(worlds=10_000, candidates=4, max_seconds=0.05))
    state = _positions(5, 31)[0]
    seen = view(state, state.to_move)
    analysis = bot.analyse(seen, random.Random(1))
    assert analysis.seconds < 1.0
    assert analysis.simulations < 10_000


def test_inference_keeps_an_opponents_discards_company_out_of_its_hand() -> None:
    rules = _rules("basic")
    state = HandState.deal(rules, 2, dealer=0, rng=random.Random(3))
    seen = view(state, 1)._replace(discarded=(1 << parse_card("S4"), 0))
    weigh = inference_weights(seen)
    assert weigh is not None
    hidden = [c for c in range(52) if not (seen.hand | 1 << seen.discard[0]) >> c & 1]
    related = next(c for c in hidden if c % 13 == 3)  # a four
    unrelated = next(c for c in hidden if c % 13 in (0, 1))  # an ace or a two
    assert weigh(0, related) < 1.0 == weigh(0, unrelated)
    assert weigh(0, parse_card("DK")) < 1.0
    assert weigh(1, related) == 1.0  # never about the seat's own hand
    counts = {related: 0, unrelated: 0}
    rng = random.Random(0)
    for _ in range(400):
        world = resample(seen, rng, weigh)
        for card in counts:
            counts[card] += world.hands[0] >> card & 1
        assert view(world, 1) == seen
    assert counts[related] < counts[unrelated]


def test_engine_tracks_public_discards_through_push_and_pop() -> None:
    state = HandState.deal(_rules("basic"), 2, dealer=0, rng=random.Random(8))
    state.push(state.legal_moves()[0])
    discard = next(m for m in state.legal_moves() if type(m).__name__ == "Discard")
    seat = state.to_move
    state.push(discard)
    assert state.discarded[seat] >> discard.card & 1  # type: ignore[union-attr]
    assert view(state, 1 - seat).discarded == tuple(state.discarded)
    state.pop()
    assert state.discarded[seat] == 0


def test_tripwire_search_bot_beats_random() -> None:
    rules = Rules.from_options("basic", {"max_turns_per_hand": 150, "target_score": 60})
    wins = 0
    for seed in range(4):
        for expert_seat in (0, 1):
            names = ["x", "y"]
            bots = [make_bot("random"), make_bot("random")]
            bots[expert_seat] = ExpertBot(Budget(worlds=2, candidates=2))
            match = Match(rules, names, seed=seed)
            rng = random.Random(seed)
            while not match.over:
                state = match.start_hand()
                while not state.is_over:
                    match.push(bots[state.to_move].choose(view(state, state.to_move), rng))
            wins += expert_seat in match.winners
    assert wins >= 7


def test_sampled_worlds_rarely_give_an_opponent_a_meld_it_would_have_played() -> None:
    from rummykit.bots.expert import _sample_world
    from rummykit.core.melds import tables_for

    rules = _rules("basic")
    state = HandState.deal(rules, 2, dealer=0, rng=random.Random(12))
    seen = view(state, state.to_move)
    tables = tables_for(rules)
    opponent = 1 - seen.seat
    plain = chosen = 0
    for seed in range(300):
        plain += bool(tables.melded(resample(seen, random.Random(seed)).hands[opponent]))
        world = _sample_world(seen, random.Random(seed), None)
        assert view(world, seen.seat) == seen
        chosen += bool(tables.melded(world.hands[opponent]))
    assert plain > 30  # ten random cards often hold a meld
    assert chosen < plain / 3


def test_tripwire_easy_level_is_weaker_than_greedy() -> None:
    rules = _rules("basic")
    wins = {"easy": 0, "greedy": 0}
    for deal in range(40):
        for easy_seat in (0, 1):
            bots = {easy_seat: make_bot("easy"), 1 - easy_seat: make_bot("greedy")}
            state = HandState.deal(rules, 2, dealer=0, rng=random.Random(deal))
            rng = random.Random(deal)
            while not state.is_over:
                state.push(bots[state.to_move].choose(view(state, state.to_move), rng))
            if state.result is not None and state.result.winner is not None:
                wins["easy" if state.result.winner == easy_seat else "greedy"] += 1
    assert wins["greedy"] > wins["easy"] * 1.2, wins


def test_engine_tracks_passed_discards_through_push_and_pop() -> None:
    state = HandState.deal(_rules("basic"), 2, dealer=0, rng=random.Random(8))
    seat = state.to_move
    top = state.discard[-1]
    draw = next(m for m in state.legal_moves() if type(m).__name__ == "Draw")
    state.push(draw)
    assert state.passed[seat] == 1 << top
    assert view(state, 1 - seat).passed == tuple(1 << top if s == seat else 0 for s in (0, 1))
    assert resample(view(state, 1 - seat), random.Random(1)).passed == state.passed
    state.pop()
    assert state.passed == [0, 0]


def _young_hand(seat_one: str, stock_top: str) -> HandState:
    """A 3-player traditional hand dealt as given, seat 1 to move having drawn the stock top."""
    hands = [parse_cards("CA C2 C3 HA H3 S2 S3"), parse_cards(seat_one),
             parse_cards("DA D2 D3 H4 H5 S4 SQ")]
    upcard = parse_card("HK")
    dealt = {c for hand in hands for c in hand} | {upcard}
    stock = [parse_card(stock_top)] + [c for c in range(52)
                                       if c not in dealt and c != parse_card(stock_top)]
    state = HandState.from_deal(_rules("traditional"), 0, hands, upcard, stock)
    state.push(next(m for m in state.legal_moves() if isinstance(m, Draw)))
    return state


def test_the_expert_keeps_its_melds_in_hand_to_go_rummy() -> None:
    state = _young_hand("C7 C8 C9 DK H8 S6 SJ", "D5")
    seen = view(state, 1)
    assert any(isinstance(m, Meld) for m in seen.legal)
    assert make_bot("greedy").choose(seen, random.Random(0)) == Meld(
        ((parse_card("C7"), parse_card("C8"), parse_card("C9")),))
    assert holds_for_rummy(seen)
    move = ExpertBot(Budget(worlds=8, candidates=3, hold=ALWAYS)).choose(seen, random.Random(0))
    assert isinstance(move, Discard) and move.card not in {
        parse_card("C7"), parse_card("C8"), parse_card("C9")}
    # medium melds like a person; expert weighs melding now against holding by search
    assert ExpertBot.for_level("medium").candidates(seen) == [
        make_bot("greedy").choose(seen, random.Random(0))]
    expert = ExpertBot.for_level("expert")
    searched = expert.candidates(seen)
    assert isinstance(searched[0], Meld) and len(searched) > 1
    assert all(isinstance(m, Discard) for m in searched[1:])
    assert expert.choose(seen, random.Random(0)) in searched
    # not once it has placed a card, nor after a rebuild, nor when another seat is short
    assert not holds_for_rummy(seen._replace(ever_placed=1 << 1))
    assert not holds_for_rummy(seen._replace(rebuilds=1))
    assert not holds_for_rummy(seen._replace(hand_sizes=(2, 8, 7)))
    no_rummy = Rules.from_options("traditional", {"going_rummy_multiplier": 1})
    assert not holds_for_rummy(seen._replace(rules=no_rummy))


def test_the_expert_melds_everything_when_it_can_go_out() -> None:
    state = _young_hand("C7 C8 C9 D4 D6 D7 SK", "D5")  # C7-C9, D4-D7 and SK to discard
    seen = view(state, 1)
    assert not holds_for_rummy(seen)
    bot = ExpertBot(Budget(worlds=8, candidates=3))
    rng = random.Random(0)
    while not state.is_over:
        assert state.to_move == 1  # out in this turn: meld, meld, discard
        state.push(bot.choose(view(state, 1), rng))
    assert state.result is not None and state.result.winner == 1 and state.result.rummy
