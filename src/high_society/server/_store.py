"""The server's data layer: one schema and one set of transactions, for SQLite and PostgreSQL.

The schema and every statement are SQLAlchemy Core; each statement is compiled once for the
database's dialect when a store opens, and run by the driver itself (sqlite3, psycopg) on a
connection of SQLAlchemy's pool. (SQLAlchemy's own execution, its compile cache, contexts
and result objects, cost several times what the statement does on SQLite.)

The database is the truth. Each table's actions are rows of ``hs_actions``, numbered from 0;
``hs_tables.version`` is how many there are. Every action is committed before anyone is
told of it, in a transaction that:

1. locks the table's row: ``SELECT ... FOR UPDATE`` (a row lock on PostgreSQL; SQLite has
   no row locks, and every writing transaction here starts with ``BEGIN IMMEDIATE``, which
   takes the database's write lock at once, so writers queue instead of failing);
2. reads the actions committed since the copy this process keeps in memory, and plays
   them on that copy (the cache only saves replaying a prefix; it never decides);
3. checks and plays the new action, inserts its row under the primary key
   ``(table_id, number)`` and moves the version on with ``UPDATE ... WHERE version = n``
   (a version check that holds even without the lock: a second writer of number ``n``
   fails, and nothing is applied twice).

The dealer's reveal that a person's move makes due (the move ended an auction) is played
and committed in that move's transaction, and a table starts with its first card
revealed: the deck's order is stored, so the reveal is the same whoever plays it, and a
move and its reveal reach the seats in one update. The bots' actions (and a reveal after a
bot's) are computed outside any transaction, from a read at version ``n``, and committed
only if the version is still ``n`` (whoever computes them, they are the same: a bot's seed
is derived from the table's bot seed and the action's number).

On SQLite one thread of each process writes (:class:`_Writer`): the writes of the
process's requests queue for it, and it commits them in groups, one durable commit for
each group. On PostgreSQL each write is a transaction of its own, on a pooled connection
of the calling thread; each committed action also sends ``NOTIFY hs_actions, 'TABLE
VERSION ACTION'`` (delivered when the transaction commits, to every server process that
listens: :meth:`Store.listen`); a process whose copy of the table is one action behind
plays the action on it, so its streams need no read. A notification is only a hint: the
table's version is the cursor, so one lost while a listener reconnects costs nothing but
a look at every table.
"""

import hashlib
import hmac
import json
import logging
import re
import secrets
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any, TypeVar

import attrs
import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Dialect, Engine
from sqlalchemy.sql.compiler import SQLCompiler

from high_society.actions import Action
from high_society.bots import AnyBot
from high_society.errors import HighSocietyError, InvalidConfigError
from high_society.record import dumps_record
from high_society.rules import CHANCE, to_act
from high_society.serial import action_from_json, action_to_json
from high_society.table import Accepted, Refusal, Seat, Table

__all__ = [
    "CHANNEL",
    "SCHEMA_VERSION",
    "TOKEN_BYTES",
    "Conflict",
    "Lobby",
    "NotFound",
    "Store",
    "Unauthorized",
    "automatic_action",
    "check_database",
    "hash_token",
    "is_unavailable",
    "normalise_url",
]

log = logging.getLogger("high_society.server")

T = TypeVar("T")

#: The PostgreSQL notification channel of committed actions (``"TABLE VERSION ACTION"``).
CHANNEL = "hs_actions"
#: The key of the advisory lock that serialises making the schema (PostgreSQL).
_SCHEMA_LOCK = 0x4853_5343  # "HSSC"

#: The schema's version, kept in ``hs_schema``; a database of another version is refused.
SCHEMA_VERSION = 1
#: Bytes of randomness in a seat's token (43 characters of URL-safe base64).
TOKEN_BYTES = 32
#: The longest token read (longer ones are refused before hashing).
MAX_TOKEN_LENGTH = 64

metadata = sa.MetaData()

schema_table = sa.Table(
    "hs_schema",
    metadata,
    sa.Column("version", sa.Integer, nullable=False),
)

