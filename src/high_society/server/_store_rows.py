"""The rows the store keeps and gives back, as values: a seat, a table's opening, a table as
read, its public description; and the store's two refusals. Nothing here reads a database."""

import attrs

__all__ = [
    "WAITING_KINDS",
    "Conflict",
    "Full",
    "Listed",
    "Lobby",
    "NotFound",
    "Opening",
    "Retired",
    "SeatRow",
    "Stored",
]

#: The kinds of seat that wait for a person: a table starts when it has none.
WAITING_KINDS = ("open", "reserved")


class NotFound(Exception):
    """No table has that id."""


class Full(Exception):
    """The database holds as many tables not over as the server may keep."""


class Retired(Exception):
    """The database's schema moved on under this process (a newer server migrated it): it
    no longer reads or writes it, so that it cannot undo what the newer version keeps."""


class Conflict(Exception):
    """The table cannot do that now (it waits for players, it has no open seat ...)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@attrs.frozen
class SeatRow:
    """One seat as stored: ``kind`` is ``person``, ``bot``, ``open`` or ``reserved`` (for
    a named person of the table this one is a rematch of, until they claim it)."""

    seat: int
    kind: str
    name: str | None
    bot: str | None
    token_hash: str | None = None


@attrs.frozen
class Opening:
    """What starts a table once its seats are taken: its setup (JSON text), its first
    actions (the dealer's, as JSON texts), its status and who acts next after them, and
    its clocks (JSON text, or ``None``: no clock) with when the first turn began and when
    it times out."""

    setup: str
    actions: tuple[str, ...]
    status: str
    next: str
    clock: str | None = None
    since: float | None = None
    deadline: float | None = None


@attrs.frozen
class Stored:
    """A table as read: its status and version, its bot seed, its setup (when asked for),
    its actions from a given number up to the version (JSON texts), and its clocks at that
    version (JSON text, and when the turn under way began)."""

    status: str
    version: int
    bot_seed: int
    setup: str | None
    actions: tuple[str, ...]
    clock: str | None = None
    since: float | None = None


@attrs.frozen
class Listed:
    """A table the lobby lists: its id, status, version, clocks (JSON text or ``None``),
    when it last changed, and its seats."""

    table_id: str
    status: str
    version: int
    clock: str | None
    updated: float
    seats: tuple[SeatRow, ...]


@attrs.frozen
class Lobby:
    """A table's public description: its seats, where the game is, its rematch's id once
    someone asked for one, and its clocks (JSON text, or ``None``: no clock)."""

    table_id: str
    status: str
    version: int
    seats: tuple[SeatRow, ...]
    rematch: str | None = None
    clock: str | None = None
