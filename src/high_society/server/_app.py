"""The ASGI application: the HTTP API, the pushed updates and the web page.

The public entry is :mod:`high_society.server`, where the API is described.
"""

import asyncio
import contextlib
import gc
import json
import logging
import socket
import struct
import threading
import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Coroutine, Sequence
from importlib import resources
from typing import Any, NoReturn, cast

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse, Response, StreamingResponse
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.types import Message, Receive, Scope, Send

from high_society.bots import AnyBot, Bot, SeatOnly
from high_society.cards import MAX_PLAYERS, MIN_PLAYERS
from high_society.errors import HighSocietyError, InvalidConfigError, RecordError
from high_society.record import action_schema
from high_society.serial import JSONObject, error_to_json, parse_json
from high_society.server._store import (
    Conflict,
    NotFound,
    Store,
    Unauthorized,
    automatic_action,
    is_unavailable,
)
from high_society.table import (
    MAX_MOVE_BYTES,
    Accepted,
    Refusal,
    RefusalKind,
    check_name,
    payload_schema,
    refusal_schema,
)
from high_society.tournament import parse_entrant

__all__ = ["BOTS", "MAX_BODY_BYTES", "create_app", "make_bot"]

log = logging.getLogger("high_society.server")

#: The bots a seat can have, by label.
BOTS = ("random", "heuristic", "search")
#: The largest request body read, in bytes.
MAX_BODY_BYTES = 4096

#: Seconds of silence after which an event stream sends a comment (proxies close idle
#: connections).
KEEP_ALIVE_SECONDS = 15.0

#: The HTTP status of each kind of refusal.
STATUS = {
    RefusalKind.MALFORMED: 400,
    RefusalKind.NOT_ALLOWED: 403,
    RefusalKind.NOT_YOUR_SEAT: 403,
    RefusalKind.WRONG_NUMBER: 409,
    RefusalKind.ILLEGAL: 422,
}


def stdlib_json(value: object) -> bytes:
    """JSON text (UTF-8) of a value, by the standard library."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


#: JSON text (UTF-8) of a value: orjson's, several times faster than the standard
#: library's, where the server extra installs it (CPython), else the standard library's.
fast_json: Callable[[Any], bytes]
try:
    from orjson import dumps as fast_json
except ImportError:  # pragma: no cover (the server extra installs orjson on CPython)
    fast_json = stdlib_json


class _Json(JSONResponse):
    """A JSON answer, encoded by :func:`fast_json`."""

    def render(self, content: Any) -> bytes:
        return fast_json(content)


def make_bot(label: str, seed: int) -> AnyBot:
    """The bot for one decision of a seat whose label is ``label`` (one of :data:`BOTS`),
    told only what its seat knows (:class:`~high_society.bots.SeatOnly`).

    Raises:
        InvalidConfigError: ``label`` is not one of :data:`BOTS`.
    """
    if label not in BOTS:
        raise InvalidConfigError(f"unknown bot {label!r}: one of {', '.join(BOTS)}")
    bot = parse_entrant(label).factory(seed)
    return SeatOnly(bot) if isinstance(bot, Bot) else bot


class _Failure(Exception):
    """An error answer: HTTP status and the JSON body's fields."""

    def __init__(self, status: int, kind: str, code: str, message: str, path: str = "$") -> None:
        super().__init__(message)
        self.status = status
        self.body: JSONObject = {"kind": kind, "code": code, "message": message, "path": path}


def _malformed(error: RecordError) -> NoReturn:
    raise _Failure(400, "malformed", error.code.value, error.message, error.path)


