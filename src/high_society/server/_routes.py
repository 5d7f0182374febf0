"""The HTTP face: the API's routes. Each reads its request at the edge
(:mod:`~high_society.server._edge`), asks the master, and writes the answer; nothing here
knows a rule of the game.

Tables (``/api/tables``): make one, read its seats, join it, its record, and what a
spectator sees (a payload and an event stream), for anyone. A seat's (``Authorization:
Bearer TOKEN``): its payload, its moves, its event stream, its seat at the rematch. And
for anyone: the bots a seat can have, and a recorded game replayed.
"""

import asyncio
from collections.abc import Callable, Coroutine, Sequence
from typing import Annotated, Any, cast

import attrs
from fastapi import APIRouter, Body, Depends
from fastapi.params import Depends as DependsParam
from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import Response

from high_society.server import _edge as edge
from high_society.server._bots import BOT_DESCRIPTIONS
from high_society.server._encoding import fast_json
from high_society.server._errors import ApiError, ErrorKind, error_for, refused
from high_society.server._limits import Limits, Rate
from high_society.server._master import Master
from high_society.server._models import (
    BotList,
    CreateTable,
    Error,
    Health,
    Joined,
    JoinTable,
    MoveAccepted,
    MoveRequest,
    RecordJson,
    Replay,
    TableCreated,
    TableInfo,
    YourSeat,
    last_event_id_param,
    seat_param,
    since_param,
    table_id_param,
)
from high_society.server._notify import Notifier
from high_society.server._replays import MAX_REPLAY_BYTES, replayed
from high_society.server._streams import EventStream, StreamSlots, Watcher, seat_events
from high_society.table import MAX_MOVE_BYTES, Accepted

__all__ = ["Services", "router"]


@attrs.define
class Services:
    """What the routes call, kept on the application's state (``app.state.services``)."""

    master: Master
    notifier: Notifier
    watcher: Watcher
    streams: StreamSlots
    limits: Limits
    replays: Rate
    all_replays: Rate


def _services(request: Request) -> Services:
    found: Services = request.app.state.services
    return found


Endpoint = Callable[[Request], Coroutine[Any, Any, Response]]


class LeanRoute(APIRoute):
    """A route that FastAPI documents as usual (from its dependencies, body and answer
    models) but whose endpoint is called with the request alone: it reads what it takes
    itself, at the edge, so FastAPI's dependency solving and checks, which cost more than
    the endpoint's own work, are skipped. Its dependencies only describe the request to the
    OpenAPI document: they are never called (the API's tests send every parameter)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        return cast(Endpoint, self.endpoint)


router = APIRouter(prefix="/api", route_class=LeanRoute)


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The error answers of a route, each with the one error shape."""
    return {status: {"model": Error, "description": _WHEN[status]} for status in statuses}


_WHEN = {
    400: "Malformed: not JSON, or not of the request's form (kind malformed)",
    408: "The body did not arrive whole in time (kind too_slow)",
    415: "The body is not declared application/json (kind wrong_media_type)",
    401: "No token, or not a seat's token at this table (kind unauthorized)",
    403: "A reveal (not_allowed), or another seat's action (not_your_seat)",
    404: "No such table (kind not_found)",
    409: "The table waits for players, has no open seat or has the name, its game is "
    "not over for a rematch (conflict); a move numbered for another moment (wrong_number)",
    413: "The body is larger than its bound (kind too_large)",
    422: "Illegal now: the engine's reason code (kind illegal)",
    429: "Too many event streams for this seat or address, or tables made or records "
    "replayed too fast (kind too_many; Retry-After)",
    503: "The database cannot answer now, or a bound of the server is reached "
    "(kind unavailable; Retry-After)",
}


def _declared_body(model: type[Any]) -> DependsParam:
    """A request body of ``model``, for the document."""

    def body(body: Annotated[model, Body()]) -> None:  # type: ignore[valid-type]
        """The request's body."""

    declared: DependsParam = Depends(body)
    return declared


def _declared(*functions: Callable[..., None]) -> Sequence[DependsParam]:
    return [Depends(function) for function in functions]


async def _body(request: Request, services: Services, limit: int = edge.MAX_BODY_BYTES) -> bytes:
    return await edge.read_body(request, limit, services.limits.body_seconds)


