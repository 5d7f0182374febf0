"""The table: one game at a server, its seats, its secret shuffle and its history, the
moves it takes from clients and the actions it plays itself (the reveals and the bots'
turns, through the library's one game loop), and its snapshot."""

import enum
import json
import random
import secrets
from collections.abc import Iterator, Mapping, Sequence
from typing import Self

import attrs

from high_society._clock import Clocks, TimeControl, check_time, default_action
from high_society._fields import read_list, read_object, read_status_card
from high_society._json import JSON, JSONObject, check_text_limits, copy_json, kind, parse_json
from high_society._text import short_repr
from high_society.actions import Action, Reveal
from high_society.bots import AnyBot, Seen, decide
from high_society.cards import STANDARD, StatusCard
from high_society.errors import (
    HighSocietyError,
    IllegalActionError,
    InvalidConfigError,
    NoRevealDueError,
    OutOfRangeError,
    RecordCode,
    RecordError,
)
from high_society.observation import view, view_to_json
from high_society.record import GameRecord
from high_society.rules import CHANCE, to_act
from high_society.serial import action_from_json, action_to_json
from high_society.state import GameState, Phase
from high_society.table._game import DealtGame
from high_society.table._payloads import (
    Dumps,
    Public,
    built_payload,
    public_view,
    sent,
    sent_text,
)
from high_society.table._seats import Seat, check_seat, check_seats, read_seats
from high_society.wire import CLOCK, MOVE, Move, RefusalKind

__all__ = [
    "FORMAT",
    "MAX_META_BYTES",
    "MAX_MOVE_BYTES",
    "VERSION",
    "Accepted",
    "Refusal",
    "Table",
    "TableCode",
    "Waiting",
    "read_move",
]

#: The value of a snapshot's ``format`` key.
FORMAT = "high-society-table"
#: The snapshot version this library writes (it reads version 1 too: a table with no clock).
VERSION = 2
#: The largest move :meth:`Table.submit` reads, in bytes of UTF-8 (4 KiB: a bid of every
#: card takes about 80).
MAX_MOVE_BYTES = 4096
#: The most a table's ``meta`` may hold, in bytes of JSON: its snapshot and its record stay
#: within what their readers take.
MAX_META_BYTES = 64 * 1024

_C = RecordCode


class Waiting(enum.StrEnum):
    """Who a table waits for (:attr:`Table.waiting_for`): what a host needs to know to let
    the right party act."""

    #: A person must act (their seat has no bot).
    PERSON = "person"
    #: A bot's seat must act: the host asks it (:meth:`Table.autoplay`).
    BOT = "bot"
    #: A card is to be revealed: the table deals (:meth:`Table.deal`).
    CHANCE = "chance"
    #: The game is over.
    NOBODY = "none"


class TableCode(enum.StrEnum):
    """The codes of the refusals that only a table makes (the others carry a
    :class:`~high_society.RecordCode` or a :class:`~high_society.Reason`)."""

    #: See :attr:`~high_society.wire.RefusalKind.NOT_ALLOWED`.
    CLIENT_MAY_NOT_REVEAL = "CLIENT_MAY_NOT_REVEAL"
    #: See :attr:`~high_society.wire.RefusalKind.NOT_YOUR_SEAT`.
    NOT_YOUR_SEAT = "NOT_YOUR_SEAT"
    #: See :attr:`~high_society.wire.RefusalKind.WRONG_NUMBER`.
    WRONG_NUMBER = "WRONG_NUMBER"


@attrs.frozen
class Accepted:
    """A move :meth:`Table.submit` took.

    Attributes:
        action: the action.
        number: its place in the table's history (0 for the first action).
        duplicate: the same action had already been played with this number (a retry):
            it was not applied a second time.
    """

    action: Action
    number: int
    duplicate: bool = False

    def to_json(self) -> JSONObject:
        """``{"action": ..., "number": ..., "duplicate": ...}``."""
        return {
            "action": action_to_json(self.action),
            "number": self.number,
            "duplicate": self.duplicate,
        }


