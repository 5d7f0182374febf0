"""A finished table's rematch, on each real store (SQLite, and the test run's PostgreSQL
server): the same people and bots each one seat on, so that another player starts (R3:
the first seat starts), a fresh shuffle, every person's seat reserved until they ask;
asked again, from any process and at the same moment, it is made once and each person
gets the same seat and token; it starts when every person has asked; its refusals."""

import asyncio
import functools
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from high_society.server import Limits, create_app
from high_society.server._services import assemble
from high_society.server._store import Store
from high_society.server._tables import Rematch

TWO_AND_A_BOT = {
    "seats": [
        {"kind": "person", "name": "Ada"},
        {"kind": "person", "name": "Ben"},
        {"kind": "bot", "bot": "pass"},
    ]
}


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def played_out(client: TestClient, body: object = TWO_AND_A_BOT) -> tuple[str, list[str]]:
    """A table (of Ada, Ben and a bot that always passes) played to its end, the people
    passing or giving up their first luxury card for Faux Pas; its id and the people's
    tokens."""
    made = client.post("/api/tables", json=body).json()
    table = made["table"]
    tokens = {seat["seat"]: seat["token"] for seat in made["seats"]}
    anyone = next(iter(tokens.values()))
    for _ in range(10_000):
        seen = client.get(f"/api/tables/{table}/payload", headers=auth(anyone)).json()
        if seen["result"] is not None:
            return table, list(tokens.values())
        seat = seen["to_act"]
        if seat not in tokens:  # a bot's turn, or the dealer's
            time.sleep(0.01)
            continue
        seen = client.get(f"/api/tables/{table}/payload", headers=auth(tokens[seat])).json()
        legal = seen["legal"]
        action: dict[str, Any] = {"type": "pass", "player": seat}
        if legal["discards"]:
            action = legal["discards"][0]
        move = {"action": action, "number": seen["number"]}
        client.post(f"/api/tables/{table}/actions", json=move, headers=auth(tokens[seat]))
    raise AssertionError("the game did not end")


def test_a_rematch_seats_the_same_people_and_bots_one_seat_on_and_starts_when_all_ask(
    client: TestClient,
) -> None:
    table, (ada, ben) = played_out(client)
    assert client.get(f"/api/tables/{table}").json()["rematch"] is None
    first = client.post(f"/api/tables/{table}/rematch", headers=auth(ada))
    assert first.status_code == 200, first.text
    new = first.json()["table"]
    assert first.json()["seat"] == 2  # R3: Ben, who sat second, sits first and starts
    assert client.get(f"/api/tables/{table}").json()["rematch"] == new
    lobby = client.get(f"/api/tables/{new}").json()
    assert lobby["status"] == "waiting"
    assert lobby["rematch"] is None
    kinds = [(seat["kind"], seat["name"], seat["bot"]) for seat in lobby["seats"]]
    assert kinds == [
        ("reserved", "Ben", None),
        ("bot", "Pass bot 3", "pass"),  # a bot keeps its name at its new seat
        ("person", "Ada", None),
    ]
    # Asked again (a lost answer, another device): the same seat and token, nothing new.
    assert client.post(f"/api/tables/{table}/rematch", headers=auth(ada)).json() == first.json()
    # A stranger cannot take a reserved seat, and the table waits.
    refused = client.post(f"/api/tables/{new}/join", json={"name": "Cy"})
    assert (refused.status_code, refused.json()["code"]) == (409, "NO_OPEN_SEAT")
    waiting = client.get(f"/api/tables/{new}/payload", headers=auth(first.json()["token"]))
    assert (waiting.status_code, waiting.json()["code"]) == (409, "TABLE_WAITING")
    second = client.post(f"/api/tables/{table}/rematch", headers=auth(ben)).json()
    assert (second["table"], second["seat"]) == (new, 0)
    seen = client.get(f"/api/tables/{new}/payload", headers=auth(second["token"])).json()
    assert seen["number"] == 1  # started: its first card revealed
    assert seen["to_act"] == 0
    assert [p["name"] for p in seen["players"]] == ["Ben", "Pass bot 3", "Ada"]
    # Each table's tokens are its own.
    for token in (ada, ben):
        answer = client.get(f"/api/tables/{new}/payload", headers=auth(token))
        assert answer.status_code == 401
    answer = client.get(f"/api/tables/{table}/payload", headers=auth(second["token"]))
    assert answer.status_code == 401
    # The old table's record is untouched; the new one is a new game.
    assert client.get(f"/api/tables/{table}").json()["status"] == "over"


