"""Precomputed bid tables (internal): every subset of a hand, sorted by what it adds.

The legal bids of a player are the non-empty subsets of their hand whose total lifts their
face-up cards above the highest bid (R5). Sorted by total, they are a suffix of this table,
whose start is read from a list kept per total (``starts``), so the cost of listing legal
bids does not grow with their number.
A table depends only on the hand, so it is built once per distinct hand and kept.
"""

from array import array
from collections.abc import Sequence

__all__ = ["TABLES", "TABLES_BUDGET", "BidTable", "bid_table", "fewest_cards"]

#: Every subset handed out so far, by its value mask (bit ``v`` set for money value ``v``).
#: Tables of different hands share these frozensets, so a table holds only two arrays, and
#: turning an index into a frozenset is one dictionary look-up.
_SUBSETS: dict[int, frozenset[int]] = {}
#: Enough for every subset of 16 money values; a game has 11 (R1).
_SUBSETS_LIMIT = 1 << 16


class BidTable:
    """The non-empty subsets of one hand, by total added (ties: cards in ascending order).

    Subsets are stored as value masks (bit ``v`` set when money value ``v`` is in the
    subset) in compact arrays: a hand of eleven cards costs about 36 KiB.

    >>> table = BidTable(frozenset({1, 2, 3}))
    >>> list(table.totals), [sorted(table.cards_at(i)) for i in range(len(table.totals))]
    ([1, 2, 3, 3, 4, 5, 6], [[1], [2], [1, 2], [3], [1, 3], [2, 3], [1, 2, 3]])
    """

    __slots__ = ("_fewest", "cards", "masks", "starts", "totals")

    def __init__(self, hand: frozenset[int]) -> None:
        self.cards: tuple[int, ...] = tuple(sorted(hand))
        cards = self.cards
        k = len(cards)
        # All 2**k subsets by doubling, largest card first: bit t of index j stands for
        # cards[k - 1 - t]. Ties go by cards in ascending order: of two subsets with equal
        # totals (neither can be a prefix of the other), the one holding the smallest card
        # of their difference comes first; that card is the highest bit in which the indices
        # differ, so the larger index comes first. One integer key then sorts both ways.
        sums = [0]
        values = [0]
        for card in reversed(cards):
            sums += [s + card for s in sums]
            values += [v | 1 << card for v in values]
        full = (1 << k) - 1
        keys = sorted([(s << k) | (full ^ j) for j, s in enumerate(sums)])
        del keys[0]  # the empty subset, the only one with total 0
        self.totals = totals = array("q", [key >> k for key in keys])
        # starts[x]: how many subsets add up to x or less, for x from 0 to the whole hand:
        # the bids that add more than x begin there (bisect_right without the search).
        self.starts: list[int] = []
        j, n = 0, len(totals)
        for x in range(sum(cards) + 1):
            while j < n and totals[j] <= x:
                j += 1
            self.starts.append(j)
        wide = bool(cards) and cards[-1] >= 63  # masks of large values exceed 64 bits
        chosen = [values[full ^ (key & full)] for key in keys]
        self.masks: Sequence[int] = chosen if wide else array("q", chosen)
        self._fewest: tuple[tuple[int, tuple[int, ...]], ...] | None = None

    def fewest(self) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """For each total a subset adds, the first subset (in this table's order) of the
        fewest cards that adds it: ``(total, cards in ascending order)``, by total. Made
        on first use and kept: a server tells every seat that must act one bid per total.

        >>> BidTable(frozenset({1, 2, 3})).fewest()
        ((1, (1,)), (2, (2,)), (3, (3,)), (4, (1, 3)), (5, (2, 3)), (6, (1, 2, 3)))
        """
        if self._fewest is None:
            best: dict[int, int] = {}  # total -> index of its first subset of fewest cards
            masks, totals = self.masks, self.totals
            for index, total in enumerate(totals):
                known = best.get(total)
                if known is None or masks[index].bit_count() < masks[known].bit_count():
                    best[total] = index
            self._fewest = tuple(
                (total, tuple(sorted(self.cards_at(index)))) for total, index in best.items()
            )
        return self._fewest

    def cards_at(self, index: int) -> frozenset[int]:
        """The subset at ``index``, as a set of money values."""
        mask = self.masks[index]
        try:
            return _SUBSETS[mask]
        except KeyError:
            return _subset(mask)


def fewest_cards(hand: frozenset[int]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """:meth:`BidTable.fewest` of ``hand``'s (cached) table."""
    return bid_table(hand).fewest()


def _subset(mask: int) -> frozenset[int]:
    cards = frozenset(v for v in range(mask.bit_length()) if mask >> v & 1)
    if len(_SUBSETS) >= _SUBSETS_LIMIT:
        _SUBSETS.clear()
    _SUBSETS[mask] = cards
    return cards


#: Tables by hand. The 2**11 hands of the standard game all fit; a plain dict is cheaper
#: to consult than ``functools.lru_cache``, and the hot path in ``rules`` indexes it first,
#: calling :func:`bid_table` only for a hand not seen yet.
TABLES: dict[frozenset[int], BidTable] = {}
_TABLES_LIMIT = 8192
#: What the cached tables may hold, in (estimated) bytes: hands from outside (states read
#: from JSON, each with its own config) can be many and large, and must not fill memory.
TABLES_BUDGET = 64 * 1024 * 1024
_held = [0]  # estimated bytes in TABLES


def _estimated_bytes(table: BidTable) -> int:
    """8 bytes per total and per start; 8 per mask, or a Python int of the widest value."""
    cards = table.cards
    mask = 8 if not cards or cards[-1] < 63 else 36 + cards[-1] // 8
    return len(table.totals) * (8 + mask) + 8 * len(table.starts)


def bid_table(hand: frozenset[int]) -> BidTable:
    """The (cached) table of ``hand``, built on first use."""
    try:
        return TABLES[hand]
    except KeyError:
        table = BidTable(hand)
        size = _estimated_bytes(table)
        if len(TABLES) >= _TABLES_LIMIT or _held[0] + size > TABLES_BUDGET:
            TABLES.clear()
            _held[0] = 0
        TABLES[hand] = table
        _held[0] += size
        return table
