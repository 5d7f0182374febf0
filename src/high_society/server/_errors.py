"""The one shape of every error answer, ``{"kind", "code", "message", "path"}``, and what
makes it: the kinds and their HTTP statuses, the library's and the store's errors mapped to
it, and the handlers that give it to FastAPI's own errors too (an unknown path, a wrong
method).
"""

import logging

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from high_society.errors import HighSocietyError, RecordError
from high_society.serial import JSONObject, error_to_json
from high_society.server._auth import Unauthorized
from high_society.server._dialects import is_unavailable
from high_society.server._encoding import fast_json
from high_society.server._master import Busy
from high_society.server._store_rows import Conflict, Full, NotFound, Retired
from high_society.server._tables import TooFast
from high_society.table import Refusal
from high_society.wire import ErrorKind, RefusalKind

__all__ = [
    "ApiError",
    "ErrorKind",
    "answer",
    "error_for",
    "internal_error",
    "on_api_error",
    "on_http_error",
]

log = logging.getLogger("high_society.server")


#: The HTTP status of each kind.
STATUS = {
    ErrorKind.MALFORMED: 400,
    ErrorKind.WRONG_MEDIA_TYPE: 415,
    ErrorKind.TOO_SLOW: 408,
    ErrorKind.UNAUTHORIZED: 401,
    ErrorKind.NOT_ALLOWED: 403,
    ErrorKind.NOT_YOUR_SEAT: 403,
    ErrorKind.NOT_FOUND: 404,
    ErrorKind.WRONG_METHOD: 405,
    ErrorKind.WRONG_NUMBER: 409,
    ErrorKind.CONFLICT: 409,
    ErrorKind.TOO_LARGE: 413,
    ErrorKind.ILLEGAL: 422,
    ErrorKind.TOO_MANY: 429,
    ErrorKind.UNAVAILABLE: 503,
    ErrorKind.INTERNAL: 500,
}
assert {k.value for k in RefusalKind} <= {k.value for k in ErrorKind}


class ApiError(Exception):
    """An error answer: its kind (which says the HTTP status), a stable code, a message
    for people, and where in the request the problem is (a JSON path). ``retry_after``:
    seconds after which the request may be sent again (429, 503)."""

    def __init__(
        self,
        kind: ErrorKind,
        code: str,
        message: str,
        path: str = "$",
        *,
        retry_after: int | None = None,
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.status = STATUS[kind]
        self.body: JSONObject = {"kind": kind.value, "code": code, "message": message, "path": path}
        self.retry_after = retry_after


def malformed(error: RecordError) -> ApiError:
    """The answer to input the library refused."""
    return ApiError(ErrorKind.MALFORMED, error.code.value, error.message, error.path)


def refused(refusal: Refusal) -> ApiError:
    """The answer to a move the table refused."""
    return ApiError(ErrorKind(refusal.kind.value), refusal.code, refusal.message, refusal.path)


def error_for(error: Exception) -> ApiError:
    """The answer to an error of the master, the store or the library; any other error is
    raised again (a bug: the server answers 500 and logs it).

    Raises:
        Exception: ``error`` itself, when it is none of those.
    """
    if isinstance(error, ApiError):
        return error
    if isinstance(error, NotFound):
        return ApiError(ErrorKind.NOT_FOUND, "NO_SUCH_TABLE", "there is no such table")
    if isinstance(error, Unauthorized):
        return ApiError(
            ErrorKind.UNAUTHORIZED, "BAD_TOKEN", "the token is not a seat's at this table"
        )
    if isinstance(error, Conflict):
        return ApiError(ErrorKind.CONFLICT, error.code, error.message)
    if isinstance(error, Full):
        return ApiError(
            ErrorKind.UNAVAILABLE,
            "TOO_MANY_TABLES",
            "the server holds as many tables as it may: try again later",
            retry_after=60,
        )
    if isinstance(error, Retired):
        return ApiError(
            ErrorKind.UNAVAILABLE,
            "SCHEMA_MOVED",
            "a newer server moved the database on: this one no longer serves it",
            retry_after=60,
        )
    if isinstance(error, TooFast):
        return ApiError(
            ErrorKind.TOO_MANY,
            "TOO_MANY_TABLES",
            str(error),
            retry_after=max(1, round(error.wait + 0.5)),
        )
    if isinstance(error, Busy):
        return ApiError(
            ErrorKind.UNAVAILABLE, "BUSY", "the table is busy: try again", retry_after=1
        )
    if isinstance(error, HighSocietyError):
        data = error_to_json(error)
        code, message = str(data["code"]), str(data["message"])
        return ApiError(ErrorKind.MALFORMED, code, message, str(data.get("path", "$")))
    if is_unavailable(error):
        log.warning("the database cannot answer: %s", str(error).split("\n", 1)[0][:300])
        return ApiError(
            ErrorKind.UNAVAILABLE,
            "UNAVAILABLE",
            "the database cannot answer now: try again",
            retry_after=1,
        )
    raise error


def answer(error: ApiError) -> Response:
    """The HTTP answer of ``error``."""
    headers = {}
    if error.status == 401:
        headers["WWW-Authenticate"] = "Bearer"
    if error.retry_after is not None:
        headers["Retry-After"] = str(error.retry_after)
    return Response(
        fast_json(error.body), error.status, headers=headers, media_type="application/json"
    )


def internal_error() -> Response:
    """The answer to a failure of the server's own (logged by the caller)."""
    return answer(ApiError(ErrorKind.INTERNAL, "INTERNAL", "the server failed: try again later"))


async def on_api_error(_: Request, error: Exception) -> Response:
    """FastAPI's handler of :class:`ApiError`."""
    assert isinstance(error, ApiError)
    return answer(error)


async def on_http_error(_: Request, error: Exception) -> Response:
    """FastAPI's handler of its own HTTP errors (no such path, a wrong method): the same
    shape as every other error."""
    assert isinstance(error, HTTPException)
    if error.status_code == 405:
        allowed = (error.headers or {}).get("Allow", "")
        made = ApiError(
            ErrorKind.WRONG_METHOD,
            "METHOD_NOT_ALLOWED",
            f"this path answers {allowed or 'other methods'}",
        )
        response = answer(made)
        if allowed:
            response.headers["Allow"] = allowed
        return response
    if error.status_code == 404:
        return answer(ApiError(ErrorKind.NOT_FOUND, "NO_SUCH_PATH", "there is no such path"))
    kind = next((k for k, status in STATUS.items() if status == error.status_code), None)
    if kind is None:
        kind = ErrorKind.MALFORMED
    return answer(ApiError(kind, "HTTP_" + str(error.status_code), str(error.detail)))
