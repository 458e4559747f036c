"""Shared test set-up: the tests' helper modules importable, and how ``pytest -n N
--dist loadgroup`` (``make test PYTEST_WORKERS=...``) shares the tests out among workers."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

#: modules that use the one Redis server: run one after another (its channels are server-wide)
SHARED_REDIS = frozenset({
    "test_server_cluster.py", "test_server_cluster_takeover.py", "test_server_scale.py"})


def _has_module_fixture(item: pytest.Item) -> bool:
    """Whether the test uses a fixture set up once per module (a server, a browser)."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    return any(definition.scope == "module"
               for definitions in info.name2fixturedefs.values()
               for definition in definitions)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Group the tests that must share a worker: the Redis modules all together, and each
    module with a module-wide fixture on its own worker (so it starts once). The others go
    wherever a worker is free."""
    together = {item.path for item in items if _has_module_fixture(item)}
    for item in items:
        name = item.path.name
        if name in SHARED_REDIS:
            item.add_marker(pytest.mark.xdist_group("redis"))
        elif item.path in together:  # the whole module: its tests may build on each other
            item.add_marker(pytest.mark.xdist_group(name))
