"""The tables a server process keeps in memory: the latest copy of each table it served,
and the payloads built at its version, checked against the store before anyone is answered
(what a seat or a spectator is sent, and a game's record, come from here).

The copies only save replaying actions: each is checked against the store's version before
it answers anyone (on SQLite a read that never waits; on PostgreSQL a trip, which also
brings the actions the copy lacks), and the store decides every race.
"""

import json
import logging
from collections import OrderedDict

import attrs

from high_society.errors import HighSocietyError
from high_society.record import dumps_record
from high_society.serial import action_from_json
from high_society.server._encoding import fast_json
from high_society.server._notify import Notifier
from high_society.server._store import Retired, Store
from high_society.table import Table
from high_society.wire import CLOCK

__all__ = ["CACHE_TABLES", "Game", "Games"]

log = logging.getLogger("high_society.server")

#: How many tables a process keeps in memory (the latest copy, the payloads built of it).
CACHE_TABLES = 2048
#: Payloads kept per table (each seat's, from a few starting points).
_PAYLOADS_PER_TABLE = 16


class Game:
    """What a process keeps of a table: its latest copy, never played on (a move plays on a
    copy, which replaces it), its bot seed, and the payloads built at its version."""

    __slots__ = ("bot_seed", "payloads", "table")

    def __init__(self, table: Table, bot_seed: int) -> None:
        self.table = table
        self.bot_seed = bot_seed
        self.payloads: dict[tuple[int, int], bytes] = {}

    def payload(self, seat: int, since: int) -> bytes:
        """The seat's payload (JSON), built once per seat and ``since`` at this version;
        seat ``-1`` is the spectators'."""
        key = (seat, since)
        found = self.payloads.get(key)
        if found is None:
            table = self.table
            if seat >= 0:
                found = table.payload_json(seat, since, dumps=fast_json)
            else:
                found = fast_json(table.spectator_payload(since))
            if len(self.payloads) >= _PAYLOADS_PER_TABLE:
                self.payloads.clear()
            self.payloads[key] = found
        return found


class Games:
    """The tables kept by one process, read from ``store`` when needed; each change wakes
    the table's streams (``notifier``). Once the store is retired, every read raises
    :class:`~high_society.server._store.Retired`."""

    def __init__(self, store: Store, notifier: Notifier) -> None:
        self._store = store
        self._notifier = notifier
        self._games: OrderedDict[str, Game] = OrderedDict()

    def kept(self, table_id: str) -> Game | None:
        """The copy kept of the table, unchecked."""
        return self._games.get(table_id)

    async def get(self, table_id: str, *, fresh: bool) -> Game:
        """The table: the copy kept here, checked against the store's version when
        ``fresh``, or read.

        Raises:
            Retired: the database's schema moved on under this process.
            NotFound, Conflict: no such table; it waits for players.
        """
        if self._store.retired:
            raise Retired
        game = self._games.get(table_id)
        if game is not None:
            if not fresh:
                self._games.move_to_end(table_id)
                return game
            peeked = self._store.history.peek_version(table_id)
            if peeked is not None and peeked[1] == game.table.number:
                self._games.move_to_end(table_id)
                return game
        return await self._read(table_id, game)

    async def payload(self, table_id: str, seat: int, since: int) -> bytes:
        """The payload (JSON) of ``seat`` (``-1``: a spectator's) at the table's committed
        version, the history from ``since`` (at most the table's number).

        Raises:
            NotFound, Conflict: no such table; it waits for players.
        """
        game = await self.get(table_id, fresh=True)
        return game.payload(seat, min(since, game.table.number))

    async def record(self, table_id: str) -> str:
        """The game so far, committed, as a v1 record (JSON text).

        Raises:
            NotFound, Conflict: no such table; it waits for players.
        """
        game = await self.get(table_id, fresh=True)
        return dumps_record(game.table.record())

    async def at_least(self, table_id: str, version: int | None) -> Game:
        """The table at version ``version`` or later (a version known to be committed: a
        notification's), from the copy kept here when it is that recent; else read."""
        game = self._games.get(table_id)
        if game is not None and version is not None and game.table.number >= version:
            return game
        return await self.get(table_id, fresh=True)

    async def is_current(self, table_id: str, table: Table) -> bool:
        """Whether ``table`` is at the store's version (a refusal made on it stands); if
        not, the copy kept here is dropped."""
        peeked = self._store.history.peek_version(table_id)
        if peeked is None:
            _, version = await self._store.call(self._store.history.version, table_id)
        else:
            version = peeked[1]
        if version == table.number:
            return True
        self.forget(table_id)
        return False

    async def _read(self, table_id: str, game: Game | None) -> Game:
        """The table read from the store: the actions since the copy kept here, or all."""
        since = 0 if game is None else game.table.number
        history = self._store.history
        stored = await self._store.call(lambda: history.read(table_id, since, setup=game is None))
        if game is None:
            assert stored.setup is not None
            table = Table.restore(stored.setup)
        elif stored.version == game.table.number:
            return game
        elif stored.version < game.table.number:  # the database went back: read it whole
            self.forget(table_id)
            return await self._read(table_id, None)
        else:
            table = game.table.copy()
        for text in stored.actions:
            table.play(action_from_json(json.loads(text)))
        if stored.clock is not None:  # the clocks as committed, the turn's start as it is now
            clocks = CLOCK.read(json.loads(stored.clock))
            table.keep_clocks(attrs.evolve(clocks, since=stored.since))
        self.keep(table_id, Game(table, stored.bot_seed))
        return self._games[table_id]

    def keep(self, table_id: str, game: Game) -> None:
        """Keep ``game`` as the table's latest copy here, unless a later one is kept; wake
        the table's streams."""
        kept = self._games.get(table_id)
        if kept is None or kept.table.number < game.table.number:
            self._games[table_id] = game
            self._games.move_to_end(table_id)
            while len(self._games) > CACHE_TABLES:
                self._games.popitem(last=False)
        self._notifier.wake(table_id, game.table.number)

    def forget(self, table_id: str) -> None:
        """Drop the copy kept of the table (a read brings it back)."""
        self._games.pop(table_id, None)

    def learn(self, table_id: str, version: int, action: str) -> None:
        """Another process committed ``action`` (JSON text) as the table's action number
        ``version - 1`` (PostgreSQL told us): play it on the copy kept here when that is
        just before it, so that the streams here send it without a read; wake them."""
        game = self._games.get(table_id)
        if game is not None and game.table.clocks.control.timed:  # read it with its clocks
            self.forget(table_id)
        elif game is not None and game.table.number == version - 1:
            table = game.table.copy()
            try:
                table.play(action_from_json(json.loads(action)))
            except (HighSocietyError, ValueError) as error:  # a read sets the copy right
                log.debug("table %s: notified action %s not played: %s", table_id, version, error)
                self.forget(table_id)
            else:
                self.keep(table_id, Game(table, game.bot_seed))
                return
        self._notifier.wake(table_id, version)
