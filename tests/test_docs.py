"""The documentation: the README links only inside the repository, the knob reference is
made from the Rules themselves and covers every knob, and the site builds with warnings
as errors."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rummykit import RummyError
from rummykit.core import knobs
from rummykit.core.rules import PRESETS, Rules, applicable_knobs

ROOT = Path(__file__).resolve().parents[1]
# [text](target), ![alt](target), [label]: target, <scheme:...>
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)"
                  r"|^\s*\[[^\]]+\]:\s*(\S+)|<([a-z][a-z0-9+.-]*:[^>\s]+)>", re.M | re.I)


def links(markdown: str) -> list[str]:
    """Every link target of ``markdown``, code blocks and code spans left out."""
    prose = re.sub(r"```.*?```", "", markdown, flags=re.S)
    prose = re.sub(r"`[^`\n]*`", "", prose)
    return [next(group for group in match.groups() if group) for match in LINK.finditer(prose)]


def outside(target: str, page: Path) -> str | None:
    """Why ``target`` (a link on ``page``) leaves the repository, or None."""
    if target.startswith("#"):
        return None
    if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):
        return "an address outside the repository"
    path = (page.parent / target.split("#", 1)[0]).resolve()
    if not path.is_relative_to(ROOT):
        return "a path outside the repository"
    if not path.exists():
        return "a path that does not exist"
    return None


def test_the_link_finder_sees_every_kind_of_link() -> None:
    text = ("[a](docs/x.md) ![b](p.png \"t\") <https://x.org> `[c](ignored)`\n"
            "[d]: ../shared/RULES.md\n```\n[e](in-code)\n```\n")
    assert links(text) == ["docs/x.md", "p.png", "https://x.org", "../shared/RULES.md"]
    assert outside("../shared/RULES.md", ROOT / "README.md") == "a path outside the repository"
    assert outside("https://pagat.com", ROOT / "README.md") == "an address outside the repository"
    assert outside("docs/agents.md#answers", ROOT / "README.md") is None


def test_the_readme_links_only_inside_the_repository() -> None:
    found = links((ROOT / "README.md").read_text(encoding="utf-8"))
    assert "docs/rules/options.md" in found and len(found) > 10
    bad = {target: why for target in found
           if (why := outside(target, ROOT / "README.md")) is not None}
    assert bad == {}


def test_the_docs_link_nowhere_outside_the_repository_but_the_web() -> None:
    for page in (ROOT / "docs").rglob("*.md"):
        for target in links(page.read_text(encoding="utf-8")):
            why = outside(target, page)
            assert why in (None, "an address outside the repository"), (page, target, why)


def test_every_knob_has_a_meaning_and_every_meaning_a_knob() -> None:
    names = knobs.knob_names()
    assert set(knobs.MEANINGS) == set(names)
    assert set().union(*(applicable_knobs(p) for p in PRESETS)) <= set(names)
    page = knobs.markdown()
    for name in names:
        assert f"### `{name}` {{#{name}}}" in page and f"[`{name}`](#{name})" in page


def test_a_knob_without_a_meaning_stops_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(knobs.MEANINGS, "joker_swap")
    with pytest.raises(RummyError, match=r"knobs without a meaning in rummykit/core/knobs\.py: "
                                         r"joker_swap"):
        knobs.reference()


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_reference_values_are_what_the_validator_takes_back(preset: str) -> None:
    rules = PRESETS[preset]
    shown = {knob.name: knob.defaults[preset] for knob in knobs.reference()
             if preset in knob.defaults}
    assert set(shown) == set(applicable_knobs(preset))
    settable = {name: value for name, value in shown.items()
                if not (name == "ace_points" and value is None)}  # unset: follows ace_mode
    again = Rules.from_options(preset, settable)
    assert again == rules


def test_the_knob_page_is_generated_into_the_site(tmp_path: Path) -> None:
    mkdocs = shutil.which("mkdocs", path=str(Path(sys.executable).parent))
    assert mkdocs is not None, "mkdocs is in the docs dependency group (make setup)"
    done = subprocess.run([mkdocs, "build", "--strict", "--site-dir", str(tmp_path)],
                          capture_output=True, text=True, timeout=300, cwd=ROOT,
                          env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "rules" / "options" / "index.html").read_text(encoding="utf-8")
    assert "knob-reference" not in page
    for name in knobs.knob_names():
        assert f'id="{name}"' in page
    api = (tmp_path / "reference" / "engine" / "index.html").read_text(encoding="utf-8")
    assert "HandState" in api and "legal_moves" in api
