"""Hostile input at every entry point: huge or odd values, paths, terminals, memory. Each
test is named for what it protects.

Records and JSON names are imported from
``high_society.record`` and ``high_society.serial``; the engine from the package.
"""

import io
import json
import os
import stat
import subprocess
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

import high_society._bidtable as bidtable
from benchmarks.hostile_memory import SHAPES
from high_society import (
    Bid,
    Discard,
    GameConfig,
    GameState,
    IllegalActionError,
    InvalidConfigError,
    Pass,
    Reason,
    RecordError,
    Reveal,
    StatusCard,
    apply,
    is_legal,
    legal_actions,
    new_game,
    sort_cards,
    why_illegal,
)
from high_society.bots import RandomBot
from high_society.cards import MAX_MONEY_CARDS, MAX_MONEY_VALUE
from high_society.cli import main
from high_society.encoding import action_from_id
from high_society.errors import EncodingError, InvalidSeatError, OutOfRangeError, RecordCode
from high_society.host import play_game
from high_society.observation import observation_size, observation_tensor
from high_society.parallel import check_jobs
from high_society.record import (
    MAX_RECORD_BYTES,
    GameRecord,
    RecordWriter,
    dumps_record,
    loads_record,
    read_record,
    record_to_json,
    replay,
    validate_file,
    validate_record,
    write_record,
)
from high_society.scoring import status
from high_society.search import win_share
from high_society.serial import (
    JSON,
    MAX_JSON_INT,
    MAX_JSON_VALUES,
    action_from_json,
    action_to_json,
    parse_json,
    state_from_json,
    state_to_json,
)
from high_society.simulate import simulate
from high_society.tournament import tournament as tournament_run
from tests.builders import auction

NAMES = ["Ada", "Ben", "Cy"]
HUGE = 10**5000  # repr() of it raises ValueError (Python's 4,300-digit limit)
#: The longest message any refusal below may carry: a few lines of text, never kilobytes.
SHORT = 300


class HostileRepr:
    """An object whose repr raises and whose comparisons raise: nothing may call them."""

    def __repr__(self) -> str:
        raise RuntimeError("repr called")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("== called")

    def __hash__(self) -> int:
        return 1  # collides with the money card 1 in every set


# --- 1. Huge integers and hostile objects in messages ----------------------------------------

HOSTILE_ACTIONS: list[tuple[str, object, Reason]] = [
    ("a huge seat", Pass(HUGE), Reason.INVALID_SEAT),
    ("a huge bid card", Bid(0, frozenset({HUGE})), Reason.INVALID_CARD),
    ("a huge bidder", Bid(HUGE, frozenset({1})), Reason.INVALID_SEAT),
    ("a huge discard seat", Discard(HUGE, StatusCard.LUXURY_1), Reason.INVALID_SEAT),
    ("a seat whose repr raises", Pass(HostileRepr()), Reason.INVALID_SEAT),  # type: ignore[arg-type]
    ("a bid card whose == raises", Bid(0, frozenset({HostileRepr()})), Reason.INVALID_CARD),  # type: ignore[arg-type]
    ("a reveal of a hostile card", Reveal(HostileRepr()), Reason.INVALID_CARD),  # type: ignore[arg-type]
    ("a hostile object", HostileRepr(), Reason.NOT_AN_ACTION),
    ("a huge list of cards", Bid(0, list(range(10**6))), Reason.INVALID_CARD),  # type: ignore[arg-type]
    ("a long string", "x" * 10**6, Reason.NOT_AN_ACTION),
]


@pytest.mark.parametrize(
    ("action", "reason"), [c[1:] for c in HOSTILE_ACTIONS], ids=[c[0] for c in HOSTILE_ACTIONS]
)
def test_legality_questions_never_raise_on_huge_or_hostile_values(
    action: object, reason: Reason
) -> None:
    state = auction()
    assert is_legal(state, action) is False
    assert (action in legal_actions(state)) is False
    error = why_illegal(state, action)
    assert error is not None
    assert error.reason is reason
    assert len(error.message) < SHORT
    with pytest.raises(IllegalActionError) as caught:
        apply(state, action)  # type: ignore[arg-type]
    assert caught.value.reason is reason
    assert len(str(caught.value)) < SHORT


