"""JSON for the server's answers and events: orjson's encoder where the server extra
installs it (CPython), several times faster than the standard library's, else the
standard library's. Both give the same text for what the server sends."""

import json
from collections.abc import Callable
from typing import Any

from starlette.responses import Response

__all__ = ["fast_json", "json_answer", "stdlib_json"]


def stdlib_json(value: object) -> bytes:
    """JSON text (UTF-8) of a value, by the standard library."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


#: JSON text (UTF-8) of a value.
fast_json: Callable[[Any], bytes]
try:
    from orjson import dumps as fast_json
except ImportError:  # pragma: no cover (the server extra installs orjson on CPython)
    fast_json = stdlib_json


def json_answer(value: object, status: int = 200) -> Response:
    """An answer of JSON ``value``."""
    return Response(fast_json(value), status, media_type="application/json")