@attrs.frozen
class Refusal:
    """A move :meth:`Table.submit` refused; the table is unchanged.

    Attributes:
        kind: what kind of refusal.
        code: a stable code: a :class:`TableCode`, a :class:`~high_society.RecordCode`
            (malformed) or the engine's :class:`~high_society.Reason` (illegal).
        message: one sentence for people, the players called by their names.
        path: where in the move the problem is, as a JSON path (``$.action.cards[1]``).
        error: the library error behind the refusal, when there is one.
    """

    kind: RefusalKind
    code: str
    message: str
    path: str = "$"
    error: HighSocietyError | None = attrs.field(default=None, eq=False, repr=False)

    def to_json(self) -> JSONObject:
        """``{"kind": ..., "code": ..., "message": ..., "path": ...}``."""
        return {
            "kind": self.kind.value,
            "code": self.code,
            "message": self.message,
            "path": self.path,
        }


class _Seated:
    """What a table is: its seats, its game (with the secret deck order), its ``meta``, and
    who it waits for (the base of :class:`Table`)."""

    def _start(
        self, seats: tuple[Seat, ...], game: DealtGame, meta: JSONObject, clocks: Clocks
    ) -> None:
        self._seats = seats
        self._game = game
        self._meta = meta
        self._clocks = clocks
        self._names = tuple(seat.name for seat in seats)
        self._public: Public | None = None  # the public part as of the last payload built

    # --- What the table is ------------------------------------------------------------------

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The seats, in seat order."""
        return self._seats

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names, in seat order."""
        return self._names

    @property
    def state(self) -> GameState:
        """The state now (it holds every hand: not for a seat's eyes; see :meth:`payload`)."""
        return self._game.state

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action so far, reveals included, oldest first."""
        return tuple(self._game.history)

    @property
    def number(self) -> int:
        """How many actions have been played: the number the next action will have."""
        return len(self._game.history)

    @property
    def is_over(self) -> bool:
        """True once the game has ended (R9)."""
        return self._game.state.phase is Phase.OVER

    @property
    def meta(self) -> JSONObject:
        """Free-form data stored with the table (a copy); it goes into the record too."""
        copied = copy_json(self._meta, "$.meta")
        assert isinstance(copied, dict)
        return copied

    @property
    def waiting_for(self) -> Waiting:
        """Who must act now: a person, a bot, chance (the table deals) or nobody (over)."""
        actor = to_act(self._game.state)
        if actor is None or actor is CHANCE:
            return Waiting.NOBODY if actor is None else Waiting.CHANCE
        assert isinstance(actor, int)
        return Waiting.BOT if self._seats[actor].is_bot else Waiting.PERSON

    @property
    def clocks(self) -> Clocks:
        """The table's clocks (:class:`~high_society.table.Clocks`): its time control, each
        seat's clock, when the turn under way began, the actions time-outs played."""
        return self._clocks

    @property
    def deadline(self) -> float | None:
        """When the turn of the seat to act times out (seconds since the epoch), or
        ``None``: no clock, no seat to act, or no time given yet."""
        actor = to_act(self._game.state)
        return self._clocks.deadline(actor) if isinstance(actor, int) else None

    def record(self) -> GameRecord:
        """The game so far as a recorded game (format v1; the deck's order is not in it).
        A table with a clock adds to its ``meta`` the time control (``time_control``) and
        the numbers of the actions its time-outs played (``time_outs``)."""
        meta = self._meta
        if self._clocks.control.timed:
            decided: JSONObject = {"time_control": self._clocks.control.to_json()}
            meta = {**meta, **decided, "time_outs": [*self._clocks.timed_out]}
        return GameRecord(self._names, self._game.history, meta)

    def copy(self) -> Self:
        """An independent table at the same point of the same game."""
        twin = type(self).__new__(type(self))
        twin._start(self._seats, self._game.copy(), self._meta, self._clocks)
        twin._public = self._public  # immutable; the history's prefix it was made from
        return twin


