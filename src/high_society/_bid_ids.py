"""Precomputed action ids of bids, per hand: what :mod:`high_society.encoding` reads.

The id of a bid is the bitmask of the positions, in ``config.money``, of the cards it adds.
For one hand this module keeps the ids of every non-empty subset in ascending order, with
the total each adds as a one-byte *level* (its rank among the hand's distinct totals), and
the same levels laid out by id over the whole action space. Which bids are legal is not
decided here: the reducer's :func:`~high_society.legal_actions` gives the cheapest legal
total, and since R5 depends on a bid's total alone, the legal bids are the subsets whose
total reaches it. Selecting them is then one ``bytes.translate`` through a threshold table
and one ``itertools.compress``, both in C: no ``Bid`` is built.
"""

from bisect import bisect_left
from itertools import compress

__all__ = ["CHUNK", "MAX_LEVELS", "THRESHOLD", "HandIds", "MoneyIds", "money_ids"]

#: Entries per run of ids (see ``HandIds.chunks``): the subsets of the six lowest cards.
CHUNK = 64

#: Levels 1..MAX_LEVELS rank a hand's distinct totals; 0 marks "not a bid of this hand" and
#: 255 is kept for Pass, which is legal whenever a bid could be.
MAX_LEVELS = 254
_PASS_LEVEL = 255

#: ``THRESHOLD[r]`` translates a level byte to 1 when the level is above ``r``, else to 0.
THRESHOLD: tuple[bytes, ...] = tuple(
    bytes(1 if level > r else 0 for level in range(256)) for r in range(256)
)


class HandIds:
    """The bids of one hand as action ids.

    Attributes:
        ids: the ids of every non-empty subset of the hand, ascending.
        every: Pass (id 0) and then ``ids``: the legal ids when every bid is legal.
        totals: the distinct totals those subsets add, ascending.
        levels: one byte per entry of ``ids``: 1 + the index of its total in ``totals``;
            ``None`` when the hand has more than :data:`MAX_LEVELS` distinct totals (then
            ``sums`` serves instead).
        sums: the total each entry of ``ids`` adds.
        by_id: the levels laid out over the whole action space (Pass at 255, every id that
            is not a bid of this hand at 0), for masks; ``None`` with ``levels``.
        chunks: ``ids`` cut into runs of :data:`CHUNK` entries, each as ``(start, end,
            lowest level, highest level)``. A run shares its high cards and differs only in
            its low ones, so its levels span a narrow range: for most thresholds a run is
            wholly legal or wholly not, and only the few in between are looked at id by id.
    """

    __slots__ = ("by_id", "chunks", "every", "ids", "levels", "sums", "totals")

    def __init__(self, money: tuple[int, ...], hand: frozenset[int], size: int) -> None:
        ids = [0]
        sums = [0]
        # Doubling over positions in ascending order keeps the ids ascending: each new half
        # has a higher bit set than everything before it.
        for position, value in enumerate(money):
            if value in hand:
                bit = 1 << position
                ids += [i | bit for i in ids]
                sums += [s + value for s in sums]
        del ids[0], sums[0]  # the empty subset is not a bid
        self.ids: tuple[int, ...] = tuple(ids)
        self.every: tuple[int, ...] = (0, *ids)
        self.sums: tuple[int, ...] = tuple(sums)
        self.totals: tuple[int, ...] = tuple(sorted(set(sums)))
        self.chunks: tuple[tuple[int, int, int, int], ...] = ()
        if len(self.totals) > MAX_LEVELS:
            self.levels: bytes | None = None
            self.by_id: bytes | None = None
            return
        rank = {total: level for level, total in enumerate(self.totals, 1)}
        self.levels = levels = bytes(rank[s] for s in sums)
        self.chunks = tuple(
            (start, min(start + CHUNK, len(ids)), min(part), max(part))
            for start in range(0, len(ids), CHUNK)
            for part in [levels[start : start + CHUNK]]
        )
        by_id = bytearray(size)
        by_id[0] = _PASS_LEVEL
        for i, level in zip(ids, self.levels, strict=True):
            by_id[i] = level
        self.by_id = bytes(by_id)

    def select(self, r: int) -> tuple[int, ...]:
        """Pass (id 0) and the ids whose level is above ``r``, ascending.

        Raises:
            AssertionError: the hand has no levels (see ``levels``).
        """
        levels = self.levels
        assert levels is not None
        ids = self.ids
        table = THRESHOLD[r]
        chosen = [0]
        for start, end, low, high in self.chunks:
            if low > r:
                chosen += ids[start:end]
            elif high > r:
                chosen += compress(ids[start:end], levels[start:end].translate(table))
        return tuple(chosen)

    def cut(self, cheapest: int | None) -> int:
        """The threshold index for the least total a legal bid adds (any int, not only a
        total of this hand): bids whose level is above it are legal; ``len(totals)``
        (nothing legal) when no total reaches it or ``cheapest`` is ``None``."""
        if cheapest is None:
            return len(self.totals)
        return bisect_left(self.totals, cheapest)


class MoneyIds:
    """The bid ids of every hand of one set of money values, built when first asked for."""

    __slots__ = ("hands", "money", "size")

    def __init__(self, money: tuple[int, ...]) -> None:
        self.money = money
        #: Ids 0 .. 2**m - 1: Pass and the bids (discards lie above, never in a hand table).
        self.size = 1 << len(money)
        self.hands: dict[frozenset[int], HandIds] = {}

    def hand(self, hand: frozenset[int]) -> HandIds:
        """The (cached) table of ``hand``."""
        try:
            return self.hands[hand]
        except KeyError:
            if len(self.hands) >= _HANDS_LIMIT:
                self.hands.clear()
            table = self.hands[hand] = HandIds(self.money, hand, self.size)
            return table


#: Every hand of the standard game (2**11) fits.
_HANDS_LIMIT = 4096
_BY_MONEY: dict[tuple[int, ...], MoneyIds] = {}
_MONEY_LIMIT = 16


def money_ids(money: tuple[int, ...]) -> MoneyIds:
    """The (cached) tables for the money values ``money``."""
    try:
        return _BY_MONEY[money]
    except KeyError:
        if len(_BY_MONEY) >= _MONEY_LIMIT:
            _BY_MONEY.clear()
        tables = _BY_MONEY[money] = MoneyIds(money)
        return tables
