"""JSON text written by hand where the encoder is not needed: strings that need no escaping
(move notation never does) are quoted as they are, anything else goes to the encoder, so
the text is always what ``json.dumps`` writes.
"""

from __future__ import annotations

import json

#: the compact encoder (no spaces), ASCII as ``json.dumps``
compact = json.JSONEncoder(separators=(",", ":")).encode


def plain(text: str) -> bool:
    """Whether ``text`` goes into a JSON string as it is: printable ASCII, no quote, no
    backslash.

    >>> plain("discard S7"), plain('say "hi"'), plain("10\u2665")
    (True, False, False)
    """
    return text.isascii() and text.isprintable() and '"' not in text and "\\" not in text


def string_json(text: str) -> str:
    """A JSON string: quoted by hand when :func:`plain`, else by the encoder.

    >>> string_json("discard S7"), string_json('say "hi"')
    ('"discard S7"', '"say \\\\"hi\\\\""')
    """
    return f'"{text}"' if plain(text) else compact(text)


def strings_json(texts: list[str]) -> str:
    """A JSON list of strings, compact: joined by hand when every string is :func:`plain`,
    else by the encoder.

    >>> strings_json(["draw", "discard SK"]), strings_json([])
    ('["draw","discard SK"]', '[]')
    """
    if not texts:
        return "[]"
    joined = '","'.join(texts)
    if joined.isascii() and joined.isprintable() and "\\" not in joined \
            and joined.count('"') == 2 * (len(texts) - 1):
        return f'["{joined}"]'
    return compact(texts)
