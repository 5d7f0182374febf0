"""The tables and their seats in the database: making a table, a person taking a seat, a
rematch and its reserved seats, starting a table whose seats are all taken, and what anyone
may read of a table. Each write is one transaction; nothing here knows a rule of the game
(a table's opening is made by the caller, as data)."""

import time
from collections.abc import Sequence

import attrs

from high_society.server._database import Cursor, Database
from high_society.server._store_rows import (
    WAITING_KINDS,
    Conflict,
    Full,
    Lobby,
    NotFound,
    Opening,
    SeatRow,
)

__all__ = ["Seats", "seat_rows"]


class Seats:
    """The tables' seats in ``database`` (see the module's description)."""

    def __init__(self, database: Database) -> None:
        self._db = database

    def create(
        self,
        table_id: str,
        rows: Sequence[SeatRow],
        bot_seed: int,
        opening: Opening | None,
        max_live: int | None = None,
        *,
        clock: str | None = None,
        listed: bool = False,
    ) -> None:
        """Store a new table with its seats, its clocks (JSON text, or ``None``: no clock)
        and whether the lobby lists it; ``opening`` starts it at once (no open seat).

        Raises:
            Full: the database holds ``max_live`` tables not over already (counted in the
                transaction that makes the table: whatever process makes one).
        """

        def make(cursor: Cursor) -> None:
            _check_room(cursor, max_live)
            _insert(cursor, table_id, rows, bot_seed, opening, clock, listed)

        self._db.write(make)

    def join(self, table_id: str, name: str, token_hash: str) -> tuple[int, bool]:
        """Give the first open seat of a waiting table to the person ``name``; return the
        seat and whether every seat is taken now (then :meth:`start` starts it).

        Raises:
            NotFound, Conflict: no such table; no open seat (``NO_OPEN_SEAT``), or the name
                is taken (``NAME_TAKEN``).
        """
        return self._db.write(lambda cursor: _take_seat(cursor, table_id, name, token_hash))

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
        token_hash: str,
        opening: Opening,
        max_live: int | None = None,
    ) -> tuple[str, bool]:
        """In one transaction: the rematch of the table ``old_id`` (the one made already,
        else a new waiting table ``new_id`` with ``rows``, linked to it: made once whoever
        asks at once, the old table's row locked first), and, when it is ``new_id``, its
        reserved ``seat`` given its person's token (its hash); when every seat is taken
        then, the rematch starts with ``opening``. Return the rematch's id (another than
        ``new_id`` when another ask made it first: then nothing is claimed) and whether it
        started now. A seat claimed already with that hash changes nothing.

        Raises:
            NotFound: no table ``old_id`` (or its rematch went meanwhile).
            Conflict: the seat is not reserved (``NOT_RESERVED``).
            Full: the rematch is to be made, and the database holds ``max_live`` tables
                not over already.
        """

        def link(cursor: Cursor) -> tuple[str, bool]:
            if cursor.first("row_locked", id=old_id) is None:
                raise NotFound(old_id)
            found = cursor.first("rematch_of", id=old_id)
            if found is not None and str(found[0]) != new_id:
                return str(found[0]), False
            if found is None:
                _check_room(cursor, max_live)
                _insert(cursor, new_id, rows, bot_seed, None, opening.clock)
                cursor.run("insert_rematch", old_id=old_id, new_id=new_id)
            if not _claim(cursor, new_id, seat, token_hash):
                return new_id, False
            _start(cursor, new_id, opening, time.time())
            return new_id, True

        return self._db.write(link)

    def start(self, table_id: str, opening: Opening) -> bool:
        """Start the waiting table ``table_id``, every seat of which is taken, with
        ``opening``; return whether it started now (``False``: it had started already, or a
        seat waits for a person)."""

        def start(cursor: Cursor) -> bool:
            locked = cursor.first("row_locked", id=table_id)
            if locked is None or locked[0] != "waiting":
                return False
            if any(row.kind in WAITING_KINDS for row in seat_rows(cursor, table_id)):
                return False
            _start(cursor, table_id, opening, time.time())
            return True

        return self._db.write(start)

    def lobby(self, table_id: str) -> Lobby:
        """The table's public description.

        Raises:
            NotFound: no such table.
        """
        with self._db.alone() as cursor:
            row = cursor.first("row", id=table_id)
            if row is None:
                raise NotFound(table_id)
            rows = seat_rows(cursor, table_id)
            rematch = cursor.first("rematch_of", id=table_id)
        new_id = None if rematch is None else str(rematch[0])
        return Lobby(table_id, str(row[0]), int(row[1]), rows, new_id, row[3])

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
        return found, all(kind not in WAITING_KINDS for _, kind, _ in rows)

    def unstarted(self) -> list[str]:
        """The waiting tables whose every seat is taken: a process stopped between taking
        the last seat and starting the table (the sweep starts them)."""
        with self._db.alone() as cursor:
            return [str(table_id) for (table_id,) in cursor.all("unstarted")]


