"""What differs between the databases the store runs on, and what is said of them: their
URLs (and the secrets in them, never shown), the engine each gets (SQLite as a server's
store, PostgreSQL's pool), their files (SQLite's, private to their owner), and which of
their drivers' errors mean the database cannot answer now."""

import logging
import os
import re
import sqlite3
import stat
import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Engine

from high_society.errors import InvalidConfigError

__all__ = [
    "check_url",
    "is_unavailable",
    "normalise_url",
    "open_engine",
    "private_files",
    "scrubbed",
    "shown_url",
    "sqlite_files",
]

log = logging.getLogger("high_society.server")

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


def open_engine(url: str, busy_seconds: float) -> Engine:
    """The engine for ``url`` (checked by :func:`check_url`): SQLite with the settings of
    :func:`_sqlite_connections`; PostgreSQL with a pool as large as the threads that call
    it (a request never waits for a connection while a thread is free), a connection to a
    host that does not answer failing in 10 s (libpq waits for ever).

    Raises:
        InvalidConfigError: the URL cannot be used (its driver is missing, say).
    """
    try:
        if url.startswith("sqlite"):
            engine = sa.create_engine(
                url, connect_args={"timeout": busy_seconds, "check_same_thread": False}
            )
            _sqlite_connections(engine, busy_seconds)
            return engine
        given = sa.engine.make_url(url).query
        return sa.create_engine(
            url,
            pool_size=20,
            max_overflow=20,
            pool_timeout=10,
            connect_args={} if "connect_timeout" in given else {"connect_timeout": 10},
        )
    except (sa.exc.ArgumentError, sa.exc.NoSuchModuleError, ImportError, ValueError) as error:
        reason = scrubbed(str(error).replace(url, shown_url(url)), url)
        message = f"cannot use the database URL {shown_url(url)}: {reason}"
        raise InvalidConfigError(message) from None


def _sqlite_connections(engine: Engine, busy_seconds: float) -> None:
    """SQLite as a server's store: write-ahead logging (readers do not wait for the
    writer), a busy timeout, foreign keys, durable commits, and transactions begun by us
    (``BEGIN IMMEDIATE`` for a writing one, which takes the write lock first, so two
    writers queue instead of one failing when it upgrades; ``BEGIN`` for a reading one)."""

    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # the driver begins nothing itself
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout={int(busy_seconds * 1000)}")
        _into_wal(cursor, busy_seconds)
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=FULL")  # a commit survives a power cut too
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(conn: sa.engine.Connection) -> None:  # the schema's transaction
        write = conn.get_execution_options().get("hs_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def _into_wal(cursor: sqlite3.Cursor, busy_seconds: float) -> None:
    """Switch the database to write-ahead logging. Connections opening a new file at the
    same moment (stores starting together) can make this pragma answer SQLITE_BUSY ("database
    is locked") at once, without the busy timeout's wait (SQLite refuses a lock that could
    deadlock): it is asked again, for as long as the busy timeout would have waited."""
    deadline = time.monotonic() + busy_seconds
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if error.sqlite_errorcode != sqlite3.SQLITE_BUSY or time.monotonic() >= deadline:
                raise
            time.sleep(0.01)


def sqlite_files(path: Path) -> tuple[Path, Path, Path]:
    """A SQLite database's file and the two SQLite keeps beside it in WAL mode."""
    return path, Path(f"{path}-wal"), Path(f"{path}-shm")


def private_files(database: str | None) -> Path | None:
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
    for name in sqlite_files(path):
        try:
            info = name.stat()
            if info.st_mode & 0o077 and info.st_uid == os.getuid() and stat.S_ISREG(info.st_mode):
                name.chmod(0o600)
        except OSError:
            continue
    return made
