"""Reading requests at the edge: bodies, tokens, numbers and the JSON of each request,
bounded and strict, before anything reaches the master. What is refused here is answered
with :class:`~high_society.server._errors.ApiError` (``malformed``, ``too_large``,
``unauthorized``) and changes nothing.
"""

import asyncio
from collections.abc import Sequence
from typing import Any

from starlette.requests import Request

from high_society.cards import MAX_PLAYERS, MIN_PLAYERS
from high_society.errors import RecordError
from high_society.serial import parse_json
from high_society.server._bots import BOTS
from high_society.server._errors import ApiError, ErrorKind, malformed
from high_society.server._master import SeatSpec
from high_society.table import MAX_MOVE_BYTES, Move, check_name, read_move

__all__ = [
    "MAX_BODY_BYTES",
    "MAX_NUMBER_DIGITS",
    "header",
    "join_name",
    "move",
    "read_body",
    "seat_specs",
    "since",
    "token",
]

#: The largest request body read, in bytes.
MAX_BODY_BYTES = 4096
#: The most digits a number from a client has (``since``, ``Last-Event-ID``).
MAX_NUMBER_DIGITS = 9


def header(request: Request, name: bytes) -> str | None:
    """A request header's first value, ``name`` in lower case (as ASGI servers give them):
    a scan of the few raw headers, cheaper than building the request's header mapping."""
    for key, value in request.scope["headers"]:
        if key == name:
            text: str = value.decode("latin-1")
            return text
    return None


def _too_large(limit: int) -> ApiError:
    return ApiError(ErrorKind.TOO_LARGE, "TOO_LARGE", f"a request body holds at most {limit} bytes")


async def read_body(request: Request, limit: int = MAX_BODY_BYTES, seconds: float = 10.0) -> bytes:
    """The request's JSON body: declared ``application/json`` (a cross-site form cannot
    send that without the browser asking first, which this server never allows), refused
    past ``limit`` bytes before more is read, and whole within ``seconds``."""
    kind = (header(request, b"content-type") or "").partition(";")[0].strip().lower()
    if kind != "application/json":
        raise ApiError(
            ErrorKind.WRONG_MEDIA_TYPE,
            "NOT_APPLICATION_JSON",
            "send the body as JSON: Content-Type: application/json",
        )
    declared = header(request, b"content-length")
    if declared is not None and (_number(declared) is None or int(declared) > limit):
        raise _too_large(limit)
    data = bytearray()
    try:
        async with asyncio.timeout(seconds):
            async for chunk in request.stream():
                data += chunk
                if len(data) > limit:
                    raise _too_large(limit)
    except TimeoutError:
        raise ApiError(
            ErrorKind.TOO_SLOW, "BODY_TOO_SLOW", f"a request body must arrive within {seconds:g} s"
        ) from None
    return bytes(data)


def _number(text: str) -> int | None:
    """``text`` as a whole number of ASCII digits, at most :data:`MAX_NUMBER_DIGITS`
    (``str.isdigit`` also takes ``²`` and other digits that ``int`` refuses)."""
    if not 0 < len(text) <= MAX_NUMBER_DIGITS or not text.isascii() or not text.isdigit():
        return None
    return int(text)


def since(request: Request) -> int:
    """The first action of the history wanted: ``?since=N``, else the ``Last-Event-ID``
    header (a reconnecting event stream's), else 0."""
    text = request.query_params.get("since")
    if text is None:
        text = header(request, b"last-event-id")
    if text is None or text == "":
        return 0
    number = _number(text)
    if number is None:
        raise ApiError(
            ErrorKind.MALFORMED,
            "WRONG_TYPE",
            f"since must be a whole number of at most {MAX_NUMBER_DIGITS} digits",
            "$.since",
        )
    return number


def token(request: Request) -> str:
    """The seat's token, from ``Authorization: Bearer TOKEN``."""
    scheme, _, given = (header(request, b"authorization") or "").partition(" ")
    if scheme.lower() != "bearer" or not given.strip():
        raise ApiError(
            ErrorKind.UNAUTHORIZED,
            "NO_TOKEN",
            "send the seat's token: Authorization: Bearer TOKEN",
        )
    return given.strip()