def _check_room(cursor: Cursor, max_live: int | None) -> None:
    """Raise :class:`Full` when the database holds ``max_live`` tables not over."""
    if max_live is not None:
        row = cursor.first("live")
        if row is not None and int(row[0]) >= max_live:
            raise Full


def _take_seat(cursor: Cursor, table_id: str, name: str, token_hash: str) -> tuple[int, bool]:
    """:meth:`Seats.join`'s transaction."""
    locked = cursor.first("row_locked", id=table_id)
    if locked is None:
        raise NotFound(table_id)
    rows = seat_rows(cursor, table_id)
    seat = next((row.seat for row in rows if row.kind == "open"), None)
    if locked[0] != "waiting" or seat is None:
        raise Conflict("NO_OPEN_SEAT", "the table has no open seat")
    if any(row.name == name for row in rows):
        raise Conflict("NAME_TAKEN", "another seat at this table has that name")
    cursor.run("take_seat", id=table_id, at_seat=seat, new_name=name, new_hash=token_hash)
    return seat, _full_once_taken(rows, seat)


def _full_once_taken(rows: Sequence[SeatRow], seat: int) -> bool:
    """Whether no seat of ``rows`` waits for a person once ``seat`` is a person's."""
    return all(row.kind not in WAITING_KINDS for row in rows if row.seat != seat)


def _claim(cursor: Cursor, table_id: str, seat: int, token_hash: str) -> bool:
    """Give the reserved ``seat`` its person's token (its hash); return whether the table
    is to start now (it waits, and every seat is taken after that). A claim made already
    with this hash changes nothing (and starts nothing)."""
    locked = cursor.first("row_locked", id=table_id)
    found = cursor.first("seat_hash", id=table_id, at_seat=seat)
    if locked is None or found is None:
        raise NotFound(table_id)
    kind, stored = found
    rows = seat_rows(cursor, table_id)
    if kind == "person" and stored == token_hash:
        return False
    if kind != "reserved" or locked[0] != "waiting":
        raise Conflict("NOT_RESERVED", "that seat is not reserved for this person")
    name = rows[seat].name
    cursor.run("take_seat", id=table_id, at_seat=seat, new_name=name, new_hash=token_hash)
    return _full_once_taken(rows, seat)


def seat_rows(cursor: Cursor, table_id: str) -> tuple[SeatRow, ...]:
    """The table's seats, in order."""
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
    clock: str | None = None,
    listed: bool = False,
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
        listed=listed,
        clock=clock,
        since=None,
        deadline=None,
    )
    for row in rows:
        cursor.run("insert_seat", table_id=table_id, **attrs.asdict(row))
    if opening is not None:
        _start(cursor, table_id, opening, now)


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
        new_clock=opening.clock,
        new_since=opening.since,
        new_deadline=opening.deadline,
        now=now,
    )
