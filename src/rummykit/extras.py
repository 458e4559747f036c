"""Optional parts of rummykit and the install extra each one needs.

The plain install is the engine, the bots, records and the ``rummykit`` command. The arena,
the server, the full-screen game and the research interfaces need packages of their own,
installed with an extra (``pip install 'rummykit[arena]'``). :func:`require` checks that
an extra's packages can be imported, without importing them, and raises
:class:`MissingExtraError` naming the extra to install.

>>> require("arena", "json")          # present: nothing happens
>>> try:
...     require("arena", "no_such_module_here", what="rummykit arena")
... except MissingExtraError as error:
...     print(error)
rummykit arena needs the 'arena' extra (no_such_module_here is not installed): pip install
'rummykit[arena]'
"""

from __future__ import annotations

import importlib.util

# The top-level modules each extra brings, as listed in pyproject.toml.
EXTRAS: dict[str, tuple[str, ...]] = {
    "arena": ("openskill", "matplotlib", "ray"),
    "server": ("fastapi", "uvicorn", "sqlalchemy", "alembic", "pydantic", "pydantic_settings",
               "websockets", "argon2", "openskill"),
    "tui": ("textual",),
    "rl": ("numpy", "gymnasium", "pettingzoo", "pyspiel"),
}


class MissingExtraError(ImportError):
    """A part of rummykit whose optional packages are not installed; says which extra."""

    def __init__(self, extra: str, missing: str, what: str = "this") -> None:
        super().__init__(f"{what} needs the {extra!r} extra ({missing} is not installed): "
                         f"pip install 'rummykit[{extra}]'")
        self.extra = extra
        self.missing = missing


def missing(*modules: str) -> str | None:
    """The first of ``modules`` that cannot be imported, or None when all can."""
    for module in modules:
        try:
            if importlib.util.find_spec(module) is None:
                return module
        except (ImportError, ValueError):
            return module
    return None


def require(extra: str, *modules: str, what: str = "this") -> None:
    """Raise :class:`MissingExtraError` unless ``modules`` (default: all of the extra's, in
    :data:`EXTRAS`) can be imported; ``what`` names the part that needs them."""
    absent = missing(*(modules or EXTRAS[extra]))
    if absent is not None:
        raise MissingExtraError(extra, absent, what)
