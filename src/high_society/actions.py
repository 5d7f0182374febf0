"""The four actions. ``Action`` is their union; match on the class to tell them apart.

Actions are plain values: building one checks nothing, so that a client can build any
action it likes and ask :func:`~high_society.is_legal` or :func:`~high_society.why_illegal`
about it. :func:`~high_society.apply` refuses anything that is not legal with an
:class:`~high_society.IllegalActionError`.
"""

from typing import assert_never

import attrs

from high_society._immutable import copy_self, deepcopy_self
from high_society.cards import StatusCard

__all__ = ["Action", "Bid", "Discard", "Pass", "Reveal", "describe_action", "seat_name"]


@attrs.frozen
class Reveal:
    """Chance turns ``card`` face up from the deck (R4). It has no player.

    >>> Reveal(StatusCard.PRESTIGE)
    Reveal(card=<StatusCard.PRESTIGE: 'prestige'>)
    """

    card: StatusCard

    __copy__ = copy_self
    __deepcopy__ = deepcopy_self


@attrs.frozen
class Bid:
    """``seat`` adds ``cards`` (money values from their hand) to their face-up cards (R5).

    ``cards`` are the cards added this turn, not the new total: a player who has 3 face up
    and raises to 7 plays ``Bid(seat, frozenset({4}))``.

    >>> Bid(0, frozenset({1, 3})).total
    4
    """

    seat: int
    cards: frozenset[int]

    __copy__ = copy_self
    __deepcopy__ = deepcopy_self

    @property
    def total(self) -> int:
        """What the added cards are worth together."""
        return sum(self.cards)


@attrs.frozen
class Pass:
    """``seat`` passes: takes their face-up cards back (R6) or, in a disgrace auction,
    takes the disgrace card and ends the round (R7)."""

    seat: int

    __copy__ = copy_self
    __deepcopy__ = deepcopy_self


@attrs.frozen
class Discard:
    """``seat`` discards ``card``, one of their own luxury cards, for Faux Pas (R8)."""

    seat: int
    card: StatusCard

    __copy__ = copy_self
    __deepcopy__ = deepcopy_self


Action = Reveal | Bid | Pass | Discard
"""Any action. Tell them apart with ``match``::

    match action:
        case Reveal(card): ...
        case Bid(seat, cards): ...
        case Pass(seat): ...
        case Discard(seat, card): ...
        case _: assert_never(action)
"""

ACTION_TYPES = (Reveal, Bid, Pass, Discard)


def describe_action(action: Action, names: tuple[str, ...] | None = None) -> str:
    """A short sentence for people: ``"Seat 1 bids 3 + 4"``, ``"Reveal Prestige"`` ...

    >>> describe_action(Bid(1, frozenset({4, 3})), ("Ada", "Ben", "Cy"))
    'Ben bids 3 + 4'

    Raises:
        TypeError: ``action`` is not an action.
    """
    if not isinstance(action, ACTION_TYPES):
        raise TypeError(f"not an action: {type(action).__name__}")
    match action:
        case Reveal(card):
            return f"Reveal {card.label}"
        case Bid(seat, cards):
            return f"{seat_name(seat, names)} bids {' + '.join(map(str, sorted(cards)))}"
        case Pass(seat):
            return f"{seat_name(seat, names)} passes"
        case Discard(seat, card):
            return f"{seat_name(seat, names)} discards {card.label}"
        case _:
            assert_never(action)


def seat_name(seat: int, names: tuple[str, ...] | None = None) -> str:
    """``names[seat]``, or ``"Seat N"`` without names."""
    return names[seat] if names is not None else f"Seat {seat}"
