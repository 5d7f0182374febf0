"""The lobby: the tables their makers listed, that are not over, for strangers to find (a
seat to join, or a game to watch), a page at a time; and its event stream, which sends the
first page again whenever the lobby changes. Nothing secret is in it: no token, no hand,
no deck, only what a table's public description shows (:data:`high_society.wire.LOBBY`)."""

import asyncio
import json
import logging
import re
from collections.abc import AsyncGenerator

from high_society._json import JSON, JSONObject
from high_society.server._dialects import is_unavailable
from high_society.server._encoding import fast_json
from high_society.server._notify import Notifier
from high_society.server._store import Store
from high_society.server._store_rows import Listed
from high_society.server._streams import Watch
from high_society.wire import CLOCK

__all__ = ["LOBBY_KEY", "PAGE", "LobbyWatch", "lobby_events", "lobby_page", "read_cursor"]

log = logging.getLogger("high_society.server")

#: Tables a page of the lobby lists at most.
PAGE = 50
#: The notifier's key of the lobby (no table has an empty id).
LOBBY_KEY = ""
_CURSOR = re.compile(r"([0-9]{1,12}(?:\.[0-9]{1,17})?)~([A-Za-z0-9_-]{1,32})")


def read_cursor(text: str | None) -> tuple[float, str] | None:
    """Where a page ends, from the cursor a page gives (``None``: the first page).

    Raises:
        ValueError: not a cursor of a page.
    """
    if text is None or text == "":
        return None
    found = _CURSOR.fullmatch(text)
    if found is None:
        raise ValueError("not a cursor of the lobby")
    return float(found[1]), found[2]


def _entry(listed: Listed) -> JSONObject:
    clock = None if listed.clock is None else CLOCK.read(json.loads(listed.clock)).control
    seats: list[JSON] = [
        {"seat": row.seat, "kind": row.kind, "name": row.name, "bot": row.bot}
        for row in listed.seats
    ]
    return {
        "table": listed.table_id,
        "status": listed.status,
        "open": sum(row.kind == "open" for row in listed.seats),
        "seats": seats,
        "clock": None if clock is None else clock.to_json(),
        "number": listed.version,
        "updated": listed.updated,
    }


async def lobby_page(store: Store, before: tuple[float, str] | None) -> JSONObject:
    """A page of the lobby: the tables listed and not over, changed before ``before``."""
    found = await store.call(store.listings.page, before, PAGE + 1)
    shown = found[:PAGE]
    last = shown[-1] if len(found) > PAGE else None
    # repr: the float exactly, so that the next page starts right after this one's last.
    cursor = None if last is None else f"{last.updated!r}~{last.table_id}"
    return {"tables": [_entry(listed) for listed in shown], "next": cursor}


class LobbyWatch:
    """Wakes the lobby's streams when the lobby changes: every ``poll_seconds`` while a
    stream is open, it reads what changes with the lobby (how many tables are listed, the
    latest change of one), in any process."""

    def __init__(self, store: Store, notifier: Notifier, poll_seconds: float) -> None:
        self._store = store
        self._notifier = notifier
        self._poll_seconds = poll_seconds
        self._changes = 0

    async def run(self) -> None:
        last: tuple[int, float] | None = None
        while True:
            await asyncio.sleep(self._poll_seconds)
            if LOBBY_KEY not in self._notifier.watched():
                last = None
                continue
            try:
                mark = await self._store.call(self._store.listings.mark)
            except Exception as error:
                if not is_unavailable(error):
                    log.exception("reading the lobby failed")
                continue
            if mark != last:
                last = mark
                self._changes += 1
                self._notifier.wake(LOBBY_KEY, self._changes)


async def lobby_events(store: Store, watch: Watch) -> AsyncGenerator[bytes, None]:
    """The lobby's stream: its first page now, and again after each change; a comment
    when the watcher asks for one."""
    sent = b""
    wake = watch.wake
    while True:
        wake.clear()
        try:
            page = fast_json(await lobby_page(store, None))
        except Exception as error:
            if not is_unavailable(error):
                raise
            page = sent
        if page != sent:
            sent = page
            yield b"event: lobby\ndata: %s\n\n" % page
        await wake.wait()
        if watch.keep_alive:
            watch.keep_alive = False
            yield b": keep-alive\n\n"
