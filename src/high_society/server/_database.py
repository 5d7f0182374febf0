"""The database underneath the store: URLs, engines, connections, compiled statements,
transactions, and SQLite's one writer thread. Nothing here knows what a table is.

Statements are SQLAlchemy Core (:mod:`high_society.server._schema`), each compiled once for
the database's dialect when a :class:`Database` opens, and run by the driver itself
(sqlite3, psycopg) on a connection of SQLAlchemy's pool: SQLAlchemy's own execution (its
compile cache, contexts and result objects) costs several times what a statement does on
SQLite.
"""

import logging
import os
import re
import sqlite3
import stat
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Dialect, Engine
from sqlalchemy.sql.compiler import SQLCompiler

from high_society.errors import InvalidConfigError
from high_society.server._schema import (
    MIGRATIONS,
    SCHEMA_LOCK,
    SCHEMA_VERSION,
    metadata,
    schema_table,
)

__all__ = [
    "Cursor",
    "Database",
    "Done",
    "check_url",
    "is_unavailable",
    "normalise_url",
    "scrubbed",
    "shown_url",
]

log = logging.getLogger("high_society.server")

T = TypeVar("T")

#: The example URLs a refusal names.
_EXAMPLES = "sqlite:////path/tables.sqlite3 or postgresql://user@host/database"


def normalise_url(url: str) -> str:
    """The SQLAlchemy URL for ``url``: ``postgresql://`` and ``postgres://`` name
    PostgreSQL through psycopg 3 (``postgresql+psycopg://``), the driver the ``server``
    extra installs; any other URL is SQLAlchemy's own.

    Raises:
        InvalidConfigError: not a database URL SQLAlchemy reads (the URL is not repeated:
            it may hold a password).
    """
    try:
        parsed = sa.engine.make_url(url)
        if parsed.drivername in ("postgresql", "postgres"):
            parsed = parsed.set(drivername="postgresql+psycopg")
        parsed.port  # noqa: B018 (a port that is not a number raises here)
        return parsed.render_as_string(hide_password=False)
    except (sa.exc.ArgumentError, ValueError, TypeError):
        raise InvalidConfigError(f"the database must be a URL such as {_EXAMPLES}") from None


def shown_url(url: str) -> str:
    """``url`` as a message may show it: without its password, wherever the password sits
    (after the user name, or as a ``password`` parameter of the query)."""
    try:
        parsed = sa.engine.make_url(url)
    except (sa.exc.ArgumentError, ValueError, TypeError):
        return "(a URL that is not a database URL)"
    query = {
        key: ("***" if key.lower() in _SECRET_PARAMETERS else value)
        for key, value in parsed.query.items()
    }
    shown = parsed.set(query=query).render_as_string(hide_password=True)
    return shown.replace("%2A%2A%2A", "***")


#: Query parameters of a URL that hold secrets (libpq's names, and SQLAlchemy's).
_SECRET_PARAMETERS = frozenset({"password", "passfile", "sslpassword", "sslkey"})


def scrubbed(text: str, url: str) -> str:
    """``text`` (a driver's message) with the secrets of ``url`` replaced by ``***``,
    wherever they sit in it, and on one line."""
    secrets: list[str] = []
    try:
        parsed = sa.engine.make_url(url)
    except (sa.exc.ArgumentError, ValueError, TypeError):
        parsed = None
    if parsed is not None:
        if parsed.password:
            secrets.append(str(parsed.password))
        for key, value in parsed.query.items():
            if key.lower() in _SECRET_PARAMETERS:
                secrets += [value] if isinstance(value, str) else list(value)
    line = text.replace("\r", " ").split("\n", 1)[0]
    for secret in sorted(secrets, key=len, reverse=True):
        if secret:  # where it stands apart: a short one may be part of a word
            line = re.sub(rf"(?<![A-Za-z0-9]){re.escape(secret)}(?![A-Za-z0-9])", "***", line)
    return line[:300]