def _address(request: Request) -> str:
    """The client's address (the proxy's, behind a reverse proxy uvicorn does not trust)."""
    client = request.scope.get("client")
    return str(client[0]) if client else ""


def _json(value: object, status: int = 200) -> Response:
    return Response(fast_json(value), status, media_type="application/json")


# --- Tables ---------------------------------------------------------------------------------


@router.post(
    "/tables",
    status_code=201,
    summary="Make a table",
    response_model=TableCreated,
    responses=_errors(400, 408, 413, 415, 429, 503),
    dependencies=[_declared_body(CreateTable)],
)
async def create_table(request: Request) -> Response:
    """The answer gives each named person's seat and secret token; the game starts, its
    first card revealed, when no seat is open. One address makes a bounded number of
    tables a minute (429, with Retry-After)."""
    services = _services(request)
    specs = edge.seat_specs(await _body(request, services))
    try:
        made = await services.master.create(specs, _address(request))
    except Exception as error:
        raise error_for(error) from None
    seats = [{"seat": seat, "token": token} for seat, token in made.tokens]
    status = "playing" if made.started else "waiting"
    return _json({"table": made.table_id, "status": status, "seats": seats}, 201)


@router.get(
    "/tables/{table_id}",
    summary="A table's seats and status (public)",
    response_model=TableInfo,
    responses=_errors(404, 503),
    dependencies=_declared(table_id_param),
)
async def get_table(request: Request) -> Response:
    table_id = request.path_params["table_id"]
    try:
        lobby = await _services(request).master.lobby(table_id)
    except Exception as error:
        raise error_for(error) from None
    seats = [
        {"seat": row.seat, "kind": row.kind, "name": row.name, "bot": row.bot}
        for row in lobby.seats
    ]
    body = {"table": lobby.table_id, "status": lobby.status, "number": lobby.version}
    return _json({**body, "seats": seats, "rematch": lobby.rematch})


@router.post(
    "/tables/{table_id}/join",
    summary="Take the first open seat",
    response_model=Joined,
    responses=_errors(400, 404, 408, 409, 413, 415, 503),
    dependencies=[*_declared(table_id_param), _declared_body(JoinTable)],
)
async def join(request: Request) -> Response:
    """The answer gives the seat and its secret token. The game starts when no seat is
    open."""
    table_id = request.path_params["table_id"]
    name = edge.join_name(await _body(request, _services(request)))
    try:
        seat, token = await _services(request).master.join(table_id, name)
    except Exception as error:
        raise error_for(error) from None
    return _json({"table": table_id, "seat": seat, "token": token})


@router.get(
    "/tables/{table_id}/record",
    summary="The game so far as a recorded game (format v1)",
    responses={
        200: {
            "description": "A v1 record, which high-society validate accepts",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Record"}}},
        },
        **_errors(404, 409, 503),
    },
    dependencies=_declared(table_id_param),
)
async def record(request: Request) -> Response:
    table_id = request.path_params["table_id"]
    try:
        text = await _services(request).master.record(table_id)
    except Exception as error:
        raise error_for(error) from None
    disposition = f'attachment; filename="high-society-{table_id}.json"'
    return Response(
        text, media_type="application/json", headers={"Content-Disposition": disposition}
    )


@router.get(
    "/tables/{table_id}/public",
    summary="What a spectator sees now (public)",
    responses={
        200: {
            "description": "The spectator payload: the public view, no hand",
            "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/SpectatorPayload"}}
            },
        },
        **_errors(400, 404, 409, 503),
    },
    dependencies=_declared(table_id_param, since_param),
)
async def public(request: Request) -> Response:
    """The seat payload's keys, with ``seat``, the view's ``seat`` and ``hand``, and
    ``legal`` null: what every seat sees alike (R13), and nothing of any hand."""
    master = _services(request).master
    since = edge.since(request)
    try:
        data = await master.spectator_payload(request.path_params["table_id"], since)
    except Exception as error:
        raise error_for(error) from None
    return Response(data, media_type="application/json")


