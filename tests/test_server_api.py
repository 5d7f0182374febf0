"""The table server's HTTP API, through an ASGI test client on each real store (SQLite, and a
PostgreSQL server started for the test run: tests/conftest.py): making and joining tables,
tokens, moves and their refusals as HTTP statuses, retries, bounded requests, the record,
the OpenAPI schema, pushed updates (from this process and from another), bounded streams;
and the data layer's exactly-once writes from several stores (as from several processes)
at once, and its schema made once by stores starting together."""

import asyncio
import gc
import json
import socket
import threading
import time
import weakref
from collections.abc import Callable, MutableMapping
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from high_society.actions import Reveal
from high_society.errors import InvalidConfigError
from high_society.record import validate_record
from high_society.server import create_app
from high_society.server._app import YOUNG_OBJECTS
from high_society.server._auth import hash_token
from high_society.server._dialects import normalise_url
from high_society.server._encoding import fast_json, stdlib_json
from high_society.server._master import Busy, Master, Played
from high_society.server._schema import MIGRATIONS, SCHEMA_VERSION, schema_table
from high_society.server._services import assemble
from high_society.server._store import Store
from high_society.table import Accepted, Move, Seat, Table, read_move
from high_society.wire import NewSeat, NewTable
from tests.pages import docs_page

THREE = {
    "seats": [
        {"kind": "person", "name": "Ada"},
        {"kind": "bot", "bot": "heuristic"},
        {"kind": "bot", "bot": "random"},
    ]
}


def wait_for(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + 60
    while not check():
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.02)


def made(client: TestClient, body: object = THREE) -> tuple[str, str]:
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    data = answer.json()
    return data["table"], data["seats"][0]["token"]


def payload(client: TestClient, table: str, token: str, since: int = 0) -> dict[str, Any]:
    answer = client.get(f"/api/tables/{table}/payload?since={since}", headers=auth(token))
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def json_auth(token: str) -> dict[str, str]:
    """The seat's token, and a body declared JSON."""
    return {**auth(token), "Content-Type": "application/json"}


def my_turn(client: TestClient, table: str, token: str) -> dict[str, Any]:
    """The payload once the person must act or the game is over (the bots play meanwhile)."""
    found: list[dict[str, Any]] = []

    def ready() -> bool:
        found[:] = [payload(client, table, token)]
        return found[0]["to_act"] in (0, None)

    wait_for(ready, "the person's turn")
    return found[0]


def test_a_person_plays_a_whole_game_against_two_bots_and_the_record_validates(
    client: TestClient,
) -> None:
    table, token = made(client)
    while True:
        seen = my_turn(client, table, token)
        if seen["to_act"] is None:
            break
        legal = seen["legal"]
        assert isinstance(legal, dict)
        action: dict[str, Any]
        if legal["discards"]:
            action = legal["discards"][0]
        elif legal["bids"] and seen["number"] % 3 == 0:
            action = legal["bids"][0]["action"]
        else:
            action = {"type": "pass", "player": 0}
        answer = client.post(
            f"/api/tables/{table}/actions",
            json={"action": action, "number": seen["number"]},
            headers=auth(token),
        )
        assert answer.status_code == 200, answer.text
        assert answer.json()["number"] == seen["number"]
    record = client.get(f"/api/tables/{table}/record")
    assert record.status_code == 200
    validation = validate_record(record.text)
    assert validation.valid
    assert validation.finished
    final = payload(client, table, token)
    assert final["result"] is not None
    assert validation.result is not None
    assert final["result"]["scores"] == [
        float(s) if s.denominator != 1 else int(s) for s in validation.result.scores
    ]


