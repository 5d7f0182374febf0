"""Every shape the wire carries, stated once: what a table sends a seat and a spectator, a
replay's steps, a move, and the table server's requests, answers, events and errors.

Each shape here is the one statement of its form: its JSON Schema
(:func:`json_schema`, and the components of the server's OpenAPI document,
:func:`components`) and its strict reader (``SHAPE.read(value)``, raising
:class:`~high_society.errors.RecordError` with a stable code and the JSON path of the
fault) both come from it. A recorded game and an action are the record format's own
(format v1, whose JSON Schemas ship in the package); the shapes here refer to them.

>>> MOVE.read({"action": {"type": "pass", "player": 2}, "number": 7})
Move(action=Pass(seat=2), number=7)
>>> json_schema(SEAT_PAYLOAD)["$id"]
'urn:high-society:seat-payload:v2'

A legal action in a seat's payload is the action as it is sent: ``legal["pass"]``, each
``legal["bids"][i]["action"]`` and each of ``legal["discards"]`` can be sent back as a
move's ``action`` unchanged, and the schema types them as the action's own forms.
"""

import enum
import unicodedata
from collections.abc import Mapping
from typing import TypeVar

import attrs

from high_society._clock import MAX_SECONDS, Clocks, SeatClock, TimeControl
from high_society._json import JSONObject, key_path
from high_society._records import check_players
from high_society._shapes import (
    AnyOf,
    Array,
    Boolean,
    Choice,
    Const,
    External,
    Field,
    Form,
    Integer,
    Named,
    Null,
    Nullable,
    Number,
    Object,
    Schemas,
    Shape,
    String,
    Tagged,
    standalone,
)
from high_society.actions import Action, Bid, Discard, Pass
from high_society.cards import MAX_PLAYERS, MIN_PLAYERS, STANDARD, StatusCard
from high_society.errors import InvalidConfigError, RecordCode, RecordError
from high_society.levels import LEVELS, TIERS
from high_society.record import (
    MAX_NAME_LENGTH,
    GameRecord,
    action_schema,
    record_from_json,
    record_schema,
)
from high_society.serial import action_from_json
from high_society.state import Phase

__all__ = [
    "ACTION",
    "BOT_LIST",
    "CLOCK",
    "ERROR",
    "HEALTH",
    "JOINED",
    "JOIN_TABLE",
    "LOBBY",
    "LOBBY_EVENT",
    "MOVE",
    "MOVE_ACCEPTED",
    "NEW_TABLE",
    "RECORD",
    "REFUSAL",
    "REPLAY",
    "REPLAY_STEP",
    "SEAT_EVENT",
    "SEAT_PAYLOAD",
    "SPECTATOR_EVENT",
    "SPECTATOR_PAYLOAD",
    "TABLE_CREATED",
    "TABLE_INFO",
    "TIME_CONTROL",
    "YOUR_SEAT",
    "ErrorKind",
    "Move",
    "Named",
    "NewSeat",
    "NewTable",
    "RefusalKind",
    "Shape",
    "check_name",
    "components",
    "json_schema",
]

T = TypeVar("T")


# --- What every shape is made of ------------------------------------------------------------------


def _record_reader(value: object, path: str) -> GameRecord:
    return record_from_json(value)


def _read_action(value: object, path: str) -> Action:
    """An action as the wire takes it: the record format's reader
    (:func:`~high_society.serial.action_from_json`, which checks the form a record may
    hold), held to what the action's schema says of the standard game besides: a seat of
    0 to 4, a bid of one or more of the money cards (R1), a luxury card to discard (R8).

    Raises:
        RecordError: ``WRONG_TYPE``, ``BAD_NUMBER`` ... as the record's reader says, or
            ``BAD_NUMBER`` for a seat or a money card outside the game, ``WRONG_TYPE`` for
            a bid of no card or a discard that is not a luxury card.
    """
    action = action_from_json(value, path=path)
    seat = getattr(action, "seat", 0)
    if not 0 <= seat < MAX_PLAYERS:
        where = key_path(path, "player")
        raise RecordError(
            RecordCode.BAD_NUMBER, f"{where} is a seat, 0 to {MAX_PLAYERS - 1}", path=where
        )
    if isinstance(action, Bid):
        where = key_path(path, "cards")
        if not action.cards:
            raise RecordError(RecordCode.WRONG_TYPE, f"{where} holds one card or more", path=where)
        if not action.cards <= set(STANDARD.money):
            raise RecordError(
                RecordCode.BAD_NUMBER, f"{where} holds money cards of the game", path=where
            )
    if isinstance(action, Discard) and not action.card.is_luxury:
        where = key_path(path, "card")
        raise RecordError(RecordCode.WRONG_TYPE, f"{where} is a luxury card", path=where)
    return action


