"""The server's data layer: one schema and one set of transactions, in SQLAlchemy Core.

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

The bots' and the dealer's actions are computed outside any transaction, from a read at
version ``n``, and committed only if the version is still ``n`` (whoever computes them,
they are the same: the deck's order is stored, and a bot's seed is derived from the
table's bot seed and the action's number).

On PostgreSQL each committed action also sends ``NOTIFY hs_actions, 'TABLE VERSION
ACTION'`` (delivered when the transaction commits, to every server process that listens:
:meth:`Store.listen`); a process whose copy of the table is one action behind plays the
action on it, so its streams need no read. A notification is only a hint: the table's
version is the cursor, so one lost while a listener reconnects costs nothing but a look at
every table.
"""

import hashlib
import hmac
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any, TypeVar

import attrs
import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine

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
    return False


def hash_token(token: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def _good_token(token: object) -> bool:
    return (
        isinstance(token, str)
        and 0 < len(token) <= MAX_TOKEN_LENGTH
        and token.isascii()
        and all(c.isalnum() or c in "-_" for c in token)
    )


#: How many tables a process keeps in memory (their latest state, their token hashes).
_CACHE_TABLES = 2048


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


class Store:
    """The tables in a database (SQLite or PostgreSQL), through SQLAlchemy Core.

    ``url`` is a SQLAlchemy URL (:func:`normalise_url`): ``sqlite:///path/tables.sqlite3``,
    or ``postgresql://user@host/db``. The schema is made when missing (by one process at a
    time: several may start at once).

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
                _sqlite_transactions(self.engine, busy_seconds)
            else:
                # A pool as large as the thread pool that calls it (anyio's 40), so a
                # request never waits for a connection while a thread is free; a database
                # host that does not answer fails a connection in 10 s (libpq waits forever).
                given = sa.engine.make_url(self.url).query
                self.engine = sa.create_engine(
                    self.url,
                    pool_pre_ping=True,
                    pool_size=20,
                    max_overflow=20,
                    pool_timeout=10,
                    connect_args={} if "connect_timeout" in given else {"connect_timeout": 10},
                )
        except (sa.exc.ArgumentError, sa.exc.NoSuchModuleError, ImportError) as error:
            raise InvalidConfigError(f"cannot use the database URL: {error}") from None
        self._group = _GroupCommit(self._write) if self.is_sqlite else None
        self._cache: dict[str, Table] = {}
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

    def close(self) -> None:
        """Close every connection."""
        self.engine.dispose()

    def _make_schema(self) -> None:
        with self._write() as conn:
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

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        """A writing transaction (on SQLite, ``BEGIN IMMEDIATE``)."""
        with self.engine.connect() as conn:
            conn.execution_options(hs_write=True)
            with conn.begin():
                yield conn

    def _transact(self, job: Callable[[Connection], T]) -> T:
        """``job(conn)`` in a writing transaction, committed before this returns; its
        exception, raised here, undoes what it wrote. On SQLite the writes of this
        process's threads are committed in groups (:class:`_GroupCommit`)."""
        if self._group is not None:
            return self._group.run(job)
        with self._write() as conn:
            return job(conn)

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        with self.engine.connect() as conn, conn.begin():
            yield conn

    # --- Making and joining tables ----------------------------------------------------------

    def create(
        self, specs: Sequence[tuple[str, str | None, str | None]]
    ) -> tuple[str, list[tuple[int, str]]]:
        """Make a table from ``(kind, name, bot)`` per seat (``person`` with a name, ``bot``
        with a bot label and a name, ``open``); return its id and each named person's
        ``(seat, token)``. Names and labels are checked by the caller."""
        table_id = secrets.token_urlsafe(12)
        now = time.time()
        tokens: list[tuple[int, str]] = []
        rows = []
        for seat, (kind, name, bot) in enumerate(specs):
            token_hash = None
            if kind == "person":
                token = secrets.token_urlsafe(TOKEN_BYTES)
                tokens.append((seat, token))
                token_hash = hash_token(token)
            rows.append(
                {
                    "table_id": table_id,
                    "seat": seat,
                    "kind": kind,
                    "name": name,
                    "bot": bot,
                    "token_hash": token_hash,
                }
            )
        bot_seed = secrets.randbits(62)

        def insert(conn: Connection) -> None:
            conn.execute(
                tables.insert().values(
                    id=table_id,
                    status="waiting",
                    version=0,
                    next="none",
                    setup=None,
                    bot_seed=bot_seed,
                    created=now,
                    updated=now,
                )
            )
            conn.execute(seats.insert(), rows)
            self._start_if_full(conn, table_id)

        self._transact(insert)
        return table_id, tokens

    def join(self, table_id: str, name: str) -> tuple[int, str]:
        """Take the first open seat of a waiting table; return ``(seat, token)``.

        Raises:
            NotFound, Conflict: no such table; no open seat, or the name is taken.
        """
        token = secrets.token_urlsafe(TOKEN_BYTES)

        def take(conn: Connection) -> int:
            row = self._lock(conn, table_id)
            if row.status != "waiting":
                raise Conflict("NO_OPEN_SEAT", "the table has no open seat")
            taken = conn.execute(
                sa.select(seats.c.seat, seats.c.kind, seats.c.name)
                .where(seats.c.table_id == table_id)
                .order_by(seats.c.seat)
            ).all()
            if any(r.name == name for r in taken):
                raise Conflict("NAME_TAKEN", "another seat at this table has that name")
            seat = int(next(r.seat for r in taken if r.kind == "open"))
            conn.execute(
                seats.update()
                .where(seats.c.table_id == table_id, seats.c.seat == seat)
                .values(kind="person", name=name, token_hash=hash_token(token))
            )
            self._start_if_full(conn, table_id)
            return seat

        return self._transact(take), token

    def _start_if_full(self, conn: Connection, table_id: str) -> None:
        rows = conn.execute(
            sa.select(seats.c.kind, seats.c.name, seats.c.bot)
            .where(seats.c.table_id == table_id)
            .order_by(seats.c.seat)
        ).all()
        if any(r.kind == "open" for r in rows):
            return
        table = Table([Seat(r.name, r.bot) for r in rows])  # shuffled by secrets.SystemRandom
        conn.execute(
            tables.update()
            .where(tables.c.id == table_id, tables.c.status == "waiting")
            .values(status="playing", next=_next(table), setup=_setup(table), updated=time.time())
        )

    def lobby(self, table_id: str) -> Lobby:
        """The table's public description.

        Raises:
            NotFound: no such table.
        """
        with self._read() as conn:
            row = conn.execute(
                sa.select(tables.c.status, tables.c.version).where(tables.c.id == table_id)
            ).first()
            if row is None:
                raise NotFound(table_id)
            rows = conn.execute(
                sa.select(seats.c.kind, seats.c.name, seats.c.bot)
                .where(seats.c.table_id == table_id)
                .order_by(seats.c.seat)
            ).all()
        return Lobby(
            table_id, row.status, row.version, tuple((r.kind, r.name, r.bot) for r in rows)
        )

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
        with self._read() as conn:
            exists = conn.execute(sa.select(tables.c.id).where(tables.c.id == table_id)).first()
            if exists is None:
                raise NotFound(table_id)
            rows = conn.execute(
                sa.select(seats.c.seat, seats.c.kind, seats.c.token_hash).where(
                    seats.c.table_id == table_id
                )
            ).all()
        hashes = {str(r.token_hash): int(r.seat) for r in rows if r.token_hash is not None}
        if all(r.kind != "open" for r in rows):
            with self._cache_lock:
                self._tokens[table_id] = hashes
                if len(self._tokens) > _CACHE_TABLES:
                    self._tokens.pop(next(iter(self._tokens)))
        return _seat_by_token(token, hashes)

    # --- Reading a game ---------------------------------------------------------------------

    def _lock(self, conn: Connection, table_id: str) -> Any:
        row = conn.execute(
            sa.select(tables.c.status, tables.c.version, tables.c.setup, tables.c.bot_seed)
            .where(tables.c.id == table_id)
            .with_for_update()
        ).first()
        if row is None:
            raise NotFound(table_id)
        return row

    def _table(self, conn: Connection, table_id: str, row: Any) -> Table:
        """The table at the row's version: the cached copy, with the actions committed
        since played on it."""
        if row.status == "waiting":
            raise Conflict("TABLE_WAITING", "the table waits for players to join")
        with self._cache_lock:
            cached = self._cache.get(table_id)
            table = cached.copy() if cached is not None and cached.number <= row.version else None
        if table is None:
            table = Table.restore(row.setup)
        if table.number < row.version:
            # Up to the row's version only: on PostgreSQL each statement of a reading
            # transaction sees what is committed when it starts (READ COMMITTED), so actions
            # committed after the row was read may be there already.
            for item in conn.execute(
                sa.select(actions.c.action)
                .where(
                    actions.c.table_id == table_id,
                    actions.c.number >= table.number,
                    actions.c.number < row.version,
                )
                .order_by(actions.c.number)
            ).scalars():
                table.play(action_from_json(json.loads(item)))
        assert table.number == row.version, (table.number, row.version)
        return table

    def _keep(self, table_id: str, table: Table, bot_seed: int) -> None:
        with self._cache_lock:
            cached = self._cache.get(table_id)
            if cached is None or cached.number < table.number:
                self._cache[table_id] = table.copy()
                self._seeds[table_id] = bot_seed
            if len(self._seeds) > _CACHE_TABLES:
                self._seeds.pop(next(iter(self._seeds)))
            if len(self._cache) > _CACHE_TABLES:  # a bound on memory: drop the oldest
                self._cache.pop(next(iter(self._cache)))

    def kept(
        self, table_id: str, at_least: int, *, shared: bool = False
    ) -> tuple[Table, int] | None:
        """The table (a private copy) and its bot seed from what this process keeps, when
        that is at version ``at_least`` or later; else ``None``. No read: cheap. With
        ``shared``, the kept table itself, to read and never to play on (nothing plays on
        a kept table: a new one replaces it), so that the seats' payloads share its
        public part."""
        with self._cache_lock:
            cached = self._cache.get(table_id)
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
        with self._read() as conn:
            row = conn.execute(
                sa.select(
                    tables.c.status, tables.c.version, tables.c.setup, tables.c.bot_seed
                ).where(tables.c.id == table_id)
            ).first()
            if row is None:
                raise NotFound(table_id)
            table = self._table(conn, table_id, row)
        self._keep(table_id, table, int(row.bot_seed))
        return table, int(row.bot_seed)

    def version(self, table_id: str) -> tuple[str, int]:
        """The table's status and how many actions it has (a cheap read, for streams).

        Raises:
            NotFound: no such table.
        """
        with self._read() as conn:
            row = conn.execute(
                sa.select(tables.c.status, tables.c.version).where(tables.c.id == table_id)
            ).first()
        if row is None:
            raise NotFound(table_id)
        return str(row.status), int(row.version)

    def versions(self, table_ids: Iterable[str]) -> dict[str, int]:
        """The versions of those of ``table_ids`` that exist, in one read per 500 tables
        (what a process's streams poll on SQLite)."""
        wanted = list(table_ids)
        found: dict[str, int] = {}
        with self._read() as conn:
            for start in range(0, len(wanted), 500):
                for row in conn.execute(
                    sa.select(tables.c.id, tables.c.version).where(
                        tables.c.id.in_(wanted[start : start + 500])
                    )
                ):
                    found[str(row.id)] = int(row.version)
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
            cached = self._cache.get(table_id)
            seed = self._seeds.get(table_id)
            if cached is None or seed is None or cached.number != version - 1:
                return
            table = cached.copy()
        try:
            table.play(action_from_json(json.loads(action)))
        except (HighSocietyError, ValueError) as error:  # a read sets the copy right
            log.debug("table %s: notified action %s not played here: %s", table_id, version, error)
            return
        self._keep(table_id, table, seed)

    def record_text(self, table_id: str) -> str:
        """The game so far as a v1 record (JSON text).

        Raises:
            NotFound, Conflict: no such table; it waits for players.
        """
        table, _ = self.load(table_id)
        return dumps_record(table.record())

    def due(self) -> list[str]:
        """The tables where a bot or the dealer must act (to advance after a restart)."""
        with self._read() as conn:
            return list(
                conn.execute(
                    sa.select(tables.c.id).where(
                        tables.c.status == "playing", tables.c.next.in_(("bot", "chance"))
                    )
                ).scalars()
            )

    # --- Writing a game ---------------------------------------------------------------------

    def _append(
        self, conn: Connection, table_id: str, table: Table, action: Action, seat: int | None
    ) -> None:
        number = table.number - 1
        text = json.dumps(action_to_json(action), separators=(",", ":"))
        conn.execute(
            actions.insert().values(
                table_id=table_id,
                number=number,
                action=text,
                seat=seat,
                at=time.time(),
            )
        )
        moved = conn.execute(
            tables.update()
            .where(tables.c.id == table_id, tables.c.version == number)
            .values(
                version=number + 1, status=_status(table), next=_next(table), updated=time.time()
            )
        )
        if moved.rowcount != 1:  # cannot happen under the lock: a guard all the same
            raise RuntimeError(f"table {table_id}: action {number} was written twice")
        if self.is_postgres:  # sent to the listeners when this transaction commits
            note = f"{table_id} {number + 1} {text}"
            conn.execute(sa.select(sa.func.pg_notify(CHANNEL, note)))

    def submit(self, table_id: str, seat: int, move: bytes) -> Accepted | Refusal:
        """A person's move, committed before this returns when accepted.

        Raises:
            NotFound, Conflict: no such table; it waits for players.
        """

        def play(conn: Connection) -> tuple[Accepted | Refusal, Table, int]:
            row = self._lock(conn, table_id)
            table = self._table(conn, table_id, row)
            outcome = table.submit(seat, move)
            if isinstance(outcome, Accepted) and not outcome.duplicate:
                self._append(conn, table_id, table, outcome.action, seat)
            return outcome, table, int(row.bot_seed)

        outcome, table, bot_seed = self._transact(play)
        self._keep(table_id, table, bot_seed)
        return outcome

    def commit_automatic(self, table_id: str, number: int, action: Action) -> bool:
        """Commit a bot's or the dealer's ``action`` as action ``number``, if the table is
        still at that number; return whether it was committed.

        Raises:
            NotFound: no such table.
        """

        def play(conn: Connection) -> tuple[Table, int] | None:
            row = self._lock(conn, table_id)
            if row.version != number or row.status != "playing":
                return None
            table = self._table(conn, table_id, row)
            table.play(action)
            self._append(conn, table_id, table, action, getattr(action, "seat", None))
            return table, int(row.bot_seed)

        played = self._transact(play)
        if played is None:
            return False
        self._keep(table_id, *played)
        return True


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


class _Waiting:
    """One job waiting for a group commit, and then its outcome."""

    def __init__(self, job: Callable[[Connection], Any]) -> None:
        self.job = job
        self.done = False
        self.value: Any = None
        self.error: BaseException | None = None


class _GroupCommit:
    """The writes of one process's threads to SQLite, committed in groups.

    SQLite has one writer at a time, and a durable commit (``synchronous=FULL``) waits for
    the disk (an fsync: milliseconds). So the writes that arrive while a transaction is
    being committed wait, and the next transaction takes all of them: each job runs in a
    savepoint of its own (its failure undoes only its writes) and one commit makes them
    all durable. A job's caller returns only after that commit. The thread that finds no
    commit under way leads the next one; there is no thread of its own.
    """

    def __init__(self, begin: Callable[[], AbstractContextManager[Connection]]) -> None:
        self._begin = begin
        self._condition = threading.Condition()
        self._waiting: list[_Waiting] = []
        self._leading = False

    def run(self, job: Callable[[Connection], T]) -> T:
        mine = _Waiting(job)
        with self._condition:
            self._waiting.append(mine)
            while self._leading and not mine.done:
                self._condition.wait()
            if not mine.done:
                self._leading = True
                group, self._waiting = self._waiting, []
        if not mine.done:
            try:
                self._commit(group)
            finally:
                with self._condition:
                    self._leading = False
                    self._condition.notify_all()
        if mine.error is not None:
            raise mine.error
        value: T = mine.value
        return value

    def _commit(self, group: list[_Waiting]) -> None:
        try:
            with self._begin() as conn:
                if len(group) == 1:  # alone: its failure undoes the transaction
                    group[0].value = group[0].job(conn)
                    return
                for waiting in group:
                    savepoint = conn.begin_nested()
                    try:
                        waiting.value = waiting.job(conn)
                    except BaseException as error:
                        savepoint.rollback()
                        waiting.error = error
                    else:
                        savepoint.commit()
        except BaseException as error:  # a lone job or the commit failed: nothing is written
            for waiting in group:
                waiting.error = error
        finally:
            for waiting in group:
                waiting.done = True


@contextmanager
def _quietly() -> Iterator[None]:
    """Closing a connection that is already broken may fail too: that is no news."""
    try:
        yield
    except Exception as error:
        log.debug("ignored while closing: %s", error)


def _sqlite_transactions(engine: Engine, busy_seconds: float) -> None:
    """SQLite as a server's store: write-ahead logging (readers do not wait for the
    writer), a busy timeout, foreign keys, and transactions begun by us: ``BEGIN
    IMMEDIATE`` for a writing one (it takes the write lock first, so two writers queue
    instead of one failing when it upgrades), ``BEGIN`` for a reading one."""

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
    def on_begin(conn: Connection) -> None:
        write = conn.get_execution_options().get("hs_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")
