"""The store: tables, their seats and tokens' hashes, their numbered actions and versions,
in SQLite or PostgreSQL. It keeps what it is given and knows nothing of the rules: a
table's setup and its actions are JSON texts it never reads, and who acts next is a word it
stores for the sweep.

The database is the truth; every write is one transaction. The store has two parts:
:attr:`Store.seats` (:mod:`~high_society.server._store_seats`: making tables, taking seats,
rematches, starting a table) and :attr:`Store.history`
(:mod:`~high_society.server._store_history`: the actions, appended only at the version
they were played on); the store itself answers the sweep (tables to play, to start, to
delete) and runs the calls an event loop must not wait for in threads of its own
(:meth:`Store.call`).
"""

import asyncio
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from high_society.errors import InvalidConfigError
from high_society.server._database import Cursor, Database
from high_society.server._dialects import is_unavailable, scrubbed, shown_url
from high_society.server._schema import SCHEMA_VERSION, statements
from high_society.server._store_history import Append, History
from high_society.server._store_listen import listen
from high_society.server._store_lobby import Listings
from high_society.server._store_rows import (
    Conflict,
    Full,
    Lobby,
    NotFound,
    Opening,
    Retired,
    SeatRow,
    Stored,
)
from high_society.server._store_seats import Seats

__all__ = [
    "Append",
    "Conflict",
    "Full",
    "Lobby",
    "NotFound",
    "Opening",
    "Retired",
    "SeatRow",
    "Store",
    "Stored",
    "check_database",
    "is_unavailable",
]

log = logging.getLogger("high_society.server")

T = TypeVar("T")


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
    ``postgresql://user@host/db``. A store is safe to share between threads; ``threads``
    is how many of its own run the calls made through :meth:`call`.

    Raises:
        InvalidConfigError: ``url`` is not a database URL, its driver is not installed, or
            the database holds tables of another schema version.
        sqlalchemy.exc.SQLAlchemyError: the database cannot be reached
            (:func:`is_unavailable` is true of it).
    """

    def __init__(self, url: str, *, busy_seconds: float = 30.0, threads: int = 16) -> None:
        self._db = Database(url, statements, busy_seconds=busy_seconds)
        self.is_sqlite = self._db.is_sqlite
        self.is_postgres = self._db.is_postgres
        self.engine = self._db.engine
        self._io = ThreadPoolExecutor(threads, thread_name_prefix="high-society-store")
        self.seats = Seats(self._db)
        self.listings = Listings(self._db)
        self.history = History(self._db, self._io)
        #: Set once the database's schema moved on under this process (:class:`Retired`).
        self.retired = False

    def close(self) -> None:
        """Close every connection (after the writes under way are committed)."""
        self._io.shutdown(wait=True)
        self.history.close()
        self._db.close()

    async def call(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` (a blocking call of this store's) in a thread of the store's,
        awaited.

        Raises:
            Retired: the database's schema moved on under this process.
        """
        if self.retired:
            raise Retired
        return await asyncio.wrap_future(self._io.submit(function, *args))

    def listen(
        self,
        deliver: Callable[[str, int, str], None],
        reconnected: Callable[[], None],
        stop: threading.Event,
    ) -> None:
        """On PostgreSQL, the actions every process commits, as they commit them
        (:func:`~high_society.server._store_listen.listen`; blocking: a thread's work)."""
        listen(self._db, deliver, reconnected, stop)

    # --- What the sweep asks --------------------------------------------------------------

    def count_live(self) -> int:
        """How many tables are not over (waiting for players, or playing)."""
        with self._db.alone() as cursor:
            row = cursor.first("live")
        return 0 if row is None else int(row[0])

    def due(self) -> list[str]:
        """The tables where a bot or the dealer must act (to advance after a restart)."""
        with self._db.alone() as cursor:
            return [str(table_id) for (table_id,) in cursor.all("due")]

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

    def timed_out(self, now: float) -> list[str]:
        """The tables whose turn under way has timed out at ``now`` (the sweep plays their
        time-outs)."""
        with self._db.alone() as cursor:
            return [str(table_id) for (table_id,) in cursor.all("timed_out", now=now)]

    def resume(self, now: float, gap_after: float) -> float:
        """What a server does as it starts: when no server process has swept (:meth:`beat`)
        for more than ``gap_after`` seconds before ``now``, no server ran meanwhile, and
        every running clock is given that time back (its turn's start and deadline moved
        on by it); done once, however many processes start at once. Return the seconds
        given back (0: none)."""

        def resume(cursor: Cursor) -> float:
            row = cursor.first("heartbeat")
            if row is None:
                cursor.run("insert_heartbeat", at=now)
                return 0.0
            then = float(row[0])
            if cursor.run("beat", then=then, now=now) != 1:  # another process came first
                return 0.0
            gap = now - then
            if gap <= gap_after:
                return 0.0
            cursor.run("shift_clocks", gap=gap)
            return gap

        return self._db.write(resume)

    def beat(self, now: float) -> None:
        """Say that a server process is running at ``now`` (each sweep does)."""
        with self._db.alone() as cursor:
            cursor.run("beat_now", now=now)

    def schema_moved(self) -> bool:
        """Whether the database no longer holds this server's schema version (a newer
        server migrated it since this one started: this one must stop using it)."""
        with self._db.alone() as cursor:
            found = [int(version) for (version,) in cursor.all("schema_versions")]
        return found != [SCHEMA_VERSION]
