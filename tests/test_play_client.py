"""The example terminal client, ``high-society play``, driven by scripted input."""

import io
import itertools
import subprocess
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import pytest

from high_society import (
    Bid,
    Discard,
    Pass,
    Phase,
    Reveal,
    StatusCard,
    apply,
    new_game,
)
from high_society.cli import main
from high_society.cli.play import Console, Quit, ask_move, parse_move, play_interactive

ROOT = Path(__file__).resolve().parent.parent
NAMES = ("You", "Ben", "Cy")


class Lines:
    """A text input that answers each ``readline`` with the next of ``lines``, then EOF."""

    def __init__(self, lines: Iterable[str]) -> None:
        self._lines: Iterator[str] = iter(lines)

    def readline(self) -> str:
        line = next(self._lines, None)
        return "" if line is None else line + "\n"

    def isatty(self) -> bool:
        return False


def stubborn_player() -> Iterator[str]:
    """Input that finishes any game: pass, then each value from 1 to 25, over and over.

    Passing is always legal in an auction; a Faux Pas discard refuses it, and one of the
    values 1 to 10 is then a luxury card the player owns. The values in between are bids,
    many of them illegal: the client must explain those and ask again.
    """
    return itertools.cycle(["pass", *map(str, range(1, 26))])


Session = Callable[..., tuple[int, str]]


@pytest.fixture
def session(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Session:
    """``session(*argv, lines=...)`` runs ``high-society play argv`` on scripted input and
    returns the exit code and what it printed."""

    def run(*argv: str, lines: Iterable[str]) -> tuple[int, str]:
        monkeypatch.setattr(sys, "stdin", Lines(lines))
        capsys.readouterr()
        code = main(["play", *argv])
        return code, capsys.readouterr().out

    return run


@pytest.mark.parametrize(("players", "seat", "seed"), [(3, 0, 1), (4, 2, 7), (5, 4, 11)])
def test_a_scripted_person_plays_a_whole_game_to_the_final_table(
    session: Session, players: int, seat: int, seed: int
) -> None:
    code, out = session(
        "--players", str(players), "--seat", str(seat), "--seed", str(seed),
        lines=stubborn_player(),
    )  # fmt: skip
    assert code == 0
    assert f"you (seat {seat}) against {players - 1} bots, seed {seed}" in out
    assert "the game ends at once" in out
    table = out.split("Final table\n")[1].splitlines()
    assert len([row for row in table if "status" in row]) == players
    assert table[-1].startswith("Winner: ")
    assert "You pass" in out  # the person's own moves are told in the second person
    assert "! " in out  # illegal bids were explained by the engine, and asked again
    assert "Traceback" not in out


def test_the_same_seed_and_input_give_the_same_game(session: Session) -> None:
    first = session("--seed", "5", lines=stubborn_player())
    second = session("--seed", "5", lines=stubborn_player())
    assert first == second


def test_the_screen_shows_the_card_up_the_table_and_the_hand(session: Session) -> None:
    code, out = session("--players", "3", "--seed", "2", lines=["quit"])
    assert code == 0
    assert "Your hand: 1 2 3 4 6 8 10 12 15 20 25" in out
    assert "Add at least" in out or "You cannot reach" in out
    assert " is up" in out
    assert out.count("face up") >= 3  # one row per player
    assert out.rstrip().endswith("You left the game.")


def test_typed_values_become_a_bid(session: Session) -> None:
    # Seat 0 starts the first round: the person bids 3 + 4, so 7 is face up.
    code, out = session("--players", "3", "--seed", "1", lines=["3 4", "quit"])
    assert code == 0
    assert "You bid 3 + 4 (7 face up)" in out


def test_illegal_input_is_explained_with_the_engines_message_and_asked_again(
    session: Session,
) -> None:
    lines = ["5", "three", "1 1", "", "help", "quit"]
    code, out = session("--players", "3", "--seed", "1", lines=lines)
    assert code == 0
    assert "! You cannot bid 5: there is no such money card" in out
    assert "? 'three' is not a money value" in out
    assert "? each money card can be played once" in out
    assert "? type money values, 'pass' or 'help'" in out
    assert "Faux Pas asks you to discard" in out  # the help text
    assert out.count("Your move> ") == len(lines)


def test_a_faux_pas_discard_is_asked_for_and_checked_by_the_engine() -> None:
    # Seat 0 wins Luxury 3, then passes first on Faux Pas: it must discard a luxury card.
    state = new_game(3)
    for action in (
        Reveal(StatusCard.LUXURY_3), Bid(0, frozenset({1})), Pass(1), Pass(2),
        Reveal(StatusCard.FAUX_PAS), Pass(0),
    ):  # fmt: skip
        state = apply(state, action)
    assert state.phase is Phase.DISCARD
    out = io.StringIO()
    console = Console(Lines(["pass", "4", "11", "3"]), out)
    move = ask_move(state, 0, NAMES, console)
    assert move == Discard(0, StatusCard.LUXURY_3)
    text = out.getvalue()
    assert "Faux Pas: discard one of your luxury cards (3)." in text
    assert "! You cannot pass: they must first discard a luxury card for Faux Pas" in text
    assert "! You cannot discard Luxury 4: it is not a luxury card they own" in text
    assert "? type the value of one luxury card (1 to 10) to discard" in text


def test_parse_move_reads_pass_bids_and_quit() -> None:
    state = new_game(3)
    assert parse_move("pass", state, 2) == Pass(2)
    assert parse_move(" P ", state, 2) == Pass(2)
    assert parse_move("3, 4 + 10", state, 1) == Bid(1, frozenset({3, 4, 10}))
    with pytest.raises(Quit):
        parse_move("quit", state, 0)


def test_end_of_input_ends_the_game_cleanly(session: Session) -> None:
    code, out = session("--seed", "3", lines=[])
    assert code == 0
    assert out.rstrip().endswith("You left the game.")


class Interrupted(Lines):
    """Input that behaves as if the person pressed Ctrl-C at the prompt."""

    def readline(self) -> str:
        raise KeyboardInterrupt


def test_ctrl_c_ends_the_command_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", Interrupted([]))
    assert main(["play", "--seed", "1"]) == 130
    captured = capsys.readouterr()
    assert captured.err == "high-society: interrupted\n"
    assert "Traceback" not in captured.out


@pytest.mark.parametrize("seat", ["-1", "3"])
def test_a_seat_outside_the_table_is_refused_with_exit_code_2(
    seat: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "--players", "3", "--seat", seat]) == 2
    assert f"--seat must be 0 to 2, not {seat}" in capsys.readouterr().err


def test_play_interactive_returns_the_final_state() -> None:
    console = Console(Lines(stubborn_player()), io.StringIO())
    final = play_interactive(3, 1, 9, console)
    assert final.is_over


def test_the_installed_command_and_the_example_launcher_run_the_same_program() -> None:
    script = "".join(f"{line}\n" for line in itertools.islice(stubborn_player(), 3000))
    runs = [
        [sys.executable, "-m", "high_society", "play", "--seed", "4", "--players", "3"],
        [sys.executable, str(ROOT / "examples" / "play_terminal.py"), "--seed", "4",
         "--players", "3"],
    ]  # fmt: skip
    outputs = []
    for cmd in runs:
        done = subprocess.run(cmd, input=script, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        assert done.stderr == ""
        outputs.append(done.stdout)
    assert "Winner: " in outputs[0]
    assert outputs[0] == outputs[1]
