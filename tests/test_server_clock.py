"""Turn clocks at the table server, on each real store (SQLite, and the test run's
PostgreSQL server): a person who does not act is timed out by the table's default, in the
record as the library writes it; several processes that reach one deadline at once play
one time-out; a server started after a downtime gives every running clock that time back,
and after a short pause does not; a clock asked for is checked like any request.

The clocks are short, and no verdict depends on timing: each wait is on a condition (a
deadline passed by the wall clock, a time-out committed) with a generous bound, and what
is checked is what the store holds afterwards.
"""

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from high_society.record import validate_record
from high_society.serial import action_from_json
from high_society.server import create_app
from high_society.server._dialects import open_engine
from high_society.server._services import Services, assemble
from high_society.server._store import Store
from high_society.table import TimeControl, default_action
from high_society.wire import NewSeat, NewTable
from services.server_processes import wait_for

PASS_BOT = NewSeat("bot", None, "pass")
#: Ada, who acts first once the first card is dealt, and two bots that always pass.
ADA_AND_TWO_BOTS = [{"kind": "person", "name": "Ada"}, *[{"kind": "bot", "bot": "pass"}] * 2]


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def ada_and_two_bots(control: TimeControl) -> NewTable:
    """Ada, who acts first once the first card is dealt, and two bots that always pass."""
    return NewTable((NewSeat("person", "Ada", None), PASS_BOT, PASS_BOT), clock=control)


@contextmanager
def process(database: str) -> Iterator[Services]:
    """One server process's parts on ``database``, never started: nothing of its own runs
    in the background (no bot, no dealer, no time-out), so a test says what happens."""
    store = Store(database)
    try:
        yield assemble(store)
    finally:
        store.close()


def stored(database: str, table_id: str) -> tuple[int, dict[str, Any], list[dict[str, Any]]]:
    """The table's version, clocks and actions as the store holds them."""
    store = Store(database)
    try:
        read = store.history.read(table_id, 0, setup=False)
    finally:
        store.close()
    assert read.clock is not None
    actions = [json.loads(text) for text in read.actions]
    return read.version, json.loads(read.clock), actions


def test_a_person_who_does_not_act_is_timed_out_by_the_default_then_played_by_a_bot(
    database: str,
) -> None:
    clock = {"move": 0.3, "takeover": 2, "away_seconds": 0.2, "bot": "heuristic"}
    body = {"seats": ADA_AND_TWO_BOTS, "clock": clock}
    with TestClient(create_app(database, sweep_seconds=0.2)) as client:
        made = client.post("/api/tables", json=body).json()
        table, token = made["table"], made["seats"][0]["token"]
        first = client.get(f"/api/tables/{table}/payload", headers=auth(token)).json()
        assert first["to_act"] == 0
        deadline = first["clock"]["deadline"]
        assert deadline == pytest.approx(first["clock"]["since"] + 0.3)

        def timed_out(times: int) -> bool:
            seen = client.get(f"/api/tables/{table}/payload", headers=auth(token)).json()
            return len(seen["clock"]["timed_out"]) >= times

        wait_for(lambda: timed_out(3), "three of Ada's turns timed out")
        seen = client.get(f"/api/tables/{table}/payload", headers=auth(token)).json()
        record = client.get(f"/api/tables/{table}/record").json()
    numbers = seen["clock"]["timed_out"]
    assert numbers == sorted(set(numbers))  # each turn timed out once
    assert all(record["actions"][n]["player"] == 0 for n in numbers)
    # Ada's first time-out is the documented default, played no earlier than its deadline:
    # the turn after it began at the time-out's moment.
    assert record["actions"][numbers[0]]["type"] in ("pass", "discard")
    assert seen["clock"]["seats"][0]["time_outs"] >= 2
    assert seen["clock"]["seats"][0]["away"] is True  # takeover: 2 in a row
    assert validate_record(json.dumps(record)).valid
    assert record["meta"]["time_outs"] == numbers[: len(record["meta"]["time_outs"])]
    assert record["meta"]["time_control"]["move"] == 0.3


def test_the_default_is_the_library_s(database: str) -> None:
    """The action a server's time-out plays is :func:`default_action` of the state."""
    table_id, version = past_its_deadline(database)
    with process(database) as parts:
        before = asyncio.run(parts.master.games.get(table_id, fresh=True)).table
        asyncio.run(parts.master.autoplay._expire(table_id, 0.0))
    after, clocks, actions = stored(database, table_id)
    assert after == version + 1
    assert action_from_json(actions[version]) == default_action(before.state)
    assert clocks["timed_out"] == [version]
    assert clocks["seats"][0] == {"bank": None, "time_outs": 1, "away": False}


def past_its_deadline(database: str) -> tuple[str, int]:
    """A table made by a process that plays nothing, Ada's turn under way past its
    deadline (which no one has played); its id and version."""
    with process(database) as parts:
        made = asyncio.run(parts.tables.create(ada_and_two_bots(TimeControl(move=0.05)), "t"))
    table_id = made.table_id
    query = "SELECT deadline FROM hs_tables WHERE id = :id"
    wait_for(lambda: time.time() > _column(database, query, id=table_id), "the deadline passed")
    return table_id, stored(database, table_id)[0]