def test_a_move_is_refused_with_the_status_of_its_kind_and_changes_nothing(
    client: TestClient,
) -> None:
    table, token = made(client)
    seen = my_turn(client, table, token)
    number = seen["number"]
    url = f"/api/tables/{table}/actions"
    cases = [
        (b"{", 400, "malformed", "NOT_JSON"),
        (
            b'{"action": {"type": "reveal", "card": "prestige"}}',
            403,
            "not_allowed",
            "CLIENT_MAY_NOT_REVEAL",
        ),
        (b'{"action": {"type": "pass", "player": 1}}', 403, "not_your_seat", "NOT_YOUR_SEAT"),
        (
            b'{"action": {"type": "pass", "player": 0}, "number": 99}',
            409,
            "wrong_number",
            "WRONG_NUMBER",
        ),
        (b'{"action": {"type": "bid", "player": 0, "cards": [7]}}', 400, "malformed", "BAD_NUMBER"),
        (b'{"action": {"type": "pass", "player": 5}}', 400, "malformed", "BAD_NUMBER"),
        (
            b'{"action": {"type": "discard", "player": 0, "card": "prestige"}}',
            400,
            "malformed",
            "WRONG_TYPE",
        ),
    ]
    for body, status, kind, code in cases:
        answer = client.post(url, content=body, headers=json_auth(token))
        assert (answer.status_code, answer.json()["kind"], answer.json()["code"]) == (
            status,
            kind,
            code,
        )
    too_big = client.post(url, content=b" " * 5000, headers=json_auth(token))
    assert too_big.status_code == 413
    assert too_big.json()["code"] == "TOO_LARGE"
    assert client.post(url, json={"action": {"type": "pass", "player": 0}}).status_code == 401
    other = made(client)[1]
    assert (
        client.post(
            url, json={"action": {"type": "pass", "player": 0}}, headers=auth(other)
        ).status_code
        == 401
    )
    assert client.post(url, json={}, headers=auth("x" * 500)).status_code == 401
    assert client.post("/api/tables/nope/actions", json={}, headers=auth(token)).status_code == 404
    assert payload(client, table, token)["number"] == number  # nothing changed


def test_a_retried_move_is_played_once(client: TestClient) -> None:
    table, token = made(client)
    seen = my_turn(client, table, token)
    move = {"action": {"type": "pass", "player": 0}, "number": seen["number"]}
    first = client.post(f"/api/tables/{table}/actions", json=move, headers=auth(token))
    again = client.post(f"/api/tables/{table}/actions", json=move, headers=auth(token))
    assert first.json()["duplicate"] is False
    assert again.status_code == 200
    assert again.json()["duplicate"] is True
    history = payload(client, table, token)["history"]
    assert history.count({"type": "pass", "player": 0}) == 1


def test_tables_are_made_and_joined_with_checked_names_and_tokens(client: TestClient) -> None:
    bad = [
        ({"seats": []}, "BAD_PLAYERS"),
        (
            {"seats": [{"kind": "person", "name": "A\u202e"}, {"kind": "open"}, {"kind": "open"}]},
            "BAD_PLAYERS",
        ),
        (
            {
                "seats": [
                    {"kind": "bot", "bot": "mypackage:Bot"},
                    {"kind": "open"},
                    {"kind": "open"},
                ]
            },
            "UNKNOWN_BOT",
        ),
        ({"seats": [{"kind": "bot", "bot": "random"}] * 3}, "BAD_PLAYERS"),
        ({"seats": [{"kind": "open", "x": 1}] * 3}, "UNKNOWN_KEY"),
        ({"tables": 1}, "UNKNOWN_KEY"),
    ]
    for body, code in bad:
        answer = client.post("/api/tables", json=body)
        assert (answer.status_code, answer.json()["code"]) == (400, code), body
    table, token = made(
        client,
        {
            "seats": [
                {"kind": "person", "name": "Ada"},
                {"kind": "open"},
                {"kind": "bot", "bot": "search"},
            ]
        },
    )
    lobby = client.get(f"/api/tables/{table}").json()
    assert lobby["status"] == "waiting"
    assert [s["kind"] for s in lobby["seats"]] == ["person", "open", "bot"]
    assert "token" not in str(lobby)
    assert client.get(f"/api/tables/{table}/payload", headers=auth(token)).status_code == 409
    assert (
        client.post(f"/api/tables/{table}/join", json={"name": "Ada"}).json()["code"]
        == "NAME_TAKEN"
    )
    assert client.post(f"/api/tables/{table}/join", json={"name": ""}).status_code == 400
    joined = client.post(f"/api/tables/{table}/join", json={"name": "Ben"})
    assert joined.status_code == 200
    assert joined.json()["seat"] == 1
    ben = joined.json()["token"]
    assert len(ben) >= 43
    assert (
        client.post(f"/api/tables/{table}/join", json={"name": "Cy"}).json()["code"]
        == "NO_OPEN_SEAT"
    )
    assert client.get(f"/api/tables/{table}").json()["status"] == "playing"
    assert payload(client, table, ben)["seat"] == 1
    assert payload(client, table, token)["seat"] == 0


def test_the_events_stream_pushes_payloads_from_the_database(client: TestClient) -> None:
    table, token = made(client)
    seen = my_turn(client, table, token)
    with client.stream("GET", f"/api/tables/{table}/events?since=0", headers=auth(token)) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        lines = stream.iter_lines()
        first = next(line for line in lines if line.startswith("data: "))
        assert f'"number":{seen["number"]}' in first
        client.post(
            f"/api/tables/{table}/actions",
            json={"action": {"type": "pass", "player": 0}, "number": seen["number"]},
            headers=auth(token),
        )
        later = next(line for line in lines if line.startswith("data: "))
        assert f'"since":{seen["number"]}' in later


