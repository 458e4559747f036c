"""The line-oriented game of ``rummykit play``: you at seat 0, bots at the other seats.

Everything shown to you comes from ``view(state, seat)``; bots see only their own views.

>>> from rummykit.rules import BASIC
>>> lines: list[str] = []
>>> session = PlaySession(BASIC, "Ann", ["greedy"], seed=3, out=lines.append,
...                       ask=lambda prompt: "quit")
>>> session.run()
0
>>> lines[0]
'Rummy (basic), 2 players: Ann, Bob. Seed 3.'
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rummykit.bots import Bot, make_bot
from rummykit.cards import card_points, cards_of, format_card, format_cards
from rummykit.engine import DRAW_PHASE, HandState
from rummykit.errors import RummyError
from rummykit.match import Match
from rummykit.melds import TableMeld, best_arrangement, format_placed
from rummykit.moves import Draw, LayOff, Meld, Move, Take
from rummykit.outcome import ABORTED, DEADLOCK, WIN
from rummykit.rules import Rules
from rummykit.views import PlayerView, view

BOT_NAMES = ("Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy")
PROMPT = "Your move> "
HELP = """\
Moves (any case; cards like H8, SA, DT or H10):
  draw                      take the top card of the stock
  take                      take the top card of the discard pile
  meld H7 H8 H9             lay a new meld (3+ cards); several: meld H7 H8 H9 / C2 D2 S2
  lay H6 on 2 [low|high]    lay off one card onto table meld 2
  discard SK                discard a card and end your turn
Commands:
  hand    your cards          table   melds, discard pile, stock, other players
  score   the totals          moves   your legal moves
  help    this text           quit    leave (saving with --save)"""


class _Quit(Exception):
    """The player typed quit."""


def bot_names(human: str, count: int) -> list[str]:
    """``count`` bot names that differ from the human's."""
    names = [n for n in BOT_NAMES if n.lower() != human.lower()]
    return names[:count] if count <= len(names) else [f"Bot {i + 1}" for i in range(count)]


