"""The inputs the routes share, each read from the request and stated in the document by
one declaration (:mod:`~high_society.server._api`): a table's id, the first action of the
history wanted, the seat a request's token opens, the client's address."""

import attrs
from starlette.requests import Request

from high_society._json import JSONObject
from high_society._shapes import Schemas
from high_society.server._api import (
    MAX_NUMBER_DIGITS,
    NUMBER,
    TABLE_ID_SHAPE,
    LeanRoute,
    Param,
    Take,
    header,
    number,
)
from high_society.server._errors import ApiError, ErrorKind, error_for
from high_society.server._services import services

__all__ = ["ADDRESS", "SEAT", "SINCE", "TABLE_ID", "TOKEN", "address", "token"]


def _table_id(request: Request) -> str:
    found: str = request.path_params["table_id"]
    return found


TABLE_ID: Param[str] = Param(
    "table_id", "path", "table_id", TABLE_ID_SHAPE, "The table's id.", _table_id
)


#: What makes a query more than ``since=VALUE``: another parameter, or an escape.
_MORE = frozenset(b"&%+")


def _since(request: Request) -> int:
    """The first action of the history wanted: ``?since=N``, else the ``Last-Event-ID``
    header (a reconnecting event stream's), else 0."""
    query: bytes = request.scope["query_string"]
    text: str | None
    if query.startswith(b"since=") and not _MORE.intersection(query):
        text = query[6:].decode("latin-1")  # the query's parse, without making the mapping
    else:
        text = request.query_params.get("since")
    if text is None:
        text = header(request, b"last-event-id")
    if text is None or text == "":
        return 0
    found = number(text)
    if found is None:
        raise ApiError(
            ErrorKind.MALFORMED,
            "WRONG_TYPE",
            f"since must be a whole number of at most {MAX_NUMBER_DIGITS} digits",
            "$.since",
        )
    return found


SINCE: Param[int] = Param(
    "since",
    "query",
    "since",
    NUMBER,
    "The first action of the history to include (default 0; at most the table's number).",
    _since,
)
#: How an event stream that reconnects says where it was (read by :data:`SINCE`).
LAST_EVENT_ID: Param[None] = Param(
    "last_event_id",
    "header",
    "Last-Event-ID",
    NUMBER,
    "Sent by a reconnecting event stream: the history from there (since wins when both are given).",
    lambda request: None,
)


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


@attrs.frozen
class _Token(Take[str]):
    """The request's token, as given (a rematch's ask, which names its own table)."""

    name: str = "token"

    async def read(self, request: Request, route: LeanRoute) -> str:
        return token(request)

    def state(self, operation: JSONObject, into: Schemas) -> None:
        operation["security"] = [{"seatToken": []}]


@attrs.frozen
class _Seat(Take[int]):
    """The seat the request's token opens at the table of its path."""

    name: str = "seat"

    async def read(self, request: Request, route: LeanRoute) -> int:
        given = token(request)
        try:
            return await services(request).keys.seat_of(request.path_params["table_id"], given)
        except Exception as error:
            raise error_for(error) from None

    def state(self, operation: JSONObject, into: Schemas) -> None:
        operation["security"] = [{"seatToken": []}]


TOKEN: Take[str] = _Token()
SEAT: Take[int] = _Seat()


def address(request: Request) -> str:
    """The client's address (the proxy's, behind a reverse proxy uvicorn does not trust)."""
    client = request.scope.get("client")
    return str(client[0]) if client else ""


@attrs.frozen
class _Address(Take[str]):
    name: str = "address"

    async def read(self, request: Request, route: LeanRoute) -> str:
        return address(request)

    def state(self, operation: JSONObject, into: Schemas) -> None:
        pass


ADDRESS: Take[str] = _Address()
