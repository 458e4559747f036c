"""The rules of basic and traditional Rummy for players, with a rule set's own numbers.

One text serves every face: ``rummykit play``'s ``help``, the terminal table's help
screen and the web app's rules page (paragraphs are separated by blank lines).

>>> from rummykit.variants.rummy.presets import TRADITIONAL
>>> text = help_text(TRADITIONAL)
>>> text.splitlines()[0]
'Rummy, traditional rules (2 to 4 players)'
>>> "200 with four" in text and "lost match" in text
True
"""

from __future__ import annotations

from rummykit.core.rules import Rules

NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")

PAGE = """\
Rummy, {name} rules ({low} to {high} players)
Aim: be first to get rid of your cards, by putting them on the table in melds. The \
player who goes out collects points for the cards still held by the others.

Melds: a set is 3 or 4 cards of one rank, every suit different (8♣ 8♦ 8♠); a run is \
{run} or more cards of one suit in order (4♥ 5♥ 6♥). Aces are {ace}.

Deal: {sizes}. The rest of the pack is the stock; its top card, turned up, starts the \
discard pile.

A turn: (1) draw the top card of the stock, or take the top card of the discard pile; \
(2) if you like, put new melds down and lay off cards on any meld on the table (yours or \
another player's); (3) discard one card, which may not be the card you took from the \
pile this turn.{melds_per_turn}

Going out: the hand ends when a player has no cards left, {going_out}

Points: {points}

Stock used up: {stock}

Match: {goal}"""


def _number(count: int) -> str:
    return NUMBERS[count] if count < len(NUMBERS) else str(count)


def _stock(rules: Rules) -> str:
    if rules.stock_rebuild == "shuffle_all":
        stock = ("the whole discard pile is shuffled into a new stock, once"
                 + (" per hand. The next time the stock runs out the hand is drawn"
                    if rules.max_rebuilds == 1 else ""))
    elif rules.stock_rebuild == "turn_over_all":
        stock = "the discard pile is turned over to make a new stock"
    else:
        stock = "the discard pile except its top card is shuffled into a new stock"
    if rules.deadlock_draw:
        stock += "; a hand in which nobody can ever meld or lay off again is drawn as well"
    stock += "."
    if rules.draw_ends_match:
        stock += (" A drawn hand scores nothing and ends the match with no winner"
                  + (": it counts as a lost match for every player." if rules.draw_counts_as_loss
                     else "."))
    return stock


def _points(rules: Rules) -> str:
    values = f"2-10 as numbered, J Q K 10, ace {rules.ace_value}"
    multiplier = rules.going_rummy_multiplier
    rummy = {1: "scores no extra", 2: "doubles them"}.get(
        multiplier, f"multiplies them by {multiplier}")
    if rules.scoring == "penalty":
        return (f"the others add the cards left in their own hands as penalty points "
                f"({values}); going out in one turn without having melded before (\"going "
                f"rummy\") {rummy}. The lowest total wins.")
    return (f"the winner scores the cards left in the other hands ({values}). Going out in "
            f"one turn without having melded before (\"going rummy\") {rummy}.")


def _goal(rules: Rules) -> str:
    if rules.game_end != "target":
        best = "lowest" if rules.scoring == "penalty" else "highest"
        hands = "1 hand" if rules.num_hands == 1 else f"{rules.num_hands} hands"
        return f"{hands}; the {best} total wins."
    if isinstance(rules.target_score, int):
        return (f"hands are played until someone reaches {rules.target_score} points "
                "(that player wins).")
    targets = ", ".join(f"{target} with {_number(players)}"
                        for players, target in rules.target_score)
    return ("hands are played until someone reaches the target (that player wins). The "
            f"target depends on the players: {targets}.")


def help_text(rules: Rules) -> str:
    """How ``rules`` (basic, traditional, or either with options) is played."""
    low, high = rules.player_range
    sizes = "; ".join(f"{size} cards each for {players}" for players, size in rules.hand_size
                      if low <= players <= high) + " players"
    return PAGE.format(
        name=rules.name, low=low, high=high, run=rules.run_min_length,
        ace="low (A 2 3) or high (Q K A), never both in one run"
        if rules.ace_mode == "high_or_low" else "low only: A 2 3 is a run, Q K A is not",
        sizes=sizes,
        melds_per_turn="" if rules.max_melds_per_turn is None
        else f" In this game you put down at most {rules.max_melds_per_turn} meld a turn.",
        going_out=("and the last card must be a discard." if rules.must_discard_to_go_out
                   else "whether the last card is melded, laid off or discarded."),
        points=_points(rules), stock=_stock(rules), goal=_goal(rules))
