"""An external program as a player: a :class:`~rummykit.bots.Bot` over JSON lines.

The program starts at its first turn (its seat comes from the view) and gets one
``hello``; each turn it gets a ``turn`` message and answers ``{"move": "..."}``. A malformed,
unparsable, ambiguous or illegal answer is sent back as an ``error`` and the agent answers
again, up to ``retries`` times; then the ``fallback`` bot plays that turn for it. A silent
agent (no answer within ``timeout`` seconds) or one whose process ends is stopped for good,
and the fallback plays its remaining turns. With ``fallback="forfeit"`` either failure
raises :class:`AgentError` instead, which ends the game. Every answer is checked on a copy
of a state made from the view, so nothing the agent sends can change the game.
"""

from __future__ import annotations

import contextlib
import queue
import random
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Sequence
from typing import IO

from rummykit.agents import protocol
from rummykit.bots import make_bot
from rummykit.errors import RummyError
from rummykit.moves import Move
from rummykit.views import PlayerView, resample

FORFEIT = "forfeit"
_EOF = b""
_TOO_LONG = b"\x00too long"


class AgentError(RummyError):
    """The agent failed and its fallback is ``forfeit``: the game cannot go on."""


def _pump(stream: IO[bytes], lines: queue.Queue[bytes]) -> None:
    """Move the agent's output lines to ``lines`` (an over-long line becomes a marker)."""
    while True:
        line = stream.readline(protocol.MAX_LINE + 1)
        if not line:
            lines.put(_EOF)
            return
        if len(line) > protocol.MAX_LINE and not line.endswith(b"\n"):
            while (rest := stream.readline(protocol.MAX_LINE)) and not rest.endswith(b"\n"):
                pass
            line = _TOO_LONG
        lines.put(line)


