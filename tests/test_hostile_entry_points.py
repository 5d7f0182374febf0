"""Hostile input at the newer entry points: the adapters' serialisation and steps, record
files, the writer against the reader, the batch engine, counts from the command line.

Each test is named for what it protects; each example gives a documented error (or the
right result) and nothing is written, run or lost.
"""

import base64
import json
import os
import pickle
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyspiel
import pytest

from high_society import (
    InvalidConfigError,
    Pass,
    RecordError,
    Reveal,
    StatusCard,
    apply,
    new_game,
)
from high_society.actions import describe_action
from high_society.batch import MAX_GAMES, BatchError, GameBatch, IllegalActionIdError
from high_society.batch import simulate as simulate_batch
from high_society.cli import main
from high_society.encoding import action_id, legal_action_mask, num_actions
from high_society.errors import EncodingError, RecordCode
from high_society.gymnasium_env import SoloEnv
from high_society.observation import ObservationWriter
from high_society.openspiel import SHORT_NAME, game_state
from high_society.parallel import MAX_JOBS, check_jobs, run_chunks
from high_society.pettingzoo import ClassicEnv, raw_env
from high_society.record import (
    GameRecord,
    dumps_record,
    loads_record,
    read_record,
    validate_record,
    write_record,
)
from high_society.serial import JSON, MAX_JSON_DEPTH, MAX_JSON_VALUES, state_to_json

RECORD = GameRecord(["Ada", "Ben", "Cy"], [Reveal(StatusCard.PRESTIGE), Pass(0)])


# --- OpenSpiel: states are the library's JSON, never a pickle -------------------------------


