"""A server process's background work, from start to stop: the sweep that lets the bots and
the dealer of every table play (after a restart, or when another process stopped) and
deletes the tables past their time, the streams' clocks, and learning of the actions
other processes commit (PostgreSQL tells: ``LISTEN``; on SQLite the versions of the
tables streamed here are read every ``poll_seconds``)."""

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from high_society.server._limits import Limits
from high_society.server._master import Master
from high_society.server._notify import Notifier
from high_society.server._store import Store, is_unavailable
from high_society.server._streams import Watcher

__all__ = ["Background"]

log = logging.getLogger("high_society.server")

T = TypeVar("T")


class Background:
    """The background tasks of one process (see the module's description)."""

    def __init__(
        self,
        store: Store,
        master: Master,
        notifier: Notifier,
        watcher: Watcher,
        *,
        sweep_seconds: float,
        poll_seconds: float,
        limits: Limits,
    ) -> None:
        self._limits = limits
        self._store = store
        self._master = master
        self._notifier = notifier
        self._watcher = watcher
        self._sweep_seconds = sweep_seconds
        self._poll_seconds = poll_seconds
        self._tasks: list[asyncio.Task[Any]] = []
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None
        # The sweep's and the poll's calls to the store, in a thread of their own that
        # stop() waits for: a call still running when the store closes would hand its
        # connection back to a pool already gone.
        self._io = ThreadPoolExecutor(1, thread_name_prefix="high-society-sweep")

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._tasks = [loop.create_task(self._sweep()), loop.create_task(self._watcher.run())]
        if self._store.is_postgres:
            self._listener = threading.Thread(
                target=self._store.listen,
                args=(self._learnt(loop), self._notifier.notify_all, self._stop),
                name="high-society-listen",
                daemon=True,
            )
            self._listener.start()
        else:
            self._tasks.append(loop.create_task(self._poll()))

    async def stop(self) -> None:
        self._stop.set()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await asyncio.to_thread(self._io.shutdown, True)
        if self._listener is not None:
            await asyncio.to_thread(self._listener.join, 10)

    async def _in_store(self, function: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._io, function, *args)

    def _learnt(self, loop: asyncio.AbstractEventLoop) -> Callable[[str, int, str], None]:
        """What the listener thread calls for each action another process committed."""

        def deliver(table_id: str, version: int, action: str) -> None:
            if not loop.is_closed():
                loop.call_soon_threadsafe(self._master.learn, table_id, version, action)

        return deliver

    async def _sweep(self) -> None:
        """Every sweep: make sure the database still holds this server's schema version
        (else stop using it: see :class:`~high_society.server._master.Retired`), let the
        bots and the dealer play wherever they must act, delete the tables past their
        time (:class:`~high_society.server.Limits`)."""
        while not self._master.retired:
            try:
                if await self._in_store(self._store.schema_moved):
                    log.error(
                        "the database's schema was moved on by a newer server: this one "
                        "stops using it (stop it, and run the newer version)"
                    )
                    self._master.retired = True
                    return
                self._master.schedule(await self._in_store(self._store.due))
                now = time.time()
                idle = now - self._limits.idle_hours * 3600
                kept = now - self._limits.keep_days * 86_400
                gone = await self._in_store(self._store.expire, idle, kept)
                if gone:
                    log.info("%d tables past their time deleted", len(gone))
                    self._master.forget(gone)
            except Exception as error:
                if not is_unavailable(error):
                    log.exception("the sweep failed")
            await asyncio.sleep(self._sweep_seconds)

    async def _poll(self) -> None:
        """SQLite: the versions of the tables streamed here, read together every
        ``poll_seconds``; a later one wakes its streams."""
        while True:
            await asyncio.sleep(self._poll_seconds)
            watched = self._notifier.watched()
            if not watched:
                continue
            try:
                versions = await self._in_store(self._store.versions, watched)
            except Exception as error:
                if not is_unavailable(error):
                    log.exception("reading the streamed tables' versions failed")
                continue
            for table_id, version in versions.items():
                self._notifier.wake(table_id, version)
