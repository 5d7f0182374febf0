"""What one anonymous client may cost the table server (:class:`high_society.server.Limits`),
each bound checked where a hostile client would push it, and the server still serving
others: request heads (their size, their count of lines, their arrival), connections from
one address, event streams from one address, tables made by one address (a rate) and in
all, tables past their time, bots' pauses that hold no thread.

The connection bounds are the protocol's ``high-society serve`` runs under uvicorn, so they
are checked on real server processes (``services/server_processes.py``); the others through
the ASGI application. Waits are on conditions with generous bounds; nothing measures time.
"""

import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from high_society.bots import HeuristicBot
from high_society.cli import build_parser
from high_society.errors import InvalidConfigError
from high_society.host import play_game
from high_society.record import GameRecord, dumps_record, validate_file, validate_record
from high_society.server import Limits, create_app
from high_society.server._limits import Rate
from high_society.server._store import Store
from services.server_processes import Server, app_command, running, wait_for

PEOPLE = {"seats": [{"kind": "person", "name": n} for n in ("Ada", "Ben", "Cy")]}


def served(tmp_path: Path, **limits: float) -> Server:
    """A server process on SQLite with ``limits`` (the rest their defaults)."""
    url = f"sqlite:///{tmp_path}/tables.sqlite3"
    return Server(lambda port: app_command(port, url, limits=limits), tmp_path / "server.log")


class Small:
    """A server whose heads must arrive within 1 s, 20 connections per address, and the
    sockets a test opened to it (closed at the end)."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.sockets: list[socket.socket] = []

    def connect(self) -> socket.socket:
        made = socket.create_connection(("127.0.0.1", self.server.port), timeout=30)
        self.sockets.append(made)
        return made

    def healthy(self) -> bool:
        try:
            return self.server.call("GET", "/api/health")[0] == 200
        except OSError:
            return False


@pytest.fixture
def small(tmp_path: Path) -> Iterator[Small]:
    server = served(tmp_path, head_seconds=1, max_address_connections=20, max_headers=20)
    made = Small(server)
    try:
        yield made
    finally:
        for sock in made.sockets:
            sock.close()
        server.stop()


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server closed ``sock`` (what it sent before, if anything, is read)."""
    sock.settimeout(0.05)
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                return True
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


def answer_of(sock: socket.socket) -> bytes:
    sock.settimeout(30)
    data = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk


def resident_bytes(pid: int) -> int:
    """The process's resident memory (Linux's /proc), in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def test_a_huge_request_head_is_refused_431_and_closed_and_others_are_served(
    small: Small,
) -> None:
    before = resident_bytes(small.server.process.pid)
    floods = []
    for _ in range(19):  # 19 connections each offering 10 MB of header lines, kept open
        sock = small.connect()
        floods.append(sock)
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
        try:
            for _ in range(100):
                sock.sendall(b"".join(b"X-F: " + b"a" * 1000 + b"\r\n" for _ in range(100)))
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            pass
    wait_for(
        lambda: all(closed_by_server(sock) for sock in floods),
        "every flooded connection refused and closed",
        60,
    )
    # Each flood was cut after its first reads: the server did not keep the megabytes.
    assert resident_bytes(small.server.process.pid) - before < 16 * 1024 * 1024
    for sock in floods:
        sock.close()
    wait_for(small.healthy, "the server serves others", 60)
    flood = small.connect()
    flood.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
    try:
        for _ in range(1000):  # 1 MB of header lines, or until the server closes
            flood.sendall(b"X-Filler: " + b"a" * 1000 + b"\r\n")
    except (BrokenPipeError, ConnectionResetError):
        pass
    answer = answer_of(flood)
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:80]
    body = json.loads(answer.split(b"\r\n\r\n", 1)[1])
    assert (body["kind"], body["code"]) == ("too_large", "HEAD_TOO_LARGE")
    many = small.connect()
    lines = b"".join(b"X-%d: 1\r\n" % i for i in range(30))  # small, but more than 20 lines
    many.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n" + lines + b"\r\n")
    assert answer_of(many).startswith(b"HTTP/1.1 431 ")
    assert small.healthy()


def test_a_silent_connection_and_a_half_sent_head_are_closed(small: Small) -> None:
    silent = small.connect()
    half = small.connect()
    half.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")  # and never the end
    wait_for(lambda: closed_by_server(silent), "the silent connection closed", 60)
    wait_for(lambda: closed_by_server(half), "the half-sent head's connection closed", 60)
    assert small.healthy()


def test_one_address_holds_a_bounded_number_of_connections(small: Small) -> None:
    held = [small.connect() for _ in range(40)]
    wait_for(
        lambda: sum(closed_by_server(sock) for sock in held) >= 20,
        "the connections past the bound closed",
        60,
    )
    wait_for(small.healthy, "another client served (the idle ones closed in time)", 60)


def test_one_address_holds_a_bounded_number_of_event_streams(tmp_path: Path) -> None:
    limits = Limits(max_address_streams=3, max_seat_streams=4)
    app = create_app(f"sqlite:///{tmp_path}/t.sqlite3", limits=limits)
    with TestClient(app) as client:
        made = client.post("/api/tables", json=PEOPLE).json()
        table, tokens = made["table"], [s["token"] for s in made["seats"]]
        url = f"/api/tables/{table}/events"
        with (
            client.stream("GET", url, headers={"Authorization": f"Bearer {tokens[0]}"}) as a,
            client.stream("GET", url, headers={"Authorization": f"Bearer {tokens[1]}"}) as b,
            client.stream("GET", url, headers={"Authorization": f"Bearer {tokens[2]}"}) as c,
        ):
            assert (a.status_code, b.status_code, c.status_code) == (200, 200, 200)
            fourth = client.get(url, headers={"Authorization": f"Bearer {tokens[0]}"})
            assert fourth.status_code == 429
            assert fourth.json()["code"] == "TOO_MANY_STREAMS"
            assert "address" in fourth.json()["message"]


def test_tables_are_made_at_a_bounded_rate_per_address_and_bounded_in_all(
    tmp_path: Path,
) -> None:
    limits = Limits(tables_per_minute=5, max_tables=7)
    app = create_app(f"sqlite:///{tmp_path}/t.sqlite3", limits=limits)
    with TestClient(app) as client:
        made = [client.post("/api/tables", json=PEOPLE) for _ in range(6)]
        assert [m.status_code for m in made] == [201] * 5 + [429]
        assert made[5].json()["code"] == "TOO_MANY_TABLES"
        assert 1 <= int(made[5].headers["retry-after"]) <= 13
    # Another address makes its own; past max_tables the server refuses all (503).
    with TestClient(app, client=("10.0.0.2", 5000)) as other:
        second = [other.post("/api/tables", json=PEOPLE) for _ in range(3)]
        assert [m.status_code for m in second] == [201, 201, 503]
        assert second[2].json()["code"] == "TOO_MANY_TABLES"
        assert second[2].headers["retry-after"] == "60"


def test_the_rate_refills_with_time_and_forgets_the_oldest_addresses() -> None:
    now = [0.0]
    rate = Rate(2, keys=3, clock=lambda: now[0])
    assert [rate.take("a"), rate.take("a")] == [0.0, 0.0]
    assert rate.take("a") == pytest.approx(30.0)  # one more in 30 s
    now[0] = 30.0
    assert rate.take("a") == 0.0
    for key in ("b", "c", "d"):
        rate.take(key)
    assert rate.take("a") == 0.0  # forgotten: a whole burst again
    with pytest.raises(InvalidConfigError, match="positive"):
        Limits(tables_per_minute=0)


def test_tables_past_their_time_are_deleted_and_records_kept_as_games_end(
    tmp_path: Path,
) -> None:
    records = tmp_path / "records"
    records.mkdir()
    database = f"sqlite:///{tmp_path}/t.sqlite3"
    app = create_app(database, sweep_seconds=0.1, records=records)
    three = {
        "seats": [
            {"kind": "person", "name": "Ada"},
            {"kind": "bot", "bot": "random"},
            {"kind": "bot", "bot": "random"},
        ]
    }
    with TestClient(app) as client:
        made = client.post("/api/tables", json=three).json()
        table, token = made["table"], made["seats"][0]["token"]
        headers = {"Authorization": f"Bearer {token}"}
        for _ in range(500):
            seen = client.get(f"/api/tables/{table}/payload", headers=headers).json()
            if seen["result"] is not None:
                break
            if seen["to_act"] == 0:
                move = {"action": {"type": "pass", "player": 0}, "number": seen["number"]}
                if seen["legal"]["discards"]:
                    move["action"] = seen["legal"]["discards"][0]
                elif not seen["legal"]["pass"]:
                    move["action"] = seen["legal"]["bids"][0]["action"]
                client.post(f"/api/tables/{table}/actions", json=move, headers=headers)
            else:
                time.sleep(0.01)
        path = records / f"high-society-{table}.json"
        wait_for(path.exists, "the finished game's record written")
        assert validate_file(path).finished
        waiting = client.post("/api/tables", json={"seats": [{"kind": "open"}] * 3}).json()
    store = Store(database)
    try:
        later = time.time() + 1
        assert sorted(store.expire(idle_before=0, over_before=later)) == [table]
        assert store.expire(idle_before=later, over_before=0) == [waiting["table"]]
        assert store.count_live() == 0
    finally:
        store.close()
    with TestClient(create_app(database)) as client:
        assert client.get(f"/api/tables/{table}").status_code == 404


def test_bots_pausing_between_actions_hold_no_thread_and_others_are_served(
    tmp_path: Path,
) -> None:
    # --bot-delay is awaited: twenty tables of bots, each pausing an hour after its first
    # action, hold no worker thread, and a request is answered meanwhile.
    app = create_app(f"sqlite:///{tmp_path}/t.sqlite3", bot_delay=3600)
    bots_first = {
        "seats": [
            {"kind": "bot", "bot": "random"},
            {"kind": "bot", "bot": "random"},
            {"kind": "person", "name": "Ada"},
        ]
    }
    with TestClient(app) as client:
        before = threading.active_count()
        tables = [client.post("/api/tables", json=bots_first).json()["table"] for _ in range(20)]
        wait_for(
            lambda: all(client.get(f"/api/tables/{t}").json()["number"] >= 2 for t in tables),
            "every table's first bot has acted (and pauses)",
        )
        assert client.get(f"/api/tables/{tables[0]}").status_code == 200
        assert threading.active_count() <= before + 20  # the pools' threads at most


def test_the_serve_protocol_bounds_are_the_defaults_documented() -> None:
    limits = Limits()
    assert (limits.max_head_bytes, limits.max_headers, limits.head_seconds) == (16_384, 64, 10)
    assert (limits.max_address_connections, limits.max_address_streams) == (64, 32)
    assert (limits.tables_per_minute, limits.max_tables) == (20, 10_000)
    assert (limits.idle_hours, limits.keep_days) == (24, 30)
    served = build_parser().parse_args(["serve"])
    assert served.tables_per_minute == limits.tables_per_minute
    assert served.address_connections == limits.max_address_connections
    assert served.address_streams == limits.max_address_streams
    text = (Path(__file__).resolve().parent.parent / "docs" / "serve.md").read_text("utf-8")
    for figure in ("16,384", "64 header lines", "10 seconds", "64 connections", "32 event"):
        assert figure in text, figure


def test_a_server_under_these_bounds_still_plays(tmp_path: Path) -> None:
    with running(
        lambda port: app_command(port, f"sqlite:///{tmp_path}/t.sqlite3"), tmp_path / "s.log"
    ) as server:
        status, made = server.call("POST", "/api/tables", PEOPLE)
        assert status == 201
        assert isinstance(made, dict)
        status, _ = server.call("GET", f"/api/tables/{made['table']}")
        assert status == 200


# --- A body sent with its head is the body's, bounded by its endpoint --------------------


def padded_record(size: int) -> bytes:
    """A valid record of a whole game, its ``meta`` padded to about ``size`` bytes."""
    final, actions = play_game([HeuristicBot(seed) for seed in range(3)], seed=5)
    assert final.is_over
    record = GameRecord(["Ada", "Ben", "Cy"], actions)
    text = dumps_record(record).encode()
    padded = GameRecord(["Ada", "Ben", "Cy"], actions, meta={"pad": "x" * (size - len(text))})
    return dumps_record(padded).encode()


def sent_whole(port: int, method: str, path: str, body: bytes) -> tuple[int, dict[str, Any]]:
    """One request whose head and body go out in one ``sendall``, as ``http.client`` and
    ``requests`` send them; the answer's status and JSON."""
    head = (
        f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(head + body)
        answer = answer_of(sock)
    status = int(answer.split(b" ", 2)[1])
    return status, json.loads(answer.split(b"\r\n\r\n", 1)[1])


@pytest.fixture
def roomy(tmp_path: Path) -> Iterator[Server]:
    server = served(tmp_path)
    try:
        yield server
    finally:
        server.stop()


def test_a_body_sent_with_its_head_is_not_counted_as_head(roomy: Server) -> None:
    record = padded_record(100 * 1024)
    assert validate_record(record).valid
    status, answer = sent_whole(roomy.port, "POST", "/api/replays", record)
    assert status == 200, answer
    assert answer["valid"] is True
    # http.client, as a Python client uses it, sends head and body in one write too.
    connection = http.client.HTTPConnection("127.0.0.1", roomy.port, timeout=30)
    try:
        connection.request("POST", "/api/replays", record, {"Content-Type": "application/json"})
        reply = connection.getresponse()
        assert reply.status == 200
        assert json.loads(reply.read())["valid"] is True
    finally:
        connection.close()


def test_a_body_over_its_endpoint_s_bound_is_413_in_the_error_shape(roomy: Server) -> None:
    too_large = padded_record(300 * 1024)
    status, answer = sent_whole(roomy.port, "POST", "/api/replays", too_large)
    assert (status, answer["kind"], answer["code"]) == (413, "too_large", "TOO_LARGE")
    table = json.dumps({"seats": [{"kind": "person", "name": "x" * 30_000}]}).encode()
    status, answer = sent_whole(roomy.port, "POST", "/api/tables", table)
    assert (status, answer["kind"], answer["code"]) == (413, "too_large", "TOO_LARGE")
    assert roomy.call("GET", "/api/health")[0] == 200


def test_a_huge_chunked_body_is_413_and_the_answer_reaches_the_client(roomy: Server) -> None:
    head = (
        b"POST /api/replays HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    chunk = b"%x\r\n%s\r\n" % (1024 * 1024, b" " * (1024 * 1024))
    with socket.create_connection(("127.0.0.1", roomy.port), timeout=30) as sock:
        sock.sendall(head)
        try:
            for _ in range(64):  # 64 MB, unless the server stops reading first
                sock.sendall(chunk)
            sock.sendall(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass
        sock.settimeout(30)
        answer = sock.recv(65536)
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:80]
    body = json.loads(answer.split(b"\r\n\r\n", 1)[1].split(b"\r\n")[0])
    assert (body["kind"], body["code"]) == ("too_large", "TOO_LARGE")
    assert roomy.call("GET", "/api/health")[0] == 200
