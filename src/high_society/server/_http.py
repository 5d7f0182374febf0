"""The HTTP protocol ``high-society serve`` runs under uvicorn: uvicorn's own (on httptools),
with bounds for every client and one send per answer.

- **Bounds.** A request head holds at most :attr:`Limits.max_head_bytes` bytes and
  :attr:`Limits.max_headers` header lines (else ``431``, and the connection is closed:
  httptools itself has no bound); it must arrive whole within
  :attr:`Limits.head_seconds` of the connection or of the previous answer (else the
  connection is closed; uvicorn closes a kept-alive connection idle for
  :attr:`Limits.idle_seconds`); one address holds at most
  :attr:`Limits.max_address_connections` connections (more are closed at once).
- **One send per answer.** uvicorn writes an answer's head and its body separately, two
  system calls and two packets; here the writes of one turn of the event loop are joined
  and sent together (the kernel's send is most of what an answer costs: see
  docs/performance.md).
"""

import asyncio
import logging
from collections.abc import Callable
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from high_society.server._limits import Limits

__all__ = ["BoundedHttpProtocol"]

log = logging.getLogger("high_society.server")


class _Coalescing:
    """A transport whose writes made in one turn of the event loop go out as one, and
    whose ``close`` the protocol may put off (``lingers``: it returns True when it closes
    the connection itself later)."""

    __slots__ = ("_lingers", "_loop", "_pending", "_transport")

    def __init__(
        self,
        transport: asyncio.Transport,
        loop: asyncio.AbstractEventLoop,
        lingers: Callable[[], bool],
    ) -> None:
        self._transport = transport
        self._loop = loop
        self._lingers = lingers
        self._pending: list[bytes] = []

    def write(self, data: bytes) -> None:
        if not self._pending:
            self._loop.call_soon(self._flush)
        self._pending.append(data)

    def _flush(self) -> None:
        if self._pending:
            data = b"".join(self._pending)
            self._pending.clear()
            if not self._transport.is_closing():
                self._transport.write(data)

    def close(self) -> None:
        self._flush()
        if not self._lingers():
            self._transport.close()

    def write_eof(self) -> None:
        self._flush()
        self._transport.write_eof()

    def abort(self) -> None:
        self._pending.clear()
        self._transport.abort()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class BoundedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the bounds of :class:`Limits` and one send per
    answer (see the module's description). ``limits`` is set on the class by
    :func:`protocol_for`."""

    limits: ClassVar[Limits] = Limits()
    #: Open connections per client address, in this process.
    _by_address: ClassVar[dict[str, int]] = {}

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        coalescing = _Coalescing(transport, self.loop, self._linger)  # type: ignore[arg-type]
        super().connection_made(coalescing)  # type: ignore[arg-type]
        self._head_bytes = 0
        self._head_tail = b""
        self._chunk: bytes | None = None
        self._header_lines = 0
        self._in_head = True
        self._refused = False
        self._address = self.client[0] if self.client else ""
        count = self._by_address.get(self._address, 0) + 1
        self._by_address[self._address] = count
        self._unread_timer: asyncio.TimerHandle | None = None
        self._closing_after_body = False
        self._head_timer: asyncio.TimerHandle | None = self.loop.call_later(
            self.limits.head_seconds, self._head_late
        )
        if count > self.limits.max_address_connections:
            log.warning("%s holds %d connections: one more closed", self._address, count - 1)
            self.transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        count = self._by_address.get(self._address, 1) - 1
        if count > 0:
            self._by_address[self._address] = count
        else:
            self._by_address.pop(self._address, None)
        self._cancel_head_timer()
        if self._unread_timer is not None:
            self._unread_timer.cancel()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return
        # Every byte read while the head is incomplete counts as head until the parser
        # says where the head ends (``on_headers_complete``), which takes back the body's
        # bytes that came in the same read.
        self._chunk = data if self._in_head else None
        if self._in_head:
            self._head_bytes += len(data)
        super().data_received(data)
        if self._chunk is not None:  # the head goes on past this read
            self._head_tail = (self._head_tail + data)[-3:]
            self._chunk = None
        if self._refused or (self._in_head and self._head_bytes > self.limits.max_head_bytes):
            self._refuse_head()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._header_lines = 0
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(self.limits.head_seconds, self._head_late)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._header_lines += 1
        if self._header_lines > self.limits.max_headers:
            self._refused = True
        elif not self._refused:
            super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._cancel_head_timer()
        if self._chunk is not None:
            self._head_bytes -= _after_head(self._head_tail, self._chunk)
            self._chunk = None
        self._head_tail = b""
        if self._head_bytes > self.limits.max_head_bytes:
            self._refused = True
        if not self._refused:
            super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        if not self._refused:
            super().on_body(body)

    def on_message_complete(self) -> None:
        # What comes next on the connection is the next request's head.
        self._in_head = True
        self._head_bytes = 0
        self._head_tail = b""
        if self._unread_timer is not None:  # a body answered early has ended
            self._unread_timer.cancel()
            self._unread_timer = None
            if self._closing_after_body:
                self._refused = True
                self.transport.close()
                return
        if not self._refused:
            super().on_message_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self._in_head and self._unread_timer is None and not self.transport.is_closing():
            self._read_rest_of_body()

    def _read_rest_of_body(self) -> None:
        """A request answered before its body ended (413: too large): the rest of the body
        is read and dropped, so that the client, which reads the answer once it has sent
        its body, gets it, but only for as long as a body may take (then the connection
        is closed)."""
        self._unread_timer = self.loop.call_later(self.limits.body_seconds, self._unread_late)

    def _linger(self) -> bool:
        """Whether a close asked for now waits for the rest of the request's body (see
        :meth:`_read_rest_of_body`): closing with input unread would reset the connection,
        and the client could lose the answer."""
        if self._in_head or self._refused:
            return False
        self._closing_after_body = True
        if self._unread_timer is None:
            self._read_rest_of_body()
        return True

    def _unread_late(self) -> None:
        self._unread_timer = None
        if not self._in_head and not self.transport.is_closing():
            log.info("%s went on sending a body answered already: closed", self._address)
            self.transport.abort()

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_late(self) -> None:
        """The head did not arrive in time: close (no request was read whole)."""
        self._head_timer = None
        if self._in_head and not self.transport.is_closing():
            log.info("%s sent no whole request head in time: closed", self._address)
            self.transport.close()

    def _refuse_head(self) -> None:
        self._refused = True
        self._in_head = False
        self._cancel_head_timer()
        if not self.transport.is_closing():
            _answer_head_too_large(self.transport, self.loop, self.limits)


def _answer_head_too_large(
    transport: asyncio.Transport, loop: asyncio.AbstractEventLoop, limits: Limits
) -> None:
    """Answer ``431`` and close with a lingering close: the answer, then the end of what is
    sent, while what the client still sends is read and dropped for a moment (closing
    with it unread would reset the connection, and the client could lose the answer)."""
    body = _HEAD_TOO_LARGE % (limits.max_head_bytes, limits.max_headers)
    head = (
        b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n"
        b"content-length: %d\r\nconnection: close\r\n\r\n" % len(body)
    )
    transport.write(head + body)
    if transport.can_write_eof():
        transport.write_eof()
        loop.call_later(_LINGER_SECONDS, transport.abort)
    else:
        transport.close()


#: The error answer to a head over its bounds (the one error shape).
_HEAD_TOO_LARGE = (
    b'{"kind":"too_large","code":"HEAD_TOO_LARGE","message":"a request head holds at most '
    b'%d bytes and %d header lines","path":"$"}'
)
#: The end of a request head (HTTP/1.1; httptools accepts no other).
_HEAD_END = b"\r\n\r\n"


def _after_head(tail: bytes, chunk: bytes) -> int:
    """How many bytes of ``chunk``, the read in which the head ended, come after the head
    (the body's first bytes, or the next request's); ``tail`` is what was read of the head
    just before ``chunk`` (at most its last 3 bytes, where the end may have begun)."""
    end = (tail + chunk).find(_HEAD_END)
    return 0 if end < 0 else len(tail) + len(chunk) - end - len(_HEAD_END)


#: How long a refused connection's input is still read (and dropped) before it is closed.
_LINGER_SECONDS = 2.0


def protocol_for(limits: Limits) -> type[BoundedHttpProtocol]:
    """The protocol class for uvicorn's ``http`` option, with ``limits``."""
    return type("BoundedHttpProtocol", (BoundedHttpProtocol,), {"limits": limits})