class _Playing(_Seated):
    """How a table is played: the actions a host trusts, and those the table plays itself
    (the reveals, the bots' turns, the time-outs)."""

    def next_reveal(self) -> Reveal:
        """The reveal due now, from the secret order (not played; :meth:`reveal` plays it).

        Raises:
            NoRevealDueError: no reveal is due.
        """
        return self._game.next_reveal()

    def reveal(self, now: float | None = None) -> Reveal:
        """Turn the next card of the secret order face up (at ``now``); return that action.

        Raises:
            NoRevealDueError: no reveal is due.
            InvalidConfigError: ``now`` is neither ``None`` nor a finite number.
        """
        check_time(now)
        action = self._game.next_reveal()
        self.play(action, now)
        return action

    def play(self, action: Action, now: float | None = None) -> None:
        """Play an action the host trusts (a bot's, or one read back from storage), at
        ``now`` (seconds since the epoch: the clocks charge the seat and start the next
        turn then; ``None``: the clocks are left as they are). A reveal must be the one
        the secret order has next.

        Raises:
            IllegalActionError: the action is not legal now.
            NoRevealDueError: a reveal that is not the next card of the order (or none due).
            InvalidConfigError: ``now`` is neither ``None`` nor a finite number (nothing
                is played).
        """
        check_time(now)
        self._game.play(action)
        self._clocks = self._clocks.acted(getattr(action, "seat", None), now)

    def bot_action(self, bot: AnyBot) -> Action:
        """What ``bot`` plays for the seat that must act (not played): a
        :class:`~high_society.bots.SeatBot` is told only that seat's view and the public
        history (:func:`~high_society.bots.decide`).

        Raises:
            NoSeatToActError: no seat must act now.
            InvalidConfigError: ``bot`` has neither ``choose`` nor ``choose_seen``.
        """
        return decide(bot, self._game.state, self._game.history)

    def autoplay(self, bots: Mapping[int, AnyBot], now: float | None = None) -> Iterator[Action]:
        """Play the reveals and the bots' turns one at a time, through the library's one
        game loop (:func:`~high_society.host.turns`), yielding each action once it is
        played, until a person must act or the game is over. Lazy: nothing is played
        before it is asked for, so a server can commit each action before the next (the
        table server does). ``bots`` maps each bot seat to its bot; their ``start`` and
        ``end`` hooks are the caller's to call. ``now``: the time of each action (as
        :meth:`play`'s).

        Raises:
            InvalidConfigError: a bot seat has no bot in ``bots``, or ``now`` is neither
                ``None`` nor a finite number (raised by the call).
            IllegalActionError: a bot chose an illegal action (it is not played).
        """
        check_time(now)
        missing = [i for i, seat in enumerate(self._seats) if seat.is_bot and i not in bots]
        if missing:
            raise InvalidConfigError(f"seat {missing[0]} is a bot's, but no bot was given for it")
        chosen = [bots.get(i) if seat.is_bot else None for i, seat in enumerate(self._seats)]
        return self._clocked(self._game.turns(chosen), now)

    def _clocked(self, actions: Iterator[Action], now: float | None) -> Iterator[Action]:
        for action in actions:
            self._clocks = self._clocks.acted(getattr(action, "seat", None), now)
            yield action

    def advance(self, bots: Mapping[int, AnyBot], now: float | None = None) -> list[Action]:
        """Play the reveals and the bots' turns until a person must act or the game is
        over (all of :meth:`autoplay`); return the actions played.

        Raises:
            InvalidConfigError: a bot seat has no bot in ``bots``, or ``now`` is neither
                ``None`` nor a finite number.
            IllegalActionError: a bot chose an illegal action (it is not played).
        """
        return list(self.autoplay(bots, now))

    def deal(self, now: float | None = None) -> list[Action]:
        """Play the reveals due now (none while a seat must act), at ``now``, through the
        library's one game loop with no bot at any seat; return them. What a host calls
        after a person's move: an auction that move ended is followed by the next card.

        Raises:
            InvalidConfigError: ``now`` is neither ``None`` nor a finite number.
        """
        check_time(now)
        return list(self._clocked(self._game.turns([None] * len(self._seats)), now))

    def time_out(self, now: float, bots: Mapping[int, AnyBot] | None = None) -> Action | None:
        """If the turn of the seat to act has timed out at ``now``: play its default
        action for it (:func:`~high_society.table.default_action`), or, when the seat is
        away, the choice of its bot in ``bots`` (the time control's ``bot``, which the
        host makes); return the action played. ``None``: no time-out is due (no clock, no
        time given yet, no seat to act, or ``now`` before the deadline). A time-out ends
        the turn, so a second call at the same ``now`` plays nothing more, unless the next
        turn's deadline has passed too (an empty bank without an increment).

        Raises:
            IllegalActionError: the bot chose an illegal action (it is not played).
            InvalidConfigError: ``now`` is not a finite number.
        """
        check_time(now, optional=False)
        deadline = self.deadline
        if deadline is None or now < deadline:
            return None
        seat = self._game.state.turn
        bot = (bots or {}).get(seat)
        if self._clocks.seats[seat].away and bot is not None:
            action = decide(bot, self._game.state, self._game.history)
        else:
            action = default_action(self._game.state)
        number = self.number
        self._game.play(action)
        self._clocks = self._clocks.timed_out_at(seat, number, now)
        return action


