"""The master: the game side of the server, between the HTTP face and the store.

A move goes through it in the order of boardgame.io's master: the seat is authenticated
(its token matched), the move (read at the edge) is checked and played by the reducer on
a copy of the table kept in memory, with the reveal it makes due, the actions are
committed to the store in one trip (which holds only if no other process moved the table
on meanwhile: then the table is read again and the move checked again), and only then is
the move acknowledged and announced to the streams. Each seat is sent its own view,
built once per version of the table and seat and served to every reader of it.

The bots and the dealer play through the library's one game loop
(:meth:`Table.autoplay <high_society.table.Table.autoplay>`), one step at a time: each
step is worked out in a thread of the bots' own pool (a search bot thinks for a while; the
event loop never waits for it), committed, announced, and followed by an awaited pause
(``bot_delay``), so people can follow.

The copies kept here only save replaying the actions: each is checked against the store's
version before it answers anyone, and the store decides every race.
"""

import asyncio
import json
import logging
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Coroutine, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import attrs

from high_society.actions import Action
from high_society.bots import AnyBot
from high_society.errors import HighSocietyError, RecordError
from high_society.record import dumps_record, write_record
from high_society.rules import CHANCE, to_act
from high_society.serial import action_from_json, action_to_json
from high_society.server._auth import derived_token, hash_token, new_token, seat_by_token
from high_society.server._bots import TableBot
from high_society.server._encoding import fast_json
from high_society.server._limits import Rate
from high_society.server._notify import Notifier
from high_society.server._store import (
    Conflict,
    Full,
    Lobby,
    NotFound,
    Opening,
    SeatRow,
    Store,
    is_unavailable,
)
from high_society.table import Accepted, Move, Refusal, Seat, Table

__all__ = [
    "Busy",
    "Created",
    "Full",
    "Game",
    "Master",
    "Played",
    "Rematch",
    "Retired",
    "SeatSpec",
    "TooFast",
]

log = logging.getLogger("high_society.server")

T = TypeVar("T")

#: How many tables a process keeps in memory (the latest copy, the payloads built of it),
#: and the token hashes of how many.
CACHE_TABLES = 2048
#: Payloads kept per table (each seat's, from a few starting points).
_PAYLOADS_PER_TABLE = 16
#: How many times a move is checked again after another process moved its table on.
_TRIES = 4


class Busy(Exception):
    """Other processes moved the table on each time this one was about to commit: try
    again."""


class Retired(Exception):
    """The database's schema moved on under this process (a newer server migrated it): it
    no longer reads or writes it, so that it cannot undo what the newer version keeps."""


class TooFast(Exception):
    """One address made as many tables as it may for now: ``wait`` seconds until it may
    make another (``per_minute``: the rate)."""

    def __init__(self, wait: float, per_minute: float) -> None:
        super().__init__(f"an address makes at most {per_minute:g} tables a minute")
        self.wait = wait
        self.per_minute = per_minute


@attrs.frozen
class SeatSpec:
    """A seat of a table to make: ``kind`` ``person`` (with a checked ``name``), ``bot``
    (with a ``bot`` label of :data:`~high_society.server.BOTS`), ``open``, or ``reserved``
    (a rematch's seat kept for the person ``name``)."""

    kind: str
    name: str | None = None
    bot: str | None = None


@attrs.frozen
class Created:
    """A table just made: its id, whether it started (no seat open), and each person's
    seat and token."""

    table_id: str
    started: bool
    tokens: tuple[tuple[int, str], ...]


@attrs.frozen
class Rematch:
    """A person's seat at the rematch of a table, and its token."""

    table_id: str
    seat: int
    token: str


@attrs.frozen
class Played:
    """What a move's answer says: the table's outcome, and the table's number and who acts
    after it (a seat, ``"chance"``, or ``None`` once the game is over)."""

    outcome: Accepted | Refusal
    number: int
    to_act: int | str | None


