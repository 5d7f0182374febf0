"""Who waits for a table's next action: the event streams of this process, woken when an
action of their table is committed, here or by another process.

The table's version is the cursor: a stream sends what came after the last number it sent,
so a wake-up too many costs a comparison, and one lost (a listener reconnecting) is made up
for by waking every stream.
"""

import asyncio

__all__ = ["Notifier"]


class Notifier:
    """The wake-ups of this process's event streams, by table, and the latest version of
    each table that has a stream here. Every method but :meth:`notify` and
    :meth:`notify_all` belongs to the event loop's thread."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiting: dict[str, set[asyncio.Event]] = {}
        self._latest: dict[str, int] = {}

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """The event loop the streams wait in (set when the application starts)."""
        self._loop = loop

    def subscribe(self, table_id: str) -> asyncio.Event:
        """A new wake-up for a stream of ``table_id``."""
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
        """The latest version of the table known here, if it has a stream."""
        return self._latest.get(table_id)

    def wake(self, table_id: str, version: int) -> None:
        """Table ``table_id`` has ``version`` actions committed: wake its streams."""
        events = self._waiting.get(table_id)
        if not events or version <= self._latest.get(table_id, -1):
            return
        self._latest[table_id] = version
        for event in events:
            event.set()

    def notify(self, table_id: str, version: int) -> None:
        """:meth:`wake`, from any thread."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self.wake, table_id, version)

    def wake_all(self) -> None:
        """Wake every stream, to read its table's version again."""
        self._latest.clear()
        for events in self._waiting.values():
            for event in events:
                event.set()

    def notify_all(self) -> None:
        """:meth:`wake_all`, from any thread."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self.wake_all)
