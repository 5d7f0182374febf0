"""A table for a server: the game, its secret shuffle, its record and its seats, and what
each seat is sent.

A server keeps one :class:`Table` per game. The table owns:

- the state and the public history (every action so far, reveals included: R14);
- the secret order of the deck, shuffled when the table is made by a cryptographic
  generator (``secrets.SystemRandom``), or by ``random.Random`` when a seed is
  given (for tests). The state itself never holds that order (R4);
- the seats: each a person's or a bot's name, in seat order.

Three calls carry a server:

- :meth:`Table.payload` is what one seat is sent: its view of the table (R13), who acts,
  who holds the highest bid, the cards revealed so far, that seat's legal actions, the
  public history since a given action, and at the end the result with each breakdown. It
  is built from what the seat knows (:func:`seat_payload` takes only its
  :class:`~high_society.bots.Seen`), so it never holds another seat's hand, anyone's spent
  cards, or the deck's order.
- :meth:`Table.submit` takes a seat and untrusted input (bytes, text or parsed JSON) and
  returns the :class:`Accepted` action or a :class:`Refusal` saying why not: its
  :class:`RefusalKind`, a stable code, a message and a JSON path. A refusal changes
  nothing.
- :meth:`Table.snapshot` and :meth:`Table.restore` save and load the table as JSON, secret
  included: what a server stores.

:meth:`Table.advance` plays the reveals and the bots' turns (any bot of the
:mod:`high_society.bots` protocol, asked through :func:`~high_society.bots.decide`) until a
person must act or the game is over.

>>> from high_society.bots import HeuristicBot, SeatOnly
>>> table = Table([Seat("Ada"), Seat("Ben", bot="heuristic"), Seat("Cy", bot="heuristic")], seed=3)
>>> table.reveal()
Reveal(card=<StatusCard.LUXURY_5: 'luxury-5'>)
>>> table.submit(0, b'{"action": {"type": "bid", "player": 0, "cards": [2]}, "number": 1}')
Accepted(action=Bid(seat=0, cards=frozenset({2})), number=1, duplicate=False)
>>> refusal = table.submit(0, '{"action": {"type": "pass", "player": 1}}')
>>> refusal.kind, refusal.code, refusal.message
(<RefusalKind.NOT_YOUR_SEAT: 'not_your_seat'>, 'NOT_YOUR_SEAT', 'seat 0 cannot act for seat 1')
>>> table.advance({1: SeatOnly(HeuristicBot(1)), 2: SeatOnly(HeuristicBot(2))})
[Bid(seat=1, cards=frozenset({3})), Bid(seat=2, cards=frozenset({4}))]
>>> payload = table.payload(0, since=2)
>>> payload["to_act"], payload["highest_bidder"], payload["min_bid_total"]
(0, 2, 5)
>>> payload["legal"]["bids"][0]
{'total': 5, 'cards': [3]}
>>> [entry["text"] for entry in payload["log"]]
['Ben bids 3 (3 face up)', 'Cy bids 4 (4 face up)']
"""

import enum
import json
import random
import secrets
import unicodedata
from bisect import bisect_left
from collections.abc import Iterator, Mapping, Sequence

import attrs

from high_society._bidtable import fewest_cards
from high_society._fields import read_int, read_list, read_object, read_status_card
from high_society._json import JSON, JSONObject, check_text_limits, copy_json, kind, parse_json
from high_society._records import check_players
from high_society._text import is_unsafe_char, short_repr
from high_society.actions import Action, Discard, Pass, Reveal
from high_society.bots import AnyBot, Seen, decide
from high_society.cards import MAX_PLAYERS, MIN_PLAYERS, STANDARD, StatusCard
from high_society.errors import (
    HighSocietyError,
    IllegalActionError,
    InvalidConfigError,
    InvalidSeatError,
    NoRevealDueError,
    OutOfRangeError,
    RecordCode,
    RecordError,
)
from high_society.host import Step, turns
from high_society.observation import view, view_to_json
from high_society.record import MAX_NAME_LENGTH, GameRecord
from high_society.rules import CHANCE, LegalActions, apply, min_bid_total, new_game, to_act
from high_society.scoring import result
from high_society.serial import (
    action_from_json,
    action_to_json,
    result_to_json,
    score_to_json,
)
from high_society.state import GameState, Phase
from high_society.text import narrate

__all__ = [
    "FORMAT",
    "MAX_META_BYTES",
    "MAX_MOVE_BYTES",
    "VERSION",
    "Accepted",
    "Move",
    "Refusal",
    "RefusalKind",
    "Seat",
    "Table",
    "TableCode",
    "check_name",
    "payload_schema",
    "read_move",
    "refusal_schema",
    "replay_step_schema",
    "replay_steps",
    "seat_payload",
    "spectator_payload",
    "spectator_payload_schema",
]

