"""The floor of the server's stack: a bare Starlette app under uvicorn that answers the
requests of ``benchmarks/wrk_moves.lua`` with the same I/O as the table server and no
game: ``benchmarks/server_cost.py`` loads both with the same client, side by side.

- ``POST /api/tables``: a table id and three tokens, the table's row and its first
  action committed;
- ``GET /api/tables/ID/payload``: the table's version read (as the server checks the copy
  it keeps), and a real seat payload (the one a seat is sent when it must act with its
  whole hand, about 4.6 KB), its seat, number and actor filled in;
- ``POST /api/tables/ID/actions``: the body read and parsed, the action added and the
  table's version moved on in one transaction (WAL, ``synchronous=FULL`` on SQLite), an
  answer saying who acts next.

On SQLite the commits are grouped as the table server groups them: one thread writes, and
commits together the rows queued while the disk took the last commit (with ``--plain``,
each POST commits alone in Starlette's thread pool instead, as a plain app would). On
PostgreSQL each POST commits in the thread pool, as the server does. Run: ``python -m
benchmarks.bare_app DATABASE PORT [--plain]``.
"""

import asyncio
import queue
import sqlite3
import sys
import threading
from typing import Any

import uvicorn
from orjson import dumps, loads  # the server extra installs orjson on CPython
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

#: A seat payload as the table server sends it when a seat must act with its whole hand
#: (tests/test_server_api.py reads it with the wire's own reader); %(seat)d, %(number)d,
#: %(bids)s filled in.
PAYLOAD = (
    '{"seat":%(seat)d,"players":[{"name":"Ada","bot":null},{"name":"Ben","bot":null},'
    '{"name":"Cy","bot":null}],"number":%(number)d,"view":{"seat":%(seat)d,"config":{"money":'
    '[1,2,3,4,6,8,10,12,15,20,25],"deck":["luxury-1","luxury-2","luxury-3","luxury-4",'
    '"luxury-5","luxury-6","luxury-7","luxury-8","luxury-9","luxury-10","prestige","prestige",'
    '"prestige","faux-pas","passe","scandale"]},"hand":[1,2,3,4,6,8,10,12,15,20,25],"players":'
    '[{"table":[],"passed":false,"hand_size":8,"status_cards":["luxury-5"]},{"table":[1],'
    '"passed":false,"hand_size":8,"status_cards":["prestige"]},{"table":[],"passed":false,'
    '"hand_size":11,"status_cards":[]}],"phase":"auction","turn":%(seat)d,"auction":"prestige",'
    '"highest_bid":1,"deck":["luxury-1","luxury-2","luxury-3","luxury-4","luxury-6","luxury-7",'
    '"luxury-8","luxury-9","luxury-10","prestige","faux-pas","passe","scandale"],"removed":[],'
    '"ending_card":null},"to_act":%(seat)d,"highest_bidder":1,"min_bid_total":2,"revealed":'
    '["luxury-5","prestige","prestige"],"legal":{"count":2047,"pass":{"type":"pass","player":%(seat)d},"bids":[%(bids)s],'
    '"discards":[]},"since":%(number)d,"history":[],"log":[],"result":null,"clock":null}'
)


def _bids(seat: int) -> str:
    """The bids of a whole hand above 1, fewest cards per total, each the action as it is
    sent (as the server lists them)."""
    from itertools import combinations

    hand = (1, 2, 3, 4, 6, 8, 10, 12, 15, 20, 25)
    fewest: dict[int, tuple[int, ...]] = {}
    for size in range(1, len(hand) + 1):
        for cards in combinations(hand, size):
            fewest.setdefault(sum(cards), cards)
    return ",".join(
        f'{{"total":{total},"action":{{"type":"bid","player":{seat},"cards":'
        f"[{','.join(map(str, fewest[total]))}]}}}}"
        for total in sorted(fewest)
        if total >= 2
    )


#: Each seat's bids.
BIDS = tuple(_bids(seat) for seat in range(3))


def payload_text(seat: int, number: int) -> str:
    """The payload the bare app sends ``seat`` at ``number``."""
    return PAYLOAD % {"seat": seat, "number": number, "bids": BIDS[seat]}


TOKENS = ("token0", "token1", "token2")


