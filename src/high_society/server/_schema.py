"""The store's schema and every statement it runs (SQLAlchemy Core, for SQLite and
PostgreSQL alike).

Each table's actions are rows of ``hs_actions``, numbered from 0; ``hs_tables.version`` is
how many there are. The store keeps what it is given: a table's setup and its actions are
JSON texts it never reads, and ``next`` says who acts next (``person``, ``bot``,
``chance`` or ``none``) so that a sweep finds the tables where a bot or the dealer must act.
``hs_rematches`` links a finished table to its rematch.
"""

import sqlalchemy as sa

__all__ = [
    "APPEND_PG",
    "CHANNEL",
    "MIGRATIONS",
    "SCHEMA_LOCK",
    "SCHEMA_VERSION",
    "actions",
    "metadata",
    "rematches",
    "schema_table",
    "seats",
    "statements",
    "tables",
]

#: The PostgreSQL notification channel of committed actions (``"TABLE VERSION ACTION"``).
CHANNEL = "hs_actions"
#: The key of the advisory lock that serialises making the schema (PostgreSQL).
SCHEMA_LOCK = 0x4853_5343  # "HSSC"
#: The schema's version, kept in ``hs_schema``; a database of a later version is refused,
#: one of an earlier version migrated (:data:`MIGRATIONS`).
SCHEMA_VERSION = 2
#: What moves a database from each earlier version to the next, run after the schema's
#: missing tables are made. 1 to 2: ``hs_rematches`` (made as missing) and the ``reserved``
#: kind of seat, which a server of version 1 would take for a taken one: the bump keeps
#: older servers off a database that has them.
MIGRATIONS: dict[int, tuple[sa.Executable, ...]] = {1: ()}

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

sa.Index("hs_tables_next", tables.c.status, tables.c.next)

_ID: sa.BindParameter[str] = sa.bindparam("id", type_=sa.String)


#: PostgreSQL: a table's new actions committed in one statement (a trip to the server, and
#: atomic by itself): the version moved on if it is still ``old``, the actions inserted
#: only then, and each announced (``NOTIFY``, in order); its row says whether it moved.
APPEND_PG = sa.text(
    """
    WITH moved AS (
        UPDATE hs_tables
        SET version = :new, status = :new_status, next = :new_next, updated = :now
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
        "row": sa.select(tables.c.status, tables.c.version, tables.c.bot_seed).where(the_table),
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
        ),
        "hashes": sa.select(seats.c.seat, seats.c.kind, seats.c.token_hash).where(seat_rows),
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
    } | ({"append_pg": APPEND_PG} if dialect == "postgresql" else {})
