"""Precomputed bid tables: every subset of a hand, sorted by what it adds.

The legal bids of a player are the non-empty subsets of their hand whose total lifts their
face-up cards above the highest bid (R5). Sorted by total, they are a suffix of this table,
found with one bisection, so the cost of listing legal bids does not grow with their number.
A table depends only on the hand, so it is built once per distinct hand and kept.
"""

from array import array
from functools import lru_cache

__all__ = ["BidTable", "bid_table"]


class BidTable:
    """The non-empty subsets of one hand, by total added (ties: cards in ascending order).

    Subsets are stored as bit masks over ``cards`` (the hand, ascending), in compact arrays:
    a hand of eleven cards costs about 16 KiB.
    """

    __slots__ = ("cards", "masks", "totals")

    def __init__(self, hand: frozenset[int]) -> None:
        self.cards: tuple[int, ...] = tuple(sorted(hand))
        cards = self.cards
        subsets = []
        for mask in range(1, 1 << len(cards)):
            chosen = tuple(c for i, c in enumerate(cards) if mask >> i & 1)
            subsets.append((sum(chosen), chosen, mask))
        subsets.sort()
        self.totals = array("q", [total for total, _, _ in subsets])
        self.masks = array("q", [mask for _, _, mask in subsets])

    def cards_at(self, index: int) -> frozenset[int]:
        """The subset at ``index``, as a set of money values."""
        mask = self.masks[index]
        return frozenset([c for i, c in enumerate(self.cards) if mask >> i & 1])


@lru_cache(maxsize=8192)
def bid_table(hand: frozenset[int]) -> BidTable:
    """The (cached) table of ``hand``. 2**11 hands of the standard game fit the cache."""
    return BidTable(hand)
