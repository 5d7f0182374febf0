"""What a spectator watches: a table's public payload, and its event stream."""

from starlette.requests import Request
from starlette.responses import Response

from high_society.server._api import Answer, Api
from high_society.server._errors import error_for
from high_society.server._services import open_stream, services
from high_society.server._takes import ADDRESS, LAST_EVENT_ID, SINCE, TABLE_ID
from high_society.wire import SPECTATOR_EVENT, SPECTATOR_PAYLOAD

__all__ = ["api"]

api = Api()


@api.route(
    "GET",
    "/tables/{table_id}/public",
    summary="What a spectator sees now (public)",
    takes=(TABLE_ID, SINCE),
    answer=Answer(SPECTATOR_PAYLOAD, doc="The spectator payload: the public view, no hand"),
    errors=(400, 404, 409, 503),
)
async def public(request: Request, table_id: str, since: int) -> Response:
    """The seat payload's keys, with seat, the view's seat and hand, and legal null: what
    every seat sees alike (R13), and nothing of any hand."""
    try:
        data = await services(request).games.payload(table_id, -1, since)
    except Exception as error:
        raise error_for(error) from None
    return Response(data, media_type="application/json")


@api.route(
    "GET",
    "/tables/{table_id}/public/events",
    summary="A spectator's pushed updates (Server-Sent Events, public)",
    takes=(TABLE_ID, SINCE, LAST_EVENT_ID, ADDRESS),
    answer=Answer(
        SPECTATOR_EVENT,
        media="text/event-stream",
        doc="Server-Sent Events, each a SpectatorEvent: as a seat's stream, with the "
        "spectator payload as each event's data",
    ),
    errors=(400, 404, 409, 429, 503),
)
async def public_events(
    request: Request, table_id: str, since: int, last_event_id: None, address: str
) -> Response:
    """Bounded per address and per process like a seat's streams (no bound per table)."""
    return await open_stream(services(request), table_id, -1, since, address)
