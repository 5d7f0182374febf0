"""Money cards, status cards and the game's parameters.

Money cards are plain ``int`` values: within one hand the values are distinct (R1), so a
value names a card. Status cards are the members of :class:`StatusCard`; their values are
the names used in recorded games (``"luxury-7"``, ``"prestige"``, ``"faux-pas"`` ...).
"""

import enum
from collections import Counter
from collections.abc import Iterable

import attrs

from high_society._immutable import copy_self, deepcopy_self
from high_society._text import short_repr
from high_society.errors import InvalidConfigError

__all__ = [
    "DARK_GREEN",
    "DISGRACE",
    "LUXURY",
    "MAX_MONEY_CARDS",
    "MAX_MONEY_VALUE",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "STANDARD",
    "STANDARD_DECK",
    "STANDARD_MONEY",
    "CardKind",
    "GameConfig",
    "StatusCard",
    "check_players",
    "sort_cards",
]

MIN_PLAYERS = 3
MAX_PLAYERS = 5

#: The most money cards a :class:`GameConfig` may give each player (the standard game has
#: 11). A bid is a subset of a hand, so a hand of ``n`` cards has ``2**n - 1`` bids: at 12
#: a bid table holds 4,095 bids (about 80 KiB for values below 63, built in about 25 ms).
MAX_MONEY_CARDS = 12
#: The largest money value a :class:`GameConfig` may hold (the standard game's is 25): a
#: hand is then worth at most 12,000, and the largest bid table (12 cards up to 1,000) takes
#: about 0.8 MiB, built in about 45 ms.
MAX_MONEY_VALUE = 1000


def check_players(players: object) -> int:
    """``players`` itself, if it is a player count the game allows: an int from
    :data:`MIN_PLAYERS` to :data:`MAX_PLAYERS` (R3).

    >>> check_players(4)
    4

    Raises:
        InvalidConfigError: ``players`` is not an int from 3 to 5.
    """
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidConfigError(
            f"High Society is for {MIN_PLAYERS} to {MAX_PLAYERS} players, "
            f"not {short_repr(players)} (R3)"
        )
    return players


#: R1: every player's eleven money cards, 106 in all.
STANDARD_MONEY: tuple[int, ...] = (1, 2, 3, 4, 6, 8, 10, 12, 15, 20, 25)


class CardKind(enum.Enum):
    """What kind of status card a card is; it decides how its auction runs."""

    LUXURY = "luxury"
    PRESTIGE = "prestige"
    DISGRACE = "disgrace"


class StatusCard(enum.Enum):
    """One status card. The value is the card's name in recorded games.

    >>> StatusCard("luxury-7").luxury_value
    7
    >>> StatusCard.SCANDALE.is_dark_green, StatusCard.SCANDALE.is_disgrace
    (True, True)
    """

    LUXURY_1 = "luxury-1"
    LUXURY_2 = "luxury-2"
    LUXURY_3 = "luxury-3"
    LUXURY_4 = "luxury-4"
    LUXURY_5 = "luxury-5"
    LUXURY_6 = "luxury-6"
    LUXURY_7 = "luxury-7"
    LUXURY_8 = "luxury-8"
    LUXURY_9 = "luxury-9"
    LUXURY_10 = "luxury-10"
    PRESTIGE = "prestige"
    FAUX_PAS = "faux-pas"
    PASSE = "passe"
    SCANDALE = "scandale"

    def __init__(self, value: str) -> None:
        # The luxury value is kept on the member itself: reading an attribute is several
        # times cheaper than a dict keyed by members, which hashes the member through
        # Enum.__hash__ (Python code). Scoring reads it for every card.
        number = value.removeprefix("luxury-")
        self._luxury_value = int(number) if number != value else 0

    @property
    def kind(self) -> CardKind:
        """Luxury, prestige or disgrace (Scandale is a disgrace card)."""
        return _KIND[self]

    @property
    def luxury_value(self) -> int:
        """The face value of a luxury card (1 to 10); 0 for any other card."""
        return self._luxury_value

    @property
    def is_luxury(self) -> bool:
        """True for the ten luxury cards."""
        return self._luxury_value > 0

    @property
    def is_disgrace(self) -> bool:
        """True for Faux Pas, Passé and Scandale: their auctions end at the first pass (R7)."""
        return self in DISGRACE

    @property
    def is_dark_green(self) -> bool:
        """True for the prestige cards and Scandale, which count towards the end (R2, R9)."""
        return self in DARK_GREEN

    @property
    def label(self) -> str:
        """A short name for people: ``"Luxury 7"``, ``"Prestige"``, ``"Faux Pas"`` ..."""
        return _LABEL[self]

    @classmethod
    def luxury(cls, value: int) -> "StatusCard":
        """The luxury card worth ``value`` (1 to 10).

        >>> StatusCard.luxury(10)
        <StatusCard.LUXURY_10: 'luxury-10'>

        Raises:
            ValueError: ``value`` is not a luxury value.
        """
        return cls(f"luxury-{value}")


LUXURY: frozenset[StatusCard] = frozenset(c for c in StatusCard if c.is_luxury)
DISGRACE: frozenset[StatusCard] = frozenset(
    {StatusCard.FAUX_PAS, StatusCard.PASSE, StatusCard.SCANDALE}
)
#: R2: the three prestige cards and Scandale.
DARK_GREEN: frozenset[StatusCard] = frozenset({StatusCard.PRESTIGE, StatusCard.SCANDALE})

