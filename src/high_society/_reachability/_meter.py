"""The search's work, counted in units rather than seconds, so that its verdict is the same
on every machine (internal).

A unit is a position visited, a payment tried, a table built; each is bounded (at most 12
money cards, 5 seats), so a bound on units bounds the time. Past its limit the search gives
up with :class:`Undecided`; a stage given less than the limit (a ``settle`` capped in the
first pass) is stopped with :class:`CutShort` instead.
"""

from high_society._reachability import _tables as tables


class Undecided(Exception):
    """The search reached its work limit before it found a history or refuted every one."""


class CutShort(Exception):
    """A ``settle`` reached the work its pass allows it (not the search's limit)."""


class Meter:
    """One search's work: ``work`` units done, ``limit`` where it is undecided, ``stop``
    where the stage running now is cut short (at most ``limit``). A table the search asks
    for is charged the first time only (what it costs must not depend on what an earlier
    search left in the tables' caches)."""

    def __init__(self, money: tuple[int, ...], limit: int) -> None:
        self.money = money
        self.work = 0
        self.limit = self.stop = limit
        self._charged: dict[tuple[int, bool, int, bool], tuple[int, ...]] = {}

    def tick(self, units: int = 1) -> None:
        self.work += units
        if self.work > self.stop:
            if self.work > self.limit:
                raise Undecided
            raise CutShort

    def ladder(self, mask: int, wide: bool, spare: int, closed: bool) -> tuple[int, ...]:
        """:func:`~high_society._reachability._tables.ladder`, charged once per search."""
        key = (mask, wide, spare, closed)
        found = self._charged.get(key)
        if found is None:
            self.tick(1 + ((1 << mask.bit_count()) >> 6))
            found = self._charged[key] = tables.ladder(self.money, mask, wide, spare, closed)
        return found

    def least_blocks(self, mask: int) -> tables.Groups:
        """:func:`~high_society._reachability._tables.least_blocks`, charged as a ladder."""
        self.ladder(mask, False, mask.bit_count(), False)
        return tables.least_blocks(self.money, mask)

    def per_total(self, mask: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """:func:`~high_society._reachability._tables.per_total`, charged as a ladder."""
        self.ladder(mask, False, mask.bit_count(), False)
        return tables.per_total(self.money, mask)
