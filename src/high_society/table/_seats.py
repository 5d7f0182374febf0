"""Who sits at a table: a person or a bot at each seat, by name; and where they sit at a
rematch."""

from collections.abc import Sequence

import attrs

from high_society._fields import read_list, read_object
from high_society._records import check_players
from high_society._text import is_unsafe_char, short_repr
from high_society.cards import MAX_PLAYERS
from high_society.cards import check_players as check_player_count
from high_society.errors import InvalidConfigError, InvalidSeatError, RecordCode, RecordError

__all__ = [
    "MAX_BOT_LENGTH",
    "Seat",
    "check_seat",
    "check_seats",
    "read_seats",
    "rematch_seat",
    "rematch_seats",
]

#: The longest bot label, in characters.
MAX_BOT_LENGTH = 64


@attrs.frozen
class Seat:
    """Who sits at one seat: a person or a bot, by name.

    Attributes:
        name: the player's name, as a recorded game holds it (1 to 64 characters, no
            control characters; the names of a table are distinct).
        bot: for a bot, a label saying which (``"heuristic"``, ``"search"`` ...); ``None``
            for a person. The table stores the label; the host decides what it means. The
            payloads' schema (:data:`high_society.wire.SEAT_PAYLOAD`) names the built-in
            bots' labels (:data:`high_society.tournament.BUILT_IN`), which a generated
            client types as such: a host with bots of its own sends other labels, outside
            that schema.
    """

    name: str
    bot: str | None = None

    @property
    def is_bot(self) -> bool:
        """True when a bot plays this seat."""
        return self.bot is not None


def check_seats(seats: Sequence[Seat | str]) -> tuple[Seat, ...]:
    """``seats`` as seats (a plain string is a person's name), when a table can have them.

    Raises:
        InvalidConfigError: not 3 to 5 seats, names a recorded game cannot hold, or a bot
            label that is not a string of 1 to 64 characters without control characters.
    """
    if isinstance(seats, str | bytes) or not isinstance(seats, Sequence):
        raise InvalidConfigError(f"seats must be a sequence of seats, not {short_repr(seats)}")
    made = tuple(seat if isinstance(seat, Seat) else Seat(seat) for seat in seats)
    for seat in made:
        problem = None if seat.bot is None else _bot_label_problem(seat.bot)
        if problem is not None:
            raise InvalidConfigError(f"{problem}, not {short_repr(seat.bot)}")
    try:
        check_players([seat.name for seat in made])  # the names' rules are the record's
    except RecordError as error:
        raise InvalidConfigError(f"bad seats: {error.message}") from None
    return made


def _bot_label_problem(bot: object) -> str | None:
    """Why ``bot`` cannot be a bot label, or ``None``."""
    if type(bot) is not str or not 1 <= len(bot) <= MAX_BOT_LENGTH:
        return f"a bot label must be a string of 1 to {MAX_BOT_LENGTH} characters"
    if any(is_unsafe_char(char) for char in bot):
        return "a bot label must hold no control character"
    return None


def read_seats(value: object) -> tuple[Seat, ...]:
    """The seats of a table's snapshot (parsed JSON).

    Raises:
        RecordError: ``WRONG_TYPE``, ``MISSING_KEY``, ``UNKNOWN_KEY`` or ``BAD_PLAYERS``, at
            ``$.seats``.
    """
    items = read_list(value, "$.seats", None, "seats")
    if len(items) > MAX_PLAYERS:
        raise RecordError(
            RecordCode.BAD_PLAYERS, f"{len(items):,} seats: at most {MAX_PLAYERS}", path="$.seats"
        )
    seats: list[tuple[object, str | None]] = []
    for i, item in enumerate(items):
        obj = read_object(item, f"$.seats[{i}]", None, ("name", "bot"), what="a seat")
        bot = obj["bot"]
        problem = None if bot is None else _bot_label_problem(bot)
        if problem is not None:
            raise RecordError(
                RecordCode.WRONG_TYPE, f"{problem}, or null", path=f"$.seats[{i}].bot"
            )
        seats.append((obj["name"], None if bot is None else str(bot)))
    # The names' rules are the record's, with its messages.
    names = check_players([name for name, _ in seats], "$.seats")
    return tuple(Seat(name, bot) for name, (_, bot) in zip(names, seats, strict=True))


def rematch_seat(seat: int, players: int) -> int:
    """Where the player of ``seat`` sits at the rematch of a table of ``players``: one seat
    on, so that the player who sat second sits first and starts (R3: the first seat
    starts the first round), and every player starts a game in turn.

    >>> [rematch_seat(seat, 3) for seat in range(3)]
    [2, 0, 1]

    Raises:
        InvalidConfigError: ``players`` is not 3 to 5.
        InvalidSeatError: ``seat`` is not a seat of a table of ``players``.
    """
    check_player_count(players)
    return (check_seat(seat, players) - 1) % players


def check_seat(seat: object, players: int) -> int:
    """``seat`` itself, if it is a seat of a table of ``players``: an int from 0 to
    ``players - 1``.

    Raises:
        InvalidSeatError: it is not.
    """
    if type(seat) is not int or not 0 <= seat < players:
        raise InvalidSeatError(f"{short_repr(seat)} is not a seat (seats are 0 to {players - 1})")
    return seat


def rematch_seats(seats: Sequence[Seat]) -> tuple[Seat, ...]:
    """The seats of a rematch: the same people and bots (their names kept), each where
    :func:`rematch_seat` places them.

    >>> [seat.name for seat in rematch_seats([Seat("Ada"), Seat("Ben"), Seat("Cy")])]
    ['Ben', 'Cy', 'Ada']
    """
    placed = {rematch_seat(old, len(seats)): seat for old, seat in enumerate(seats)}
    return tuple(placed[new] for new in range(len(seats)))