def test_a_huge_seat_in_a_message_is_described_not_written_out() -> None:
    error = why_illegal(auction(), Pass(HUGE))
    assert error is not None
    assert "<an integer of 16,610 bits>" in error.message


def test_record_writer_refuses_a_huge_seat_as_an_illegal_action() -> None:
    writer = RecordWriter(NAMES)
    writer.add(Reveal(StatusCard.LUXURY_5))
    with pytest.raises(IllegalActionError) as caught:
        writer.add(Pass(HUGE))
    assert caught.value.reason is Reason.INVALID_SEAT
    assert len(writer.record().actions) == 1


def test_a_record_cannot_hold_a_seat_json_cannot_carry() -> None:
    with pytest.raises(RecordError) as caught:
        GameRecord(NAMES, [Reveal(StatusCard.LUXURY_5), Pass(HUGE)])
    error = caught.value
    assert (error.code, error.index, error.path) == (
        RecordCode.BAD_NUMBER,
        1,
        "$.actions[1].player",
    )
    assert len(error.message) < SHORT


def test_validate_record_reports_the_largest_seat_json_carries_as_an_illegal_seat() -> None:
    record = GameRecord(NAMES, [Reveal(StatusCard.LUXURY_5), Pass(MAX_JSON_INT)])
    for source in (record, dumps_record(record)):
        error = validate_record(source).error
        assert error is not None
        assert (error.code, error.index) == (Reason.INVALID_SEAT, 1)


def test_state_from_json_refuses_a_huge_turn_with_a_short_message() -> None:
    data = state_to_json(new_game(3))
    data["turn"] = HUGE
    with pytest.raises(RecordError) as caught:
        state_from_json(data)
    assert (caught.value.code, caught.value.path) == (RecordCode.BAD_STATE, "$.turn")
    assert len(caught.value.message) < SHORT


def test_json_text_refuses_integers_beyond_64_bits_before_converting_them() -> None:
    for text in (f"[{2**63}]", f"[{-(2**63) - 1}]", "[" + "9" * 5000 + "]"):
        with pytest.raises(RecordError) as caught:
            parse_json(text)
        assert caught.value.code is RecordCode.BAD_NUMBER
        assert len(caught.value.message) < SHORT
    assert parse_json(f"[{2**63 - 1}, {-(2**63)}]") == [2**63 - 1, -(2**63)]


# --- 2. A NUL byte (or no path at all) where a path is expected ------------------------------


@pytest.mark.parametrize("path", ["a\x00b.json", b"a\x00b.json", 0, None, 3.5])
def test_reading_a_path_that_is_not_one_reports_unreadable(path: object) -> None:
    error = validate_file(path)  # type: ignore[arg-type]
    assert error.error is not None
    assert error.error.code is RecordCode.UNREADABLE
    with pytest.raises(RecordError) as caught:
        read_record(path)  # type: ignore[arg-type]
    assert caught.value.code is RecordCode.UNREADABLE


def test_an_int_path_is_not_read_as_a_file_descriptor() -> None:
    # os.stat(0) and open(0) would read standard input.
    error = validate_file(0).error  # type: ignore[arg-type]
    assert error is not None
    assert "must be a string or a path" in error.message


def test_writing_to_a_path_holding_nul_reports_unwritable(tmp_path: Path) -> None:
    with pytest.raises(RecordError) as caught:
        write_record(str(tmp_path / "a\x00b.json"), GameRecord(NAMES))
    assert caught.value.code is RecordCode.UNWRITABLE
    assert list(tmp_path.iterdir()) == []


# --- 3. Config bounds: every bid table stays small -------------------------------------------


@pytest.mark.parametrize(
    ("money", "match"),
    [
        ((1, 10**9), "from 1 to 1000"),
        (tuple(range(1, 31)), "at most 12"),
        ((1, 10**30), "from 1 to 1000"),
        ((1, HUGE), "from 1 to 1000"),
        ((1, MAX_MONEY_VALUE + 1), "from 1 to 1000"),
        (tuple(range(1, MAX_MONEY_CARDS + 2)), "at most 12"),
    ],
)
def test_configs_beyond_the_bounds_are_refused(money: tuple[int, ...], match: str) -> None:
    with pytest.raises(InvalidConfigError, match=match) as caught:
        GameConfig(money=money)
    assert len(str(caught.value)) < SHORT