#: An action in the recorded-game form (format v1): the record format's own schema, read
#: as the wire takes it; component ``Action``, its forms ``BidAction``, ``PassAction`` ...
_ACTION = External("Action", action_schema, _read_action)
ACTION: Shape[Action] = _ACTION

#: A recorded game (format v1): the record format's own schema; component ``Record``.
RECORD: Shape[GameRecord] = External(
    "Record", record_schema, _record_reader, parts={"action": _ACTION}
)

BID_ACTION: Form[Bid] = Form(_ACTION, "bid", "type", "bid", Bid)
PASS_ACTION: Form[Pass] = Form(_ACTION, "pass", "type", "pass", Pass)
DISCARD_ACTION: Form[Discard] = Form(_ACTION, "discard", "type", "discard", Discard)

SEAT = Named(
    "Seat",
    Integer(0, MAX_PLAYERS - 1, doc="A 0-based index into the players (3 to 5 seats)."),
)
MONEY = Named("Money", Choice(STANDARD.money, doc="A money card, named by its value (R1)."))
STATUS_CARD = Named("StatusCard", Choice(StatusCard, doc="A status card, by name (R2)."))
_COUNT = Integer(0)
_NUMBER = Integer(0, doc="How many actions the table has played: the next one's number.")
_CARDS = Array(STATUS_CARD)
_MONEY_CARDS = Array(MONEY, unique=True)


def _build(**fields: object) -> dict[str, object]:
    """What the shapes of what is sent build when read (the tests read them)."""
    return fields


def _object(doc: str, **fields: Field[object]) -> Object[dict[str, object]]:
    return Object(fields, _build, doc)


def _field(shape: Shape[object], doc: str = "", *, required: bool = True) -> Field[object]:
    return Field(shape, doc, required=required)


BOT_LABEL = Named(
    "BotLabel",
    Choice(
        tuple(level.name for level in LEVELS),
        doc="A built-in bot of the library, easiest first (high_society.levels.LEVELS).",
        code=RecordCode.UNKNOWN_BOT,
        what="a bot",
    ),
)


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
            RecordCode.BAD_PLAYERS,
            "a name must show a visible character: a letter, a digit, a punctuation mark "
            "or a symbol",
            path=path,
        )
    return checked


NAME = Named(
    "Name",
    String(
        1,
        MAX_NAME_LENGTH,
        doc="A person's name: 1 to 64 characters, a visible one among them, no control "
        "characters; distinct at a table.",
        check=check_name,
    ),
)


# --- Clocks -------------------------------------------------------------------------------------


def _time_control(**fields: object) -> TimeControl:
    try:
        return TimeControl(**fields)  # type: ignore[arg-type]
    except InvalidConfigError as error:
        raise RecordError(RecordCode.BAD_NUMBER, str(error)) from None