class _Notifier:
    """Wakes the streams of a table when an action of it is committed, and knows the
    latest version of each table that has a stream here.

    This process's own commits wake their streams at once. Other processes' commits are
    learnt from the database: on PostgreSQL by ``LISTEN`` (:meth:`Store.listen`, in a
    thread), on SQLite by one read of the versions of every watched table each
    ``poll_seconds``. Either way the version is the cursor: a stream sends what came after
    the last number it sent, so a wake-up too many costs a comparison, and one lost (a
    listener reconnecting) is made up for by waking every stream."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiting: dict[str, set[asyncio.Event]] = {}
        self._latest: dict[str, int] = {}

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def subscribe(self, table_id: str) -> asyncio.Event:
        event = asyncio.Event()
        self._waiting.setdefault(table_id, set()).add(event)
        return event

    def unsubscribe(self, table_id: str, event: asyncio.Event) -> None:
        events = self._waiting.get(table_id)
        if events is not None:
            events.discard(event)
            if not events:
                del self._waiting[table_id]
                self._latest.pop(table_id, None)

    @property
    def streams(self) -> int:
        """How many streams wait here."""
        return sum(len(events) for events in self._waiting.values())

    def watched(self) -> list[str]:
        """The tables with a stream here."""
        return list(self._waiting)

    def latest(self, table_id: str) -> int | None:
        """The latest version of the table known here, if any."""
        return self._latest.get(table_id)

    def notify(self, table_id: str, version: int) -> None:
        """Table ``table_id`` has ``version`` actions committed: wake its streams (from
        any thread)."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._wake, table_id, version)

    def notify_here(self, table_id: str, version: int) -> None:
        """:meth:`notify`, from the event loop's own thread."""
        self._wake(table_id, version)

    def notify_all(self) -> None:
        """Wake every stream, to read its table's version again (from any thread)."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._wake_all)

    def _wake(self, table_id: str, version: int) -> None:
        events = self._waiting.get(table_id)
        if not events or version <= self._latest.get(table_id, -1):
            return
        self._latest[table_id] = version
        for event in events:
            event.set()

    def _wake_all(self) -> None:
        self._latest.clear()
        for events in self._waiting.values():
            for event in events:
                event.set()


class _Watch:
    """One event stream as :class:`_Watcher` sees it: its task, when its write began (if
    one is under way), when it last sent, its wake-up."""

    __slots__ = ("keep_alive", "sending_since", "sent", "task", "timed_out", "wake")

    def __init__(self, wake: asyncio.Event, now: float) -> None:
        self.wake = wake
        self.task: asyncio.Task[Any] | None = None
        self.sending_since: float | None = None
        self.sent = now
        self.keep_alive = False
        self.timed_out = False


class _Watcher:
    """The clocks of a process's event streams, read by one task each ``period`` seconds
    (instead of a timer for every write and every wait): a stream whose client has not
    taken a write for ``send_seconds`` is ended, and one that has sent nothing for
    :data:`KEEP_ALIVE_SECONDS` is woken to send a comment."""

    def __init__(self, send_seconds: float) -> None:
        self.send_seconds = send_seconds
        self.period = min(1.0, send_seconds / 4)
        self.watches: set[_Watch] = set()

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.period)
            now = loop.time()
            for watch in self.watches:
                began = watch.sending_since
                if began is not None and now - began >= self.send_seconds:
                    if not watch.timed_out and watch.task is not None:
                        watch.timed_out = True
                        watch.task.cancel()
                elif now - watch.sent >= KEEP_ALIVE_SECONDS and not watch.keep_alive:
                    watch.keep_alive = True
                    watch.wake.set()


class _EventStream(StreamingResponse):
    """A Server-Sent Events response that gives up on a client that does not read: a
    write that cannot go out within the watcher's ``send_seconds`` ends the stream and
    frees what it holds, its connection included (aborted: see :func:`_abort_connection`)."""

    def __init__(
        self,
        content: AsyncGenerator[bytes, None],
        *,
        watch: _Watch,
        watcher: _Watcher,
        release: Callable[[], None],
    ) -> None:
        super().__init__(
            content,
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )
        self._content = content
        self._scope: Scope = {}
        self._watch = watch
        self._watcher = watcher
        self._release = release

    async def stream_response(self, send: Send) -> None:
        watch = self._watch
        task = asyncio.current_task()
        watch.task = task
        clock = asyncio.get_running_loop().time

        async def watched(message: Message) -> None:
            watch.sending_since = clock()
            await send(message)
            watch.sending_since = None
            watch.sent = clock()

        self._watcher.watches.add(watch)
        try:
            await super().stream_response(watched)
        except asyncio.CancelledError:
            if not watch.timed_out or task is None:
                raise
            task.uncancel()  # the watcher's cancellation: this stream's end, not the server's
            log.warning(
                "an event stream's client read nothing for %s s: closed",
                self._watcher.send_seconds,
            )
            _abort_connection(self._scope)
        finally:
            self._watcher.watches.discard(watch)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self._scope = scope
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self._content.aclose()
            self._release()


#: SO_LINGER on, for 0 s: closing the socket resets the connection.
_RESET = struct.pack("ii", 1, 0)
#: The scope's key for the ASGI server's own ``send`` (see :class:`_Application`).
_SERVER_SEND = "high_society.server_send"


class _Application(FastAPI):
    """FastAPI that keeps the ASGI server's own ``send`` in each scope, before any
    middleware wraps it: under uvicorn it is the connection's, which an event stream whose
    client reads nothing must abort (see :func:`_abort_connection`)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        scope[_SERVER_SEND] = send
        try:
            await super().__call__(scope, receive, send)
        finally:
            # uvicorn's ``send`` is a method of the object that holds the scope: a cycle
            # that would leave each request's objects to the garbage collector.
            del scope[_SERVER_SEND]


