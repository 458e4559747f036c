"""One bot against ``greedy`` seats, hand by hand on mirrored deals (a benchmark, not a
test): how the hands end, points a hand, and the match wins estimated by resampling the
hands (the bots do not look at the totals, so a match is a run of independent hands; a
drawn hand ends it when the rules say so). Far cheaper than whole matches when a drawn
hand ends most of them.

    .venv/bin/python tests/level_hands.py medium --players 3 --deals 200 --seed 3 \\
        --rules traditional [--keep-first 0]
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import random
import time

from rummykit.bots import expert, make_bot
from rummykit.core.cards import standard_pack
from rummykit.core.engine import HandState
from rummykit.core.rules import Rules
from rummykit.core.views import view

Hand = tuple[bool, tuple[int, ...]]  # (drawn, scores from the bot's seat on)


def play(bot: str, players: int, deals: int, seed: int, rules: Rules) -> list[Hand]:
    """Every deal once with the bot at each seat, the others greedy."""
    found: list[Hand] = []
    for deal in range(deals):
        deck = list(standard_pack(*rules.pack_spec(players)))
        random.Random(seed * 1000 + deal).shuffle(deck)
        for me in range(players):
            bots = [make_bot(bot if seat == me else "greedy") for seat in range(players)]
            state = HandState.from_deck(rules, players, deal % players, list(deck),
                                        rng=random.Random(deal))
            rng = random.Random(seed + deal * 7 + me)
            while not state.is_over:
                seat = state.to_move
                state.push(bots[seat].choose(view(state, seat), rng))
            result = state.result
            assert result is not None
            found.append((result.winner is None,
                          tuple(result.scores[(me + k) % players] for k in range(players))))
    return found


def matches(hands: list[Hand], target: int, drawn_ends: bool, count: int = 20000
            ) -> dict[str, float]:
    """Shares of resampled matches won by the bot, by a greedy seat (all of them), none."""
    rng = random.Random(5)
    won: collections.Counter[str] = collections.Counter()
    for _ in range(count):
        totals = [0] * len(hands[0][1])
        while True:
            drawn, scores = rng.choice(hands)
            if drawn and drawn_ends:
                won["none"] += 1
                break
            totals = [t + s for t, s in zip(totals, scores, strict=True)]
            best = max(totals)
            if best >= target:
                top = [i for i, t in enumerate(totals) if t == best]
                won["bot" if top == [0] else "tie" if len(top) > 1 else "greedy"] += 1
                break
    return {key: round(value / count, 3) for key, value in sorted(won.items())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bot")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--rules", default="traditional")
    parser.add_argument("--keep-first", type=float, default=None,
                        help="override the search levels' Budget.keep_first")
    args = parser.parse_args()
    if args.keep_first is not None:
        for level, budget in expert.LEVELS.items():
            expert.LEVELS[level] = dataclasses.replace(budget, keep_first=args.keep_first)
    rules = Rules.from_options(args.rules, {})
    started = time.process_time()
    hands = play(args.bot, args.players, args.deals, args.seed, rules)
    count = len(hands)
    n = args.players
    won = [s[0] for d, s in hands if not d and s[0] > 0]
    lost = [max(s[1:]) for d, s in hands if not d and s[0] == 0]
    points = sum(s[0] - sum(s[1:]) / (n - 1) for _, s in hands) / count
    target = rules.target_for(n)
    print(f"{args.bot} {args.rules} {n}p, {args.deals} deals, seed {args.seed}: {count} hands, "
          f"won {len(won) / count:.3f}, drawn {sum(d for d, _ in hands) / count:.3f}, "
          f"points a hand {points:+.2f}, won hands' points {sum(won) / max(len(won), 1):.1f}, "
          f"winner's points when lost {sum(lost) / max(len(lost), 1):.1f}; matches to "
          f"{target} ~ {matches(hands, target, rules.draw_ends_match)}; "
          f"{time.process_time() - started:.0f} s CPU")


if __name__ == "__main__":
    main()
