"""Strict JSON: text in, plain values out, with limits that make hostile input harmless.

Also how a JSON value is named in a message (:func:`show`, :func:`kind`, :func:`key_path`)
and a checked private copy of a value a caller hands in (:func:`copy_json`). Every refusal is
a :class:`~high_society.errors.RecordError` with a :class:`~high_society.errors.RecordCode`.
"""

import json
import math
import re
from collections.abc import Iterable, Mapping
from typing import NoReturn, TypeAlias

from high_society._text import describe_int, short_repr
from high_society.errors import RecordCode, RecordError

__all__ = [
    "JSON",
    "MAX_JSON_BYTES",
    "MAX_JSON_DEPTH",
    "MAX_JSON_INT",
    "MAX_JSON_VALUES",
    "MIN_JSON_INT",
    "JSONObject",
    "copy_json",
    "is_text",
    "key_path",
    "kind",
    "parse_json",
    "show",
]

JSON: TypeAlias = "bool | int | float | str | list[JSON] | dict[str, JSON] | None"
"""A plain JSON value, as :func:`json.loads` returns it."""
JSONObject: TypeAlias = "dict[str, JSON]"
"""A JSON object."""

#: The largest JSON text read, in bytes of UTF-8 (8 MiB); checked before parsing.
MAX_JSON_BYTES = 8 * 1024 * 1024
#: The deepest nesting of lists and objects read (a record itself needs 4 levels).
MAX_JSON_DEPTH = 64
#: The most lists, objects and separators (``,``) a JSON text may hold, counted before
#: parsing (those inside strings count too). It bounds the number of values, so the memory
#: a parse takes: a finished game holds a few thousand.
MAX_JSON_VALUES = 100_000
#: The integers read and written: the 64-bit range, which every JSON reader can hold.
MIN_JSON_INT = -(2**63)
#: See :data:`MIN_JSON_INT`.
MAX_JSON_INT = 2**63 - 1

_C = RecordCode


# --- Naming values in messages -------------------------------------------------------------

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def key_path(path: str, key: str) -> str:
    """``$.a`` for a plain key, ``$["odd key"]`` otherwise."""
    if _IDENTIFIER.fullmatch(key):
        return f"{path}.{key}"
    return f"{path}[{show(key)}]"


def show(value: object) -> str:
    """A short rendering of a JSON value for a message, never huge, never raising."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if type(value) is int:
        return describe_int(value)
    if type(value) is float:
        return repr(value)
    if type(value) is str:
        text = json.dumps(value[:40], ensure_ascii=False)
        return text[:-1] + '..."' if len(value) > 40 else text
    return kind(value)


def kind(value: object) -> str:
    """What a value is, in words: ``"an integer"``, ``"a list"``, ``"true"`` ..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return f"the number {short_repr(value)}"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return f"a {short_repr(type(value).__name__)[1:-1]}"


