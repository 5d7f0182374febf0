"""The rules' constants for one :class:`~high_society.GameConfig`, as arrays for the kernels.

Built once per config and kept: the subset sums of the money cards, the deck as counts,
and the bid tables (every hand's non-empty subsets sorted by total, as ``bidtable.py``
keeps them for the reducer) that make legal-action masks and uniform sampling cost the
number of legal actions rather than the number of action ids.
"""

import functools

import attrs
import numpy as np

from high_society.batch import _kernels
from high_society.cards import GameConfig, StatusCard
from high_society.errors import InvalidConfigError

__all__ = ["MAX_MONEY_CARDS", "Tables", "tables"]

#: The bid tables hold 3**m entries: 177,147 for the standard eleven money cards, 531,441
#: for twelve; more would cost memory out of proportion to any real use.
MAX_MONEY_CARDS = 12

CARDS = tuple(StatusCard)


@attrs.frozen(eq=False)
class Tables:
    """A config and the constants its kernels read (never written after they are built).

    Attributes:
        config: the game's parameters.
        num_actions: ``2**m + 10`` (COMMON action ids).
        rules: the arrays and numbers the kernels read (see ``_kernels.Rules``).
    """

    config: GameConfig
    num_actions: int
    rules: _kernels.Rules


@functools.lru_cache(maxsize=8)
def tables(config: GameConfig) -> Tables:
    """The (cached) tables of ``config``.

    Raises:
        InvalidConfigError: the config has more than :data:`MAX_MONEY_CARDS` money cards.
    """
    m = len(config.money)
    if m > MAX_MONEY_CARDS:
        raise InvalidConfigError(
            f"the batch engine plays configs of at most {MAX_MONEY_CARDS} money cards, not {m}"
        )
    num_bids = 1 << m
    ids = np.arange(num_bids, dtype=np.int64)
    sums = np.zeros(num_bids, dtype=np.int64)
    for i, value in enumerate(config.money):
        sums += ((ids >> i) & 1) * value
    # A hand of k cards has 2**k - 1 non-empty subsets.
    sizes = np.array([(1 << int(h).bit_count()) - 1 for h in range(num_bids)], dtype=np.int64)
    offsets = np.zeros(num_bids + 1, dtype=np.int64)
    np.cumsum(sizes, out=offsets[1:])
    rules = _kernels.Rules(
        num_bids=num_bids,
        full_hand=num_bids - 1,
        sums=sums,
        deck0=np.array([config.deck.count(card) for card in CARDS], dtype=np.int8),
        offsets=offsets,
        bid_totals=np.empty(int(offsets[-1]), dtype=np.int64),
        bid_ids=np.empty(int(offsets[-1]), dtype=np.int64),
    )
    _kernels.bid_tables(rules)
    return Tables(config=config, num_actions=num_bids + _kernels.LUXURY_CARDS, rules=rules)