def _json_object(data: bytes) -> dict[str, Any]:
    try:
        value = parse_json(data, limit=MAX_BODY_BYTES)
    except RecordError as error:
        raise malformed(error) from None
    if type(value) is not dict:
        raise ApiError(ErrorKind.MALFORMED, "WRONG_TYPE", "the body must be a JSON object")
    return value


def _keys(obj: dict[str, Any], path: str, required: Sequence[str]) -> None:
    for key in obj:
        if key not in required:
            raise ApiError(
                ErrorKind.MALFORMED,
                "UNKNOWN_KEY",
                f"unknown key {key[:40]!r}",
                f"{path}.{key[:40]}",
            )
    for key in required:
        if key not in obj:
            raise ApiError(
                ErrorKind.MALFORMED, "MISSING_KEY", f'the key "{key}" is missing', f"{path}.{key}"
            )


def _name(value: object, path: str) -> str:
    try:
        return check_name(value, path)
    except RecordError as error:
        raise malformed(error) from None


def _bad_players(message: str) -> ApiError:
    return ApiError(ErrorKind.MALFORMED, "BAD_PLAYERS", message, "$.seats")


def seat_specs(data: bytes) -> list[SeatSpec]:
    """The seats of a table to make: ``{"seats": [SEAT, ...]}``, 3 to 5 of ``{"kind":
    "person", "name": NAME}``, ``{"kind": "bot", "bot": LABEL}`` and ``{"kind": "open"}``,
    the names distinct, a person or an open seat among them."""
    body = _json_object(data)
    _keys(body, "$", ("seats",))
    items = body["seats"]
    if type(items) is not list or not MIN_PLAYERS <= len(items) <= MAX_PLAYERS:
        raise _bad_players(f"seats must be a list of {MIN_PLAYERS} to {MAX_PLAYERS} seats")
    specs = [_seat_spec(item, f"$.seats[{i}]") for i, item in enumerate(items)]
    names = [spec.name for spec in specs if spec.name is not None]
    if len(set(names)) != len(names):
        raise _bad_players("two seats have the same name")
    if all(spec.kind == "bot" for spec in specs):
        raise _bad_players("a table needs a person (or an open seat)")
    return specs


def _seat_spec(item: object, path: str) -> SeatSpec:
    if type(item) is not dict:
        raise ApiError(ErrorKind.MALFORMED, "WRONG_TYPE", "a seat must be an object", path)
    kind = item.get("kind")
    if kind == "person":
        _keys(item, path, ("kind", "name"))
        return SeatSpec("person", name=_name(item["name"], f"{path}.name"))
    if kind == "bot":
        _keys(item, path, ("kind", "bot"))
        if item["bot"] not in BOTS:
            raise ApiError(
                ErrorKind.MALFORMED,
                "UNKNOWN_BOT",
                f"a bot is one of {', '.join(BOTS)}",
                f"{path}.bot",
            )
        return SeatSpec("bot", bot=str(item["bot"]))
    if kind == "open":
        _keys(item, path, ("kind",))
        return SeatSpec("open")
    raise ApiError(
        ErrorKind.MALFORMED,
        "WRONG_TYPE",
        'a seat\'s kind is "person", "bot" or "open"',
        f"{path}.kind",
    )


def join_name(data: bytes) -> str:
    """The name of a person taking a seat: ``{"name": NAME}``."""
    body = _json_object(data)
    _keys(body, "$", ("name",))
    return _name(body["name"], "$.name")


def move(data: bytes) -> Move:
    """A seat's move: ``{"action": ACTION, "number": N}`` (``number`` may be left out)."""
    if len(data) > MAX_MOVE_BYTES:
        raise _too_large(MAX_MOVE_BYTES)
    try:
        return read_move(data)
    except RecordError as error:
        raise malformed(error) from None
