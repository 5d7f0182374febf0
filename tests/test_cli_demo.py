"""The command line: ``high-society demo`` and the shared error handling."""

import io
import subprocess
import sys
from argparse import Namespace

import pytest

from high_society.cli import main
from high_society.cli.demo import run


def demo_output(*args: str) -> str:
    out = io.StringIO()
    argv = Namespace(players=4, seed=1, bots="heuristic")
    for key, value in zip(args[::2], args[1::2], strict=True):
        setattr(argv, key.lstrip("-"), type(getattr(argv, key.lstrip("-")))(value))
    assert run(argv, out) == 0
    return out.getvalue()


def test_demo_plays_and_prints_a_whole_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "1"]) == 0
    text = capsys.readouterr().out
    assert "Round 1:" in text
    assert "the game ends" in text
    assert "Final table" in text
    assert "Cast out:" in text
    assert "Winner:" in text
    for name in ("Ada", "Ben", "Cy", "Dee"):
        assert name in text
    assert "Eve" not in text


def test_demo_is_deterministic_for_a_seed() -> None:
    assert demo_output("--seed", "3") == demo_output("--seed", "3")
    assert demo_output("--seed", "3") != demo_output("--seed", "4")


@pytest.mark.parametrize("players", ["3", "5"])
def test_demo_player_count(players: str) -> None:
    text = demo_output("--players", players)
    assert ("Eve" in text) == (players == "5")
    assert ("Dee" in text) == (players == "5")


def test_demo_shows_the_breakdown_of_each_status() -> None:
    text = demo_output("--seed", "2")
    table = text.split("Final table")[1]
    assert "status" in table
    assert "money" in table
    assert any(word in table for word in ("prestige", "no luxury", "+"))


@pytest.mark.parametrize(
    "argv",
    [
        ["demo", "--players", "6"],
        ["demo", "--players", "2"],
        ["demo", "--seed", "x"],
        ["demo", "--bots", "clever"],
        ["nonsense"],
        [],
    ],
)
def test_wrong_usage_exits_2_without_a_traceback(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "usage:" in err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from high_society import __version__

    assert main(["--version"]) == 0
    assert __version__ in capsys.readouterr().out


def test_python_dash_m_runs_the_same_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "high_society", "demo", "--seed", "1", "--players", "3"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Final table" in done.stdout
    assert done.stderr == ""