_DURATION = Number(above=0, maximum=MAX_SECONDS, doc="Seconds, more than 0, up to a year.")
_INCREMENT = Number(0, MAX_SECONDS, doc="Seconds, up to a year.")
_LEFT = Number(0, doc="Seconds.")
_TIME = Number(0, doc="Seconds since the epoch.")
#: A table's time control, as a request makes it; component ``TimeControl``.
TIME_CONTROL = Named(
    "TimeControl",
    Object(
        {
            "move": Field(
                Nullable(_DURATION),
                "Seconds for each turn (correspondence: days in seconds), or null.",
                required=False,
            ),
            "bank": Field(
                Nullable(_DURATION),
                "Seconds for the whole game (a Fischer clock), or null; neither: no clock.",
                required=False,
            ),
            "increment": Field(
                _INCREMENT, "Seconds added to a bank after each action in time.", required=False
            ),
            "takeover": Field(
                Integer(1, 100),
                "Time-outs in a row after which a bot plays the seat.",
                required=False,
            ),
            "away_seconds": Field(
                _DURATION, "How long an away seat's turn waits for its person.", required=False
            ),
            "bot": Field(BOT_LABEL, "The bot that plays an away seat.", required=False),
        },
        _time_control,
        "How long each seat may take to act (a table's policy, not a rule of the game): a "
        "time per move or a bank, not both.",
    ),
)
SEAT_CLOCK = Named(
    "SeatClock",
    Object(
        {
            "bank": Field(Nullable(_LEFT), "Seconds left in the seat's bank, or null."),
            "time_outs": Field(Integer(0), "Its time-outs in a row."),
            "away": Field(Boolean(), "A bot plays its turns until its person acts in time."),
        },
        SeatClock,
        "One seat's clock.",
    ),
)


def _clocks(
    control: TimeControl,
    seats: tuple[SeatClock, ...],
    since: float | None,
    timed_out: tuple[int, ...],
    deadline: float | None = None,
) -> Clocks:
    return Clocks(control, seats, since, timed_out)


#: A table's clocks: its time control, each seat's clock, when the turn under way began,
#: when it times out, and which actions time-outs played; component ``Clock``.
CLOCK = Named(
    "Clock",
    Object(
        {
            "control": Field(TIME_CONTROL),
            "seats": Field(Array(SEAT_CLOCK, min_items=MIN_PLAYERS, max_items=MAX_PLAYERS)),
            "since": Field(
                Nullable(_TIME), "When the turn under way began (seconds since the epoch)."
            ),
            "deadline": Field(
                Nullable(_TIME),
                "When the turn under way times out (seconds since the epoch), or null.",
                required=False,
            ),
            "timed_out": Field(Array(Integer(0)), "The numbers of the actions time-outs played."),
        },
        _clocks,
        "A table's clocks.",
    ),
)


# --- What a seat and a spectator are sent ---------------------------------------------------------

PLAYER = Named(
    "Player",
    _object(
        "Who sits at a seat: a person, or a bot (its label).",
        name=_field(NAME),
        bot=_field(Nullable(BOT_LABEL)),
    ),
)
PUBLIC_PLAYER = Named(
    "PublicPlayer",
    _object(
        "What everyone sees of a player (R13).",
        table=_field(_MONEY_CARDS, "The money cards face up this round."),
        passed=_field(Boolean(), "Whether they passed this round."),
        hand_size=_field(_COUNT, "How many money cards they hold."),
        status_cards=_field(_CARDS, "Their status cards."),
    ),
)
CONFIG = Named(
    "Config",
    _object(
        "The game's parameters: the money each player starts with, the status deck.",
        money=_field(_MONEY_CARDS),
        deck=_field(_CARDS),
    ),
)


def _view(seat: Shape[object], hand: Shape[object], doc: str) -> Object[dict[str, object]]:
    """A view of the table (R13): a seat's, with its hand, or everyone's, without."""
    return _object(
        doc,
        seat=_field(seat),
        config=_field(CONFIG),
        hand=_field(hand),
        players=_field(Array(PUBLIC_PLAYER)),
        phase=_field(Choice(Phase), "What the game waits for."),
        turn=_field(SEAT, "The seat to act (in the reveal phase, the round's starter)."),
        auction=_field(Nullable(STATUS_CARD), "The card up for auction."),
        highest_bid=_field(_COUNT, "The highest total face up this round."),
        deck=_field(_CARDS, "The cards still in the deck, in a canonical order (R4)."),
        removed=_field(_CARDS, "The cards out of the game."),
        ending_card=_field(Nullable(STATUS_CARD), "The fourth dark-green card, at the end."),
    )


