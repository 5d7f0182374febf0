"""Turn clocks: how long a seat may take to act, and what happens when it takes longer.

Nothing in the rulebook speaks of time: a clock is a table's policy, not a rule of the
game, and it never changes what the rules allow. A table is given its time control as data
(:class:`TimeControl`) and the time with each action (``now``, seconds since the epoch, as
the host's clock says it: a table never reads a clock itself), and knows from them the
deadline of the seat to act. When that passes, the table plays the seat's default action
for it (a *time-out*, :func:`default_action`); after ``takeover`` time-outs in a row the
seat is *away*: each of its turns then waits ``away_seconds`` only, and is played by a bot
the host names (``bot``), until its person acts again in time.

The defaults, and why:

- **an ordinary auction: pass.** Passing never spends money, so a seat that is away is
  never cast out for it (R10); it only gives up the card (R6).
- **a disgrace auction: pass.** The same reason: the seat takes the disgrace card (R7),
  which costs status, not money; bidding to avoid it would spend money the person may
  have meant to keep, and the seat with the least money is cast out (R10).
- **a Faux Pas discard (R8): the lowest luxury card,** the smallest loss of status (R11
  sums the luxury cards before it takes 5 off, doubles or halves, so a smaller card
  lowers the status less), and it keeps the most valuable luxury card for a tie (R12).

When a time-out happens (:meth:`Table.time_out <high_society.table.Table.time_out>`): only
when the host asks, at the deadline or after it (``now >= deadline``), never before; and
once a turn: the default action ends that turn, and the next turn's deadline is counted
from the time-out's ``now``. A time-out empties the seat's bank, which is then given its
increment (without one, an empty bank times the seat's next turn out at once). The table
never refuses a move for being late: a move the host plays after the deadline, before it
has asked for the time-out, is the seat's own (its person is back), its bank emptied and
given its increment; a host that holds a deadline to be final asks for the time-out first.
An action played with no time (``now`` of ``None``) leaves the clocks as they are.
"""

import math
from collections.abc import Sequence

import attrs

from high_society._json import JSONObject
from high_society._text import short_repr
from high_society.actions import Action, Discard, Pass
from high_society.errors import InvalidConfigError
from high_society.rules import LegalActions
from high_society.state import GameState

__all__ = ["Clocks", "SeatClock", "TimeControl", "default_action"]

#: The longest time a clock counts: a year (correspondence games last days, not years).
MAX_SECONDS = 366 * 86_400.0


