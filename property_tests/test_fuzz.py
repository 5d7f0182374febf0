"""Fuzzing every entry point that takes input from outside.

Each input must end in a result or a documented error: a :class:`RecordError` from the JSON
and record functions, an :class:`IllegalActionError` from ``apply``, an
:class:`InvalidConfigError` from ``GameConfig``, a report (never an exception) from
``validate_record``, ``validate_file``, ``is_legal``, ``why_illegal`` and the command line;
and at the adapters, the batch engine and the files written: a checked state or a
``RecordError`` from OpenSpiel's ``deserialize_state``, an ``EncodingError`` from
``SoloEnv.step`` for anything but an integer id, a ``BatchError`` from ``GameBatch`` for
any count, state or id, a file written or nothing changed by ``write_record`` for any path
ending, wrong usage in one line for any count on the command line, and from the table
server, for any method, path, table id, ``since``, token, content type and body, a
documented status with the one error shape (never a 500).
Memory is bounded deterministically: the tracemalloc peak of each call must stay under the
bound of docs/records.md ("Bounds": 8 times the input plus 24 MiB). Time is never a verdict,
only a reported figure.

CI runs a short derandomised pass (the same inputs every run). The long run is
``python3 tasks.py fuzz [EXAMPLES]``: randomised, ``EXAMPLES`` inputs per entry point (env
``HIGH_SOCIETY_FUZZ_EXAMPLES``), and a table of figures (inputs tried, slowest input, largest
memory) written to the file named by ``HIGH_SOCIETY_FUZZ_REPORT`` and, as a figure file, to
the one named by ``HIGH_SOCIETY_FUZZ_FIGURES``.
"""

