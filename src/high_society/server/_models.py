"""The API's requests and answers as models, from which FastAPI makes the OpenAPI document.

The server reads each request itself, at the edge (:mod:`high_society.server._edge`: bounded
and strict, with the library's codes), and writes each answer itself; these models say what
those are, for the document and the clients generated from it, and the tests check the
two agree. The seat payload, an action and a record are the library's own JSON Schemas,
put into the document's components (:mod:`high_society.server._openapi`) and referred to
here.
"""

from typing import Annotated, Literal

from fastapi import Header, Path, Query, Security
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from high_society.cards import MAX_PLAYERS, MIN_PLAYERS
from high_society.record import MAX_NAME_LENGTH
from high_society.server._bots import BOTS
from high_society.server._errors import ErrorKind
from high_society.server._openapi import LIBRARY_SCHEMA

__all__ = [
    "ActionJson",
    "BotList",
    "CreateTable",
    "Error",
    "Health",
    "JoinTable",
    "Joined",
    "MoveAccepted",
    "MoveRequest",
    "RecordJson",
    "Replay",
    "TableCreated",
    "TableInfo",
    "YourSeat",
    "component",
    "table_id_param",
]


def component(name: str) -> WithJsonSchema:
    """A type's schema: the library's component ``name`` of the document (a mark that
    :func:`~high_society.server._openapi.add_library_components` turns into a ``$ref``:
    pydantic cannot refer to a schema it did not make)."""
    return WithJsonSchema({LIBRARY_SCHEMA: name})


#: An action in the recorded-game form (the library's action schema).
ActionJson = Annotated[dict[str, object], component("Action")]
#: A recorded game (format v1).
RecordJson = Annotated[dict[str, object], component("Record")]

Name = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_NAME_LENGTH,
        description="A person's name: 1 to 64 characters, a visible one among them, no "
        "control characters; distinct at a table.",
    ),
]
SeatNumber = Annotated[int, Field(ge=0, le=MAX_PLAYERS - 1)]
BotLabel = Literal[BOTS]  # type: ignore[valid-type]


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PersonSeat(_Request):
    """A person's seat, named now: the answer gives its token."""

    kind: Literal["person"]
    name: Name


class BotSeat(_Request):
    """A built-in bot's seat."""

    kind: Literal["bot"]
    bot: BotLabel


class OpenSeat(_Request):
    """A seat a person takes later (``POST /api/tables/{table_id}/join``)."""

    kind: Literal["open"]


SeatRequest = Annotated[PersonSeat | BotSeat | OpenSeat, Field(discriminator="kind")]


class CreateTable(_Request):
    """A table to make: 3 to 5 seats, a person or an open seat among them."""

    seats: Annotated[list[SeatRequest], Field(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS)]


class JoinTable(_Request):
    """A person taking a table's first open seat."""

    name: Name


class MoveRequest(_Request):
    """A seat's move."""

    action: ActionJson
    number: Annotated[
        int | None,
        Field(
            ge=0,
            description="The payload's number when the move was chosen: the move is played "
            "only as the table's next action, and a retry with the same number is not "
            "played twice (the answer says duplicate). Without it the move is played "
            "whatever the number, and a retry may be played again (send it).",
        ),
    ] = None


class SeatToken(BaseModel):
    """A person's seat and its secret token (send it as ``Authorization: Bearer TOKEN``)."""

    seat: SeatNumber
    token: str


class TableCreated(BaseModel):
    """A table just made."""

    table: str
    status: Literal["waiting", "playing"]
    seats: list[SeatToken]


class SeatInfo(BaseModel):
    """One seat of a table, as anyone sees it."""

    seat: SeatNumber
    kind: Annotated[
        Literal["person", "bot", "open", "reserved"],
        Field(
            description="reserved: a rematch's seat, kept for the person named until they claim it."
        ),
    ]
    name: str | None
    bot: str | None


class TableInfo(BaseModel):
    """A table's seats and where its game is, for anyone."""

    table: str
    status: Literal["waiting", "playing", "over"]
    number: Annotated[int, Field(ge=0, description="How many actions have been played.")]
    seats: list[SeatInfo]
    rematch: Annotated[
        str | None,
        Field(description="The id of this table's rematch, once a seat asked for one."),
    ]


