"""SQLite's one writer: the thread of a process that writes to a SQLite database, committing
in groups.

SQLite has one writer at a time, and a durable commit (``synchronous=FULL``) waits for the
disk (an fsync: milliseconds). So jobs are queued here, from any thread, and the writer
takes all those waiting in one transaction: each job runs in a savepoint of its own (its
failure undoes only its writes), and one commit makes them all durable. Each job's future
is settled after that commit (or the failure): an event loop queues a write and awaits it,
without a thread of its own waiting for it.
"""

import logging
import threading
from collections import deque
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


class Writer:
    """The writer thread of one database (see the module's description). ``begin()``
    opens a writing transaction and gives its cursor."""

    def __init__(self, begin: Callable[[], AbstractContextManager[_Cursor]]) -> None:
        self._begin = begin
        self._jobs: deque[tuple[Job, Future[Any]]] = deque()
        self._condition = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._work, name="high-society-writer", daemon=True)
        self._thread.start()

    def submit(self, job: Callable[[Any], T]) -> "Future[T]":
        """Queue ``job(cursor)``; its future holds its value once committed, or its error.

        Raises:
            RuntimeError: the writer is closed.
        """
        future: Future[T] = Future()
        with self._condition:
            if self._closed:
                raise RuntimeError("the store is closed")
            self._jobs.append((job, future))
            self._condition.notify()
        return future

    def close(self) -> None:
        """Commit what is queued, then stop the thread."""
        with self._condition:
            self._closed = True
            self._condition.notify()
        self._thread.join()

    def _work(self) -> None:
        while True:
            with self._condition:
                while not self._jobs and not self._closed:
                    self._condition.wait()
                if not self._jobs:
                    return
                group = list(self._jobs)
                self._jobs.clear()
            results = self._commit([job for job, _ in group])
            for (_, future), (value, error) in zip(group, results, strict=True):
                if not future.set_running_or_notify_cancel():
                    continue
                if error is not None:
                    future.set_exception(error)
                else:
                    future.set_result(value)

    def _commit(self, group: list[Job]) -> list[tuple[Any, BaseException | None]]:
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