def _abort_connection(scope: Scope) -> None:
    """Reset the connection of ``scope`` at once, if its server lets us (uvicorn: its
    ``send`` is a method of an object holding the asyncio transport). A close would wait
    for the buffered bytes to reach a client that reads nothing: the socket and those bytes
    (up to the transport's 64 KiB and the kernel's buffer) would be held for as long as the
    client stays connected, and such clients could pile up. Under another server the
    connection is closed its own way."""
    owner = getattr(scope.get(_SERVER_SEND), "__self__", None)
    transport = getattr(owner, "transport", None)
    abort = getattr(transport, "abort", None)
    extra = getattr(transport, "get_extra_info", None)
    if not (callable(abort) and callable(extra)):  # asyncio's transports, uvloop's
        return
    connection = extra("socket")
    with contextlib.suppress(AttributeError, OSError):
        # A reset, not a close whose unsent bytes the kernel would go on offering to a
        # client that takes none (for minutes, in zero-window probes).
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, _RESET)
    abort()


def _header(request: Request, name: bytes) -> str | None:
    """A request header's first value, ``name`` in lower case (as ASGI servers give them):
    a scan of the few raw headers, cheaper than building the request's header mapping."""
    for key, value in request.scope["headers"]:
        if key == name:
            text: str = value.decode("latin-1")
            return text
    return None


async def _body(request: Request, limit: int = MAX_BODY_BYTES) -> bytes:
    """The request's body, refused past ``limit`` bytes before more is read."""
    declared = _header(request, b"content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise _Failure(413, "too_large", "TOO_LARGE", f"a request body holds at most {limit} bytes")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            raise _Failure(
                413, "too_large", "TOO_LARGE", f"a request body holds at most {limit} bytes"
            )
    return bytes(data)


def _json_object(data: bytes) -> dict[str, Any]:
    try:
        value = parse_json(data, limit=MAX_BODY_BYTES)
    except RecordError as error:
        _malformed(error)
    if type(value) is not dict:
        raise _Failure(400, "malformed", "WRONG_TYPE", "the body must be a JSON object")
    return value


def _keys(
    obj: dict[str, Any], path: str, required: Sequence[str], optional: Sequence[str] = ()
) -> None:
    for key in obj:
        if key not in required and key not in optional:
            raise _Failure(
                400, "malformed", "UNKNOWN_KEY", f"unknown key {key[:40]!r}", f"{path}.{key[:40]}"
            )
    for key in required:
        if key not in obj:
            raise _Failure(
                400, "malformed", "MISSING_KEY", f'the key "{key}" is missing', f"{path}.{key}"
            )


def _name(value: object, path: str) -> str:
    try:
        return check_name(value, path)
    except RecordError as error:
        _malformed(error)


