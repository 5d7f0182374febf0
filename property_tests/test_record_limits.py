"""The record writer and reader agree on every record: what the writer accepts
(``GameRecord``, ``dumps_record``, ``validate_record`` of the record) the reader accepts
(``loads_record``, ``validate_record`` of the text) and gives back equal; what the writer
refuses, the reader refuses in the text the writer would have written, with the same code.

The records carry ``meta`` of every JSON shape, and of sizes around each limit of the reader:
nesting depth, lists, objects and commas (those inside strings too), bytes of UTF-8. The
verdicts depend on the input alone (no time budget).
"""

import json

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from high_society import Pass, Reveal, StatusCard
from high_society.errors import Reason, RecordCode, RecordError
from high_society.record import (
    MAX_RECORD_BYTES,
    GameRecord,
    dumps_record,
    loads_record,
    validate_record,
)
from high_society.serial import JSON, MAX_JSON_DEPTH, MAX_JSON_INT, MAX_JSON_VALUES, MIN_JSON_INT

PLAYERS = ("Ada", "Ben", "Cy")
#: A legal opening, so that validation replays something.
ACTIONS = (Reveal(StatusCard.PRESTIGE), Pass(0), Pass(1))


#: The codes of the reader's limits: a meta of JSON values can break no other rule.
_LIMIT_CODES = {RecordCode.TOO_LARGE, RecordCode.TOO_DEEP}


def _nested(levels: int) -> JSON:
    value: JSON = "x"
    for i in range(levels):
        value = [value] if i % 2 else {"k": value}
    return value


def _near(limit: int, below: int, above: int) -> st.SearchStrategy[int]:
    return st.integers(max(0, limit - below), limit + above)


_SMALL: st.SearchStrategy[JSON] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(MIN_JSON_INT, MAX_JSON_INT)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=5), children, max_size=5)
    ),
    max_leaves=25,
)

#: One value of meta: any small JSON, or one close to a limit of the reader.
_SHAPES: st.SearchStrategy[JSON] = st.one_of(
    _SMALL,
    _near(MAX_JSON_DEPTH, 6, 3).map(_nested),
    _near(MAX_JSON_VALUES, 30, 10).map(lambda n: "," * n),
    _near(MAX_JSON_VALUES, 30, 10).map(lambda n: [0] * n),
    _near(MAX_JSON_VALUES // 2, 15, 5).map(lambda n: {str(i): [] for i in range(n)}),
    _near(MAX_RECORD_BYTES, 400, 50).map(lambda n: "a" * n),
    _near(MAX_RECORD_BYTES // 2, 200, 25).map(lambda n: "é" * n),  # two bytes each
)

_META: st.SearchStrategy[dict[str, JSON]] = st.dictionaries(
    st.text(max_size=4), _SHAPES, max_size=2
)


def _would_write(meta: dict[str, JSON]) -> str:
    """The text the writer writes for a record of ``PLAYERS``, ``ACTIONS`` and ``meta``
    (its layout: the meta line after the players' line), made without its checks."""
    bare = dumps_record(GameRecord(PLAYERS, ACTIONS))
    if not meta:
        return bare
    head, rest = bare.split("\n", 2)[:2], bare.split("\n", 2)[2]
    line = f' "meta": {json.dumps(meta, ensure_ascii=False)},'
    return "\n".join([*head, line, rest])


# Its examples are meant to be large (up to the reader's limits): Hypothesis warns when it
# prints one, which would hide the failure it prints it for.
@pytest.mark.filterwarnings("ignore:Generating overly large repr")
@settings(max_examples=100)  # a few megabytes each: the ci profile's 500 would take minutes
@given(_META)
def test_the_reader_accepts_what_the_writer_accepts_and_no_more(meta: dict[str, JSON]) -> None:
    text = _would_write(meta)
    reader = validate_record(text)
    writer_refused: RecordCode | Reason | None = None
    try:
        record = GameRecord(PLAYERS, ACTIONS, meta)
        written = dumps_record(record)
    except RecordError as refusal:
        writer_refused = refusal.code
    if writer_refused is not None:
        assert not reader.valid, f"the writer refused ({writer_refused}), the reader accepted"
        assert reader.error is not None
        # Each refuses for a limit of the reader (the first it meets, when several are broken).
        assert {reader.error.code, writer_refused} <= _LIMIT_CODES
        event(f"refused: {writer_refused}")
        return
    event("written")
    assert written == text  # the layout above is the writer's
    assert reader.valid, f"the writer wrote what the reader refuses: {reader.error}"
    assert validate_record(record).valid
    assert loads_record(written) == record
    assert reader.record is not None
    assert reader.record.meta == record.meta
