"""The database underneath the store: its engine, connections, compiled statements and
transactions. Nothing here knows what a table is; what differs between SQLite and
PostgreSQL is :mod:`~high_society.server._dialects`' to say, SQLite's writer thread
:mod:`~high_society.server._sqlite_writer`'s, and the schema
:mod:`~high_society.server._schema`'s.

Statements are SQLAlchemy Core, each compiled once for the database's dialect when a
:class:`Database` opens, and run by the driver itself (sqlite3, psycopg) on a connection of
SQLAlchemy's pool: SQLAlchemy's own execution (its compile cache, contexts and result
objects) costs several times what a statement does on SQLite.
"""

import asyncio
import logging
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Dialect
from sqlalchemy.sql.compiler import SQLCompiler

from high_society.server._dialects import (
    check_url,
    is_unavailable,
    open_engine,
    private_files,
    sqlite_files,
)
from high_society.server._schema import make_schema
from high_society.server._sqlite_writer import Writer

__all__ = ["Cursor", "Database"]

log = logging.getLogger("high_society.server")

T = TypeVar("T")


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
            (:func:`~high_society.server._dialects.is_unavailable` is true of it).
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
        made = private_files(sa.engine.make_url(self.url).database) if self.is_sqlite else None
        try:
            self.engine = open_engine(self.url, busy_seconds)
            dialect = self.engine.dialect
            self._sql = {name: _Sql(sql, dialect) for name, sql in statements(dialect.name).items()}
            try:
                make_schema(self.engine, postgres=self.is_postgres)
            except BaseException:
                self.engine.dispose()
                raise
        except BaseException:
            if made is not None:  # a refused database leaves no file behind it
                for name in sqlite_files(made):
                    name.unlink(missing_ok=True)
            raise
        self._kept: Any = None  # the SQLite writer thread's connection (_writer_transaction)
        self._writer = Writer(self._writer_transaction) if self.is_sqlite else None

    def close(self) -> None:
        """Close every connection (after the writes under way are committed)."""
        if self._writer is not None:
            self._writer.close()
        if self._kept is not None:
            self._kept.close()  # back to the pool, which closes it
            self._kept = None
        self.engine.dispose()

    @contextmanager
    def _transaction(self, kept: Any = None) -> Iterator[Cursor]:
        """A writing transaction on a pooled connection of this thread (or on ``kept``, a
        connection checked out of the pool already, kept by its caller), committed when the
        block ends and rolled back when it raises. A connection whose database could not answer
        is not pooled again; one found lost (the database restarted) takes the pool's
        other connections with it, which are as lost (instead of a ping each checkout)."""
        raw = kept if kept is not None else self.engine.raw_connection()
        cursor = raw.cursor()
        try:
            if self.is_sqlite:  # the driver begins nothing itself (_dialects)
                cursor.execute("BEGIN IMMEDIATE")
            yield Cursor(cursor, self._sql)
            raw.commit()
        except BaseException as error:
            if not self._lost(error, raw, cursor):
                with _quietly():
                    raw.rollback()
            elif kept is not None:  # invalidated: the next transaction checks out another
                self._kept = None
                raw.close()
            raise
        finally:
            with _quietly():
                cursor.close()
            if kept is None:
                raw.close()  # back to the pool

    def _writer_transaction(self) -> AbstractContextManager[Cursor]:
        """SQLite's writer thread's transaction, on the connection it keeps: a checkout of
        the pool and its return, for every group, cost about a tenth of a small group's
        CPU."""
        if self._kept is None:
            self._kept = self.engine.raw_connection()
        return self._transaction(self._kept)

    def _lost(self, error: BaseException, raw: Any, cursor: Any) -> bool:
        """Whether ``error`` says the database could not answer: then the connection is not
        pooled again, and a disconnection empties the pool."""
        dialect = self.engine.dialect
        if not (isinstance(error, dialect.loaded_dbapi.Error) and is_unavailable(error)):
            return False
        raw.invalidate(error)
        if dialect.is_disconnect(error, raw.dbapi_connection, cursor):
            self.engine.dispose()
        return True

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
            self._lost(error, raw, cursor)
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
        to run, with the process's other writes."""
        if self._writer is not None:
            return self._writer.submit(job).result()
        with self._transaction() as cursor:
            return job(cursor)

    def write_soon(self, job: Callable[[Cursor], T]) -> "asyncio.Future[T] | None":
        """On SQLite, :meth:`write` without waiting, from an event loop's thread: the loop's
        future of ``job``'s value once committed (its error, if it failed); ``None`` on
        PostgreSQL, where a write is made by the calling thread (:meth:`write`)."""
        return None if self._writer is None else self._writer.soon(job)

    def connect_args(self) -> tuple[Sequence[Any], dict[str, Any]]:
        """What the driver's ``connect`` takes for this database (for a connection of
        one's own, outside the pool: the listener's)."""
        cargs, cparams = self.engine.dialect.create_connect_args(self.engine.url)
        return cargs, {"connect_timeout": 10, **cparams}


@contextmanager
def _quietly() -> Iterator[None]:
    """Closing a connection that is already broken may fail too: that is no news."""
    try:
        yield
    except Exception as error:
        log.debug("ignored while closing: %s", error)
