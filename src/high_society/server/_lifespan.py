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

from high_society.server._dialects import is_unavailable
from high_society.server._lobby import LOBBY_KEY, LobbyWatch
from high_society.server._services import Services
from high_society.server._store import Store

__all__ = ["Background"]

log = logging.getLogger("high_society.server")

T = TypeVar("T")


class Background:
    """The background tasks of one process (see the module's description)."""

    def __init__(
        self, store: Store, parts: Services, *, sweep_seconds: float, poll_seconds: float
    ) -> None:
        self._store = store
        self._parts = parts
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
        lobby = LobbyWatch(self._store, self._parts.notifier, self._poll_seconds)
        self._tasks = [
            loop.create_task(self._sweep()),
            loop.create_task(self._parts.watcher.run()),
            loop.create_task(lobby.run()),
        ]
        if self._store.is_postgres:
            self._listener = threading.Thread(
                target=self._store.listen,
                args=(self._learnt(loop), self._parts.notifier.notify_all, self._stop),
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
                loop.call_soon_threadsafe(self._parts.games.learn, table_id, version, action)

        return deliver

    async def _sweep(self) -> None:
        """Every sweep: make sure the database still holds this server's schema version
        (else stop using it: see :class:`~high_society.server._games.Retired`), start the
        tables whose seats are all taken, let the bots and the dealer play wherever they
        must act, and delete the tables past their time
        (:class:`~high_society.server.Limits`)."""
        parts, store = self._parts, self._store
        games = parts.games
        gap_after = max(60.0, 3 * self._sweep_seconds)
        try:
            given = await self._in_store(store.resume, time.time(), gap_after)
        except Exception as error:
            given = 0.0
            if not is_unavailable(error):
                log.exception("resuming the clocks failed")
        if given:
            log.warning(
                "no server ran for %.0f s: every running clock is given that time back", given
            )
        while not store.retired:
            try:
                if await self._in_store(store.schema_moved):
                    log.error(
                        "the database's schema was moved on by a newer server: this one "
                        "stops using it (stop it, and run the newer version)"
                    )
                    store.retired = True
                    return
                now = time.time()
                await self._in_store(store.beat, now)
                await parts.tables.start(await self._in_store(store.seats.unstarted))
                parts.master.autoplay.expire(await self._in_store(store.timed_out, now))
                parts.master.schedule(await self._in_store(store.due))
                now = time.time()
                idle = now - parts.limits.idle_hours * 3600
                kept = now - parts.limits.keep_days * 86_400
                gone = await self._in_store(store.expire, idle, kept)
                if gone:
                    log.info("%d tables past their time deleted", len(gone))
                    for table_id in gone:
                        games.forget(table_id)
                    parts.keys.forget(gone)
            except Exception as error:
                if not is_unavailable(error):
                    log.exception("the sweep failed")
            await asyncio.sleep(self._sweep_seconds)

    async def _poll(self) -> None:
        """SQLite: the versions of the tables streamed here, read together every
        ``poll_seconds``; a later one wakes its streams."""
        while True:
            await asyncio.sleep(self._poll_seconds)
            notifier = self._parts.notifier
            watched = [key for key in notifier.watched() if key != LOBBY_KEY]
            if not watched:
                continue
            try:
                versions = await self._in_store(self._store.history.versions, watched)
            except Exception as error:
                if not is_unavailable(error):
                    log.exception("reading the streamed tables' versions failed")
                continue
            for table_id, version in versions.items():
                notifier.wake(table_id, version)
