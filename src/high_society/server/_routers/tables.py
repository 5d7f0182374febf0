"""Tables and their lobby: make one, read its seats, join it, its record, its rematch; the
tables listed for strangers, and their stream."""

from starlette.requests import Request
from starlette.responses import Response

from high_society._shapes import String
from high_society.server._api import Answer, Api, Body, Param
from high_society.server._encoding import json_answer
from high_society.server._errors import ApiError, ErrorKind, error_for
from high_society.server._lobby import lobby_page, read_cursor
from high_society.server._services import open_lobby_stream, services
from high_society.server._takes import ADDRESS, TABLE_ID, TOKEN
from high_society.wire import (
    JOIN_TABLE,
    JOINED,
    LOBBY,
    LOBBY_EVENT,
    NEW_TABLE,
    RECORD,
    TABLE_CREATED,
    TABLE_INFO,
    NewTable,
)

__all__ = ["api"]

api = Api()


@api.route(
    "POST",
    "/tables",
    summary="Make a table",
    takes=(Body(NEW_TABLE), ADDRESS),
    answer=Answer(TABLE_CREATED, 201, doc="The table made"),
    errors=(400, 408, 413, 415, 429, 503),
)
async def create_table(request: Request, body: NewTable, address: str) -> Response:
    """The answer gives each named person's seat and secret token; the game starts, its
    first card revealed, when no seat is open. One address makes a bounded number of
    tables a minute (429, with Retry-After)."""
    try:
        made = await services(request).tables.create(body, address)
    except Exception as error:
        raise error_for(error) from None
    seats = [{"seat": seat, "token": token} for seat, token in made.tokens]
    status = "playing" if made.started else "waiting"
    return json_answer({"table": made.table_id, "status": status, "seats": seats}, 201)


@api.route(
    "GET",
    "/tables/{table_id}",
    summary="A table's seats and status (public)",
    takes=(TABLE_ID,),
    answer=Answer(TABLE_INFO),
    errors=(404, 503),
)
async def get_table(request: Request, table_id: str) -> Response:
    try:
        lobby = await services(request).tables.lobby(table_id)
    except Exception as error:
        raise error_for(error) from None
    seats = [
        {"seat": row.seat, "kind": row.kind, "name": row.name, "bot": row.bot}
        for row in lobby.seats
    ]
    body = {"table": lobby.table_id, "status": lobby.status, "number": lobby.version}
    return json_answer({**body, "seats": seats, "rematch": lobby.rematch})


@api.route(
    "POST",
    "/tables/{table_id}/join",
    summary="Take the first open seat",
    takes=(TABLE_ID, Body(JOIN_TABLE)),
    answer=Answer(JOINED),
    errors=(400, 404, 408, 409, 413, 415, 503),
)
async def join(request: Request, table_id: str, body: str) -> Response:
    """The answer gives the seat and its secret token. The game starts when no seat is
    open."""
    try:
        seat, token = await services(request).tables.join(table_id, body)
    except Exception as error:
        raise error_for(error) from None
    return json_answer({"table": table_id, "seat": seat, "token": token})


@api.route(
    "GET",
    "/tables/{table_id}/record",
    summary="The game so far as a recorded game (format v1)",
    takes=(TABLE_ID,),
    answer=Answer(RECORD, doc="A v1 record, which high-society validate accepts"),
    errors=(404, 409, 503),
)
async def record(request: Request, table_id: str) -> Response:
    try:
        text = await services(request).games.record(table_id)
    except Exception as error:
        raise error_for(error) from None
    disposition = f'attachment; filename="high-society-{table_id}.json"'
    return Response(
        text, media_type="application/json", headers={"Content-Disposition": disposition}
    )


@api.route(
    "POST",
    "/tables/{table_id}/rematch",
    summary="Your seat at the rematch of this finished table",
    takes=(TABLE_ID, TOKEN, ADDRESS),
    answer=Answer(JOINED),
    errors=(401, 404, 409, 429, 503),
)
async def rematch(request: Request, table_id: str, token: str, address: str) -> Response:
    """The first seat to ask makes the rematch: the same people and bots, each one seat on
    (another player starts), a fresh shuffle, every person's seat reserved for them. Each
    person's ask (this table's token) gives their seat there and its token, the same each
    time they ask. It starts when every person has asked, as a table starts when its
    last seat is joined; this table's description names it (rematch). Making it counts in
    the asking address's table budget (429, as for making a table)."""
    try:
        made = await services(request).tables.rematch(table_id, token, address)
    except Exception as error:
        raise error_for(error) from None
    return json_answer({"table": made.table_id, "seat": made.seat, "token": made.token})


def _before(request: Request) -> tuple[float, str] | None:
    try:
        return read_cursor(request.query_params.get("before"))
    except ValueError:
        raise ApiError(
            ErrorKind.MALFORMED, "WRONG_TYPE", "before is the next cursor a page gave", "$.before"
        ) from None


BEFORE: Param[tuple[float, str] | None] = Param(
    "before",
    "query",
    "before",
    String(1, 64),
    "Where the page before ended: its next cursor (default: the first page).",
    _before,
)


@api.route(
    "GET",
    "/lobby",
    summary="The tables listed for strangers: seats to join, games to watch (public)",
    takes=(BEFORE,),
    answer=Answer(LOBBY),
    errors=(400, 503),
)
async def lobby(request: Request, before: tuple[float, str] | None) -> Response:
    """The tables whose makers listed them and that are not over, the latest changed
    first, 50 a page (next: the cursor of the page after). Nothing secret is in it."""
    try:
        return json_answer(await lobby_page(services(request).store, before))
    except Exception as error:
        raise error_for(error) from None


@api.route(
    "GET",
    "/lobby/events",
    summary="The lobby's pushed updates (Server-Sent Events, public)",
    takes=(ADDRESS,),
    answer=Answer(
        LOBBY_EVENT,
        media="text/event-stream",
        doc="Server-Sent Events, each a LobbyEvent: the lobby's first page now and after "
        "each change; a comment (: keep-alive) after about 15 s of silence",
    ),
    errors=(429, 503),
)
async def lobby_events(request: Request, address: str) -> Response:
    """Bounded per address and per process like the tables' streams."""
    return open_lobby_stream(services(request), address)
