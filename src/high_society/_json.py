"""Strict JSON: text in, plain values out, with limits that make hostile input harmless.

Also how a JSON value is named in a message (:func:`show`, :func:`kind`, :func:`key_path`)
and a checked private copy of a value a caller hands in (:func:`copy_json`). Every refusal is
a :class:`~high_society.errors.RecordError` with a :class:`~high_society.errors.RecordCode`.
"""

import json
import math
import re
from collections.abc import Callable, Iterable, Mapping
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
    "check_text_limits",
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
    check_text_limits(raw, limit)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RecordError(_C.NOT_UTF8, f"byte {error.start} is not UTF-8 text") from None
    del raw
    if not text.strip():
        raise RecordError(_C.NOT_JSON, "the input is empty")
    try:
        try:
            value: JSON = _loads(text, int)
        except ValueError as error:
            if isinstance(error, json.JSONDecodeError) or "digits" not in str(error):
                raise
            # Python's limit on the digits of an int (4,300), far beyond 64 bits: read again,
            # keeping such a number as a marker, so that the refusal can say where it is.
            value = _loads(text, _long_int)
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
    _check_tree(value, text)
    return value


def check_text_limits(raw: bytes, limit: int = MAX_JSON_BYTES) -> None:
    """The limits on JSON text checked before parsing: at most ``limit`` bytes and
    :data:`MAX_JSON_VALUES` lists, objects and commas (those inside strings count too).
    The reader checks what it reads with it and the record writer what it writes, so that
    the one accepts whatever the other does.

    Raises:
        RecordError: ``TOO_LARGE`` at ``$``.
    """
    if len(raw) > limit:
        raise RecordError(_C.TOO_LARGE, _too_large(limit))
    values = raw.count(b",") + raw.count(b"[") + raw.count(b"{")
    if values > MAX_JSON_VALUES:
        raise RecordError(
            _C.TOO_LARGE,
            f"the input holds {values:,} lists, objects and commas, more than the limit of"
            f" {MAX_JSON_VALUES:,}",
        )


def _loads(text: str, parse_int: Callable[[str], object]) -> JSON:
    value: JSON = json.loads(
        text,
        object_pairs_hook=_pairs,
        parse_constant=_constant,
        parse_float=_float,
        parse_int=parse_int,
    )
    return value


class _LongInt:
    """An integer too long for Python to convert (more than 4,300 digits): its length."""

    __slots__ = ("digits",)

    def __init__(self, digits: int) -> None:
        self.digits = digits


def _long_int(text: str) -> object:
    digits = len(text.lstrip("-"))
    return _LongInt(digits) if digits > 4000 else int(text)


def _too_large(limit: int) -> str:
    return f"the input is larger than the limit of {limit:,} bytes"


def _too_deep() -> str:
    return f"lists and objects nest deeper than the limit of {MAX_JSON_DEPTH} levels"


def _outside(number: object) -> str:
    if isinstance(number, _LongInt):
        shown = f"an integer of {number.digits:,} digits"
    else:
        assert isinstance(number, int)
        shown = f"the number {describe_int(number)}"
    return f"{shown} is outside the 64-bit range of integers"


#: A ``\\uD800``-``\\uDFFF`` escape: only text holding one can decode to a lone surrogate.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _check_tree(value: JSON, text: str) -> None:
    """Depth, integers beyond 64 bits and lone surrogates, without recursion (the value may
    be large). The strings are only looked at when the text has a surrogate escape at all,
    which is rare. A refusal names the place of the offending value (:func:`_locate`)."""
    strings = _SURROGATE_ESCAPE.search(text) is not None
    if _bad_leaf(value, strings):
        _refuse_leaf(value, "$")
    stack: list[tuple[JSON, int]] = [(value, 0)] if isinstance(value, list | dict) else []
    while stack:
        item, depth = stack.pop()
        if depth >= MAX_JSON_DEPTH:
            _locate(value, strings)
        children: Iterable[JSON]
        if isinstance(item, dict):
            if strings and not all(is_text(key) for key in item):
                _locate(value, strings)
            children = item.values()
        else:
            assert isinstance(item, list)
            children = item
        for child in children:
            child_type: type = type(child)
            if child_type is dict or child_type is list:
                stack.append((child, depth + 1))
            elif child_type is int:
                if not MIN_JSON_INT <= child <= MAX_JSON_INT:  # type: ignore[operator]
                    _locate(value, strings)
            elif (child_type is _LongInt or (strings and child_type is str)) and _bad_leaf(
                child, strings
            ):
                _locate(value, strings)


def _bad_leaf(value: object, strings: bool) -> bool:
    if type(value) is int:
        return not MIN_JSON_INT <= value <= MAX_JSON_INT
    if type(value) is str:
        return strings and not is_text(value)
    return type(value) is _LongInt


def _refuse_leaf(value: object, path: str) -> NoReturn:
    if type(value) is str:
        raise RecordError(
            _C.NOT_UTF8,
            "a string holds a lone surrogate escape, which is not Unicode text",
            path=path,
        )
    raise RecordError(_C.BAD_NUMBER, _outside(value), path=path)


def _locate(value: JSON, strings: bool) -> NoReturn:
    """Raise the refusal of the first offending value of ``value`` in document order, at
    its JSON path (a second walk, made only once something is known to be wrong)."""
    stack: list[tuple[object, str, int]] = [(value, "$", 0)]
    while stack:
        item, path, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth >= MAX_JSON_DEPTH:
                raise RecordError(_C.TOO_DEEP, _too_deep(), path=path)
            if isinstance(item, dict):
                for key in item:
                    if strings and not is_text(key):
                        raise RecordError(
                            _C.NOT_UTF8,
                            "a key holds a lone surrogate escape, which is not Unicode text",
                            path=path,
                        )
                pairs = [(child, key_path(path, key)) for key, child in item.items()]
            else:
                pairs = [(child, f"{path}[{i}]") for i, child in enumerate(item)]
            stack.extend((child, where, depth + 1) for child, where in reversed(pairs))
        elif _bad_leaf(item, strings):
            _refuse_leaf(item, path)
    # Unreachable (the caller found something wrong); a refusal all the same.
    raise RecordError(_C.BAD_NUMBER, "a value is outside the limits of the reader")


def _check_text(text: str) -> None:
    if not is_text(text):
        raise RecordError(
            _C.NOT_UTF8, "a string holds a lone surrogate escape, which is not Unicode text"
        )


# --- Values handed in by a caller ----------------------------------------------------------


def copy_json(value: object, path: str, depth: int = 0) -> JSON:
    """A private deep copy of a JSON value a caller handed in, refusing anything the reader
    would refuse: non-JSON types, non-string keys, lone surrogates, infinite floats,
    integers outside 64 bits, more than :data:`MAX_JSON_VALUES` values, nesting deeper than
    :data:`MAX_JSON_DEPTH` counted from the top of the document, where the value sits
    ``depth`` levels down (a record's ``meta``: 1). The size of the text it makes is
    checked where the text is made (:func:`check_text_limits`).

    Raises:
        RecordError: ``WRONG_TYPE``, ``NOT_UTF8``, ``BAD_NUMBER``, ``TOO_LARGE`` or
            ``TOO_DEEP``, at the offending value's ``path``.
    """
    budget = [MAX_JSON_VALUES]
    return _copy(value, path, depth, budget)


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