class _Telling(_Playing):
    """What a table tells: each seat's payload and the spectators'."""

    def payload(self, seat: int, since: int = 0) -> JSONObject:
        """What ``seat`` is sent (see :func:`seat_payload`): built from that seat's view and
        the public history only. ``since`` (0 to :attr:`number`) is the first action of
        the history included.

        Raises:
            InvalidSeatError: ``seat`` is not a seat of this table.
            OutOfRangeError: ``since`` is not 0 to :attr:`number`.
        """
        seat_view = view(self._game.state, seat)
        public = self._public_part(since)
        seen = Seen(seat_view, public.history)
        return built_payload(seen, self._seats, since, public, self._clock_json())

    def payload_json(self, seat: int, since: int = 0, *, dumps: Dumps | None = None) -> bytes:
        """:meth:`payload` as compact JSON text in UTF-8, ready to send: the same bytes as
        :func:`~high_society.table.dumps_json` of it (``json.dumps`` with no spaces and
        characters beyond ASCII as they are), made in about half the time: the text of a
        hand's legal bids, most of a payload, is kept. ``dumps`` tells the rest
        (default ``dumps_json``): a server may pass a faster encoder that gives the same
        text for what it sends (orjson's ``dumps`` does).

        >>> from high_society.table import dumps_json
        >>> table = Table(["Ada", "Ben", "Cy"], seed=1)
        >>> _ = table.reveal()
        >>> table.payload_json(0) == dumps_json(table.payload(0))
        True

        Raises:
            InvalidSeatError: ``seat`` is not a seat of this table.
            OutOfRangeError: ``since`` is not 0 to :attr:`number`.
        """
        seat_view = view(self._game.state, seat)
        public = self._public_part(since)
        shown = view_to_json(seat_view)
        return sent_text(shown, seat, self._seats, since, public, self._clock_json(), dumps)

    def spectator_payload(self, since: int = 0) -> JSONObject:
        """What a spectator is sent (see :func:`spectator_payload`): what every seat sees
        alike and the public history, no hand. ``since`` (0 to :attr:`number`) is the
        first action of the history included.

        Raises:
            OutOfRangeError: ``since`` is not 0 to :attr:`number`.
        """
        public = self._public_part(since)
        return sent(public_view(public.state), None, self._seats, since, public, self._clock_json())

    def _clock_json(self) -> "JSONObject | None":
        """What a payload says of the clocks: ``None`` without a clock."""
        if not self._clocks.control.timed:
            return None
        return {**self._clocks.to_json(), "deadline": self.deadline}

    def _public_part(self, since: int) -> Public:
        """The public part of every payload now (R14: the same for all), worked out once per
        action whichever seats ask."""
        number = self.number
        if type(since) is not int or not 0 <= since <= number:
            raise OutOfRangeError(f"since must be 0 to {number}, not {short_repr(since)}")
        self._public = Public.now(self._public, self._game.history, self._names, self._game.steps)
        return self._public


