"""The store: tables, their seats and tokens' hashes, their numbered actions and versions,
in SQLite or PostgreSQL. It keeps what the master gives it and knows nothing of the rules:
a table's setup and its actions are JSON texts it never reads, and who acts next is a word
it stores for the sweep.

The database is the truth. Each table's actions are rows of ``hs_actions``, numbered from
0; ``hs_tables.version`` is how many there are. Every write is one transaction, and
:meth:`Store.append`, the one that adds actions, holds only if the table is still at the
version the caller played them on: ``UPDATE ... WHERE version = n`` moves the version on
first (a row lock on PostgreSQL, which a second writer of the table waits for and then
finds the version moved; on SQLite every writing transaction begins with ``BEGIN
IMMEDIATE``, so writers queue), then the rows are inserted under the primary key
``(table_id, number)``. A writer that finds the version moved writes nothing and says so;
nothing is ever applied twice.

On SQLite one thread of each process writes (see :mod:`high_society.server._database`),
committing the writes queued meanwhile together. On PostgreSQL each write is a transaction
of its own on a pooled connection of the calling thread; each committed action also sends
``NOTIFY hs_actions, 'TABLE VERSION ACTION'``, delivered when the transaction commits to
every server process that listens (:meth:`Store.listen`).
"""

import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import attrs
import sqlalchemy as sa

from high_society.errors import InvalidConfigError
from high_society.server._database import Cursor, Database, is_unavailable, scrubbed, shown_url
from high_society.server._schema import CHANNEL, SCHEMA_VERSION, statements

__all__ = [
    "Conflict",
    "Full",
    "Lobby",
    "NotFound",
    "Opening",
    "SeatRow",
    "Store",
    "Stored",
    "check_database",
    "is_unavailable",
]

log = logging.getLogger("high_society.server")


class NotFound(Exception):
    """No table has that id."""


class Full(Exception):
    """The database holds as many tables not over as the server may keep."""