def test_the_openapi_schema_describes_the_api(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    paths = schema["paths"]
    for path in (
        "/api/tables",
        "/api/tables/{table_id}/actions",
        "/api/tables/{table_id}/payload",
        "/api/tables/{table_id}/events",
        "/api/tables/{table_id}/record",
    ):
        assert path in paths
    assert "422" in paths["/api/tables/{table_id}/actions"]["post"]["responses"]
    assert client.get("/").headers["content-type"].startswith("text/html")
    assert client.get("/static/app.js").status_code == 200


async def submit_as_a_client_does(master: Master, table: str, seat: int, move: Move) -> Played:
    """``master.submit``, the move sent again while the answer is Busy (503 ``unavailable``
    to a client, which tries again). Each Busy means other processes committed to the
    table several times meanwhile, and a game has a bounded number of moves; so on a slow
    machine a move may meet Busy, but not ever more often."""
    for _ in range(64):
        try:
            return await master.submit(table, seat, move)
        except Busy:
            continue
    raise AssertionError("Busy 64 times in a row: more than the game's moves could cause")


def test_several_masters_on_one_database_apply_each_action_once_in_order(database: str) -> None:
    # Each master is what one server process has: its own store, copies of the tables and
    # event loop. They receive the same moves at once, many of them colliding.
    stores = [Store(database) for _ in range(4)]
    processes = [assemble(store) for store in stores]
    masters = [process.master for process in processes]

    async def make() -> tuple[str, str]:
        masters[0].start(asyncio.get_running_loop())
        people = NewTable(tuple(NewSeat("person", name=n) for n in ("A", "B", "C")))
        created = await processes[0].tables.create(people)
        return created.table_id, created.tokens[0][1]

    table, token = asyncio.run(make())
    outcomes: list[Accepted] = []
    lock = threading.Lock()

    async def send(master: Master) -> None:
        for number in range(1, 13):  # everyone passes each turn as it comes
            seat = (number - 1) % 3 if number <= 3 else None
            for who in range(3) if seat is None else (seat,):
                move = read_move({"action": {"type": "pass", "player": who}, "number": number})
                played = await submit_as_a_client_does(master, table, who, move)
                if isinstance(played.outcome, Accepted):
                    with lock:
                        outcomes.append(played.outcome)

    async def serve(master: Master) -> None:  # one process: two clients at once
        master.start(asyncio.get_running_loop())
        await asyncio.gather(send(master), send(master))
        await master.close()

    threads = [threading.Thread(target=asyncio.run, args=(serve(m),)) for m in masters]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    final_text = stores[0].history.read(table, 0, setup=True)
    final = Table.restore(final_text.setup or "")
    for text in final_text.actions:
        final.play(read_move({"action": json.loads(text)}).action)
    fresh = [o for o in outcomes if not o.duplicate]
    # The table starts with its first card revealed; a move that ends an auction is
    # committed with the reveal it makes due. Every other action is one accepted move.
    reveals = [n for n, action in enumerate(final.history) if isinstance(action, Reveal)]
    assert reveals[0] == 0
    assert sorted([o.number for o in fresh] + reveals) == list(range(final.number))
    assert all(final.history[o.number] == o.action for o in fresh)
    assert validate_record(final.record()).valid
    assert hash_token(token) != token
    for store in stores:
        store.close()


def test_stores_starting_together_make_the_schema_once(database: str) -> None:
    made: list[Store] = []
    failed: list[BaseException] = []
    lock = threading.Lock()

    def start() -> None:
        try:
            store = Store(database)
        except BaseException as error:
            with lock:
                failed.append(error)
            return
        with lock:
            made.append(store)

    threads = [threading.Thread(target=start) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    try:
        assert failed == []
        assert len(made) == 6
        with made[0].engine.connect() as conn:
            rows = conn.execute(sa.select(schema_table.c.version)).scalars().all()
        assert rows == [SCHEMA_VERSION]
    finally:
        for store in made:
            store.close()


def test_a_database_of_another_schema_version_or_a_bad_url_is_refused_clearly(
    database: str,
) -> None:
    store = Store(database)
    with store.engine.begin() as conn:
        conn.execute(schema_table.update().values(version=SCHEMA_VERSION + 1))
    store.close()
    with pytest.raises(InvalidConfigError, match=f"schema version {SCHEMA_VERSION + 1}"):
        Store(database)
    for bad in ("not a url", "nosuchdb://x/y", "sqlite+nosuchdriver:///x"):
        with pytest.raises(InvalidConfigError, match="URL"):
            Store(bad)


def schema_rows(database: str) -> list[int] | None:
    """The versions ``hs_schema`` holds (``None`` when the table is missing), read without
    a store (which would make the schema)."""
    engine = sa.create_engine(database)
    try:
        with engine.connect() as conn:
            if not sa.inspect(conn).has_table(schema_table.name):
                return None
            return list(conn.execute(sa.select(schema_table.c.version)).scalars().all())
    finally:
        engine.dispose()


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (schema_table.insert().values(version=SCHEMA_VERSION), "holds 2 rows"),
        (schema_table.delete(), "holds 0 rows"),
        (sa.text("DROP TABLE hs_schema"), "no hs_schema table"),
        (schema_table.update().values(version=SCHEMA_VERSION + 1), "made by a newer server"),
        (schema_table.update().values(version=0), "made by another server"),
    ],
    ids=["two rows", "no row", "no table", "a later version", "an unknown version"],
)
def test_a_schema_version_that_is_not_told_truly_is_refused_and_never_stamped(
    database: str, change: sa.Executable, said: str
) -> None:
    Store(database).close()
    engine = sa.create_engine(database)
    with engine.begin() as conn:
        conn.execute(change)
    engine.dispose()
    before = schema_rows(database)
    with pytest.raises(InvalidConfigError, match=said) as refused:
        Store(database)
    message = str(refused.value)
    assert "untouched" in message
    # Never a message that contradicts itself ("holds version 2, and reads version 2").
    assert message.count(f"version {SCHEMA_VERSION}") <= 1
    assert schema_rows(database) == before  # nothing stamped, nothing made


