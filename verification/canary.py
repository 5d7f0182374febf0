"""Canaries: deliberately broken copies of checked functions, with the same contracts.

CrossHair must refute each of them; ``crosshair_check.py`` fails the build when it does
not, because a CrossHair that silently checks nothing (see docs/verification.md) would
also "confirm" every real contract. Never import these from the library.
"""

from collections.abc import Sequence

import attrs

from high_society import GameState, PlayerState
from high_society._contracts import bid_is_legal, hand_and_table_apart


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

    pre: bid_is_legal(state, seat, cards)
    post: hand_and_table_apart(seat, __return__)
    """
    p = state.players[seat]
    bidder = PlayerState(p.hand, p.table | cards, p.spent, False, p.status_cards)
    players = (*state.players[:seat], bidder, *state.players[seat + 1 :])
    return attrs.evolve(state, players=players, turn=(seat + 1) % len(players))
