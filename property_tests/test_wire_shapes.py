"""A wire shape's reader and its JSON Schema say the same (``high_society.wire``, built of
``high_society._shapes``): on values built near each request shape (valid ones, and each
with one fault: a key dropped or added, a value of another type, a number past its bound,
a list too long), the reader takes a value exactly when the shape's schema does, but for
the few rules a schema cannot state, each refused with its own documented code. So the
OpenAPI document, made of these schemas, promises what the server takes."""

import functools
from collections.abc import Iterator
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # no stubs; a dev dependency only
import pytest
import referencing
from hypothesis import given, settings
from hypothesis import strategies as st

from high_society import wire
from high_society._shapes import (
    AnyOf,
    Array,
    Boolean,
    Choice,
    Const,
    External,
    Form,
    Integer,
    Named,
    Null,
    Nullable,
    Number,
    Object,
    Shape,
    String,
    Tagged,
)
from high_society.errors import RecordError
from high_society.record import action_schema, record_schema

#: What a request's reader refuses that its schema cannot say (each says it in words, in
#: its shape's description): a name with no visible character, two seats with the same
#: name, a table with no person; a clock with both a time per move and a bank.
BEYOND_SCHEMA = {
    "BAD_PLAYERS": ("visible character", "the same name", "needs a person"),
    "BAD_NUMBER": ("not both",),
}

_REGISTRY = referencing.Registry().with_resources(
    (str(schema["$id"]), referencing.Resource.from_contents(schema))
    for schema in (action_schema(), record_schema())
)


def _valid(shape: Shape[Any]) -> st.SearchStrategy[Any]:
    """Values the shape takes."""
    match shape:
        case Named() | Nullable() if isinstance(shape, Named):
            return _valid(shape.shape)
        case Nullable():
            return st.none() | _valid(shape.shape)
        case Integer():
            low = shape.minimum if shape.minimum is not None else -(2**40)
            high = shape.maximum if shape.maximum is not None else 2**40
            return st.integers(low, high)
        case String():
            return st.text(
                st.characters(categories=("L", "N")),
                min_size=max(1, shape.min_length),
                max_size=min(20, shape.max_length or 20),
            )
        case Choice():
            return st.sampled_from(shape.values).map(lambda v: getattr(v, "value", v))
        case Const():
            return st.just(shape.value)
        case Boolean():
            return st.booleans()
        case Null():
            return st.none()
        case Number():
            return st.integers(-100, 100) | st.floats(-100, 100, allow_nan=False)
        case AnyOf():
            return st.one_of(*(_valid(s) for s in shape.shapes))
        case Array():
            most = shape.max_items if shape.max_items is not None else 4
            items = st.lists(_valid(shape.items), min_size=shape.min_items, max_size=most)
            return items.filter(lambda v: not shape.unique or len(set(map(repr, v))) == len(v))
        case Object():
            optional = {k: _valid(f.shape) for k, f in shape.fields.items() if not f.required}
            return st.fixed_dictionaries(
                {k: _valid(f.shape) for k, f in shape.fields.items() if f.required},
                optional=optional,
            )
        case Tagged():
            return st.one_of(*(_valid(form) for form in shape.forms.values()))
        case External() | Form():
            return st.sampled_from(_ACTIONS)
    raise AssertionError(f"no strategy for {shape!r}")


_ACTIONS: list[Any] = [
    {"type": "pass", "player": 1},
    {"type": "bid", "player": 0, "cards": [1, 25]},
    {"type": "discard", "player": 2, "card": "luxury-3"},
    {"type": "reveal", "card": "prestige"},
]

#: What a value is replaced by, at each place: every JSON type, numbers past any bound.
_OTHERS: list[Any] = [None, True, 0, -1, 2**70, 1.5, "", "x", [], [1], {}, {"k": 1}]


def _faults(value: Any) -> Iterator[Any]:
    """``value`` with each one fault, everywhere in it: a key dropped, added or given
    another value, an item changed, a list too long, a number moved past a bound, any
    value replaced by one of another type."""
    yield from _OTHERS
    if isinstance(value, dict):
        yield {**value, "unknown": 1}
        for key, item in value.items():
            yield {k: v for k, v in value.items() if k != key}
            for fault in _faults(item):
                yield {**value, key: fault}
    elif isinstance(value, list):
        yield value * 3 + value + [value[0]] if value else value
        for at, item in enumerate(value):
            for fault in _faults(item):
                yield [*value[:at], fault, *value[at + 1 :]]
    elif isinstance(value, int) and not isinstance(value, bool):
        yield from (value + step for step in (-(10**12), -1, 1, 10**12))


@functools.cache
def _validator(shape: Named[Any]) -> Any:
    return jsonschema.Draft202012Validator(wire.json_schema(shape), registry=_REGISTRY)


def _refusal(shape: Named[Any], value: Any) -> RecordError | None:
    """Why ``shape``'s reader refuses ``value``, or ``None`` when it reads it."""
    try:
        shape.read(value)
    except RecordError as error:
        return error
    return None


def _agree(shape: Named[Any], value: Any) -> None:
    valid = _validator(shape).is_valid(value)
    refused = _refusal(shape, value)
    if not valid:
        assert refused is not None, value
    elif refused is not None:
        rules = BEYOND_SCHEMA.get(refused.code.value, ())
        assert any(rule in refused.message for rule in rules), (value, refused)


def _agrees_with_every_fault(shape: Named[Any], data: st.DataObject) -> None:
    """A value the shape takes, and each of its one-fault variants: read exactly when the
    schema takes it."""
    value = data.draw(_valid(shape.shape))
    _agree(shape, value)
    for fault in _faults(value):
        _agree(shape, fault)


@pytest.mark.parametrize("shape", [wire.MOVE, wire.NEW_TABLE, wire.JOIN_TABLE], ids=str)
@settings(max_examples=60)
@given(data=st.data())
def test_a_request_is_read_exactly_when_its_schema_takes_it(
    shape: Named[Any], data: st.DataObject
) -> None:
    _agrees_with_every_fault(shape, data)


@settings(max_examples=60)
@given(st.data())
def test_a_payload_shaped_value_is_read_exactly_when_its_schema_takes_it(
    data: st.DataObject,
) -> None:
    # The readers of what is sent are the tests' own: they too agree with the schemas.
    for shape in (wire.TABLE_INFO, wire.MOVE_ACCEPTED, wire.ERROR, wire.PUBLIC_PLAYER):
        _agrees_with_every_fault(shape, data)
