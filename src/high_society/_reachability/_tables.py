"""Money as bit masks over the positions of a configuration's money, and the tables the
search reads about them: totals, submasks, the totals a seat can pay (internal).

Every function here is pure; the tables are cached by their arguments, so what they cost is
counted by the search's meter (``_meter``), never by what an earlier search left cached.
"""

import bisect
import functools
import itertools
from collections.abc import Iterator
from typing import TypeVar

_T = TypeVar("_T")

#: Submasks in groups of one number of cards, each with the least and largest total of
#: that many.
Groups = tuple[tuple[int, int, tuple[int, ...]], ...]


@functools.lru_cache(maxsize=16)
def subset_sums(money: tuple[int, ...]) -> tuple[int, ...]:
    """The total of every bit mask over ``money``'s positions (4,096 at most)."""
    sums = [0] * (1 << len(money))
    for mask in range(1, len(sums)):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + money[low.bit_length() - 1]
    return tuple(sums)


def submasks(mask: int) -> Iterator[int]:
    """The non-empty submasks of ``mask``, largest first."""
    sub = mask
    while sub:
        yield sub
        sub = (sub - 1) & mask


def bits(mask: int) -> list[int]:
    """The single bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def cards(money: tuple[int, ...], mask: int) -> frozenset[int]:
    """The money cards of ``mask``."""
    return frozenset(v for k, v in enumerate(money) if mask >> k & 1)


def greedy_partials(blocks: list[int], sums: tuple[int, ...], floor: int = 0) -> list[int] | None:
    """For seats that bid twice, each first a part of its final cards: the parts, each
    with the lowest total above the one before (above ``floor`` for the first), or None
    when some seat has no such part. Lowest-first leaves the most room to the next seat,
    so this finds parts whenever any exist."""
    parts = []
    last = floor
    for block in blocks:
        best = 0
        for sub in submasks(block):
            if sub != block and last < sums[sub] and (not best or sums[sub] < sums[best]):
                best = sub
        if not best:
            return None
        parts.append(best)
        last = sums[best]
    return parts


@functools.lru_cache(maxsize=4096)
def by_size(money: tuple[int, ...], mask: int) -> Groups:
    """The non-empty submasks of ``mask`` by their number of cards, fewest first (a
    disgrace auction's bids are mostly small, so a history is found sooner this way),
    each number with the least and the largest total of that many cards."""
    groups: dict[int, list[int]] = {}
    for sub in submasks(mask):
        groups.setdefault(sub.bit_count(), []).append(sub)
    values = [money[bit.bit_length() - 1] for bit in bits(mask)]
    bottoms = list(itertools.accumulate(values))
    tops = list(itertools.accumulate(reversed(values)))
    return tuple(
        (bottoms[size - 1], tops[size - 1], tuple(groups[size])) for size in sorted(groups)
    )


@functools.lru_cache(maxsize=4096)
def per_total(money: tuple[int, ...], mask: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The totals of the non-empty submasks of ``mask``, ascending and distinct, and a
    submask with each."""
    sums = subset_sums(money)
    one = {sums[sub]: sub for sub in submasks(mask)}
    totals = tuple(sorted(one))
    return totals, tuple(one[total] for total in totals)


@functools.lru_cache(maxsize=4096)
def least_blocks(money: tuple[int, ...], mask: int) -> Groups:
    """:func:`by_size` with, for each total, only its first submask (one with the fewest
    cards)."""
    sums = subset_sums(money)
    seen: set[int] = set()
    out = []
    for bottom, top, blocks in by_size(money, mask):
        firsts = []
        for sub in blocks:
            if sums[sub] not in seen:
                seen.add(sums[sub])
                firsts.append(sub)
        if firsts:
            out.append((bottom, top, tuple(firsts)))
    return tuple(out)


@functools.lru_cache(maxsize=4096)
def ladder(
    money: tuple[int, ...], mask: int, wide: bool, spare: int, closed: bool
) -> tuple[int, ...]:
    """The totals of the non-empty submasks of ``mask`` of at most ``spare`` cards (of two
    at least when ``wide``; all of ``mask`` when ``closed``), ascending and distinct."""
    sums = subset_sums(money)
    return tuple(
        sorted(
            {
                sums[sub]
                for sub in ((mask,) if closed else submasks(mask))
                if sub and sub.bit_count() <= spare and (not wide or sub & (sub - 1))
            }
        )
    )


def headroom(ladders: list[tuple[int, ...]], k: int) -> float:
    """The floor the seats from ``k`` on can rise above exactly when it is below this (of
    two floors, they rise above the lower whenever above the higher): each seat's highest
    total below the next seat's bound."""
    bound = float("inf")
    for totals in reversed(ladders[k:]):
        i = bisect.bisect_left(totals, bound)
        if not i:
            return 0
        bound = totals[i - 1]
    return bound


def can_rise(ladders: list[tuple[int, ...]], k: int, floor: int) -> bool:
    """Whether the seats from ``k`` on can pay totals rising above ``floor``: taking the
    least total above the one before leaves the most room, so it finds a way if any."""
    for totals in ladders[k:]:
        at = bisect.bisect_right(totals, floor)
        if at == len(totals):
            return False
        floor = totals[at]
    return True


def replaced(values: tuple[_T, ...], i: int, value: _T) -> tuple[_T, ...]:
    """``values`` with item ``i`` replaced by ``value``."""
    return (*values[:i], value, *values[i + 1 :])


def replaced_in_list(values: list[_T], i: int, value: _T) -> list[_T]:
    """A new list: ``values`` with item ``i`` replaced by ``value``."""
    return [*values[:i], value, *values[i + 1 :]]


def one_less(counts: tuple[int, ...], i: int) -> tuple[int, ...]:
    """``counts`` with item ``i`` one less."""
    return (*counts[:i], counts[i] - 1, *counts[i + 1 :])