#: What a database of each earlier schema version lacks, undone from one of today's.
OLDER = {
    2: (
        "DROP TABLE hs_heartbeat",
        "DROP INDEX hs_tables_deadline",
        "DROP INDEX hs_tables_lobby",
        *(
            f"ALTER TABLE hs_tables DROP COLUMN {c}"
            for c in ("listed", "clock", "since", "deadline")
        ),
    ),
    1: ("DROP TABLE hs_rematches",),
}


@pytest.mark.parametrize("version", [1, 2])
def test_a_database_of_an_earlier_schema_version_is_migrated_and_keeps_its_tables(
    database: str, version: int
) -> None:
    with TestClient(create_app(database, sweep_seconds=0.2)) as client:
        table, token = made(client)
        seen = my_turn(client, table, token)
    store = Store(database)
    with store.engine.begin() as conn:  # as a server of that version left it
        for older in range(SCHEMA_VERSION - 1, version - 1, -1):
            for statement in OLDER[older]:
                conn.execute(sa.text(statement))
        conn.execute(schema_table.update().values(version=version))
    store.close()
    with TestClient(create_app(database, sweep_seconds=0.2)) as client:
        assert payload(client, table, token)["number"] == seen["number"]
        assert client.get(f"/api/tables/{table}").json()["rematch"] is None
        clocked = {"seats": THREE["seats"], "clock": {"move": 60}, "listed": True}
        assert client.post("/api/tables", json=clocked).status_code == 201
    store = Store(database)
    with store.engine.connect() as conn:
        assert conn.execute(sa.select(schema_table.c.version)).scalars().all() == [SCHEMA_VERSION]
        assert sa.inspect(conn).has_table("hs_rematches")
        assert sa.inspect(conn).has_table("hs_heartbeat")
    store.close()


def test_postgresql_urls_name_psycopg(postgres_url: str) -> None:
    plain = postgres_url.replace("postgresql+psycopg://", "postgresql://", 1)
    wanted = sa.engine.make_url(postgres_url)
    assert sa.engine.make_url(normalise_url(plain)) == wanted
    assert sa.engine.make_url(normalise_url(plain.replace("postgresql", "postgres", 1))) == wanted
    store = Store(plain)  # what `high-society serve --database postgresql://...` passes
    try:
        assert store.is_postgres
        assert store.engine.dialect.driver == "psycopg"
    finally:
        store.close()


