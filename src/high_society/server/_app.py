"""The ASGI application: the parts put together.

A request goes through the HTTP face (:mod:`~high_society.server._routes`, reading at the
edge with :mod:`~high_society.server._edge`, answering errors in one shape with
:mod:`~high_society.server._errors`) to the master (:mod:`~high_society.server._master`:
tokens, the rules, each seat's view, bots and the dealer), which keeps the tables in the
store (:mod:`~high_society.server._store`: rows, versions, tokens' hashes); the streams
(:mod:`~high_society.server._streams`) are woken by the notifier
(:mod:`~high_society.server._notify`). The public entry is :mod:`high_society.server`.
"""

import asyncio
import gc
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any, cast

import attrs
from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Match, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from high_society.server._errors import (
    ApiError,
    answer,
    internal_error,
    on_api_error,
    on_http_error,
)
from high_society.server._lifespan import Background
from high_society.server._limits import Limits, Rate
from high_society.server._master import Master
from high_society.server._notify import Notifier
from high_society.server._openapi import add_library_components
from high_society.server._routes import Services, router
from high_society.server._store import Store
from high_society.server._streams import SERVER_SEND, StreamSlots, Watcher

__all__ = ["create_app"]

log = logging.getLogger("high_society.server")


class _Application(FastAPI):
    """FastAPI with the library's schemas in its OpenAPI document, the API's routes served
    by a lean dispatcher, and the ASGI server's own ``send`` kept in each scope, before
    any middleware wraps it: under uvicorn it is the connection's, which an event stream
    whose client reads nothing must abort.

    The API's routes are FastAPI's, which documents them; a request for one of them is
    dispatched by :class:`_Lean` straight to its endpoint, past FastAPI's middleware and
    router, which cost more than a move's own work (docs/performance.md). Whatever they
    do not take (the page, the document, an unknown path or method) goes to FastAPI."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.lean = _Lean()

    def openapi(self) -> dict[str, Any]:
        if self.openapi_schema is None:
            document = super().openapi()
            _drop_validation_errors(document)
            add_library_components(document)
            self.openapi_schema = document
        return self.openapi_schema

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        scope[SERVER_SEND] = send
        try:
            if scope["type"] != "http" or not await self.lean.handle(self, scope, receive, send):
                docs = self.docs_url is not None and scope.get("path") == self.docs_url
                await super().__call__(scope, receive, _guarded(send, _DOCS if docs else _GUARDS))
        finally:
            # uvicorn's ``send`` is a method of the object that holds the scope: a cycle
            # that would leave each request's objects to the garbage collector.
            del scope[SERVER_SEND]


#: Headers on the page, its files and FastAPI's own answers: the page is never framed (no
#: clickjacking), runs only its own script and style, and its files are what they say.
_GUARDS = [
    (b"x-frame-options", b"DENY"),
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
        b"form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


#: The API docs page (``api_docs=True``) loads Swagger UI from its CDN: only never framed.
_DOCS = [
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


def _guarded(send: Send, guards: list[tuple[bytes, bytes]]) -> Send:
    """``send`` with ``guards`` added to the answer's headers."""

    async def guarded(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", ()), *guards]}
        await send(message)

    return guarded


class _Lean:
    """The API's routes, each matched and called as Starlette's router would, with the
    one error shape for what they raise."""

    def __init__(self) -> None:
        self.routes: list[tuple[Route, Callable[[Request], Awaitable[Response]]]] = []

    def add(self, route: APIRoute) -> None:
        endpoint = cast(Callable[[Request], Awaitable[Response]], route.endpoint)
        self.routes.append((Route(route.path, endpoint, methods=route.methods), endpoint))

    async def handle(self, app: ASGIApp, scope: Scope, receive: Receive, send: Send) -> bool:
        """Serve the request if one of the routes takes it (path and method); say whether
        it did."""
        if not scope["path"].startswith("/api/"):
            return False
        for route, endpoint in self.routes:
            match, child = route.matches(scope)
            if match is Match.FULL:
                scope.update(child)
                scope["app"] = app
                request = Request(scope, receive, send)
                try:
                    response = await endpoint(request)
                except ApiError as error:
                    response = answer(error)
                except Exception:
                    log.exception("%s %s failed", scope["method"], scope["path"])
                    response = internal_error()
                await response(scope, receive, send)
                return True
        return False


def _drop_validation_errors(document: dict[str, Any]) -> None:
    """FastAPI's 422 answer of its own request checks, which the routes do not use (they
    read their requests at the edge: a 422 of theirs is an illegal move, in the one error
    shape)."""
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            answers = operation.get("responses", {})
            schema = answers.get("422", {}).get("content", {}).get("application/json", {})
            if schema.get("schema", {}).get("$ref", "").endswith("/HTTPValidationError"):
                del answers["422"]
    schemas = document.get("components", {}).get("schemas", {})
    for name in ("HTTPValidationError", "ValidationError"):
        schemas.pop(name, None)


def create_app(
    database: str,
    *,
    poll_seconds: float = 1.0,
    sweep_seconds: float = 5.0,
    bot_delay: float = 0.0,
    max_streams: int | None = None,
    max_seat_streams: int | None = None,
    send_seconds: float = 30.0,
    limits: Limits | None = None,
    records: "str | os.PathLike[str] | None" = None,
    api_docs: bool = False,
) -> FastAPI:
    """The table server as an ASGI application, over the database at ``database`` (a
    SQLAlchemy URL: ``sqlite:///path/tables.sqlite3``, ``postgresql://user@host/db``).

    ``poll_seconds``: on SQLite, how often this process reads the versions of the tables
    it streams, to learn of actions committed by another process (PostgreSQL tells it at
    once: ``LISTEN``/``NOTIFY``; this process's own commits wake its streams at once).
    ``sweep_seconds``: how often the server looks for tables where a bot or the dealer
    must act and plays them (after a restart, or when another process stopped).
    ``bot_delay``: seconds between two automatic actions of a table, so that people can
    follow the bots (awaited: nothing waits for it but that table). ``limits``: what one
    client, and all of them, may hold of the process (:class:`Limits`; its defaults when
    ``None``); ``max_streams`` and ``max_seat_streams``, when given, stand for those two
    fields of it. ``send_seconds``: a stream whose client reads nothing for that long is
    ended, and its connection reset (under uvicorn; another server closes it its own
    way). ``records``: a folder where each game's record is written as it ends (finished
    tables leave the database ``limits.keep_days`` after their end). ``api_docs``: serve
    the browsable API docs at ``/docs`` (Swagger UI, which the browser loads from a CDN:
    off by default, so that no third-party script runs where the page keeps its tokens;
    ``/openapi.json`` is always served).

    The application is meant to be its process's main one: when it starts, it moves the
    objects alive then out of the garbage collector's way (``gc.freeze()``), so that the
    collector's full passes do not pause it for long; they are handed back when it stops
    (``gc.unfreeze()``).

    Raises (when the application starts):
        InvalidConfigError: ``database`` is not a URL of a database this server can use,
            or the database holds another schema version.
    """
    bounds = limits or Limits()
    if max_streams is not None:
        bounds = attrs.evolve(bounds, max_streams=max_streams)
    if max_seat_streams is not None:
        bounds = attrs.evolve(bounds, max_seat_streams=max_seat_streams)
    folder = None if records is None else Path(records)
    notifier = Notifier()
    watcher = Watcher(send_seconds)
    slots = StreamSlots(bounds.max_seat_streams, bounds.max_streams, bounds.max_address_streams)
    rate = Rate(bounds.tables_per_minute)
    replays = Rate(bounds.replays_per_minute)
    all_replays = Rate(bounds.all_replays_per_minute)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await asyncio.to_thread(Store, database)
        master = Master(
            store,
            notifier,
            bot_delay=bot_delay,
            max_tables=bounds.max_tables,
            table_rate=rate,
            records=folder,
        )
        app.state.services = Services(
            master, notifier, watcher, slots, bounds, replays, all_replays
        )
        loop = asyncio.get_running_loop()
        notifier.bind(loop)
        master.start(loop)
        background = Background(
            store,
            master,
            notifier,
            watcher,
            sweep_seconds=sweep_seconds,
            poll_seconds=poll_seconds,
            limits=bounds,
        )
        gc.collect()
        gc.freeze()  # what lives now lives for ever: out of the full collections' way
        background.start(loop)
        try:
            yield
        finally:
            await background.stop()
            await master.close()
            await asyncio.to_thread(store.close)
            gc.unfreeze()

    app = _Application(
        title="High Society table server",
        summary="Tables of Reiner Knizia's High Society for people and bots.",
        version="1",
        lifespan=lifespan,
        # Operations named after their functions: a generated client's methods.
        generate_unique_id_function=lambda route: route.name,
        docs_url="/docs" if api_docs else None,
        redoc_url=None,
    )
    app.add_exception_handler(ApiError, on_api_error)
    app.add_exception_handler(HTTPException, on_http_error)
    app.include_router(router)
    for route in router.routes:
        assert isinstance(route, APIRoute)
        app.lean.add(route)
    static = resources.files("high_society").joinpath("server", "static")

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(str(static.joinpath("index.html")), media_type="text/html")

    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    return app