import contextlib
import io
import json
import os
import stat
import tempfile
import time
import tracemalloc
import urllib.parse
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from high_society import (
    STANDARD,
    Action,
    Bid,
    Discard,
    GameConfig,
    GameState,
    IllegalActionError,
    InvalidConfigError,
    Pass,
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
from high_society._convert import check_action
from high_society.cards import MAX_MONEY_CARDS
from high_society.cli import build_parser
from high_society.cli import play as play_cli
from high_society.cli import validate as validate_cli
from high_society.record import (
    GameRecord,
    dumps_record,
    loads_record,
    read_record,
    validate_file,
    validate_record,
    write_record,
)
from high_society.serial import (
    JSON,
    action_from_json,
    action_to_json,
    state_from_json,
    state_to_json,
)
from property_tests.strategies import choose_action, near_misses

T = TypeVar("T")

#: Inputs per entry point: a short run by default; ``tasks.py fuzz`` sets a long one.
LONG_RUN = int(os.environ.get("HIGH_SOCIETY_FUZZ_EXAMPLES", "0"))
fuzz = settings(
    max_examples=LONG_RUN or 40,
    derandomize=not LONG_RUN,
    deadline=None,  # time is reported, never a verdict
    database=None,
    suppress_health_check=list(HealthCheck),
)

MIB = 1024 * 1024
#: The documented bound on the memory one call takes (docs/records.md, "Bounds").
SLACK = 24 * MIB


def memory_bound(input_bytes: int) -> int:
    return 8 * input_bytes + SLACK


# --- Figures ------------------------------------------------------------------------------


class Figures:
    """Per entry point: inputs tried, the slowest (CPU seconds of this process, so other jobs
    on the machine do not count; and the input's size), the largest tracemalloc peak."""

    def __init__(self) -> None:
        self.rows: dict[str, list[float]] = {}

    def add(self, entry: str, seconds: float, peak: int, size: int) -> None:
        row = self.rows.setdefault(entry, [0, 0.0, 0, 0])
        row[0] += 1
        if seconds > row[1]:
            row[1], row[3] = seconds, size
        row[2] = max(row[2], peak)

    def figure_rows(self) -> list[list[str]]:
        """The rows of the figure file's table: the markdown table's cells."""
        return [
            [
                f"`{entry}`",
                f"{int(count):,}",
                f"{slowest * 1000:.1f} ms",
                f"{int(size):,} B",
                f"{peak / MIB:.2f} MiB",
            ]
            for entry, (count, slowest, peak, size) in sorted(self.rows.items())
        ]

    def table(self) -> str:
        lines = [
            "| Entry point | Inputs | Slowest | (its size) | Largest memory |",
            "| --- | ---: | ---: | ---: | ---: |",
        ]
        lines += ["| " + " | ".join(row) + " |" for row in self.figure_rows()]
        return "\n".join(lines) + "\n"


FIGURES = Figures()


@pytest.fixture(scope="module", autouse=True)
def _report() -> Iterator[None]:
    yield
    target = os.environ.get("HIGH_SOCIETY_FUZZ_REPORT")
    if target:
        Path(target).write_text(FIGURES.table(), encoding="utf-8")
    figures = os.environ.get("HIGH_SOCIETY_FUZZ_FIGURES")
    if figures and LONG_RUN:
        _write_figures(figures)


def _write_figures(path: str) -> None:
    """The long run's figures, to the figure file ``path`` (docs/figures/fuzz.json)."""
    from benchmarks.figures import table, write

    calls = sum(int(row[0]) for row in FIGURES.rows.values())
    write(
        path,
        command=f"python3 tasks.py fuzz {LONG_RUN} {path}",
        title="The long fuzz run of every entry point",
        notes=f"{LONG_RUN:,} randomised inputs per entry point ({calls:,} calls in all): a "
        "rerun gives other inputs. Slowest: the CPU time of the slowest call; its size: that "
        "input's size in bytes (0 for a Python object); largest memory: the greatest "
        "tracemalloc peak of one call.",
        figures={
            "entry_points": table(
                ["Entry point", "Inputs", "Slowest", "Its size", "Largest memory"],
                FIGURES.figure_rows(),
            )
        },
    )


def measured(entry: str, size: int, call: Callable[[], T]) -> T:
    """``call()``, its time and tracemalloc peak added to the figures; the peak must stay
    under the documented bound for an input of ``size`` bytes (0 for a Python object)."""
    tracemalloc.start()
    start = time.process_time()
    try:
        return call()
    finally:  # a documented error counts as an input too
        seconds = time.process_time() - start
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        FIGURES.add(entry, seconds, peak, size)
        assert peak < memory_bound(size), f"{entry}: {peak:,} bytes for {size:,} bytes of input"


def short(error: Exception) -> None:
    """A documented error's message stays short, whatever the input."""
    assert len(str(error)) < 1000, str(error)[:200]


# --- Strategies ---------------------------------------------------------------------------

#: Integers of every size: small, 64-bit edges, beyond Python's 4,300-digit repr limit.
#: (Built by ``map``: Hypothesis shows a strategy's values in its repr, and the repr of a
#: 5,000-digit integer raises.)
text_ints = st.one_of(
    st.integers(-3, 30),
    st.integers(),
    st.sampled_from([63, 64, 100]).map(lambda bits: 2**bits - 1),
    st.sampled_from([63, 64, 100]).map(lambda bits: -(2**bits)),
)
any_int = st.one_of(text_ints, st.sampled_from([4400, 5000]).map(lambda digits: 10**digits))
json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    text_ints,
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
    st.sampled_from([c.value for c in StatusCard] + ["reveal", "bid", "pass", "discard"]),
)
json_values: st.SearchStrategy[JSON] = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=8), inner, max_size=6)
    ),
    max_leaves=30,
)
#: Objects that are not JSON, some hostile: a repr that raises, an == that raises.


class _Hostile:
    def __repr__(self) -> str:
        raise RuntimeError("repr")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("eq")

    def __hash__(self) -> int:
        return 1


anything = st.one_of(
    json_values,
    any_int,
    st.builds(_Hostile),
    st.sampled_from([object(), b"bytes", 1.5j, float("nan"), float("inf"), {1, 2}, Pass]),
    st.frozensets(st.one_of(any_int, st.booleans(), st.floats(allow_nan=False)), max_size=5),
)
status_cards = st.sampled_from(StatusCard)
money_sets = st.frozensets(st.sampled_from(STANDARD.money), max_size=11)


