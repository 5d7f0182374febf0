"""What one client may cost a server process at most: the bounds of :class:`Limits`, and
the rate at which one address may make tables (:class:`Rate`)."""

import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import attrs

from high_society._text import short_repr
from high_society.errors import InvalidConfigError

__all__ = ["Limits", "Rate"]


def _positive(_: object, attribute: "attrs.Attribute[Any]", value: float) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise InvalidConfigError(
            f"{attribute.name} must be a positive number, not {short_repr(value)}"
        )


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
      as many (429 with ``Retry-After``); ``replays_per_minute``: recorded games one
      address may have replayed each minute, likewise; ``all_replays_per_minute``: those
      all addresses together may have replayed (503 with ``Retry-After``: a replay costs
      milliseconds of CPU, and many addresses must not take the process from its tables);
    - ``idle_hours``: a table with no action for this long (waiting or playing) is
      deleted; ``keep_days``: a finished table is deleted this long after its end (its
      record is written first to the records folder, when the server has one).

    Raises:
        InvalidConfigError: a bound that is not a positive number.
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
    replays_per_minute: float = attrs.field(default=30.0, validator=_positive)
    all_replays_per_minute: float = attrs.field(default=600.0, validator=_positive)
    idle_hours: float = attrs.field(default=24.0, validator=_positive)
    keep_days: float = attrs.field(default=30.0, validator=_positive)


class Rate:
    """How many things each key (a client's address) may do per minute, in bursts of as
    many: a token bucket per key, the buckets of at most ``keys`` keys kept (the oldest
    forgotten, which only makes a forgotten key's next burst whole again)."""

    def __init__(
        self, per_minute: float, *, keys: int = 65_536, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.per_minute = per_minute
        self._keys = keys
        self._clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key: tokens, at

    def take(self, key: str) -> float:
        """Take one for ``key``: 0 when it may go ahead, else the seconds until it may."""
        now = self._clock()
        tokens, then = self._buckets.pop(key, (self.per_minute, now))
        tokens = min(self.per_minute, tokens + (now - then) * self.per_minute / 60)
        if tokens < 1:
            self._buckets[key] = (tokens, now)
            return (1 - tokens) * 60 / self.per_minute
        self._buckets[key] = (tokens - 1, now)
        while len(self._buckets) > self._keys:
            self._buckets.popitem(last=False)
        return 0.0
