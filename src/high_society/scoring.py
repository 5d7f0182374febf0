"""Status, cast out and winners (R10-R12), with a breakdown a client can show.

Status is exact (:class:`fractions.Fraction`): Scandale halves it and half points are kept.
It depends only on which cards a player owns, never on the order they were won.
"""

import warnings
from collections.abc import Sequence
from fractions import Fraction

import attrs

from high_society._contracts import (
    best_status_wins,
    holdable,
    money_ties_go_to_top_luxury,
    r11_status,
    status_ties_go_to_money,
    tied_seats_share_the_win,
)
from high_society._text import short_repr
from high_society.cards import LUXURY, StatusCard
from high_society.errors import GameNotOverError, OutOfRangeError
from high_society.state import GameState, PlayerState

__all__ = [
    "GameResult",
    "StatusBreakdown",
    "breakdown",
    "cast_out",
    "format_status",
    "result",
    "status",
    "status_of",
    "winners",
]

PASSE_PENALTY = 5

# Reading a member off its Enum class is slow on 3.11 (EnumType has a __getattr__): once here.
_PRESTIGE = StatusCard.PRESTIGE
_FAUX_PAS = StatusCard.FAUX_PAS
_PASSE = StatusCard.PASSE
_SCANDALE = StatusCard.SCANDALE
# Each luxury value names one card.
_LUXURY_CARD = {card.luxury_value: card for card in LUXURY}


