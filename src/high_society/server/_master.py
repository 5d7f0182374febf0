"""The master: a move's road through the server.

A move goes through it in the order of boardgame.io's master: the move (read, and the
seat authenticated, by the HTTP face) is checked and played by the library's table on a
copy of the table kept in memory, with the reveal it makes due (:meth:`Table.deal
<high_society.table.Table.deal>`); the actions are committed to the store in one trip
(which holds only if no other process moved the table on meanwhile: then the table is read
again and the move checked again), and only then is the move acknowledged and the table's
streams woken. The server holds no rule of the game: who acts next is the table's to say
(:attr:`Table.waiting_for <high_society.table.Table.waiting_for>`), and when a bot or the
dealer must act, :mod:`~high_society.server._autoplay` plays for them through the same
commit.
"""

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import attrs

from high_society.actions import Action
from high_society.errors import RecordError
from high_society.record import write_record
from high_society.serial import action_to_json
from high_society.server._autoplay import Autoplay
from high_society.server._encoding import fast_json
from high_society.server._games import Game, Games
from high_society.server._store import Append, Retired, Store
from high_society.server._tasks import TaskSet
from high_society.table import Accepted, Move, Refusal, Table, Waiting, to_act_json

__all__ = ["Busy", "Master", "Played", "action_text", "clock_columns"]

log = logging.getLogger("high_society.server")

#: How many times a move is checked again after another process moved its table on.
_TRIES = 4


class Busy(Exception):
    """Other processes moved the table on each time this one was about to commit: try
    again."""


@attrs.frozen
class Played:
    """What a move's answer says: the table's outcome, and the table's number and who acts
    after it (a seat, ``"chance"``, or ``None`` once the game is over)."""

    outcome: Accepted | Refusal
    number: int
    to_act: int | str | None


def action_text(action: Action) -> str:
    """An action as the store keeps it: compact JSON text."""
    return fast_json(action_to_json(action)).decode()


def clock_columns(table: Table) -> tuple[str | None, float | None, float | None]:
    """What the store keeps of a table's clocks: their JSON text (``None``: no clock),
    when the turn under way began, and when it times out."""
    clocks = table.clocks
    if not clocks.control.timed:
        return None, None, None
    return fast_json(clocks.to_json()).decode(), clocks.since, table.deadline


class Master:
    """The move path of one server process (see the module's description), on ``store``
    and the tables kept in ``games``. ``bot_delay``: seconds of pause after each automatic
    action of a table; ``bot_threads``: how many tables' bots think at once; ``records``:
    a folder where each game's record is written as it ends."""

    def __init__(
        self,
        store: Store,
        games: Games,
        *,
        bot_delay: float = 0.0,
        bot_threads: int = 2,
        records: Path | None = None,
    ) -> None:
        self._store = store
        self.games = games
        self._records = records
        self._tasks = TaskSet()
        self._locks: dict[str, tuple[asyncio.Lock, list[int]]] = {}
        self.autoplay = Autoplay(self, games, self._tasks, delay=bot_delay, threads=bot_threads)

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Bind the master to the event loop it serves in."""
        self._tasks.bind(loop)

    async def close(self) -> None:
        """Stop the tables' automatic play and the bots' threads (the writes under way end)."""
        await self._tasks.cancel()
        self.autoplay.close()

    # --- A seat's move ------------------------------------------------------------------------

    async def submit(self, table_id: str, seat: int, move: Move) -> Played:
        """Check a seat's move against the table and, accepted, commit it with the reveal it
        makes due, before this returns. A refusal changes nothing. The work goes on if the
        caller is cancelled (its client gone): a move is committed whole or not at all.

        Raises:
            NotFound, Conflict: no such table; it waits for players.
            Busy: the table moved on under this process each time it was about to commit.
        """
        return await asyncio.shield(self._submit(table_id, seat, move))

    async def _submit(self, table_id: str, seat: int, move: Move) -> Played:
        async with self.writing(table_id):
            for _ in range(_TRIES):
                game = await self.games.get(table_id, fresh=False)
                before = game.table
                table = before.copy()
                now = time.time()
                outcome = table.submit(seat, move, now)
                if isinstance(outcome, Refusal) or outcome.duplicate:
                    if isinstance(outcome, Accepted) or await self.games.is_current(
                        table_id, before
                    ):
                        return Played(outcome, before.number, to_act_json(before.state))
                    continue
                table.deal(now)  # the card an auction's end makes due: the table's to deal
                if await self.commit(table_id, before.number, table, seat, game.bot_seed):
                    return Played(outcome, table.number, to_act_json(table.state))
            raise Busy(table_id)

    async def commit(
        self, table_id: str, before: int, table: Table, seat: int | None, bot_seed: int
    ) -> bool:
        """Commit the actions ``table`` played since number ``before`` (the first by
        ``seat``, ``None`` for the dealer); keep and announce the new table, and let its
        bots or dealer play. On ``False`` the store's version had moved: the copy kept
        here is dropped.

        Raises:
            Retired: the database's schema moved on under this process.
        """
        if self._store.retired:
            raise Retired
        texts = tuple(action_text(action) for action in table.history[before:])
        seats = (seat, *(None for _ in texts[1:]))
        waiting = table.waiting_for
        status = "over" if table.is_over else "playing"
        clock, since, deadline = clock_columns(table)
        append = Append(
            table_id, before, texts, seats, status, waiting.value, clock, since, deadline
        )
        if not await self._store.history.commit(append):
            self.games.forget(table_id)
            return False
        self.moved_on(table_id, Game(table, bot_seed))
        return True

    def moved_on(self, table_id: str, game: Game) -> None:
        """The table is ``game`` now, committed (just made, or played on): keep it as its
        latest copy, and let its bots or dealer play, its clock run, or its record be
        written."""
        self.games.keep(table_id, game)
        table = game.table
        waiting = table.waiting_for
        if waiting in (Waiting.BOT, Waiting.CHANCE):
            self.autoplay.schedule(table_id)
        elif table.deadline is not None:
            self.autoplay.expire_at(table_id, table.deadline)
        elif table.is_over and self._records is not None:
            self._tasks.spawn(self._write_record(table_id, table))

    async def _write_record(self, table_id: str, table: Table) -> None:
        """Write a finished game's record to the records folder."""
        assert self._records is not None
        path = self._records / f"high-society-{table_id}.json"
        try:
            await self._store.call(write_record, path, table.record())
        except RecordError as error:
            log.warning("table %s: its record was not written: %s", table_id, error.message)

    @asynccontextmanager
    async def writing(self, table_id: str) -> AsyncIterator[None]:
        """The table's writers in this process, one at a time (other processes' are the
        store's to order)."""
        entry = self._locks.get(table_id)
        if entry is None:
            entry = self._locks[table_id] = (asyncio.Lock(), [0])
        lock, users = entry
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if not users[0]:
                del self._locks[table_id]

    def schedule(self, table_ids: Sequence[str]) -> None:
        """Let the bots or the dealer of each of ``table_ids`` play (the sweep's finds, or a
        table just started)."""
        for table_id in table_ids:
            self.autoplay.schedule(table_id)