class Conflict(Exception):
    """The table cannot do that now (it waits for players, it has no open seat ...)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


#: The kinds of seat that wait for a person: a table starts when it has none.
_WAITING_KINDS = ("open", "reserved")


@attrs.frozen
class SeatRow:
    """One seat as stored: ``kind`` is ``person``, ``bot``, ``open`` or ``reserved`` (for
    a named person of the table this one is a rematch of, until they claim it)."""

    seat: int
    kind: str
    name: str | None
    bot: str | None
    token_hash: str | None = None


@attrs.frozen
class Opening:
    """What starts a table once its seats are taken: its setup (JSON text), its first
    actions (the dealer's, as JSON texts), and its status and who acts next after them."""

    setup: str
    actions: tuple[str, ...]
    status: str
    next: str


@attrs.frozen
class Stored:
    """A table as read: its status and version, its bot seed, its setup (when asked for)
    and its actions from a given number up to the version (JSON texts)."""

    status: str
    version: int
    bot_seed: int
    setup: str | None
    actions: tuple[str, ...]


@attrs.frozen
class Lobby:
    """A table's public description: its seats, where the game is, and its rematch's id
    once someone asked for one."""

    table_id: str
    status: str
    version: int
    seats: tuple[SeatRow, ...]
    rematch: str | None = None


def check_database(url: str) -> None:
    """Connect to the database at ``url``, make its schema if missing, and disconnect: what
    a server does first, so that a wrong URL or an unreachable database is told at once.

    Raises:
        InvalidConfigError: not a database URL this server can use, the database cannot be
            reached (the driver's reason given), or it holds another schema version; in
            one line, without the URL's password wherever it sits.
    """
    try:
        Store(url).close()
    except InvalidConfigError:
        raise
    except Exception as error:  # the driver's, of any kind: one line, no secret
        reason = scrubbed(str(getattr(error, "orig", None) or error), url)
        raise InvalidConfigError(f"cannot use the database {shown_url(url)}: {reason}") from None


class Store:
    """The tables in a database (SQLite or PostgreSQL); see the module's description.

    ``url`` is a SQLAlchemy URL: ``sqlite:///path/tables.sqlite3``, or
    ``postgresql://user@host/db``. A store is safe to share between threads.

    Raises:
        InvalidConfigError: ``url`` is not a database URL, its driver is not installed, or
            the database holds tables of another schema version.
        sqlalchemy.exc.SQLAlchemyError: the database cannot be reached
            (:func:`is_unavailable` is true of it).
    """

    def __init__(self, url: str, *, busy_seconds: float = 30.0) -> None:
        self._db = Database(url, statements, busy_seconds=busy_seconds)
        self.is_sqlite = self._db.is_sqlite
        self.is_postgres = self._db.is_postgres
        self.engine = self._db.engine
        self._peek: sqlite3.Connection | None = None
        self._peek_lock = threading.Lock()

    def close(self) -> None:
        """Close every connection (after the writes under way are committed)."""
        if self._peek is not None:
            self._peek.close()
        self._db.close()

    @property
    def writes_in_background(self) -> bool:
        """True on SQLite, where :meth:`append_then` hands the write to the writer thread
        and returns at once."""
        return self._db.writes_in_background

    # --- Making and joining tables ----------------------------------------------------------

    def create(
        self,
        table_id: str,
        rows: Sequence[SeatRow],
        bot_seed: int,
        opening: Opening | None,
        max_live: int | None = None,
    ) -> None:
        """Store a new table with its seats; ``opening`` starts it at once (no open seat).

        Raises:
            Full: the database holds ``max_live`` tables not over already (counted in the
                transaction that makes the table: whatever process makes one).
        """

        def make(cursor: Cursor) -> None:
            _check_room(cursor, max_live)
            _insert(cursor, table_id, rows, bot_seed, opening)

        self._db.write(make)

    def rematch_seat(self, old_id: str, seat: int) -> tuple[str, str | None] | None:
        """The rematch of the table ``old_id`` and the token hash of its ``seat`` (``None``
        while the seat is reserved), or ``None`` while the table has no rematch: a read,
        so that a person asking again for a seat they claimed costs no write."""
        with self._db.alone() as cursor:
            found = cursor.first("rematch_of", id=old_id)
            if found is None:
                return None
            new_id = str(found[0])
            row = cursor.first("seat_hash", id=new_id, at_seat=seat)
        return new_id, None if row is None or row[1] is None else str(row[1])

    def rematch(
        self,
        old_id: str,
        new_id: str,
        rows: Sequence[SeatRow],
        bot_seed: int,
        seat: int,
        token_hash: Callable[[str], str],
        opening: Callable[[tuple[SeatRow, ...]], Opening],
        max_live: int | None = None,
    ) -> tuple[str, bool, bool]:
        """In one transaction: the rematch of the table ``old_id`` (the one made already,
        else a new waiting table ``new_id`` with ``rows``, linked to it: made once whoever
        asks at once, the old table's row locked first), and its reserved ``seat`` given
        its person's token, whose hash ``token_hash(rematch_id)`` gives; when no seat is
        reserved or open after that, the rematch starts with ``opening(seats)``. Return
        the rematch's id, whether it was made now, and whether it started now. A seat
        claimed already with that hash changes nothing.

        Raises:
            NotFound: no table ``old_id`` (or its rematch went meanwhile).
            Conflict: the seat is not reserved (``NOT_RESERVED``).
        """

        def link(cursor: Cursor) -> tuple[str, bool, bool]:
            if cursor.first("row_locked", id=old_id) is None:
                raise NotFound(old_id)
            found = cursor.first("rematch_of", id=old_id)
            made = found is None
            rematch_id = new_id if found is None else str(found[0])
            if made:
                _check_room(cursor, max_live)
                _insert(cursor, new_id, rows, bot_seed, None)
                cursor.run("insert_rematch", old_id=old_id, new_id=new_id)
            started = _claim(cursor, rematch_id, seat, token_hash(rematch_id), opening)
            return rematch_id, made, started

        return self._db.write(link)

    def join(
        self,
        table_id: str,
        name: str,
        token_hash: str,
        opening: Callable[[tuple[SeatRow, ...]], Opening],
    ) -> tuple[int, bool]:
        """Give the first open seat of a waiting table to the person ``name``; when no
        seat is open after that, start the table with ``opening(seats)``. Return the seat
        and whether the table started.

        Raises:
            NotFound, Conflict: no such table; no open seat (``NO_OPEN_SEAT``), or the name
                is taken (``NAME_TAKEN``).
        """

        def take(cursor: Cursor) -> tuple[int, bool]:
            locked = cursor.first("row_locked", id=table_id)
            if locked is None:
                raise NotFound(table_id)
            rows = _seats(cursor, table_id)
            seat = next((row.seat for row in rows if row.kind == "open"), None)
            if locked[0] != "waiting" or seat is None:
                raise Conflict("NO_OPEN_SEAT", "the table has no open seat")
            if any(row.name == name for row in rows):
                raise Conflict("NAME_TAKEN", "another seat at this table has that name")
            cursor.run("take_seat", id=table_id, at_seat=seat, new_name=name, new_hash=token_hash)
            named = tuple(attrs.evolve(row, name=name) if row.seat == seat else row for row in rows)
            return seat, _start_if_full(cursor, table_id, named, seat, opening)

        return self._db.write(take)

    def lobby(self, table_id: str) -> Lobby:
        """The table's public description.

        Raises:
            NotFound: no such table.
        """
        with self._db.alone() as cursor:
            row = cursor.first("version", id=table_id)
            if row is None:
                raise NotFound(table_id)
            rows = _seats(cursor, table_id)
            rematch = cursor.first("rematch_of", id=table_id)
        new_id = None if rematch is None else str(rematch[0])
        return Lobby(table_id, str(row[0]), int(row[1]), rows, new_id)

    def hashes(self, table_id: str) -> tuple[dict[str, int], bool]:
        """The seats' token hashes (``{hash: seat}``), and whether every seat is taken
        (then they never change).

        Raises:
            NotFound: no such table.
        """
        with self._db.alone() as cursor:
            if cursor.first("version", id=table_id) is None:
                raise NotFound(table_id)
            rows = cursor.all("hashes", id=table_id)
        found = {str(h): int(seat) for seat, _, h in rows if h is not None}
        return found, all(kind not in _WAITING_KINDS for _, kind, _ in rows)

    # --- Reading a game ---------------------------------------------------------------------

    def read(self, table_id: str, since: int, *, setup: bool) -> Stored:
        """The table as committed: its actions from number ``since`` on (none when it has
        fewer), and its setup if ``setup``, in one reading transaction.

        Raises:
            NotFound, Conflict: no such table; it waits for players (``TABLE_WAITING``).
        """
        with self._db.alone() as cursor:
            found = cursor.first("row", id=table_id)
            if found is None:
                raise NotFound(table_id)
            status, version, bot_seed = str(found[0]), int(found[1]), int(found[2])
            if status == "waiting":
                raise Conflict("TABLE_WAITING", "the table waits for players to join")
            text = None
            if setup:
                row = cursor.first("setup", id=table_id)
                assert row is not None
                text = str(row[0])
            # Up to the row's version only: actions committed after the row was read
            # may be there already.
            items: tuple[str, ...] = ()
            if version > since:
                items = tuple(
                    str(item)
                    for (item,) in cursor.all("actions_from", id=table_id, first=since, end=version)
                )
        if len(items) != max(0, version - since):
            raise RuntimeError(f"table {table_id}: actions {since} to {version} are not all there")
        return Stored(status, version, bot_seed, text, items)

    def version(self, table_id: str) -> tuple[str, int]:
        """The table's status and how many actions it has.

        Raises:
            NotFound: no such table.
        """
        with self._db.alone() as cursor:
            row = cursor.first("version", id=table_id)
        if row is None:
            raise NotFound(table_id)
        return str(row[0]), int(row[1])

    def peek_version(self, table_id: str) -> tuple[str, int] | None:
        """:meth:`version` from a read that never waits, for an event loop's own thread:
        on SQLite, on a connection of its own with no busy timeout (a write-ahead log's
        readers do not wait for its writer; ``None`` in the rare moment one would); on
        PostgreSQL, ``None`` at once (every read is a trip over the network: make it from
        a thread).

        Raises:
            NotFound: no such table.
        """
        if not self.is_sqlite:
            return None
        with self._peek_lock:
            try:
                if self._peek is None:
                    path = sa.engine.make_url(self._db.url).database or ""
                    self._peek = sqlite3.connect(
                        Path(path).as_uri() + "?mode=ro",
                        uri=True,
                        timeout=0,
                        check_same_thread=False,
                    )
                    self._peek.isolation_level = None
                row = self._peek.execute(
                    "SELECT status, version FROM hs_tables WHERE id = ?", (table_id,)
                ).fetchone()
            except sqlite3.Error as error:
                log.debug("a quick read could not be made: %s", error)
                return None
        if row is None:
            raise NotFound(table_id)
        return str(row[0]), int(row[1])

    def versions(self, table_ids: Iterable[str]) -> dict[str, int]:
        """The versions of those of ``table_ids`` that exist, in one reading transaction
        (what a process's streams poll on SQLite)."""
        found: dict[str, int] = {}
        with self._db.alone() as cursor:
            for table_id in table_ids:
                row = cursor.first("version", id=table_id)
                if row is not None:
                    found[table_id] = int(row[1])
        return found

    def count_live(self) -> int:
        """How many tables are not over (waiting for players, or playing)."""
        with self._db.alone() as cursor:
            row = cursor.first("live")
        return 0 if row is None else int(row[0])

    def expire(self, idle_before: float, over_before: float) -> list[str]:
        """Delete the tables not over whose last change came before ``idle_before``, and
        those over since before ``over_before`` (times as ``time.time()``); return their
        ids."""

        def delete(cursor: Cursor) -> list[str]:
            gone = [
                str(table_id)
                for (table_id,) in cursor.all(
                    "expired", idle_before=idle_before, over_before=over_before
                )
            ]
            for table_id in gone:
                for name in ("delete_rematches", "delete_actions", "delete_seats", "delete_table"):
                    cursor.run(name, id=table_id)
            return gone

        return self._db.write(delete)

    def schema_moved(self) -> bool:
        """Whether the database no longer holds this server's schema version (a newer
        server migrated it since this one started: this one must stop using it)."""
        with self._db.alone() as cursor:
            found = [int(version) for (version,) in cursor.all("schema_versions")]
        return found != [SCHEMA_VERSION]

    def due(self) -> list[str]:
        """The tables where a bot or the dealer must act (to advance after a restart)."""
        with self._db.alone() as cursor:
            return [str(table_id) for (table_id,) in cursor.all("due")]

    # --- Writing a game ---------------------------------------------------------------------

    def append(
        self,
        table_id: str,
        first: int,
        played: Sequence[tuple[str, int | None]],
        status: str,
        next_actor: str,
    ) -> bool:
        """Commit the actions ``played`` (JSON text and seat, ``None`` for the dealer's)
        as numbers ``first`` on, if the table is still at version ``first``; then its
        status and who acts next are ``status`` and ``next_actor``. Return whether they
        were committed (``False``: the version has moved; nothing was written).

        Raises:
            NotFound: no such table.
        """
        if self.is_postgres:  # one statement, one trip
            with self._db.alone() as cursor:
                moved, _ = cursor.first(
                    "append_pg",
                    id=table_id,
                    old=first,
                    new=first + len(played),
                    new_status=status,
                    new_next=next_actor,
                    now=time.time(),
                    numbers=[first + i for i in range(len(played))],
                    actions=[text for text, _ in played],
                    seats=[seat for _, seat in played],
                ) or (0, 0)
                if not moved and cursor.first("version", id=table_id) is None:
                    raise NotFound(table_id)
            return bool(moved)
        return bool(self._db.write(self._append_job(table_id, first, played, status, next_actor)))

    def append_then(
        self,
        table_id: str,
        first: int,
        played: Sequence[tuple[str, int | None]],
        status: str,
        next_actor: str,
        done: Callable[[bool | None, BaseException | None], None],
    ) -> None:
        """:meth:`append` without waiting (only where :attr:`writes_in_background`):
        ``done(committed, None)`` or ``done(None, error)`` is called from the writer's
        thread once the write is durable (or failed)."""
        self._db.write_then(self._append_job(table_id, first, played, status, next_actor), done)

    def _append_job(
        self,
        table_id: str,
        first: int,
        played: Sequence[tuple[str, int | None]],
        status: str,
        next_actor: str,
    ) -> Callable[[Cursor], bool]:
        def append(cursor: Cursor) -> bool:
            now = time.time()
            end = first + len(played)
            moved = cursor.run(
                "move_version",
                id=table_id,
                old=first,
                new=end,
                new_status=status,
                new_next=next_actor,
                now=now,
            )
            if moved != 1:
                if cursor.first("version", id=table_id) is None:
                    raise NotFound(table_id)
                return False
            rows = [
                {"table_id": table_id, "number": first + i, "action": text, "seat": seat, "at": now}
                for i, (text, seat) in enumerate(played)
            ]
            if len(rows) == 1:
                cursor.run("insert_action", **rows[0])
            else:
                cursor.many("insert_action", rows)
            if self.is_postgres:  # sent to the listeners when this transaction commits
                notes = [
                    {"note": f"{table_id} {first + i + 1} {text}"}
                    for i, (text, _) in enumerate(played)
                ]
                cursor.many("notify", notes)
            return True

        return append

    # --- Learning of other processes' actions -----------------------------------------------

    def listen(
        self,
        deliver: Callable[[str, int, str], None],
        reconnected: Callable[[], None],
        stop: threading.Event,
        retry_seconds: float = 1.0,
    ) -> None:
        """On PostgreSQL, until ``stop`` is set: ``LISTEN`` on the channel of committed
        actions and call ``deliver(table, version, action)`` for each action committed by
        any process (``action`` the JSON text of action ``version - 1``). After every
        (re)connection ``reconnected()`` is called, since notifications sent while no
        connection listened are lost. Blocking: run it in a thread of its own.

        Raises:
            InvalidConfigError: the store is not on PostgreSQL.
        """
        if not self.is_postgres:
            raise InvalidConfigError("only PostgreSQL delivers notifications")
        cargs, cparams = self._db.connect_args()
        dialect = self.engine.dialect
        down = False
        while not stop.is_set():
            try:
                connection = dialect.connect(*cargs, **cparams)
            except Exception as error:
                if not down:
                    reason = scrubbed(str(error), self._db.url)
                    log.warning("listening for actions: cannot connect (%s); retrying", reason)
                    down = True
                stop.wait(retry_seconds)
                continue
            try:
                connection.autocommit = True
                connection.execute(f"LISTEN {CHANNEL}")
                if down:
                    log.warning("listening for actions again")
                down = False
                reconnected()
                while not stop.is_set():
                    for note in connection.notifies(timeout=retry_seconds):
                        table_id, _, rest = note.payload.partition(" ")
                        version, _, action = rest.partition(" ")
                        if version.isascii() and version.isdigit() and len(version) < 10:
                            deliver(table_id, int(version), action)
            except Exception as error:
                if not down:
                    reason = scrubbed(str(error), self._db.url)
                    log.warning("listening for actions: connection lost (%s); retrying", reason)
                    down = True
                stop.wait(retry_seconds)
            finally:
                try:
                    connection.close()
                except Exception as error:  # closing a broken connection may fail too
                    log.debug("ignored while closing: %s", error)


def _claim(
    cursor: Cursor,
    table_id: str,
    seat: int,
    token_hash: str,
    opening: Callable[[tuple[SeatRow, ...]], Opening],
) -> bool:
    """Give the reserved ``seat`` its person's token (its hash); when no seat is open or
    reserved after that, start the table with ``opening(seats)``. Return whether the table
    started now. A claim made already with this hash changes nothing."""
    locked = cursor.first("row_locked", id=table_id)
    found = cursor.first("seat_hash", id=table_id, at_seat=seat)
    if locked is None or found is None:
        raise NotFound(table_id)
    kind, stored = found
    if kind == "person" and stored == token_hash:
        return False
    if kind != "reserved" or locked[0] != "waiting":
        raise Conflict("NOT_RESERVED", "that seat is not reserved for this person")
    rows = _seats(cursor, table_id)
    name = rows[seat].name
    cursor.run("take_seat", id=table_id, at_seat=seat, new_name=name, new_hash=token_hash)
    return _start_if_full(cursor, table_id, rows, seat, opening)


def _check_room(cursor: Cursor, max_live: int | None) -> None:
    """Raise :class:`Full` when the database holds ``max_live`` tables not over."""
    if max_live is not None:
        row = cursor.first("live")
        if row is not None and int(row[0]) >= max_live:
            raise Full


def _seats(cursor: Cursor, table_id: str) -> tuple[SeatRow, ...]:
    return tuple(
        SeatRow(int(seat), str(kind), name, bot)
        for seat, kind, name, bot in cursor.all("seats", id=table_id)
    )


def _insert(
    cursor: Cursor,
    table_id: str,
    rows: Sequence[SeatRow],
    bot_seed: int,
    opening: Opening | None,
) -> None:
    """A new table with its seats; ``opening`` starts it at once."""
    now = time.time()
    cursor.run(
        "insert_table",
        id=table_id,
        status="waiting",
        version=0,
        next="none",
        setup=None,
        bot_seed=bot_seed,
        created=now,
        updated=now,
    )
    for row in rows:
        cursor.run("insert_seat", table_id=table_id, **attrs.asdict(row))
    if opening is not None:
        _start(cursor, table_id, opening, now)


def _start_if_full(
    cursor: Cursor,
    table_id: str,
    rows: tuple[SeatRow, ...],
    seat: int,
    opening: Callable[[tuple[SeatRow, ...]], Opening],
) -> bool:
    """Start the table with ``opening`` if no seat waits for a person once ``seat`` (of
    ``rows``, as they were) is a person's; say whether it started."""
    taken = tuple(attrs.evolve(row, kind="person") if row.seat == seat else row for row in rows)
    if any(row.kind in _WAITING_KINDS for row in taken):
        return False
    _start(cursor, table_id, opening(taken), time.time())
    return True


def _start(cursor: Cursor, table_id: str, opening: Opening, now: float) -> None:
    rows = [
        {"table_id": table_id, "number": i, "action": text, "seat": None, "at": now}
        for i, text in enumerate(opening.actions)
    ]
    cursor.many("insert_action", rows)
    cursor.run(
        "start",
        id=table_id,
        new_status=opening.status,
        new=len(opening.actions),
        new_next=opening.next,
        new_setup=opening.setup,
        now=now,
    )