class Rows:
    """One connection per thread to the database, and the table server's statements: a
    table's row made with its first action; a move's action added and its table's version
    moved on, in one transaction; a table's version read."""

    def __init__(self, database: str) -> None:
        self.database = database
        self.local = threading.local()
        self.postgres = database.startswith("postgresql")
        self.mark = "%s" if self.postgres else "?"
        with self.connection() as made:
            made.execute("CREATE TABLE IF NOT EXISTS tables (id TEXT PRIMARY KEY, version INTEGER)")
            made.execute(
                "CREATE TABLE IF NOT EXISTS moves (id TEXT, number INTEGER, action TEXT, "
                "PRIMARY KEY (id, number))"
            )
            made.commit()

    def connection(self) -> Any:
        found = getattr(self.local, "connection", None)
        if found is None:
            if self.postgres:
                import psycopg

                found = psycopg.connect(self.database.replace("+psycopg", ""))
            else:
                found = sqlite3.connect(self.database.removeprefix("sqlite:///"))
                found.execute("PRAGMA journal_mode=WAL")
                found.execute("PRAGMA synchronous=FULL")
            self.local.connection = found
        return found

    def write(self, connection: Any, table: str, number: int, action: str) -> None:
        """The statements of a move (``number`` -1: of a new table), uncommitted."""
        m = self.mark
        if number < 0:
            connection.execute(
                f"INSERT INTO tables VALUES ({m}, 1) ON CONFLICT DO NOTHING", (table,)
            )
        else:
            connection.execute(
                f"UPDATE tables SET version = {m} WHERE id = {m}", (number + 1, table)
            )
        connection.execute(
            f"INSERT INTO moves VALUES ({m}, {m}, {m}) ON CONFLICT DO NOTHING",
            (table, number, action),
        )

    def commit(self, table: str, number: int, action: str) -> None:
        connection = self.connection()
        self.write(connection, table, number, action)
        connection.commit()

    def version(self, table: str) -> int | None:
        """The table's version, read (on SQLite from the event loop's thread, as the table
        server reads it before it answers with a kept payload)."""
        found = (
            self.connection()
            .execute(f"SELECT version FROM tables WHERE id = {self.mark}", (table,))
            .fetchone()
        )
        if self.postgres:
            self.connection().rollback()  # end the reading transaction, as the server does
        return None if found is None else int(found[0])


class GroupedRows:
    """SQLite's rows written by one thread, the rows queued meanwhile committed together."""

    def __init__(self, rows: Rows) -> None:
        self.rows = rows
        self.queue: queue.SimpleQueue[tuple[str, int, str, asyncio.Future[None]]] = (
            queue.SimpleQueue()
        )
        threading.Thread(target=self.work, daemon=True).start()

    async def commit(self, table: str, number: int, action: str) -> None:
        future = asyncio.get_running_loop().create_future()
        self.queue.put((table, number, action, future))
        await future

    def work(self) -> None:
        connection = self.rows.connection()
        while True:
            group = [self.queue.get()]
            while not self.queue.empty():
                group.append(self.queue.get())
            for table, number, action, _ in group:
                self.rows.write(connection, table, number, action)
            connection.commit()
            for *_, future in group:
                future.get_loop().call_soon_threadsafe(_done, future)


def _done(future: "asyncio.Future[None]") -> None:
    if not future.done():
        future.set_result(None)


def create_bare_app(database: str, *, plain: bool = False) -> Starlette:
    rows = Rows(database)
    grouped = None if plain or rows.postgres else GroupedRows(rows)
    made = [0]

    async def commit(table: str, number: int, action: str) -> None:
        if grouped is not None:
            await grouped.commit(table, number, action)
        else:
            await run_in_threadpool(rows.commit, table, number, action)

    async def create(request: Request) -> Response:
        await request.body()
        made[0] += 1
        table = f"t{made[0]}"
        await commit(table, -1, "{}")
        seats = [{"seat": seat, "token": token} for seat, token in enumerate(TOKENS)]
        return Response(
            dumps({"table": table, "status": "playing", "seats": seats}),
            201,
            media_type="application/json",
        )

    async def payload(request: Request) -> Response:
        seat = TOKENS.index(request.headers["authorization"].removeprefix("Bearer "))
        number = int(request.query_params.get("since", "0"))
        table = request.path_params["table_id"]
        if rows.postgres:
            await run_in_threadpool(rows.version, table)
        else:
            rows.version(table)
        return Response(payload_text(seat, number).encode(), media_type="application/json")

    async def act(request: Request) -> Response:
        move = loads(await request.body())
        seat = TOKENS.index(request.headers["authorization"].removeprefix("Bearer "))
        table = request.path_params["table_id"]
        number = move["number"]
        await commit(table, number, dumps(move["action"]).decode())
        answer = {
            "action": move["action"],
            "number": number,
            "duplicate": False,
            "next": {"number": number + 1, "to_act": (seat + 1) % 3},
        }
        return Response(dumps(answer), media_type="application/json")

    async def health(request: Request) -> Response:
        return Response(b'{"ok":true}', media_type="application/json")

    return Starlette(
        routes=[
            Route("/api/tables", create, methods=["POST"]),
            Route("/api/tables/{table_id}/payload", payload),
            Route("/api/tables/{table_id}/actions", act, methods=["POST"]),
            Route("/api/health", health),
        ]
    )


if __name__ == "__main__":
    uvicorn.run(
        create_bare_app(sys.argv[1], plain="--plain" in sys.argv[3:]),
        host="127.0.0.1",
        port=int(sys.argv[2]),
        log_level="info",  # an access line per request, as high-society serve writes
    )