class SubprocessAgent:
    """Plays the moves an external program answers (see the module docstring)."""

    def __init__(self, command: Sequence[str], *, timeout: float = 10.0, retries: int = 3,
                 fallback: str = "random", name: str | None = None) -> None:
        if not command:
            raise RummyError("an agent needs a command to run")
        if fallback != FORFEIT:
            make_bot(fallback)  # refuse an unknown bot now
        self.command = list(command)
        self.timeout = timeout
        self.retries = retries
        self.fallback = fallback
        self.name = name or "agent"
        self.failures: Counter[str] = Counter()  # kind -> count, plus "fallback_moves"
        self.stopped: str | None = None  # why the agent was stopped, once it is
        self._process: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[bytes] = queue.Queue()
        self._ident = 0
        self._reader: threading.Thread | None = None

    # -- the process ----------------------------------------------------------------
    def _start(self, seen: PlayerView) -> None:
        try:
            self._process = subprocess.Popen(self.command, stdin=subprocess.PIPE,
                                             stdout=subprocess.PIPE)
        except OSError as error:
            self._stop(f"could not start {self.command[0]!r}: {error.strerror or error}",
                       "crash")
            return
        assert self._process.stdout is not None
        self._reader = threading.Thread(target=_pump, args=(self._process.stdout, self._lines),
                                        daemon=True)
        self._reader.start()
        self._send(protocol.hello_message(seen, self.timeout, self.retries))

    def _send(self, message: protocol.Message) -> bool:
        process = self._process
        if process is None or process.stdin is None or self.stopped:
            return False
        try:
            process.stdin.write(protocol.encode(message))
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            self._stop(self._exit_reason(), "crash")
            return False
        return True

    def _receive(self, deadline: float) -> bytes | None:
        """The next non-blank line, or None when the agent fell silent or ended."""
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self._send(protocol.error_message(self._ident, "timeout",
                           f"no answer within {self.timeout:g} s; you are stopped", None, -1))
                self._stop(f"no answer within {self.timeout:g} s", "timeout")
                return None
            if line == _EOF:
                self._stop(self._exit_reason(), "crash")
                return None
            if line.strip():
                return line

    def _drop_unsolicited(self) -> None:
        """Drop lines written while no answer was expected (they answer no turn)."""
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return
            if line == _EOF:
                self._stop(self._exit_reason(), "crash")
                return
            if line.strip():
                self.failures["unsolicited"] += 1

    def _exit_reason(self) -> str:
        process = self._process
        code = None if process is None else process.poll()
        if code is None and process is not None:
            try:
                code = process.wait(timeout=5.0)
            except subprocess.TimeoutExpired:
                return "the agent closed its output"
        return f"the agent exited with status {code}"

    def _stop(self, reason: str, kind: str) -> None:
        if self.stopped is None:
            self.stopped = reason
            self.failures[kind] += 1
        self._kill()

    def _kill(self) -> None:
        process = self._process
        if process is None:
            return
        if process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()
        try:
            process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if self._reader is not None:
            self._reader.join(timeout=1.0)
        if process.stdout is not None and (self._reader is None or not self._reader.is_alive()):
            process.stdout.close()

    # -- the Bot protocol -----------------------------------------------------------
    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        """The agent's move, or the fallback's when the agent cannot give a legal one."""
        if self._process is None and self.stopped is None:
            self._start(view)
        self._ident += 1
        ident = self._ident
        self._drop_unsolicited()
        reason = self.stopped
        if reason is None and self._send(protocol.turn_message(ident, view)):
            attempt = 0
            deadline = time.monotonic() + self.timeout
            while attempt <= self.retries:
                line = self._receive(deadline)
                if line is None:
                    break
                text, move, kind, message = self._judge(line, ident, view)
                if move is not None:
                    return move
                self.failures[kind] += 1
                if kind == "stale":  # a late answer to an earlier turn: not this one's
                    continue
                attempt += 1
                left = self.retries - attempt
                self._send(protocol.error_message(ident, kind, message, text, left))
                reason = f"{kind} answer: {message}"
                deadline = time.monotonic() + self.timeout
            else:
                reason = f"{self.retries + 1} bad answers; the last: {reason}"
        if self.stopped is not None:
            reason = self.stopped
        return self._fall_back(ident, view, rng, reason or "the agent is stopped")

    def _judge(self, line: bytes, ident: int, view: PlayerView
               ) -> tuple[str | None, Move | None, str, str]:
        """(answer text, the legal move or None, error kind, error message)."""
        if line == _TOO_LONG:
            return None, None, "malformed", f"answer line longer than {protocol.MAX_LINE} bytes"
        try:
            text = protocol.parse_answer(line.decode("utf-8", "replace"), ident)
        except protocol.StaleAnswer as error:
            return None, None, "stale", str(error)
        except protocol.AnswerError as error:
            return None, None, "malformed", str(error)
        state = resample(view, random.Random(0))  # legality depends on the view alone
        try:
            move = state.play(text)
        except RummyError as error:
            return text, None, str(error.kind), str(error)
        return text, move, "", ""

    def _fall_back(self, ident: int, view: PlayerView, rng: random.Random,
                   reason: str) -> Move:
        if self.fallback == FORFEIT:
            raise AgentError(f"{self.name} at seat {view.seat} forfeits: {reason}")
        move = make_bot(self.fallback).choose(view, rng)
        self.failures["fallback_moves"] += 1
        self._send(protocol.fallback_message(ident, str(move), reason))
        return move

    # -- notifications --------------------------------------------------------------
    def hand_over(self, view: PlayerView) -> None:
        """Tell the agent how a hand ended (every hand revealed)."""
        self._send(protocol.hand_over_message(view))

    def close(self, totals: Sequence[int] = (), winners: Sequence[int] = ()) -> None:
        """Send ``end`` (when the match result is given), close stdin and reap the process."""
        if totals:
            self._send(protocol.end_message(list(totals), list(winners)))
        self._kill()
