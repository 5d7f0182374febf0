"""The store's schema and every statement it runs (SQLAlchemy Core, for SQLite and
PostgreSQL alike).

Each table's actions are rows of ``hs_actions``, numbered from 0; ``hs_tables.version`` is
how many there are. The store keeps what it is given: a table's setup and its actions are
JSON texts it never reads, and ``next`` says who acts next (``person``, ``bot``,
``chance`` or ``none``) so that a sweep finds the tables where a bot or the dealer must act.
``hs_rematches`` links a finished table to its rematch.
"""

import logging

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from high_society.errors import InvalidConfigError

__all__ = [
    "APPEND_PG",
    "CHANNEL",
    "MIGRATIONS",
    "SCHEMA_LOCK",
    "SCHEMA_VERSION",
    "actions",
    "heartbeat",
    "make_schema",
    "metadata",
    "rematches",
    "schema_table",
    "seats",
    "statements",
    "tables",
]

log = logging.getLogger("high_society.server")

#: The PostgreSQL notification channel of committed actions (``"TABLE VERSION ACTION"``).
CHANNEL = "hs_actions"
#: The key of the advisory lock that serialises making the schema (PostgreSQL).
SCHEMA_LOCK = 0x4853_5343  # "HSSC"
#: The schema's version, kept in ``hs_schema``; a database of a later version is refused,
#: one of an earlier version migrated (:data:`MIGRATIONS`).
SCHEMA_VERSION = 3
#: What moves a database from each earlier version to the next, run after the schema's
#: missing tables are made. 1 to 2: ``hs_rematches`` (made as missing) and the ``reserved``
#: kind of seat, which a server of version 1 would take for a taken one: the bump keeps
#: older servers off a database that has them. 2 to 3: a table's clocks and its place in
#: the lobby (four columns of ``hs_tables``), and ``hs_heartbeat`` (made as missing).
MIGRATIONS: dict[int, tuple[sa.Executable, ...]] = {
    1: (),
    2: (
        sa.text("ALTER TABLE hs_tables ADD COLUMN listed BOOLEAN NOT NULL DEFAULT FALSE"),
        sa.text("ALTER TABLE hs_tables ADD COLUMN clock TEXT"),
        sa.text("ALTER TABLE hs_tables ADD COLUMN since FLOAT"),
        sa.text("ALTER TABLE hs_tables ADD COLUMN deadline FLOAT"),
    ),
}

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
    # Whether the lobby lists the table for strangers (its maker's choice).
    sa.Column("listed", sa.Boolean, nullable=False, default=False, server_default=sa.false()),
    # The clocks (high_society.wire.CLOCK's form, without since and deadline), or null: no
    # clock; when the turn under way began, and when it times out (the sweep's key).
    sa.Column("clock", sa.Text, nullable=True),
    sa.Column("since", sa.Float, nullable=True),
    sa.Column("deadline", sa.Float, nullable=True),
)