@attrs.frozen
class StatusBreakdown:
    """How one player's status comes about (R11), step by step.

    Attributes:
        luxury_cards: the luxury cards owned, lowest first.
        luxury_sum: their total.
        passe: the player owns Passé (minus 5).
        prestige: how many prestige cards the player owns.
        scandale: the player owns Scandale (halved, last).
        holds_faux_pas: the cards hold a Faux Pas, which no luxury card has left the game
            with yet; it does not count (R8).
        status: the result, exact.

    >>> from high_society.cards import sort_cards
    >>> cards = sort_cards([StatusCard.LUXURY_5, StatusCard.LUXURY_7, StatusCard.PASSE,
    ...     StatusCard.PRESTIGE, StatusCard.PRESTIGE, StatusCard.SCANDALE])
    >>> b = status_of(cards)
    >>> b.status, b.explain()
    (Fraction(14, 1), '5 + 7 = 12, Passé - 5 = 7, 2 prestige x4 = 28, Scandale / 2 = 14')
    >>> three = [StatusCard.LUXURY_3, StatusCard.PASSE, *[StatusCard.PRESTIGE] * 3]
    >>> status_of(sort_cards(three)).explain()  # x8, not x6; Passé first, below zero too
    '3, Passé - 5 = -2, 3 prestige x8 = -16'
    """

    luxury_cards: tuple[StatusCard, ...]
    luxury_sum: int
    passe: bool
    prestige: int
    scandale: bool
    holds_faux_pas: bool
    status: Fraction

    @property
    def faux_pas_pending(self) -> bool:
        """Deprecated: :attr:`holds_faux_pas`, which it returns (the Faux Pas held need not
        wait for a luxury card: its owner may be choosing one to discard)."""
        warnings.warn(
            "StatusBreakdown.faux_pas_pending is deprecated: read holds_faux_pas",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.holds_faux_pas

    @property
    def after_passe(self) -> int:
        """The luxury sum after Passé."""
        return self.luxury_sum - PASSE_PENALTY * self.passe

    @property
    def prestige_factor(self) -> int:
        """x1, x2, x4 or x8: doubled once per prestige card (R11)."""
        return 1 << self.prestige

    def explain(self) -> str:
        """The calculation in one line, as a person would say it."""
        if self.luxury_cards:
            values = [str(c.luxury_value) for c in self.luxury_cards]
            steps = [" + ".join(values) + (f" = {self.luxury_sum}" if len(values) > 1 else "")]
        else:
            steps = ["no luxury = 0"]
        if self.passe:
            steps.append(f"Passé - {PASSE_PENALTY} = {self.after_passe}")
        if self.prestige:
            value = self.after_passe * self.prestige_factor
            steps.append(f"{self.prestige} prestige x{self.prestige_factor} = {value}")
        if self.scandale:
            steps.append(f"Scandale / 2 = {format_status(self.status)}")
        return ", ".join(steps)


def format_status(value: Fraction) -> str:
    """A status for people: ``14``, ``7.5`` or ``-2.5`` (halving once gives at most one
    decimal, so the decimal is exact).

    >>> format_status(Fraction(14)), format_status(Fraction(-5, 2))
    ('14', '-2.5')
    """
    return str(value.numerator) if value.denominator == 1 else str(float(value))


def status_of(cards: Sequence[StatusCard]) -> StatusBreakdown:
    """The status of a player owning ``cards`` (R11): luxury sum, minus 5 with Passé,
    doubled per prestige card, halved with Scandale; exact, possibly negative.

    Contracts, confirmed by enumeration (docs/verification.md):

    pre: holdable(cards)
    post: __return__.status == r11_status(cards)
    post: __return__ == status_of(list(reversed(cards)))
    """
    # Sorted as ints, then read back as the cards they name: no sort key to call per card.
    values = sorted([value for card in cards if (value := card.luxury_value)])
    luxury_sum = sum(values)
    passe = _PASSE in cards
    prestige = cards.count(_PRESTIGE)
    scandale = _SCANDALE in cards
    return StatusBreakdown(
        luxury_cards=tuple(map(_LUXURY_CARD.__getitem__, values)),
        luxury_sum=luxury_sum,
        passe=passe,
        prestige=prestige,
        scandale=scandale,
        holds_faux_pas=_FAUX_PAS in cards,
        status=_status(luxury_sum, passe, prestige, scandale),
    )


def _status(luxury_sum: int, passe: bool, prestige: int, scandale: bool) -> Fraction:
    """R11's arithmetic, from what :func:`status_of` counts: apart so that CrossHair can
    confirm it over all paths (the counting is confirmed by enumeration; docs/verification.md).

    pre: 0 <= prestige <= 3
    post: __return__ == Fraction((luxury_sum - 5 * passe) * pow(2, prestige), pow(2, scandale))
    post: __return__.denominator in (1, 2)
    """
    points = (luxury_sum - PASSE_PENALTY * passe) << prestige
    return Fraction(points, 2) if scandale else Fraction(points)


def breakdown(state: GameState, seat: int) -> StatusBreakdown:
    """The status breakdown of ``seat`` now; mid-game too.

    Raises:
        OutOfRangeError: ``seat`` is not a seat of this game (an :class:`IndexError`).
    """
    return status_of(_player(state, seat).status_cards)


def status(state: GameState, seat: int) -> Fraction:
    """The status of ``seat`` now (R11); mid-game too.

    >>> from high_society import new_game
    >>> status(new_game(3), 0)
    Fraction(0, 1)

    Raises:
        OutOfRangeError: ``seat`` is not a seat of this game (an :class:`IndexError`).
    """
    return breakdown(state, seat).status


def _player(state: GameState, seat: int) -> PlayerState:
    if type(seat) is not int or not 0 <= seat < len(state.players):
        raise OutOfRangeError(
            f"{short_repr(seat)} is not a seat (seats are 0 to {len(state.players) - 1})"
        )
    return state.players[seat]


@attrs.frozen
class GameResult:
    """How a finished game ended.

    Attributes:
        scores: each seat's status, in seat order (exact).
        money: each seat's money left, in seat order.
        cast_out: the seats with the least money, ascending (R10); all seats if all tie.
        winners: the winning seats, ascending (R12); empty when everyone is cast out.
        breakdowns: each seat's :class:`StatusBreakdown`, in seat order.
    """

    scores: tuple[Fraction, ...]
    money: tuple[int, ...]
    cast_out: tuple[int, ...]
    winners: tuple[int, ...]
    breakdowns: tuple[StatusBreakdown, ...]


def result(state: GameState) -> GameResult:
    """The result of a finished game (R10-R12).

    pre: state.is_over and 3 <= len(state.players) <= 5
    pre: all(holdable(p.status_cards) for p in state.players)
    post: __return__.scores == tuple(status_of(p.status_cards).status for p in state.players)
    post: __return__.money == tuple(sum(p.hand) + sum(p.table) for p in state.players)
    post: __return__.cast_out == cast_out(__return__.money)
    post: not set(__return__.winners) & set(__return__.cast_out)

    Raises:
        GameNotOverError: the game is not over yet.
    """
    if not state.is_over:
        raise GameNotOverError("the game is not over: there is no result yet")
    breakdowns = tuple(status_of(p.status_cards) for p in state.players)
    scores = tuple(b.status for b in breakdowns)
    money = tuple(sum(p.hand) + sum(p.table) for p in state.players)
    return GameResult(
        scores=scores,
        money=money,
        cast_out=cast_out(money),
        winners=winners(scores, money, breakdowns),
        breakdowns=breakdowns,
    )


def cast_out(money: Sequence[int]) -> tuple[int, ...]:
    """R10: every seat whose money equals the least; all of them when all are equal.

    >>> cast_out([10, 4, 4]), cast_out([7, 7, 7])
    ((1, 2), (0, 1, 2))

    pre: 1 <= len(money) <= 5
    post: all(money[i] == min(money) for i in __return__)
    post: all(i in __return__ for i in range(len(money)) if money[i] == min(money))
    """
    least = min(money)
    return tuple(i for i, m in enumerate(money) if m == least)


def winners(
    scores: Sequence[Fraction], money: Sequence[int], breakdowns: Sequence[StatusBreakdown]
) -> tuple[int, ...]:
    """R12: among seats not cast out, highest status, then most money, then the single most
    valuable luxury card (none counts as 0); seats still tied share the win.

    pre: 1 <= len(scores) == len(money) == len(breakdowns) <= 5
    pre: all(s.denominator <= 2 for s in scores)
    post: not set(__return__) & set(cast_out(money))
    post: __return__ == () or len(set(cast_out(money))) < len(money)
    post: best_status_wins(scores, cast_out(money), __return__)
    post: status_ties_go_to_money(scores, money, cast_out(money), __return__)
    post: money_ties_go_to_top_luxury(scores, money, breakdowns, cast_out(money), __return__)
    post: tied_seats_share_the_win(scores, money, breakdowns, cast_out(money), __return__)
    """
    out = set(cast_out(money))
    ranked = {
        i: (
            scores[i],
            money[i],
            max((c.luxury_value for c in breakdowns[i].luxury_cards), default=0),
        )
        for i in range(len(scores))
        if i not in out
    }
    if not ranked:
        return ()
    best = max(ranked.values())
    return tuple(i for i, key in ranked.items() if key == best)