class Game:
    """What the master keeps of a table: its latest copy, never played on (a move plays
    on a copy, which replaces it), its bot seed, and the payloads built at its version."""

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
            found = fast_json(
                table.payload(seat, since) if seat >= 0 else table.spectator_payload(since)
            )
            if len(self.payloads) >= _PAYLOADS_PER_TABLE:
                self.payloads.clear()
            self.payloads[key] = found
        return found


def _next(table: Table) -> str:
    """Who acts next, as the store keeps it for the sweep."""
    actor = to_act(table.state)
    if actor is None:
        return "none"
    if actor is CHANCE:
        return "chance"
    assert isinstance(actor, int)
    return "bot" if table.seats[actor].is_bot else "person"


def _to_act(table: Table) -> int | str | None:
    actor = to_act(table.state)
    return "chance" if actor is CHANCE else actor


def _status(table: Table) -> str:
    return "over" if table.is_over else "playing"


def _text(action: Action) -> str:
    """An action as the store keeps it: compact JSON text."""
    return fast_json(action_to_json(action)).decode()


def _table_of(rows: Sequence[SeatRow]) -> Table:
    """A new table of the stored seats, every one taken, shuffled (``secrets``)."""
    return Table([Seat(str(row.name), row.bot) for row in rows])


def _rows(specs: Sequence[SeatSpec]) -> tuple[list[SeatRow], list[tuple[int, str]]]:
    """The seats to store for ``specs``, and a new token for each person's seat: bots are
    named after their kind and seat, never like a person."""
    names = [spec.name for spec in specs if spec.name is not None]
    rows: list[SeatRow] = []
    tokens: list[tuple[int, str]] = []
    for seat, spec in enumerate(specs):
        name, token_hash = spec.name, None
        if spec.kind == "person":
            token = new_token()
            tokens.append((seat, token))
            token_hash = hash_token(token)
        elif spec.kind == "bot" and name is None:
            assert spec.bot is not None
            name = f"{spec.bot.capitalize()} bot {seat + 1}"
            while name in names:
                name += "'"
            names.append(name)
        rows.append(SeatRow(seat, spec.kind, name, spec.bot, token_hash))
    return rows, tokens


def _rematch_specs(seats: Sequence[Seat]) -> list[SeatSpec]:
    """A rematch's seats: the same people (their seats reserved) and bots (their names
    kept), each one seat to the right, so that the player who sat second starts (R3: the
    first seat starts)."""
    rotated = [*seats[1:], seats[0]]
    return [
        SeatSpec("bot", name=seat.name, bot=seat.bot)
        if seat.bot is not None
        else SeatSpec("reserved", name=seat.name)
        for seat in rotated
    ]


def _opening(table: Table) -> Opening:
    """A full table's start: its setup (the snapshot without actions: the seats and the
    secret order) and its first card revealed."""
    snapshot = table.snapshot()
    snapshot["actions"] = []
    reveal = table.reveal()
    setup = json.dumps(snapshot, separators=(",", ":"))
    return Opening(setup, (_text(reveal),), _status(table), _next(table))


