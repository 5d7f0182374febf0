"""``high-society validate``: every code through the command line, exit codes, hostile files,
and ``demo --record`` reproduced by ``validate``."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from high_society import result
from high_society.cli import main
from high_society.cli.demo import make_bots
from high_society.host import play_game
from tests.test_record import CASES, DATA, Case

FINISHED_LINE = {
    "valid": True,
    "finished": True,
    "actions": 71,
    "result": {"scores": [10, 20, 9.5], "money": [72, 60, 60], "cast_out": [1, 2], "winners": [0]},
}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    """Exit code, standard output lines and standard error of ``high-society ARGV``."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


@pytest.mark.parametrize("bad", CASES, ids=lambda c: c.name)
def test_every_code_through_the_command_line(
    bad: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(bad.text, encoding="utf-8", errors="surrogatepass")
    code, lines, err = run(capsys, "validate", "--json", str(path))
    assert (code, err) == (1, "")
    [line] = lines
    data = json.loads(line)
    assert list(data) == ["file", "valid", "error"]
    assert data["file"] == str(path)
    assert data["valid"] is False
    assert list(data["error"]) == ["index", "path", "code", "message"]
    assert (data["error"]["code"], data["error"]["index"], data["error"]["path"]) == (
        bad.code,
        bad.index,
        bad.path,
    )
    if bad.message:
        assert data["error"]["message"] == bad.message

    code, lines, err = run(capsys, "validate", str(path))
    assert (code, err) == (1, "")
    [line] = lines
    where = f"action {bad.index} ({bad.path})" if bad.index is not None else bad.path
    assert line.startswith(f"{path}: INVALID at {where}: {bad.code}: ")


def test_a_finished_game_prints_its_result(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(DATA / "finished-3p.json")
    code, lines, _ = run(capsys, "validate", "--json", path)
    assert code == 0
    assert lines == [json.dumps({"file": path, **FINISHED_LINE})]
    assert '"scores": [10, 20, 9.5]' in lines[0]  # a JSON number with .5 where halved
    code, lines, _ = run(capsys, "validate", path)
    assert code == 0
    assert lines == [f"{path}: valid, finished after 71 actions: Ada wins (status 10, money 72)"]


def test_an_unfinished_game_is_valid(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(DATA / "unfinished-3p.json")
    code, lines, _ = run(capsys, "validate", "--json", path)
    assert code == 0
    assert json.loads(lines[0]) == {
        "file": path,
        "valid": True,
        "finished": False,
        "actions": 20,
        "result": None,
    }
    code, lines, _ = run(capsys, "validate", path)
    assert lines == [f"{path}: valid, not finished (20 actions so far)"]


def test_shared_wins_and_nobody_winning_are_told(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.test_record import SHORT_GAME, doc

    shared = tmp_path / "shared.json"
    shared.write_text(doc(SHORT_GAME))
    nobody = tmp_path / "nobody.json"
    nobody.write_text(doc(SHORT_GAME[4:]))  # nobody pays: everyone keeps 106 and is cast out
    code, lines, _ = run(capsys, "validate", str(shared), str(nobody))
    assert code == 0
    assert lines == [
        f"{shared}: valid, finished after 14 actions: Ben and Cy share the win (status 0,"
        " money 106)",
        f"{nobody}: valid, finished after 10 actions: nobody wins (everyone is cast out)",
    ]


def test_one_line_per_file_in_the_order_given(capsys: pytest.CaptureFixture[str]) -> None:
    names = ["unfinished-3p.json", "illegal-3p.json", "finished-3p.json", "six-players.json"]
    paths = [str(DATA / name) for name in names]
    code, lines, _ = run(capsys, "validate", "--json", *paths)
    assert code == 1
    data = [json.loads(line) for line in lines]
    assert [d["file"] for d in data] == paths
    assert [d["valid"] for d in data] == [True, False, True, False]
    code, _, _ = run(capsys, "validate", paths[0], paths[2])
    assert code == 0


def test_wrong_usage_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "validate")[0] == 2
    assert run(capsys, "validate", "--jsn", str(DATA / "finished-3p.json"))[0] == 2


def test_the_help_states_every_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = run(capsys, "validate", "--help")
    assert code == 0
    text = " ".join(" ".join(lines).split())
    assert "Exit code 0 when every file is valid, 1 otherwise, 2 on wrong usage." in text


@pytest.mark.parametrize(
    ("name", "content", "code"),
    [
        ("missing.json", None, "UNREADABLE"),
        ("a-directory", "dir", "UNREADABLE"),
        ("empty.json", b"", "NOT_JSON"),
        ("latin1.json", '{"players": ["Zoë"]}'.encode("latin-1"), "NOT_UTF8"),
        ("deep.json", b"[" * 90_000 + b"]" * 90_000, "TOO_DEEP"),
        ("many-values.json", b"[" * 200_000 + b"]" * 200_000, "TOO_LARGE"),
        (
            "huge-int.json",
            b'{"format": "high-society", "version": 1' + b"0" * 10_000 + b"}",
            "BAD_NUMBER",
        ),
        ("many-megabytes.json", b"[" + b"0," * (4 * 1024 * 1024) + b"0]", "TOO_LARGE"),
    ],
)
def test_hostile_files(
    name: str,
    content: bytes | str | None,
    code: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / name
    if content == "dir":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    exit_code, lines, err = run(capsys, "validate", "--json", str(path))
    assert (exit_code, err) == (1, "")
    error = json.loads(lines[0])["error"]
    where = "$.version" if name == "huge-int.json" else "$"  # a number is refused in place
    assert (error["code"], error["index"], error["path"]) == (code, None, where)


def test_a_file_name_that_is_not_text_is_shown_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = os.fsdecode(bytes(tmp_path) + b"/caf\xe9.json")  # a lone surrogate in the str
    code, lines, _ = run(capsys, "validate", name)
    assert code == 1
    assert "caf\\udce9.json: INVALID at $: UNREADABLE" in lines[0]
    code, lines, _ = run(capsys, "validate", "--json", name)
    assert json.loads(lines[0])["error"]["code"] == "UNREADABLE"


def test_validation_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    path.write_bytes((DATA / "illegal-3p.json").read_bytes())
    before = path.stat()
    run(capsys, "validate", str(path))
    run(capsys, "validate", "--json", str(path), str(DATA / "finished-3p.json"))
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]
    assert path.stat().st_mtime_ns == before.st_mtime_ns


def test_the_installed_command_never_shows_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "empty.json").write_bytes(b"")
    (tmp_path / "deep.json").write_bytes(b"{" * 100_000)
    (tmp_path / "bytes.json").write_bytes(b"\xff\xfe\x00")
    files = ["empty.json", "deep.json", "bytes.json", "missing.json", ".", str(DATA / "x")]
    done = subprocess.run(
        [sys.executable, "-m", "high_society", "validate", *files],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr == ""
    assert len(done.stdout.splitlines()) == len(files)
    assert "Traceback" not in done.stdout


# --- demo --record ---------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "seed", "bots"), [(3, 4, "heuristic"), (5, 2, "mixed")])
def test_validating_the_demo_record_reproduces_the_demo_result(
    players: int, seed: int, bots: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "demo.json"
    args = ["demo", "--players", str(players), "--seed", str(seed), "--bots", bots]
    code, demo_lines, _ = run(capsys, *args, "--record", str(path))
    assert code == 0
    assert demo_lines[-1] == f"Recorded the game in {path}"
    # The same game without --record prints the same story.
    assert run(capsys, *args)[1] == demo_lines[:-1]

    final, actions = play_game(make_bots(bots, players, seed), seed=seed)
    outcome = result(final)
    code, lines, _ = run(capsys, "validate", "--json", str(path))
    assert code == 0
    data = json.loads(lines[0])
    assert data["finished"] is True
    assert data["actions"] == len(actions)
    assert data["result"]["money"] == list(outcome.money)
    assert data["result"]["winners"] == list(outcome.winners)
    assert data["result"]["cast_out"] == list(outcome.cast_out)
    assert [str(s) for s in data["result"]["scores"]] == [
        str(s.numerator) if s.denominator == 1 else str(float(s)) for s in outcome.scores
    ]
    names = ["Ada", "Ben", "Cy", "Dee", "Eve"]
    won = ", ".join(names[i] for i in outcome.winners) or "nobody (everyone is cast out)"
    assert f"Winner: {won}" in demo_lines


def test_demo_record_into_a_missing_directory_fails_cleanly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "missing" / "demo.json"
    code, _, err = run(capsys, "demo", "--players", "3", "--record", str(path))
    assert code == 1
    assert err.startswith("high-society: ")
    assert "Traceback" not in err
    assert not path.parent.exists()
