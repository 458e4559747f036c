"""The bot ladder benchmark: mirrored matches, the share and its error, the styles' counts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rummykit.arena.schedule import schedule
from rummykit.benchmark.ladder import (
    LadderGame,
    SeatPlay,
    level_play,
    main,
    match_points,
    pair_result,
    play_ladder_game,
)
from rummykit.variants import BASIC

NOBODY = SeatPlay(0, 0, 0, 0, ())


def _game(deal_set: int, bots: tuple[str, str], winners: tuple[int, ...]) -> LadderGame:
    return LadderGame(deal_set, bots, winners, 3, (NOBODY, NOBODY))


def test_a_drawn_or_shared_match_counts_half() -> None:
    assert match_points(_game(0, ("hard", "medium"), (0,)), "hard") == 1
    assert match_points(_game(0, ("medium", "hard"), (0,)), "hard") == 0
    assert match_points(_game(0, ("medium", "hard"), ()), "hard") == 0.5
    assert match_points(_game(0, ("medium", "hard"), (0, 1)), "hard") == 0.5


def test_the_error_is_over_deal_sets() -> None:
    games = [_game(0, ("hard", "medium"), (0,)), _game(0, ("medium", "hard"), (1,)),
             _game(1, ("hard", "medium"), (1,)), _game(1, ("medium", "hard"), (1,))]
    result = pair_result("hard", "medium", games)
    assert result.matches == 4 and result.score == 3 and result.share == 0.75
    # deal-set means 1.0 and 0.5: standard deviation 0.354, over sqrt(2)
    assert result.error == pytest.approx(0.25)


def test_a_mirrored_pair_counts_each_seats_play() -> None:
    specs = schedule(["medium", "easy"], 2, 2, seed=3)
    assert specs[0].seed == specs[1].seed and specs[0].bots == specs[1].bots[::-1]
    games = [play_ladder_game(BASIC, spec) for spec in specs]
    plays = level_play(games)
    for game in games:
        assert game.winners and set(game.winners) <= {0, 1}
        assert sum(seat.hands_won for seat in game.seats) <= game.hands
        assert all(seat.rummy_wins <= seat.hands_won for seat in game.seats)
    assert set(plays) == {"medium", "easy"}
    assert plays["medium"].hands == plays["easy"].hands == sum(g.hands for g in games)
    assert plays["medium"].melds + plays["easy"].melds > 0
    assert len(plays["medium"].seconds) > 0


def test_the_command_prints_both_tables(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--matches", "2", "--pairs", "medium:easy", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "medium > easy" in out and "rummy/won" in out
    assert out.count("\n") >= 6


def test_a_bad_pair_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--pairs", "hard-medium"])
    assert stop.value.code == 2
    assert "'hard-medium'" in capsys.readouterr().err


def test_a_ladder_is_played_in_sittings(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """--save keeps each match; a second sitting reads what is kept and plays the rest,
    with the same table as one sitting; a file that is not a ladder's is refused."""
    whole = ["--matches", "4", "--pairs", "medium:easy", "--seed", "6"]
    assert main(whole) == 0
    at_once = table_of(capsys.readouterr().out)
    saved = tmp_path / "ladder.jsonl"
    assert main([*whole, "--save", str(saved)]) == 0
    lines = saved.read_text().splitlines()
    assert len(lines) == 4 and table_of(capsys.readouterr().out) == at_once
    saved.write_text("\n".join(lines[:2]) + "\n")  # a sitting stopped after two matches
    assert main([*whole, "--save", str(saved)]) == 0
    assert table_of(capsys.readouterr().out) == at_once
    # the two left were played, in order, as the first sitting played them
    again = saved.read_text().splitlines()
    assert again[:2] == lines[:2] and untimed(again) == untimed(lines)
    assert main([*whole, "--save", str(saved)]) == 0  # nothing left to play
    assert saved.read_text().splitlines() == again
    saved.write_text(lines[0] + "\n{\"rules\": \"basic\"}\n")
    with pytest.raises(SystemExit):
        main([*whole, "--save", str(saved)])
    assert "ladder.jsonl:2: not a ladder match" in capsys.readouterr().err


def table_of(out: str) -> list[str]:
    """The pair rows of the command's output (the first line's seconds left out)."""
    return [line for line in out.splitlines() if " > " in line]


def untimed(lines: list[str]) -> list[Any]:
    """Saved matches without their decision times (wall clock, never the same twice)."""
    rows = [json.loads(line) for line in lines]
    for row in rows:
        for seat in row["game"]["seats"]:
            seat.pop("seconds")
    return rows