SEAT_VIEW = Named(
    "SeatView", _view(SEAT, _MONEY_CARDS, "What one seat sees (R13): its own hand too.")
)
PUBLIC_VIEW = Named(
    "PublicView",
    _view(Null(), Null(), "What every seat sees alike (R13): no hand."),
)
TO_ACT = Named(
    "ToAct",
    Nullable(
        AnyOf(SEAT, Const("chance")),
        doc="The seat to act, chance (a card is being revealed), or null: the game is over.",
    ),
)
_HIGHEST_BIDDER = Nullable(SEAT, doc="The seat with the highest total face up, if any.")
_MIN_BID_TOTAL = Nullable(
    Integer(1), doc="The least total a bid must reach now (null outside an auction)."
)
LEGAL = Named(
    "Legal",
    _object(
        "The legal actions of the seat to act, each as it is sent: send one back as a "
        "move's action unchanged.",
        count=_field(Integer(1), "How many legal actions there are."),
        **{"pass": _field(Nullable(PASS_ACTION), "Passing, when it is legal.")},
        bids=_field(
            Array(
                Named(
                    "LegalBid",
                    _object(
                        "A face-up total the seat can reach, with the fewest cards.",
                        total=_field(Integer(1), "The face-up total after the bid."),
                        action=_field(BID_ACTION),
                    ),
                )
            ),
            "One bid per face-up total the seat can reach, the lowest first.",
        ),
        discards=_field(Array(DISCARD_ACTION), "The luxury cards it may give up (Faux Pas)."),
    ),
)
BREAKDOWN = Named(
    "Breakdown",
    _object(
        "How a seat's status is made (R10).",
        luxury_cards=_field(_CARDS),
        luxury_sum=_field(Integer()),
        passe=_field(Boolean()),
        prestige=_field(_COUNT),
        scandale=_field(Boolean()),
        holds_faux_pas=_field(Boolean()),
        status=_field(Number()),
        explain=_field(String(), 'In words: "3 + 7 = 10, 1 prestige x2 = 20".'),
    ),
)
RESULT = Named(
    "Result",
    _object(
        "A finished game's result (R10-R12), one entry per seat in seat order.",
        scores=_field(Array(Number())),
        money=_field(Array(Integer())),
        cast_out=_field(Array(SEAT)),
        winners=_field(Array(SEAT)),
        breakdowns=_field(Array(BREAKDOWN)),
    ),
)
LOG_ENTRY = Named(
    "LogEntry",
    _object("An action told in words.", number=_field(_COUNT), text=_field(String())),
)


def _payload(
    seat: Shape[object], view: Shape[object], legal: Shape[object], doc: str
) -> Object[dict[str, object]]:
    """A seat's payload, or a spectator's."""
    return _object(
        doc,
        seat=_field(seat, "The seat this payload is for (null: a spectator's)."),
        players=_field(
            Array(PLAYER, min_items=MIN_PLAYERS, max_items=MAX_PLAYERS),
            "Who sits at each seat: a name, and a bot's label (null for a person).",
        ),
        number=_field(_NUMBER),
        view=_field(view, "What the seat sees of the table (R13)."),
        to_act=_field(TO_ACT),
        highest_bidder=_field(_HIGHEST_BIDDER),
        min_bid_total=_field(_MIN_BID_TOTAL),
        revealed=_field(_CARDS, "The cards turned so far, in order."),
        legal=_field(legal, "The seat's legal actions when it must act, else null."),
        since=_field(_COUNT, "The first action of history and log."),
        history=_field(Array(ACTION), "The actions from number since on (R14)."),
        log=_field(Array(LOG_ENTRY), "The same actions told in words."),
        result=_field(Nullable(RESULT), "null until the game is over."),
        clock=_field(Nullable(CLOCK), "The table's clocks, or null: no clock."),
    )


