"""The table server's secrets and bounds, on every store (SQLite and PostgreSQL,
tests/conftest.py):

- tokens are long random secrets, stored only as hashes, and compared in constant time
  against every seat's hash (no early exit);
- a seat's token never acts, nor reads, for another seat or at another table;
- what the server sends a seat is exactly the seat payload of what that seat knows (R13,
  R14), for games played through the store and read back from it: the payload secrecy
  property of :mod:`property_tests.test_payload_secrecy` holds through every store;
- request bodies, names, numbers and tokens are bounded, and refused cleanly past the
  bound, whether the body declares its length or not.

That the servers log no token is checked on real server processes' logs
(tests/test_server_faults.py).
"""

import asyncio
import hmac
import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from high_society.bots import Seen
from high_society.observation import view
from high_society.record import loads_record, replay
from high_society.rules import apply, new_game
from high_society.server._auth import Unauthorized
from high_society.server._master import Master, SeatSpec
from high_society.server._notify import Notifier
from high_society.server._store import Store
from high_society.table import Seat, seat_payload
from services.server_processes import random_move

THREE = {
    "seats": [
        {"kind": "person", "name": "Ada"},
        {"kind": "person", "name": "Ben"},
        {"kind": "bot", "bot": "random"},
    ]
}


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def make(client: TestClient, body: object = THREE) -> tuple[str, dict[int, str]]:
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    data = answer.json()
    return data["table"], {s["seat"]: s["token"] for s in data["seats"]}


def people(*names: str) -> list[SeatSpec]:
    return [SeatSpec("person", name=name) for name in names]


def test_tokens_are_long_random_secrets_stored_only_as_hashes(database: str) -> None:
    store = Store(database)
    master = Master(store, Notifier())
    try:
        given: list[str] = []
        for _ in range(20):
            made = asyncio.run(master.create(people("A", "B", "C", "D")))
            given += [token for _, token in made.tokens]
        assert len(set(given)) == len(given)
        for token in given:
            assert re.fullmatch(r"[A-Za-z0-9_-]{43,}", token)  # 32 random bytes at least
        # No token is in the database, in any column of any row.
        with store.engine.connect() as conn:
            stored = " ".join(
                str(row)
                for name in ("hs_tables", "hs_seats", "hs_actions")
                for row in conn.execute(sa.text(f"SELECT * FROM {name}"))
            )
        for token in given:
            assert token not in stored
    finally:
        store.close()


