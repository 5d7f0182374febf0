"""Event streams: each seat's payloads pushed as Server-Sent Events, now and after every
action of its table, with bounded numbers of streams and a deadline for clients that stop
reading.

A stream's cursor is the table's version: woken (:class:`~high_society.server._notify.
Notifier`), it sends the seat's payload with the history since the last number it sent, so
actions committed together, or faster than the stream sends, go in one event.
"""

import asyncio
import contextlib
import logging
import socket
import struct
from collections.abc import AsyncGenerator, Callable
from typing import Any

from starlette.responses import StreamingResponse
from starlette.types import Message, Receive, Scope, Send

from high_society.server._dialects import is_unavailable
from high_society.server._games import Games
from high_society.server._notify import Notifier

__all__ = [
    "KEEP_ALIVE_SECONDS",
    "SERVER_SEND",
    "EventStream",
    "StreamSlots",
    "Watcher",
    "seat_events",
]

log = logging.getLogger("high_society.server")

#: Seconds of silence after which an event stream sends a comment (proxies close idle
#: connections).
KEEP_ALIVE_SECONDS = 15.0
#: The scope's key for the ASGI server's own ``send`` (kept by the application, before any
#: middleware wraps it: see :func:`_abort_connection`).
SERVER_SEND = "high_society.server_send"
#: SO_LINGER on, for 0 s: closing the socket resets the connection.
_RESET = struct.pack("ii", 1, 0)


class StreamSlots:
    """How many event streams are open, per key (a seat of a table, a client's address)
    and in all, against their bounds: ``per_key`` for each key of the first kind,
    ``per_address`` for the second. A spectator's stream has no key of the first kind:
    only its address and the total bound it."""

    def __init__(self, per_key: int, total: int, per_address: int = 32) -> None:
        self.per_key = per_key
        self.per_address = per_address
        self.total = total
        self._open: dict[object, int] = {}
        self._count = 0

    @property
    def count(self) -> int:
        """How many streams are open."""
        return self._count

    def full_for(self, key: object) -> bool:
        """Whether ``key`` has as many streams as it may."""
        return self._open.get(key, 0) >= self.per_key

    def full_at(self, address: str) -> bool:
        """Whether ``address`` has as many streams as it may."""
        return self._open.get(("address", address), 0) >= self.per_address

    @property
    def full(self) -> bool:
        """Whether the process has as many streams as it may."""
        return self._count >= self.total

    def take(self, key: object, address: str) -> Callable[[], None]:
        """Count a stream of ``key`` (``None``: a spectator's) from ``address``; return what
        releases it (once)."""
        keys = ((key,) if key is not None else ()) + (("address", address),)
        for counted in keys:
            self._open[counted] = self._open.get(counted, 0) + 1
        self._count += 1
        released = False

        def release() -> None:
            nonlocal released
            if released:
                return
            released = True
            self._count -= 1
            for counted in keys:
                self._open[counted] -= 1
                if not self._open[counted]:
                    del self._open[counted]

        return release


class Watch:
    """One event stream as :class:`Watcher` sees it: its task, when its write began (if
    one is under way), when it last sent, its wake-up."""

    __slots__ = ("keep_alive", "sending_since", "sent", "task", "timed_out", "wake")

    def __init__(self, wake: asyncio.Event, now: float) -> None:
        self.wake = wake
        self.task: asyncio.Task[Any] | None = None
        self.sending_since: float | None = None
        self.sent = now
        self.keep_alive = False
        self.timed_out = False


class Watcher:
    """The clocks of a process's event streams, read by one task each ``period`` seconds
    (instead of a timer for every write and every wait): a stream whose client has not
    taken a write for ``send_seconds`` is ended, and one that has sent nothing for
    :data:`KEEP_ALIVE_SECONDS` is woken to send a comment."""

    def __init__(self, send_seconds: float) -> None:
        self.send_seconds = send_seconds
        self.period = min(1.0, send_seconds / 4)
        self.watches: set[Watch] = set()

    def watch(self, wake: asyncio.Event) -> Watch:
        return Watch(wake, asyncio.get_running_loop().time())

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


async def seat_events(
    games: Games, notifier: Notifier, table_id: str, seat: int, since: int, watch: Watch
) -> AsyncGenerator[bytes, None]:
    """The events of one seat's stream (seat ``-1``: a spectator's): its payload now (the
    history from ``since``), then after each wake-up that brings a later version, until
    the game's end; a comment when the watcher asks for one. While the database is away,
    the stream waits for it."""
    last = -1
    wake = watch.wake
    while True:
        wake.clear()
        known = notifier.latest(table_id)
        if last < 0 or known is None or known > last:
            # A version committed or learnt here is kept here: no read. (The first event
            # reads the table's version; so does one after the notifier lost count.)
            game = None
            try:
                game = await games.at_least(table_id, known if last >= 0 else None)
            except Exception as error:
                if not is_unavailable(error):
                    raise
                log.warning("a stream waits for the database: %s", str(error).split("\n")[0])
            if game is not None and game.table.number > last:
                number = game.table.number
                data = game.payload(seat, min(since, number) if last < 0 else last)
                yield b"id: %d\nevent: payload\ndata: %s\n\n" % (number, data)
                last = number
                if game.table.is_over:
                    return
        await wake.wait()
        if watch.keep_alive:  # a comment keeps proxies from closing
            watch.keep_alive = False
            yield b": keep-alive\n\n"


class EventStream(StreamingResponse):
    """A Server-Sent Events response that gives up on a client that does not read: a
    write that cannot go out within the watcher's ``send_seconds`` ends the stream and
    frees what it holds, its connection included (reset: see :func:`_abort_connection`)."""

    def __init__(
        self,
        content: AsyncGenerator[bytes, None],
        *,
        watch: Watch,
        watcher: Watcher,
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


def _abort_connection(scope: Scope) -> None:
    """Reset the connection of ``scope`` at once, if its server lets us (uvicorn: its
    ``send`` is a method of an object holding the asyncio transport). A close would wait
    for the buffered bytes to reach a client that reads nothing: the socket and those bytes
    (up to the transport's 64 KiB and the kernel's buffer) would be held for as long as the
    client stays connected, and such clients could pile up. Under another server the
    connection is closed its own way."""
    owner = getattr(scope.get(SERVER_SEND), "__self__", None)
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