def check_url(url: str) -> str:
    """:func:`normalise_url`, also refusing what would fail only once connected: SQLite's
    query parameters that are not numbers where numbers are due.

    Raises:
        InvalidConfigError: the URL cannot be used (said in one line, its password hidden).
    """
    normal = normalise_url(url)
    parsed = sa.engine.make_url(normal)
    if parsed.get_backend_name() == "sqlite":
        timeout = parsed.query.get("timeout")
        if timeout is not None and not re.fullmatch(r"[0-9]{1,6}(\.[0-9]{1,6})?", str(timeout)):
            raise InvalidConfigError(
                f"cannot use the database URL {shown_url(url)}: timeout must be a number of seconds"
            )
    return normal


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


class Cursor:
    """The compiled statements, by name, on one driver cursor in one transaction."""

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


#: What a writer's job hands back: its value, or the error that undid it.
Done = Callable[[Any, BaseException | None], None]


class Database:
    """A SQLite or PostgreSQL database with the server's schema, made when missing (by one
    process at a time: several may start at once), and the statements of
    ``statements(dialect_name)`` compiled for it. Safe to share between threads.

    Raises:
        InvalidConfigError: ``url`` is not a database URL, its driver is not installed, or
            the database holds tables of another schema version.
        sqlalchemy.exc.SQLAlchemyError: the database cannot be reached
            (:func:`is_unavailable` is true of it).
    """

    def __init__(
        self,
        url: str,
        statements: Callable[[str], dict[str, sa.ClauseElement]],
        *,
        busy_seconds: float = 30.0,
    ) -> None:
        self.url = check_url(url)
        self.is_sqlite = self.url.startswith("sqlite")
        self.is_postgres = self.url.startswith("postgresql")
        made = _private_files(sa.engine.make_url(self.url).database) if self.is_sqlite else None
        try:
            self._open(busy_seconds, statements)
        except BaseException:
            if made is not None:  # a refused database leaves no file behind it
                for name in _sqlite_files(made):
                    name.unlink(missing_ok=True)
            raise
        self._writer = _Writer(self._begin_write) if self.is_sqlite else None

    def _open(
        self, busy_seconds: float, statements: Callable[[str], dict[str, sa.ClauseElement]]
    ) -> None:
        """The engine, the statements compiled for its dialect, and the schema."""
        try:
            if self.is_sqlite:
                self.engine: Engine = sa.create_engine(
                    self.url, connect_args={"timeout": busy_seconds, "check_same_thread": False}
                )
                _sqlite_connections(self.engine, busy_seconds)
            else:
                # A pool as large as the threads that call it, so a request never waits for
                # a connection while a thread is free; a database host that does not
                # answer fails a connection in 10 s (libpq waits forever).
                given = sa.engine.make_url(self.url).query
                self.engine = sa.create_engine(
                    self.url,
                    pool_size=20,
                    max_overflow=20,
                    pool_timeout=10,
                    connect_args={} if "connect_timeout" in given else {"connect_timeout": 10},
                )
        except (sa.exc.ArgumentError, sa.exc.NoSuchModuleError, ImportError, ValueError) as error:
            reason = scrubbed(str(error).replace(self.url, shown_url(self.url)), self.url)
            raise InvalidConfigError(
                f"cannot use the database URL {shown_url(self.url)}: {reason}"
            ) from None
        dialect = self.engine.dialect
        self._sql = {
            name: _Sql(statement, dialect) for name, statement in statements(dialect.name).items()
        }
        try:
            self._make_schema()
        except BaseException:
            self.engine.dispose()
            raise

    def close(self) -> None:
        """Close every connection (after the writes under way are committed)."""
        if self._writer is not None:
            self._writer.close()
        self.engine.dispose()

    def _make_schema(self) -> None:
        """Make the schema in a database that holds none of the server's tables, migrate one
        of an earlier version, and refuse, untouched, one whose version is later, unknown
        or not told truly (the checks come before anything is written, in the one
        transaction that writes)."""
        with self.engine.connect() as conn:
            conn.execution_options(hs_write=True)
            with conn.begin():
                if self.is_postgres:  # two processes starting at once make it once
                    conn.execute(sa.select(sa.func.pg_advisory_xact_lock(SCHEMA_LOCK)))
                version = _schema_version(conn)
                metadata.create_all(conn)
                if version is None:
                    conn.execute(schema_table.insert().values(version=SCHEMA_VERSION))
                elif version != SCHEMA_VERSION:
                    _migrate(conn, version)

    @contextmanager
    def _transaction(self) -> Iterator[Cursor]:
        """A writing transaction on a pooled connection of this thread, committed when the
        block ends and rolled back when it raises. A connection whose database could not answer
        is not pooled again; one found lost (the database restarted) takes the pool's
        other connections with it, which are as lost (instead of a ping each checkout)."""
        raw = self.engine.raw_connection()
        cursor = raw.cursor()
        try:
            if self.is_sqlite:  # the driver begins nothing itself (_sqlite_connections)
                cursor.execute("BEGIN IMMEDIATE")
            yield Cursor(cursor, self._sql)
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
    def _begin_write(self) -> Iterator[Cursor]:
        """SQLite: the writer's connection (kept while it works), a writing transaction."""
        with self._transaction() as cursor:
            yield cursor

    @contextmanager
    def alone(self) -> Iterator[Cursor]:
        """Statements each run alone, committed as it ends (no transaction around them: no
        ``BEGIN`` and ``COMMIT`` trips to PostgreSQL), in the calling thread. For reads made
        for it (a table's actions read up to the version read first: committed actions
        never change) and for writes of one statement."""
        raw = self.engine.raw_connection()
        connection = raw.dbapi_connection
        cursor = raw.cursor()
        try:
            if self.is_postgres:
                connection.autocommit = True  # type: ignore[union-attr]
            yield Cursor(cursor, self._sql)
        except BaseException as error:
            dialect = self.engine.dialect
            if isinstance(error, dialect.loaded_dbapi.Error) and is_unavailable(error):
                raw.invalidate(error)
                if dialect.is_disconnect(error, connection, cursor):
                    self.engine.dispose()
            raise
        finally:
            with _quietly():
                cursor.close()
            if self.is_postgres and raw.is_valid:
                with _quietly():
                    connection.autocommit = False  # type: ignore[union-attr]
            raw.close()  # back to the pool

    def write(self, job: Callable[[Cursor], T]) -> T:
        """``job(cursor)`` in a writing transaction, committed before this returns; its
        exception, raised here, undoes what it wrote. On SQLite it is the writer thread's
        to run (:class:`_Writer`), with the process's other writes."""
        if self._writer is not None:
            return self._writer.run(job)
        with self._transaction() as cursor:
            return job(cursor)

    @property
    def writes_in_background(self) -> bool:
        """True when writes are handed to a thread of the database's own (SQLite), so that
        :meth:`write_then` returns at once: an event loop need not call the database from
        a thread of its own to write."""
        return self._writer is not None

    def write_then(self, job: Callable[[Cursor], Any], done: Done) -> None:
        """:meth:`write` without waiting (only where :attr:`writes_in_background`):
        ``done(value, None)`` or ``done(None, error)`` is called from the writer's thread
        once the job is committed (or failed)."""
        assert self._writer is not None, "only where writes_in_background"
        self._writer.put(job, done)

    def connect_args(self) -> tuple[Sequence[Any], dict[str, Any]]:
        """What the driver's ``connect`` takes for this database (for a connection of
        one's own, outside the pool: the listener's)."""
        cargs, cparams = self.engine.dialect.create_connect_args(self.engine.url)
        return cargs, {"connect_timeout": 10, **cparams}