def test_a_money_card_out_of_bounds_is_named_with_the_bound_it_breaks() -> None:
    with pytest.raises(InvalidConfigError) as caught:
        GameConfig(money=(1, 1001))
    assert str(caught.value) == "money card 1001 is not an int from 1 to 1000 (MAX_MONEY_VALUE)"


@pytest.mark.parametrize(
    ("deck", "match"),
    [
        (sort_cards([StatusCard.PRESTIGE] * 4), "at most three prestige"),
        ((StatusCard.PRESTIGE,) * 100_000, "at most 16"),
    ],
)
def test_decks_beyond_the_standard_one_are_refused(
    deck: tuple[StatusCard, ...], match: str
) -> None:
    with pytest.raises(InvalidConfigError, match=match) as caught:
        GameConfig(deck=deck)
    if match == "at most three prestige":
        assert str(caught.value) == "a deck holds at most three prestige cards (R2)"


def test_the_largest_config_keeps_every_legal_action_list_small() -> None:
    config = GameConfig(money=tuple(range(MAX_MONEY_VALUE - MAX_MONEY_CARDS + 1, 1001)))
    state = apply(new_game(5, config), Reveal(StatusCard.LUXURY_1))
    tracemalloc.start()
    try:
        legal = legal_actions(state)
        count = len(legal)
        last = legal[-1]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == 2**MAX_MONEY_CARDS  # Pass and every non-empty subset
    assert last == Bid(0, frozenset(config.money))
    assert peak < 4 * 1024 * 1024  # the bid table is built here: about 0.8 MiB kept


def test_the_cache_of_bid_tables_keeps_within_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    # Hands from outside can be many and large: the cache is cleared before it holds more
    # than its budget (64 MiB; 1 MiB here, so that three of the largest tables exceed it).
    monkeypatch.setattr(bidtable, "TABLES_BUDGET", 1024 * 1024)
    bidtable.TABLES.clear()
    hands = [frozenset(range(start, start + MAX_MONEY_CARDS)) for start in (980, 985, 989)]
    for hand in hands:
        assert bidtable.bid_table(hand).cards == tuple(sorted(hand))
    assert list(bidtable.TABLES) == [hands[-1]]  # each one cleared the one before
    bidtable.TABLES.clear()


def test_state_from_json_refuses_a_config_beyond_the_bounds() -> None:
    # The review's 811-byte state: accepted, then legal_actions took 2 GB.
    data = state_to_json(new_game(3, GameConfig(money=(1, 2, 4))))
    config = data["config"]
    assert isinstance(config, dict)
    config["money"] = [1, 2, 1_000_000_000]
    for player in data["players"]:  # type: ignore[union-attr]
        player["hand"] = [1, 2, 1_000_000_000]  # type: ignore[index, call-overload]
    assert len(json.dumps(data)) < 1000
    with pytest.raises(RecordError) as caught:
        state_from_json(data)
    assert (caught.value.code, caught.value.path) == (RecordCode.BAD_STATE, "$.config")
    assert "1000" in caught.value.message


def test_state_from_json_refuses_a_player_count_before_reading_the_players() -> None:
    data = state_to_json(new_game(3))
    data["players"] = [{}] * 100_000
    with pytest.raises(RecordError) as caught:
        state_from_json(data)
    assert (caught.value.code, caught.value.path) == (RecordCode.BAD_STATE, "$.players")


# --- 4. `play` reads any line without a traceback ---------------------------------------------


def _play(lines: str) -> str:
    out = io.StringIO()
    code = main_with_io(["play", "--players", "3", "--seed", "1"], io.StringIO(lines), out)
    assert code == 0
    return out.getvalue()


