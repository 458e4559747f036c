"""The gin rules for players, in plain words (RULES.md §6), following the knobs in play.

>>> from rummykit.variants.gin.rules import GIN, OKLAHOMA
>>> "First upcard" in help_text(GIN), "spade" in help_text(GIN), "spade" in help_text(OKLAHOMA)
(True, False, True)
"""

from __future__ import annotations

from rummykit.variants.gin.rules import GinRules


def _opening(rules: GinRules) -> list[str]:
    oklahoma = rules.oklahoma
    limit = rules.knock_limit
    lines = [
        ("Oklahoma Gin" if oklahoma else "Gin Rummy") + ": 2 players, 10 cards each, one deck.",
        "  Melds: sets of 3-4 cards of one rank; runs of 3+ cards of one suit in a row, ace",
        "  low only (SA S2 S3 is a run, SQ SK SA is not). Card values: A 1, 2-9 their pips,",
        "  T J Q K 10. Deadwood: the value of the cards that are in no meld.",
        "First upcard: the non-dealer may take it or pass, then the dealer; if both pass the",
        "  non-dealer draws from the stock.   take   pass   draw",
        "Each turn: draw one card (take the discard top, or draw the stock top), then discard",
        "  one (discard SK) or knock.",
    ]
    if rules.rediscard_ban:
        lines.append("  A card taken from the discard pile may not be discarded the same turn.")
    if oklahoma:
        ace = "0: gin only" if rules.oklahoma_ace == "gin_only" else "1"
        lines += [f"Knock limit: the first upcard's value (at most {limit}; an ace makes it "
                  f"{ace}),", "  fixed for the whole hand."]
        if rules.oklahoma_spade_double:
            lines.append("  When the first upcard is a spade, the hand's points are doubled.")
    else:
        lines.append(f"Knock limit: {limit} points of deadwood.")
    return lines


def _knocking(rules: GinRules) -> list[str]:
    lines = [
        "Knocking: discard a card face down and show your melds; the deadwood left must be at",
        "  most the knock limit.   knock SK   (your best melds)",
        "  or name them:   knock SK: H7 H8 H9 / C2 D2 S2",
        "  Gin: a knock with no deadwood (gin SK), worth the defender's deadwood + "
        f"{rules.gin_bonus}.",
    ]
    big = rules.big_gin_bonus
    if big is not None:
        lines.append(f"  Big gin: all 11 cards melded, no discard (gin), worth deadwood + {big}.")
    lines += [
        "The defender's show: lay your cards off onto the knocker's melds (lay H6 on 1; never",
        "  after gin), then meld your own cards (meld S4 S5 S6, optional), then say done.",
        "Scoring: the knocker scores the difference of the deadwoods. If the defender has",
        "  less, the defender undercuts and scores the difference + "
        f"{rules.undercut_bonus}.",
        f"  {_tie_words(rules)} Gin is never undercut.",
    ]
    if rules.wall_knock:
        lines += ["The wall: with 2 cards left in the stock, the next player must pass (the hand",
                  "  is dead, no score) or take the discard and knock at once."]
    else:
        lines.append("The wall: a discard that leaves 2 cards in the stock ends the hand, dead.")
    return lines


def _tie_words(rules: GinRules) -> str:
    tie = rules.tie_rule
    return {"undercut": "A tie is an undercut too (the bonus alone).",
            "knocker_wins": "On a tie the knocker wins the hand, for 0 points.",
            "no_score": "A tie scores nothing."}.get(tie, "")


def _game(rules: GinRules) -> list[str]:
    if rules.game_end == "single_hand":
        return ["The match is one hand."]
    target = rules.target_score
    lines = [
        f"The game: hands are played until a player's total reaches {target}. That player",
        f"  wins the game and gets {rules.game_bonus}; each player adds "
        f"{rules.box_bonus} for each hand won (a box).",
    ]
    shutout = rules.shutout_rule
    if shutout == "double_total":
        lines.append("  Shutout (the loser won no hand): the winner's total is doubled.")
    elif shutout == "flat":
        lines.append(f"  Shutout (the loser won no hand): the winner adds "
                     f"{rules.shutout_bonus}.")
    dealer = {"winner": "The winner of a hand deals the next",
              "loser": "The loser of a hand deals the next",
              "alternate": "The deal alternates"}[rules.next_dealer]
    lines.append(f"  {dealer}; after a dead hand the same dealer deals again.")
    if rules.hollywood:
        lines += ["Hollywood: three games are scored at once. Your 1st win counts in game 1,",
                  "  your 2nd in games 1-2, later ones in every game still going; the match",
                  "  total is the sum of the three settled games."]
    return lines


def help_text(rules: GinRules) -> str:
    """The rules of this gin rule set for players (moves written as they are typed)."""
    return "\n".join([*_opening(rules), *_knocking(rules), *_game(rules)])