class _MakesAFile:
    """Unpickled, it would create the file ``path``."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self) -> tuple[object, ...]:
        return (Path.touch, (Path(self.path),))


def test_a_pickled_state_string_is_refused_and_not_run(tmp_path: Path) -> None:
    target = tmp_path / "pwned"
    inner = base64.b64encode(pickle.dumps({"x": _MakesAFile(str(target))})).decode()
    payload = f"history=\nmove_number=0\n__dict__={inner}"
    game = pyspiel.load_game(SHORT_NAME, {"players": 3})
    with pytest.raises(RecordError) as caught:
        game.deserialize_state(payload)
    assert caught.value.code is RecordCode.NOT_JSON
    assert not target.exists()


def test_a_state_string_is_the_librarys_json_state() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 4})
    state = game.new_initial_state()
    for move in (10, 3, 0):
        state.apply_action(move)
    text = state.serialize()
    assert json.loads(text) == state_to_json(game_state(state))
    again = game.deserialize_state(text)
    assert game_state(again) == game_state(state)
    assert str(again) == str(state)


def _unreachable_text() -> str:
    state = new_game(3)
    data = state_to_json(apply(state, Reveal(StatusCard.LUXURY_5)))
    data["players"][0]["hand"] = [1]  # type: ignore[index, call-overload]
    return json.dumps(data)


def test_a_state_string_no_game_reaches_is_refused() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 3})
    with pytest.raises(RecordError) as caught:
        game.deserialize_state(_unreachable_text())
    assert caught.value.code is RecordCode.BAD_STATE


@pytest.mark.parametrize("text", [None, b"{}", "", "[]", "{" * 10_000, "x" * (9 << 20)])
def test_anything_but_a_state_string_is_a_record_error(text: object) -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 3})
    with pytest.raises(RecordError):
        game.deserialize_state(text)


def test_a_state_of_another_player_count_is_refused() -> None:
    text = json.dumps(state_to_json(new_game(4)))
    with pytest.raises(RecordError, match="4 players, not of this game's 3"):
        pyspiel.load_game(SHORT_NAME, {"players": 3}).deserialize_state(text)


def test_pickle_of_a_state_carries_the_json_and_comes_back_equal() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 5})
    state = game.new_initial_state()
    for move in (10, 3, 0, 2047):
        state.apply_action(move)
    data = pickle.dumps(state)
    assert state.serialize().encode() in data
    assert str(pickle.loads(data)) == str(state)


def test_openspiels_generic_form_checks_the_state_it_carries() -> None:
    # serialize_game_and_state pickles the Python attributes: the adapter's one attribute
    # pickles as its JSON text and is read back through the same checks. Here the text is
    # changed in place (same length, so the pickle stays well formed): the seat to act has
    # passed, which no game reaches.
    game = pyspiel.load_game(SHORT_NAME, {"players": 3})
    state = game.new_initial_state()
    state.apply_action(4)
    head, inner = pyspiel.serialize_game_and_state(game, state).split("__dict__=")
    honest = base64.b64decode(inner)
    assert honest.count(b'"passed":false') == 3
    forged = honest.replace(b'"passed":false', b'"passed":true ', 1)
    text = f"{head}__dict__={base64.b64encode(forged).decode()}"
    with pytest.raises(RecordError) as caught:
        pyspiel.deserialize_game_and_state(text)
    assert caught.value.code is RecordCode.BAD_STATE
    _, again = pyspiel.deserialize_game_and_state(f"{head}__dict__={inner}")
    assert game_state(again) == game_state(state)


def test_openspiels_own_python_simulation_test_passes() -> None:
    # Pickles the game, its type and states, and round-trips serialize_game_and_state.
    from open_spiel.python.tests import games_sim_test

    games_sim_test.GamesSimTest().sim_game(pyspiel.load_game(SHORT_NAME, {"players": 4}))


# --- Files: a path that names a directory is refused; a rewritten file keeps its mode ------


@pytest.mark.parametrize("suffix", ["/", "/.", "//", "/./"])
def test_a_path_ending_in_a_separator_or_dot_is_refused(tmp_path: Path, suffix: str) -> None:
    kept = tmp_path / "notes.txt"
    kept.write_text("keep")
    with pytest.raises(RecordError) as caught:
        write_record(str(kept) + suffix, RECORD)
    assert caught.value.code is RecordCode.UNWRITABLE
    assert "names a directory" in caught.value.message
    assert kept.read_text() == "keep"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_demo_refuses_a_record_path_ending_in_a_separator_before_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kept = tmp_path / "notes.txt"
    kept.write_text("keep")
    assert main(["demo", "--record", f"{kept}/"]) == 1
    out, err = capsys.readouterr()
    assert out == ""  # nothing played
    assert "names a directory" in err
    assert kept.read_text() == "keep"


def test_a_long_legal_file_name_is_written(tmp_path: Path) -> None:
    path = tmp_path / ("x" * 250 + ".json")
    assert len(path.name) == 255
    write_record(path, RECORD)
    assert read_record(path) == RECORD
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left


def test_a_long_name_of_wide_characters_is_written(tmp_path: Path) -> None:
    path = tmp_path / ("é" * 127)  # 254 bytes of UTF-8
    write_record(path, RECORD)
    assert read_record(path) == RECORD


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o604])
def test_a_rewritten_file_keeps_its_mode(tmp_path: Path, mode: int) -> None:
    path = tmp_path / "game.json"
    path.write_text("old")
    path.chmod(mode)
    write_record(path, RECORD)
    assert stat.S_IMODE(path.stat().st_mode) == mode
    assert read_record(path) == RECORD


@pytest.mark.skipif(os.geteuid() != 0, reason="only the superuser may give a file away")
def test_a_rewritten_file_keeps_its_owner_and_group(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("old")
    path.chmod(0o600)
    os.chown(path, 65534, 65534)  # nobody's, as a file another user made
    write_record(path, RECORD)
    after = path.stat()
    assert (after.st_uid, after.st_gid, stat.S_IMODE(after.st_mode)) == (65534, 65534, 0o600)
    assert read_record(path) == RECORD


def test_a_rewritten_file_of_ones_own_stays_ones_own(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("old")
    write_record(path, RECORD)
    assert (path.stat().st_uid, path.stat().st_gid) == (os.geteuid(), os.getegid())


# --- The writer writes only what the reader reads -------------------------------------------


def _nested(levels: int) -> JSON:
    value: JSON = 0
    for _ in range(levels):
        value = [value]
    return value


def test_meta_nested_past_the_readers_depth_is_refused_when_built() -> None:
    # The record is one level, meta a second: meta may nest MAX_JSON_DEPTH - 1 levels.
    deepest = GameRecord(["Ada", "Ben", "Cy"], [], {"x": _nested(MAX_JSON_DEPTH - 2)})
    assert validate_record(dumps_record(deepest)).valid
    with pytest.raises(RecordError) as caught:
        GameRecord(["Ada", "Ben", "Cy"], [], {"x": _nested(MAX_JSON_DEPTH - 1)})
    assert caught.value.code is RecordCode.TOO_DEEP


@pytest.mark.parametrize(
    "meta",
    [
        {"x": "," * (MAX_JSON_VALUES + 1)},
        {"x": list(range(MAX_JSON_VALUES - 5))},
        {"x": "a" * (9 << 20)},
    ],
    ids=["commas in a string", "a long list", "9 MiB"],
)
def test_a_record_the_reader_would_refuse_is_neither_valid_nor_written(
    meta: dict[str, object], tmp_path: Path
) -> None:
    record = GameRecord(["Ada", "Ben", "Cy"], [], meta)  # type: ignore[arg-type]
    validation = validate_record(record)
    assert validation.error is not None
    assert validation.error.code is RecordCode.TOO_LARGE
    with pytest.raises(RecordError) as caught:
        dumps_record(record)
    assert caught.value.code is RecordCode.TOO_LARGE
    path = tmp_path / "r.json"
    with pytest.raises(RecordError):
        write_record(path, record)
    assert not path.exists()


# --- A number the reader refuses is named where it is ---------------------------------------


@pytest.mark.parametrize(
    ("number", "said"),
    [
        ("1" + "0" * 40, "the number 1" + "0" * 40 + " is outside the 64-bit range of integers"),
        ("9" * 5000, "an integer of 5,000 digits is outside the 64-bit range of integers"),
    ],
)
def test_a_huge_card_number_is_blamed_on_its_action(number: str, said: str) -> None:
    text = dumps_record(RECORD).replace(
        '{"type": "pass", "player": 0}', f'{{"type": "bid", "player": 0, "cards": [1, {number}]}}'
    )
    validation = validate_record(text)
    error = validation.error
    assert error is not None
    assert (error.code, error.index, error.path) == (
        RecordCode.BAD_NUMBER,
        1,
        "$.actions[1].cards[1]",
    )
    assert error.message == said
    with pytest.raises(RecordError) as caught:
        loads_record(text)
    assert (caught.value.index, caught.value.path) == (1, "$.actions[1].cards[1]")


# --- Adapters' steps take integers only -----------------------------------------------------


@pytest.mark.parametrize("make", [SoloEnv, raw_env], ids=["SoloEnv", "raw_env"])
@pytest.mark.parametrize(
    "action", [5.7, "5", float("nan"), None, float("inf"), True, np.True_, [5]], ids=repr
)
def test_the_environments_refuse_what_is_not_an_action_id(
    make: Callable[..., SoloEnv | ClassicEnv], action: object
) -> None:
    env = make(players=3)
    env.reset(seed=1)
    before = env.game
    with pytest.raises(EncodingError):
        env.step(action)  # type: ignore[arg-type]
    assert env.game == before


@pytest.mark.parametrize("action", [5, np.int64(5), np.uint16(5)])
def test_solo_env_takes_python_and_numpy_integers(action: int) -> None:
    env = SoloEnv(players=3)
    env.reset(seed=1)
    _, reward, done, _, info = env.step(action)
    assert (reward, done, info) == (0.0, False, {})


def test_solo_env_ends_the_episode_on_an_id_out_of_range() -> None:
    env = SoloEnv(players=3)
    env.reset(seed=1)
    _, reward, done, _, info = env.step(10**30)
    assert (reward, done, info) == (-1.0, True, {"illegal_action": 10**30})


# --- Documented errors only -----------------------------------------------------------------


def test_action_id_of_something_else_is_an_encoding_error() -> None:
    with pytest.raises(EncodingError, match="not an action"):
        action_id(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(("thing", "shown"), [(None, "NoneType"), ("pass", "str")])
def test_describe_action_of_something_else_is_a_type_error_naming_its_type(
    thing: object, shown: str
) -> None:
    with pytest.raises(TypeError, match=f"^not an action: {shown}$"):
        describe_action(thing)  # type: ignore[arg-type]


@pytest.mark.parametrize("dtype", ["M8[s]", "m8[s]", object])
def test_a_mask_into_a_buffer_numpy_cannot_export_is_an_encoding_error(dtype: object) -> None:
    out = np.zeros(num_actions(), dtype=dtype)  # type: ignore[call-overload]
    with pytest.raises(EncodingError):
        legal_action_mask(new_game(3), out)


@pytest.mark.parametrize(
    "kwargs", [{"item_format": ["B"]}, {"item_format": b"B"}, {"config": 3}, {"config": None}]
)
def test_observation_writer_arguments_are_checked(kwargs: dict[str, object]) -> None:
    with pytest.raises(InvalidConfigError):
        ObservationWriter(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("count", [10**20, MAX_GAMES + 1, 0, -1])
def test_a_batch_of_too_many_games_is_a_batch_error(count: int) -> None:
    with pytest.raises(BatchError, match="MAX_GAMES"):
        GameBatch(count, 3)


@pytest.mark.parametrize("states", [[None], [new_game(3), "state"], None, 5])
def test_from_states_refuses_what_is_not_states(states: object) -> None:
    with pytest.raises(BatchError):
        GameBatch.from_states(states)  # type: ignore[arg-type]


def test_an_unsigned_id_is_shown_as_given() -> None:
    batch = GameBatch(2, 3, seed=1)
    ids = np.array([0, 2**64 - 1], dtype=np.uint64)
    with pytest.raises(IllegalActionIdError) as caught:
        batch.step(ids)
    assert (caught.value.game, caught.value.action_id) == (1, 2**64 - 1)
    assert "18446744073709551615" in str(caught.value)


# --- Counts: bounded where they are given ---------------------------------------------------


@pytest.mark.parametrize("games", [2**63, 10**20, -1])
def test_batch_simulate_refuses_a_count_it_cannot_play(games: int) -> None:
    with pytest.raises(InvalidConfigError, match="2\\*\\*63 - 1"):
        simulate_batch(3, games, 1)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["simulate", "--engine", "batch", "--games", str(2**63)], "argument --games: must be"),
        (["simulate", "--engine", "batch", "--games", "9" * 30], "argument --games: must be"),
        (["simulate", "--jobs", "-1"], "argument --jobs: must be from 0 to 1,024, not -1"),
        (["simulate", "--jobs", "1025"], "argument --jobs: must be from 0 to 1,024"),
        (["demo", "--seed", str(2**63), "--record", "never.json"], "argument --seed: must be"),
        (["demo", "--seed", "-1"], "argument --seed: must be from 0 to"),
        (["play", "--seed", "-5"], "argument --seed: must be from 0 to"),
        (["play", "--seed", str(2**63)], "argument --seed: must be from 0 to"),
        (["play", "--seed", "9" * 5000], "argument --seed: not a whole number"),
        (["tournament", "random", "random", "random", "--games", "9" * 5000], "not a whole"),
    ],
)
def test_counts_out_of_bounds_are_wrong_usage_in_one_line(
    args: list[str], said: str, tmp_path: Path
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "high_society", *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 2
    assert said in done.stderr
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    assert len(done.stderr.splitlines()[-1]) < 200  # no list of 1,025 choices
    assert list(tmp_path.iterdir()) == []


def test_jobs_never_start_more_processes_than_games() -> None:
    # Three games and 1,024 jobs: three chunks, in at most three processes (each reports
    # its own pid).
    pids = run_chunks(_pid, 3, jobs=MAX_JOBS)
    assert len(pids) == 3
    assert len(set(pids)) <= 3
    with pytest.raises(InvalidConfigError):
        check_jobs(MAX_JOBS + 1)


def _pid(chunk: range) -> int:
    return os.getpid()


def _shell(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        f"{sys.executable} -m high_society {command}",
        shell=True,
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
    )


def test_closed_standard_streams_give_no_traceback(tmp_path: Path) -> None:
    for command in ("play <&- >&-", "demo <&- >&-", "demo 2>&- >&-"):
        done = _shell(command, tmp_path)
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr


def test_a_reader_that_goes_away_gives_no_traceback(tmp_path: Path) -> None:
    # Many files, one line each: far more than a pipe holds once head has gone.
    names = " ".join(f"missing-{i:04}.json" for i in range(3000))
    done = _shell(f"validate {names} | head -c 1", tmp_path)
    assert "Traceback" not in done.stderr
    assert "Exception ignored" not in done.stderr


def test_the_largest_seed_plays_and_records(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    assert main(["demo", "--seed", str(2**63 - 1), "--record", str(path)]) == 0
    record = read_record(path)
    assert record.meta["seed"] == 2**63 - 1
    assert validate_record(record).valid


# --- A missing extra or a bad bot option: one line, exit 1, whatever the command --------------

#: Runs the command line with the named top-level modules made unimportable, as if their
#: extra were not installed.
_WITHOUT = """\
import sys
for name in sys.argv[1].split(","):
    sys.modules[name] = None