@st.composite
def actions(draw: st.DrawFn) -> object:
    """Any of the four actions with fields of any type, or anything at all."""
    kind = draw(st.integers(0, 5))
    field = st.one_of(any_int, anything)
    if kind == 0:
        return Reveal(draw(st.one_of(status_cards, anything)))
    if kind == 1:
        return Bid(draw(field), draw(st.one_of(money_sets, anything)))
    if kind == 2:
        return Pass(draw(field))
    if kind == 3:
        return Discard(draw(field), draw(st.one_of(status_cards, anything)))
    return draw(anything)


@st.composite
def reachable_states(draw: st.DrawFn) -> GameState:
    """A state some game reaches: a few steered moves from a new game of any config."""
    config = draw(st.sampled_from([STANDARD, *_SMALL_CONFIGS]))
    state = new_game(draw(st.integers(3, 5)), config)
    for _ in range(draw(st.integers(0, 25))):
        if state.is_over:
            break
        state = apply(state, choose_action(draw, state))
    return state


_SMALL_CONFIGS = (
    GameConfig(
        money=(1, 2, 4),
        deck=sort_cards([StatusCard.LUXURY_2, StatusCard.FAUX_PAS, StatusCard.PRESTIGE]),
    ),
    GameConfig(money=tuple(range(989, 1001))),  # the largest config allowed
)


@st.composite
def record_texts(draw: st.DrawFn) -> bytes:
    """JSON text shaped like a record, each part valid or broken at random."""
    top: dict[str, JSON] = {}
    if draw(st.integers(0, 9)):
        top["format"] = "high-society" if draw(st.integers(0, 5)) else draw(json_values)
    if draw(st.integers(0, 9)):
        top["version"] = 1 if draw(st.integers(0, 5)) else draw(json_values)
    if draw(st.integers(0, 9)):
        names: st.SearchStrategy[JSON] = st.text(min_size=0, max_size=8)
        top["players"] = draw(st.one_of(st.lists(names, min_size=3, max_size=5), json_values))
    if draw(st.booleans()):
        top["meta"] = draw(json_values)
    moves: list[JSON] = []
    state = new_game(3)
    for _ in range(draw(st.integers(0, 30))):
        if state.is_over or not draw(st.integers(0, 7)):
            moves.append(draw(json_values))  # a broken action, or one after the end
        else:
            action = choose_action(draw, state)
            state = apply(state, action)
            moves.append(action_to_json(action))
    top["actions"] = moves
    if draw(st.integers(0, 20)) == 0:
        top[draw(st.text(max_size=5))] = draw(json_values)
    text = json.dumps(top, ensure_ascii=draw(st.booleans()))
    data = text.encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 5)) == 0:  # cut or corrupt the bytes
        cut = draw(st.integers(0, len(data)))
        data = data[:cut] + draw(st.binary(max_size=8))
    return data


texts = st.one_of(
    record_texts(), st.binary(max_size=200), st.text(max_size=200).map(lambda t: t.encode())
)


# --- JSON and records ---------------------------------------------------------------------


@fuzz
@given(data=texts)
def test_validate_record_reports_any_bytes(data: bytes) -> None:
    validation = measured("validate_record", len(data), lambda: validate_record(data))
    if validation.error is not None:
        short(validation.error)
        return
    assert validation.record is not None
    # What validates reads, writes and validates again the same.
    assert loads_record(dumps_record(validation.record)) == validation.record


@fuzz
@given(data=texts)
def test_loads_record_gives_a_record_or_a_record_error(data: bytes) -> None:
    try:
        record = measured("loads_record", len(data), lambda: loads_record(data))
    except RecordError as error:
        short(error)
        return
    assert loads_record(dumps_record(record)) == record


int64 = st.integers(-(2**63), 2**63 - 1)
#: Actions a record can hold (legal or not), with integers anywhere in 64 bits.
well_formed_actions = st.one_of(
    st.builds(Reveal, status_cards),
    st.builds(Pass, st.one_of(st.integers(-1, 5), int64)),
    st.builds(
        Bid,
        st.one_of(st.integers(-1, 5), int64),
        st.frozensets(st.one_of(st.sampled_from(STANDARD.money), int64), max_size=4),
    ),
    st.builds(Discard, st.one_of(st.integers(-1, 5), int64), status_cards),
)
_GOOD_PLAYERS = st.lists(
    st.sampled_from(["Ada", "Ben", "Cy", "Dee", "Eve"]), min_size=3, max_size=5, unique=True
)
_ANY_NAMES = st.lists(st.text(max_size=6), min_size=3, max_size=5)
#: Mostly names a record accepts, sometimes any strings, sometimes anything (one_of would
#: flatten ``anything`` into its many branches and draw it most of the time).
player_lists = st.integers(0, 9).flatmap(
    lambda k: _GOOD_PLAYERS if k < 6 else _ANY_NAMES if k < 8 else anything
)


