"""The line-oriented game of ``rummykit play``: you at seat 0, bots at the other seats.

Everything shown to you comes from ``view(state, seat)``; bots see only their own views.

>>> from rummykit.variants import BASIC
>>> lines: list[str] = []
>>> session = PlaySession(BASIC, "Ann", ["greedy"], seed=3, out=lines.append,
...                       ask=lambda prompt: "quit")
>>> session.run()
0
>>> lines[0]
'Basic Rummy, 2 players: Ann, Bob. Seed 3.'
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rummykit.bots import Bot, make_bot
from rummykit.cli.line_session import LineSession
from rummykit.core import handset
from rummykit.core.cards import card_points, format_card, format_cards
from rummykit.core.engine import DRAW_PHASE, HandState
from rummykit.core.errors import RummyError
from rummykit.core.match import Match
from rummykit.core.melds import TableMeld, best_arrangement, format_placed
from rummykit.core.moves import Discard, Draw, LayOff, Meld, Move, Swap, Take
from rummykit.core.outcome import ABORTED, WIN
from rummykit.core.rules import Rules
from rummykit.core.views import PlayerView, view
from rummykit.display.faces import typed_move
from rummykit.display.terms import (
    facts_clause,
    facts_of,
    facts_words,
    goal_words,
    score_label,
    sheet_title,
    terms_of,
)
from rummykit.display.wording import agree, bot_names, drawn_words, gained, plural, wrapped
from rummykit.variants.base import RulesLike
from rummykit.variants.registry import variant_of
from rummykit.variants.table_hooks import is_down, table_hooks

PROMPT = "Your move> "
HELP = """\
Moves (any case; cards like H8, SA, DT, H10, 10h or 10♥; suits C D H S or ♣ ♦ ♥ ♠):
  draw                      take the top card of the stock
  take                      take the top card of the discard pile
  meld H7 H8 H9             lay a new meld (3+ cards); several: meld H7 H8 H9 / C2 D2 S2
  lay H6 on 2 [low|high]    lay off one card onto table meld 2
  discard SK                discard a card and end your turn
