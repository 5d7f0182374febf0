"""The tables' histories in the database: their numbered actions and versions, read and
appended; and, on PostgreSQL, the actions other processes commit, as they commit them.

Each table's actions are rows of ``hs_actions``, numbered from 0; ``hs_tables.version`` is
how many there are. An append holds only if the table is still at the version the caller
played its actions on: ``UPDATE ... WHERE version = n`` moves the version on first (a row
lock on PostgreSQL, which a second writer of the table waits for and then finds the
version moved; on SQLite every writing transaction begins with ``BEGIN IMMEDIATE``, so
writers queue), then the rows are inserted under the primary key ``(table_id, number)``. A
writer that finds the version moved writes nothing and says so: nothing is ever applied
twice. On PostgreSQL each committed action also sends ``NOTIFY hs_actions, 'TABLE VERSION
ACTION'``, delivered when the transaction commits to every process that listens.
"""

import asyncio
import logging
import sqlite3
import threading
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import Executor
from pathlib import Path

import attrs
import sqlalchemy as sa

from high_society.server._database import Cursor, Database
from high_society.server._store_rows import Conflict, NotFound, Stored

__all__ = ["Append", "History"]

log = logging.getLogger("high_society.server")


@attrs.frozen
class Append:
    """Actions to commit to a table: their JSON texts and seats (``None`` for the
    dealer's), numbered from ``first`` (the version they were played on), the table's
    status and who acts next after them (words the sweep reads), and its clocks after
    them (JSON text, or ``None``), when the turn under way began and when it times out."""

    table_id: str
    first: int
    actions: tuple[str, ...]
    seats: tuple[int | None, ...]
    status: str
    next: str
    clock: str | None = None
    since: float | None = None
    deadline: float | None = None


class History:
    """The tables' actions in ``database`` (see the module's description); ``io`` runs the
    blocking calls that :meth:`commit` makes from an event loop."""

    def __init__(self, database: Database, io: Executor) -> None:
        self._db = database
        self._io = io
        self._peek: sqlite3.Connection | None = None
        self._peek_lock = threading.Lock()

    def close(self) -> None:
        if self._peek is not None:
            self._peek.close()

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
            clock, began = found[3], found[4]
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
        return Stored(status, version, bot_seed, text, items, clock, began)

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
        if not self._db.is_sqlite:
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

    def append(self, append: Append) -> bool:
        """Commit ``append``'s actions if the table is still at version ``append.first``;
        return whether they were committed (``False``: the version has moved; nothing was
        written). Blocking.

        Raises:
            NotFound: no such table.
        """
        if self._db.is_postgres:  # one statement, one trip
            return _append_pg(self._db, append)
        return self._db.write(lambda cursor: _append(cursor, append))

    async def commit(self, append: Append) -> bool:
        """:meth:`append`, awaited in an event loop without blocking it: whether it was
        committed, once it is durable (on SQLite by the writer thread, with the process's
        other writes; on PostgreSQL by a thread of the store's)."""
        queued = self._db.write_soon(lambda cursor: _append(cursor, append))
        if queued is None:
            return await asyncio.wrap_future(self._io.submit(self.append, append))
        return await queued


def _append_pg(database: Database, append: Append) -> bool:
    """PostgreSQL's append: one statement, one trip (``APPEND_PG``)."""
    first = append.first
    with database.alone() as cursor:
        moved, _ = cursor.first(
            "append_pg",
            **_moved_on(append),
            numbers=[first + i for i in range(len(append.actions))],
            actions=list(append.actions),
            seats=list(append.seats),
        ) or (0, 0)
        if not moved and cursor.first("version", id=append.table_id) is None:
            raise NotFound(append.table_id)
    return bool(moved)


def _moved_on(append: Append) -> dict[str, object]:
    """The values that move a table's row on by ``append``: its version (from the one
    the append was made on), status, who acts next, clocks, and when it changed."""
    return {
        "id": append.table_id,
        "old": append.first,
        "new": append.first + len(append.actions),
        "new_status": append.status,
        "new_next": append.next,
        "new_clock": append.clock,
        "new_since": append.since,
        "new_deadline": append.deadline,
        "now": time.time(),
    }


def _append(cursor: Cursor, append: Append) -> bool:
    """The append's job in a writing transaction (SQLite's writer)."""
    values = _moved_on(append)
    table_id, first, now = append.table_id, append.first, values["now"]
    moved = cursor.run("move_version", **values)
    if moved != 1:
        if cursor.first("version", id=table_id) is None:
            raise NotFound(table_id)
        return False
    rows: Sequence[dict[str, object]] = [
        {"table_id": table_id, "number": first + i, "action": text, "seat": seat, "at": now}
        for i, (text, seat) in enumerate(zip(append.actions, append.seats, strict=True))
    ]
    if len(rows) == 1:
        cursor.run("insert_action", **rows[0])
    else:
        cursor.many("insert_action", rows)
    return True