@fuzz
@given(
    players=player_lists,
    moves=st.one_of(
        st.lists(well_formed_actions, max_size=8),
        st.lists(st.one_of(well_formed_actions, actions()), max_size=4),
    ),
    meta=st.one_of(
        st.none(),
        st.dictionaries(st.text(max_size=5), json_values, max_size=3),
        st.dictionaries(st.text(max_size=5), anything, max_size=3),
    ),
)
def test_records_built_in_python_round_trip_to_the_same_verdict(
    players: object, moves: list[object], meta: object
) -> None:
    def build() -> GameRecord:
        return GameRecord(players, moves, meta)  # type: ignore[arg-type]

    try:
        record = measured("GameRecord", 0, build)
    except RecordError as error:
        short(error)
        return
    direct = measured("validate_record (GameRecord)", 0, lambda: validate_record(record))
    text = dumps_record(record)
    again = validate_record(text)
    assert direct.valid == again.valid
    if direct.error is not None:
        assert again.error is not None
        assert (direct.error.code, direct.error.index) == (again.error.code, again.error.index)
    assert loads_record(text) == record


#: Objects shaped like actions: a type and some of the keys, of any JSON value.
action_objects = st.fixed_dictionaries(
    {"type": st.sampled_from(["reveal", "bid", "pass", "discard"])},
    optional={
        "player": st.one_of(st.integers(-1, 5), json_scalars),
        "cards": st.one_of(st.lists(st.sampled_from(STANDARD.money), max_size=4), json_values),
        "card": st.one_of(st.sampled_from([c.value for c in StatusCard]), json_scalars),
    },
)


@fuzz
@given(
    value=st.integers(0, 9).flatmap(
        lambda k: action_objects if k < 6 else json_values if k < 8 else anything
    )
)
def test_action_from_json_gives_an_action_or_a_record_error(value: object) -> None:
    try:
        action = measured("action_from_json", 0, lambda: action_from_json(value))
    except RecordError as error:
        short(error)
        return
    assert action_from_json(action_to_json(action)) == action


@st.composite
def mutated_states(draw: st.DrawFn) -> JSON:
    """The JSON of a reachable state with a few values replaced, anywhere."""
    data: JSON = state_to_json(draw(reachable_states()))
    for _ in range(draw(st.integers(0, 3))):
        node = data
        while draw(st.booleans()):
            if isinstance(node, dict) and node:
                key = draw(st.sampled_from(sorted(node)))
                if not isinstance(node[key], dict | list) or not draw(st.booleans()):
                    node[key] = draw(json_values)
                    break
                node = node[key]
            elif isinstance(node, list) and node:
                i = draw(st.integers(0, len(node) - 1))
                if not isinstance(node[i], dict | list) or not draw(st.booleans()):
                    node[i] = draw(json_values)
                    break
                node = node[i]
            else:
                break
    return data


@fuzz
@given(data=mutated_states())
def test_state_from_json_gives_a_playable_state_or_a_record_error(data: JSON) -> None:
    size = len(json.dumps(data))
    try:
        state = measured("state_from_json", size, lambda: state_from_json(data))
    except RecordError as error:
        short(error)
        return
    legal = measured("legal_actions (states read)", 0, lambda: legal_actions(state))
    assert len(legal) <= 2**MAX_MONEY_CARDS + 16
    if len(legal):
        apply(state, legal[len(legal) - 1])
    assert state_from_json(state_to_json(state)) == state


# --- Files and the command line -----------------------------------------------------------

_DIR = tempfile.TemporaryDirectory(prefix="high-society-fuzz-")
_NAMES = st.text(
    st.characters(exclude_categories=["Cs"], exclude_characters="/\x00"),
    min_size=1,
    max_size=12,
).filter(lambda n: n not in {".", ".."})


