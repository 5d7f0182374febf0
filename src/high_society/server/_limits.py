"""What one client may cost a server process at most: the bounds of :class:`Limits`."""

from typing import Any

import attrs

__all__ = ["Limits"]


def _positive(_: object, attribute: "attrs.Attribute[Any]", value: float) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise ValueError(f"{attribute.name} must be a positive number, not {value!r}")


@attrs.frozen
class Limits:
    """The resource budget of a table server process: what any one client, and all of them
    together, may hold of it. The defaults are those of ``high-society serve``; the docs
    page "Serve a table" says what they mean for one client.

    Connections (under ``high-society serve``'s protocol):

    - ``max_head_bytes``, ``max_headers``: a request head's bytes and header lines (431);
    - ``head_seconds``: a request head must arrive whole within this of the connection,
      or of the previous answer (else the connection is closed);
    - ``idle_seconds``: a kept-alive connection idle this long is closed;
    - ``body_seconds``: a request body must arrive whole within this (408);
    - ``max_address_connections``: connections one address holds at once.

    Streams, tables, the database:

    - ``max_streams``, ``max_seat_streams``, ``max_address_streams``: event streams of the
      process, of one seat, of one address (503, 429, 429);
    - ``max_tables``: tables not over (waiting for players or playing) in the database
      (503); ``tables_per_minute``: tables one address may make each minute, in a burst of
      as many (429 with ``Retry-After``);
    - ``idle_hours``: a table with no action for this long (waiting or playing) is
      deleted; ``keep_days``: a finished table is deleted this long after its end (its
      record is written first to the records folder, when the server has one).

    Raises:
        ValueError: a bound that is not a positive number.
    """

    max_head_bytes: int = attrs.field(default=16_384, validator=_positive)
    max_headers: int = attrs.field(default=64, validator=_positive)
    head_seconds: float = attrs.field(default=10.0, validator=_positive)
    idle_seconds: float = attrs.field(default=5.0, validator=_positive)
    body_seconds: float = attrs.field(default=10.0, validator=_positive)
    max_address_connections: int = attrs.field(default=64, validator=_positive)
    max_streams: int = attrs.field(default=1000, validator=_positive)
    max_seat_streams: int = attrs.field(default=4, validator=_positive)
    max_address_streams: int = attrs.field(default=32, validator=_positive)
    max_tables: int = attrs.field(default=10_000, validator=_positive)
    tables_per_minute: float = attrs.field(default=20.0, validator=_positive)
    idle_hours: float = attrs.field(default=24.0, validator=_positive)
    keep_days: float = attrs.field(default=30.0, validator=_positive)
