"""How the HTTP face declares its routes: what each takes (its path, query and header
parameters, the seat its token opens, a body of one of :mod:`high_society.wire`'s shapes)
and what it answers, in one statement from which both the request's reading and the
OpenAPI document are made.

Each declared input is a real dependency: :class:`LeanRoute` reads them, in their order,
and calls the endpoint with their values. FastAPI's own dependency solving and request
checks are skipped, here and only here, because they cost more than a move's own work
(docs/performance.md); the document does not come from FastAPI's inspection either, but
from the same declarations (:func:`document`), so what it promises is what the server
checks.
"""

import asyncio
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, Generic, Literal, TypeVar

import attrs
from fastapi import APIRouter
from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import Response

from high_society._json import JSONObject
from high_society._shapes import Integer, Named, Schemas, Shape, String
from high_society.errors import RecordError
from high_society.serial import parse_json
from high_society.server._errors import ApiError, ErrorKind, answer, malformed
from high_society.wire import ERROR, components

__all__ = [
    "MAX_BODY_BYTES",
    "MAX_NUMBER_DIGITS",
    "Answer",
    "Api",
    "Body",
    "LeanRoute",
    "Param",
    "RawBody",
    "Take",
    "document",
    "header",
]

T = TypeVar("T")

#: The largest request body read, in bytes, unless a route says otherwise.
MAX_BODY_BYTES = 4096
#: The most digits a number from a client has (``since``, ``Last-Event-ID``).
MAX_NUMBER_DIGITS = 9

Endpoint = Callable[..., Awaitable[Response]]


class Take(Generic[T]):
    """One input of a route: read from the request (:meth:`read`), passed to the endpoint
    as ``name``, and stated in the route's operation of the document (:meth:`state`)."""

    name: str

    async def read(self, request: Request, route: "LeanRoute") -> T:
        raise NotImplementedError

    def state(self, operation: JSONObject, into: Schemas) -> None:
        raise NotImplementedError


@attrs.frozen
class Param(Take[T]):
    """A path, query or header parameter: ``key`` its HTTP name, ``shape`` what the document
    says of it, ``parse(text)`` its reader (``None`` when absent)."""

    name: str
    where: Literal["path", "query", "header"]
    key: str
    shape: Shape[object]
    doc: str
    parse: Callable[[Request], T]
    required: bool = False

    async def read(self, request: Request, route: "LeanRoute") -> T:
        return self.parse(request)

    def state(self, operation: JSONObject, into: Schemas) -> None:
        parameters = operation.setdefault("parameters", [])
        assert isinstance(parameters, list)
        parameters.append(
            {
                "name": self.key,
                "in": self.where,
                "required": self.required or self.where == "path",
                "description": self.doc,
                "schema": self.shape.schema(into),
            }
        )


@attrs.frozen
class Body(Take[T]):
    """A JSON body of ``shape``, at most ``limit`` bytes, declared ``application/json``,
    whole within the server's ``body_seconds`` (:func:`read_body`)."""

    shape: Named[T]
    limit: int = MAX_BODY_BYTES
    name: str = "body"

    async def read(self, request: Request, route: "LeanRoute") -> T:
        seconds: float = request.app.state.services.limits.body_seconds
        data = await read_body(request, self.limit, seconds)
        try:
            return self.shape.read(parse_json(data, limit=self.limit))
        except RecordError as error:
            raise malformed(error) from None

    def state(self, operation: JSONObject, into: Schemas) -> None:
        operation["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": self.shape.schema(into)}},
        }


@attrs.frozen
class RawBody(Take[bytes]):
    """A body of ``shape`` as the document states it, read as bytes (``read_body``'s
    bounds), for an endpoint that checks it itself: a record to replay, which the library
    judges (one it refuses is an answer, not an error)."""

    shape: Shape[object]
    limit: int = MAX_BODY_BYTES
    name: str = "body"

    async def read(self, request: Request, route: "LeanRoute") -> bytes:
        seconds: float = request.app.state.services.limits.body_seconds
        return await read_body(request, self.limit, seconds)

    def state(self, operation: JSONObject, into: Schemas) -> None:
        operation["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": self.shape.schema(into)}},
        }


@attrs.frozen
class Answer:
    """What a route answers when it succeeds: ``status``, and the shape of its body in
    ``media`` (an event stream's shape is one event's)."""

    shape: Shape[object] | None
    status: int = 200
    media: str = "application/json"
    doc: str = "The answer"


class LeanRoute(APIRoute):
    """A route whose inputs are its :attr:`takes`, read in order and passed to the endpoint
    (see the module's description). Set by :meth:`Api.route`."""

    takes: Sequence[Take[Any]] = ()
    answer: Answer = Answer(None)
    errors: Sequence[int] = ()
    #: The endpoint, called with the request and the values of :attr:`takes` (FastAPI is
    #: given one that takes the request alone: it has nothing to inspect).
    target: Endpoint

    async def serve(self, request: Request) -> Response:
        """The endpoint's answer to ``request``, its inputs read first; what they refuse is
        answered in the one error shape."""
        values = {take.name: await take.read(request, self) for take in self.takes}
        return await self.target(request, **values)

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        async def handle(request: Request) -> Response:
            try:
                return await self.serve(request)
            except ApiError as error:
                return answer(error)

        return handle


