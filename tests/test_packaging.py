"""The plain install's promises: one version, and every face naming its missing extra.

A missing package is made unimportable in a real subprocess (``sys.modules[name] = None``,
which is what Python does for a package that is not installed); .ci/wheel-smoke checks the
same against a real install of the wheel with no extras.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import rummykit

ROOT = Path(__file__).resolve().parents[1]


def without(modules: list[str], code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter where ``modules`` cannot be imported."""
    block = "".join(f"sys.modules[{name!r}] = None\n" for name in modules)
    return subprocess.run([sys.executable, "-c", f"import sys\n{block}{code}"],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)


def cli(modules: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    return without(modules, f"sys.argv = ['rummykit', *{list(args)!r}]\n"
                            "from rummykit.cli.main import main\nmain()")


def test_the_version_has_one_source_and_the_command_prints_it() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "version" not in project and project["dynamic"] == ["version"]
    done = cli([], "--version")
    assert done.returncode == 0 and done.stdout == f"rummykit {rummykit.__version__}\n"
    assert f"## [{rummykit.__version__}]" in (ROOT / "CHANGELOG.md").read_text()


def test_the_plain_dependencies_are_the_command_line_only() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert sorted(d.split(">")[0] for d in project["dependencies"]) == ["rich", "typer"]
    extras = project["optional-dependencies"]
    assert {"arena", "server", "tui", "rl", "all"} <= set(extras)
    assert extras["all"] == ["rummykit[arena,server,tui,rl]"]


@pytest.mark.parametrize(("blocked", "args", "extra"), [
    (["openskill"], ["arena", "--games", "2", "--seed", "1"], "arena"),
    (["matplotlib"], ["arena", "--games", "2", "--plot", "x.png"], "arena"),
    (["ray"], ["arena", "--games", "2", "--backend", "ray"], "arena"),
    (["fastapi"], ["serve", "--port", "0"], "server"),
])
def test_a_command_without_its_extra_names_it(blocked: list[str], args: list[str],
                                              extra: str) -> None:
    done = cli(blocked, *args)
    assert done.returncode == 2, done.stderr
    assert f"pip install 'rummykit[{extra}]'" in done.stderr
    assert "Traceback" not in done.stderr and not (ROOT / "x.png").exists()


@pytest.mark.parametrize(("blocked", "module", "extra"), [
    (["numpy"], "rummykit.rl", "rl"),
    (["pyspiel"], "rummykit.rl.openspiel_game", "rl"),
    (["openskill"], "rummykit.arena", "arena"),
    (["fastapi"], "rummykit.server.app", "server"),
    (["textual"], "rummykit.tui", "tui"),
])
def test_a_module_without_its_extra_raises_an_import_error_naming_it(
        blocked: list[str], module: str, extra: str) -> None:
    done = without(blocked, f"try:\n    import {module}\nexcept ImportError as error:\n"
                            "    print(type(error).__name__, error)")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("MissingExtraError ")
    assert f"pip install 'rummykit[{extra}]'" in done.stdout


def test_the_environments_name_their_extra() -> None:
    done = without(["gymnasium"], "from rummykit.rl import gym_env\n"
                                  "try:\n    gym_env()\nexcept ImportError as error:\n"
                                  "    print(error)")
    assert "rummykit.rl.gym_env needs the 'rl' extra (gymnasium" in done.stdout, done.stderr


def test_the_core_and_the_command_import_no_optional_package() -> None:
    heavy = ["numpy", "matplotlib", "openskill", "ray", "textual", "fastapi", "sqlalchemy",
             "gymnasium", "pettingzoo", "pyspiel", "uvicorn"]
    done = without([], "import rummykit, rummykit.bots, rummykit.core.record, rummykit.cli.main\n"
                       f"print(sorted(set({heavy!r}) & set(sys.modules)))")
    assert done.returncode == 0 and done.stdout == "[]\n", done.stderr


def test_play_in_a_terminal_without_the_tui_extra_names_it_and_plays_in_lines() -> None:
    import pexpect

    code = ("import sys\nsys.modules['textual'] = None\n"
            "sys.argv = ['rummykit', 'play', '--seed', '3', '--bots', 'greedy']\n"
            "from rummykit.cli.main import main\nmain()")
    child = pexpect.spawn(sys.executable, ["-c", code], encoding="utf-8", timeout=60,
                          cwd=str(ROOT), dimensions=(50, 200))
    child.expect_exact("needs the 'tui' extra, pip install 'rummykit[tui]': playing in line "
                       "mode")
    child.expect_exact("Your move> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