@router.get(
    "/tables/{table_id}/public/events",
    summary="A spectator's pushed updates (Server-Sent Events, public)",
    responses={
        200: {
            "description": "text/event-stream: as a seat's stream, with the spectator "
            "payload as each event's data",
            "content": {"text/event-stream": {"schema": {"type": "string"}}},
        },
        **_errors(400, 404, 409, 429, 503),
    },
    dependencies=_declared(table_id_param, since_param, last_event_id_param),
)
async def public_events(request: Request) -> Response:
    """Bounded per address and per process like a seat's streams (no bound per table)."""
    table_id: str = request.path_params["table_id"]
    return await _stream(request, table_id, -1, edge.since(request))


# --- A seat's -------------------------------------------------------------------------------


async def _seat(request: Request, master: Master) -> tuple[str, int]:
    """The table's id and the seat whose token the request carries."""
    table_id: str = request.path_params["table_id"]
    token = edge.token(request)
    try:
        return table_id, await master.seat_of(table_id, token)
    except Exception as error:
        raise error_for(error) from None


@router.get(
    "/tables/{table_id}/seat",
    summary="Which seat your token is",
    response_model=YourSeat,
    responses=_errors(401, 404, 503),
    dependencies=_declared(table_id_param, seat_param),
)
async def your_seat(request: Request) -> Response:
    """Answered whatever the table's status (waiting, playing or over): what a client
    asks before it keeps a token it was given (a seat link), and nothing more."""
    table_id, seat = await _seat(request, _services(request).master)
    return _json({"table": table_id, "seat": seat})


@router.get(
    "/tables/{table_id}/payload",
    summary="What your seat sees now",
    responses={
        200: {
            "description": "The seat payload",
            "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/SeatPayload"}}
            },
        },
        **_errors(400, 401, 404, 409, 503),
    },
    dependencies=_declared(table_id_param, seat_param, since_param),
)
async def payload(request: Request) -> Response:
    master = _services(request).master
    since = edge.since(request)
    table_id, seat = await _seat(request, master)
    try:
        data = await master.payload(table_id, seat, since)
    except Exception as error:
        raise error_for(error) from None
    return Response(data, media_type="application/json")


@router.post(
    "/tables/{table_id}/actions",
    summary="Play a move",
    response_model=MoveAccepted,
    responses=_errors(400, 401, 403, 404, 408, 409, 413, 415, 422, 503),
    dependencies=[*_declared(table_id_param, seat_param), _declared_body(MoveRequest)],
)
async def act(request: Request) -> Response:
    """The move is committed, with the reveal it makes due, before the answer, which says
    who acts next. Send the payload's number with it: a retry with the same number is
    not played twice."""
    services = _services(request)
    master = services.master
    table_id, seat = await _seat(request, master)
    move = edge.move(await _body(request, services, MAX_MOVE_BYTES))
    try:
        played = await master.submit(table_id, seat, move)
    except Exception as error:
        raise error_for(error) from None
    outcome = played.outcome
    if not isinstance(outcome, Accepted):
        raise refused(outcome)
    body = outcome.to_json()
    body["next"] = {"number": played.number, "to_act": played.to_act}
    return _json(body)


@router.get(
    "/tables/{table_id}/events",
    summary="Pushed updates (Server-Sent Events)",
    responses={
        200: {
            "description": "text/event-stream: an event payload (the seat payload as data, "
            "the table's number as id) now and after every action; a comment "
            "(: keep-alive) after about 15 s of silence; the stream ends after the "
            "game's end",
            "content": {"text/event-stream": {"schema": {"type": "string"}}},
        },
        **_errors(400, 401, 404, 409, 429, 503),
    },
    dependencies=_declared(table_id_param, seat_param, since_param, last_event_id_param),
)
async def events(request: Request) -> Response:
    """Actions committed together (a move and the reveal it makes due), or faster than the
    stream sends, come in one event: read its history from since."""
    since = edge.since(request)
    table_id, seat = await _seat(request, _services(request).master)
    return await _stream(request, table_id, seat, since)