def _write(name: str, data: bytes) -> Path:
    path = Path(_DIR.name) / name
    try:
        path.write_bytes(data)
    except OSError:  # a name the file system will not take (too long in bytes ...)
        assume(False)
    return path


@fuzz
@given(name=_NAMES, data=texts)
def test_read_record_and_validate_file_agree_on_any_file(name: str, data: bytes) -> None:
    path = _write(name, data)
    validation = measured("validate_file", len(data), lambda: validate_file(path))
    try:
        record: GameRecord | RecordError = read_record(path)
    except RecordError as error:
        record = error
    if isinstance(record, RecordError):
        short(record)
        assert validation.error is not None
        if record.code in {"UNREADABLE", "TOO_LARGE", "NOT_UTF8", "NOT_JSON"}:
            assert validation.error.code == record.code
    elif validation.valid:
        assert validation.record == record


@fuzz
@given(path=st.one_of(st.text(max_size=30), st.binary(max_size=30), anything))
def test_validate_file_reports_any_path(path: object) -> None:
    if isinstance(path, str | bytes) and path in ("", b""):
        path = "."  # the current directory: refused as a directory, never read
    validation = measured("validate_file (paths)", 0, lambda: validate_file(path))  # type: ignore[arg-type]
    if validation.error is not None:
        short(validation.error)


def _unsafe(text: str) -> bool:
    """A character the terminal must not see raw (as the CLI escapes them)."""
    return any(
        ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F or c in "\u2028\u2029\u202e\u2066" for c in text
    )


@fuzz
@given(files=st.lists(st.tuples(_NAMES, texts), min_size=1, max_size=3), as_json=st.booleans())
def test_the_validate_command_prints_one_safe_line_per_file(
    files: list[tuple[str, bytes]], as_json: bool
) -> None:
    paths = [str(_write(f"{i}-{name}", data)) for i, (name, data) in enumerate(files)]
    args = build_parser().parse_args(["validate", *(["--json"] if as_json else []), *paths])
    out = io.StringIO()
    size = sum(len(data) for _, data in files)
    code = measured("high-society validate", size, lambda: validate_cli.run(args, out=out))
    assert code in (0, 1)
    lines = out.getvalue().split("\n")
    assert lines[-1] == ""
    assert len(lines) - 1 == len(paths)
    assert not any(_unsafe(line) for line in lines)


_MOVES = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["pass", "p", "help", "1", "3 4", "25", "2", "1,2+3", "²", "٣", "9" * 5000]),
    st.lists(st.sampled_from(STANDARD.money), max_size=4).map(lambda v: " ".join(map(str, v))),
)


@fuzz
@given(lines=st.lists(_MOVES, max_size=60), players=st.integers(3, 5), seed=st.integers(0, 99))
def test_the_play_command_answers_any_input(lines: list[str], players: int, seed: int) -> None:
    text = "".join(line.replace("\n", " ").replace("\r", " ") + "\n" for line in lines)
    args = build_parser().parse_args(["play", "--players", str(players), "--seed", str(seed)])
    out = io.StringIO()
    code = measured(
        "high-society play", len(text), lambda: play_cli.run(args, io.StringIO(text), out)
    )
    assert code == 0
    assert "\x1b" not in out.getvalue()


# --- The engine with anything for an action -----------------------------------------------


@st.composite
def states_and_actions(draw: st.DrawFn) -> tuple[GameState, object]:
    """A reachable state and, in turn, a legal action of it, a near miss, or anything."""
    state = draw(reachable_states())
    kind = draw(st.integers(0, 2))
    if kind == 0 and not state.is_over:
        return state, choose_action(draw, state)
    if kind == 1 and not state.is_over:
        return state, draw(near_misses(state))
    return state, draw(actions())