def _seconds(name: str, value: object, *, zero: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InvalidConfigError(f"{name} must be a number of seconds, not {short_repr(value)}")
    if not (value >= 0 if zero else value > 0) or value > MAX_SECONDS:
        least = "0" if zero else "more than 0"
        raise InvalidConfigError(f"{name} must be {least} to {MAX_SECONDS:g} seconds, not {value}")
    return float(value)


def check_time(now: object, *, optional: bool = True) -> None:
    """Check that ``now`` is a time: a finite number of seconds since the epoch (or ``None``,
    no time, when ``optional``). A time that is not a number, or not finite, would set a
    deadline no time ever reaches or every time does, and could not be kept in JSON.

    Raises:
        InvalidConfigError: ``now`` is not such a time.
    """
    if now is None and optional:
        return
    if isinstance(now, bool) or not isinstance(now, int | float) or not math.isfinite(now):
        raise InvalidConfigError(f"now must be a finite number of seconds, not {short_repr(now)}")


@attrs.frozen
class TimeControl:
    """How long each seat may take to act, as data.

    Attributes:
        move: seconds for each of a seat's turns (correspondence play: days, in seconds;
            :meth:`correspondence`), or ``None``.
        bank: seconds a seat has for the whole game, ``increment`` added after each of its
            actions (a Fischer clock), or ``None``. Neither ``move`` nor ``bank``: no clock.
        increment: seconds added to a seat's bank after each of its actions, and to its
            emptied bank after each of its time-outs.
        takeover: time-outs in a row after which the seat is away (a bot plays it): 2
            unless given, 1 to 100. The seat's own action (its person is back) starts the
            count again.
        away_seconds: how long an away seat's turn waits for its person before the bot
            plays it (5 unless given; whatever ``move`` or the bank allows).
        bot: the bot that plays an away seat (a label the host knows; ``"heuristic"``
            unless given).

    >>> TimeControl.bank_of(300, increment=5).allowance(bank=12.5)
    12.5
    >>> TimeControl.correspondence(days=2).move
    172800.0

    Raises:
        InvalidConfigError: a time that is not a positive number of seconds up to a year,
            both ``move`` and ``bank``, a ``takeover`` that is not 1 to 100, or an empty
            ``bot``.
    """

    move: float | None = None
    bank: float | None = None
    increment: float = 0.0
    takeover: int = 2
    away_seconds: float = 5.0
    bot: str = "heuristic"

    def __attrs_post_init__(self) -> None:
        if self.move is not None:
            _seconds("move", self.move)
        if self.bank is not None:
            _seconds("bank", self.bank)
        if self.move is not None and self.bank is not None:
            raise InvalidConfigError("a time control has a time per move or a bank, not both")
        _seconds("increment", self.increment, zero=True)
        _seconds("away_seconds", self.away_seconds)
        if type(self.takeover) is not int or not 1 <= self.takeover <= 100:
            raise InvalidConfigError(f"takeover must be 1 to 100, not {short_repr(self.takeover)}")
        if type(self.bot) is not str or not self.bot:
            raise InvalidConfigError(f"bot must be a bot's label, not {short_repr(self.bot)}")

    @classmethod
    def per_move(cls, seconds: float) -> "TimeControl":
        """``seconds`` for each turn."""
        return cls(move=seconds)

    @classmethod
    def bank_of(cls, seconds: float, increment: float = 0.0) -> "TimeControl":
        """A bank of ``seconds`` for the game, ``increment`` added after each action."""
        return cls(bank=seconds, increment=increment)

    @classmethod
    def correspondence(cls, days: float) -> "TimeControl":
        """``days`` for each turn: play by correspondence."""
        return cls(move=days * 86_400.0)

    @property
    def timed(self) -> bool:
        """Whether there is a clock at all."""
        return self.move is not None or self.bank is not None

    def allowance(self, bank: float | None) -> float | None:
        """The seconds a turn may last, with ``bank`` seconds left in the seat's bank."""
        return self.move if self.move is not None else bank

    def to_json(self) -> JSONObject:
        """The time control as a JSON object (the wire's ``TimeControl``)."""
        return attrs.asdict(self)


#: No clock.
UNTIMED = TimeControl()


@attrs.frozen
class SeatClock:
    """One seat's clock: the seconds left in its bank (``None`` without a bank), its
    time-outs in a row, and whether it is away (a bot plays its turns)."""

    bank: float | None = None
    time_outs: int = 0
    away: bool = False

    def to_json(self) -> JSONObject:
        """The seat's clock as a JSON object (the wire's ``SeatClock``)."""
        return attrs.asdict(self)


@attrs.frozen
class Clocks:
    """A table's clocks: its time control, each seat's clock, when the turn now under way
    began (``since``: ``None`` until a time is given), and the numbers of the actions
    that time-outs played."""

    control: TimeControl
    seats: tuple[SeatClock, ...]
    since: float | None = None
    timed_out: tuple[int, ...] = ()

    @classmethod
    def start(cls, control: TimeControl, players: int) -> "Clocks":
        """The clocks of a new table of ``players`` seats."""
        return cls(control, tuple(SeatClock(bank=control.bank) for _ in range(players)))

    def deadline(self, seat: int) -> float | None:
        """When the turn of ``seat`` (the seat to act) times out, or ``None`` (no clock, or
        no time given yet)."""
        if not self.control.timed or self.since is None:
            return None
        clock = self.seats[seat]
        if clock.away:
            return self.since + self.control.away_seconds
        allowance = self.control.allowance(clock.bank)
        return None if allowance is None else self.since + allowance

    def acted(self, seat: int | None, now: float | None) -> "Clocks":
        """The clocks after ``seat`` (``None``: chance) acted at ``now``: its bank charged
        for the turn (down to 0 at most) and given its increment, its time-outs forgotten
        (its person is back); the next turn begins at ``now``. With ``now`` of ``None``
        (no time given), the clocks as they are."""
        if now is None:
            return self
        seats = self.seats
        if seat is not None and self.control.timed:
            clock = seats[seat]
            bank = clock.bank
            if bank is not None and self.since is not None:
                bank = max(0.0, bank - max(0.0, now - self.since)) + self.control.increment
            seats = _replaced(seats, seat, SeatClock(bank, 0, False))
        return attrs.evolve(self, seats=seats, since=now)

    def timed_out_at(self, seat: int, number: int, now: float) -> "Clocks":
        """The clocks after action ``number``, played for ``seat`` by its time-out at
        ``now``: its bank emptied (then given its increment), one time-out more, away once
        they reach ``takeover``; the next turn begins at ``now``."""
        clock = self.seats[seat]
        bank = None if clock.bank is None else self.control.increment
        time_outs = clock.time_outs + 1
        away = time_outs >= self.control.takeover
        return Clocks(
            self.control,
            _replaced(self.seats, seat, SeatClock(bank, time_outs, away)),
            now,
            (*self.timed_out, number),
        )

    def to_json(self) -> JSONObject:
        """What a snapshot keeps of the clocks."""
        return {
            "control": self.control.to_json(),
            "seats": [clock.to_json() for clock in self.seats],
            "since": self.since,
            "timed_out": list(self.timed_out),
        }


def _replaced(seats: Sequence[SeatClock], seat: int, clock: SeatClock) -> tuple[SeatClock, ...]:
    return (*seats[:seat], clock, *seats[seat + 1 :])


def default_action(state: GameState) -> Action:
    """What a time-out plays for the seat to act: a pass in an auction, ordinary or
    disgrace (it never spends money, and the seat with the least money is cast out, R10;
    in a disgrace auction the seat takes the card, R7, which costs status, not money), and
    the lowest luxury card for a Faux Pas discard (R8: the smallest loss of status, R11,
    and the most valuable card kept for a tie, R12).

    Raises:
        NoSeatToActError: no seat must act.
    """
    legal = LegalActions(state)
    passing = Pass(state.turn)
    if passing in legal:
        return passing
    discards = [action for action in legal if isinstance(action, Discard)]
    return min(discards, key=lambda action: action.card.luxury_value)
