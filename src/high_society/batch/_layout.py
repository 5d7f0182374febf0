"""How the batch engine lays a game out in arrays: one config's constants for the kernels,
and one game as plain values, to a :class:`~high_society.GameState` and back.

A config's constants are built once and kept: the subset sums of the money cards, the deck
as counts, and the bid tables (every hand's non-empty subsets sorted by total, as
``high_society._bidtable`` keeps them for the reducer) that make legal-action masks and
uniform sampling cost the number of legal actions rather than the number of action ids.

A game keeps money cards as position masks and status cards as counts; a ``GameState``
keeps frozensets of values and tuples in canonical order. :func:`row_from_state` and
:func:`state_from_row` are the whole bridge: the differential tests compare the engines
through them at every step.
"""

import functools

import attrs
import numpy as np

from high_society.batch import _kernels
from high_society.cards import GameConfig, StatusCard, sort_cards
from high_society.errors import InvalidConfigError
from high_society.state import GameState, Phase, PlayerState

__all__ = ["MAX_MONEY_CARDS", "Row", "Tables", "row_from_state", "state_from_row", "tables"]

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


# --- One game as plain values ---------------------------------------------------------

PHASES = tuple(Phase)
CARD_INDEX = {card: i for i, card in enumerate(CARDS)}

#: One game's arrays as plain values: ``(hand, table, passed, owned)`` per seat, then
#: ``deck``, ``removed`` (counts per card index), ``phase``, ``turn``, ``auction``,
#: ``ending`` (card index or -1), the same fields the kernels read.
Row = tuple[
    tuple[tuple[int, int, bool, tuple[int, ...]], ...],
    tuple[int, ...],
    tuple[int, ...],
    int,
    int,
    int,
    int,
]


def _values(config: GameConfig, mask: int) -> frozenset[int]:
    return frozenset(v for i, v in enumerate(config.money) if mask >> i & 1)


def _mask(config: GameConfig, values: frozenset[int]) -> int:
    return sum(1 << i for i, v in enumerate(config.money) if v in values)


def _cards(counts: tuple[int, ...]) -> tuple[StatusCard, ...]:
    return sort_cards(card for card, n in zip(CARDS, counts, strict=True) for _ in range(n))


def _counts(cards: tuple[StatusCard, ...]) -> tuple[int, ...]:
    counts = [0] * len(CARDS)
    for card in cards:
        counts[CARD_INDEX[card]] += 1
    return tuple(counts)


def state_from_row(config: GameConfig, row: Row) -> GameState:
    """The ``GameState`` that ``row`` describes."""
    seats, deck, removed, phase, turn, auction, ending = row
    full = frozenset(config.money)
    players = []
    for hand_mask, table_mask, passed, owned in seats:
        hand = _values(config, hand_mask)
        table = _values(config, table_mask)
        players.append(
            PlayerState(
                hand=hand,
                table=table,
                spent=full - hand - table,
                passed=passed,
                status_cards=_cards(owned),
            )
        )
    return GameState(
        config=config,
        players=tuple(players),
        deck=_cards(deck),
        phase=PHASES[phase],
        turn=turn,
        auction=CARDS[auction] if auction >= 0 else None,
        removed=_cards(removed),
        ending_card=CARDS[ending] if ending >= 0 else None,
    )


def row_from_state(state: GameState) -> Row:
    """The row that describes ``state`` (the inverse of :func:`state_from_row`)."""
    config = state.config
    seats = tuple(
        (_mask(config, p.hand), _mask(config, p.table), p.passed, _counts(p.status_cards))
        for p in state.players
    )
    return (
        seats,
        _counts(state.deck),
        _counts(state.removed),
        PHASES.index(state.phase),
        state.turn,
        CARD_INDEX[state.auction] if state.auction is not None else -1,
        CARD_INDEX[state.ending_card] if state.ending_card is not None else -1,
    )
