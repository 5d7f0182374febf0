"""What anyone may ask: the bots a seat can have, a recorded game checked and replayed,
and whether the server is up."""

import asyncio
import time

import attrs
from starlette.requests import Request
from starlette.responses import Response

from high_society._json import JSONObject
from high_society._shapes import Schemas
from high_society.levels import LEVELS
from high_society.server._api import Answer, Api, LeanRoute, RawBody, Take
from high_society.server._encoding import fast_json, json_answer
from high_society.server._errors import ApiError, ErrorKind
from high_society.server._replays import MAX_REPLAY_BYTES, replayed
from high_society.server._services import services
from high_society.server._takes import address
from high_society.wire import BOT_LIST, HEALTH, RECORD, REPLAY

__all__ = ["api"]

api = Api()

_BOT_LIST = fast_json(
    {
        "bots": [
            {
                "label": level.name,
                "level": level.level,
                "tier": level.tier,
                "description": level.plays,
                "rating": round(level.rating, 2),
                "ratings": [attrs.asdict(rating) for rating in level.ratings],
            }
            for level in LEVELS
        ]
    }
)


@api.route("GET", "/bots", summary="The bots a seat can have, as levels", answer=Answer(BOT_LIST))
async def bots(request: Request) -> Response:
    """Easiest first, each with its level, a word for it, how it plays and its measured
    ratings (high_society.levels)."""
    return Response(_BOT_LIST, media_type="application/json")


@attrs.frozen
class _ReplayBudget(Take[None]):
    """The replays one address, and every address together, may ask for now (429, 503,
    each with Retry-After): checked before the record is read."""

    name: str = "budget"

    async def read(self, request: Request, route: LeanRoute) -> None:
        parts = services(request)
        limits = parts.limits
        wait = parts.replays.take(address(request))
        if wait:
            raise ApiError(
                ErrorKind.TOO_MANY,
                "TOO_MANY_REPLAYS",
                f"an address replays at most {limits.replays_per_minute:g} records a minute",
                retry_after=max(1, round(wait + 0.5)),
            )
        wait = parts.all_replays.take("")
        if wait:
            raise ApiError(
                ErrorKind.UNAVAILABLE,
                "TOO_MANY_REPLAYS",
                f"the server replays at most {limits.all_replays_per_minute:g} records a "
                "minute: try again",
                retry_after=max(1, round(wait + 0.5)),
            )

    def state(self, operation: JSONObject, into: Schemas) -> None:
        pass


@api.route(
    "POST",
    "/replays",
    summary="Check a recorded game and replay it",
    takes=(_ReplayBudget(), RawBody(RECORD, MAX_REPLAY_BYTES)),
    answer=Answer(REPLAY),
    errors=(408, 413, 415, 429, 503),
)
async def replay(request: Request, budget: None, body: bytes) -> Response:
    """The library's verdict on the record (as high-society validate --json gives it:
    valid, finished, or the first problem with its action's index) and, for the actions
    before the first refused one, what a viewer is shown after each. A record the library
    refuses is answered 200 with valid false. At most 256 KiB of record; one address
    replays a bounded number of records a minute (429, with Retry-After), and the server
    as many in all (503, with Retry-After)."""
    # A record is checked and told in a thread: the event loop serves others meanwhile.
    return Response(await asyncio.to_thread(replayed, body), media_type="application/json")


@api.route(
    "GET",
    "/health",
    summary="Is the server up? How many event streams it holds",
    answer=Answer(HEALTH),
)
async def health(request: Request) -> Response:
    return json_answer({"ok": True, "streams": services(request).streams.count, "now": time.time()})