seats = sa.Table(
    "hs_seats",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("hs_tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    # person, bot, open, or reserved (for a person of the table this one is a rematch of)
    sa.Column("kind", sa.String(8), nullable=False),
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

#: A finished table's rematch: made once, whoever asks first (the primary key).
rematches = sa.Table(
    "hs_rematches",
    metadata,
    sa.Column("old_id", sa.String(32), primary_key=True),
    # No foreign keys: a table and its rematch are deleted in their own time.
    sa.Column("new_id", sa.String(32), nullable=False),
)

#: The last time a server process swept (one row): a server starting after a gap knows
#: that no server ran meanwhile, and gives every clock that time back.
heartbeat = sa.Table("hs_heartbeat", metadata, sa.Column("at", sa.Float, nullable=False))

sa.Index("hs_tables_next", tables.c.status, tables.c.next)
sa.Index("hs_tables_deadline", tables.c.status, tables.c.deadline)
sa.Index("hs_tables_lobby", tables.c.listed, tables.c.updated)

_ID: sa.BindParameter[str] = sa.bindparam("id", type_=sa.String)


#: PostgreSQL: a table's new actions committed in one statement (a trip to the server, and
#: atomic by itself): the version moved on if it is still ``old``, the actions inserted
#: only then, and each announced (``NOTIFY``, in order); its row says whether it moved.
APPEND_PG = sa.text(
    """
    WITH moved AS (
        UPDATE hs_tables
        SET version = :new, status = :new_status, next = :new_next, updated = :now,
            clock = :new_clock, since = :new_since, deadline = :new_deadline
        WHERE id = :id AND version = :old
        RETURNING id
    ), added AS (
        INSERT INTO hs_actions (table_id, number, action, seat, at)
        SELECT moved.id, a.number, a.action, a.seat, :now
        FROM moved, unnest(
            CAST(:numbers AS integer[]), CAST(:actions AS text[]), CAST(:seats AS integer[])
        ) AS a(number, action, seat)
        RETURNING number, action
    ), told AS (
        SELECT pg_notify('hs_actions', :id || ' ' || (ordered.number + 1) || ' ' || ordered.action)
        FROM (SELECT number, action FROM added ORDER BY number) AS ordered
    )
    SELECT (SELECT count(*) FROM moved), (SELECT count(*) FROM told)
    """
)


def statements(dialect: str = "sqlite") -> dict[str, sa.ClauseElement]:
    """Every statement the store runs on the database ``dialect`` names, by name (``:id``
    and the other named parameters are given at each run; a plain value is fixed)."""
    the_table = tables.c.id == _ID
    seat_rows = seats.c.table_id == _ID
    return {
        "row": sa.select(
            tables.c.status, tables.c.version, tables.c.bot_seed, tables.c.clock, tables.c.since
        ).where(the_table),
        "row_locked": sa.select(tables.c.status).where(the_table).with_for_update(),
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
            clock=sa.bindparam("new_clock"),
            since=sa.bindparam("new_since"),
            deadline=sa.bindparam("new_deadline"),
        ),
        "notify": sa.select(sa.func.pg_notify(CHANNEL, sa.bindparam("note"))),
        "insert_table": tables.insert(),
        "insert_seat": seats.insert(),
        "seats": sa.select(seats.c.seat, seats.c.kind, seats.c.name, seats.c.bot)
        .where(seat_rows)
        .order_by(seats.c.seat),
        "take_seat": seats.update()
        .where(seat_rows, seats.c.seat == sa.bindparam("at_seat"))
        .values(kind="person", name=sa.bindparam("new_name"), token_hash=sa.bindparam("new_hash")),
        "seat_hash": sa.select(seats.c.kind, seats.c.token_hash).where(
            seat_rows, seats.c.seat == sa.bindparam("at_seat")
        ),
        "rematch_of": sa.select(rematches.c.new_id).where(rematches.c.old_id == _ID),
        "insert_rematch": rematches.insert(),
        "start": tables.update()
        .where(the_table, tables.c.status == "waiting")
        .values(
            status=sa.bindparam("new_status"),
            version=sa.bindparam("new"),
            next=sa.bindparam("new_next"),
            setup=sa.bindparam("new_setup"),
            updated=sa.bindparam("now"),
            clock=sa.bindparam("new_clock"),
            since=sa.bindparam("new_since"),
            deadline=sa.bindparam("new_deadline"),
        ),
        "hashes": sa.select(seats.c.seat, seats.c.kind, seats.c.token_hash).where(seat_rows),
        "unstarted": sa.select(tables.c.id)
        .where(
            tables.c.status == "waiting",
            ~sa.exists().where(
                seats.c.table_id == tables.c.id,
                sa.or_(seats.c.kind == "open", seats.c.kind == "reserved"),
            ),
        )
        .limit(500),
        "due": sa.select(tables.c.id).where(
            tables.c.status == "playing", sa.or_(tables.c.next == "bot", tables.c.next == "chance")
        ),
        "live": sa.select(sa.func.count()).where(tables.c.status != "over"),
        "expired": sa.select(tables.c.id)
        .where(
            sa.or_(
                sa.and_(tables.c.status != "over", tables.c.updated < sa.bindparam("idle_before")),
                sa.and_(tables.c.status == "over", tables.c.updated < sa.bindparam("over_before")),
            )
        )
        .limit(500),
        "delete_rematches": rematches.delete().where(
            sa.or_(rematches.c.old_id == _ID, rematches.c.new_id == _ID)
        ),
        "delete_actions": actions.delete().where(actions.c.table_id == _ID),
        "delete_seats": seats.delete().where(seats.c.table_id == _ID),
        "delete_table": tables.delete().where(the_table),
        "schema_versions": sa.select(schema_table.c.version),
        "timed_out": sa.select(tables.c.id)
        .where(tables.c.status == "playing", tables.c.deadline <= sa.bindparam("now"))
        .order_by(tables.c.deadline)
        .limit(500),
        "shift_clocks": tables.update()
        .where(tables.c.status == "playing", tables.c.since.is_not(None))
        .values(
            since=tables.c.since + sa.bindparam("gap"),
            deadline=tables.c.deadline + sa.bindparam("gap"),
        ),
        "heartbeat": sa.select(heartbeat.c.at),
        "insert_heartbeat": heartbeat.insert(),
        "beat_now": heartbeat.update().values(at=sa.bindparam("now")),
        "beat": heartbeat.update()
        .where(heartbeat.c.at == sa.bindparam("then"))
        .values(at=sa.bindparam("now")),
        "lobby": sa.select(
            tables.c.id, tables.c.status, tables.c.version, tables.c.clock, tables.c.updated
        )
        .where(
            tables.c.listed,
            tables.c.status != "over",
            sa.tuple_(tables.c.updated, tables.c.id)
            < sa.tuple_(sa.bindparam("before"), sa.bindparam("before_id")),
        )
        .order_by(tables.c.updated.desc(), tables.c.id.desc())
        .limit(sa.bindparam("most")),
        "lobby_mark": sa.select(sa.func.count(), sa.func.max(tables.c.updated)).where(
            tables.c.listed
        ),
    } | ({"append_pg": APPEND_PG} if dialect == "postgresql" else {})


def make_schema(engine: Engine, *, postgres: bool) -> None:
    """Make the schema in a database that holds none of the server's tables, migrate one of
    an earlier version, and refuse, untouched, one whose version is later, unknown or not
    told truly: the checks come before anything is written, in the one transaction that
    writes (under an advisory lock on PostgreSQL: processes starting at once make it once).

    Raises:
        InvalidConfigError: see :func:`_schema_version`.
    """
    with engine.connect() as conn:
        conn.execution_options(hs_write=True)
        with conn.begin():
            if postgres:
                conn.execute(sa.select(sa.func.pg_advisory_xact_lock(SCHEMA_LOCK)))
            version = _schema_version(conn)
            metadata.create_all(conn)
            if version is None:
                conn.execute(schema_table.insert().values(version=SCHEMA_VERSION))
            elif version != SCHEMA_VERSION:
                _migrate(conn, version)


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
