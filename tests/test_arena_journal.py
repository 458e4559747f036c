"""``rummykit arena --journal``: a run interrupted anywhere resumes to the same report."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from rummykit.arena import ArenaConfig
from rummykit.arena.journal import KIND, VERSION, encode, load
from rummykit.arena.tournament import play_all
from rummykit.cli.main import app
from rummykit.core.rules import Rules
from test_arena import without_timings

RUN = ("--bots", "greedy,random", "--games", "6", "--seed", "3")
RULES = Rules.from_options("basic", {"max_turns_per_hand": 2000})


def arena(*args: str) -> Result:
    return CliRunner().invoke(app, ["arena", "--no-progress", "--json", "-", *args])


def report_of(*args: str) -> dict[str, Any]:
    result = arena(*args)
    assert result.exit_code == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def without_execution(report: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in report.items() if k != "execution"}


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture(scope="module")
def whole() -> dict[str, Any]:
    """The report of the run played in one go, without a journal."""
    return report_of(*RUN)


def test_a_finished_journal_plays_nothing_and_gives_the_same_report(
        tmp_path: Path, whole: dict[str, Any]) -> None:
    journal = tmp_path / "run.jsonl"
    first = report_of(*RUN, "--journal", str(journal))
    assert without_timings(first) == without_timings(whole)
    header, *games = lines(journal)
    assert header == {"journal": KIND, "version": VERSION, **whole["arguments"]}
    assert [g["index"] for g in games] == list(range(6))
    assert [g["totals"] for g in games] == [row["totals"] for row in whole["per_game"]]
    assert "record" not in games[0] and len(games[0]["seconds"]) == 2
    written = journal.read_bytes()
    # without --seed the journal's seed is used; every game comes from the file, even the
    # measured times, so the report is the first one to the last digit
    result = arena(*RUN[:-2], "--journal", str(journal))
    assert result.exit_code == 0, result.stderr
    assert "resuming seed 3, 6 of 6 games already played" in result.stderr
    assert without_execution(json.loads(result.stdout)) == without_execution(first)
    assert journal.read_bytes() == written


@pytest.mark.parametrize(("kept", "jobs"), [(0, "1"), (3, "1"), (4, "2")])
def test_a_journal_cut_mid_line_resumes_to_the_uninterrupted_report(
        tmp_path: Path, whole: dict[str, Any], kept: int, jobs: str) -> None:
    full = tmp_path / "full.jsonl"
    report_of(*RUN, "--journal", str(full))
    rows = full.read_bytes().splitlines(keepends=True)
    journal = tmp_path / "cut.jsonl"
    journal.write_bytes(b"".join(rows[:1 + kept]) + rows[1 + kept][:25])  # a crash mid-write
    records = tmp_path / "records"
    resumed = report_of(*RUN, "--journal", str(journal), "--jobs", jobs,
                        "--records", str(records))
    assert without_timings(resumed) == without_timings(whole)
    assert resumed["execution"]["jobs"] == int(jobs)
    # the kept games were not played again (their times are the journal's), the others were
    # appended whole after them, and only their records were written
    now = journal.read_bytes().splitlines(keepends=True)
    assert now[:1 + kept] == rows[:1 + kept]
    games = [json.loads(line) for line in now[1:]]
    assert sorted(g["index"] for g in games) == list(range(6))
    assert [g["totals"] for g in sorted(games, key=lambda g: g["index"])] == \
        [row["totals"] for row in whole["per_game"]]
    assert len(list(records.iterdir())) == 6 - kept


def test_resumed_games_come_from_the_journal_and_count_as_done(tmp_path: Path) -> None:
    config = ArenaConfig(RULES, 2, ("greedy", "random"), 4, seed=5)
    journal = tmp_path / "run.jsonl"
    counted: list[int] = []
    first = play_all(config, counted.append, load(journal, config.arguments(), config.specs()))
    assert sum(counted) == 4
    rows = journal.read_bytes().splitlines(keepends=True)
    journal.write_bytes(b"".join(rows[:3]))
    opened = load(journal, config.arguments(), config.specs())
    assert sorted(opened.done) == [0, 1] and not opened.torn
    counted.clear()
    again = play_all(config, counted.append, opened)
    assert sum(counted) == 2  # the bar starts at the journal's games (cli: completed=...)
    assert again[:2] == first[:2]  # read back exactly, measured times too
    untimed = [{k: v for k, v in encode(g).items() if k != "seconds"} for g in (*again, *first)]
    assert untimed[:4] == untimed[4:]


@pytest.mark.parametrize(("change", "quoted"), [
    (("--seed", "4"), "seed 3 in the journal, 4 here"),
    (("--bots", "greedy,greedy"), "bots ['greedy', 'random'] in the journal, "
                                  "['greedy', 'greedy'] here"),
    (("--games", "8"), "games 6 in the journal, 8 here"),
    (("--option", "max_turns_per_hand=500"), "options {'max_turns_per_hand': 2000}"),
])
def test_a_journal_of_another_run_is_refused_and_left_alone(
        tmp_path: Path, change: tuple[str, str], quoted: str) -> None:
    journal = tmp_path / "run.jsonl"
    rows = [json.dumps({"journal": KIND, "version": VERSION, "rules": "basic",
                        "options": {"max_turns_per_hand": 2000}, "players": 2,
                        "bots": ["greedy", "random"], "games": 6, "seed": 3}), "{}"]
    journal.write_text("\n".join(rows) + "\n")
    written = journal.read_bytes()
    args = dict(zip(RUN[::2], RUN[1::2], strict=True)) | {change[0]: change[1]}
    result = arena(*(x for pair in args.items() for x in pair), "--journal", str(journal))
    assert result.exit_code == 2, result.stderr
    assert result.stderr.startswith(f"rummykit: error: --journal {str(journal)!r} belongs to "
                                    "another run")
    assert quoted in result.stderr and result.stdout == ""
    assert journal.read_bytes() == written


def test_bad_lines_are_errors_that_quote_them(tmp_path: Path) -> None:
    full = tmp_path / "full.jsonl"
    report_of(*RUN, "--journal", str(full))
    rows = full.read_text().splitlines(keepends=True)

    def swap(number: int, line: str) -> list[str]:  # line ``number`` (1-based) replaced
        return [*rows[:number - 1], line, *rows[number:]]

    cases = {
        "not JSON": (swap(3, "oops, not json\n"),
                     "line 3: 'oops, not json' is not JSON; expected one finished game"),
        "duplicate": ([*rows[:4], rows[2], *rows[4:]],
                      "line 5: game 1 is already on line 3; expected each game once"),
        "other game": (swap(3, rows[2].replace('"rotation":1', '"rotation":0')),
                       "line 3: game 1 (set 0, rotation 0"),
        "bad field": (swap(3, rows[2].replace('"winners":[', '"winners":["x",')),
                      "line 3: winners 'x': expected an integer"),
        "not a journal": (swap(1, "hello\n"), "line 1: 'hello' is not an arena journal"),
    }
    for name, (content, message) in cases.items():
        journal = tmp_path / f"{name}.jsonl"
        journal.write_text("".join(content))
        result = arena(*RUN, "--journal", str(journal))
        assert result.exit_code == 2, (name, result.stderr)
        assert message in result.stderr, (name, result.stderr)
        assert "Traceback" not in result.stderr and journal.read_text() == "".join(content)


def test_a_torn_or_empty_header_starts_afresh_but_other_files_are_kept(
        tmp_path: Path, whole: dict[str, Any]) -> None:
    for start in ("", '{"journal":"rummy'):
        journal = tmp_path / "torn.jsonl"
        journal.write_text(start)
        assert without_timings(report_of(*RUN, "--journal", str(journal))) == \
            without_timings(whole)
        assert len(lines(journal)) == 7
    other = tmp_path / "notes.txt"
    other.write_text("my notes")
    result = arena(*RUN, "--journal", str(other))
    assert result.exit_code == 2 and "not an arena journal" in result.stderr
    assert other.read_text() == "my notes"
    result = arena(*RUN, "--journal", str(tmp_path))
    assert result.exit_code == 2 and "is a folder" in result.stderr


def test_a_real_process_stopped_with_ctrl_c_resumes(tmp_path: Path) -> None:
    games = 60
    args = ("--bots", "greedy,random", "--games", str(games), "--seed", "9")
    journal = tmp_path / "run.jsonl"
    command = [sys.executable, "-m", "rummykit.cli.main", "arena", "--no-progress", *args,
               "--journal", str(journal)]
    # a job started in the background by a shell inherits SIGINT ignored; Ctrl-C is the point
    def ctrl_c_stops() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    with subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True, preexec_fn=ctrl_c_stops) as run:
        deadline = time.monotonic() + 60
        while (not journal.exists() or journal.read_text().count("\n") < 4) \
                and run.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        run.send_signal(signal.SIGINT)
        _, stderr = run.communicate(timeout=60)
    assert run.returncode == 130, stderr
    assert "the same command resumes the run" in stderr
    kept = journal.read_text().count("\n") - 1
    assert 3 <= kept < games
    result = arena(*args, "--journal", str(journal))
    assert result.exit_code == 0, result.stderr
    assert f"{kept} of {games} games already played" in result.stderr
    assert without_timings(json.loads(result.stdout)) == without_timings(report_of(*args))


def test_so_far_reports_the_whole_deal_sets_of_a_journal_without_playing(
        tmp_path: Path, whole: dict[str, Any]) -> None:
    full = tmp_path / "full.jsonl"
    report_of(*RUN, "--journal", str(full))
    rows = full.read_bytes().splitlines(keepends=True)
    journal = tmp_path / "part.jsonl"
    journal.write_bytes(b"".join([rows[0], rows[3], rows[1], rows[2], rows[5]]))  # sets 0, 1
    before = journal.read_bytes()
    result = arena(*RUN, "--journal", str(journal), "--so-far")
    assert result.exit_code == 0, result.stderr
    partial = json.loads(result.stdout)
    assert partial["so_far"] == {"games_in_journal": 4, "games_reported": 2, "deal_sets": 1}
    assert partial["per_game"] == whole["per_game"][:2]  # set 0 whole; set 1 has one game
    assert journal.read_bytes() == before
    refused = arena(*RUN, "--so-far")
    assert refused.exit_code == 2 and "--so-far" in refused.stderr