def main_with_io(argv: list[str], stdin: io.StringIO, stdout: io.StringIO) -> int:
    from high_society.cli import build_parser, play

    args = build_parser().parse_args(argv)
    return play.run(args, stdin=stdin, stdout=stdout)


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        ("²", "'\\xb2' is not a money value"),
        ("9" * 5000, "'99999999999999999'... is not a money value"),
        ("٣", "'\\u0663' is not a money value"),  # an Arabic-Indic digit: isdigit() too
        ("1000", "'1000' is not a money value"),
    ],
)
def test_play_explains_a_line_that_is_not_money_and_asks_again(line: str, shown: str) -> None:
    out = _play(f"{line}\nquit\n")
    assert f"? {shown}" in out
    assert "You left the game." in out


def test_play_echoes_a_scripted_line_with_control_characters_escaped() -> None:
    out = _play("\x1b[31mpass\nquit\n")
    assert "\x1b" not in out
    assert "\\x1b[31mpass" in out


def test_play_reads_bytes_that_are_not_utf8_without_a_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "high_society", "play", "--players", "3", "--seed", "1"],
        input=b"\xff\xfe\x80\nquit\n",
        capture_output=True,
        check=False,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    assert b"is not a money value" in done.stdout


# --- 5. Safe writes: only a regular file is replaced -------------------------------------------


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _symlink_to_file(path: Path) -> Path:
    target = path.parent / "target.json"
    target.write_text("the target")
    path.symlink_to(target)
    return path


def _dangling_symlink(path: Path) -> Path:
    path.symlink_to(path.parent / "nowhere.json")
    return path


def _directory(path: Path) -> Path:
    path.mkdir()
    return path


@pytest.mark.parametrize(
    ("make", "what"),
    [
        (_fifo, "a FIFO"),
        (_symlink_to_file, "a symbolic link"),
        (_dangling_symlink, "a symbolic link"),
        (_directory, "a directory"),
    ],
)
def test_write_record_never_replaces_what_is_not_a_regular_file(
    tmp_path: Path, make: Callable[[Path], Path], what: str
) -> None:
    path = make(tmp_path / "game.json")
    before = sorted((p.name, os.lstat(p).st_mode) for p in tmp_path.iterdir())
    with pytest.raises(RecordError) as caught:
        write_record(path, GameRecord(NAMES))
    assert caught.value.code is RecordCode.UNWRITABLE
    assert f"{str(path)!r}: it exists and is {what}" in caught.value.message
    assert sorted((p.name, os.lstat(p).st_mode) for p in tmp_path.iterdir()) == before
    if make is _symlink_to_file:
        assert (tmp_path / "target.json").read_text() == "the target"