def test_a_rematch_is_refused_before_the_end_without_a_seat_or_table(client: TestClient) -> None:
    made = client.post("/api/tables", json=TWO_AND_A_BOT).json()
    table, token = made["table"], made["seats"][0]["token"]
    cases = [
        (table, auth(token), 409, "GAME_NOT_OVER"),
        (table, {}, 401, "NO_TOKEN"),
        (table, auth("x" * 43), 401, "BAD_TOKEN"),
        ("nope", auth(token), 404, "NO_SUCH_TABLE"),
    ]
    for where, headers, status, code in cases:
        answer = client.post(f"/api/tables/{where}/rematch", headers=headers)
        assert (answer.status_code, answer.json()["code"]) == (status, code), where
    assert client.get(f"/api/tables/{table}").json()["rematch"] is None


def test_rematches_asked_at_once_in_several_processes_make_one_table(database: str) -> None:
    with TestClient(create_app(database, sweep_seconds=0.2)) as client:
        table, (ada, ben) = played_out(client)
    # Each master is one server process's: its own store, event loop and copies. Ada and
    # Ben each ask twice at once, in four processes.
    stores = [Store(database) for _ in range(4)]
    answers: list[Rematch] = []
    failures: list[BaseException] = []
    lock = threading.Lock()

    async def ask(store: Store, token: str) -> None:
        parts = assemble(store)
        parts.master.start(asyncio.get_running_loop())
        try:
            made = await parts.tables.rematch(table, token)
            with lock:
                answers.append(made)
        except BaseException as error:
            with lock:
                failures.append(error)
        finally:
            await parts.master.close()

    asks = zip(stores, (ada, ben, ada, ben), strict=True)
    threads = [threading.Thread(target=asyncio.run, args=(ask(s, t),)) for s, t in asks]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    try:
        assert failures == []
        assert len({answer.table_id for answer in answers}) == 1
        assert len(set(answers)) == 2  # each person's two answers are one
        new = answers[0].table_id
        assert stores[0].seats.lobby(table).rematch == new
        status, version = stores[0].history.version(new)
        assert status == "playing"
        assert version >= 1
        assert stores[0].count_live() == 1  # the old table is over; one rematch was made
    finally:
        for store in stores:
            store.close()


def test_tables_that_expire_take_their_rematch_links_with_them(database: str) -> None:
    with TestClient(create_app(database, sweep_seconds=0.2)) as client:
        table, (ada, _) = played_out(client)
        new = client.post(f"/api/tables/{table}/rematch", headers=auth(ada)).json()["table"]
    store = Store(database)
    try:
        gone = store.expire(idle_before=0.0, over_before=float("inf"))
        assert gone == [table]
        assert store.seats.lobby(new).status == "waiting"  # its own time comes later
        assert sorted(store.expire(idle_before=float("inf"), over_before=0.0)) == [new]
    finally:
        store.close()


