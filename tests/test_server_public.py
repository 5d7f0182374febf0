"""What the table server gives anyone, without a token, on each real store (SQLite, and the
test run's PostgreSQL server): a spectator's payload and event stream (the public view,
no hand, bounded per address like a seat's streams); the bots a seat can have, each of
which plays whole games at 3, 4 and 5 players; and a recorded game replayed: the
library's verdict as ``high-society validate`` gives it, and the steps of its valid
actions, each what a spectator is shown, bounded and rate-bounded."""

import json
import random
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # no stubs; a dev dependency only
import pytest
import referencing
from fastapi.testclient import TestClient

from high_society.levels import LEVELS, TIERS
from high_society.record import action_schema, validate_record
from high_society.server import BOTS, Limits, create_app
from high_society.server._bots import TableBot
from high_society.table import (
    Seat,
    Table,
    replay_step_schema,
    spectator_payload,
    spectator_payload_schema,
)
from high_society.tournament import BUILT_IN

THREE = {
    "seats": [
        {"kind": "person", "name": "Ada"},
        {"kind": "bot", "bot": "heuristic"},
        {"kind": "bot", "bot": "random"},
    ]
}
_REGISTRY = referencing.Registry().with_resource(
    "urn:high-society:action:v1", referencing.Resource.from_contents(action_schema())
)


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def made(client: TestClient, body: object = THREE) -> tuple[str, str]:
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()["table"], answer.json()["seats"][0]["token"]


def played(client: TestClient) -> tuple[str, str]:
    """A table of Ada and two bots, played to its end (Ada passes, or gives up her first
    luxury card for Faux Pas)."""
    table, token = made(client)
    for _ in range(10_000):
        seen = client.get(f"/api/tables/{table}/payload", headers=auth(token)).json()
        if seen["result"] is not None:
            return table, token
        legal = seen["legal"]
        if legal is None:
            continue
        action: dict[str, Any] = {"type": "pass", "player": 0}
        if legal["discards"]:
            action = legal["discards"][0]
        move = {"action": action, "number": seen["number"]}
        client.post(f"/api/tables/{table}/actions", json=move, headers=auth(token))
    raise AssertionError("the game did not end")


# --- Spectators ------------------------------------------------------------------------------


def test_a_spectator_sees_what_every_seat_shares_and_no_hand(client: TestClient) -> None:
    table, token = made(client)
    watched = client.get(f"/api/tables/{table}/public")
    assert watched.status_code == 200, watched.text
    public = watched.json()
    seat = client.get(f"/api/tables/{table}/payload", headers=auth(token)).json()
    if seat["number"] == public["number"]:  # the bots did not move in between
        for key in set(seat) - {"seat", "legal", "view"}:
            assert public[key] == seat[key], key
        shared = {k: v for k, v in seat["view"].items() if k not in ("seat", "hand")}
        assert {k: v for k, v in public["view"].items() if k not in ("seat", "hand")} == shared
    assert (public["seat"], public["legal"]) == (None, None)
    assert (public["view"]["seat"], public["view"]["hand"]) == (None, None)
    jsonschema.Draft202012Validator(spectator_payload_schema(), registry=_REGISTRY).validate(public)
    later = client.get(f"/api/tables/{table}/public?since={public['number']}").json()
    assert later["since"] == public["number"]
    assert later["history"] == []


def test_a_spectator_is_refused_what_a_seat_would_be(client: TestClient) -> None:
    waiting, _ = made(
        client, {"seats": [{"kind": "person", "name": "Ada"}, *[{"kind": "open"}] * 2]}
    )
    cases = [
        (f"/api/tables/{waiting}/public", 409, "TABLE_WAITING"),
        ("/api/tables/nope/public", 404, "NO_SUCH_TABLE"),
        (f"/api/tables/{made(client)[0]}/public?since=x", 400, "WRONG_TYPE"),
        (f"/api/tables/{waiting}/public/events", 409, "TABLE_WAITING"),
    ]
    for url, status, code in cases:
        answer = client.get(url)
        assert (answer.status_code, answer.json()["code"]) == (status, code), url


def test_a_spectator_stream_pushes_public_payloads_bounded_per_address(database: str) -> None:
    limits = Limits(max_seat_streams=1, max_address_streams=2)
    with TestClient(create_app(database, sweep_seconds=0.2, limits=limits)) as client:
        table, _ = made(client)
        url = f"/api/tables/{table}/public/events"
        # No bound per table for spectators: two streams of one table, where a seat has one.
        with client.stream("GET", url) as one, client.stream("GET", url) as two:
            assert (one.status_code, two.status_code) == (200, 200)
            third = client.get(url)
            assert (third.status_code, third.json()["code"]) == (429, "TOO_MANY_STREAMS")
            assert third.headers["retry-after"] == "5"
            first = next(line for line in one.iter_lines() if line.startswith("data: "))
            assert json.loads(first.removeprefix("data: "))["view"]["hand"] is None


# --- Bots ------------------------------------------------------------------------------------