#: The value of a snapshot's ``format`` key.
FORMAT = "high-society-table"
#: The snapshot version this library reads and writes.
VERSION = 1
#: The largest move :meth:`Table.submit` reads, in bytes of UTF-8 (4 KiB: a bid of every
#: card takes about 80).
MAX_MOVE_BYTES = 4096
#: The longest bot label, in characters.
MAX_BOT_LENGTH = 64
#: The most a table's ``meta`` may hold, in bytes of JSON: its snapshot and its record stay
#: within what their readers take.
MAX_META_BYTES = 64 * 1024

_C = RecordCode


@attrs.frozen
class Seat:
    """Who sits at one seat: a person or a bot, by name.

    Attributes:
        name: the player's name, as a recorded game holds it (1 to 64 characters, no
            control characters; the names of a table are distinct).
        bot: for a bot, a label saying which (``"heuristic"``, ``"search"`` ...); ``None``
            for a person. The table stores the label; the host decides what it means.
    """

    name: str
    bot: str | None = None

    @property
    def is_bot(self) -> bool:
        """True when a bot plays this seat."""
        return self.bot is not None


class RefusalKind(enum.StrEnum):
    """Why :meth:`Table.submit` refused a move, in the order the checks are made."""

    #: Not a move: not JSON, not an object of the move's form, not an action (a
    #: :class:`~high_society.RecordCode` says which).
    MALFORMED = "malformed"
    #: A reveal: chance belongs to the table, which owns the shuffle (R4).
    NOT_ALLOWED = "not_allowed"
    #: The action is for another seat than the one submitting it.
    NOT_YOUR_SEAT = "not_your_seat"
    #: The move's ``number`` is not the number of the table's next action (a stale or a
    #: future move), and it is not a retry of the action played with that number.
    WRONG_NUMBER = "wrong_number"
    #: The action is well formed and the seat's own, but the rules forbid it now (the
    #: engine's :class:`~high_society.Reason` says why).
    ILLEGAL = "illegal"


class TableCode(enum.StrEnum):
    """The codes of the refusals that only a table makes (the others carry a
    :class:`~high_society.RecordCode` or a :class:`~high_society.Reason`)."""

    #: See :attr:`RefusalKind.NOT_ALLOWED`.
    CLIENT_MAY_NOT_REVEAL = "CLIENT_MAY_NOT_REVEAL"
    #: See :attr:`RefusalKind.NOT_YOUR_SEAT`.
    NOT_YOUR_SEAT = "NOT_YOUR_SEAT"
    #: See :attr:`RefusalKind.WRONG_NUMBER`.
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


def _seats(seats: Sequence[Seat | str]) -> tuple[Seat, ...]:
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