tables = sa.Table(
    "hs_tables",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    # waiting (open seats), playing, over
    sa.Column("status", sa.String(8), nullable=False),
    # How many actions are committed: the number of the next one.
    sa.Column("version", sa.Integer, nullable=False),
    # Who acts next: person, bot, chance or none (lets a sweep find the tables to advance).
    sa.Column("next", sa.String(8), nullable=False),
    # The table's snapshot without its actions (seats and the secret deck order), once
    # every seat is taken; null while seats are open.
    sa.Column("setup", sa.Text, nullable=True),
    sa.Column("bot_seed", sa.BigInteger, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
)

seats = sa.Table(
    "hs_seats",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("hs_tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),  # person, bot or open
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("bot", sa.String(16), nullable=True),
    # sha256 of the token, hex: a copy of the database does not give the tokens away.
    sa.Column("token_hash", sa.String(64), nullable=True),
)

actions = sa.Table(
    "hs_actions",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("hs_tables.id"), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("action", sa.Text, nullable=False),
    sa.Column("seat", sa.Integer, nullable=True),  # None for a reveal
    sa.Column("at", sa.Float, nullable=False),
)

sa.Index("hs_tables_next", tables.c.status, tables.c.next)

_ID: sa.BindParameter[str] = sa.bindparam("id", type_=sa.String)


def _statements() -> dict[str, sa.ClauseElement]:
    """Every statement the store runs (``:id`` and the other named parameters are given
    at each run; a plain value is fixed)."""
    the_table = tables.c.id == _ID
    seat_rows = seats.c.table_id == _ID
    return {
        "row": sa.select(tables.c.status, tables.c.version, tables.c.bot_seed).where(the_table),
        "row_locked": sa.select(tables.c.status, tables.c.version, tables.c.bot_seed)
        .where(the_table)
        .with_for_update(),
        "setup": sa.select(tables.c.setup).where(the_table),
        "version": sa.select(tables.c.status, tables.c.version).where(the_table),
        "actions_from": sa.select(actions.c.action)
        .where(
            actions.c.table_id == _ID,
            actions.c.number >= sa.bindparam("first"),
            actions.c.number < sa.bindparam("end"),
        )
        .order_by(actions.c.number),
        "insert_action": actions.insert(),
        "move_version": tables.update()
        .where(the_table, tables.c.version == sa.bindparam("old"))
        .values(
            version=sa.bindparam("new"),
            status=sa.bindparam("new_status"),
            next=sa.bindparam("new_next"),
            updated=sa.bindparam("now"),
        ),
        "notify": sa.select(sa.func.pg_notify(CHANNEL, sa.bindparam("note"))),
        "insert_table": tables.insert(),
        "insert_seat": seats.insert(),
        "seats": sa.select(seats.c.kind, seats.c.name, seats.c.bot)
        .where(seat_rows)
        .order_by(seats.c.seat),
        "seats_taken": sa.select(seats.c.seat, seats.c.kind, seats.c.name)
        .where(seat_rows)
        .order_by(seats.c.seat),
        "take_seat": seats.update()
        .where(seat_rows, seats.c.seat == sa.bindparam("at_seat"))
        .values(kind="person", name=sa.bindparam("new_name"), token_hash=sa.bindparam("new_hash")),
        "start": tables.update()
        .where(the_table, tables.c.status == "waiting")
        .values(
            status=sa.bindparam("new_status"),
            version=sa.bindparam("new"),
            next=sa.bindparam("new_next"),
            setup=sa.bindparam("new_setup"),
            updated=sa.bindparam("now"),
        ),
        "exists": sa.select(tables.c.id).where(the_table),
        "hashes": sa.select(seats.c.seat, seats.c.kind, seats.c.token_hash).where(seat_rows),
        "due": sa.select(tables.c.id).where(
            tables.c.status == "playing", sa.or_(tables.c.next == "bot", tables.c.next == "chance")
        ),
    }


class _Sql:
    """A statement compiled for one dialect: its text and how to order its parameters."""

    __slots__ = ("fixed", "names", "positional", "text")

    def __init__(self, statement: sa.ClauseElement, dialect: Dialect) -> None:
        compiled = statement.compile(dialect=dialect)
        assert isinstance(compiled, SQLCompiler)
        self.text = str(compiled)
        self.positional = bool(compiled.positional)
        if self.positional:
            self.names: tuple[str, ...] = tuple(compiled.positiontup or ())
        else:  # pyformat: %(name)s
            self.names = tuple(dict.fromkeys(re.findall(r"%\((\w+)\)s", self.text)))
        binds = compiled.binds
        self.fixed = {
            name: binds[name].value
            for name in self.names
            if name in binds and not binds[name].required
        }

    def params(self, values: dict[str, Any]) -> tuple[Any, ...] | dict[str, Any]:
        if self.fixed:
            values = {**self.fixed, **values}
        if self.positional:
            return tuple(values[name] for name in self.names)
        return {name: values[name] for name in self.names}


class _Cursor:
    """The compiled statements on one driver cursor, in one transaction."""

    __slots__ = ("_cursor", "_sql")

    def __init__(self, cursor: Any, sql: dict[str, _Sql]) -> None:
        self._cursor = cursor
        self._sql = sql

    def run(self, name: str, /, **values: Any) -> int:
        """Run a statement; return how many rows it changed."""
        sql = self._sql[name]
        self._cursor.execute(sql.text, sql.params(values))
        count: int = self._cursor.rowcount
        return count

    def many(self, name: str, /, rows: Sequence[dict[str, Any]]) -> None:
        """Run a statement once for each of ``rows`` (psycopg sends them all at once)."""
        sql = self._sql[name]
        self._cursor.executemany(sql.text, [sql.params(values) for values in rows])

    def first(self, name: str, /, **values: Any) -> tuple[Any, ...] | None:
        sql = self._sql[name]
        self._cursor.execute(sql.text, sql.params(values))
        row: tuple[Any, ...] | None = self._cursor.fetchone()
        return row

    def all(self, name: str, /, **values: Any) -> list[tuple[Any, ...]]:
        sql = self._sql[name]
        self._cursor.execute(sql.text, sql.params(values))
        rows: list[tuple[Any, ...]] = self._cursor.fetchall()
        return rows

    def plain(self, text: str) -> None:
        """A statement of SQL common to both databases, without parameters."""
        self._cursor.execute(text)


@attrs.frozen
class _Row:
    """A table's row, as a transaction reads it."""

    status: str
    version: int
    bot_seed: int


class NotFound(Exception):
    """No table has that id."""


class Unauthorized(Exception):
    """The token is missing, malformed, or is no seat's token at that table."""


class Conflict(Exception):
    """The table cannot do that now (it waits for players, it has no open seat ...)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@attrs.frozen
class Lobby:
    """A table's public description: its seats and where the game is."""

    table_id: str
    status: str
    version: int
    seats: tuple[tuple[str, str | None, str | None], ...]  # (kind, name, bot) per seat


def normalise_url(url: str) -> str:
    """The SQLAlchemy URL for ``url``: ``postgresql://`` and ``postgres://`` name
    PostgreSQL through psycopg 3 (``postgresql+psycopg://``), the driver the ``server``
    extra installs; any other URL is SQLAlchemy's own.

    Raises:
        InvalidConfigError: not a database URL SQLAlchemy reads.
    """
    try:
        parsed = sa.engine.make_url(url)
    except sa.exc.ArgumentError:
        raise InvalidConfigError(
            "the database must be a URL such as sqlite:////path/tables.sqlite3 or "
            "postgresql://user@host/database"
        ) from None
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed.render_as_string(hide_password=False)


def check_database(url: str) -> None:
    """Connect to the database at ``url``, make its schema if missing, and disconnect: what
    a server does first, so that a wrong URL or an unreachable database is told at once.

    Raises:
        InvalidConfigError: not a database URL this server can use, the database cannot be
            reached (the driver's reason given), or it holds another schema version.
    """
    try:
        Store(url).close()
    except sa.exc.SQLAlchemyError as error:
        shown = sa.engine.make_url(normalise_url(url)).render_as_string(hide_password=True)
        reason = str(getattr(error, "orig", None) or error).split("\n", 1)[0]
        raise InvalidConfigError(f"cannot use the database {shown}: {reason}") from None


def _driver_errors() -> tuple[type[BaseException], ...]:
    """The drivers' errors that say the database cannot answer now."""
    found: list[type[BaseException]] = [sqlite3.OperationalError, sqlite3.InterfaceError]
    try:
        import psycopg
    except ImportError:  # the server extra names it; SQLite needs none
        pass
    else:
        found += [psycopg.OperationalError, psycopg.InterfaceError]
    return tuple(found)


_UNAVAILABLE = _driver_errors()


def is_unavailable(error: BaseException) -> bool:
    """True when ``error`` says the database cannot answer now (down, restarting, the
    connection lost, busy, no connection free in the pool), not that the request is wrong:
    the request may be tried again."""
    if isinstance(error, sa.exc.TimeoutError):  # the pool had no connection free in time
        return True
    if isinstance(error, sa.exc.DBAPIError):
        return error.connection_invalidated or isinstance(
            error, sa.exc.OperationalError | sa.exc.InterfaceError
        )
    return isinstance(error, _UNAVAILABLE)


def hash_token(token: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(token.encode("ascii")).hexdigest()


_GOOD_TOKEN = re.compile(f"[A-Za-z0-9_-]{{1,{MAX_TOKEN_LENGTH}}}")


def _good_token(token: object) -> bool:
    return isinstance(token, str) and _GOOD_TOKEN.fullmatch(token) is not None


#: How many tables in play a process keeps in memory (their latest state, their token
#: hashes), and how many finished ones.
_CACHE_TABLES = 2048
_OVER_TABLES = 32


def _seat_by_token(token: object, hashes: dict[str, int]) -> int:
    """The seat whose stored hash is the token's: every hash is compared, each in constant
    time, so the time taken says nothing of which one matched or how much of it.

    Raises:
        Unauthorized: a malformed token, or none of ``hashes``.
    """
    if not _good_token(token):
        raise Unauthorized
    assert isinstance(token, str)
    given = hash_token(token).encode()
    found = None
    for stored, seat in hashes.items():
        if hmac.compare_digest(given, stored.encode()) and found is None:
            found = seat
    if found is None:
        raise Unauthorized
    return found


def _next(table: Table) -> str:
    actor = to_act(table.state)
    if actor is None:
        return "none"
    if actor is CHANCE:
        return "chance"
    assert isinstance(actor, int)
    return "bot" if table.seats[actor].is_bot else "person"


def _status(table: Table) -> str:
    return "over" if table.is_over else "playing"


def _setup(table: Table) -> str:
    snapshot = table.snapshot()
    snapshot["actions"] = []
    return json.dumps(snapshot, separators=(",", ":"))


def _json(action: Action) -> str:
    return json.dumps(action_to_json(action), separators=(",", ":"))


class Store:
    """The tables in a database (SQLite or PostgreSQL).

    ``url`` is a SQLAlchemy URL (:func:`normalise_url`): ``sqlite:///path/tables.sqlite3``,
    or ``postgresql://user@host/db``. The schema is made when missing (by one process at a
    time: several may start at once). A store is safe to share between threads.

    Raises:
        InvalidConfigError: ``url`` is not a database URL, its driver is not installed, or
            the database holds tables of another schema version.
        sqlalchemy.exc.SQLAlchemyError: the database cannot be reached
            (:func:`is_unavailable` is true of it).
    """

    def __init__(self, url: str, *, busy_seconds: float = 30.0) -> None:
        self.url = normalise_url(url)
        self.is_sqlite = self.url.startswith("sqlite")
        self.is_postgres = self.url.startswith("postgresql")
        try:
            if self.is_sqlite:
                self.engine: Engine = sa.create_engine(
                    self.url, connect_args={"timeout": busy_seconds, "check_same_thread": False}
                )
                _sqlite_connections(self.engine, busy_seconds)
            else:
                # A pool as large as the thread pool that calls it (anyio's 40), so a
                # request never waits for a connection while a thread is free; a database
                # host that does not answer fails a connection in 10 s (libpq waits forever).
                given = sa.engine.make_url(self.url).query
                self.engine = sa.create_engine(
                    self.url,
                    pool_size=20,
                    max_overflow=20,
                    pool_timeout=10,
                    connect_args={} if "connect_timeout" in given else {"connect_timeout": 10},
                )
        except (sa.exc.ArgumentError, sa.exc.NoSuchModuleError, ImportError) as error:
            raise InvalidConfigError(f"cannot use the database URL: {error}") from None
        dialect = self.engine.dialect
        self._sql = {name: _Sql(statement, dialect) for name, statement in _statements().items()}
        # The latest copy of each table known here: those in play, and the last few over.
        self._cache: dict[str, Table] = {}
        self._over: dict[str, Table] = {}
        self._seeds: dict[str, int] = {}
        self._cache_lock = threading.Lock()
        # table -> {token hash: seat}: a seat's token never changes once given, so the
        # hashes read once serve every later request.
        self._tokens: dict[str, dict[str, int]] = {}
        try:
            self._make_schema()
        except BaseException:
            self.engine.dispose()
            raise
        self._writer = _Writer(self._begin_write) if self.is_sqlite else None

    def close(self) -> None:
        """Close every connection (after the writes under way are committed)."""
        if self._writer is not None:
            self._writer.close()
        self.engine.dispose()

    def _make_schema(self) -> None:
        with self.engine.connect() as conn:
            conn.execution_options(hs_write=True)
            with conn.begin():
                if self.is_postgres:  # two processes starting at once make it once
                    conn.execute(sa.select(sa.func.pg_advisory_xact_lock(_SCHEMA_LOCK)))
                metadata.create_all(conn)
                found = conn.execute(sa.select(schema_table.c.version)).scalars().all()
                if not found:
                    conn.execute(schema_table.insert().values(version=SCHEMA_VERSION))
                elif found != [SCHEMA_VERSION]:
                    raise InvalidConfigError(
                        f"the database holds tables of schema version {found[0]}, and this "
                        f"server reads version {SCHEMA_VERSION}"
                    )

    # --- Transactions -----------------------------------------------------------------------

    @contextmanager
    def _transaction(self, write: bool) -> Iterator[_Cursor]:
        """A transaction on a pooled connection of this thread, committed when the block
        ends and rolled back when it raises. A connection whose database could not answer
        is not pooled again; one found lost (the database restarted) takes the pool's
        other connections with it, which are as lost (instead of a ping each checkout)."""
        raw = self.engine.raw_connection()
        cursor = raw.cursor()
        try:
            if self.is_sqlite:  # the driver begins nothing itself (_sqlite_connections)
                cursor.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            yield _Cursor(cursor, self._sql)
            raw.commit()
        except BaseException as error:
            dialect = self.engine.dialect
            if isinstance(error, dialect.loaded_dbapi.Error) and is_unavailable(error):
                raw.invalidate(error)
                if dialect.is_disconnect(error, raw.dbapi_connection, cursor):
                    self.engine.dispose()
            else:
                with _quietly():
                    raw.rollback()
            raise
        finally:
            with _quietly():
                cursor.close()
            raw.close()  # back to the pool

    @contextmanager
    def _begin_write(self) -> Iterator[Any]:
        """SQLite: the writer's connection (kept while it works), a writing transaction."""
        with self._transaction(write=True) as cursor:
            yield cursor

    def _transact(self, job: Callable[[_Cursor], T]) -> T:
        """``job(cursor)`` in a writing transaction, committed before this returns; its
        exception, raised here, undoes what it wrote. On SQLite it is the writer thread's
        to run (:class:`_Writer`), with the process's other writes."""
        if self._writer is not None:
            return self._writer.run(job)
        with self._transaction(write=True) as cursor:
            return job(cursor)

    @property
    def writes_in_background(self) -> bool:
        """True when writes are handed to a thread of the store's own (SQLite), so that
        :meth:`submit_then` returns at once: an event loop need not call the store from a
        thread of its own to write."""
        return self._writer is not None

    def _read(self) -> AbstractContextManager[_Cursor]:
        return self._transaction(write=False)

    # --- Making and joining tables ----------------------------------------------------------

    def create(
        self, specs: Sequence[tuple[str, str | None, str | None]]
    ) -> tuple[str, list[tuple[int, str]]]:
        """Make a table from ``(kind, name, bot)`` per seat (``person`` with a name, ``bot``
        with a bot label and a name, ``open``); return its id and each named person's
        ``(seat, token)``. Names and labels are checked by the caller. A table without an
        open seat starts at once, its first card revealed."""
        table_id = secrets.token_urlsafe(12)
        now = time.time()
        tokens: list[tuple[int, str]] = []
        hashes: dict[str, int] = {}
        rows = []
        for seat, (kind, name, bot) in enumerate(specs):
            token_hash = None
            if kind == "person":
                token = secrets.token_urlsafe(TOKEN_BYTES)
                tokens.append((seat, token))
                token_hash = hash_token(token)
                hashes[token_hash] = seat
            rows.append((seat, kind, name, bot, token_hash))
        bot_seed = secrets.randbits(62)

        def insert(cursor: _Cursor) -> Table | None:
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
            for seat, kind, name, bot, token_hash in rows:
                cursor.run(
                    "insert_seat",
                    table_id=table_id,
                    seat=seat,
                    kind=kind,
                    name=name,
                    bot=bot,
                    token_hash=token_hash,
                )
            return self._start_if_full(cursor, table_id)

        started = self._transact(insert)
        if started is not None:
            self._keep(table_id, started, bot_seed, owned=True)
            self._keep_tokens(table_id, hashes)
        return table_id, tokens

    def join(self, table_id: str, name: str) -> tuple[int, str]:
        """Take the first open seat of a waiting table; return ``(seat, token)``.

        Raises:
            NotFound, Conflict: no such table; no open seat, or the name is taken.
        """
        token = secrets.token_urlsafe(TOKEN_BYTES)

        def take(cursor: _Cursor) -> int:
            row = self._lock(cursor, table_id)
            if row.status != "waiting":
                raise Conflict("NO_OPEN_SEAT", "the table has no open seat")
            taken = cursor.all("seats_taken", id=table_id)
            if any(other == name for _, _, other in taken):
                raise Conflict("NAME_TAKEN", "another seat at this table has that name")
            seat = int(next(number for number, kind, _ in taken if kind == "open"))
            cursor.run(
                "take_seat", id=table_id, at_seat=seat, new_name=name, new_hash=hash_token(token)
            )
            self._start_if_full(cursor, table_id)
            return seat

        return self._transact(take), token

    def _start_if_full(self, cursor: _Cursor, table_id: str) -> Table | None:
        """Start the table if no seat is open: shuffle its deck (``secrets.SystemRandom``)
        and reveal its first card; return it, or ``None``."""
        rows = cursor.all("seats", id=table_id)
        if any(kind == "open" for kind, _, _ in rows):
            return None
        table = Table([Seat(name, bot) for _, name, bot in rows])
        setup = _setup(table)
        reveal = table.reveal()
        now = time.time()
        cursor.run(
            "insert_action", table_id=table_id, number=0, action=_json(reveal), seat=None, at=now
        )
        cursor.run(
            "start",
            id=table_id,
            new_status=_status(table),
            new=table.number,
            new_next=_next(table),
            new_setup=setup,
            now=now,
        )
        return table

    def lobby(self, table_id: str) -> Lobby:
        """The table's public description.

        Raises:
            NotFound: no such table.
        """
        with self._read() as cursor:
            row = cursor.first("version", id=table_id)
            if row is None:
                raise NotFound(table_id)
            rows = cursor.all("seats", id=table_id)
        return Lobby(table_id, str(row[0]), int(row[1]), tuple((k, n, b) for k, n, b in rows))

    def known_seat(self, table_id: str, token: object) -> int | None:
        """:meth:`seat_of` from what this process keeps, without a read: ``None`` when it
        does not know the table's tokens yet (cheap: call it from an event loop).

        Raises:
            Unauthorized: the table's tokens are known, and ``token`` is none of them.
        """
        with self._cache_lock:
            known = self._tokens.get(table_id)
        if known is None:
            return None
        return _seat_by_token(token, known)

    def seat_of(self, table_id: str, token: object) -> int:
        """The seat whose token ``token`` is, compared in constant time.

        Raises:
            NotFound, Unauthorized: no such table; no seat of it has that token.
        """
        found = self.known_seat(table_id, token)
        if found is not None:
            return found
        with self._read() as cursor:
            if cursor.first("exists", id=table_id) is None:
                raise NotFound(table_id)
            rows = cursor.all("hashes", id=table_id)
        hashes = {str(h): int(seat) for seat, _, h in rows if h is not None}
        if all(kind != "open" for _, kind, _ in rows):
            self._keep_tokens(table_id, hashes)
        return _seat_by_token(token, hashes)

    def _keep_tokens(self, table_id: str, hashes: dict[str, int]) -> None:
        with self._cache_lock:
            self._tokens[table_id] = hashes
            if len(self._tokens) > _CACHE_TABLES:
                self._tokens.pop(next(iter(self._tokens)))

    # --- Reading a game ---------------------------------------------------------------------

    def _lock(self, cursor: _Cursor, table_id: str) -> _Row:
        row = cursor.first("row_locked", id=table_id)
        if row is None:
            raise NotFound(table_id)
        return _Row(str(row[0]), int(row[1]), int(row[2]))

    def _table(self, cursor: _Cursor, table_id: str, row: _Row) -> Table:
        """The table at the row's version: the cached copy, with the actions committed
        since played on it."""
        if row.status == "waiting":
            raise Conflict("TABLE_WAITING", "the table waits for players to join")
        with self._cache_lock:
            cached = self._cached(table_id)
            table = cached.copy() if cached is not None and cached.number <= row.version else None
        if table is None:
            setup = cursor.first("setup", id=table_id)
            assert setup is not None
            table = Table.restore(setup[0])
        if table.number < row.version:
            # Up to the row's version only: on PostgreSQL each statement of a reading
            # transaction sees what is committed when it starts (READ COMMITTED), so actions
            # committed after the row was read may be there already.
            for (item,) in cursor.all(
                "actions_from", id=table_id, first=table.number, end=row.version
            ):
                table.play(action_from_json(json.loads(item)))
        assert table.number == row.version, (table.number, row.version)
        return table

    def _keep(self, table_id: str, table: Table, bot_seed: int, *, owned: bool = False) -> None:
        """Keep ``table`` as the latest copy of the table known here, unless a later one is
        kept already; ``owned``: the caller hands it over (no copy is made)."""
        with self._cache_lock:
            cached = self._cached(table_id)
            if cached is None or cached.number < table.number:
                kept = table if owned else table.copy()
                if kept.is_over:  # only its last streams and readers need it now
                    self._cache.pop(table_id, None)
                    self._over[table_id] = kept
                else:
                    self._cache[table_id] = kept
                self._seeds[table_id] = bot_seed
            # Bounds on memory, and on the collector's work: a full collection walks every
            # object kept (a finished table holds a few hundred), so finished tables go
            # first and the oldest go.
            if len(self._seeds) > _CACHE_TABLES:
                self._seeds.pop(next(iter(self._seeds)))
            if len(self._cache) > _CACHE_TABLES:
                self._cache.pop(next(iter(self._cache)))
            if len(self._over) > _OVER_TABLES:
                self._over.pop(next(iter(self._over)))

    def _cached(self, table_id: str) -> Table | None:
        """The copy kept here, if any (with the cache's lock held)."""
        return self._cache.get(table_id) or self._over.get(table_id)

    def kept(
        self, table_id: str, at_least: int, *, shared: bool = False
    ) -> tuple[Table, int] | None:
        """The table (a private copy) and its bot seed from what this process keeps, when
        that is at version ``at_least`` or later; else ``None``. No read: cheap. With
        ``shared``, the kept table itself, to read and never to play on (nothing plays on
        a kept table: a new one replaces it), so that the seats' payloads share its
        public part."""
        with self._cache_lock:
            cached = self._cached(table_id)
            seed = self._seeds.get(table_id)
            if cached is not None and seed is not None and cached.number >= at_least:
                return (cached if shared else cached.copy()), seed
        return None

    def load(self, table_id: str, at_least: int | None = None) -> tuple[Table, int]:
        """The table (a private copy) and its bot seed. With ``at_least``, a version known
        to be committed (a notification's), the copy kept here serves when it is that
        recent, without a read.

        Raises:
            NotFound, Conflict: no such table; it waits for players.
        """
        if at_least is not None:
            kept = self.kept(table_id, at_least)
            if kept is not None:
                return kept
        with self._read() as cursor:
            found = cursor.first("row", id=table_id)
            if found is None:
                raise NotFound(table_id)
            row = _Row(str(found[0]), int(found[1]), int(found[2]))
            table = self._table(cursor, table_id, row)
        self._keep(table_id, table, row.bot_seed)
        return table, row.bot_seed

    def version(self, table_id: str) -> tuple[str, int]:
        """The table's status and how many actions it has (a cheap read, for streams).

        Raises:
            NotFound: no such table.
        """
        with self._read() as cursor:
            row = cursor.first("version", id=table_id)
        if row is None:
            raise NotFound(table_id)
        return str(row[0]), int(row[1])

    def versions(self, table_ids: Iterable[str]) -> dict[str, int]:
        """The versions of those of ``table_ids`` that exist, in one reading transaction
        (what a process's streams poll on SQLite)."""
        found: dict[str, int] = {}
        with self._read() as cursor:
            for table_id in table_ids:
                row = cursor.first("version", id=table_id)
                if row is not None:
                    found[table_id] = int(row[1])
        return found

    def listen(
        self,
        deliver: Callable[[str, int], None],
        reconnected: Callable[[], None],
        stop: threading.Event,
        retry_seconds: float = 1.0,
    ) -> None:
        """On PostgreSQL, until ``stop`` is set: ``LISTEN`` on :data:`CHANNEL` and call
        ``deliver(table, version)`` for each committed action of any process. After every
        (re)connection ``reconnected()`` is called, since notifications sent while no
        connection listened are lost. Blocking: run it in a thread of its own."""
        if not self.is_postgres:
            raise InvalidConfigError("only PostgreSQL delivers notifications")
        dialect = self.engine.dialect
        cargs, cparams = dialect.create_connect_args(self.engine.url)
        cparams.setdefault("connect_timeout", 10)
        down = False
        while not stop.is_set():
            try:
                connection = dialect.connect(*cargs, **cparams)
            except Exception as error:
                if not down:
                    log.warning("listening for actions: cannot connect (%s); retrying", error)
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
                        if version.isdigit():
                            self._learn(table_id, int(version), action)
                            deliver(table_id, int(version))
            except Exception as error:
                if not down:
                    log.warning("listening for actions: connection lost (%s); retrying", error)
                    down = True
                stop.wait(retry_seconds)
            finally:
                with _quietly():
                    connection.close()

    def _learn(self, table_id: str, version: int, action: str) -> None:
        """Another process committed ``action`` (JSON) as the table's action ``version - 1``:
        play it on the copy kept here when that is just before it, so that this process's
        streams send it without a read. (The notification comes from the commit itself.)"""
        with self._cache_lock:
            cached = self._cached(table_id)
            seed = self._seeds.get(table_id)
            if cached is None or seed is None or cached.number != version - 1:
                return
            table = cached.copy()
        try:
            table.play(action_from_json(json.loads(action)))
        except (HighSocietyError, ValueError) as error:  # a read sets the copy right
            log.debug("table %s: notified action %s not played here: %s", table_id, version, error)
            return
        self._keep(table_id, table, seed, owned=True)

    def record_text(self, table_id: str) -> str:
        """The game so far as a v1 record (JSON text).

        Raises:
            NotFound, Conflict: no such table; it waits for players.
        """
        table, _ = self.load(table_id)
        return dumps_record(table.record())

    def due(self) -> list[str]:
        """The tables where a bot or the dealer must act (to advance after a restart)."""
        with self._read() as cursor:
            return [str(table_id) for (table_id,) in cursor.all("due")]

    # --- Writing a game ---------------------------------------------------------------------

    def _append(
        self,
        cursor: _Cursor,
        table_id: str,
        table: Table,
        played: Sequence[Action],
        seat: int | None,
    ) -> None:
        """Insert the actions ``played`` (the last of ``table``'s history; the first by
        ``seat``, the others the dealer's) and move the version on past them."""
        first = table.number - len(played)
        now = time.time()
        texts = [_json(action) for action in played]
        rows = [
            {
                "table_id": table_id,
                "number": first + i,
                "action": text,
                "seat": seat if i == 0 else None,
                "at": now,
            }
            for i, text in enumerate(texts)
        ]
        if len(rows) == 1:
            cursor.run("insert_action", **rows[0])
        else:
            cursor.many("insert_action", rows)
        moved = cursor.run(
            "move_version",
            id=table_id,
            old=first,
            new=table.number,
            new_status=_status(table),
            new_next=_next(table),
            now=now,
        )
        if moved != 1:  # cannot happen under the lock: a guard all the same
            raise RuntimeError(f"table {table_id}: action {first} was written twice")
        if self.is_postgres:  # sent to the listeners when this transaction commits
            notes = [{"note": f"{table_id} {first + i + 1} {text}"} for i, text in enumerate(texts)]
            cursor.many("notify", notes)

    def _submit_job(
        self, table_id: str, seat: int, move: bytes
    ) -> Callable[[_Cursor], tuple[Accepted | Refusal, Table, int]]:
        def play(cursor: _Cursor) -> tuple[Accepted | Refusal, Table, int]:
            row = self._lock(cursor, table_id)
            table = self._table(cursor, table_id, row)
            outcome = table.submit(seat, move)
            if isinstance(outcome, Accepted) and not outcome.duplicate:
                played = [outcome.action]
                if to_act(table.state) is CHANCE:  # the move ended an auction: deal
                    played.append(table.reveal())
                self._append(cursor, table_id, table, played, seat)
            return outcome, table, row.bot_seed

        return play

    def submit(self, table_id: str, seat: int, move: bytes) -> Accepted | Refusal:
        """A person's move, committed before this returns when accepted, with the reveal
        it makes due, if any.

        Raises:
            NotFound, Conflict: no such table; it waits for players.
        """
        outcome, table, bot_seed = self._transact(self._submit_job(table_id, seat, move))
        self._keep(table_id, table, bot_seed, owned=True)
        return outcome

    def submit_then(
        self,
        table_id: str,
        seat: int,
        move: bytes,
        done: Callable[[Accepted | Refusal | None, BaseException | None], None],
    ) -> None:
        """:meth:`submit` without waiting (only where :attr:`writes_in_background`):
        ``done(outcome, None)`` or ``done(None, error)`` is called from the writer's
        thread once the move is committed (or refused, or failed); the table kept here is
        the new one by then."""
        assert self._writer is not None, "only where writes_in_background"

        def finished(
            value: tuple[Accepted | Refusal, Table, int] | None, error: BaseException | None
        ) -> None:
            if value is None:
                done(None, error)
                return
            outcome, table, bot_seed = value
            self._keep(table_id, table, bot_seed, owned=True)
            done(outcome, None)

        self._writer.put(self._submit_job(table_id, seat, move), finished)

    def commit_automatic(self, table_id: str, number: int, action: Action) -> bool:
        """Commit a bot's or the dealer's ``action`` as action ``number``, if the table is
        still at that number; return whether it was committed.

        Raises:
            NotFound: no such table.
        """

        def play(cursor: _Cursor) -> tuple[Table, int] | None:
            row = self._lock(cursor, table_id)
            if row.version != number or row.status != "playing":
                return None
            table = self._table(cursor, table_id, row)
            table.play(action)
            self._append(cursor, table_id, table, [action], getattr(action, "seat", None))
            return table, row.bot_seed

        played = self._transact(play)
        if played is None:
            return False
        self._keep(table_id, *played, owned=True)
        return True

    def automatic_due(self, table_id: str) -> bool:
        """Whether a bot or the dealer acts next in the table kept here (true when it is
        not kept: look)."""
        kept = self.kept(table_id, 0, shared=True)
        if kept is None:
            return True
        return _next(kept[0]) in ("bot", "chance")


def automatic_action(
    table: Table, bot_seed: int, make_bot: Callable[[str, int], AnyBot]
) -> Action | None:
    """The action the table plays itself next (a reveal, or a bot's choice), or ``None``
    when a person must act or the game is over. Deterministic: the deck's order is stored
    and each bot decision is seeded from the table's bot seed and the action's number."""
    actor = to_act(table.state)
    if actor is None:
        return None
    if actor is CHANCE:
        return table.next_reveal()
    assert isinstance(actor, int)
    label = table.seats[actor].bot
    if label is None:
        return None
    seed = int.from_bytes(hashlib.sha256(f"{bot_seed}:{table.number}".encode()).digest()[:8], "big")
    return table.bot_action(make_bot(label, seed))


#: What a writer's job hands back: its value, or the error that undid it.
Done = Callable[[Any, BaseException | None], None]


class _Writer:
    """The one thread of a process that writes to SQLite, committing in groups.

    SQLite has one writer at a time, and a durable commit (``synchronous=FULL``) waits for
    the disk (an fsync: milliseconds). So jobs are queued here, from any thread, and the
    writer takes all those waiting in one transaction: each job runs in a savepoint of its
    own (its failure undoes only its writes), and one commit makes them all durable. Each
    job's ``done`` is called after that commit (or the failure), from the writer's thread:
    an event loop queues a write and is told when it is durable, without a thread of its
    own waiting for it.
    """

    def __init__(self, begin: Callable[[], AbstractContextManager[_Cursor]]) -> None:
        self._begin = begin
        self._jobs: deque[tuple[Callable[[_Cursor], Any], Done]] = deque()
        self._condition = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._work, name="high-society-writer", daemon=True)
        self._thread.start()

    def put(self, job: Callable[[_Cursor], Any], done: Done) -> None:
        """Queue ``job``; ``done(value, error)`` follows its commit.

        Raises:
            RuntimeError: the writer is closed.
        """
        with self._condition:
            if self._closed:
                raise RuntimeError("the store is closed")
            self._jobs.append((job, done))
            self._condition.notify()

    def run(self, job: Callable[[_Cursor], T]) -> T:
        """``job``'s value once committed (blocking), or its error raised here."""
        finished = threading.Event()
        outcome: list[tuple[Any, BaseException | None]] = []

        def done(value: Any, error: BaseException | None) -> None:
            outcome.append((value, error))
            finished.set()

        self.put(job, done)
        finished.wait()
        value, error = outcome[0]
        if error is not None:
            raise error
        result: T = value
        return result

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
            for (_, done), (value, error) in zip(group, results, strict=True):
                try:
                    done(value, error)
                except Exception:  # a caller's callback: never the writer's end
                    log.exception("a write's callback failed")

    def _commit(
        self, group: list[Callable[[_Cursor], Any]]
    ) -> list[tuple[Any, BaseException | None]]:
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


@contextmanager
def _quietly() -> Iterator[None]:
    """Closing a connection that is already broken may fail too: that is no news."""
    try:
        yield
    except Exception as error:
        log.debug("ignored while closing: %s", error)


def _sqlite_connections(engine: Engine, busy_seconds: float) -> None:
    """SQLite as a server's store: write-ahead logging (readers do not wait for the
    writer), a busy timeout, foreign keys, durable commits, and transactions begun by us
    (``BEGIN IMMEDIATE`` for a writing one, which takes the write lock first, so two
    writers queue instead of one failing when it upgrades; ``BEGIN`` for a reading one)."""

    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # the driver begins nothing itself
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_seconds * 1000)}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=FULL")  # a commit survives a power cut too
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(conn: sa.engine.Connection) -> None:  # the schema's transaction
        write = conn.get_execution_options().get("hs_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")