def _seat_specs(body: dict[str, Any]) -> list[tuple[str, str | None, str | None]]:
    _keys(body, "$", ("seats",))
    items = body["seats"]
    if type(items) is not list or not MIN_PLAYERS <= len(items) <= MAX_PLAYERS:
        raise _Failure(
            400,
            "malformed",
            "BAD_PLAYERS",
            f"seats must be a list of {MIN_PLAYERS} to {MAX_PLAYERS} seats",
            "$.seats",
        )
    specs: list[tuple[str, str | None, str | None]] = []
    for i, item in enumerate(items):
        path = f"$.seats[{i}]"
        if type(item) is not dict:
            raise _Failure(400, "malformed", "WRONG_TYPE", "a seat must be an object", path)
        kind = item.get("kind")
        if kind == "person":
            _keys(item, path, ("kind", "name"))
            specs.append(("person", _name(item["name"], f"{path}.name"), None))
        elif kind == "bot":
            _keys(item, path, ("kind", "bot"))
            label = item["bot"]
            if label not in BOTS:
                raise _Failure(
                    400,
                    "malformed",
                    "UNKNOWN_BOT",
                    f"a bot is one of {', '.join(BOTS)}",
                    f"{path}.bot",
                )
            specs.append(("bot", None, label))
        elif kind == "open":
            _keys(item, path, ("kind",))
            specs.append(("open", None, None))
        else:
            raise _Failure(
                400,
                "malformed",
                "WRONG_TYPE",
                'a seat\'s kind is "person", "bot" or "open"',
                f"{path}.kind",
            )
    names = [name for _, name, _ in specs if name is not None]
    if len(set(names)) != len(names):
        raise _Failure(400, "malformed", "BAD_PLAYERS", "two seats have the same name", "$.seats")
    if not any(kind == "person" for kind, _, _ in specs) and not any(
        kind == "open" for kind, _, _ in specs
    ):
        raise _Failure(
            400, "malformed", "BAD_PLAYERS", "a table needs a person (or an open seat)", "$.seats"
        )
    # Bots are named after their kind and seat, never like a person.
    named: list[tuple[str, str | None, str | None]] = []
    for seat, (kind, name, label) in enumerate(specs):
        if kind == "bot":
            assert label is not None
            name = f"{label.capitalize()} bot {seat + 1}"
            while name in names:
                name += "'"
            names.append(name)
        named.append((kind, name, label))
    return named


def _token(request: Request) -> str:
    header = _header(request, b"authorization") or ""
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise _Failure(
            401, "unauthorized", "NO_TOKEN", "send the seat's token: Authorization: Bearer TOKEN"
        )
    return token.strip()


def _since(request: Request, number: int) -> int:
    text = request.query_params.get("since") or request.headers.get("last-event-id") or "0"
    if not text.isdigit() or len(text) > 9:
        raise _Failure(400, "malformed", "WRONG_TYPE", "since must be a whole number", "$.since")
    return min(int(text), number)


def _failure(error: Exception) -> _Failure:
    if isinstance(error, _Failure):
        return error
    if isinstance(error, NotFound):
        return _Failure(404, "not_found", "NO_SUCH_TABLE", "there is no such table")
    if isinstance(error, Unauthorized):
        return _Failure(401, "unauthorized", "BAD_TOKEN", "the token is not a seat's at this table")
    if isinstance(error, Conflict):
        return _Failure(409, "conflict", error.code, error.message)
    if isinstance(error, HighSocietyError):
        data = error_to_json(error)
        return _Failure(
            400, "malformed", str(data["code"]), str(data["message"]), str(data.get("path", "$"))
        )
    if is_unavailable(error):
        log.warning("the database cannot answer: %s", _first_line(error))
        return _Failure(
            503, "unavailable", "UNAVAILABLE", "the database cannot answer now: try again"
        )
    raise error


def _first_line(error: BaseException) -> str:
    """An error's first line (a database error's message, without its SQL)."""
    return str(error).split("\n", 1)[0][:300]


def _answer(failure: _Failure) -> Response:
    headers = {}
    if failure.status == 401:
        headers["WWW-Authenticate"] = "Bearer"
    if failure.status == 503:
        headers["Retry-After"] = "1"
    return _Json(failure.body, failure.status, headers=headers)


#: An endpoint of a table's: its id (from the path) and the request.
_Endpoint = Callable[[str, Request], Awaitable[Response]]