@fuzz
@given(case=states_and_actions())
def test_the_engine_answers_any_object_with_its_documented_errors(
    case: tuple[GameState, object],
) -> None:
    state, action = case
    legal = measured("is_legal", 0, lambda: is_legal(state, action))
    error = measured("why_illegal", 0, lambda: why_illegal(state, action))
    assert legal is (error is None)
    assert (action in legal_actions(state)) is legal
    raised: IllegalActionError | None = None
    try:
        measured("apply", 0, lambda: apply(state, action))  # type: ignore[arg-type]
    except IllegalActionError as caught:
        raised = caught
    assert (raised is None) is legal
    if raised is not None:
        assert error is not None
        assert raised.reason is error.reason
        short(raised)


def _sorted_tuple(values: list[int]) -> tuple[int, ...]:
    return tuple(sorted(values))


_IN_BOUNDS_MONEY = st.lists(st.integers(1, 1000), min_size=1, max_size=12, unique=True)
_NEAR_MONEY = st.lists(st.integers(-1, 1002), min_size=1, max_size=13, unique=True)
_ANY_MONEY = st.lists(any_int, max_size=14)
_IN_BOUNDS_DECK = st.tuples(
    st.sets(st.sampled_from([c for c in StatusCard if c is not StatusCard.PRESTIGE])),
    st.integers(1, 3),
).map(lambda d: sort_cards([*d[0], *[StatusCard.PRESTIGE] * d[1]]))
_ANY_DECK = st.lists(status_cards, max_size=18).map(sort_cards)
#: Mostly within the bounds (so that many configs are accepted and played), sometimes just
#: beyond them, sometimes any tuple of integers or cards, sometimes anything. (Hypothesis
#: draws boundary values often: 0, 63 and 13 cards would refuse most configs.)
config_money = st.integers(0, 9).flatmap(
    lambda k: (
        (_IN_BOUNDS_MONEY if k < 6 else _NEAR_MONEY if k < 7 else _ANY_MONEY).map(_sorted_tuple)
        if k < 8
        else anything
    )
)
config_decks = st.integers(0, 9).flatmap(
    lambda k: _IN_BOUNDS_DECK if k < 6 else _ANY_DECK if k < 8 else anything
)


@fuzz
@given(money=config_money, deck=config_decks)
def test_game_config_gives_a_small_game_or_an_invalid_config_error(
    money: object, deck: object
) -> None:
    try:
        config = measured("GameConfig", 0, lambda: GameConfig(money=money, deck=deck))  # type: ignore[arg-type]
    except InvalidConfigError as error:
        short(error)
        return
    state = new_game(3, config)
    reveal = Reveal(next(c for c in config.deck if not c.is_dark_green or c is config.deck[-1]))
    state = apply(state, reveal)
    if not state.is_over:
        legal = measured("legal_actions (configs)", 0, lambda: legal_actions(state))
        assert len(legal) <= 2**MAX_MONEY_CARDS
        first: Action = legal[len(legal) - 1]
        apply(state, first)


@fuzz
@given(action=actions())
def test_a_record_accepts_exactly_the_actions_check_action_accepts(action: object) -> None:
    # GameRecord recognises the common well-formed actions by a fast path of its own: it
    # must agree with check_action, the full check, on every object.
    assert _refusal(lambda: GameRecord(["Ada", "Ben", "Cy"], [action])) == _refusal(  # type: ignore[list-item]
        lambda: check_action(action)
    )


def _refusal(call: Callable[[], object]) -> str | None:
    """The code of the RecordError ``call`` raises, or None."""
    try:
        call()
    except RecordError as error:
        return str(error.code)
    return None


# --- The adapters, the batch engine, file paths and counts on the command line -------------


@fuzz
@given(
    text=st.one_of(
        texts.map(lambda b: b.decode("utf-8", "replace")),
        mutated_states().map(json.dumps),
        anything,
    )
)
def test_openspiel_deserialize_state_gives_a_checked_state_or_a_record_error(
    text: object,
) -> None:
    import pyspiel

    from high_society.openspiel import SHORT_NAME, game_state

    game = pyspiel.load_game(SHORT_NAME, {"players": 4})
    size = len(text) if isinstance(text, str) else 0
    try:
        state = measured("openspiel.deserialize_state", size, lambda: game.deserialize_state(text))
    except RecordError as error:
        short(error)
        return
    assert state_from_json(json.loads(state.serialize())) == game_state(state)
    assert state.legal_actions() == list(legal_action_ids_of(game_state(state)))


