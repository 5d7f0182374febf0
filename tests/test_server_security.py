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
import os
import random
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from high_society.bots import Seen
from high_society.cli.serve import database_url, exposure_warning
from high_society.errors import InvalidConfigError, RecordError
from high_society.observation import view
from high_society.record import dumps_record, loads_record, replay
from high_society.rules import apply, new_game
from high_society.server import check_database, create_app
from high_society.server._auth import Unauthorized
from high_society.server._dialects import shown_url
from high_society.server._services import assemble
from high_society.server._store import Store
from high_society.table import MAX_META_BYTES, Seat, Table, check_name, seat_payload
from high_society.wire import NewSeat, NewTable
from services.server_processes import random_move, running, serve_command

PEOPLE = {"seats": [{"kind": "person", "name": n} for n in ("Ada", "Ben", "Cy")]}
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


def people(*names: str) -> NewTable:
    return NewTable(tuple(NewSeat("person", name=name) for name in names))


def test_tokens_are_long_random_secrets_stored_only_as_hashes(database: str) -> None:
    store = Store(database)
    tables = assemble(store).tables
    try:
        given: list[str] = []
        for _ in range(20):
            made = asyncio.run(tables.create(people("A", "B", "C", "D")))
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
    try:
        made = asyncio.run(assemble(store).tables.create(people("Ada", "Ben", "Cy")))
        table, tokens = made.table_id, made.tokens
        keys = assemble(store).keys  # another process: it reads the hashes first
        compared: list[tuple[bytes, bytes]] = []
        real = hmac.compare_digest

        def spy(a: bytes, b: bytes) -> bool:
            compared.append((a, b))
            return real(a, b)

        monkeypatch.setattr(hmac, "compare_digest", spy)
        for asked in range(2):  # the hashes read from the database, then from memory
            for seat, token in tokens:
                compared.clear()
                assert asyncio.run(keys.seat_of(table, token)) == seat
                assert len(compared) == 3, asked  # every seat's hash: no early exit
            compared.clear()
            wrong = tokens[0][1][:-1] + ("A" if tokens[0][1][-1] != "A" else "B")
            with pytest.raises(Unauthorized):
                asyncio.run(keys.seat_of(table, wrong))
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


# --- Hostile input, round 3: secrets, files, numbers and errors --------------------------


def test_the_data_directory_and_database_files_are_private_whatever_the_umask(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    old = os.umask(0o022)
    try:
        with running(
            lambda port: serve_command(port, data_dir=data), tmp_path / "serve.log"
        ) as server:
            status, _ = server.call("POST", "/api/tables", PEOPLE)
            assert status == 201
            files = sorted(p.name for p in data.iterdir())
            assert files == ["tables.sqlite3", "tables.sqlite3-shm", "tables.sqlite3-wal"]
            assert stat.S_IMODE(data.stat().st_mode) == 0o700
            for name in files:
                assert stat.S_IMODE((data / name).stat().st_mode) == 0o600, name
    finally:
        os.umask(old)


@pytest.mark.parametrize("folder", ["q?x=1", "pct%41", "a#b", "spa ce"])
def test_a_data_directory_is_a_path_never_pasted_into_a_url(tmp_path: Path, folder: str) -> None:
    data = tmp_path / folder
    url = database_url(None, data)
    store = Store(url)
    try:
        assert store.count_live() == 0
    finally:
        store.close()
    assert (data / "tables.sqlite3").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == [folder]


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("postgresql://u:pw@127.0.0.1:notaport/db", "must be a URL"),
        ("sqlite:///x?timeout=abc", "timeout must be a number"),
        ("postgresql://ada@127.0.0.1:1/db?password=S3cret", "cannot use the database"),
        ("postgresql://ada:S3cret@127.0.0.1:1/db?sslpassword=S3cret", "cannot use the database"),
        ("sqlite:///x?check_same_thread=maybe", "cannot use the database"),
    ],
)
def test_a_bad_database_url_is_one_line_without_its_secrets(
    url: str,
    said: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from high_society.cli import main

    monkeypatch.chdir(tmp_path)  # where a SQLite URL's relative file would be made
    with pytest.raises(InvalidConfigError, match=said) as refused:
        check_database(url)
    assert "S3cret" not in str(refused.value)
    assert "pw" not in str(refused.value).replace("postgresql", "")
    assert list(tmp_path.iterdir()) == []  # a refused database leaves no file behind
    assert main(["serve", "--database", url, "--port", "18556"]) == 1
    assert list(tmp_path.iterdir()) == []
    error = capsys.readouterr().err
    assert error.startswith("high-society: "), error
    assert error.count("\n") == 1, error
    assert "S3cret" not in error
    assert "Traceback" not in error
    assert shown_url("postgresql://a@h/d?password=S3cret&sslmode=require") == (
        "postgresql://a@h/d?password=***&sslmode=require"
    )


def test_numbers_from_clients_are_ascii_digits_only(client: TestClient) -> None:
    table, tokens = make(client)
    for since in ("\u00b2", "\u0661\u0662", "\uff11", "+1", " 1", "1e3"):
        answer = client.get(
            f"/api/tables/{table}/payload", params={"since": since}, headers=auth(tokens[0])
        )
        assert (answer.status_code, answer.json()["path"]) == (400, "$.since"), since
        header = {
            b"Authorization": f"Bearer {tokens[0]}".encode(),
            b"Last-Event-ID": since.encode(),
        }
        assert client.get(f"/api/tables/{table}/payload", headers=header).status_code == 400


def test_since_reads_the_same_plain_escaped_or_among_other_parameters(client: TestClient) -> None:
    table, tokens = make(client)
    got = client.get(f"/api/tables/{table}/payload", headers=auth(tokens[0])).json()
    number = got["number"]
    assert 1 <= number <= 9  # one digit: %3N escapes it
    seen = {
        query: client.get(f"/api/tables/{table}/payload?{query}", headers=auth(tokens[0])).json()
        for query in (
            f"since={number}",
            f"since=%3{number}",
            f"x=1&since={number}",
            f"since={number}&x=",
        )
    }
    assert all(answer["since"] == number for answer in seen.values()), seen
    for query in ("since=1%2B", "since=+1", "since=1&since=x", "since=1;"):
        answer = client.get(f"/api/tables/{table}/payload?{query}", headers=auth(tokens[0]))
        assert (answer.status_code, answer.json()["path"]) == (400, "$.since"), query


def test_every_error_has_the_one_shape_unknown_paths_and_methods_too(client: TestClient) -> None:
    for method, path, status, kind in (
        ("GET", "/api/nothing", 404, "not_found"),
        ("GET", "/nothing/at/all", 404, "not_found"),
        ("DELETE", "/api/tables", 405, "wrong_method"),
        ("PUT", "/api/health", 405, "wrong_method"),
        ("GET", "/static/nothing.js", 404, "not_found"),
        ("GET", "/docs", 404, "not_found"),  # the API docs are off by default
    ):
        answer = client.request(method, path)
        assert answer.status_code == status, (method, path)
        body = answer.json()
        assert set(body) == {"kind", "code", "message", "path"}, (method, path)
        assert body["kind"] == kind


def test_the_page_cannot_be_framed_and_runs_only_its_own_script(client: TestClient) -> None:
    for path in ("/", "/static/app.js", "/openapi.json"):
        headers = client.get(path).headers
        assert headers["x-frame-options"] == "DENY", path
        policy = headers["content-security-policy"]
        assert "frame-ancestors 'none'" in policy, path
        assert "default-src 'self'" in policy, path
        assert headers["x-content-type-options"] == "nosniff", path


def test_the_api_docs_are_served_only_when_asked_for(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path}/t.sqlite3", api_docs=True)
    with TestClient(app) as client:
        docs = client.get("/docs")
        assert docs.status_code == 200
        assert docs.headers["x-frame-options"] == "DENY"


def test_another_sites_simple_posts_are_refused(client: TestClient) -> None:
    body = json.dumps(THREE).encode()
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None):
        headers = {} if kind is None else {"Content-Type": kind}
        answer = client.post("/api/tables", content=body, headers=headers)
        assert (answer.status_code, answer.json()["kind"]) == (415, "wrong_media_type"), kind
    assert client.post("/api/tables", json=THREE).status_code == 201
    charset = {"Content-Type": "application/json; charset=utf-8"}
    assert client.post("/api/tables", content=body, headers=charset).status_code == 201