class _TableRoute(APIRoute):
    """A route whose endpoint is an :data:`_Endpoint`, called with the path's table id
    and the request as they come. Those endpoints read and check what they take
    themselves, so FastAPI's dependency solving and parameter checks, a good part of a
    move's cost, are skipped; the OpenAPI schema is still made from the signature."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        endpoint = cast(_Endpoint, self.endpoint)

        async def handle(request: Request) -> Response:
            return await endpoint(request.path_params["table_id"], request)

        return handle


def _schema_ref(schema: JSONObject, description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


_REFUSAL = refusal_schema()
_ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: _schema_ref(_REFUSAL, "Malformed: not JSON, not of the right form (kind malformed)"),
    401: _schema_ref(_REFUSAL, "No token, or not a seat's token at this table"),
    404: _schema_ref(_REFUSAL, "No such table"),
    409: _schema_ref(_REFUSAL, "The table is not there yet: waiting for players, a wrong number"),
    413: _schema_ref(_REFUSAL, "The body is larger than 4096 bytes"),
    503: _schema_ref(_REFUSAL, "The database cannot answer now, or too many streams (Retry-After)"),
}


def create_app(
    database: str,
    *,
    poll_seconds: float = 1.0,
    sweep_seconds: float = 5.0,
    bot_delay: float = 0.0,
    max_streams: int = 1000,
    max_seat_streams: int = 4,
    send_seconds: float = 30.0,
) -> FastAPI:
    """The table server as an ASGI application, over the database at ``database`` (a
    SQLAlchemy URL: ``sqlite:///path/tables.sqlite3``, ``postgresql://user@host/db``).

    ``poll_seconds``: on SQLite, how often this process reads the versions of the tables
    it streams, to learn of actions committed by another process (PostgreSQL tells it at
    once: ``LISTEN``/``NOTIFY``; this process's own commits wake its streams at once).
    ``sweep_seconds``: how often the server looks for tables where a bot or the dealer
    must act and plays them (after a restart, or when another process stopped).
    ``bot_delay``: seconds between two automatic actions of a table, so that people can
    follow the bots. ``max_streams``: the open event streams of this process, and
    ``max_seat_streams`` those of one seat; past them a stream is refused (503, 429).
    ``send_seconds``: a stream whose client reads nothing for that long is ended, and its
    connection reset (under uvicorn; another server closes it its own way).

    The application is meant to be its process's main one: when it starts, it moves the
    objects alive then out of the garbage collector's way (``gc.freeze()``), so that the
    collector's full passes do not pause it for long; they are handed back when it stops
    (``gc.unfreeze()``).

    Raises (when the application starts):
        InvalidConfigError: ``database`` is not a URL of a database this server can use,
            or the database holds another schema version.
    """
    notifier = _Notifier()
    watcher = _Watcher(send_seconds)
    running: set[str] = set()
    tasks: set[asyncio.Task[None]] = set()
    state: dict[str, Any] = {}
    stopping = threading.Event()
    open_streams: dict[tuple[str, int], int] = {}

    def store() -> Store:
        found: Store = state["store"]
        return found

    def advance_sync(table_id: str) -> None:
        """Play the table's automatic actions until a person must act (in a thread)."""
        known: int | None = None
        while not stopping.is_set():
            table, bot_seed = store().load(table_id, known)
            action = automatic_action(table, bot_seed, make_bot)
            if action is None:
                return
            if store().commit_automatic(table_id, table.number, action):
                known = table.number + 1
                notifier.notify(table_id, known)
                if bot_delay:
                    time.sleep(bot_delay)
            else:
                known = None  # another process played it: read the table again

    async def advance(table_id: str) -> None:
        if table_id in running:
            return
        running.add(table_id)
        try:
            await run_in_threadpool(advance_sync, table_id)
        except (NotFound, Conflict):
            pass
        except Exception as error:
            if is_unavailable(error):  # the sweep tries again
                log.warning("advancing table %s: %s", table_id, _first_line(error))
            else:
                log.exception("advancing table %s failed", table_id)
        finally:
            running.discard(table_id)

    def spawn(table_id: str) -> None:
        task = asyncio.get_running_loop().create_task(advance(table_id))
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    async def sweep() -> None:
        while True:
            try:
                for table_id in await run_in_threadpool(store().due):
                    spawn(table_id)
            except Exception as error:
                if is_unavailable(error):
                    log.warning("the sweep: %s", _first_line(error))
                else:
                    log.exception("the sweep failed")
            await asyncio.sleep(sweep_seconds)

    async def poll() -> None:
        """SQLite: the versions of the watched tables, one read each ``poll_seconds``."""
        while True:
            await asyncio.sleep(poll_seconds)
            watched = notifier.watched()
            if not watched:
                continue
            try:
                found = await run_in_threadpool(store().versions, watched)
            except Exception as error:
                if is_unavailable(error):
                    log.warning("polling the tables: %s", _first_line(error))
                    continue
                raise
            for table_id, version in found.items():
                notifier.notify(table_id, version)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        state["store"] = await run_in_threadpool(Store, database)
        # What is alive now (the modules, the application) lives as long as the server:
        # out of the collector's way. A full collection then walks only the tables and
        # requests of the moment, instead of pausing the server for tens of milliseconds.
        gc.collect()
        gc.freeze()
        loop = asyncio.get_running_loop()
        notifier.bind(loop)
        stopping.clear()
        background = [loop.create_task(sweep()), loop.create_task(watcher.run())]
        listener = None
        if store().is_postgres:
            listener = threading.Thread(
                target=store().listen,
                args=(notifier.notify, notifier.notify_all, stopping),
                name="high-society-listen",
                daemon=True,
            )
            listener.start()
        else:
            background.append(loop.create_task(poll()))
        try:
            yield
        finally:
            stopping.set()
            for task in [*background, *tasks]:
                task.cancel()
            if listener is not None:
                await run_in_threadpool(listener.join, 10)
            store().close()
            gc.unfreeze()

    app = _Application(
        title="High Society table server",
        summary="Tables of Reiner Knizia's High Society for people and bots.",
        version="1",
        lifespan=lifespan,
    )

    @app.exception_handler(_Failure)
    async def on_failure(_: Request, error: _Failure) -> Response:
        return _answer(error)

    async def call(function: Callable[..., Any], *args: Any) -> Any:
        try:
            return await run_in_threadpool(function, *args)
        except Exception as error:  # mapped to an answer, or raised again
            raise _failure(error) from None

    async def submit(table_id: str, seat: int, data: bytes) -> Accepted | Refusal:
        """A move, committed: on SQLite by the store's writer thread, which says when (no
        thread of the pool waits for it); else in a thread of the pool."""
        if not store().writes_in_background:
            found: Accepted | Refusal = await call(store().submit, table_id, seat, data)
            return found
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Accepted | Refusal] = loop.create_future()

        def settle(outcome: Accepted | Refusal | None, error: BaseException | None) -> None:
            if future.done():  # the request was cancelled (its client went away)
                return
            if error is not None:
                future.set_exception(error)
            else:
                assert outcome is not None
                future.set_result(outcome)

        def done(outcome: Accepted | Refusal | None, error: BaseException | None) -> None:
            if not loop.is_closed():
                loop.call_soon_threadsafe(settle, outcome, error)

        try:
            store().submit_then(table_id, seat, data, done)
            return await future
        except Exception as error:  # mapped to an answer, or raised again
            raise _failure(error) from None

    async def seat_of(table_id: str, request: Request) -> int:
        """The seat whose token the request carries (read from the database only the
        first time this process sees the table)."""
        token = _token(request)
        try:
            known = store().known_seat(table_id, token)
        except Exception as error:
            raise _failure(error) from None
        if known is not None:
            return known
        found: int = await call(store().seat_of, table_id, token)
        return found

    def table_route(method: str, path: str, **options: Any) -> Callable[[_Endpoint], _Endpoint]:
        """``@app.get`` or ``@app.post`` for a :class:`_TableRoute` (whose class
        FastAPI's decorators do not take)."""

        def register(endpoint: _Endpoint) -> _Endpoint:
            app.router.add_api_route(
                path, endpoint, methods=[method], route_class_override=_TableRoute, **options
            )
            return endpoint

        return register

    static = resources.files("high_society").joinpath("server", "static")

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(str(static.joinpath("index.html")), media_type="text/html")

    app.mount("/static", StaticFiles(directory=str(static)), name="static")

    @app.get("/api/health", summary="Is the server up? How many event streams it holds")
    async def health() -> dict[str, int | bool]:
        return {"ok": True, "streams": sum(open_streams.values())}

    @app.post(
        "/api/tables",
        status_code=201,
        summary="Make a table",
        description=(
            'Seats: 3 to 5 objects, each {"kind": "person", "name": NAME}, {"kind": '
            '"bot", "bot": "random" | "heuristic" | "search"} or {"kind": "open"} '
            "(a person joins later). The answer gives each named person's seat and secret "
            "token; the game starts when no seat is open."
        ),
        responses=_ERROR_RESPONSES,
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {
                        "schema": {
                            "type": "object",
                            "required": ["seats"],
                            "properties": {
                                "seats": {"type": "array", "minItems": 3, "maxItems": 5}
                            },
                        }
                    }
                },
            }
        },
    )
    async def create_table(request: Request) -> Response:
        specs = _seat_specs(_json_object(await _body(request)))
        table_id, tokens = await call(store().create, specs)
        waiting = any(kind == "open" for kind, _, _ in specs)
        if not waiting and store().automatic_due(table_id):
            spawn(table_id)
        return _Json(
            {
                "table": table_id,
                "status": "waiting" if waiting else "playing",
                "seats": [{"seat": seat, "token": token} for seat, token in tokens],
            },
            201,
        )

    @app.get(
        "/api/tables/{table_id}",
        summary="A table's seats and status (public)",
        responses=_ERROR_RESPONSES,
    )
    async def get_table(table_id: str) -> Response:
        lobby = await call(store().lobby, table_id)
        return _Json(
            {
                "table": lobby.table_id,
                "status": lobby.status,
                "number": lobby.version,
                "seats": [
                    {"seat": i, "kind": kind, "name": name, "bot": bot}
                    for i, (kind, name, bot) in enumerate(lobby.seats)
                ],
            }
        )

    @table_route(
        "POST",
        "/api/tables/{table_id}/join",
        summary="Take an open seat",
        description='Body: {"name": NAME}. The answer gives the seat and its secret token.',
        responses=_ERROR_RESPONSES,
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {
                        "schema": {
                            "type": "object",
                            "required": ["name"],
                            "properties": {
                                "name": {"type": "string", "minLength": 1, "maxLength": 64}
                            },
                        }
                    }
                },
            }
        },
    )
    async def join(table_id: str, request: Request) -> Response:
        body = _json_object(await _body(request))
        _keys(body, "$", ("name",))
        name = _name(body["name"], "$.name")
        seat, token = await call(store().join, table_id, name)
        spawn(table_id)
        return _Json({"table": table_id, "seat": seat, "token": token})

    @table_route(
        "GET",
        "/api/tables/{table_id}/payload",
        summary="What your seat sees now",
        description="The seat payload (Authorization: Bearer TOKEN); since=N: history from N.",
        responses={200: _schema_ref(payload_schema(), "The seat payload"), **_ERROR_RESPONSES},
    )
    async def payload(table_id: str, request: Request) -> Response:
        seat = await seat_of(table_id, request)
        table, _ = await call(store().load, table_id)
        since = _since(request, table.number)
        return _Json(table.payload(seat, since))

    @table_route(
        "POST",
        "/api/tables/{table_id}/actions",
        summary="Play an action",
        description=(
            'Body: a move, {"action": ACTION, "number": N}, N being the payload\'s number '
            "(the table's next action): a retry with the same N is not played twice. The "
            "action is committed before the answer."
        ),
        responses={
            200: {"description": "Accepted (duplicate: true for a retry already played)"},
            403: _schema_ref(_REFUSAL, "Not your seat's action, or a reveal"),
            422: _schema_ref(_REFUSAL, "Illegal now (the engine's reason code)"),
            **_ERROR_RESPONSES,
        },
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {
                        "schema": {
                            "type": "object",
                            "required": ["action"],
                            "additionalProperties": False,
                            "properties": {
                                "action": action_schema(),
                                "number": {"type": "integer", "minimum": 0},
                            },
                        }
                    }
                },
            }
        },
    )
    async def act(table_id: str, request: Request) -> Response:
        seat = await seat_of(table_id, request)
        data = await _body(request, MAX_MOVE_BYTES)
        outcome = await submit(table_id, seat, data)
        if isinstance(outcome, Accepted):
            if not outcome.duplicate:
                kept = store().kept(table_id, outcome.number + 1, shared=True)
                # The move, and the reveal it made due: the table kept here has both.
                notifier.notify_here(
                    table_id, outcome.number + 1 if kept is None else kept[0].number
                )
                if store().automatic_due(table_id):
                    spawn(table_id)
            return _Json(outcome.to_json())
        return _Json(outcome.to_json(), STATUS[outcome.kind])

    @table_route(
        "GET",
        "/api/tables/{table_id}/events",
        summary="Pushed updates (Server-Sent Events)",
        description=(
            'text/event-stream: an event "payload" (the seat payload, its id the table\'s '
            "number) now and after every action (actions committed together, a move and "
            "the reveal it makes due, in one); since=N or Last-Event-ID: the history from "
            "action N. Authorization: Bearer TOKEN. The stream ends after the game's end, "
            "or when its client has read nothing for a while. A seat has a few streams open "
            "at most (429), a server a bounded number (503)."
        ),
        responses={
            429: _schema_ref(_REFUSAL, "This seat has too many event streams open"),
            **_ERROR_RESPONSES,
        },
    )
    async def events(table_id: str, request: Request) -> StreamingResponse:
        seat = await seat_of(table_id, request)
        status, number = await call(store().version, table_id)
        if status == "waiting":
            raise _Failure(409, "conflict", "TABLE_WAITING", "the table waits for players to join")
        since = _since(request, number)
        key = (table_id, seat)
        if open_streams.get(key, 0) >= max_seat_streams:
            raise _Failure(
                429,
                "too_many",
                "TOO_MANY_STREAMS",
                f"a seat has at most {max_seat_streams} event streams open",
            )
        if sum(open_streams.values()) >= max_streams:
            raise _Failure(
                503, "unavailable", "TOO_MANY_STREAMS", "too many event streams: try again"
            )
        open_streams[key] = open_streams.get(key, 0) + 1
        wake = notifier.subscribe(table_id)
        watch = _Watch(wake, asyncio.get_running_loop().time())

        def release() -> None:
            notifier.unsubscribe(table_id, wake)
            open_streams[key] -= 1
            if not open_streams[key]:
                del open_streams[key]

        async def stream() -> AsyncGenerator[bytes, None]:
            last = -1
            while True:
                wake.clear()
                known = notifier.latest(table_id)
                if last < 0 or known is None or known > last:
                    # A version just committed here is kept here: no read, no thread.
                    # (The first event needs the version read as the stream opened;
                    # later ones, a notification's, unless the notifier lost count.)
                    kept = None
                    if last < 0 or known is not None:
                        wanted = max(number, known or 0)
                        kept = store().kept(table_id, wanted, shared=True)
                    table = None if kept is None else kept[0]
                    if table is None:
                        try:
                            table, _ = await run_in_threadpool(store().load, table_id, known)
                        except Exception as error:
                            if not is_unavailable(error):
                                raise
                            # The database is away: the stream waits for it, and goes on.
                            log.warning("a stream: %s", _first_line(error))
                    if table is not None and table.number > last:
                        start = since if last < 0 else last
                        data = fast_json(table.payload(seat, start))
                        yield b"id: %d\nevent: payload\ndata: %s\n\n" % (table.number, data)
                        last = table.number
                        if table.is_over:
                            return
                await wake.wait()
                if watch.keep_alive:  # a comment keeps proxies from closing
                    watch.keep_alive = False
                    yield b": keep-alive\n\n"

        return _EventStream(stream(), watch=watch, watcher=watcher, release=release)

    @app.get(
        "/api/tables/{table_id}/record",
        summary="The game so far as a recorded game (format v1)",
        responses={
            200: _schema_ref({"$ref": "urn:high-society:record:v1"}, "A v1 record"),
            **_ERROR_RESPONSES,
        },
    )
    async def record(table_id: str) -> Response:
        text = await call(store().record_text, table_id)
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="high-society-{table_id}.json"'},
        )

    return app