class Table(_Telling):
    """One game at a server: the state, the secret deck order, the history and the seats.

    ``seats`` are 3 to 5 :class:`Seat` s (a plain string is a person's name). The deck is
    shuffled at once: by ``secrets.SystemRandom`` when ``seed`` is ``None``, else by
    ``random.Random(seed)`` (the same seed, the same order). The game is the standard one.
    A table is not safe to share between threads; :meth:`copy` makes an independent one.

    Raises:
        InvalidConfigError: not 3 to 5 seats, names that a recorded game cannot hold (empty,
            over 64 characters, control characters, the same name twice), a bot label that
            is not a string of 1 to 64 characters without control characters, or ``meta``
            that is not a JSON object a record's reader takes in at most
            :data:`MAX_META_BYTES` of JSON (so that the table's snapshot and record read
            back).
    """

    def __init__(
        self,
        seats: Sequence[Seat | str],
        *,
        seed: int | None = None,
        meta: Mapping[str, JSON] | None = None,
        time_control: TimeControl | None = None,
    ) -> None:
        rng = secrets.SystemRandom() if seed is None else random.Random(seed)
        order = list(STANDARD.deck)
        rng.shuffle(order)
        checked = check_seats(seats)
        clocks = Clocks.start(time_control or TimeControl(), len(checked))
        self._start(checked, DealtGame(len(checked), tuple(order)), _meta(meta), clocks)

    # --- The moves it takes ----------------------------------------------------------------

    def submit(self, seat: int, move: object, now: float | None = None) -> Accepted | Refusal:
        """Take a move from ``seat`` (untrusted bytes, text or parsed JSON, or a
        :class:`Move` already read by :func:`read_move`) and play it, or say why not. A
        move is ``{"action": ACTION}`` or ``{"action": ACTION, "number": N}``, ``ACTION`` in
        the recorded-game form (``{"type": "bid", "player": 1, "cards": [3, 4]}``). With
        ``number`` (the :attr:`number` the seat last saw), a move is played only as the
        table's next action, and a retry of the action already played with that number
        is accepted again without being played twice (``duplicate``).

        The checks, in order: the form (:attr:`~high_society.wire.RefusalKind.MALFORMED`,
        at most :data:`MAX_MOVE_BYTES`), a reveal
        (:attr:`~high_society.wire.RefusalKind.NOT_ALLOWED`), another seat's action
        (:attr:`~high_society.wire.RefusalKind.NOT_YOUR_SEAT`), the number
        (:attr:`~high_society.wire.RefusalKind.WRONG_NUMBER`), the rules
        (:attr:`~high_society.wire.RefusalKind.ILLEGAL`). A refusal changes nothing. ``now``:
        the move's time (as :meth:`play`'s).

        Raises:
            InvalidSeatError: ``seat`` is not a seat of this table (the caller's mistake,
                not the client's).
            InvalidConfigError: ``now`` is neither ``None`` nor a finite number (the
                caller's mistake too; nothing is played).
        """
        check_time(now)
        check_seat(seat, len(self._seats))
        checked = _checked(seat, move, self._game.history)
        if not isinstance(checked, Move):  # refused, or a retry accepted again
            return checked
        try:
            self.play(checked.action, now)
        except IllegalActionError as error:
            message = error.message_with_names(self._names)
            return Refusal(RefusalKind.ILLEGAL, error.reason.value, message, "$.action", error)
        return Accepted(checked.action, self.number - 1)

    # --- Storage ----------------------------------------------------------------------------

    def snapshot(self) -> JSONObject:
        """The table as JSON, secret included: the seats, the deck's order (every card, in
        the order dealt), the actions, ``meta`` and the clocks (in the form of
        :data:`high_society.wire.CLOCK`, without its deadline). Never send it to a seat.

        >>> table = Table(["Ada", "Ben", "Cy"], seed=1)
        >>> _ = table.reveal()
        >>> Table.restore(table.snapshot()).payload(0) == table.payload(0)
        True
        """
        return {
            "format": FORMAT,
            "version": VERSION,
            "seats": [{"name": s.name, "bot": s.bot} for s in self._seats],
            "order": [card.value for card in self._game.order],
            "actions": [action_to_json(action) for action in self._game.history],
            "meta": self.meta,
            "clock": self._clocks.to_json(),
        }

    @classmethod
    def restore(cls, snapshot: object) -> "Table":
        """The table a :meth:`snapshot` describes (as parsed JSON, text or bytes), its
        actions replayed and checked.

        Raises:
            RecordError: not a snapshot (``BAD_FORMAT``, ``BAD_VERSION``, ``WRONG_TYPE``,
                ``MISSING_KEY``, ``UNKNOWN_KEY``, ``UNKNOWN_CARD`` ...); ``BAD_PLAYERS`` for
                the seats; ``BAD_STATE`` when the order is not the standard deck or a
                reveal is not the next card of it; the engine's reason for an illegal
                action. Every error names its place (``$.actions[7]``).
        """
        seats, order, meta, actions, clocks = _read_snapshot(snapshot)
        table = cls.__new__(cls)
        table._start(
            seats, DealtGame(len(seats), order), meta, Clocks.start(clocks.control, len(seats))
        )
        for index, item in enumerate(actions):
            _replay(table, item, index)
        table.keep_clocks(clocks)
        return table

    def keep_clocks(self, clocks: Clocks) -> None:
        """Take ``clocks`` as the table's (a host that keeps the clocks apart from the
        actions, as a snapshot does, gives them back so).

        Raises:
            InvalidConfigError: clocks for another number of seats.
        """
        if len(clocks.seats) != len(self._seats):
            raise InvalidConfigError(
                f"clocks for {len(clocks.seats)} seats, not {len(self._seats)}"
            )
        self._clocks = clocks