class Joined(BaseModel):
    """The seat taken, and its secret token."""

    table: str
    seat: SeatNumber
    token: str


class YourSeat(BaseModel):
    """The seat whose token the request carries."""

    table: str
    seat: SeatNumber


class NextTurn(BaseModel):
    """The table after a move: its number and who acts."""

    number: Annotated[int, Field(ge=0)]
    to_act: Annotated[
        SeatNumber | Literal["chance"] | None,
        Field(description="The seat to act, chance (a card is being revealed), or null: over."),
    ]


class MoveAccepted(BaseModel):
    """A move taken: committed before this answer."""

    action: ActionJson
    number: Annotated[int, Field(ge=0, description="The move's place in the history.")]
    duplicate: Annotated[
        bool, Field(description="A retry of the move already played with this number.")
    ]
    next: NextTurn


class BotInfo(BaseModel):
    """A bot a seat can have."""

    label: BotLabel
    description: Annotated[str, Field(description="How it plays, in a sentence.")]


class BotList(BaseModel):
    """Every bot a seat can have, in the order a page offers them."""

    bots: list[BotInfo]


class ReplayProblem(BaseModel):
    """Why a record is refused, as ``high-society validate --json`` says it."""

    index: Annotated[
        int | None,
        Field(
            ge=0,
            description="The first refused action's index, or null: the problem "
            "lies outside the actions.",
        ),
    ]
    path: Annotated[str, Field(description="Where in the record: a JSON path.")]
    code: Annotated[
        str,
        Field(
            description="The library's code (RecordCode, or the "
            "engine's Reason for an illegal action)."
        ),
    ]
    message: str


SpectatorPayloadJson = Annotated[dict[str, object], component("SpectatorPayload")]


class Replay(BaseModel):
    """A recorded game checked by the library, and what a viewer is shown of its valid
    actions."""

    valid: bool
    finished: Annotated[bool, Field(description="Valid, and its last action ended the game.")]
    error: ReplayProblem | None
    steps: Annotated[
        list[Annotated[dict[str, object], component("ReplayStep")]],
        Field(
            description="Each action before the first refused one (all of a valid "
            "record's), with its narration and the table after it as a spectator sees it."
        ),
    ]
    final: Annotated[
        SpectatorPayloadJson | None,
        Field(
            description="The spectator payload after those actions (its players and, at "
            "the end, the result); null when the record's players cannot be read."
        ),
    ]


class Health(BaseModel):
    """The server is up."""

    ok: bool
    streams: Annotated[int, Field(ge=0, description="The event streams this process holds.")]


class Error(BaseModel):
    """Every error answer."""

    kind: ErrorKind
    code: Annotated[str, Field(description="A stable code: match on it, with a fallback.")]
    message: Annotated[str, Field(description="One sentence for people.")]
    path: Annotated[str, Field(description="Where in the request: a JSON path.")]


# --- Parameters, as the document states them (the edge reads them: see _edge) -------------

bearer = HTTPBearer(
    auto_error=False,
    scheme_name="seatToken",
    description="The seat's token, from making or joining the table.",
)


def table_id_param(
    table_id: Annotated[str, Path(max_length=32, description="The table's id.")],
) -> None:
    """The table's id in the path."""


def seat_param(
    token: Annotated[HTTPAuthorizationCredentials | None, Security(bearer)],
) -> None:
    """The seat's token."""


def since_param(
    since: Annotated[
        int | None,
        Query(
            ge=0,
            le=999_999_999,
            description="The first action of the history to include (default 0; at most "
            "the table's number).",
        ),
    ] = None,
) -> None:
    """The history wanted."""


def last_event_id_param(
    last_event_id: Annotated[
        int | None,
        Header(
            alias="Last-Event-ID",
            ge=0,
            le=999_999_999,
            description="Sent by a reconnecting event stream: the history from there "
            "(since wins when both are given).",
        ),
    ] = None,
) -> None:
    """An event stream's reconnection."""
