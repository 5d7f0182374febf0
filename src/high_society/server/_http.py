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
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from high_society.server._limits import Limits

__all__ = ["BoundedHttpProtocol"]

log = logging.getLogger("high_society.server")


class _Coalescing:
    """A transport whose writes made in one turn of the event loop go out as one."""

    __slots__ = ("_loop", "_pending", "_transport")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
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
        super().connection_made(_Coalescing(transport, self.loop))  # type: ignore[arg-type]
        self._head_bytes = 0
        self._header_lines = 0
        self._in_head = True
        self._refused = False
        self._address = self.client[0] if self.client else ""
        count = self._by_address.get(self._address, 0) + 1
        self._by_address[self._address] = count
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
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return
        if self._in_head:
            self._head_bytes += len(data)
        super().data_received(data)
        if self._refused or (self._in_head and self._head_bytes > self.limits.max_head_bytes):
            self._refuse_head()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._in_head = True
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
        if self._head_bytes > self.limits.max_head_bytes + _BODY_IN_FIRST_READ:
            self._refused = True
        if not self._refused:
            super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        if not self._refused:
            super().on_body(body)

    def on_message_complete(self) -> None:
        if not self._refused:
            super().on_message_complete()

    def on_response_complete(self) -> None:
        self._head_bytes = 0
        super().on_response_complete()

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
        if self.transport.is_closing():
            return
        body = _HEAD_TOO_LARGE % (self.limits.max_head_bytes, self.limits.max_headers)
        head = (
            b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n"
            b"content-length: %d\r\nconnection: close\r\n\r\n" % len(body)
        )
        self.transport.write(head + body)
        # A lingering close: the answer, then the end of what is sent, while what the
        # client still sends is read and dropped for a moment (closing with it unread
        # would reset the connection, and the client could lose the answer).
        if self.transport.can_write_eof():
            self.transport.write_eof()
            self.loop.call_later(_LINGER_SECONDS, self.transport.abort)
        else:
            self.transport.close()


#: The error answer to a head over its bounds (the one error shape).
_HEAD_TOO_LARGE = (
    b'{"kind":"too_large","code":"HEAD_TOO_LARGE","message":"a request head holds at most '
    b'%d bytes and %d header lines","path":"$"}'
)
#: A head's last read may bring the start of the body with it (bodies are small).
_BODY_IN_FIRST_READ = 8192
#: How long a refused connection's input is still read (and dropped) before it is closed.
_LINGER_SECONDS = 2.0


def protocol_for(limits: Limits) -> type[BoundedHttpProtocol]:
    """The protocol class for uvicorn's ``http`` option, with ``limits``."""
    return type("BoundedHttpProtocol", (BoundedHttpProtocol,), {"limits": limits})