def _checked(seat: int, move: object, history: Sequence[Action]) -> Move | Accepted | Refusal:
    """``move`` read and checked for ``seat`` before the rules (see :meth:`Table.submit`):
    its form, a reveal, another seat's action, its number; an accepted retry, a refusal,
    or the move to play."""
    if isinstance(move, Move):
        read = move
    else:
        try:
            read = read_move(move)
        except RecordError as error:
            return Refusal(
                RefusalKind.MALFORMED, error.code.value, error.message, error.path, error
            )
    action, number, now = read.action, read.number, len(history)
    if isinstance(action, Reveal):
        message = "a client may not reveal a card: the table deals (R4)"
        code = TableCode.CLIENT_MAY_NOT_REVEAL.value
        return Refusal(RefusalKind.NOT_ALLOWED, code, message, "$.action.type")
    if action.seat != seat:
        return Refusal(
            RefusalKind.NOT_YOUR_SEAT,
            TableCode.NOT_YOUR_SEAT.value,
            f"seat {seat} cannot act for seat {short_repr(action.seat)}",
            "$.action.player",
        )
    if number is not None and number != now:
        if number < now and history[number] == action:
            return Accepted(action, number, duplicate=True)
        wrong = (
            f"action {number} has been played already, and it was another one"
            if number < now
            else f"the next action is number {now}, not {number}"
        )
        return Refusal(RefusalKind.WRONG_NUMBER, TableCode.WRONG_NUMBER.value, wrong, "$.number")
    return read


def _read_snapshot(
    snapshot: object,
) -> tuple[tuple[Seat, ...], tuple[StatusCard, ...], JSONObject, list[object], Clocks]:
    """A snapshot's seats, deck order, meta, actions (not yet read) and clocks, its form
    checked (a snapshot of version 1 has no clock)."""
    value = parse_json(snapshot) if isinstance(snapshot, str | bytes) else snapshot
    obj = read_object(
        value, "$", None, ("format", "version", "seats", "order", "actions"), ("meta", "clock")
    )
    if obj["format"] != FORMAT:
        raise RecordError(_C.BAD_FORMAT, f'the format must be "{FORMAT}"', path="$.format")
    version = obj["version"]
    if type(version) is not int or version not in (1, VERSION) or ("clock" in obj) != (version > 1):
        raise RecordError(
            _C.BAD_VERSION, f"the version must be {VERSION} (with a clock) or 1", path="$.version"
        )
    meta = obj.get("meta", {})
    if type(meta) is not dict:
        raise RecordError(_C.WRONG_TYPE, f"meta must be an object, not {kind(meta)}", path="$.meta")
    actions = read_list(obj["actions"], "$.actions", None, "actions")
    seats = read_seats(obj["seats"])
    clocks = (
        CLOCK.read(obj["clock"], "$.clock")
        if "clock" in obj
        else Clocks.start(TimeControl(), len(seats))
    )
    if len(clocks.seats) != len(seats):
        raise RecordError(_C.BAD_STATE, "the clocks are not one per seat", path="$.clock.seats")
    return seats, _read_order(obj["order"]), _checked_meta(meta), actions, clocks