class Master:
    """The game side of one server process (see the module's description). Every
    coroutine runs in the event loop that :meth:`start` binds; the store is called from
    threads of the master's own pools.

    ``bot_delay``: seconds of pause after each automatic action of a table.
    ``bot_threads``: how many tables' bots think at once. ``max_tables``: tables not over
    the database may hold (counted where a table is made);
    ``table_rate``: how many tables (rematches included) one address may make a minute.
    ``records``: a folder where each game's record is written as it ends.
    """

    def __init__(
        self,
        store: Store,
        notifier: Notifier,
        *,
        bot_delay: float = 0.0,
        bot_threads: int = 2,
        store_threads: int = 16,
        max_tables: int = 10_000,
        table_rate: Rate | None = None,
        records: Path | None = None,
    ) -> None:
        self._store = store
        self._notifier = notifier
        self._bot_delay = bot_delay
        self._max_tables = max_tables
        self._table_rate = table_rate
        self._records = records
        self._games: OrderedDict[str, Game] = OrderedDict()
        self._tokens: OrderedDict[str, dict[str, int]] = OrderedDict()
        self._locks: dict[str, tuple[asyncio.Lock, list[int]]] = {}
        self._playing: set[str] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._bots = ThreadPoolExecutor(bot_threads, thread_name_prefix="high-society-bot")
        self._io = ThreadPoolExecutor(store_threads, thread_name_prefix="high-society-store")
        self._loop: asyncio.AbstractEventLoop | None = None
        #: Set once the database's schema moved on under this process (:class:`Retired`).
        self.retired = False

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Bind the master to the event loop it serves in."""
        self._loop = loop

    async def close(self) -> None:
        """Stop the tables' automatic play and the pools (the writes under way end)."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._bots.shutdown(wait=False, cancel_futures=True)
        await asyncio.to_thread(self._io.shutdown, True)

    @property
    def playing(self) -> int:
        """How many tables' bots or dealer play in this process now."""
        return len(self._playing)

    # --- Making and joining tables ----------------------------------------------------------

    def _may_make(self, address: str) -> None:
        """The address's rate, before a table is made for ``address`` (a rematch too); the
        database's bound of tables not over is checked where the table is made.

        Raises:
            TooFast: the address made its tables for now.
        """
        if self._table_rate is not None:
            wait = self._table_rate.take(address)
            if wait:
                raise TooFast(wait, self._table_rate.per_minute)

    async def create(self, specs: Sequence[SeatSpec], address: str = "") -> Created:
        """Make a table for the client at ``address``: a person's seat gets a token; bots
        are named after their kind and seat, never like a person; with no seat open the
        table starts at once, its deck shuffled (``secrets.SystemRandom``) and its first
        card revealed.

        Raises:
            TooFast, Full: the table budget (:meth:`_may_make`).
        """
        self._may_make(address)
        table_id = secrets.token_urlsafe(12)
        rows, tokens = _rows(specs)
        hashes = {row.token_hash: row.seat for row in rows if row.token_hash is not None}
        table = None
        opening = None
        if all(row.kind != "open" for row in rows):
            table = _table_of(rows)
            opening = _opening(table)
        bot_seed = secrets.randbits(62)
        await self._in_store(
            self._store.create, table_id, rows, bot_seed, opening, self._max_tables
        )
        if table is not None:
            self._keep_tokens(table_id, hashes)
            self._keep(table_id, Game(table, bot_seed))
        return Created(table_id, table is not None, tuple(tokens))

    async def join(self, table_id: str, name: str) -> tuple[int, str]:
        """Give the first open seat to the person ``name``; return the seat and its token.
        The table starts once no seat is open.

        Raises:
            NotFound, Conflict: no such table; no open seat, or the name is taken.
        """
        token = new_token()
        seat, started = await self._in_store(
            self._store.join, table_id, name, hash_token(token), _start_of
        )
        if started:
            self._started(table_id)
        return seat, token

    async def rematch(self, table_id: str, token: object, address: str = "") -> Rematch:
        """The seat at the rematch of a finished table of the person whose token there is
        ``token``, asking from ``address``: the rematch is made by the first person to ask
        (once, whichever process they ask; it counts in that address's table budget),
        with the same people and bots each one seat on (another player starts) and a
        fresh shuffle, every person's seat reserved; each person's own ask claims theirs,
        with a token derived from their old one (so asking again gives the same, and
        costs no write). It starts once every person has claimed.

        Raises:
            NotFound, Unauthorized: no such table; no seat of it has that token.
            Conflict: the game is not over (``GAME_NOT_OVER``).
            TooFast, Full: the rematch is to be made, past the table budget.
        """
        seat = await self.seat_of(table_id, token)
        assert isinstance(token, str)  # seat_of refuses any other
        game = await self._game(table_id, fresh=True)
        if not game.table.is_over:
            raise Conflict("GAME_NOT_OVER", "a rematch follows the end of the game")
        seats = game.table.seats
        new_seat = (seat - 1) % len(seats)
        found = await self._in_store(self._store.rematch_seat, table_id, new_seat)
        if found is not None:
            new_id, claimed = found
            new_token = derived_token(token, new_id)
            if claimed == hash_token(new_token):
                return Rematch(new_id, new_seat, new_token)
        else:
            self._may_make(address)
        rows, _ = _rows(_rematch_specs(seats))
        new_id, _, started = await self._in_store(
            self._store.rematch,
            table_id,
            secrets.token_urlsafe(12),
            rows,
            secrets.randbits(62),
            new_seat,
            lambda rematch_id: hash_token(derived_token(token, rematch_id)),
            _start_of,
            self._max_tables,
        )
        if started:
            self._started(new_id)
        return Rematch(new_id, new_seat, derived_token(token, new_id))

    def _started(self, table_id: str) -> None:
        """A table another call started: read back with its seed when first needed; its
        dealer deals."""
        self._forget(table_id)
        self._schedule(table_id)

    async def lobby(self, table_id: str) -> Lobby:
        """The table's public description (:class:`~high_society.server._store.Lobby`).

        Raises:
            NotFound: no such table.
        """
        return await self._in_store(self._store.lobby, table_id)

    async def seat_of(self, table_id: str, token: object) -> int:
        """The seat whose token ``token`` is (its hashes read once per process, once every
        seat is taken: they never change then).

        Raises:
            NotFound, Unauthorized: no such table; no seat of it has that token.
        """
        hashes = self._tokens.get(table_id)
        if hashes is not None:
            self._tokens.move_to_end(table_id)
            return seat_by_token(token, hashes)
        read, final = await self._in_store(self._store.hashes, table_id)
        if final:
            self._keep_tokens(table_id, read)
        return seat_by_token(token, read)

    # --- Playing ----------------------------------------------------------------------------

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
        async with self._writing(table_id):
            for _ in range(_TRIES):
                game = await self._game(table_id, fresh=False)
                before = game.table
                table = before.copy()
                outcome = table.submit(seat, move)
                if isinstance(outcome, Refusal) or outcome.duplicate:
                    if isinstance(outcome, Accepted) or await self._is_current(table_id, before):
                        return Played(outcome, before.number, _to_act(before))
                    continue
                if to_act(table.state) is CHANCE:  # the move ended an auction: deal
                    table.reveal()
                if await self._commit(table_id, before.number, table, seat, game.bot_seed):
                    return Played(outcome, table.number, _to_act(table))
            raise Busy(table_id)

    async def _commit(
        self, table_id: str, before: int, table: Table, seat: int | None, bot_seed: int
    ) -> bool:
        """Commit the actions ``table`` played since number ``before`` (the first by
        ``seat``); keep and announce the new table, and let its bots or dealer play. On
        ``False`` the store's version had moved: the copy kept here is dropped."""
        history = table.history
        played = [
            (_text(action), seat if i == 0 else None) for i, action in enumerate(history[before:])
        ]
        status, actor = _status(table), _next(table)
        store = self._store
        if self.retired:
            raise Retired
        if store.writes_in_background:
            loop = asyncio.get_running_loop()
            future: asyncio.Future[bool] = loop.create_future()

            def done(value: bool | None, error: BaseException | None) -> None:
                loop.call_soon_threadsafe(_settle, future, value, error)

            store.append_then(table_id, before, played, status, actor, done)
            committed = await future
        else:
            committed = await self._in_store(store.append, table_id, before, played, status, actor)
        if not committed:
            self._forget(table_id)
            return False
        self._keep(table_id, Game(table, bot_seed))
        if actor in ("bot", "chance"):
            self._schedule(table_id)
        elif status == "over" and self._records is not None:
            self._spawn(self._write_record(table_id, table))
        return True

    async def _write_record(self, table_id: str, table: Table) -> None:
        """Write a finished game's record to the records folder."""
        assert self._records is not None
        path = self._records / f"high-society-{table_id}.json"
        try:
            await self._in_store(write_record, path, table.record())
        except RecordError as error:
            log.warning("table %s: its record was not written: %s", table_id, error.message)

    def forget(self, table_ids: Sequence[str]) -> None:
        """Drop what is kept of tables the store deleted."""
        for table_id in table_ids:
            self._forget(table_id)
            self._tokens.pop(table_id, None)

    # --- What a seat is sent ----------------------------------------------------------------

    async def payload(self, table_id: str, seat: int, since: int) -> bytes:
        """The seat's payload (JSON) at the table's committed version, the history from
        ``since`` (at most the table's number).

        Raises:
            NotFound, Conflict: no such table; it waits for players.
        """
        game = await self._game(table_id, fresh=True)
        return game.payload(seat, min(since, game.table.number))

    async def spectator_payload(self, table_id: str, since: int) -> bytes:
        """A spectator's payload (JSON: the public view, no hand) at the table's committed
        version, the history from ``since`` (at most the table's number).

        Raises:
            NotFound, Conflict: no such table; it waits for players.
        """
        return await self.payload(table_id, -1, since)

    async def at_least(self, table_id: str, version: int | None) -> Game:
        """The table at version ``version`` or later (a version known to be committed: a
        notification's), from the copy kept here when it is that recent; else read."""
        game = self._games.get(table_id)
        if game is not None and version is not None and game.table.number >= version:
            return game
        return await self._game(table_id, fresh=True)

    async def record(self, table_id: str) -> str:
        """The game so far as a v1 record (JSON text).

        Raises:
            NotFound, Conflict: no such table; it waits for players.
        """
        game = await self._game(table_id, fresh=True)
        return dumps_record(game.table.record())

    # --- The tables kept here ---------------------------------------------------------------

    async def _game(self, table_id: str, *, fresh: bool) -> Game:
        """The table: the copy kept here, checked against the store's version when
        ``fresh`` (a read that never waits on SQLite; a trip to the database on
        PostgreSQL, which also reads the actions the copy lacks), or read.

        Raises:
            Retired: the database's schema moved on under this process.
        """
        if self.retired:
            raise Retired
        game = self._games.get(table_id)
        if game is not None:
            if not fresh:
                self._games.move_to_end(table_id)
                return game
            peeked = self._store.peek_version(table_id)
            if peeked is not None and peeked[1] == game.table.number:
                self._games.move_to_end(table_id)
                return game
        return await self._read(table_id, game)

    async def _is_current(self, table_id: str, table: Table) -> bool:
        """Whether ``table`` is at the store's version (a refusal made on it stands)."""
        peeked = self._store.peek_version(table_id)
        if peeked is None:
            _, version = await self._in_store(self._store.version, table_id)
        else:
            version = peeked[1]
        if version == table.number:
            return True
        self._forget(table_id)
        return False

    async def _read(self, table_id: str, game: Game | None) -> Game:
        """The table read from the store: the actions since the copy kept here, or all."""
        since = 0 if game is None else game.table.number
        stored = await self._in_store(self._store.read, table_id, since, setup=game is None)
        if game is None:
            assert stored.setup is not None
            table = Table.restore(stored.setup)
        elif stored.version == game.table.number:
            return game
        elif stored.version < game.table.number:  # the database went back: read it whole
            self._forget(table_id)
            return await self._read(table_id, None)
        else:
            table = game.table.copy()
        for text in stored.actions:
            table.play(action_from_json(json.loads(text)))
        self._keep(table_id, Game(table, stored.bot_seed))
        return self._games[table_id]

    def _keep(self, table_id: str, game: Game) -> None:
        """Keep ``game`` as the table's latest copy here, unless a later one is kept; wake
        the table's streams."""
        kept = self._games.get(table_id)
        if kept is None or kept.table.number < game.table.number:
            self._games[table_id] = game
            self._games.move_to_end(table_id)
            while len(self._games) > CACHE_TABLES:
                self._games.popitem(last=False)
        self._notifier.wake(table_id, game.table.number)

    def _forget(self, table_id: str) -> None:
        self._games.pop(table_id, None)

    def _keep_tokens(self, table_id: str, hashes: dict[str, int]) -> None:
        self._tokens[table_id] = hashes
        while len(self._tokens) > CACHE_TABLES:
            self._tokens.popitem(last=False)

    def learn(self, table_id: str, version: int, action: str) -> None:
        """Another process committed ``action`` (JSON text) as the table's action number
        ``version - 1`` (PostgreSQL told us): play it on the copy kept here when that is
        just before it, so that the streams here send it without a read; wake them."""
        game = self._games.get(table_id)
        if game is not None and game.table.number == version - 1:
            table = game.table.copy()
            try:
                table.play(action_from_json(json.loads(action)))
            except (HighSocietyError, ValueError) as error:  # a read sets the copy right
                log.debug("table %s: notified action %s not played: %s", table_id, version, error)
                self._forget(table_id)
            else:
                self._keep(table_id, Game(table, game.bot_seed))
                return
        self._notifier.wake(table_id, version)

    # --- The bots and the dealer ------------------------------------------------------------

    def _schedule(self, table_id: str) -> None:
        """Let the table's bots and dealer play, unless they already do here."""
        if table_id in self._playing or self._loop is None:
            return
        self._playing.add(table_id)
        self._spawn(self._autoplay(table_id))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in the background, until it ends or the master closes."""
        assert self._loop is not None
        task = self._loop.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def schedule(self, table_ids: Sequence[str]) -> None:
        """:meth:`_schedule` each of ``table_ids`` (the sweep's finds)."""
        for table_id in table_ids:
            self._schedule(table_id)

    async def _autoplay(self, table_id: str) -> None:
        """Play the table's automatic actions, one committed step at a time, until a person
        must act or the game is over."""
        loop = asyncio.get_running_loop()
        try:
            while True:
                game = await self._game(table_id, fresh=True)
                table = game.table.copy()
                before = table.number
                bots = _bots(table.seats, game.bot_seed)
                steps = table.autoplay(bots)
                action = await loop.run_in_executor(self._bots, next, steps, None)
                if action is None:
                    return
                async with self._writing(table_id):
                    kept = self._games.get(table_id)
                    if kept is not None and kept.table.number != before:
                        continue  # a move came first: work it out again
                    seat = getattr(action, "seat", None)
                    if not await self._commit(table_id, before, table, seat, game.bot_seed):
                        continue
                if self._bot_delay:
                    await asyncio.sleep(self._bot_delay)
        except (NotFound, Conflict):
            pass
        except Exception as error:
            if is_unavailable(error):  # the sweep tries again
                log.warning("table %s waits for the database: %s", table_id, _first_line(error))
            else:
                log.exception("table %s: its bots stopped", table_id)
        finally:
            self._playing.discard(table_id)

    # --- Helpers ----------------------------------------------------------------------------

    async def _in_store(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``function(*args, **kwargs)`` in a thread of the store's pool.

        Raises:
            Retired: the database's schema moved on under this process.
        """
        if self.retired:
            raise Retired
        loop = asyncio.get_running_loop()
        if kwargs:
            return await loop.run_in_executor(self._io, lambda: function(*args, **kwargs))
        return await loop.run_in_executor(self._io, function, *args)

    @asynccontextmanager
    async def _writing(self, table_id: str) -> AsyncIterator[None]:
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


def _start_of(rows: tuple[SeatRow, ...]) -> Opening:
    """The opening of a table whose seats ``rows`` are all taken now."""
    return _opening(_table_of(rows))


def _bots(seats: Sequence[Seat], bot_seed: int) -> Mapping[int, AnyBot]:
    return {i: TableBot(seat.bot, bot_seed) for i, seat in enumerate(seats) if seat.bot is not None}


def _settle(
    future: "asyncio.Future[bool]", value: bool | None, error: BaseException | None
) -> None:
    if future.done():  # cancelled meanwhile
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(bool(value))


def _first_line(error: BaseException) -> str:
    """An error's first line (a database error's message, without its SQL)."""
    return str(error).split("\n", 1)[0][:300]
