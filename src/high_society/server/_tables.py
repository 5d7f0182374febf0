"""Tables and their seats: making a table within the server's table budget, a person taking
an open seat, a finished table's rematch, starting a table once its seats are taken, and
what anyone may read of a table.

Who sits where is the library's to say: a table's deck is shuffled and its first card
dealt by :class:`~high_society.table.Table`, and a rematch seats the same players one seat
on by :func:`~high_society.table.rematch_seats` (R3).
"""

import functools
import json
import secrets
import time
from collections.abc import Sequence

import attrs

from high_society.server._auth import Keys, derived_token, hash_token, new_token
from high_society.server._games import Game
from high_society.server._limits import Rate
from high_society.server._master import Master, action_text, clock_columns
from high_society.server._store import Conflict, Lobby, Opening, SeatRow, Store
from high_society.table import Clocks, Seat, Table, TimeControl, rematch_seat, rematch_seats
from high_society.wire import CLOCK, NewSeat, NewTable

__all__ = ["Created", "Rematch", "Tables", "TooFast"]


class TooFast(Exception):
    """One address made as many tables as it may for now: ``wait`` seconds until it may
    make another (``per_minute``: the rate)."""

    def __init__(self, wait: float, per_minute: float) -> None:
        super().__init__(f"an address makes at most {per_minute:g} tables a minute")
        self.wait = wait
        self.per_minute = per_minute


@attrs.frozen
class Created:
    """A table just made: its id, whether it started (no seat open), and each person's
    seat and token."""

    table_id: str
    started: bool
    tokens: tuple[tuple[int, str], ...]


@attrs.frozen
class Rematch:
    """A person's seat at the rematch of a table, and its token."""

    table_id: str
    seat: int
    token: str


class Tables:
    """The tables of one server process (see the module's description). ``max_tables``:
    tables not over the database may hold (counted where a table is made); ``rate``: how
    many tables (rematches included) one address may make a minute."""

    def __init__(
        self,
        store: Store,
        keys: Keys,
        master: Master,
        *,
        max_tables: int = 10_000,
        rate: Rate | None = None,
    ) -> None:
        self._store = store
        self._keys = keys
        self._master = master
        self._max_tables = max_tables
        self._rate = rate

    def _may_make(self, address: str) -> None:
        """The address's rate, before a table is made for ``address`` (a rematch too); the
        database's bound of tables not over is checked where the table is made.

        Raises:
            TooFast: the address made its tables for now.
        """
        if self._rate is not None:
            wait = self._rate.take(address)
            if wait:
                raise TooFast(wait, self._rate.per_minute)

    async def create(self, new: NewTable, address: str = "") -> Created:
        """Make a table for the client at ``address``: a person's seat gets a token; bots
        are named after their kind and seat, never like a person; with no seat open the
        table starts at once, its deck shuffled (``secrets.SystemRandom``) and its first
        card revealed. The table has the clock ``new.clock`` asks for, and the lobby
        lists it if ``new.listed``.

        Raises:
            TooFast, Full: the table budget.
        """
        self._may_make(address)
        table_id = secrets.token_urlsafe(12)
        rows, tokens = _rows(new.seats)
        full = all(row.kind != "open" for row in rows)
        control = new.clock or TimeControl()
        opening, table = _opening(rows, control) if full else (None, None)
        clock = _clock_text(control, len(rows))
        seed = secrets.randbits(62)
        create = functools.partial(self._store.seats.create, clock=clock, listed=new.listed)
        await self._store.call(create, table_id, rows, seed, opening, self._max_tables)
        if table is not None:
            hashes = {row.token_hash: row.seat for row in rows if row.token_hash is not None}
            self._keys.keep(table_id, hashes)
            self._master.moved_on(table_id, Game(table, seed))
        return Created(table_id, full, tuple(tokens))

    async def join(self, table_id: str, name: str) -> tuple[int, str]:
        """Give the first open seat to the person ``name``; return the seat and its token.
        The table starts once no seat is open.

        Raises:
            NotFound, Conflict: no such table; no open seat, or the name is taken.
        """
        token = new_token()
        seat, full = await self._store.call(
            self._store.seats.join, table_id, name, hash_token(token)
        )
        if full:
            await self.start([table_id])
        return seat, token

    async def rematch(self, table_id: str, token: object, address: str = "") -> Rematch:
        """The seat at the rematch of a finished table of the person whose token there is
        ``token``, asking from ``address``: the rematch is made by the first person to ask
        (once, whichever process they ask; it counts in that address's table budget),
        with the same people and bots each one seat on (:func:`rematch_seats`) and a fresh
        shuffle, every person's seat reserved; each person's own ask claims theirs, with a
        token derived from their old one (so asking again gives the same, and costs no
        write). It starts once every person has claimed.

        Raises:
            NotFound, Unauthorized: no such table; no seat of it has that token.
            Conflict: the game is not over (``GAME_NOT_OVER``).
            TooFast, Full: the rematch is to be made, past the table budget.
        """
        seat = await self._keys.seat_of(table_id, token)
        assert isinstance(token, str)  # seat_of refuses any other
        game = await self._master.games.get(table_id, fresh=True)
        if not game.table.is_over:
            raise Conflict("GAME_NOT_OVER", "a rematch follows the end of the game")
        seats = game.table.seats
        new_seat = rematch_seat(seat, len(seats))
        found = await self._store.call(self._store.seats.rematch_seat, table_id, new_seat)
        new_id = secrets.token_urlsafe(12) if found is None else found[0]
        new_token = derived_token(token, new_id)
        if found is not None and found[1] == hash_token(new_token):
            return Rematch(new_id, new_seat, new_token)  # asked again: nothing to write
        if found is None:
            self._may_make(address)
        rows = _rematch_rows(seats)
        opening, table = _opening(rows, game.table.clocks.control)
        seed = secrets.randbits(62)
        made_id, started = await self._store.call(
            self._store.seats.rematch,
            table_id,
            new_id,
            rows,
            seed,
            new_seat,
            hash_token(new_token),
            opening,
            self._max_tables,
        )
        if made_id != new_id:  # another ask made it first, meanwhile: claim there
            return await self.rematch(table_id, token, address)
        if started:
            self._master.moved_on(made_id, Game(table, seed))
        return Rematch(made_id, new_seat, new_token)

    async def start(self, table_ids: Sequence[str]) -> None:
        """Start each of ``table_ids`` whose seats are all taken (just now, or before a
        process stopped: the sweep's finds), its deck shuffled and its first card dealt."""
        for table_id in table_ids:
            lobby = await self._store.call(self._store.seats.lobby, table_id)
            control = (
                TimeControl()
                if lobby.clock is None
                else CLOCK.read(json.loads(lobby.clock)).control
            )
            opening, _ = _opening(lobby.seats, control)
            if await self._store.call(self._store.seats.start, table_id, opening):
                # Read back when first needed (its bots' seed is the store's).
                self._master.games.forget(table_id)
                self._master.schedule([table_id])

    async def lobby(self, table_id: str) -> Lobby:
        """The table's public description.

        Raises:
            NotFound: no such table.
        """
        return await self._store.call(self._store.seats.lobby, table_id)