def legal_action_ids_of(state: GameState) -> tuple[int, ...]:
    from high_society.encoding import legal_action_ids

    return legal_action_ids(state)


@fuzz
@given(actions=st.lists(st.one_of(st.integers(-5, 2100), anything), min_size=1, max_size=8))
def test_solo_env_step_takes_integer_ids_and_refuses_anything_else(actions: list[object]) -> None:
    import numpy as np

    from high_society.errors import EncodingError
    from high_society.gymnasium_env import SoloEnv

    env = SoloEnv(players=3)
    env.reset(seed=3)
    for action in actions:
        before = env.game
        integer = isinstance(action, int | np.integer) and not isinstance(action, bool)
        try:
            _, _, done, _, _ = measured("SoloEnv.step", 0, lambda: env.step(action))  # type: ignore[arg-type]  # noqa: B023
        except EncodingError as error:
            short(error)
            assert not integer
            assert env.game == before
            continue
        assert integer
        if done:
            env.reset(seed=3)


@fuzz
@given(
    games=st.one_of(
        st.integers(-3, 64), st.sampled_from([2**20 + 1, 2**63, 10**20, 10**5000]), anything
    ),
    states=st.one_of(
        st.lists(st.one_of(st.builds(new_game, st.integers(3, 5)), anything), max_size=3), anything
    ),
    ids=st.lists(any_int, min_size=2, max_size=2),
)
def test_the_batch_engine_answers_any_count_state_or_id_with_a_batch_error(
    games: object, states: object, ids: list[int]
) -> None:
    import numpy as np

    from high_society.batch import MAX_GAMES, BatchError, GameBatch, IllegalActionIdError

    # A batch's arrays grow with the games it is asked for (up to MAX_GAMES): up to 300
    # bytes each may be taken.
    size = 300 * games if type(games) is int and 0 < games <= MAX_GAMES else 0
    for call in (
        lambda: GameBatch(games, 3),  # type: ignore[arg-type]
        lambda: GameBatch.from_states(states),  # type: ignore[arg-type]
    ):
        try:
            measured("GameBatch", size, call)
        except BatchError as error:
            short(error)
        except InvalidConfigError as error:  # players of the states: 3 to 5 only
            short(error)
    batch = GameBatch(2, 3, seed=1)
    for dtype in (np.int64, np.uint64, object):
        try:
            array = np.array(ids, dtype=dtype)
        except OverflowError:
            continue
        refusal: BatchError | None = None
        try:
            batch.step(array)
        except BatchError as error:
            refusal = error
        if isinstance(refusal, IllegalActionIdError):
            short(refusal)
            assert refusal.action_id == ids[refusal.game]  # as given: 2**64 - 1, not -1
        elif refusal is not None:
            short(refusal)


_PATH_ENDS = st.sampled_from(["", "/", "/.", "/..", "//", "/./", ".json", "\0", "/x"])


@fuzz
@given(name=_NAMES, end=_PATH_ENDS, exists=st.booleans(), mode=st.sampled_from([0o600, 0o644]))
def test_write_record_writes_a_file_or_changes_nothing(
    name: str, end: str, exists: bool, mode: int
) -> None:
    record = GameRecord(["Ada", "Ben", "Cy"])
    with tempfile.TemporaryDirectory() as where:
        base = Path(where) / name
        if exists:
            try:
                base.write_text("keep")
            except OSError:
                assume(False)
            base.chmod(mode)
        before = sorted(p.name for p in Path(where).iterdir())
        target = str(base) + end
        try:
            measured("write_record", 0, lambda: write_record(target, record))
        except RecordError as error:
            short(error)
            assert sorted(p.name for p in Path(where).iterdir()) == before
            if exists:
                assert base.read_text() == "keep"
            return
        assert end in {"", ".json", "/x"} or not end
        written = Path(target)
        assert read_record(written) == record
        if exists and written == base:
            assert stat.S_IMODE(written.stat().st_mode) == mode


_OPTION_VALUES = st.one_of(
    st.text(max_size=12),
    text_ints.map(str),
    st.sampled_from([4400, 5000]).map(lambda digits: "9" * digits),
    st.sampled_from(["-1", "0", "1025", str(2**63), str(2**63 - 1), "1e3", "0x10", " 7 "]),
)


