"""What a state says about the seats' money, for the search (internal): each seat's spent
money as a bit mask (its *pool*, given out to its payments at the end), the cards it never
spent (it held them at the time of every round), and the totals each pool can pay."""

import attrs

from high_society._reachability import _tables as tables


@attrs.frozen
class Spent:
    """The seats' money, fixed for one search.

    Attributes:
        money: the configuration's money, ascending (bit ``k`` of a mask is ``money[k]``).
        sums: the total of every mask.
        pools: each seat's spent money.
        hands: each seat's cards never spent.
        totals: each pool's total.
        paid_totals: each pool's payment totals (any non-empty part of it), ascending.
        lost_by: the seat taken to have taken the Faux Pas that is out of the game, if any.
    """

    money: tuple[int, ...]
    sums: tuple[int, ...]
    pools: tuple[int, ...]
    hands: tuple[int, ...]
    totals: tuple[int, ...]
    paid_totals: tuple[tuple[int, ...], ...]
    lost_by: int | None
    #: How many seats.
    n: int

    @classmethod
    def of(
        cls, money: tuple[int, ...], spent: tuple[frozenset[int], ...], lost_by: int | None
    ) -> "Spent":
        position = {v: i for i, v in enumerate(money)}
        pools = tuple(sum(1 << position[c] for c in cards) for cards in spent)
        full = (1 << len(money)) - 1
        sums = tables.subset_sums(money)
        return cls(
            money=money,
            sums=sums,
            pools=pools,
            hands=tuple(full & ~pool for pool in pools),
            totals=tuple(sums[pool] for pool in pools),
            paid_totals=tuple(
                tables.ladder(money, pool, False, len(money), False) for pool in pools
            ),
            lost_by=lost_by,
            n=len(pools),
        )

    def lowest(self, mask: int) -> int:
        """The value of the lowest card of the non-empty ``mask``."""
        return self.money[(mask & -mask).bit_length() - 1]