def test_an_action_committed_by_another_process_is_pushed_to_this_ones_streams(
    database: str,
) -> None:
    # Two applications on one database: two server processes. A stream opened on one is
    # told of a move made through the other (PostgreSQL: NOTIFY; SQLite: the poll).
    with (
        TestClient(create_app(database, sweep_seconds=0.2, poll_seconds=0.1)) as here,
        TestClient(create_app(database, sweep_seconds=0.2, poll_seconds=0.1)) as there,
    ):
        table, token = made(here)
        seen = my_turn(here, table, token)
        url = f"/api/tables/{table}/events?since={seen['number']}"
        with here.stream("GET", url, headers=auth(token)) as stream:
            lines = stream.iter_lines()
            first = next(line for line in lines if line.startswith("data: "))
            assert f'"number":{seen["number"]}' in first
            answer = there.post(
                f"/api/tables/{table}/actions",
                json={"action": {"type": "pass", "player": 0}, "number": seen["number"]},
                headers=auth(token),
            )
            assert answer.status_code == 200, answer.text
            later = next(line for line in lines if line.startswith("data: "))
            assert '{"type":"pass","player":0}' in later
            assert f'"since":{seen["number"]}' in later


def test_a_seat_has_a_bounded_number_of_streams_and_a_closed_one_is_released(
    database: str,
) -> None:
    app = create_app(database, sweep_seconds=0.2, max_seat_streams=2, max_streams=3)
    with TestClient(app) as client:
        table, token = made(client)
        my_turn(client, table, token)
        other, other_token = made(client)
        my_turn(client, other, other_token)
        url = f"/api/tables/{table}/events"
        with (
            client.stream("GET", url, headers=auth(token)) as one,
            client.stream("GET", url, headers=auth(token)) as two,
        ):
            assert (one.status_code, two.status_code) == (200, 200)
            assert client.get("/api/health").json()["streams"] == 2
            third = client.get(url, headers=auth(token))
            assert (third.status_code, third.json()["code"]) == (429, "TOO_MANY_STREAMS")
            with client.stream(
                "GET", f"/api/tables/{other}/events", headers=auth(other_token)
            ) as three:
                assert three.status_code == 200
                full = client.get(f"/api/tables/{other}/events", headers=auth(other_token))
                assert full.status_code == 503
                assert full.headers["retry-after"] == "1"
        wait_for(lambda: client.get("/api/health").json()["streams"] == 0, "streams released")
        with client.stream("GET", url, headers=auth(token)) as again:
            assert again.status_code == 200