#: What a seat is sent (:meth:`Table.payload <high_society.table.Table.payload>`); component
#: ``SeatPayload``.
SEAT_PAYLOAD = Named(
    "SeatPayload",
    _payload(
        SEAT,
        SEAT_VIEW,
        Nullable(LEGAL),
        "What a seat is sent: its view, the public history, and its legal actions when "
        "it must act.",
    ),
)
#: What a spectator is sent: no hand, no legal actions; component ``SpectatorPayload``.
SPECTATOR_PAYLOAD = Named(
    "SpectatorPayload",
    _payload(
        Null(),
        PUBLIC_VIEW,
        Null(),
        "What a spectator is sent: what every seat sees alike and the public history, no hand.",
    ),
)
#: One action of a replayed record, and the table after it as a spectator sees it; component
#: ``ReplayStep``.
REPLAY_STEP = Named(
    "ReplayStep",
    _object(
        "One action of a recorded game, and the table after it as a spectator sees it.",
        number=_field(_COUNT),
        action=_field(ACTION),
        log=_field(Array(String()), "The action told in words."),
        view=_field(PUBLIC_VIEW),
        to_act=_field(TO_ACT),
        highest_bidder=_field(_HIGHEST_BIDDER),
        min_bid_total=_field(_MIN_BID_TOTAL),
    ),
)


# --- What the table server is sent ----------------------------------------------------------------


@attrs.frozen
class Move:
    """A move as a client sends it, read but not yet checked against a table.

    Attributes:
        action: the action (a reveal too: a table refuses it).
        number: the table's number the client saw when it chose, or ``None`` when the move
            came without one (then it is played whatever the number, with no protection
            against a retry being played twice).
    """

    action: Action
    number: int | None = None


#: A seat's move (:func:`~high_society.table.read_move`); component ``MoveRequest``.
MOVE = Named(
    "MoveRequest",
    Object(
        {
            "action": Field(ACTION),
            "number": Field(
                Integer(0),
                "The payload's number when the move was chosen: the move is played only as "
                "the table's next action, and a retry with the same number is not played "
                "twice (the answer says duplicate). Without it the move is played whatever "
                "the number, and a retry may be played again (send it).",
                required=False,
            ),
        },
        Move,
        "A seat's move.",
    ),
)


@attrs.frozen
class NewSeat:
    """A seat of a table to make: ``kind`` ``person`` (with its ``name``), ``bot`` (with its
    ``bot`` label) or ``open`` (for a person who joins later)."""

    kind: str
    name: str | None = None
    bot: str | None = None


def _person(kind: str, name: str) -> NewSeat:
    return NewSeat("person", name=name)


def _bot(kind: str, bot: str) -> NewSeat:
    return NewSeat("bot", bot=bot)


def _open(kind: str) -> NewSeat:
    return NewSeat("open")


def _seats_check(seats: tuple[NewSeat, ...], path: str) -> None:
    """Distinct names, and a person or an open seat among the seats."""
    names = [seat.name for seat in seats if seat.name is not None]
    if len(set(names)) != len(names):
        raise RecordError(RecordCode.BAD_PLAYERS, "two seats have the same name", path=path)
    if all(seat.kind == "bot" for seat in seats):
        raise RecordError(
            RecordCode.BAD_PLAYERS, "a table needs a person (or an open seat)", path=path
        )


NEW_SEAT: Tagged[NewSeat] = Tagged(
    "kind",
    {
        "person": Named(
            "PersonSeat",
            Object(
                {"kind": Field(Const("person")), "name": Field(NAME)},
                _person,
                "A person's seat, named now: the answer gives its token.",
            ),
        ),
        "bot": Named(
            "BotSeat",
            Object(
                {"kind": Field(Const("bot")), "bot": Field(BOT_LABEL)},
                _bot,
                "A built-in bot's seat.",
            ),
        ),
        "open": Named(
            "OpenSeat",
            Object(
                {"kind": Field(Const("open"))},
                _open,
                "A seat a person takes later (POST /api/tables/{table_id}/join).",
            ),
        ),
    },
)


#: The table server's request to make a table: its seats; component ``CreateTable``.
@attrs.frozen
class NewTable:
    """A table to make: its seats, its clock (``None``: none), and whether the lobby lists
    it for strangers to find."""

    seats: tuple[NewSeat, ...]
    clock: TimeControl | None = None
    listed: bool = False


def _new_table_check(table: NewTable, path: str) -> None:
    _seats_check(table.seats, key_path(path, "seats"))