def plural(count: int, noun: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


class PlaySession:
    """One match in line mode: reads your moves, plays the bots, shows what you may see."""

    def __init__(self, rules: Rules, name: str, bots: list[str], *, seed: int,
                 save: str | None = None, out: Callable[[str], None] | None = None,
                 ask: Callable[[str], str] | None = None) -> None:
        self.seat = 0
        self.players = [name, *bot_names(name, len(bots))]
        self.match = Match(rules, self.players, seed=seed)
        self.bots: dict[int, Bot] = {s + 1: make_bot(kind) for s, kind in enumerate(bots)}
        self.bot_rng = random.Random(f"rummykit-bots-{seed}")
        self.seed = seed
        self.save_path = save
        self.out = out or (lambda text: print(text, flush=True))
        self.ask = ask or input
        self._saved: tuple[int, int] | None = None

    # -- the loop -------------------------------------------------------------------
    def run(self) -> int:
        """Play until the match ends or you leave; returns the exit status."""
        rules = self.match.rules
        self.out(f"Rummy ({rules.name}), {len(self.players)} players: "
                 f"{', '.join(self.players)}. Seed {self.seed}.")
        self.out("Type 'help' for the move notation and the commands.")
        status = 0
        try:
            while not self.match.over:
                self._play_hand()
                self.save()
                if not self.match.over:
                    self._read("Press Enter to deal the next hand (or type quit). ")
            self._show_match_end()
        except _Quit:
            self.out("You left the game.")
        except EOFError:
            self.out("")
            self.out("End of input: leaving the game.")
        except KeyboardInterrupt:
            self.out("")
            self.out("Interrupted: leaving the game.")
            status = 130
        self.save()
        return status

    def _read(self, prompt: str) -> str:
        line = self.ask(prompt).strip()
        if line.lower() in ("quit", "exit"):
            raise _Quit
        return line

    def _play_hand(self) -> None:
        state = self.match.start_hand()
        hand_no = len(self.match.hands)
        self.out("")
        self.out(f"=== Hand {hand_no} - dealer: {self.players[state.dealer]}, "
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
            "help": lambda v: self.out(HELP), "hand": self._show_hand,
            "table": self._show_table, "score": self._show_scores,
            "scores": self._show_scores, "moves": self._show_moves,
        }
        command = commands.get(line.lower())
        if command is not None:
            command(seen)
            return False
        try:
            move = self.match.play(line)
        except RummyError as error:
            self.out(f"  {error}")
            self.out("  (nothing changed; type 'moves' for your legal moves, 'help' for help)")
            return False
        return self._after_human(move, seen)

    def _after_human(self, move: Move, before: PlayerView) -> bool:
        after = self._view()
        if isinstance(move, (Draw, Take)):
            new = cards_of(after.hand & ~before.hand)
            source = "the stock" if isinstance(move, Draw) else "the discard pile"
            self.out(f"You took {format_cards(new)} from {source}.")
        else:
            self.out(f"You: {self._describe(move, before, after)}")
        if after.result is not None or after.to_move != self.seat:
            return True
        self._show_hand(after)
        self.out("Meld, lay off or discard.")
        return False

    def _bot_move(self, seat: int) -> None:
        before = view(self._state(), seat)
        move = self.bots[seat].choose(before, self.bot_rng)
        self.match.push(move)
        after = view(self._state(), seat)
        self.out(f"{self.players[seat]}: {self._describe(move, before, after)}")

    def _describe(self, move: Move, before: PlayerView, after: PlayerView) -> str:
        """A move as notation, with what others can see of its effect."""
        if isinstance(move, Take) and before.discard_top is not None:
            return f"take {format_card(before.discard_top)}"
        if isinstance(move, Meld):
            first = len(before.table) + 1
            numbers = ", ".join(str(n) for n in range(first, first + len(move.groups)))
            return f"{move}  (table meld {numbers})"
        if isinstance(move, LayOff):
            return f"{move}  (meld {move.target} is now {after.table[move.target - 1]})"
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
        self.out(f"--- Your turn (hand {seen.deal_index + 1}, turn {seen.turn_count + 1}) ---")
        self._show_table(seen)
        self._show_scores(seen)
        self._show_hand(seen)
        if seen.phase == DRAW_PHASE:
            top = seen.discard_top
            choices = ["draw from the stock (draw)"] if seen.stock_size or any(
                isinstance(m, Draw) for m in seen.legal) else []
            if top is not None and any(isinstance(m, Take) for m in seen.legal):
                choices.append(f"take {format_card(top)} from the discard pile (take)")
            text = " or ".join(choices)
            self.out(text[:1].upper() + text[1:] + ".")

    def _show_hand(self, seen: PlayerView) -> None:
        cards = seen.hand_cards
        self.out(f"Your hand: {format_cards(cards)}")
        best = best_arrangement(seen.hand, seen.rules)
        melds = ", ".join(format_cards(m) for m in best.melds) or "none"
        self.out(f"  ({plural(len(cards), 'card')}; melds in hand: {melds}; "
                 f"deadwood {best.deadwood})")

    def _show_table(self, seen: PlayerView) -> None:
        if not seen.table:
            self.out("Table: no melds yet")
        else:
            self.out("Table:")
            for number, meld in enumerate(seen.table, start=1):
                self.out(f"  {number}. {meld}  ({self._placers(meld)})")
        top = format_card(seen.discard_top) if seen.discard_top is not None else "empty"
        self.out(f"Discard: {top} ({plural(len(seen.discard), 'card')})   "
                 f"Stock: {plural(seen.stock_size, 'card')}")
        for seat, size in enumerate(seen.hand_sizes):
            if seat == self.seat:
                continue
            known = cards_of(seen.known[seat])
            extra = f", holds {format_cards(known)} from the discard pile" if known else ""
            self.out(f"  {self.players[seat]}: {plural(size, 'card')}{extra}")

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
        totals = ", ".join(f"{n} {t}" for n, t in zip(self.players, match.totals, strict=True))
        rules = match.rules
        if rules.game_end == "target":
            goal = f"first to {rules.target_for(len(self.players))} wins"
        else:
            goal = f"{rules.num_hands} hands"
        self.out(f"Scores: {totals}  ({goal}; hands played: {self._hands_done()})")

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
                what += " - going rummy, points doubled"
        elif result.result == ABORTED:
            what = "aborted (turn limit reached), no points"
        else:
            why = "deadlock" if result.reason == DEADLOCK else "the stock ran out"
            what = f"drawn ({why}), no points"
        self.out("")
        self.out(f"=== Hand {hand_no} over: {what} ===")
        values = seen.rules.ace_value, seen.rules.joker_points
        for seat, hand in enumerate(seen.revealed):
            cards = cards_of(hand)
            if not cards:
                self.out(f"  {self.players[seat]}: no cards left")
                continue
            points = sum(card_points(c, *values) for c in cards)
            self.out(f"  {self.players[seat]}: {format_cards(cards)}  ({points} points)")
        gained = ", ".join(f"{n} {p}" for n, p in zip(self.players, result.scores, strict=True))
        self.out(f"Points this hand: {gained}")
        self._show_scores()

    def _show_match_end(self) -> None:
        match = self.match
        self.out("")
        if not match.winners:
            self.out("=== Match over: no winner (a drawn hand ends the match) ===")
        else:
            names = " and ".join(self.players[s] for s in match.winners)
            verb = "wins" if len(match.winners) == 1 else "share the win"
            self.out(f"=== Match over: {names} {verb} ===")
        self._show_scores()

    # -- records --------------------------------------------------------------------
    def save(self) -> None:
        """Write the match record to the --save file, if any and if anything changed."""
        if self.save_path is None:
            return
        mark = (len(self.match.hands), len(self.match.hands[-1].moves) if self.match.hands else 0)
        if mark == self._saved:
            return
        from rummykit.record import dump, record_of

        try:
            dump(record_of(self.match), self.save_path)
        except (OSError, RummyError) as error:
            self.out(f"Could not save the match to {self.save_path}: {error}")
            return
        self._saved = mark
        self.out(f"Saved the match record to {self.save_path}.")
