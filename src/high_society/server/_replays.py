"""A recorded game as the page replays it: the library's verdict on the record, as
``high-society validate`` gives it, and for its valid part (the actions before the first
one refused) what a viewer is shown after each action, as a spectator sees the table.
The rules stay the library's: the page only steps through what this answers.
"""

from high_society.errors import RecordError
from high_society.record import validate_record
from high_society.serial import JSONObject, parse_json
from high_society.server._encoding import fast_json
from high_society.table import Seat, replay_steps, spectator_payload

__all__ = ["MAX_REPLAY_BYTES", "replayed"]

#: The largest record the server replays, in bytes: a whole game in any layout, with room
#: for a table's ``meta`` (:data:`high_society.table.MAX_META_BYTES`).
MAX_REPLAY_BYTES = 256 * 1024


def replayed(data: bytes) -> bytes:
    """The answer to a replay of the record ``data`` (JSON): ``valid``, ``finished``,
    ``error`` (``index``, ``path``, ``code``, ``message``, or ``null``), the ``steps`` of
    its valid actions (:func:`~high_society.table.replay_steps`) and the spectator payload
    after them (``final``, ``null`` when not even its players could be read)."""
    validation = validate_record(data)
    error = validation.error
    record = validation.record
    if record is None and error is not None and error.index is not None:
        record = validate_record(_prefix(data, error.index)).record
    answer: JSONObject = {
        "valid": validation.valid,
        "finished": validation.finished,
        "error": None if error is None else _problem(error),
        "steps": [],
        "final": None,
    }
    if record is not None:
        seats = [Seat(name) for name in record.players]
        actions = record.actions
        answer["steps"] = [*replay_steps(actions, seats)]
        answer["final"] = spectator_payload(actions, seats, since=len(actions))
    return fast_json(answer)


def _problem(error: RecordError) -> JSONObject:
    """A refusal as ``high-society validate --json`` tells it."""
    return {
        "index": error.index,
        "path": error.path,
        "code": error.code.value,
        "message": error.message,
    }


def _prefix(data: bytes, end: int) -> bytes:
    """The record ``data`` with its actions from number ``end`` on left out (a record
    refused at action ``end`` has been read whole as JSON)."""
    try:
        value = parse_json(data, limit=MAX_REPLAY_BYTES)
    except RecordError:
        return b""
    actions = value.get("actions") if isinstance(value, dict) else None
    if not isinstance(value, dict) or not isinstance(actions, list):
        return b""
    return fast_json({**value, "actions": actions[:end]})
