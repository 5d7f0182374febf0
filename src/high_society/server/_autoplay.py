"""The bots' and the dealer's turns at a server's tables, and the time-outs of its clocks.

They play through the library's one game loop (:meth:`Table.autoplay
<high_society.table.Table.autoplay>`), one step at a time: each step is worked out in a
thread of the bots' own pool (a search bot thinks for a while; the event loop never waits
for it), committed through the master's commit, announced, and followed by an awaited
pause (``delay``), so that people can follow. A person's turn that times out is played
the same way, by the table (:meth:`Table.time_out <high_society.table.Table.time_out>`):
at its deadline in the process that committed the turn's start, or at a sweep in any
process (after a restart); the store's version check makes it happen once.
"""

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager
from typing import Protocol

from high_society.bots import AnyBot
from high_society.server._bots import TableBot
from high_society.server._dialects import is_unavailable
from high_society.server._games import Games
from high_society.server._store_rows import Conflict, NotFound, Retired
from high_society.server._tasks import TaskSet
from high_society.table import Seat, Table

__all__ = ["Autoplay"]

log = logging.getLogger("high_society.server")


class _Committer(Protocol):
    """What plays a step commits through (the master)."""

    async def commit(
        self, table_id: str, before: int, table: Table, seat: int | None, bot_seed: int
    ) -> bool: ...

    def writing(self, table_id: str) -> AbstractAsyncContextManager[None]: ...


class Autoplay:
    """The automatic turns of one process's tables (see the module's description):
    ``threads`` tables' bots think at once."""

    def __init__(
        self, master: _Committer, games: Games, tasks: TaskSet, *, delay: float, threads: int
    ) -> None:
        self._master = master
        self._games = games
        self._tasks = tasks
        self._delay = delay
        self._playing: set[str] = set()
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="high-society-bot")

    @property
    def playing(self) -> int:
        """How many tables' bots or dealer play in this process now."""
        return len(self._playing)

    def schedule(self, table_id: str) -> None:
        """Let the table's bots and dealer play, unless they already do here."""
        if table_id in self._playing or not self._tasks.bound:
            return
        self._playing.add(table_id)
        self._tasks.spawn(self._play(table_id))

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    def expire_at(self, table_id: str, deadline: float) -> None:
        """Play the table's time-out at ``deadline`` (seconds since the epoch), if the turn
        is still under way then."""
        if self._tasks.bound:
            self._tasks.spawn(self._expire(table_id, deadline))

    def expire(self, table_ids: Sequence[str]) -> None:
        """Play the time-outs due now at each of ``table_ids`` (the sweep's finds)."""
        for table_id in table_ids:
            self.expire_at(table_id, 0.0)

    async def _expire(self, table_id: str, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - time.time()))
        loop = asyncio.get_running_loop()
        try:
            async with self._master.writing(table_id):
                game = await self._games.get(table_id, fresh=True)
                table = game.table.copy()
                before = table.number
                bots = _away_bots(table, game.bot_seed)
                now = time.time()
                action = await loop.run_in_executor(self._pool, table.time_out, now, bots)
                if action is None:
                    return
                seat = getattr(action, "seat", None)
                committed = await self._master.commit(table_id, before, table, seat, game.bot_seed)
            if committed:
                log.info("table %s: seat %s timed out", table_id, seat)
        except (NotFound, Conflict, Retired):
            pass
        except Exception as error:
            if not is_unavailable(error):  # the sweep tries again
                log.exception("table %s: its time-out failed", table_id)

    async def _play(self, table_id: str) -> None:
        """Play the table's automatic actions, one committed step at a time, until a person
        must act or the game is over."""
        try:
            async for _ in self._steps(table_id):
                if self._delay:
                    await asyncio.sleep(self._delay)
        except (NotFound, Conflict, Retired):
            pass
        except Exception as error:
            if is_unavailable(error):  # the sweep tries again
                reason = str(error).split("\n", 1)[0][:300]
                log.warning("table %s waits for the database: %s", table_id, reason)
            else:
                log.exception("table %s: its bots stopped", table_id)
        finally:
            self._playing.discard(table_id)

    async def _steps(self, table_id: str) -> AsyncIterator[None]:
        """Each automatic step of the table, committed."""
        loop = asyncio.get_running_loop()
        while True:
            game = await self._games.get(table_id, fresh=True)
            table = game.table.copy()
            before = table.number
            steps = table.autoplay(_bots(table.seats, game.bot_seed), time.time())
            action = await loop.run_in_executor(self._pool, next, steps, None)
            if action is None:
                return
            async with self._master.writing(table_id):
                kept = self._games.kept(table_id)
                if kept is not None and kept.table.number != before:
                    continue  # a move came first: work it out again
                seat = getattr(action, "seat", None)
                if not await self._master.commit(table_id, before, table, seat, game.bot_seed):
                    continue
            yield


def _bots(seats: Sequence[Seat], bot_seed: int) -> Mapping[int, AnyBot]:
    return {i: TableBot(seat.bot, bot_seed) for i, seat in enumerate(seats) if seat.bot is not None}


def _away_bots(table: Table, bot_seed: int) -> Mapping[int, AnyBot]:
    """The bot of each seat whose person is away (the time control's)."""
    clocks = table.clocks
    label = clocks.control.bot
    return {i: TableBot(label, bot_seed) for i, clock in enumerate(clocks.seats) if clock.away}