def test_a_token_is_compared_in_constant_time_with_every_seats_hash(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = Store(database)
    master = Master(store, Notifier())
    try:
        made = asyncio.run(master.create(people("Ada", "Ben", "Cy")))
        table, tokens = made.table_id, made.tokens
        master = Master(store, Notifier())  # another process: it reads the hashes first
        compared: list[tuple[bytes, bytes]] = []
        real = hmac.compare_digest

        def spy(a: bytes, b: bytes) -> bool:
            compared.append((a, b))
            return real(a, b)

        monkeypatch.setattr(hmac, "compare_digest", spy)
        for asked in range(2):  # the hashes read from the database, then from memory
            for seat, token in tokens:
                compared.clear()
                assert asyncio.run(master.seat_of(table, token)) == seat
                assert len(compared) == 3, asked  # every seat's hash: no early exit
            compared.clear()
            wrong = tokens[0][1][:-1] + ("A" if tokens[0][1][-1] != "A" else "B")
            with pytest.raises(Unauthorized):
                asyncio.run(master.seat_of(table, wrong))
            assert len(compared) == 3
    finally:
        store.close()


def test_a_seats_token_acts_and_reads_for_that_seat_at_that_table_only(
    client: TestClient,
) -> None:
    table, tokens = make(client)
    other, other_tokens = make(client)
    for seat, token in tokens.items():
        seen = client.get(f"/api/tables/{table}/payload", headers=auth(token)).json()
        assert seen["seat"] == seat
        assert seen["view"]["hand"]  # its own hand
        # Not another table's seat, not its stream, not its moves.
        for path in ("payload", "events"):
            refused = client.get(f"/api/tables/{other}/{path}", headers=auth(token))
            assert (refused.status_code, refused.json()["code"]) == (401, "BAD_TOKEN")
        move = {"action": {"type": "pass", "player": seat}}
        refused = client.post(f"/api/tables/{other}/actions", json=move, headers=auth(token))
        assert refused.status_code == 401
        # Not another seat of its own table, people's and the bot's alike.
        for victim in range(3):
            if victim == seat:
                continue
            move = {"action": {"type": "pass", "player": victim}}
            refused = client.post(f"/api/tables/{table}/actions", json=move, headers=auth(token))
            assert (refused.status_code, refused.json()["code"]) == (403, "NOT_YOUR_SEAT")
    # Near misses of a token are no token: another case, one character less or more.
    token = tokens[0]
    for near in (token.swapcase(), token[:-1], token + "A", f" {token}x", token.upper()):
        if near.strip() == token:
            continue
        answer = client.get(f"/api/tables/{table}/payload", headers=auth(near))
        assert answer.status_code == 401, near
    assert other_tokens  # the other table's people have tokens of their own


def play_and_check_payloads(client: TestClient, seed: int) -> int:
    """Play a table of three people with random moves; once in every five actions (a move
    and the reveal it makes due come together, so the numbers seen skip some), compare what
    the server sends each seat with the seat payload of what that seat knows. Returns how
    many payloads were compared."""
    body = {"seats": [{"kind": "person", "name": n} for n in ("Ada", "Ben", "Cy")]}
    table, tokens = make(client, body)
    rng = random.Random(seed)
    seats = [Seat("Ada"), Seat("Ben"), Seat("Cy")]
    compared = 0
    fifth = -1  # the block of five actions last compared in
    for _ in range(400):
        record = loads_record(client.get(f"/api/tables/{table}/record").text)
        state = replay(record)
        number = len(record.actions)
        if number // 5 != fifth or state.is_over:
            fifth = number // 5
            for seat, token in tokens.items():
                since = rng.randint(0, number)
                sent = client.get(
                    f"/api/tables/{table}/payload?since={since}", headers=auth(token)
                ).json()
                # The dealer may have played meanwhile: what the seat knew at that number.
                history = loads_record(client.get(f"/api/tables/{table}/record").text).actions
                history = history[: sent["number"]]
                then = new_game(3)
                for played in history:
                    then = apply(then, played)
                known = Seen(view(then, seat), tuple(history))
                assert sent == json.loads(json.dumps(seat_payload(known, seats, since)))
                text = json.dumps(sent)
                assert '"order"' not in text
                assert "spent" not in text
                compared += 1
        if state.is_over:
            return compared
        actor = client.get(f"/api/tables/{table}/payload", headers=auth(tokens[0])).json()
        to_act = actor["to_act"]
        if to_act not in tokens:  # the dealer's reveal, played by the server
            continue
        seen: dict[str, Any] = client.get(
            f"/api/tables/{table}/payload", headers=auth(tokens[to_act])
        ).json()
        if seen["number"] != number or seen["to_act"] != to_act:
            continue
        answer = client.post(
            f"/api/tables/{table}/actions",
            json=random_move(seen, rng),
            headers=auth(tokens[to_act]),
        )
        assert answer.status_code == 200, answer.text
    raise AssertionError("the game did not end")


def test_what_a_seat_is_sent_through_the_store_is_its_seat_payload_r13_r14(
    client: TestClient,
) -> None:
    compared = sum(play_and_check_payloads(client, seed) for seed in range(3))
    assert compared >= 3 * 3 * 5


def test_bodies_names_numbers_and_tokens_are_bounded(client: TestClient) -> None:
    table, tokens = make(client)
    token = tokens[0]
    big = b'{"seats": [' + b" " * 5000 + b"]}"

    def chunks() -> Iterator[bytes]:  # no Content-Length: the bound holds as it is read
        for _ in range(100):
            yield b" " * 100

    for path in ("/api/tables", f"/api/tables/{table}/join", f"/api/tables/{table}/actions"):
        for content in (big, chunks()):
            headers = {**auth(token), "Content-Type": "application/json"}
            answer = client.post(path, content=content, headers=headers)
            assert (answer.status_code, answer.json()["code"]) == (413, "TOO_LARGE"), path
    long_name = {"seats": [{"kind": "person", "name": "A" * 65}, {"kind": "open"}] * 2}
    control = {"seats": [{"kind": "person", "name": "A\x07"}, {"kind": "open"}, {"kind": "open"}]}
    six = {"seats": [{"kind": "open"}] * 6}
    for body in (long_name, control, six):
        answer = client.post("/api/tables", json=body)
        assert (answer.status_code, answer.json()["kind"]) == (400, "malformed")
    for since in ("9" * 12, "-1", "x"):
        answer = client.get(f"/api/tables/{table}/payload?since={since}", headers=auth(token))
        assert answer.status_code == 400
    for bad in ("x" * 65, "x" * 10_000, "\xe9" * 10, "a b"):
        header = f"Bearer {bad}".encode("latin-1")
        answer = client.get(f"/api/tables/{table}/payload", headers={b"Authorization": header})
        assert answer.status_code == 401
    answer = client.get(f"/api/tables/{'x' * 5000}", headers=auth(token))
    assert answer.status_code == 404