class Api:
    """A router of one resource's routes, each declared by :meth:`route`."""

    def __init__(self, prefix: str = "/api") -> None:
        self.router = APIRouter(prefix=prefix, route_class=LeanRoute)

    def route(
        self,
        method: str,
        path: str,
        *,
        summary: str,
        takes: Sequence[Take[Any]] = (),
        answer: Answer = Answer(None),
        errors: Sequence[int] = (),
    ) -> Callable[[Endpoint], Endpoint]:
        """Declare the route ``method path``: what it takes and answers (its errors, by
        status, in the one error shape); its endpoint's docstring describes it."""

        def declare(endpoint: Endpoint) -> Endpoint:
            async def inspected(request: Request) -> Response:  # pragma: no cover
                raise AssertionError("a lean route is served by LeanRoute.serve")

            self.router.add_api_route(
                path, inspected, methods=[method], summary=summary, name=endpoint.__name__
            )
            made = self.router.routes[-1]
            assert isinstance(made, LeanRoute)
            made.target = endpoint
            made.takes = tuple(takes)
            made.answer = answer
            made.errors = tuple(errors)
            return endpoint

        return declare


# --- Reading a request ------------------------------------------------------------------------


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


async def read_body(request: Request, limit: int, seconds: float) -> bytes:
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
    if declared is not None and (number(declared) is None or int(declared) > limit):
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


def number(text: str) -> int | None:
    """``text`` as a whole number of ASCII digits, at most :data:`MAX_NUMBER_DIGITS`
    (``str.isdigit`` also takes ``²`` and other digits that ``int`` refuses)."""
    if not 0 < len(text) <= MAX_NUMBER_DIGITS or not text.isascii() or not text.isdigit():
        return None
    return int(text)


#: A number a client sends in a query or a header.
NUMBER = Integer(0, 10**MAX_NUMBER_DIGITS - 1)
#: A table's id, in a path.
TABLE_ID_SHAPE = String(1, 32)


# --- The document ----------------------------------------------------------------------------

_WHEN = {
    400: "Malformed: not JSON, or not of the request's form (kind malformed)",
    401: "No token, or not a seat's token at this table (kind unauthorized)",
    403: "A reveal (not_allowed), or another seat's action (not_your_seat)",
    404: "No such table (kind not_found)",
    408: "The body did not arrive whole in time (kind too_slow)",
    409: "The table waits for players, has no open seat or has the name, its game is "
    "not over for a rematch (conflict); a move numbered for another moment (wrong_number)",
    413: "The body is larger than its bound (kind too_large)",
    415: "The body is not declared application/json (kind wrong_media_type)",
    422: "Illegal now: the engine's reason code (kind illegal)",
    429: "Too many event streams for this seat or address, or tables made or records "
    "replayed too fast (kind too_many; Retry-After)",
    503: "The database cannot answer now, or a bound of the server is reached "
    "(kind unavailable; Retry-After)",
}

#: The security scheme of a seat's token.
SEAT_TOKEN_SCHEME: JSONObject = {
    "type": "http",
    "scheme": "bearer",
    "description": "The seat's token, from making or joining the table.",
}


def _operation(route: LeanRoute, into: Schemas) -> JSONObject:
    operation: JSONObject = {"summary": route.summary or "", "operationId": route.name}
    described = (route.target.__doc__ or "").strip()
    if described:
        operation["description"] = " ".join(described.split())
    for take in route.takes:
        take.state(operation, into)
    done = route.answer
    content: JSONObject = {done.media: {"schema": {"type": "string"}}}
    if done.shape is not None:
        content = {done.media: {"schema": done.shape.schema(into)}}
    responses: JSONObject = {str(done.status): {"description": done.doc, "content": content}}
    error: JSONObject = {"application/json": {"schema": ERROR.schema(into)}}
    for status in route.errors:
        responses[str(status)] = {"description": _WHEN[status], "content": error}
    operation["responses"] = responses
    return operation


def document(
    routes: Sequence[LeanRoute],
    *,
    title: str,
    version: str,
    summary: str,
    extra: Sequence[Named[object]] = (),
) -> JSONObject:
    """The OpenAPI 3.1 document of ``routes``, from their declarations, every schema a
    component of :mod:`high_society.wire`'s (and ``extra`` shapes, such as the events'
    own)."""
    into = Schemas("#/components/schemas/", inline_external=True)
    paths: JSONObject = {}
    for route in routes:
        for method in sorted(route.methods or ()):
            operations = paths.setdefault(route.path, {})
            assert isinstance(operations, dict)
            operations[method.lower()] = _operation(route, into)
    for shape in extra:
        shape.schema(into)
    schemas: JSONObject = {**components(), **into.defined}
    parts: JSONObject = {"schemas": schemas, "securitySchemes": {"seatToken": SEAT_TOKEN_SCHEME}}
    return {
        "openapi": "3.1.0",
        "info": {"title": title, "summary": summary, "version": version},
        "paths": paths,
        "components": parts,
    }