NEW_TABLE = Named(
    "CreateTable",
    Object(
        {
            "seats": Field(
                Array(
                    NEW_SEAT,
                    min_items=MIN_PLAYERS,
                    max_items=MAX_PLAYERS,
                    code=RecordCode.BAD_PLAYERS,
                ),
                "3 to 5 seats, the names distinct, a person or an open seat among them.",
            ),
            "clock": Field(
                Nullable(TIME_CONTROL),
                "How long each seat may take (default: none).",
                required=False,
            ),
            "listed": Field(
                Boolean(),
                "Whether the lobby lists the table (default false: found by its link only).",
                required=False,
            ),
        },
        NewTable,
        "A table to make.",
        check=_new_table_check,
    ),
)
JOIN_TABLE = Named(
    "JoinTable",
    Object({"name": Field(NAME)}, lambda name: name, "A person taking a table's first open seat."),
)


# --- What the table server answers ----------------------------------------------------------------

_TABLE_ID = String(1, 32, doc="The table's id.")
_TOKEN = String(1, 64, doc="The seat's secret token: send it as Authorization: Bearer TOKEN.")

#: The answer to making a table: each person's seat and token; component ``TableCreated``.
TABLE_CREATED = Named(
    "TableCreated",
    _object(
        "A table just made.",
        table=_field(_TABLE_ID),
        status=_field(Choice(("waiting", "playing"))),
        seats=_field(
            Array(
                Named(
                    "SeatToken",
                    _object(
                        "A person's seat and its secret token.",
                        seat=_field(SEAT),
                        token=_field(_TOKEN),
                    ),
                )
            )
        ),
    ),
)
#: A table's seats, status and rematch, for anyone; component ``TableInfo``.
SEAT_INFO = Named(
    "SeatInfo",
    _object(
        "One seat of a table, as anyone sees it.",
        seat=_field(SEAT),
        kind=_field(
            Choice(("person", "bot", "open", "reserved")),
            "reserved: a rematch's seat, kept for the person named until they claim it.",
        ),
        name=_field(Nullable(NAME)),
        bot=_field(Nullable(BOT_LABEL)),
    ),
)
TABLE_INFO = Named(
    "TableInfo",
    _object(
        "A table's seats and where its game is, for anyone.",
        table=_field(_TABLE_ID),
        status=_field(Choice(("waiting", "playing", "over"))),
        number=_field(_NUMBER),
        seats=_field(Array(SEAT_INFO)),
        rematch=_field(
            Nullable(_TABLE_ID), "The id of this table's rematch, once a seat asked for one."
        ),
    ),
)
#: A seat taken (or a rematch's seat), with its token; component ``Joined``.
#: The lobby: the tables their makers listed, with a seat to join or a game to watch;
#: component ``Lobby``.
LOBBY = Named(
    "Lobby",
    _object(
        "The tables the lobby lists that are not over, the latest changed first, a page.",
        tables=_field(
            Array(
                Named(
                    "LobbyTable",
                    _object(
                        "A table the lobby lists: join it while a seat is open, else watch.",
                        table=_field(_TABLE_ID),
                        status=_field(Choice(("waiting", "playing"))),
                        open=_field(_COUNT, "How many seats are open to join."),
                        seats=_field(Array(SEAT_INFO)),
                        clock=_field(Nullable(TIME_CONTROL), "Its clock, or null: none."),
                        number=_field(_NUMBER),
                        updated=_field(_TIME, "When it last changed (seconds since the epoch)."),
                    ),
                )
            )
        ),
        next=_field(
            Nullable(String(1, 64)),
            "The next page's cursor (send it as ?before=), or null: the last page.",
        ),
    ),
)
#: One event of the lobby's stream, its data parsed; component ``LobbyEvent``.
LOBBY_EVENT = Named(
    "LobbyEvent",
    _object(
        "One Server-Sent Event of the lobby's stream, its data parsed.",
        event=_field(Const("lobby"), "The event's name."),
        data=_field(LOBBY, "The lobby's first page, as JSON text on the event's data lines."),
    ),
)
JOINED = Named(
    "Joined",
    _object(
        "The seat taken, and its secret token.",
        table=_field(_TABLE_ID),
        seat=_field(SEAT),
        token=_field(_TOKEN),
    ),
)
#: Which seat a token is; component ``YourSeat``.
YOUR_SEAT = Named(
    "YourSeat",
    _object(
        "The seat whose token the request carries.", table=_field(_TABLE_ID), seat=_field(SEAT)
    ),
)
#: The answer to a move: it, its number, and who acts next; component ``MoveAccepted``.
MOVE_ACCEPTED = Named(
    "MoveAccepted",
    _object(
        "A move taken: committed before this answer.",
        action=_field(ACTION),
        number=_field(_COUNT, "The move's place in the history."),
        duplicate=_field(Boolean(), "A retry of the move already played with this number."),
        next=_field(
            Named(
                "NextTurn",
                _object(
                    "The table after the move: its number and who acts.",
                    number=_field(_NUMBER),
                    to_act=_field(TO_ACT),
                ),
            )
        ),
    ),
)
#: The bots a seat can have; component ``BotList``.
BOT_LIST = Named(
    "BotList",
    _object(
        "Every bot a seat can have, as levels a person chooses from: easiest first.",
        bots=_field(
            Array(
                Named(
                    "BotInfo",
                    _object(
                        "A bot a seat can have (high_society.levels.Level).",
                        label=_field(BOT_LABEL),
                        level=_field(Integer(1), "1 for the easiest."),
                        tier=_field(Choice(TIERS), "Its level in a word."),
                        description=_field(String(), "How it plays, in a sentence."),
                        rating=_field(Number(), "The mean of its ratings: the order's key."),
                        ratings=_field(
                            Array(
                                Named(
                                    "BotRating",
                                    _object(
                                        "Its OpenSkill rating at one table size, with its "
                                        "95% interval.",
                                        players=_field(Integer(3, 5)),
                                        mu=_field(Number()),
                                        low=_field(Number()),
                                        high=_field(Number()),
                                    ),
                                )
                            )
                        ),
                    ),
                )
            )
        ),
    ),
)
REPLAY = Named(
    "Replay",
    _object(
        "A recorded game checked by the library, and what a viewer is shown of its valid actions.",
        valid=_field(Boolean()),
        finished=_field(Boolean(), "Valid, and its last action ended the game."),
        error=_field(
            Nullable(
                Named(
                    "ReplayProblem",
                    _object(
                        "Why a record is refused, as high-society validate --json says it.",
                        index=_field(
                            Nullable(_COUNT),
                            "The first refused action's index, or null: the problem lies "
                            "outside the actions.",
                        ),
                        path=_field(String(), "Where in the record: a JSON path."),
                        code=_field(
                            String(),
                            "The library's code (RecordCode, or the engine's Reason for an "
                            "illegal action).",
                        ),
                        message=_field(String()),
                    ),
                )
            )
        ),
        steps=_field(
            Array(REPLAY_STEP),
            "Each action before the first refused one (all of a valid record's).",
        ),
        final=_field(
            Nullable(SPECTATOR_PAYLOAD),
            "The spectator payload after those actions (its players and, at the end, the "
            "result); null when the record's players cannot be read.",
        ),
    ),
)
#: Whether the server is up; component ``Health``.
HEALTH = Named(
    "Health",
    _object(
        "The server is up.",
        ok=_field(Boolean()),
        streams=_field(_COUNT, "The event streams this process holds."),
        now=_field(_TIME, "The server's time (seconds since the epoch): a clock's reference."),
    ),
)


