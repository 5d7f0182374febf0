"""A seat's: which seat a token is, what the seat sees, its moves, its event stream."""

from starlette.requests import Request
from starlette.responses import Response

from high_society.server._api import Answer, Api, Body
from high_society.server._encoding import json_answer
from high_society.server._errors import error_for, refused
from high_society.server._services import open_stream, services
from high_society.server._takes import ADDRESS, LAST_EVENT_ID, SEAT, SINCE, TABLE_ID
from high_society.table import MAX_MOVE_BYTES, Accepted
from high_society.wire import MOVE, MOVE_ACCEPTED, SEAT_EVENT, SEAT_PAYLOAD, YOUR_SEAT, Move

__all__ = ["api"]

api = Api()


@api.route(
    "GET",
    "/tables/{table_id}/seat",
    summary="Which seat your token is",
    takes=(TABLE_ID, SEAT),
    answer=Answer(YOUR_SEAT),
    errors=(401, 404, 503),
)
async def your_seat(request: Request, table_id: str, seat: int) -> Response:
    """Answered whatever the table's status (waiting, playing or over): what a client
    asks before it keeps a token it was given (a seat link), and nothing more."""
    return json_answer({"table": table_id, "seat": seat})


@api.route(
    "GET",
    "/tables/{table_id}/payload",
    summary="What your seat sees now",
    takes=(TABLE_ID, SEAT, SINCE),
    answer=Answer(SEAT_PAYLOAD, doc="The seat payload"),
    errors=(400, 401, 404, 409, 503),
)
async def payload(request: Request, table_id: str, seat: int, since: int) -> Response:
    try:
        data = await services(request).games.payload(table_id, seat, since)
    except Exception as error:
        raise error_for(error) from None
    return Response(data, media_type="application/json")


@api.route(
    "POST",
    "/tables/{table_id}/actions",
    summary="Play a move",
    takes=(TABLE_ID, SEAT, Body(MOVE, MAX_MOVE_BYTES)),
    answer=Answer(MOVE_ACCEPTED),
    errors=(400, 401, 403, 404, 408, 409, 413, 415, 422, 503),
)
async def act(request: Request, table_id: str, seat: int, body: Move) -> Response:
    """The move is committed, with the reveal it makes due, before the answer, which says
    who acts next. Send the payload's number with it: a retry with the same number is
    not played twice. Any entry of the payload's legal is an action to send as it is."""
    try:
        played = await services(request).master.submit(table_id, seat, body)
    except Exception as error:
        raise error_for(error) from None
    outcome = played.outcome
    if not isinstance(outcome, Accepted):
        raise refused(outcome)
    answer = outcome.to_json()
    answer["next"] = {"number": played.number, "to_act": played.to_act}
    return json_answer(answer)


@api.route(
    "GET",
    "/tables/{table_id}/events",
    summary="Pushed updates (Server-Sent Events)",
    takes=(TABLE_ID, SEAT, SINCE, LAST_EVENT_ID, ADDRESS),
    answer=Answer(
        SEAT_EVENT,
        media="text/event-stream",
        doc="Server-Sent Events, each a SeatEvent (its data the seat payload as JSON, its "
        "id the table's number) now and after every action; a comment (: keep-alive) after "
        "about 15 s of silence; the stream ends after the game's end",
    ),
    errors=(400, 401, 404, 409, 429, 503),
)
async def events(
    request: Request, table_id: str, seat: int, since: int, last_event_id: None, address: str
) -> Response:
    """Actions committed together (a move and the reveal it makes due), or faster than the
    stream sends, come in one event: read its history from since."""
    return await open_stream(services(request), table_id, seat, since, address)