class Table:
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
    ) -> None:
        rng = secrets.SystemRandom() if seed is None else random.Random(seed)
        order = list(STANDARD.deck)
        rng.shuffle(order)
        self._start(_seats(seats), tuple(order), _meta(meta))

    def _start(
        self, seats: tuple[Seat, ...], order: tuple[StatusCard, ...], meta: JSONObject
    ) -> None:
        self._seats = seats
        self._order = order
        self._meta = meta
        self._names = tuple(seat.name for seat in seats)
        self._history: list[Action] = []
        self._steps: list[Step] = []  # the history with the states around each action
        self._state = new_game(len(seats))
        self._reveals = 0
        # The public part as of the last payload built.
        self._public: _Public | None = None

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
        return self._state

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action so far, reveals included, oldest first."""
        return tuple(self._history)

    @property
    def number(self) -> int:
        """How many actions have been played: the number the next action will have."""
        return len(self._history)

    @property
    def is_over(self) -> bool:
        """True once the game has ended (R9)."""
        return self._state.phase is Phase.OVER

    @property
    def meta(self) -> JSONObject:
        """Free-form data stored with the table (a copy); it goes into the record too."""
        copied = copy_json(self._meta, "$.meta")
        assert isinstance(copied, dict)
        return copied

    def record(self) -> GameRecord:
        """The game so far as a recorded game (format v1; the deck's order is not in it)."""
        return GameRecord(self._names, self._history, self._meta)

    def copy(self) -> "Table":
        """An independent table at the same point of the same game."""
        twin = Table.__new__(Table)
        twin._start(self._seats, self._order, self._meta)
        twin._history = list(self._history)
        twin._steps = list(self._steps)
        twin._state = self._state
        twin._reveals = self._reveals
        twin._public = self._public  # immutable; the history's prefix it was made from
        return twin

    # --- Playing ----------------------------------------------------------------------------

    def next_reveal(self) -> Reveal:
        """The reveal due now, from the secret order (not played; :meth:`reveal` plays it).

        Raises:
            NoRevealDueError: no reveal is due.
        """
        if self._state.phase is not Phase.REVEAL:
            raise NoRevealDueError(
                f"no reveal is due: the game is in its {self._state.phase.value} phase"
            )
        return Reveal(self._order[self._reveals])

    def reveal(self) -> Reveal:
        """Turn the next card of the secret order face up; return that action.

        Raises:
            NoRevealDueError: no reveal is due.
        """
        action = self.next_reveal()
        self._play(action)
        return action

    def play(self, action: Action) -> None:
        """Play an action the host trusts (a bot's, or one read back from storage). A
        reveal must be the one the secret order has next.

        Raises:
            IllegalActionError: the action is not legal now.
            NoRevealDueError: a reveal that is not the next card of the order (or none due).
        """
        if isinstance(action, Reveal) and action != self.next_reveal():
            raise NoRevealDueError(
                f"{action.card.label} is not the next card of this table's deck "
                f"(action {self.number})"
            )
        self._play(action)

    def _play(self, action: Action) -> None:
        before = self._state
        self._record(Step(before, action, apply(before, action)))

    def _record(self, step: Step) -> None:
        """Keep a step played from the state now."""
        self._state = step.after
        self._history.append(step.action)
        self._steps.append(step)
        if isinstance(step.action, Reveal):
            self._reveals += 1

    def bot_action(self, bot: AnyBot) -> Action:
        """What ``bot`` plays for the seat that must act (not played): a
        :class:`~high_society.bots.SeatBot` is told only that seat's view and the public
        history (:func:`~high_society.bots.decide`).

        Raises:
            NoSeatToActError: no seat must act now.
            InvalidConfigError: ``bot`` has neither ``choose`` nor ``choose_seen``.
        """
        return decide(bot, self._state, self._history)

    def autoplay(self, bots: Mapping[int, AnyBot]) -> Iterator[Action]:
        """Play the reveals and the bots' turns one at a time, through the library's one
        game loop (:func:`~high_society.host.turns`), yielding each action once it is
        played, until a person must act or the game is over. Lazy: nothing is played
        before it is asked for, so a server can commit each action before the next (the
        table server does). ``bots`` maps each bot seat to its bot; their ``start`` and
        ``end`` hooks are the caller's to call.

        Raises:
            InvalidConfigError: a bot seat has no bot in ``bots`` (raised by the call).
            IllegalActionError: a bot chose an illegal action (it is not played).
        """
        missing = [i for i, seat in enumerate(self._seats) if seat.is_bot and i not in bots]
        if missing:
            raise InvalidConfigError(f"seat {missing[0]} is a bot's, but no bot was given for it")
        chosen = [bots[i] if seat.is_bot else None for i, seat in enumerate(self._seats)]
        return self._autoplay(turns(self._state, chosen, self._draw, self._history))

    def _autoplay(self, steps: Iterator[Step]) -> Iterator[Action]:
        for step in steps:
            self._record(step)
            yield step.action

    def advance(self, bots: Mapping[int, AnyBot]) -> list[Action]:
        """Play the reveals and the bots' turns until a person must act or the game is
        over (all of :meth:`autoplay`); return the actions played. ``bots`` maps each bot
        seat to its bot; the bots' ``start`` and ``end`` hooks are the caller's to call.

        Raises:
            InvalidConfigError: a bot seat has no bot in ``bots``.
            IllegalActionError: a bot chose an illegal action (it is not played).
        """
        return list(self.autoplay(bots))

    def _draw(self, state: GameState) -> Reveal:
        """The next card of the secret order (what :func:`~high_society.host.turns` asks
        for a reveal; the steps before it are recorded by then)."""
        return Reveal(self._order[self._reveals])

    def submit(self, seat: int, move: object) -> Accepted | Refusal:
        """Take a move from ``seat`` (untrusted bytes, text or parsed JSON, or a
        :class:`Move` already read by :func:`read_move`) and play it, or say why not. A
        move is ``{"action": ACTION}`` or ``{"action": ACTION, "number": N}``, ``ACTION`` in
        the recorded-game form (``{"type": "bid", "player": 1, "cards": [3, 4]}``). With
        ``number`` (the :attr:`number` the seat last saw), a move is played
        only as the table's next action, and a retry of the action already played with
        that number is accepted again without being played twice (``duplicate``).

        The checks, in order: the form (:attr:`RefusalKind.MALFORMED`, at most
        :data:`MAX_MOVE_BYTES`), a reveal (:attr:`~RefusalKind.NOT_ALLOWED`), another seat's
        action (:attr:`~RefusalKind.NOT_YOUR_SEAT`), the number
        (:attr:`~RefusalKind.WRONG_NUMBER`), the rules (:attr:`~RefusalKind.ILLEGAL`). A
        refusal changes nothing.

        Raises:
            InvalidSeatError: ``seat`` is not a seat of this table (the caller's mistake,
                not the client's).
        """
        if type(seat) is not int or not 0 <= seat < len(self._seats):
            raise InvalidSeatError(
                f"{short_repr(seat)} is not a seat (seats are 0 to {len(self._seats) - 1})"
            )
        if isinstance(move, Move):
            action, number = move.action, move.number
        else:
            try:
                read = read_move(move)
            except RecordError as error:
                return Refusal(
                    RefusalKind.MALFORMED, error.code.value, error.message, error.path, error
                )
            action, number = read.action, read.number
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
        if number is not None and number != self.number:
            if number < self.number and self._history[number] == action:
                return Accepted(action, number, duplicate=True)
            code = TableCode.WRONG_NUMBER.value
            return Refusal(RefusalKind.WRONG_NUMBER, code, self._wrong(number), "$.number")
        try:
            self._play(action)
        except IllegalActionError as error:
            message = error.message_with_names(self._names)
            return Refusal(RefusalKind.ILLEGAL, error.reason.value, message, "$.action", error)
        return Accepted(action, self.number - 1)

    def _wrong(self, number: int) -> str:
        if number < self.number:
            return f"action {number} has been played already, and it was another one"
        return f"the next action is number {self.number}, not {number}"

    # --- What a seat is sent ----------------------------------------------------------------

    def payload(self, seat: int, since: int = 0) -> JSONObject:
        """What ``seat`` is sent (see :func:`seat_payload`): built from that seat's view and
        the public history only. ``since`` (0 to :attr:`number`) is the first action of
        the history included.

        Raises:
            InvalidSeatError: ``seat`` is not a seat of this table.
            OutOfRangeError: ``since`` is not 0 to :attr:`number`.
        """
        seat_view = view(self._state, seat)
        public = self._public_part(since)
        return _payload(Seen(seat_view, public.history), self._seats, since, public)

    def spectator_payload(self, since: int = 0) -> JSONObject:
        """What a spectator is sent (see :func:`spectator_payload`): what every seat sees
        alike and the public history, no hand. ``since`` (0 to :attr:`number`) is the
        first action of the history included.

        Raises:
            OutOfRangeError: ``since`` is not 0 to :attr:`number`.
        """
        public = self._public_part(since)
        return _sent(_public_view(public.state), None, self._seats, since, public)

    def _public_part(self, since: int) -> "_Public":
        """The public part of every payload now (R14: the same for all), worked out once per
        action whichever seats ask, only the actions played since the last one told."""
        number = len(self._history)
        if type(since) is not int or not 0 <= since <= number:
            raise OutOfRangeError(f"since must be 0 to {number}, not {short_repr(since)}")
        public = self._public
        if public is None or public.number != number:
            if public is None or public.number > number:
                public = _Public.of(self._history, self._names, self._steps)
            else:
                public = public.extend(self._steps[public.number :], self._names)
            self._public = public
        return public

    # --- Storage ----------------------------------------------------------------------------

    def snapshot(self) -> JSONObject:
        """The table as JSON, secret included: the seats, the deck's order (every card, in
        the order dealt), the actions and ``meta``. Never send it to a seat.

        >>> table = Table(["Ada", "Ben", "Cy"], seed=1)
        >>> _ = table.reveal()
        >>> Table.restore(table.snapshot()).payload(0) == table.payload(0)
        True
        """
        return {
            "format": FORMAT,
            "version": VERSION,
            "seats": [{"name": s.name, "bot": s.bot} for s in self._seats],
            "order": [card.value for card in self._order],
            "actions": [action_to_json(action) for action in self._history],
            "meta": self.meta,
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
        value = parse_json(snapshot) if isinstance(snapshot, str | bytes) else snapshot
        obj = read_object(
            value, "$", None, ("format", "version", "seats", "order", "actions"), ("meta",)
        )
        if obj["format"] != FORMAT:
            raise RecordError(_C.BAD_FORMAT, f'the format must be "{FORMAT}"', path="$.format")
        if type(obj["version"]) is not int or obj["version"] != VERSION:
            raise RecordError(_C.BAD_VERSION, f"the version must be {VERSION}", path="$.version")
        seats = _read_seats(obj["seats"])
        order = _read_order(obj["order"])
        meta = obj.get("meta", {})
        if type(meta) is not dict:
            raise RecordError(
                _C.WRONG_TYPE, f"meta must be an object, not {kind(meta)}", path="$.meta"
            )
        table = cls.__new__(cls)
        table._start(seats, order, _checked_meta(meta))
        actions = read_list(obj["actions"], "$.actions", None, "actions")
        for index, item in enumerate(actions):
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
        return table


def check_name(name: object, path: str = "$") -> str:
    """``name`` when a recorded game can hold it as a player's name (a string of 1 to 64
    characters, not only spaces, without control characters) and it shows a visible
    character: a letter, a digit, a punctuation mark or a symbol (not only zero-width or
    other invisible characters). For a server that takes names from clients.

    >>> check_name("Ada")
    'Ada'

    Raises:
        RecordError: ``BAD_PLAYERS`` at ``path``.
    """
    others = [filler for filler in ("a", "b", "c") if filler != name][:2]
    try:
        checked = check_players([name, *others])[0]
    except RecordError as error:
        raise RecordError(error.code, error.message, path=path) from None
    if not any(unicodedata.category(char)[0] in "LNPS" for char in checked):
        raise RecordError(
            _C.BAD_PLAYERS,
            "a name must show a visible character: a letter, a digit, a punctuation mark "
            "or a symbol",
            path=path,
        )
    return checked


def _bot_label_problem(bot: object) -> str | None:
    """Why ``bot`` cannot be a bot label, or ``None``."""
    if type(bot) is not str or not 1 <= len(bot) <= MAX_BOT_LENGTH:
        return f"a bot label must be a string of 1 to {MAX_BOT_LENGTH} characters"
    if any(is_unsafe_char(char) for char in bot):
        return "a bot label must hold no control character"
    return None


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


def _read_seats(value: object) -> tuple[Seat, ...]:
    items = read_list(value, "$.seats", None, "seats")
    if len(items) > MAX_PLAYERS:
        raise RecordError(
            _C.BAD_PLAYERS, f"{len(items):,} seats: at most {MAX_PLAYERS}", path="$.seats"
        )
    seats: list[tuple[object, str | None]] = []
    for i, item in enumerate(items):
        obj = read_object(item, f"$.seats[{i}]", None, ("name", "bot"), what="a seat")
        bot = obj["bot"]
        problem = None if bot is None else _bot_label_problem(bot)
        if problem is not None:
            raise RecordError(_C.WRONG_TYPE, f"{problem}, or null", path=f"$.seats[{i}].bot")
        seats.append((obj["name"], None if bot is None else str(bot)))
    # The names' rules are the record's, with its messages.
    names = check_players([name for name, _ in seats], "$.seats")
    return tuple(Seat(name, bot) for name, (_, bot) in zip(names, seats, strict=True))


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


@attrs.frozen
class Move:
    """A move as a client sends it, read (:func:`read_move`) but not yet checked against a
    table.

    Attributes:
        action: the action (a reveal too: :meth:`Table.submit` refuses it).
        number: the table's number the client saw when it chose, or ``None`` when the move
            came without one (then it is played whatever the number, with no protection
            against a retry being played twice).
    """

    action: Action
    number: int | None = None


def read_move(move: object) -> Move:
    """Read a move from untrusted input: bytes or text of JSON (at most
    :data:`MAX_MOVE_BYTES`), or parsed JSON. A move is ``{"action": ACTION}`` or
    ``{"action": ACTION, "number": N}``, ``ACTION`` in the recorded-game form.

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
    obj = read_object(value, "$", None, ("action",), ("number",), what="a move")
    number = obj.get("number")
    if number is not None:
        number = read_int(number, "$.number", None, "a move's number")
        if number < 0:
            raise RecordError(_C.BAD_NUMBER, "a move's number must be 0 or more", path="$.number")
    return Move(action_from_json(obj["action"], path="$.action"), number)


# --- The payload ------------------------------------------------------------------------------


def seat_payload(seen: Seen, seats: Sequence[Seat], since: int = 0) -> JSONObject:
    """What a server sends one seat, built from what that seat knows and nothing else: its
    view (R13) and the public history (R14), both in ``seen``, and who sits where.

    The keys:

    - ``seat``, ``players`` (``{"name", "bot"}`` per seat), ``number`` (actions so far);
    - ``view``: :func:`~high_society.observation.view_to_json` of the seat's view: its own
      hand, and of every player the cards face up, whether they passed, how many money
      cards they hold and their status cards; the card up for auction, the deck's
      contents in canonical order, the cards out of the game;
    - ``to_act`` (a seat, ``"chance"`` or ``null``), ``highest_bidder`` (a seat or
      ``null``), ``min_bid_total``, ``revealed`` (the cards turned so far, in order);
    - ``legal``: ``null`` unless this seat must act; else ``count`` (how many legal
      actions), ``pass`` (a ``Pass`` is legal), ``bids`` (one entry per face-up total the
      seat can reach: ``{"total", "cards"}``, ``cards`` the fewest that reach it) and
      ``discards`` (the luxury cards it may give up for Faux Pas);
    - ``since``, ``history`` (the actions from number ``since`` on) and ``log`` (the same
      actions told in words, ``{"number", "text"}``);
    - ``result``: ``null`` until the game is over; then scores, money, cast-out seats,
      winners, and each seat's ``breakdown`` (R10-R12).

    Raises:
        OutOfRangeError: ``since`` is not 0 to the length of the history.
        InvalidConfigError: ``seats`` does not have one seat per player of the view.
    """
    history = seen.history
    if type(since) is not int or not 0 <= since <= len(history):
        raise OutOfRangeError(f"since must be 0 to {len(history)}, not {short_repr(since)}")
    if len(seats) != len(seen.view.players):
        raise InvalidConfigError(f"{len(seats)} seats for a game of {len(seen.view.players)}")
    return _payload(seen, seats, since, _Public.of(history, tuple(s.name for s in seats)))


@attrs.frozen
class _Public:
    """What every seat's payload takes from the public history (R14), worked out once per
    history: the state it leads to, the cards revealed, each action in JSON and told in
    words (with its number), and the reveals that opened rounds (what the narration of
    later actions needs to number its rounds)."""

    state: GameState
    number: int
    revealed: tuple[str, ...]
    log: tuple[tuple[int, str], ...]
    rounds: tuple[Step, ...]
    history: tuple[Action, ...] = ()

    @classmethod
    def of(
        cls, history: Sequence[Action], names: tuple[str, ...], steps: Sequence[Step] = ()
    ) -> "_Public":
        """``steps``: the history replayed, if the caller has it (a table does)."""
        if len(steps) != len(history):
            steps = list(_steps(len(names), history))
        return _Public(new_game(len(names)), 0, (), (), (), ()).extend(steps, names)

    def extend(self, steps: Sequence[Step], names: tuple[str, ...]) -> "_Public":
        """This public part with ``steps``, the actions played since, added: only the new
        actions are told (after the reveals that opened the rounds, which number them)."""
        if not steps:
            return self
        first = self.number
        numbers = {id(step): first + i for i, step in enumerate(steps)}
        log = [
            (numbers[id(step)], line.strip())
            for line, step in narrate((*self.rounds, *steps), names)
            if id(step) in numbers and line.strip()
        ]
        reveals = [(s, s.action) for s in steps if isinstance(s.action, Reveal)]
        return _Public(
            steps[-1].after,
            first + len(steps),
            (*self.revealed, *(action.card._value_ for _, action in reveals)),
            (*self.log, *log),
            (*self.rounds, *(s for s, _ in reveals if s.after.phase is not Phase.OVER)),
            (*self.history, *(step.action for step in steps)),
        )


def _payload(seen: Seen, seats: Sequence[Seat], since: int, public: _Public) -> JSONObject:
    """:func:`seat_payload`, ``public`` being ``_Public.of(seen.history, names)``."""
    return _sent(view_to_json(seen.view), seen.view.seat, seats, since, public)


def _sent(
    shown: JSONObject, seat: int | None, seats: Sequence[Seat], since: int, public: _Public
) -> JSONObject:
    """A seat's payload (``seat``) or a spectator's (``None``), ``shown`` the view."""
    state = public.state
    actor = to_act(state)
    history = public.history
    return {
        "seat": seat,
        "players": [{"name": s.name, "bot": s.bot} for s in seats],
        "number": public.number,
        "view": shown,
        "to_act": "chance" if actor is CHANCE else actor,
        "highest_bidder": _highest_bidder(state),
        "min_bid_total": min_bid_total(state),
        "revealed": [*public.revealed],
        "legal": _legal(state, actor) if seat is not None and actor == seat else None,
        "since": since,
        "history": [action_to_json(action) for action in history[since:]],
        "log": [
            {"number": number, "text": text}
            for number, text in public.log[bisect_left(public.log, (since,)) :]
        ],
        "result": _result(state) if state.is_over else None,
    }


def spectator_payload(
    history: Sequence[Action], seats: Sequence[Seat], since: int = 0
) -> JSONObject:
    """What a spectator is sent: what every seat sees alike (R13's public part) and the
    public history (R14), and no hand: the keys of :func:`seat_payload`, with ``seat``
    ``null``, the view's ``seat`` and ``hand`` ``null``, and ``legal`` ``null``.

    >>> from high_society import Reveal, StatusCard
    >>> seen = spectator_payload([Reveal(StatusCard.LUXURY_4)], [Seat("A"), Seat("B"), Seat("C")])
    >>> seen["seat"], seen["view"]["hand"], seen["view"]["players"][0]["hand_size"]
    (None, None, 11)

    Raises:
        OutOfRangeError: ``since`` is not 0 to the length of the history.
        InvalidConfigError: ``seats`` is not one seat per player (3 to 5).
        IllegalActionError: ``history`` is not a game's history.
    """
    if type(since) is not int or not 0 <= since <= len(history):
        raise OutOfRangeError(f"since must be 0 to {len(history)}, not {short_repr(since)}")
    names = tuple(s.name for s in seats)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise InvalidConfigError(f"{len(names)} seats: a game has 3 to 5")
    public = _Public.of(history, names)
    return _sent(_public_view(public.state), None, seats, since, public)


def _highest_bidder(state: GameState) -> int | None:
    highest = state.highest_bid
    return next((i for i, p in enumerate(state.players) if highest and p.bid == highest), None)


def replay_steps(history: Sequence[Action], seats: Sequence[Seat]) -> list[JSONObject]:
    """What a viewer of a recorded game is shown after each of its actions, as a spectator
    sees the table (R13's public part, no hand): for each action its ``number``, the
    ``action`` (as recorded), the ``log`` lines that tell it, and after it the ``view``,
    ``to_act``, ``highest_bidder`` and ``min_bid_total`` (the keys of
    :func:`spectator_payload`). The result at the end is the last spectator payload's.

    >>> from high_society import Bid, Reveal, StatusCard
    >>> steps = replay_steps(
    ...     [Reveal(StatusCard.LUXURY_4), Bid(0, frozenset({3}))], [Seat("A"), Seat("B"), Seat("C")]
    ... )
    >>> [(step["number"], step["log"], step["to_act"]) for step in steps]
    [(0, ['Round 1: Luxury 4, A starts'], 0), (1, ['A bids 3 (3 face up)'], 1)]

    Raises:
        InvalidConfigError: ``seats`` is not one seat per player (3 to 5).
        IllegalActionError: ``history`` is not a game's history.
    """
    names = tuple(s.name for s in seats)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise InvalidConfigError(f"{len(names)} seats: a game has 3 to 5")
    steps = list(_steps(len(names), history))
    told: dict[int, list[JSON]] = {}
    for number, text in _Public.of(history, names, steps).log:
        told.setdefault(number, []).append(text)
    shown: list[JSONObject] = []
    for number, step in enumerate(steps):
        actor = to_act(step.after)
        shown.append(
            {
                "number": number,
                "action": action_to_json(step.action),
                "log": told.get(number, []),
                "view": _public_view(step.after),
                "to_act": "chance" if actor is CHANCE else actor,
                "highest_bidder": _highest_bidder(step.after),
                "min_bid_total": min_bid_total(step.after),
            }
        )
    return shown


def _public_view(state: GameState) -> JSONObject:
    """The view every seat shares (R13), no hand: a seat's view without its seat and hand."""
    shown = view_to_json(view(state, 0))
    shown["seat"] = None
    shown["hand"] = None
    return shown


def _steps(players: int, history: Sequence[Action]) -> Iterator[Step]:
    """The public history replayed from the deal (R14), step by step."""
    state = new_game(players)
    for action in history:
        after = apply(state, action)
        yield Step(state, action, after)
        state = after


def _numbered(
    lines: Iterator[tuple[str, Step]], steps: Sequence[Step]
) -> Iterator[tuple[int, tuple[str, Step]]]:
    """Each narrated line with the number of its step (steps are told in order)."""
    at = 0
    for line, step in lines:
        while steps[at] is not step:
            at += 1
        yield at, (line, step)


def _legal(state: GameState, seat: int) -> JSONObject:
    legal = LegalActions(state)
    if state.phase is Phase.DISCARD:
        cards: list[JSON] = [a.card._value_ for a in legal if isinstance(a, Discard)]
        return {"count": len(legal), "pass": False, "bids": [], "discards": cards}
    face_up = state.players[seat].bid
    legal_bids = legal.bids()
    bids: list[JSON] = []
    if legal_bids:
        # The legal bids are every subset of the hand adding at least the first one's total.
        fewest = fewest_cards(state.players[seat].hand)
        bids = [
            {"total": face_up + added, "cards": [*cards]}
            for added, cards in fewest[bisect_left(fewest, (legal_bids[0].total,)) :]
        ]
    return {"count": len(legal), "pass": Pass(seat) in legal, "bids": bids, "discards": []}


def _result(state: GameState) -> JSONObject:
    outcome = result(state)
    data = result_to_json(outcome)
    data["breakdowns"] = [
        {
            "luxury_cards": [card.value for card in b.luxury_cards],
            "luxury_sum": b.luxury_sum,
            "passe": b.passe,
            "prestige": b.prestige,
            "scandale": b.scandale,
            "holds_faux_pas": b.holds_faux_pas,
            "status": score_to_json(b.status),
            "explain": b.explain(),
        }
        for b in outcome.breakdowns
    ]
    return data


def payload_schema() -> JSONObject:
    """The JSON Schema (draft 2020-12) of :func:`seat_payload`'s object. Every object in it
    is closed (``additionalProperties: false``): a payload holds nothing else.

    >>> payload_schema()["$id"]
    'urn:high-society:seat-payload:v1'
    """
    seat: JSONObject = {"type": "integer", "minimum": 0, "maximum": MAX_PLAYERS - 1}
    card: JSONObject = {"enum": [c.value for c in StatusCard]}
    cards: JSONObject = {"type": "array", "items": card}
    money: JSONObject = {
        "type": "array",
        "items": {"type": "integer", "minimum": 1},
        "uniqueItems": True,
    }
    number: JSONObject = {"type": "number"}

    def closed(properties: JSONObject) -> JSONObject:
        return {
            "type": "object",
            "required": list(properties),
            "additionalProperties": False,
            "properties": properties,
        }

    def nullable(schema: JSONObject) -> JSONObject:
        return {"anyOf": [schema, {"type": "null"}]}

    public_player = closed(
        {
            "table": money,
            "passed": {"type": "boolean"},
            "hand_size": {"type": "integer", "minimum": 0},
            "status_cards": cards,
        }
    )
    view_schema = closed(
        {
            "seat": seat,
            "config": closed({"money": money, "deck": cards}),
            "hand": money,
            "players": {"type": "array", "items": public_player},
            "phase": {"enum": [p.value for p in Phase]},
            "turn": seat,
            "auction": nullable(card),
            "highest_bid": {"type": "integer", "minimum": 0},
            "deck": cards,
            "removed": cards,
            "ending_card": nullable(card),
        }
    )
    legal = closed(
        {
            "count": {"type": "integer", "minimum": 1},
            "pass": {"type": "boolean"},
            "bids": {
                "type": "array",
                "items": closed({"total": {"type": "integer", "minimum": 1}, "cards": money}),
            },
            "discards": cards,
        }
    )
    breakdown = closed(
        {
            "luxury_cards": cards,
            "luxury_sum": {"type": "integer"},
            "passe": {"type": "boolean"},
            "prestige": {"type": "integer", "minimum": 0},
            "scandale": {"type": "boolean"},
            "holds_faux_pas": {"type": "boolean"},
            "status": number,
            "explain": {"type": "string"},
        }
    )
    seats_list: JSONObject = {"type": "array", "items": seat}
    outcome = closed(
        {
            "scores": {"type": "array", "items": number},
            "money": {"type": "array", "items": {"type": "integer"}},
            "cast_out": seats_list,
            "winners": seats_list,
            "breakdowns": {"type": "array", "items": breakdown},
        }
    )
    schema = closed(
        {
            "seat": seat,
            "players": {
                "type": "array",
                "minItems": 3,
                "maxItems": MAX_PLAYERS,
                "items": closed(
                    {
                        "name": {"type": "string", "minLength": 1, "maxLength": MAX_NAME_LENGTH},
                        "bot": nullable(
                            {"type": "string", "minLength": 1, "maxLength": MAX_BOT_LENGTH}
                        ),
                    }
                ),
            },
            "number": {"type": "integer", "minimum": 0},
            "view": view_schema,
            "to_act": {"anyOf": [seat, {"const": "chance"}, {"type": "null"}]},
            "highest_bidder": nullable(seat),
            "min_bid_total": nullable({"type": "integer", "minimum": 1}),
            "revealed": cards,
            "legal": nullable(legal),
            "since": {"type": "integer", "minimum": 0},
            "history": {"type": "array", "items": {"$ref": "urn:high-society:action:v1"}},
            "log": {
                "type": "array",
                "items": closed(
                    {"number": {"type": "integer", "minimum": 0}, "text": {"type": "string"}}
                ),
            },
            "result": nullable(outcome),
        }
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:high-society:seat-payload:v1",
        "title": "What a High Society server sends one seat",
        **schema,
    }


def spectator_payload_schema() -> JSONObject:
    """The JSON Schema (draft 2020-12) of :func:`spectator_payload`'s object: the seat
    payload's (:func:`payload_schema`), with ``seat``, the view's ``seat`` and ``hand``, and
    ``legal`` always ``null``. Every object in it is closed.

    >>> spectator_payload_schema()["properties"]["view"]["properties"]["hand"]
    {'type': 'null'}
    """
    schema = payload_schema()
    null: JSONObject = {"type": "null"}
    properties = schema["properties"]
    assert isinstance(properties, dict)
    view_schema = properties["view"]
    assert isinstance(view_schema, dict)
    view_properties = view_schema["properties"]
    assert isinstance(view_properties, dict)
    properties["seat"] = properties["legal"] = view_properties["seat"] = null
    view_properties["hand"] = null
    schema["$id"] = "urn:high-society:spectator-payload:v1"
    schema["title"] = "What a High Society server sends a spectator"
    return schema


def replay_step_schema() -> JSONObject:
    """The JSON Schema (draft 2020-12) of one of :func:`replay_steps`' objects; its keys
    after ``number``, ``action`` and ``log`` are the spectator payload's
    (:func:`spectator_payload_schema`). Every object in it is closed.

    >>> replay_step_schema()["required"]
    ['number', 'action', 'log', 'view', 'to_act', 'highest_bidder', 'min_bid_total']
    """
    payload = spectator_payload_schema()["properties"]
    assert isinstance(payload, dict)
    properties: JSONObject = {
        "number": {"type": "integer", "minimum": 0},
        "action": {"$ref": "urn:high-society:action:v1"},
        "log": {"type": "array", "items": {"type": "string"}},
        **{key: payload[key] for key in ("view", "to_act", "highest_bidder", "min_bid_total")},
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:high-society:replay-step:v1",
        "title": "One action of a recorded game as a viewer is shown it",
        "type": "object",
        "required": list(properties),
        "additionalProperties": False,
        "properties": properties,
    }


def refusal_schema() -> JSONObject:
    """The JSON Schema of :meth:`Refusal.to_json`."""
    return {
        "type": "object",
        "required": ["kind", "code", "message", "path"],
        "additionalProperties": False,
        "properties": {
            "kind": {"enum": [k.value for k in RefusalKind]},
            "code": {"type": "string"},
            "message": {"type": "string"},
            "path": {"type": "string"},
        },
    }