def is_text(text: str) -> bool:
    """False for a string holding a lone surrogate, which UTF-8 cannot encode."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


# --- Reading JSON text ---------------------------------------------------------------------


class _DuplicateKeyError(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


class _BadConstantError(Exception):
    def __init__(self, name: str) -> None:
        self.name = name


class _BadNumberError(Exception):
    def __init__(self, text: str, why: str) -> None:
        self.text = text
        self.why = why


def _pairs(pairs: list[tuple[str, JSON]]) -> JSONObject:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKeyError(key)
            seen.add(key)
    return obj


def _constant(name: str) -> NoReturn:
    raise _BadConstantError(name)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _BadNumberError(text, "is too large for a float")
    return value


def parse_json(data: str | bytes, *, limit: int = MAX_JSON_BYTES) -> JSON:
    """Parse JSON text strictly, with limits that make hostile input harmless.

    The size and the number of values (:data:`MAX_JSON_VALUES`) are checked before parsing;
    nesting, integers outside 64 bits (Python itself refuses to convert more than 4,300
    digits), infinite floats, duplicate keys and lone surrogates are refused. Nothing but
    :class:`~high_society.RecordError` escapes.

    >>> parse_json('{"a": [1, 2.5, null]}')
    {'a': [1, 2.5, None]}
    >>> parse_json('{"a": 1, "a": 2}')
    Traceback (most recent call last):
    high_society.errors.RecordError: DUPLICATE_KEY at $: the key "a" appears twice in one object

    Raises:
        RecordError: codes ``WRONG_TYPE`` (``data`` is not ``str`` or ``bytes``),
            ``TOO_LARGE``, ``NOT_UTF8``, ``NOT_JSON``, ``TOO_DEEP``, ``BAD_NUMBER`` or
            ``DUPLICATE_KEY``; ``index`` is ``None`` and ``path`` is ``$``.
    """
    if isinstance(data, str):
        if len(data) > limit:
            raise RecordError(_C.TOO_LARGE, _too_large(limit))
        try:
            raw = data.encode("utf-8")
        except UnicodeEncodeError as error:
            raise RecordError(
                _C.NOT_UTF8, f"character {error.start} is a lone surrogate, not Unicode text"
            ) from None
    elif isinstance(data, bytes | bytearray):
        raw = bytes(data)
    else:  # bytes(n) would allocate n bytes; a file object, None ... are mistakes
        raise RecordError(_C.WRONG_TYPE, f"JSON text must be str or bytes, not {kind(data)}")
    if len(raw) > limit:
        raise RecordError(_C.TOO_LARGE, _too_large(limit))
    values = raw.count(b",") + raw.count(b"[") + raw.count(b"{")
    if values > MAX_JSON_VALUES:
        raise RecordError(
            _C.TOO_LARGE,
            f"the input holds {values:,} lists, objects and commas, more than the limit of"
            f" {MAX_JSON_VALUES:,}",
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RecordError(_C.NOT_UTF8, f"byte {error.start} is not UTF-8 text") from None
    del raw
    if not text.strip():
        raise RecordError(_C.NOT_JSON, "the input is empty")
    try:
        value: JSON = json.loads(
            text,
            object_pairs_hook=_pairs,
            parse_constant=_constant,
            parse_float=_float,
        )
    except RecursionError:
        raise RecordError(_C.TOO_DEEP, _too_deep()) from None
    except json.JSONDecodeError as error:
        raise RecordError(
            _C.NOT_JSON, f"not JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None
    except _DuplicateKeyError as error:
        raise RecordError(
            _C.DUPLICATE_KEY, f"the key {show(error.key)} appears twice in one object"
        ) from None
    except _BadConstantError as error:
        raise RecordError(_C.NOT_JSON, f"not JSON: {error.name} is not a JSON number") from None
    except _BadNumberError as error:
        number = error.text if len(error.text) <= 40 else error.text[:37] + "..."
        raise RecordError(_C.BAD_NUMBER, f"the number {number} {error.why}") from None
    except ValueError:  # Python's limit on the digits of an int (4,300), far beyond 64 bits
        raise RecordError(_C.BAD_NUMBER, _outside(None)) from None
    _check_tree(value, text)
    return value


def _too_large(limit: int) -> str:
    return f"the input is larger than the limit of {limit:,} bytes"


def _too_deep() -> str:
    return f"lists and objects nest deeper than the limit of {MAX_JSON_DEPTH} levels"


def _outside(number: int | None) -> str:
    shown = "an integer of more than 4,300 digits" if number is None else describe_int(number)
    return f"the number {shown} is outside the 64-bit range of integers"


#: A ``\\uD800``-``\\uDFFF`` escape: only text holding one can decode to a lone surrogate.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _check_tree(value: JSON, text: str) -> None:
    """Depth, integers beyond 64 bits and lone surrogates, without recursion (the value may
    be large). The strings are only looked at when the text has a surrogate escape at all,
    which is rare."""
    strings = _SURROGATE_ESCAPE.search(text) is not None
    if isinstance(value, str) and strings:
        _check_text(value)
    if type(value) is int and not MIN_JSON_INT <= value <= MAX_JSON_INT:
        raise RecordError(_C.BAD_NUMBER, _outside(value))
    stack: list[tuple[JSON, int]] = [(value, 0)] if isinstance(value, list | dict) else []
    while stack:
        item, depth = stack.pop()
        if depth >= MAX_JSON_DEPTH:
            raise RecordError(_C.TOO_DEEP, _too_deep())
        children: Iterable[JSON]
        if isinstance(item, dict):
            if strings:
                for key in item:
                    _check_text(key)
            children = item.values()
        else:
            assert isinstance(item, list)
            children = item
        for child in children:
            child_type = type(child)
            if child_type is dict or child_type is list:
                stack.append((child, depth + 1))
            elif type(child) is int:
                if not MIN_JSON_INT <= child <= MAX_JSON_INT:
                    raise RecordError(_C.BAD_NUMBER, _outside(child))
            elif strings and type(child) is str:
                _check_text(child)


def _check_text(text: str) -> None:
    if not is_text(text):
        raise RecordError(
            _C.NOT_UTF8, "a string holds a lone surrogate escape, which is not Unicode text"
        )


# --- Values handed in by a caller ----------------------------------------------------------


def copy_json(value: object, path: str) -> JSON:
    """A private deep copy of a JSON value a caller handed in, refusing anything the reader
    would refuse: non-JSON types, non-string keys, lone surrogates, infinite floats,
    integers outside 64 bits, more than :data:`MAX_JSON_VALUES` values, nesting deeper than
    :data:`MAX_JSON_DEPTH`.

    Raises:
        RecordError: ``WRONG_TYPE``, ``NOT_UTF8``, ``BAD_NUMBER``, ``TOO_LARGE`` or
            ``TOO_DEEP``, at the offending value's ``path``.
    """
    budget = [MAX_JSON_VALUES]
    return _copy(value, path, 0, budget)


def _copy(value: object, path: str, depth: int, budget: list[int]) -> JSON:
    budget[0] -= 1
    if budget[0] < 0:
        raise RecordError(
            _C.TOO_LARGE, f"more than {MAX_JSON_VALUES:,} values (MAX_JSON_VALUES)", path=path
        )
    if value is None or type(value) is bool:
        return value
    if type(value) is int:
        if not MIN_JSON_INT <= value <= MAX_JSON_INT:
            raise RecordError(
                _C.BAD_NUMBER, f"{describe_int(value)} is outside the 64-bit range", path=path
            )
        return value
    if type(value) is str:
        if not is_text(value):
            raise RecordError(_C.NOT_UTF8, "a string holds a lone surrogate", path=path)
        return value
    if type(value) is float:
        if not math.isfinite(value):
            raise RecordError(_C.BAD_NUMBER, f"{short_repr(value)} is not a JSON number", path=path)
        return value
    if depth >= MAX_JSON_DEPTH:
        raise RecordError(
            _C.TOO_DEEP, f"values nest deeper than {MAX_JSON_DEPTH} levels", path=path
        )
    if type(value) is list or type(value) is tuple:
        return [_copy(item, f"{path}[{i}]", depth + 1, budget) for i, item in enumerate(value)]
    if type(value) is dict or isinstance(value, Mapping):
        copy: JSONObject = {}
        for key, item in value.items():
            if type(key) is not str:
                raise RecordError(
                    _C.WRONG_TYPE, f"a key must be a string, not {short_repr(key)}", path=path
                )
            if not is_text(key):
                raise RecordError(_C.NOT_UTF8, "a key holds a lone surrogate", path=path)
            copy[key] = _copy(item, key_path(path, key), depth + 1, budget)
        return copy
    raise RecordError(_C.WRONG_TYPE, f"{kind(value)} is not a JSON value", path=path)