def test_write_record_refuses_a_device() -> None:
    # /dev/null exists on every Unix; it is refused before anything is opened.
    with pytest.raises(RecordError, match="it exists and is a device"):
        write_record("/dev/null", GameRecord(NAMES))
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_write_record_replaces_a_regular_file_whole(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text("old")
    record = GameRecord(NAMES, [Reveal(StatusCard.PASSE)])
    write_record(path, record)
    assert read_record(path) == record
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_demo_record_into_a_fifo_fails_and_leaves_the_fifo(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _fifo(tmp_path / "demo.json")
    assert main(["demo", "--players", "3", "--record", str(path)]) == 1
    err = capsys.readouterr().err
    assert "UNWRITABLE" in err
    assert str(path) in err
    assert "Traceback" not in err
    assert stat.S_ISFIFO(os.lstat(path).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["demo.json"]


# --- 6. Output injection through `validate` ------------------------------------------------


def test_validate_keeps_one_line_per_file_whatever_the_file_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = "x.json\nfake.json: valid, finished after 1 actions: Mallory wins\x1b[2J\u202e"
    path = tmp_path / name
    path.write_text(dumps_record(GameRecord(NAMES)))
    assert main(["validate", str(path)]) == 0
    out = capsys.readouterr().out
    [line] = out.splitlines()
    assert "\x1b" not in out
    assert "\u202e" not in out
    assert "\\nfake.json" in line
    assert line.endswith("valid, not finished (0 actions so far)")


def test_validate_reports_a_name_holding_a_forged_line_on_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = json.dumps(
        {
            "format": "high-society",
            "version": 1,
            "players": ["Ada", "Mallory\nfake.json: valid, finished after 1 actions", "Cy"],
            "actions": [],
        }
    )
    path = tmp_path / "game.json"
    path.write_text(text)
    assert main(["validate", str(path)]) == 1
    [line] = capsys.readouterr().out.splitlines()
    assert "BAD_PLAYERS" in line


# --- 7. Wrong types get typed errors ---------------------------------------------------------


@pytest.mark.parametrize("config", [None, "standard", 11, (1, 2, 3), {"money": (1,)}])
def test_new_game_refuses_a_config_that_is_not_one(config: object) -> None:
    # The message shows what was given (through short_repr), not only what was wanted.
    with pytest.raises(InvalidConfigError, match="config must be a GameConfig, not ") as caught:
        new_game(3, config=config)  # type: ignore[arg-type]
    assert str(caught.value).endswith(f"not {config!r}")


@pytest.mark.parametrize(
    ("action", "path"),
    [
        (Reveal("prestige"), "$.actions[0].card"),  # type: ignore[arg-type]
        (Bid(0, {1}), "$.actions[0].cards"),  # type: ignore[arg-type]
        (Bid(0, frozenset({True})), "$.actions[0].cards"),
        (Bid(0, frozenset({1.0})), "$.actions[0].cards"),  # type: ignore[arg-type]
        (Pass(True), "$.actions[0].player"),
        (Pass("0"), "$.actions[0].player"),  # type: ignore[arg-type]
        (Discard(0, "luxury-1"), "$.actions[0].card"),  # type: ignore[arg-type]
    ],
)
def test_a_record_refuses_an_action_json_cannot_carry(action: object, path: str) -> None:
    # Bid(0, {1}) was written as a valid bid: a round trip changed the verdict.
    with pytest.raises(RecordError) as caught:
        GameRecord(NAMES, [action])  # type: ignore[list-item]
    assert (caught.value.code, caught.value.index, caught.value.path) == (
        RecordCode.WRONG_TYPE,
        0,
        path,
    )
    with pytest.raises(RecordError):
        action_to_json(action)  # type: ignore[arg-type]


def test_a_record_refuses_meta_json_cannot_carry() -> None:
    with pytest.raises(RecordError) as caught:
        GameRecord(NAMES, meta={"x": HUGE})
    assert (caught.value.code, caught.value.path) == (RecordCode.BAD_NUMBER, "$.meta.x")
    assert len(caught.value.message) < SHORT


@pytest.mark.parametrize("function", [dumps_record, record_to_json, replay])
def test_record_functions_refuse_what_is_not_a_record(function: Callable[[object], object]) -> None:
    with pytest.raises(RecordError) as caught:
        function("not a record")
    assert caught.value.code is RecordCode.WRONG_TYPE


@pytest.mark.parametrize("source", [None, 10**9, 3.5, ["a"], io.BytesIO(b"{}")])
def test_validate_record_reports_a_source_that_is_not_a_record(source: object) -> None:
    tracemalloc.start()
    try:
        validation = validate_record(source)  # type: ignore[arg-type]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert validation.error is not None
    assert validation.error.code is RecordCode.WRONG_TYPE
    assert peak < 1024 * 1024  # bytes(10**9) would have taken a gigabyte


def test_parse_json_refuses_what_is_not_text() -> None:
    with pytest.raises(RecordError, match="WRONG_TYPE"):
        parse_json(10**9)  # type: ignore[arg-type]


def test_action_from_json_refuses_a_bid_card_beyond_64_bits() -> None:
    with pytest.raises(RecordError) as caught:
        action_from_json({"type": "bid", "player": 0, "cards": [2**64]})
    assert (caught.value.code, caught.value.path) == (RecordCode.BAD_NUMBER, "$.cards[0]")


# --- 8. Memory amplification ---------------------------------------------------------------


def _peak(call: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        call()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak


def _validate(text: bytes) -> Callable[[], object]:
    return lambda: validate_record(text)


def test_eight_mebibytes_of_empty_lists_are_refused_before_parsing() -> None:
    # The review: 428 MB and 4 s in meta; a bare json.loads of it takes 227 MB.
    head = b'{"format": "high-society", "version": 1, "players": ["A", "B", "C"], "meta": {"x": ['
    tail = b']}, "actions": []}'
    body = b"[]," * ((MAX_RECORD_BYTES - len(head) - len(tail) - 2) // 3) + b"[]"
    text = head + body + tail
    assert len(text) <= MAX_RECORD_BYTES
    error = validate_record(text).error
    assert error is not None
    assert error.code is RecordCode.TOO_LARGE
    assert _peak(_validate(text)) < 1024 * 1024  # counted in the bytes, nothing parsed


#: docs/records.md, "Bounds": one call takes at most 8 times its input plus 24 MiB.
def memory_bound(input_bytes: int) -> int:
    return 8 * input_bytes + 24 * 1024 * 1024


@pytest.mark.parametrize(
    "shape",
    [
        'small objects {"a":0}',  # the most Python objects per byte
        "one string of 8 MiB, one emoji",  # 4 bytes per character, twice (text and value)
    ],
)
def test_the_costliest_inputs_under_the_limits_stay_within_the_memory_bound(shape: str) -> None:
    data = SHAPES[shape]()
    assert len(data) <= MAX_RECORD_BYTES
    found: list[bool] = []
    assert _peak(lambda: found.append(validate_record(data).valid)) < memory_bound(len(data))
    assert found == [True]  # accepted: the whole input was parsed


def test_loads_record_round_trips_a_record_with_the_most_meta_allowed() -> None:
    meta: dict[str, JSON] = {"x": [[] for _ in range(MAX_JSON_VALUES // 2 - 10)]}
    record = GameRecord(NAMES, (), meta)
    assert loads_record(dumps_record(record)) == record


def test_reading_a_small_file_does_not_allocate_the_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(dumps_record(GameRecord(NAMES)))
    assert _peak(lambda: validate_file(path)) < 1024 * 1024  # not MAX_RECORD_BYTES


def test_a_file_over_the_limit_is_refused_without_reading_it_whole(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    with path.open("wb") as handle:
        handle.truncate(4 * MAX_RECORD_BYTES)  # sparse: 32 MiB of NUL
    found: list[RecordError | None] = []
    peak = _peak(lambda: found.append(validate_file(path).error))
    error = found[0]
    assert error is not None
    assert error.code is RecordCode.TOO_LARGE
    assert peak < 2 * MAX_RECORD_BYTES


def _finished_game() -> GameState:
    return play_game([RandomBot(seed) for seed in range(3)], seed=5)[0]


HUGE_ARGUMENT_CALLS: list[tuple[str, Callable[[], object], type[Exception]]] = [
    ("scoring.status", lambda: status(_finished_game(), HUGE), OutOfRangeError),
    ("search.win_share", lambda: win_share(_finished_game(), HUGE), OutOfRangeError),
    ("simulate players", lambda: simulate(HUGE, 1, 0), InvalidConfigError),
    ("simulate games", lambda: simulate(3, -HUGE, 0), InvalidConfigError),
    ("tournament games", lambda: tournament_run([], -HUGE, 0), InvalidConfigError),
    ("parallel jobs", lambda: check_jobs(-HUGE), InvalidConfigError),
    ("encoding discard", lambda: action_from_id(new_game(3), HUGE), EncodingError),
    ("observation seat", lambda: observation_tensor(new_game(3), HUGE), InvalidSeatError),
    ("observation players", lambda: observation_size(HUGE), InvalidConfigError),
]


@pytest.mark.parametrize(
    ("call", "error"),
    [c[1:] for c in HUGE_ARGUMENT_CALLS],
    ids=[c[0] for c in HUGE_ARGUMENT_CALLS],
)
def test_a_huge_argument_gets_the_documented_error_with_a_short_message(
    call: Callable[[], object], error: type[Exception]
) -> None:
    # The message describes the value ("<an integer of 16,610 bits>") instead of writing it
    # out, which would raise ValueError past Python's 4,300-digit limit.
    with pytest.raises(error) as caught:
        call()
    assert len(str(caught.value)) < SHORT
