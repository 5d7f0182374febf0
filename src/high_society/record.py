"""Recorded games, format v1: read, write, replay and validate.

A record is the players' names in seat order and every action of the game, reveals included
(a saved game is its action history). It is JSON::

    {"format": "high-society", "version": 1,
     "players": ["Ada", "Ben", "Cy"],
     "meta": {"event": "club night"},
     "actions": [
      {"type": "reveal", "card": "luxury-7"},
      {"type": "bid", "player": 0, "cards": [1, 3]}]}

:func:`replay` raises on the first problem; :func:`validate_record` and
:func:`validate_file` report it in a :class:`Validation` instead. A host fills a
:class:`RecordWriter` as it plays. The docs page "Recorded games" describes every field and
code, and the bounds that keep hostile files harmless; the JSON Schemas are
:func:`record_schema` and :func:`action_schema`. Every error is a
:class:`~high_society.RecordError` with a :class:`~high_society.RecordCode` (or, for
an illegal action, the engine's :class:`~high_society.Reason`).

>>> from high_society import Reveal, StatusCard, Bid
>>> from high_society.record import RecordWriter, dumps_record, validate_record
>>> writer = RecordWriter(["Ada", "Ben", "Cy"])
>>> _ = writer.add(Reveal(StatusCard.LUXURY_7))
>>> _ = writer.add(Bid(0, frozenset({1, 3})))
>>> text = dumps_record(writer.record())
>>> validation = validate_record(text)
>>> validation.valid, validation.finished, validation.action_count
(True, False, 2)
"""

# The implementation lives in internal modules, one job each: _records (the record, its
# text, replay, validation, the writer) and _files (reading and safe writing). The JSON
# Schemas are read here.
import json
import os
import warnings
from importlib import resources
from typing import cast

import high_society._files as files_impl
import high_society._records as records_impl
from high_society._files import read_record, validate_file
from high_society._records import (
    GameRecord,
    RecordWriter,
    Validation,
    dumps_record,
    loads_record,
    record_from_json,
    record_to_json,
    replay,
    validate_record,
)
from high_society.errors import RecordCode, RecordError
from high_society.serial import JSONObject

# The constants are named again here, so that the docs show what each one means.

#: The value of the ``format`` key: ``"high-society"``.
FORMAT = records_impl.FORMAT
#: The format version this library reads and writes: ``1``.
VERSION = records_impl.VERSION
#: The largest record read, in bytes (8 MiB); a finished game takes a few kilobytes.
MAX_RECORD_BYTES = records_impl.MAX_RECORD_BYTES
#: The longest player's name, in characters (64).
MAX_NAME_LENGTH = records_impl.MAX_NAME_LENGTH

__all__ = [
    "FORMAT",
    "MAX_NAME_LENGTH",
    "MAX_RECORD_BYTES",
    "VERSION",
    "GameRecord",
    "RecordWriter",
    "Validation",
    "action_schema",
    "dumps_record",
    "loads_record",
    "read_record",
    "record_from_json",
    "record_schema",
    "record_to_json",
    "replay",
    "validate_file",
    "validate_record",
    "write_record",
]


def write_record(path: "str | os.PathLike[str]", record: GameRecord) -> None:
    """Write ``record`` to the file at ``path``, all or nothing: a temporary file in the same
    directory, flushed to disk, is renamed over ``path`` once complete, so a failure leaves
    no partial file. Only a regular file is replaced, or a new one made: a FIFO, a device, a
    directory or a symbolic link at ``path`` is refused, since renaming over it would
    replace it with a file. The path comes first, as in :func:`read_record` and
    :func:`validate_file`; the old order, ``write_record(record, path)``, still works and
    warns (:class:`DeprecationWarning`).

    Raises:
        RecordError: ``WRONG_TYPE`` (``record`` is not a :class:`GameRecord`), or
            ``UNWRITABLE``: ``path`` is not a regular file or a new name (a directory, a
            FIFO, a device, a symbolic link), or the system refused; the message names
            ``path``. Nothing was changed.
    """
    target: object = path
    given: object = record
    if isinstance(target, GameRecord) and not isinstance(given, GameRecord):
        warnings.warn(
            "write_record(record, path) is deprecated: write_record(path, record), as "
            "read_record(path) and validate_file(path)",
            DeprecationWarning,
            stacklevel=2,
        )
        target, given = given, target
    if not isinstance(given, GameRecord):
        raise RecordError(RecordCode.WRONG_TYPE, "write_record(path, record) needs a GameRecord")
    files_impl.write_record(given, cast("str | os.PathLike[str]", target))


def record_schema() -> JSONObject:
    """The JSON Schema (draft 2020-12) of a v1 record, shipped in the package.

    It sees the form of a record, not the legality of its actions; see the docs for what
    only the library checks (``3.0`` where an integer is due, seats beyond the players ...).

    >>> record_schema()["$id"]
    'urn:high-society:record:v1'
    """
    return _schema("record-v1.json")


def action_schema() -> JSONObject:
    """The JSON Schema (draft 2020-12) of one v1 action, shipped in the package.

    >>> action_schema()["$id"]
    'urn:high-society:action:v1'
    """
    return _schema("action-v1.json")


def _schema(name: str) -> JSONObject:
    """A schema of the package's ``schemas`` folder."""
    text = resources.files("high_society").joinpath("schemas", name).read_text("utf-8")
    value: JSONObject = json.loads(text)
    return value
