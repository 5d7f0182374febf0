"""The ASGI application: the parts put together.

A request goes through the HTTP face (the routers of :mod:`~high_society.server._routers`,
each route declaring what it takes and answers with :mod:`~high_society.server._api`,
errors answered in one shape by :mod:`~high_society.server._errors`) to the parts of
:mod:`~high_society.server._services`: the tables (:mod:`~high_society.server._tables`),
the seats' keys (:mod:`~high_society.server._auth`) and the move path
(:mod:`~high_society.server._master`, with the bots' turns in
:mod:`~high_society.server._autoplay` and the tables kept in memory in
:mod:`~high_society.server._games`), which keep the tables in the store
(:mod:`~high_society.server._store`); the streams (:mod:`~high_society.server._streams`)
are woken by the notifier (:mod:`~high_society.server._notify`). The public entry is
:mod:`high_society.server`.
"""

import asyncio
import gc
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

import attrs
from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Match, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from high_society._version import __version__
from high_society.server._api import LeanRoute, document
from high_society.server._errors import (
    ApiError,
    answer,
    internal_error,
    on_api_error,
    on_http_error,
)
from high_society.server._lifespan import Background
from high_society.server._limits import Limits
from high_society.server._routers import anyone, seats, tables, watching
from high_society.server._services import assemble
from high_society.server._store import Store
from high_society.server._streams import SERVER_SEND

__all__ = ["create_app"]

log = logging.getLogger("high_society.server")

#: The youngest generation's size that starts a collection while the server runs (Python's
#: default is 700). A request leaves no reference cycle behind (a test holds it), so a
#: pass finds next to nothing; a larger generation makes passes rarer, and with them the
#: full ones (one every hundred passes at most), whose length grows with the tables kept.
#: ``python3 tasks.py bench-server`` shows both the CPU and the p99 latency it saves.
YOUNG_OBJECTS = 10_000


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
        """The document, made from the routes' declarations (:func:`~high_society.server.
        _api.document`), not from FastAPI's inspection of them."""
        if self.openapi_schema is None:
            routes = [route for route in self.routes if isinstance(route, LeanRoute)]
            self.openapi_schema = document(
                routes, title=self.title, version=self.version, summary=self.summary or ""
            )
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


_Endpoint = Callable[[Request], Awaitable[Response]]


class _Lean:
    """The API's routes, each matched and called as Starlette's router would, with the
    one error shape for what they raise. The routes are kept by the shape of their path
    (its number of parts and its last, or ``{}`` for a parameter), so that a request is
    matched against the one or two routes of its shape, not every route in turn."""

    def __init__(self) -> None:
        self.routes: dict[tuple[int, str], list[tuple[Route, _Endpoint]]] = {}

    def add(self, route: LeanRoute) -> None:
        parts = route.path.split("/")
        key = (len(parts), "{}" if parts[-1].startswith("{") else parts[-1])
        made = Route(route.path, route.serve, methods=route.methods)
        self.routes.setdefault(key, []).append((made, route.serve))

    def _candidates(self, path: str) -> list[tuple[Route, _Endpoint]]:
        parts = path.split("/")
        found = self.routes.get((len(parts), parts[-1]), [])
        return found + self.routes.get((len(parts), "{}"), [])

    async def handle(self, app: ASGIApp, scope: Scope, receive: Receive, send: Send) -> bool:
        """Serve the request if one of the routes takes it (path and method); say whether
        it did."""
        path = scope["path"]
        if not path.startswith("/api/"):
            return False
        for route, endpoint in self._candidates(path):
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
    objects alive then out of the garbage collector's way (``gc.freeze()``), and lets the
    youngest generation grow about fourteen times larger than Python's default before a
    pass, so that the collector's passes, full ones above all, are rarer and do not pause it for
    long; both are handed back when it stops (``gc.unfreeze()``, the thresholds it found).

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

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await asyncio.to_thread(Store, database)
        parts = assemble(
            store, limits=bounds, bot_delay=bot_delay, send_seconds=send_seconds, records=folder
        )
        app.state.services = parts
        loop = asyncio.get_running_loop()
        parts.notifier.bind(loop)
        parts.master.start(loop)
        background = Background(
            store, parts, sweep_seconds=sweep_seconds, poll_seconds=poll_seconds
        )
        gc.collect()
        gc.freeze()  # what lives now lives for ever: out of the full collections' way
        thresholds = gc.get_threshold()
        gc.set_threshold(YOUNG_OBJECTS, *thresholds[1:])
        background.start(loop)
        try:
            yield
        finally:
            await background.stop()
            await parts.master.close()
            await asyncio.to_thread(store.close)
            gc.set_threshold(*thresholds)
            gc.unfreeze()

    app = _Application(
        title="High Society table server",
        summary="Tables of Reiner Knizia's High Society for people and bots.",
        version=__version__,
        lifespan=lifespan,
        # Operations named after their functions: a generated client's methods.
        generate_unique_id_function=lambda route: route.name,
        docs_url="/docs" if api_docs else None,
        redoc_url=None,
    )
    app.add_exception_handler(ApiError, on_api_error)
    app.add_exception_handler(HTTPException, on_http_error)
    for module in (tables, seats, watching, anyone):
        for route in module.api.router.routes:
            assert isinstance(route, LeanRoute)
            app.router.routes.append(route)  # the very route: FastAPI answers 405 for it
            app.lean.add(route)
    static = resources.files("high_society").joinpath("server", "static")

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(str(static.joinpath("index.html")), media_type="text/html")

    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    return app
