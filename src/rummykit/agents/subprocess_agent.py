"""An external program as a player: a :class:`~rummykit.bots.Bot` over JSON lines.

The program starts at its first turn (its seat comes from the view) and gets one ``hello``,
which it answers with one JSON object (``{"ready": true}``) within ``startup_timeout``
seconds; only then is its first ``turn`` sent, so start-up time never counts against an
answer, and nothing it writes before that is played. Each turn it answers
``{"move": "..."}`` within ``timeout`` seconds.

Failures of one turn: a malformed, unparsable, ambiguous or illegal answer is sent back as
an ``error`` and the agent answers again, up to ``retries`` times; no answer in time is a
``timeout``. Either way the ``fallback`` bot plays that turn and the agent keeps its seat:
a late answer, when it comes, is dropped. After ``max_timeouts`` timeouts in a row the
agent is stopped.

Failures of the agent: it cannot start, does not answer ``hello`` in time, exits, or is
stopped. Then :class:`AgentError` is raised (the game cannot go on) unless a ``stand_in``
bot was asked for, which plays the agent's remaining turns (``failures`` and ``stopped``
say so). With ``fallback="forfeit"`` every failure raises :class:`AgentError`. Every
answer is checked on a copy of a state made from the view, so nothing the agent sends can
change the game.
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
from typing import IO, Any

from rummykit.agents import protocol
from rummykit.agents.positions import SeatView, position_of
from rummykit.bots import make_bot, make_bot_for
from rummykit.core.errors import RummyError

FORFEIT = "forfeit"
_EOF = b""
_TOO_LONG = b"\x00too long"


class AgentError(RummyError):
    """The agent failed and nothing was asked to play for it: the game cannot go on."""


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
                 fallback: str = "random", startup_timeout: float = 30.0,
                 max_timeouts: int = 3, stand_in: str | None = None,
                 name: str | None = None) -> None:
        if not command:
            raise RummyError("an agent needs a command to run")
        for bot in (fallback, stand_in):
            if bot is not None and bot != FORFEIT:
                make_bot(bot)  # refuse an unknown bot now
        self.command = list(command)
        self.timeout = timeout
        self.startup_timeout = startup_timeout
        self.retries = retries
        self.fallback = fallback
        self.max_timeouts = max_timeouts
        self.stand_in = stand_in
        self.name = name or "agent"
        # kind -> count, plus "fallback_moves" and "stand_in_moves"
        self.failures: Counter[str] = Counter()
        self.stopped: str | None = None  # why the agent was stopped, once it is
        self._process: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[bytes] = queue.Queue()
        self._ident = 0
        self._owed: list[int] = []  # turns given up after a timeout, their answers not seen
        self._timeouts_in_row = 0
        self._reader: threading.Thread | None = None

    # -- the process ----------------------------------------------------------------
    def _start(self, seen: SeatView) -> None:
        """Start the program, send ``hello`` and wait for its reply (or stop it)."""
        try:
            self._process = subprocess.Popen(self.command, stdin=subprocess.PIPE,
                                             stdout=subprocess.PIPE)
        except OSError as error:
            self._stop(f"could not start {self.command[0]!r}: {error.strerror or error}",
                       "start")
            return
        assert self._process.stdout is not None
        self._reader = threading.Thread(target=_pump, args=(self._process.stdout, self._lines),
                                        daemon=True)
        self._reader.start()
        hello = protocol.hello_message(seen, self.timeout, self.retries, self.startup_timeout)
        if not self._send(hello, "start", " before replying to hello"):
            return
        deadline = time.monotonic() + self.startup_timeout
        while self.stopped is None:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                self._stop(f"no reply to hello within {self.startup_timeout:g} s", "start")
                return
            if line == _EOF:
                self._stop(f"{self._exit_reason()} before replying to hello", "start")
                return
            if protocol.is_ready(line.decode("utf-8", "replace")):
                return
            if line.strip():
                self.failures["malformed"] += 1  # not a JSON object: still waiting

    def _send(self, message: protocol.Message, kind: str = "crash", when: str = "") -> bool:
        """Write one message; a closed pipe stops the agent (failure ``kind``)."""
        process = self._process
        if process is None or process.stdin is None or self.stopped:
            return False
        try:
            process.stdin.write(protocol.encode(message))
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            self._stop(self._exit_reason() + when, kind)
            return False
        return True

    def _receive(self, deadline: float) -> bytes | None:
        """The next non-blank line, or None when the time is up or the agent ended."""
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return None
            if line == _EOF:
                self._stop(self._exit_reason(), "crash")
                return None
            if line.strip():
                return line

    def _drop_unsolicited(self) -> None:
        """Drop lines written while no answer was expected: late answers to turns given up
        after a timeout, or lines that answer nothing."""
        while self.stopped is None:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return
            if line == _EOF:
                self._stop(self._exit_reason(), "crash")
                return
            if not line.strip():
                continue
            try:
                protocol.parse_answer(line.decode("utf-8", "replace"), 0, tuple(self._owed))
            except protocol.LateAnswer as late:
                self._owed.remove(late.ident)
                self.failures["late"] += 1
                continue
            except protocol.AnswerError:
                pass
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
    def choose(self, view: SeatView, rng: random.Random) -> Any:
        """The agent's move; the fallback's for a failed turn, the stand-in's once the agent
        is stopped (or :class:`AgentError`)."""
        if self._process is None and self.stopped is None:
            self._start(view)
        self._ident += 1
        ident = self._ident
        self._drop_unsolicited()
        reason = "the agent is stopped"
        if self.stopped is None and self._send(protocol.turn_message(ident, view)):
            move, reason = self._answer(ident, view)
            if move is not None:
                return move
        if self.stopped is not None:
            return self._replace(view, rng)
        return self._fall_back(ident, view, rng, reason)

    def _answer(self, ident: int, view: SeatView) -> tuple[Any, str]:
        """The agent's legal move for turn ``ident``, or None and why there is none."""
        attempt = 0
        deadline = time.monotonic() + self.timeout
        reason = ""
        while attempt <= self.retries:
            line = self._receive(deadline)
            if line is None:
                return None, self._timed_out(ident) if self.stopped is None else self.stopped
            text, move, kind, message = self._judge(line, ident, view)
            if move is not None:
                self._timeouts_in_row = 0
                return move, ""
            self.failures[kind] += 1
            if kind in ("stale", "late"):  # an answer to an earlier turn: not this one's
                continue
            attempt += 1
            left = self.retries - attempt
            self._send(protocol.error_message(ident, kind, message, text, left))
            reason = f"{kind} answer: {message}"
            deadline = time.monotonic() + self.timeout
        self._timeouts_in_row = 0
        return None, f"{self.retries + 1} bad answers; the last: {reason}"

    def _timed_out(self, ident: int) -> str:
        """Give turn ``ident`` up (its answer is owed); stop the agent after too many."""
        message = f"no answer within {self.timeout:g} s"
        self.failures["timeout"] += 1
        self._owed.append(ident)
        self._timeouts_in_row += 1
        self._send(protocol.error_message(ident, "timeout", message, None, -1))
        if self._timeouts_in_row >= self.max_timeouts:
            self._stop(f"no answer in time for {self._timeouts_in_row} turns in a row",
                       "stopped")
        return message

    def _judge(self, line: bytes, ident: int, view: SeatView
               ) -> tuple[str | None, Any, str, str]:
        """(answer text, the legal move or None, error kind, error message)."""
        if line == _TOO_LONG:
            return None, None, "malformed", f"answer line longer than {protocol.MAX_LINE} bytes"
        try:
            text = protocol.parse_answer(line.decode("utf-8", "replace"), ident,
                                         tuple(self._owed))
        except protocol.LateAnswer as late:
            self._owed.remove(late.ident)
            return None, None, "late", str(late)
        except protocol.StaleAnswer as error:
            return None, None, "stale", str(error)
        except protocol.AnswerError as error:
            return None, None, "malformed", str(error)
        state = position_of(view)  # legality depends on the view alone
        try:
            move = state.play(text)
        except RummyError as error:
            return text, None, str(error.kind), str(error)
        return text, move, "", ""

    def _fall_back(self, ident: int, view: SeatView, rng: random.Random,
                   reason: str) -> Any:
        """The fallback bot's move for a failed turn (the agent is told which)."""
        if self.fallback == FORFEIT:
            self._kill()
            raise AgentError(f"{self.name} at seat {view.seat} forfeits: {reason}")
        move = make_bot_for(self.fallback, view.rules).choose(view, rng)
        self.failures["fallback_moves"] += 1
        self._send(protocol.fallback_message(ident, str(move), reason))
        return move

    def _replace(self, view: SeatView, rng: random.Random) -> Any:
        """The stand-in's move for a stopped agent, or :class:`AgentError` without one."""
        if self.stand_in is None or self.fallback == FORFEIT:
            verb = "forfeits" if self.fallback == FORFEIT else "failed"
            raise AgentError(f"{self.name} at seat {view.seat} {verb}: {self.stopped}")
        self.failures["stand_in_moves"] += 1
        return make_bot_for(self.stand_in, view.rules).choose(view, rng)

    # -- notifications --------------------------------------------------------------
    def hand_over(self, view: SeatView) -> None:
        """Tell the agent how a hand ended (every hand revealed)."""
        self._send(protocol.hand_over_message(view))

    def close(self, totals: Sequence[int] = (), winners: Sequence[int] = ()) -> None:
        """Send ``end`` (when the match result is given), close stdin and reap the process."""
        if totals:
            self._send(protocol.end_message(list(totals), list(winners)))
        self._kill()