def _schema_version(conn: sa.engine.Connection) -> int | None:
    """The schema version the database holds: ``None`` when it holds none of the server's
    tables (a new database), else the one row of ``hs_schema``, which this server reads or
    migrates (:data:`MIGRATIONS`).

    Raises:
        InvalidConfigError: the version is later than this server's, or not known: the
            server's tables without ``hs_schema``, or ``hs_schema`` with no row or with
            several.
    """
    ours = {table.name for table in metadata.sorted_tables}
    found = sorted(ours & set(sa.inspect(conn).get_table_names()))
    if not found:
        return None
    refused = "this server leaves it untouched"
    if schema_table.name not in found:
        raise InvalidConfigError(
            f"the database holds the server's tables ({', '.join(found)}) but no "
            f"{schema_table.name} table to say their schema version: {refused}"
        )
    rows = conn.execute(sa.select(schema_table.c.version)).scalars().all()
    if len(rows) != 1:
        versions = ", ".join(str(row) for row in rows) or "none"
        raise InvalidConfigError(
            f"the database's {schema_table.name} table holds {len(rows)} rows (versions: "
            f"{versions}), where a database of this server holds one: its schema version "
            f"is unknown, and {refused}"
        )
    version = int(rows[0])
    if version != SCHEMA_VERSION and version not in MIGRATIONS:
        newer = "a newer server" if version > SCHEMA_VERSION else "another server"
        raise InvalidConfigError(
            f"the database holds tables of schema version {version}, made by {newer}; "
            f"this server reads version {SCHEMA_VERSION} (and migrates earlier ones): "
            f"{refused}"
        )
    return version