def test_serve_tells_a_database_it_cannot_use_in_one_line_without_its_password(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from high_society.cli import main

    unreachable = f"postgresql://ada:s3cret@/tables?host={tmp_path}"  # no server listens there
    for url, reason in (
        (unreachable, "cannot use the database"),
        ("not a url", "must be a URL"),
        ("nosuchdb://x/y", "cannot use the database URL"),
    ):
        assert main(["serve", "--database", url, "--port", "18555"]) == 1
        error = capsys.readouterr().err
        assert error.startswith("high-society: "), error
        assert reason in error
        assert "s3cret" not in error
        assert "Traceback" not in error


def test_a_request_leaves_no_reference_cycle_to_the_garbage_collector(tmp_path: Path) -> None:
    # uvicorn's ``send`` is a method of the object holding the scope; the application keeps
    # it in the scope for an event stream that may have to reset its connection, and must
    # let go of it at the end, or each request's objects wait for the garbage collector.
    app = create_app(f"sqlite:///{tmp_path / 't.sqlite3'}")

    class Connection:
        def __init__(self) -> None:
            self.scope: dict[str, Any] = {
                "type": "http",
                "asgi": {"version": "3.0"},
                "http_version": "1.1",
                "method": "GET",
                "scheme": "http",
                "path": "/api/health",
                "raw_path": b"/api/health",
                "query_string": b"",
                "root_path": "",
                "headers": [(b"host", b"127.0.0.1")],
                "client": ("127.0.0.1", 1),
                "server": ("127.0.0.1", 2),
            }
            self.sent: list[dict[str, Any]] = []

        async def receive(self) -> dict[str, Any]:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(self, message: MutableMapping[str, Any]) -> None:
            self.sent.append(dict(message))

    async def serve() -> weakref.ref[Connection]:
        async with app.router.lifespan_context(app):
            connection = Connection()
            await app(connection.scope, connection.receive, connection.send)
            assert connection.sent[0]["status"] == 200
            return weakref.ref(connection)

    gc.disable()
    try:
        gone = asyncio.run(serve())
        assert gone() is None  # freed as its last reference went, not left to a collection
    finally:
        gc.enable()


def test_the_collector_is_tuned_while_the_app_runs_and_handed_back_after(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 't.sqlite3'}")
    found = gc.get_threshold()
    frozen = gc.get_freeze_count()

    async def serve() -> tuple[tuple[int, int, int], int]:
        async with app.router.lifespan_context(app):
            return gc.get_threshold(), gc.get_freeze_count()

    running, frozen_running = asyncio.run(serve())
    assert running == (YOUNG_OBJECTS, *found[1:])
    assert frozen_running > frozen  # the objects alive at start are out of the passes' way
    assert gc.get_threshold() == found
    assert gc.get_freeze_count() == 0


def test_serve_tells_where_it_cannot_listen_and_a_bad_send_seconds_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from high_society.cli import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = str(taken.getsockname()[1])
        data = ["--data-dir", str(tmp_path / "data")]
        for options, reason in (
            (["--port", port], "cannot listen on '127.0.0.1', port " + port),
            (["--host", "no-such-host.invalid"], "cannot listen on 'no-such-host.invalid'"),
            (["--host", "\x1b[31mred"], "cannot listen on '\\x1b[31mred'"),
            (["--send-seconds", "0"], "--send-seconds must be 1 to 3600 seconds"),
            (["--send-seconds", "nan"], "--send-seconds must be 1 to 3600 seconds"),
        ):
            assert main(["serve", *data, *options]) == 1
            error = capsys.readouterr().err
            assert error.startswith("high-society: "), error
            assert reason in error, error
            assert "\x1b" not in error
            assert "Traceback" not in error
            assert error.count("\n") == 1


def test_answers_are_the_same_json_with_orjson_and_with_the_standard_library() -> None:
    # The server encodes with orjson where the server extra installed it, else with the
    # standard library: a client reads the same values either way.
    table = Table([Seat("Ada"), Seat("Bénédicte \u2603"), Seat("Cy", bot="random")], seed=4)
    table.reveal()
    for seat in range(3):
        sent = table.payload(seat)
        assert json.loads(fast_json(sent)) == json.loads(stdlib_json(sent)) == sent


def test_a_token_s_seat_is_told_whatever_the_table_s_status(client: TestClient) -> None:
    body = {"seats": [{"kind": "person", "name": "Ada"}, {"kind": "open"}, {"kind": "open"}]}
    answer = client.post("/api/tables", json=body).json()
    table, ada = answer["table"], answer["seats"][0]["token"]
    assert client.get(f"/api/tables/{table}/seat", headers=auth(ada)).json() == {
        "table": table,
        "seat": 0,
    }  # while it waits
    ben = client.post(f"/api/tables/{table}/join", json={"name": "Ben"}).json()["token"]
    cy = client.post(f"/api/tables/{table}/join", json={"name": "Cy"}).json()["token"]
    for token, seat in ((ada, 0), (ben, 1), (cy, 2)):  # once it plays
        assert client.get(f"/api/tables/{table}/seat", headers=auth(token)).json()["seat"] == seat
    cases = [
        (table, {}, 401, "NO_TOKEN"),
        (table, auth("not-a-token"), 401, "BAD_TOKEN"),
        ("nope", auth(ada), 404, "NO_SUCH_TABLE"),
    ]
    for where, headers, status, code in cases:
        refused = client.get(f"/api/tables/{where}/seat", headers=headers)
        assert (refused.status_code, refused.json()["code"]) == (status, code)


def test_a_server_whose_database_a_newer_server_migrated_stops_using_it(database: str) -> None:
    with TestClient(create_app(database, sweep_seconds=0.2)) as client:
        table, token = made(client)
        my_turn(client, table, token)
        engine = sa.create_engine(database)
        with engine.begin() as conn:  # as a newer server's migration leaves it
            conn.execute(schema_table.update().values(version=SCHEMA_VERSION + 1))
        engine.dispose()

        def refused() -> bool:
            answer = client.get(f"/api/tables/{table}/payload", headers=auth(token))
            return answer.status_code == 503

        wait_for(refused, "the server stops serving the database once its schema moved on")
        for answer in (
            client.get(f"/api/tables/{table}/payload", headers=auth(token)),
            client.post("/api/tables", json=THREE),
            client.get(f"/api/tables/{table}"),
        ):
            assert (answer.status_code, answer.json()["code"]) == (503, "SCHEMA_MOVED")
    assert schema_rows(database) == [SCHEMA_VERSION + 1]  # nothing of it undone


def test_a_table_whose_last_seat_was_taken_by_a_process_that_stopped_is_started(
    database: str,
) -> None:
    """Taking the last seat and starting the table are two transactions: a process stopped
    between them leaves a waiting table with every seat taken, which a sweep starts."""
    body = {"seats": [{"kind": "person", "name": "Ada"}, {"kind": "open"}, {"kind": "open"}]}
    with TestClient(create_app(database, sweep_seconds=60)) as client:
        made = client.post("/api/tables", json=body).json()
        table, ada = made["table"], made["seats"][0]["token"]
        client.post(f"/api/tables/{table}/join", json={"name": "Ben"})
    store = Store(database)
    try:  # the last seat taken, as a process that stopped then would have left it
        seat, full = store.seats.join(table, "Cy", hash_token("x" * 43))
        assert (seat, full) == (2, True)
        assert store.seats.unstarted() == [table]
    finally:
        store.close()
    with TestClient(create_app(database, sweep_seconds=0.2)) as client:
        wait_for(
            lambda: client.get(f"/api/tables/{table}").json()["status"] == "playing", "started"
        )
        assert payload(client, table, ada)["number"] >= 1  # its first card revealed


def test_the_bare_app_of_the_benchmark_sends_a_payload_of_the_wire_s_shape() -> None:
    """docs/performance.md compares the server with a bare app doing the same I/O: its
    payload is one the wire's own reader takes, of the current version."""
    from benchmarks.bare_app import payload_text
    from high_society.wire import SEAT_PAYLOAD

    for seat in range(3):
        SEAT_PAYLOAD.read(json.loads(payload_text(seat, 17)))


def test_the_serve_page_tells_the_schema_version_and_every_migration() -> None:
    told = docs_page("serve.md")
    assert f"(`server._schema.SCHEMA_VERSION`: {SCHEMA_VERSION})" in told
    for version in MIGRATIONS:
        assert f"{version} to {version + 1}" in told, f"the page does not tell migration {version}"


def test_the_serve_page_names_every_table_of_the_schema() -> None:
    told = docs_page("serve.md")
    for name in schema_table.metadata.tables:
        assert f"`{name}`" in told, f"the page does not name {name}"


def test_the_serve_page_tells_the_number_of_bots_a_seat_can_have() -> None:
    from high_society.server import BOTS

    words = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
    told = f"bot kinds are the {words[len(BOTS)]} of `GET /api/bots`"
    assert told in docs_page("serve.md"), f"the page does not say: {told}"


def _server_error_codes() -> set[str]:
    """Every error code the server's own code answers with: the codes given to
    ``ApiError`` and ``Conflict``, the 431 answer's, and the table's refusals'."""
    import ast
    import re

    from high_society.table import TableCode

    codes = {code.value for code in TableCode}
    for path in (Path(__file__).resolve().parent.parent / "src/high_society/server").rglob("*.py"):
        source = path.read_text("utf-8")
        codes.update(re.findall(r'"code":"([A-Z_]+)"', source))  # the 431 answer, as bytes
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            at = {"ApiError": 1, "Conflict": 0}.get(node.func.id)
            if at is None or len(node.args) <= at:
                continue
            given = node.args[at]
            if isinstance(given, ast.Constant) and isinstance(given.value, str):
                codes.add(given.value)
    return codes


def test_the_serve_page_tells_every_error_kind_its_status_and_every_code_the_server_gives() -> None:
    from high_society.server._errors import STATUS

    page = docs_page("serve.md")
    errors = page[page.index("### Errors as HTTP statuses") : page.index("## How it keeps")]
    for kind, status in STATUS.items():
        assert f"| {status} | `{kind.value}` |" in errors, f"no row for {status} {kind.value}"
    codes = _server_error_codes()
    assert {"NO_TOKEN", "NOT_RESERVED", "SCHEMA_MOVED", "HEAD_TOO_LARGE"} <= codes  # the scan
    for code in sorted(codes):
        assert f"`{code}`" in errors, f"the errors table does not name {code}"


def test_the_serve_page_gives_the_server_s_bounds_and_defaults() -> None:
    import inspect

    import attrs

    from high_society._clock import TimeControl
    from high_society.record import MAX_NAME_LENGTH
    from high_society.server import MAX_BODY_BYTES, Limits
    from high_society.server._api import MAX_NUMBER_DIGITS
    from high_society.server._auth import MAX_TOKEN_LENGTH
    from high_society.server._lobby import PAGE
    from high_society.server._replays import MAX_REPLAY_BYTES
    from high_society.server._streams import KEEP_ALIVE_SECONDS

    limits = Limits()
    body_seconds, tables = limits.body_seconds, limits.tables_per_minute
    told = {
        "max_head_bytes": f"| a request head | {limits.max_head_bytes:,} bytes",
        "max_headers": f"and {limits.max_headers} header lines, arriving whole",
        "head_seconds": f"arriving whole within {limits.head_seconds:g} seconds of the connection",
        "idle_seconds": f"| an idle kept-alive connection | {limits.idle_seconds:g} seconds |",
        "body_seconds": f"`application/json`, arriving whole within {body_seconds:g} seconds",
        "max_address_connections": f"{limits.max_address_connections} connections at once per",
        "max_streams": f"{limits.max_streams:,} per process",
        "max_seat_streams": f"| event streams | {limits.max_seat_streams} per seat",
        "max_address_streams": f"{limits.max_address_streams} event streams per address",
        "max_tables": f"{limits.max_tables:,} not over in the database",
        "tables_per_minute": f"{tables:g} made per minute per address (a burst of {tables:g}, "
        f"then one every {60 / tables:g} seconds)",
        "replays_per_minute": f"{limits.replays_per_minute:g} replayed per minute per address "
        f"(a burst of {limits.replays_per_minute:g})",
        "all_replays_per_minute": f"{limits.all_replays_per_minute:g} per minute by all addresses",
        "idle_hours": f"{limits.idle_hours:g} hours without an action",
        "keep_days": f"{limits.keep_days:g} days after its end",
    }
    assert set(told) == set(attrs.fields_dict(Limits)), "a bound of Limits the test does not hold"
    app = inspect.signature(create_app).parameters
    master = inspect.signature(Master).parameters
    clock = TimeControl()
    send_seconds = app["send_seconds"].default
    replay = f"{MAX_REPLAY_BYTES // 1024} KiB"
    told |= {
        "body": f"| a request body | {MAX_BODY_BYTES:,} bytes (a record to replay: {replay})",
        "replay": f"a record of at most {replay}",
        "bots": f"the bots of at most {master['bot_threads'].default} tables think at once",
        "sweep": f"any process's sweep (every {app['sweep_seconds'].default:g} seconds, "
        "`sweep_seconds`)",
        "send_seconds": f"read nothing for {send_seconds:g} seconds (`send_seconds`)",
        "keep-alive": f"at least the {KEEP_ALIVE_SECONDS:g} seconds between keep-alive comments",
        "digits": f"whole numbers of at most {MAX_NUMBER_DIGITS} ASCII digits",
        "tokens": f"tokens are read up to {MAX_TOKEN_LENGTH} characters",
        "names": f"Names are 1 to {MAX_NAME_LENGTH} characters",
        "lobby": f"the latest changed come first, {PAGE} a page",
        "takeover": f"after `takeover` time-outs in a row (default {clock.takeover})",
        "away": f"after `away_seconds` (default {clock.away_seconds:g})",
    }
    page = docs_page("serve.md")
    for what, phrase in told.items():
        assert phrase in page, f"{what}: the page does not say {phrase!r}"


def test_the_serve_page_names_the_wheel_of_this_version() -> None:
    import high_society

    wheel = f"dist/high_society-{high_society.__version__}-py3-none-any.whl"
    assert wheel in docs_page("serve.md")


def test_the_stability_page_names_every_extra() -> None:
    import tomllib

    root = Path(__file__).resolve().parent.parent
    extras = tomllib.loads((root / "pyproject.toml").read_text("utf-8"))["project"][
        "optional-dependencies"
    ]
    page = docs_page("stability.md")
    for extra in extras:
        assert f"`{extra}`" in page, f"the stability page does not name the {extra} extra"


def test_the_stability_page_lists_every_deprecated_name() -> None:
    """Every ``... is deprecated`` warning of the package names what the page lists."""
    import ast

    deprecated = set()
    for path in (Path(__file__).resolve().parent.parent / "src/high_society").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and " is deprecated" in node.value
            ):
                deprecated.add(node.value.split(" is deprecated")[0])
    assert "Validation.actions" in deprecated  # the scan finds them
    page = docs_page("stability.md")
    listed = page[page.index("## Deprecation") : page.index("## The command line")]
    for name in sorted(deprecated):
        assert f"{name}`" in listed, f"the stability page does not list {name} as deprecated"


def test_the_stability_page_tells_the_versions_and_the_work_limit_of_the_code() -> None:
    from high_society._reachability import WORK_LIMIT
    from high_society.record import FORMAT, VERSION
    from high_society.table import payload_schema

    page = docs_page("stability.md")
    schema_id = str(payload_schema()["$id"])
    version = schema_id.rsplit(":v", 1)[1]
    assert f"It is at version {version} (`{schema_id}`)" in page
    assert f'`"format": "{FORMAT}", "version": {VERSION}`' in page
    assert f"work limit** ({WORK_LIMIT:,} units)" in page
