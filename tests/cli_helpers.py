"""Shared helpers for the CLI tests that drive ``rummykit play`` in a pseudo-terminal
(pexpect): spawning it, typing commands, and reading the hand and the legal moves."""

from __future__ import annotations

import re
import sys

import pexpect

PROMPT = "Your move> "
TIMEOUT = 60  # generous: CI machines are slow and have 2 cores
HAND_RE = re.compile(r"Your hand: ([A-Z0-9 ]*)\r?\n")


def spawn(*args: str) -> pexpect.spawn:
    child = pexpect.spawn(sys.executable, ["-m", "rummykit.cli.main", "play", "--plain", *args],
                          encoding="utf-8", timeout=TIMEOUT, dimensions=(50, 200))
    child.delaybeforesend = None
    child.expect("Type 'help'")
    return child


def command(child: pexpect.spawn, text: str) -> str:
    """Type ``text`` at the prompt; the output up to the next prompt (echo removed)."""
    child.sendline(text)
    child.expect_exact(PROMPT)
    output: str = child.before
    return output.split("\n", 1)[1] if "\n" in output else ""


def legal_moves(child: pexpect.spawn) -> list[str]:
    output = command(child, "moves")
    header = re.search(r"Your legal moves \((\d+)\):", output)
    assert header, output
    moves = [line.strip() for line in output.splitlines()[1:] if line.startswith("  ")]
    assert len(moves) == int(header.group(1)), output
    return moves


def shown_hand(text: str) -> list[str]:
    found = HAND_RE.findall(text)
    assert found, text
    return str(found[-1]).split()
