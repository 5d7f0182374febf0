"""The lobby, on each real store (SQLite, and the test run's PostgreSQL server): the tables
their makers listed and that are not over, a seat to join or a game to watch, the latest
changed first; what it never shows (a table not listed, a table over, a token); its pages
(bounded, each table once, a cursor that is not one refused); its stream, which sends the
first page and again after a change, bounded per address like the tables' streams.

(The secrecy property over random tables: property_tests/test_lobby_secrecy.py.)
"""

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from high_society.server import Limits, create_app
from high_society.server._lobby import PAGE
from high_society.wire import LOBBY, LOBBY_EVENT
from tests.test_server_rematch import played_out

ADA_OPEN_BOT = [
    {"kind": "person", "name": "Ada"},
    {"kind": "open"},
    {"kind": "bot", "bot": "pass"},
]
ADA_AND_TWO_BOTS = [{"kind": "person", "name": "Ada"}, *[{"kind": "bot", "bot": "pass"}] * 2]


def make(client: TestClient, seats: list[dict[str, Any]], **more: Any) -> dict[str, Any]:
    answer = client.post("/api/tables", json={"seats": seats, **more})
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


def listed(client: TestClient) -> list[str]:
    page = client.get("/api/lobby").json()
    LOBBY.read(page)  # of the documented shape
    return [entry["table"] for entry in page["tables"]]


def test_the_lobby_lists_what_its_makers_listed_and_is_not_over(client: TestClient) -> None:
    hidden = make(client, ADA_OPEN_BOT)["table"]
    open_one = make(client, ADA_OPEN_BOT, listed=True, clock={"move": 3600})["table"]
    playing = make(client, ADA_AND_TWO_BOTS, listed=True)["table"]
    assert hidden not in listed(client)
    page = client.get("/api/lobby").json()
    entries = {entry["table"]: entry for entry in page["tables"]}
    assert list(entries) == [playing, open_one]  # the latest changed first
    assert page["next"] is None
    joinable = entries[open_one]
    assert (joinable["status"], joinable["open"]) == ("waiting", 1)
    assert joinable["clock"]["move"] == 3600
    assert joinable["seats"] == client.get(f"/api/tables/{open_one}").json()["seats"]
    watchable = entries[playing]
    assert (watchable["status"], watchable["open"], watchable["clock"]) == ("playing", 0, None)
    # Joining the last seat starts the game: still listed, now to watch.
    client.post(f"/api/tables/{open_one}/join", json={"name": "Ben"})
    entry = next(e for e in client.get("/api/lobby").json()["tables"] if e["table"] == open_one)
    assert (entry["status"], entry["open"]) == ("playing", 0)
    assert [seat["name"] for seat in entry["seats"][:2]] == ["Ada", "Ben"]


def test_a_table_over_leaves_the_lobby(client: TestClient) -> None:
    table, _ = played_out(client, {"seats": ADA_AND_TWO_BOTS, "listed": True})
    assert client.get(f"/api/tables/{table}").json()["status"] == "over"
    assert table not in listed(client)


def test_the_lobby_holds_no_secret(client: TestClient) -> None:
    made = make(client, ADA_OPEN_BOT, listed=True)
    joined = client.post(f"/api/tables/{made['table']}/join", json={"name": "Ben"}).json()
    text = client.get("/api/lobby").text
    for token in (made["seats"][0]["token"], joined["token"]):
        assert token not in text
    for secret in ("token", "hand", "deck", "order", "seed", "money", "spent"):
        assert f'"{secret}' not in text, secret


def test_pages_list_each_table_once_and_are_bounded(database: str) -> None:
    limits = Limits(tables_per_minute=1_000)
    with TestClient(create_app(database, sweep_seconds=0.2, limits=limits)) as client:
        made = [make(client, ADA_OPEN_BOT, listed=True)["table"] for _ in range(PAGE * 2 + 7)]
        seen: list[str] = []
        pages = 0
        cursor: str | None = None
        while True:
            query = {} if cursor is None else {"before": cursor}
            page = client.get("/api/lobby", params=query).json()
            LOBBY.read(page)
            assert len(page["tables"]) <= PAGE
            seen += [entry["table"] for entry in page["tables"]]
            pages += 1
            cursor = page["next"]
            if cursor is None:
                break
            # A table made meanwhile goes on the first page, not in the middle of paging.
            if pages == 1:
                newer = make(client, ADA_OPEN_BOT, listed=True)["table"]
        assert newer == listed(client)[0]
    assert pages == 3
    assert seen == list(reversed(made))


@pytest.mark.parametrize(
    "cursor", ["x", "1~", "~abc", "1.5~a b", "-1~abc", "1e9~abc", "1~" + "a" * 33, "9" * 13 + "~a"]
)
def test_a_cursor_that_no_page_gave_is_refused(client: TestClient, cursor: str) -> None:
    answer = client.get("/api/lobby", params={"before": cursor})
    assert answer.status_code == 400
    assert (answer.json()["kind"], answer.json()["path"]) == ("malformed", "$.before")


def test_the_stream_sends_the_first_page_and_again_after_a_change(client: TestClient) -> None:
    first = make(client, ADA_OPEN_BOT, listed=True)["table"]
    with client.stream("GET", "/api/lobby/events") as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        lines = stream.iter_lines()
        event = next(line for line in lines if line.startswith("event: "))
        data = next(line for line in lines if line.startswith("data: "))
        sent = json.loads(data[6:])
        LOBBY_EVENT.read({"event": event[7:], "data": sent})  # of the documented shape
        assert [entry["table"] for entry in sent["tables"]] == [first]
        second = make(client, ADA_OPEN_BOT, listed=True)["table"]
        data = next(line for line in lines if line.startswith("data: "))
        assert [entry["table"] for entry in json.loads(data[6:])["tables"]] == [second, first]


def test_the_stream_is_bounded_per_address(database: str) -> None:
    limits = Limits(max_address_streams=1)
    app = create_app(database, sweep_seconds=0.2, limits=limits)
    # (The test client ends a stream once a line of it is read: none is read here.)
    with TestClient(app) as client, client.stream("GET", "/api/lobby/events") as stream:
        assert stream.status_code == 200
        refused = client.get("/api/lobby/events")
        assert refused.status_code == 429
        assert refused.json()["kind"] == "too_many"
