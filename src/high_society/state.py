"""The game state: immutable values, compared and hashed by value.

A state holds which status cards remain in the deck, never their order (R4): the deck is a
multiset, kept as a tuple in canonical order. Build the first state with
:func:`~high_society.new_game`; every later one comes from :func:`~high_society.apply`.
"""

import enum
import functools
import warnings
from operator import attrgetter

import attrs

from high_society._immutable import copy_self, deepcopy_self
from high_society.cards import GameConfig, StatusCard

__all__ = ["GameState", "Phase", "PlayerState"]


class Phase(enum.Enum):
    """What the game is waiting for."""

    #: Chance must reveal the next status card (R4); ``turn`` is the round's starter.
    REVEAL = "reveal"
    #: ``turn`` must bid or pass in the auction of ``auction`` (R5-R7).
    AUCTION = "auction"
    #: ``turn`` must discard one of their luxury cards for Faux Pas (R8).
    DISCARD = "discard"
    #: The game is over (R9): no action is legal.
    OVER = "over"


@attrs.frozen
class PlayerState:
    """One seat's cards.

    Every money card of the seat is in exactly one of ``hand``, ``table`` and ``spent``.

    Attributes:
        hand: money cards in hand.
        table: money cards face up in front of the player this round.
        spent: money cards paid and discarded.
        passed: the player has passed in the current auction.
        status_cards: status cards in front of the player, in canonical order. A Faux Pas
            stays here until a luxury card of the player's leaves the game with it (R8):
            see :attr:`holds_faux_pas` and :attr:`faux_pas_waits_for_luxury`.
    """

    hand: frozenset[int]
    table: frozenset[int] = frozenset()
    spent: frozenset[int] = frozenset()
    passed: bool = False
    status_cards: tuple[StatusCard, ...] = ()

    # Immutable: a copy, deep or not, is the value itself.
    __copy__ = copy_self
    __deepcopy__ = deepcopy_self

    @property
    def money(self) -> int:
        """Money the player still owns: in hand plus face up (face-up cards may come back)."""
        return sum(self.hand) + sum(self.table)

    @property
    def bid(self) -> int:
        """The player's face-up total this round."""
        return sum(self.table)

    @property
    def luxury_cards(self) -> tuple[StatusCard, ...]:
        """The luxury cards the player owns, lowest first."""
        return tuple(c for c in self.status_cards if c.is_luxury)

    @property
    def holds_faux_pas(self) -> bool:
        """The player holds a Faux Pas: no luxury card of theirs has left the game with it
        yet (R8).

        In a reachable state that is one of two cases. The player owns a luxury card: then
        the game is in the ``DISCARD`` phase and the player must choose one to discard now.
        The player owns none: then the Faux Pas waits for the next luxury card they win
        (:attr:`faux_pas_waits_for_luxury`). Held at the end of the game, it has no effect.
        """
        return StatusCard.FAUX_PAS in self.status_cards

    @property
    def faux_pas_waits_for_luxury(self) -> bool:
        """The player holds a Faux Pas and no luxury card: the next luxury card they win
        leaves the game at once, with the Faux Pas (R8)."""
        owned = self.status_cards
        return StatusCard.FAUX_PAS in owned and not any(c.is_luxury for c in owned)

    @property
    def faux_pas_pending(self) -> bool:
        """Deprecated: :attr:`holds_faux_pas`, which it returns.

        The name said the Faux Pas waits for a luxury card, which it does not while the
        player chooses a luxury card to discard (the ``DISCARD`` phase); for that meaning
        read :attr:`faux_pas_waits_for_luxury`.
        """
        warnings.warn(
            "PlayerState.faux_pas_pending is deprecated: read holds_faux_pas (a Faux Pas"
            " held, discard due or not) or faux_pas_waits_for_luxury (held, no luxury card)",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.holds_faux_pas


@attrs.frozen
class GameState:
    """Everything about a game at one moment.

    Attributes:
        config: the game's parameters.
        players: one :class:`PlayerState` per seat, in seat order (R3).
        deck: status cards not yet revealed, in canonical order (a multiset, not a pile).
        phase: what the game waits for.
        turn: the seat to act in an auction or a discard; during a reveal, the seat that
            starts the coming round; after the end, the last round's starter.
        auction: the status card being auctioned, or ``None`` outside an auction.
        removed: status cards out of the game (Faux Pas and the luxury cards it took).
        ending_card: the dark-green card whose reveal ended the game (R9), else ``None``.
        highest_bid: the highest face-up total on the table this round (0 when nobody has
            bid); read-only, worked out from ``players`` on first use.
    """

    config: GameConfig
    players: tuple[PlayerState, ...]
    deck: tuple[StatusCard, ...]
    phase: Phase = Phase.REVEAL
    turn: int = 0
    auction: StatusCard | None = None
    removed: tuple[StatusCard, ...] = ()
    ending_card: StatusCard | None = None

    # Immutable: a copy, deep or not, is the value itself.
    __copy__ = copy_self
    __deepcopy__ = deepcopy_self

    def __str__(self) -> str:
        """One line for people: what the game waits for and how many cards are left.

        >>> from high_society import new_game
        >>> print(new_game(4))
        4 players; reveal due, Seat 0 starts the round; 16 cards in the deck
        """
        phase = self.phase
        if phase is Phase.AUCTION and self.auction is not None:
            what = (
                f"auction of {self.auction.label}, Seat {self.turn} to act, "
                f"highest bid {self.highest_bid}"
            )
        elif phase is Phase.DISCARD:
            what = f"Seat {self.turn} must discard a luxury card for Faux Pas"
        elif phase is Phase.OVER:
            ended = self.ending_card
            what = "game over" + (f", ended by {ended.label}" if ended is not None else "")
        else:
            what = f"reveal due, Seat {self.turn} starts the round"
        left = len(self.deck)
        return f"{len(self.players)} players; {what}; {left} card{'s' * (left != 1)} in the deck"

    @property
    def num_players(self) -> int:
        """How many seats the game has (3 to 5)."""
        return len(self.players)

    @property
    def is_over(self) -> bool:
        """True once the game has ended (R9)."""
        return self.phase is Phase.OVER

    @functools.cached_property
    def highest_bid(self) -> int:
        """The highest face-up total on the table this round (0 when nobody has bid)."""
        # Worked out once per state and kept in a slot of its own (attrs makes a cached
        # property a slot; high_society._fast fills it when a transition knows the value).
        # Not a field: equality, hashing, repr and pickling ignore it.
        return max(map(sum, map(_TABLE, self.players)))

    @property
    def auctions_started(self) -> int:
        """How many status cards have been revealed and auctioned (the ending card aside)."""
        return len(self.config.deck) - len(self.deck) - (self.ending_card is not None)


_TABLE = attrgetter("table")