@pytest.mark.parametrize("name", ["\u200b", "\u200b\u200c\u200d", "\u2060", "\u00ad", " \u200b "])
def test_a_name_must_show_a_visible_character(client: TestClient, name: str) -> None:
    body = {"seats": [{"kind": "person", "name": name}, {"kind": "open"}, {"kind": "open"}]}
    answer = client.post("/api/tables", json=body)
    assert (answer.status_code, answer.json()["code"]) == (400, "BAD_PLAYERS")
    for fine in ("Ada", "7", "!", "\u263a", "\u00e9\u200b"):
        assert check_name(fine) == fine


def test_a_restored_table_refuses_control_characters_in_bot_labels() -> None:
    snapshot = Table([Seat("Ada"), Seat("Ben", bot="random"), Seat("Cy")], seed=1).snapshot()
    seats = snapshot["seats"]
    assert isinstance(seats, list)
    assert isinstance(seats[1], dict)
    for label in ("rand\x1bom", "x\u202e", "a\nb"):
        seats[1]["bot"] = label
        with pytest.raises(RecordError) as refused:
            Table.restore(snapshot)
        assert refused.value.path == "$.seats[1].bot"
        with pytest.raises(InvalidConfigError):
            Table([Seat("Ada"), Seat("Ben", bot=label), Seat("Cy")])


def test_a_tables_meta_is_bounded_so_its_snapshot_and_record_read_back() -> None:
    with pytest.raises(InvalidConfigError, match="bytes"):
        Table(["Ada", "Ben", "Cy"], meta={"note": "x" * (9 * 1024 * 1024)})
    with pytest.raises(InvalidConfigError):
        Table(["Ada", "Ben", "Cy"], meta={"deep": json.loads("[" * 200 + "]" * 200)})
    table = Table(["Ada", "Ben", "Cy"], seed=2, meta={"note": "y" * (MAX_META_BYTES - 20)})
    table.reveal()
    again = Table.restore(json.dumps(table.snapshot()))
    assert again.meta == table.meta
    assert loads_record(dumps_record(table.record())).meta == table.meta
    snapshot = table.snapshot()
    snapshot["meta"] = {"note": "z" * (MAX_META_BYTES + 1)}
    with pytest.raises(RecordError) as refused:
        Table.restore(snapshot)
    assert refused.value.path == "$.meta"


def test_serving_beyond_loopback_warns_that_tokens_travel_in_clear() -> None:
    assert exposure_warning("127.0.0.1") is None
    assert exposure_warning("::1") is None
    for host in ("0.0.0.0", "192.168.1.5", "::"):
        warning = exposure_warning(host)
        assert warning is not None
        assert "HTTPS" in warning
        assert host in warning