def _migrate(conn: sa.engine.Connection, version: int) -> None:
    """Move the schema from ``version`` to :data:`SCHEMA_VERSION`, in the caller's
    transaction (the tables it lacked are made already)."""
    log.warning("the database's schema moves from version %s to %s", version, SCHEMA_VERSION)
    while version in MIGRATIONS:
        for statement in MIGRATIONS[version]:
            conn.execute(statement)
        version += 1
    conn.execute(schema_table.update().values(version=version))


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

    def __init__(self, begin: Callable[[], AbstractContextManager[Cursor]]) -> None:
        self._begin = begin
        self._jobs: deque[tuple[Callable[[Cursor], Any], Done]] = deque()
        self._condition = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._work, name="high-society-writer", daemon=True)
        self._thread.start()

    def put(self, job: Callable[[Cursor], Any], done: Done) -> None:
        """Queue ``job``; ``done(value, error)`` follows its commit.

        Raises:
            RuntimeError: the writer is closed.
        """
        with self._condition:
            if self._closed:
                raise RuntimeError("the store is closed")
            self._jobs.append((job, done))
            self._condition.notify()

    def run(self, job: Callable[[Cursor], T]) -> T:
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
        self, group: list[Callable[[Cursor], Any]]
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


def _sqlite_files(path: Path) -> tuple[Path, Path, Path]:
    """A SQLite database's file and the two SQLite keeps beside it in WAL mode."""
    return path, Path(f"{path}-wal"), Path(f"{path}-shm")


def _private_files(database: str | None) -> Path | None:
    """SQLite's files of ``database`` readable and writable by their owner only (0600),
    whatever the umask: they hold every table's secret deck order and bot seed. A missing
    database file is made so; SQLite gives its ``-wal`` and ``-shm`` files the same
    permissions; files already there (made by an older server) are tightened. Return the
    path of the file made here, if one was (``None``: it was there, or none is made)."""
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    path = Path(database)
    made: Path | None = None
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    except OSError:
        return None  # SQLite will say what is wrong, in the store's error
    else:
        os.close(fd)
        made = path
    for name in _sqlite_files(path):
        try:
            info = name.stat()
            if info.st_mode & 0o077 and info.st_uid == os.getuid() and stat.S_ISREG(info.st_mode):
                name.chmod(0o600)
        except OSError:
            continue
    return made


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