from high_society.cli import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize(
    ("missing", "args", "said"),
    [
        ("openskill", ["ratings", "--games", "10"], "ratings needs the batch and ratings extras"),
        ("numba", ["ratings", "--games", "10"], "ratings needs the batch and ratings extras"),
        (
            "gymnasium",
            ["exploitability", "heuristic", "--updates", "1"],
            "exploitability needs the batch and pettingzoo extras (gymnasium is missing)",
        ),
        ("uvicorn", ["serve", "--port", "1"], "serve needs the server extra (uvicorn is missing)"),
        ("numba", ["simulate", "--engine", "batch", "--games", "3"], "--engine batch"),
        ("numpy", ["tournament", "learned", "random", "random"], "bot 'learned' cannot be"),
    ],
)
def test_a_command_without_its_extra_says_which_to_install_in_one_line(
    missing: str, args: list[str], said: str, tmp_path: Path
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _WITHOUT, missing, *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1, done.stderr  # one line
    assert said in done.stderr
    assert "pip install '." in done.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "entrant",
    ["learned,network=abc", "learned,network=3", "learned,sampled=true,network=none.npz"],
)
def test_a_learned_bot_given_no_network_is_refused_before_any_game(
    entrant: str, tmp_path: Path
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "high_society", "tournament", entrant, "random", "random"],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 1
    assert done.stdout == ""  # refused before the first game
    assert done.stderr.count("\n") == 1, done.stderr
    assert "network must be a PolicyNetwork" in done.stderr