@pytest.mark.parametrize("players", [4, 5])
def test_the_rotation_moves_every_seat_one_on(players: int, tmp_path: Path) -> None:
    people = [{"kind": "person", "name": f"P{i}"} for i in range(players - 2)]
    seats = [people[0], {"kind": "bot", "bot": "pass"}, *people[1:], {"kind": "bot", "bot": "pass"}]
    with TestClient(create_app(f"sqlite:///{tmp_path}/t.sqlite3")) as client:
        table, tokens = played_out(client, {"seats": seats})
        names = [who(seat) for seat in client.get(f"/api/tables/{table}").json()["seats"]]
        for token in tokens:
            new = client.post(f"/api/tables/{table}/rematch", headers=auth(token)).json()
        lobby = client.get(f"/api/tables/{new['table']}").json()
    assert [who(seat) for seat in lobby["seats"]] == [*names[1:], names[0]]
    assert lobby["status"] == "playing"


def who(seat: dict[str, Any]) -> str:
    """A seat's name: a person's, or a bot's (kept from the table before)."""
    return str(seat["name"])


def test_a_rematch_counts_in_the_address_s_table_budget(database: str) -> None:
    limits = Limits(tables_per_minute=2)  # a burst of 2, then one each 30 s
    with TestClient(create_app(database, sweep_seconds=0.2, limits=limits)) as client:
        table, (ada, _) = played_out(client)
        assert client.post("/api/tables", json=TWO_AND_A_BOT).status_code == 201
        refused = client.post("/api/tables", json=TWO_AND_A_BOT)
        assert (refused.status_code, refused.json()["code"]) == (429, "TOO_MANY_TABLES")
        # A rematch is a table made: refused alike, and nothing is made.
        answer = client.post(f"/api/tables/{table}/rematch", headers=auth(ada))
        assert (answer.status_code, answer.json()["code"]) == (429, "TOO_MANY_TABLES")
        assert int(answer.headers["Retry-After"]) >= 1
        assert client.get(f"/api/tables/{table}").json()["rematch"] is None


def counted_writes(store: Store) -> list[object]:
    """The write transactions ``store`` makes from now on, each job listed as it runs."""
    writes: list[object] = []
    real_write = store._db.write

    def counted(job: Any) -> Any:
        writes.append(job)
        return real_write(job)

    store._db.write = counted  # type: ignore[method-assign]
    return writes


def ask_rematch(store: Store, table: str, token: str) -> Rematch:
    """The rematch ask of ``token`` at ``table``, by a master of its own on ``store``."""

    async def ask() -> Rematch:
        parts = assemble(store)
        parts.master.start(asyncio.get_running_loop())
        try:
            return await parts.tables.rematch(table, token)
        finally:
            await parts.master.close()

    return asyncio.run(ask())


def test_a_rematch_asked_again_is_answered_without_a_write(database: str) -> None:
    with TestClient(create_app(database, sweep_seconds=0.2)) as client:
        table, (ada, ben) = played_out(client)
        first = client.post(f"/api/tables/{table}/rematch", headers=auth(ada)).json()
    store = Store(database)
    writes = counted_writes(store)
    ask = functools.partial(ask_rematch, store, table)
    try:
        for _ in range(3):
            again = ask(ada)
            assert (again.table_id, again.seat, again.token) == (
                first["table"],
                first["seat"],
                first["token"],
            )
        assert writes == []  # asked again: read, not written
        ask(ben)  # Ben's first ask claims his seat: one write
        assert len(writes) == 1
        ask(ben)
        assert len(writes) == 1
    finally:
        store.close()


def test_a_rematch_is_made_and_claimed_in_one_transaction(database: str) -> None:
    """Nothing lies between making the rematch and claiming the asker's seat: a process
    killed at any moment of an ask leaves either no rematch or one with the seat claimed,
    and asking again (any process) answers the same seat and token."""
    with TestClient(create_app(database, sweep_seconds=0.2)) as client:
        table, (ada, _) = played_out(client)
    store = Store(database)
    writes = counted_writes(store)
    ask = functools.partial(ask_rematch, store, table)
    try:
        made = ask(ada)
        assert len(writes) == 1
        seats = store.seats.lobby(made.table_id).seats
        assert seats[made.seat].kind == "person"
        assert ask(ada) == made
    finally:
        store.close()
