"""SQLite's one writer: the thread of a process that writes to a SQLite database, committing
in groups.

SQLite has one writer at a time, and a durable commit (``synchronous=FULL``) waits for the
disk (an fsync: milliseconds). So jobs are queued here, from any thread, and the writer
takes all those waiting in one transaction, and one commit makes them all durable. A
job's failure undoes only its writes: when one fails, the group is undone and run again
with each job in a savepoint of its own (savepoints cost about a tenth of a small group's
CPU, and jobs seldom fail). So a job must be a function of the database alone, safe to run
twice: all it does is through its cursor. Each job is settled
after that commit (or the failure): a thread waits on a future of its own
(:meth:`Writer.submit`), an event loop awaits a future of its own, settled in the loop's
thread (:meth:`Writer.soon`), without a thread waiting for it.
"""

import asyncio
import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from contextlib import AbstractContextManager
from typing import Any, Protocol, TypeVar

__all__ = ["Writer"]

log = logging.getLogger("high_society.server")

T = TypeVar("T")


class _Cursor(Protocol):
    def plain(self, text: str) -> None: ...


Job = Callable[[Any], Any]
#: How a job's caller learns its end: called by the writer with its value or its error.
Settle = Callable[[Any, BaseException | None], None]
#: What the writer's queue holds: a job and how to settle it; ``None`` asks it to stop.
_Queued = tuple[Job, Settle] | None


class Writer:
    """The writer thread of one database (see the module's description). ``begin()``
    opens a writing transaction and gives its cursor."""

    def __init__(self, begin: Callable[[], AbstractContextManager[_Cursor]]) -> None:
        self._begin = begin
        # A queue written in C: putting a job and waking the writer costs a lock's release.
        self._jobs: queue.SimpleQueue[_Queued] = queue.SimpleQueue()
        self._closing = threading.Lock()  # held while a job is queued, and to close
        self._closed = False
        self._thread = threading.Thread(target=self._work, name="high-society-writer", daemon=True)
        self._thread.start()

    def submit(self, job: Callable[[Any], T]) -> "Future[T]":
        """Queue ``job(cursor)``, from any thread; its future holds its value once committed,
        or its error.

        Raises:
            RuntimeError: the writer is closed.
        """
        future: Future[T] = Future()
        self._queue(job, lambda value, error: _settle_future(future, value, error))
        return future

    def soon(self, job: Callable[[Any], T]) -> "asyncio.Future[T]":
        """Queue ``job(cursor)`` from the thread of a running event loop; the loop's future
        holds its value once committed, or its error.

        Raises:
            RuntimeError: the writer is closed.
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()

        def settle(value: Any, error: BaseException | None) -> None:
            try:
                loop.call_soon_threadsafe(_settle_soon, future, value, error)
            except RuntimeError:  # the loop closed meanwhile: nobody awaits it
                log.debug("a write ended after its event loop closed")

        self._queue(job, settle)
        return future

    def close(self) -> None:
        """Commit what is queued, then stop the thread."""
        with self._closing:
            self._closed = True
            self._jobs.put(None)
        self._thread.join()

    def _queue(self, job: Job, settle: Settle) -> None:
        with self._closing:
            if self._closed:
                raise RuntimeError("the store is closed")
            self._jobs.put((job, settle))

    def _work(self) -> None:
        stopping = False
        while not stopping:
            group: list[tuple[Job, Settle]] = []
            queued = self._jobs.get()
            while queued is not None:
                group.append(queued)
                try:
                    queued = self._jobs.get_nowait()
                except queue.Empty:
                    break
            stopping = queued is None  # nothing is queued after the stop (``_closing``)
            if group:
                results = self._commit([job for job, _ in group])
                for (_, settle), (value, error) in zip(group, results, strict=True):
                    settle(value, error)

    def _commit(self, group: list[Job]) -> list[tuple[Any, BaseException | None]]:
        if len(group) > 1:  # most groups: all their jobs succeed, with no savepoint to pay
            try:
                with self._begin() as cursor:
                    return [(job(cursor), None) for job in group]
            except Exception:  # one failed, which undid them all: each again in its savepoint
                pass
        results: list[tuple[Any, BaseException | None]] = []
        try:
            with self._begin() as cursor:
                if len(group) == 1:  # alone: its failure undoes the transaction
                    results.append((group[0](cursor), None))
                else:
                    for job in group:
                        cursor.plain("SAVEPOINT hs_job")
                        try:
                            value = job(cursor)
                        except Exception as error:
                            cursor.plain("ROLLBACK TO SAVEPOINT hs_job")
                            results.append((None, error))
                        else:
                            results.append((value, None))
                        cursor.plain("RELEASE SAVEPOINT hs_job")
        except Exception as error:  # a lone job or the commit failed: nothing is written
            return [(None, error) for _ in group]
        return results


def _settle_future(future: "Future[Any]", value: Any, error: BaseException | None) -> None:
    if not future.set_running_or_notify_cancel():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(value)


def _settle_soon(future: "asyncio.Future[Any]", value: Any, error: BaseException | None) -> None:
    if future.done():  # cancelled meanwhile
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(value)