async def _stream(request: Request, table_id: str, seat: int, since: int) -> Response:
    """The event stream of ``seat`` (``-1``: a spectator's, with no bound of its own)."""
    services = _services(request)
    master, notifier, slots = services.master, services.notifier, services.streams
    try:
        await master.at_least(table_id, None)  # a waiting table is refused now
    except Exception as error:
        raise error_for(error) from None
    key = (table_id, seat) if seat >= 0 else None
    address = _address(request)
    if key is not None and slots.full_for(key):
        raise ApiError(
            ErrorKind.TOO_MANY,
            "TOO_MANY_STREAMS",
            f"a seat has at most {slots.per_key} event streams open",
            retry_after=5,
        )
    if slots.full_at(address):
        raise ApiError(
            ErrorKind.TOO_MANY,
            "TOO_MANY_STREAMS",
            f"an address has at most {slots.per_address} event streams open",
            retry_after=5,
        )
    if slots.full:
        raise ApiError(
            ErrorKind.UNAVAILABLE,
            "TOO_MANY_STREAMS",
            "too many event streams: try again",
            retry_after=1,
        )
    release_slot = slots.take(key, address)
    wake = notifier.subscribe(table_id)
    watch = services.watcher.watch(wake)

    def release() -> None:
        notifier.unsubscribe(table_id, wake)
        release_slot()

    content = seat_events(master, notifier, table_id, seat, since, watch)
    return EventStream(content, watch=watch, watcher=services.watcher, release=release)


@router.post(
    "/tables/{table_id}/rematch",
    summary="Your seat at the rematch of this finished table",
    response_model=Joined,
    responses=_errors(401, 404, 409, 429, 503),
    dependencies=_declared(table_id_param, seat_param),
)
async def rematch(request: Request) -> Response:
    """The first seat to ask makes the rematch: the same people and bots, each one seat on
    (another player starts), a fresh shuffle, every person's seat reserved for them. Each
    person's ask (this table's token) gives their seat there and its token, the same each
    time they ask. It starts when every person has asked, as a table starts when its
    last seat is joined; this table's description names it (``rematch``). Making it
    counts in the asking address's table budget (429, as for making a table)."""
    token = edge.token(request)
    master = _services(request).master
    try:
        made = await master.rematch(request.path_params["table_id"], token, _address(request))
    except Exception as error:
        raise error_for(error) from None
    return _json({"table": made.table_id, "seat": made.seat, "token": made.token})


# --- For anyone -----------------------------------------------------------------------------

_BOT_LIST = fast_json(
    {"bots": [{"label": label, "description": text} for label, text in BOT_DESCRIPTIONS.items()]}
)


@router.get("/bots", summary="The bots a seat can have", response_model=BotList)
async def bots(request: Request) -> Response:
    return Response(_BOT_LIST, media_type="application/json")


@router.post(
    "/replays",
    summary="Check a recorded game and replay it",
    response_model=Replay,
    responses=_errors(408, 413, 415, 429, 503),
    dependencies=[_declared_body(RecordJson)],
)
async def replay(request: Request) -> Response:
    """The library's verdict on the record (as ``high-society validate --json`` gives it:
    valid, finished, or the first problem with its action's index) and, for the actions
    before the first refused one, what a viewer is shown after each. A record the
    library refuses is answered 200 with ``valid`` false. At most 256 KiB of record; one
    address replays a bounded number of records a minute (429, with Retry-After), and the
    server as many in all (503, with Retry-After)."""
    services = _services(request)
    limits = services.limits
    wait = services.replays.take(_address(request))
    if wait:
        raise ApiError(
            ErrorKind.TOO_MANY,
            "TOO_MANY_REPLAYS",
            f"an address replays at most {limits.replays_per_minute:g} records a minute",
            retry_after=max(1, round(wait + 0.5)),
        )
    wait = services.all_replays.take("")
    if wait:
        raise ApiError(
            ErrorKind.UNAVAILABLE,
            "TOO_MANY_REPLAYS",
            f"the server replays at most {limits.all_replays_per_minute:g} records a minute: "
            "try again",
            retry_after=max(1, round(wait + 0.5)),
        )
    data = await _body(request, services, MAX_REPLAY_BYTES)
    # A record is checked and told in a thread: the event loop serves others meanwhile.
    answer = await asyncio.to_thread(replayed, data)
    return Response(answer, media_type="application/json")


@router.get(
    "/health", summary="Is the server up? How many event streams it holds", response_model=Health
)
async def health(request: Request) -> Response:
    return _json({"ok": True, "streams": _services(request).streams.count})
