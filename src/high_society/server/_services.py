"""What the routes call: one process's parts, kept on the application's state, and the
opening of an event stream within its bounds."""

from collections.abc import AsyncGenerator, Callable
from pathlib import Path

import attrs
from starlette.requests import Request
from starlette.responses import Response

from high_society.server._auth import Keys
from high_society.server._errors import ApiError, ErrorKind, error_for
from high_society.server._games import Games
from high_society.server._limits import Limits, Rate
from high_society.server._lobby import LOBBY_KEY, lobby_events
from high_society.server._master import Master
from high_society.server._notify import Notifier
from high_society.server._store import Store
from high_society.server._streams import EventStream, StreamSlots, Watch, Watcher, seat_events
from high_society.server._tables import Tables

__all__ = ["Services", "assemble", "open_lobby_stream", "open_stream", "services"]


@attrs.define
class Services:
    """One process's parts: its tables (made, joined, described), the seats' keys, the
    move path, the tables kept in memory (what is sent), the streams' wake-ups, slots and
    clocks, and its bounds."""

    store: Store
    tables: Tables
    keys: Keys
    master: Master
    games: Games
    notifier: Notifier
    watcher: Watcher
    streams: StreamSlots
    limits: Limits
    replays: Rate
    all_replays: Rate


def assemble(
    store: Store,
    *,
    notifier: Notifier | None = None,
    limits: Limits | None = None,
    bot_delay: float = 0.0,
    send_seconds: float = 30.0,
    records: Path | None = None,
) -> Services:
    """One process's parts on ``store`` (its own games kept in memory, keys, move path and
    tables), within ``limits`` (their defaults when ``None``). Its master is to be started
    in the event loop that serves (``master.start(loop)``) and closed after."""
    bounds = limits or Limits()
    woken = notifier or Notifier()
    games = Games(store, woken)
    master = Master(store, games, bot_delay=bot_delay, records=records)
    keys = Keys(store)
    rate = Rate(bounds.tables_per_minute)
    tables = Tables(store, keys, master, max_tables=bounds.max_tables, rate=rate)
    return Services(
        store,
        tables,
        keys,
        master,
        games,
        woken,
        Watcher(send_seconds),
        StreamSlots(bounds.max_seat_streams, bounds.max_streams, bounds.max_address_streams),
        bounds,
        Rate(bounds.replays_per_minute),
        Rate(bounds.all_replays_per_minute),
    )


def services(request: Request) -> Services:
    """The parts of the process serving ``request``."""
    found: Services = request.app.state.services
    return found


def _stream_slot(parts: Services, key: object, address: str) -> Callable[[], None]:
    """A slot for one more event stream of ``key`` (``None``: no bound of its own) from
    ``address``; what releases it.

    Raises:
        ApiError: a bound is reached (429 for the key or the address, 503 for the process).
    """
    slots = parts.streams
    if key is not None and slots.full_for(key):
        raise ApiError(
            ErrorKind.TOO_MANY,
            "TOO_MANY_STREAMS",
            f"a seat has at most {slots.per_key} event streams open",
            retry_after=5,
        )
    if slots.full_at(address):
        raise ApiError(
            ErrorKind.TOO_MANY,
            "TOO_MANY_STREAMS",
            f"an address has at most {slots.per_address} event streams open",
            retry_after=5,
        )
    if slots.full:
        raise ApiError(
            ErrorKind.UNAVAILABLE,
            "TOO_MANY_STREAMS",
            "too many event streams: try again",
            retry_after=1,
        )
    return slots.take(key, address)


def _stream(
    parts: Services,
    key: str,
    release_slot: Callable[[], None],
    content: Callable[[Watch], AsyncGenerator[bytes, None]],
) -> EventStream:
    """An event stream woken by the notifier's ``key``, its events ``content(watch)``."""
    notifier = parts.notifier
    wake = notifier.subscribe(key)
    watch = parts.watcher.watch(wake)

    def release() -> None:
        notifier.unsubscribe(key, wake)
        release_slot()

    return EventStream(content(watch), watch=watch, watcher=parts.watcher, release=release)


async def open_stream(
    parts: Services, table_id: str, seat: int, since: int, address: str
) -> Response:
    """The event stream of ``seat`` (``-1``: a spectator's, with no bound of its own) from
    ``address``, within the bounds of streams per seat, per address and per process.

    Raises:
        ApiError: a bound is reached (429, 503), or the table cannot be streamed (no such
            table, it waits for players, the database cannot answer).
    """
    try:
        await parts.games.at_least(table_id, None)  # a waiting table is refused now
    except Exception as error:
        raise error_for(error) from None
    release = _stream_slot(parts, (table_id, seat) if seat >= 0 else None, address)
    games, notifier = parts.games, parts.notifier
    return _stream(
        parts,
        table_id,
        release,
        lambda watch: seat_events(games, notifier, table_id, seat, since, watch),
    )


def open_lobby_stream(parts: Services, address: str) -> Response:
    """The lobby's event stream from ``address``, within the bounds of streams per address
    and per process.

    Raises:
        ApiError: a bound is reached (429, 503).
    """
    release = _stream_slot(parts, None, address)
    store = parts.store
    return _stream(parts, LOBBY_KEY, release, lambda watch: lobby_events(store, watch))
