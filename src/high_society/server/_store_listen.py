"""What other processes commit, as they commit it: on PostgreSQL, ``LISTEN`` on the channel
that each committed action is announced on (``NOTIFY hs_actions, 'TABLE VERSION ACTION'``,
sent when its transaction commits), in a thread of its own, reconnecting when the
connection is lost."""

import logging
import threading
from collections.abc import Callable

from high_society.server._database import Database
from high_society.server._dialects import scrubbed
from high_society.server._schema import CHANNEL

__all__ = ["listen"]

log = logging.getLogger("high_society.server")


def listen(
    database: Database,
    deliver: Callable[[str, int, str], None],
    reconnected: Callable[[], None],
    stop: threading.Event,
    retry_seconds: float = 1.0,
) -> None:
    """On PostgreSQL, until ``stop`` is set: ``LISTEN`` on the channel of committed
    actions and call ``deliver(table, version, action)`` for each action committed by
    any process (``action`` the JSON text of action ``version - 1``). After every
    (re)connection ``reconnected()`` is called, since notifications sent while no
    connection listened are lost. Blocking: run it in a thread of its own."""
    cargs, cparams = database.connect_args()
    dialect = database.engine.dialect
    down = False
    while not stop.is_set():
        try:
            connection = dialect.connect(*cargs, **cparams)
        except Exception as error:
            if not down:
                reason = scrubbed(str(error), database.url)
                log.warning("listening for actions: cannot connect (%s); retrying", reason)
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
                    if version.isascii() and version.isdigit() and len(version) < 10:
                        deliver(table_id, int(version), action)
        except Exception as error:
            if not down:
                reason = scrubbed(str(error), database.url)
                log.warning("listening for actions: connection lost (%s); retrying", reason)
                down = True
            stop.wait(retry_seconds)
        finally:
            try:
                connection.close()
            except Exception as error:  # closing a broken connection may fail too
                log.debug("ignored while closing: %s", error)
