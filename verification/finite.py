"""The finite sets the domains enumerate: holdings of status cards, seats, passed flags.

A status card holding is a sub-multiset of the standard deck (R2): any of the ten luxury
cards, up to three prestige cards, any of the three disgrace cards; the preconditions ask
as much of every state (``status_cards_as_dealt``), so these sets are whole.
"""

import itertools
from collections.abc import Iterator

from high_society import GameConfig, StatusCard, sort_cards
from high_society.cards import LUXURY, MAX_PLAYERS, MIN_PLAYERS, STANDARD_DECK

FAUX_PAS = StatusCard.FAUX_PAS
PRESTIGE = StatusCard.PRESTIGE
#: The disgrace cards, in canonical order.
DISGRACE = (StatusCard.FAUX_PAS, StatusCard.PASSE, StatusCard.SCANDALE)
LUXURY_CARDS = sort_cards(LUXURY)
#: Every distinct status card, in canonical order.
CARDS = tuple(dict.fromkeys(STANDARD_DECK))

#: The domains' money: five cards, as many as a seat's places need (each domain input gives
#: each block of its twin its own cards among these).
MONEY = (1, 2, 4, 8, 16)
#: The configuration of the domains' inputs (read only by ``cards_in_place``: the money).
CONFIG = GameConfig(money=MONEY, deck=STANDARD_DECK)


def holdings(prestige: int = 3) -> Iterator[tuple[StatusCard, ...]]:
    """Every sub-multiset of the standard deck, in canonical order: any of the ten luxury
    cards, 0 to ``prestige`` prestige cards, any of Faux Pas, Passé and Scandale (2^10 x 4 x
    2^3 = 32,768 for 3)."""
    for luxury in itertools.product((False, True), repeat=len(LUXURY_CARDS)):
        owned = [card for card, has in zip(LUXURY_CARDS, luxury, strict=True) if has]
        for count in range(prestige + 1):
            for bad in itertools.product((False, True), repeat=len(DISGRACE)):
                cards = owned + [PRESTIGE] * count
                cards += [card for card, has in zip(DISGRACE, bad, strict=True) if has]
                yield sort_cards(cards)


def holdings_without(card: StatusCard) -> Iterator[tuple[StatusCard, ...]]:
    """Every holding a seat may have beside ``card`` elsewhere: without it, and with at
    most two prestige cards if it is one (R2)."""
    if card is PRESTIGE:
        return holdings(2)
    return (h for h in holdings() if card not in h)


def seat_counts() -> Iterator[tuple[int, int]]:
    """Every number of seats and every seat of it: (3, 0) ... (5, 4)."""
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        for seat in range(n):
            yield n, seat


def passed_flags(n: int, seat: int, others_in: int) -> Iterator[tuple[bool, ...]]:
    """Every tuple of passed flags of ``n`` seats where ``seat`` has not passed and at least
    ``others_in`` of the other seats have not either."""
    for flags in itertools.product((False, True), repeat=n):
        if not flags[seat] and flags.count(False) - 1 >= others_in:
            yield flags