def _replay(table: Table, item: object, index: int) -> None:
    """Play a snapshot's action number ``index`` on ``table``, checked."""
    where = f"$.actions[{index}]"
    action = action_from_json(item, path=where, index=index)
    if table.is_over:
        raise RecordError(_C.ACTION_AFTER_END, "the game is over", path=where, index=index)
    try:
        table.play(action)
    except IllegalActionError as error:
        message = error.message_with_names(table.names)
        raise RecordError(error.reason, message, path=where, index=index) from None
    except NoRevealDueError as error:
        raise RecordError(_C.BAD_STATE, str(error), path=where, index=index) from None


def _meta(meta: Mapping[str, JSON] | None) -> JSONObject:
    """``meta`` copied, when a record and a snapshot can hold it and be read back.

    Raises:
        InvalidConfigError: ``meta`` is not such a JSON object (see :func:`_checked_meta`).
    """
    if meta is None:
        return {}
    if not isinstance(meta, Mapping):
        raise InvalidConfigError(f"meta must be a JSON object, not {kind(meta)}")
    try:
        return _checked_meta(dict(meta))
    except RecordError as error:
        raise InvalidConfigError(f"bad meta: {error.message}") from None


def _checked_meta(meta: dict[str, JSON]) -> JSONObject:
    """A copy of ``meta``, the record's free-form data, with the bounds that keep a table
    readable back: what a record's reader takes (its nesting and values), in at most
    :data:`MAX_META_BYTES` of JSON (the rest of a snapshot is small and bounded).

    Raises:
        RecordError: not such an object (``WRONG_TYPE``, ``TOO_DEEP``, ``TOO_LARGE`` ...),
            at ``$.meta``.
    """
    copied = GameRecord(("a", "b", "c"), (), meta).meta  # the record's own checks
    text = json.dumps(copied, ensure_ascii=False, separators=(",", ":")).encode()
    if len(text) > MAX_META_BYTES:
        raise RecordError(
            _C.TOO_LARGE,
            f"meta holds {len(text):,} bytes of JSON, more than {MAX_META_BYTES:,}",
            path="$.meta",
        )
    check_text_limits(text)
    return copied


def _read_order(value: object) -> tuple[StatusCard, ...]:
    items = read_list(value, "$.order", None, "the deck's order")
    if len(items) != len(STANDARD.deck):
        raise RecordError(
            _C.BAD_STATE,
            f"the order must hold the {len(STANDARD.deck)} cards of the deck",
            path="$.order",
        )
    order = tuple(read_status_card(item, f"$.order[{i}]", None) for i, item in enumerate(items))
    if sorted(order, key=_card_rank) != sorted(STANDARD.deck, key=_card_rank):
        raise RecordError(_C.BAD_STATE, "the order is not the standard deck", path="$.order")
    return order


_RANK = {card: i for i, card in enumerate(StatusCard)}


def _card_rank(card: StatusCard) -> int:
    return _RANK[card]


def read_move(move: object) -> Move:
    """Read a move from untrusted input: bytes or text of JSON (at most
    :data:`MAX_MOVE_BYTES`), or parsed JSON, of the shape :data:`~high_society.wire.MOVE`
    states: ``{"action": ACTION}`` or ``{"action": ACTION, "number": N}``, ``ACTION`` in the
    recorded-game form.

    >>> read_move(b'{"action": {"type": "pass", "player": 2}, "number": 7}')
    Move(action=Pass(seat=2), number=7)

    Raises:
        RecordError: not a move (``NOT_JSON``, ``TOO_LARGE``, ``WRONG_TYPE``,
            ``MISSING_KEY``, ``UNKNOWN_KEY``, ``BAD_NUMBER`` ...), its JSON path named.
    """
    if isinstance(move, str | bytes | bytearray):
        value: object = parse_json(
            bytes(move) if isinstance(move, bytearray) else move, limit=MAX_MOVE_BYTES
        )
    else:
        value = move
    return MOVE.read(value)
