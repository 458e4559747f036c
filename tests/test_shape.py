"""The shape of the code: no family named outside its folder, no import cycle, small modules.

**Family names outside the variant folders.** :func:`family_mentions` counts, in every
Python module of ``src/rummykit`` outside ``variants/``, read with :mod:`ast`:

- a string constant (not a docstring) equal to a registered family or rule-set name, or to
  ``gin`` (``"contract"``, ``"basic"``, ``"traditional"``, ``"gin"``; not ``"rummy"``,
  the name of the game itself);
- an attribute whose name has a family name as one of its ``_``-separated words: a
  family's own knob (``rules.contract_schedule``, ``rules.extra_melds_after_contract``)
  or the hand's family flag (``state.contract``).

Each occurrence is one branch on a rule family (a face deciding wording or behaviour by
family). Issue 17 counted 74 by reading; this method counts 174 on main at 6104d3f (33 of
them in the core), 141 after the variant layer (none in the core), 61 once the faces asked
the variant, and 1 once the benchmarks, bots, RL and server benchmarks took their tables,
policies and layouts from the variants, and 0 once the server's wire took the deal's meld
quota from the family (``TableHooks.meld_quota``) instead of reading the contract schedule.
The figure per module is in :data:`ALLOWED`, which may only shrink: the core has none, a
module not listed has none, a listed module may not gain one. The issue's target is at
most 5.

**Import cycles.** :func:`import_graph` reads every ``import`` and ``from … import`` of
every module, module-level or inside a function (so a function-local import cannot hide a
cycle), but not those under ``if TYPE_CHECKING:`` (never run). Importing ``a.b.c`` also
imports the packages ``a.b`` and ``a`` unless they enclose the importing module (already
being imported). A cycle is a strongly connected component of two or more modules.

:data:`KNOWN_CYCLES` is empty: the last one (``server.benchcluster`` and ``loadbench``)
was broken by moving what both use into ``server.benchkit``.

**Module size.** No module over 600 lines, except those in :data:`LONG` (none now).
"""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

from rummykit.variants.registry import all_rule_set_names, families

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "rummykit"
MAX_LINES = 600

#: modules outside variants/ that still branch on a family, with their count (shrink only)
ALLOWED: dict[str, int] = {}

#: import cycles owned by another branch, to be broken there (none left)
KNOWN_CYCLES: list[list[str]] = []

#: modules over MAX_LINES, at their size today (shrink only). server/hub.py (963 lines) was
#: split into its layers (hub_base, hub_views, hub_timers, hub_commits, hub_seats, hub).
LONG: dict[str, int] = {}


def _modules(root: Path = PACKAGE) -> dict[str, Path]:
    """Every module's dotted name and file."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value,
                                                                     ast.Constant):
                ids.add(id(body[0].value))
    return ids


def family_words() -> frozenset[str]:
    """Every registered family and rule-set name, and ``gin``, from the registry; not
    ``rummy`` (the game's own name: ``going_rummy_multiplier``, a result's ``rummy``)."""
    names = {v.name for v in families()} | set(all_rule_set_names()) | {"gin"}
    return frozenset(names - {"rummy"})


def family_mentions(root: Path = PACKAGE) -> Counter[str]:
    """Per module outside ``variants/``: its branches on a family (module docstring)."""
    names = family_words()
    counts: Counter[str] = Counter()
    for path in sorted(root.rglob("*.py")):
        where = path.relative_to(root.parent).as_posix()
        if where.startswith("rummykit/variants/"):
            continue
        tree = ast.parse(path.read_text(), str(path))
        skip = _docstrings(tree)
        for node in ast.walk(tree):
            literal = (isinstance(node, ast.Constant) and isinstance(node.value, str)
                       and node.value in names and id(node) not in skip)
            knob = isinstance(node, ast.Attribute) and bool(names & set(node.attr.split("_")))
            if literal or knob:
                counts[where] += 1
    return counts


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    hidden = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                hidden |= {id(n) for n in ast.walk(inner)}
    return hidden


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Module → the project modules it imports when run (module docstring)."""
    modules = _modules(root)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(), str(path))
        hidden = _type_checking_nodes(tree)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in hidden:
                continue
            if isinstance(node, ast.Import):
                targets |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                targets.add(base)
                targets |= {f"{base}.{alias.name}" for alias in node.names}
        edges = set()
        for target in targets:
            parts = target.split(".")
            for i in range(1, len(parts) + 1):
                dotted = ".".join(parts[:i])
                encloses = name == dotted or name.startswith(dotted + ".")
                if dotted in modules and not encloses:
                    edges.add(dotted)
        graph[name] = edges - {name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of two or more modules (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_core_names_no_family() -> None:
    counts = family_mentions()
    assert not {where: n for where, n in counts.items() if where.startswith("rummykit/core/")}


def test_no_module_outside_the_variants_gains_a_branch_on_a_family() -> None:
    counts = family_mentions()
    grown = {where: (n, ALLOWED.get(where, 0)) for where, n in counts.items()
             if n > ALLOWED.get(where, 0)}
    assert not grown, f"(found, allowed) branches on a family: {grown}"


def test_the_family_count_sees_a_branch(tmp_path: Path) -> None:
    face = tmp_path / "rummykit" / "face.py"
    face.parent.mkdir()
    face.write_text('"""A face."""\n\ndef title(rules):\n'
                    '    if rules.name == "contract" or rules.contract_schedule:\n'
                    '        return "Deal"\n    return "Hand"\n')
    assert family_mentions(tmp_path / "rummykit") == {"rummykit/face.py": 2}


def test_no_import_cycle() -> None:
    assert [c for c in cycles(import_graph()) if c not in KNOWN_CYCLES] == []


def test_a_function_local_import_cannot_hide_a_cycle(tmp_path: Path) -> None:
    pkg = tmp_path / "rummykit"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from rummykit import b\n")
    (pkg / "b.py").write_text("def f():\n    from rummykit.a import x\n    return x\n")
    (pkg / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                              "    from rummykit import a\n")
    assert cycles(import_graph(pkg)) == [["rummykit.a", "rummykit.b"]]


def test_the_core_imports_no_face_and_no_family_module() -> None:
    graph = import_graph()
    allowed = ("rummykit.core", "rummykit.variants.registry", "rummykit.variants.base",
               "rummykit.variants")
    for name, targets in graph.items():
        if name.startswith("rummykit.core"):
            assert all(t.startswith(allowed) and not t.startswith(
                tuple(f"rummykit.variants.{v.name}" for v in families()))
                for t in targets), (name, targets)


@pytest.mark.parametrize("where", sorted(p.relative_to(SRC).as_posix()
                                         for p in PACKAGE.rglob("*.py")))
def test_no_module_over_600_lines(where: str) -> None:
    lines = len((SRC / where).read_text().splitlines())
    assert lines <= max(MAX_LINES, LONG.get(where, 0)), f"{where}: {lines} lines"
