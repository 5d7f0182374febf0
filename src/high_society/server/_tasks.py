"""The background tasks a server process runs for its tables (bots' turns, records
written), kept so that they end when the process does."""

import asyncio
from collections.abc import Coroutine
from typing import Any

__all__ = ["TaskSet"]


class TaskSet:
    """Tasks run in the background, until they end or :meth:`cancel` ends them."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """The event loop the tasks run in (set when the application starts)."""
        self._loop = loop

    @property
    def bound(self) -> bool:
        return self._loop is not None

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in the background."""
        assert self._loop is not None, "bind the task set to its event loop first"
        task = self._loop.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def cancel(self) -> None:
        """End every task, and wait for them."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
