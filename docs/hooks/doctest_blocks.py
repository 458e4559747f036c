"""Griffe extension: show the doctest examples of docstrings as Python console code.

Docstrings hold plain doctest blocks (``>>>`` lines and their output, ended by a blank
line), which Markdown would otherwise read as text (an output like ``['draw', 'take']``
looks like a link). Each block is wrapped in a ``pycon`` code fence before rendering.
"""

from __future__ import annotations

from typing import Any

import griffe


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
            obj.docstring.value = fence_doctests(obj.docstring.value)
