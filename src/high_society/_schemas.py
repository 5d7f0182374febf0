"""The JSON Schemas of format v1, shipped in the package (``schemas/*.json``).

The public entry is :mod:`high_society.record`.
"""

import json
from importlib import resources

from high_society._json import JSONObject

__all__ = ["action_schema", "record_schema"]


def _schema(name: str) -> JSONObject:
    text = resources.files("high_society").joinpath("schemas", name).read_text("utf-8")
    value: JSONObject = json.loads(text)
    return value


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