def test_every_level_is_offered_easiest_first_with_its_rating(client: TestClient) -> None:
    listed = client.get("/api/bots").json()["bots"]
    assert [bot["label"] for bot in listed] == list(BOTS) == [lv.name for lv in LEVELS]
    assert set(BUILT_IN) <= set(BOTS)
    assert [bot["level"] for bot in listed] == list(range(1, len(listed) + 1))
    ratings = [bot["rating"] for bot in listed]
    assert ratings == sorted(ratings)
    assert [bot["tier"] for bot in listed] == sorted((b["tier"] for b in listed), key=TIERS.index)
    assert all(len(bot["ratings"]) == 3 for bot in listed)
    assert all(bot["description"].endswith(".") for bot in listed)
    body = {
        "seats": [{"kind": "person", "name": "Ada"}, *({"kind": "bot", "bot": b} for b in BOTS[:4])]
    }
    table, _ = made(client, body)
    names = [seat["name"] for seat in client.get(f"/api/tables/{table}").json()["seats"]]
    assert names == ["Ada", *(f"{b.capitalize()} bot {i + 2}" for i, b in enumerate(BOTS[:4]))]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_bot_but_search_plays_whole_games_at_a_table(players: int) -> None:
    # Search and lookahead think for long: one decision of each is enough to know it
    # plays at a table.
    thinkers = ("search", "lookahead")
    for label in [b for b in BOTS if b not in thinkers]:
        table = Table([Seat(f"{label} {i}", label) for i in range(players)], seed=players)
        table.advance({i: TableBot(label, 7) for i in range(players)})
        assert table.is_over, label
    for label in thinkers:
        table = Table([Seat(f"S{i}", label) for i in range(players)], seed=1)
        table.reveal()
        assert table.bot_action(TableBot(label, 7)) is not None


# --- Replays ---------------------------------------------------------------------------------


def replayed(client: TestClient, body: object) -> dict[str, Any]:
    text = body if isinstance(body, str) else json.dumps(body)
    answer = client.post("/api/replays", content=text, headers={"Content-Type": "application/json"})
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def test_a_finished_table_s_record_replays_action_by_action_as_a_spectator_sees_it(
    client: TestClient,
) -> None:
    table, _ = played(client)
    record = client.get(f"/api/tables/{table}/record").json()
    public = client.get(f"/api/tables/{table}/public").json()
    answer = replayed(client, record)
    assert (answer["valid"], answer["finished"], answer["error"]) == (True, True, None)
    steps = answer["steps"]
    assert [step["number"] for step in steps] == list(range(len(record["actions"])))
    assert [step["action"] for step in steps] == record["actions"]
    told = [(step["number"], text) for step in steps for text in step["log"]]
    assert told == [(entry["number"], entry["text"]) for entry in public["log"]]
    assert answer["final"]["result"] == public["result"]
    step_schema = jsonschema.Draft202012Validator(replay_step_schema(), registry=_REGISTRY)
    seats = [Seat(name) for name in record["players"]]
    history = validate_record(json.dumps(record)).record
    assert history is not None
    for step in random.Random(1).sample(steps, 8):
        step_schema.validate(step)
        after = spectator_payload(history.actions[: step["number"] + 1], seats)
        assert step["view"] == after["view"]
        assert (step["to_act"], step["min_bid_total"]) == (after["to_act"], after["min_bid_total"])


def test_a_refused_record_is_told_as_validate_tells_it_with_its_valid_actions(
    client: TestClient,
) -> None:
    table, _ = played(client)
    record = client.get(f"/api/tables/{table}/record").json()
    bad = {**record, "actions": [*record["actions"][:9], {"type": "pass", "player": 7}]}
    expected = validate_record(json.dumps(bad)).to_json("x")["error"]
    answer = replayed(client, bad)
    assert (answer["valid"], answer["finished"]) == (False, False)
    assert answer["error"] == expected
    assert answer["error"]["index"] == 9
    assert len(answer["steps"]) == 9
    assert answer["final"]["number"] == 9
    for text, code in (
        ("[]", "BAD_TOP_LEVEL"),
        ("{", "NOT_JSON"),
        ('{"a": 1, "a": 2}', "DUPLICATE_KEY"),
    ):
        answer = replayed(client, text)
        assert (answer["valid"], answer["error"]["code"], answer["error"]["index"]) == (
            False,
            code,
            None,
        )
        assert (answer["steps"], answer["final"]) == ([], None)


def test_a_replay_is_bounded_in_size_and_rate(tmp_path: Any) -> None:
    app = create_app(f"sqlite:///{tmp_path}/t.sqlite3", limits=Limits(replays_per_minute=2))
    with TestClient(app) as client:
        json_body = {"Content-Type": "application/json"}
        big = client.post("/api/replays", content=b" " * (256 * 1024 + 1), headers=json_body)
        assert (big.status_code, big.json()["code"]) == (413, "TOO_LARGE")
        plain = client.post("/api/replays", content=b"{}", headers={"Content-Type": "text/plain"})
        assert (plain.status_code, plain.json()["code"]) == (415, "NOT_APPLICATION_JSON")
        late = client.post("/api/replays", content=b"{}", headers=json_body)
        assert (late.status_code, late.json()["code"]) == (429, "TOO_MANY_REPLAYS")
        assert int(late.headers["retry-after"]) >= 1


def test_replays_are_bounded_in_all_whatever_the_addresses(tmp_path: Any) -> None:
    limits = Limits(replays_per_minute=100, all_replays_per_minute=2)
    app = create_app(f"sqlite:///{tmp_path}/t.sqlite3", limits=limits)
    with TestClient(app) as client:
        json_body = {"Content-Type": "application/json"}
        for _ in range(2):
            assert client.post("/api/replays", content=b"{}", headers=json_body).status_code == 200
        late = client.post("/api/replays", content=b"{}", headers=json_body)
        assert (late.status_code, late.json()["code"]) == (503, "TOO_MANY_REPLAYS")
        assert int(late.headers["retry-after"]) >= 1
