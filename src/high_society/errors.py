"""The library's exceptions: one root, typed subclasses that carry their data.

Every error the library raises on purpose is a :class:`HighSocietyError`. Errors about bad
input are also :class:`ValueError` (an index or seat out of range, :class:`IndexError`), so
code that already catches the built-in error keeps working.
"""

import enum
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from high_society.state import GameState

__all__ = [
    "EncodingError",
    "GameNotOverError",
    "HighSocietyError",
    "IllegalActionError",
    "InvalidConfigError",
    "InvalidSeatError",
    "NoRevealDueError",
    "NoSeatToActError",
    "OutOfRangeError",
    "Reason",
    "RecordError",
]


class HighSocietyError(Exception):
    """The root of every exception this library raises on purpose."""


class InvalidConfigError(HighSocietyError, ValueError):
    """Game parameters that do not describe a playable game (see :class:`GameConfig`)."""


class GameNotOverError(HighSocietyError, ValueError):
    """A question that only a finished game can answer was asked of an unfinished one."""


class NoRevealDueError(HighSocietyError, ValueError):
    """A card was to be drawn for a reveal while no reveal is due."""


class NoSeatToActError(HighSocietyError, ValueError):
    """A player program (a bot) was asked to act in a state where no seat must act."""


class OutOfRangeError(HighSocietyError, IndexError):
    """A seat that is not a seat of the game, or an index past the end of a sequence."""


class EncodingError(HighSocietyError, ValueError):
    """An action, id or buffer that the integer encoding cannot take (see
    :mod:`high_society.encoding`)."""


class InvalidSeatError(OutOfRangeError):
    """A seat number that is not a seat of the game (asked for a view or an observation)."""


class Reason(enum.StrEnum):
    """Why an action is illegal: a stable, machine-readable code.

    An action with several faults reports the first that applies in the order listed
    here: first what the action itself is (its type, seat and cards), then whether anyone
    may act, then whose turn it is, then what the action asks for.
    """

    #: The object is not a :class:`Reveal`, :class:`Bid`, :class:`Pass` or :class:`Discard`.
    NOT_AN_ACTION = "NOT_AN_ACTION"
    #: The seat is not an ``int`` (``True`` is refused) or is not a seat at this table.
    INVALID_SEAT = "INVALID_SEAT"
    #: A card of the wrong type, a money value this game does not have, or bid cards that
    #: are not a ``frozenset``.
    INVALID_CARD = "INVALID_CARD"
    #: A bid that adds no card.
    EMPTY_BID = "EMPTY_BID"
    #: The game is over: no action is legal (R9).
    GAME_OVER = "GAME_OVER"
    #: A player acted while a status card must be revealed (R4).
    REVEAL_DUE = "REVEAL_DUE"
    #: A card was revealed while a player must act (R4).
    REVEAL_NOT_DUE = "REVEAL_NOT_DUE"
    #: The revealed card is not among the cards left in the deck.
    CARD_NOT_IN_DECK = "CARD_NOT_IN_DECK"
    #: A discard was offered when no Faux Pas discard is due (R8).
    NO_DISCARD_DUE = "NO_DISCARD_DUE"
    #: The player passed earlier in this auction and is out of it (R6).
    ALREADY_PASSED = "ALREADY_PASSED"
    #: Another seat must act now.
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    #: The player must discard a luxury card for Faux Pas before anything else (R8).
    DISCARD_DUE = "DISCARD_DUE"
    #: The discarded card is not a luxury card that this player owns (R8).
    NOT_A_LUXURY_YOU_OWN = "NOT_A_LUXURY_YOU_OWN"
    #: A bid card is already face up in front of the bidder this round: bids only add (R5).
    CARD_ALREADY_BID = "CARD_ALREADY_BID"
    #: A bid card is not in the bidder's hand (spent earlier) (R5).
    CARD_NOT_IN_HAND = "CARD_NOT_IN_HAND"
    #: The bidder's new face-up total does not beat the highest total on the table (R5).
    BID_TOO_LOW = "BID_TOO_LOW"


class IllegalActionError(HighSocietyError, ValueError):
    """An action that is not legal in the state it was applied to.

    Attributes:
        reason: the stable code saying why.
        state: the state the action was applied to (unchanged).
        action: the action as given (it may not even be an action).
        seats: the seats the message speaks of, in order.
        message: one sentence for people, calling seats ``Seat 0``, ``Seat 1`` ...; see
            :meth:`message_with_names` for the players' own names.

    >>> from high_society import new_game, apply, Pass
    >>> try:
    ...     apply(new_game(3), Pass(0))
    ... except IllegalActionError as error:
    ...     print(error.reason, "/", error.message_with_names(["Ada", "Ben", "Cy"]))
    REVEAL_DUE / Ada cannot pass: a status card must be revealed first
    """

    reason: Reason
    state: "GameState"
    action: object
    seats: tuple[int, ...]
    message: str

    def __init__(
        self,
        reason: Reason,
        state: "GameState",
        action: object,
        template: str,
        seats: tuple[int, ...] = (),
    ) -> None:
        self.reason = reason
        self.state = state
        self.action = action
        self.seats = seats
        self._template = template
        self.message = template.format(*(f"Seat {seat}" for seat in seats))
        super().__init__(self.message)

    def message_with_names(self, names: "Sequence[str]") -> str:
        """The message with each seat called by its player's name (``names[seat]``)."""
        return self._template.format(*(names[seat] for seat in self.seats))

    def __reduce__(self) -> tuple[object, ...]:
        return (
            type(self),
            (self.reason, self.state, self.action, self._template, self.seats),
        )


class RecordError(HighSocietyError, ValueError):
    """A recorded game, action or state (as JSON) that is malformed or not a legal game.

    Attributes:
        index: the 0-based index of the first offending action, or ``None`` when the problem
            lies outside the actions (not JSON, the top level, the players, the version).
        path: where the problem is, as a JSON path such as ``$.actions[17].cards[0]``.
        code: a stable code: the engine's :class:`Reason` for an illegal action, otherwise one
            of the record codes listed in the docs (``NOT_JSON``, ``UNKNOWN_KEY`` ...).
        message: one sentence for people; players are called by their names.

    >>> error = RecordError("BAD_VERSION", "version 2 is not supported", path="$.version")
    >>> str(error)
    'BAD_VERSION at $.version: version 2 is not supported'
    """

    index: int | None
    path: str
    code: str
    message: str

    def __init__(
        self, code: str, message: str, *, path: str = "$", index: int | None = None
    ) -> None:
        self.code = str(code)
        self.message = message
        self.path = path
        self.index = index
        super().__init__(f"{self.code} at {path}: {message}")

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild_record_error, (self.code, self.message, self.path, self.index))


def _rebuild_record_error(code: str, message: str, path: str, index: int | None) -> "RecordError":
    return RecordError(code, message, path=path, index=index)
