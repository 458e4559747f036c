"""Griffe extension: docstrings written for reading in code, shown well as Markdown.

Docstrings hold plain doctest blocks (``>>>`` lines and their output, ended by a blank
line), which Markdown would otherwise read as text (an output like ``['draw', 'take']``
looks like a link): each block is wrapped in a ``pycon`` code fence. Sphinx-style roles
(``:class:`~rummykit.core.views.PlayerView```) become code spans of the name.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":[a-z]+:`(~?)([^`]+)`")


def plain_roles(text: str) -> str:
    """Sphinx roles as code spans (``~`` keeps the last part of the name only).

    >>> plain_roles("a :class:`~rummykit.core.views.PlayerView` and :func:`rummykit.view`")
    'a `PlayerView` and `rummykit.view`'
    """
    return ROLE.sub(lambda m: f"`{m[2].rsplit('.', 1)[-1] if m[1] else m[2]}`", text)


def fence_doctests(text: str) -> str:
    """``text`` with every doctest block inside a code fence.

    >>> fence_doctests("Say:\\n\\n>>> 1 + 1\\n2\\n\\nDone.").splitlines()
    ['Say:', '', '```pycon', '>>> 1 + 1', '2', '```', '', 'Done.']
    """
    out: list[str] = []
    inside = False
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        if not fenced and not inside and line.lstrip().startswith(">>>"):
            out.append("```pycon")
            inside = True
        elif inside and not line.strip():
            out.append("```")
            inside = False
        out.append(line)
    if inside:
        out.append("```")
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    """Fence the doctest blocks of every docstring."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(plain_roles(obj.docstring.value))
