"""The line game of a knock family (gin, Oklahoma gin): you at seat 0 against one bot.

Everything shown to you comes from the family's view of seat 0 (the only way hidden cards
leave a hand); the bot sees only its own view. Moves are typed in the family's notation
(cards as ``DT``, ``10d``, ``T♦`` or ``10♦``), or chosen by number from ``moves``; after
``knock X`` (or ``gin X``) a menu of the arrangements the knock may declare is offered.

>>> from rummykit.variants.gin.rules import GIN
>>> lines: list[str] = []
>>> session = GinPlaySession(GIN, "Ann", ["greedy"], seed=3, out=lines.append,
...                          ask=lambda prompt: "quit")
>>> session.run()
0
>>> lines[0]
'Gin Rummy, 2 players: Ann, Bob. Seed 3.'
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, cast

from rummykit.bots import AnyBot, make_bot_for
from rummykit.cli.line_session import LineSession
from rummykit.core.cards import cards_of, format_cards
from rummykit.core.errors import RecordError, RummyError
from rummykit.core.match import FamilyMatch
from rummykit.core.moves import Draw, Take
from rummykit.core.record import replay_file
from rummykit.display.faces import typed_move
from rummykit.display.wording import agree, bot_names, wrapped
from rummykit.variants.gin import text
from rummykit.variants.gin.game import ScoreSheet
from rummykit.variants.gin.hand import GinHand
from rummykit.variants.gin.moves import Gin, GinMove, Knock
from rummykit.variants.gin.output import sheet_lines
from rummykit.variants.gin.rules import GinRules
from rummykit.variants.gin.view import GinView, gin_view

PROMPT = "Your move> "
HELP = """\
Moves (any case; cards like H8, SA, DT, H10, 10h or 10♥; suits C D H S or ♣ ♦ ♥ ♠):
  take / pass               the first upcard: take it or pass
  draw                      take the top card of the stock
  take                      take the top card of the discard pile
  discard SK                discard a card and end your turn
  knock SK                  knock discarding SK: a menu of arrangements follows
  knock SK: H7 H8 H9 / C2 D2 S2   knock declaring these melds (the rest is deadwood)
  gin SK                    go gin discarding SK (gin: ... with no discard: big gin)
  lay H6 on 2               at the show: lay off onto the knocker's meld 2
  meld H7 H8 H9             at the show: meld your own cards
  done                      end the show: the hand is scored
  N                         the move numbered N in 'moves'
