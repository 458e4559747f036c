"""MkDocs hook: put the knob reference, made from rummykit.core.rules, into rules/options.md.

The page holds the marker ``<!-- knob-reference -->``; this hook replaces it with
``rummykit.core.knobs.markdown()`` and each registered family's ``knob_reference()``
(the knobs of a family with its own rules type) at build time, so the reference is never a
hand-kept copy. A missing marker, or a knob without a meaning, fails the build.

"""

from __future__ import annotations

from typing import Any

MARKER = "<!-- knob-reference -->"
PAGE = "rules/options.md"


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    """Fill the marker of the knob page."""
    if page.file.src_uri != PAGE:
        return markdown
    if MARKER not in markdown:
        raise ValueError(f"{PAGE} lacks the marker {MARKER}")
    from rummykit.core.knobs import markdown as knob_markdown
    from rummykit.variants.registry import families

    parts = [knob_markdown(), *(v.knob_reference() for v in families())]
    return markdown.replace(MARKER, "\n".join(p for p in parts if p))