def _rows(specs: Sequence[NewSeat]) -> tuple[list[SeatRow], list[tuple[int, str]]]:
    """The seats to store for ``specs``, and a new token for each person's seat: bots are
    named after their kind and seat, never like a person."""
    names = [spec.name for spec in specs if spec.name is not None]
    rows: list[SeatRow] = []
    tokens: list[tuple[int, str]] = []
    for seat, spec in enumerate(specs):
        name, token_hash = spec.name, None
        if spec.kind == "person":
            token = new_token()
            tokens.append((seat, token))
            token_hash = hash_token(token)
        elif spec.kind == "bot":
            assert spec.bot is not None
            name = f"{spec.bot.capitalize()} bot {seat + 1}"
            while name in names:
                name += "'"
            names.append(name)
        rows.append(SeatRow(seat, spec.kind, name, spec.bot, token_hash))
    return rows, tokens


def _rematch_rows(seats: Sequence[Seat]) -> list[SeatRow]:
    """A rematch's seats (:func:`rematch_seats`): bots with their names, each person's
    seat reserved for them."""
    return [
        SeatRow(i, "bot" if seat.is_bot else "reserved", seat.name, seat.bot)
        for i, seat in enumerate(rematch_seats(seats))
    ]


def _opening(rows: Sequence[SeatRow], control: TimeControl) -> tuple[Opening, Table]:
    """The start of a table whose seats ``rows`` are all taken, with the clock ``control``:
    a new table of them, shuffled (``secrets``), its setup (the snapshot without actions:
    the seats and the secret order) and the first card dealt, now; and that table."""
    table = Table([Seat(str(row.name), row.bot) for row in rows], time_control=control)
    snapshot = table.snapshot()
    snapshot["actions"] = []
    dealt = table.deal(time.time())
    setup = json.dumps(snapshot, separators=(",", ":"))
    status = "over" if table.is_over else "playing"
    texts = tuple(action_text(a) for a in dealt)
    return Opening(setup, texts, status, table.waiting_for.value, *clock_columns(table)), table


def _clock_text(control: TimeControl, players: int) -> str | None:
    """A new table's clocks as the store keeps them (``None``: no clock)."""
    if not control.timed:
        return None
    return json.dumps(Clocks.start(control, players).to_json(), separators=(",", ":"))
