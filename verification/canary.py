"""Canaries: deliberately broken copies of checked functions, with the same contracts.

CrossHair must refute each of them; ``crosshair_check.py`` fails the build when it does
not, because a CrossHair that silently checks nothing (see docs/verification.md) would
also "confirm" every real contract. Never import these from the library.
"""

from collections.abc import Sequence

import attrs

from high_society import GameState, Phase, PlayerState  # noqa: F401 (Phase: contracts)
from high_society.cards import MAX_PLAYERS, MIN_PLAYERS  # noqa: F401 (used by contracts)


def broken_cast_out(money: Sequence[int]) -> tuple[int, ...]:
    """``cast_out`` that casts out only the first of several poorest seats (breaks R10).

    pre: 1 <= len(money) <= 5
    post: all(money[i] == min(money) for i in __return__)
    post: all(i in __return__ for i in range(len(money)) if money[i] == min(money))
    """
    least = min(money)
    return (money.index(least),)


def broken_bid(state: GameState, seat: int, cards: frozenset[int]) -> GameState:
    """``_bid`` whose bidder keeps the bid cards in hand as well (breaks R5 and
    conservation). It checks that CrossHair can build game states at all.

    pre: MIN_PLAYERS <= len(state.players) <= MAX_PLAYERS
    pre: state.phase is Phase.AUCTION and 0 <= seat < len(state.players) and seat == state.turn
    pre: not state.players[seat].passed
    pre: cards and cards <= state.players[seat].hand
    pre: state.players[seat].hand.isdisjoint(state.players[seat].table)
    pre: sum(state.players[seat].table) + sum(cards) > state.highest_bid
    post: __return__.players[seat].hand.isdisjoint(__return__.players[seat].table)
    """
    p = state.players[seat]
    bidder = PlayerState(p.hand, p.table | cards, p.spent, False, p.status_cards)
    players = (*state.players[:seat], bidder, *state.players[seat + 1 :])
    return attrs.evolve(state, players=players, turn=(seat + 1) % len(players))
