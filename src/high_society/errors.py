"""The library's exceptions: one root, typed subclasses that carry their data.

Every error the library raises on purpose is a :class:`HighSocietyError`. Errors about bad
input are also :class:`ValueError` (an index or seat out of range, :class:`IndexError`), so
code that already catches the built-in error keeps working. The exceptions keep another
interface's conventions: the PettingZoo environment raises ``AssertionError`` where
PettingZoo's own wrappers do, ``high_society.openspiel.game_state`` a ``TypeError`` for a
state of another game, and ``import high_society.batch`` an ``ImportError`` without its extra.
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
    "RecordCode",
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


class RecordCode(enum.StrEnum):
    """Why JSON input (a record, an action, a state) or a record file is refused: a stable,
    machine-readable code.

    Illegal actions in a well-formed record use the engine's :class:`Reason` codes instead.
    The docs page "Recorded games" explains each code with an example.
    """

    #: The file is missing, a directory, not a regular file, or cannot be read; or the path
    #: is not a path (it holds a NUL character, or is not a string).
    UNREADABLE = "UNREADABLE"
    #: The record cannot be written to the path: it is not a regular file (a directory, a
    #: FIFO, a device, a symbolic link), or the system refused (no such directory, no
    #: permission, the disk is full ...). Nothing was changed.
    UNWRITABLE = "UNWRITABLE"
    #: The input is larger than ``MAX_JSON_BYTES``, or holds more than ``MAX_JSON_VALUES``
    #: lists, objects and separators.
    TOO_LARGE = "TOO_LARGE"
    #: The bytes are not UTF-8, or a string holds a lone surrogate escape (``"\\ud800"``).
    NOT_UTF8 = "NOT_UTF8"
    #: The text is empty or not JSON (``NaN`` and ``Infinity`` are not JSON either).
    NOT_JSON = "NOT_JSON"
    #: Lists and objects nest deeper than ``MAX_JSON_DEPTH``.
    TOO_DEEP = "TOO_DEEP"
    #: An integer outside the 64-bit range, or a number too large for a float.
    BAD_NUMBER = "BAD_NUMBER"
    #: An object has the same key twice.
    DUPLICATE_KEY = "DUPLICATE_KEY"
    #: The top level of a record is not an object.
    BAD_TOP_LEVEL = "BAD_TOP_LEVEL"
    #: ``format`` is missing or is not ``"high-society"``.
    BAD_FORMAT = "BAD_FORMAT"
    #: ``version`` is missing or is not the integer ``1``.
    BAD_VERSION = "BAD_VERSION"
    #: ``players`` is not a list of 3 to 5 distinct names (each a string of 1 to
    #: ``MAX_NAME_LENGTH`` characters, not only spaces, without control characters).
    BAD_PLAYERS = "BAD_PLAYERS"
    #: An object has a key its kind does not have.
    UNKNOWN_KEY = "UNKNOWN_KEY"
    #: An object lacks a key its kind needs.
    MISSING_KEY = "MISSING_KEY"
    #: A value of the wrong type (``true`` or ``3.0`` where an integer is expected, a set
    #: where a ``frozenset`` is, something that is not a record at all ...).
    WRONG_TYPE = "WRONG_TYPE"
    #: A status card name that does not exist.
    UNKNOWN_CARD = "UNKNOWN_CARD"
    #: A bot label that names no built-in bot (a table server's request).
    UNKNOWN_BOT = "UNKNOWN_BOT"
    #: The same card twice in a list of money cards.
    DUPLICATE_CARD = "DUPLICATE_CARD"
    #: An action follows the one that ended the game (R9).
    ACTION_AFTER_END = "ACTION_AFTER_END"
    #: A state that no game can reach: a config beyond the bounds of
    #: :class:`~high_society.GameConfig`, a bad phase, a broken invariant.
    BAD_STATE = "BAD_STATE"


class RecordError(HighSocietyError, ValueError):
    """A recorded game, action or state (as JSON) that is malformed or not a legal game, or
    a record file that cannot be read or written.

    Attributes:
        index: the 0-based index of the first offending action, or ``None`` when the problem
            lies outside the actions (not JSON, the top level, the players, the version).
        path: where the problem is, as a JSON path such as ``$.actions[17].cards[0]``.
        code: a stable code: the engine's :class:`Reason` for an illegal action, otherwise a
            :class:`RecordCode`. Both are string enums, equal to their names.
        message: one sentence for people; players are called by their names.

    >>> error = RecordError("BAD_VERSION", "version 2 is not supported", path="$.version")
    >>> str(error)
    'BAD_VERSION at $.version: version 2 is not supported'
    >>> error.code is RecordCode.BAD_VERSION
    True

    Raises:
        ValueError: ``code`` is not the name of a :class:`RecordCode` or :class:`Reason`.
    """

    index: int | None
    path: str
    code: "RecordCode | Reason"
    message: str

    def __init__(
        self,
        code: "RecordCode | Reason | str",
        message: str,
        *,
        path: str = "$",
        index: int | None = None,
    ) -> None:
        self.code = _code(code)
        self.message = message
        self.path = path
        self.index = index
        super().__init__(f"{self.code} at {path}: {message}")

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild_record_error, (str(self.code), self.message, self.path, self.index))


def _code(code: "RecordCode | Reason | str") -> "RecordCode | Reason":
    if isinstance(code, RecordCode | Reason):
        return code
    if code in RecordCode.__members__:
        return RecordCode[code]
    if code in Reason.__members__:
        return Reason[code]
    raise ValueError(f"{code!r} is neither a RecordCode nor a Reason")


def _rebuild_record_error(code: str, message: str, path: str, index: int | None) -> "RecordError":
    return RecordError(code, message, path=path, index=index)