class ErrorKind(enum.StrEnum):
    """Every ``kind`` of the table server's error answers (each has one HTTP status)."""

    #: Not JSON, or not of the request's form (400).
    MALFORMED = "malformed"
    #: A body that is not declared ``application/json`` (415): a cross-site form cannot
    #: send one.
    WRONG_MEDIA_TYPE = "wrong_media_type"
    #: A body that did not arrive whole in time (408).
    TOO_SLOW = "too_slow"
    #: No token, or not a seat's token at this table (401).
    UNAUTHORIZED = "unauthorized"
    #: A reveal: the table deals (403, R4).
    NOT_ALLOWED = "not_allowed"
    #: An action for another seat (403).
    NOT_YOUR_SEAT = "not_your_seat"
    #: No such table, or no such path (404).
    NOT_FOUND = "not_found"
    #: The path exists, but not for this method (405).
    WRONG_METHOD = "wrong_method"
    #: A move numbered for another moment (409).
    WRONG_NUMBER = "wrong_number"
    #: The table cannot do that now: it waits for players, has no open seat, the name is
    #: taken (409).
    CONFLICT = "conflict"
    #: A body over its bound (413), or a request head (431).
    TOO_LARGE = "too_large"
    #: Well formed and your own, but the rules forbid it now (422).
    ILLEGAL = "illegal"
    #: Too many streams for this seat or address, or tables made too fast (429).
    TOO_MANY = "too_many"
    #: The database cannot answer now, or the server is at a bound of its own (503).
    UNAVAILABLE = "unavailable"
    #: The server failed: a bug, logged (500).
    INTERNAL = "internal"


