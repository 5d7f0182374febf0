"""Actions, states and results as plain JSON values, and strict JSON reading.

A server sends states and actions to a browser as JSON; these functions turn them into
plain values (``dict``, ``list``, ``str``, ``int``, ``bool``, ``None``) that :func:`json.dumps`
writes as they are, and back. Round trips give equal values:
``action_from_json(action_to_json(a)) == a`` and ``state_from_json(state_to_json(s)) == s``.

Reading is strict, because the values come from outside: ``true`` and ``3.0`` are not
integers, unknown keys are refused at every level, integers must fit 64 bits, a config must
be within the bounds of :class:`~high_society.GameConfig`, and a state that breaks an
invariant (:func:`~high_society.invariants.state_problems`) is refused. Every refusal is a
:class:`~high_society.RecordError` naming the place (a JSON path) and a stable
:class:`~high_society.RecordCode`. :func:`parse_json` reads JSON text with limits
on size, values and depth.

>>> from high_society import Bid
>>> from high_society.serial import action_from_json, action_to_json
>>> action_to_json(Bid(1, frozenset({3, 1})))
{'type': 'bid', 'player': 1, 'cards': [1, 3]}
>>> action_from_json({"type": "pass", "player": 2})
Pass(seat=2)
"""

# The implementation lives in internal modules, one job each: _json (strict JSON text),
# _fields (typed fields of parsed JSON), _convert (actions, states and results).
from typing import TypeAlias

import high_society._json as json_impl
from high_society._convert import (
    action_from_json,
    action_to_json,
    error_code,
    error_to_json,
    result_to_json,
    score_to_json,
    state_from_json,
    state_to_json,
)
from high_society._json import parse_json

# The types and limits are named again here, so that the docs show what each one means.

JSON: TypeAlias = json_impl.JSON
"""A plain JSON value, as :func:`json.loads` returns it."""
JSONObject: TypeAlias = json_impl.JSONObject
"""A JSON object."""

#: The largest JSON text read, in bytes of UTF-8 (8 MiB); checked before parsing.
MAX_JSON_BYTES = json_impl.MAX_JSON_BYTES
#: The deepest nesting of lists and objects read (64; a record itself needs 4 levels).
MAX_JSON_DEPTH = json_impl.MAX_JSON_DEPTH
#: The most lists, objects and separators (``,``) a JSON text may hold (100,000), counted
#: before parsing; those inside strings count too. It bounds the number of values a parse
#: makes, so its memory: a finished game holds a few thousand.
MAX_JSON_VALUES = json_impl.MAX_JSON_VALUES
#: The smallest integer read or written, ``-2**63``: integers must fit 64 bits, which every
#: JSON reader can hold.
MIN_JSON_INT = json_impl.MIN_JSON_INT
#: The largest integer read or written, ``2**63 - 1``.
MAX_JSON_INT = json_impl.MAX_JSON_INT

__all__ = [
    "JSON",
    "MAX_JSON_BYTES",
    "MAX_JSON_DEPTH",
    "MAX_JSON_INT",
    "MAX_JSON_VALUES",
    "MIN_JSON_INT",
    "JSONObject",
    "action_from_json",
    "action_to_json",
    "error_code",
    "error_to_json",
    "parse_json",
    "result_to_json",
    "score_to_json",
    "state_from_json",
    "state_to_json",
]
