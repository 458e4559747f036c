"""Typed errors raised by the engine, the notation parsers and the record reader."""

from __future__ import annotations

from enum import StrEnum


class ErrorKind(StrEnum):
    """The kinds of error the public interfaces report (FORMATS.md §3)."""

    SYNTAX = "syntax"
    ILLEGAL = "illegal"
    AMBIGUOUS = "ambiguous"
    RECORD = "record"


class RummyError(ValueError):
    """Base class: a clear message quoting the bad input; the state is unchanged."""

    kind: ErrorKind = ErrorKind.ILLEGAL


class NotationError(RummyError):
    """The text is not a card, a meld or a move."""

    kind = ErrorKind.SYNTAX


class IllegalMoveError(RummyError):
    """A well-formed move that the rules do not allow in this position."""

    kind = ErrorKind.ILLEGAL


class AmbiguousMoveError(RummyError):
    """A move that has several readings; the message lists them."""

    kind = ErrorKind.AMBIGUOUS


class RecordError(RummyError):
    """A game record (or a set of options) that is not valid."""

    kind = ErrorKind.RECORD