Commands:
  hand    your cards          table   pile, stock, the knock and the show
  score   the score sheet     moves   your legal moves, numbered
  hint    the search bot's advice (hint easy|medium|hard|expert: its level)
  help    this text
  save FILE / load FILE       write the match record / resume a saved gin match
  quit    leave (saving with --save)"""

Match = FamilyMatch[GinRules, GinHand]


class GinPlaySession(LineSession):
    """One gin match in line mode against one bot."""

    def __init__(self, rules: GinRules, name: str, bots: list[str], *, seed: int,
                 save: str | None = None, out: Callable[[str], None] | None = None,
                 ask: Callable[[str], str] | None = None, hint_level: str = "expert") -> None:
        self.seat = 0
        self.players = [name, *bot_names(name, len(bots))]
        self.match: Match = FamilyMatch(rules, self.players, seed=seed)
        self.bot_kinds = list(bots)
        self.bots: dict[int, AnyBot] = {s + 1: make_bot_for(kind, rules)
                                        for s, kind in enumerate(bots)}
        self.bot_rng = random.Random(f"rummykit-bots-{seed}")
        self.seed = seed
        self.save_path = save
        self.out = out or (lambda line: print(line, flush=True))
        self.ask = ask or input
        self.hint_level = hint_level
        self._hints = 0
        self._saved: tuple[int, int] | None = None

    @property
    def sheet(self) -> ScoreSheet:
        """The match's score sheet (gin's match scorer)."""
        sheet = self.match.scorer
        assert isinstance(sheet, ScoreSheet)
        return sheet

    # -- the loop -------------------------------------------------------------------
    def title(self) -> str:
        """The game's first line."""
        return (f"{text.title_words(self.match.rules)}, 2 players: {', '.join(self.players)}. "
                f"Seed {self.seed}.")

    def _play_hand(self) -> None:
        state = self.match.state
        if state is None or state.is_over:
            state = self.match.start_hand()
            self.out("")
            self.out(f"=== Hand {len(self.match.hands)} - dealer: "
                     f"{self.players[state.dealer]}; knock limit {state.knock_limit}"
                     f"{', spade upcard: points doubled' if state.multiplier > 1 else ''} ===")
        fresh = True
        while not state.is_over:
            if state.to_move == self.seat:
                fresh = self._human_action(fresh)
                state = self._state()
            else:
                self._bot_move(state.to_move)
                fresh = True
        self._show_hand_end()

    def _state(self) -> GinHand:
        state = self.match.state
        assert state is not None
        return state

    def _view(self, seat: int | None = None) -> GinView:
        return gin_view(self._state(), self.seat if seat is None else seat)

    def _human_action(self, fresh: bool) -> bool:
        """Read and make one of your actions; returns whether a new turn starts next."""
        seen = self._view()
        if fresh:
            self._show_status(seen)
        line = self._read(PROMPT)
        if not line:
            return False
        word, _, rest = line.partition(" ")
        commands: dict[str, Callable[[GinView], None]] = {
            "help": self._show_help, "hand": self._show_hand, "table": self._show_table,
            "score": self._show_sheet, "scores": self._show_sheet, "moves": self._show_moves,
        }
        command = commands.get(line.lower())
        if command is not None:
            command(seen)
            return False
        if word.lower() == "hint":
            self._show_hint(seen, rest.split())
            return False
        if word.lower() in ("save", "load") and rest.strip():
            (self._save_as if word.lower() == "save" else self._load)(rest.strip())
            return word.lower() == "load"
        move = self._chosen(line, seen)
        if move is None:
            return False
        try:
            made = self.match.play(move)
        except RummyError as error:
            self.out(f"  {error}")
            self.out("  (nothing changed; type 'moves' for your legal moves, 'help' for help)")
            return False
        after = self._view()
        if isinstance(made, (Draw, Take)):
            gained = cards_of(after.hand & ~seen.hand)
            source = "the stock" if isinstance(made, Draw) else "the discard pile"
            self.out(f"You took {format_cards(gained)} from {source}.")
        else:
            self.out(text.move_words("You", made, seen, after))
        if after.result is None and after.to_move == self.seat:
            self.out(text.hand_words(after))
            self.out(text.choices_words(after))
        return after.result is not None or after.to_move != self.seat

    def _chosen(self, line: str, seen: GinView) -> GinMove | None:
        """The move a line names (a number of 'moves', notation, or a knock from its menu);
        None after saying why there is none."""
        if line.isdigit():
            number = int(line)
            if not 1 <= number <= len(seen.legal):
                self.out(f"  {line}: expected a move number 1..{len(seen.legal)} "
                         "(see 'moves')")
                return None
            return seen.legal[number - 1]
        try:
            move: GinMove = self.match.variant.parse_move(typed_move(line.replace(":", " : ")))
        except RummyError as error:
            self.out(f"  {error}")
            self.out("  (type 'help' for the notation)")
            return None
        if isinstance(move, (Knock, Gin)) and move.groups is None:
            return self._knock_menu(move, seen)
        return move

    def _knock_menu(self, move: Knock | Gin, seen: GinView) -> GinMove | None:
        choices = text.knock_choices(seen, move.card)
        if not choices:
            return move  # the engine says why this knock is refused
        if len(choices) == 1:
            return choices[0]
        self.out("Arrangements for this knock (melds shown, the rest is deadwood):")
        for number, choice in enumerate(choices, 1):
            self.out(f"  {number}. {text.choice_words(choice, seen.hand)}")
        while True:
            answer = self._read(f"Choose 1-{len(choices)} (Enter: 1, 0: cancel)> ")
            if not answer:
                return choices[0]
            if answer.isdigit() and 0 <= int(answer) <= len(choices):
                return choices[int(answer) - 1] if int(answer) else None
            self.out(f"  {answer!r}: expected a number 0..{len(choices)}")

    def _bot_move(self, seat: int) -> None:
        before = self._view()  # described as you see it: a knock's discard stays face down
        move = self.bots[seat].choose(self._view(seat), self.bot_rng)
        self.match.push(move)
        self.out(text.move_words(self.players[seat], move, before, self._view()))

    # -- what you see ---------------------------------------------------------------
    def _show_status(self, seen: GinView) -> None:
        self.out("")
        self.out(f"--- Your turn (hand {seen.deal_index + 1}, turn {seen.turn_count + 1}) ---")
        self._show_table(seen)
        self.out(text.progress_words(self.sheet, self.players))
        self.out(text.hand_words(seen))
        self.out(text.choices_words(seen))

    def _show_help(self, seen: GinView) -> None:
        self.out(HELP)
        self.out(wrapped(self.match.variant.help_text(seen.rules)))

    def _show_hand(self, seen: GinView) -> None:
        self.out(text.hand_words(seen))

    def _show_table(self, seen: GinView) -> None:
        for line in text.table_lines(seen, self.players):
            self.out(line)

    def _show_moves(self, seen: GinView) -> None:
        self.out(f"Your legal moves ({len(seen.legal)}; type a number to play one):")
        for number, move in enumerate(seen.legal, 1):
            self.out(f"  {number:>2}. {move}")

    def _show_sheet(self, seen: GinView | None = None) -> None:
        for line in sheet_lines(self.match.states, self.sheet, self.players):
            self.out(line)
        if not self.sheet.over:
            self.out(text.progress_words(self.sheet, self.players))

    def _show_hint(self, seen: GinView, words: list[str]) -> None:
        """The gin search bot's advice for your decision (the game does not change)."""
        from rummykit.cli.gin_hint import GIN_HINT_LEVELS, advice_lines

        level = words[0].lower() if words else self.hint_level
        if len(words) > 1 or level not in GIN_HINT_LEVELS:
            self.out(f"  Type 'hint' or 'hint LEVEL' with a level of "
                     f"{', '.join(GIN_HINT_LEVELS)}.")
            return
        self._hints += 1
        rng = random.Random(f"rummykit-hint-{self.seed}-{self._hints}")
        self.out(f"Thinking (level {level})...")
        for line in advice_lines(seen, level, rng):
            self.out(f"  {line}")

    def _show_hand_end(self) -> None:
        seen = self._view()
        self.out("")
        self.out(f"=== Hand {seen.deal_index + 1} over ===")
        for line in text.result_lines(seen, self.players):
            self.out(line)
        self._show_sheet()

    def _show_match_end(self) -> None:
        from rummykit.variants.gin.output import match_line

        self.out("")
        sheet = self.sheet
        if sheet.winners:
            names = " and ".join(self.players[s] for s in sheet.winners)
            verb = "wins" if len(sheet.winners) == 1 else "share the win"
            self.out(f"=== Match over: {agree(names, verb)} ===")
        else:
            self.out("=== Match over: no winner ===")
        self.out(match_line(sheet, self.players))

    # -- records --------------------------------------------------------------------
    def _save_as(self, path: str) -> None:
        self.write(path)

    def _load(self, path: str) -> None:
        """Resume the gin match saved at ``path`` (you at seat 0, the same bot)."""
        try:
            match = resumed(path)
        except RecordError as error:
            self.out(f"  {error}")
            return
        self.match = match
        self.players = list(match.players)
        self.bots = {1: make_bot_for(self.bot_kinds[0], match.rules)}
        self.seed = match.seed if match.seed is not None else self.seed
        self.out(f"Loaded {path}: hand {len(match.hands)}, "
                 f"{sum(len(h.moves) for h in match.hands)} moves so far.")
        if match.state is not None and match.state.is_over and not match.over:
            state = match.start_hand()
            self.out(f"=== Hand {len(match.hands)} - dealer: {self.players[state.dealer]}; "
                     f"knock limit {state.knock_limit} ===")
        self._saved = None


def resumed(path: str) -> Match:
    """The gin match of a record file, ready to go on; RecordError saying why not."""
    replayed = replay_file(path)
    match: Any = replayed.match
    if replayed.error is not None:
        raise RecordError(f"cannot load {path!r}: {replayed.error.message}")
    if match is None or not isinstance(match.scorer, ScoreSheet):
        raise RecordError(f"cannot load {path!r}: not a gin match record")
    if match.over:
        raise RecordError(f"cannot load {path!r}: that match is over")
    return cast(Match, match)