Commands:
  hand    your cards          table   melds, discard pile, stock, other players
  score   the totals          moves   your legal moves
  hint    the search bot's advice (hint medium|hard|expert: its level)
  help    this text           quit    leave (saving with --save)"""


class PlaySession(LineSession):
    """One match in line mode: reads your moves, plays the bots, shows what you may see."""

    match: Match

    def __init__(self, rules: Rules, name: str, bots: list[str], *, seed: int,
                 save: str | None = None, out: Callable[[str], None] | None = None,
                 ask: Callable[[str], str] | None = None, hint_level: str = "expert") -> None:
        self.seat = 0
        self.sheet_shown = False  # the sheet was printed as the last hand ended
        self.players = [name, *bot_names(name, len(bots))]
        self.match = Match(rules, self.players, seed=seed)
        self.bots: dict[int, Bot] = {s + 1: make_bot(kind) for s, kind in enumerate(bots)}
        self.bot_rng = random.Random(f"rummykit-bots-{seed}")
        self.seed = seed
        self.save_path = save
        self.out = out or (lambda text: print(text, flush=True))
        self.ask = ask or input
        self._saved: tuple[int, int] | None = None
        self.terms = terms_of(rules)
        #: the word for a seat that has laid its contract ("down"), or "" in families
        #: without one
        self.down = self.terms.down
        self.unit = self.terms.hand
        self.hint_level = hint_level
        self._hints = 0

    # -- the loop -------------------------------------------------------------------
    def title(self) -> str:
        """The game's first line."""
        return (f"{self.terms.title}, {len(self.players)} players: "
                f"{', '.join(self.players)}. Seed {self.seed}.")

    def _play_hand(self) -> None:
        state = self.match.start_hand()
        hand_no = len(self.match.hands)
        self.out("")
        rules = self.match.rules
        facts = facts_of(rules, state.num_players, state.deal_index)
        heading = f"{self._unit(capital=True)} {hand_no}"
        if facts:
            cards = rules.hand_size_for(state.num_players, state.deal_index)
            of = f" of {rules.num_hands}" if rules.game_end == "fixed_hands" else ""
            heading += f"{of}: {facts_words(facts)}, {cards} cards each"
        self.out(f"=== {heading} - dealer: {self.players[state.dealer]}, "
                 f"first turn: {self.players[state.to_move]} ===")
        fresh_turn = True
        while not state.is_over:
            if state.to_move == self.seat:
                fresh_turn = self._human_action(fresh_turn)
            else:
                self._bot_move(state.to_move)
                fresh_turn = True
        self._show_hand_end()

    def _human_action(self, fresh_turn: bool) -> bool:
        """Read and make one of your actions; returns whether a new turn starts next."""
        seen = self._view()
        if fresh_turn:
            self._show_status(seen)
        line = self._read(PROMPT)
        if not line:
            return False
        commands: dict[str, Callable[[PlayerView], None]] = {
            "help": self._show_help, "hand": self._show_hand, "pile": self._show_pile,
            "table": self._show_table, "score": self._show_scores,
            "scores": self._show_scores, "moves": self._show_moves,
        }
        command = commands.get(line.lower())
        if command is not None:
            command(seen)
            return False
        if line.lower().split()[0] == "hint":
            self._show_hint(seen, line.lower().split()[1:])
            return False
        try:
            move = self.match.play(typed_move(line))
        except RummyError as error:
            self.out(f"  {error}")
            self.out("  (nothing changed; type 'moves' for your legal moves, 'help' for help)")
            return False
        return self._after_human(move, seen)

    def _unit(self, *, capital: bool = False) -> str:
        return self.unit[:1].upper() + self.unit[1:] if capital else self.unit

    def _show_help(self, seen: PlayerView) -> None:
        self.out(HELP)
        self.out(wrapped(variant_of(seen.rules).help_text(seen.rules)))

    def _show_hint(self, seen: PlayerView, words: list[str]) -> None:
        """The search bot's advice for your decision (the game does not change)."""
        from rummykit.bots.hints import HINT_LEVELS, advice_lines, hint

        level = words[0] if words else self.hint_level
        if len(words) > 1 or level not in HINT_LEVELS:
            self.out(f"  Type 'hint' or 'hint LEVEL' with a level of {', '.join(HINT_LEVELS)}.")
            return
        self.out(f"Thinking (level {level})...")
        self._hints += 1
        rng = random.Random(f"rummykit-hint-{self.seed}-{self._hints}")
        for text in advice_lines(hint(seen, level, rng), 5):
            self.out(f"  {text}")

    def _after_human(self, move: Move, before: PlayerView) -> bool:
        after = self._view()
        if isinstance(move, (Draw, Take)):
            new = gained(before.hand, after.hand)
            source = "the stock" if isinstance(move, Draw) else "the discard pile"
            if isinstance(move, Take) and move.count > 1:
                dug = before.discard[-move.count:]
                self.out(f"You dug {format_card(dug[0])} (depth {move.count}) and took "
                         f"{format_cards(dug)} from {source}.")
            else:
                self.out(f"You took {format_cards(new)} from {source}.")
        else:
            self.out(f"You: {self._describe(move, before, after)}")
        if after.result is not None or after.to_move != self.seat:
            return True
        self._show_hand(after)
        self._show_duties(after)
        return False

    def _show_duties(self, seen: PlayerView) -> None:
        """What you may do now and what you must still do this turn (a dug card, a
        joker taken by a swap, the deal's contract)."""
        hooks = table_hooks(seen.rules)
        for duty in hooks.duties(seen):
            self.out(duty.sentence)
        if not self.down:
            self.out("Meld, lay off or discard.")
        elif is_down(seen, self.seat):
            went_down = hooks.went_down(seen)
            when = " this turn" if went_down else ""
            self.out(f"You are {self.down}{when}: lay off onto any meld"
                     f"{'' if went_down else ', swap for a joker'} or discard.")
        else:
            facts = facts_of(seen.rules, seen.num_players, seen.deal_index)
            wanted = ", ".join(f"{f.label.lower()}: {f.value}" for f in facts)
            if seen.phase == DRAW_PHASE:  # the turn's status says what is still wanted
                return
            if any(isinstance(m, Meld) for m in seen.legal):
                self.out(f"You can go {self.down} now (your {wanted}; see 'moves'), "
                         "or discard.")
            else:
                self.out(f"You cannot go {self.down} yet (your {wanted}): discard.")

    def _bot_move(self, seat: int) -> None:
        before = view(self._state(), seat)
        move = self.bots[seat].choose(before, self.bot_rng)
        self.match.push(move)
        after = view(self._state(), seat)
        self.out(f"{self.players[seat]}: {self._describe(move, before, after)}")

    def _describe(self, move: Move, before: PlayerView, after: PlayerView) -> str:
        """A move as notation, with what others can see of its effect."""
        if isinstance(move, Take) and before.discard_top is not None:
            if move.count > 1:
                dug = before.discard[-move.count:]
                return (f"{move}  (dug {format_card(dug[0])}, took "
                        f"{format_cards(dug)}; must place {format_card(dug[0])})")
            return f"take {format_card(before.discard_top)}"
        if isinstance(move, Meld):
            first = len(before.table) + 1
            numbers = ", ".join(str(n) for n in range(first, first + len(move.groups)))
            down = f" - goes {self.down}" if self.down \
                and not is_down(before, before.to_move) else ""
            return f"{move}  (table meld {numbers}){down}"
        if isinstance(move, LayOff):
            return f"{move}  (meld {move.target} is now {after.table[move.target - 1]})"
        if isinstance(move, Swap):
            return (f"{move}  (took the joker; meld {move.target} is now "
                    f"{after.table[move.target - 1]})")
        if isinstance(move, Discard) and after.result is not None \
                and after.result.winner == before.to_move:
            return f"{move}  (going out)"
        return str(move)

    def _state(self) -> HandState:
        state = self.match.state
        assert state is not None
        return state

    def _view(self) -> PlayerView:
        return view(self._state(), self.seat)

    # -- what you see ---------------------------------------------------------------
    def _show_status(self, seen: PlayerView) -> None:
        self.out("")
        self.out(f"--- Your turn ({self.unit} {seen.deal_index + 1}, "
                 f"turn {seen.turn_count + 1}) ---")
        self._show_table(seen)
        self._show_scores(seen)
        self._show_hand(seen)
        if self.down:
            self._show_down_status(seen)
        if seen.phase == DRAW_PHASE:
            top = seen.discard_top
            choices = ["draw from the stock (draw)"] if seen.stock_size or any(
                isinstance(m, Draw) for m in seen.legal) else []
            if top is not None and any(isinstance(m, Take) and m.count == 1
                                       for m in seen.legal):
                choices.append(f"take {format_card(top)} from the discard pile (take)")
            digs = [m for m in seen.legal if isinstance(m, Take) and m.count > 1]
            if digs:
                choices.append(f"dig deeper ({', '.join(str(m) for m in digs[:4])}"
                               f"{', ...' if len(digs) > 4 else ''}; see 'pile')")
            text = " or ".join(choices)
            self.out(text[:1].upper() + text[1:] + ".")

    def _show_down_status(self, seen: PlayerView) -> None:
        """Whether you have laid the deal's contract down yet."""
        facts = facts_of(seen.rules, seen.num_players, seen.deal_index)
        if is_down(seen, self.seat):
            self.out(f"You are {self.down} ({facts_clause(facts)}).")
        else:
            wanted = ", ".join(f"{f.label.lower()} is {f.value}" for f in facts)
            self.out(f"You are not {self.down} yet: your {wanted}.")

    def _show_hand(self, seen: PlayerView) -> None:
        cards = seen.hand_cards
        self.out(f"Your hand: {format_cards(cards)}")
        if self.down:  # melds come with the contract: what counts is the penalty
            values = seen.rules.ace_value, seen.rules.joker_points
            points = sum(card_points(c, *values) for c in cards)
            self.out(f"  ({plural(len(cards), 'card')}; {points} {self.terms.score} in hand)")
            return
        best = best_arrangement(seen.hand, seen.rules)
        melds = ", ".join(format_cards(m) for m in best.melds) or "none"
        self.out(f"  ({plural(len(cards), 'card')}; melds in hand: {melds}; "
                 f"deadwood {best.deadwood})")

    def _show_table(self, seen: PlayerView) -> None:
        facts = facts_of(seen.rules, seen.num_players, seen.deal_index)
        if facts:
            line = f"{self._unit(capital=True)} {seen.deal_index + 1}: {facts_words(facts)}."
            if self.down:
                down = [self.players[s] for s in range(seen.num_players) if is_down(seen, s)]
                line += f" {self.down.capitalize()}: {', '.join(down) or 'nobody yet'}."
            self.out(line)
        if not seen.table:
            self.out("Table: no melds yet")
        else:
            self.out("Table:")
            for number, meld in enumerate(seen.table, start=1):
                self.out(f"  {number}. {meld}  ({self._placers(meld)})")
        top = format_card(seen.discard_top) if seen.discard_top is not None else "empty"
        pile = "; 'pile' shows it all" if seen.rules.discard_dig and len(seen.discard) > 1 \
            else ""
        self.out(f"Discard: {top} ({plural(len(seen.discard), 'card')}{pile})   "
                 f"Stock: {plural(seen.stock_size, 'card')}")
        for seat, size in enumerate(seen.hand_sizes):
            if seat == self.seat:
                continue
            known = handset.cards(seen.known[seat])
            extra = f", holds {format_cards(known)} from the discard pile" if known else ""
            marked = f", {self.down}" if is_down(seen, seat) else ""
            self.out(f"  {self.players[seat]}: {plural(size, 'card')}{marked}{extra}")

    def _show_pile(self, seen: PlayerView) -> None:
        if not seen.discard:
            self.out("The discard pile is empty.")
            return
        self.out(f"Discard pile, top first ({plural(len(seen.discard), 'card')}; "
                 "depth N is what 'take N' takes down to):")
        cards = list(reversed(seen.discard))
        for start in range(0, len(cards), 10):
            self.out("  " + "  ".join(f"{depth}:{format_card(card)}" for depth, card
                                      in enumerate(cards[start:start + 10], start + 1)))

    def _placers(self, meld: TableMeld) -> str:
        by_seat: dict[int, list[int]] = {}
        for code, seat in zip(meld.cards, meld.placed_by, strict=True):
            by_seat.setdefault(seat, []).append(code)
        if len(by_seat) == 1:
            return f"by {self.players[next(iter(by_seat))]}"
        return "; ".join(f"{self.players[s]}: {' '.join(format_placed(c) for c in codes)}"
                         for s, codes in by_seat.items())

    def _show_scores(self, seen: PlayerView | None = None) -> None:
        match = self.match
        if match.rules.game_end == "fixed_hands":
            self._show_sheet()
            return
        totals = ", ".join(f"{n} {t}" for n, t in zip(self.players, match.totals, strict=True))
        goal = goal_words(match.rules, len(self.players))
        self.out(f"Scores: {totals}  ({goal}; {self.terms.hands} played: {self._hands_done()})")

    def _show_sheet(self) -> None:
        """A match of so many hands: the sheet, one row per hand, then the totals."""
        match = self.match
        width = max(4, *(len(n) for n in self.players))
        lowest = "lowest" if self.terms.lowest_wins else "highest"
        self.out(f"{sheet_title(match.rules)} ({lowest} total wins after {self.unit} "
                 f"{match.rules.num_hands}):")
        self.out(f"  {self.unit:<4}  " + " ".join(f"{n:>{width}}" for n in self.players))
        for number, log in enumerate(match.hands, 1):
            if log.result is None:
                continue
            cells = " ".join(f"{p:>{width}}" for p in log.result.scores)
            self.out(f"  {number:<4}  {cells}")
        self.out("  total " + " ".join(f"{t:>{width}}" for t in match.totals))

    def _hands_done(self) -> int:
        return sum(1 for log in self.match.hands if log.result is not None)

    def _show_moves(self, seen: PlayerView) -> None:
        self.out(f"Your legal moves ({len(seen.legal)}):")
        for move in seen.legal:
            self.out(f"  {move}")

    def _show_hand_end(self) -> None:
        seen = self._view()
        result = seen.result
        assert result is not None
        hand_no = seen.deal_index + 1
        if result.result == WIN and result.winner is not None:
            what = f"{self.players[result.winner]} went out"
            if result.rummy:
                times = seen.rules.going_rummy_multiplier
                what += " - going rummy" + {1: "", 2: ", points doubled"}.get(
                    times, f", points x{times}")
        elif result.result == ABORTED:
            what = "aborted (turn limit reached), no points"
        else:
            what = drawn_words(result)
        self.out("")
        self.out(f"=== {self._unit(capital=True)} {hand_no} over: {what} ===")
        values = seen.rules.ace_value, seen.rules.joker_points
        for seat, hand in enumerate(seen.revealed):
            cards = handset.cards(hand)
            if not cards:
                self.out(f"  {self.players[seat]}: no cards left")
                continue
            points = sum(card_points(c, *values) for c in cards)
            self.out(f"  {self.players[seat]}: {format_cards(cards)}  ({points} points)")
        points_text = ", ".join(f"{n} {p}" for n, p
                                in zip(self.players, result.scores, strict=True))
        self.out(f"{score_label(seen.rules)} this {self.unit}: {points_text}")
        self._show_scores()
        self.sheet_shown = True

    def _show_match_end(self) -> None:
        match = self.match
        self.out("")
        if not match.winners:
            self.out("=== Match over: no winner (a drawn hand ends the match) ===")
        else:
            names = " and ".join(self.players[s] for s in match.winners)
            verb = "wins" if len(match.winners) == 1 else "share the win"
            self.out(f"=== Match over: {agree(names, verb)} ===")
        if not self.sheet_shown:  # a match loaded over: its sheet, once
            self._show_scores()

def full_screen(rules: RulesLike, name: str, bots: list[str], *, seed: int,
                save: str | None = None) -> int | None:
    """Play in the full-screen table (the ``tui`` extra); None when Textual is missing."""
    try:
        from rummykit.tui import Setup, run
    except ImportError:
        print("(the full-screen table needs the 'tui' extra, pip install 'rummykit[tui]': "
              "playing in line mode)")
        return None
    return run(Setup(rules, name, tuple(bots), seed), save_path=save)  # the table of its kind