def _column(database: str, query: str, **values: object) -> float:
    """One number the store holds, read as the sweep reads it."""
    engine = open_engine(database, 30.0)
    try:
        with engine.connect() as connection:
            return float(connection.execute(sa.text(query), values).scalar_one())
    finally:
        engine.dispose()


def test_processes_reaching_one_deadline_at_once_play_one_time_out(database: str) -> None:
    table_id, version = past_its_deadline(database)
    failures: list[BaseException] = []
    lock = threading.Lock()
    ready = threading.Barrier(4)

    def race() -> None:
        try:
            with process(database) as parts:
                ready.wait(60)
                asyncio.run(parts.master.autoplay._expire(table_id, 0.0))
        except BaseException as error:
            with lock:
                failures.append(error)

    threads = [threading.Thread(target=race) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert failures == []
    after, clocks, actions = stored(database, table_id)
    assert after == version + 1
    assert clocks["timed_out"] == [version]
    assert clocks["seats"][0]["time_outs"] == 1
    assert actions[version]["player"] == 0


def _shift(database: str, table_id: str, seconds: float) -> None:
    """Move the table's turn and the servers' last sweep ``seconds`` into the past: as if
    they happened that long ago and no server ran since."""
    engine = open_engine(database, 30.0)
    try:
        with engine.begin() as connection:
            connection.execute(sa.text("UPDATE hs_heartbeat SET at = at - :s"), {"s": seconds})
            connection.execute(
                sa.text(
                    "UPDATE hs_tables SET since = since - :s, deadline = deadline - :s "
                    "WHERE id = :id"
                ),
                {"s": seconds, "id": table_id},
            )
    finally:
        engine.dispose()


@pytest.mark.parametrize(("move", "down"), [(600.0, 3600.0), (3.0, 30.0)])
def test_a_server_started_after_a_downtime_gives_running_clocks_that_time_back(
    database: str, move: float, down: float
) -> None:
    """A restart in the middle of a clock: after more than a minute with no server (no
    sweep's heartbeat), every running clock is given the time back; after a short pause
    (a restart, a deploy) it is not, and a deadline that passed meanwhile times out."""
    body = {"seats": ADA_AND_TWO_BOTS, "clock": {"move": move}}
    with TestClient(create_app(database, sweep_seconds=0.2)) as client:
        made = client.post("/api/tables", json=body).json()
        table, token = made["table"], made["seats"][0]["token"]
        seen = client.get(f"/api/tables/{table}/payload", headers=auth(token)).json()
    # The server stopped in Ada's turn; now it is as if that was `down` seconds ago.
    _shift(database, table, down)
    moment = time.time()
    with TestClient(create_app(database, sweep_seconds=0.2)) as client:
        if down > 60:  # the longest pause not given back (sweep_seconds is short)
            wait_for(lambda: swept_since(database, moment), "the new server started its sweep")
        else:
            wait_for(lambda: stored(database, table)[0] > seen["number"], "Ada timed out")
        now = client.get(f"/api/tables/{table}/payload", headers=auth(token)).json()
    if down > 60:
        assert now["number"] == seen["number"]
        assert now["clock"]["timed_out"] == []
        # Her deadline moved on by the downtime (and the moments between the two servers).
        assert now["clock"]["deadline"] >= seen["clock"]["deadline"]
        assert now["clock"]["deadline"] - now["clock"]["since"] == pytest.approx(move)
    else:
        assert now["clock"]["timed_out"][0] == seen["number"]


def swept_since(database: str, moment: float) -> bool:
    """Whether a server's sweep beat after ``moment``."""
    return _column(database, "SELECT at FROM hs_heartbeat") > moment


@pytest.mark.parametrize(
    ("clock", "path"),
    [
        ({"move": 0}, "$.clock.move"),
        ({"move": -1}, "$.clock.move"),
        ({"move": 1e9}, "$.clock.move"),
        ({"move": 10, "bank": 10}, "$.clock"),
        ({"bank": 60, "increment": -1}, "$.clock.increment"),
        ({"move": 10, "takeover": 0}, "$.clock.takeover"),
        ({"move": 10, "bot": "nobody"}, "$.clock.bot"),
        ({"move": 10, "tick": 1}, "$.clock"),
        ({"move": "10"}, "$.clock.move"),
    ],
)
def test_a_clock_that_is_not_one_is_refused_and_makes_no_table(
    client: TestClient, clock: dict[str, Any], path: str
) -> None:
    answer = client.post("/api/tables", json={"seats": ADA_AND_TWO_BOTS, "clock": clock})
    assert answer.status_code == 400, answer.text
    assert answer.json()["kind"] == "malformed"
    assert answer.json()["path"].startswith(path), answer.json()
    assert client.app.state.services.store.count_live() == 0  # type: ignore[attr-defined]