@fuzz
@given(
    option=st.sampled_from(["--games", "--seed", "--jobs", "--players"]),
    value=_OPTION_VALUES,
)
def test_counts_on_the_command_line_are_bounded_or_wrong_usage(option: str, value: str) -> None:
    parser = build_parser()
    errors = io.StringIO()
    code: object = None
    try:
        with contextlib.redirect_stderr(errors):
            args = parser.parse_args(["simulate", option, value])
    except SystemExit as exit_:
        code = exit_.code
    if code is not None:
        assert code == 2
        message = errors.getvalue().splitlines()[-1]
        assert len(message) < 300, message  # one short line: no list of choices
        return
    assert 1 <= args.games <= 2**63 - 1
    assert 0 <= args.seed <= 2**63 - 1
    assert 0 <= args.jobs <= 1024


# --- The table server -----------------------------------------------------------------------

#: Every status the server documents (docs/serve.md); anything else (a 500) is a defect.
_STATUSES = {200, 201, 400, 401, 403, 404, 405, 408, 409, 413, 415, 422, 429, 503}


@pytest.fixture(scope="module")
def server_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """The table server in this process (SQLite), a table of three people on it, and a
    token of each seat."""
    from fastapi.testclient import TestClient

    from high_society.server import Limits, create_app

    folder = tmp_path_factory.mktemp("fuzzed-server")
    limits = Limits(tables_per_minute=1_000_000)
    with TestClient(create_app(f"sqlite:///{folder}/t.sqlite3", limits=limits)) as client:
        people = {"seats": [{"kind": "person", "name": n} for n in ("A", "B", "C")]}
        made = client.post("/api/tables", json=people).json()
        yield client, made["table"], [seat["token"] for seat in made["seats"]]


_METHODS = st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"])
_PATHS = st.sampled_from(
    [
        *("/api/tables", "/api/tables/{t}", "/api/tables/{t}/join", "/api/tables/{t}/payload"),
        *("/api/tables/{t}/actions", "/api/tables/{t}/record", "/api/tables/{t}/public"),
        *("/api/tables/{t}/rematch", "/api/health", "/api/x", "/{t}"),
        *("/api/bots", "/api/replays"),
    ]
)
_WORDS = st.text(max_size=40) | st.sampled_from(["0", "5", "-1", "\u00b2", "9" * 12, "1e3", ""])


@fuzz
@given(
    method=_METHODS,
    path=_PATHS,
    table=st.sampled_from(["", "real", "nope"]) | st.text(max_size=20),
    since=st.none() | _WORDS,
    token=st.sampled_from([None, "seat", "other"]) | st.text(max_size=70),
    kind=st.sampled_from([None, "application/json", "text/plain"]) | st.text(max_size=20),
    body=texts | st.sampled_from([b'{"action": {"type": "pass", "player": 0}, "number": 1}']),
)
def test_the_server_answers_any_request_with_a_documented_status_and_error_shape(
    server_client: tuple[object, str, list[str]],
    method: str,
    path: str,
    table: str,
    since: str | None,
    token: str | None,
    kind: str | None,
    body: bytes,
) -> None:
    client, real, tokens = server_client
    table_id = real if table == "real" else urllib.parse.quote(table, safe="")
    url = path.replace("{t}", table_id)
    headers: dict[bytes, bytes] = {}
    if token is not None:
        given_token = {"seat": tokens[0], "other": tokens[1]}.get(token, token)
        headers[b"authorization"] = b"Bearer " + given_token.encode("utf-8", "replace")
    if kind is not None:
        headers[b"content-type"] = kind.encode("utf-8", "replace")
    params = None if since is None else {"since": since}
    answer = client.request(  # type: ignore[attr-defined]
        method, url, params=params, headers=headers, content=body if method != "GET" else None
    )
    assert answer.status_code in _STATUSES, (method, url, answer.status_code, answer.text[:200])
    if answer.status_code >= 400 and method != "HEAD":
        error = answer.json()
        assert set(error) == {"kind", "code", "message", "path"}, error
        assert len(error["message"]) < 300