_KIND = {
    c: CardKind.LUXURY if c in LUXURY else CardKind.DISGRACE if c in DISGRACE else CardKind.PRESTIGE
    for c in StatusCard
}
_LABEL = {
    **{c: f"Luxury {c.luxury_value}" for c in LUXURY},
    StatusCard.PRESTIGE: "Prestige",
    StatusCard.FAUX_PAS: "Faux Pas",
    StatusCard.PASSE: "Passé",
    StatusCard.SCANDALE: "Scandale",
}
_ORDER = {c: i for i, c in enumerate(StatusCard)}


def sort_cards(cards: Iterable[StatusCard]) -> tuple[StatusCard, ...]:
    """The cards in canonical order (luxury 1 to 10, prestige, Faux Pas, Passé, Scandale).

    A multiset of cards has exactly one canonical tuple, so states that hold the same cards
    compare and hash equal whatever order the cards arrived in.
    """
    return tuple(sorted(cards, key=_ORDER.__getitem__))


#: R2: luxury 1 to 10, three prestige cards, Faux Pas, Passé and Scandale.
STANDARD_DECK: tuple[StatusCard, ...] = sort_cards(
    [*LUXURY, StatusCard.PRESTIGE, StatusCard.PRESTIGE, StatusCard.PRESTIGE, *DISGRACE]
)


def _check_money(money: tuple[int, ...]) -> None:
    if type(money) is not tuple or not money:
        raise InvalidConfigError("money must be a non-empty tuple of card values")
    if len(money) > MAX_MONEY_CARDS:
        raise InvalidConfigError(
            f"{len(money):,} money cards: a game has at most {MAX_MONEY_CARDS} (MAX_MONEY_CARDS)"
        )
    for value in money:
        if type(value) is not int or not 0 < value <= MAX_MONEY_VALUE:
            raise InvalidConfigError(
                f"money card {short_repr(value)} is not an int from 1 to {MAX_MONEY_VALUE}"
                " (MAX_MONEY_VALUE)"
            )
    if len(set(money)) != len(money):
        raise InvalidConfigError(f"money values must be distinct (R1), got {money}")
    if list(money) != sorted(money):
        raise InvalidConfigError(f"money values must be in ascending order, got {money}")


def _check_deck(deck: tuple[StatusCard, ...]) -> None:
    if type(deck) is not tuple or not all(isinstance(c, StatusCard) for c in deck):
        raise InvalidConfigError("deck must be a tuple of StatusCard")
    if len(deck) > len(STANDARD_DECK):
        raise InvalidConfigError(
            f"a deck of {len(deck):,} cards: at most {len(STANDARD_DECK)}, the standard deck (R2)"
        )
    if deck != sort_cards(deck):
        raise InvalidConfigError("deck must be in canonical order: build it with sort_cards()")
    counts = Counter(deck)
    repeated = sorted(c.value for c, n in counts.items() if n > 1 and c is not StatusCard.PRESTIGE)
    if repeated:
        raise InvalidConfigError(f"only prestige cards may repeat in a deck, not {repeated}")
    if counts[StatusCard.PRESTIGE] > 3:
        raise InvalidConfigError("a deck holds at most three prestige cards (R2)")
    if not any(c.is_dark_green for c in deck):
        raise InvalidConfigError("the deck needs a dark-green card, or the game could not end")


@attrs.frozen(cache_hash=True, repr=False)
class GameConfig:
    """The game's parameters, with the standard game (R1, R2) as the default.

    Reduced configurations (fewer money cards, a shorter deck) keep every rule and make the
    game small enough to explore exhaustively. The game ends when the deck's last dark-green
    card is revealed (R9): in the standard deck that is the fourth.

    >>> GameConfig().total_money
    106
    >>> small = GameConfig(money=(1, 2, 4), deck=sort_cards([StatusCard.LUXURY_3,
    ...     StatusCard.PRESTIGE, StatusCard.PASSE, StatusCard.SCANDALE]))
    >>> small.total_money
    7

    Raises:
        InvalidConfigError: ``money`` is not a tuple of 1 to
            :data:`~high_society.cards.MAX_MONEY_CARDS` distinct ints from 1 to
            :data:`~high_society.cards.MAX_MONEY_VALUE` in ascending order, the deck is not
            a tuple of status cards in canonical order, a card other than prestige repeats,
            prestige more than three times (R2), or the deck holds no dark-green card.
    """

    money: tuple[int, ...] = STANDARD_MONEY
    deck: tuple[StatusCard, ...] = STANDARD_DECK

    # Immutable: a copy, deep or not, is the value itself.
    __copy__ = copy_self
    __deepcopy__ = deepcopy_self

    def __attrs_post_init__(self) -> None:
        _check_money(self.money)
        _check_deck(self.deck)

    def __repr__(self) -> str:
        # Only what differs from the standard game, so that ``help(new_game)``, a state's
        # repr and error messages stay short: ``GameConfig()`` is the standard game.
        changed = [
            f"{a.name}={getattr(self, a.name)!r}"
            for a in attrs.fields(GameConfig)
            if getattr(self, a.name) != a.default
        ]
        return f"GameConfig({', '.join(changed)})"

    @property
    def total_money(self) -> int:
        """What one player's money cards add up to (106 in the standard game)."""
        return sum(self.money)


#: The standard game: R1 money and the R2 deck.
STANDARD = GameConfig()
