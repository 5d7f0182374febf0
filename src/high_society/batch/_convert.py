"""One game of a batch to a :class:`~high_society.GameState` and back.

The batch keeps money cards as position masks and status cards as counts; a ``GameState``
keeps frozensets of values and tuples in canonical order. These two functions are the
whole bridge: the differential tests compare the engines through them at every step.
"""

from high_society.batch._tables import CARDS
from high_society.cards import GameConfig, StatusCard, sort_cards
from high_society.state import GameState, Phase, PlayerState

__all__ = ["Row", "row_from_state", "state_from_row"]

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