class RefusalKind(enum.StrEnum):
    """Why a table refused a move (:meth:`high_society.table.Table.submit`), in the order the
    checks are made: each is also an :class:`ErrorKind` of the server's answer."""

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


#: A move a table refused (:class:`~high_society.table.Refusal`); component ``Refusal``.
REFUSAL = Named(
    "Refusal",
    _object(
        "A move a table refused; the table is unchanged.",
        kind=_field(Choice(RefusalKind)),
        code=_field(String(), "A stable code: a TableCode, a RecordCode or a Reason."),
        message=_field(String(), "One sentence for people, the players called by name."),
        path=_field(String(), "Where in the move: a JSON path."),
    ),
)

#: Every error answer of the table server; component ``Error``.
ERROR = Named(
    "Error",
    _object(
        "Every error answer.",
        kind=_field(Named("ErrorKind", Choice(ErrorKind))),
        code=_field(String(), "A stable code: match on it, with a fallback."),
        message=_field(String(), "One sentence for people."),
        path=_field(String(), "Where in the request: a JSON path."),
    ),
)


def _event(payload: Named[dict[str, object]], doc: str) -> Object[dict[str, object]]:
    return _object(
        doc,
        event=_field(Const("payload"), "The event's name."),
        id=_field(_NUMBER, "The table's number: a reconnecting stream sends it back."),
        data=_field(payload, "The payload, as JSON text on the event's data lines."),
    )


#: One event of a seat's stream, its data parsed; component ``SeatEvent``.
SEAT_EVENT = Named(
    "SeatEvent",
    _event(SEAT_PAYLOAD, "One Server-Sent Event of a seat's stream, its data parsed."),
)
#: One event of a spectator's stream, its data parsed; component ``SpectatorEvent``.
SPECTATOR_EVENT = Named(
    "SpectatorEvent",
    _event(SPECTATOR_PAYLOAD, "One Server-Sent Event of a spectator's stream, its data parsed."),
)


# --- Schemas --------------------------------------------------------------------------------------

#: The ``$id`` and title of each shape's standalone schema.
_STANDALONE: Mapping[str, tuple[str, str]] = {
    "SeatPayload": (
        "urn:high-society:seat-payload:v2",
        "What a High Society server sends one seat",
    ),
    "SpectatorPayload": (
        "urn:high-society:spectator-payload:v2",
        "What a High Society server sends a spectator",
    ),
    "ReplayStep": (
        "urn:high-society:replay-step:v2",
        "One action of a recorded game as a viewer is shown it",
    ),
    "MoveRequest": ("urn:high-society:move:v1", "A move a High Society seat sends"),
}


def json_schema(shape: Named[T]) -> JSONObject:
    """The standalone JSON Schema (draft 2020-12) of one of this module's shapes: its named
    parts in ``$defs``, an action and a record referred to by their ``$id``
    (``urn:high-society:action:v1``, ...; :func:`high_society.record.action_schema`)."""
    identifier, title = _STANDALONE.get(
        shape.name, (f"urn:high-society:{shape.name.lower()}:v1", shape.name)
    )
    return standalone(shape, identifier, title)


def components(*shapes: Shape[object]) -> dict[str, JSONObject]:
    """The definitions an OpenAPI document needs for ``shapes`` (and whatever they refer
    to), by name, every ``$ref`` pointing into ``#/components/schemas``: an action's forms
    are components of their own, chosen by their ``type`` (a discriminator)."""
    into = Schemas("#/components/schemas/", inline_external=True)
    for shape in shapes:
        shape.schema(into)
    return into.defined
