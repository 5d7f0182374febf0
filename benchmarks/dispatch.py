"""What a request's dispatch costs, in process: ``python -m benchmarks.dispatch``
(docs/performance.md, "What was done").

One GET with a path parameter, a query parameter and a bearer token, answered with two
bytes, through: a FastAPI route with its parameters and the token solved by FastAPI; the
table server's lean route (its declared inputs read by the route itself: the path's id,
``since`` and the token); and a bare Starlette route. Each is called as an ASGI
application directly (no sockets), many times; the figure is CPU time per request, in
microseconds.
"""

import asyncio
import time
from typing import Annotated

from fastapi import FastAPI, Query, Security
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message

from high_society.server._api import Api
from high_society.server._takes import SINCE, TABLE_ID, TOKEN

PATH = "/api/tables/{table_id}/payload"
bearer = HTTPBearer(auto_error=False)


def fastapi_app() -> FastAPI:
    app = FastAPI()

    @app.get(PATH)
    async def solved(
        table_id: str,
        since: Annotated[int | None, Query(ge=0)] = None,
        token: Annotated[HTTPAuthorizationCredentials | None, Security(bearer)] = None,
    ) -> Response:
        return Response(b"{}", media_type="application/json")

    return app


async def endpoint(request: Request) -> Response:
    return Response(b"{}", media_type="application/json")


def lean_app() -> FastAPI:
    api = Api(prefix="")
    api.route("GET", PATH, summary="lean", takes=(TABLE_ID, SINCE, TOKEN))(lean_endpoint)
    app = FastAPI()
    app.router.routes.extend(api.router.routes)
    return app


async def lean_endpoint(request: Request, table_id: str, since: int, token: str) -> Response:
    return Response(b"{}", media_type="application/json")


def starlette_app() -> Starlette:
    return Starlette(routes=[Route(PATH, endpoint)])


async def per_request(app: ASGIApp, count: int) -> float:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": "/api/tables/abcdefgh/payload",
        "raw_path": b"/api/tables/abcdefgh/payload",
        "query_string": b"since=5",
        "root_path": "",
        "headers": [(b"host", b"x"), (b"authorization", b"Bearer abcdefghijklmnop")],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
    }

    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        return None

    for _ in range(count // 10):  # warm up
        await app(dict(scope), receive, send)
    start = time.process_time()
    for _ in range(count):
        await app(dict(scope), receive, send)
    return (time.process_time() - start) / count * 1e6


def main() -> None:
    for name, app in (
        ("FastAPI route, parameters solved by FastAPI", fastapi_app()),
        ("the server's lean route", lean_app()),
        ("bare Starlette route", starlette_app()),
    ):
        print(f"{name}: {asyncio.run(per_request(app, 20_000)):.1f} µs of CPU per request")


if __name__ == "__main__":
    main()
